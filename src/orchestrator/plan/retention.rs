//! Sleeping sessions: what this instance remembers of each (its stopped, archived or snapshotted
//! sandbox, since when it sleeps, since when its session is absent from the queue), and the
//! one rule that may delete a sleeper's workspace without `terminated`: the operator's
//! `SLEEP_RETENTION`, counted from when the session was last seen in the queue.
//!
//! The absence clock starts at the first complete listing without the session, resets whenever
//! the session shows up again, and is kept in the state dir, so a restart neither resets nor
//! skips it. Without a retention setting nothing is ever deleted here.
//!
//! Also here: what a sleeper is (a stopped, archived or snapshotted sandbox, [`asleep_as`],
//! [`left_after_sleep`]), which listed sandboxes are sleepers ([`refresh`]), and what the
//! exact read before a deletion allows ([`retire_step`]). The executor (`sleep.rs`) only
//! reads, deletes and reports.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::janitor::{JanitorAction, Lookup};
use crate::api::devin_types::SessionStatus;
use crate::provider::{SandboxInfo, SandboxState};

/// What is left of a sleeping session's sandbox. Serialised as the lowercase names the state
/// file and the status file have always carried (`stopped`, `archived`, `snapshot`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SleepState {
    /// A stopped sandbox, its disk attached.
    Stopped,
    /// A stopped sandbox whose disk is in (or on its way to) the provider's archive.
    Archived,
    /// No sandbox any more: only a snapshot of its workspace (CoreWeave).
    Snapshot,
}

impl SleepState {
    pub fn as_str(self) -> &'static str {
        match self {
            SleepState::Stopped => "stopped",
            SleepState::Archived => "archived",
            SleepState::Snapshot => "snapshot",
        }
    }
}

/// One sleeping session's sandbox, as this instance saw it last.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sleeper {
    /// The sandbox's name (the same for every sandbox of the session).
    pub sandbox: String,
    /// Its id, while a sandbox exists (CoreWeave keeps only a workspace snapshot).
    pub sandbox_id: Option<String>,
    pub state: SleepState,
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
        Keep::Keep if known_terminated && s.state == SleepState::Snapshot => Keep::Delete {
            slept_for: now - s.slept_since,
            absent_for: 0.0,
        },
        v => v,
    }
}

/// How a stopped (or stopping) sandbox sleeps: archived when the provider says its disk went
/// to the archive.
pub fn asleep_as(sb: &SandboxInfo) -> SleepState {
    if sb.disk.is_archived() {
        SleepState::Archived
    } else {
        SleepState::Stopped
    }
}

/// What one read of a session's sandbox, just after it went to sleep, found.
#[derive(Debug, Clone, Copy)]
pub enum SleepRead<'a> {
    Sandbox(&'a SandboxInfo),
    /// No sandbox under the session's name.
    Gone,
    /// The read failed.
    Unreadable,
}

/// What is left of a session that just went to sleep: its sandbox (id and how it sleeps), or,
/// with no sandbox left, only its workspace snapshot. An unreadable sandbox is taken to be
/// stopped (the next janitor listing corrects it).
pub fn left_after_sleep(read: SleepRead<'_>) -> (Option<String>, SleepState) {
    match read {
        SleepRead::Sandbox(sb) if sb.state != SandboxState::Deleted => {
            (Some(sb.id.clone()), asleep_as(sb))
        }
        SleepRead::Sandbox(_) | SleepRead::Gone => (None, SleepState::Snapshot),
        SleepRead::Unreadable => (None, SleepState::Stopped),
    }
}

/// A stopped (or stopping) sandbox of the outpost's, as a listing showed it: what a sleeper
/// is made of.
#[derive(Debug, Clone, PartialEq)]
pub struct Asleep {
    pub session: String,
    pub sandbox: String,
    pub sandbox_id: String,
    pub state: SleepState,
}

impl Asleep {
    /// `sb`, labelled for `session`, if it is stopped or stopping.
    pub fn of(session: &str, sb: &SandboxInfo) -> Option<Asleep> {
        matches!(sb.state, SandboxState::Stopped | SandboxState::Stopping).then(|| Asleep {
            session: session.to_string(),
            sandbox: sb.name.clone(),
            sandbox_id: sb.id.clone(),
            state: asleep_as(sb),
        })
    }
}

