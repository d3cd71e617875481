//! The orchestrator end to end on local sandboxes against the emulator: lifecycle, crash and
//! restart, replicas, the cap, checksum failures, shutdown, the lock and status.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use outposts::orchestrator::{LABEL_OUTPOST, sandbox_name};
use outposts::provider::{Provider, SandboxState};

use crate::support::block_on;
use crate::support::orch::*;

const WAIT: Duration = Duration::from_secs(60);

fn read_proof(p: &dyn Provider, session: &str) -> Option<String> {
    let sb = block_on(p.get(&sandbox_name(session))).ok().flatten()?;
    block_on(p.read_file(&sb.id, PROOF_PATH))
        .ok()
        .flatten()
        .map(|b| String::from_utf8_lossy(&b).into_owned())
}

#[test]
fn full_lifecycle_sleep_keeps_the_disk_wake_reuses_terminate_deletes() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, env) = orch_emulator(&["--sweep-delay", "1s"]);
    let mut orch = Orch::start(&env, &["--provider", "local"]);
    let local = local(&env);
    let s = new_session(&emu, Some(proof_task("proof-one")));
    wait_until(
        WAIT,
        "the task to be done",
        || tasks_done(&emu, &s),
        || orch.log(),
    );
    assert_eq!(read_proof(&local, &s).as_deref(), Some("proof-one"));
    let sb = block_on(local.get(&sandbox_name(&s)))
        .unwrap()
        .expect("sandbox");
    assert_eq!(
        sb.labels.get(LABEL_OUTPOST).map(String::as_str),
        Some(emu.env_value("OUTPOST_ID").as_str())
    );

    // Sleep: released, stopped, disk kept.
    block_on(emu.client().suspend(&s)).unwrap();
    wait_until(
        WAIT,
        "the sandbox to stop",
        || in_state(&local, &sb.id, SandboxState::Stopped),
        || orch.log(),
    );
    assert_eq!(
        read_proof(&local, &s).as_deref(),
        Some("proof-one"),
        "the file survives sleep"
    );

    // Wake: the same sandbox, a new remote, the file intact.
    block_on(emu.client().resume(&s)).unwrap();
    wait_until(
        WAIT,
        "the remote to reconnect",
        || connected_at(&emu, &s, 2),
        || orch.log(),
    );
    let again = block_on(local.get(&sandbox_name(&s)))
        .unwrap()
        .expect("sandbox after wake");
    assert_eq!(again.id, sb.id, "wake reuses the sandbox");
    assert_eq!(again.state, SandboxState::Started, "{}", orch.log());
    assert_eq!(
        read_proof(&local, &s).as_deref(),
        Some("proof-one"),
        "the file survives wake"
    );

    // Terminate: released and deleted.
    block_on(emu.client().terminate(&s)).unwrap();
    wait_until(
        WAIT,
        "the sandbox to be deleted",
        || block_on(local.get(&sb.id)).unwrap().is_none(),
        || orch.log(),
    );
    let history = claims(&emu, &s);
    assert_eq!(history.len(), 2, "one claim per generation: {history:?}");
    let (code, took) = orch.terminate(Duration::from_secs(35));
    assert_eq!(code, Some(0), "{}", orch.log());
    assert!(took < Duration::from_secs(30));
    assert!(!orch.log().contains(&emu.env_value("DEVIN_OUTPOSTS_TOKEN")));
}

