//! Warm capacity (`WARM_IDLE`) end to end on local sandboxes against the emulator: the idle
//! count holds above the active sessions as they arrive and end, each warm sandbox serves one
//! session (and is found by its labels through sleep and wake, and by `session verify`), a
//! source change replaces the capacity, a restart adopts or deletes so the count is exact, and
//! the spend ceiling caps it.

use std::collections::BTreeSet;
use std::time::Duration;

use outposts::orchestrator::LABEL_SESSION;
use outposts::orchestrator::warm::{LABEL_WARM, LABEL_WARM_OWNER};
use outposts::provider::{SandboxInfo, SandboxState};

use crate::support::block_on;
use crate::support::orch::*;
use crate::support::warm::{ready_to_serve, sandboxes, session_sandbox, warm_any, warm_idle};

const WAIT: Duration = Duration::from_secs(60);

#[test]
fn idle_count_holds_above_active_and_each_warm_sandbox_serves_one_session() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, mut env) = orch_emulator(&["--sweep-delay", "1s"]);
    env.set("WARM_IDLE", "2");
    let mut orch = Orch::start(&env, &["--provider", "local"]);
    let local = local(&env);
    wait_until(
        WAIT,
        "two warm sandboxes",
        || warm_idle(&local).len() == 2 && ready_to_serve(&env) == 2,
        || orch.log(),
    );
    let before = warm_idle(&local);
    let sessions: Vec<String> = (0..3)
        .map(|k| new_session(&emu, Some(proof_task(&format!("warm-{k}")))))
        .collect();
    for s in &sessions {
        wait_until(WAIT, "the task", || tasks_done(&emu, s), || orch.log());
    }
    let served: Vec<SandboxInfo> = sessions
        .iter()
        .map(|s| session_sandbox(&local, s).expect("the session's sandbox"))
        .collect();
    // One sandbox per session, and each carries exactly its own session's labels.
    let ids: BTreeSet<&str> = served.iter().map(|sb| sb.id.as_str()).collect();
    assert_eq!(ids.len(), 3, "{served:?}");
    let from_warm: Vec<&SandboxInfo> = served.iter().filter(|sb| before.contains(&sb.id)).collect();
    assert!(
        !from_warm.is_empty(),
        "no session was served from the warm sandboxes {before:?}: {served:?}\n{}",
        orch.log()
    );
    for sb in &from_warm {
        assert!(!sb.labels.contains_key(LABEL_WARM), "{sb:?}");
        assert!(!sb.labels.contains_key(LABEL_WARM_OWNER), "{sb:?}");
    }
    // `session verify` finds a warm-served session's sandbox by its labels: it keeps its warm
    // name, not the one the session's id would give.
    let k = served
        .iter()
        .position(|sb| before.contains(&sb.id))
        .unwrap();
    let v = env.run(&[
        "session",
        "verify",
        "--provider",
        "local",
        "--session",
        &sessions[k],
        "--proof",
        &format!("warm-{k}"),
        "--wait",
        "10s",
        "--json",
    ]);
    let doc = v.json();
    assert_eq!(doc["result"], "match", "{doc}");
    assert_eq!(doc["sandbox"]["id"], served[k].id.as_str(), "{doc}");
    // The capacity is replenished above the three active sessions.
    wait_until(
        WAIT,
        "two warm sandboxes again",
        || warm_idle(&local).len() == 2,
        || orch.log(),
    );
    assert!(warm_idle(&local).iter().all(|w| !ids.contains(w.as_str())));
    // A session served warm sleeps and wakes in the same sandbox (found by its labels).
    let s = &sessions[served
        .iter()
        .position(|sb| before.contains(&sb.id))
        .unwrap()];
    let sb = session_sandbox(&local, s).unwrap();
    suspend_until_stopped(&emu, &orch, &local, s, &sb.id, WAIT);
    resume_until_woken(&emu, &orch, s, WAIT);
    assert_eq!(session_sandbox(&local, s).unwrap().id, sb.id);
    // … and only that one: a wake that missed it would have been handed another.
    let carrying: Vec<String> = sandboxes(&local)
        .into_iter()
        .filter(|x| x.labels.get(LABEL_SESSION) == Some(s) && x.state != SandboxState::Deleted)
        .map(|x| x.id)
        .collect();
    assert_eq!(carrying, vec![sb.id.clone()], "{}", orch.log());
    assert_eq!(
        served
            .iter()
            .filter(|x| x.labels.get(LABEL_SESSION) == Some(s))
            .count(),
        1
    );
    // Sessions end; the idle count stays what was asked.
    for s in &sessions {
        block_on(emu.client().terminate(s)).unwrap();
    }
    wait_until(
        WAIT,
        "the sessions' sandboxes to go",
        || {
            sessions
                .iter()
                .all(|s| session_sandbox(&local, s).is_none())
        },
        || orch.log(),
    );
    assert_eq!(warm_idle(&local).len(), 2);
    let st = env.run(&["--json", "orchestrator", "status"]);
    let doc = st.ok().json();
    assert_eq!(doc["warm"]["target"], 2, "{doc}");
    assert!(doc["warm"]["hits"].as_u64().unwrap() >= 1, "{doc}");
    // The warm capacity's idle time is in the ledger, as one `warm` row by session.
    let cost = env.run(&["cost", "--by", "session", "--json"]).ok().json();
    let rows = cost["rows"].as_array().expect("rows");
    let warm: Vec<_> = rows.iter().filter(|r| r["key"] == "warm").collect();
    assert_eq!(warm.len(), 1, "{cost}");
    assert!(
        warm[0]["seconds"]["running"].as_f64().unwrap() > 0.0,
        "{cost}"
    );
    assert!(
        rows.iter()
            .all(|r| !r["key"].as_str().unwrap().starts_with("warm:")),
        "{cost}"
    );
    // Ctrl-C with the default WARM_ON_EXIT=delete leaves no warm sandbox behind.
    let (code, _) = orch.terminate(Duration::from_secs(35));
    assert_eq!(code, Some(0));
    assert!(warm_any(&local).is_empty(), "{:?}", warm_any(&local));
}

