//! Provisioning: the session's sandbox (found, created or started, never a foreign one), its
//! repositories, and the remote (found running, or downloaded, verified and launched). Results
//! go back as typed outcomes; the liveness check of a served session is `liveness.rs`.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use super::plan::{Outcome, ProvisionFailure, ProvisionResult};
use super::remote::{self, LaunchMode, LaunchPlan, Liveness};
use super::run::{Change, ClaimInfo, OrchEvent, Orchestrator, RecordChange, SessionView};
use super::{LABEL_OUTPOST, LABEL_SESSION, sandbox_labels, sandbox_name};
use crate::api::devin_types::{Platform, SessionStatus};
use crate::orchestrator::SessionId;
use crate::poll::{Backoff, Poll, Waited, poll_until};
use crate::provider::{
    Disk, Egress, ExecRequest, GitClone, ProviderError, SandboxInfo, SandboxSpec, SandboxState,
};

/// How often a sandbox that is being deleted is read while a wake waits for it to go.
const GONE_BACKOFF: Backoff = Backoff::fixed(Duration::from_secs(1));
/// How often a starting sandbox is read: 0.2 s, doubling, at most 5 s apart.
const START_BACKOFF: Backoff =
    Backoff::doubling(Duration::from_millis(200), Duration::from_secs(5));

/// What a wait for a sandbox to start has done so far.
#[derive(Default)]
struct StartWatch {
    /// It was started by us (once: a second stopped read means someone stopped it again).
    started_it: AtomicBool,
    /// When the restore from the archive was last mentioned.
    told: Mutex<Option<Instant>>,
}

impl StartWatch {
    /// An archived sandbox is restored from cheaper storage first: say so, and keep saying
    /// while it takes long.
    fn mention_restore(&self, session: &SessionId, sb: &SandboxInfo, since: Instant) {
        let mut told = self.told.lock().unwrap_or_else(|e| e.into_inner());
        if matches!(sb.disk, Disk::Archived | Disk::Restoring)
            && told.is_none_or(|t| t.elapsed() >= Duration::from_secs(15))
        {
            tracing::info!(
                session = session.as_str(),
                sandbox = %sb.id,
                "waking an archived sandbox: restoring it from the archive ({}s so far)",
                since.elapsed().as_secs()
            );
            *told = Some(Instant::now());
        }
    }
}

