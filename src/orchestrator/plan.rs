//! The pure planner: observed state → actions. No I/O, no clocks; table-tested below.
//!
//! Rules (DESIGN.md "Orchestrator rules", specs §5, §7):
//! - Claim `phase=pending` rows whose status is `pending` or `running`, oldest first, while
//!   held + in-flight claims < cap. Never claim `suspended`/`terminated` rows. Never while
//!   draining (SIGTERM).
//! - A held session is provisioned (sandbox + remote) until its remote runs; its claim is
//!   renewed `renew_margin` before `claim_deadline`.
//! - `terminated` observed once → end with delete. `suspended`, absent or `DELETED` → strikes;
//!   three consecutive → end with stop (disk kept). While strikes are below three, re-read.
//! - A remote that exited 0 prompts up to five status re-reads before it is relaunched.
//! - Failures back off per session; after [`MAX_FAILURES`] the claim is given up (released,
//!   sandbox stopped) and the session is left alone for a cooling-off period.
//! - A session with an action in flight is never given a second one.

use std::collections::{BTreeMap, BTreeSet};

use crate::api::devin_types::{Phase, QueueEntry, SessionStatus};

/// Consecutive `suspended`/absent reads before a session is treated as asleep.
pub const SUSPEND_STRIKES: u8 = 3;
/// Status re-reads after the remote exits 0 before it is treated as a crash.
pub const EXIT_REREADS: u8 = 5;
/// Failed provisioning/launch attempts before the claim is given up.
pub const MAX_FAILURES: u32 = 5;

/// Where the session's sandbox stands, as far as we know.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum SandboxKnown {
    #[default]
    Unknown,
    Absent,
    Present {
        id: String,
        running: bool,
    },
}

/// The remote (`devin-remote serve` or the CLI) of a held session.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum RemoteState {
    /// Not checked since we (re)gained the claim.
    #[default]
    Unknown,
    /// Checked: not running (never launched, or gone without an exit code).
    NotRunning,
    /// Running; `checked_at` is when liveness was last confirmed.
    Running { checked_at: f64 },
    /// Exited with this code at this time.
    Exited { code: i32, at: f64 },
}

/// Why a session ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EndKind {
    /// Suspended, absent or DELETED: release, stop the sandbox, keep its disk.
    Sleep,
    /// `terminated` observed: release, delete the sandbox.
    Terminate,
    /// We could not serve it: release, stop the sandbox (disk kept), cool off.
    GiveUp,
}

/// What we remember about one session. Rebuilt from the server and the provider after a
/// restart; never persisted (it would hold a connect token).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Track {
    /// We hold (or believe we hold) its claim.
    pub held: bool,
    pub claim_deadline: Option<f64>,
    /// A connect token from a claim response is in memory.
    pub has_token: bool,
    pub sandbox: SandboxKnown,
    pub remote: RemoteState,
    /// Consecutive suspended/absent observations, at most one per `Limits::reread_every`.
    pub strikes: u8,
    /// When the last strike was counted.
    pub last_strike: Option<f64>,
    /// Status re-reads done since the remote exited 0.
    pub rereads: u8,
    pub failures: u32,
    /// No new attempt before this time (backoff after a failure, or cooling off after give-up).
    pub retry_at: Option<f64>,
    /// `terminated` has been observed.
    pub terminated: bool,
    /// An action is running for this session.
    pub busy: bool,
    /// A claim attempt lost (409) since the last relist: leave it alone until the server view
    /// changes.
    pub lost_race: bool,
    /// When this instance last re-read the status (rate-limits re-reads).
    pub last_reread: Option<f64>,
    /// Ending failed (e.g. the release did not go through): try again after this time.
    pub end_retry_at: Option<f64>,
    /// Failed attempts at the sandbox side of ending (stop/delete) so far.
    pub end_failures: u32,
    /// Consecutive claim attempts that ended in an error (not a 409): backs further claims off.
    pub claim_errors: u32,
}

