//! Integration tests: the real `outposts` binary against `outposts emulator` on loopback, in a
//! sealed HOME. One test binary (modules below) keeps link time down.

mod support;

mod cli_basics;
mod coreweave_emulator;
mod coreweave_provider;
mod coreweave_sdk;
mod daytona_conformance;
mod daytona_provider;
mod daytona_snapshot;
mod daytona_support;
mod devin_admin;
mod devin_queue;
mod devin_remote;
mod devin_watch;
mod generated;
mod invariants;
mod local_provider;
mod local_provider_procs;
mod orch_support;
mod orchestrator_daytona;
mod orchestrator_local;
mod rel_crash;
mod rel_faults;
mod rel_janitor;
mod rel_restart;
mod rel_scale;
mod rel_security;
mod rel_soak;
mod rel_support;
