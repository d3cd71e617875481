//! Fault tests against real orchestrator processes on the emulated Daytona: T2 (claim committed,
//! response lost), T7 (SSE stream faults), T9 (429 with every form of Retry-After), T11 (create
//! committed, response lost; lists and gets lagging), T17 (poison and malformed payloads).
//! Fault scripts are seeded; a failure prints the seed and the scripts.

use std::time::{Duration, Instant};

use rand::Rng;

use crate::invariants::Quiesce;
use crate::support::block_on;
use crate::support::rel::*;

const WAIT: Duration = Duration::from_secs(90);

/// Sessions arrive in small waves and end once served, so the cap never holds them back.
fn churn(c: &Cluster, n: usize, wave: usize) -> Vec<String> {
    let mut all = Vec::new();
    while all.len() < n {
        let ids = c.new_sessions(wave.min(n - all.len()));
        let ok = time_until(WAIT, || {
            let s = served(c);
            ids.iter().all(|i| s.contains(i))
        });
        assert!(
            ok.is_some(),
            "{}: a wave was never served: {:?}",
            c.name,
            ids.iter()
                .map(|i| {
                    let s = c.session(i);
                    format!("{} {} {}", s.phase, s.session_status, s.remote_connected)
                })
                .collect::<Vec<_>>()
        );
        for s in &ids {
            block_on(c.emu.client().terminate(s)).expect("terminate");
        }
        all.extend(ids);
    }
    all
}

/// T2: claims whose server side committed but whose answer was lost (dropped connection, a
/// 504 after the commit, an answer slower than our read timeout), 2 replicas racing.
#[test]
fn t2_claim_committed_response_lost() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let n = knob("T2_SESSIONS", 40);
    let seed = seed();
    let mut c = Cluster::start(
        "T2",
        seed,
        ClusterOpts {
            replicas: 2,
            cap: 6,
            extra_env: vec![("OUTPOSTS_READ_TIMEOUT".into(), "3".into())],
            ..ClusterOpts::default()
        },
    );
    c.start_all();
    c.faults(
        r#"[
        {"method":"POST","path":"/opbeta/outposts/devins/*/claim$","times":0,"rate":0.3,"action":{"kind":"commit_then_drop"}},
        {"method":"POST","path":"/opbeta/outposts/devins/*/claim$","times":0,"rate":0.2,"action":{"kind":"commit_then_status","status":504}},
        {"method":"POST","path":"/opbeta/outposts/devins/*/claim$","times":0,"rate":0.1,"action":{"kind":"commit_then_delay","ms":4000}}
    ]"#,
    );
    let ids = churn(&c, n, 6);
    let w = c.settle(WAIT, |_| Ok(()));
    c.stop_all();
    let w2 = c.world();
    c.assert_invariants(&w2, Quiesce::Yes);
    let fired = faults_fired(&w2);
    let claims = w.history.iter().filter(|h| h.event == "claim").count();
    let renewals = w.history.iter().filter(|h| h.event == "renew").count();
    let adopted: usize = c
        .replicas
        .iter()
        .map(|r| r.all_logs().matches("\"adopted\"").count())
        .sum();
    figure("T2", "sessions", ids.len());
    figure("T2", "claim_faults", format!("{fired:?}"));
    figure("T2", "claims_renewals", format!("{claims}/{renewals}"));
    figure("T2", "adopted_after_lost_answer", adopted);
    figure("T2", "orphaned_claims", 0);
    figure(
        "T2",
        "enqueue_to_running",
        percentiles(enqueue_to_running(&w2)),
    );
}

