//! The local provider: sandboxes on this machine, one directory each, isolated with bubblewrap.
//!
//! Each sandbox has its own root filesystem (`<root>/<id>/fs`, see [`isolation`] for what is
//! private and what is the host's), its own processes (tracked by an environment marker, see
//! [`procs`]), an optional main command run under a restarting supervisor ([`supervisor`]), and a
//! `sandbox.json` record ([`store`]) that lets any later process — a restarted orchestrator, the
//! CLI — find it again and tell whether its processes still run.
//!
//! Lifecycle: `create` → started (main command launched); `stop` ends every process of the
//! sandbox (SIGTERM, SIGKILL after the grace period) and keeps its files; `start` launches the
//! main command again; `delete` ends the processes and removes the directory. `exec` on a stopped
//! sandbox is refused, as on Daytona.
//!
//! Secrets: env values that look secret (by name or shape) are never written to disk; they are
//! kept in this process's memory and in the supervisor's environment. A new `LocalProvider`
//! (after a restart) therefore cannot restart a *stopped* main command that needs them until they
//! are supplied again with [`LocalProvider::remember_secret_env`].
//!
//! Not applied locally: `resources`, `max_lifetime`, `source` (sandboxes use the host's userland)
//! and `user` beyond choosing `HOME` (`/home/<user>`); `secret_refs` are refused (no secret store).

mod exec;
mod isolation;
mod logs;
mod paths;
mod procs;
mod store;
mod supervisor;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use async_trait::async_trait;
use futures::stream::BoxStream;

pub use isolation::{BWRAP_PACKAGE, Isolation};
pub use procs::MARKER;

use crate::config::{Config, expand_home};
use crate::env;
use crate::provider::{
    Cmd, ExecOutput, ExecRequest, GitClone, LogOptions, Provider, ProviderError, ProviderKind,
    Result, SandboxInfo, SandboxSpec, SandboxState, Source,
};
use crate::secrets::{Secret, redact};

use paths::SandboxFs;
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

/// Sandboxes on this machine. Cheap to share behind an `Arc`; several instances (even in other
/// processes) may work on the same root at once.
pub struct LocalProvider {
    store: Store,
    opts: LocalOptions,
    isolation: Isolation,
    probe: tokio::sync::OnceCell<std::result::Result<(), String>>,
    /// Secret env values by sandbox id: in memory only.
    secrets: Mutex<HashMap<String, BTreeMap<String, Secret>>>,
}

const DEFAULT_PATH: &str = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
const ASKPASS_PATH: &str = "/run/outposts/git-askpass";
const ASKPASS: &str = "#!/bin/sh\n# Answers git's credential prompts from the environment.\ncase \"$1\" in\n  Username*|username*) printf '%s\\n' \"$OUTPOSTS_GIT_USERNAME\" ;;\n  *) printf '%s\\n' \"$OUTPOSTS_GIT_PASSWORD\" ;;\nesac\n";

impl LocalProvider {
    /// Sandboxes under `root` (created 0700 when missing).
    pub fn new(root: impl AsRef<Path>, opts: LocalOptions) -> Result<Self> {
        let store = Store::open(root.as_ref())?;
        let isolation = Isolation::detect(opts.bwrap.as_deref(), opts.allow_unisolated);
        if isolation == Isolation::Unisolated {
            tracing::warn!(
                "bubblewrap is not installed and OUTPOSTS_LOCAL_UNISOLATED is set: local sandbox \
                 commands run directly on this host, WITHOUT isolation; absolute paths reach the \
                 host's files. Install `{BWRAP_PACKAGE}` to isolate them."
            );
        }
        Ok(LocalProvider {
            store,
            opts,
            isolation,
            probe: tokio::sync::OnceCell::new(),
            secrets: Mutex::new(HashMap::new()),
        })
    }

    /// Root from `OUTPOSTS_LOCAL_ROOT` (default `$XDG_DATA_HOME/outposts/sandboxes`), unisolated
    /// opt-in from `OUTPOSTS_LOCAL_UNISOLATED`.
    pub fn from_config(config: &Config) -> anyhow::Result<Self> {
        Ok(Self::new(
            default_root(config)?,
            options_from_config(config)?,
        )?)
    }

    pub fn root(&self) -> &Path {
        &self.store.root
    }

    pub fn isolation(&self) -> &Isolation {
        &self.isolation
    }

    pub fn options(&self) -> &LocalOptions {
        &self.opts
    }

