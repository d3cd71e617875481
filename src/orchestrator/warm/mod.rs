//! Warm capacity: ready sandboxes kept above the active ones (`WARM_IDLE`), each handed to the
//! next new session so serving it needs no create.
//!
//! `plan.rs` decides (pure, table-tested in `tests.rs`); `exec.rs` keeps what this process
//! knows of its warm sandboxes, lists them, and creates and deletes what the plan says;
//! `handover.rs` gives a new session the sandbox the plan picks and finds it again by labels. A warm sandbox carries the outpost's label, `devin.warm` (the generation of the source
//! it booted from) and `devin.warm_owner` (this instance's acceptor id): only its owner ever
//! hands it over, so no sandbox is served to two sessions even with several replicas, and the
//! janitor (which acts only on sandboxes with a session label) never touches one. Handing one
//! over gives it to the session (`Provider::hand_over`: new labels on Daytona and local; a
//! receipt on CoreWeave, whose tags are fixed); from then on it is found as the session's.

mod exec;
mod handover;
pub mod plan;
#[cfg(test)]
mod sim;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

use sha2::{Digest, Sha256};

pub(super) use exec::Warm;
pub use exec::WarmStatus;
pub use plan::{WarmIdle, WarmSettings};

use crate::provider::Source;

/// Label carrying the generation of the source a warm sandbox booted from.
pub const LABEL_WARM: &str = "devin.warm";
/// Label naming the orchestrator (acceptor id) that owns a warm sandbox.
pub const LABEL_WARM_OWNER: &str = "devin.warm_owner";

/// The generation of a source: a change of snapshot or image changes it, which retires every
/// warm sandbox booted from the old one.
pub fn generation(source: &Source) -> String {
    let text = match source {
        Source::Snapshot(s) => format!("snapshot:{s}"),
        Source::Image(i) => format!("image:{i}"),
        Source::Default => "default".to_string(),
    };
    hex::encode(Sha256::digest(text.as_bytes()))[..16].to_string()
}

/// The labels that find this instance's warm sandboxes.
pub fn owner_labels(outpost_id: &str, acceptor_id: &str) -> BTreeMap<String, String> {
    [
        (super::LABEL_OUTPOST.to_string(), outpost_id.to_string()),
        (LABEL_WARM_OWNER.to_string(), acceptor_id.to_string()),
    ]
    .into_iter()
    .collect()
}