impl Track {
    /// Record one status observation (list row, watch event, or GET) made at `now`. `None` =
    /// absent/DELETED. A suspended/absent observation is a strike only if the last strike is at
    /// least `spacing` seconds old: a list, a watch event and a read arriving together are one
    /// sighting, so "three consecutive suspended reads" always spans `2 × spacing` of time and
    /// a brief `suspended` blip is tolerated however many sources report it.
    pub fn observe(&mut self, status: Option<SessionStatus>, now: f64, spacing: f64) {
        match status {
            Some(SessionStatus::Terminated) => {
                self.terminated = true;
            }
            Some(SessionStatus::Suspended) | None => {
                if self.last_strike.is_none_or(|t| now - t >= spacing) {
                    self.strikes = self.strikes.saturating_add(1);
                    self.last_strike = Some(now);
                }
            }
            Some(SessionStatus::Running) | Some(SessionStatus::Pending) => {
                self.strikes = 0;
                self.last_strike = None;
            }
            // Unknown values tell us nothing: neither a strike nor a reset.
            Some(SessionStatus::Unknown) => {}
        }
    }
}

/// Knobs the planner needs.
#[derive(Debug, Clone)]
pub struct Limits {
    pub cap: usize,
    /// Seconds before `claim_deadline` at which to renew.
    pub renew_margin: f64,
    /// Seconds between liveness checks of a running remote.
    pub liveness_every: f64,
    /// Seconds between status re-reads while counting strikes or after an exit.
    pub reread_every: f64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            cap: 5,
            renew_margin: 60.0,
            liveness_every: 120.0,
            reread_every: 2.0,
        }
    }
}

/// Everything the planner looks at.
#[derive(Debug)]
pub struct Observed<'a> {
    pub now: f64,
    pub acceptor_id: &'a str,
    /// The latest view of our outpost's queue (full list plus applied watch events).
    pub queue: &'a BTreeMap<String, QueueEntry>,
    pub tracks: &'a BTreeMap<String, Track>,
    /// Claims sent whose answer has not arrived.
    pub claiming: &'a BTreeSet<String>,
    pub limits: &'a Limits,
    /// Shutting down: no new claims.
    pub draining: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    Claim {
        session: String,
    },
    Renew {
        session: String,
    },
    /// Ensure the sandbox is up and the remote runs (re-claiming for a token if needed).
    Provision {
        session: String,
    },
    /// Check the remote's liveness (and exit code).
    CheckRemote {
        session: String,
    },
    /// GET the session's status once.
    Reread {
        session: String,
    },
    End {
        session: String,
        kind: EndKind,
    },
    /// Start tracking a session the server says we hold (reattach, or a claim whose answer
    /// was lost).
    Adopt {
        session: String,
    },
}

impl Action {
    pub fn session(&self) -> &str {
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
        let ours =
            entry.phase == Phase::Claimed && entry.acceptor_id.as_deref() == Some(o.acceptor_id);
        if ours && !o.tracks.get(id).is_some_and(|t| t.held) && !o.claiming.contains(id) {
            actions.push(Action::Adopt {
                session: id.clone(),
            });
        }
    }

    let mut held = 0usize;
    for (id, t) in o.tracks {
        if !t.held {
            continue;
        }
        held += 1;
        if t.busy {
            continue;
        }
        if let Some(a) = plan_held(o, id, t) {
            actions.push(a);
        }
    }

    if o.draining {
        return actions;
    }
    let adopting = actions
        .iter()
        .filter(|a| matches!(a, Action::Adopt { .. }))
        .count();
    let room = o
        .limits
        .cap
        .saturating_sub(held + adopting + o.claiming.len());
    if room == 0 {
        return actions;
    }
    let mut candidates: Vec<&QueueEntry> = o
        .queue
        .values()
        .filter(|e| claimable(e))
        .filter(|e| !o.claiming.contains(&e.session_id))
        .filter(|e| match o.tracks.get(&e.session_id) {
            None => true,
            Some(t) => !t.held && !t.busy && !t.lost_race && t.retry_at.is_none_or(|r| r <= o.now),
        })
        .collect();
    candidates.sort_by(|a, b| a.age_key().cmp(&b.age_key()));
    for e in candidates.into_iter().take(room) {
        actions.push(Action::Claim {
            session: e.session_id.clone(),
        });
    }
    actions
}

