//! Local sandboxes behind the emulated Daytona and CoreWeave APIs.
//!
//! Both halves create real local sandboxes (bubblewrap, see [`crate::provider::local`]) in
//! `<data_dir>/sandboxes`, so a session's shell, files and processes are real. The CoreWeave half
//! can expose extra host files (e.g. a fake `devin` CLI) per sandbox with
//! [`LocalProvider::create_with`] and `SandboxOptions`.

use std::path::{Path, PathBuf};

use crate::provider::local::{LocalOptions, LocalProvider};

pub struct Sandboxes {
    pub root: PathBuf,
    provider: LocalProvider,
    /// Simulated mode (`--sandboxes simulated`): records only, nothing local is created.
    sim: Option<super::simulated::Sim>,
}

impl Sandboxes {
    /// Sandboxes under `root`. Unisolated mode follows `OUTPOSTS_LOCAL_UNISOLATED` of the
    /// emulator's environment; without bubblewrap and without it, creating a sandbox fails with
    /// an error naming the package.
    pub fn new(root: &Path) -> anyhow::Result<Self> {
        let opts = LocalOptions {
            allow_unisolated: std::env::var("OUTPOSTS_LOCAL_UNISOLATED")
                .is_ok_and(|v| matches!(v.trim(), "1" | "true" | "yes" | "on")),
            // Sandbox processes of an emulator are test fixtures: stop them promptly.
            stop_grace: std::time::Duration::from_secs(2),
            ..LocalOptions::default()
        };
        Self::with_options(root, opts)
    }

    pub fn with_options(root: &Path, opts: LocalOptions) -> anyhow::Result<Self> {
        let provider = LocalProvider::new(root, opts)?;
        Ok(Sandboxes {
            root: provider.root().to_path_buf(),
            provider,
            sim: None,
        })
    }

    /// Simulate every sandbox instead (see [`super::simulated`]).
    pub fn simulate(mut self, opts: super::simulated::SimOptions) -> Self {
        self.sim = Some(super::simulated::Sim::new(opts));
        self
    }

    /// The simulation, in simulated mode.
    pub fn sim(&self) -> Option<&super::simulated::Sim> {
        self.sim.as_ref()
    }

    /// The provider every emulated sandbox lives in.
    pub fn provider(&self) -> &LocalProvider {
        &self.provider
    }

    /// Start a sandbox (simulated: after the delay).
    pub async fn start(&self, id: &str) -> crate::provider::Result<()> {
        use crate::provider::Provider;
        match &self.sim {
            Some(sim) => {
                tokio::time::sleep(sim.delay()).await;
                Ok(())
            }
            None => self.provider.start(id).await,
        }
    }

    /// Stop a sandbox: its processes end, its files stay.
    pub async fn stop(&self, id: &str) -> crate::provider::Result<()> {
        use crate::provider::Provider;
        match &self.sim {
            Some(sim) => {
                tokio::time::sleep(sim.delay()).await;
                sim.stopped(id);
                Ok(())
            }
            None => self.provider.stop(id).await,
        }
    }

    /// Delete a sandbox with its files.
    pub async fn delete(&self, id: &str) -> crate::provider::Result<()> {
        use crate::provider::Provider;
        match &self.sim {
            Some(sim) => {
                sim.deleted(id);
                Ok(())
            }
            None => self.provider.delete(id).await,
        }
    }

    /// End every sandbox process (the emulator is exiting): all at once, so that even a
    /// thousand sandboxes are gone in a moment, well before a supervisor's SIGKILL. Files stay.
    pub async fn shutdown(&self) {
        let n = self.provider.kill_all().await;
        if n > 0 {
            tracing::info!("ended {n} sandbox processes");
        }
        // Record them stopped (nothing left to end, so this is bookkeeping only): a sandbox
        // whose processes are gone reads as stopped, not as failed.
        self.provider.stop_all().await;
    }
}
