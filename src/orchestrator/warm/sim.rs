//! The warm planner driven through a seeded Poisson stream, as the executor would drive it:
//! every arrival takes the oldest ready sandbox or misses, every create is ready one lead time
//! after the plan asked for it, and the planner runs after each event. No clock, no I/O: the
//! benchmark's question (share served warm, idle sandbox-seconds, auto against a static
//! capacity) answered for the planner alone, so a change of sizing is seen red or green here
//! before `scripts/bench-warm-auto.sh` measures the whole thing.

use rand::{Rng, SeedableRng};

use super::plan::*;

/// What one run saw.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Seen {
    pub hits: usize,
    pub misses: usize,
    /// Seconds ready sandboxes waited, up to the stream's end.
    pub idle: f64,
}

impl Seen {
    pub fn warm_share(&self) -> f64 {
        self.hits as f64 / (self.hits + self.misses).max(1) as f64
    }
}

/// Poisson arrivals of `rate` per second from `start` for `secs` seconds.
pub fn poisson(seed: u64, rate: f64, start: f64, secs: f64) -> Vec<f64> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut t = start;
    let mut out = Vec::new();
    loop {
        let u: f64 = rng.gen_range(f64::EPSILON..1.0);
        t += -u.ln() / rate;
        if t > start + secs {
            return out;
        }
        out.push(t);
    }
}

/// The smallest pool that holds the 99th percentile of a Poisson count of mean `m`: a static
/// capacity sized for the peak arrivals during one create.
pub fn peak_pool(m: f64) -> usize {
    let (mut k, mut p) = (0usize, (-m).exp());
    let mut cdf = p;
    while cdf < 0.99 {
        k += 1;
        p *= m / k as f64;
        cdf += p;
    }
    k
}

/// Drive the planner with `settings` through `arrivals` (sorted), each create ready `lead`
/// seconds after it was asked for; the process starts at 0.
pub fn run(settings: &WarmSettings, arrivals: &[f64], lead: f64) -> Seen {
    let end = arrivals.last().copied().unwrap_or(0.0);
    let mut pool: Vec<WarmSandbox> = Vec::new();
    let mut creating: Vec<f64> = Vec::new(); // when each create in flight is ready
    let (mut seen_arrivals, mut misses) = (Vec::new(), Vec::new());
    let (mut previous, mut measured) = (None, None);
    let mut seen = Seen {
        hits: 0,
        misses: 0,
        idle: 0.0,
    };
    let mut next_id = 0usize;
    let mut next = 0usize;
    // Events: arrivals, creates becoming ready, and the loop's own pass every second.
    let mut now = 0.0f64;
    while now <= end {
        let ready_at = creating.iter().copied().fold(f64::INFINITY, f64::min);
        let arrival_at = arrivals.get(next).copied().unwrap_or(f64::INFINITY);
        let tick = now.floor() + 1.0;
        now = ready_at.min(arrival_at).min(tick);
        if now > end {
            break;
        }
        if now == ready_at {
            if let Some(at) = creating.iter().position(|&t| t == ready_at) {
                creating.swap_remove(at);
            }
            measured = Some(lead);
            next_id += 1;
            pool.push(WarmSandbox {
                id: format!("w{next_id}"),
                generation: "g".into(),
                state: WarmState::Ready,
                since: now,
            });
        } else if now == arrival_at {
            next += 1;
            seen_arrivals.push(now);
            match hand_over(&pool, "g").map(|w| w.id.clone()) {
                Some(id) => {
                    let at = pool.iter().position(|w| w.id == id).unwrap_or(0);
                    seen.idle += now - pool.remove(at).since;
                    seen.hits += 1;
                }
                None => {
                    misses.push(now);
                    seen.misses += 1;
                }
            }
        }
        let p = plan(&WarmInputs {
            settings,
            now,
            generation: "g",
            pool: &pool,
            creating: creating.len(),
            arrivals: &seen_arrivals,
            misses: &misses,
            observed_since: 0.0,
            create_seconds: measured,
            previous,
            draining: false,
        });
        previous = p.auto;
        for a in p.actions {
            match a {
                WarmAction::Create { count } => creating.extend((0..count).map(|_| now + lead)),
                WarmAction::Delete { id, .. } => {
                    if let Some(at) = pool.iter().position(|w| w.id == id) {
                        seen.idle += now - pool.remove(at).since;
                    }
                }
            }
        }
    }
    seen.idle += pool.iter().map(|w| end - w.since).sum::<f64>();
    seen
}