#[test]
fn sigkill_and_restart_reattaches_without_a_second_sandbox_or_remote() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, env) = orch_emulator(&[]);
    let local = local(&env);
    let mut first = Orch::start(&env, &["--provider", "local"]);
    let s = new_session(&emu, Some(proof_task("before-kill")));
    wait_until(WAIT, "the task", || tasks_done(&emu, &s), || first.log());
    let sb = block_on(local.get(&sandbox_name(&s)))
        .unwrap()
        .expect("sandbox");
    let connects = session(&emu, &s).remote_connects;
    first.kill();

    let mut second = Orch::start(&env, &["--provider", "local"]);
    wait_until(
        WAIT,
        "the restarted orchestrator to reattach",
        || second.log().contains("reattached (held before this start)"),
        || second.log(),
    );
    // Give it several passes to do something wrong.
    std::thread::sleep(Duration::from_secs(4));
    block_on(emu.client().add_task(&s, &proof_task("after-restart"))).unwrap();
    wait_until(
        WAIT,
        "the second task",
        || tasks_done(&emu, &s),
        || second.log(),
    );
    assert_eq!(read_proof(&local, &s).as_deref(), Some("after-restart"));
    let all = block_on(local.list(&BTreeMap::new())).unwrap();
    assert_eq!(all.len(), 1, "no second sandbox: {all:?}");
    assert_eq!(all[0].id, sb.id);
    assert_eq!(
        session(&emu, &s).remote_connects,
        connects,
        "no second remote was launched"
    );
    assert!(
        !second.log().contains("remote_launched"),
        "{}",
        second.log()
    );
    let history = claims(&emu, &s);
    assert_eq!(
        history
            .iter()
            .map(|(_, a)| a)
            .collect::<BTreeSet<_>>()
            .len(),
        1,
        "one acceptor: {history:?}"
    );
    let _ = second.terminate(Duration::from_secs(35));
}

#[test]
fn two_replicas_serve_fifty_sessions_exactly_once() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, env_a) = orch_emulator(&["--sweep-delay", "1s"]);
    let mut env_b = orch_env(&emu);
    // Same provider account (sandbox root), separate state dirs → separate acceptor ids.
    env_b.set(
        "OUTPOSTS_LOCAL_ROOT",
        env_a.path("sandboxes").to_string_lossy().into_owned(),
    );
    let mut a = Orch::start(
        &env_a,
        &["--provider", "local", "--max-concurrent-sessions", "8"],
    );
    let mut b = Orch::start(
        &env_b,
        &["--provider", "local", "--max-concurrent-sessions", "8"],
    );
    let ids: Vec<String> = (0..50)
        .map(|i| new_session(&emu, Some(proof_task(&format!("p{i}")))))
        .collect();
    // Terminate each session once its task is done, freeing capacity for the next.
    let ended = std::cell::RefCell::new(BTreeSet::new());
    wait_until(
        Duration::from_secs(240),
        "all 50 sessions to be served",
        || {
            let mut ended = ended.borrow_mut();
            for s in &ids {
                if !ended.contains(s) && tasks_done(&emu, s) {
                    block_on(emu.client().terminate(s)).unwrap();
                    ended.insert(s.clone());
                }
            }
            ended.len() == ids.len()
        },
        || {
            format!(
                "served {}/50\nA:\n{}\nB:\n{}",
                ended.borrow().len(),
                a.log(),
                b.log()
            )
        },
    );
    let mut per_acceptor: BTreeMap<String, usize> = BTreeMap::new();
    for s in &ids {
        let c = claims(&emu, s);
        let detail = || {
            let h = block_on(emu.client().history(Some(s))).unwrap();
            format!(
                "{:#?}\nA:\n{}\nB:\n{}",
                h.iter()
                    .map(|x| format!("{} {} {:?} {:?}", x.at_ms, x.event, x.acceptor_id, x.detail))
                    .collect::<Vec<_>>(),
                a.log(),
                b.log()
            )
        };
        assert_eq!(c.len(), 1, "session {s} claimed {c:?}\n{}", detail());
        *per_acceptor.entry(c[0].1.clone()).or_default() += 1;
    }
    assert_eq!(per_acceptor.values().sum::<usize>(), 50);
    let local = local(&env_a);
    wait_until(
        WAIT,
        "every sandbox to be deleted",
        || block_on(local.list(&BTreeMap::new())).unwrap().is_empty(),
        || {
            let left: Vec<String> = block_on(local.list(&BTreeMap::new()))
                .unwrap()
                .iter()
                .map(|sb| {
                    let sid = sb
                        .labels
                        .get(outposts::orchestrator::LABEL_SESSION)
                        .cloned()
                        .unwrap_or_default();
                    format!(
                        "{} {} {:?} history={:?}",
                        sb.id,
                        sb.state,
                        sid,
                        block_on(emu.client().history(Some(&sid)))
                            .unwrap()
                            .iter()
                            .map(|h| format!(
                                "{}:{}",
                                h.event,
                                h.acceptor_id.clone().unwrap_or_default()
                            ))
                            .collect::<Vec<_>>()
                    )
                })
                .collect();
            format!("left: {left:#?}\nA:\n{}\nB:\n{}", a.log(), b.log())
        },
    );
    let _ = a.terminate(Duration::from_secs(35));
    let _ = b.terminate(Duration::from_secs(35));
}

