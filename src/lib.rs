//! `outposts`: run Devin Outposts on compute you own.
//!
//! The binary's entry point is `src/main.rs`; this library exposes the modules it and the
//! integration tests and benches use (driving the real clients against `outposts emulator`);
//! the rest is crate-private, so the compiler reports what nothing uses.

pub mod api;
pub mod cli;
pub mod commands;
pub mod config;
pub mod connect;
pub mod cost;
pub(crate) mod doctor;
pub mod emulator;
pub mod env;
pub mod error;
pub(crate) mod failpoint;
pub mod logging;
pub mod orchestrator;
pub mod output;
pub(crate) mod poll;
pub mod provider;
pub mod secrets;
pub mod settings;
pub mod shell;
pub(crate) mod time;
pub mod units;
pub(crate) mod verify;
pub mod worker;
