//! The orchestrator: one sandbox per Devin session, claimed, served, slept, woken and deleted.
//!
//! `plan/` decides everything (pure: observed state and memory → actions; memory changes only
//! by `Track::apply`); `run/` runs the loop, owns the executor's state (one record per session,
//! one in-flight map) and carries actions out through the stages `observe.rs`, `claim.rs`,
//! `provision.rs` (with `egress.rs`), `liveness.rs`, `end.rs`, `sweep.rs` and `sleep.rs`,
//! which report typed outcomes and changes. `remote/` installs and launches `devin-remote`,
//! `state.rs` owns the state dir.

use sha2::{Digest, Sha256};

mod census;
mod claim;
mod cost;
mod cost_usage;
mod egress;
mod end;
pub mod failures;
pub mod handover;
pub mod integrity;
mod liveness;
mod memory;
pub mod metrics;
mod narrate;
mod observe;
mod placing;
mod placing_targets;
pub mod plan;
mod provision;
pub(crate) use provision::ProvisionError;
pub mod remote;
mod report;
pub mod run;
mod session_id;
mod sleep;
pub mod state;
mod sweep;
pub mod warm;

pub use failures::FailedRow;
pub use memory::limit_arenas;
pub use placing::{PlacementReport, PlacementRow};
pub use provision::repo_dir_name;
pub use report::{
    EndedRow, GivenUpRow, NotServedRow, RefusedRow, SessionRow, SleepingRow, StatusFile,
};
pub use session_id::SessionId;
pub use sleep::Fleet;

/// Label naming the session a sandbox serves.
pub const LABEL_SESSION: &str = "devin.session_id";
/// Label naming the outpost whose queue the session came from.
pub const LABEL_OUTPOST: &str = "devin.outpost_id";

/// The session's sandbox name: `devin-<safe id>-<sha256(id)[:24]>`, at most 63 characters, so it
/// is a valid name on every provider and the same on every replica (the idempotency handle).
pub fn sandbox_name(session_id: &str) -> String {
    let hash = &hex::encode(Sha256::digest(session_id.as_bytes()))[..24];
    // 63 - len("devin-") - len("-") - 24 = 32 characters for the readable part.
    let safe = readable(session_id, 32);
    if safe.is_empty() {
        format!("devin-{hash}")
    } else {
        format!("devin-{safe}-{hash}")
    }
}

/// The readable part of an id for names and paths: lower-case ASCII letters, digits and single
/// dashes, at most `max` characters. Always paired with a hash of the id, so distinct ids never
/// collide.
pub fn readable(id: &str, max: usize) -> String {
    let dashed: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    let joined = dashed
        .split('-')
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    let cut: String = joined.chars().take(max).collect();
    cut.trim_end_matches('-').to_string()
}

/// The labels a session's sandbox carries.
pub fn sandbox_labels(
    session_id: &str,
    outpost_id: &str,
) -> std::collections::BTreeMap<String, String> {
    [
        (LABEL_SESSION.to_string(), session_id.to_string()),
        (LABEL_OUTPOST.to_string(), outpost_id.to_string()),
    ]
    .into_iter()
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sandbox_names_are_valid_stable_and_distinct() {
        let n = sandbox_name("devin-0123456789abcdef");
        assert!(n.starts_with("devin-devin-0123456789abcdef-"), "{n}");
        assert_eq!(n, sandbox_name("devin-0123456789abcdef"));
        for id in [
            "../../etc/passwd",
            &"x".repeat(300),
            "UPPER case ünïcode\u{0}",
            "",
            "---",
        ] {
            let n = sandbox_name(id);
            assert!(n.len() <= 63, "{n}");
            assert!(
                n.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
                "{n}"
            );
            assert!(!n.contains("--") && !n.ends_with('-'), "{n}");
        }
        assert_ne!(sandbox_name("a/b"), sandbox_name("a-b"));
    }
}
