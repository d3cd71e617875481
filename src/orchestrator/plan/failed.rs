//! Failed sandboxes: kept stopped for `FAILED_KEEP` so an operator can look at them, then
//! reaped by the janitor. A sandbox is failed when its session's failure record is still open
//! (not served since, not reaped), or when the provider reports it in `error` (its clock starts
//! when the janitor first sees it so).
//!
//! Reaping never touches a sleeping session's workspace: a session this instance knows asleep,
//! or one the exact lookup shows `suspended` or cannot find (absent may be asleep), keeps its
//! sandbox whatever its failures — only `terminated` or `SLEEP_RETENTION` may delete it. So a
//! failed sandbox is reaped only when its session is in the queue, unclaimed, and `pending` or
//! `running` (given up, or waiting for its next attempt): the next attempt then starts over on a
//! fresh sandbox.

use super::janitor::{Lookup, Verdict};
use crate::api::devin_types::{Kind, Phase, SessionStatus};
use crate::provider::SandboxState;

/// What the janitor knows of one of our sandboxes, for this rule.
#[derive(Debug, Clone, Copy)]
pub struct FailedSeen {
    pub state: SandboxState,
    /// Since when it counts as failed: its open failure record's time, or when the janitor
    /// first saw it in `error`; `None` when it is not failed.
    pub failed_since: Option<f64>,
    /// This instance keeps the session as a sleeper, or its failure record says it had slept.
    pub sleeper: bool,
    /// This instance is working on the session.
    pub active: bool,
    /// `FAILED_KEEP`, seconds.
    pub keep: f64,
    pub now: f64,
}

/// Whether the rule applies at all: a failed sandbox (or one in `error`), not going away.
pub fn applies(seen: &FailedSeen) -> bool {
    (seen.failed_since.is_some() || seen.state == SandboxState::Error)
        && !matches!(seen.state, SandboxState::Deleting | SandboxState::Deleted)
}

/// When the kept sandbox may go (`None`: not failed).
pub fn reap_at(seen: &FailedSeen) -> Option<f64> {
    Some(seen.failed_since? + seen.keep)
}

/// The verdict on a failed sandbox, given the janitor's own verdict `base` and the exact
/// lookup of its session. The janitor's deletions (terminated sessions) stand; otherwise a
/// failed sandbox is kept until `FAILED_KEEP` ran out and then reaped when its session allows.
pub fn decide(base: Verdict, seen: &FailedSeen, lookup: Option<&Lookup>) -> Verdict {
    if !applies(seen) || base == Verdict::Delete {
        return base;
    }
    if seen.active {
        return Verdict::Skip("this instance is serving the session");
    }
    let due = reap_at(seen).is_some_and(|at| seen.now >= at);
    // The janitor's stop of a running sandbox (its session asleep or absent) stands: the disk
    // is kept either way.
    let keep = |why| match base {
        Verdict::Stop => Verdict::Stop,
        _ => Verdict::Skip(why),
    };
    let Some(lookup) = lookup else {
        return if due && !seen.sleeper {
            Verdict::NeedsLookup
        } else {
            base
        };
    };
    if seen.sleeper {
        return keep(SLEEPS);
    }
    if !due {
        // In `error` and not seen so before: the clock starts now.
        return keep("failed: kept for FAILED_KEEP");
    }
    match lookup {
        Lookup::Failed => Verdict::Skip("the queue could not be read"),
        Lookup::SweptAfterTermination => Verdict::Delete,
        Lookup::Absent => keep("failed, but its session is absent (maybe asleep)"),
        Lookup::Found(e) if e.phase == Phase::Claimed => Verdict::Skip("someone holds the claim"),
        // A resumed session's sandbox holds the workspace it slept with.
        Lookup::Found(e)
            if e.kind == Kind::Resume && e.session_status != SessionStatus::Terminated =>
        {
            keep(SLEEPS)
        }
        Lookup::Found(e) => match e.session_status {
            SessionStatus::Terminated => Verdict::Delete,
            SessionStatus::Pending | SessionStatus::Running => Verdict::Reap,
            SessionStatus::Suspended => keep(SLEEPS),
            SessionStatus::Unknown => Verdict::Skip("status unknown"),
        },
    }
}

