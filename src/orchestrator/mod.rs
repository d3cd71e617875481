//! The orchestrator: one sandbox per Devin session, claimed, served, slept, woken and deleted.
//!
//! `plan.rs` decides (pure), `run.rs` carries actions out, `remote.rs` installs and launches
//! `devin-remote`, `janitor.rs` sweeps leaked sandboxes, `state.rs` owns the state dir.

pub mod plan;
pub mod remote;
pub mod state;
