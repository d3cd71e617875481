//! Sleeping sessions on local sandboxes: a termination seen while the orchestrator was away is
//! acted on at once after the restart, `SLEEP_RETENTION` deletes abandoned sleepers after their
//! window (and never without the setting), and `orchestrator status` shows what sleep costs.

use std::time::{Duration, Instant};

use outposts::orchestrator::sandbox_name;
use outposts::provider::{Provider, SandboxState};

use crate::support::orch::*;
use crate::support::{Emu, TestEnv, block_on};

const WAIT: Duration = Duration::from_secs(60);

/// Serve a session, then put it to sleep: its sandbox id once stopped and released.
fn serve_then_sleep(emu: &Emu, env: &TestEnv, orch: &Orch) -> (String, String) {
    let local = local(env);
    let s = new_session(emu, Some(proof_task("asleep")));
    wait_until(WAIT, "the task", || tasks_done(emu, &s), || orch.log());
    let sb = block_on(local.get(&sandbox_name(&s)))
        .unwrap()
        .expect("sandbox");
    block_on(emu.client().suspend(&s)).unwrap();
    wait_until(
        WAIT,
        "the sleep",
        || {
            block_on(local.get(&sb.id))
                .unwrap()
                .is_some_and(|x| x.state == SandboxState::Stopped)
                && block_on(emu.client().history(Some(&s)))
                    .unwrap()
                    .iter()
                    .any(|h| h.event == "release")
        },
        || orch.log(),
    );
    (s, sb.id)
}

/// Wait until the queue has swept the session's row (it is absent from then on).
fn wait_swept(emu: &Emu, session: &str, orch: &Orch) {
    wait_until(
        WAIT,
        "the row to be swept",
        || {
            block_on(crate::devin_queue::devin_client(emu).get(session))
                .unwrap()
                .is_none()
        },
        || orch.log(),
    );
}

fn exists(env: &TestEnv, id: &str) -> bool {
    block_on(local(env).get(id)).unwrap().is_some()
}

#[test]
fn a_termination_seen_after_a_restart_deletes_the_sleeper_at_once() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, env) = orch_emulator(&["--sweep-delay", "60s"]);
    let mut orch = Orch::start(&env, &["--provider", "local"]);
    let (s, sb) = serve_then_sleep(&emu, &env, &orch);
    assert_eq!(orch.terminate(Duration::from_secs(35)).0, Some(0));
    // While nobody serves the outpost, the user comes back and then ends the session.
    block_on(emu.client().resume(&s)).unwrap();
    block_on(emu.client().terminate(&s)).unwrap();
    let restarted = Instant::now();
    let orch = Orch::start(&env, &["--provider", "local"]);
    // The sandbox is minutes younger than the creation grace (300 s): only its session's
    // termination explains it, and that is enough.
    wait_until(
        Duration::from_secs(20),
        "the terminated session's sandbox to go",
        || !exists(&env, &sb),
        || orch.log(),
    );
    // Within two janitor passes (JANITOR_INTERVAL=2 s) after the restart, plus start-up.
    assert!(
        restarted.elapsed() < Duration::from_secs(10),
        "{:?}",
        restarted.elapsed()
    );
    let history = block_on(emu.client().history(Some(&s))).unwrap();
    assert_eq!(
        history.iter().filter(|h| h.event == "claim").count(),
        1,
        "the terminated session was never claimed again: {history:?}"
    );
}

