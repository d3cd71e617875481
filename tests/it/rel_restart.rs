//! T5 (restart re-attach, no recreation), T6 (state dir lost or corrupted), T15 (graceful
//! shutdown and drain): real processes on the emulated Daytona, checked against I1–I8.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use outposts::orchestrator::sandbox_name;

use crate::invariants::Quiesce;
use crate::support::block_on;
use crate::support::rel::*;

const WAIT: Duration = Duration::from_secs(60);

fn serve(c: &Cluster, n: usize) -> Vec<String> {
    let ids = c.new_sessions(n);
    let ok = time_until(WAIT, || {
        let s = served(c);
        ids.iter().all(|i| s.contains(i))
    });
    assert!(
        ok.is_some(),
        "{}: sessions never served\n{}",
        c.name,
        c.replicas[0].log()
    );
    ids
}

fn sandbox_ids(c: &Cluster) -> BTreeMap<String, String> {
    c.sandboxes()
        .into_iter()
        .filter_map(|s| s.session().map(|sid| (sid.to_string(), s.id.clone())))
        .collect()
}

fn connects(c: &Cluster) -> BTreeMap<String, u32> {
    c.sessions()
        .into_iter()
        .map(|s| (s.session_id, s.remote_connects))
        .collect()
}

fn wait_stopped(c: &Cluster, ids: &[String]) {
    let ok = time_until(WAIT, || {
        let sbs = c.sandboxes();
        ids.iter().all(|id| {
            sbs.iter()
                .any(|s| s.name == sandbox_name(id) && s.state == "stopped")
                && c.session(id).phase != "claimed"
        })
    });
    assert!(ok.is_some(), "{}: sandboxes never stopped", c.name);
}

/// T5: sessions running and sleeping; the orchestrator restarted again and again (SIGTERM and
/// SIGKILL alternately) while sessions keep getting work. Nothing is created, deleted, stopped
/// or relaunched for sessions already served.
#[test]
fn t5_restarts_reattach_without_recreating_anything() {
    t5("T5", "binary", knob("T5_RESTARTS", 10));
}

/// T5 with the emulator's remote as a shell script: its process is the shell, not the file.
#[test]
fn t5_restarts_reattach_a_script_remote() {
    t5("T5-script", "script", knob("T5_SCRIPT_RESTARTS", 6));
}

fn t5(name: &str, form: &str, restarts: usize) {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let mut c = Cluster::start(
        name,
        seed(),
        ClusterOpts {
            cap: 20,
            emulator_args: vec!["--remote-form".into(), form.into()],
            ..ClusterOpts::default()
        },
    );
    c.start_all();
    let ids = serve(&c, 12);
    let (running, sleeping) = ids.split_at(7);
    for s in sleeping {
        block_on(c.emu.client().suspend(s)).expect("suspend");
    }
    wait_stopped(&c, sleeping);
    let before_sb = sandbox_ids(&c);
    let before_connects = connects(&c);
    let before_mutations = block_on(c.emu.client().mutations()).unwrap().len();
    let mut reattach = Vec::new();
    let mut term_exit = Vec::new();
    for i in 0..restarts {
        if i % 2 == 0 {
            let (code, took) = c.replicas[0].terminate(Duration::from_secs(35));
            assert_eq!(code, Some(0), "SIGTERM exit\n{}", c.replicas[0].log());
            term_exit.push(took.as_secs_f64());
        } else {
            c.replicas[0].kill();
        }
        // Work keeps arriving while the orchestrator is down.
        block_on(
            c.emu
                .client()
                .add_task(&running[i % running.len()], "run true"),
        )
        .unwrap();
        let t0 = Instant::now();
        c.replicas[0].start();
        let ok = time_until(WAIT, || {
            c.replicas[0].log().matches("\"adopted\"").count() >= running.len()
                && c.replicas[0].log().matches("remote_running").count() >= running.len()
        });
        assert!(
            ok.is_some(),
            "restart {i}: no reattach\n{}",
            c.replicas[0].log()
        );
        reattach.push(t0.elapsed().as_secs_f64());
    }
    let w = c.settle(WAIT, all_served(running));
    assert_eq!(sandbox_ids(&c), before_sb, "sandbox ids changed");
    let after = connects(&c);
    for s in running {
        assert_eq!(
            after.get(s),
            before_connects.get(s),
            "the remote of {s} was launched again"
        );
    }
    let new_ops: Vec<String> = w.mutations[before_mutations..]
        .iter()
        .map(|m| format!("{} {}", m.op, m.name))
        .collect();
    assert!(new_ops.is_empty(), "mutations during restarts: {new_ops:?}");
    c.assert_one_remote_per_generation(&w);
    c.stop_all();
    let w = c.world();
    c.assert_invariants(&w, Quiesce::Yes);
    figure(name, "restarts", restarts);
    figure(name, "reattach", percentiles(reattach));
    figure(name, "sigterm_exit", percentiles(term_exit));
    figure(name, "creates_deletes_stops_relaunches", 0);
}