/// Bring the sleepers in line with one listing of the outpost's sandboxes: `stopped`, its
/// stopped sandboxes, and `listed`, whether a session's sandbox was in it at all. A stopped
/// sandbox of a session this instance is not working on is a sleeper; one already known keeps
/// its clocks. A sleeper whose session is active again, or whose sandbox is gone from the
/// listing, is forgotten — snapshots are never listed, and stay.
pub fn refresh(
    sleepers: &mut BTreeMap<String, Sleeper>,
    stopped: &[Asleep],
    listed: &dyn Fn(&str) -> bool,
    active: &dyn Fn(&str) -> bool,
    now: f64,
) {
    for a in stopped {
        if active(&a.session) {
            continue;
        }
        let s = sleepers
            .entry(a.session.clone())
            .or_insert_with(|| Sleeper {
                sandbox: a.sandbox.clone(),
                sandbox_id: Some(a.sandbox_id.clone()),
                state: a.state,
                slept_since: now,
                absent_since: None,
            });
        s.state = a.state;
        s.sandbox_id = Some(a.sandbox_id.clone());
    }
    sleepers.retain(|session, s| {
        !active(session) && (s.state == SleepState::Snapshot || listed(session))
    });
}

/// One retention round over the sleepers: move each absence clock (`present`: whether the
/// session is in a complete queue view, `None` when the view cannot say) and return those
/// whose workspace may go, with the verdict.
pub fn review(
    sleepers: &mut BTreeMap<String, Sleeper>,
    present: &dyn Fn(&str) -> Option<bool>,
    known_terminated: &dyn Fn(&str) -> bool,
    retention: Option<f64>,
    now: f64,
) -> Vec<(String, Sleeper, Keep)> {
    for (session, s) in sleepers.iter_mut() {
        observe(s, present(session), now);
    }
    sleepers
        .iter()
        .filter_map(
            |(session, s)| match decide(s, retention, now, known_terminated(session)) {
                Keep::Keep => None,
                del => Some((session.clone(), s.clone(), del)),
            },
        )
        .collect()
}

/// What the exact read of a sleeper's session, made just before its workspace would go, allows.
#[derive(Debug, Clone, PartialEq)]
pub enum RetireStep {
    /// Delete what is left of it, and say so as this janitor action, for this reason.
    Delete { action: JanitorAction, why: String },
    /// The session is back in the queue: its absence clock starts over, nothing is deleted.
    BackInQueue,
    /// The read failed (or nothing allows a deletion): keep it, decide again next pass.
    Keep,
}

/// The rule for [`RetireStep`]: a terminated session's workspace goes (it never comes back);
/// an absent session's goes when retention said so; a session in the queue keeps it.
pub fn retire_step(lookup: &Lookup, verdict: Keep) -> RetireStep {
    let terminated = || RetireStep::Delete {
        action: JanitorAction::Deleted,
        why: "its session was terminated".into(),
    };
    match (lookup, verdict) {
        (Lookup::Found(e), _) if e.session_status == SessionStatus::Terminated => terminated(),
        (Lookup::SweptAfterTermination, _) => terminated(),
        (Lookup::Found(_), _) => RetireStep::BackInQueue,
        (Lookup::Failed, _) | (Lookup::Absent, Keep::Keep) => RetireStep::Keep,
        (
            Lookup::Absent,
            Keep::Delete {
                slept_for,
                absent_for,
            },
        ) => RetireStep::Delete {
            action: JanitorAction::RetentionDeleted,
            why: format!(
                "SLEEP_RETENTION: slept {}, absent from the queue {}",
                humantime::format_duration(std::time::Duration::from_secs(slept_for as u64)),
                humantime::format_duration(std::time::Duration::from_secs(absent_for as u64))
            ),
        },
    }
}

#[cfg(test)]
pub(in crate::orchestrator) mod tests {
    use super::*;

