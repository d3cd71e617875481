//! The local provider: sandboxes on this machine, one directory each, isolated with bubblewrap.
//!
//! Each sandbox has its own root filesystem (`<root>/<id>/fs`) and its own namespaces, held by a
//! detached bubblewrap "init" while it is started (see [`isolation`]); every process of the
//! sandbox enters them, so a sandbox's processes are exactly the members of its pid namespace
//! ([`procs`]). An optional main command runs under a restarting supervisor ([`supervisor`]).
//! A `sandbox.json` record ([`store`]) lets any later process — a restarted orchestrator, the
//! CLI — find the sandbox again and tell whether its processes still run.
//!
//! Lifecycle: `create` → started (init booted, main command launched); `stop` ends every process
//! of the sandbox (SIGTERM, SIGKILL after the grace period) and keeps its files; `start` boots it
//! again and relaunches the main command; `delete` ends the processes and removes the
//! directory. `exec` on a stopped sandbox is refused, as on Daytona. A started sandbox whose init
//! is gone (the machine rebooted) is booted again by the next `exec` or `start`.
//!
//! Without bubblewrap (opted in, see [`isolation`]) processes run on the host with their
//! sandbox paths mapped onto the sandbox's directory ([`unisolated`]).
//!
//! Secrets: env values that look secret (by name or shape) are never written to disk; they are
//! kept in this process's memory and in the supervisor's environment. A new `LocalProvider`
//! (after a restart) therefore cannot restart a *stopped* main command that needs them until they
//! are supplied again with [`LocalProvider::remember_secret_env`].
//!
//! Not applied locally: `resources`, `max_lifetime`, `source` (sandboxes use the host's userland)
//! and `user` beyond `HOME` (`/home/<user>`) and the uid inside the sandbox (root: 0, any other
//! name: 1000, with a passwd entry; unisolated sandboxes run as the invoking user);
//! `secret_refs` are refused (no secret store).

mod checks;
mod exec;
mod isolation;
mod logs;
mod paths;
mod procs;
mod runtime;
mod store;
mod supervisor;
mod trait_impl;
mod tree;
mod unisolated;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

pub use isolation::{BWRAP_PACKAGE, Isolation, Unready, usable};
pub use procs::{MARKER, kill_under_root, under_root as processes_under_root};
pub use unisolated::{SANDBOX_ROOT_VAR, maps_unisolated};

use crate::provider::{Provider, ProviderError, Result, SandboxInfo, SandboxSpec, Source};
use crate::secrets::Secret;
use crate::settings::LocalSettings;

use store::{Desired, Record, Store};

/// Provider-wide settings.
#[derive(Debug, Clone)]
pub struct LocalOptions {
    /// Read-only binds `(host path, sandbox path)` in every sandbox.
    pub ro_binds: Vec<(PathBuf, String)>,
    /// Sandbox directories put first on every sandbox's `PATH`.
    pub extra_path: Vec<String>,
    /// Run without isolation when bubblewrap is missing (`OUTPOSTS_LOCAL_UNISOLATED=1`).
    pub allow_unisolated: bool,
    /// Run without isolation even where bubblewrap is installed (the demo, on a host where
    /// bubblewrap cannot create sandboxes).
    pub force_unisolated: bool,
    /// bubblewrap binary; `None` = `bwrap` on `$PATH`.
    pub bwrap: Option<PathBuf>,
    /// Between SIGTERM and SIGKILL when stopping.
    pub stop_grace: Duration,
    /// First delay before restarting a failed main command; doubles up to `restart_backoff_max`.
    pub restart_backoff: Duration,
    pub restart_backoff_max: Duration,
    /// A main command that ran this long before failing restarts after `restart_backoff` again.
    pub restart_backoff_reset: Duration,
}

impl Default for LocalOptions {
    fn default() -> Self {
        LocalOptions {
            ro_binds: Vec::new(),
            extra_path: Vec::new(),
            allow_unisolated: false,
            force_unisolated: false,
            bwrap: None,
            stop_grace: Duration::from_secs(5),
            restart_backoff: Duration::from_secs(1),
            restart_backoff_max: Duration::from_secs(60),
            restart_backoff_reset: Duration::from_secs(600),
        }
    }
}

/// Per-sandbox extras for [`LocalProvider::create_with`], kept in the sandbox's record.
#[derive(Debug, Clone, Default)]
pub struct SandboxOptions {
    /// Read-only binds `(host path, sandbox path)`, e.g. a fake `devin` CLI.
    pub ro_binds: Vec<(PathBuf, String)>,
    /// Sandbox directories put first on `PATH`.
    pub extra_path: Vec<String>,
}

