//! The running side of a sandbox: booting its init, building commands, ending processes,
//! reporting state.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::poll::{Backoff, Poll, Waited, poll_until};
use crate::provider::{ProviderError, Result, SandboxInfo, SandboxState};
use crate::secrets::Secret;

use super::isolation::{self, Isolation, Launch, Layout};
use super::paths::SandboxFs;
use super::store::{self, Desired, Record};
use super::{LocalProvider, MARKER, procs, supervisor};

const DEFAULT_PATH: &str = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
/// Where the provider's helper scripts appear inside every sandbox (read-only).
const HELPERS_INSIDE: &str = "/run/outposts";
const HELPERS_DIR: &str = ".helpers";
const ASKPASS: &str = "#!/bin/sh\n# Answers git's credential prompts from the environment.\ncase \"$1\" in\n  Username*|username*) printf '%s\\n' \"$OUTPOSTS_GIT_USERNAME\" ;;\n  *) printf '%s\\n' \"$OUTPOSTS_GIT_PASSWORD\" ;;\nesac\n";
/// How long a booting sandbox may take to come up.
const BOOT_TIMEOUT: Duration = Duration::from_secs(15);

pub(super) fn missing_secrets_error(rec: &Record, missing: &[String]) -> ProviderError {
    ProviderError::Invalid(format!(
        "sandbox {} needs the secret env {} for its main command, which is kept only in the \
         memory of the process that created it; supply it again \
         (LocalProvider::remember_secret_env) or delete and recreate the sandbox",
        rec.name,
        missing.join(", ")
    ))
}

impl LocalProvider {
    pub(super) async fn ready(&self) -> Result<()> {
        match &self.isolation {
            Isolation::Unavailable(u) => Err(u.error()),
            Isolation::Unisolated => Ok(()),
            Isolation::Bubblewrap { bwrap, nsenter } => self
                .probe
                .get_or_init(|| isolation::probe(bwrap, nsenter))
                .await
                .clone()
                .map_err(|u| u.error()),
        }
    }

    pub(super) fn find_by_name(&self, name: &str) -> Result<Option<Record>> {
        Ok(self.store.all()?.into_iter().find(|r| r.name == name))
    }

    pub(super) fn find(&self, id_or_name: &str) -> Result<Option<Record>> {
        if let Some(r) = self.store.load(id_or_name)? {
            return Ok(Some(r));
        }
        self.find_by_name(id_or_name)
    }

    pub(super) fn require(&self, id_or_name: &str) -> Result<Record> {
        self.find(id_or_name)?
            .ok_or_else(|| ProviderError::NotFound(id_or_name.to_string()))
    }

    pub(super) fn sfs<'a>(&self, rec: &'a Record, root: &'a Path) -> SandboxFs<'a> {
        SandboxFs {
            root,
            home: &rec.home,
            binds: self.bind_targets(rec),
        }
    }

    pub(super) fn bind_targets(&self, rec: &Record) -> Vec<String> {
        self.binds(rec).into_iter().map(|(_, s)| s).collect()
    }

    /// Every read-only bind of the sandbox: the helpers, the provider's, the sandbox's own.
    fn binds(&self, rec: &Record) -> Vec<(PathBuf, String)> {
        let mut b = Vec::new();
        if matches!(self.isolation, Isolation::Bubblewrap { .. }) {
            b.push((
                self.store.root.join(HELPERS_DIR),
                HELPERS_INSIDE.to_string(),
            ));
        }
        b.extend(self.opts.ro_binds.iter().cloned());
        b.extend(rec.ro_binds.iter().cloned());
        b
    }

    /// Write the helper scripts every sandbox gets (content has no secrets).
    pub(super) fn write_helpers(&self) -> Result<()> {
        let dir = self.store.root.join(HELPERS_DIR);
        std::fs::create_dir_all(&dir)
            .map_err(|e| store::io_err(format!("cannot create {}", dir.display()), e))?;
        let p = dir.join("git-askpass");
        if std::fs::read(&p).ok().as_deref() != Some(ASKPASS.as_bytes()) {
            store::write_atomic(&p, ASKPASS.as_bytes(), 0o755)
                .map_err(|e| store::io_err("cannot write the git askpass helper", e))?;
        }
        Ok(())
    }

