//! One listing of the outpost's sandboxes, taken in a sandbox at a time as its pages arrive
//! (issue 35): what the janitor's pass and the fleet counts need of it, without the listing.
//! A replica of three at 30,000 sessions held every sandbox of the outpost whole to count it —
//! 30,000 records of about 1.5 KB, two thirds of them other replicas' sandboxes.

use std::collections::HashSet;

use super::plan::retention::{Asleep, SleepState};
use super::run::Book;
use super::sleep::Fleet;
use crate::provider::{SandboxInfo, SandboxState};

/// What this instance's book says of a listed sandbox's session when the sandbox is counted.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Known {
    /// The queue view names another acceptor as its holder.
    pub other_holder: bool,
    /// This instance is working on it.
    pub active: bool,
    pub sleeper: bool,
    /// Seen `terminated` (list, watch or read).
    pub terminated: bool,
}

impl Known {
    pub fn of(book: &Book, session: &str, me: &str) -> Known {
        Known {
            other_holder: book
                .entry(session)
                .and_then(|e| e.acceptor_id.as_deref())
                .is_some_and(|a| a != me),
            active: book.active(session),
            sleeper: book.sleeper(session).is_some(),
            terminated: book.known_terminated(session),
        }
    }
}

/// The counts and the few sandboxes a pass keeps of one listing.
#[derive(Debug)]
pub(super) struct Census {
    fleet: Fleet,
    /// Stopped (or stopping) sandboxes: the sleepers' refresh.
    stopped: Vec<Asleep>,
    /// Sessions whose sandbox was listed and that could be sleepers when the pass reviews
    /// them: stopped, asleep already, or being worked on (it may go to sleep before the
    /// review). A sleeper stays while its sandbox is listed; other replicas' sessions are
    /// none of these, and are not kept.
    listed: HashSet<String>,
    /// Sandboxes, not deleted, of sessions known terminated (a gauge).
    terminated_left: usize,
}

impl Census {
    /// An empty census of a listing taken at `t` (Unix seconds).
    pub fn new(t: f64) -> Census {
        Census {
            fleet: Fleet {
                counted_at: Some(t),
                ..Fleet::default()
            },
            stopped: Vec::new(),
            listed: HashSet::new(),
            terminated_left: 0,
        }
    }

    /// Count one sandbox, labelled for `session` (the outpost's sandboxes only).
    pub fn add(&mut self, sb: &SandboxInfo, session: &str, known: Known) {
        if sb.state != SandboxState::Deleted && known.terminated {
            self.terminated_left += 1;
        }
        let asleep = Asleep::of(session, sb);
        if asleep.is_some() || known.sleeper || known.active {
            self.listed.insert(session.to_string());
        }
        let f = &mut self.fleet;
        match (&sb.state, &asleep) {
            (SandboxState::Deleting | SandboxState::Deleted | SandboxState::Error, _) => return,
            (_, Some(a)) if a.state == SleepState::Archived => f.archived += 1,
            (_, Some(_)) => f.sleeping += 1,
            (_, None) => f.running += 1,
        }
        if known.other_holder {
            f.other_replicas += 1;
        }
        self.stopped.extend(asleep);
    }

    /// The fleet's counts, with the sleepers left only as snapshots (never listed).
    pub fn fleet(&self, snapshots: usize) -> Fleet {
        Fleet {
            sleeping: self.fleet.sleeping + snapshots,
            ..self.fleet
        }
    }

    pub fn stopped(&self) -> &[Asleep] {
        &self.stopped
    }

    /// Was `session`'s sandbox listed (asked only of sleepers)?
    pub fn listed(&self, session: &str) -> bool {
        self.listed.contains(session)
    }

