//! The warm planner: PURE. What the warm capacity should be (its target) and what to do about
//! it (create, hand one over, delete extra or stale ones). The executor (`exec.rs`) observes,
//! asks, and carries the answer out; it decides nothing.
//!
//! Rules:
//! - The target is `WARM_IDLE` (a number), or with `auto` the fewest sandboxes that keep the
//!   share of arrivals finding none ready at or under one in twenty ([`MISS_GOAL`]) for the
//!   demand expected while one sandbox is being created: `m` = arrival rate × create time
//!   (Little's law), and the miss share of `S` sandboxes is Erlang B(S, m) — every hand-over
//!   starts one create, so the creates in flight are the busy servers of a loss system. The
//!   rate is the higher of the last minute's (from the gaps between its arrivals, so a stream
//!   that starts is read within seconds) and the last five minutes'. Plus a bonus learnt from
//!   misses, for demand burstier than Poisson: more than one miss in ten arrivals over the last
//!   minute (at least 20 of them), once demand was learnt, raises it by one (at most once per
//!   create time, and only on a miss after the last raise), a minute without a miss decays it
//!   by one. Auto raises the target at once and lowers it at most
//!   once a minute (a lull of a few seconds must not delete what the next burst needs), or at
//!   once when a measured create replaces the 10 s guess. The old margin `⌈m + √m⌉` missed
//!   11–12 % at m = 3–4 (`sim.rs` replays the benchmark's stream through this planner).
//! - Then capped by `WARM_MAX` and by the spend ceiling (`WARM_MAX_HOURLY_COST` divided by one
//!   warm sandbox's hourly cost; an unknown cost under a ceiling keeps none: unknown is not
//!   free).
//! - Warm sandboxes from another source (snapshot/image changed) or in an error state are
//!   deleted; ready ones above the target are deleted, newest first (creates in flight are
//!   never cancelled, and no ready one is deleted for them). Missing ones are created.
//! - Draining (the orchestrator stops): create nothing; with `WARM_ON_EXIT=delete` delete all.
//! - Hand-over: a ready sandbox of the current source, oldest first; one already handed over
//!   is never offered again (the executor removes it from the pool under the same lock).

/// `WARM_IDLE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WarmIdle {
    Fixed(usize),
    Auto,
}

impl WarmIdle {
    /// `3`, `auto`, `0` (off).
    pub fn parse(s: &str) -> Result<WarmIdle, String> {
        let s = s.trim();
        if s.eq_ignore_ascii_case("auto") {
            return Ok(WarmIdle::Auto);
        }
        s.parse::<usize>()
            .map(WarmIdle::Fixed)
            .map_err(|_| format!("`{s}` is neither a whole number nor `auto`"))
    }

    pub fn is_off(self) -> bool {
        self == WarmIdle::Fixed(0)
    }
}

/// The warm settings, resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct WarmSettings {
    pub idle: WarmIdle,
    pub max: usize,
    /// Dollars per hour for the whole warm capacity.
    pub max_hourly_cost: Option<f64>,
    /// Dollars per hour one idle warm sandbox costs.
    pub sandbox_hourly_cost: Option<f64>,
    /// Delete the warm sandboxes when the orchestrator stops.
    pub delete_on_exit: bool,
}

impl Default for WarmSettings {
    fn default() -> Self {
        WarmSettings {
            idle: WarmIdle::Fixed(0),
            max: 20,
            max_hourly_cost: None,
            sandbox_hourly_cost: None,
            delete_on_exit: true,
        }
    }
}

/// Seconds of arrivals auto sizing looks back over.
pub const ARRIVAL_WINDOW: f64 = 300.0;
/// Auto lowers its target at most this often (seconds).
pub const AUTO_EVERY: f64 = 60.0;
/// Create time assumed until one was observed (seconds).
pub const DEFAULT_CREATE_SECONDS: f64 = 10.0;

