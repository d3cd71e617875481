//! `session verify --create --sleep-cycle`: after the proof file is read, put the proof session
//! to sleep, wait for its sandbox to stop, wake it, wait until it is served again, and read the
//! file once more — the proof that what went to sleep came back.
//!
//! Devin's v3 sessions API has no suspend or resume (specs/devin-sessions-api.md §2–3: create,
//! get, list, messages, end), so the cycle is driven through the emulator's admin API
//! (`POST /_emulator/sessions/{id}/suspend|resume`). Against a real Devin API it is refused
//! before anything is created (`commands/session/verify_sleep.rs`).

use std::path::Path;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::api::http::ApiError;
use crate::orchestrator::integrity::IntegrityRow;
use crate::poll::{Backoff, Poll, Waited, poll_until};
use crate::provider::{Provider, ProviderError, SandboxInfo, SandboxState};

const STEP: Backoff = Backoff::growing(Duration::from_millis(200), Duration::from_secs(2));

/// What suspends and resumes a session. Devin's v3 API has neither, so the command layer
/// hands the emulator's admin API in (verify/ does not name the emulator: DESIGN.md's map).
#[async_trait::async_trait]
pub trait SessionControl: Sync {
    /// The session's generation (a wake starts a new one) and its status as reads show it;
    /// `None` when the session is unknown.
    async fn state(&self, session: &str) -> Result<Option<(u32, String)>, ApiError>;
    async fn suspend(&self, session: &str) -> Result<(), ApiError>;
    async fn resume(&self, session: &str) -> Result<(), ApiError>;
}

/// A step of the cycle, for narration and for saying where it stalled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CycleStep {
    Suspended,
    /// Its sandbox stopped (or, on CoreWeave, was snapshotted and removed).
    Asleep,
    Resumed,
    /// Its remote connected again from a started sandbox.
    Served,
    /// The proof file was read again.
    Read,
}

impl CycleStep {
    pub fn label(self) -> &'static str {
        match self {
            CycleStep::Suspended => "suspended",
            CycleStep::Asleep => "asleep",
            CycleStep::Resumed => "resumed",
            CycleStep::Served => "served again",
            CycleStep::Read => "proof file read again",
        }
    }

    /// Where a cycle that stopped after this step stalled.
    pub fn stall(self) -> &'static str {
        match self {
            CycleStep::Suspended => "suspended, but its sandbox never went to sleep",
            CycleStep::Asleep | CycleStep::Resumed => "woken, but never served again",
            CycleStep::Served => "served again, but the proof file could not be read",
            CycleStep::Read => "done",
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum CycleError {
    #[error("the emulator's admin API: {0}")]
    Admin(#[from] ApiError),
    #[error(transparent)]
    Provider(#[from] ProviderError),
    #[error("session {0} is not known to the emulator")]
    NoSession(String),
}

/// What the cycle came to.
#[derive(Debug)]
pub enum Cycled {
    /// Served again; what the file holds now (`None`: it is gone).
    Read {
        sandbox: SandboxInfo,
        bytes: Option<Vec<u8>>,
    },
    /// The wait ran out after `reached`; the sandbox as last seen.
    Stalled {
        reached: CycleStep,
        sandbox: Option<SandboxInfo>,
    },
}

/// One sleep cycle of `session`, whose file at `path` was read from `sandbox`.
pub struct SleepCycle<'a> {
    pub admin: &'a dyn SessionControl,
    pub provider: &'a dyn Provider,
    pub session_id: &'a str,
    pub sandbox: &'a SandboxInfo,
    pub path: &'a str,
    /// For the whole cycle.
    pub wait: Duration,
}

impl SleepCycle<'_> {
    /// Run it, calling `on` at each step reached.
    pub async fn run(&self, mut on: impl FnMut(CycleStep)) -> Result<Cycled, CycleError> {
        let deadline = Instant::now() + self.wait;
        let (before, _) = self
            .admin
            .state(self.session_id)
            .await?
            .ok_or_else(|| CycleError::NoSession(self.session_id.into()))?;
        self.admin.suspend(self.session_id).await?;
        on(CycleStep::Suspended);
        let asleep = poll_until(deadline, STEP, || async {
            Ok::<_, CycleError>(match self.provider.get(&self.sandbox.name).await? {
                None => Poll::Ready(None),
                Some(sb) if is_asleep(sb.state) => Poll::Ready(Some(sb)),
                Some(sb) => Poll::Pending(sb),
            })
        })
        .await?;
        if let Waited::TimedOut(last) = asleep {
            return Ok(Cycled::Stalled {
                reached: CycleStep::Suspended,
                sandbox: last,
            });
        }
        on(CycleStep::Asleep);
        self.admin.resume(self.session_id).await?;
        on(CycleStep::Resumed);
        // Served: the woken entry (a later generation) is running — its remote connected —
        // and the session's sandbox is started.
        let served = poll_until(deadline, STEP, || async {
            let s = self.admin.state(self.session_id).await?;
            let running =
                s.is_some_and(|(generation, status)| generation > before && status == "running");
            let sb = self.provider.get(&self.sandbox.name).await?;
            Ok::<_, CycleError>(match sb {
                Some(sb) if running && sb.state == SandboxState::Started => Poll::Ready(sb),
                other => Poll::Pending(other),
            })
        })
        .await?;
        let sandbox = match served {
            Waited::Ready(sb) => sb,
            Waited::TimedOut(last) => {
                return Ok(Cycled::Stalled {
                    reached: CycleStep::Resumed,
                    sandbox: last.flatten(),
                });
            }
        };
        on(CycleStep::Served);
        let bytes = self.provider.read_file(&sandbox.id, self.path).await?;
        on(CycleStep::Read);
        Ok(Cycled::Read { sandbox, bytes })
    }
}

/// Asleep: stopped or archived, its disk kept (a CoreWeave sleeper is a snapshot, its sandbox
/// gone: [`SleepCycle::run`] takes an absent sandbox as asleep too).
fn is_asleep(state: SandboxState) -> bool {
    matches!(state, SandboxState::Stopped | SandboxState::Deleted)
}

/// The wake's integrity verdict for `session` checked at or after `since` (Unix seconds), from
/// an orchestrator's status file under the state dir `root` (any outpost's). `None`: no
/// orchestrator state here, or no check recorded yet.
pub fn wake_verdict(root: &Path, session: &str, since: f64) -> Option<IntegrityRow> {
    // Read only: nothing is created in a state dir that belongs to an orchestrator.
    std::fs::read_dir(root.join("outposts"))
        .ok()?
        .flatten()
        .filter_map(|e| std::fs::read_to_string(e.path().join("status.json")).ok())
        .filter_map(|t| serde_json::from_str::<crate::orchestrator::StatusFile>(&t).ok())
        .flat_map(|f| f.wake_integrity)
        .filter(|r| r.session_id == session && r.checked_at >= since)
        .max_by(|a, b| a.checked_at.total_cmp(&b.checked_at))
}
