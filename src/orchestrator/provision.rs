//! Provisioning: the session's sandbox (found, created or started, never a foreign one), its
//! repositories, and the remote (found running, or downloaded, verified and launched); and the
//! liveness check of a served session. Results go back as typed outcomes.

use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use super::plan::{CheckResult, Outcome, ProvisionFailure, ProvisionResult};
use super::remote::{self, LaunchMode, LaunchPlan, Liveness};
use super::run::{OrchEvent, Orchestrator};
use super::{LABEL_OUTPOST, LABEL_SESSION, sandbox_labels, sandbox_name};
use crate::api::devin_types::{Platform, SessionStatus};
use crate::provider::{
    Disk, Egress, ExecRequest, GitClone, ProviderError, SandboxInfo, SandboxSpec, SandboxState,
};

/// Why provisioning stopped.
#[derive(Debug, thiserror::Error)]
pub(super) enum ProvisionError {
    /// The sandbox under the session's name does not carry its labels: never touched.
    #[error(
        "sandbox {id} ({name}) does not carry this session's labels; it is left untouched — rename or remove it"
    )]
    Foreign { id: String, name: String },
    /// The session's network policy cannot be enforced: not served (fail closed).
    #[error("not serving the session: {0}")]
    Policy(String),
    #[error(transparent)]
    Failed(#[from] anyhow::Error),
}

impl From<ProviderError> for ProvisionError {
    fn from(e: ProviderError) -> Self {
        ProvisionError::Failed(e.into())
    }
}

impl From<remote::RemoteError> for ProvisionError {
    fn from(e: remote::RemoteError) -> Self {
        ProvisionError::Failed(e.into())
    }
}

impl Orchestrator {
    pub(super) async fn provision(&self, session: &str) -> Option<Outcome> {
        let result = match self.try_provision(session).await {
            Ok(r) => {
                self.lock().refused.remove(session);
                r
            }
            Err(e) => {
                let why = match &e {
                    ProvisionError::Foreign { .. } => ProvisionFailure::Foreign,
                    ProvisionError::Policy(why) => {
                        self.note_refusal(session, why);
                        ProvisionFailure::Policy
                    }
                    ProvisionError::Failed(_) => ProvisionFailure::Other,
                };
                let refused = why == ProvisionFailure::Policy;
                let e = anyhow::Error::new(e);
                self.count_error(&e);
                let error = crate::secrets::redact(&format!("{e:#}")).into_owned();
                self.emit(if refused {
                    OrchEvent::Refused {
                        session: session.into(),
                        reason: error,
                    }
                } else {
                    OrchEvent::Failed {
                        session: session.into(),
                        error,
                    }
                });
                ProvisionResult::Failed(why)
            }
        };
        Some(Outcome::Provisioned(result))
    }

    async fn try_provision(&self, session: &str) -> Result<ProvisionResult, ProvisionError> {
        let platform = self.platform(session);
        // The policy is in force before anything runs in the sandbox (the clones included).
        let egress = self.wanted_egress(session)?;
        let sb = self.ensure_sandbox(session, platform, &egress).await?;
        let sb = self.enforce_egress(sb, &egress).await?;
        let (workdir, chrome) = match platform {
            Platform::Windows => (
                self.opts.windows_workdir.clone(),
                self.opts.windows_chrome_path.clone(),
            ),
            _ => (self.opts.workdir.clone(), self.opts.chrome_path.clone()),
        };
        if !self.opts.repos.is_empty() {
            self.clone_repos(&sb.id, &workdir, platform).await?;
        }
        let (has_token, claim) = {
            let inner = self.lock();
            (
                inner.tracks.get(session).is_some_and(|t| t.has_token),
                inner.claims.get(session).cloned(),
            )
        };
        if !has_token {
            // Only a claim answer carries a connect token; without one, see whether a remote
            // of ours already runs (a restart, an adopted claim).
            return Ok(
                match remote::check(self.provider.as_ref(), &sb.id, session, platform).await {
                    Ok(Liveness::Running(_)) => {
                        self.emit(OrchEvent::RemoteRunning {
                            session: session.into(),
                            sandbox: sb.id.clone(),
                        });
                        ProvisionResult::Served
                    }
                    _ => ProvisionResult::NeedToken,
                },
            );
        }
        let claim = claim.with_context(|| format!("no connect token for {session}"))?;
        let gateway = claim
            .gateway
            .clone()
            .or_else(|| self.opts.gateway_fallback.clone())
            .context("the claim carries no gateway_url and DEVIN_OUTPOST_GATEWAY_URL is not set")?;
        let build = match self.opts.launch {
            LaunchMode::Remote => Some(self.remotes.build(platform, claim.sha.as_deref()).await?),
            LaunchMode::Cli => None,
        };
        let plan = LaunchPlan {
            session_id: session.to_string(),
            platform,
            mode: self.opts.launch,
            workdir,
            build,
            gateway_url: gateway,
            connect_token: claim.token.clone(),
            chrome_path: chrome,
        };
        // One exec: adopt a live remote of ours, or verify (or reuse) the binary and start it.
        crate::failpoint!("provision.before_launch");
        let launched = remote::launch(self.provider.as_ref(), &sb.id, &plan).await?;
        crate::failpoint!("provision.after_launch");
        match launched {
            remote::Launched::Running { .. } => self.emit(OrchEvent::RemoteRunning {
                session: session.into(),
                sandbox: sb.id.clone(),
            }),
            remote::Launched::Started { cached, .. } => {
                if let Some(b) = &plan.build {
                    self.lock()
                        .claims
                        .entry(session.to_string())
                        .and_modify(|c| c.sha = Some(b.sha.clone()));
                }
                self.emit(OrchEvent::RemoteLaunched {
                    session: session.into(),
                    sandbox: sb.id.clone(),
                    cached,
                });
            }
        }
        Ok(ProvisionResult::Served)
    }

