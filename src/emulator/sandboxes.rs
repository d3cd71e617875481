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
        })
    }

    /// The provider every emulated sandbox lives in.
    pub fn provider(&self) -> &LocalProvider {
        &self.provider
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
