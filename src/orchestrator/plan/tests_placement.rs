//! Table tests of placement and quarantine (`placement.rs`), with a fake clock.
use super::placement::*;
use super::{Action, SessionId};

fn snap(n: &str) -> Key {
    Key::snapshot(n)
}

fn policy() -> Policy {
    Policy::new(3, 60.0)
}

fn fail() -> Attempt {
    Attempt::Failed("create refused".into())
}

/// One step of a script: at `t`, what a create on `key` came to, and what must follow.
struct Step {
    t: f64,
    key: &'static str,
    attempt: Attempt,
    transition: Transition,
    /// Where the next sandbox goes afterwards (`None`: held) and whether as a probe.
    next: Option<(&'static str, bool)>,
}

fn run(candidates: &[&str], steps: &[Step]) {
    let p = policy();
    let keys: Vec<Key> = candidates.iter().map(|c| snap(c)).collect();
    let mut pl = Placements::default();
    // The create a step reports was the probe when the step before placed one on its key.
    let mut probing: Option<Key> = None;
    for (i, s) in steps.iter().enumerate() {
        let probe = probing.take().is_some_and(|k| k == snap(s.key));
        let got = pl.record(&snap(s.key), s.attempt.clone(), probe, s.t, &p);
        assert_eq!(got, s.transition, "step {i} at {}", s.t);
        let choice = pl.choose(&keys, s.t);
        let want = s.next.map(|(k, probe)| (snap(k), probe));
        let got = match &choice {
            Choice::Place { key, probe } => Some((key.clone(), *probe)),
            Choice::Hold { .. } => None,
        };
        assert_eq!(got, want, "step {i} at {}: {choice:?}", s.t);
        if let Choice::Place { key, probe: true } = choice {
            probing = Some(key);
        }
        assert_eq!(pl.may_claim(&keys, s.t), want.is_some(), "step {i}");
    }
}

#[test]
fn three_failures_quarantine_and_the_fallback_takes_over() {
    use Transition as T;
    let step = |t, key, attempt, transition, next| Step {
        t,
        key,
        attempt,
        transition,
        next,
    };
    run(
        &["bad", "good"],
        &[
            step(
                0.0,
                "bad",
                Attempt::Ready(2.0),
                T::None,
                Some(("bad", false)),
            ),
            step(10.0, "bad", fail(), T::None, Some(("bad", false))),
            step(20.0, "bad", fail(), T::None, Some(("bad", false))),
            step(
                30.0,
                "bad",
                fail(),
                T::Quarantined {
                    failures: 3,
                    cool_off: 60.0,
                },
                Some(("good", false)),
            ),
            // The fallback serves while the first cools off; after the cool-off the first is
            // probed, and its success brings it back.
            step(
                40.0,
                "good",
                Attempt::Ready(3.0),
                T::None,
                Some(("good", false)),
            ),
            step(
                95.0,
                "good",
                Attempt::Ready(3.0),
                T::None,
                Some(("bad", true)),
            ),
            step(
                99.0,
                "bad",
                Attempt::Ready(2.0),
                T::Recovered,
                Some(("bad", false)),
            ),
        ],
    );
}

#[test]
fn without_a_fallback_claiming_stops_then_probes_double_the_cool_off_then_recover() {
    use Transition as T;
    let p = policy();
    let keys = [snap("only")];
    let mut pl = Placements::default();
    for t in [0.0, 1.0] {
        assert_eq!(pl.record(&keys[0], fail(), false, t, &p), T::None);
    }
    assert_eq!(
        pl.record(&keys[0], fail(), false, 2.0, &p),
        T::Quarantined {
            failures: 3,
            cool_off: 60.0
        }
    );
    // Cooling off: nothing is placed or claimed; the hold says until when.
    assert_eq!(pl.choose(&keys, 30.0), Choice::Hold { until: Some(62.0) });
    assert!(!pl.may_claim(&keys, 61.9));
    // The cool-off is over: one probe, and nothing else while it is out.
    assert_eq!(
        pl.choose(&keys, 62.0),
        Choice::Place {
            key: keys[0].clone(),
            probe: true
        }
    );
    pl.placed(&keys[0], true, 62.0);
    assert!(
        !pl.may_claim(&keys, 63.0),
        "a second claim waits for the probe"
    );
    // The probe fails: twice the cool-off, then four times, bounded at 32×.
    assert_eq!(
        pl.record(&keys[0], fail(), true, 70.0, &p),
        T::StillBad { cool_off: 120.0 }
    );
    assert_eq!(pl.choose(&keys, 189.0), Choice::Hold { until: Some(190.0) });
    let mut t = 190.0;
    let mut cool = 120.0;
    for _ in 0..6 {
        cool = (cool * 2.0f64).min(60.0 * 32.0);
        pl.placed(&keys[0], true, t);
        assert_eq!(
            pl.record(&keys[0], fail(), true, t, &p),
            T::StillBad { cool_off: cool }
        );
        t += cool;
    }
    assert_eq!(cool, 1920.0, "bounded");
    // A probe that succeeds brings it back; claiming resumes at once.
    pl.placed(&keys[0], true, t);
    assert_eq!(
        pl.record(&keys[0], Attempt::Ready(4.0), true, t + 5.0, &p),
        T::Recovered
    );
    assert!(pl.may_claim(&keys, t + 5.0));
    assert_eq!(pl.score(&keys[0]).map(|s| s.failures), Some(0));
}

#[test]
fn creates_in_flight_when_the_quarantine_begins_do_not_lengthen_it() {
    use Transition as T;
    let p = policy();
    let keys = [snap("only")];
    let mut pl = Placements::default();
    // Six creates went out together; the third failure quarantines, the other three fail
    // after it began.
    for t in [0.0, 1.0] {
        pl.record(&keys[0], fail(), false, t, &p);
    }
    assert!(matches!(
        pl.record(&keys[0], fail(), false, 2.0, &p),
        T::Quarantined { .. }
    ));
    for t in [3.0, 4.0, 5.0] {
        assert_eq!(pl.record(&keys[0], fail(), false, t, &p), T::None);
    }
    assert_eq!(pl.choose(&keys, 61.0), Choice::Hold { until: Some(62.0) });
    // Its probe goes after the first cool-off; a late failure while it is out neither
    // lengthens the cool-off nor lets a second probe go.
    pl.placed(&keys[0], true, 62.0);
    assert_eq!(pl.record(&keys[0], fail(), false, 63.0, &p), T::None);
    assert!(!pl.may_claim(&keys, 64.0), "the probe is still out");
    assert_eq!(
        pl.record(&keys[0], fail(), true, 65.0, &p),
        T::StillBad { cool_off: 120.0 }
    );
    let s = pl.score(&keys[0]).unwrap();
    assert_eq!(
        (s.failures, s.total_failures),
        (8, 8),
        "every failure is counted"
    );
}

#[test]
fn a_create_in_flight_that_succeeds_ends_the_quarantine_and_its_probe_mark() {
    use Transition as T;
    let p = policy();
    let keys = [snap("only")];
    let mut pl = Placements::default();
    for t in [0.0, 1.0, 2.0] {
        pl.record(&keys[0], fail(), false, t, &p);
    }
    pl.placed(&keys[0], true, 62.0);
    assert_eq!(
        pl.record(&keys[0], Attempt::Ready(3.0), false, 63.0, &p),
        T::Recovered
    );
    // Quarantined again before the old probe answers: the new cool-off's probe goes on time.
    for t in [64.0, 65.0, 66.0] {
        pl.record(&keys[0], fail(), false, t, &p);
    }
    assert_eq!(
        pl.choose(&keys, 126.0),
        Choice::Place {
            key: keys[0].clone(),
            probe: true
        }
    );
}

#[test]
fn a_lost_probe_does_not_stop_claiming_for_good() {
    let p = policy();
    let keys = [snap("only")];
    let mut pl = Placements::default();
    for t in [0.0, 1.0, 2.0] {
        pl.record(&keys[0], fail(), false, t, &p);
    }
    pl.placed(&keys[0], true, 62.0);
    assert!(!pl.may_claim(&keys, 62.0 + PROBE_STALE - 1.0));
    assert!(pl.may_claim(&keys, 62.0 + PROBE_STALE));
}

#[test]
fn readiness_far_above_usual_counts_as_a_failure() {
    let p = policy();
    let k = snap("s");
    let mut pl = Placements::default();
    // Too few samples to know what is usual: a slow first create is not held against it.
    assert_eq!(
        pl.record(&k, Attempt::Ready(200.0), false, 0.0, &p),
        Transition::None
    );
    let mut pl = Placements::default();
    for t in 0..3 {
        pl.record(&k, Attempt::Ready(10.0), false, t as f64, &p);
    }
    // 5× and a minute more than usual: slow. Just below either bound: fine.
    assert_eq!(
        pl.record(&k, Attempt::Ready(70.0), false, 10.0, &p),
        Transition::None
    );
    assert_eq!(pl.score(&k).map(|s| s.failures), Some(0));
    let usual = pl.score(&k).and_then(|s| s.usual_ready).unwrap();
    let slow = usual * 5.0 + 61.0;
    pl.record(&k, Attempt::Ready(slow), false, 11.0, &p);
    pl.record(&k, Attempt::Ready(slow), false, 12.0, &p);
    assert!(matches!(
        pl.record(&k, Attempt::Ready(slow), false, 13.0, &p),
        Transition::Quarantined { failures: 3, .. }
    ));
    let s = pl.score(&k).unwrap();
    assert!(
        s.reason.as_deref().unwrap().starts_with("ready after"),
        "{s:?}"
    );
    // Slow ones do not drag the usual time up.
    assert_eq!(s.usual_ready, Some(usual));
}

#[test]
fn a_success_between_failures_resets_the_count() {
    let p = policy();
    let k = snap("s");
    let mut pl = Placements::default();
    for (t, a) in [(0.0, fail()), (1.0, fail()), (2.0, Attempt::Ready(1.0))] {
        pl.record(&k, a, false, t, &p);
    }
    assert_eq!(pl.record(&k, fail(), false, 3.0, &p), Transition::None);
    assert_eq!(pl.record(&k, fail(), false, 4.0, &p), Transition::None);
    assert!(matches!(
        pl.record(&k, fail(), false, 5.0, &p),
        Transition::Quarantined { .. }
    ));
}

#[test]
fn persisted_quarantine_survives_a_restart_and_the_memory_is_bounded() {
    let p = policy();
    let mut pl = Placements::default();
    for t in [0.0, 1.0, 2.0] {
        pl.record(&snap("bad"), fail(), false, t, &p);
    }
    pl.placed(&snap("bad"), true, 70.0);
    for i in 0..(MAX_REMEMBERED + 10) {
        pl.record(
            &snap(&format!("s{i}")),
            Attempt::Ready(1.0),
            false,
            10.0 + i as f64,
            &p,
        );
    }
    let back = Placements::from_json(&serde_json::from_str(&pl.to_json().to_string()).unwrap());
    assert_eq!(back.iter().count(), MAX_REMEMBERED);
    let bad = back
        .score(&snap("bad"))
        .expect("the quarantined one is kept");
    assert_eq!(bad.quarantined_until, Some(62.0));
    assert_eq!(bad.probe_at, None, "a probe in flight is not carried over");
    assert!(
        back.score(&snap("s0")).is_none(),
        "the oldest healthy one went"
    );
    assert_eq!(
        Placements::from_json(&serde_json::json!({"x": 1})),
        Placements::default()
    );
}

#[test]
fn the_gate_drops_claims_only() {
    let s = |n: &str| SessionId::from(n);
    let actions = vec![
        Action::Claim { session: s("a") },
        Action::Provision { session: s("b") },
        Action::Renew { session: s("c") },
    ];
    assert_eq!(gate(actions.clone(), true), actions);
    assert_eq!(gate(actions, false).len(), 2);
}