fn plan_held(o: &Observed<'_>, id: &str, t: &Track) -> Option<Action> {
    let session = id.to_string();
    let now = o.now;
    let backing_off = t.retry_at.is_some_and(|r| r > now);

    // Ending wins over everything else.
    if t.end_retry_at.is_some_and(|r| r > now) {
        return None;
    }
    if t.terminated {
        return Some(Action::End {
            session,
            kind: EndKind::Terminate,
        });
    }
    if t.strikes >= SUSPEND_STRIKES {
        return Some(Action::End {
            session,
            kind: EndKind::Sleep,
        });
    }
    if t.failures >= MAX_FAILURES {
        return Some(Action::End {
            session,
            kind: EndKind::GiveUp,
        });
    }
    let reread_due = t
        .last_reread
        .is_none_or(|at| now - at >= o.limits.reread_every);
    if t.strikes > 0 {
        return reread_due.then_some(Action::Reread { session });
    }
    // Keep the claim alive before anything slow.
    if let Some(deadline) = t.claim_deadline
        && deadline - now <= o.limits.renew_margin
    {
        return Some(Action::Renew { session });
    }
    match &t.remote {
        RemoteState::Exited { code: 0, .. } if t.rereads < EXIT_REREADS => {
            reread_due.then_some(Action::Reread { session })
        }
        RemoteState::Running { checked_at } => {
            (now - checked_at >= o.limits.liveness_every).then_some(Action::CheckRemote { session })
        }
        _ if backing_off => None,
        // Unknown, NotRunning, a crash, or an exit 0 the status never explained: (re)provision.
        _ => Some(Action::Provision { session }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::devin_types::{Kind, Platform};

    const ME: &str = "me";

    fn entry(
        id: &str,
        created: f64,
        phase: Phase,
        status: SessionStatus,
        acceptor: Option<&str>,
    ) -> QueueEntry {
        QueueEntry {
            session_id: id.into(),
            outpost_id: Some("o".into()),
            created_at: Some(created),
            updated_at: Some(created),
            kind: Kind::New,
            platform: Platform::Linux,
            remote_binary_sha: None,
            network_policy: None,
            phase,
            acceptor_id: acceptor.map(str::to_string),
            claim_deadline: None,
            session_status: status,
            connect_token: None,
            gateway_url: None,
        }
    }

    fn pending(id: &str, created: f64) -> QueueEntry {
        entry(id, created, Phase::Pending, SessionStatus::Pending, None)
    }

    fn held(remote: RemoteState) -> Track {
        Track {
            held: true,
            has_token: true,
            claim_deadline: Some(1000.0),
            remote,
            ..Track::default()
        }
    }

    struct Case {
        queue: Vec<QueueEntry>,
        tracks: Vec<(&'static str, Track)>,
        claiming: Vec<&'static str>,
        cap: usize,
        draining: bool,
        now: f64,
    }

    impl Default for Case {
        fn default() -> Self {
            Case {
                queue: vec![],
                tracks: vec![],
                claiming: vec![],
                cap: 5,
                draining: false,
                now: 100.0,
            }
        }
    }

    fn run(c: Case) -> Vec<Action> {
        let queue: BTreeMap<String, QueueEntry> = c
            .queue
            .into_iter()
            .map(|e| (e.session_id.clone(), e))
            .collect();
        let tracks: BTreeMap<String, Track> = c
            .tracks
            .into_iter()
            .map(|(k, t)| (k.to_string(), t))
            .collect();
        let claiming: BTreeSet<String> = c.claiming.into_iter().map(str::to_string).collect();
        let limits = Limits {
            cap: c.cap,
            ..Limits::default()
        };
        plan(&Observed {
            now: c.now,
            acceptor_id: ME,
            queue: &queue,
            tracks: &tracks,
            claiming: &claiming,
            limits: &limits,
            draining: c.draining,
        })
    }

    fn claim(id: &str) -> Action {
        Action::Claim { session: id.into() }
    }

    #[test]
    fn claims_oldest_first_up_to_the_cap() {
        let a = run(Case {
            queue: vec![pending("c", 30.0), pending("a", 10.0), pending("b", 20.0)],
            cap: 2,
            ..Case::default()
        });
        assert_eq!(a, vec![claim("a"), claim("b")]);
    }

    #[test]
    fn ties_break_by_session_id() {
        let a = run(Case {
            queue: vec![pending("y", 10.0), pending("x", 10.0)],
            cap: 1,
            ..Case::default()
        });
        assert_eq!(a, vec![claim("x")]);
    }

    #[test]
    fn never_claims_suspended_terminated_or_foreign_rows() {
        let rows = vec![
            entry("s", 1.0, Phase::Pending, SessionStatus::Suspended, None),
            entry("t", 2.0, Phase::Pending, SessionStatus::Terminated, None),
            entry("u", 3.0, Phase::Pending, SessionStatus::Unknown, None),
            entry(
                "o",
                4.0,
                Phase::Claimed,
                SessionStatus::Running,
                Some("other"),
            ),
            entry("r", 5.0, Phase::Pending, SessionStatus::Running, None),
        ];
        assert_eq!(
            run(Case {
                queue: rows,
                ..Case::default()
            }),
            vec![claim("r")]
        );
    }

    #[test]
    fn held_and_in_flight_claims_count_against_the_cap() {
        let a = run(Case {
            queue: vec![pending("a", 1.0), pending("b", 2.0), pending("c", 3.0)],
            tracks: vec![("h", held(RemoteState::Running { checked_at: 99.0 }))],
            claiming: vec!["a"],
            cap: 3,
            ..Case::default()
        });
        assert_eq!(a, vec![claim("b")]);
        let full = run(Case {
            queue: vec![pending("b", 2.0)],
            tracks: vec![("h", held(RemoteState::Running { checked_at: 99.0 }))],
            claiming: vec!["a"],
            cap: 2,
            ..Case::default()
        });
        assert!(full.is_empty(), "{full:?}");
    }

    #[test]
    fn draining_stops_claims_but_not_care_of_held_sessions() {
        let a = run(Case {
            queue: vec![pending("a", 1.0)],
            tracks: vec![(
                "h",
                Track {
                    terminated: true,
                    ..held(RemoteState::Unknown)
                },
            )],
            draining: true,
            ..Case::default()
        });
        assert_eq!(
            a,
            vec![Action::End {
                session: "h".into(),
                kind: EndKind::Terminate
            }]
        );
    }

    #[test]
    fn lost_races_and_backoff_are_respected() {
        let a = run(Case {
            queue: vec![pending("a", 1.0), pending("b", 2.0), pending("c", 3.0)],
            tracks: vec![
                (
                    "a",
                    Track {
                        lost_race: true,
                        ..Track::default()
                    },
                ),
                (
                    "b",
                    Track {
                        retry_at: Some(200.0),
                        ..Track::default()
                    },
                ),
            ],
            ..Case::default()
        });
        assert_eq!(a, vec![claim("c")]);
    }

    #[test]
    fn adopts_claims_the_server_says_are_ours() {
        let a = run(Case {
            queue: vec![entry(
                "x",
                1.0,
                Phase::Claimed,
                SessionStatus::Running,
                Some(ME),
            )],
            cap: 1,
            ..Case::default()
        });
        assert_eq!(
            a,
            vec![Action::Adopt {
                session: "x".into()
            }]
        );
        // An adoption uses the last slot: nothing else is claimed.
        let a = run(Case {
            queue: vec![
                entry("x", 1.0, Phase::Claimed, SessionStatus::Running, Some(ME)),
                pending("y", 0.0),
            ],
            cap: 1,
            ..Case::default()
        });
        assert_eq!(
            a,
            vec![Action::Adopt {
                session: "x".into()
            }]
        );
    }

    #[test]
    fn held_session_lifecycle() {
        let s = |t: Track| {
            run(Case {
                tracks: vec![("s", t)],
                ..Case::default()
            })
        };
        let one = |a: Action| vec![a];
        let sid = || "s".to_string();
        // Fresh claim: provision.
        assert_eq!(
            s(held(RemoteState::Unknown)),
            one(Action::Provision { session: sid() })
        );
        assert_eq!(
            s(held(RemoteState::NotRunning)),
            one(Action::Provision { session: sid() })
        );
        // Running and recently checked: nothing. Stale check: check.
        assert!(s(held(RemoteState::Running { checked_at: 90.0 })).is_empty());
        assert_eq!(
            s(held(RemoteState::Running { checked_at: -100.0 })),
            one(Action::CheckRemote { session: sid() })
        );
        // Renew before the deadline, even while running.
        let near = Track {
            claim_deadline: Some(150.0),
            ..held(RemoteState::Running { checked_at: 99.0 })
        };
        assert_eq!(s(near), one(Action::Renew { session: sid() }));
        // Exit 0: re-read up to five times, then treat as a crash.
        assert_eq!(
            s(held(RemoteState::Exited { code: 0, at: 99.0 })),
            one(Action::Reread { session: sid() })
        );
        let exhausted = Track {
            rereads: EXIT_REREADS,
            ..held(RemoteState::Exited { code: 0, at: 90.0 })
        };
        assert_eq!(s(exhausted), one(Action::Provision { session: sid() }));
        // A crash relaunches unless backing off.
        assert_eq!(
            s(held(RemoteState::Exited { code: 1, at: 99.0 })),
            one(Action::Provision { session: sid() })
        );
        let backoff = Track {
            retry_at: Some(130.0),
            failures: 2,
            ..held(RemoteState::Exited { code: 1, at: 99.0 })
        };
        assert!(s(backoff).is_empty());
        // Busy sessions get nothing.
        assert!(
            s(Track {
                busy: true,
                terminated: true,
                ..held(RemoteState::Unknown)
            })
            .is_empty()
        );
    }

    #[test]
    fn ending_rules() {
        let s = |t: Track| {
            run(Case {
                tracks: vec![("s", t)],
                ..Case::default()
            })
        };
        let end = |kind| {
            vec![Action::End {
                session: "s".into(),
                kind,
            }]
        };
        assert_eq!(
            s(Track {
                terminated: true,
                ..held(RemoteState::Running { checked_at: 99.0 })
            }),
            end(EndKind::Terminate)
        );
        // Fewer than three strikes: re-read, do not stop.
        let two = Track {
            strikes: 2,
            ..held(RemoteState::Running { checked_at: 99.0 })
        };
        assert_eq!(
            s(two.clone()),
            vec![Action::Reread {
                session: "s".into()
            }]
        );
        // ...but not more often than reread_every.
        assert!(
            s(Track {
                last_reread: Some(99.5),
                ..two
            })
            .is_empty()
        );
        assert_eq!(
            s(Track {
                strikes: 3,
                ..held(RemoteState::Running { checked_at: 99.0 })
            }),
            end(EndKind::Sleep)
        );
        assert_eq!(
            s(Track {
                failures: MAX_FAILURES,
                ..held(RemoteState::NotRunning)
            }),
            end(EndKind::GiveUp)
        );
        // Terminate beats sleep: a terminated session is never merely stopped.
        assert_eq!(
            s(Track {
                strikes: 5,
                terminated: true,
                ..held(RemoteState::Unknown)
            }),
            end(EndKind::Terminate)
        );
    }

    #[test]
    fn observations_count_consecutive_strikes() {
        let mut t = Track::default();
        t.observe(Some(SessionStatus::Suspended), 10.0, 2.0);
        t.observe(None, 12.0, 2.0);
        assert_eq!(t.strikes, 2);
        t.observe(Some(SessionStatus::Unknown), 14.0, 2.0);
        assert_eq!(t.strikes, 2, "unknown neither counts nor resets");
        t.observe(Some(SessionStatus::Running), 15.0, 2.0);
        assert_eq!(t.strikes, 0, "a blip is forgiven");
        t.observe(Some(SessionStatus::Terminated), 16.0, 2.0);
        assert!(t.terminated);
    }

    #[test]
    fn strikes_are_spaced_in_time() {
        // A watch event, a relist and a read within one second are one strike, not three.
        let mut t = Track::default();
        for now in [100.0, 100.2, 100.5, 101.9] {
            t.observe(Some(SessionStatus::Suspended), now, 2.0);
        }
        assert_eq!(t.strikes, 1);
        t.observe(None, 102.0, 2.0);
        t.observe(None, 103.0, 2.0);
        assert_eq!(t.strikes, 2);
        t.observe(Some(SessionStatus::Suspended), 104.0, 2.0);
        assert_eq!(
            t.strikes, SUSPEND_STRIKES,
            "three strikes take at least 4 s"
        );
        // Running resets the spacing too.
        t.observe(Some(SessionStatus::Running), 104.5, 2.0);
        t.observe(None, 104.6, 2.0);
        assert_eq!(t.strikes, 1);
    }
}
