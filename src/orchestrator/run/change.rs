//! The vocabulary of the executor's state: what a stage reports as changed ([`Change`]), what
//! can be in flight for a session ([`ActionKind`]), and the values the records hold.

use std::collections::BTreeMap;

use crate::api::devin_types::QueueEntry;
use crate::api::network_policy::NetworkPolicy;
use crate::orchestrator::SessionId;
use crate::orchestrator::plan::retention::Sleeper;
use crate::orchestrator::plan::{Action, Outcome};
use crate::orchestrator::sleep::Fleet;
use crate::secrets::Secret;

/// The session's claim material, in memory only.
#[derive(Debug, Clone)]
pub(in crate::orchestrator) struct ClaimInfo {
    pub token: Secret,
    pub gateway: Option<String>,
    pub sha: Option<String>,
    /// The policy the claim answer carried (lists may omit it: specs §9 question 6).
    pub network_policy: Option<Result<NetworkPolicy, String>>,
}

/// What the cap does to the queue right now.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Capacity {
    pub held: usize,
    pub waiting: usize,
}

/// What is in flight for a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::orchestrator) enum ActionKind {
    Claim,
    Adopt,
    Renew,
    Provision,
    CheckRemote,
    Reread,
    End,
    /// The janitor acting on the session's sandbox (a stop, a delete, a sleeper retired).
    Janitor,
}

impl ActionKind {
    pub fn of(action: &Action) -> ActionKind {
        match action {
            Action::Claim { .. } => ActionKind::Claim,
            Action::Adopt { .. } => ActionKind::Adopt,
            Action::Renew { .. } => ActionKind::Renew,
            Action::Provision { .. } => ActionKind::Provision,
            Action::CheckRemote { .. } => ActionKind::CheckRemote,
            Action::Reread { .. } => ActionKind::Reread,
            Action::End { .. } => ActionKind::End,
        }
    }
}

/// One change a stage reports; `Book::apply` carries it out. Closed and nested by what it
/// changes, so each group's apply is an exhaustive match: a change nobody applies does not
/// compile.
#[derive(Debug)]
pub(in crate::orchestrator) enum Change {
    View(ViewChange),
    Record(RecordChange),
    Loop(LoopChange),
}

/// The queue view, the planner's memory and the in-flight map.
#[derive(Debug)]
pub(in crate::orchestrator) enum ViewChange {
    /// Fold an outcome into the session's track.
    Fold {
        session: SessionId,
        outcome: Outcome,
    },
    /// A queue row, as a read, an event, an answer or a listing being read showed it (shared
    /// with the listing: see `Book::shared_row`).
    Row(std::sync::Arc<QueueEntry>),
    /// The session is not in the queue any more.
    RowGone(String),
    /// A full listing: the view is replaced; tracks not worth keeping are forgotten.
    Listed {
        rows: BTreeMap<String, std::sync::Arc<QueueEntry>>,
        complete: bool,
    },
    /// Our claim was released without an answer row: the view must not keep saying we hold it.
    RowReleased {
        session: SessionId,
        acceptor: String,
    },
    /// Something is in flight for the session now (only when nothing was: the caller checked
    /// under the same lock).
    Start {
        session: SessionId,
        kind: ActionKind,
    },
    /// The action of this kind is done.
    Finish {
        session: SessionId,
        kind: ActionKind,
    },
}

/// A session's record (and the sleepers and terminations kept in the state dir).
#[derive(Debug)]
pub(in crate::orchestrator) enum RecordChange {
    /// Claim material from a claim answer (the sha of the last launch is kept when the answer
    /// pins none).
    Claim {
        session: SessionId,
        claim: ClaimInfo,
    },
    /// The remote build the session's launch used.
    RemoteSha {
        session: SessionId,
        sha: String,
    },
    /// The connect token the session's remote was launched with: it lives in the sandbox for
    /// the remote's life (renewals' fresh tokens do not reach it), so it stays masked while the
    /// claim is held.
    Launched {
        session: SessionId,
        token: Secret,
    },
    /// The claim is let go: its material and sandbox with it.
    LetGo(SessionId),
    Sandbox {
        session: SessionId,
        id: Option<String>,
    },
    ServedWarm {
        session: SessionId,
        warm: bool,
    },
    Refusal {
        session: SessionId,
        reason: Option<String>,
    },
    ExitLog {
        session: SessionId,
        line: String,
    },
    /// A provisioning attempt failed for this reason (`None`: it succeeded).
    Failure {
        session: SessionId,
        reason: Option<String>,
    },
    Sleeper {
        session: SessionId,
        sleeper: Option<Sleeper>,
    },
    /// Every sleeper at once (after a janitor review).
    Sleepers(BTreeMap<String, Sleeper>),
    /// The server said the session is `terminated`.
    Terminated(String),
    FirstSeen {
        session: SessionId,
        sandbox: String,
    },
}

/// The loop's own bookkeeping (what the status file shows of it).
#[derive(Debug)]
pub(in crate::orchestrator) enum LoopChange {
    Fleet(Fleet),
    Capacity(Capacity),
    TtlWarned,
    Draining,
    RelistDue(bool),
    /// Something the status file shows changed.
    Dirty,
    StatusSaved(f64),
}