#[test]
fn restart_adopts_or_deletes_and_a_source_change_replaces_the_capacity() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (_emu, mut env) = orch_emulator(&[]);
    env.set("WARM_IDLE", "3");
    env.set("WARM_ON_EXIT", "keep");
    let mut first = Orch::start(&env, &["--provider", "local"]);
    let local = local(&env);
    wait_until(
        WAIT,
        "three warm sandboxes",
        || warm_idle(&local).len() == 3,
        || first.log(),
    );
    let kept = warm_idle(&local);
    let (code, _) = first.terminate(Duration::from_secs(35));
    assert_eq!(code, Some(0));
    assert_eq!(warm_idle(&local), kept, "WARM_ON_EXIT=keep keeps them");

    // A restart asking for fewer adopts some and deletes the rest: exactly two, all old ones.
    env.set("WARM_IDLE", "2");
    let mut second = Orch::start(&env, &["--provider", "local"]);
    wait_until(
        WAIT,
        "exactly two warm sandboxes",
        || warm_any(&local).len() == 2,
        || second.log(),
    );
    std::thread::sleep(Duration::from_secs(3));
    let adopted = warm_idle(&local);
    assert_eq!(adopted.len(), 2, "{adopted:?}");
    assert!(adopted.is_subset(&kept), "{adopted:?} ⊄ {kept:?}");
    let (code, _) = second.terminate(Duration::from_secs(35));
    assert_eq!(code, Some(0));

    // Another image: every warm sandbox of the old one goes, two new ones come.
    let mut third = Orch::start(&env, &["--provider", "local", "--image", "other:2"]);
    wait_until(
        WAIT,
        "two warm sandboxes of the new image",
        || {
            let w = warm_any(&local);
            w.len() == 2
                && w.iter()
                    .all(|sb| !adopted.contains(&sb.id) && sb.state == SandboxState::Started)
        },
        || third.log(),
    );
    let (code, _) = third.terminate(Duration::from_secs(35));
    assert_eq!(code, Some(0));
}

#[test]
fn the_spend_ceiling_caps_the_warm_capacity() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (_emu, mut env) = orch_emulator(&[]);
    env.set("WARM_IDLE", "5");
    // A price table that makes the ceiling bind: 1 vCPU at $0.0001/s is $0.36/h per sandbox,
    // so two fit under $1.00/h and the third would pass it (no WARM_SANDBOX_HOURLY_COST: the
    // price comes from the table).
    env.set("WARM_MAX_HOURLY_COST", "1.00");
    env.set("LOCAL_PRICES", "running.vcpu_second=0.0001");
    let mut orch = Orch::start(&env, &["--provider", "local"]);
    let local = local(&env);
    wait_until(
        WAIT,
        "two warm sandboxes",
        || warm_idle(&local).len() == 2,
        || orch.log(),
    );
    wait_until(
        WAIT,
        "the status file to show the warm capacity",
        || {
            let doc = env.run(&["--json", "orchestrator", "status"]).json();
            doc["warm"]["capped_by"] == "spend"
        },
        || orch.log(),
    );
    std::thread::sleep(Duration::from_secs(2));
    assert_eq!(warm_any(&local).len(), 2);
    let st = env.run(&["orchestrator", "status"]);
    assert!(
        st.ok().stdout.contains("capped by WARM_MAX_HOURLY_COST"),
        "{}",
        st.stdout
    );
    let (code, _) = orch.terminate(Duration::from_secs(35));
    assert_eq!(code, Some(0));
}

#[test]
fn a_bad_warm_setting_names_the_variable() {
    let (_emu, mut env) = orch_emulator(&[]);
    env.set("WARM_IDLE", "lots");
    let run = env.run(&["orchestrator", "run", "--provider", "local"]);
    run.code(2);
    assert!(
        run.stderr.contains("WARM_IDLE") && run.stderr.contains("`lots`"),
        "{}",
        run.stderr
    );
}

#[test]
fn session_new_rate_enqueues_a_poisson_stream() {
    let (emu, env) = orch_emulator(&[]);
    let run = env.run(&[
        "emulator", "session", "new", "--rate", "20/s", "--for", "1s", "--seed", "34",
    ]);
    let ids: Vec<&str> = run.ok().stdout.lines().collect();
    // 20 expected; the seed makes the count the same on every run.
    assert!((8..=35).contains(&ids.len()), "{}", run.stdout);
    let known: BTreeSet<String> = block_on(emu.client().sessions())
        .expect("sessions")
        .into_iter()
        .map(|s| s.session_id)
        .collect();
    assert!(ids.iter().all(|id| known.contains(*id)), "{ids:?}");
    let again = env.run(&[
        "emulator", "session", "new", "--rate", "20/s", "--for", "1s", "--seed", "34",
    ]);
    assert_eq!(again.ok().stdout.lines().count(), ids.len());
    // A rate needs a span.
    env.run(&["emulator", "session", "new", "--rate", "1/s"])
        .code(2);
}
