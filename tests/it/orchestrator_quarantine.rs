//! Bad capacity quarantined (issue 33 item 3): a snapshot whose creates keep failing is kept
//! off for a cool-off; sessions go to `SNAPSHOT_FALLBACK`, or, with none, no new session is
//! claimed until a probe after the cool-off succeeds. The emulator makes creates from the named
//! snapshot fail (`"snapshot"` in a fault rule).

use std::time::Duration;

use outposts::orchestrator::sandbox_name;
use outposts::provider::Provider;

use crate::support::capacity::{placements, refused_then_only, row, warned_once};
use crate::support::daytona::provider;
use crate::support::orch::*;
use crate::support::{Emu, block_on};

const WAIT: Duration = Duration::from_secs(90);

/// Creates from `snapshot` are refused as Daytona refuses a sandbox that fails to boot (400
/// `Sandbox failed to start`), `times` times (0: always).
fn fail_creates_from(emu: &Emu, snapshot: &str, times: u32) {
    let rule = format!(
        r#"{{"method":"POST","path":"/daytona/api/sandbox$","snapshot":"{snapshot}","times":{times},
        "action":{{"kind":"status","status":400,
        "body":"{{\"statusCode\":400,\"message\":\"Sandbox failed to start: image pull failed\"}}"}}}}"#
    );
    block_on(emu.client().add_faults(&rule)).unwrap();
}

fn metrics_addr() -> String {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    format!("127.0.0.1:{port}")
}

fn quarantined_gauge(addr: &str, snapshot: &str) -> Option<f64> {
    let text = crate::observability::scrape(addr);
    crate::observability::sample(
        &text,
        &format!("outposts_placement_quarantined{{kind=\"snapshot\",name=\"{snapshot}\"}}"),
    )
}

#[test]
fn a_failing_snapshot_is_quarantined_and_sessions_go_to_the_fallback() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, mut env) = orch_emulator_built(&[]);
    let primary = snapshot_name(&env);
    env.run(&["snapshot", "build", "--name", "fallback-snap"])
        .ok();
    env.set("QUARANTINE_AFTER", "2")
        .set("QUARANTINE_COOL_OFF", "1h")
        .set("SNAPSHOT_FALLBACK", "fallback-snap");
    fail_creates_from(&emu, &primary, 0);
    let addr = metrics_addr();
    let orch = Orch::start(&env, &["--provider", "daytona", "--metrics-addr", &addr]);
    let sessions = [new_session(&emu, None), new_session(&emu, None)];
    for s in &sessions {
        wait_until(
            WAIT,
            "the session served",
            || connected_at(&emu, s, 1),
            || orch.log(),
        );
    }
    // Two refused creates from the primary, then only the fallback: no third try while it
    // cools off.
    let made = daytona_creates(&emu, "snapshot");
    refused_then_only(&made, &primary, "fallback-snap", 2, &orch.log());
    let daytona = provider(&emu);
    for s in &sessions {
        assert!(block_on(daytona.get(&sandbox_name(s))).unwrap().is_some());
    }
    // Said once, at WARN, naming the snapshot.
    warned_once(&orch, &format!("quarantined snapshot {primary}"));
    let log = orch.log();
    assert!(!log.contains("not claiming new sessions"), "{log}");
    // The metric, and `orchestrator status` (JSON and table).
    assert_eq!(quarantined_gauge(&addr, &primary), Some(1.0));
    assert_eq!(quarantined_gauge(&addr, "fallback-snap"), Some(0.0));
    let (status, rows) = placements(&env);
    assert_eq!(status["placement"]["claiming"], true, "{status:#}");
    let bad = row(&rows, &primary).expect("the primary's row");
    assert_eq!(bad["quarantined"], true);
    assert_eq!(bad["failures"], 2);
    assert!(
        bad["reason"].as_str().unwrap().contains("failed to start"),
        "{bad}"
    );
    assert_eq!(row(&rows, "fallback-snap").unwrap()["quarantined"], false);
    let table = env.run(&["orchestrator", "status"]).ok().stdout.clone();
    assert!(
        table.contains(&format!(
            "quarantined  snapshot {primary}: 2 failed creates"
        )),
        "{table}"
    );
    // A restart remembers the quarantine: the gauge says so from the start, and the next
    // session goes straight to the fallback.
    drop(orch);
    let addr = metrics_addr();
    let orch = Orch::start(&env, &["--provider", "daytona", "--metrics-addr", &addr]);
    let late = new_session(&emu, None);
    wait_until(
        WAIT,
        "the session served",
        || connected_at(&emu, &late, 1),
        || orch.log(),
    );
    assert_eq!(
        quarantined_gauge(&addr, &primary),
        Some(1.0),
        "{}",
        orch.log()
    );
    let made = daytona_creates(&emu, "snapshot");
    assert_eq!(
        made.iter().filter(|(s, _)| *s == primary).count(),
        2,
        "{made:?}"
    );
}