const SLEEPS: &str = "failed, but its session sleeps: the workspace is kept";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::orchestrator::plan::janitor::tests::found;
    use SandboxState::*;

    const DAY: f64 = 86_400.0;

    fn resumed() -> Lookup {
        match found(Phase::Pending, SessionStatus::Running) {
            Lookup::Found(mut e) => {
                e.kind = Kind::Resume;
                Lookup::Found(e)
            }
            other => other,
        }
    }

    fn seen(state: SandboxState, failed_since: Option<f64>, now: f64) -> FailedSeen {
        FailedSeen {
            state,
            failed_since,
            sleeper: false,
            active: false,
            keep: DAY,
            now,
        }
    }

    #[test]
    fn table_with_time() {
        let waiting = Verdict::Skip("waiting to be claimed");
        let pending = || found(Phase::Pending, SessionStatus::Pending);
        let rows: Vec<(&str, FailedSeen, Verdict, Option<Lookup>, Verdict)> = vec![
            // Not failed: the janitor's verdict stands.
            (
                "healthy",
                seen(Stopped, None, 5.0 * DAY),
                waiting.clone(),
                Some(pending()),
                waiting.clone(),
            ),
            // Failed, within FAILED_KEEP: kept (no lookup needed).
            (
                "kept 1s before, cheap",
                seen(Stopped, Some(0.0), DAY - 1.0),
                Verdict::NeedsLookup,
                None,
                Verdict::NeedsLookup,
            ),
            (
                "young but due, cheap",
                seen(Error, Some(0.0), DAY),
                Verdict::Skip("younger than the creation grace"),
                None,
                Verdict::NeedsLookup,
            ),
            (
                "young, not due, cheap",
                seen(Error, Some(0.0), 5.0),
                Verdict::Skip("younger than the creation grace"),
                None,
                Verdict::Skip("younger than the creation grace"),
            ),
            (
                "kept, lookup pending",
                seen(Stopped, Some(0.0), DAY - 1.0),
                waiting.clone(),
                Some(pending()),
                Verdict::Skip("failed: kept for FAILED_KEEP"),
            ),
            // Exactly at FAILED_KEEP and after: reaped when its session is waiting or running.
            (
                "due, needs lookup",
                seen(Stopped, Some(0.0), DAY),
                Verdict::NeedsLookup,
                None,
                Verdict::NeedsLookup,
            ),
            (
                "due, pending",
                seen(Stopped, Some(0.0), DAY),
                waiting.clone(),
                Some(pending()),
                Verdict::Reap,
            ),
            (
                "due, running",
                seen(Started, Some(0.0), 2.0 * DAY),
                waiting.clone(),
                Some(found(Phase::Pending, SessionStatus::Running)),
                Verdict::Reap,
            ),
            // An error-state sandbox: its clock starts when first seen, then the same rule.
            (
                "error, first seen",
                seen(Error, None, 10.0),
                waiting.clone(),
                Some(pending()),
                Verdict::Skip("failed: kept for FAILED_KEEP"),
            ),
            (
                "error, kept",
                seen(Error, Some(10.0), DAY),
                waiting.clone(),
                Some(pending()),
                Verdict::Skip("failed: kept for FAILED_KEEP"),
            ),
            (
                "error, due",
                seen(Error, Some(10.0), DAY + 10.0),
                waiting.clone(),
                Some(pending()),
                Verdict::Reap,
            ),
            (
                "error, due, stop asked",
                seen(Error, Some(10.0), DAY + 10.0),
                Verdict::Stop,
                Some(pending()),
                Verdict::Reap,
            ),
            // A sleeper's workspace is never reaped, however long it failed.
            (
                "asleep per lookup",
                seen(Stopped, Some(0.0), 9.0 * DAY),
                Verdict::Skip("asleep and already stopped"),
                Some(found(Phase::Pending, SessionStatus::Suspended)),
                Verdict::Skip("failed, but its session sleeps: the workspace is kept"),
            ),
            (
                "running, asleep per lookup",
                seen(Started, Some(0.0), 9.0 * DAY),
                Verdict::Stop,
                Some(found(Phase::Pending, SessionStatus::Suspended)),
                Verdict::Stop,
            ),
            (
                "error, kept, absent",
                seen(Error, Some(0.0), 5.0),
                Verdict::Stop,
                Some(Lookup::Absent),
                Verdict::Stop,
            ),
            (
                "known sleeper",
                FailedSeen {
                    sleeper: true,
                    ..seen(Stopped, Some(0.0), 9.0 * DAY)
                },
                waiting.clone(),
                Some(pending()),
                Verdict::Skip("failed, but its session sleeps: the workspace is kept"),
            ),
            (
                "resumed session",
                seen(Stopped, Some(0.0), 9.0 * DAY),
                waiting.clone(),
                Some(resumed()),
                Verdict::Skip("failed, but its session sleeps: the workspace is kept"),
            ),
            (
                "absent",
                seen(Stopped, Some(0.0), 9.0 * DAY),
                Verdict::Skip("absent and already stopped"),
                Some(Lookup::Absent),
                Verdict::Skip("failed, but its session is absent (maybe asleep)"),
            ),
            // Claimed by anyone, served by us, or an unreadable queue: hands off.
            (
                "claimed",
                seen(Stopped, Some(0.0), 9.0 * DAY),
                Verdict::Skip("someone holds the claim"),
                Some(found(Phase::Claimed, SessionStatus::Running)),
                Verdict::Skip("someone holds the claim"),
            ),
            (
                "active",
                FailedSeen {
                    active: true,
                    ..seen(Error, Some(0.0), 9.0 * DAY)
                },
                Verdict::Skip("this instance is serving the session"),
                Some(pending()),
                Verdict::Skip("this instance is serving the session"),
            ),
            (
                "queue unreadable",
                seen(Stopped, Some(0.0), 9.0 * DAY),
                Verdict::Skip("the queue could not be read"),
                Some(Lookup::Failed),
                Verdict::Skip("the queue could not be read"),
            ),
            // Terminated: deleted, as the janitor says anyway (even within FAILED_KEEP).
            (
                "terminated",
                seen(Stopped, Some(0.0), 1.0),
                Verdict::Delete,
                Some(found(Phase::Pending, SessionStatus::Terminated)),
                Verdict::Delete,
            ),
            (
                "swept",
                seen(Error, Some(0.0), 9.0 * DAY),
                Verdict::Skip("x"),
                Some(Lookup::SweptAfterTermination),
                Verdict::Delete,
            ),
            // Going away already: nothing to do.
            (
                "deleting",
                seen(Deleting, Some(0.0), 9.0 * DAY),
                Verdict::Skip("already going away"),
                Some(pending()),
                Verdict::Skip("already going away"),
            ),
        ];
        for (name, s, base, lookup, want) in rows {
            assert_eq!(decide(base, &s, lookup.as_ref()), want, "{name}");
        }
    }
}