/// T7: the watch stream cut mid-event, stalled, sent a 16 MiB line, malformed events — while
/// sessions come, sleep, wake and end. The list stays the source of truth: nothing is lost.
#[test]
fn t7_sse_stream_faults() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let n = knob("T7_SESSIONS", 16);
    let seed = seed();
    let mut c = Cluster::start(
        "T7",
        seed,
        ClusterOpts {
            cap: n,
            extra_env: vec![("OUTPOSTS_READ_TIMEOUT".into(), "3".into())],
            // Streams end every 6 s (healthy ones reset the client's backoff after 5 s), so
            // more connections meet the faults.
            emulator_args: vec!["--max-stream".into(), "6s".into()],
            ..ClusterOpts::default()
        },
    );
    c.start_all();
    let w = "\"query\":\"watch=true\"";
    c.faults(&format!(
        r#"[
        {{"method":"GET","path":"/opbeta/outposts/devins$",{w},"nth":2,"times":1,"action":{{"kind":"cut_stream","bytes":300}}}},
        {{"method":"GET","path":"/opbeta/outposts/devins$",{w},"nth":3,"times":1,"action":{{"kind":"huge_line","bytes":16777216}}}},
        {{"method":"GET","path":"/opbeta/outposts/devins$",{w},"nth":4,"times":1,"action":{{"kind":"stall","bytes":40,"ms":0}}}},
        {{"method":"GET","path":"/opbeta/outposts/devins$",{w},"nth":5,"times":0,"rate":0.3,"action":{{"kind":"cut_stream","bytes":300}}}},
        {{"method":"GET","path":"/opbeta/outposts/devins$",{w},"nth":5,"times":0,"rate":0.3,"action":{{"kind":"body","content_type":"text/event-stream","body":"data: {{not json\n\ndata: {{\"type\":\"EXPLODED\",\"object\":7}}\n\n: keepalive\n\n"}}}}
    ]"#
    ));
    let rounds = knob("T7_ROUNDS", 3);
    let mut rng = rng(seed);
    let t0 = Instant::now();
    let mut live: Vec<String> = Vec::new();
    for round in 0..rounds {
        let ids = c.new_sessions(n / rounds);
        let ok = time_until(WAIT, || {
            let s = served(&c);
            ids.iter().all(|i| s.contains(i))
        });
        assert!(
            ok.is_some(),
            "round {round}: not all served\n{}",
            c.replicas[0].log()
        );
        // Lifecycle traffic over the faulty stream: sleep half, end a quarter, wake some.
        let (sleep, rest) = ids.split_at(ids.len() / 2);
        let (end, keep) = rest.split_at(rest.len() / 2);
        for s in sleep {
            block_on(c.emu.client().suspend(s)).unwrap();
            std::thread::sleep(Duration::from_millis(rng.gen_range(0..200)));
        }
        for s in end {
            block_on(c.emu.client().terminate(s)).unwrap();
        }
        // Brief `suspended` blips on live sessions: tolerated, never a stop (I4).
        for s in keep {
            block_on(c.emu.client().blip(s, Duration::from_millis(1500))).unwrap();
        }
        let stopped = time_until(WAIT, || {
            sleep.iter().all(|s| c.session(s).phase != "claimed")
        });
        assert!(
            stopped.is_some(),
            "round {round}: sleeping sessions still held"
        );
        for s in sleep.iter().take(sleep.len() / 2) {
            block_on(c.emu.client().resume(s)).unwrap();
            live.push(s.clone());
        }
        live.extend(keep.iter().cloned());
    }
    // Let the scripted stream faults all come round (the watch backs off after each).
    let streams = || {
        c.emu
            .requests()
            .iter()
            .filter(|r| r.query.as_deref().is_some_and(|q| q.contains("watch=true")))
            .count()
    };
    let enough = time_until(Duration::from_secs(45), || streams() >= 5);
    assert!(enough.is_some(), "only {} watch connections", streams());
    let w = c.settle(WAIT, all_served(&live));
    let _ = w;
    assert!(c.replicas[0].running(), "the orchestrator died");
    c.stop_all();
    let w = c.world();
    c.assert_invariants(&w, Quiesce::Yes);
    let watches = w
        .requests
        .iter()
        .filter(|r| r.query.as_deref().is_some_and(|q| q.contains("watch=true")))
        .count();
    let log = c.replicas[0].all_logs();
    let fired = faults_fired(&w);
    for kind in ["CutStream", "HugeLine", "Stall"] {
        assert!(fired.contains_key(kind), "{kind} never fired: {fired:?}");
    }
    figure("T7", "sessions", n);
    figure("T7", "stream_faults", format!("{:?}", faults_fired(&w)));
    figure("T7", "watch_connections", watches);
    figure(
        "T7",
        "watch_connections_per_min",
        format!("{:.1}", watches as f64 / t0.elapsed().as_secs_f64() * 60.0),
    );
    figure("T7", "panics", log.matches("panicked").count());
}

/// How long the client must stay away after a 429.
#[derive(Debug, Clone, Copy)]
enum Away {
    /// This many seconds after the 429.
    Secs(f64),
    /// Until this Unix time in ms (an HTTP date; whole seconds).
    Until(u64),
    /// Nothing stated (or garbage): the client backs off on its own.
    No,
}

/// One Retry-After case: the header value (empty: no header) and the stay-away.
type Case = Box<dyn Fn() -> (String, Away)>;

