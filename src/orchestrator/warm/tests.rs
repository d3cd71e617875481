//! The warm planner, table-tested.

use super::plan::*;

fn sb(id: &str, generation: &str, state: WarmState, since: f64) -> WarmSandbox {
    WarmSandbox {
        id: id.into(),
        generation: generation.into(),
        state,
        since,
    }
}

fn inputs<'a>(
    settings: &'a WarmSettings,
    pool: &'a [WarmSandbox],
    creating: usize,
    arrivals: &'a [f64],
) -> WarmInputs<'a> {
    WarmInputs {
        settings,
        now: 1000.0,
        generation: "g1",
        pool,
        creating,
        arrivals,
        misses: &[],
        observed_since: 0.0,
        create_seconds: Some(3.0),
        previous: None,
        draining: false,
    }
}

fn fixed(n: usize) -> WarmSettings {
    WarmSettings {
        idle: WarmIdle::Fixed(n),
        ..WarmSettings::default()
    }
}

use WarmState::{Broken, Coming, Ready};

#[test]
fn fixed_target_creates_what_is_missing_counting_creates_in_flight() {
    let s = fixed(3);
    let pool = [sb("a", "g1", Ready, 1.0), sb("b", "g1", Coming, 2.0)];
    // (creating in flight, expected actions)
    let table: &[(usize, Vec<WarmAction>)] = &[
        (0, vec![WarmAction::Create { count: 1 }]),
        (1, vec![]),
        // Over the target by a create in flight: nothing goes (creates are never cancelled, and
        // the ready one is not deleted for one that is not ready; the extra goes when it lands).
        (2, vec![]),
    ];
    for (creating, want) in table {
        let p = plan(&inputs(&s, &pool, *creating, &[]));
        assert_eq!(p.target, 3);
        assert_eq!(&p.actions, want, "creating {creating}");
    }
}

#[test]
fn extras_go_newest_first_and_stale_or_broken_ones_always_go() {
    let s = fixed(1);
    let pool = [
        sb("old", "g1", Ready, 1.0),
        sb("new", "g1", Ready, 5.0),
        sb("mid", "g1", Ready, 3.0),
        sb("prev-snapshot", "g0", Ready, 0.5),
        sb("errored", "g1", Broken, 0.7),
    ];
    let p = plan(&inputs(&s, &pool, 0, &[]));
    let deleted: Vec<(&str, DeleteWhy)> = p
        .actions
        .iter()
        .map(|a| match a {
            WarmAction::Delete { id, why } => (id.as_str(), *why),
            other => panic!("unexpected {other:?}"),
        })
        .collect();
    assert_eq!(
        deleted,
        [
            ("prev-snapshot", DeleteWhy::Stale),
            ("errored", DeleteWhy::Broken),
            ("new", DeleteWhy::Extra),
            ("mid", DeleteWhy::Extra),
        ]
    );
}

#[test]
fn a_snapshot_change_replaces_the_whole_capacity() {
    let s = fixed(2);
    let pool = [sb("a", "g0", Ready, 1.0), sb("b", "g0", Coming, 2.0)];
    let p = plan(&inputs(&s, &pool, 0, &[]));
    assert_eq!(
        p.actions,
        [
            WarmAction::Delete {
                id: "a".into(),
                why: DeleteWhy::Stale
            },
            WarmAction::Delete {
                id: "b".into(),
                why: DeleteWhy::Stale
            },
            WarmAction::Create { count: 2 },
        ]
    );
}