    /// Host directory that holds the sandbox's private tree (what the sandbox sees as `/`).
    /// For diagnostics; read and write sandbox files through [`Provider::read_file`] and
    /// [`Provider::write_file`], which refuse paths that leave the tree.
    pub fn tree(&self, id_or_name: &str) -> Result<Option<PathBuf>> {
        Ok(self.find(id_or_name)?.map(|r| self.store.fs_dir(&r.id)))
    }

    /// Host pids of the sandbox's live processes (execs, their detached children, the main
    /// command and its supervisor). Empty for a stopped sandbox.
    pub fn processes(&self, id_or_name: &str) -> Result<Vec<i32>> {
        let rec = self.require(id_or_name)?;
        Ok(procs::members(&rec.id))
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

    /// `create` with extra binds and `PATH` entries for this sandbox.
    pub async fn create_with(
        &self,
        spec: &SandboxSpec,
        extra: &SandboxOptions,
    ) -> Result<SandboxInfo> {
        validate_spec(spec)?;
        for (host, inside) in &extra.ro_binds {
            validate_bind(host, inside)?;
        }
        for p in &extra.extra_path {
            validate_abs(p, "PATH entry")?;
        }
        self.ready().await?;
        let (public, secret) = split_env(&spec.env);
        let home = home_for(spec.user.as_deref())?;
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
            if let Err(e) = self.store.save_in(&tmp, &rec).and_then(|_| {
                std::fs::rename(&tmp, self.store.dir(&id))
                    .map_err(|e| store::io_err("cannot create the sandbox directory", e))
            }) {
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
        if rec.command.is_some()
            && let Err(e) = self.launch_main(&rec.id).await
        {
            let _ = self.delete(&rec.id).await;
            return Err(e);
        }
        self.info(&self.require(&rec.id)?)
    }

    /// Stop every sandbox under the root (the emulator is exiting). Errors are logged.
    pub async fn stop_all(&self) {
        let Ok(all) = self.store.all() else { return };
        for rec in all {
            if let Err(e) = self.stop(&rec.id).await {
                tracing::warn!("cannot stop local sandbox {}: {e}", rec.name);
            }
        }
    }

    // ---- internals -------------------------------------------------------------------------

    async fn ready(&self) -> Result<()> {
        match &self.isolation {
            Isolation::Unavailable(m) => Err(ProviderError::Other(m.clone())),
            Isolation::Unisolated => Ok(()),
            Isolation::Bubblewrap(p) => self
                .probe
                .get_or_init(|| isolation::probe(p))
                .await
                .clone()
                .map_err(ProviderError::Other),
        }
    }

    fn find_by_name(&self, name: &str) -> Result<Option<Record>> {
        Ok(self.store.all()?.into_iter().find(|r| r.name == name))
    }

    fn find(&self, id_or_name: &str) -> Result<Option<Record>> {
        if let Some(r) = self.store.load(id_or_name)? {
            return Ok(Some(r));
        }
        self.find_by_name(id_or_name)
    }

    fn require(&self, id_or_name: &str) -> Result<Record> {
        self.find(id_or_name)?
            .ok_or_else(|| ProviderError::NotFound(id_or_name.to_string()))
    }

    fn sfs<'a>(&self, rec: &'a Record, root: &'a Path) -> SandboxFs<'a> {
        SandboxFs {
            root,
            home: &rec.home,
            binds: self.bind_targets(rec),
        }
    }

    fn bind_targets(&self, rec: &Record) -> Vec<String> {
        self.binds(rec).into_iter().map(|(_, s)| s).collect()
    }

    fn binds(&self, rec: &Record) -> Vec<(PathBuf, String)> {
        let mut b = self.opts.ro_binds.clone();
        b.extend(rec.ro_binds.iter().cloned());
        b
    }

    fn hostname(rec: &Record) -> String {
        let h: String = rec
            .name
            .to_ascii_lowercase()
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .take(63)
            .collect();
        let h = h.trim_matches('-').to_string();
        if h.is_empty() { "sandbox".into() } else { h }
    }

    /// The full environment of a process in `rec`: defaults, the sandbox env (secrets from
    /// memory), then `extra`; the marker last so nothing overrides it.
    fn env_for(&self, rec: &Record, extra: &BTreeMap<String, Secret>) -> Vec<(String, String)> {
        let mut env: BTreeMap<String, String> = BTreeMap::new();
        let user = rec.user.clone().unwrap_or_else(current_user);
        env.insert("PATH".into(), DEFAULT_PATH.into());
        env.insert("HOME".into(), rec.home.clone());
        env.insert("USER".into(), user.clone());
        env.insert("LOGNAME".into(), user);
        env.insert("LANG".into(), "C.UTF-8".into());
        env.insert("HOSTNAME".into(), Self::hostname(rec));
        env.insert(
            "SHELL".into(),
            if Path::new("/bin/bash").exists() {
                "/bin/bash"
            } else {
                "/bin/sh"
            }
            .into(),
        );
        env.extend(rec.env.clone());
        if let Some(s) = self
            .secrets
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&rec.id)
        {
            env.extend(s.iter().map(|(k, v)| (k.clone(), v.expose().to_string())));
        }
        env.extend(
            extra
                .iter()
                .map(|(k, v)| (k.clone(), v.expose().to_string())),
        );
        let mut first: Vec<String> = self.opts.extra_path.clone();
        first.extend(rec.extra_path.iter().cloned());
        if !first.is_empty() {
            let rest = env.get("PATH").cloned().unwrap_or_default();
            first.push(rest);
            env.insert("PATH".into(), first.join(":"));
        }
        env.insert(MARKER.into(), rec.id.clone());
        env.into_iter().collect()
    }

    fn missing_secrets(&self, rec: &Record) -> Vec<String> {
        let all = self.secrets.lock().unwrap_or_else(|e| e.into_inner());
        let have = all.get(&rec.id);
        rec.secret_env_keys
            .iter()
            .filter(|k| !have.is_some_and(|m| m.contains_key(*k)))
            .cloned()
            .collect()
    }

    fn command_for(
        &self,
        rec: &Record,
        argv: Vec<String>,
        cwd: String,
        extra_env: &BTreeMap<String, Secret>,
        extra_binds: Vec<(PathBuf, String)>,
    ) -> Result<std::process::Command> {
        let mut binds = self.binds(rec);
        binds.extend(extra_binds);
        let launch = isolation::Launch {
            argv,
            cwd,
            env: self.env_for(rec, extra_env),
            binds,
            hostname: Self::hostname(rec),
        };
        isolation::command(
            &self.isolation,
            &self.store.fs_dir(&rec.id),
            &rec.home,
            &launch,
        )
    }

    /// Pid of the live supervisor of `rec`, if any.
    fn supervisor_alive(&self, rec: &Record) -> Option<i32> {
        let from_status =
            supervisor::read_status(&self.store.dir(&rec.id)).and_then(|s| s.supervisor_pid);
        [rec.supervisor_pid, from_status]
            .into_iter()
            .flatten()
            .find(|p| procs::is_member(*p, &rec.id))
    }

    /// Launch (or relaunch) the main command's supervisor. Caller holds no sandbox lock.
    async fn launch_main(&self, id: &str) -> Result<()> {
        let _lock = self.store.lock_sandbox(id).await?;
        let mut rec = self.require(id)?;
        let Some(argv) = rec.command.clone() else {
            return Ok(());
        };
        let missing = self.missing_secrets(&rec);
        if !missing.is_empty() {
            return Err(ProviderError::Invalid(format!(
                "sandbox {} needs the secret env {} for its main command, which is kept only in \
                 the memory of the process that created it; supply it again \
                 (LocalProvider::remember_secret_env) or delete and recreate the sandbox",
                rec.name,
                missing.join(", ")
            )));
        }
        let dir = self.store.dir(&rec.id);
        // A main process orphaned by a vanished supervisor must not run twice.
        if let Some(child) = supervisor::read_status(&dir).and_then(|s| s.child_pid)
            && procs::is_member(child, &rec.id)
        {
            procs::signal(child, libc::SIGKILL);
        }
        let cmd = self.command_for(&rec, argv, rec.home.clone(), &BTreeMap::new(), Vec::new())?;
        let backoff = supervisor::Backoff {
            first: self.opts.restart_backoff,
            cap: self.opts.restart_backoff_max.max(self.opts.restart_backoff),
            reset_after: self.opts.restart_backoff_reset,
        };
        let pid = supervisor::spawn(&dir, &cmd, backoff)?;
        rec.supervisor_pid = Some(pid);
        rec.updated_at = store::now();
        self.store.save(&rec)?;
        self.store.event(
            &rec.id,
            &format!("main command started (supervisor pid {pid})"),
        );
        Ok(())
    }

    /// Kill the supervisor (so it restarts nothing), then every process of the sandbox.
    async fn end_processes(&self, rec: &Record) -> usize {
        if let Some(pid) = self.supervisor_alive(rec) {
            procs::signal(pid, libc::SIGKILL);
        }
        procs::end_all(&rec.id, self.opts.stop_grace).await
    }

    fn info(&self, rec: &Record) -> Result<SandboxInfo> {
        let dir = self.store.dir(&rec.id);
        let mut containers = Vec::new();
        let mut error_reason = None;
        let (state, raw) = match rec.state {
            Desired::Stopped => (SandboxState::Stopped, "stopped"),
            Desired::Started if rec.command.is_none() => (SandboxState::Started, "started"),
            Desired::Started => {
                let status = supervisor::read_status(&dir);
                let alive = self.supervisor_alive(rec).is_some();
                containers.push(supervisor::container(status.as_ref(), alive));
                match status {
                    Some(s) if s.state == "completed" => (SandboxState::Started, "completed"),
                    _ if alive => (SandboxState::Started, "started"),
                    _ => {
                        error_reason = Some(
                            "the main command's supervisor is not running (was this machine \
                             restarted?); `start` the sandbox to run it again"
                                .to_string(),
                        );
                        (SandboxState::Error, "error")
                    }
                }
            }
        };
        if rec.state == Desired::Stopped && rec.command.is_some() {
            containers.push(supervisor::container(
                supervisor::read_status(&dir).as_ref(),
                false,
            ));
        }
        Ok(SandboxInfo {
            id: rec.id.clone(),
            name: rec.name.clone(),
            state,
            raw_state: raw.into(),
            labels: rec.labels.clone(),
            created_at: Some(rec.created_at),
            error_reason,
            containers,
        })
    }

    fn askpass_host_file(&self) -> Result<PathBuf> {
        let p = self.store.root.join(".git-askpass");
        if std::fs::read(&p).ok().as_deref() != Some(ASKPASS.as_bytes()) {
            store::write_atomic(&p, ASKPASS.as_bytes(), 0o755)
                .map_err(|e| store::io_err("cannot write the git askpass helper", e))?;
        }
        Ok(p)
    }
}

#[async_trait]
impl Provider for LocalProvider {
    fn kind(&self) -> ProviderKind {
        ProviderKind::Local
    }