fn retry_after_cases() -> Vec<(&'static str, Case)> {
    vec![
        ("seconds", Box::new(|| ("3".to_string(), Away::Secs(3.0)))),
        (
            "http_date",
            Box::new(|| {
                let at = std::time::SystemTime::now() + Duration::from_secs(4);
                let text = httpdate::fmt_http_date(at);
                let whole = httpdate::parse_http_date(&text).unwrap();
                let ms = whole
                    .duration_since(std::time::UNIX_EPOCH)
                    .unwrap()
                    .as_millis() as u64;
                (text, Away::Until(ms))
            }),
        ),
        ("garbage", Box::new(|| ("soon-ish".to_string(), Away::No))),
        // Clamped to OUTPOSTS_RETRY_AFTER_CAP (4 s in this test).
        ("huge", Box::new(|| ("86400".to_string(), Away::Secs(4.0)))),
        ("absent", Box::new(|| (String::new(), Away::No))),
    ]
}

/// T9: a 429 with `Retry-After` as seconds, an HTTP date, garbage and a huge value (and one
/// without the header) on each endpoint the orchestrator calls. Measured at the emulator: no
/// request from the orchestrator reaches the host before the stated time; after it, the
/// traffic resumes promptly.
#[test]
fn t9_retry_after_on_every_endpoint() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let seed = seed();
    let mut c = Cluster::start(
        "T9",
        seed,
        ClusterOpts {
            cap: 20,
            extra_env: vec![("OUTPOSTS_RETRY_AFTER_CAP".into(), "4".into())],
            ..ClusterOpts::default()
        },
    );
    c.start_all();
    // (name, method, path pattern, what makes the orchestrator call it)
    let endpoints: Vec<(&str, &str, &str)> = vec![
        ("list", "GET", "/opbeta/outposts/devins$"),
        ("claim", "POST", "/opbeta/outposts/devins/*/claim$"),
        ("release", "POST", "/opbeta/outposts/devins/*/release$"),
        ("daytona_create", "POST", "/daytona/api/sandbox$"),
        ("toolbox_exec", "POST", "/daytona/toolbox/*/process/execute"),
    ];
    let mut early_total = 0;
    let mut recoveries = Vec::new();
    let mut cases = 0;
    for (ep, method, path) in &endpoints {
        for (form, make) in retry_after_cases() {
            let (value, stay_away) = make();
            let headers = if value.is_empty() {
                String::new()
            } else {
                format!(r#","headers":{{"Retry-After":"{value}"}}"#)
            };
            let query = if *ep == "list" {
                r#","query":"first=""#
            } else {
                ""
            };
            let since = c.emu.requests().last().map(|r| r.seq).unwrap_or(0);
            c.faults(&format!(
                r#"{{"method":"{method}","path":"{path}"{query},"times":1,"action":{{"kind":"status","status":429{headers}}}}}"#
            ));
            // Make the orchestrator call the endpoint.
            let s = c.new_sessions(1).remove(0);
            if *ep == "release" {
                let ok = time_until(WAIT, || served(&c).contains(&s));
                assert!(ok.is_some());
                block_on(c.emu.client().terminate(&s)).unwrap();
            }
            let hit = time_until(WAIT, || {
                block_on(c.emu.client().requests(since))
                    .unwrap()
                    .iter()
                    .any(|r| r.status == 429 && r.fault.is_some())
            });
            assert!(hit.is_some(), "{ep}/{form}: the 429 never fired");
            // Let the window pass, then read what arrived during it.
            std::thread::sleep(Duration::from_millis(match stay_away {
                Away::Secs(s) => (s * 1000.0) as u64 + 2500,
                Away::Until(_) => 6500,
                Away::No => 2500,
            }));
            let reqs = block_on(c.emu.client().requests(since)).unwrap();
            let t429 = reqs
                .iter()
                .find(|r| r.status == 429 && r.fault.is_some())
                .map(|r| r.at_ms)
                .unwrap();
            let ours = |r: &&outposts::emulator::RequestRecord| {
                matches!(r.api.as_str(), "devin" | "daytona") && r.at_ms > t429 + 200
            };
            let until = match stay_away {
                Away::Secs(s) => Some(t429 + (s * 1000.0) as u64),
                Away::Until(ms) => Some(ms),
                Away::No => None,
            };
            if let Some(until) = until {
                let until = until.saturating_sub(200);
                let early: Vec<String> = reqs
                    .iter()
                    .filter(ours)
                    .filter(|r| r.at_ms < until)
                    .map(|r| format!("{} {} +{}ms", r.method, r.path, r.at_ms - t429))
                    .collect();
                assert!(
                    early.is_empty(),
                    "{ep}/{form}: requests during the Retry-After window: {early:?}"
                );
                early_total += early.len();
                if let Some(next) = reqs.iter().filter(ours).map(|r| r.at_ms).min() {
                    recoveries.push((next as f64 - (until + 200) as f64) / 1000.0);
                }
            }
            let ok = time_until(WAIT, || served(&c).contains(&s) || *ep == "release");
            assert!(
                ok.is_some(),
                "{ep}/{form}: never recovered\n{}",
                c.replicas[0].log()
            );
            if *ep != "release" {
                block_on(c.emu.client().terminate(&s)).unwrap();
            }
            cases += 1;
        }
    }
    c.stop_all();
    let w = c.world();
    c.assert_invariants(&w, Quiesce::No);
    figure("T9", "cases", cases);
    figure("T9", "requests_inside_window", early_total);
    figure("T9", "resume_after_window", percentiles(recoveries));
    figure(
        "T9",
        "clamp_warnings",
        c.replicas[0]
            .all_logs()
            .matches("OUTPOSTS_RETRY_AFTER_CAP")
            .count(),
    );
}