fn auto() -> WarmSettings {
    WarmSettings {
        idle: WarmIdle::Auto,
        max: 100,
        ..WarmSettings::default()
    }
}

fn fixed(n: usize) -> WarmSettings {
    WarmSettings {
        idle: WarmIdle::Fixed(n),
        max: 100,
        ..WarmSettings::default()
    }
}

/// Mean (warm share, idle seconds) over `seeds` streams.
fn mean(
    settings: &WarmSettings,
    seeds: u64,
    lead: f64,
    stream: impl Fn(u64) -> Vec<f64>,
) -> (f64, f64) {
    let (mut warm, mut idle) = (0.0, 0.0);
    for seed in 0..seeds {
        let seen = run(settings, &stream(seed), lead);
        warm += seen.warm_share() / seeds as f64;
        idle += seen.idle / seeds as f64;
    }
    (warm, idle)
}

#[test]
fn the_peak_pool_is_the_99th_percentile_of_arrivals_in_one_create() {
    // (m = rate × create seconds) → pool
    for (m, want) in [(0.05, 1), (1.0, 4), (3.0, 8), (4.0, 9), (5.0, 11)] {
        assert_eq!(peak_pool(m), want, "m = {m}");
    }
}

/// The benchmark's stream (`scripts/bench-warm-auto.sh`: Poisson 1/s for 2 minutes, the
/// orchestrator up 8 s before it, auto from nothing) through the planner alone: auto serves at
/// least 90 % warm at create times of 3 and 4 s (the old `⌈m + √m⌉` + bonus served 88 % and
/// 87 % here), and idles less than a static capacity sized for the peak.
#[test]
fn auto_serves_nine_in_ten_warm_on_a_steady_poisson_stream() {
    for lead in [3.0, 4.0] {
        let stream = |seed| poisson(seed, 1.0, 8.0, 120.0);
        let (warm, idle) = mean(&auto(), 8, lead, stream);
        let peak = peak_pool(lead);
        let (static_warm, static_idle) = mean(&fixed(peak), 8, lead, stream);
        assert!(warm >= 0.90, "create {lead} s: auto served {warm:.3} warm");
        assert!(
            static_warm > warm,
            "create {lead} s: {static_warm} vs {warm}"
        );
        assert!(
            idle < static_idle,
            "create {lead} s: auto idled {idle:.0} s, static {peak} {static_idle:.0} s"
        );
    }
}

/// Where demand varies — the peak rate for two minutes, then a tenth of it for twenty — auto
/// follows it down (as its 5-minute window forgets the peak) and idles at most half what a
/// static capacity sized for the peak does, still serving nine in ten warm.
#[test]
fn auto_idles_half_of_a_peak_sized_pool_when_demand_falls() {
    let lead = 3.0;
    let stream = |seed| {
        let mut s = poisson(seed, 1.0, 8.0, 120.0);
        s.extend(poisson(seed + 100, 0.1, 128.0, 1200.0));
        s
    };
    let (warm, idle) = mean(&auto(), 8, lead, stream);
    let (_, static_idle) = mean(&fixed(peak_pool(lead)), 8, lead, stream);
    assert!(warm >= 0.90, "auto served {warm:.3} warm");
    assert!(
        idle <= static_idle / 2.0,
        "auto idled {idle:.0} s, the peak pool {static_idle:.0} s"
    );
}