    async fn create(&self, spec: &SandboxSpec) -> Result<SandboxInfo> {
        self.create_with(spec, &SandboxOptions::default()).await
    }

    async fn get(&self, id_or_name: &str) -> Result<Option<SandboxInfo>> {
        match self.find(id_or_name)? {
            Some(r) => Ok(Some(self.info(&r)?)),
            None => Ok(None),
        }
    }

    async fn list(&self, labels: &BTreeMap<String, String>) -> Result<Vec<SandboxInfo>> {
        self.store
            .all()?
            .iter()
            .filter(|r| labels.iter().all(|(k, v)| r.labels.get(k) == Some(v)))
            .map(|r| self.info(r))
            .collect()
    }

    async fn start(&self, id: &str) -> Result<()> {
        self.ready().await?;
        let rec = self.require(id)?;
        let needs_main = {
            let _lock = self.store.lock_sandbox(&rec.id).await?;
            let mut rec = self.require(&rec.id)?;
            let running = rec.state == Desired::Started;
            let main_ok = match &rec.command {
                None => true,
                Some(_) => {
                    self.supervisor_alive(&rec).is_some()
                        || supervisor::read_status(&self.store.dir(&rec.id))
                            .is_some_and(|s| s.state == "completed")
                }
            };
            if running && main_ok {
                return Ok(());
            }
            if rec.command.is_some() && !running {
                let missing = self.missing_secrets(&rec);
                if !missing.is_empty() {
                    // Checked again in launch_main; failing here keeps the sandbox stopped.
                    return Err(ProviderError::Invalid(format!(
                        "sandbox {} needs the secret env {} for its main command, which is kept \
                         only in memory by the process that created it; supply it again \
                         (LocalProvider::remember_secret_env) or delete and recreate the sandbox",
                        rec.name,
                        missing.join(", ")
                    )));
                }
            }
            rec.state = Desired::Started;
            rec.updated_at = store::now();
            self.store.save(&rec)?;
            self.store.event(&rec.id, "started");
            rec.command.is_some()
        };
        if needs_main {
            self.launch_main(&rec.id).await?;
        }
        Ok(())
    }

