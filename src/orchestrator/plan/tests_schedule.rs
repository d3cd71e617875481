//! Table tests of the renewal pace and the early checks of a launched remote (`schedule.rs`):
//! a session is simulated pass by pass, every action answered at once.
use std::collections::{BTreeMap, BTreeSet};

use super::schedule::{EARLY_EXIT_LIMIT, GiveUpReason, MIN_RENEW_GAP, short_ttl};
use super::*;

const STEP: f64 = 0.25;

fn limits(margin: f64) -> Limits {
    Limits {
        renew_margin: margin,
        ..Limits::default()
    }
}

fn next(t: &Track, now: f64, l: &Limits) -> Option<Action> {
    let queue = BTreeMap::new();
    let tracks = BTreeMap::new();
    let none = BTreeSet::new();
    let o = Observed {
        now,
        acceptor_id: "me",
        queue: &queue,
        pending_since: &BTreeMap::new(),
        tracks: &tracks,
        claiming: &none,
        busy: &none,
        launching: 0,
        limits: l,
        draining: false,
    };
    plan_held(&o, "s", t)
}

/// Claim at 0 with `ttl`, then run `secs` of passes; the renewal times and the first
/// provisioning time.
fn simulate(ttl: f64, l: &Limits, secs: f64) -> (Vec<f64>, Option<f64>) {
    let mut t = Track::default();
    t.apply(
        Outcome::Claimed(ClaimResult::Won {
            deadline: Some(ttl),
            token: true,
        }),
        0.0,
        l,
    );
    let mut renewals = Vec::new();
    let mut provisioned = None;
    let mut now = 0.0;
    while now <= secs {
        match next(&t, now, l) {
            Some(Action::Renew { .. }) => {
                let deadline = t.claim_deadline.unwrap_or(0.0);
                assert!(
                    now < deadline,
                    "ttl {ttl} margin {}: renewed at {now} after the deadline {deadline}",
                    l.renew_margin
                );
                renewals.push(now);
                let won = ClaimResult::Won {
                    deadline: Some(now + ttl),
                    token: true,
                };
                t.apply(Outcome::Renewed(won), now, l);
            }
            Some(Action::Provision { .. }) => {
                provisioned.get_or_insert(now);
                t.apply(Outcome::Provisioned(ProvisionResult::Served), now, l);
            }
            Some(Action::CheckRemote { .. }) => {
                t.apply(Outcome::Checked(CheckResult::Running), now, l)
            }
            Some(other) => panic!("unexpected {other:?}"),
            None => {}
        }
        now += STEP;
    }
    (renewals, provisioned)
}

#[test]
fn renewal_follows_the_granted_ttl_for_every_margin() {
    // (ttl, margin, expected seconds between renewals)
    let table = [
        (5.0, 8.0, 2.5),
        (5.0, 60.0, 2.5),
        (5.0, 120.0, 2.5),
        (20.0, 8.0, 12.0),
        (20.0, 60.0, 10.0),
        (20.0, 120.0, 10.0),
        (60.0, 8.0, 52.0),
        (60.0, 60.0, 30.0),
        (60.0, 120.0, 30.0),
        (300.0, 8.0, 292.0),
        (300.0, 60.0, 240.0),
        (300.0, 120.0, 180.0),
    ];
    for (ttl, margin, every) in table {
        let l = limits(margin);
        let secs = 600.0;
        let (renewals, provisioned) = simulate(ttl, &l, secs);
        let case = format!("ttl {ttl} s, margin {margin} s");
        // Provisioning is not starved: it runs at once, before any renewal.
        assert_eq!(provisioned, Some(0.0), "{case}");
        assert!(!renewals.is_empty(), "{case}: never renewed");
        let mut last = 0.0;
        for r in &renewals {
            let gap = r - last;
            assert!(gap >= MIN_RENEW_GAP, "{case}: renewed {gap} s apart");
            assert!(
                (gap - every).abs() <= STEP,
                "{case}: every {gap} s, want {every}"
            );
            last = *r;
        }
        // The bound: at most one renewal per max(MIN_RENEW_GAP, ttl / 2) seconds.
        let per_minute = renewals.len() as f64 * 60.0 / secs;
        let bound = 60.0 / MIN_RENEW_GAP.max(ttl / 2.0).min(every) + 1.0;
        assert!(per_minute <= bound, "{case}: {per_minute}/min > {bound}");
        // Too short to honour the margin ⇔ a warning with the numbers.
        let short = short_ttl(ttl, &l);
        assert_eq!(short.is_some(), margin > ttl / 2.0, "{case}");
        if let Some(s) = short {
            let text = s.to_string();
            assert!(text.contains(&format!("{ttl:.0} s")), "{text}");
            assert!(text.contains(&format!("{margin:.0} s")), "{text}");
        }
    }
}

