//! Running `outposts orchestrator run` as a child process, and waiting on the emulator.

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use outposts::emulator::devin::{NewSession, SessionInfo};
use outposts::provider::local::{LocalOptions, LocalProvider};
use outposts::provider::{Provider, SandboxState};

use crate::support::{Emu, TestEnv, block_on};

pub const PROOF_PATH: &str = "/workspace/outpost-proof.txt";

pub fn proof_task(proof: &str) -> String {
    format!(
        "Write the exact text {proof} to {PROOF_PATH} and read the file back. Report its contents."
    )
}

/// A test env pointed at `emu`, with fast loops and its own local sandbox root.
pub fn orch_env(emu: &Emu) -> TestEnv {
    let mut env = TestEnv::new();
    emu.configure(&mut env);
    let root = env.path("sandboxes").to_string_lossy().into_owned();
    env.set("OUTPOSTS_LOCAL_ROOT", root);
    env.set("RECONCILE_INTERVAL", "1");
    env.set("JANITOR_INTERVAL", "2");
    env
}

/// A fresh emulator started with `emu_args`, and a sealed environment on it ([`orch_env`]): the
/// set-up nearly every orchestrator test starts from.
pub fn orch_emulator(emu_args: &[&str]) -> (Emu, TestEnv) {
    let emu = Emu::start(&TestEnv::new(), emu_args);
    let env = orch_env(&emu);
    (emu, env)
}

/// [`orch_emulator`] with the default snapshot built there (`outposts snapshot build`), as the
/// Daytona guide's first step. Its outcome is not checked here: a test that depends on it sees
/// the orchestrator refuse to start.
pub fn orch_emulator_built(emu_args: &[&str]) -> (Emu, TestEnv) {
    let (emu, env) = orch_emulator(emu_args);
    env.run(&["snapshot", "build"]).ok();
    (emu, env)
}

/// The local provider the orchestrator in `env` uses (same root), for assertions.
pub fn local(env: &TestEnv) -> LocalProvider {
    let opts = LocalOptions {
        // Without bubblewrap, as the binary under test does (OUTPOSTS_LOCAL_UNISOLATED).
        allow_unisolated: crate::support::host::unisolated(),
        ..LocalOptions::default()
    };
    LocalProvider::new(env.path("sandboxes"), opts).expect("local provider")
}

/// `outposts orchestrator run` in the background; SIGKILLed on drop.
pub struct Orch {
    pub child: Child,
    pub log: PathBuf,
}

impl Orch {
    pub fn start(env: &TestEnv, args: &[&str]) -> Orch {
        let log = env.path(&format!(
            "orchestrator-{}.log",
            uuid::Uuid::new_v4().simple()
        ));
        let file = std::fs::File::create(&log).expect("log file");
        let mut full = vec!["-v", "orchestrator", "run"];
        full.extend_from_slice(args);
        let child = env
            .cmd(&full)
            .stdout(Stdio::null())
            .stderr(file)
            .spawn()
            .expect("spawn orchestrator");
        Orch { child, log }
    }

    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    pub fn signal(&self, sig: i32) {
        unsafe {
            libc::kill(self.child.id() as i32, sig);
        }
    }