    async fn stop(&self, id: &str) -> Result<()> {
        let rec = self.require(id)?;
        let _lock = self.store.lock_sandbox(&rec.id).await?;
        let Some(mut rec) = self.find(&rec.id)? else {
            return Err(ProviderError::NotFound(id.to_string()));
        };
        let was = rec.state;
        // Recorded first, so that a concurrent exec is refused while we end processes.
        rec.state = Desired::Stopped;
        rec.updated_at = store::now();
        self.store.save(&rec)?;
        let n = self.end_processes(&rec).await;
        if rec.command.is_some() {
            supervisor::mark_stopped(&self.store.dir(&rec.id));
        }
        rec.supervisor_pid = None;
        self.store.save(&rec)?;
        if was == Desired::Started || n > 0 {
            self.store
                .event(&rec.id, &format!("stopped ({n} processes ended)"));
        }
        Ok(())
    }

    async fn delete(&self, id: &str) -> Result<()> {
        let Some(rec) = self.find(id)? else {
            return Ok(());
        };
        let _lock = self.store.lock_sandbox(&rec.id).await?;
        if self.store.load(&rec.id)?.is_none() {
            return Ok(());
        }
        self.end_processes(&rec).await;
        let dir = self.store.dir(&rec.id);
        let gone = self.store.root.join(format!(".deleting-{}", rec.id));
        std::fs::rename(&dir, &gone)
            .map_err(|e| store::io_err(format!("cannot delete {}", dir.display()), e))?;
        store::remove_tree(&gone)
            .map_err(|e| store::io_err(format!("cannot remove {}", gone.display()), e))?;
        self.secrets
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&rec.id);
        Ok(())
    }