#[test]
fn caps_warm_max_and_the_spend_ceiling() {
    // (WARM_IDLE, WARM_MAX, ceiling $/h, one sandbox $/h) → (target, capped by)
    type Row = (usize, usize, Option<f64>, Option<f64>, usize, Option<Cap>);
    let table: &[Row] = &[
        (5, 20, None, None, 5, None),
        (5, 3, None, None, 3, Some(Cap::Max)),
        (5, 20, Some(1.0), Some(0.30), 3, Some(Cap::Spend)),
        (2, 20, Some(1.0), Some(0.30), 2, None),
        (5, 2, Some(1.0), Some(0.30), 2, Some(Cap::Max)),
        // A ceiling with an unknown price keeps none: unknown is not free.
        (5, 20, Some(1.0), None, 0, Some(Cap::Spend)),
        (5, 20, Some(0.1), Some(0.30), 0, Some(Cap::Spend)),
        (5, 20, Some(1.0), Some(0.0), 5, None),
    ];
    for &(idle, max, ceiling, cost, target, cap) in table {
        let s = WarmSettings {
            idle: WarmIdle::Fixed(idle),
            max,
            max_hourly_cost: ceiling,
            sandbox_hourly_cost: cost,
            delete_on_exit: true,
        };
        let p = plan(&inputs(&s, &[], 0, &[]));
        assert_eq!(
            (p.target, p.capped_by),
            (target, cap),
            "{idle} {max} {ceiling:?} {cost:?}"
        );
        assert_eq!(p.wanted, idle);
    }
}

#[test]
fn auto_follows_littles_law_with_an_erlang_b_margin() {
    // (arrivals per second, create seconds) → target: the fewest with Erlang B(S, m) ≤ 5 %
    let table: &[(f64, f64, usize)] = &[
        (0.0, 3.0, 0),
        (1.0, 3.0, 7),   // m = 3: B(6) = 5.2 %, B(7) = 2.2 %
        (0.1, 3.0, 2),   // m = 0.3: B(1) = 23 %, B(2) = 3.3 %
        (1.0, 30.0, 36), // m = 30
        (2.0, 0.5, 4),   // m = 1: B(3) = 6.3 %, B(4) = 1.5 %
        (1.0, 4.0, 8),   // m = 4: B(7) = 6.3 %, B(8) = 3.0 %
    ];
    for &(rate, secs, want) in table {
        assert_eq!(auto_size(rate, secs), want, "{rate}/s × {secs}s");
    }
    // A rate over the window: 300 arrivals in the last 300 s.
    let arrivals: Vec<f64> = (0..300).map(|k| 700.0 + k as f64 + 0.5).collect();
    let s = WarmSettings {
        idle: WarmIdle::Auto,
        ..WarmSettings::default()
    };
    let p = plan(&inputs(&s, &[], 0, &arrivals));
    assert_eq!(p.target, 7);
    assert_eq!(p.actions, [WarmAction::Create { count: 7 }]);
    assert_eq!(
        p.auto,
        Some(AutoTarget {
            at: 1000.0,
            target: 7,
            bonus: 0,
            bonus_at: 1000.0,
            create: 3.0,
        })
    );
    // Arrivals older than the window do not count; a young process is not read as a storm.
    assert_eq!(arrival_rate(&[1.0, 2.0], 1000.0, 0.0), 0.0);
    assert_eq!(arrival_rate(&[999.0], 1000.0, 999.5), 0.1);
    // A stream that stepped up reads at its new rate, not the window's average: 30 arrivals
    // over 240 s, then 1/s for the last 20 s (21 arrivals from 980 to 1000).
    let mut stepped: Vec<f64> = (0..30).map(|k| 700.0 + 8.0 * k as f64).collect();
    stepped.extend((0..=20).map(|k| 980.0 + k as f64));
    assert_eq!(arrival_rate(&stepped, 1000.0, 0.0), 1.0);
    // A stream that began 20 s ago, 40 s after the process: its rate, not diluted by the quiet.
    let began: Vec<f64> = (0..=20).map(|k| 980.0 + k as f64).collect();
    assert_eq!(arrival_rate(&began, 1000.0, 940.0), 1.0);
    // One a minute: the last minute's lone arrival reads as nothing, the window as 5 in 300 s.
    let sparse: Vec<f64> = (0..5).map(|k| 760.0 + 60.0 * k as f64).collect();
    assert_eq!(arrival_rate(&sparse, 1000.0, 0.0), 5.0 / 300.0);
    assert_eq!(auto_size(arrival_rate(&sparse, 1000.0, 0.0), 3.0), 1);
}