fn outpost_dir(r: &Replica) -> std::path::PathBuf {
    std::fs::read_dir(r.state_dir().join("outposts"))
        .expect("outposts dir")
        .flatten()
        .next()
        .expect("one outpost dir")
        .path()
}

/// T6: the state dir deleted, truncated, filled with garbage, holding a foreign identity, or
/// killed mid-write. Never a panic, never a second sandbox, never a deletion of a sleeping
/// session's sandbox; corrupt identities are an operator-visible error, not a new identity.
#[test]
fn t6_state_dir_lost_or_corrupted() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let kills = knob("T6_KILLS", 20);
    let mut c = Cluster::start(
        "T6",
        seed(),
        ClusterOpts {
            cap: 10,
            ..ClusterOpts::default()
        },
    );
    c.start_all();
    let ids = serve(&c, 3);
    block_on(c.emu.client().suspend(&ids[2])).expect("suspend");
    wait_stopped(&c, &ids[2..]);
    let before = sandbox_ids(&c);
    let dir = outpost_dir(&c.replicas[0]);
    let acceptor = std::fs::read_to_string(dir.join("acceptor_id")).unwrap();

    // Corrupt identities: exit 2 naming the file; nothing touched.
    c.replicas[0].kill();
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("empty", b"".to_vec()),
        ("random bytes", vec![0xff, 0x00, 0x13, 0x37, b'\n', 0x80]),
        ("torn mid-line", {
            let mut b = acceptor.as_bytes()[..10].to_vec();
            b.extend_from_slice(b"\x00\x00\x00");
            b
        }),
    ];
    for (what, bytes) in &cases {
        std::fs::write(dir.join("acceptor_id"), bytes).unwrap();
        let run = c.replicas[0]
            .env
            .run(&["orchestrator", "run", "--provider", "daytona"]);
        assert_eq!(run.code, 2, "{what}: {}", run.stderr);
        assert!(run.stderr.contains("acceptor id"), "{what}: {}", run.stderr);
        assert!(!run.stderr.contains("panicked"), "{what}: {}", run.stderr);
    }
    std::fs::write(dir.join("acceptor_id"), &acceptor).unwrap();
    figure(
        "T6",
        "corrupt_identity_exit2",
        format!("{}/{}", cases.len(), cases.len()),
    );

    // Garbage cursor and status: ignored with a warning, sessions reattached.
    std::fs::write(dir.join("watch_cursor"), b"\x00garbage\x07").unwrap();
    std::fs::write(dir.join("status.json"), b"{not json").unwrap();
    c.replicas[0].start();
    let ok = time_until(WAIT, || {
        served(&c).contains(&ids[0]) && served(&c).contains(&ids[1])
    });
    assert!(ok.is_some(), "{}", c.replicas[0].log());
    assert!(!c.replicas[0].log().contains("panicked"));

    // The restarted instance rewrote both (before that, a kill would leave our own garbage).
    let rewritten = time_until(WAIT, || {
        std::fs::read(dir.join("status.json"))
            .is_ok_and(|b| serde_json::from_slice::<serde_json::Value>(&b).is_ok())
            && std::fs::read(dir.join("watch_cursor"))
                .is_ok_and(|b| !b.iter().any(u8::is_ascii_control))
    });
    assert!(
        rewritten.is_some(),
        "garbage state files were never rewritten"
    );
    // Kill mid-write many times: every file is the old or the new content.
    let mut torn = 0;
    for i in 0..kills {
        c.replicas[0].arm(&format!("state.before_rename=kill@{}", 1 + i % 3));
        block_on(c.emu.client().add_task(&ids[0], "run true")).unwrap();
        let st = c.replicas[0].wait_exit(WAIT);
        assert!(st.is_some(), "kill {i}: the failpoint never fired");
        c.replicas[0].disarm();
        let id = std::fs::read_to_string(dir.join("acceptor_id")).unwrap_or_default();
        if id != acceptor {
            eprintln!("kill {i}: acceptor_id torn: {id:?}");
            torn += 1;
        }
        if let Ok(cur) = std::fs::read(dir.join("watch_cursor"))
            && (cur.is_empty() || cur.iter().any(|b| b.is_ascii_control()))
        {
            eprintln!("kill {i}: watch_cursor torn: {cur:?}");
            torn += 1;
        }
        if let Ok(st) = std::fs::read(dir.join("status.json"))
            && serde_json::from_slice::<serde_json::Value>(&st).is_err()
        {
            eprintln!("kill {i}: status.json torn");
            torn += 1;
        }
        c.replicas[0].start();
        let ok = time_until(WAIT, || served(&c).contains(&ids[0]));
        assert!(ok.is_some(), "after kill {i}\n{}", c.replicas[0].log());
    }
    assert_eq!(torn, 0, "state files torn by a kill mid-write");
    // Each kill left a temp file; every start sweeps them.
    let leftovers = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(".tmp-"))
        .count();
    assert!(leftovers <= 1, "{leftovers} temp files piled up");
    figure("T6", "kills_mid_write", kills);
    figure("T6", "torn_files", torn);
    figure("T6", "temp_files_left", leftovers);

    // The state dir lost entirely: a new identity that adopts nothing it does not hold and
    // never creates a second sandbox; the old remotes keep serving.
    c.replicas[0].kill();
    std::fs::remove_dir_all(c.replicas[0].state_dir()).unwrap();
    c.replicas[0].rekey(&c.emu, "r0-new");
    c.replicas[0].start();
    std::thread::sleep(Duration::from_secs(5));
    assert_ne!(c.replicas[0].acceptor().as_deref(), Some(acceptor.trim()));
    let w = c.world_light();
    assert_eq!(sandbox_ids(&c), before, "a sandbox was created or removed");
    assert!(
        w.mutations.iter().all(|m| m.op != "delete"),
        "a deletion after the state loss"
    );
    for s in &ids[..2] {
        assert!(c.session(s).remote_connected, "{s} lost its remote");
    }
    c.stop_all();
    // The old identity's claims are held by a process that no longer exists, so the checker
    // maps them by acceptor id: register it under the replica's label too.
    let mut w = c.world();
    w.acceptors.insert("r0".into(), acceptor.trim().to_string());
    c.assert_invariants(&w, Quiesce::No);
}