    async fn set_labels(&self, id: &str, labels: &BTreeMap<String, String>) -> Result<()> {
        validate_labels(labels)?;
        let rec = self.require(id)?;
        let _lock = self.store.lock_sandbox(&rec.id).await?;
        let mut rec = self.require(&rec.id)?;
        rec.labels = labels.clone();
        rec.updated_at = store::now();
        self.store.save(&rec)
    }

    async fn exec(&self, id: &str, req: &ExecRequest) -> Result<ExecOutput> {
        let rec = self.require(id)?;
        if rec.state != Desired::Started {
            return Err(ProviderError::Invalid(format!(
                "sandbox {} is stopped; start it before running commands",
                rec.name
            )));
        }
        self.ready().await?;
        let argv = match &req.cmd {
            Cmd::Shell(s) => vec!["/bin/sh".to_string(), "-c".to_string(), s.clone()],
            Cmd::Argv(v) if v.first().is_some_and(|p| !p.is_empty()) => v.clone(),
            Cmd::Argv(_) => return Err(ProviderError::Invalid("the command is empty".into())),
        };
        for k in req.env.keys() {
            validate_env_key(k)?;
        }
        let fs_root = self.store.fs_dir(&rec.id);
        let cwd = match &req.cwd {
            Some(c) => paths::join(&paths::components(c, &rec.home)?),
            None => rec.home.clone(),
        };
        let sfs = self.sfs(&rec, &fs_root);
        let top = cwd.trim_start_matches('/').split('/').next().unwrap_or("");
        let in_binds = sfs
            .binds
            .iter()
            .any(|b| cwd == *b || cwd.starts_with(&format!("{b}/")));
        if !paths::HOST_TOPS.contains(&top) && !in_binds && !sfs.is_private_dir(&cwd)? {
            return Err(ProviderError::Invalid(format!(
                "working directory {cwd} does not exist in sandbox {}",
                rec.name
            )));
        }
        let cmd = self.command_for(&rec, argv, cwd, &req.env, Vec::new())?;
        exec::run(cmd, req.timeout).await
    }

    async fn read_file(&self, id: &str, path: &str) -> Result<Option<Vec<u8>>> {
        let rec = self.require(id)?;
        let root = self.store.fs_dir(&rec.id);
        let binds = self.bind_targets(&rec);
        let path = path.to_string();
        blocking(move || {
            let sfs = SandboxFs {
                root: &root,
                home: &rec.home,
                binds,
            };
            sfs.read(&path)
        })
        .await
    }

    async fn write_file(&self, id: &str, path: &str, data: &[u8]) -> Result<()> {
        let rec = self.require(id)?;
        let root = self.store.fs_dir(&rec.id);
        let binds = self.bind_targets(&rec);
        let path = path.to_string();
        let data = data.to_vec();
        blocking(move || {
            let sfs = SandboxFs {
                root: &root,
                home: &rec.home,
                binds,
            };
            sfs.write(&path, &data)
        })
        .await
    }

