//! The orchestrator against a server whose claim TTL is short (the real one is unknown,
//! specs §13.5) and a remote that dies at once: renewals stay bounded and every session is
//! served; the dead remote is reported with its own log line within seconds and the session is
//! given up (released, cooled off) with the reason in `orchestrator status`.

use std::time::{Duration, Instant};

use crate::support::orch::*;
use crate::support::{Emu, block_on};

/// Claims (first claims and renewals) per session per minute, from the emulator's history.
fn claims_per_minute(emu: &Emu, session: &str, minutes: f64) -> f64 {
    let n = block_on(emu.client().history(Some(session)))
        .expect("history")
        .iter()
        .filter(|h| h.event == "claim" || h.event == "renew")
        .count();
    n as f64 / minutes
}

fn bounded_renewals(ttl: &str, ttl_secs: f64) {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, env) = orch_emulator(&["--claim-ttl", ttl]);
    let started = Instant::now();
    let orch = Orch::start(&env, &["--provider", "local"]);
    let sessions: Vec<String> = (0..2)
        .map(|i| new_session(&emu, Some(proof_task(&format!("ttl-{ttl}-{i}")))))
        .collect();
    for s in &sessions {
        wait_until(
            Duration::from_secs(90),
            "every session served",
            || tasks_done(&emu, s),
            || orch.log(),
        );
    }
    // Keep serving a while, so the pace of renewals shows.
    let run_for = Duration::from_secs(25);
    if let Some(rest) = run_for.checked_sub(started.elapsed()) {
        std::thread::sleep(rest);
    }
    let minutes = started.elapsed().as_secs_f64() / 60.0;
    // The stated bound: one renewal per max(2 s, TTL/2) — the TTL as observed, up to a second
    // short because deadlines are whole seconds on the wire — plus the first claim and one
    // spare.
    let bound = 60.0 / ((ttl_secs - 1.0) / 2.0).max(2.0) + 2.0 / minutes;
    for s in &sessions {
        let rate = claims_per_minute(&emu, s, minutes);
        eprintln!("claim TTL {ttl}: session {s}: {rate:.1} claims per minute (bound {bound:.1})");
        assert!(
            rate <= bound,
            "{rate:.1} claims/min > {bound:.1}\n{}",
            orch.log()
        );
        assert!(rate > 0.0);
    }
    // The short TTL is reported once, with the numbers.
    let log = orch.log();
    let warned = log
        .lines()
        .filter(|l| l.contains("too short for CLAIM_RENEW_MARGIN"))
        .collect::<Vec<_>>();
    assert_eq!(warned.len(), 1, "{log}");
    // Deadlines are whole seconds on the wire, so the observed TTL is up to a second short.
    let seen: f64 = warned[0]
        .split("claims of ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no TTL in {}", warned[0]));
    assert!(seen <= ttl_secs && seen >= ttl_secs - 1.5, "{}", warned[0]);
    assert!(
        warned[0].contains("CLAIM_RENEW_MARGIN=60 s"),
        "{}",
        warned[0]
    );
    assert!(warned[0].contains("WARN"), "{}", warned[0]);
}

#[test]
fn a_5s_claim_ttl_keeps_renewals_bounded_and_serves_every_session() {
    bounded_renewals("5s", 5.0);
}

#[test]
fn a_20s_claim_ttl_keeps_renewals_bounded_and_serves_every_session() {
    bounded_renewals("20s", 20.0);
}

#[test]
fn a_remote_that_exits_at_once_is_reported_with_its_log_and_the_session_given_up() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    // Claims carry a gateway URL the fake remote cannot use: it exits 2 at once, saying why.
    let (emu, env) = orch_emulator(&["--gateway-url", "wss://gateway.invalid/gateway"]);
    let orch = Orch::start(&env, &["--provider", "local"]);
    let s = new_session(&emu, None);
    let mut launched: Option<Instant> = None;
    let mut warned: Option<Instant> = None;
    let deadline = Instant::now() + Duration::from_secs(90);
    while warned.is_none() && Instant::now() < deadline {
        let log = orch.log();
        if launched.is_none() && log.contains("remote_launched") {
            launched = Some(Instant::now());
        }
        if log.lines().any(|l| {
            l.contains("WARN") && l.contains("the remote exited 2") && l.contains("plain HTTP only")
        }) {
            warned = Some(Instant::now());
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let launched = launched.unwrap_or_else(|| panic!("never launched\n{}", orch.log()));
    let warned = warned.unwrap_or_else(|| panic!("no WARN with the log line\n{}", orch.log()));
    let after = warned.duration_since(launched);
    eprintln!("WARN with the remote's last log line {after:?} after the launch");
    assert!(after <= Duration::from_secs(10), "{after:?}");

    // Given up: released and cooling off within two minutes, and the status says why.
    wait_until(
        Duration::from_secs(120),
        "the give-up",
        || {
            let r = env.run(&["orchestrator", "status", "--json"]);
            r.code == 0
                && r.json()["given_up"]
                    .as_array()
                    .is_some_and(|g| g.iter().any(|x| x["session_id"] == s.as_str()))
        },
        || orch.log(),
    );
    let gave_up = launched.elapsed();
    eprintln!("given up {gave_up:?} after the first launch");
    assert!(gave_up <= Duration::from_secs(120));
    let history = block_on(emu.client().history(Some(&s))).unwrap();
    assert_eq!(history.last().map(|h| h.event.as_str()), Some("release"));
    let doc = env.run(&["orchestrator", "status", "--json"]).json();
    let entry = doc["given_up"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["session_id"] == s.as_str())
        .unwrap()
        .clone();
    assert!(
        entry["reason"].as_str().unwrap().contains("exited 2"),
        "{entry}"
    );
    assert!(
        entry["last_log"]
            .as_str()
            .unwrap()
            .contains("plain HTTP only"),
        "{entry}"
    );
    assert!(entry["retry_at"].as_f64().is_some());
    let human = env.run(&["orchestrator", "status"]);
    human.ok();
    assert!(
        human.stdout.contains("given up") && human.stdout.contains(&s),
        "{}",
        human.stdout
    );
    // No relaunch while cooling off.
    let claims_then = claims(&emu, &s).len();
    std::thread::sleep(Duration::from_secs(3));
    assert_eq!(claims(&emu, &s).len(), claims_then);
}