#[test]
fn an_unknown_ttl_renews_once_then_follows_the_answer() {
    // Adopted with a deadline inside the margin: renew now, then at the TTL's pace.
    let l = limits(60.0);
    let mut t = Track {
        held: true,
        has_token: true,
        claim_deadline: Some(110.0),
        remote: RemoteState::Running { checked_at: 100.0 },
        ..Track::default()
    };
    assert!(matches!(next(&t, 100.0, &l), Some(Action::Renew { .. })));
    let won = ClaimResult::Won {
        deadline: Some(120.0),
        token: true,
    };
    t.apply(Outcome::Renewed(won), 100.0, &l);
    assert_eq!(t.ttl, Some(20.0));
    assert_eq!(next(&t, 101.0, &l), None);
    assert!(matches!(next(&t, 110.0, &l), Some(Action::Renew { .. })));
    // A failed renewal is retried no sooner than MIN_RENEW_GAP.
    t.apply(Outcome::Renewed(ClaimResult::Failed), 110.0, &l);
    assert_eq!(next(&t, 110.0 + MIN_RENEW_GAP - 0.1, &l), None);
    assert!(matches!(
        next(&t, 110.0 + MIN_RENEW_GAP, &l),
        Some(Action::Renew { .. })
    ));
}

#[test]
fn a_launched_remote_is_checked_at_1_5_and_15_s_then_at_the_interval() {
    let l = limits(60.0);
    let mut t = held(100.0);
    t.apply(Outcome::Provisioned(ProvisionResult::Served), 10.0, &l);
    let mut checks = Vec::new();
    let mut now = 10.0;
    while now <= 200.0 {
        if let Some(Action::CheckRemote { .. }) = next(&t, now, &l) {
            checks.push(now);
            t.apply(Outcome::Checked(CheckResult::Running), now, &l);
        }
        now += STEP;
    }
    assert_eq!(checks, vec![11.0, 15.0, 25.0, 25.0 + l.liveness_every]);
}

fn held(deadline: f64) -> Track {
    Track {
        held: true,
        has_token: true,
        claim_deadline: Some(deadline + 10_000.0),
        ..Track::default()
    }
}

#[test]
fn a_remote_that_exits_at_once_is_given_up_within_a_minute() {
    let l = limits(60.0);
    let mut t = held(0.0);
    let mut launches = Vec::new();
    let mut now = 0.0;
    let mut given_up = None;
    while now <= 120.0 && given_up.is_none() {
        match next(&t, now, &l) {
            Some(Action::Provision { .. }) => {
                launches.push(now);
                t.apply(Outcome::Provisioned(ProvisionResult::Served), now, &l);
            }
            Some(Action::CheckRemote { .. }) => {
                t.apply(Outcome::Checked(CheckResult::Exited(2)), now, &l)
            }
            Some(Action::End { kind, .. }) => {
                assert_eq!(kind, EndKind::GiveUp);
                given_up = Some(now);
                let ended = Outcome::Ended {
                    kind,
                    sandbox_done: true,
                    released: Some(true),
                };
                t.apply(ended, now, &l);
            }
            Some(other) => panic!("unexpected {other:?}"),
            None => {}
        }
        now += STEP;
    }
    let at = given_up.expect("given up");
    assert_eq!(launches.len(), EARLY_EXIT_LIMIT as usize, "{launches:?}");
    assert!(at < 60.0, "given up at {at} s");
    assert!(!t.held);
    assert_eq!(t.retry_at, Some(at + COOL_OFF));
    assert_eq!(
        t.gave_up,
        Some(GiveUpReason::EarlyExits {
            count: EARLY_EXIT_LIMIT,
            code: Some(2)
        })
    );
    assert!(t.gave_up.unwrap().to_string().contains("exited 2"));
}

#[test]
fn a_remote_that_outlives_the_early_window_starts_the_count_again() {
    let l = limits(60.0);
    let mut t = held(0.0);
    for launch in [0.0, 40.0] {
        t.apply(Outcome::Provisioned(ProvisionResult::Served), launch, &l);
        t.apply(Outcome::Checked(CheckResult::Exited(1)), launch + 1.0, &l);
    }
    assert_eq!(t.early_exits, 2);
    t.apply(Outcome::Provisioned(ProvisionResult::Served), 80.0, &l);
    t.apply(Outcome::Checked(CheckResult::Running), 81.0, &l);
    assert_eq!(t.early_exits, 2, "one second up proves nothing");
    t.apply(Outcome::Checked(CheckResult::Running), 111.0, &l);
    assert_eq!(t.early_exits, 0);
    assert_eq!(t.failures, 0);
}