/// Where [`SandboxOptions::host_bin`] binds a directory of host programs inside a sandbox.
pub const HOST_BIN_DIR: &str = "/opt/devin/bin";

impl SandboxOptions {
    /// Binds that make `<dir>/devin` runnable as `devin` inside a sandbox: `dir` at
    /// [`HOST_BIN_DIR`] (first on `PATH`) and, when `devin` is a symlink to an absolute path
    /// outside the host's system directories, its target at that same path, so the link
    /// resolves inside.
    pub fn host_bin(dir: &Path) -> anyhow::Result<SandboxOptions> {
        let devin = dir.join("devin");
        if !devin.exists() {
            anyhow::bail!(
                "{} has no `devin` executable (OUTPOSTS_DEVIN_CLI_DIR must name the directory that holds it)",
                dir.display()
            );
        }
        let mut ro_binds = vec![(dir.to_path_buf(), HOST_BIN_DIR.to_string())];
        if let Ok(target) = std::fs::read_link(&devin) {
            let target = if target.is_absolute() {
                target
            } else {
                dir.join(target)
            };
            let real = std::fs::canonicalize(&target).unwrap_or(target);
            let inside = real.to_string_lossy().into_owned();
            let top = inside
                .trim_start_matches('/')
                .split('/')
                .next()
                .unwrap_or("");
            if !paths::HOST_TOPS.contains(&top) && !inside.starts_with(HOST_BIN_DIR) {
                ro_binds.push((real, inside));
            }
        }
        Ok(SandboxOptions {
            ro_binds,
            extra_path: vec![HOST_BIN_DIR.to_string()],
        })
    }
}

/// Sandboxes on this machine. Share it behind an `Arc`; several instances (even in other
/// processes) may work on the same root at once.
pub struct LocalProvider {
    store: Store,
    opts: LocalOptions,
    isolation: Isolation,
    probe: tokio::sync::OnceCell<std::result::Result<(), Unready>>,
    /// Secret env values by sandbox id: in memory only.
    secrets: Mutex<HashMap<String, BTreeMap<String, Secret>>>,
}

impl LocalProvider {
    /// Sandboxes under `root` (created 0700 when missing).
    pub fn new(root: impl AsRef<Path>, opts: LocalOptions) -> Result<Self> {
        let store = Store::open(root.as_ref())?;
        let isolation = if opts.force_unisolated {
            Isolation::Unisolated
        } else {
            Isolation::detect(opts.bwrap.as_deref(), opts.allow_unisolated)
        };
        if isolation == Isolation::Unisolated && !opts.force_unisolated {
            tracing::warn!(
                "bubblewrap is not installed and OUTPOSTS_LOCAL_UNISOLATED is set: local sandbox \
                 commands run directly on this host, WITHOUT isolation; absolute paths reach the \
                 host's files. Install `{BWRAP_PACKAGE}` to isolate them."
            );
        }
        let provider = LocalProvider {
            store,
            opts,
            isolation,
            probe: tokio::sync::OnceCell::new(),
            secrets: Mutex::new(HashMap::new()),
        };
        provider.write_helpers()?;
        Ok(provider)
    }

    /// The provider of resolved [`LocalSettings`].
    pub fn from_settings(s: LocalSettings) -> anyhow::Result<Self> {
        Ok(Self::new(s.root, s.options)?)
    }

    pub fn root(&self) -> &Path {
        &self.store.root
    }

    pub fn isolation(&self) -> &Isolation {
        &self.isolation
    }

    /// Host directory that holds the sandbox's private tree (what the sandbox sees as `/`).
    /// For diagnostics; read and write sandbox files through [`Provider::read_file`] and
    /// [`Provider::write_file`], which refuse paths that leave the tree.
    pub fn tree(&self, id_or_name: &str) -> Result<Option<PathBuf>> {
        Ok(self.find(id_or_name)?.map(|r| self.store.fs_dir(&r.id)))
    }

    /// Host pids of the sandbox's live processes (everything in its pid namespace, and the
    /// host-side helpers). Empty for a stopped sandbox.
    pub fn processes(&self, id_or_name: &str) -> Result<Vec<i32>> {
        let rec = self.require(id_or_name)?;
        Ok(self.members(&rec))
    }

    /// Hand secret env values back to a sandbox after this process restarted (they are never on
    /// disk). Used by the next `start` and every `exec`.
    pub fn remember_secret_env(
        &self,
        id_or_name: &str,
        env: &BTreeMap<String, Secret>,
    ) -> Result<()> {
        let rec = self.require(id_or_name)?;
        let mut all = self.secrets.lock().unwrap_or_else(|e| e.into_inner());
        all.entry(rec.id).or_default().extend(env.clone());
        Ok(())
    }

