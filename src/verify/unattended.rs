//! `session verify --create`: the whole proof without a person. Create a Devin session on the
//! outpost through the v3 API with the proof task as its prompt, follow it (queued → claimed →
//! running → proof file found), and read the file back from that session's own sandbox.
//!
//! The session's sandbox is the orchestrator's (hashed name, checked label) or, for a fixed
//! worker, the sandbox whose name is the claim's acceptor id (`worker launch` sets
//! `DEVIN_WORKER_ACCEPTOR_ID` to it) — which needs the fleet API to read the claim. Ending the
//! session is the caller's job, so it happens whatever this returns.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;

use super::{Target, compare, locate};
use crate::api::devin::DevinClient;
use crate::api::devin_v3::{DevinV3Client, StatusDetail, V3Error, V3Session, V3Status};
use crate::provider::{Provider, ProviderError, ProviderKind, SandboxInfo, SandboxState};
use crate::worker::{LABEL_ROLE, ROLE_WORKER};

/// How far a proof session got, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    Queued,
    Claimed,
    Running,
    ProofFound,
}

impl Stage {
    pub fn label(self) -> &'static str {
        match self {
            Stage::Queued => "queued",
            Stage::Claimed => "claimed",
            Stage::Running => "running",
            Stage::ProofFound => "proof file found",
        }
    }

    /// What a wait that ended at this stage stalled on.
    pub fn stall(self) -> &'static str {
        match self {
            Stage::Queued => "never claimed",
            Stage::Claimed => "claimed but never running",
            Stage::Running | Stage::ProofFound => "running but no proof file",
        }
    }
}

/// What following the session saw, stage by stage (for progress output).
#[derive(Debug)]
pub enum Event<'a> {
    Reached {
        stage: Stage,
        session: &'a V3Session,
        sandbox: Option<&'a SandboxInfo>,
        acceptor: Option<&'a str>,
    },
    /// A read that may pass (API hiccup, sandbox starting).
    Retrying { error: &'a str },
}

/// How following ended.
#[derive(Debug)]
pub enum Followed {
    /// The file was read from the session's sandbox (it may still not match).
    Found {
        sandbox: SandboxInfo,
        bytes: Vec<u8>,
        session: V3Session,
    },
    /// The session ended (`exit`/`error`) before the file appeared.
    Ended { reached: Stage, session: V3Session },
    /// The wait ran out at this stage.
    Stalled {
        reached: Stage,
        session: Option<V3Session>,
        sandbox: Option<SandboxInfo>,
        last_error: Option<String>,
    },
    /// The session is served, but by no sandbox on this provider (a wrong `--provider`).
    Elsewhere(Elsewhere),
    /// The session runs, in no orchestrated sandbox here, while fixed workers run here: which
    /// of them holds it only the claim says, and reading it needs the fleet API's token.
    WorkersNeedToken {
        session: V3Session,
        workers: Vec<String>,
    },
}

/// Who serves a session that has no sandbox on the provider given.
#[derive(Debug)]
pub struct Elsewhere {
    pub reached: Stage,
    pub session: V3Session,
    /// The claim's acceptor id, when the fleet API was read.
    pub holder: Option<String>,
    /// The holder is a fixed worker (its sandbox was found on another provider).
    pub holder_is_worker: bool,
    /// The provider and sandbox that serve it, when another configured provider has it.
    pub found_on: Option<(ProviderKind, String)>,
}

#[derive(Debug, thiserror::Error)]
pub enum FollowError {
    #[error(transparent)]
    V3(#[from] V3Error),
    #[error(transparent)]
    Provider(#[from] ProviderError),
}

/// Everything following needs.
pub struct Follow<'a> {
    pub v3: &'a DevinV3Client,
    /// Reads the claim's acceptor id (fixed workers); optional.
    pub fleet: Option<&'a DevinClient>,
    pub provider: &'a dyn Provider,
    pub session_id: &'a str,
    pub proof: &'a str,
    pub path: &'a str,
    pub wait: Duration,
    pub poll: Duration,
    /// The other configured providers, searched once the session is known not to be here.
    pub elsewhere: &'a [Arc<dyn Provider>],
}

/// Whether the absence of any sandbox of the session on this provider is certain: its v3
/// status reads `running` now (its machine is up, so its sandbox exists wherever it runs), seen
/// on two polls in a row so that a list lagging behind a create is not taken for an absence. A
/// sandbox still being created (claimed, not running) or a sleeper (suspended) is never certain.
pub fn absence_certain(status: &V3Status, misses: u32) -> bool {
    *status == V3Status::Running && misses >= 2
}

/// A fixed worker's sandbox: named by the acceptor id and labelled as a worker.
async fn worker_sandbox(
    provider: &dyn Provider,
    acceptor: &str,
) -> Result<Option<SandboxInfo>, ProviderError> {
    Ok(provider.get(acceptor).await?.filter(|sb| {
        sb.state != SandboxState::Deleted
            && sb.labels.get(LABEL_ROLE).map(String::as_str) == Some(ROLE_WORKER)
    }))
}

impl Follow<'_> {
    async fn find_sandbox(
        &self,
        acceptor: Option<&str>,
    ) -> Result<Option<SandboxInfo>, FollowError> {
        let target = Target::Session(self.session_id.to_string());
        match locate(self.provider, &target).await {
            Ok(Some(sb)) => return Ok(Some(sb)),
            Ok(None) => {}
            Err(super::ResolveError::Provider(e)) => return Err(e.into()),
            // A foreign or ambiguous sandbox is not this session's: keep looking elsewhere.
            Err(e) => tracing::debug!("no orchestrated sandbox: {e}"),
        }
        match acceptor {
            Some(a) => Ok(worker_sandbox(self.provider, a).await?),
            None => Ok(None),
        }
    }

