//! Sleeping sessions: what this instance remembers of each (its stopped, archived or snapshotted
//! sandbox, since when it sleeps, since when its session is absent from the queue), and the
//! one rule that may delete a sleeper's workspace without `terminated`: the operator's
//! `SLEEP_RETENTION`, counted from when the session was last seen in the queue.
//!
//! The absence clock starts at the first complete listing without the session, resets whenever
//! the session shows up again, and is kept in the state dir, so a restart neither resets nor
//! skips it. Without a retention setting nothing is ever deleted here.

use serde::{Deserialize, Serialize};

/// One sleeping session's sandbox, as this instance saw it last.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sleeper {
    /// The sandbox's name (the same for every sandbox of the session).
    pub sandbox: String,
    /// Its id, while a sandbox exists (CoreWeave keeps only a workspace snapshot).
    pub sandbox_id: Option<String>,
    /// `stopped`, `archived` or `snapshot`.
    pub state: String,
    /// When it went to sleep (or was first seen asleep).
    pub slept_since: f64,
    /// Since when the session has been absent from the queue (`None`: present, or unknown).
    pub absent_since: Option<f64>,
}

impl Sleeper {
    /// When the retention setting lets the workspace go, if it ever does.
    pub fn deadline(&self, retention: Option<f64>) -> Option<f64> {
        Some(self.absent_since? + retention?)
    }
}

/// What to do with one sleeper.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Keep {
    Keep,
    /// Retention is up: delete it (after an exact read confirms the session is still absent).
    Delete {
        slept_for: f64,
        absent_for: f64,
    },
}

/// Move the absence clock: `present` is whether the session is in the queue view, `None` when
/// the view cannot say (a listing with unreadable entries: nothing is inferred from it).
pub fn observe(s: &mut Sleeper, present: Option<bool>, now: f64) {
    match present {
        Some(true) => s.absent_since = None,
        Some(false) => {
            s.absent_since.get_or_insert(now);
        }
        None => {}
    }
}

/// The verdict for one sleeper at `now` under `retention` (seconds; `None` = off).
pub fn verdict(s: &Sleeper, retention: Option<f64>, now: f64) -> Keep {
    match s.deadline(retention) {
        Some(d) if now >= d => Keep::Delete {
            slept_for: now - s.slept_since,
            absent_for: now - s.absent_since.unwrap_or(now),
        },
        _ => Keep::Keep,
    }
}

/// The verdict for one sleeper, knowing whether this instance (or one before it, through the
/// state dir) saw its session `terminated`. A terminated session never comes back: its snapshot
/// goes at once, whatever the retention. A sandbox that still exists is the janitor's (it
/// confirms by the exact read and deletes), so only snapshots are decided here.
pub fn decide(s: &Sleeper, retention: Option<f64>, now: f64, known_terminated: bool) -> Keep {
    match verdict(s, retention, now) {
        Keep::Keep if known_terminated && s.state == "snapshot" => Keep::Delete {
            slept_for: now - s.slept_since,
            absent_for: 0.0,
        },
        v => v,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sleeper() -> Sleeper {
        Sleeper {
            sandbox: "devin-s-1".into(),
            sandbox_id: Some("sb".into()),
            state: "stopped".into(),
            slept_since: 100.0,
            absent_since: None,
        }
    }

    #[test]
    fn nothing_is_deleted_without_a_retention_setting() {
        let mut s = sleeper();
        observe(&mut s, Some(false), 110.0);
        for now in [110.0, 1e6, 1e12] {
            assert_eq!(verdict(&s, None, now), Keep::Keep);
        }
    }

    #[test]
    fn retention_counts_continuous_absence_and_resets_on_return() {
        let mut s = sleeper();
        // Present: no clock.
        observe(&mut s, Some(true), 110.0);
        assert_eq!(verdict(&s, Some(5.0), 1000.0), Keep::Keep);
        // Absent from 120: deleted at 125, not before.
        observe(&mut s, Some(false), 120.0);
        observe(&mut s, Some(false), 123.0);
        assert_eq!(s.absent_since, Some(120.0), "the clock keeps its start");
        assert_eq!(verdict(&s, Some(5.0), 124.9), Keep::Keep);
        assert_eq!(s.deadline(Some(5.0)), Some(125.0));
        // Back in the queue before the window ends: the clock starts over.
        observe(&mut s, Some(true), 124.0);
        assert_eq!(verdict(&s, Some(5.0), 126.0), Keep::Keep);
        observe(&mut s, Some(false), 130.0);
        assert_eq!(verdict(&s, Some(5.0), 134.0), Keep::Keep);
        assert_eq!(
            verdict(&s, Some(5.0), 135.0),
            Keep::Delete {
                slept_for: 35.0,
                absent_for: 5.0
            }
        );
    }

    #[test]
    fn an_unreadable_listing_neither_starts_nor_resets_the_clock() {
        let mut s = sleeper();
        observe(&mut s, None, 120.0);
        assert_eq!(s.absent_since, None);
        observe(&mut s, Some(false), 130.0);
        observe(&mut s, None, 140.0);
        assert_eq!(s.absent_since, Some(130.0));
    }

    #[test]
    fn a_remembered_termination_ends_a_snapshot_sleeper_at_once() {
        let mut snap = sleeper();
        snap.state = "snapshot".into();
        observe(&mut snap, Some(false), 110.0);
        // (sleeper state, retention, termination remembered) → verdict at 120.
        let cases = [
            ("snapshot", None, true, true),
            ("snapshot", Some(1e6), true, true),
            ("snapshot", None, false, false),
            ("snapshot", Some(1e6), false, false),
            // A sandbox left: the janitor's exact read decides (and deletes), not retention.
            ("stopped", None, true, false),
            ("stopped", None, false, false),
        ];
        for (state, retention, known, deleted) in cases {
            let mut s = snap.clone();
            s.state = state.into();
            let v = decide(&s, retention, 120.0, known);
            assert_eq!(
                matches!(v, Keep::Delete { .. }),
                deleted,
                "{state} retention={retention:?} known={known}: {v:?}"
            );
        }
    }
}
