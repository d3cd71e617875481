//! What the orchestrator tells about itself as it works (narration, logs, tests); the words
//! are in `narrate.rs`.

use serde::Serialize;

use crate::orchestrator::SessionId;
use crate::orchestrator::plan::{EndKind, janitor::JanitorAction};

/// What happened, for narration (`demo`) and tests. Never carries a secret.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum OrchEvent {
    Claimed {
        session: SessionId,
    },
    ClaimConflict {
        session: SessionId,
    },
    Adopted {
        session: SessionId,
    },
    SandboxCreated {
        session: SessionId,
        sandbox: String,
        /// Served from a provider's warm pool (a started sandbox that existed before the create).
        warm: bool,
    },
    SandboxStarted {
        session: SessionId,
        sandbox: String,
        /// Started to try again after a failed provisioning attempt (it never slept), not woken.
        retry: bool,
    },
    SandboxReady {
        session: SessionId,
        sandbox: String,
    },
    RemoteLaunched {
        session: SessionId,
        sandbox: String,
        /// Whether the launch reused a cached binary (`cached=yes` of the launch line; a baked
        /// snapshot makes the first launch one); `None` when it did not say (CLI, Windows).
        cached: Option<bool>,
    },
    RemoteRunning {
        session: SessionId,
        sandbox: String,
    },
    RemoteExited {
        session: SessionId,
        code: i32,
    },
    Released {
        session: SessionId,
    },
    SandboxStopped {
        session: SessionId,
        sandbox: String,
    },
    SandboxDeleted {
        session: SessionId,
        sandbox: String,
    },
    SandboxLost {
        session: SessionId,
        sandbox: String,
    },
    Failed {
        session: SessionId,
        error: String,
    },
    Janitor {
        session: SessionId,
        sandbox: String,
        action: JanitorAction,
    },
    /// Not served: the session's network policy cannot be enforced here.
    Refused {
        session: SessionId,
        reason: String,
    },
    /// The session's claim was let go after its sandbox was finished.
    Ended {
        session: SessionId,
        how: EndHow,
    },
    /// A woken session's files compared with the manifest its sleep recorded (`integrity/`).
    WakeIntegrity {
        session: SessionId,
        #[serde(flatten)]
        verdict: crate::orchestrator::integrity::Verdict,
        /// How long the check took.
        seconds: f64,
    },
    /// Sessions wait in the queue because the cap is reached (said again when the numbers change).
    AtCapacity {
        held: usize,
        cap: usize,
        waiting: usize,
    },
}

/// How a session ended, as its `ended` event says (`slept`, `terminated`, `failed`, `foreign`,
/// `given_up`).
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum EndHow {
    Slept,
    Terminated,
    Failed,
    Foreign,
    GivenUp,
}

impl From<EndKind> for EndHow {
    fn from(kind: EndKind) -> Self {
        match kind {
            EndKind::Sleep => EndHow::Slept,
            EndKind::Terminate => EndHow::Terminated,
            EndKind::Failed => EndHow::Failed,
            EndKind::Foreign => EndHow::Foreign,
            EndKind::GiveUp => EndHow::GivenUp,
        }
    }
}