#[test]
fn the_cap_holds_and_every_session_is_served() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, mut env) = orch_emulator(&["--sweep-delay", "1s"]);
    env.set("MAX_CONCURRENT_SESSIONS", "2");
    let mut orch = Orch::start(&env, &["--provider", "local"]);
    let ids: Vec<String> = (0..8)
        .map(|i| new_session(&emu, Some(proof_task(&format!("c{i}")))))
        .collect();
    let mut ended = BTreeSet::new();
    let mut peak = 0;
    wait_until(
        Duration::from_secs(120),
        "all 8 sessions served",
        || {
            let held = block_on(emu.client().sessions())
                .unwrap()
                .iter()
                .filter(|s| s.phase == "claimed")
                .count();
            peak = peak.max(held);
            for s in &ids {
                if !ended.contains(s) && tasks_done(&emu, s) {
                    block_on(emu.client().terminate(s)).unwrap();
                    ended.insert(s.clone());
                }
            }
            ended.len() == ids.len()
        },
        || orch.log(),
    );
    assert!(peak <= 2, "at most 2 claimed at once, saw {peak}");
    // The history agrees: replay claims and releases in order.
    let mut held = BTreeSet::new();
    let mut max_held = 0;
    for h in block_on(emu.client().history(None)).unwrap() {
        match h.event.as_str() {
            "claim" => {
                held.insert(h.session_id);
            }
            "release" | "expire" | "remove" => {
                held.remove(&h.session_id);
            }
            _ => {}
        }
        max_held = max_held.max(held.len());
    }
    assert!(max_held <= 2, "history shows {max_held} held at once");
    let _ = orch.terminate(Duration::from_secs(35));
}

#[test]
fn checksum_mismatch_releases_stops_and_explains() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, env) = orch_emulator(&[]);
    let local = local(&env);
    let mut orch = Orch::start(&env, &["--provider", "local"]);
    let created = block_on(
        emu.client()
            .new_sessions(&outposts::emulator::devin::NewSession {
                remote_binary_sha: Some("badc0ffee0".into()),
                ..Default::default()
            }),
    )
    .unwrap();
    let s = created[0].session_id.clone();
    wait_until(
        WAIT,
        "the failure",
        || orch.log().contains("checksum"),
        || orch.log(),
    );
    wait_until(
        WAIT,
        "the release",
        || {
            block_on(emu.client().history(Some(&s)))
                .unwrap()
                .iter()
                .any(|h| h.event == "release")
        },
        || orch.log(),
    );
    wait_until(
        WAIT,
        "the sandbox to stop",
        || in_state(&local, &sandbox_name(&s), SandboxState::Stopped),
        || orch.log(),
    );
    assert!(session(&emu, &s).remote_connects == 0, "no remote ran");
    let log = orch.log();
    assert!(
        log.contains("checksum mismatch") || log.contains("checksum does not match"),
        "{log}"
    );
    let _ = orch.terminate(Duration::from_secs(35));
}

#[test]
fn a_sleeping_sessions_sandbox_is_never_deleted() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, env) = orch_emulator(&["--sweep-delay", "1s"]);
    let local = local(&env);
    let mut orch = Orch::start(&env, &["--provider", "local", "--janitor-grace", "0"]);
    let s = new_session(&emu, Some(proof_task("keep-me")));
    wait_until(WAIT, "the task", || tasks_done(&emu, &s), || orch.log());
    let sb = block_on(local.get(&sandbox_name(&s))).unwrap().unwrap();
    block_on(emu.client().suspend(&s)).unwrap();
    wait_until(
        WAIT,
        "the stop",
        || in_state(&local, &sb.id, SandboxState::Stopped),
        || orch.log(),
    );
    // The row is swept (absent from the queue); the janitor runs every 2 s with no grace.
    std::thread::sleep(Duration::from_secs(8));
    assert!(!orch.log().contains("janitor: deleted"), "{}", orch.log());
    let still = block_on(local.get(&sb.id))
        .unwrap()
        .expect("the sleeping session's sandbox still exists");
    assert_eq!(still.state, SandboxState::Stopped);
    assert_eq!(read_proof(&local, &s).as_deref(), Some("keep-me"));
    let _ = orch.terminate(Duration::from_secs(35));
}

