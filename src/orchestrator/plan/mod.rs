//! The pure planner: observed state → actions. No I/O, no clocks; table-tested in `tests.rs`.
//!
//! Every lifecycle rule lives here: what to claim ([`plan`]), what to do for a held session
//! ([`plan_held`]), how memory changes with each outcome ([`track`]), what the janitor may
//! do to a sandbox ([`janitor`]), and what a sleeper is and when its workspace may go
//! ([`retention`]). The executor (`run/` and its stages) carries actions out and
//! reports typed outcomes; it decides nothing.
//!
//! Rules (DESIGN.md "Orchestrator rules", specs §5, §7):
//! - Claim `phase=pending` rows whose status is `pending` or `running`, oldest first, while
//!   held + in-flight + unanswered claims < cap (an unanswered claim may have committed; a
//!   relist begun after it settles it). Never claim `suspended`/`terminated` rows. Never while
//!   draining (SIGTERM). Never a row that lost a race since the last relist or is backing off.
//! - A held session is provisioned (sandbox + remote) until its remote runs; its claim is
//!   renewed `renew_margin` before `claim_deadline`, but no sooner than half the granted TTL
//!   and never twice within `MIN_RENEW_GAP` (`schedule.rs`); a launch that needs a connect
//!   token it does not have renews the claim first (only a claim answer carries one).
//! - A launched remote is checked 1, 5 and 15 s after its launch, then every
//!   `liveness_every`; three exits in a row within 30 s of their launch give the session up.
//! - `terminated` observed once → end with delete. Three strikes → end with stop (disk kept).
//!   While strikes are below three, re-read — but check the remote first: one that exited 0 ends
//!   the session at once (sleep now), only a remote still running is given the strikes.
//! - A remote that exited 0 prompts up to five status re-reads before it is relaunched.
//! - A failed provisioning attempt ends the hold (stop, release) and backs off; after
//!   [`MAX_FAILURES`] failures of a held session it is given up.
//! - Claims stop while [`CLAIM_AHEAD`] rounds of launches are waiting or claiming (held
//!   sessions not yet launched, claims in flight or unanswered).
//! - With other acceptors holding claims in view, claims past an even share of the claimed and
//!   claimable rows take only rows first seen claimable [`share::SHARE_GRACE`] ago (`share.rs`).
//! - A session with an action in flight is never given a second one.
//! - At most `launches` provisionings run at once; the others wait, oldest first.

pub mod failed;
pub mod janitor;
pub mod network;
mod oldest;
pub mod placement;
pub mod retention;
pub mod schedule;
pub mod share;
mod track;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_placement;
#[cfg(test)]
mod tests_schedule;

use std::collections::{BTreeMap, BTreeSet};

use crate::api::devin_types::{Phase, QueueEntry, SessionStatus};
use crate::orchestrator::SessionId;

pub use schedule::{GiveUpReason, ShortTtl, short_ttl};
pub use track::{
    COOL_OFF, CheckResult, ClaimResult, EXIT_REREADS, EndKind, FAILURE_MEMORY, Holder,
    MAX_FAILURES, Outcome, ProvisionFailure, ProvisionResult, RELEASE_RETRY, RemoteState,
    SUSPEND_STRIKES, Sighting, Track, backoff,
};

/// Claims run at most this many rounds of launches (`Limits::launches`) ahead of them.
pub const CLAIM_AHEAD: usize = 2;

/// Knobs the planner needs.
#[derive(Debug, Clone)]
pub struct Limits {
    pub cap: usize,
    /// Most `Provision` actions in flight at once.
    pub launches: usize,
    /// Seconds before `claim_deadline` at which to renew.
    pub renew_margin: f64,
    /// Seconds between liveness checks of a running remote.
    pub liveness_every: f64,
    /// Seconds between status re-reads while counting strikes or after an exit.
    pub reread_every: f64,
    /// Seconds between liveness checks while the session reads `suspended`: the remote's clean
    /// exit, which usually follows within a moment, ends the session at once.
    pub recheck_every: f64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            cap: 5,
            launches: crate::env::MAX_PARALLEL_LAUNCHES.default_count().max(1),
            renew_margin: 60.0,
            liveness_every: 120.0,
            reread_every: 2.0,
            recheck_every: 0.5,
        }
    }
}