    async fn git_clone(&self, id: &str, req: &GitClone) -> Result<()> {
        let rec = self.require(id)?;
        if rec.state != Desired::Started {
            return Err(ProviderError::Invalid(format!(
                "sandbox {} is stopped; start it before cloning",
                rec.name
            )));
        }
        validate_clone(req)?;
        self.ready().await?;
        let mut argv: Vec<String> = ["git", "-c", "credential.helper=", "clone"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        if let Some(b) = &req.branch {
            argv.extend(["--branch".to_string(), b.clone()]);
        }
        argv.extend(["--".to_string(), req.url.clone(), req.path.clone()]);
        let askpass = self.askpass_host_file()?;
        let askpass_inside = match self.isolation {
            Isolation::Unisolated => askpass.to_string_lossy().into_owned(),
            _ => ASKPASS_PATH.to_string(),
        };
        let mut env = BTreeMap::new();
        env.insert("GIT_TERMINAL_PROMPT".to_string(), Secret::new("0"));
        env.insert("GIT_ASKPASS".to_string(), Secret::new(askpass_inside));
        env.insert(
            "OUTPOSTS_GIT_USERNAME".to_string(),
            Secret::new(
                req.username
                    .clone()
                    .unwrap_or_else(|| "x-access-token".into()),
            ),
        );
        if let Some(p) = &req.password {
            env.insert("OUTPOSTS_GIT_PASSWORD".to_string(), p.clone());
        }
        let binds = match self.isolation {
            Isolation::Unisolated => Vec::new(),
            _ => vec![(askpass, ASKPASS_PATH.to_string())],
        };
        let cmd = self.command_for(&rec, argv, rec.home.clone(), &env, binds)?;
        let out = exec::run(cmd, None).await?;
        if out.exit_code != 0 {
            let mut msg = out.stderr.trim().to_string();
            if let Some(p) = &req.password
                && !p.expose().is_empty()
            {
                msg = msg.replace(p.expose(), "[REDACTED]");
            }
            let tail: Vec<&str> = msg.lines().rev().take(5).collect();
            let tail: Vec<&str> = tail.into_iter().rev().collect();
            return Err(ProviderError::Other(format!(
                "git clone into {} failed (exit {}): {}",
                req.path,
                out.exit_code,
                redact(&tail.join(" | "))
            )));
        }
        self.store
            .event(&rec.id, &format!("cloned a repository into {}", req.path));
        Ok(())
    }

    async fn logs(
        &self,
        id: &str,
        opts: &LogOptions,
    ) -> Result<BoxStream<'static, Result<String>>> {
        let rec = self.require(id)?;
        let dir = self.store.dir(&rec.id);
        let path = if rec.command.is_some() {
            dir.join(store::MAIN_LOG)
        } else {
            dir.join(store::EVENTS_LOG)
        };
        let store = self.store.clone();
        let id = rec.id.clone();
        let has_main = rec.command.is_some();
        let alive: logs::Alive = Box::new(move || {
            let Ok(Some(r)) = store.load(&id) else {
                return false;
            };
            if r.state != Desired::Started {
                return false;
            }
            if !has_main {
                return true;
            }
            let status = supervisor::read_status(&store.dir(&id));
            let sup = [
                r.supervisor_pid,
                status.as_ref().and_then(|s| s.supervisor_pid),
            ]
            .into_iter()
            .flatten()
            .any(|p| procs::is_member(p, &id));
            sup && status.is_none_or(|s| s.state != "completed")
        });
        logs::stream(path, opts.tail, opts.follow, alive)
    }
}

async fn blocking<T: Send + 'static>(f: impl FnOnce() -> Result<T> + Send + 'static) -> Result<T> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ProviderError::Other(format!("file task failed: {e}")))?
}

// ---- configuration and validation ------------------------------------------------------------

/// `OUTPOSTS_LOCAL_ROOT`, else `$XDG_DATA_HOME/outposts/sandboxes`, else
/// `~/.local/share/outposts/sandboxes`.
pub fn default_root(config: &Config) -> anyhow::Result<PathBuf> {
    let home = config.process_env("HOME").map(str::to_string);
    if let Some(p) = config.parse(&env::OUTPOSTS_LOCAL_ROOT, |s| {
        Ok(expand_home(s, home.as_deref()))
    })? {
        return Ok(p);
    }
    let data = match config.process_env("XDG_DATA_HOME") {
        Some(d) => PathBuf::from(d),
        None => match home {
            Some(h) => Path::new(&h).join(".local/share"),
            None => anyhow::bail!(
                "cannot place local sandboxes: neither OUTPOSTS_LOCAL_ROOT, XDG_DATA_HOME nor HOME is set"
            ),
        },
    };
    Ok(data.join("outposts").join("sandboxes"))
}