    /// The askpass helper as sandbox processes see it.
    pub(super) fn askpass_path(&self) -> String {
        match self.isolation {
            Isolation::Bubblewrap { .. } => format!("{HELPERS_INSIDE}/git-askpass"),
            _ => self
                .store
                .root
                .join(HELPERS_DIR)
                .join("git-askpass")
                .to_string_lossy()
                .into_owned(),
        }
    }

    pub(super) fn hostname(rec: &Record) -> String {
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
        let user = match (&rec.user, &self.isolation) {
            (Some(u), _) => u.clone(),
            (None, Isolation::Unisolated) => super::checks::current_user(),
            (None, _) => "root".into(),
        };
        env.insert("PATH".into(), DEFAULT_PATH.into());
        env.insert("HOME".into(), rec.home.clone());
        env.insert("USER".into(), user.clone());
        env.insert("LOGNAME".into(), user);
        env.insert("LANG".into(), "C.UTF-8".into());
        env.insert("HOSTNAME".into(), Self::hostname(rec));
        let shell = if Path::new("/bin/bash").exists() {
            "/bin/bash"
        } else {
            "/bin/sh"
        };
        env.insert("SHELL".into(), shell.into());
        // Only uid 0 is mapped in the sandbox's user namespace: extracting archives as "root"
        // must not try to restore other owners (GNU tar would fail with "Invalid argument").
        env.insert("TAR_OPTIONS".into(), "--no-same-owner".into());
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
            first.push(env.get("PATH").cloned().unwrap_or_default());
            env.insert("PATH".into(), first.join(":"));
        }
        env.insert(MARKER.into(), rec.id.clone());
        env.into_iter().collect()
    }

    pub(super) fn missing_secrets(&self, rec: &Record) -> Vec<String> {
        let all = self.secrets.lock().unwrap_or_else(|e| e.into_inner());
        let have = all.get(&rec.id);
        rec.secret_env_keys
            .iter()
            .filter(|k| !have.is_some_and(|m| m.contains_key(*k)))
            .cloned()
            .collect()
    }

    /// The host command that runs `argv` in `rec` (entering its init `init` when isolated).
    pub(super) fn command_for(
        &self,
        rec: &Record,
        init: Option<i32>,
        argv: Vec<String>,
        cwd: String,
        extra_env: &BTreeMap<String, Secret>,
    ) -> Result<std::process::Command> {
        let fs_root = self.store.fs_dir(&rec.id);
        let binds = self.binds(rec);
        let hostname = Self::hostname(rec);
        let layout = Layout {
            fs_root: &fs_root,
            home: &rec.home,
            binds: &binds,
            hostname: &hostname,
            user: rec.user.as_deref(),
        };
        let launch = Launch {
            argv,
            cwd,
            env: self.env_for(rec, extra_env),
        };
        isolation::command(
            &self.isolation,
            &layout,
            init,
            &launch,
            &[self.store.root.as_path()],
        )
    }

    /// Host pid of the sandbox's pid 1, when its init is up (bubblewrap mode).
    pub(super) fn init_of(&self, rec: &Record) -> Option<i32> {
        let b = rec.init_pid?;
        if !procs::is_member(b, &rec.id) {
            return None;
        }
        let r = procs::first_child(b)?;
        let ns = procs::pid_ns(r)?;
        (Some(ns) != procs::pid_ns(0)).then_some(r)
    }

    /// Whether the sandbox's namespaces are up (always, when unisolated: there are none).
    pub(super) fn is_up(&self, rec: &Record) -> bool {
        match self.isolation {
            Isolation::Bubblewrap { .. } => self.init_of(rec).is_some(),
            _ => true,
        }
    }

    /// Everything running for the sandbox (host pids).
    pub(super) fn members(&self, rec: &Record) -> Vec<i32> {
        let mut pids = procs::members(&rec.id);
        if let Some(ns) = self.init_of(rec).and_then(procs::pid_ns) {
            pids.extend(procs::ns_members(ns));
        }
        pids.sort_unstable();
        pids.dedup();
        pids
    }

    /// Boot the sandbox's init if it is not up; the caller holds the sandbox lock. Returns the
    /// host pid of the sandbox's pid 1 (`None` when unisolated).
    pub(super) async fn boot_locked(&self, rec: &mut Record) -> Result<Option<i32>> {
        let bwrap = match &self.isolation {
            Isolation::Unisolated => return Ok(None),
            Isolation::Unavailable(u) => return Err(u.error()),
            Isolation::Bubblewrap { bwrap, .. } => bwrap.clone(),
        };
        if let Some(r) = self.init_of(rec) {
            return Ok(Some(r));
        }
        let fs_root = self.store.fs_dir(&rec.id);
        let binds = self.binds(rec);
        let hostname = Self::hostname(rec);
        let layout = Layout {
            fs_root: &fs_root,
            home: &rec.home,
            binds: &binds,
            hostname: &hostname,
            user: rec.user.as_deref(),
        };
        let env = vec![
            ("PATH".to_string(), DEFAULT_PATH.to_string()),
            (MARKER.to_string(), rec.id.clone()),
        ];
        let mut cmd = isolation::boot_command(&bwrap, &layout, &env)?;
        let events = self.store.file(&rec.id, store::EVENTS_LOG);
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&events)
            .map_err(|e| store::io_err("cannot open the events log", e))?;
        let log2 = log
            .try_clone()
            .map_err(|e| store::io_err("cannot open the events log", e))?;
        cmd.stdout(log).stderr(log2);
        let mut child = cmd
            .spawn()
            .map_err(|e| ProviderError::Other(format!("cannot start bubblewrap: {e}")))?;
        let b = child.id() as i32;
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(child.wait());
        });
        let deadline = std::time::Instant::now() + BOOT_TIMEOUT;
        let every = Backoff::fixed(Duration::from_millis(10));
        // Ready(Some(pid 1)) once up, Ready(None) once bubblewrap exited.
        // `move`: the receiver is Send but not Sync, so it must be owned, not borrowed.
        let up = poll_until(deadline, every, move || {
            // Up once pid 1 has forked the payload: bubblewrap does that after all mounts.
            let seen = if let Some(r) = procs::first_child(b)
                && procs::pid_ns(r).is_some_and(|ns| Some(ns) != procs::pid_ns(0))
                && procs::first_child(r).is_some()
            {
                Poll::Ready(Some(r))
            } else if rx.try_recv().is_ok() {
                Poll::Ready(None)
            } else {
                Poll::Pending(())
            };
            std::future::ready(Ok::<_, std::convert::Infallible>(seen))
        })
        .await;
        let exited = match up {
            Ok(Waited::Ready(Some(r))) => {
                rec.init_pid = Some(b);
                self.store.save(rec)?;
                return Ok(Some(r));
            }
            Ok(Waited::Ready(None)) => true,
            _ => false,
        };
        procs::signal(b, libc::SIGKILL);
        let tail = std::fs::read_to_string(&events).unwrap_or_default();
        let last: Vec<&str> = tail.lines().rev().take(3).collect();
        Err(ProviderError::Other(format!(
            "the sandbox {} did not start ({}): {}",
            rec.name,
            if exited {
                "bubblewrap exited"
            } else {
                "timed out"
            },
            last.into_iter().rev().collect::<Vec<_>>().join(" | ")
        )))
    }

    /// For exec and clone: refuse a stopped sandbox; boot a started one whose init is gone.
    pub(super) async fn ensure_running(&self, rec: &Record) -> Result<Option<i32>> {
        let stopped = || {
            ProviderError::Invalid(format!(
                "sandbox {} is stopped; start it before running commands",
                rec.name
            ))
        };
        if rec.state != Desired::Started {
            return Err(stopped());
        }
        match &self.isolation {
            Isolation::Unisolated => return Ok(None),
            Isolation::Unavailable(u) => return Err(u.error()),
            Isolation::Bubblewrap { .. } => {}
        }
        if let Some(r) = self.init_of(rec) {
            return Ok(Some(r));
        }
        self.ready().await?;
        let _lock = self.store.lock_sandbox(&rec.id).await?;
        let mut fresh = self.require(&rec.id)?;
        if fresh.state != Desired::Started {
            return Err(stopped());
        }
        let r = self.boot_locked(&mut fresh).await?;
        self.store
            .event(&rec.id, "booted again (its processes had gone)");
        drop(_lock);
        // The old supervisor, if any, entered namespaces that are gone: run the main command anew.
        if fresh.command.is_some() {
            self.launch_main(&rec.id).await?;
        }
        Ok(r)
    }

    /// Pid of the live supervisor of `rec`, if any.
    pub(super) fn supervisor_alive(&self, rec: &Record) -> Option<i32> {
        let from_status =
            supervisor::read_status(&self.store.dir(&rec.id)).and_then(|s| s.supervisor_pid);
        [rec.supervisor_pid, from_status]
            .into_iter()
            .flatten()
            .find(|p| procs::is_member(*p, &rec.id))
    }

    /// Launch (or relaunch) the main command's supervisor. Caller holds no sandbox lock.
    pub(super) async fn launch_main(&self, id: &str) -> Result<()> {
        let _lock = self.store.lock_sandbox(id).await?;
        let mut rec = self.require(id)?;
        let Some(argv) = rec.command.clone() else {
            return Ok(());
        };
        let missing = self.missing_secrets(&rec);
        if !missing.is_empty() {
            return Err(missing_secrets_error(&rec, &missing));
        }
        let dir = self.store.dir(&rec.id);
        // A main process orphaned by a vanished supervisor must not run twice: it is in the
        // old supervisor's process group.
        let old = [
            rec.supervisor_pid,
            supervisor::read_status(&dir).and_then(|s| s.supervisor_pid),
        ];
        for sup in old.into_iter().flatten() {
            for pid in self.members(&rec) {
                if procs::pgid(pid) == Some(sup) {
                    procs::signal(pid, libc::SIGKILL);
                }
            }
        }
        let init = self.boot_locked(&mut rec).await?;
        let cmd = self.command_for(&rec, init, argv, rec.home.clone(), &BTreeMap::new())?;
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
    pub(super) async fn end_processes(&self, rec: &Record) -> usize {
        if let Some(pid) = self.supervisor_alive(rec) {
            procs::signal(pid, libc::SIGKILL);
        }
        match self.isolation {
            Isolation::Bubblewrap { .. } => {
                procs::end_namespace(&rec.id, self.init_of(rec), self.opts.stop_grace).await
            }
            _ => procs::end_all(&rec.id, self.opts.stop_grace).await,
        }
    }

    pub(super) fn info(&self, rec: &Record) -> Result<SandboxInfo> {
        let dir = self.store.dir(&rec.id);
        let mut containers = Vec::new();
        let mut error_reason = None;
        let (state, raw) = match rec.state {
            Desired::Stopped => (SandboxState::Stopped, "stopped"),
            Desired::Started if rec.command.is_none() => (SandboxState::Started, "started"),
            Desired::Started => {
                let status = supervisor::read_status(&dir);
                let alive = self.supervisor_alive(rec).is_some() && self.is_up(rec);
                containers.push(supervisor::container(status.as_ref(), alive));
                match status {
                    Some(s) if s.state == "completed" => (SandboxState::Started, "completed"),
                    _ if alive => (SandboxState::Started, "started"),
                    _ => {
                        error_reason = Some(
                            "the sandbox's processes are gone (was this machine restarted?); \
                             `start` the sandbox to run its main command again"
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
            disk: crate::provider::Disk::Attached,
            labels: rec.labels.clone(),
            created_at: Some(rec.created_at),
            error_reason,
            containers,
            // The host's network: nothing restricts it (restricted sessions are refused).
            egress: crate::provider::Egress::Open,
        })
    }
}
