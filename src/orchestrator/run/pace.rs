//! How often the loop's O(N) side work may run while sessions are being served (issue 35).
//!
//! Profiled at 5,000 simulated sessions while serving, a replica spent a fifth of its CPU
//! recounting the outpost's sandboxes — a full paginated listing, started again as soon as the
//! last one ended, since every launch changes the fleet — and the emulator as much again
//! answering those pages; and every watch event rewrote the watch cursor with an fsync, which
//! blocks a runtime worker. Both now run at a pace: the recount takes at most a tenth of the
//! time, a reconcile pass at most a twentieth, and the cursor is written at most once per
//! [`CURSOR_EVERY`], by a task of its own (`observe.rs`).

use std::time::Duration;

/// Longest wait between a fleet change and its recount (the janitor lists every minute anyway).
const RECOUNT_GAP_MAX: Duration = Duration::from_secs(30);

/// Least time between two writes of the watch cursor.
pub(in crate::orchestrator) const CURSOR_EVERY: Duration = Duration::from_secs(1);

/// Least time between two reconcile passes, given the least for the cap and how long the last
/// pass took (planning, dispatch, metrics, status): twenty times that, so passes — each O(N) —
/// take at most a twentieth of a CPU whatever N and however loaded the host (a pass slowed by a
/// busy host spaces the next ones out); never more than the loop's own 500 ms wake-up. No gap
/// where the cap asks for none (below 1,000 sessions: passes as often as changes come).
pub(super) fn pass_gap(least: Duration, last_took: Duration) -> Duration {
    if least.is_zero() {
        return least;
    }
    least.max(last_took.saturating_mul(20).min(PASS_GAP_MAX))
}

/// The longest gap [`pass_gap`] asks for (the loop wakes every 500 ms anyway).
const PASS_GAP_MAX: Duration = Duration::from_millis(500);

/// Least time from the start of one recount to the start of the next, given how long the last
/// one took: nine times that, so listings take at most a tenth of the time whatever the number
/// of sandboxes (a few milliseconds at a few dozen sandboxes: no wait a user would see).
pub(super) fn recount_gap(last_took: Duration) -> Duration {
    last_took.saturating_mul(9).min(RECOUNT_GAP_MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pass_waits_twenty_times_what_the_last_one_took_within_the_caps_bounds() {
        let ms = Duration::from_millis;
        let us = Duration::from_micros;
        for (least, took, gap) in [
            // Small fleets: passes as often as changes come.
            (ms(0), us(200), ms(0)),
            (ms(0), ms(30), ms(0)),
            (ms(10), us(200), ms(10)),
            // 5,000 sessions: the cap's 50 ms until a pass takes more than 2.5 ms.
            (ms(50), ms(2), ms(50)),
            (ms(50), ms(4), ms(80)),
            // A host so busy that a pass took 100 ms: at most the loop's 500 ms.
            (ms(100), ms(100), ms(500)),
            (ms(600), ms(1), ms(600)),
        ] {
            assert_eq!(pass_gap(least, took), gap, "least {least:?} took {took:?}");
        }
    }

    #[test]
    fn a_recount_waits_nine_times_what_the_last_one_took_up_to_thirty_seconds() {
        let ms = Duration::from_millis;
        for (took, gap) in [
            (ms(0), ms(0)),
            (ms(4), ms(36)),
            (ms(500), ms(4500)),
            (ms(2000), ms(18_000)),
            (ms(10_000), ms(30_000)),
            (Duration::MAX, ms(30_000)),
        ] {
            assert_eq!(recount_gap(took), gap, "took {took:?}");
        }
    }
}
