//! Table tests of every lifecycle rule: claims, renewals, strikes, failures and backoff, giving
//! up, losing a session to another acceptor, ending, and (in `janitor.rs`) janitor verdicts.
use super::*;
use crate::api::devin_types::{Kind, Phase, Platform, QueueEntry, SessionStatus};

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
    /// When rows were first seen claimable; a row not named counts as seen long ago.
    pending_since: Vec<(&'static str, f64)>,
    tracks: Vec<(&'static str, Track)>,
    claiming: Vec<&'static str>,
    busy: Vec<&'static str>,
    cap: usize,
    launches: usize,
    launching: usize,
    draining: bool,
    now: f64,
}

impl Default for Case {
    fn default() -> Self {
        Case {
            queue: vec![],
            pending_since: vec![],
            tracks: vec![],
            claiming: vec![],
            busy: vec![],
            cap: 5,
            launches: 32,
            launching: 0,
            draining: false,
            now: 100.0,
        }
    }
}

fn run(c: Case) -> Vec<Action> {
    let queue: BTreeMap<String, std::sync::Arc<QueueEntry>> = c
        .queue
        .into_iter()
        .map(|e| (e.session_id.clone(), e.into()))
        .collect();
    let pending_since: BTreeMap<String, f64> = (c.pending_since.into_iter())
        .map(|(k, t)| (k.to_string(), t))
        .collect();
    let tracks: BTreeMap<String, Track> = c
        .tracks
        .into_iter()
        .map(|(k, t)| (k.to_string(), t))
        .collect();
    let claiming: BTreeSet<String> = c.claiming.into_iter().map(str::to_string).collect();
    let busy: BTreeSet<String> = c.busy.into_iter().map(str::to_string).collect();
    let limits = Limits {
        cap: c.cap,
        launches: c.launches,
        ..Limits::default()
    };
    plan(&Observed {
        now: c.now,
        acceptor_id: ME,
        queue: &queue,
        pending_since: &pending_since,
        tracks: &tracks,
        claiming: &claiming,
        busy: &busy,
        launching: c.launching,
        limits: &limits,
        draining: c.draining,
    })
}

fn claim(id: &str) -> Action {
    Action::Claim { session: id.into() }
}

#[test]
fn launches_wait_their_turn_oldest_first_while_renewals_go_ahead() {
    let due = Track {
        claim_deadline: Some(120.0),
        ..held(RemoteState::Unknown)
    };
    let a = run(Case {
        queue: vec![
            entry(
                "old",
                10.0,
                Phase::Claimed,
                SessionStatus::Running,
                Some(ME),
            ),
            entry(
                "mid",
                20.0,
                Phase::Claimed,
                SessionStatus::Running,
                Some(ME),
            ),
            entry(
                "new",
                30.0,
                Phase::Claimed,
                SessionStatus::Running,
                Some(ME),
            ),
            entry(
                "due",
                40.0,
                Phase::Claimed,
                SessionStatus::Running,
                Some(ME),
            ),
            entry(
                "busy",
                5.0,
                Phase::Claimed,
                SessionStatus::Running,
                Some(ME),
            ),
        ],
        tracks: vec![
            ("new", held(RemoteState::Unknown)),
            ("old", held(RemoteState::Unknown)),
            ("mid", held(RemoteState::Unknown)),
            ("due", due),
            ("busy", held(RemoteState::Unknown)),
        ],
        busy: vec!["busy"],
        launches: 3,
        launching: 1,
        ..Case::default()
    });
    assert_eq!(
        a,
        vec![
            Action::Renew {
                session: "due".into()
            },
            Action::Provision {
                session: "old".into()
            },
            Action::Provision {
                session: "mid".into()
            },
        ]
    );
    // No slot left: nothing launches, nothing else is held back.
    let none = run(Case {
        queue: vec![entry(
            "a",
            1.0,
            Phase::Claimed,
            SessionStatus::Running,
            Some(ME),
        )],
        tracks: vec![("a", held(RemoteState::Unknown))],
        launches: 2,
        launching: 2,
        ..Case::default()
    });
    assert_eq!(none, vec![]);
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

/// Claims stay within two rounds of launches of what is waiting to launch: the rest of a burst
/// stays in the queue, where another replica with free launch slots can take it.
#[test]
fn claims_run_at_most_two_rounds_of_launches_ahead() {
    let queue: Vec<QueueEntry> = (0..10)
        .map(|i| pending(&format!("q{i}"), f64::from(i)))
        .collect();
    let a = run(Case {
        queue: queue.clone(),
        cap: 100,
        launches: 2,
        ..Case::default()
    });
    assert_eq!(
        a,
        (0..4).map(|i| claim(&format!("q{i}"))).collect::<Vec<_>>()
    );
    // One held session waiting for its launch, one launching, one claim in flight: one more.
    let a = run(Case {
        queue: queue.clone(),
        tracks: vec![("w", held(RemoteState::NotRunning))],
        claiming: vec!["c"],
        launching: 1,
        cap: 100,
        launches: 2,
        ..Case::default()
    });
    assert_eq!(
        a,
        vec![
            Action::Provision {
                session: "w".into()
            },
            claim("q0")
        ]
    );
    // Sessions whose remotes run do not hold claims back.
    let a = run(Case {
        queue,
        tracks: vec![("r", held(RemoteState::Running { checked_at: 99.0 }))],
        cap: 100,
        launches: 2,
        ..Case::default()
    });
    assert_eq!(a.len(), 4, "{a:?}");
}

/// Replicas on one queue: past an even share of the claimed and claimable rows, a replica
/// takes only rows the others left for the grace; with no other acceptor in view, or rows
/// with no sighting on record, nothing is held back.
#[test]
fn past_an_even_share_only_rows_the_others_left_are_claimed() {
    let theirs = |id: &str| {
        entry(
            id,
            0.5,
            Phase::Claimed,
            SessionStatus::Running,
            Some("peer"),
        )
    };
    let fresh = |ids: &[&'static str]| ids.iter().map(|id| (*id, 99.5)).collect::<Vec<_>>();
    let rows = || {
        let mut q = vec![theirs("p1"), theirs("p2")];
        q.extend(["a", "b", "c", "d"].map(|id| pending(id, 10.0 + f64::from(id.as_bytes()[0]))));
        q
    };
    // 6 rows in demand, two acceptors: a share of 3; nothing held, so the 3 oldest.
    let a = run(Case {
        queue: rows(),
        pending_since: fresh(&["a", "b", "c", "d"]),
        cap: 10,
        ..Case::default()
    });
    assert_eq!(a, vec![claim("a"), claim("b"), claim("c")]);
    // Holding one already: two more, the last row left to the peer.
    let a = run(Case {
        queue: rows(),
        pending_since: fresh(&["a", "b", "c", "d"]),
        tracks: vec![("h", held(RemoteState::Running { checked_at: 99.0 }))],
        cap: 10,
        ..Case::default()
    });
    assert_eq!(a, vec![claim("a"), claim("b")]);
    // The peer left "d" for the grace: taken after all (never stranded).
    let a = run(Case {
        queue: rows(),
        pending_since: vec![
            ("a", 99.5),
            ("b", 99.5),
            ("c", 99.5),
            ("d", 100.0 - share::SHARE_GRACE),
        ],
        tracks: vec![("h", held(RemoteState::Running { checked_at: 99.0 }))],
        cap: 10,
        ..Case::default()
    });
    assert_eq!(a, vec![claim("a"), claim("b"), claim("d")]);
    // No sighting on record counts as waited.
    let a = run(Case {
        queue: rows(),
        tracks: vec![("h", held(RemoteState::Running { checked_at: 99.0 }))],
        cap: 10,
        ..Case::default()
    });
    assert_eq!(a.len(), 4, "{a:?}");
    // No peer in view: every row, up to the cap.
    let mut alone = rows();
    alone.drain(..2);
    let a = run(Case {
        queue: alone,
        pending_since: fresh(&["a", "b", "c", "d"]),
        cap: 3,
        ..Case::default()
    });
    assert_eq!(a, vec![claim("a"), claim("b"), claim("c")]);
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
fn an_unanswered_claim_counts_against_the_cap_until_a_later_relist() {
    let mut t = Track::default();
    apply(&mut t, Outcome::Claimed(ClaimResult::Failed), 100.0);
    let h = || held(RemoteState::Running { checked_at: 99.0 });
    let queue = || vec![pending("a", 1.0), pending("b", 2.0), pending("c", 3.0)];
    // Cap 2: one held, one unanswered: nothing more is claimed.
    let full = run(Case {
        queue: queue(),
        tracks: vec![("h", h()), ("a", t.clone())],
        cap: 2,
        now: 200.0,
        ..Case::default()
    });
    assert!(full.is_empty(), "{full:?}");
    // A relist begun before the failure settles nothing; one begun after it does.
    apply(&mut t, Outcome::Relisted { began: 99.0 }, 101.0);
    assert_eq!(t.claim_unsure_since, Some(100.0));
    apply(&mut t, Outcome::Relisted { began: 102.0 }, 103.0);
    assert_eq!(t.claim_unsure_since, None);
    let freed = run(Case {
        queue: queue(),
        tracks: vec![("h", h()), ("a", t.clone())],
        cap: 2,
        now: 200.0,
        ..Case::default()
    });
    assert_eq!(freed, vec![claim("a")]);
    // Shown as ours: adopted, and counted once, not twice.
    let mut u = Track::default();
    apply(&mut u, Outcome::Claimed(ClaimResult::Failed), 100.0);
    let ours = run(Case {
        queue: vec![
            entry("a", 1.0, Phase::Claimed, SessionStatus::Pending, Some(ME)),
            pending("b", 2.0),
        ],
        tracks: vec![("a", u)],
        cap: 2,
        now: 200.0,
        ..Case::default()
    });
    assert_eq!(
        ours,
        vec![
            Action::Adopt {
                session: "a".into()
            },
            claim("b")
        ]
    );
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
            kind: EndKind::Terminate,
            sandbox: SandboxEnd::Delete,
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
    let sid = || SessionId::from("s");
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
        run(Case {
            tracks: vec![(
                "s",
                Track {
                    terminated: true,
                    ..held(RemoteState::Unknown)
                }
            )],
            busy: vec!["s"],
            ..Case::default()
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
            sandbox: match kind {
                EndKind::Terminate => SandboxEnd::Delete,
                EndKind::Foreign => SandboxEnd::Leave,
                _ => SandboxEnd::Stop,
            },
        }]
    };
    assert_eq!(
        s(Track {
            terminated: true,
            ..held(RemoteState::Running { checked_at: 99.0 })
        }),
        end(EndKind::Terminate)
    );
    // Fewer than three strikes, the remote checked a moment ago: re-read, do not stop.
    let two = Track {
        strikes: 2,
        ..held(RemoteState::Running { checked_at: 99.9 })
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

/// What a list row, watch event or read reports, applied to a held track at `now`.
fn seen(t: &mut Track, status: Option<SessionStatus>, now: f64) {
    t.apply(
        Outcome::Seen(Sighting {
            status,
            holder: Holder::Nobody,
            deadline: None,
        }),
        now,
        &Limits::default(),
    );
}

#[test]
fn observations_count_consecutive_strikes() {
    let mut t = held(RemoteState::Unknown);
    seen(&mut t, Some(SessionStatus::Suspended), 10.0);
    seen(&mut t, None, 12.0);
    assert_eq!(t.strikes, 2);
    seen(&mut t, Some(SessionStatus::Unknown), 14.0);
    assert_eq!(t.strikes, 2, "unknown neither counts nor resets");
    seen(&mut t, Some(SessionStatus::Running), 15.0);
    assert_eq!(t.strikes, 0, "a blip is forgiven");
    seen(&mut t, Some(SessionStatus::Terminated), 16.0);
    assert!(t.terminated);
}

#[test]
fn strikes_are_spaced_in_time() {
    // A watch event, a relist and a read within one second are one strike, not three.
    let mut t = held(RemoteState::Unknown);
    for now in [100.0, 100.2, 100.5, 101.9] {
        seen(&mut t, Some(SessionStatus::Suspended), now);
    }
    assert_eq!(t.strikes, 1);
    seen(&mut t, None, 102.0);
    seen(&mut t, None, 103.0);
    assert_eq!(t.strikes, 2);
    seen(&mut t, Some(SessionStatus::Suspended), 104.0);
    assert_eq!(
        t.strikes, SUSPEND_STRIKES,
        "three strikes take at least 4 s"
    );
    // Running resets the spacing too.
    seen(&mut t, Some(SessionStatus::Running), 104.5);
    seen(&mut t, None, 104.6);
    assert_eq!(t.strikes, 1);
}

fn apply(t: &mut Track, o: Outcome, now: f64) {
    t.apply(o, now, &Limits::default());
}

/// The one plan step for a lone held session `s` at `now`.
fn step(t: &Track, now: f64) -> Vec<Action> {
    run(Case {
        tracks: vec![("s", t.clone())],
        now,
        ..Case::default()
    })
}

fn sid() -> SessionId {
    "s".into()
}

#[test]
fn claim_outcomes() {
    // Won: held, with the deadline and whether a token came; claim errors are forgiven.
    let mut t = Track {
        claim_errors: 2,
        retry_at: Some(130.0),
        lost_race: true,
        ..Track::default()
    };
    apply(
        &mut t,
        Outcome::Claimed(ClaimResult::Won {
            deadline: Some(400.0),
            token: true,
        }),
        100.0,
    );
    assert!(t.held && t.has_token && !t.lost_race);
    assert_eq!(
        (t.claim_errors, t.retry_at, t.claim_deadline),
        (0, None, Some(400.0))
    );
    // 409: someone else won; leave it alone until the next relist.
    let mut t = Track::default();
    apply(&mut t, Outcome::Claimed(ClaimResult::Conflict), 100.0);
    assert!(t.lost_race && !t.held);
    apply(&mut t, Outcome::Relisted { began: 100.5 }, 101.0);
    assert!(!t.lost_race);
    // An error: the claim may have committed; back off 5 s, 10 s, 20 s …
    let mut t = Track::default();
    for (n, wait) in [(1, 5.0), (2, 10.0), (3, 20.0)] {
        apply(&mut t, Outcome::Claimed(ClaimResult::Failed), 100.0);
        assert_eq!(t.claim_errors, n);
        assert_eq!(t.retry_at, Some(100.0 + wait));
        assert!(t.lost_race);
    }
}

#[test]
fn another_acceptor_holding_it_ends_our_hold_and_we_touch_nothing() {
    let other = Sighting {
        status: Some(SessionStatus::Running),
        holder: Holder::Other,
        deadline: Some(999.0),
    };
    // A list row or watch event may be stale (a replay, a listing read before our claim's
    // answer): the hold stays, nothing but an exact read is done, and that read decides …
    let mut t = Track {
        terminated: true,
        ..held(RemoteState::Running { checked_at: 99.0 })
    };
    apply(&mut t, Outcome::Seen(other.clone()), 100.0);
    assert!(t.held && t.holder_doubt);
    assert_eq!(step(&t, 100.0), vec![Action::Reread { session: sid() }]);
    apply(&mut t, Outcome::Reread(Some(other.clone())), 100.0);
    assert!(!t.held);
    assert!(step(&t, 100.0).is_empty(), "no end, no stop: it is theirs");
    // … or finds it still ours, and the work goes on.
    let mut t = held(RemoteState::Running { checked_at: 99.0 });
    apply(&mut t, Outcome::Seen(other.clone()), 100.0);
    let mine = Sighting {
        holder: Holder::Me,
        ..other.clone()
    };
    apply(&mut t, Outcome::Reread(Some(mine)), 100.5);
    assert!(t.held && !t.holder_doubt);
    // An exact read …
    let mut t = held(RemoteState::Running { checked_at: 99.0 });
    apply(&mut t, Outcome::Reread(Some(other)), 100.0);
    assert!(!t.held);
    // … or a 409 on our renewal.
    let mut t = held(RemoteState::Running { checked_at: 99.0 });
    apply(&mut t, Outcome::Renewed(ClaimResult::Conflict), 100.0);
    assert!(!t.held);
    assert!(step(&t, 100.0).is_empty());
}

#[test]
fn renewal_margin_and_the_token_a_launch_needs() {
    // Renew `renew_margin` (60 s) before the deadline, not earlier.
    let t = Track {
        claim_deadline: Some(170.0),
        ..held(RemoteState::Running { checked_at: 99.0 })
    };
    assert!(step(&t, 100.0).is_empty());
    assert_eq!(step(&t, 110.0), vec![Action::Renew { session: sid() }]);
    // A remote that is not running and no token (after a restart): renew first, then launch.
    let mut t = Track {
        has_token: false,
        ..held(RemoteState::Unknown)
    };
    assert_eq!(step(&t, 100.0), vec![Action::Provision { session: sid() }]);
    apply(
        &mut t,
        Outcome::Provisioned(ProvisionResult::NeedToken),
        100.0,
    );
    assert_eq!(step(&t, 100.0), vec![Action::Renew { session: sid() }]);
    apply(
        &mut t,
        Outcome::Renewed(ClaimResult::Won {
            deadline: Some(1000.0),
            token: true,
        }),
        100.0,
    );
    assert_eq!(step(&t, 100.0), vec![Action::Provision { session: sid() }]);
    apply(&mut t, Outcome::Provisioned(ProvisionResult::Served), 101.0);
    assert_eq!(t.remote, RemoteState::Running { checked_at: 101.0 });
    // A renewal for a token that brings none is a failed launch, not a loop.
    let mut t = Track {
        has_token: false,
        ..held(RemoteState::NotRunning)
    };
    apply(
        &mut t,
        Outcome::Renewed(ClaimResult::Won {
            deadline: Some(1000.0),
            token: false,
        }),
        100.0,
    );
    assert_eq!(t.failures, 1);
    assert_eq!(t.failed, Some(EndKind::Failed));
}

/// When does a failing session stop being retried? Each failed attempt releases it with its
/// sandbox stopped and backs off 5, 10, 20, 40 s; the fifth failure cools it off for
/// COOL_OFF (600 s). Its failures are remembered for FAILURE_MEMORY after the backoff, so the
/// count keeps growing across claims.
#[test]
fn a_failing_session_backs_off_then_cools_off() {
    let mut t = held(RemoteState::Unknown);
    let mut now = 100.0;
    for (n, wait) in [(1, 5.0), (2, 10.0), (3, 20.0), (4, 40.0), (5, COOL_OFF)] {
        assert_eq!(step(&t, now), vec![Action::Provision { session: sid() }]);
        apply(
            &mut t,
            Outcome::Provisioned(ProvisionResult::Failed(ProvisionFailure::Other)),
            now,
        );
        assert_eq!(t.failures, n);
        assert_eq!(t.retry_at, Some(now + wait), "failure {n}");
        // Ending comes first: stop (disk kept), then release.
        assert_eq!(
            step(&t, now),
            vec![Action::End {
                session: sid(),
                kind: EndKind::Failed,
                sandbox: SandboxEnd::Stop,
            }]
        );
        apply(
            &mut t,
            Outcome::Ended {
                kind: EndKind::Failed,
                sandbox_done: true,
                released: Some(true),
            },
            now,
        );
        assert!(!t.held && t.failed.is_none());
        assert_eq!(t.failures, n, "remembered after the release");
        assert!(t.worth_keeping(now + wait + FAILURE_MEMORY - 1.0));
        assert!(!t.worth_keeping(now + wait + FAILURE_MEMORY + 1.0));
        // Not claimed again before the backoff ends; then claimed and held again.
        let queue = vec![pending("s", 1.0)];
        let before = run(Case {
            queue: queue.clone(),
            tracks: vec![("s", t.clone())],
            now: now + wait - 0.5,
            ..Case::default()
        });
        assert!(before.is_empty(), "{before:?}");
        now += wait;
        let after = run(Case {
            queue,
            tracks: vec![("s", t.clone())],
            now,
            ..Case::default()
        });
        assert_eq!(after, vec![claim("s")]);
        apply(
            &mut t,
            Outcome::Claimed(ClaimResult::Won {
                deadline: Some(now + 300.0),
                token: true,
            }),
            now,
        );
    }
    // A held session whose remote keeps crashing is given up after MAX_FAILURES.
    let mut t = held(RemoteState::Running { checked_at: 0.0 });
    for _ in 0..MAX_FAILURES {
        apply(&mut t, Outcome::Checked(CheckResult::Exited(1)), 100.0);
    }
    assert_eq!(
        step(&t, 100.0),
        vec![Action::End {
            session: sid(),
            kind: EndKind::GiveUp,
            sandbox: SandboxEnd::Stop,
        }]
    );
    apply(
        &mut t,
        Outcome::Ended {
            kind: EndKind::GiveUp,
            sandbox_done: true,
            released: Some(true),
        },
        100.0,
    );
    assert_eq!(t.retry_at, Some(100.0 + COOL_OFF));
    // A healthy check forgives crashes.
    let mut t = held(RemoteState::Running { checked_at: 0.0 });
    apply(&mut t, Outcome::Checked(CheckResult::Absent), 100.0);
    assert_eq!((t.failures, t.retry_at), (1, Some(105.0)));
    apply(&mut t, Outcome::Checked(CheckResult::Running), 106.0);
    assert_eq!(t.failures, 0);
}

#[test]
fn a_foreign_sandbox_is_left_alone_and_the_session_cools_off() {
    let mut t = held(RemoteState::Unknown);
    apply(
        &mut t,
        Outcome::Provisioned(ProvisionResult::Failed(ProvisionFailure::Foreign)),
        100.0,
    );
    assert_eq!(t.retry_at, Some(100.0 + COOL_OFF));
    assert_eq!(
        step(&t, 100.0),
        vec![Action::End {
            session: sid(),
            kind: EndKind::Foreign,
            sandbox: SandboxEnd::Leave,
        }]
    );
}

#[test]
fn ending_retries_and_releases_even_when_the_provider_keeps_failing() {
    let mut t = Track {
        strikes: SUSPEND_STRIKES,
        ..held(RemoteState::Running { checked_at: 99.0 })
    };
    let stop = |t: &Track, now| step(t, now);
    let sleep = |sandbox| {
        vec![Action::End {
            session: sid(),
            kind: EndKind::Sleep,
            sandbox,
        }]
    };
    let mut now = 100.0;
    for n in 1..MAX_FAILURES {
        assert_eq!(stop(&t, now), sleep(SandboxEnd::Stop));
        apply(
            &mut t,
            Outcome::Ended {
                kind: EndKind::Sleep,
                sandbox_done: false,
                released: None,
            },
            now,
        );
        assert_eq!(t.end_retry_at, Some(now + backoff(n)));
        assert!(stop(&t, now + backoff(n) - 0.1).is_empty(), "backing off");
        now += backoff(n);
    }
    apply(
        &mut t,
        Outcome::Ended {
            kind: EndKind::Sleep,
            sandbox_done: false,
            released: None,
        },
        now,
    );
    // The fifth failure: release at once, leaving the sandbox to the janitor.
    assert_eq!(stop(&t, now), sleep(SandboxEnd::Leave));
    // A release that fails is retried after RELEASE_RETRY.
    apply(
        &mut t,
        Outcome::Ended {
            kind: EndKind::Sleep,
            sandbox_done: true,
            released: Some(false),
        },
        now,
    );
    assert_eq!(t.end_retry_at, Some(now + RELEASE_RETRY));
    assert!(t.held, "still ours until the release goes through");
    apply(
        &mut t,
        Outcome::Ended {
            kind: EndKind::Sleep,
            sandbox_done: true,
            released: Some(true),
        },
        now + RELEASE_RETRY,
    );
    assert_eq!(t, Track::default(), "a slept session is forgotten");
}

#[test]
fn exit_zero_is_reread_then_relaunched() {
    let mut t = held(RemoteState::Running { checked_at: 0.0 });
    apply(&mut t, Outcome::Checked(CheckResult::Exited(0)), 100.0);
    assert_eq!(t.failures, 0, "exit 0 is not a crash");
    let running = Sighting {
        status: Some(SessionStatus::Running),
        holder: Holder::Me,
        deadline: None,
    };
    for n in 0..EXIT_REREADS {
        let now = 100.0 + 2.0 * f64::from(n);
        assert_eq!(step(&t, now), vec![Action::Reread { session: sid() }]);
        apply(&mut t, Outcome::Reread(Some(running.clone())), now);
    }
    // The status never explained the exit: relaunch.
    assert_eq!(step(&t, 120.0), vec![Action::Provision { session: sid() }]);
    // A failed read counts as a read attempt for pacing only.
    let mut t = Track {
        strikes: 1,
        ..held(RemoteState::Running { checked_at: 99.0 })
    };
    apply(&mut t, Outcome::Reread(None), 100.0);
    assert_eq!((t.last_reread, t.strikes), (Some(100.0), 1));
}

#[test]
fn relist_forgets_idle_tracks_but_not_failures() {
    let mut tracks: BTreeMap<String, Track> = [
        ("idle".to_string(), Track::default()),
        ("held".to_string(), held(RemoteState::Unknown)),
        (
            "failed".to_string(),
            Track {
                failures: 2,
                retry_at: Some(110.0),
                ..Track::default()
            },
        ),
        ("busy".to_string(), Track::default()),
    ]
    .into_iter()
    .collect();
    let busy: BTreeSet<String> = ["busy".to_string()].into_iter().collect();
    forget(&mut tracks, &busy, 100.0);
    let kept: Vec<&str> = tracks.keys().map(String::as_str).collect();
    assert_eq!(kept, vec!["busy", "failed", "held"]);
    forget(&mut tracks, &BTreeSet::new(), 110.0 + FAILURE_MEMORY + 1.0);
    assert_eq!(tracks.keys().collect::<Vec<_>>(), vec!["held"]);
}

#[test]
fn sightings_from_entries() {
    let mine = entry("s", 1.0, Phase::Claimed, SessionStatus::Running, Some(ME));
    let theirs = entry("s", 1.0, Phase::Claimed, SessionStatus::Running, Some("x"));
    let free = pending("s", 1.0);
    assert_eq!(holder(&mine, ME), Holder::Me);
    assert_eq!(holder(&theirs, ME), Holder::Other);
    assert_eq!(holder(&free, ME), Holder::Nobody);
    let mut with_deadline = mine.clone();
    with_deadline.claim_deadline = Some(5.0);
    assert_eq!(sighting(&with_deadline, ME, true).deadline, Some(5.0));
    assert_eq!(sighting(&with_deadline, ME, false).deadline, None);
    // A held session's deadline follows a listing that shows it ours.
    let mut t = held(RemoteState::Unknown);
    apply(
        &mut t,
        Outcome::Seen(sighting(&with_deadline, ME, true)),
        100.0,
    );
    assert_eq!(t.claim_deadline, Some(5.0));
    // Sightings of a session we do not hold change nothing.
    let mut t = Track::default();
    apply(&mut t, Outcome::Seen(Sighting::absent()), 100.0);
    assert_eq!(t, Track::default());
}

#[test]
fn a_clean_exit_with_the_session_suspended_sleeps_at_once() {
    let suspended = |t: &mut Track, now| seen(t, Some(SessionStatus::Suspended), now);
    // Suspended while the remote was last seen running: check it before counting strikes.
    let mut t = held(RemoteState::Running { checked_at: 90.0 });
    suspended(&mut t, 100.0);
    assert_eq!(
        step(&t, 100.0),
        vec![Action::CheckRemote { session: sid() }]
    );
    // It exited 0: sleep now, not after three strikes.
    apply(&mut t, Outcome::Checked(CheckResult::Exited(0)), 100.2);
    assert_eq!(
        step(&t, 100.2),
        vec![Action::End {
            session: sid(),
            kind: EndKind::Sleep,
            sandbox: SandboxEnd::Stop,
        }]
    );
    // The other order: the exit is seen first, then the suspended read.
    let mut t = held(RemoteState::Running { checked_at: 90.0 });
    apply(&mut t, Outcome::Checked(CheckResult::Exited(0)), 100.0);
    assert_eq!(step(&t, 100.0), vec![Action::Reread { session: sid() }]);
    apply(
        &mut t,
        Outcome::Reread(Some(Sighting {
            status: Some(SessionStatus::Suspended),
            holder: Holder::Me,
            deadline: None,
        })),
        100.5,
    );
    assert!(matches!(
        step(&t, 100.5).as_slice(),
        [Action::End {
            kind: EndKind::Sleep,
            ..
        }]
    ));
    // A blip while the remote still runs: checked once, then strikes are counted as before.
    let mut t = held(RemoteState::Running { checked_at: 90.0 });
    suspended(&mut t, 100.0);
    apply(&mut t, Outcome::Checked(CheckResult::Running), 100.1);
    assert_eq!(step(&t, 100.1), vec![Action::Reread { session: sid() }]);
    apply(
        &mut t,
        Outcome::Reread(Some(Sighting {
            status: Some(SessionStatus::Suspended),
            holder: Holder::Me,
            deadline: None,
        })),
        100.2,
    );
    assert!(
        step(&t, 100.4).is_empty(),
        "neither a check nor a read is due"
    );
    // Still suspended half a second after the last check: check again (it may exit now).
    assert_eq!(
        step(&t, 100.7),
        vec![Action::CheckRemote { session: sid() }]
    );
    apply(&mut t, Outcome::Checked(CheckResult::Running), 100.7);
    seen(&mut t, Some(SessionStatus::Running), 101.5);
    assert_eq!(t.strikes, 0, "the blip is forgiven");
    assert!(step(&t, 101.5).is_empty());
}

#[test]
fn a_policy_that_cannot_be_enforced_releases_and_cools_off_without_a_tight_loop() {
    let mut t = held(RemoteState::Unknown);
    apply(
        &mut t,
        Outcome::Provisioned(ProvisionResult::Failed(ProvisionFailure::Policy)),
        100.0,
    );
    // First failure already cools off: the policy will not be enforceable next time either.
    assert_eq!(t.retry_at, Some(100.0 + COOL_OFF));
    assert_eq!(
        step(&t, 100.0),
        vec![Action::End {
            session: sid(),
            kind: EndKind::Failed,
            sandbox: SandboxEnd::Stop,
        }]
    );
    apply(
        &mut t,
        Outcome::Ended {
            kind: EndKind::Failed,
            sandbox_done: true,
            released: Some(true),
        },
        101.0,
    );
    assert!(!t.held);
    // Still pending in the queue: not claimed again until the cool-off ends.
    let case = |now: f64, t: &Track| Case {
        queue: vec![pending("s", 1.0)],
        tracks: vec![("s", t.clone())],
        now,
        ..Case::default()
    };
    assert!(run(case(100.0 + COOL_OFF - 1.0, &t)).is_empty());
    assert_eq!(run(case(100.0 + COOL_OFF, &t)), vec![claim("s")]);
}