pub fn options_from_config(config: &Config) -> anyhow::Result<LocalOptions> {
    let allow = config
        .parse(&env::OUTPOSTS_LOCAL_UNISOLATED, |s| {
            match s.to_ascii_lowercase().as_str() {
                "1" | "true" | "yes" | "on" => Ok(true),
                "0" | "false" | "no" | "off" => Ok(false),
                other => Err(format!("`{other}` is not 1 or 0")),
            }
        })?
        .unwrap_or(false);
    Ok(LocalOptions {
        allow_unisolated: allow,
        ..LocalOptions::default()
    })
}

fn current_user() -> String {
    // SAFETY: getuid cannot fail.
    if unsafe { libc::getuid() } == 0 {
        return "root".into();
    }
    std::env::var("USER")
        .ok()
        .filter(|u| is_simple_name(u))
        .unwrap_or_else(|| "sandbox".into())
}

fn is_simple_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 32
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && !s.starts_with('-')
}

fn home_for(user: Option<&str>) -> Result<String> {
    match user {
        Some(u) if is_simple_name(u) => Ok(if u == "root" {
            "/root".into()
        } else {
            format!("/home/{u}")
        }),
        Some(u) => Err(ProviderError::Invalid(format!(
            "{u:?} is not a valid user name (letters, digits, `_` and `-`)"
        ))),
        None => {
            let u = current_user();
            Ok(if u == "root" {
                "/root".into()
            } else {
                format!("/home/{u}")
            })
        }
    }
}

/// Whether an env value must stay off disk: declared secret, secret-sounding name, or a token shape.
pub(crate) fn is_secret_env(key: &str, value: &str) -> bool {
    if env::find(key).is_some_and(|v| v.secret) {
        return true;
    }
    let k = key.to_ascii_uppercase();
    const NAMES: &[&str] = &[
        "TOKEN",
        "SECRET",
        "PASSWORD",
        "PASSWD",
        "PASS",
        "KEY",
        "CREDENTIAL",
        "AUTH",
        "COOKIE",
        "PRIVATE",
        "SIGNATURE",
        "SESSION_ID_TOKEN",
    ];
    if NAMES.iter().any(|n| k.contains(n)) {
        return true;
    }
    const SHAPES: &[&str] = &[
        "cog_",
        "dtn_",
        "ghp_",
        "gho_",
        "ghs_",
        "ghu_",
        "github_pat_",
        "glpat-",
        "sk-",
        "xox",
        "eyJ",
    ];
    SHAPES.iter().any(|s| value.starts_with(s)) || value.contains("Bearer ")
}

fn split_env(
    env: &BTreeMap<String, Secret>,
) -> (BTreeMap<String, String>, BTreeMap<String, Secret>) {
    let mut public = BTreeMap::new();
    let mut secret = BTreeMap::new();
    for (k, v) in env {
        if is_secret_env(k, v.expose()) {
            secret.insert(k.clone(), v.clone());
        } else {
            public.insert(k.clone(), v.expose().to_string());
        }
    }
    (public, secret)
}

fn validate_env_key(k: &str) -> Result<()> {
    if k.is_empty() || k.contains('=') || k.contains('\0') {
        return Err(ProviderError::Invalid(format!(
            "{k:?} is not a valid environment variable name"
        )));
    }
    if k == MARKER {
        return Err(ProviderError::Invalid(format!("{MARKER} is reserved")));
    }
    Ok(())
}

fn validate_labels(labels: &BTreeMap<String, String>) -> Result<()> {
    for k in labels.keys() {
        if k.trim().is_empty() {
            return Err(ProviderError::Invalid("a label key is empty".into()));
        }
    }
    Ok(())
}

fn validate_abs(p: &str, what: &str) -> Result<()> {
    if !p.starts_with('/') || p.contains('\0') || p.split('/').any(|c| c == "..") {
        return Err(ProviderError::Invalid(format!(
            "{what} {p:?} must be an absolute sandbox path without `..`"
        )));
    }
    Ok(())
}

fn validate_bind(host: &Path, inside: &str) -> Result<()> {
    validate_abs(inside, "bind target")?;
    let top = inside
        .trim_start_matches('/')
        .split('/')
        .next()
        .unwrap_or("");
    if top.is_empty() || paths::HOST_TOPS.contains(&top) {
        return Err(ProviderError::Invalid(format!(
            "bind target {inside} must be outside the host's system directories"
        )));
    }
    if !host.exists() {
        return Err(ProviderError::Invalid(format!(
            "bind source {} does not exist",
            host.display()
        )));
    }
    Ok(())
}

