//! The one way this tool waits for something: ask, and if the answer is "not yet", sleep on a
//! growing schedule until a deadline. Waits for a state (a sandbox starting, a snapshot building,
//! a proof file or an install record appearing, a remote's pid, a session reaching a status,
//! processes ending) go through [`poll_until`], so schedules and timeout behaviour are the same
//! everywhere and are tested once. Loops that sleep but are not such a wait — retries of a failed
//! request, log and output follows, redraw ticks, the orchestrator's and the emulator's loop
//! gaps, the emulator's paced build steps — and the two `verify` follows that keep what each look
//! saw, say why where they sleep, in a `// Not poll_until:` comment (`scripts/count-settings.sh`
//! counts the loops without one).

use std::future::Future;
use std::time::{Duration, Instant};

/// How long to sleep between attempts: `first`, then growing by `factor` up to `max`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Backoff {
    pub first: Duration,
    pub max: Duration,
    pub factor: f64,
    /// While the wait is younger than `.0`, no sleep is longer than `.1` (a sandbox usually
    /// comes up within seconds: look often then, rarely after).
    pub early_cap: Option<(Duration, Duration)>,
}

impl Backoff {
    /// Start at `first`, grow by half each time, never above `max` (provider state polls).
    pub const fn growing(first: Duration, max: Duration) -> Self {
        Backoff {
            first,
            max,
            factor: 1.5,
            early_cap: None,
        }
    }

    /// Start at `first`, double each time, never above `max`.
    pub const fn doubling(first: Duration, max: Duration) -> Self {
        Backoff {
            first,
            max,
            factor: 2.0,
            early_cap: None,
        }
    }

    /// The same sleep every time.
    pub const fn fixed(every: Duration) -> Self {
        Backoff {
            first: every,
            max: every,
            factor: 1.0,
            early_cap: None,
        }
    }

    /// No sleep longer than `cap` during the wait's first `window`.
    pub const fn capped_early(self, window: Duration, cap: Duration) -> Self {
        Backoff {
            early_cap: Some((window, cap)),
            ..self
        }
    }

    fn next(&self, current: Duration) -> Duration {
        current.mul_f64(self.factor.max(1.0)).min(self.max)
    }

    /// The sleep after an attempt made `elapsed` into the wait, when the schedule is at `delay`.
    fn sleep(&self, delay: Duration, elapsed: Duration) -> Duration {
        match self.early_cap {
            Some((window, cap)) if elapsed < window => delay.min(cap),
            _ => delay,
        }
    }
}

/// What one attempt found.
pub enum Poll<T, P = ()> {
    /// Finished: stop polling and return this.
    Ready(T),
    /// Not yet; `P` is what was seen (reported in [`Waited::TimedOut`] if it never finishes).
    Pending(P),
}

/// The end of a wait that did not fail.
#[derive(Debug, PartialEq)]
pub enum Waited<T, P> {
    Ready(T),
    /// The deadline passed; the last attempt's observation, if any attempt ran.
    TimedOut(Option<P>),
}

impl<T, P> Waited<T, P> {
    /// The ready value, or `timed_out(last observation)`.
    pub fn or_else<E>(self, timed_out: impl FnOnce(Option<P>) -> E) -> Result<T, E> {
        match self {
            Waited::Ready(v) => Ok(v),
            Waited::TimedOut(p) => Err(timed_out(p)),
        }
    }
}