#[test]
fn auto_raises_at_once_and_lowers_at_most_once_a_minute() {
    let s = WarmSettings {
        idle: WarmIdle::Auto,
        ..WarmSettings::default()
    };
    let busy: Vec<f64> = (0..300).map(|k| 700.0 + k as f64 + 0.5).collect();
    // (previous decision, arrivals) → target
    let table: &[(Option<AutoTarget>, &[f64], usize)] = &[
        // A lull 30 s after the last decision keeps the target …
        (
            Some(AutoTarget {
                at: 970.0,
                target: 7,
                bonus: 0,
                bonus_at: 0.0,
                create: 0.0,
            }),
            &[],
            7,
        ),
        // … a minute after it, it lowers.
        (
            Some(AutoTarget {
                at: 940.0,
                target: 7,
                bonus: 0,
                bonus_at: 0.0,
                create: 0.0,
            }),
            &[],
            0,
        ),
        // A burst raises it even a second after a decision.
        (
            Some(AutoTarget {
                at: 999.0,
                target: 1,
                bonus: 0,
                bonus_at: 0.0,
                create: 0.0,
            }),
            &busy,
            7,
        ),
    ];
    for (previous, arrivals, want) in table {
        let mut i = inputs(&s, &[], 0, arrivals);
        i.previous = *previous;
        assert_eq!(plan(&i).target, *want, "{previous:?}");
    }
}

#[test]
fn auto_raises_its_bonus_on_misses_and_decays_it_without() {
    let s = WarmSettings {
        idle: WarmIdle::Auto,
        ..WarmSettings::default()
    };
    // 1/s over the window: m = 3, base 7 (Erlang B ≤ 5 %), the bonus at most ⌈√3⌉ + 1 = 3.
    let busy: Vec<f64> = (0..300).map(|k| 700.0 + k as f64 + 0.5).collect();
    let prev = |bonus, bonus_at| {
        Some(AutoTarget {
            at: 990.0,
            target: 7 + bonus,
            bonus,
            bonus_at,
            create: 0.0,
        })
    };
    let some: Vec<f64> = vec![990.0, 995.0]; // 2 of the last minute's 60 arrivals: 3 %
    let many: Vec<f64> = (0..10).map(|k| 950.0 + k as f64).collect(); // 17 %
    let more: Vec<f64> = many.iter().copied().chain([997.0]).collect();
    // (previous, misses) → (target, bonus)
    let table: &[(Option<AutoTarget>, &[f64], usize, usize)] = &[
        // No misses, nothing learnt: the base.
        (None, &[], 7, 0),
        // A few misses, under one in ten: no raise.
        (prev(0, 900.0), &some, 7, 0),
        // Many: raised at once …
        (prev(0, 900.0), &many, 8, 1),
        // … again once a create time (3 s) has passed since the last raise, on a new miss …
        (prev(1, 996.0), &more, 9, 2),
        // … not on the misses it already answered …
        (prev(1, 996.0), &many, 8, 1),
        // … but not sooner …
        (prev(1, 998.0), &many, 8, 1),
        // … and never above the cap.
        (prev(3, 900.0), &many, 10, 3),
        // A minute without a miss decays it by one (the target lowers only once a minute
        // after its own last change, 10 s ago here) …
        (prev(2, 930.0), &[], 9, 1),
        // … less than a minute after its last change it stays.
        (prev(2, 950.0), &[], 9, 2),
        // Misses older than a minute do not count.
        (
            prev(0, 900.0),
            &[900.0, 901.0, 902.0, 903.0, 904.0, 905.0, 906.0],
            7,
            0,
        ),
    ];
    for (previous, misses, target, bonus) in table {
        let mut i = inputs(&s, &[], 0, &busy);
        i.previous = *previous;
        i.misses = misses;
        let p = plan(&i);
        assert_eq!(
            (p.target, p.auto.map(|a| a.bonus)),
            (*target, Some(*bonus)),
            "{previous:?} {misses:?}"
        );
    }
}

