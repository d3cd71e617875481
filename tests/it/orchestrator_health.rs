//! The probes a supervisor uses (`/readyz`, `/livez`, `/healthz` on `--metrics-addr`), against a
//! real orchestrator and the emulator: ready only after the first reconcile pass and while the
//! queue can be listed with accepted credentials; live unless the loop is wedged.

use std::time::Duration;

use crate::observability::{http_get, metrics_addr};
use crate::support::orch::*;
use crate::support::{Emu, TestEnv, block_on};

const WAIT: Duration = Duration::from_secs(60);

/// `GET path`: (status code, body).
fn probe(addr: &str, path: &str) -> (u16, String) {
    let (head, body) = http_get(addr, path, None);
    let code = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("no status line in {head:?}"));
    (code, body)
}

/// An orchestrator with no session to serve (so no sandbox, no bubblewrap), its probes on a
/// free port; `failpoints` is the file `OUTPOSTS_FAILPOINTS` names (re-read at every hit).
fn start(emu: &Emu, failpoints: Option<&str>) -> (TestEnv, Orch, String) {
    let mut env = orch_env(emu);
    env.set("OUTPOSTS_LOCAL_UNISOLATED", "1");
    if let Some(f) = failpoints {
        env.set("OUTPOSTS_FAILPOINTS", format!("@{f}"));
    }
    let orch = Orch::start(
        &env,
        &["--provider", "local", "--metrics-addr", "127.0.0.1:0"],
    );
    let addr = metrics_addr(&orch);
    (env, orch, addr)
}

fn wait_for(orch: &Orch, addr: &str, path: &str, code: u16, says: &str) {
    wait_until(
        WAIT,
        &format!("{path} to answer {code} saying {says:?}"),
        || {
            let (c, body) = probe(addr, path);
            c == code && body.contains(says)
        },
        || format!("{path}: {:?}\n{}", probe(addr, path), orch.log()),
    );
}

#[test]
fn ready_after_the_first_reconcile_and_not_while_the_token_is_refused() {
    let emu = Emu::start(&TestEnv::new(), &[]);
    let dir = tempfile::tempdir().unwrap();
    let fp = dir.path().join("failpoints");
    // The first pass is held back long enough to see the probe before it.
    std::fs::write(&fp, "reconcile.pass=sleep:10000@1").unwrap();
    let (_env, orch, addr) = start(&emu, Some(fp.to_str().unwrap()));
    let (code, body) = probe(&addr, "/readyz");
    assert_eq!(
        (code, body.trim()),
        (503, "not ready: no reconcile pass yet"),
        "{}",
        orch.log()
    );
    assert_eq!(probe(&addr, "/livez").0, 200, "starting is live");
    wait_for(&orch, &addr, "/readyz", 200, "ready: queue listed");
    assert_eq!(probe(&addr, "/livez").0, 200);
    assert_eq!(probe(&addr, "/healthz").0, 200);

    // Devin refuses the token from now on.
    block_on(emu.client().add_faults(
        r#"{"path": "/opbeta/outposts/devins", "times": 0,
            "action": {"kind": "status", "status": 401, "body": "{\"detail\":\"Invalid token\"}"}}"#,
    ))
    .unwrap();
    wait_for(
        &orch,
        &addr,
        "/readyz",
        503,
        "the devin API rejects the credentials (HTTP 401)",
    );
    // A restart would not fix a refused token: the process stays live.
    let (code, body) = probe(&addr, "/livez");
    assert_eq!(code, 200, "{body}");
    // The token is accepted again: ready again, without a restart.
    block_on(emu.client().clear_faults()).unwrap();
    wait_for(&orch, &addr, "/readyz", 200, "ready: queue listed");
}

#[test]
fn not_ready_while_the_queue_cannot_be_listed() {
    let emu = Emu::start(&TestEnv::new(), &[]);
    let (_env, orch, addr) = start(&emu, None);
    wait_for(&orch, &addr, "/readyz", 200, "ready: queue listed");
    block_on(emu.client().add_faults(
        r#"{"path": "/opbeta/outposts/devins", "times": 0,
            "action": {"kind": "status", "status": 503}}"#,
    ))
    .unwrap();
    // RECONCILE_INTERVAL=1 (orch_env): not ready once the last good listing is 3 s old.
    wait_for(
        &orch,
        &addr,
        "/readyz",
        503,
        "not ready: the session queue was last listed",
    );
    // The loop keeps passing (each failed relist is retried): live, no restart wanted.
    let (code, body) = probe(&addr, "/livez");
    assert_eq!(code, 200, "{body}");
    block_on(emu.client().clear_faults()).unwrap();
    wait_for(&orch, &addr, "/readyz", 200, "ready: queue listed");
}

#[test]
fn not_live_when_the_loop_is_wedged() {
    let emu = Emu::start(&TestEnv::new(), &[]);
    let dir = tempfile::tempdir().unwrap();
    let fp = dir.path().join("failpoints");
    let (_env, orch, addr) = start(&emu, Some(fp.to_str().unwrap()));
    wait_for(&orch, &addr, "/readyz", 200, "ready: queue listed");
    assert_eq!(probe(&addr, "/livez").0, 200);
    // Wedge the loop: the next pass blocks for ten minutes.
    std::fs::write(&fp, "reconcile.pass=sleep:600000").unwrap();
    wait_for(&orch, &addr, "/livez", 503, "the loop is wedged");
    let (code, body) = probe(&addr, "/healthz");
    assert_eq!(code, 503, "/healthz is /livez: {body}");
    let (code, body) = probe(&addr, "/readyz");
    assert_eq!(code, 503, "{body}");
    assert!(body.contains("wedged"), "{body}");
}