/// Everything the planner looks at.
#[derive(Debug)]
pub struct Observed<'a> {
    pub now: f64,
    pub acceptor_id: &'a str,
    /// The latest view of our outpost's queue (full list plus applied watch events).
    pub queue: &'a BTreeMap<String, std::sync::Arc<QueueEntry>>,
    /// When each claimable row was first seen claimable (this process's clock).
    pub pending_since: &'a BTreeMap<String, f64>,
    pub tracks: &'a BTreeMap<String, Track>,
    /// Claims sent whose answer has not arrived.
    pub claiming: &'a BTreeSet<String>,
    /// Sessions with another action (or a janitor act) in flight.
    pub busy: &'a BTreeSet<String>,
    /// How many of those are `Provision` actions.
    pub launching: usize,
    pub limits: &'a Limits,
    /// Shutting down: no new claims.
    pub draining: bool,
}

/// What to do to a session's sandbox when it ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SandboxEnd {
    /// Stop it (disk kept).
    Stop,
    Delete,
    /// Leave it as it is: not ours, or the provider failed too often (the janitor takes over).
    Leave,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    Claim {
        session: SessionId,
    },
    /// Claim again with our acceptor id: a fresh deadline and connect token.
    Renew {
        session: SessionId,
    },
    /// Ensure the sandbox is up and the remote runs.
    Provision {
        session: SessionId,
    },
    /// Check the remote's liveness (and exit code).
    CheckRemote {
        session: SessionId,
    },
    /// GET the session's status once.
    Reread {
        session: SessionId,
    },
    /// Finish the sandbox, then release (while still holding the claim).
    End {
        session: SessionId,
        kind: EndKind,
        sandbox: SandboxEnd,
    },
    /// Start tracking a session the server says we hold (a claim whose answer was lost).
    Adopt {
        session: SessionId,
    },
}

impl Action {
    pub fn session(&self) -> &SessionId {
        match self {
            Action::Claim { session }
            | Action::Renew { session }
            | Action::Provision { session }
            | Action::CheckRemote { session }
            | Action::Reread { session }
            | Action::End { session, .. }
            | Action::Adopt { session } => session,
        }
    }
}

/// Who holds the session according to this queue entry.
pub fn holder(entry: &QueueEntry, me: &str) -> Holder {
    match (&entry.phase, entry.acceptor_id.as_deref()) {
        (Phase::Claimed, Some(a)) if a == me => Holder::Me,
        (Phase::Claimed, _) => Holder::Other,
        _ => Holder::Nobody,
    }
}

/// The sighting a queue entry makes; `deadline` only when the source is trusted for it.
pub fn sighting(entry: &QueueEntry, me: &str, with_deadline: bool) -> Sighting {
    let holder = holder(entry, me);
    Sighting {
        status: Some(entry.session_status),
        holder,
        deadline: (with_deadline && holder == Holder::Me)
            .then_some(entry.claim_deadline)
            .flatten(),
    }
}

/// `row` is an older state of the session than `view` by the server's `updated_at` (the key the
/// queue is ordered by): a replayed watch event, or a listing read before our own claim's
/// answer. Unknown times are never called older.
pub fn older(row: &QueueEntry, view: &QueueEntry) -> bool {
    matches!((row.updated_at, view.updated_at), (Some(r), Some(v)) if r < v)
}

/// Is this row one we may claim?
pub fn claimable(entry: &QueueEntry) -> bool {
    entry.phase == Phase::Pending
        && matches!(
            entry.session_status,
            SessionStatus::Pending | SessionStatus::Running
        )
}

