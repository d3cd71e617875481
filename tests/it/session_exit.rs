//! How `session` commands end (issue 31 items 4, 6, 10, 14): a stop signal ends the session a
//! command made and prints its id; one exit table for every `session` command; with `--json`
//! stdout holds exactly one document and every stderr line is a JSON object.

use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::support::{Emu, Run, TestEnv, block_on, drain};

/// An emulator and an environment pointed at it; nobody serves its outpost.
fn emulated() -> (TestEnv, Emu) {
    let emu_env = TestEnv::new();
    let emu = Emu::start(&emu_env, &[]);
    let mut env = TestEnv::new();
    emu.configure(&mut env);
    let root = env.path("local-sandboxes");
    env.set("OUTPOSTS_LOCAL_ROOT", root.to_string_lossy().into_owned());
    drop(emu_env);
    (env, emu)
}

/// The ids of the sessions the emulator holds.
fn session_ids(emu: &Emu) -> Vec<String> {
    block_on(emu.client().sessions())
        .expect("admin read")
        .into_iter()
        .map(|s| s.session_id)
        .collect()
}

/// Start `args`, wait until it created a session (the emulator holds one more), send `sig`,
/// and return the run and the session's id.
fn signalled(env: &TestEnv, emu: &Emu, args: &[&str], sig: i32) -> (Run, String) {
    let before = session_ids(emu);
    let mut child = env
        .cmd(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn outposts");
    let deadline = Instant::now() + Duration::from_secs(60);
    let id = loop {
        if let Some(id) = session_ids(emu).into_iter().find(|i| !before.contains(i)) {
            break id;
        }
        if let Ok(Some(status)) = child.try_wait() {
            let (out, err) = drain(&mut child);
            panic!("exited ({status}) before creating a session:\n{out}\n{err}");
        }
        assert!(Instant::now() < deadline, "no session was created");
        std::thread::sleep(Duration::from_millis(50));
    };
    unsafe {
        libc::kill(child.id() as i32, sig);
    }
    let (stdout, stderr) = drain(&mut child);
    let status = child.wait().expect("wait");
    let run = Run {
        code: status.code().unwrap_or(-1),
        stdout,
        stderr,
    };
    (run, id)
}

/// The session's status as the emulator's v3 API reports it (through `session show`).
fn v3_status(env: &TestEnv, id: &str) -> String {
    let run = env.run(&["session", "show", id, "--json"]);
    run.ok();
    run.json()["session"]["status"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// Every stderr line is a JSON object; the last one, when `error` is given, is the error
/// document with that exit code.
#[track_caller]
pub(crate) fn assert_json_stderr(run: &Run, error: Option<i32>) {
    let lines: Vec<&str> = run.stderr.lines().filter(|l| !l.trim().is_empty()).collect();
    for l in &lines {
        let v: serde_json::Value = serde_json::from_str(l)
            .unwrap_or_else(|e| panic!("stderr line is not JSON ({e}): {l}\n{}", run.stderr));
        assert!(v.is_object(), "{l}");
    }
    if let Some(code) = error {
        let last: serde_json::Value =
            serde_json::from_str(lines.last().expect("an error line")).unwrap();
        assert_eq!(last["error"]["exit_code"], code, "{}", run.stderr);
    }
}

#[test]
fn a_stop_signal_ends_the_proof_session_prints_its_id_and_exits_130_or_143() {
    let (env, emu) = emulated();
    for (sig, code) in [(libc::SIGINT, 130), (libc::SIGTERM, 143)] {
        let (run, id) = signalled(
            &env,
            &emu,
            &[
                "session", "verify", "--create", "--provider", "local", "--wait", "5m", "--json",
            ],
            sig,
        );
        run.code(code);
        let doc = run.json();
        assert_eq!(doc["result"], "interrupted", "{doc}");
        assert_eq!(doc["session_id"], id.as_str());
        assert_eq!(doc["exit_code"], code);
        assert_eq!(doc["session_ended"], true);
        assert_eq!(doc["stalled_at"], "never claimed");
        assert!(doc["hint"].is_string(), "{doc}");
        assert_json_stderr(&run, None);
        assert_eq!(v3_status(&env, &id), "exit", "ended through the v3 API");
    }

    // Without --json: the id on stdout as a plain line; --keep-session leaves it running.
    let (run, id) = signalled(
        &env,
        &emu,
        &[
            "session",
            "verify",
            "--create",
            "--provider",
            "local",
            "--wait",
            "5m",
            "--keep-session",
        ],
        libc::SIGINT,
    );
    run.code(130);
    assert!(
        run.stdout.contains(&format!("session {id} was left running")),
        "{}",
        run.stdout
    );
    assert_eq!(run.stdout.lines().count(), 1, "{}", run.stdout);
    assert_eq!(v3_status(&env, &id), "new");
}

#[test]
fn a_stop_signal_during_session_create_until_ends_the_session_and_prints_its_id() {
    let (env, emu) = emulated();
    let (run, id) = signalled(
        &env,
        &emu,
        &[
            "session", "create", "--prompt", "hi", "--until", "served", "--wait", "5m", "--json",
        ],
        libc::SIGTERM,
    );
    run.code(143);
    let doc = run.json();
    assert_eq!(doc["result"], "interrupted", "{doc}");
    assert_eq!(doc["session_id"], id.as_str());
    assert_eq!(doc["exit_code"], 143);
    assert_eq!(doc["session_ended"], true);
    assert_json_stderr(&run, None);
    assert_eq!(v3_status(&env, &id), "exit");

    // Plain: stdout is the id alone, as for a created session.
    let (run, id) = signalled(
        &env,
        &emu,
        &["session", "create", "--prompt", "hi", "--until", "finished"],
        libc::SIGINT,
    );
    run.code(130);
    assert_eq!(run.stdout.trim(), id);
    assert!(run.stderr.contains("SIGINT: ending session"), "{}", run.stderr);
    assert_eq!(v3_status(&env, &id), "exit");
}