/// Killed between seeing `terminated` and deleting the sandbox, restarted once the row is swept:
/// the session is absent then (absent reads as asleep), so only the termination remembered in
/// the state dir explains the sandbox, and it goes instead of being kept as a sleeper.
#[test]
fn a_termination_seen_just_before_a_crash_is_remembered_after_the_row_is_swept() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    // A short claim: the killed instance never releases, so the row waits for its claim to
    // expire and is swept a second later.
    let (emu, mut env) = orch_emulator(&["--sweep-delay", "1s", "--claim-ttl", "8s"]);
    env.set("OUTPOSTS_FAILPOINTS", "delete.before=kill");
    let mut orch = Orch::start(&env, &["--provider", "local"]);
    let s = new_session(&emu, Some(proof_task("doomed")));
    wait_until(WAIT, "the task", || tasks_done(&emu, &s), || orch.log());
    let sb = block_on(local(&env).get(&sandbox_name(&s)))
        .unwrap()
        .expect("sandbox")
        .id;
    block_on(emu.client().terminate(&s)).unwrap();
    // Seen terminated, killed right before the delete.
    wait_until(
        WAIT,
        "the kill at the delete",
        || orch.log().contains("failpoint delete.before: kill"),
        || orch.log(),
    );
    orch.wait_exit(Duration::from_secs(10));
    assert!(
        matches!(orch.child.try_wait(), Ok(Some(_))),
        "the orchestrator is still running"
    );
    assert!(exists(&env, &sb), "the delete never ran");
    wait_swept(&emu, &s, &orch);
    env.unset("OUTPOSTS_FAILPOINTS");
    let orch = Orch::start(&env, &["--provider", "local"]);
    wait_until(
        Duration::from_secs(20),
        "the terminated session's sandbox to go",
        || !exists(&env, &sb),
        || orch.log(),
    );
}

#[test]
fn sleep_retention_deletes_abandoned_sleepers_after_their_window_only() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, mut env) = orch_emulator(&["--sweep-delay", "1s"]);
    env.set("SLEEP_RETENTION", "6s");
    env.set("JANITOR_INTERVAL", "1");
    let orch = Orch::start(&env, &["--provider", "local"]);
    let (s, sb) = serve_then_sleep(&emu, &env, &orch);
    // The row is swept a second after the release: absent from then on.
    let gone_from_queue = Instant::now();
    wait_swept(&emu, &s, &orch);
    // Inside the window: kept, and status says when it would go.
    std::thread::sleep(Duration::from_secs(3));
    assert!(
        exists(&env, &sb),
        "deleted before its window\n{}",
        orch.log()
    );
    let status = env.run(&["--json", "orchestrator", "status"]);
    status.ok();
    let doc = status.json();
    let sleeper = doc["sleeping"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["session_id"] == s.as_str())
        .cloned()
        .unwrap_or_else(|| panic!("not listed as sleeping: {doc}"));
    assert_eq!(sleeper["state"], "stopped");
    assert_eq!(sleeper["sandbox_id"], sb.as_str());
    assert!(sleeper["retention_deadline"].is_f64(), "{sleeper}");
    assert_eq!(doc["sleep_retention_seconds"], 6.0);
    assert!(doc["sandboxes"]["sleeping"].as_u64().unwrap() >= 1, "{doc}");
    let human = env.run(&["orchestrator", "status"]);
    assert!(
        human.stdout.contains("SLEEPING SESSION"),
        "{}",
        human.stdout
    );
    // After the window (6 s of absence, plus a janitor pass): deleted, and the log says why.
    wait_until(
        Duration::from_secs(20),
        "the retention deletion",
        || !exists(&env, &sb),
        || orch.log(),
    );
    assert!(gone_from_queue.elapsed() >= Duration::from_secs(6));
    // The reason is logged once the provider's delete has returned, which may be a moment
    // after the sandbox stopped being listed.
    let removed = Instant::now();
    wait_until(
        Duration::from_secs(10),
        "the reason in the log",
        || orch.log().contains("SLEEP_RETENTION"),
        || orch.log(),
    );
    eprintln!(
        "reason logged {:?} after the sandbox vanished",
        removed.elapsed()
    );
}

#[test]
fn without_a_retention_setting_a_sleeper_is_never_deleted() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, mut env) = orch_emulator(&["--sweep-delay", "1s"]);
    env.set("JANITOR_INTERVAL", "1");
    let orch = Orch::start(&env, &["--provider", "local"]);
    let (s, sb) = serve_then_sleep(&emu, &env, &orch);
    wait_swept(&emu, &s, &orch);
    std::thread::sleep(Duration::from_secs(8));
    assert!(exists(&env, &sb), "{}", orch.log());
    let status = env.run(&["orchestrator", "status"]);
    assert!(status.stdout.contains("never (off)"), "{}", status.stdout);
}