#[test]
fn with_no_fallback_nothing_is_claimed_while_quarantined_then_claiming_resumes() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, mut env) = orch_emulator_built(&[]);
    let primary = snapshot_name(&env);
    const COOL_OFF: u64 = 8;
    env.set("QUARANTINE_AFTER", "2")
        .set("QUARANTINE_COOL_OFF", format!("{COOL_OFF}s"));
    // The snapshot fails twice, then recovers.
    fail_creates_from(&emu, &primary, 2);
    let orch = Orch::start(&env, &["--provider", "daytona"]);
    let first = [new_session(&emu, None), new_session(&emu, None)];
    wait_until(
        WAIT,
        "claiming to stop",
        || orch.log().contains("not claiming new sessions"),
        || orch.log(),
    );
    // A session that arrives while the only snapshot is quarantined waits in the queue.
    let late = new_session(&emu, None);
    let queued_ms = now_ms();
    let status = env.run(&["orchestrator", "status", "--json"]).ok().json();
    let p = &status["placement"];
    assert_eq!(p["claiming"], false, "{status:#}");
    let resumes = p["claiming_resumes_at"].as_f64().expect("until when");
    let table = env.run(&["orchestrator", "status"]).ok().stdout.clone();
    assert!(table.contains("claiming     STOPPED"), "{table}");
    for s in first.iter().chain([&late]) {
        wait_until(
            WAIT,
            "the session served",
            || connected_at(&emu, s, 1),
            || orch.log(),
        );
    }
    // No claim at all between the quarantine and the end of its cool-off (less a margin for
    // the clocks): the late session was claimable all along.
    let history = block_on(emu.client().history(None)).unwrap();
    let claims_ms: Vec<u64> = history
        .iter()
        .filter(|h| h.event == "claim")
        .map(|h| h.at_ms)
        .collect();
    let quiet_until = (resumes * 1000.0) as u64 - 500;
    let early: Vec<&u64> = claims_ms
        .iter()
        .filter(|t| **t >= queued_ms && **t < quiet_until)
        .collect();
    assert!(
        early.is_empty(),
        "claims while quarantined: {early:?}\n{}",
        orch.log()
    );
    // The probe succeeded: the snapshot is back, and said so.
    let log = orch.log();
    assert!(log.contains("recovered"), "{log}");
    assert!(log.contains("claiming new sessions again"), "{log}");
    let made = daytona_creates(&emu, "snapshot");
    assert!(made.iter().all(|(s, _)| *s == primary), "{made:?}");
    let status = env.run(&["orchestrator", "status", "--json"]).ok().json();
    assert_eq!(status["placement"]["claiming"], true, "{status:#}");
    let row = &status["placement"]["placements"][0];
    assert_eq!(row["quarantined"], false, "{status:#}");
    // Remembered in the state dir, for a restart.
    let state = std::fs::read_to_string(placements_file(&env)).expect("placements.json");
    assert!(state.contains(&primary), "{state}");
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64
}

/// The one outpost state dir's `placements.json`.
fn placements_file(env: &crate::support::TestEnv) -> std::path::PathBuf {
    let status = env.run(&["orchestrator", "status", "--json"]).ok().json();
    let root = std::path::PathBuf::from(status["state_dir"].as_str().unwrap());
    let outposts = root.join("outposts");
    let dir = std::fs::read_dir(&outposts)
        .unwrap()
        .flatten()
        .find(|e| e.path().join("placements.json").exists())
        .expect("an outpost dir with placements.json");
    dir.path().join("placements.json")
}