/// Why provisioning stopped.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ProvisionError {
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
    pub(super) async fn provision(&self, view: &SessionView) -> Option<Outcome> {
        let session = &view.id;
        let step = super::failures::StepMark::default();
        let result = match self.try_provision(view, &step).await {
            Ok(r) => {
                if r == ProvisionResult::Served {
                    self.record_served(session);
                }
                self.record([
                    Change::Record(RecordChange::Refusal {
                        session: session.clone(),
                        reason: None,
                    }),
                    Change::Record(RecordChange::Failure {
                        session: session.clone(),
                        reason: None,
                    }),
                ]);
                r
            }
            Err(e) => {
                let why = match &e {
                    ProvisionError::Foreign { .. } => ProvisionFailure::Foreign,
                    ProvisionError::Policy(why) => {
                        self.record([Change::Record(RecordChange::Refusal {
                            session: session.clone(),
                            reason: Some(why.clone()),
                        })]);
                        ProvisionFailure::Policy
                    }
                    ProvisionError::Failed(_) => ProvisionFailure::Other,
                };
                let refused = why == ProvisionFailure::Policy;
                let e = anyhow::Error::new(e);
                self.count_error(&e);
                let error = crate::secrets::redact(&format!("{e:#}")).into_owned();
                // Kept for `orchestrator status`: why the session is not served.
                self.record([Change::Record(RecordChange::Failure {
                    session: session.clone(),
                    reason: Some(error.clone()),
                })]);
                self.record_provision_failure(session, step.get(), &error)
                    .await;
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

    async fn try_provision(
        &self,
        view: &SessionView,
        step: &super::failures::StepMark,
    ) -> Result<ProvisionResult, ProvisionError> {
        use super::failures::Step;
        let (session, platform) = (&view.id, view.platform);
        // The policy is in force before anything runs in the sandbox (the clones included).
        let egress = self.wanted_egress(view)?;
        step.set(Step::Sandbox);
        let sb = self.ensure_sandbox(view, &egress).await?;
        step.set(Step::Egress);
        let sb = self.enforce_egress(sb, &egress).await?;
        // Before the clones (which would mask a lost repository) and the launch.
        self.check_after_wake(view, &sb.id).await;
        let (workdir, chrome) = match platform {
            Platform::Windows => (
                self.opts.windows_workdir.clone(),
                self.opts.windows_chrome_path.clone(),
            ),
            _ => (self.opts.workdir.clone(), self.opts.chrome_path.clone()),
        };
        if !self.opts.repos.is_empty() {
            step.set(Step::Repos);
            self.clone_repos(&sb.id, &workdir, platform).await?;
        }
        step.set(Step::Launch);
        let claim = view.claim.clone();
        if !view.has_token {
            return Ok(self.running_already(session, &sb.id, platform).await);
        }
        let claim = claim.with_context(|| format!("no connect token for {session}"))?;
        self.launch(session, &sb.id, platform, claim, workdir, chrome)
            .await
    }

    /// Only a claim answer carries a connect token; without one, see whether a remote of ours
    /// already runs (a restart, an adopted claim).
    async fn running_already(
        &self,
        session: &SessionId,
        sandbox: &str,
        platform: Platform,
    ) -> ProvisionResult {
        match remote::check(self.provider.as_ref(), sandbox, session, platform).await {
            Ok(Liveness::Running(_)) => {
                self.emit(OrchEvent::RemoteRunning {
                    session: session.into(),
                    sandbox: sandbox.to_string(),
                });
                ProvisionResult::Served
            }
            _ => ProvisionResult::NeedToken,
        }
    }

    /// Launch the remote with the claim's connect token (or find ours running).
    async fn launch(
        &self,
        session: &SessionId,
        sandbox: &str,
        platform: Platform,
        claim: ClaimInfo,
        workdir: String,
        chrome: Option<String>,
    ) -> Result<ProvisionResult, ProvisionError> {
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
        let launched = remote::launch(self.provider.as_ref(), sandbox, &plan).await?;
        crate::failpoint!("provision.after_launch");
        match launched {
            remote::Launched::Running { .. } => self.emit(OrchEvent::RemoteRunning {
                session: session.into(),
                sandbox: sandbox.to_string(),
            }),
            remote::Launched::Started { cached, .. } => {
                self.record([Change::Record(RecordChange::Launched {
                    session: session.clone(),
                    token: plan.connect_token.clone(),
                })]);
                if let Some(b) = &plan.build {
                    self.record([Change::Record(RecordChange::RemoteSha {
                        session: session.clone(),
                        sha: b.sha.clone(),
                    })]);
                }
                self.emit(OrchEvent::RemoteLaunched {
                    session: session.into(),
                    sandbox: sandbox.to_string(),
                    cached,
                });
            }
        }
        Ok(ProvisionResult::Served)
    }

    /// The sandbox for a session: create it, or start ours; never touch a foreign one.
    async fn ensure_sandbox(
        &self,
        view: &SessionView,
        egress: &Egress,
    ) -> Result<SandboxInfo, ProvisionError> {
        let (session, platform) = (&view.id, view.platform);
        let name = sandbox_name(session);
        let labels = sandbox_labels(session, &self.opts.outpost_id);
        // A failed sandbox the janitor reaped is over, even if still readable (CoreWeave).
        let live = |sb: &SandboxInfo| !self.reaped_already(session, &sb.id);
        let (sb, placed) = match self.existing(&name).await?.filter(live) {
            Some(sb) => (sb, None),
            // Served from warm capacity earlier (found by its labels), or now; else cold.
            None => match self.labelled_sandbox(session).await?.filter(live) {
                Some(sb) => (sb, None),
                None => match self.take_warm(view, egress).await {
                    Some(sb) => (sb, None),
                    None => {
                        self.create_sandbox(session, platform, &name, &labels, egress)
                            .await?
                    }
                },
            },
        };
        if sb.labels.get(LABEL_SESSION) != labels.get(LABEL_SESSION)
            || sb.labels.get(LABEL_OUTPOST) != labels.get(LABEL_OUTPOST)
        {
            return Err(ProvisionError::Foreign { id: sb.id, name });
        }
        self.record([Change::Record(RecordChange::Sandbox {
            session: session.clone(),
            id: Some(sb.id.clone()),
        })]);
        let started = self.wait_started(view, sb).await;
        // Create→ready of a sandbox we placed scores its snapshot (`placing.rs`).
        if let Some(p) = &placed {
            self.placed(
                p,
                started.as_ref().map(|_| ()).map_err(|e| format!("{e:#}")),
            );
        }
        Ok(started?)
    }

    /// The sandbox under `name`, unless it is finished for good: one being deleted (CoreWeave
    /// deletes on stop) is waited out, so that a wake creates the next one.
    async fn existing(&self, name: &str) -> Result<Option<SandboxInfo>, ProviderError> {
        let deadline = Instant::now() + self.opts.ready_timeout;
        let waited = poll_until(deadline, GONE_BACKOFF, || async {
            Ok::<_, ProviderError>(match self.provider.get(name).await? {
                Some(sb) if sb.state == SandboxState::Deleted => Poll::Ready(None),
                Some(sb) if sb.state == SandboxState::Deleting => {
                    tracing::debug!(sandbox = %sb.id, "waiting for the old sandbox to go");
                    Poll::Pending(sb)
                }
                other => Poll::Ready(other),
            })
        })
        .await?;
        // Still going after the wait: the caller's start fails on it, saying so.
        Ok(match waited {
            Waited::Ready(found) => found,
            Waited::TimedOut(last) => last,
        })
    }

    async fn create_sandbox(
        &self,
        session: &SessionId,
        platform: Platform,
        name: &str,
        labels: &std::collections::BTreeMap<String, String>,
        egress: &Egress,
    ) -> Result<(SandboxInfo, Option<super::placing::Placed>), ProvisionError> {
        // Read fresh, not from the dispatch view: a watch event may have ended the session
        // while this attempt ran, and nothing would serve an ended session.
        let status = self.book().entry(session).map(|e| e.session_status);
        if let Some(s @ (SessionStatus::Terminated | SessionStatus::Suspended)) = status {
            return Err(anyhow::anyhow!(
                "the session is {} — not creating a sandbox for it",
                s.as_str()
            )
            .into());
        }
        // A snapshot (or image) not quarantined, or due a probe (`placing.rs`).
        let placed = self.place(platform)?;
        let mut spec = SandboxSpec::new(name, placed.source.clone());
        spec.target = placed.target.clone();
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
                Ok((sb, Some(placed)))
            }
            // Created by a call whose answer we lost, or by another replica: adopt it.
            Err(ProviderError::AlreadyExists(_)) => Ok((
                self.provider
                    .get(name)
                    .await?
                    .with_context(|| format!("sandbox {name} exists but cannot be read"))?,
                None,
            )),
            Err(e) => {
                self.refused(&placed, &e);
                Err(e.into())
            }
        }
    }

    /// Wait (up to `ready_timeout`) for the sandbox to be started, starting it once if it is
    /// stopped.
    async fn wait_started(&self, view: &SessionView, sb: SandboxInfo) -> Result<SandboxInfo> {
        let id = sb.id.clone();
        let watch = StartWatch::default();
        // The first look is at the sandbox as given; every later one reads it again.
        let given = Mutex::new(Some(sb));
        let since = Instant::now();
        let waited = poll_until(since + self.opts.ready_timeout, START_BACKOFF, || {
            let (watch, given, id) = (&watch, &given, &id);
            async move {
                let taken = given.lock().unwrap_or_else(|e| e.into_inner()).take();
                let sb =
                    match taken {
                        Some(sb) => sb,
                        None => self.provider.get(id).await?.ok_or_else(|| {
                            anyhow::anyhow!("sandbox {id} vanished while starting")
                        })?,
                    };
                self.start_step(view, sb, watch, since).await
            }
        })
        .await?;
        match waited {
            Waited::Ready(sb) => Ok(sb),
            Waited::TimedOut(last) => anyhow::bail!(
                "sandbox {id} did not start within {:?} (state {})",
                self.opts.ready_timeout,
                last.map(|sb| sb.raw_state).unwrap_or_default()
            ),
        }
    }

    /// One look at a sandbox on its way up: ready; or stopped, and started (once); or failed.
    async fn start_step(
        &self,
        view: &SessionView,
        sb: SandboxInfo,
        watch: &StartWatch,
        since: Instant,
    ) -> Result<Poll<SandboxInfo, SandboxInfo>> {
        let session = &view.id;
        watch.mention_restore(session, &sb, since);
        match sb.state {
            SandboxState::Started => {
                self.emit(OrchEvent::SandboxReady {
                    session: session.into(),
                    sandbox: sb.id.clone(),
                });
                return Ok(Poll::Ready(sb));
            }
            SandboxState::Stopped if !watch.started_it.load(Ordering::Relaxed) => {
                self.provider.start(&sb.id).await?;
                watch.started_it.store(true, Ordering::Relaxed);
                // Stopped because an earlier attempt failed, not because the session slept.
                let retry = view.failed_before;
                self.emit(OrchEvent::SandboxStarted {
                    session: session.into(),
                    sandbox: sb.id.clone(),
                    retry,
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
        Ok(Poll::Pending(sb))
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
