//! Helpers for the `session verify` tests: the orchestrator as a child process, the task text
//! as verify prints it, sessions with tasks, and a check that nothing is left running.

#![allow(dead_code)]

use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use crate::support::{Run, TestEnv};

pub const TASK_TAIL: &str = "and read the file back. Report its contents.";

/// `outposts orchestrator run --provider KIND` as a child process (stderr kept in a file).
pub struct Orchestrator {
    child: Option<Child>,
    log: std::path::PathBuf,
}

impl Orchestrator {
    pub fn start(env: &TestEnv, provider: &str) -> Orchestrator {
        let log = env.path(&format!("orchestrator-{provider}.log"));
        let err = std::fs::File::create(&log).expect("orchestrator log");
        let child = env
            .cmd(&["orchestrator", "run", "--provider", provider])
            .stdout(Stdio::null())
            .stderr(err)
            .spawn()
            .expect("spawn the orchestrator");
        Orchestrator {
            child: Some(child),
            log,
        }
    }

    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// SIGTERM, then the exit status (it must exit 0 within the 30 s the design allows).
    pub fn stop(&mut self) -> i32 {
        let mut child = self.child.take().expect("orchestrator running");
        // SAFETY: kill(2) on our own child's pid.
        unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
        let deadline = Instant::now() + Duration::from_secs(35);
        loop {
            if let Some(status) = child.try_wait().expect("wait for the orchestrator") {
                return status.code().unwrap_or(-1);
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                let _ = child.wait();
                panic!(
                    "the orchestrator did not exit within 35 s of SIGTERM\n{}",
                    self.log()
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Orchestrator {
    fn drop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// The environment the orchestrated tests run with: the emulator, a fast reconcile loop, local
/// sandboxes inside the test's HOME.
pub fn orchestrated_env(env: &mut TestEnv) {
    env.set("RECONCILE_INTERVAL", "1");
    env.set("JANITOR_INTERVAL", "5");
    let root = env.path("sandboxes");
    env.set("OUTPOSTS_LOCAL_ROOT", root.to_string_lossy().into_owned());
}

/// The task verify prints for `proof` (`--print-only`), checked for its shape.
pub fn task_for(env: &TestEnv, proof: &str) -> String {
    let run = env.run(&["session", "verify", "--print-only", "--proof", proof]);
    run.ok();
    let mut lines = run.stdout.lines();
    let task = lines.next().expect("task line").to_string();
    assert_eq!(
        task,
        format!("Write the exact text {proof} to /workspace/outpost-proof.txt {TASK_TAIL}")
    );
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

/// Poll `f` (≤ `secs` s) until it gives a value.
pub fn wait_until<T>(what: &str, secs: u64, mut f: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        if let Some(v) = f() {
            return v;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(200));
    }
}
