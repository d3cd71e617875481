//! `outposts`: run Devin Outposts on compute you own.
//!
//! The binary's entry point is `src/main.rs`; this library exposes the same modules so that
//! integration tests can drive the real clients against `outposts emulator`.

pub mod api;
pub mod cli;
pub mod commands;
pub mod config;
pub mod connect;
pub mod doctor;
pub mod emulator;
pub mod env;
pub mod error;
pub mod failpoint;
pub mod orchestrator;
pub mod output;
pub mod provider;
pub mod secrets;
pub mod time;
pub mod verify;
pub mod worker;
