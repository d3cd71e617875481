//! Dead capacity on every provider (issue 33 items 2–4): a CoreWeave sandbox put into FAILED
//! gets a failure record and is reaped after `FAILED_KEEP` as a Daytona `error` one is; a create
//! that hangs counts as a failure after the create timeout and quarantines like a refused one;
//! a failing Daytona target is quarantined and sessions go to `DAYTONA_TARGET_FALLBACK`.

use std::time::Duration;

use crate::support::capacity::*;
use crate::support::orch::*;
use crate::support::{Emu, block_on};

const WAIT: Duration = Duration::from_secs(120);
const IMAGE: &str = "public.ecr.aws/e0h8a4b6/devin-cli:stable";

/// How many calls the emulator answered whose path ends with `suffix`.
fn calls(emu: &Emu, suffix: &str) -> usize {
    emu.requests()
        .iter()
        .filter(|r| r.path.ends_with(suffix))
        .count()
}

#[test]
fn a_coreweave_sandbox_in_failed_is_recorded_kept_for_failed_keep_then_reaped() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, mut env) = orch_emulator(&[]);
    env.set("FAILED_KEEP", "10s");
    let reason = "emulated fault: runner r-9 lost the pod";
    emulator_post(
        &emu,
        "coreweave/failed",
        serde_json::json!({"next": true, "reason": reason}),
    );
    let orch = Orch::start(
        &env,
        &[
            "--provider",
            "coreweave",
            "--image",
            IMAGE,
            "--janitor-grace",
            "1s",
        ],
    );
    let s = new_session(&emu, None);

    // The attempt fails on the FAILED sandbox; the record says so, with the provider's reason.
    failed_sandbox_record(&env, &orch, &s, reason, WAIT);
    let deletes_before = calls(&emu, "/DeleteSandbox");

    // Reaped by the janitor once FAILED_KEEP ran out (a DeleteSandbox for it), and said so.
    reaped_after(&env, &orch, &s, 10.0, WAIT);
    assert!(
        calls(&emu, "/DeleteSandbox") > deletes_before,
        "no DeleteSandbox for the failed sandbox\n{}",
        orch.log()
    );
    assert!(orch.log().contains("failed_reaped"), "{}", orch.log());
    // The next attempt creates a fresh sandbox and serves the session.
    wait_until(
        WAIT,
        "the remote connected",
        || connected_at(&emu, &s, 1),
        || orch.log(),
    );
    // Reaped once: a FAILED sandbox stays readable after its delete, and is not taken again —
    // neither for the session nor by the janitor.
    let log = orch.log();
    assert_eq!(log.matches("janitor: failed_reaped").count(), 1, "{log}");
}

#[test]
fn a_create_that_hangs_fails_after_the_timeout_and_quarantines_like_a_refused_one() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, mut env) = orch_emulator_built(&[]);
    let primary = snapshot_name(&env);
    env.run(&["snapshot", "build", "--name", "fallback-snap"])
        .ok();
    // A create answers within 3 s or is given up (each try: the HTTP read timeout).
    env.set("OUTPOSTS_READ_TIMEOUT", "3s")
        .set("QUARANTINE_AFTER", "2")
        .set("QUARANTINE_COOL_OFF", "1h")
        .set("SNAPSHOT_FALLBACK", "fallback-snap");
    // Creates from the primary hang (an hour), as a stuck scheduler's do.
    let rule = format!(
        r#"{{"method":"POST","path":"/daytona/api/sandbox$","snapshot":"{primary}","times":0,
        "action":{{"kind":"delay","ms":3600000}}}}"#
    );
    block_on(emu.client().add_faults(&rule)).unwrap();
    let orch = Orch::start(&env, &["--provider", "daytona"]);
    let s = new_session(&emu, None);
    wait_until(
        WAIT,
        "the session served",
        || connected_at(&emu, &s, 1),
        || orch.log(),
    );
    warned_once(&orch, &format!("quarantined snapshot {primary}"));
    // The hung creates never answered; the last create went to the fallback and was served.
    let made = daytona_creates(&emu, "snapshot");
    let last = made.last().expect("creates");
    assert_eq!(last.0, "fallback-snap", "{made:?}");
    let (status, rows) = placements(&env);
    let bad = row(&rows, &primary).expect("its row");
    assert_eq!(bad["quarantined"], true, "{status:#}");
    assert_eq!(bad["failures"], 2, "{status:#}");
}

#[test]
fn a_failing_daytona_target_is_quarantined_and_sessions_go_to_the_fallback_target() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, mut env) = orch_emulator_built(&[]);
    env.set("DAYTONA_TARGET", "us")
        .set("DAYTONA_TARGET_FALLBACK", "eu")
        .set("QUARANTINE_AFTER", "2")
        .set("QUARANTINE_COOL_OFF", "1h");
    // Every create in `us` is refused as a region out of capacity is.
    let rule = r#"{"method":"POST","path":"/daytona/api/sandbox$","target":"us","times":0,
        "action":{"kind":"status","status":400,
        "body":"{\"statusCode\":400,\"message\":\"Sandbox failed to start: no runner available in region us\"}"}}"#;
    block_on(emu.client().add_faults(rule)).unwrap();
    let orch = Orch::start(&env, &["--provider", "daytona"]);
    let sessions = [new_session(&emu, None), new_session(&emu, None)];
    for s in &sessions {
        wait_until(
            WAIT,
            "the session served",
            || connected_at(&emu, s, 1),
            || orch.log(),
        );
    }
    // Two refused creates in `us`, then only `eu`.
    let made = daytona_creates(&emu, "target");
    refused_then_only(&made, "us", "eu", 2, &orch.log());
    warned_once(&orch, "quarantined target us");
    let (status, rows) = placements(&env);
    let us = row(&rows, "us").expect("the row of target us");
    assert_eq!(us["kind"], "target", "{status:#}");
    assert_eq!(us["quarantined"], true, "{status:#}");
    assert_eq!(row(&rows, "eu").expect("eu's row")["quarantined"], false);
    assert_eq!(status["placement"]["claiming"], true, "{status:#}");
}

#[test]
fn a_target_fallback_without_daytona_target_is_refused_naming_both() {
    let (_emu, mut env) = orch_emulator(&[]);
    env.set("DAYTONA_TARGET_FALLBACK", "eu");
    let run = env.run(&["orchestrator", "run", "--provider", "daytona"]);
    assert_eq!(run.code, 2, "{}", run.all());
    assert!(
        run.stderr
            .contains("DAYTONA_TARGET_FALLBACK is set but DAYTONA_TARGET is not"),
        "{}",
        run.stderr
    );
}