fn validate_spec(spec: &SandboxSpec) -> Result<()> {
    if spec.name.trim().is_empty()
        || spec.name.len() > 255
        || spec.name.chars().any(char::is_control)
    {
        return Err(ProviderError::Invalid(format!(
            "{:?} is not a usable sandbox name (1-255 printable characters)",
            spec.name
        )));
    }
    if let Some(cmd) = &spec.command
        && cmd.first().is_none_or(|p| p.is_empty())
    {
        return Err(ProviderError::Invalid("the main command is empty".into()));
    }
    if !spec.secret_refs.is_empty() {
        return Err(ProviderError::Unsupported {
            provider: ProviderKind::Local,
            operation: "secret references (pass the values in env)",
        });
    }
    for k in spec.env.keys() {
        validate_env_key(k)?;
    }
    validate_labels(&spec.labels)
}

fn validate_clone(req: &GitClone) -> Result<()> {
    if req.url.trim().is_empty() || req.url.starts_with('-') {
        return Err(ProviderError::Invalid(
            "the repository URL is empty or starts with `-`".into(),
        ));
    }
    if let Ok(u) = url::Url::parse(&req.url)
        && u.password().is_some()
    {
        return Err(ProviderError::Invalid(
            "the repository URL carries a password; pass credentials as username and password \
             instead (they are then never put in a URL or on a command line)"
                .into(),
        ));
    }
    if req.path.trim().is_empty() || req.path.starts_with('-') {
        return Err(ProviderError::Invalid(
            "the clone path is empty or starts with `-`".into(),
        ));
    }
    if req
        .branch
        .as_deref()
        .is_some_and(|b| b.is_empty() || b.starts_with('-'))
    {
        return Err(ProviderError::Invalid(
            "the branch is empty or starts with `-`".into(),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secret_env_detection() {
        assert!(is_secret_env("DEVIN_OUTPOSTS_TOKEN", "x"));
        assert!(is_secret_env("MY_API_KEY", "x"));
        assert!(is_secret_env("ANYTHING", "cog_abcdefgh1234"));
        assert!(is_secret_env("GIT_PASSWORD", "x"));
        assert!(!is_secret_env("DEVIN_SESSION_ID", "devin-123"));
        assert!(!is_secret_env("WORKDIR", "/home/daytona/workspace"));
    }

    #[test]
    fn clone_requests_are_checked() {
        let ok = GitClone {
            url: "https://example.com/r.git".into(),
            path: "/workspace/r".into(),
            branch: None,
            username: None,
            password: None,
        };
        assert!(validate_clone(&ok).is_ok());
        let bad = GitClone {
            url: "https://u:hunter2hunter2@example.com/r.git".into(),
            ..ok.clone()
        };
        let e = validate_clone(&bad).unwrap_err().to_string();
        assert!(!e.contains("hunter2"), "{e}");
        assert!(
            validate_clone(&GitClone {
                url: "--upload-pack=x".into(),
                ..ok.clone()
            })
            .is_err()
        );
        assert!(
            validate_clone(&GitClone {
                branch: Some("-x".into()),
                ..ok
            })
            .is_err()
        );
    }

    #[test]
    fn root_and_opt_in_come_from_config() {
        let cwd = tempfile::tempdir().unwrap();
        let load = |pairs: &[(&str, &str)]| {
            let env = pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            Config::load_with_env(env, &Default::default(), cwd.path()).unwrap()
        };
        let c = load(&[("HOME", "/h")]);
        assert_eq!(
            default_root(&c).unwrap(),
            Path::new("/h/.local/share/outposts/sandboxes")
        );
        assert!(!options_from_config(&c).unwrap().allow_unisolated);
        let c = load(&[("HOME", "/h"), ("XDG_DATA_HOME", "/d")]);
        assert_eq!(
            default_root(&c).unwrap(),
            Path::new("/d/outposts/sandboxes")
        );
        let c = load(&[
            ("HOME", "/h"),
            ("OUTPOSTS_LOCAL_ROOT", "~/sb"),
            ("OUTPOSTS_LOCAL_UNISOLATED", "1"),
        ]);
        assert_eq!(default_root(&c).unwrap(), Path::new("/h/sb"));
        assert!(options_from_config(&c).unwrap().allow_unisolated);
        let c = load(&[("OUTPOSTS_LOCAL_UNISOLATED", "maybe")]);
        let e = options_from_config(&c).unwrap_err().to_string();
        assert!(e.contains("OUTPOSTS_LOCAL_UNISOLATED"), "{e}");
    }

    #[test]
    fn homes_and_hostnames() {
        assert_eq!(home_for(Some("daytona")).unwrap(), "/home/daytona");
        assert!(home_for(Some("../x")).is_err());
    }
}
