//! The status file's rows of failure records: the failed sandboxes kept for forensics.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::record::FailureRecord;

/// A failed sandbox kept for forensics (`orchestrator status`): why, and when it is reaped.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct FailedRow {
    pub session_id: String,
    pub sandbox_id: Option<String>,
    /// The step that failed (`sandbox`, `launch`, `remote`, `sandbox_error`, …).
    pub step: String,
    pub error: String,
    /// Unix seconds of the failure.
    pub at: f64,
    pub attempt: u32,
    /// The remote's last log line, when it logged one.
    pub last_log: Option<String>,
    /// Why the session was given up, once it was.
    pub given_up: Option<String>,
    /// When the janitor deletes the sandbox (`FAILED_KEEP` after the streak's first failure);
    /// `None` when the session had slept (its workspace is kept).
    pub reap_at: Option<f64>,
}

/// The status rows: open records (their sandbox is kept), newest first.
pub fn failed_rows(records: &[FailureRecord], keep: f64) -> Vec<FailedRow> {
    records
        .iter()
        .filter(|r| r.open())
        .map(|r| FailedRow {
            session_id: r.session_id.clone(),
            sandbox_id: r.sandbox_id.clone(),
            step: r.step.as_str().to_string(),
            error: one_line(&r.error),
            at: r.at,
            attempt: r.attempt,
            last_log: r.last_remote_line().map(str::to_string),
            given_up: r.given_up.clone(),
            reap_at: (!r.woke).then_some(r.failing_since + keep),
        })
        .collect()
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}