/// Call `attempt` until it returns `Ready`, an error, or `deadline` passes (checked after every
/// attempt, so at least one attempt always runs). Sleeps never overshoot the deadline.
pub async fn poll_until<T, P, E, F, Fut>(
    deadline: Instant,
    backoff: Backoff,
    mut attempt: F,
) -> Result<Waited<T, P>, E>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<Poll<T, P>, E>>,
{
    let started = Instant::now();
    let mut delay = backoff.first;
    loop {
        let seen = match attempt().await? {
            Poll::Ready(v) => return Ok(Waited::Ready(v)),
            Poll::Pending(p) => p,
        };
        let now = Instant::now();
        if now >= deadline {
            return Ok(Waited::TimedOut(Some(seen)));
        }
        let sleep = backoff.sleep(delay, now - started);
        tokio::time::sleep(sleep.min(deadline - now)).await;
        delay = backoff.next(delay);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[tokio::test]
    async fn returns_the_first_ready_value_and_stops_asking() {
        let calls = Cell::new(0);
        let out: Result<Waited<u32, ()>, ()> = poll_until(
            Instant::now() + Duration::from_secs(60),
            Backoff::growing(Duration::from_millis(1), Duration::from_millis(1)),
            || {
                calls.set(calls.get() + 1);
                let n = calls.get();
                async move {
                    Ok(if n == 3 {
                        Poll::Ready(n)
                    } else {
                        Poll::Pending(())
                    })
                }
            },
        )
        .await;
        assert_eq!(out, Ok(Waited::Ready(3)));
        assert_eq!(calls.get(), 3);
    }

    #[tokio::test]
    async fn times_out_with_the_last_observation_after_at_least_one_attempt() {
        let calls = Cell::new(0u32);
        let out: Result<Waited<(), u32>, ()> = poll_until(
            Instant::now(),
            Backoff::growing(Duration::from_millis(1), Duration::from_millis(1)),
            || {
                calls.set(calls.get() + 1);
                let n = calls.get();
                async move { Ok(Poll::Pending(n)) }
            },
        )
        .await;
        assert_eq!(out, Ok(Waited::TimedOut(Some(1))));
    }

    #[tokio::test]
    async fn an_error_ends_the_wait_at_once() {
        let out: Result<Waited<(), ()>, &str> = poll_until(
            Instant::now() + Duration::from_secs(60),
            Backoff::growing(Duration::from_millis(1), Duration::from_millis(1)),
            || async { Err("refused") },
        )
        .await;
        assert_eq!(out, Err("refused"));
    }

    fn schedule(b: Backoff, n: usize) -> Vec<Duration> {
        let mut d = b.first;
        let mut seen = vec![d];
        for _ in 1..n {
            d = b.next(d);
            seen.push(d);
        }
        seen
    }

    #[test]
    fn fixed_backoff_never_changes() {
        let every = Duration::from_millis(500);
        assert!(
            schedule(Backoff::fixed(every), 8)
                .iter()
                .all(|d| *d == every)
        );
    }

    #[test]
    fn doubling_backoff_doubles_up_to_its_cap() {
        let b = Backoff::doubling(Duration::from_millis(250), Duration::from_secs(2));
        let ms: Vec<u128> = schedule(b, 6).iter().map(Duration::as_millis).collect();
        assert_eq!(ms, [250, 500, 1000, 2000, 2000, 2000]);
    }

    #[test]
    fn an_early_cap_holds_only_inside_its_window() {
        let b = Backoff::growing(Duration::from_millis(200), Duration::from_secs(2))
            .capped_early(Duration::from_secs(15), Duration::from_millis(500));
        let two = Duration::from_secs(2);
        assert_eq!(
            b.sleep(two, Duration::from_secs(3)),
            Duration::from_millis(500)
        );
        assert_eq!(b.sleep(two, Duration::from_secs(15)), two);
        assert_eq!(
            b.sleep(Duration::from_millis(300), Duration::ZERO),
            Duration::from_millis(300)
        );
    }

    #[test]
    fn waited_or_else_maps_only_a_timeout() {
        let ready: Waited<u8, u8> = Waited::Ready(1);
        assert_eq!(ready.or_else(|_| "late"), Ok(1));
        let late: Waited<u8, u8> = Waited::TimedOut(Some(7));
        assert_eq!(late.or_else(|p| p), Err(Some(7)));
    }

    #[test]
    fn growing_backoff_is_capped() {
        let b = Backoff::growing(Duration::from_millis(100), Duration::from_secs(2));
        let mut d = b.first;
        let mut seen = vec![d];
        for _ in 0..10 {
            d = b.next(d);
            seen.push(d);
        }
        assert_eq!(seen[1], Duration::from_millis(150));
        assert_eq!(*seen.last().unwrap(), Duration::from_secs(2));
        assert!(seen.windows(2).all(|w| w[0] <= w[1]));
    }
}
