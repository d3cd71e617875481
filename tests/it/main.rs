//! Integration tests: the real `outposts` binary against `outposts emulator` on loopback, in a
//! sealed HOME. One test binary (modules below) keeps link time down.

mod support;

mod cli_basics;
mod daytona_conformance;
mod daytona_provider;
mod daytona_snapshot;
mod daytona_support;
mod local_provider;