    /// A fixed worker on another provider named `acceptor`: its sandbox exists before it
    /// claims, so finding it there is certain at once.
    async fn worker_elsewhere(&self, acceptor: &str) -> Option<(ProviderKind, String)> {
        for p in self.elsewhere {
            if let Ok(Some(sb)) = worker_sandbox(p.as_ref(), acceptor).await {
                return Some((p.kind(), sb.name));
            }
        }
        None
    }

    /// The session's orchestrated sandbox on another provider.
    async fn orchestrated_elsewhere(&self) -> Option<(ProviderKind, String)> {
        let target = Target::Session(self.session_id.to_string());
        for p in self.elsewhere {
            if let Ok(Some(sb)) = locate(p.as_ref(), &target).await {
                return Some((p.kind(), sb.name));
            }
        }
        None
    }

    /// The fixed workers on this provider (names).
    async fn workers_here(&self) -> Result<Vec<String>, FollowError> {
        let filter = [(LABEL_ROLE.to_string(), ROLE_WORKER.to_string())].into();
        Ok(self
            .provider
            .list(&filter)
            .await?
            .into_iter()
            .filter(|sb| sb.state != SandboxState::Deleted)
            .map(|sb| sb.name)
            .collect())
    }

    /// The session runs with no sandbox of ours here: who serves it, as far as can be seen
    /// (`None`: the claim names a sandbox here after all).
    async fn not_here(
        &self,
        reached: Stage,
        session: &V3Session,
        holder: Option<&str>,
    ) -> Result<Option<Followed>, FollowError> {
        // A sandbox here named by the claim (a worker launched by another tool, without our
        // labels) is not an absence: keep waiting.
        if let Some(h) = holder
            && let Ok(Some(sb)) = self.provider.get(h).await
            && sb.state != SandboxState::Deleted
        {
            return Ok(None);
        }
        let elsewhere = Elsewhere {
            reached,
            session: session.clone(),
            holder: holder.map(str::to_string),
            holder_is_worker: false,
            found_on: self.orchestrated_elsewhere().await,
        };
        if elsewhere.found_on.is_none() && self.fleet.is_none() {
            let workers = self.workers_here().await?;
            if !workers.is_empty() {
                return Ok(Some(Followed::WorkersNeedToken {
                    session: session.clone(),
                    workers,
                }));
            }
        }
        Ok(Some(Followed::Elsewhere(elsewhere)))
    }

