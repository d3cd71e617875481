//! One orchestrator replica of a reliability cluster: a real process with its own state dir
//! and Daytona key.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use sha2::Digest;

use crate::support::orch::Orch;
use crate::support::{Emu, TestEnv, block_on};

use super::time_until;

/// One orchestrator replica: its environment, state dir, Daytona key, process and logs.
pub struct Replica {
    pub label: String,
    pub env: TestEnv,
    pub args: Vec<String>,
    pub orch: Option<Orch>,
    pub logs: Vec<PathBuf>,
    pub failpoints: PathBuf,
    pub(super) outpost: String,
}

impl Replica {
    /// Start (or restart) the process with the replica's arguments.
    pub fn start(&mut self) {
        let args: Vec<&str> = self.args.iter().map(String::as_str).collect();
        let orch = Orch::start(&self.env, &args);
        self.logs.push(orch.log.clone());
        self.orch = Some(orch);
    }

    /// Arm failpoints in the running (and every later) process: `name=action[@n],…`.
    pub fn arm(&self, spec: &str) {
        std::fs::write(&self.failpoints, spec).expect("failpoint file");
    }

    pub fn disarm(&self) {
        let _ = std::fs::remove_file(&self.failpoints);
    }

    pub fn kill(&mut self) {
        if let Some(mut o) = self.orch.take() {
            o.kill();
        }
    }

    /// Wait until the process installed its signal handlers (a signal before that simply ends
    /// it, which is not what a shutdown test wants to measure).
    pub fn wait_ready(&self) {
        let ok = time_until(Duration::from_secs(30), || {
            self.log().contains("Ctrl-C to stop")
        });
        assert!(
            ok.is_some(),
            "replica {} never started:\n{}",
            self.label,
            self.log()
        );
        std::thread::sleep(Duration::from_millis(300));
    }

    /// SIGTERM and wait up to `limit`: (exit code, time taken).
    pub fn terminate(&mut self, limit: Duration) -> (Option<i32>, Duration) {
        if self.orch.is_some() {
            self.wait_ready();
        }
        match self.orch.take() {
            Some(mut o) => o.terminate(limit),
            None => (Some(0), Duration::ZERO),
        }
    }

    /// Wait for the process to end by itself (e.g. a failpoint kill); its wait status.
    pub fn wait_exit(&mut self, limit: Duration) -> Option<std::process::ExitStatus> {
        let o = self.orch.as_mut()?;
        let start = Instant::now();
        while start.elapsed() < limit {
            if let Ok(Some(st)) = o.child.try_wait() {
                self.orch = None;
                return Some(st);
            }
            std::thread::sleep(Duration::from_millis(25));
        }
        None
    }

    pub fn running(&mut self) -> bool {
        self.orch
            .as_mut()
            .is_some_and(|o| matches!(o.child.try_wait(), Ok(None)))
    }

    pub fn log(&self) -> String {
        self.logs
            .last()
            .map(|p| std::fs::read_to_string(p).unwrap_or_default())
            .unwrap_or_default()
    }

    pub fn all_logs(&self) -> String {
        self.logs
            .iter()
            .map(|p| std::fs::read_to_string(p).unwrap_or_default())
            .collect::<Vec<_>>()
            .join("\n---- restart ----\n")
    }

    /// Use a new Daytona key under a new label from the next start on (a new identity's
    /// mutations then show up under the new label in the journal).
    pub fn rekey(&mut self, emu: &Emu, label: &str) {
        let key = block_on(emu.client().daytona_key(label)).expect("daytona key");
        self.env.set("DAYTONA_API_KEY", key);
        self.label = label.to_string();
    }

    pub fn state_dir(&self) -> PathBuf {
        self.env.path("state")
    }

    /// The acceptor id this replica's state dir holds.
    pub fn acceptor(&self) -> Option<String> {
        let dir = self
            .state_dir()
            .join("outposts")
            .join(hex::encode(sha2::Sha256::digest(self.outpost.as_bytes())));
        std::fs::read_to_string(dir.join("acceptor_id"))
            .ok()
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
    }
}
