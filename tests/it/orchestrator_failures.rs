//! A session whose provisioning keeps failing (the emulator's remote distribution answers 500):
//! the narration says each failure once, on one line; the retry is not called a wake; and
//! `orchestrator status` (table, whole off a terminal, and `--json`) says why it is not served.

use std::time::Duration;

use crate::support::orch::*;

const WAIT: Duration = Duration::from_secs(60);
const FAULT: &str =
    r#"[{"path":"/static/devin-rs/remote/","times":0,"action":{"kind":"status","status":500}}]"#;

#[test]
fn a_failing_provision_is_one_line_per_attempt_and_status_says_why() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, env) = orch_emulator(&["--faults", FAULT]);
    let log = env.path("orchestrator.log");
    let child = env
        .cmd(&["orchestrator", "run", "--provider", "local"])
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    let mut orch = Orch { child, log };
    let s = new_session(&emu, None);
    let failures = |text: &str| {
        text.lines()
            .filter(|l| l.contains(&s) && l.contains("failed:"))
            .count()
    };
    wait_until(
        WAIT,
        "two failed attempts",
        || failures(&orch.log()) >= 2,
        || orch.log(),
    );
    let text = orch.log();
    // Each attempt: one warning line, then one line for the release; nothing else says it.
    let released = text
        .lines()
        .filter(|l| l.contains(&s) && l.contains("not served"))
        .count();
    assert!(
        failures(&text) == released || failures(&text) == released + 1,
        "one line per failure:\n{text}"
    );
    assert!(
        // (The session's lines: without bubblewrap the start's own isolation WARN is expected.)
        text.lines()
            .filter(|l| l.contains(&s))
            .all(|l| !l.contains("event=") && !l.contains(" WARN ")),
        "no log record beside the narration:\n{text}"
    );
    for l in text.lines().filter(|l| l.contains("failed:")) {
        assert!(l.starts_with("warning: "), "{l}");
        assert!(l.contains("HTTP 500"), "the reason is on the line: {l}");
    }
    assert!(!text.contains("woke"), "a retry is no wake:\n{text}");
    assert!(
        text.contains("started again (retry after a failed provision)"),
        "{text}"
    );

    // The status says why, in JSON and in the table (whole: off a terminal nothing is cut).
    // Between attempts (while an attempt runs, the session is held and provisioning).
    let listed = |doc: &serde_json::Value| {
        doc["not_served"]
            .as_array()
            .and_then(|a| a.iter().find(|r| r["session_id"] == s.as_str()))
            .filter(|r| r["failures"].as_u64() >= Some(2))
            .cloned()
    };
    let status = || env.run(&["orchestrator", "status", "--json"]).ok().json();
    wait_until(
        WAIT,
        "the session listed as not served",
        || listed(&status()).is_some(),
        || format!("{:#}", status()),
    );
    let row = listed(&status()).expect("still listed: the next attempt is seconds away");
    let reason = row["reason"].as_str().unwrap();
    assert!(
        reason.contains("HTTP 500") && reason.contains(".sha256"),
        "{row}"
    );
    assert!(row["failures"].as_u64().unwrap() >= 2, "{row}");
    let table = env.run(&["orchestrator", "status"]).ok().stdout.clone();
    assert!(
        table
            .lines()
            .any(|l| l.starts_with(&s) && l.contains("not served")),
        "{table}"
    );
    assert!(
        table
            .lines()
            .any(|l| l.starts_with("not served") && l.contains(&s) && l.contains(reason)),
        "{table}"
    );
    // LAST EVENT is printed whole off a terminal.
    assert!(
        table
            .lines()
            .any(|l| l.contains(" · failed: ") && l.contains(reason)),
        "{table}"
    );
    orch.kill();
}

/// A sleeping session terminated: the janitor deletes its sandbox, and from that pass on the
/// status neither lists it under SLEEPING nor counts its sandbox as sleeping.
#[test]
fn a_sleeper_the_janitor_deleted_is_not_listed_or_counted_as_sleeping() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, mut env) = orch_emulator(&[]);
    // One janitor pass in the window below: what it leaves stays in the status until the next.
    env.set("JANITOR_INTERVAL", "20");
    let log = env.path("orchestrator.log");
    let child = env
        .cmd(&["orchestrator", "run", "--provider", "local"])
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    let mut orch = Orch { child, log };
    let s = new_session(&emu, None);
    let said = |words: &str| {
        let text = orch.log();
        text.lines().any(|l| l.contains(&s) && l.contains(words))
    };
    wait_until(WAIT, "served", || said("served:"), || orch.log());
    crate::support::block_on(emu.client().suspend(&s)).unwrap();
    wait_until(WAIT, "the sleep", || said("slept"), || orch.log());
    let status = || env.run(&["orchestrator", "status", "--json"]).ok().json();
    wait_until(
        WAIT,
        "the sleeper listed",
        || {
            status()["sleeping"]
                .as_array()
                .is_some_and(|a| !a.is_empty())
        },
        || orch.log(),
    );
    crate::support::block_on(emu.client().terminate(&s)).unwrap();
    wait_until(
        Duration::from_secs(90),
        "the janitor's delete",
        || said("janitor: deleted"),
        || orch.log(),
    );
    let seen = outposts_now();
    wait_until(
        WAIT,
        "a status written after the delete",
        || {
            status()["status_updated_at"]
                .as_f64()
                .is_some_and(|u| u > seen)
        },
        || orch.log(),
    );
    let doc = status();
    let sleeping = doc["sleeping"].as_array().unwrap();
    assert!(
        sleeping.iter().all(|r| r["session_id"] != s.as_str()),
        "{s} listed as sleeping after its sandbox was deleted: {doc:#}"
    );
    assert_eq!(
        doc["sandboxes"]["sleeping"].as_u64(),
        Some(sleeping.len() as u64),
        "the count matches the rows: {doc:#}"
    );
    orch.kill();
}

fn outposts_now() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs_f64()
}