    fn sleeper() -> Sleeper {
        Sleeper {
            sandbox: "devin-s-1".into(),
            sandbox_id: Some("sb".into()),
            state: SleepState::Stopped,
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
        snap.state = SleepState::Snapshot;
        observe(&mut snap, Some(false), 110.0);
        // (sleeper state, retention, termination remembered) → verdict at 120.
        let cases = [
            (SleepState::Snapshot, None, true, true),
            (SleepState::Snapshot, Some(1e6), true, true),
            (SleepState::Snapshot, None, false, false),
            (SleepState::Snapshot, Some(1e6), false, false),
            // A sandbox left: the janitor's exact read decides (and deletes), not retention.
            (SleepState::Stopped, None, true, false),
            (SleepState::Stopped, None, false, false),
            (SleepState::Archived, None, true, false),
        ];
        for (state, retention, known, deleted) in cases {
            let mut s = snap.clone();
            s.state = state;
            let v = decide(&s, retention, 120.0, known);
            assert_eq!(
                matches!(v, Keep::Delete { .. }),
                deleted,
                "{state:?} retention={retention:?} known={known}: {v:?}"
            );
        }
    }

    pub(in crate::orchestrator) fn sb(
        id: &str,
        state: SandboxState,
        disk: crate::provider::Disk,
    ) -> SandboxInfo {
        SandboxInfo {
            id: id.into(),
            name: format!("devin-{id}"),
            state,
            raw_state: String::new(),
            disk,
            labels: Default::default(),
            created_at: None,
            error_reason: None,
            containers: vec![],
            egress: crate::provider::Egress::Open,
        }
    }

    #[test]
    fn sleep_states_keep_the_names_of_the_state_file() {
        // Old state files (written when the state was a string) load unchanged.
        let old = r#"{"s":{"sandbox":"n","sandbox_id":null,"state":"archived","slept_since":1.0,"absent_since":null}}"#;
        let got: BTreeMap<String, Sleeper> = serde_json::from_str(old).expect("old file loads");
        assert_eq!(got["s"].state, SleepState::Archived);
        for (state, name) in [
            (SleepState::Stopped, "stopped"),
            (SleepState::Archived, "archived"),
            (SleepState::Snapshot, "snapshot"),
        ] {
            assert_eq!(serde_json::to_value(state).unwrap(), name);
            assert_eq!(state.as_str(), name);
        }
        assert!(serde_json::from_str::<SleepState>(r#""paused""#).is_err());
    }

    #[test]
    fn what_a_sleeper_is_comes_from_the_neutral_state() {
        use crate::provider::Disk;
        // (state, disk) → how it sleeps
        let cases = [
            (SandboxState::Stopped, Disk::Attached, SleepState::Stopped),
            (SandboxState::Stopping, Disk::Attached, SleepState::Stopped),
            (
                SandboxState::Stopping,
                Disk::Archiving,
                SleepState::Archived,
            ),
            (SandboxState::Stopped, Disk::Archived, SleepState::Archived),
        ];
        for (state, disk, want) in cases {
            assert_eq!(asleep_as(&sb("a", state, disk)), want, "{state:?} {disk:?}");
        }
        let stopped = sb("a", SandboxState::Stopped, Disk::Attached);
        let archived = sb("b", SandboxState::Stopped, Disk::Archived);
        let deleted = sb("c", SandboxState::Deleted, Disk::Attached);
        let cases = [
            (SleepRead::Sandbox(&stopped), Some("a"), SleepState::Stopped),
            (
                SleepRead::Sandbox(&archived),
                Some("b"),
                SleepState::Archived,
            ),
            (SleepRead::Sandbox(&deleted), None, SleepState::Snapshot),
            (SleepRead::Gone, None, SleepState::Snapshot),
            (SleepRead::Unreadable, None, SleepState::Stopped),
        ];
        for (read, id, state) in cases {
            let got = left_after_sleep(read);
            assert_eq!((got.0.as_deref(), got.1), (id, state), "{read:?}");
        }
    }

    #[test]
    fn refresh_keeps_sleepers_in_line_with_the_listing() {
        use crate::provider::Disk;
        let mut sleepers = BTreeMap::new();
        let mut known = sleeper();
        known.absent_since = Some(50.0);
        sleepers.insert("known".to_string(), known);
        let mut snap = sleeper();
        snap.state = SleepState::Snapshot;
        snap.sandbox_id = None;
        sleepers.insert("snap".to_string(), snap);
        sleepers.insert("gone".to_string(), sleeper());
        sleepers.insert("woken".to_string(), sleeper());
        let a = sb("a", SandboxState::Stopped, Disk::Archived);
        let b = sb("b", SandboxState::Stopped, Disk::Attached);
        let c = sb("c", SandboxState::Started, Disk::Attached);
        let d = sb("d", SandboxState::Stopping, Disk::Attached);
        let w = sb("w", SandboxState::Stopped, Disk::Attached);
        let listed = [
            ("known", &a),
            ("new", &b),
            ("up", &c),
            ("busy", &d),
            ("woken", &w),
        ];
        let stopped: Vec<Asleep> = listed
            .iter()
            .filter_map(|(s, sb)| Asleep::of(s, sb))
            .collect();
        let is_listed = |s: &str| listed.iter().any(|(l, _)| *l == s);
        let active = |s: &str| matches!(s, "busy" | "woken");
        refresh(&mut sleepers, &stopped, &is_listed, &active, 200.0);
        let keys: Vec<&str> = sleepers.keys().map(String::as_str).collect();
        // gone: not listed; woken/busy: active; up: running; snap: never listed, stays.
        assert_eq!(keys, ["known", "new", "snap"]);
        let known = &sleepers["known"];
        assert_eq!(
            (
                known.state,
                known.sandbox_id.as_deref(),
                known.slept_since,
                known.absent_since
            ),
            (SleepState::Archived, Some("a"), 100.0, Some(50.0)),
            "a known sleeper keeps its clocks"
        );
        let new = &sleepers["new"];
        assert_eq!(
            (new.state, new.sandbox_id.as_deref(), new.slept_since),
            (SleepState::Stopped, Some("b"), 200.0)
        );
    }

    #[test]
    fn review_moves_the_clocks_and_returns_what_may_go() {
        let mut sleepers = BTreeMap::new();
        sleepers.insert("absent".to_string(), sleeper());
        sleepers.insert("present".to_string(), sleeper());
        let mut snap = sleeper();
        snap.state = SleepState::Snapshot;
        sleepers.insert("ended".to_string(), snap);
        let present = |s: &str| Some(s == "present");
        let terminated = |s: &str| s == "ended";
        let due = review(&mut sleepers, &present, &terminated, Some(10.0), 100.0);
        let names: Vec<&str> = due.iter().map(|d| d.0.as_str()).collect();
        assert_eq!(names, ["ended"], "absence just started: not yet");
        assert_eq!(sleepers["absent"].absent_since, Some(100.0));
        let due = review(&mut sleepers, &present, &terminated, Some(10.0), 110.0);
        let names: Vec<&str> = due.iter().map(|d| d.0.as_str()).collect();
        assert_eq!(names, ["absent", "ended"]);
        assert_eq!(sleepers["present"].absent_since, None);
    }

    #[test]
    fn the_exact_read_decides_what_a_retirement_does() {
        use crate::api::devin_types::{Kind, Phase, Platform, QueueEntry};
        let entry = |session_status: SessionStatus| {
            Lookup::Found(Box::new(QueueEntry {
                session_id: "s".into(),
                outpost_id: None,
                created_at: None,
                updated_at: None,
                kind: Kind::New,
                platform: Platform::Linux,
                remote_binary_sha: None,
                network_policy: None,
                phase: Phase::Pending,
                acceptor_id: None,
                claim_deadline: None,
                session_status,
                connect_token: None,
                gateway_url: None,
            }))
        };
        let del = Keep::Delete {
            slept_for: 7200.0,
            absent_for: 3600.0,
        };
        let cases = [
            (
                entry(SessionStatus::Terminated),
                Keep::Keep,
                Some(JanitorAction::Deleted),
            ),
            (
                Lookup::SweptAfterTermination,
                del,
                Some(JanitorAction::Deleted),
            ),
            (Lookup::Absent, del, Some(JanitorAction::RetentionDeleted)),
            (Lookup::Absent, Keep::Keep, None),
            (Lookup::Failed, del, None),
            (entry(SessionStatus::Suspended), del, None),
            (entry(SessionStatus::Running), del, None),
        ];
        for (lookup, verdict, want) in cases {
            let got = retire_step(&lookup, verdict);
            let action = match &got {
                RetireStep::Delete { action, .. } => Some(*action),
                _ => None,
            };
            assert_eq!(action, want, "{lookup:?} {verdict:?} → {got:?}");
            if let (Lookup::Found(_), None) = (&lookup, want) {
                assert_eq!(got, RetireStep::BackInQueue);
            }
        }
        match retire_step(&Lookup::Absent, del) {
            RetireStep::Delete { why, .. } => {
                assert_eq!(why, "SLEEP_RETENTION: slept 2h, absent from the queue 1h")
            }
            other => panic!("{other:?}"),
        }
    }
}
