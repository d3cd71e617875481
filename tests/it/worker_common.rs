//! Helpers of the `worker_*` tests: launching, polling, the emulator's history, leak scans.

#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::{Duration, Instant};

use outposts::emulator::devin::{HistoryRecord, SessionInfo};
use serde_json::Value;

use crate::support::{Emu, Run, TestEnv, block_on, emulated_env};

/// A sealed environment pointed at a fresh emulator, with `provider` as OUTPOSTS_PROVIDER.
pub fn setup(provider: &str) -> (TestEnv, Emu) {
    let (mut env, emu) = emulated_env(&[]);
    env.set("OUTPOSTS_PROVIDER", provider);
    (env, emu)
}

/// Poll `f` every 250 ms until it returns `Some`, or panic with `what` after `timeout`.
#[track_caller]
pub fn wait_for<T>(timeout: Duration, what: &str, mut f: impl FnMut() -> Option<T>) -> T {
    let started = Instant::now();
    loop {
        if let Some(v) = f() {
            return v;
        }
        assert!(
            started.elapsed() < timeout,
            "timed out after {timeout:?} waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(250));
    }
}

/// `worker launch … --json` (must succeed); the sandbox ids.
#[track_caller]
pub fn launch(env: &TestEnv, extra: &[&str]) -> (Vec<String>, Value) {
    let mut args = vec!["--json", "worker", "launch", "--outpost", "emulator"];
    args.extend_from_slice(extra);
    let r = env.run(&args);
    r.ok();
    let doc = r.json();
    let ids = doc["workers"]
        .as_array()
        .expect("workers")
        .iter()
        .map(|w| w["id"].as_str().expect("id").to_string())
        .collect();
    (ids, doc)
}

pub fn sessions(emu: &Emu) -> Vec<SessionInfo> {
    block_on(emu.client().sessions()).expect("sessions")
}

pub fn session(emu: &Emu, id: &str) -> SessionInfo {
    block_on(emu.client().session(id))
        .expect("session")
        .expect("known session")
}

pub fn history(emu: &Emu) -> Vec<HistoryRecord> {
    block_on(emu.client().history(None)).expect("history")
}

/// Enqueue one session with a task through the CLI; its id.
#[track_caller]
pub fn new_session(env: &TestEnv, task: &str) -> String {
    let r = env.run(&["--json", "emulator", "session", "new", "--task", task]);
    r.ok();
    r.json()[0]["session_id"]
        .as_str()
        .expect("session id")
        .to_string()
}

#[track_caller]
pub fn terminate(env: &TestEnv, id: &str) {
    env.run(&["emulator", "session", "terminate", id]).ok();
}

pub fn task_done(s: &SessionInfo) -> bool {
    !s.tasks.is_empty() && s.tasks.iter().all(|t| t.status == "done")
}

/// The most claims held at once, replaying the history (claim … release/expire).
pub fn max_concurrent_claims(history: &[HistoryRecord]) -> usize {
    let mut held = BTreeSet::new();
    let mut max = 0;
    for h in history {
        match h.event.as_str() {
            "claim" => {
                held.insert(h.session_id.clone());
            }
            "release" | "expire" => {
                held.remove(&h.session_id);
            }
            _ => {}
        }
        max = max.max(held.len());
    }
    max
}

/// Acceptor of each successful claim, by session.
pub fn claims(history: &[HistoryRecord]) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for h in history.iter().filter(|h| h.event == "claim") {
        out.entry(h.session_id.clone())
            .or_default()
            .push(h.acceptor_id.clone().unwrap_or_default());
    }
    out
}

/// Panic if `needle` is in any output, any file under `dirs` (≤ 8 MiB each), or any process's
/// command line.
#[track_caller]
pub fn assert_nowhere(needle: &str, runs: &[&Run], dirs: &[&Path]) {
    assert!(needle.len() >= 8, "a needle this short proves nothing");
    for r in runs {
        assert!(
            !r.all().contains(needle),
            "the token leaked into output:\n{}",
            r.all()
        );
    }
    for d in dirs {
        scan(d, needle);
    }
    if let Ok(procs) = std::fs::read_dir("/proc") {
        for p in procs.flatten() {
            if let Ok(cmdline) = std::fs::read(p.path().join("cmdline")) {
                assert!(
                    !String::from_utf8_lossy(&cmdline).contains(needle),
                    "the token is on the command line of pid {:?}",
                    p.file_name()
                );
            }
        }
    }
}

fn scan(dir: &Path, needle: &str) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let Ok(meta) = std::fs::symlink_metadata(e.path()) else {
            continue;
        };
        if meta.is_dir() {
            scan(&e.path(), needle);
        } else if meta.is_file()
            && meta.len() <= 8 * 1024 * 1024
            && let Ok(bytes) = std::fs::read(e.path())
        {
            assert!(
                !String::from_utf8_lossy(&bytes).contains(needle),
                "the token is written in {}",
                e.path().display()
            );
        }
    }
}

/// `worker status ID --json`.
#[track_caller]
pub fn status(env: &TestEnv, id: &str) -> Value {
    let r = env.run(&["--json", "worker", "status", id]);
    // 1 is a worker that does not serve (yet): the status was still read.
    assert!(r.code == 0 || r.code == 1, "{r:?}");
    r.json()
}

/// The worker's whole log (`worker logs ID`), as lines.
#[track_caller]
pub fn log_lines(env: &TestEnv, id: &str) -> Vec<String> {
    let r = env.run(&["worker", "logs", id]);
    r.ok();
    r.stdout.lines().map(str::to_string).collect()
}

/// Stops local worker sandboxes when a test ends, even by panic (emulator sandboxes end with
/// their emulator; local ones would outlive the test).
pub struct StopOnDrop {
    vars: BTreeMap<String, String>,
    cwd: std::path::PathBuf,
    pub ids: Vec<String>,
}

impl StopOnDrop {
    pub fn new(env: &TestEnv) -> Self {
        StopOnDrop {
            vars: env.vars.clone(),
            cwd: env.cwd.clone(),
            ids: Vec::new(),
        }
    }
}

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        for id in &self.ids {
            let _ = std::process::Command::new(crate::support::BIN)
                .args(["-q", "worker", "stop", id, "--yes", "--no-snapshot"])
                .env_clear()
                .envs(&self.vars)
                .current_dir(&self.cwd)
                .stdin(std::process::Stdio::null())
                .output();
        }
    }
}

/// Store a secret in the emulated CoreWeave secret store (`--secret STORE:PATH`).
pub fn put_secret(emu: &Emu, store: &str, path: &str, value: &str) {
    let status = block_on(async {
        reqwest::Client::new()
            .put(format!("{}/_emulator/coreweave/secrets", emu.base_url))
            .json(&serde_json::json!({"store": store, "path": path, "value": value}))
            .send()
            .await
            .unwrap()
            .status()
    });
    assert!(status.is_success(), "{status}");
}