/// One warm sandbox of ours as the executor knows it.
#[derive(Debug, Clone, PartialEq)]
pub struct WarmSandbox {
    pub id: String,
    /// The source it booted from (`generation` of the current source when it is current).
    pub generation: String,
    pub state: WarmState,
    /// When it became ready (or was first seen), unix seconds.
    pub since: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WarmState {
    /// Started: can be handed over.
    Ready,
    /// Still coming up.
    Coming,
    /// Stopped, errored or otherwise useless as it is.
    Broken,
}

/// The last auto decision: when, and what.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AutoTarget {
    pub at: f64,
    pub target: usize,
    /// Sandboxes added for misses, and when it last changed.
    pub bonus: usize,
    pub bonus_at: f64,
    /// The create seconds it was sized with: a measured create under half of it (the first
    /// measurement replacing the 10 s guess) lowers the target at once.
    pub create: f64,
}

/// What the planner sees.
#[derive(Debug, Clone)]
pub struct WarmInputs<'a> {
    pub settings: &'a WarmSettings,
    pub now: f64,
    /// The current source's generation.
    pub generation: &'a str,
    pub pool: &'a [WarmSandbox],
    /// Creates in flight.
    pub creating: usize,
    /// When new sessions needed a sandbox (unix seconds), any order.
    pub arrivals: &'a [f64],
    /// When an arrival found no warm sandbox ready (unix seconds), any order.
    pub misses: &'a [f64],
    /// When the arrivals began to be observed (the process start).
    pub observed_since: f64,
    /// Seconds a warm create took to be ready, as last observed.
    pub create_seconds: Option<f64>,
    pub previous: Option<AutoTarget>,
    pub draining: bool,
}

/// Why a warm sandbox goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeleteWhy {
    /// Booted from another snapshot or image than the current one.
    Stale,
    /// Above the target.
    Extra,
    Broken,
    /// The orchestrator stops, `WARM_ON_EXIT=delete`.
    Exit,
}

