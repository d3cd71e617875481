//! T3 (replica race on a hot queue) and T16 (concurrency cap and capacity leaks): several real
//! orchestrator processes on one queue and one emulated Daytona account.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use outposts::emulator::devin::NewSession;
use rand::Rng;

use crate::invariants::{self, Quiesce};
use crate::support::block_on;
use crate::support::rel::*;

const WAIT: Duration = Duration::from_secs(120);

/// T3: 3 replicas, 200 sessions (150 at once, 50 more arriving at 10/s), random client-side
/// latency. One successful claim per session generation, no sandbox call by a 409 loser, every
/// session served.
#[test]
fn t3_replica_race_on_a_hot_queue() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let total = knob("T3_SESSIONS", 200);
    let seed = seed();
    let mut c = Cluster::start(
        "T3",
        seed,
        ClusterOpts {
            replicas: 3,
            cap: 10,
            ..ClusterOpts::default()
        },
    );
    c.start_all();
    // 0–50 ms of latency on a third of the queue calls (seeded).
    c.faults(
        r#"[
        {"path":"/opbeta/outposts/devins","times":0,"rate":0.2,"action":{"kind":"delay","ms":50}},
        {"path":"/opbeta/outposts/devins","times":0,"rate":0.15,"action":{"kind":"delay","ms":20}}
    ]"#,
    );
    let burst = total * 3 / 4;
    let ids = std::sync::Arc::new(std::sync::Mutex::new(c.new_sessions(burst)));
    let t0 = Instant::now();
    // The rest trickles in at 10/s while the first wave is served.
    let trickle = total - burst;
    let feeder = {
        let emu_url = c.emu.base_url.clone();
        let ids = ids.clone();
        std::thread::spawn(move || {
            let client = outposts::emulator::client::EmulatorClient::new(
                outposts::api::HttpClient::new(outposts::api::HttpOptions::default()).unwrap(),
                &emu_url,
            );
            for _ in 0..trickle {
                let s = block_on(client.new_sessions(&NewSession::default())).unwrap();
                ids.lock().unwrap().push(s[0].session_id.clone());
                std::thread::sleep(Duration::from_millis(100));
            }
        })
    };
    // End every session once it is served, freeing the slot for the next.
    let mut ended: BTreeSet<String> = BTreeSet::new();
    while ended.len() < total && t0.elapsed() < Duration::from_secs(300) {
        let ours: BTreeSet<String> = ids.lock().unwrap().iter().cloned().collect();
        for s in c.sessions() {
            if ours.contains(&s.session_id)
                && !ended.contains(&s.session_id)
                && s.phase == "claimed"
                && s.remote_connected
                && s.session_status == "running"
            {
                block_on(c.emu.client().terminate(&s.session_id)).expect("terminate");
                ended.insert(s.session_id);
            }
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    feeder.join().unwrap();
    let ids: Vec<String> = ids.lock().unwrap().clone();
    assert_eq!(
        ended.len(),
        total,
        "not every session was served: {}",
        invariants::summary(&c.world_light())
    );
    let elapsed = t0.elapsed().as_secs_f64();
    let w = c.settle(WAIT, all_destroyed);
    c.stop_all();
    let w2 = c.world();
    c.assert_invariants(&w2, Quiesce::Yes);
    let mut per_session: BTreeMap<(&str, u32), usize> = BTreeMap::new();
    for h in w.history.iter().filter(|h| h.event == "claim") {
        *per_session
            .entry((&h.session_id, h.generation))
            .or_default() += 1;
    }
    // A session claimed twice in one generation was released in between (I2 checks that no
    // two held it at once): a provisioning failure under load, retried.
    let doubles = per_session.values().filter(|n| **n > 1).count();
    let conflicts = w
        .history
        .iter()
        .filter(|h| h.event == "claim_conflict")
        .count();
    let mut per_replica: BTreeMap<String, usize> = BTreeMap::new();
    for h in w.history.iter().filter(|h| h.event == "claim") {
        *per_replica
            .entry(h.acceptor_id.clone().unwrap_or_default())
            .or_default() += 1;
    }
    let errors: usize = c
        .replicas
        .iter()
        .map(|r| r.all_logs().matches(" ERROR ").count())
        .sum();
    figure("T3", "sessions", ids.len());
    figure("T3", "replicas", 3);
    figure("T3", "reclaims_after_release", doubles);
    figure("T3", "claim_conflicts_409", conflicts);
    figure(
        "T3",
        "claims_per_replica",
        format!("{:?}", per_replica.values().collect::<Vec<_>>()),
    );
    figure("T3", "error_log_lines", errors);
    figure("T3", "all_served_s", format!("{elapsed:.1}"));
    figure(
        "T3",
        "enqueue_to_running",
        percentiles(enqueue_to_running(&w2)),
    );
    for ((sid, _), n) in per_session.iter().filter(|(_, n)| **n > 1) {
        let events: Vec<String> = w
            .history
            .iter()
            .filter(|h| h.session_id == *sid)
            .map(|h| format!("{}:{}", h.event, h.acceptor_id.clone().unwrap_or_default()))
            .collect();
        eprintln!("session {sid} claimed {n} times: {events:?}");
    }
    for r in &mut c.replicas {
        assert!(!r.all_logs().contains("panicked"));
    }
}

/// T16: cap 4 per replica, 2 replicas, 40 sessions; create errors and timeouts, sessions
/// terminated mid-create, a black-hole session whose launch always fails, and SIGKILLs. The
/// cap holds at every instant (replayed from the server's history), capacity comes back after
/// quiesce, a restarted replica never claims beyond the cap, and the black hole is backed off,
/// not retried in a hot loop.
#[test]
fn t16_concurrency_cap_and_capacity_leaks() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let n = knob("T16_SESSIONS", 40);
    let seed = seed();
    let cap = 4;
    let mut c = Cluster::start(
        "T16",
        seed,
        ClusterOpts {
            replicas: 2,
            cap,
            extra_env: vec![("OUTPOSTS_READ_TIMEOUT".into(), "3".into())],
            ..ClusterOpts::default()
        },
    );
    c.start_all();
    c.faults(
        r#"[
        {"method":"POST","path":"/daytona/api/sandbox$","times":0,"rate":0.15,"action":{"kind":"status","status":500}},
        {"method":"POST","path":"/daytona/api/sandbox$","times":0,"rate":0.1,"action":{"kind":"commit_then_delay","ms":4000}}
    ]"#,
    );
    // The black hole: a pinned remote whose checksum never matches.
    let hole = block_on(c.emu.client().new_sessions(&NewSession {
        remote_binary_sha: Some("badc0ffee0".into()),
        ..NewSession::default()
    }))
    .unwrap()[0]
        .session_id
        .clone();
    let t_hole = Instant::now();
    let mut rng = rng(seed);
    let ids = c.new_sessions(n);
    let start = Instant::now();
    let mut ended: BTreeSet<String> = BTreeSet::new();
    let mut kills = 0;
    let mut last_kill = Instant::now();
    let mut samples = 0usize;
    while ended.len() < ids.len() && start.elapsed() < Duration::from_secs(240) {
        // Sample the server's view: claims per acceptor never above the cap.
        let sessions = c.sessions();
        let mut held: BTreeMap<String, usize> = BTreeMap::new();
        for s in sessions.iter().filter(|s| s.phase == "claimed") {
            *held
                .entry(s.acceptor_id.clone().unwrap_or_default())
                .or_default() += 1;
        }
        for (a, h) in &held {
            assert!(*h <= cap, "{a} holds {h} claims (cap {cap})");
        }
        samples += 1;
        for s in sessions.iter().filter(|s| ids.contains(&s.session_id)) {
            if ended.contains(&s.session_id) {
                continue;
            }
            // Some sessions end while their sandbox is being made; the rest once served.
            let mid_create = s.phase == "claimed" && !s.remote_connected && rng.gen_bool(0.05);
            if (s.phase == "claimed" && s.remote_connected && s.session_status == "running")
                || mid_create
            {
                block_on(c.emu.client().terminate(&s.session_id)).unwrap();
                ended.insert(s.session_id.clone());
            }
        }
        if last_kill.elapsed() > Duration::from_secs(8) {
            let i = rng.gen_range(0..c.replicas.len());
            c.replicas[i].kill();
            c.replicas[i].start();
            kills += 1;
            last_kill = Instant::now();
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(ended.len(), ids.len(), "not every session was served");
    let hole_window = t_hole.elapsed().as_secs_f64();
    // End the black hole too; then every claim must come back (no leaked capacity).
    block_on(c.emu.client().terminate(&hole)).unwrap();
    let w = c.settle(WAIT, |w| {
        let held = w.sessions.iter().filter(|s| s.phase == "claimed").count();
        if held == 0 {
            Ok(())
        } else {
            Err(format!("{held} claims still held"))
        }
    });
    c.stop_all();
    let w2 = c.world();
    c.assert_invariants(&w2, Quiesce::Yes);
    let peak = invariants::peak_claims(&w2);
    // The black hole: each replica backs off 5 s, 10 s, 20 s, … between attempts.
    let mut attempts: BTreeMap<String, usize> = BTreeMap::new();
    for h in w
        .history
        .iter()
        .filter(|h| h.session_id == hole && h.event == "claim")
    {
        *attempts
            .entry(h.acceptor_id.clone().unwrap_or_default())
            .or_default() += 1;
    }
    // Attempts one replica can make in the window with backoff 5·2^k (plus the first), and
    // a fresh backoff after each SIGKILL of that replica.
    let budget = 1 + (hole_window / 5.0).log2().ceil().max(0.0) as usize + 1 + kills;
    eprintln!("black hole attempts {attempts:?} in {hole_window:.0} s, budget {budget}");
    for (a, n) in &attempts {
        assert!(
            *n <= budget,
            "{a} tried the black-hole session {n} times in {hole_window:.0} s (budget {budget})"
        );
    }
    figure("T16", "sessions", n);
    figure("T16", "cap", cap);
    figure(
        "T16",
        "peak_claims_per_replica",
        format!("{:?}", peak.values().collect::<Vec<_>>()),
    );
    figure("T16", "cap_samples", samples);
    figure("T16", "sigkills", kills);
    figure("T16", "create_faults", format!("{:?}", faults_fired(&w2)));
    figure(
        "T16",
        "black_hole_attempts",
        format!(
            "{:?} in {hole_window:.0}s",
            attempts.values().collect::<Vec<_>>()
        ),
    );
    figure(
        "T16",
        "claims_held_after_quiesce",
        w.sessions.iter().filter(|s| s.phase == "claimed").count(),
    );
}

/// T16 (black hole): one session whose launch always fails (its pinned remote's checksum never
/// matches). Each failure releases and stops; the next attempt waits 5 s, 10 s, 20 s, … — never
/// a hot loop — and after 5 failures the session is left alone for 10 minutes.
#[test]
fn t16_black_hole_session_backs_off() {
    let window = Duration::from_secs(knob("T16_HOLE_SECS", 42) as u64);
    let mut c = Cluster::start("T16hole", seed(), ClusterOpts::default());
    c.start_all();
    let hole = block_on(c.emu.client().new_sessions(&NewSession {
        remote_binary_sha: Some("badc0ffee0".into()),
        ..NewSession::default()
    }))
    .unwrap()[0]
        .session_id
        .clone();
    std::thread::sleep(window);
    let attempts: Vec<u64> = block_on(c.emu.client().history(Some(&hole)))
        .unwrap()
        .iter()
        .filter(|h| h.event == "claim")
        .map(|h| h.at_ms)
        .collect();
    let gaps: Vec<f64> = attempts
        .windows(2)
        .map(|w| (w[1] - w[0]) as f64 / 1000.0)
        .collect();
    // Backoff 5·2^(k-1) s after the k-th failure: attempts near 0, 5, 15, 35 s.
    let allowed = 1 + (window.as_secs_f64() / 5.0 + 1.0).log2().floor() as usize;
    assert!(
        attempts.len() <= allowed,
        "{} attempts in {window:?} (gaps {gaps:?}); backoff allows {allowed}",
        attempts.len()
    );
    assert!(
        gaps.windows(2).all(|g| g[1] >= g[0]),
        "the backoff does not grow: {gaps:?}"
    );
    c.stop_all();
    let w = c.world();
    c.assert_invariants(&w, Quiesce::No);
    figure(
        "T16hole",
        "attempts",
        format!("{} in {:.0}s", attempts.len(), window.as_secs_f64()),
    );
    figure("T16hole", "gaps_s", format!("{gaps:.1?}"));
}