/// T11: creates that commit but whose answer is lost (dropped, 504, slower than the read
/// timeout), a list that lags 3 s behind, a get that 404s for 1.5 s after create; 2 replicas.
/// Never two sandboxes for one session, every sandbox labelled from its create call, no residue.
#[test]
fn t11_create_committed_response_lost_and_stale_reads() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let n = knob("T11_SESSIONS", 30);
    let seed = seed();
    let mut opts = ClusterOpts {
        replicas: 2,
        cap: 6,
        janitor_grace: "5",
        extra_env: vec![
            ("OUTPOSTS_READ_TIMEOUT".into(), "3".into()),
            // Half the creates lose their answer here, so three in a row often do: the snapshot
            // is then quarantined (as the rules say) and a failing probe can keep it so past the
            // wait (seed 1796514049534240759, once in a CI pass). Not what T11 is about.
            ("QUARANTINE_AFTER".into(), "10".into()),
        ],
        ..ClusterOpts::default()
    };
    opts.settings.list_lag_ms = 3000;
    opts.settings.get_lag_ms = 1500;
    let mut c = Cluster::start("T11", seed, opts);
    c.start_all();
    c.faults(
        r#"[
        {"method":"POST","path":"/daytona/api/sandbox$","times":0,"rate":0.25,"action":{"kind":"commit_then_drop"}},
        {"method":"POST","path":"/daytona/api/sandbox$","times":0,"rate":0.15,"action":{"kind":"commit_then_status","status":504}},
        {"method":"POST","path":"/daytona/api/sandbox$","times":0,"rate":0.1,"action":{"kind":"commit_then_delay","ms":5000}}
    ]"#,
    );
    let ids = churn(&c, n, 6);
    let w = c.settle(WAIT, all_destroyed);
    c.stop_all();
    let w2 = c.world();
    c.assert_invariants(&w2, Quiesce::Yes);
    let creates = w.mutations.iter().filter(|m| m.op == "create").count();
    let unlabelled = w
        .mutations
        .iter()
        .filter(|m| m.op == "create" && m.labels.is_empty())
        .count();
    assert_eq!(unlabelled, 0);
    figure("T11", "sessions", ids.len());
    figure("T11", "creates", creates);
    figure("T11", "create_faults", format!("{:?}", faults_fired(&w2)));
    figure("T11", "sessions_with_2_sandboxes", 0);
    figure("T11", "unlabelled_creates", unlabelled);
    figure(
        "T11",
        "enqueue_to_running",
        percentiles(enqueue_to_running(&w2)),
    );
}