    pub fn terminated_left(&self) -> usize {
        self.terminated_left
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::provider::Disk;

    /// A sandbox `id` named `devin-id` (the sleeper rules' test sandbox).
    fn sb(state: SandboxState, disk: Disk) -> SandboxInfo {
        crate::orchestrator::plan::retention::tests::sb("id", state, disk)
    }

    const OTHER: Known = Known {
        other_holder: true,
        active: false,
        sleeper: false,
        terminated: false,
    };
    const MINE: Known = Known {
        other_holder: false,
        active: true,
        sleeper: false,
        terminated: false,
    };
    const NOBODY: Known = Known {
        other_holder: false,
        active: false,
        sleeper: false,
        terminated: false,
    };

    #[test]
    fn counts_each_sandbox_once_by_state_and_keeps_only_what_a_sleeper_needs() {
        use SandboxState as S;
        let asleep = Known {
            sleeper: true,
            ..NOBODY
        };
        let ended = Known {
            terminated: true,
            ..NOBODY
        };
        // (state, disk, known) -> (running, sleeping, archived, other, stopped kept, listed)
        let cases = [
            (S::Started, Disk::Attached, MINE, (1, 0, 0, 0, false, true)),
            (
                S::Started,
                Disk::Attached,
                OTHER,
                (1, 0, 0, 1, false, false),
            ),
            (
                S::Creating,
                Disk::Attached,
                NOBODY,
                (1, 0, 0, 0, false, false),
            ),
            (S::Stopped, Disk::Attached, NOBODY, (0, 1, 0, 0, true, true)),
            (S::Stopping, Disk::Attached, OTHER, (0, 1, 0, 1, true, true)),
            (S::Stopped, Disk::Archived, NOBODY, (0, 0, 1, 0, true, true)),
            (S::Error, Disk::Attached, asleep, (0, 0, 0, 0, false, true)),
            (S::Error, Disk::Attached, OTHER, (0, 0, 0, 0, false, false)),
            (
                S::Deleting,
                Disk::Attached,
                ended,
                (0, 0, 0, 0, false, false),
            ),
            (
                S::Started,
                Disk::Attached,
                asleep,
                (1, 0, 0, 0, false, true),
            ),
        ];
        for (state, disk, known, want) in cases {
            let mut c = Census::new(5.0);
            c.add(&sb(state, disk), "s", known);
            let f = c.fleet(0);
            let got = (
                f.running,
                f.sleeping,
                f.archived,
                f.other_replicas,
                !c.stopped().is_empty(),
                c.listed("s"),
            );
            assert_eq!(got, want, "{state:?} {disk:?} {known:?}");
            assert_eq!(f.counted_at, Some(5.0));
        }
    }

    #[test]
    fn snapshots_count_as_asleep_and_terminated_leftovers_are_counted_until_deleted() {
        let ended = Known {
            terminated: true,
            ..NOBODY
        };
        let mut c = Census::new(0.0);
        c.add(&sb(SandboxState::Stopped, Disk::Attached), "a", NOBODY);
        c.add(&sb(SandboxState::Started, Disk::Attached), "b", ended);
        c.add(&sb(SandboxState::Deleting, Disk::Attached), "c", ended);
        c.add(&sb(SandboxState::Deleted, Disk::Attached), "d", ended);
        assert_eq!(c.fleet(2).sleeping, 3);
        assert_eq!(c.terminated_left(), 2);
        let a = &c.stopped()[0];
        assert_eq!(
            (
                a.session.as_str(),
                a.sandbox.as_str(),
                a.sandbox_id.as_str()
            ),
            ("a", "devin-id", "id")
        );
    }

    #[test]
    fn other_replicas_sandboxes_leave_nothing_behind_but_counts() {
        // The point of the census: a replica's pass over 30,000 sandboxes, 20,000 of them
        // other replicas', keeps per-sandbox data only for its own sessions and sleepers.
        let mut c = Census::new(0.0);
        for i in 0..1000 {
            c.add(
                &sb(SandboxState::Started, Disk::Attached),
                &format!("o{i}"),
                OTHER,
            );
        }
        assert_eq!(
            (c.fleet(0).running, c.fleet(0).other_replicas),
            (1000, 1000)
        );
        assert!(c.stopped().is_empty() && c.listed.is_empty());
    }
}
