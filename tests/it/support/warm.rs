//! Warm capacity (`WARM_IDLE`) as the warm tests see it: the provider's listing filtered by the
//! warm and session labels, what the orchestrator holds ready, and a session served from it.

#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use outposts::orchestrator::LABEL_SESSION;
use outposts::orchestrator::warm::LABEL_WARM;
use outposts::provider::{Provider, SandboxInfo, SandboxState};

use crate::support::orch::{Orch, launch_line, wait_until};
use crate::support::{TestEnv, block_on};

/// Every sandbox the provider lists.
pub fn sandboxes(p: &dyn Provider) -> Vec<SandboxInfo> {
    block_on(p.list(&BTreeMap::new())).expect("list")
}

/// Started warm sandboxes (not yet handed over), by id.
pub fn warm_idle(p: &dyn Provider) -> BTreeSet<String> {
    sandboxes(p)
        .into_iter()
        .filter(|sb| {
            sb.labels.contains_key(LABEL_WARM)
                && !sb.labels.contains_key(LABEL_SESSION)
                && sb.state == SandboxState::Started
        })
        .map(|sb| sb.id)
        .collect()
}

/// Every warm sandbox there is, whatever its state (deleted ones excluded).
pub fn warm_any(p: &dyn Provider) -> Vec<SandboxInfo> {
    sandboxes(p)
        .into_iter()
        .filter(|sb| sb.labels.contains_key(LABEL_WARM) && sb.state != SandboxState::Deleted)
        .collect()
}

/// The session's sandbox, found by its labels (a warm one keeps its own name).
pub fn session_sandbox(p: &dyn Provider, session: &str) -> Option<SandboxInfo> {
    sandboxes(p).into_iter().find(|sb| {
        sb.labels.get(LABEL_SESSION).map(String::as_str) == Some(session)
            && sb.state != SandboxState::Deleted
    })
}

/// How many warm sandboxes the orchestrator itself holds ready to hand over (its status file).
/// A sandbox the provider lists as started may still be warming up (the remote being
/// pre-installed): only these are sure to serve the next session.
pub fn ready_to_serve(env: &TestEnv) -> u64 {
    let out = env.run(&["--json", "orchestrator", "status"]).stdout;
    // Before the first status file there is nothing ready to count.
    serde_json::from_str::<serde_json::Value>(out.trim())
        .ok()
        .and_then(|doc| doc["warm"]["idle"].as_u64())
        .unwrap_or(0)
}

/// Waits for `session`'s launch, checks its sandbox is one of the `warm` ones it was served
/// from, and returns the launch line (whose `cached=` the caller checks).
pub fn warm_served_launch(
    orch: &Orch,
    p: &dyn Provider,
    warm: &BTreeSet<String>,
    session: &str,
    wait: Duration,
) -> String {
    wait_until(
        wait,
        "the session's launch",
        || launch_line(orch, session).is_some(),
        || orch.log(),
    );
    let served = session_sandbox(p, session).expect("the session's sandbox");
    assert!(
        warm.contains(&served.id),
        "not served from warm capacity: {served:?}\n{}",
        orch.log()
    );
    launch_line(orch, session).unwrap()
}
