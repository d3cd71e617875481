//! Test harness: the real binary in a sealed environment, and `outposts emulator` as a child
//! process on a free loopback port.

#![allow(dead_code)]

pub mod capacity;
pub mod connect;
pub mod cost;
pub mod daytona;
pub mod host;
pub mod orch;
pub mod rel;
pub mod shell;
pub mod verify;
pub mod warm;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

use outposts::api::{HttpClient, HttpOptions};
use outposts::emulator::client::EmulatorClient;
use outposts::emulator::{Info, RequestRecord};

pub const BIN: &str = env!("CARGO_BIN_EXE_outposts");

/// Run a future to completion on a fresh runtime (tests are mostly synchronous).
pub fn block_on<F: std::future::Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
        .block_on(f)
}

/// A sealed environment: temporary HOME and XDG dirs, no colour, no keyring, CI mode, and a
/// working directory of its own. Nothing from the developer's environment leaks in.
pub struct TestEnv {
    pub home: tempfile::TempDir,
    pub cwd: PathBuf,
    pub vars: BTreeMap<String, String>,
}

impl TestEnv {
    pub fn new() -> TestEnv {
        let home = tempfile::Builder::new()
            .prefix("outposts-test-")
            .tempdir()
            .expect("tempdir");
        let cwd = home.path().join("work");
        std::fs::create_dir_all(&cwd).expect("cwd");
        let h = home.path().to_string_lossy().into_owned();
        let mut vars = BTreeMap::new();
        vars.insert("HOME".into(), h.clone());
        vars.insert("XDG_CONFIG_HOME".into(), format!("{h}/.config"));
        vars.insert("XDG_STATE_HOME".into(), format!("{h}/.local/state"));
        vars.insert("XDG_CACHE_HOME".into(), format!("{h}/.cache"));
        vars.insert(
            "PATH".into(),
            std::env::var("PATH").unwrap_or_else(|_| "/usr/bin:/bin".into()),
        );
        vars.insert("NO_COLOR".into(), "1".into());
        vars.insert("CI".into(), "1".into());
        vars.insert("OUTPOSTS_NO_KEYRING".into(), "1".into());
        vars.insert("STATE_DIR".into(), format!("{h}/state"));
        // Fast retries keep fault tests short; real defaults are tested in unit tests.
        vars.insert("OUTPOSTS_HTTP_ATTEMPTS".into(), "4".into());
        // Without bubblewrap, sandboxes that need isolation only for safety run unisolated.
        if crate::support::host::unisolated() {
            vars.insert("OUTPOSTS_LOCAL_UNISOLATED".into(), "1".into());
        }
        TestEnv { home, cwd, vars }
    }

    pub fn set(&mut self, k: &str, v: impl Into<String>) -> &mut Self {
        self.vars.insert(k.to_string(), v.into());
        self
    }

    pub fn unset(&mut self, k: &str) -> &mut Self {
        self.vars.remove(k);
        self
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.home.path().join(rel)
    }

    /// The binary with this environment and working directory.
    pub fn cmd(&self, args: &[&str]) -> Command {
        let mut c = Command::new(BIN);
        c.args(args)
            .env_clear()
            .envs(&self.vars)
            .current_dir(&self.cwd)
            .stdin(Stdio::null());
        c
    }

    /// Run to completion.
    pub fn run(&self, args: &[&str]) -> Run {
        let out = self.cmd(args).output().expect("spawn outposts");
        Run::from(out)
    }
}

/// A finished run.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl From<Output> for Run {
    fn from(o: Output) -> Self {
        Run {
            code: o.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
        }
    }
}

impl Run {
    #[track_caller]
    pub fn ok(&self) -> &Self {
        assert_eq!(
            self.code, 0,
            "expected success\nstdout:\n{}\nstderr:\n{}",
            self.stdout, self.stderr
        );
        self
    }

    #[track_caller]
    pub fn code(&self, code: i32) -> &Self {
        assert_eq!(
            self.code, code,
            "unexpected exit code\nstdout:\n{}\nstderr:\n{}",
            self.stdout, self.stderr
        );
        self
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(self.stdout.trim())
            .unwrap_or_else(|e| panic!("stdout is not one JSON document ({e}):\n{}", self.stdout))
    }

    /// Both streams, for "never appears" assertions.
    pub fn all(&self) -> String {
        format!("{}\n{}", self.stdout, self.stderr)
    }
}

/// `outposts emulator start` running as a child process.
pub struct Emu {
    child: Child,
    pub base_url: String,
    pub port: u16,
    pub info: Info,
    stderr_path: PathBuf,
}

/// A sealed environment, an emulator started in it with `extra` arguments, and the environment
/// pointed at that emulator: the set-up of most single-command tests.
pub fn emulated_env(extra: &[&str]) -> (TestEnv, Emu) {
    let mut env = TestEnv::new();
    let emu = Emu::start(&env, extra);
    emu.configure(&mut env);
    (env, emu)
}