#[test]
fn auto_learns_demand_before_misses_count_and_drops_a_guessed_create_at_once() {
    let s = WarmSettings {
        idle: WarmIdle::Auto,
        ..WarmSettings::default()
    };
    // A stream that began at 990 (the process started at 985): 1/s for 10 s, every arrival
    // missed. Demand is learnt at 990 + 10 s + one 3 s create = 1003: no bonus yet.
    let start: Vec<f64> = (0..10).map(|k| 990.0 + k as f64).collect();
    let mut i = inputs(&s, &[], 0, &start);
    i.observed_since = 985.0;
    i.misses = &start;
    let p = plan(&i);
    assert_eq!(p.auto.map(|a| a.bonus), Some(0), "{p:?}");
    // The same misses once demand was learnt (the stream began at 700) do raise it.
    let busy: Vec<f64> = (0..300).map(|k| 700.0 + k as f64 + 0.5).collect();
    let mut i = inputs(&s, &[], 0, &busy);
    i.misses = &start;
    assert_eq!(plan(&i).auto.map(|a| a.bonus), Some(1));
    // Too few arrivals to tell a short margin from chance: 15 in the last minute (one each
    // 4 s for five minutes), 4 of them missed, raise nothing.
    let sparse: Vec<f64> = (0..75).map(|k| 700.5 + 4.0 * k as f64).collect();
    let burst = [980.5, 984.5, 988.5, 992.5];
    let mut i = inputs(&s, &[], 0, &sparse);
    i.misses = &burst;
    assert_eq!(plan(&i).auto.map(|a| a.bonus), Some(0));

    // A target sized on the 10 s guess before any create was seen (1/s → 15) lowers at once
    // when the first create measures 3 s; a 3 s target does not lower for a 2.5 s create
    // within the minute.
    let guessed = |create: f64, target| {
        Some(AutoTarget {
            at: 995.0,
            target,
            bonus: 0,
            bonus_at: 995.0,
            create,
        })
    };
    // (previous, measured create) → target
    let table: &[(Option<AutoTarget>, f64, usize)] =
        &[(guessed(10.0, 15), 3.0, 7), (guessed(3.0, 7), 2.5, 7)];
    for (previous, create, want) in table {
        let mut i = inputs(&s, &[], 0, &busy);
        i.previous = *previous;
        i.create_seconds = Some(*create);
        assert_eq!(plan(&i).target, *want, "{previous:?} {create}");
    }
}

#[test]
fn draining_creates_nothing_and_deletes_all_or_keeps_all() {
    let pool = [sb("a", "g1", Ready, 1.0), sb("b", "g0", Coming, 2.0)];
    for delete_on_exit in [true, false] {
        let s = WarmSettings {
            delete_on_exit,
            ..fixed(4)
        };
        let mut i = inputs(&s, &pool, 0, &[]);
        i.draining = true;
        let p = plan(&i);
        let want: Vec<WarmAction> = if delete_on_exit {
            ["a", "b"]
                .iter()
                .map(|id| WarmAction::Delete {
                    id: id.to_string(),
                    why: DeleteWhy::Exit,
                })
                .collect()
        } else {
            vec![]
        };
        assert_eq!(p.actions, want);
    }
}

#[test]
fn hand_over_picks_a_ready_current_one_oldest_first() {
    let pool = [
        sb("coming", "g1", Coming, 0.0),
        sb("stale", "g0", Ready, 0.5),
        sb("young", "g1", Ready, 9.0),
        sb("old", "g1", Ready, 2.0),
    ];
    assert_eq!(hand_over(&pool, "g1").map(|w| w.id.as_str()), Some("old"));
    assert_eq!(hand_over(&pool[..2], "g1"), None);
    assert_eq!(hand_over(&[], "g1"), None);
}

#[test]
fn warm_idle_parses() {
    assert_eq!(WarmIdle::parse("auto"), Ok(WarmIdle::Auto));
    assert_eq!(WarmIdle::parse(" AUTO "), Ok(WarmIdle::Auto));
    assert_eq!(WarmIdle::parse("3"), Ok(WarmIdle::Fixed(3)));
    assert!(WarmIdle::parse("0").unwrap().is_off());
    assert!(WarmIdle::parse("-1").unwrap_err().contains("`-1`"));
}