/// Plan one pass.
pub fn plan(o: &Observed<'_>) -> Vec<Action> {
    let mut actions = Vec::new();

    // Sessions the server says we hold but we do not track: adopt them first.
    for (id, entry) in o.queue {
        let ours = holder(entry, o.acceptor_id) == Holder::Me;
        if ours && !o.tracks.get(id).is_some_and(|t| t.held) && !o.claiming.contains(id) {
            actions.push(Action::Adopt { session: id.into() });
        }
    }

    let mut held = 0usize;
    let mut launches = Vec::new();
    for (id, t) in o.tracks {
        if !t.held {
            continue;
        }
        held += 1;
        if o.busy.contains(id) {
            continue;
        }
        match plan_held(o, id, t) {
            Some(a @ Action::Provision { .. }) => launches.push(a),
            Some(a) => actions.push(a),
            None => {}
        }
    }
    // Launches beyond the bound wait their turn, oldest session first; they stay held, so
    // renewals and endings still reach them.
    let waiting = launches.len();
    let slots = o.limits.launches.max(1).saturating_sub(o.launching);
    if launches.len() > slots {
        // Each key read once (two map lookups per comparison made the sort most of a pass).
        let keyed = launches
            .into_iter()
            .map(|a| (o.queue.get(a.session().as_str()).map(|e| e.age_key()), a))
            .collect();
        actions.extend(
            oldest::oldest(keyed, slots, |(age, _)| *age)
                .into_iter()
                .map(|(_, a)| a),
        );
    } else {
        actions.extend(launches);
    }

    if o.draining {
        return actions;
    }
    let adopting = actions
        .iter()
        .filter(|a| matches!(a, Action::Adopt { .. }))
        .count();
    // A claim left unanswered may have committed: it holds a place until a relist settles it
    // (one the view already shows as ours is being adopted, counted above).
    let unsure = o
        .tracks
        .iter()
        .filter(|(id, t)| {
            !t.held
                && t.claim_unsure_since.is_some()
                && !o.claiming.contains(*id)
                && !o
                    .queue
                    .get(*id)
                    .is_some_and(|e| holder(e, o.acceptor_id) == Holder::Me)
        })
        .count();
    let used = held + adopting + unsure + o.claiming.len();
    // Claim no further ahead of the launches than two rounds of them: a session claimed but
    // not launched waits here (and needs renewals) while another replica might serve it now.
    let ahead = waiting + o.launching + adopting + unsure + o.claiming.len();
    let room = (o.limits.cap.saturating_sub(used))
        .min((CLAIM_AHEAD * o.limits.launches.max(1)).saturating_sub(ahead));
    if room == 0 {
        return actions;
    }
    let candidates: Vec<&QueueEntry> = o
        .queue
        .values()
        .map(|e| &**e)
        .filter(|e| claimable(e))
        .filter(|e| !o.claiming.contains(&e.session_id) && !o.busy.contains(&e.session_id))
        .filter(|e| match o.tracks.get(&e.session_id) {
            None => true,
            Some(t) => !t.held && !t.lost_race && t.retry_at.is_none_or(|r| r <= o.now),
        })
        .collect();
    // Past an even share with other replicas, only rows they left for the grace.
    let chosen = match share::room_in_share(o.queue.values().map(|e| &**e), o.acceptor_id, used) {
        Some(fair) if fair < room => {
            let (mut firsts, rest) = oldest::split_oldest(candidates, fair, |e| e.age_key());
            let left: Vec<_> = rest
                .into_iter()
                .filter(|e| share::waited(o.pending_since, &e.session_id, o.now))
                .collect();
            firsts.extend(oldest::oldest(left, room - firsts.len(), |e| e.age_key()));
            firsts
        }
        _ => oldest::oldest(candidates, room, |e| e.age_key()),
    };
    for e in chosen {
        actions.push(Action::Claim {
            session: e.session_id.as_str().into(),
        });
    }
    actions
}

