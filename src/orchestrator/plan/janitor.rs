//! The janitor's verdicts: what may be done to a sandbox that carries our outpost's label but
//! that no live work of ours explains — a crash between create and record, a lost stop, a
//! terminated session nobody deleted.
//!
//! It fails closed: a sandbox is touched only when an exact GET of its session (not the
//! eventually consistent list) says what to do, the sandbox is older than the creation grace,
//! nobody holds the session's claim, and this instance is not working on it. It deletes only
//! sandboxes of `terminated` sessions — seen so by the exact GET, or, when the entry is gone
//! by then, seen so earlier in a list or watch event of this instance (the queue sweeps ended
//! rows quickly, and a terminated session never comes back); absent or suspended sessions'
//! sandboxes are stopped with their disks kept.

use crate::api::devin_types::{Phase, QueueEntry, SessionStatus};
use crate::orchestrator::{LABEL_OUTPOST, LABEL_SESSION};
use crate::provider::{SandboxInfo, SandboxState};

/// The exact lookup of a sandbox's session.
#[derive(Debug, Clone)]
pub enum Lookup {
    /// The queue could not be read: do nothing.
    Failed,
    /// 404: the session is suspended or gone (never proof of termination).
    Absent,
    /// 404 now, but this instance saw the session `terminated` (in a list or watch event)
    /// before its entry was swept. A terminated session never comes back.
    SweptAfterTermination,
    Found(Box<QueueEntry>),
}

/// What the janitor did to a sandbox: the `action` of its event and of its metric's label.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum JanitorAction {
    /// Stopped (disk kept): its session is suspended or absent.
    Stopped,
    /// Deleted: its session was terminated.
    Deleted,
    /// A sleeper's workspace deleted because `SLEEP_RETENTION` ran out.
    RetentionDeleted,
    /// A failed (or `error`) sandbox deleted because `FAILED_KEEP` ran out ([`super::failed`]).
    FailedReaped,
}

impl JanitorAction {
    pub const ALL: [JanitorAction; 4] = [
        JanitorAction::Stopped,
        JanitorAction::Deleted,
        JanitorAction::RetentionDeleted,
        JanitorAction::FailedReaped,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            JanitorAction::Stopped => "stopped",
            JanitorAction::Deleted => "deleted",
            JanitorAction::RetentionDeleted => "retention_deleted",
            JanitorAction::FailedReaped => "failed_reaped",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Skip(&'static str),
    /// Nothing rules it out yet: look the session up (exactly), then decide again.
    NeedsLookup,
    Stop,
    Delete,
    /// Delete a failed sandbox whose `FAILED_KEEP` ran out (its workspace snapshots stay).
    Reap,
}

impl Verdict {
    /// The act a verdict asks for, if any.
    pub fn action(&self) -> Option<JanitorAction> {
        match self {
            Verdict::Stop => Some(JanitorAction::Stopped),
            Verdict::Delete => Some(JanitorAction::Deleted),
            Verdict::Reap => Some(JanitorAction::FailedReaped),
            Verdict::Skip(_) | Verdict::NeedsLookup => None,
        }
    }
}

/// The session a sandbox belongs to, if its labels say it is ours.
pub fn owner<'a>(sandbox: &'a SandboxInfo, outpost_id: &str) -> Option<&'a str> {
    if sandbox.labels.get(LABEL_OUTPOST).map(String::as_str) != Some(outpost_id) {
        return None;
    }
    sandbox
        .labels
        .get(LABEL_SESSION)
        .map(String::as_str)
        .filter(|s| !s.is_empty())
}

/// A sandbox's age in seconds at `now`: from its creation time, or, when the provider reports
/// none, from when the janitor first saw it (`first_seen`); and whether that clock starts now.
/// Only such a sandbox gets a first sighting kept: one kept for every sandbox listed held a
/// record for every other replica's session too (11.0 MB of one replica's 41.3 MB heap peak at
/// 15,000 sessions over three, heaptrack).
pub fn age(created_at: Option<f64>, first_seen: Option<f64>, now: f64) -> (f64, bool) {
    match (created_at, first_seen) {
        (Some(created), _) => (now - created, false),
        (None, Some(first)) => (now - first, false),
        (None, None) => (0.0, true),
    }
}