impl Emu {
    /// Start on a free port with extra `emulator start` arguments.
    pub fn start(env: &TestEnv, extra: &[&str]) -> Emu {
        let stderr_path = env.path(&format!("emulator-{}.log", uuid::Uuid::new_v4().simple()));
        let stderr = std::fs::File::create(&stderr_path).expect("emulator log");
        let mut args = vec!["emulator", "start", "--port", "0", "--json"];
        args.extend_from_slice(extra);
        let mut child = env
            .cmd(&args)
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .expect("spawn emulator");
        let stdout = child.stdout.take().expect("stdout");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("ready line");
        let ready: serde_json::Value = serde_json::from_str(line.trim()).unwrap_or_else(|e| {
            panic!(
                "emulator did not print a ready line ({e}): {line:?}\n{}",
                std::fs::read_to_string(&stderr_path).unwrap_or_default()
            )
        });
        let base_url = ready["base_url"].as_str().expect("base_url").to_string();
        let port = ready["port"].as_u64().expect("port") as u16;
        let client = EmulatorClient::new(
            HttpClient::new(HttpOptions::default()).expect("http"),
            &base_url,
        );
        let info = block_on(client.info()).expect("emulator info");
        Emu {
            child,
            base_url,
            port,
            info,
            stderr_path,
        }
    }

    /// Point `env` at this emulator (what `eval "$(outposts emulator env)"` does).
    pub fn configure(&self, env: &mut TestEnv) {
        for (k, v) in &self.info.env {
            env.set(k, v.clone());
        }
        env.set("OUTPOSTS_EMULATOR_PORT", self.port.to_string());
    }

    pub fn env_value(&self, key: &str) -> String {
        self.info
            .env
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| panic!("emulator env has no {key}"))
    }

    pub fn client(&self) -> EmulatorClient {
        EmulatorClient::new(
            HttpClient::new(HttpOptions::default()).expect("http"),
            &self.base_url,
        )
    }

    pub fn requests(&self) -> Vec<RequestRecord> {
        block_on(self.client().requests(0)).expect("request log")
    }

    pub fn stderr(&self) -> String {
        std::fs::read_to_string(&self.stderr_path).unwrap_or_default()
    }

    pub fn stderr_path(&self) -> &Path {
        &self.stderr_path
    }

    pub fn data_dir(&self) -> &Path {
        &self.info.data_dir
    }
}

impl Emu {
    /// Send `sig` to the emulator process.
    pub fn signal(&mut self, sig: i32) {
        // A reaped child's pid may belong to someone else by now.
        if let Ok(Some(_)) = self.child.try_wait() {
            return;
        }
        unsafe {
            libc::kill(self.child.id() as i32, sig);
        }
    }

    /// Wait up to `limit` for the emulator to exit; whether it did.
    pub fn wait_exit(&mut self, limit: Duration) -> bool {
        let start = std::time::Instant::now();
        while start.elapsed() < limit {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        false
    }

    /// Processes of this emulator's sandboxes that are running now.
    pub fn sandbox_processes(&self) -> Vec<i32> {
        outposts::provider::local::processes_under_root(&self.info.data_dir.join("sandboxes"))
    }
}

impl Drop for Emu {
    fn drop(&mut self) {
        // SIGTERM first so it ends its sandboxes itself; then make sure.
        self.signal(libc::SIGTERM);
        if !self.wait_exit(Duration::from_millis(2500)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
        // Whatever ended the emulator (a SIGKILL, a crash), none of its sandboxes' processes
        // outlives the test.
        outposts::provider::local::kill_under_root(
            &self.info.data_dir.join("sandboxes"),
            Duration::from_secs(5),
        );
    }
}

/// The local sandboxes a test's orchestrator made under its temporary HOME (`orch_env`'s
/// `OUTPOSTS_LOCAL_ROOT`) end with the test, whatever happened to the orchestrator.
impl Drop for TestEnv {
    fn drop(&mut self) {
        // The emulator's sandboxes, and the CLI's own local provider's (`worker launch
        // --provider local` keeps them under the data dir): a failed test must not leave either.
        for root in ["sandboxes", ".local/share/outposts/sandboxes"] {
            outposts::provider::local::kill_under_root(
                &self.home.path().join(root),
                Duration::from_secs(5),
            );
        }
    }
}

/// Everything a finished (or ending) child wrote on its piped stdout and stderr.
pub fn drain(child: &mut Child) -> (String, String) {
    use std::io::Read;
    let mut out = String::new();
    if let Some(mut o) = child.stdout.take() {
        o.read_to_string(&mut out).expect("read stdout");
    }
    let mut err = String::new();
    if let Some(mut e) = child.stderr.take() {
        e.read_to_string(&mut err).expect("read stderr");
    }
    (out, err)
}