/// The next step for one held session that has nothing in flight.
pub fn plan_held(o: &Observed<'_>, id: &str, t: &Track) -> Option<Action> {
    let session = SessionId::from(id);
    let now = o.now;
    let backing_off = t.retry_at.is_some_and(|r| r > now);
    let end = |kind: EndKind| {
        let sandbox = match kind {
            EndKind::Foreign => SandboxEnd::Leave,
            // The provider failed too often: release anyway rather than hold a slot forever.
            _ if t.end_failures >= MAX_FAILURES => SandboxEnd::Leave,
            EndKind::Terminate => SandboxEnd::Delete,
            EndKind::Sleep | EndKind::Failed | EndKind::GiveUp => SandboxEnd::Stop,
        };
        Some(Action::End {
            session: id.into(),
            kind,
            sandbox,
        })
    };

    // Ending wins over everything else; terminate over sleep, so a terminated session is
    // never merely stopped.
    if t.end_retry_at.is_some_and(|r| r > now) {
        return None;
    }
    let reread_due = t
        .last_reread
        .is_none_or(|at| now - at >= o.limits.reread_every);
    // A view said someone else holds it: nothing is done to it until an exact read says whose.
    if t.holder_doubt {
        return reread_due.then_some(Action::Reread { session });
    }
    if t.terminated {
        return end(EndKind::Terminate);
    }
    if t.strikes >= SUSPEND_STRIKES {
        return end(EndKind::Sleep);
    }
    if let Some(kind) = t.failed {
        return end(kind);
    }
    if t.failures >= MAX_FAILURES || t.early_exits >= schedule::EARLY_EXIT_LIMIT {
        return end(EndKind::GiveUp);
    }
    if t.strikes > 0 {
        return match &t.remote {
            // The remote's clean exit is the documented end of the session: with the session
            // suspended or gone, sleep now. The strikes are for blips while it still runs.
            RemoteState::Exited { code: 0, .. } => end(EndKind::Sleep),
            // Has it exited? Checked before counting more strikes, and again every
            // `recheck_every` while the status says suspended.
            RemoteState::Running { checked_at }
                if t.last_strike.is_some_and(|s| *checked_at < s)
                    || now - checked_at >= o.limits.recheck_every =>
            {
                Some(Action::CheckRemote { session })
            }
            _ => reread_due.then_some(Action::Reread { session }),
        };
    }
    // Keep the claim alive before anything slow — at a pace the TTL allows (`schedule`):
    // between renewals the session's other work goes on.
    if let Some(deadline) = t.claim_deadline
        && now >= schedule::renew_at(t, deadline, o.limits)
    {
        return Some(Action::Renew { session });
    }
    match &t.remote {
        RemoteState::Exited { code: 0, .. } if t.rereads < EXIT_REREADS => {
            reread_due.then_some(Action::Reread { session })
        }
        // Soon after a launch (1 s, 5 s, 15 s), then every `liveness_every`.
        RemoteState::Running { checked_at } => (now
            >= schedule::next_check(t, *checked_at, o.limits))
        .then_some(Action::CheckRemote { session }),
        _ if backing_off => None,
        // Known not running, and launching needs a connect token only a claim answer carries.
        RemoteState::NotRunning if !t.has_token => {
            schedule::renew_allowed(t, now).then_some(Action::Renew { session })
        }
        // Unknown, NotRunning, a crash, or an exit 0 the status never explained: (re)provision.
        _ => Some(Action::Provision { session }),
    }
}

/// Drop memory of sessions that no longer need it (unheld, idle, failures forgotten).
pub fn forget(tracks: &mut BTreeMap<String, Track>, busy: &BTreeSet<String>, now: f64) {
    tracks.retain(|id, t| keep_track(t, busy.contains(id), now));
}

/// Whether one session's memory is still needed (`busy`: an action other than a claim is in
/// flight for it).
pub fn keep_track(t: &Track, busy: bool, now: f64) -> bool {
    busy || t.worth_keeping(now)
}