    pub(super) fn platform(&self, session: &str) -> Platform {
        self.lock()
            .queue
            .get(session)
            .map(|e| e.platform)
            .unwrap_or(Platform::Linux)
    }

    /// The sandbox for a session: create it, or start ours; never touch a foreign one.
    async fn ensure_sandbox(
        &self,
        session: &str,
        platform: Platform,
        egress: &Egress,
    ) -> Result<SandboxInfo, ProvisionError> {
        let name = sandbox_name(session);
        let labels = sandbox_labels(session, &self.opts.outpost_id);
        let sb = match self.existing(&name).await? {
            Some(sb) => sb,
            None => {
                self.create_sandbox(session, platform, &name, &labels, egress)
                    .await?
            }
        };
        if sb.labels.get(LABEL_SESSION) != labels.get(LABEL_SESSION)
            || sb.labels.get(LABEL_OUTPOST) != labels.get(LABEL_OUTPOST)
        {
            return Err(ProvisionError::Foreign { id: sb.id, name });
        }
        self.lock()
            .sandboxes
            .insert(session.to_string(), sb.id.clone());
        Ok(self.wait_started(session, sb).await?)
    }

    /// The sandbox under `name`, unless it is finished for good: one being deleted (CoreWeave
    /// deletes on stop) is waited out, so that a wake creates the next one.
    async fn existing(&self, name: &str) -> Result<Option<SandboxInfo>, ProviderError> {
        let deadline = Instant::now() + self.opts.ready_timeout;
        loop {
            match self.provider.get(name).await? {
                Some(sb) if sb.state == SandboxState::Deleted => return Ok(None),
                Some(sb) if sb.state == SandboxState::Deleting && Instant::now() < deadline => {
                    tracing::debug!(sandbox = %sb.id, "waiting for the old sandbox to go");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
                other => return Ok(other),
            }
        }
    }

    async fn create_sandbox(
        &self,
        session: &str,
        platform: Platform,
        name: &str,
        labels: &std::collections::BTreeMap<String, String>,
        egress: &Egress,
    ) -> Result<SandboxInfo, ProvisionError> {
        // The view may have moved on since the plan: nothing would serve an ended session.
        let status = self.lock().queue.get(session).map(|e| e.session_status);
        if let Some(s @ (SessionStatus::Terminated | SessionStatus::Suspended)) = status {
            return Err(anyhow::anyhow!(
                "the session is {} — not creating a sandbox for it",
                s.as_str()
            )
            .into());
        }
        let source = match (platform, &self.opts.windows_source) {
            (Platform::Windows, Some(w)) => w.clone(),
            _ => self.opts.source.clone(),
        };
        let mut spec = SandboxSpec::new(name, source);
        spec.labels = labels.clone();
        spec.resources = self.opts.resources.clone();
        spec.archive_after = self.opts.archive_after;
        spec.egress = egress.clone();
        // The session's files must survive its sleeps on every provider.
        spec.workspace = Some(crate::provider::Workspace {
            mount_path: match platform {
                Platform::Windows => self.opts.windows_workdir.clone(),
                _ => self.opts.workdir.clone(),
            },
            keep_home: true,
            restore: None,
        });
        crate::failpoint!("provision.before_create");
        let sent = std::time::SystemTime::now();
        let created = self.provider.create(&spec).await;
        crate::failpoint!("provision.after_create");
        match created {
            Ok(sb) => {
                self.emit(OrchEvent::SandboxCreated {
                    session: session.into(),
                    sandbox: sb.id.clone(),
                    warm: crate::provider::served_warm(&sb, sent),
                });
                Ok(sb)
            }
            // Created by a call whose answer we lost, or by another replica: adopt it.
            Err(ProviderError::AlreadyExists(_)) => Ok(self
                .provider
                .get(name)
                .await?
                .with_context(|| format!("sandbox {name} exists but cannot be read"))?),
            Err(e) => Err(e.into()),
        }
    }

    async fn wait_started(&self, session: &str, mut sb: SandboxInfo) -> Result<SandboxInfo> {
        let since = Instant::now();
        let deadline = since + self.opts.ready_timeout;
        let mut delay = Duration::from_millis(200);
        let mut started_it = false;
        let mut told = since;
        loop {
            // An archived sandbox is restored from cheaper storage first: say so, and keep
            // saying while it takes long.
            if matches!(sb.disk, Disk::Archived | Disk::Restoring)
                && (told == since || told.elapsed() >= Duration::from_secs(15))
            {
                tracing::info!(
                    session,
                    sandbox = %sb.id,
                    "waking an archived sandbox: restoring it from the archive ({}s so far)",
                    since.elapsed().as_secs()
                );
                told = Instant::now();
            }
            match sb.state {
                SandboxState::Started => {
                    self.emit(OrchEvent::SandboxReady {
                        session: session.into(),
                        sandbox: sb.id.clone(),
                    });
                    return Ok(sb);
                }
                SandboxState::Stopped if !started_it => {
                    self.provider.start(&sb.id).await?;
                    started_it = true;
                    self.emit(OrchEvent::SandboxStarted {
                        session: session.into(),
                        sandbox: sb.id.clone(),
                    });
                }
                SandboxState::Error => anyhow::bail!(
                    "sandbox {} is in an error state: {}",
                    sb.id,
                    sb.error_reason
                        .clone()
                        .unwrap_or_else(|| sb.raw_state.clone())
                ),
                SandboxState::Deleted | SandboxState::Deleting => {
                    anyhow::bail!("sandbox {} is being deleted", sb.id)
                }
                _ => {}
            }
            if Instant::now() >= deadline {
                anyhow::bail!(
                    "sandbox {} did not start within {:?} (state {})",
                    sb.id,
                    self.opts.ready_timeout,
                    sb.raw_state
                );
            }
            tokio::time::sleep(delay).await;
            delay = (delay * 2).min(Duration::from_secs(5));
            sb = self
                .provider
                .get(&sb.id)
                .await?
                .ok_or_else(|| anyhow::anyhow!("sandbox {} vanished while starting", sb.id))?;
        }
    }

    async fn clone_repos(&self, sandbox_id: &str, workdir: &str, platform: Platform) -> Result<()> {
        for url in &self.opts.repos {
            let name = repo_dir_name(url);
            let exists = if platform == Platform::Windows {
                let path = format!("{}\\{name}", workdir.trim_end_matches('\\'));
                remote::windows::has_clone(self.provider.as_ref(), sandbox_id, &path).await?
            } else {
                let path = format!("{}/{name}", workdir.trim_end_matches('/'));
                let probe = ExecRequest::argv(["test", "-d", &format!("{path}/.git")]);
                self.provider.exec(sandbox_id, &probe).await?.exit_code == 0
            };
            // Existing clones are the user's work: leave them alone.
            if exists {
                continue;
            }
            let path = match platform {
                Platform::Windows => format!("{}\\{name}", workdir.trim_end_matches('\\')),
                _ => format!("{}/{name}", workdir.trim_end_matches('/')),
            };
            let req = GitClone {
                url: url.clone(),
                path,
                branch: None,
                username: self
                    .opts
                    .git_token
                    .as_ref()
                    .map(|_| self.opts.git_username.clone()),
                password: self.opts.git_token.clone(),
            };
            self.provider
                .git_clone(sandbox_id, &req)
                .await
                .with_context(|| format!("cloning {url}"))?;
        }
        Ok(())
    }

    /// Is the remote of a served session still running? One exec; only when it fails is the
    /// sandbox itself read, to tell a lost sandbox from a failed check.
    pub(super) async fn check(&self, session: &str) -> Option<Outcome> {
        let platform = self.platform(session);
        let sandbox = self.lock().sandboxes.get(session).cloned();
        let Some(sandbox) = sandbox else {
            return Some(Outcome::Checked(CheckResult::NoSandbox));
        };
        let result = match remote::check(self.provider.as_ref(), &sandbox, session, platform).await
        {
            Ok(Liveness::Running(_)) => CheckResult::Running,
            Ok(Liveness::Exited(code)) => {
                self.emit(OrchEvent::RemoteExited {
                    session: session.into(),
                    code,
                });
                if code != 0 {
                    self.report_exit(session, &sandbox, platform, &format!("exited {code}"))
                        .await;
                }
                CheckResult::Exited(code)
            }
            Ok(Liveness::Absent) => {
                self.report_exit(session, &sandbox, platform, "is gone without an exit code")
                    .await;
                CheckResult::Absent
            }
            Err(e) => match self.provider.get(&sandbox).await {
                Ok(Some(sb)) if sb.state == SandboxState::Started => {
                    tracing::warn!(session, "liveness check failed: {e}");
                    CheckResult::Failed
                }
                Ok(other) => {
                    // The provider stopped or removed it under a live session: say so; the
                    // planner serves the session again (a wake of the same sandbox if it exists).
                    self.emit(OrchEvent::SandboxLost {
                        session: session.into(),
                        sandbox: sandbox.clone(),
                    });
                    if other.is_none() {
                        self.lock().sandboxes.remove(session);
                    }
                    CheckResult::SandboxLost
                }
                Err(e) => {
                    tracing::warn!(session, "cannot read sandbox {sandbox}: {e}");
                    CheckResult::SandboxUnreadable
                }
            },
        };
        Some(Outcome::Checked(result))
    }
}

/// Lines of the remote's own log shown when it ends badly.
const EXIT_LOG_LINES: u32 = 5;

impl Orchestrator {
    /// A remote ended badly: say so at WARN with the last lines of its own log (which usually
    /// says why), and keep them for `orchestrator status`.
    async fn report_exit(&self, session: &str, sandbox: &str, platform: Platform, how: &str) {
        let tail = if platform == Platform::Windows {
            String::new()
        } else {
            remote::log_tail(self.provider.as_ref(), sandbox, session, EXIT_LOG_LINES)
                .await
                .unwrap_or_default()
        };
        let tail = crate::secrets::redact(tail.trim()).into_owned();
        let since = self
            .lock()
            .tracks
            .get(session)
            .and_then(|t| t.launched_at)
            .map(|l| {
                format!(
                    " {:.0} s after its launch",
                    (crate::time::now() - l).max(0.0)
                )
            })
            .unwrap_or_default();
        if tail.is_empty() {
            tracing::warn!(session, "the remote {how}{since}; its log is empty");
        } else {
            // One line, so a log search for the session finds the reason with it.
            let lines: Vec<&str> = tail.lines().filter(|l| !l.trim().is_empty()).collect();
            tracing::warn!(
                session,
                "the remote {how}{since}; its log ends: {}",
                lines.join(" | ")
            );
            // The remote's own last word: the launcher's diagnostic lines are ours.
            let last = lines
                .iter()
                .rev()
                .find(|l| !l.starts_with(super::remote::LAUNCHER_LINE))
                .or(lines.last())
                .unwrap_or(&"")
                .to_string();
            self.lock().exit_logs.insert(session.to_string(), last);
        }
    }
}

/// `https://host/org/app.git` → `app`.
pub fn repo_dir_name(url: &str) -> String {
    let last = url
        .trim_end_matches('/')
        .rsplit(['/', ':'])
        .next()
        .unwrap_or("repo");
    let name = last.strip_suffix(".git").unwrap_or(last);
    let clean: String = name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        .collect();
    if clean.is_empty() || clean.starts_with('.') {
        "repo".into()
    } else {
        clean
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repo_names() {
        assert_eq!(repo_dir_name("https://github.com/org/app.git"), "app");
        assert_eq!(repo_dir_name("git@github.com:org/app"), "app");
        assert_eq!(repo_dir_name("/srv/git/lib.git/"), "lib");
        assert_eq!(repo_dir_name("https://x/../.."), "repo");
    }
}
