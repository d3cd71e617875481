//! Failures you can inspect: a session whose remote keeps dying is given up and its failure
//! record (`orchestrator failures`, `orchestrator status`) shows the remote's last log line; a
//! sandbox the provider puts into `error` is recorded, kept for `FAILED_KEEP`, then reaped by
//! the janitor, and the session is served again on a fresh sandbox.

use std::time::Duration;

use outposts::orchestrator::sandbox_name;
use outposts::provider::{Provider, SandboxState};

use crate::support::block_on;
use crate::support::capacity::{failed_sandbox_record, reaped_after};
use crate::support::daytona::provider;
use crate::support::orch::*;

const WAIT: Duration = Duration::from_secs(120);

#[test]
fn a_given_up_sessions_failure_record_shows_the_remotes_last_log_line() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    // Claims carry a gateway URL the fake remote cannot use: it exits 2 at once, saying why.
    let (emu, env) = orch_emulator(&["--gateway-url", "wss://gateway.invalid/gateway"]);
    let orch = Orch::start(&env, &["--provider", "local"]);
    let s = new_session(&emu, None);
    wait_until(
        WAIT,
        "the give-up in the failure record",
        || failure_record(&env, &s).is_some_and(|r| r["given_up"].is_string()),
        || orch.log(),
    );
    let r = failure_record(&env, &s).unwrap();
    assert_eq!(r["step"], "remote", "{r:#}");
    assert!(r["error"].as_str().unwrap().contains("exited 2"), "{r:#}");
    let last = r["remote_log"].as_array().unwrap().last().cloned();
    assert!(
        last.as_ref()
            .and_then(|l| l.as_str())
            .is_some_and(|l| l.contains("plain HTTP only")),
        "the remote's last line: {r:#}"
    );
    assert!(r["attempt"].as_u64() >= Some(2), "{r:#}");
    assert_eq!(r["sandbox_state"], "started", "{r:#}");
    assert!(
        r["events"].as_array().is_some_and(|e| e
            .iter()
            .any(|e| e["text"].as_str().unwrap().contains("launched"))),
        "the session's events: {r:#}"
    );
    // The human views say the same: the list, the record whole, the status line.
    let list = env.run(&["orchestrator", "failures"]);
    list.ok();
    assert!(
        list.stdout.contains(&s) && list.stdout.contains("given up"),
        "{}",
        list.stdout
    );
    let one = env.run(&["orchestrator", "failures", &s]);
    one.ok();
    assert!(one.stdout.contains("plain HTTP only"), "{}", one.stdout);
    assert!(
        one.stdout.contains("remote log (last lines):"),
        "{}",
        one.stdout
    );
    wait_until(
        Duration::from_secs(15),
        "the kept sandbox in the status",
        || {
            let doc = env.run(&["orchestrator", "status", "--json"]).json();
            doc["failed"].as_array().is_some_and(|f| {
                f.iter().any(|x| {
                    x["session_id"] == s.as_str()
                        && x["last_log"]
                            .as_str()
                            .is_some_and(|l| l.contains("plain HTTP only"))
                        && x["reap_at"].as_f64().is_some()
                })
            })
        },
        || orch.log(),
    );
    let human = env.run(&["orchestrator", "status"]);
    assert!(
        human
            .stdout
            .lines()
            .any(|l| l.starts_with("failed") && l.contains(&s) && l.contains("plain HTTP only")),
        "{}",
        human.stdout
    );
    // No secret in the state dir's record; owner-only.
    let file = std::fs::read_dir(env.path("state/outposts"))
        .ok()
        .and_then(|mut d| d.next())
        .map(|d| d.unwrap().path().join("failures.json"));
    if let Some(file) = file.filter(|f| f.exists()) {
        let text = std::fs::read_to_string(&file).unwrap();
        let token = emu.env_value("DEVIN_OUTPOSTS_TOKEN");
        assert!(!token.is_empty() && !text.contains(&token), "{text}");
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{}", file.display());
    }
    // The README's commands, as printed (the session id filled in; the jq line needs jq).
    let lines = crate::readme_walkthrough::guide("#### Failure records");
    let ours: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("outposts orchestrator") && !l.contains('|'))
        .collect();
    assert!(ours.len() >= 3, "{lines:?}");
    for line in ours {
        let line = line.replace("SESSION_ID", &s);
        let args: Vec<&str> = line.split_whitespace().skip(1).collect();
        let r = env.run(&args);
        r.ok();
        assert!(r.stdout.contains(&s), "{line}:\n{}", r.stdout);
    }
    // An unknown session is said so, with a hint that runs.
    let none = env.run(&["orchestrator", "failures", "devin-nosuchsession"]);
    assert_eq!(none.code, 1, "{}", none.all());
    assert!(
        none.stderr
            .contains("no failure record for session devin-nosuchsession"),
        "{}",
        none.stderr
    );
}

#[test]
fn an_error_state_sandbox_is_recorded_kept_for_failed_keep_then_reaped() {
    crate::support::host::require!(crate::support::host::BWRAP);
    let (emu, mut env) = orch_emulator_built(&[]);
    env.set("FAILED_KEEP", "10s");
    let reason = "emulated fault: runner r-7 lost its disk";
    emulator_post(
        &emu,
        "daytona/error",
        serde_json::json!({"next": true, "reason": reason}),
    );
    let orch = Orch::start(&env, &["--provider", "daytona", "--janitor-grace", "1s"]);
    let daytona = provider(&emu);
    let s = new_session(&emu, None);

    // The attempt fails on the sandbox in `error`; the record says so.
    let r = failed_sandbox_record(&env, &orch, &s, reason, WAIT);
    assert!(
        r["sandbox_detail"].as_str().unwrap().contains(reason),
        "{r:#}"
    );
    let failed_id = r["sandbox_id"]
        .as_str()
        .expect("the sandbox id")
        .to_string();
    assert_eq!(
        block_on(daytona.get(&failed_id))
            .unwrap()
            .map(|sb| sb.state),
        Some(SandboxState::Error),
        "kept, in error, for FAILED_KEEP"
    );

    // Reaped by the janitor once FAILED_KEEP ran out, and said so.
    reaped_after(&env, &orch, &s, 10.0, WAIT);
    wait_until(
        WAIT,
        "the failed sandbox gone",
        || {
            block_on(daytona.get(&failed_id))
                .unwrap()
                .is_none_or(|sb| matches!(sb.state, SandboxState::Deleted | SandboxState::Deleting))
        },
        || orch.log(),
    );
    assert!(
        orch.log().contains("failed_reaped"),
        "the janitor says what it did:\n{}",
        orch.log()
    );
    // The next attempt starts over on a fresh sandbox and serves the session.
    wait_until(
        WAIT,
        "a fresh sandbox",
        || {
            block_on(daytona.get(&sandbox_name(&s)))
                .ok()
                .flatten()
                .is_some_and(|sb| sb.id != failed_id && sb.state == SandboxState::Started)
        },
        || orch.log(),
    );
    let connected = || {
        block_on(emu.client().history(Some(&s)))
            .unwrap()
            .iter()
            .any(|h| h.event == "connect")
    };
    wait_until(WAIT, "the remote connected", connected, || orch.log());
}