impl DeleteWhy {
    pub fn as_str(self) -> &'static str {
        match self {
            DeleteWhy::Stale => "its snapshot or image is no longer the current one",
            DeleteWhy::Extra => "more are idle than the target",
            DeleteWhy::Broken => "it is not usable (stopped or in an error state)",
            DeleteWhy::Exit => "the orchestrator stops (WARM_ON_EXIT=delete)",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum WarmAction {
    Create { count: usize },
    Delete { id: String, why: DeleteWhy },
}

/// What bounded the target below what demand asked.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Cap {
    /// `WARM_MAX`.
    Max,
    /// `WARM_MAX_HOURLY_COST`.
    Spend,
}

#[derive(Debug, Clone, PartialEq)]
pub struct WarmPlan {
    pub target: usize,
    /// What demand alone asked for.
    pub wanted: usize,
    pub capped_by: Option<Cap>,
    /// The auto decision to remember (unchanged when not auto).
    pub auto: Option<AutoTarget>,
    pub actions: Vec<WarmAction>,
}

/// Arrivals per second: the higher of the last minute's and the whole window's rate (0 without
/// any), so a stream that starts or steps up is followed within seconds while a lull lowers
/// the rate only as the window forgets. The last minute's rate is the gaps between its
/// arrivals (n − 1 over the time from the first to now): the quiet before a stream began says
/// nothing about the stream's rate, and a lone arrival says nothing about any rate.
pub fn arrival_rate(arrivals: &[f64], now: f64, observed_since: f64) -> f64 {
    let (n, first) = arrivals
        .iter()
        .filter(|&&t| t <= now && now - t <= AUTO_EVERY)
        .fold((0usize, now), |(n, first), &t| (n + 1, first.min(t)));
    // Over less than 10 s a few arrivals would read as a storm.
    let minute = n.saturating_sub(1) as f64 / (now - first).clamp(RATE_MIN_SPAN, AUTO_EVERY);
    let n = arrivals
        .iter()
        .filter(|&&t| t <= now && now - t <= ARRIVAL_WINDOW)
        .count();
    let window = n as f64 / (now - observed_since).clamp(RATE_MIN_SPAN, ARRIVAL_WINDOW);
    minute.max(window)
}

/// The fewest warm sandboxes that keep the share of arrivals finding none ready at or under
/// [`MISS_GOAL`], for `rate` arrivals per second and creates taking `create_seconds`.
///
/// Every hand-over starts one create, and an arrival that finds none ready is created cold
/// without one: the sandboxes being replaced are the busy servers of an Erlang loss system with
/// `S` servers and offered load `m` = rate × create seconds (Little's law), and a miss is the
/// system being full, Erlang B(S, m) — for any distribution of create times. The old margin
/// `⌈m + √m⌉` missed 11–12 % at m = 3–4 and leaned on the miss bonus.
pub fn auto_size(rate: f64, create_seconds: f64) -> usize {
    let m = rate * create_seconds;
    if m <= 0.0 {
        return 0;
    }
    // B(0) = 1; B(s) = m·B(s−1) / (s + m·B(s−1)).
    let (mut s, mut b) = (0usize, 1.0f64);
    while b > MISS_GOAL && s < AUTO_MOST {
        s += 1;
        b = m * b / (s as f64 + m * b);
    }
    s
}

/// The share of arrivals auto lets find no warm sandbox in a steady Poisson stream: one in
/// twenty, half of what the 90 % goal allows, the other half left for the misses
/// before demand is learnt and for bursts.
pub const MISS_GOAL: f64 = 0.05;
/// Auto never asks for more than this (`WARM_MAX` caps it lower).
const AUTO_MOST: usize = 10_000;

/// The shortest span a rate is measured over (seconds).
const RATE_MIN_SPAN: f64 = 10.0;

/// Misses above this share of the last minute's arrivals raise the bonus.
pub const MISS_SHARE: f64 = 0.1;

/// The miss bonus after this pass: raised when over one in ten of the last minute's arrivals
/// missed (at most once per create time, the soonest a raise can show, and only on a miss
/// after the last raise: misses it already answered do not raise it again), decayed a minute
/// after its last change when none were seen; never above `⌈√m⌉ + 1`, the old two-deviation
/// margin and one.
fn bonus(i: &WarmInputs, m: f64, create: f64) -> (usize, f64) {
    let (prev, prev_at) = i.previous.map_or((0, i.now), |p| (p.bonus, p.bonus_at));
    // Arrivals and misses while demand is still being learnt (the rate read over its first
    // 10 s, then one create) say the capacity was late, not that its margin is short: they
    // teach nothing.
    let learnt = i
        .arrivals
        .iter()
        .filter(|&&t| t <= i.now && i.now - t <= ARRIVAL_WINDOW)
        .fold(f64::INFINITY, |a, &t| a.min(t))
        + RATE_MIN_SPAN
        + create;
    let recent = |ts: &[f64]| {
        ts.iter()
            .filter(|&&t| t <= i.now && i.now - t <= AUTO_EVERY && t >= learnt)
            .count()
    };
    let (arrived, missed) = (recent(i.arrivals), recent(i.misses));
    let answered = i.previous.is_some() && prev > 0;
    let new_miss = !answered || i.misses.iter().any(|&t| t > prev_at && t <= i.now);
    let most = m.sqrt().ceil() as usize + 1;
    let since = i.now - prev_at;
    // A few arrivals are too few to tell a short margin from chance: a burst of 4 misses in
    // the first 16 arrivals of a stream is what a 5 % margin shows now and then.
    let enough = arrived as f64 >= 2.0 / MISS_SHARE;
    if enough && missed > 0 && missed as f64 > MISS_SHARE * arrived as f64 {
        if prev < most && new_miss && (!answered || since >= create) {
            return (prev + 1, i.now);
        }
    } else if missed == 0 && prev > 0 && since >= AUTO_EVERY {
        return (prev - 1, i.now);
    }
    (prev.min(most), prev_at)
}

/// The target before the caps, and the auto decision to remember.
fn wanted(i: &WarmInputs) -> (usize, Option<AutoTarget>) {
    match i.settings.idle {
        WarmIdle::Fixed(n) => (n, i.previous),
        WarmIdle::Auto => {
            let rate = arrival_rate(i.arrivals, i.now, i.observed_since);
            let create = i.create_seconds.unwrap_or(DEFAULT_CREATE_SECONDS);
            let (bonus, bonus_at) = bonus(i, rate * create, create);
            let now_size = auto_size(rate, create) + bonus;
            let keep = match i.previous {
                Some(p)
                    if now_size < p.target
                        && i.now - p.at < AUTO_EVERY
                        && create >= p.create / 2.0 =>
                {
                    AutoTarget {
                        bonus,
                        bonus_at,
                        ..p
                    }
                }
                _ => AutoTarget {
                    at: i.now,
                    target: now_size,
                    bonus,
                    bonus_at,
                    create,
                },
            };
            (keep.target, Some(keep))
        }
    }
}

/// The target after `WARM_MAX` and the spend ceiling.
fn capped(wanted: usize, s: &WarmSettings) -> (usize, Option<Cap>) {
    let mut target = wanted;
    let mut why = None;
    if target > s.max {
        target = s.max;
        why = Some(Cap::Max);
    }
    if let Some(ceiling) = s.max_hourly_cost {
        let afford = match s.sandbox_hourly_cost {
            Some(c) if c > 0.0 => (ceiling / c).floor().max(0.0) as usize,
            Some(_) => usize::MAX,
            None => 0,
        };
        if target > afford {
            target = afford;
            why = Some(Cap::Spend);
        }
    }
    (target, why)
}

pub fn plan(i: &WarmInputs) -> WarmPlan {
    let (wanted, auto) = wanted(i);
    let (target, capped_by) = capped(wanted, i.settings);
    let mut actions = Vec::new();
    if i.draining {
        if i.settings.delete_on_exit {
            actions.extend(i.pool.iter().map(|w| WarmAction::Delete {
                id: w.id.clone(),
                why: DeleteWhy::Exit,
            }));
        }
        return WarmPlan {
            target,
            wanted,
            capped_by,
            auto,
            actions,
        };
    }
    let mut usable: Vec<&WarmSandbox> = Vec::new();
    for w in i.pool {
        if w.generation != i.generation {
            actions.push(WarmAction::Delete {
                id: w.id.clone(),
                why: DeleteWhy::Stale,
            });
        } else if w.state == WarmState::Broken {
            actions.push(WarmAction::Delete {
                id: w.id.clone(),
                why: DeleteWhy::Broken,
            });
        } else {
            usable.push(w);
        }
    }
    let coming = usable
        .iter()
        .filter(|w| w.state == WarmState::Coming)
        .count()
        + i.creating;
    let mut ready: Vec<&WarmSandbox> = usable
        .into_iter()
        .filter(|w| w.state == WarmState::Ready)
        .collect();
    let have = ready.len() + coming;
    if have < target {
        actions.push(WarmAction::Create {
            count: target - have,
        });
    } else if ready.len() > target {
        // Extra ready ones go, newest first. Creates in flight are not counted here: a ready
        // sandbox is never deleted for one that is not (a target lowered while creates are in
        // flight deletes the extras when they land).
        let extra = ready.len() - target;
        ready.sort_by(|a, b| b.since.total_cmp(&a.since).then_with(|| a.id.cmp(&b.id)));
        actions.extend(ready.iter().take(extra).map(|w| WarmAction::Delete {
            id: w.id.clone(),
            why: DeleteWhy::Extra,
        }));
    }
    WarmPlan {
        target,
        wanted,
        capped_by,
        auto,
        actions,
    }
}

/// The warm sandbox to hand to a new session: ready, of the current source, oldest first.
pub fn hand_over<'a>(pool: &'a [WarmSandbox], generation: &str) -> Option<&'a WarmSandbox> {
    pool.iter()
        .filter(|w| w.state == WarmState::Ready && w.generation == generation)
        .min_by(|a, b| a.since.total_cmp(&b.since).then_with(|| a.id.cmp(&b.id)))
}
