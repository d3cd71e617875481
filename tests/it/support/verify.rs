//! Helpers for the `session verify` tests: the task text as verify prints it, sessions given
//! that task through the CLI, and a check that nothing is left running. The orchestrator child
//! process and the waits are `support::orch`'s.

#![allow(dead_code)]

use std::time::{Duration, Instant};

use crate::support::{Run, TestEnv};

/// The task verify prints for `proof` (`--print-only`), checked for its shape.
pub fn task_for(env: &TestEnv, proof: &str) -> String {
    let run = env.run(&["session", "verify", "--print-only", "--proof", proof]);
    run.ok();
    let mut lines = run.stdout.lines();
    let task = lines.next().expect("task line").to_string();
    assert_eq!(task, crate::support::orch::proof_task(proof));
    let slack = lines.next().expect("slack line");
    assert!(
        slack.starts_with("@Devin !outpost ") && slack.ends_with(&task),
        "{slack}"
    );
    task
}

/// `outposts emulator session new --task TASK` → the session id.
pub fn new_session(env: &TestEnv, task: &str) -> String {
    let run = env.run(&["emulator", "session", "new", "--task", task]);
    run.ok();
    run.stdout.trim().to_string()
}

pub fn verify(env: &TestEnv, args: &[&str]) -> Run {
    let mut all = vec!["session", "verify"];
    all.extend_from_slice(args);
    env.run(&all)
}

/// Processes whose command line or environment mentions `needle` (a test's temporary path).
pub fn processes_mentioning(needle: &str) -> Vec<(i32, String)> {
    let me = std::process::id() as i32;
    std::fs::read_dir("/proc")
        .map(|rd| {
            rd.flatten()
                .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
                .filter(|pid| *pid != me)
                .filter_map(|pid| {
                    let cmd = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
                    let envs = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
                    let hit = |b: &[u8]| b.windows(needle.len()).any(|w| w == needle.as_bytes());
                    (hit(&cmd) || hit(&envs))
                        .then(|| (pid, String::from_utf8_lossy(&cmd).replace('\0', " ")))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Wait (≤ 15 s) until no process mentions `needle`; fail with the list otherwise.
pub fn assert_nothing_left(needle: &str) {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let left = processes_mentioning(needle);
        if left.is_empty() {
            return;
        }
        if Instant::now() > deadline {
            panic!("processes left behind (mentioning {needle}):\n{left:#?}");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A sealed environment whose local provider (`OUTPOSTS_LOCAL_ROOT`) is a fresh directory, the
/// provider on it, and what removes the directory and its sandboxes' processes at the end.
pub fn local_sandboxes() -> (
    TestEnv,
    outposts::provider::local::LocalProvider,
    tempfile::TempDir,
    crate::local_provider::Reaper,
) {
    let mut env = TestEnv::new();
    let (tmp, reaper) = crate::local_provider::root();
    env.set(
        "OUTPOSTS_LOCAL_ROOT",
        tmp.path().to_string_lossy().into_owned(),
    );
    let p =
        outposts::provider::local::LocalProvider::new(tmp.path(), crate::local_provider::opts())
            .expect("local provider");
    (env, p, tmp, reaper)
}

/// `session verify --sandbox ID --provider local --proof PROOF --wait 60s`, started with its
/// output piped (the caller acts on the sandbox while it waits).
pub fn spawn_verify(env: &TestEnv, sandbox: &str, proof: &str) -> std::process::Child {
    env.cmd(&[
        "session",
        "verify",
        "--sandbox",
        sandbox,
        "--provider",
        "local",
        "--proof",
        proof,
        "--wait",
        "60s",
    ])
    .stdout(std::process::Stdio::piped())
    .stderr(std::process::Stdio::piped())
    .spawn()
    .expect("spawn outposts")
}