#[test]
fn the_janitor_deletes_terminated_and_stops_absent_sessions_sandboxes() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    // The terminated row stays visible long enough for the janitor to observe `terminated`.
    let (emu, env) = orch_emulator(&["--sweep-delay", "120s"]);
    let local = local(&env);
    let outpost = emu.env_value("OUTPOST_ID");
    // Leaked sandboxes nobody serves: one for a terminated session, one for a session the
    // queue no longer knows, one foreign.
    let term = new_session(&emu, None);
    block_on(emu.client().terminate(&term)).unwrap();
    let labels = |s: &str, o: &str| outposts::orchestrator::sandbox_labels(s, o);
    let mk = |name: String, l| {
        let mut spec =
            outposts::provider::SandboxSpec::new(name, outposts::provider::Source::Default);
        spec.labels = l;
        block_on(local.create(&spec)).unwrap()
    };
    let a = mk(sandbox_name(&term), labels(&term, &outpost));
    let b = mk(sandbox_name("devin-gone"), labels("devin-gone", &outpost));
    let c = mk(
        "someone-else".into(),
        labels("devin-x", "outpost_env-other"),
    );
    let mut orch = Orch::start(&env, &["--provider", "local", "--janitor-grace", "0"]);
    wait_until(
        WAIT,
        "the janitor to act",
        || block_on(local.get(&a.id)).unwrap().is_none(),
        || orch.log(),
    );
    wait_until(
        WAIT,
        "the absent session's sandbox to stop",
        || in_state(&local, &b.id, SandboxState::Stopped),
        || orch.log(),
    );
    std::thread::sleep(Duration::from_secs(4));
    let b_now = block_on(local.get(&b.id))
        .unwrap()
        .expect("absent ≠ terminated: stopped, never deleted");
    assert_eq!(b_now.state, SandboxState::Stopped);
    assert_eq!(
        block_on(local.get(&c.id))
            .unwrap()
            .expect("foreign sandbox untouched")
            .state,
        SandboxState::Started
    );
    let _ = orch.terminate(Duration::from_secs(35));
}

#[test]
fn one_state_dir_one_orchestrator_and_status_reports_it() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, env) = orch_emulator(&[]);
    let mut first = Orch::start(
        &env,
        &["--provider", "local", "--metrics-addr", "127.0.0.1:0"],
    );
    let s = new_session(&emu, Some(proof_task("st")));
    wait_until(WAIT, "the task", || tasks_done(&emu, &s), || first.log());
    let second = env.run(&["orchestrator", "run", "--provider", "local"]);
    second.code(2);
    assert!(
        second.stderr.contains("another orchestrator"),
        "{}",
        second.stderr
    );
    let st = env.run(&["--json", "orchestrator", "status"]);
    st.ok();
    let doc = st.json();
    assert_eq!(doc["running"], true);
    assert!(
        doc["acceptor_id"]
            .as_str()
            .unwrap()
            .starts_with("devin-outposts-")
    );
    let held: Vec<&str> = doc["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|x| x["session_id"].as_str())
        .collect();
    assert_eq!(held, vec![s.as_str()]);
    // State files: 0600, no token.
    let token = emu.env_value("DEVIN_OUTPOSTS_TOKEN");
    for entry in walk(&env.path("state")) {
        let text = std::fs::read_to_string(&entry).unwrap_or_default();
        assert!(
            !text.contains(&token),
            "{} holds the token",
            entry.display()
        );
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&entry).unwrap().permissions().mode() & 0o777;
        assert!(mode == 0o600, "{} has mode {mode:o}", entry.display());
    }
    let (code, _) = first.terminate(Duration::from_secs(35));
    assert_eq!(code, Some(0));
    let st = env.run(&["--json", "orchestrator", "status"]);
    assert_eq!(st.json()["running"], false);
    // Sandboxes and remotes stay up after a graceful stop.
    let local = local(&env);
    let sb = block_on(local.get(&sandbox_name(&s))).unwrap().unwrap();
    assert_eq!(
        sb.state,
        SandboxState::Started,
        "left running for the next start"
    );
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(walk(&p));
            } else {
                out.push(p);
            }
        }
    }
    out
}