    /// `create` with extra read-only binds and `PATH` entries for this sandbox.
    pub async fn create_with(
        &self,
        spec: &SandboxSpec,
        extra: &SandboxOptions,
    ) -> Result<SandboxInfo> {
        checks::validate_spec(spec)?;
        // Local sandboxes share the host's network: a restricted one would be served open.
        if let Err(why) = self.check_egress(&spec.egress) {
            return Err(ProviderError::Invalid(why));
        }
        for (host, inside) in &extra.ro_binds {
            checks::validate_bind(host, inside)?;
        }
        for p in &extra.extra_path {
            checks::validate_abs(p, "PATH entry")?;
        }
        self.ready().await?;
        let (public, secret) = checks::split_env(&spec.env);
        let home = checks::home_for(spec.user.as_deref())?;
        let rec = {
            let _lock = self.store.lock_store().await?;
            if self.find_by_name(&spec.name)?.is_some() {
                return Err(ProviderError::AlreadyExists(spec.name.clone()));
            }
            let id = store::new_id();
            let now = store::now();
            let rec = Record {
                version: 1,
                id: id.clone(),
                name: spec.name.clone(),
                labels: spec.labels.clone(),
                env: public,
                secret_env_keys: secret.keys().cloned().collect(),
                state: Desired::Started,
                created_at: now,
                updated_at: now,
                command: spec.command.clone(),
                source: match &spec.source {
                    Source::Snapshot(s) => format!("snapshot:{s}"),
                    Source::Image(s) => format!("image:{s}"),
                    Source::Default => "default".into(),
                },
                home: home.clone(),
                user: spec.user.clone(),
                ro_binds: extra.ro_binds.clone(),
                extra_path: extra.extra_path.clone(),
                init_pid: None,
                supervisor_pid: None,
                isolation: self.isolation.as_str().into(),
            };
            let tmp = self.store.root.join(format!(".creating-{id}"));
            let built = (|| {
                store::create_private_dir_all(&tmp)?;
                std::fs::create_dir(tmp.join(store::FS))?;
                isolation::prepare_tree(&tmp.join(store::FS), &home)
            })();
            if let Err(e) = built {
                let _ = store::remove_tree(&tmp);
                return Err(store::io_err("cannot create the sandbox directory", e));
            }
            let placed = self.store.save_in(&tmp, &rec).and_then(|_| {
                std::fs::rename(&tmp, self.store.dir(&id))
                    .map_err(|e| store::io_err("cannot create the sandbox directory", e))
            });
            if let Err(e) = placed {
                let _ = store::remove_tree(&tmp);
                return Err(e);
            }
            rec
        };
        self.secrets
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(rec.id.clone(), secret);
        self.store.event(
            &rec.id,
            &format!("created {} ({})", rec.name, rec.isolation),
        );
        if self.isolation == Isolation::Unisolated {
            self.store.event(
                &rec.id,
                "WARNING: no isolation (bubblewrap missing, OUTPOSTS_LOCAL_UNISOLATED set)",
            );
        }
        let booted = async {
            {
                let _lock = self.store.lock_sandbox(&rec.id).await?;
                let mut r = self.require(&rec.id)?;
                self.boot_locked(&mut r).await?;
            }
            if rec.command.is_some() {
                self.launch_main(&rec.id).await?;
            }
            Ok::<(), ProviderError>(())
        };
        if let Err(e) = booted.await {
            let _ = self.delete(&rec.id).await;
            return Err(e);
        }
        self.info(&self.require(&rec.id)?)
    }

    /// End every sandbox process under the root at once (the owner is exiting, perhaps on a
    /// signal, with a supervisor's SIGKILL a few seconds away): SIGKILL, one pass over `/proc`
    /// per round whatever the number of sandboxes. Records stay as they are (a later start
    /// boots them again). Returns how many processes were killed.
    pub async fn kill_all(&self) -> usize {
        let root = self.store.root.clone();
        tokio::task::spawn_blocking(move || procs::kill_under_root(&root, Duration::from_secs(5)))
            .await
            .unwrap_or(0)
    }

    /// Stop every sandbox under the root, gracefully and one by one. Errors are logged.
    pub async fn stop_all(&self) {
        let Ok(all) = self.store.all() else { return };
        for rec in all {
            if let Err(e) = self.stop(&rec.id).await {
                tracing::warn!("cannot stop local sandbox {}: {e}", rec.name);
            }
        }
    }
}