    /// SIGTERM and wait; returns the exit code and how long it took.
    pub fn terminate(&mut self, limit: Duration) -> (Option<i32>, Duration) {
        let start = Instant::now();
        self.signal(libc::SIGTERM);
        while start.elapsed() < limit {
            if let Ok(Some(status)) = self.child.try_wait() {
                return (status.code(), start.elapsed());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        (None, start.elapsed())
    }

    /// Wait up to `limit` for the process to exit by itself; its exit code.
    pub fn wait_exit(&mut self, limit: Duration) -> Option<i32> {
        let start = Instant::now();
        while start.elapsed() < limit {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        None
    }

    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    pub fn exited(&mut self) -> Option<i32> {
        self.child.try_wait().ok().flatten().and_then(|s| s.code())
    }
}

impl Drop for Orch {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Poll `cond` every 100 ms until it holds or `limit` passes; panics with `what` and `context()`.
pub fn wait_until(
    limit: Duration,
    what: &str,
    mut cond: impl FnMut() -> bool,
    context: impl Fn() -> String,
) {
    let start = Instant::now();
    while start.elapsed() < limit {
        if cond() {
            return;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!(
        "timed out after {limit:?} waiting for {what}\n{}",
        context()
    );
}

pub fn new_session(emu: &Emu, task: Option<String>) -> String {
    let created = block_on(emu.client().new_sessions(&NewSession {
        task,
        ..NewSession::default()
    }))
    .expect("new session");
    created[0].session_id.clone()
}

/// A new session pinned to the devin-remote build `sha`: its id.
pub fn pinned_session(emu: &Emu, sha: &str) -> String {
    let created = block_on(emu.client().new_sessions(&NewSession {
        remote_binary_sha: Some(sha.into()),
        ..NewSession::default()
    }))
    .expect("new session");
    created[0].session_id.clone()
}

/// The orchestrator's launch line for `session`, once it has one.
pub fn launch_line(orch: &Orch, session: &str) -> Option<String> {
    orch.log()
        .lines()
        .find(|l| l.contains(session) && l.contains("served: devin-remote launched"))
        .map(str::to_string)
}

/// How many times the distribution served the Linux x64 devin-remote binary of `sha`.
pub fn remote_downloads(emu: &Emu, sha: &str) -> usize {
    let file = format!("devin-remote_{sha}_linux_x64");
    emu.requests()
        .iter()
        .filter(|r| r.method == "GET" && r.path.ends_with(&format!("/{file}")))
        .count()
}

/// An orchestrator on Daytona that launches the image's `devin` (`--launch cli`) with the
/// Windows snapshot beside the Linux one (a Windows session on a Linux outpost: the start-up
/// check wants both), and one new Windows session in the queue: its id.
pub fn windows_cli_orch(emu: &Emu, env: &TestEnv) -> (Orch, String) {
    let orch = Orch::start(
        env,
        &[
            "--provider",
            "daytona",
            "--launch",
            "cli",
            "--snapshot",
            "daytonaio/sandbox:0.6.0",
            "--windows-snapshot",
            "windows-medium",
        ],
    );
    let created = block_on(emu.client().new_sessions(&NewSession {
        platform: Some("windows".into()),
        ..NewSession::default()
    }))
    .expect("new Windows session");
    (orch, created[0].session_id.clone())
}

pub fn session(emu: &Emu, id: &str) -> SessionInfo {
    block_on(emu.client().session(id))
        .expect("session")
        .expect("session exists")
}

pub fn tasks_done(emu: &Emu, id: &str) -> bool {
    let s = session(emu, id);
    !s.tasks.is_empty() && s.tasks.iter().all(|t| t.status == "done")
}

/// Whether the session's remote has connected for claim `generation` (the emulator's history):
/// generation 2 is the first wake.
pub fn connected_at(emu: &Emu, id: &str, generation: u32) -> bool {
    block_on(emu.client().history(Some(id)))
        .unwrap()
        .iter()
        .any(|h| h.event == "connect" && h.generation == generation)
}

/// Whether the sandbox `id_or_name` exists on `provider` and is in `state`.
pub fn in_state(provider: &impl Provider, id_or_name: &str, state: SandboxState) -> bool {
    block_on(provider.get(id_or_name))
        .unwrap()
        .is_some_and(|x| x.state == state)
}

/// Devin's `step` on a session (suspend, resume, terminate), then a wait for `done`, the
/// orchestrator's answer to it (named `what`).
fn step_until<T, E: std::fmt::Debug>(
    orch: &Orch,
    step: impl std::future::Future<Output = Result<T, E>>,
    what: &str,
    done: impl FnMut() -> bool,
    wait: Duration,
) {
    block_on(step).unwrap();
    wait_until(wait, what, done, || orch.log());
}

/// Devin suspends `session`, and the orchestrator stops its sandbox `sandbox_id`: waited for.
pub fn suspend_until_stopped(
    emu: &Emu,
    orch: &Orch,
    provider: &impl Provider,
    session: &str,
    sandbox_id: &str,
    wait: Duration,
) {
    let stopped = || in_state(provider, sandbox_id, SandboxState::Stopped);
    step_until(
        orch,
        emu.client().suspend(session),
        "the stop",
        stopped,
        wait,
    );
}

/// Devin resumes `session`, and its remote connects again (the first wake): waited for.
pub fn resume_until_woken(emu: &Emu, orch: &Orch, session: &str, wait: Duration) {
    let woken = || connected_at(emu, session, 2);
    step_until(orch, emu.client().resume(session), "the wake", woken, wait);
}

/// Devin terminates `session`, and the orchestrator deletes its sandbox `sandbox_id`: waited
/// for.
pub fn terminate_until_deleted(
    emu: &Emu,
    orch: &Orch,
    provider: &impl Provider,
    session: &str,
    sandbox_id: &str,
    wait: Duration,
) {
    let deleted = || block_on(provider.get(sandbox_id)).unwrap().is_none();
    step_until(
        orch,
        emu.client().terminate(session),
        "the delete",
        deleted,
        wait,
    );
}

/// Claims per acceptor over the emulator's history (generation → acceptors).
pub fn claims(emu: &Emu, id: &str) -> Vec<(u32, String)> {
    block_on(emu.client().history(Some(id)))
        .expect("history")
        .into_iter()
        .filter(|h| h.event == "claim")
        .map(|h| (h.generation, h.acceptor_id.unwrap_or_default()))
        .collect()
}

/// A fresh emulator, a sealed environment on it, and the default snapshot built there: its name.
pub fn emulator_with_snapshot() -> (Emu, TestEnv, String) {
    let (emu, env) = orch_emulator_built(&[]);
    let name = snapshot_name(&env);
    (emu, env, name)
}

/// What `outposts snapshot name` prints.
pub fn snapshot_name(env: &TestEnv) -> String {
    env.run(&["snapshot", "name"])
        .ok()
        .stdout
        .trim()
        .to_string()
}

/// A session's failure record, as `orchestrator failures --json SESSION` prints it.
pub fn failure_record(env: &TestEnv, session: &str) -> Option<serde_json::Value> {
    let r = env.run(&["orchestrator", "failures", "--json", session]);
    (r.code == 0).then(|| r.json()["records"][0].clone())
}

/// `POST /_emulator/<path>` with a JSON body (the emulator's fault and admin routes).
pub fn emulator_post(emu: &Emu, path: &str, body: serde_json::Value) {
    let req = outposts::api::ApiRequest::new(
        outposts::api::http::EMULATOR,
        reqwest::Method::POST,
        format!("{}/_emulator/{path}", emu.base_url),
    )
    .json(&body);
    block_on(crate::support::daytona::http_client().send(req)).expect("the emulator's admin API");
}

/// What each Daytona create asked for in `field` (`snapshot`, `target`), in order, with the
/// answer's status.
pub fn daytona_creates(emu: &Emu, field: &str) -> Vec<(String, u16)> {
    emu.requests()
        .into_iter()
        .filter(|r| r.method == "POST" && r.path == "/daytona/api/sandbox")
        .map(|r| {
            let body: serde_json::Value =
                serde_json::from_str(r.body.as_deref().unwrap_or("{}")).unwrap_or_default();
            (body[field].as_str().unwrap_or("").to_string(), r.status)
        })
        .collect()
}