/// What the janitor knows of one sandbox before (and after) looking its session up.
#[derive(Debug, Clone, Copy)]
pub struct Seen {
    /// Seconds since it was created (or first seen, when the provider does not say).
    pub age: f64,
    pub grace: f64,
    /// This instance is working on the session.
    pub active: bool,
    /// This instance saw the session `terminated` (list, watch or read).
    pub known_terminated: bool,
    /// This instance's queue view shows another acceptor holding the session's claim, its
    /// deadline still ahead: a replica is serving it. Without this, every replica looked up
    /// every other replica's sessions on every sweep (1.86 reads per session-minute at 30,000
    /// over three replicas).
    pub held_elsewhere: bool,
}

/// Decide for one sandbox. Without a `lookup` the cheap rules run first and
/// [`Verdict::NeedsLookup`] asks for one — so a sandbox we would not touch anyway costs no API
/// call. The creation grace protects only sandboxes whose session the janitor cannot explain: a
/// session known `terminated` is looked up, and deleted, whatever its sandbox's age.
pub fn decide(
    sandbox: &SandboxInfo,
    outpost_id: &str,
    seen: Seen,
    lookup: Option<&Lookup>,
) -> Verdict {
    const YOUNG: Verdict = Verdict::Skip("younger than the creation grace");
    if owner(sandbox, outpost_id).is_none() {
        return Verdict::Skip("labels are not ours");
    }
    if seen.active {
        return Verdict::Skip("this instance is serving the session");
    }
    if matches!(
        sandbox.state,
        SandboxState::Deleting | SandboxState::Deleted
    ) {
        return Verdict::Skip("already going away");
    }
    let young = seen.age < seen.grace;
    let stopped = matches!(
        sandbox.state,
        SandboxState::Stopped | SandboxState::Stopping
    );
    let Some(lookup) = lookup else {
        return if seen.held_elsewhere {
            // What the lookup would say; a stale view only delays the sweep by a pass.
            Verdict::Skip("someone holds the claim")
        } else if young && !seen.known_terminated {
            YOUNG
        } else {
            Verdict::NeedsLookup
        };
    };
    match lookup {
        Lookup::Failed => Verdict::Skip("the queue could not be read"),
        Lookup::Found(e) if e.phase == Phase::Claimed => Verdict::Skip("someone holds the claim"),
        Lookup::Found(e) if e.session_status == SessionStatus::Terminated => Verdict::Delete,
        Lookup::SweptAfterTermination => Verdict::Delete,
        _ if young => YOUNG,
        Lookup::Found(e) => match e.session_status {
            SessionStatus::Suspended if !stopped => Verdict::Stop,
            SessionStatus::Suspended => Verdict::Skip("asleep and already stopped"),
            SessionStatus::Pending | SessionStatus::Running => {
                Verdict::Skip("waiting to be claimed")
            }
            SessionStatus::Terminated | SessionStatus::Unknown => Verdict::Skip("status unknown"),
        },
        Lookup::Absent if !stopped => Verdict::Stop,
        Lookup::Absent => Verdict::Skip("absent and already stopped"),
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::api::devin_types::{Kind, Platform};
    use std::collections::BTreeMap;

    fn sandbox(state: SandboxState, outpost: Option<&str>, session: Option<&str>) -> SandboxInfo {
        let mut labels = BTreeMap::new();
        if let Some(o) = outpost {
            labels.insert(LABEL_OUTPOST.to_string(), o.to_string());
        }
        if let Some(s) = session {
            labels.insert(LABEL_SESSION.to_string(), s.to_string());
        }
        SandboxInfo {
            id: "sb".into(),
            name: "n".into(),
            state,
            raw_state: String::new(),
            disk: crate::provider::Disk::Attached,
            labels,
            created_at: None,
            error_reason: None,
            containers: vec![],
            egress: crate::provider::Egress::Open,
        }
    }

    #[test]
    fn only_a_sandbox_without_a_creation_time_starts_a_first_sighting_clock() {
        let cases = [
            (Some(40.0), None, (60.0, false)),
            (Some(40.0), Some(90.0), (60.0, false)),
            (None, Some(90.0), (10.0, false)),
            (None, None, (0.0, true)),
        ];
        for (created, first, want) in cases {
            assert_eq!(age(created, first, 100.0), want, "{created:?} {first:?}");
        }
    }

    /// Session "s"'s queue entry in `phase` and `status` (also read by `plan/failed.rs`).
    pub(in crate::orchestrator::plan) fn found(phase: Phase, status: SessionStatus) -> Lookup {
        Lookup::Found(Box::new(QueueEntry {
            session_id: "s".into(),
            outpost_id: None,
            created_at: None,
            updated_at: None,
            kind: Kind::New,
            platform: Platform::Linux,
            remote_binary_sha: None,
            network_policy: None,
            phase,
            acceptor_id: None,
            claim_deadline: None,
            session_status: status,
            connect_token: None,
            gateway_url: None,
        }))
    }

    #[test]
    fn table() {
        use SandboxState::*;
        use Verdict::*;
        let ours = |st| sandbox(st, Some("o"), Some("s"));
        let rows: Vec<(SandboxInfo, f64, bool, Lookup, Verdict)> = vec![
            // Not ours: never touched, whatever the queue says.
            (
                sandbox(Started, Some("other"), Some("s")),
                999.0,
                false,
                found(Phase::Pending, SessionStatus::Terminated),
                Skip("labels are not ours"),
            ),
            (
                sandbox(Started, Some("o"), None),
                999.0,
                false,
                Lookup::Absent,
                Skip("labels are not ours"),
            ),
            (
                sandbox(Started, None, None),
                999.0,
                false,
                Lookup::Absent,
                Skip("labels are not ours"),
            ),
            // Ours but busy, young, or unreadable queue: fail closed.
            (
                ours(Started),
                999.0,
                true,
                found(Phase::Pending, SessionStatus::Terminated),
                Skip("this instance is serving the session"),
            ),
            // Young, but its session is known terminated: deleted all the same (the grace is
            // for sandboxes the janitor cannot explain).
            (
                ours(Started),
                10.0,
                false,
                found(Phase::Pending, SessionStatus::Terminated),
                Delete,
            ),
            (
                ours(Started),
                10.0,
                false,
                found(Phase::Pending, SessionStatus::Suspended),
                Skip("younger than the creation grace"),
            ),
            (
                ours(Started),
                999.0,
                false,
                Lookup::Failed,
                Skip("the queue could not be read"),
            ),
            // Claimed by anyone: hands off.
            (
                ours(Started),
                999.0,
                false,
                found(Phase::Claimed, SessionStatus::Running),
                Skip("someone holds the claim"),
            ),
            (
                ours(Started),
                999.0,
                false,
                found(Phase::Claimed, SessionStatus::Terminated),
                Skip("someone holds the claim"),
            ),
            // Terminated and unclaimed: delete (also when stopped).
            (
                ours(Started),
                999.0,
                false,
                found(Phase::Pending, SessionStatus::Terminated),
                Delete,
            ),
            (
                ours(Stopped),
                999.0,
                false,
                found(Phase::Pending, SessionStatus::Terminated),
                Delete,
            ),
            // Asleep or absent: stop, keep the disk; never delete.
            (
                ours(Started),
                999.0,
                false,
                found(Phase::Pending, SessionStatus::Suspended),
                Stop,
            ),
            (
                ours(Stopped),
                999.0,
                false,
                found(Phase::Pending, SessionStatus::Suspended),
                Skip("asleep and already stopped"),
            ),
            (ours(Started), 999.0, false, Lookup::Absent, Stop),
            (
                ours(Stopped),
                999.0,
                false,
                Lookup::Absent,
                Skip("absent and already stopped"),
            ),
            // Absent, but seen terminated before the entry went: delete (also when stopped);
            // still never young, busy or foreign ones.
            (
                ours(Stopped),
                999.0,
                false,
                Lookup::SweptAfterTermination,
                Delete,
            ),
            (
                ours(Started),
                999.0,
                false,
                Lookup::SweptAfterTermination,
                Delete,
            ),
            (
                ours(Started),
                10.0,
                false,
                Lookup::SweptAfterTermination,
                Delete,
            ),
            (
                ours(Started),
                999.0,
                true,
                Lookup::SweptAfterTermination,
                Skip("this instance is serving the session"),
            ),
            (
                sandbox(Started, Some("other"), Some("s")),
                999.0,
                false,
                Lookup::SweptAfterTermination,
                Skip("labels are not ours"),
            ),
            // Waiting to be claimed (maybe by us next pass), or unknown: leave it.
            (
                ours(Stopped),
                999.0,
                false,
                found(Phase::Pending, SessionStatus::Pending),
                Skip("waiting to be claimed"),
            ),
            (
                ours(Started),
                999.0,
                false,
                found(Phase::Pending, SessionStatus::Running),
                Skip("waiting to be claimed"),
            ),
            (
                ours(Started),
                999.0,
                false,
                found(Phase::Unknown, SessionStatus::Unknown),
                Skip("status unknown"),
            ),
            (
                ours(Deleting),
                999.0,
                false,
                found(Phase::Pending, SessionStatus::Terminated),
                Skip("already going away"),
            ),
        ];
        for (i, (sb, age, active, lookup, want)) in rows.into_iter().enumerate() {
            // The executor looks a young sandbox's session up only when it saw it terminated.
            let known_terminated = match &lookup {
                Lookup::SweptAfterTermination => true,
                Lookup::Found(e) => e.session_status == SessionStatus::Terminated,
                _ => false,
            };
            let seen = Seen {
                age,
                grace: 60.0,
                active,
                known_terminated,
                held_elsewhere: false,
            };
            assert_eq!(decide(&sb, "o", seen, Some(&lookup)), want, "row {i}");
            // Without a lookup: the same skip when a cheap rule decides, else "look it up".
            let cheap = decide(&sb, "o", seen, None);
            match &want {
                Verdict::Skip(why)
                    if [
                        "labels are not ours",
                        "this instance is serving the session",
                        "younger than the creation grace",
                        "already going away",
                    ]
                    .contains(why) =>
                {
                    assert_eq!(cheap, want, "row {i} without a lookup")
                }
                _ => assert_eq!(cheap, Verdict::NeedsLookup, "row {i} without a lookup"),
            }
        }
        // Young and not known terminated: no lookup at all.
        let young = Seen {
            age: 10.0,
            grace: 60.0,
            active: false,
            known_terminated: false,
            held_elsewhere: false,
        };
        assert_eq!(
            decide(&ours(Started), "o", young, None),
            Skip("younger than the creation grace")
        );
        // Another replica holds the claim in our view: no lookup, whatever the state or age;
        // a lookup still decides when one was made.
        for state in [Started, Stopped, Error] {
            for known_terminated in [false, true] {
                let elsewhere = Seen {
                    age: 999.0,
                    known_terminated,
                    held_elsewhere: true,
                    ..young
                };
                assert_eq!(
                    decide(&ours(state), "o", elsewhere, None),
                    Skip("someone holds the claim"),
                    "{state:?} known_terminated={known_terminated}"
                );
                let pending = found(Phase::Pending, SessionStatus::Terminated);
                assert_eq!(decide(&ours(state), "o", elsewhere, Some(&pending)), Delete);
            }
        }
        let mine = Seen {
            active: true,
            held_elsewhere: true,
            ..young
        };
        assert_eq!(
            decide(&ours(Started), "o", mine, None),
            Skip("this instance is serving the session")
        );
    }
}
