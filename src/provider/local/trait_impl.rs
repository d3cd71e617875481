//! The [`Provider`] operations of [`LocalProvider`]: lifecycle, exec, files, clone and logs.

use std::collections::BTreeMap;

use async_trait::async_trait;
use futures::stream::BoxStream;

use crate::provider::{
    Cmd, ExecOutput, ExecRequest, GitClone, LogOptions, Provider, ProviderError, ProviderKind,
    Result, SandboxInfo, SandboxSpec, Sink, Source, feed,
};
use crate::secrets::{Secret, redact};

use super::paths::{self, SandboxFs};
use super::store::{self, Desired};
use super::{LocalProvider, SandboxOptions, checks, exec, logs, procs, runtime, supervisor};

#[async_trait]
impl Provider for LocalProvider {
    fn kind(&self) -> ProviderKind {
        ProviderKind::Local
    }

    async fn preflight(&self, _source: &Source) -> Result<()> {
        // Local sandboxes use the host's userland: only isolation can be missing.
        self.ready().await
    }

    fn check_egress(&self, egress: &crate::provider::Egress) -> std::result::Result<(), String> {
        match egress {
            crate::provider::Egress::Only(_) => Err(
                "the network policy is enabled, and local sandboxes share the host's network: \
                 the local provider does not enforce egress, so it does not serve the session"
                    .into(),
            ),
            _ => Ok(()),
        }
    }

    /// Local sandboxes share the host's network: there is no policy to change.
    fn can_set_egress(&self) -> bool {
        false
    }

    async fn set_egress(&self, _id: &str, _egress: &crate::provider::Egress) -> Result<()> {
        Err(crate::provider::egress_unchangeable(ProviderKind::Local))
    }

    /// A stopped local sandbox keeps its directory: nothing to snapshot apart.
    async fn stop_keeping(&self, id: &str, _snapshot: bool) -> Result<Option<String>> {
        self.stop(id).await.map(|()| None)
    }

    /// Local sandboxes keep nothing outside their own directory.
    async fn discard(&self, _name: &str) -> Result<()> {
        Ok(())
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

    async fn list_each(
        &self,
        labels: &BTreeMap<String, String>,
        sink: &mut Sink<'_>,
    ) -> Result<()> {
        feed(self.list(labels).await, sink)
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
            let up = self.is_up(&rec);
            let running = rec.state == Desired::Started && up;
            // A main command needs relaunching unless it runs (or completed) in a live sandbox.
            let main_ok = rec.command.is_none()
                || (up
                    && (self.supervisor_alive(&rec).is_some()
                        || supervisor::read_status(&self.store.dir(&rec.id))
                            .is_some_and(|s| s.state == "completed")));
            if running && main_ok {
                return Ok(());
            }
            if rec.command.is_some() && !main_ok {
                let missing = self.missing_secrets(&rec);
                if !missing.is_empty() {
                    return Err(runtime::missing_secrets_error(&rec, &missing));
                }
            }
            let was_started = rec.state == Desired::Started;
            rec.state = Desired::Started;
            rec.updated_at = store::now();
            self.boot_locked(&mut rec).await?;
            self.store.save(&rec)?;
            if !was_started {
                self.store.event(&rec.id, "started");
            }
            rec.command.is_some() && !main_ok
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
        rec.init_pid = None;
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
        let Some(rec) = self.store.load(&rec.id)? else {
            return Ok(());
        };
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
        checks::validate_labels(labels)?;
        let rec = self.require(id)?;
        let _lock = self.store.lock_sandbox(&rec.id).await?;
        let mut rec = self.require(&rec.id)?;
        rec.labels = labels.clone();
        rec.updated_at = store::now();
        self.store.save(&rec)
    }

    async fn hand_over(
        &self,
        id: &str,
        _name: &str,
        labels: &BTreeMap<String, String>,
    ) -> Result<()> {
        self.set_labels(id, labels).await
    }

    /// A stopped local sandbox keeps its directory: nothing is kept apart from it.
    async fn keeps_workspace(&self, _name: &str) -> Result<bool> {
        Ok(false)
    }

    async fn exec(&self, id: &str, req: &ExecRequest) -> Result<ExecOutput> {
        let rec = self.require(id)?;
        let argv = match &req.cmd {
            Cmd::Shell(s) => vec!["/bin/sh".to_string(), "-c".to_string(), s.clone()],
            Cmd::Argv(v) if v.first().is_some_and(|p| !p.is_empty()) => v.clone(),
            Cmd::Argv(_) => return Err(ProviderError::Invalid("the command is empty".into())),
        };
        for k in req.env.keys() {
            checks::validate_env_key(k)?;
        }
        let cwd = match &req.cwd {
            Some(c) => paths::join(&paths::components(c, &rec.home)?),
            None => rec.home.clone(),
        };
        let init = self.ensure_running(&rec).await?;
        let fs_root = self.store.fs_dir(&rec.id);
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
        let cmd = self.command_for(&rec, init, argv, cwd, &req.env)?;
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
        checks::validate_clone(req)?;
        let init = self.ensure_running(&rec).await?;
        let mut argv: Vec<String> = ["git", "-c", "credential.helper=", "clone"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        if let Some(b) = &req.branch {
            argv.extend(["--branch".to_string(), b.clone()]);
        }
        argv.extend(["--".to_string(), req.url.clone(), req.path.clone()]);
        let mut env = BTreeMap::new();
        env.insert("GIT_TERMINAL_PROMPT".to_string(), Secret::new("0"));
        env.insert("GIT_ASKPASS".to_string(), Secret::new(self.askpass_path()));
        env.insert(
            "OUTPOSTS_GIT_USERNAME".to_string(),
            Secret::new(req.username_or_default()),
        );
        if let Some(p) = &req.password {
            env.insert("OUTPOSTS_GIT_PASSWORD".to_string(), p.clone());
        }
        let cmd = self.command_for(&rec, init, argv, rec.home.clone(), &env)?;
        let out = exec::run(cmd, None).await?;
        if out.exit_code != 0 {
            let mut msg = out.stderr.trim().to_string();
            if let Some(p) = &req.password
                && !p.expose().is_empty()
            {
                msg = msg.replace(p.expose(), "[REDACTED]");
            }
            let mut tail: Vec<&str> = msg.lines().rev().take(5).collect();
            tail.reverse();
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