    /// Follow until the file is read, the session ends, or `wait` runs out.
    pub async fn run(&self, mut on: impl FnMut(Event<'_>)) -> Result<Followed, FollowError> {
        let start = Instant::now();
        let mut reached: Option<Stage> = None;
        let mut session: Option<V3Session> = None;
        let mut sandbox: Option<SandboxInfo> = None;
        let mut last_error: Option<String> = None;
        // A file that does not match yet: Devin may still be writing it.
        let mut seen: Option<Vec<u8>> = None;
        // Polls in a row that found no sandbox of the running session here.
        let mut misses = 0u32;
        // The acceptor already looked for on the other providers.
        let mut looked_for: Option<String> = None;
        loop {
            match self.v3.get_session(self.session_id).await {
                Ok(s) => session = Some(s),
                Err(e) if e.is_auth() => return Err(e.into()),
                Err(e) => {
                    let text = e.to_string();
                    on(Event::Retrying { error: &text });
                    last_error = Some(text);
                }
            }
            let acceptor = match self.fleet {
                Some(f) => f.get(self.session_id).await.ok().flatten().and_then(|e| {
                    (e.phase == crate::api::devin::Phase::Claimed)
                        .then_some(e.acceptor_id)
                        .flatten()
                }),
                None => None,
            };
            if let Some(s) = &session {
                let now = match s.status {
                    V3Status::Running => Stage::Running,
                    V3Status::Claimed => Stage::Claimed,
                    _ if acceptor.is_some() => Stage::Claimed,
                    _ => Stage::Queued,
                };
                let now = now.max(reached.unwrap_or(Stage::Queued));
                if sandbox.is_none() && now >= Stage::Claimed {
                    sandbox = self.find_sandbox(acceptor.as_deref()).await?;
                }
                for stage in [Stage::Queued, Stage::Claimed, Stage::Running] {
                    if stage <= now && reached.is_none_or(|r| r < stage) {
                        on(Event::Reached {
                            stage,
                            session: s,
                            sandbox: sandbox.as_ref(),
                            acceptor: acceptor.as_deref(),
                        });
                    }
                }
                reached = Some(now);
                if sandbox.is_none() && now >= Stage::Claimed && !s.status.ended() {
                    if let Some(a) = acceptor.as_deref()
                        && looked_for.as_deref() != Some(a)
                    {
                        looked_for = Some(a.to_string());
                        if let Some(found) = self.worker_elsewhere(a).await {
                            return Ok(Followed::Elsewhere(Elsewhere {
                                reached: now,
                                session: s.clone(),
                                holder: Some(a.to_string()),
                                holder_is_worker: true,
                                found_on: Some(found),
                            }));
                        }
                    }
                    misses = if s.status == V3Status::Running {
                        misses + 1
                    } else {
                        0
                    };
                    if absence_certain(&s.status, misses)
                        && let Some(out) = self.not_here(now, s, acceptor.as_deref()).await?
                    {
                        return Ok(out);
                    }
                } else {
                    misses = 0;
                }
            }
            if let (Some(sb), Some(s)) = (&sandbox, &session) {
                let left = self.wait.saturating_sub(start.elapsed());
                let limit = left.clamp(Duration::from_secs(5), Duration::from_secs(60));
                let read = tokio::time::timeout(limit, self.provider.read_file(&sb.id, self.path))
                    .await
                    .unwrap_or(Err(ProviderError::Timeout(limit)));
                match read {
                    Ok(Some(bytes)) => {
                        let done =
                            matches!(compare(self.proof, &bytes), super::Comparison::Match { .. })
                                || s.status_detail == Some(StatusDetail::Finished)
                                || s.status.ended();
                        if done {
                            // A file in its sandbox proves the session ran there, even when the
                            // v3 status has not caught up yet: stages are shown in order.
                            if reached.is_none_or(|r| r < Stage::Running) {
                                on(Event::Reached {
                                    stage: Stage::Running,
                                    session: s,
                                    sandbox: Some(sb),
                                    acceptor: acceptor.as_deref(),
                                });
                            }
                            on(Event::Reached {
                                stage: Stage::ProofFound,
                                session: s,
                                sandbox: Some(sb),
                                acceptor: acceptor.as_deref(),
                            });
                            return Ok(Followed::Found {
                                sandbox: sb.clone(),
                                bytes,
                                session: s.clone(),
                            });
                        }
                        seen = Some(bytes);
                    }
                    Ok(None) => {}
                    Err(ProviderError::NotFound(_)) => sandbox = None,
                    Err(ProviderError::Api(a)) if a.is_auth() => {
                        return Err(ProviderError::Api(a).into());
                    }
                    Err(e) => {
                        let text = e.to_string();
                        on(Event::Retrying { error: &text });
                        last_error = Some(text);
                    }
                }
            }
            if let Some(s) = &session
                && s.status.ended()
            {
                return Ok(Followed::Ended {
                    reached: reached.unwrap_or(Stage::Queued),
                    session: s.clone(),
                });
            }
            let left = self.wait.saturating_sub(start.elapsed());
            if left.is_zero() {
                // A file that never matched is still the answer: show what was found.
                if let (Some(bytes), Some(sb), Some(s)) = (seen, &sandbox, &session) {
                    return Ok(Followed::Found {
                        sandbox: sb.clone(),
                        bytes,
                        session: s.clone(),
                    });
                }
                return Ok(Followed::Stalled {
                    reached: reached.unwrap_or(Stage::Queued),
                    session,
                    sandbox,
                    last_error,
                });
            }
            // Not poll_until: each look moves the stages on (events in order) and keeps the
            // session, sandbox and file last seen, which a timeout answers with; sharing that with
            // an attempt closure would take RefCells for no gain.
            tokio::time::sleep(self.poll.min(left)).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stages_are_ordered_and_name_their_stall() {
        assert!(Stage::Queued < Stage::Claimed && Stage::Running < Stage::ProofFound);
        assert_eq!(Stage::Queued.stall(), "never claimed");
        assert_eq!(Stage::Claimed.stall(), "claimed but never running");
        assert_eq!(Stage::Running.stall(), "running but no proof file");
    }

    #[test]
    fn an_absence_is_certain_only_for_a_running_session_seen_twice() {
        assert!(absence_certain(&V3Status::Running, 2));
        assert!(!absence_certain(&V3Status::Running, 1));
        // Claimed: its sandbox may still be being created. Suspended: a sleeper's sandbox may
        // be gone until it wakes.
        assert!(!absence_certain(&V3Status::Claimed, 5));
        assert!(!absence_certain(&V3Status::Suspended, 5));
        assert!(!absence_certain(&V3Status::Exit, 5));
    }
}