/// T17: malformed answers (bad JSON, HTML with 200, empty 200, text/plain) on the queue
/// endpoints, unknown enum values, and one poisoned session whose list row cannot be read and
/// whose reads answer HTML — among healthy sessions. No crash, no hot loop on the poison, the
/// poisoned (running) session is not mistaken for a sleeping one, healthy sessions are served.
#[test]
fn t17_poison_and_malformed_payloads() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let n = knob("T17_SESSIONS", 20);
    let seed = seed();
    let mut c = Cluster::start(
        "T17",
        seed,
        ClusterOpts {
            cap: n + 4,
            ..ClusterOpts::default()
        },
    );
    c.start_all();
    // The poison: served first, then its row turns unreadable in lists and its reads answer
    // an HTML page with 200.
    let poison = c.new_sessions(1).remove(0);
    let ok = time_until(WAIT, || served(&c).contains(&poison));
    assert!(ok.is_some());
    let unknown = c.new_sessions(1).remove(0);
    // A pending session whose claims always answer 200 with a mangled body that carries a
    // connect token (a proxy cutting a good answer): never claimable, the token never logged.
    let stuck = c.new_sessions(1).remove(0);
    c.faults(&format!(
        r#"[
        {{"method":"GET","path":"/opbeta/outposts/devins/{poison}$","times":0,"action":{{"kind":"body","body":"<!DOCTYPE html><html>oops</html>","content_type":"text/html"}}}},
        {{"method":"POST","path":"/opbeta/outposts/devins/{stuck}/claim$","times":0,"action":{{"kind":"body","body":"{{\"connect_token\":\"{CONNECT_TOKEN_FIXTURE}\", <html>proxy</html>"}}}},
        {{"method":"GET","path":"/opbeta/outposts/devins$","query":"first=","times":0,"rate":0.1,"action":{{"kind":"body","body":"{{\"items\": [1,"}}}},
        {{"method":"GET","path":"/opbeta/outposts/devins$","query":"first=","times":0,"rate":0.1,"action":{{"kind":"body","body":"<html><body>502</body></html>","content_type":"text/html"}}}},
        {{"method":"GET","path":"/opbeta/outposts/devins$","query":"first=","times":0,"rate":0.05,"action":{{"kind":"body","body":""}}}},
        {{"method":"GET","path":"/opbeta/outposts/devins$","query":"first=","times":0,"rate":0.05,"action":{{"kind":"body","body":"ok","content_type":"text/plain"}}}},
        {{"method":"GET","path":"/opbeta/outposts/devins$","query":"first=","times":0,"action":{{"kind":"rewrite","pairs":[
            ["\"session_id\":\"{poison}\"","\"session_id\":[\"{poison}\"]"],
            ["\"session_id\":\"{unknown}\",","\"session_id\":\"{unknown}\",\"extra_field\":{{\"nested\":[1,2]}},"],
            ["\"session_status\":\"pending\"","\"session_status\":\"pending\",\"mood\":\"curious\""],
            ["\"kind\":\"new\"","\"kind\":\"new\",\"flavour\":\"unknown-enum\""]
        ]}}}}
    ]"#
    ));
    let t0 = Instant::now();
    let ids = c.new_sessions(n);
    let ok = time_until(WAIT, || {
        let s = served(&c);
        ids.iter().all(|i| s.contains(i)) && s.contains(&unknown)
    });
    assert!(
        ok.is_some(),
        "healthy sessions not served\n{}",
        c.replicas[0].log()
    );
    let healthy = t0.elapsed().as_secs_f64();
    // Give the poison time to do damage.
    std::thread::sleep(Duration::from_secs(8));
    let poison_reads = c
        .emu
        .requests()
        .iter()
        .filter(|r| r.path.contains(&poison) && r.fault.is_some())
        .count();
    let stuck_claims: Vec<u64> = c
        .emu
        .requests()
        .iter()
        .filter(|r| r.path.contains(&stuck) && r.path.ends_with("/claim"))
        .map(|r| r.at_ms)
        .collect();
    let window =
        (stuck_claims.last().unwrap_or(&0) - stuck_claims.first().unwrap_or(&0)) as f64 / 1000.0;
    // Backoff 5 s, 10 s, 20 s …: over the ~15 s window at most 4 attempts, never one per pass.
    assert!(
        stuck_claims.len() <= 4,
        "the unclaimable session was retried {} times in {window:.1} s",
        stuck_claims.len()
    );
    assert!(c.replicas[0].running(), "the orchestrator died");
    c.stop_all();
    let w = c.world();
    // The poison is still running: nothing may have stopped it (I4) or claimed it away.
    assert_eq!(c.session(&poison).phase, "claimed");
    c.assert_invariants(&w, Quiesce::No);
    figure("T17", "healthy_sessions", n);
    figure("T17", "healthy_all_served_s", format!("{healthy:.1}"));
    figure(
        "T17",
        "malformed_answers",
        format!("{:?}", faults_fired(&w)),
    );
    figure("T17", "poison_requests", poison_reads);
    figure(
        "T17",
        "unclaimable_claim_attempts",
        format!("{} in {window:.1}s", stuck_claims.len()),
    );
    figure(
        "T17",
        "panics",
        c.replicas[0].all_logs().matches("panicked").count(),
    );
}
