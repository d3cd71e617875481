//! `session verify` against the emulated Daytona: a session served by `orchestrator run
//! --provider daytona`, verified, then a mismatch and a timeout diagnosed on the same session.

use outposts::orchestrator::sandbox_name;
use std::time::Duration;

use outposts::provider::{Provider, SandboxState};

use crate::support::daytona::{assert_openapi_conformance, provider};
use crate::support::orch::{Orch, orch_env, wait_until};
use crate::support::verify::{assert_nothing_left, new_session, task_for, verify};
use crate::support::{Emu, TestEnv, block_on};

#[test]
fn orchestrated_session_on_emulated_daytona_verifies_end_to_end() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let emu_env = TestEnv::new();
    let emu = Emu::start(&emu_env, &[]);
    let env = orch_env(&emu);
    // The orchestrator boots sessions from the content-hashed default snapshot.
    env.run(&["snapshot", "build"]).ok();

    let proof = "outpost-proof-daytona01";
    let task = task_for(&env, proof);
    let mut orch = Orch::start(&env, &["--provider", "daytona"]);
    let session = new_session(&env, &task);
    let common = ["--session", session.as_str(), "--provider", "daytona"];

    let mut args = common.to_vec();
    args.extend(["--proof", proof, "--wait", "60s"]);
    let run = verify(&env, &args);
    run.ok();
    assert!(
        run.stdout
            .lines()
            .nth(2)
            .unwrap_or_default()
            .contains("verified"),
        "{}",
        run.stdout
    );

    // What the fake remote reported to the emulator is the same text.
    let sessions = block_on(emu.client().sessions()).unwrap();
    let s = sessions.iter().find(|s| s.session_id == session).unwrap();
    assert_eq!(s.tasks[0].output.as_deref(), Some(proof));

    // Another proof on the same file: exit 3, both values shown.
    let mut args = common.to_vec();
    args.extend(["--proof", "outpost-proof-other", "--wait", "5s"]);
    let run = verify(&env, &args);
    run.code(3);
    assert!(
        run.stdout.contains("expected: \"outpost-proof-other\"")
            && run.stdout.contains(&format!("found:    \"{proof}\"")),
        "{}",
        run.stdout
    );

    // A file nobody writes: exit 3 after 5 s with the sandbox's state, the remote's last log
    // lines and the session's queue state (a Devin token is configured).
    let mut args = common.to_vec();
    args.extend(["--path", "/workspace/never-written.txt", "--wait", "5s"]);
    let run = verify(&env, &args);
    run.code(3);
    assert!(run.stdout.contains("started on daytona"), "{}", run.stdout);
    assert!(
        run.stdout.contains("phase claimed, session running"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("last remote log lines"),
        "{}",
        run.stdout
    );
    args.push("--json");
    let doc = verify(&env, &args).code(3).json();
    let d = &doc["diagnosis"];
    assert_eq!(doc["result"], "timeout");
    assert_eq!(d["sandbox"]["state"], "started");
    assert_eq!(d["sandbox"]["name"], sandbox_name(&session));
    assert_eq!(d["queue"]["phase"], "claimed");
    assert_eq!(d["queue"]["session_status"], "running");
    assert_eq!(d["log_source"], "remote");
    let tail: Vec<&str> = d["log_tail"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|l| l.as_str())
        .collect();
    assert!(
        tail.iter()
            .any(|l| l.contains("connected to outpost gateway")),
        "{tail:?}"
    );
    // The connect token never reaches the output.
    assert!(!run.all().contains("cog_"), "{}", run.all());

    // Suspended: the orchestrator stops the sandbox (disk kept); the diagnosis says so.
    env.run(&["emulator", "session", "suspend", &session]).ok();
    let p = provider(&emu);
    wait_until(
        Duration::from_secs(30),
        "the sandbox to stop",
        || {
            block_on(p.get(&sandbox_name(&session)))
                .unwrap()
                .is_some_and(|sb| sb.state == SandboxState::Stopped)
        },
        || orch.log(),
    );
    let doc = verify(&env, &args).code(3).json();
    let hints = doc["diagnosis"]["hints"].to_string();
    assert!(hints.contains("stopped"), "{hints}");

    // SIGTERM stops the orchestrator cleanly (sandboxes are left as they are: this one is
    // stopped, its disk kept for the session to wake).
    let (code, _) = orch.terminate(Duration::from_secs(35));
    assert_eq!(code, Some(0), "{}", orch.log());
    assert_openapi_conformance(&emu);
    let data_dir = emu.data_dir().to_string_lossy().into_owned();
    drop(emu);
    assert_nothing_left(&data_dir);
    assert_nothing_left(&emu_env.home.path().to_string_lossy());
    assert_nothing_left(&env.home.path().to_string_lossy());
}