fn claim_posts_after(c: &Cluster, t_ms: u64) -> usize {
    c.emu
        .requests()
        .iter()
        .filter(|r| r.method == "POST" && r.path.ends_with("/claim") && r.at_ms > t_ms)
        .count()
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64
}

/// T15: SIGTERM while idle, during an open claim, during a create, with sessions running; and
/// twice. No claim is sent after the signal, an open claim's outcome is kept (the next start
/// adopts it), nothing is stopped or deleted, the exit takes ≤ 30 s; a second signal exits
/// within 2 s.
#[test]
fn t15_graceful_shutdown_and_drain() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let runs = knob("T15_RUNS", 3);
    let mut c = Cluster::start(
        "T15",
        seed(),
        ClusterOpts {
            cap: 20,
            ..ClusterOpts::default()
        },
    );
    c.start_all();
    let base = serve(&c, 5);
    let (mut idle, mut claiming, mut creating_exit) = (Vec::new(), Vec::new(), Vec::new());
    let mut second = Vec::new();
    for i in 0..runs {
        // Idle (well, five sessions held and running).
        let (code, took) = c.replicas[0].terminate(Duration::from_secs(35));
        assert_eq!(code, Some(0));
        idle.push(took.as_secs_f64());
        c.replicas[0].start();

        // An open claim request: the server holds its answer for 2 s.
        c.faults(r#"{"method":"POST","path":"/opbeta/outposts/devins/*/claim$","times":0,"action":{"kind":"commit_then_delay","ms":2000}}"#);
        let s = c.new_sessions(1).remove(0);
        // The history records the claim when it commits; the request log only once answered.
        let arrived = time_until(WAIT, || {
            block_on(c.emu.client().history(Some(&s)))
                .unwrap()
                .iter()
                .any(|h| h.event == "claim")
        });
        assert!(arrived.is_some(), "run {i}: the claim was never sent");
        let t_sig = now_ms();
        let (code, took) = c.replicas[0].terminate(Duration::from_secs(35));
        assert_eq!(code, Some(0), "{}", c.replicas[0].log());
        claiming.push(took.as_secs_f64());
        c.clear_faults();
        assert_eq!(claim_posts_after(&c, t_sig + 50), 0, "claims after SIGTERM");
        let held = c.session(&s);
        assert_eq!(held.phase, "claimed", "the open claim committed");
        // Restart: the claim is ours and gets served, not orphaned.
        c.replicas[0].start();
        let ok = time_until(WAIT, || served(&c).contains(&s));
        assert!(
            ok.is_some(),
            "run {i}: the drained claim was not adopted\n{}",
            c.replicas[0].log()
        );

        // A create in flight.
        c.faults(r#"{"method":"POST","path":"/daytona/api/sandbox$","times":0,"action":{"kind":"commit_then_delay","ms":2000}}"#);
        let s2 = c.new_sessions(1).remove(0);
        let creating = time_until(WAIT, || {
            block_on(c.emu.client().mutations())
                .unwrap()
                .iter()
                .any(|m| m.op == "create" && m.name == sandbox_name(&s2))
        });
        assert!(creating.is_some(), "run {i}: no create");
        let before = block_on(c.emu.client().mutations()).unwrap().len();
        let (code, took) = c.replicas[0].terminate(Duration::from_secs(35));
        assert_eq!(code, Some(0));
        creating_exit.push(took.as_secs_f64());
        c.clear_faults();
        let after: Vec<String> = block_on(c.emu.client().mutations()).unwrap()[before..]
            .iter()
            .filter(|m| m.op == "stop" || m.op == "delete")
            .map(|m| m.name.clone())
            .collect();
        assert!(after.is_empty(), "stops/deletes during shutdown: {after:?}");
        c.replicas[0].start();
        let ok = time_until(WAIT, || served(&c).contains(&s2));
        assert!(
            ok.is_some(),
            "run {i}: the session created during shutdown\n{}",
            c.replicas[0].log()
        );

        // Twice: the second signal exits at once (130). (Signals before the handler is in
        // place just end the process, so wait until it runs.)
        c.replicas[0].wait_ready();
        let o = c.replicas[0].orch.as_ref().unwrap();
        o.signal(libc::SIGTERM);
        std::thread::sleep(Duration::from_millis(100));
        let t0 = Instant::now();
        o.signal(libc::SIGTERM);
        let st = c.replicas[0].wait_exit(Duration::from_secs(10));
        second.push(t0.elapsed().as_secs_f64());
        assert!(st.is_some(), "the second signal did not end it");
        assert!(
            st.is_some_and(|s| s.code() == Some(130) || s.code() == Some(0)),
            "{st:?}\n{}",
            c.replicas[0].log()
        );
        c.replicas[0].start();
        for s in [&s, &s2] {
            block_on(c.emu.client().terminate(s)).unwrap();
        }
    }
    let w = c.settle(WAIT, all_served(&base));
    let _ = w;
    c.stop_all();
    let w = c.world();
    c.assert_invariants(&w, Quiesce::Yes);
    figure("T15", "runs", runs);
    figure("T15", "sigterm_exit_idle", percentiles(idle));
    figure("T15", "sigterm_exit_open_claim", percentiles(claiming));
    figure(
        "T15",
        "sigterm_exit_create_in_flight",
        percentiles(creating_exit),
    );
    figure("T15", "second_signal_exit", percentiles(second));
}
