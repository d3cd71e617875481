//! Integration tests: the real `outposts` binary against `outposts emulator` on loopback, in a
//! sealed HOME. One test binary (modules below) keeps link time down.

mod support;

mod auth_status;
mod cli_basics;
mod connect_browser;
mod connect_emulator;
mod connect_flow;
mod connect_support;
mod coreweave_emulator;
mod coreweave_provider;
mod coreweave_sdk;
mod daytona_conformance;
mod daytona_provider;
mod daytona_snapshot;
mod daytona_support;
mod deploy;
mod devin_admin;
mod devin_queue;
mod devin_remote;
mod devin_watch;
mod docs;
mod doctor;
mod generated;
mod json_walk;
mod local_provider;
mod local_provider_procs;
mod orch_support;
mod orchestrator_cli;
mod orchestrator_daytona;
mod orchestrator_extras;
mod orchestrator_local;
mod outpost_crud;
mod verify_cli;
mod verify_coreweave;
mod verify_daytona;
mod verify_local;
mod verify_support;
mod worker_common;
mod worker_coreweave;
mod worker_fake_cli;
mod worker_local;
