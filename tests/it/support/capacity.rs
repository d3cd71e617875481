//! Dead capacity, as the capacity, failure-record and quarantine tests each check it: a failed
//! sandbox's record and its reaping after `FAILED_KEEP`, a placement quarantined after refused
//! creates, and what `orchestrator status` says of the placements.

#![allow(dead_code)]

use std::time::Duration;

use crate::support::TestEnv;
use crate::support::orch::{Orch, failure_record, wait_until};

/// Waits for the session's failure record naming its sandbox in the provider's failed state
/// (`sandbox_state` `error`), checks it blames the sandbox step with the provider's `reason`
/// and is not reaped yet, and returns it.
pub fn failed_sandbox_record(
    env: &TestEnv,
    orch: &Orch,
    session: &str,
    reason: &str,
    wait: Duration,
) -> serde_json::Value {
    wait_until(
        wait,
        "the failure record",
        || failure_record(env, session).is_some_and(|r| r["sandbox_state"] == "error"),
        || orch.log(),
    );
    let r = failure_record(env, session).expect("the failure record");
    assert_eq!(r["step"], "sandbox", "{r:#}");
    assert!(r["error"].as_str().unwrap().contains(reason), "{r:#}");
    assert!(r["reaped_at"].is_null(), "kept at first: {r:#}");
    r
}

/// Waits for the janitor to reap the session's failed sandbox and checks it was kept for
/// `keep_s` seconds (`FAILED_KEEP`) first.
pub fn reaped_after(env: &TestEnv, orch: &Orch, session: &str, keep_s: f64, wait: Duration) {
    wait_until(
        wait,
        "the reaping",
        || failure_record(env, session).is_some_and(|r| r["reaped_at"].is_f64()),
        || orch.log(),
    );
    let r = failure_record(env, session).expect("the failure record");
    let kept_for = r["reaped_at"].as_f64().unwrap() - r["failing_since"].as_f64().unwrap();
    eprintln!("kept {kept_for:.1} s (FAILED_KEEP {keep_s} s)");
    assert!(kept_for >= keep_s, "not reaped before FAILED_KEEP: {r:#}");
}

/// The creates (`daytona_creates`: name, status) went `refused` times to `bad`, each refused
/// (400), and after the last of them only to `good`, each accepted.
pub fn refused_then_only(made: &[(String, u16)], bad: &str, good: &str, refused: usize, log: &str) {
    let on_bad: Vec<_> = made.iter().filter(|(name, _)| name == bad).collect();
    assert_eq!(on_bad.len(), refused, "{made:?}\n{log}");
    assert!(on_bad.iter().all(|(_, st)| *st == 400), "{made:?}");
    let last_bad = made.iter().rposition(|(name, _)| name == bad).unwrap();
    assert!(
        made[last_bad + 1..]
            .iter()
            .all(|(name, st)| name == good && *st < 300),
        "{made:?}"
    );
}

/// The orchestrator said `what` (e.g. `quarantined target us`) once, at WARN.
pub fn warned_once(orch: &Orch, what: &str) {
    let log = orch.log();
    let warns = log
        .lines()
        .filter(|l| l.contains("WARN") && l.contains(what))
        .count();
    assert_eq!(warns, 1, "{log}");
}

/// `orchestrator status --json`, and its placement rows.
pub fn placements(env: &TestEnv) -> (serde_json::Value, Vec<serde_json::Value>) {
    let status = env.run(&["orchestrator", "status", "--json"]).ok().json();
    let rows = status["placement"]["placements"]
        .as_array()
        .expect("placement rows")
        .clone();
    (status, rows)
}

/// The placement row named `name`.
pub fn row<'a>(rows: &'a [serde_json::Value], name: &str) -> Option<&'a serde_json::Value> {
    rows.iter().find(|r| r["name"] == name)
}
