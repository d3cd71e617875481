//! The one way this tool waits for something: ask, and if the answer is "not yet", sleep on a
//! growing schedule until a deadline. Every wait (a sandbox starting, a snapshot building, a proof
//! file appearing, a session being claimed) goes through [`poll_until`], so schedules and
//! timeout behaviour are the same everywhere and are tested once.

use std::future::Future;
use std::time::{Duration, Instant};

/// How long to sleep between attempts: `first`, then growing by `factor` up to `max`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Backoff {
    pub first: Duration,
    pub max: Duration,
    pub factor: f64,
}

impl Backoff {
    /// Start at `first`, grow by half each time, never above `max` (provider state polls).
    pub const fn growing(first: Duration, max: Duration) -> Self {
        Backoff {
            first,
            max,
            factor: 1.5,
        }
    }

    fn next(&self, current: Duration) -> Duration {
        current.mul_f64(self.factor.max(1.0)).min(self.max)
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
        tokio::time::sleep(delay.min(deadline - now)).await;
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
