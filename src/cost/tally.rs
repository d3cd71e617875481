//! The ledger's arithmetic, pure: replaying entries into per-session intervals, and summing
//! them (seconds and USD per state) over a window. No clock and no files here: callers pass
//! `now` and the entries.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::prices::{CostState, Resources};

/// What a ledger line says about a sandbox: it is in a billed state now, or gone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mark {
    Running,
    Stopped,
    Archived,
    /// Deleted or lost: nothing billed from here on.
    Gone,
}

impl Mark {
    pub fn billed(self) -> Option<CostState> {
        match self {
            Mark::Running => Some(CostState::Running),
            Mark::Stopped => Some(CostState::Stopped),
            Mark::Archived => Some(CostState::Archived),
            Mark::Gone => None,
        }
    }
}

/// Seconds or USD per billed state.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize, schemars::JsonSchema)]
pub struct PerState {
    pub running: f64,
    pub stopped: f64,
    pub archived: f64,
}

impl PerState {
    pub fn get(&self, s: CostState) -> f64 {
        match s {
            CostState::Running => self.running,
            CostState::Stopped => self.stopped,
            CostState::Archived => self.archived,
        }
    }

    pub fn add(&mut self, s: CostState, v: f64) {
        match s {
            CostState::Running => self.running += v,
            CostState::Stopped => self.stopped += v,
            CostState::Archived => self.archived += v,
        }
    }

    pub fn merge(&mut self, o: &PerState) {
        self.running += o.running;
        self.stopped += o.stopped;
        self.archived += o.archived;
    }

    pub fn total(&self) -> f64 {
        self.running + self.stopped + self.archived
    }
}

/// One line of the ledger.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Entry {
    /// From `at` on, the session's sandbox is in `mark`, billed at `usd_per_hour` (the price
    /// table of that moment: a later price change does not rewrite history).
    State {
        at: f64,
        outpost: String,
        provider: String,
        session: String,
        sandbox: String,
        mark: Mark,
        #[serde(default)]
        resources: Resources,
        #[serde(default)]
        usd_per_hour: f64,
    },
    /// Closed intervals of one session on one UTC day, folded together by a compaction.
    Summary {
        outpost: String,
        provider: String,
        session: String,
        /// Days since 1970-01-01 (UTC).
        day: i64,
        seconds: PerState,
        usd: PerState,
    },
    /// Devin's own usage of the session as its v3 API reported it (`acus_consumed`), at `at`.
    Usage {
        at: f64,
        outpost: String,
        session: String,
        acus: f64,
    },
}

/// A stretch of time a sandbox spent in one billed state.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    pub from: f64,
    pub to: f64,
    pub state: CostState,
    pub usd_per_hour: f64,
}

/// Where a session's sandbox is now.
#[derive(Debug, Clone, PartialEq)]
pub struct Open {
    pub since: f64,
    pub sandbox: String,
    pub mark: Mark,
    pub resources: Resources,
    pub usd_per_hour: f64,
}

/// Everything the ledger knows of one session.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SessionTally {
    pub outpost: String,
    pub provider: String,
    pub intervals: Vec<Interval>,
    pub days: BTreeMap<i64, (PerState, PerState)>,
    /// The latest state line (a `Gone` one included).
    pub last: Option<Open>,
    pub acus: Option<f64>,
    /// The latest time anything was recorded.
    pub last_at: f64,
}

pub const DAY: f64 = 86_400.0;

/// The ledger's pseudo-session of an idle warm sandbox is this prefix and the sandbox's id:
/// warm capacity is no session's, yet it is billed. `cost --by session` folds them into one
/// row, [`WARM_ROW`].
pub const WARM_PREFIX: &str = "warm:";
pub const WARM_ROW: &str = "warm";

pub fn day_of(t: f64) -> i64 {
    (t / DAY).floor() as i64
}

impl SessionTally {
    /// Seconds and USD per state within `[since, now]`, the open stretch counted up to `now`.
    /// Folded days count whole when they start at or after `since`'s day.
    pub fn sum(&self, since: f64, now: f64) -> (PerState, PerState) {
        let mut secs = PerState::default();
        let mut usd = PerState::default();
        for (day, (s, u)) in &self.days {
            if *day >= day_of(since) && (*day as f64) * DAY <= now {
                secs.merge(s);
                usd.merge(u);
            }
        }
        for i in self.intervals_until(now) {
            let (from, to) = (i.from.max(since), i.to.min(now));
            if to > from {
                secs.add(i.state, to - from);
                usd.add(i.state, i.usd_per_hour * (to - from) / 3600.0);
            }
        }
        (secs, usd)
    }

    /// The closed intervals and the open one up to `now`.
    pub fn intervals_until(&self, now: f64) -> impl Iterator<Item = Interval> + '_ {
        let open = self.last.as_ref().and_then(|o| {
            let state = o.mark.billed()?;
            (now > o.since).then_some(Interval {
                from: o.since,
                to: now,
                state,
                usd_per_hour: o.usd_per_hour,
            })
        });
        self.intervals.iter().copied().chain(open)
    }

    /// The state billed now and its rate, if any.
    pub fn billed_now(&self) -> Option<(CostState, f64)> {
        let o = self.last.as_ref()?;
        Some((o.mark.billed()?, o.usd_per_hour))
    }
}

/// The ledger replayed: one tally per (outpost, session).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tally {
    pub sessions: BTreeMap<(String, String), SessionTally>,
    /// Lines that could not be read (a torn last line after a crash, or a damaged file).
    pub unreadable: usize,
}

impl Tally {
    pub fn apply(&mut self, e: &Entry) {
        match e {
            Entry::State {
                at,
                outpost,
                provider,
                session,
                sandbox,
                mark,
                resources,
                usd_per_hour,
            } => {
                let t = self.session(outpost, session);
                t.provider = provider.clone();
                if let Some(prev) = t.last.take()
                    && let Some(state) = prev.mark.billed()
                    && *at > prev.since
                {
                    t.intervals.push(Interval {
                        from: prev.since,
                        to: *at,
                        state,
                        usd_per_hour: prev.usd_per_hour,
                    });
                }
                t.last = Some(Open {
                    since: *at,
                    sandbox: sandbox.clone(),
                    mark: *mark,
                    resources: *resources,
                    usd_per_hour: *usd_per_hour,
                });
                t.last_at = t.last_at.max(*at);
            }
            Entry::Summary {
                outpost,
                provider,
                session,
                day,
                seconds,
                usd,
            } => {
                let t = self.session(outpost, session);
                t.provider = provider.clone();
                let slot = t.days.entry(*day).or_default();
                slot.0.merge(seconds);
                slot.1.merge(usd);
                t.last_at = t.last_at.max((*day as f64 + 1.0) * DAY);
            }
            Entry::Usage {
                at,
                outpost,
                session,
                acus,
            } => {
                let t = self.session(outpost, session);
                t.acus = Some(*acus);
                t.last_at = t.last_at.max(*at);
            }
        }
    }

    fn session(&mut self, outpost: &str, session: &str) -> &mut SessionTally {
        let t = self
            .sessions
            .entry((outpost.to_string(), session.to_string()))
            .or_default();
        t.outpost = outpost.to_string();
        t
    }

    /// Seconds and USD per (provider, state) over `[since, now]`.
    pub fn by_provider(&self, since: f64, now: f64) -> BTreeMap<String, (PerState, PerState)> {
        let mut out: BTreeMap<String, (PerState, PerState)> = BTreeMap::new();
        for t in self.sessions.values() {
            let (s, u) = t.sum(since, now);
            let slot = out.entry(t.provider.clone()).or_default();
            slot.0.merge(&s);
            slot.1.merge(&u);
        }
        out
    }

    /// USD the idle warm sandboxes (`warm:<id>` pseudo-sessions) have cost per provider, up
    /// to `now`: the warm capacity's own share of [`Tally::by_provider`].
    pub fn warm_by_provider(&self, now: f64) -> BTreeMap<String, f64> {
        let mut out: BTreeMap<String, f64> = BTreeMap::new();
        for ((_, session), t) in &self.sessions {
            if session.starts_with(WARM_PREFIX) {
                *out.entry(t.provider.clone()).or_default() += t.sum(0.0, now).1.total();
            }
        }
        out
    }

    /// The spend rate now (USD per hour) per (provider, state).
    pub fn rate_now(&self) -> BTreeMap<(String, CostState), f64> {
        let mut out = BTreeMap::new();
        for t in self.sessions.values() {
            if let Some((state, rate)) = t.billed_now() {
                *out.entry((t.provider.clone(), state)).or_insert(0.0) += rate;
            }
        }
        out
    }

    /// The compacted form: closed intervals folded into one summary per session and day, the
    /// open state line kept, the usage kept; days before `keep_from` and sessions with nothing
    /// left are dropped. Replaying it gives the same sums as replaying the original.
    #[cfg(test)]
    pub fn compacted(&self, keep_from: f64) -> Vec<Entry> {
        let mut out = Vec::new();
        self.each_compacted(keep_from, |e| {
            out.push(e);
            Ok(())
        })
        .map(|()| out)
        .unwrap_or_default()
    }

    /// [`Tally::compacted`] an entry at a time, handed to `each` in order, so a compaction
    /// holds no list of the entries (nor their text) beside the two tallies.
    pub fn each_compacted(
        &self,
        keep_from: f64,
        mut each: impl FnMut(Entry) -> anyhow::Result<()>,
    ) -> anyhow::Result<()> {
        for ((outpost, session), t) in &self.sessions {
            let mut days = t.days.clone();
            for i in &t.intervals {
                for (day, from, to) in split_days(i.from, i.to) {
                    let slot = days.entry(day).or_default();
                    slot.0.add(i.state, to - from);
                    slot.1.add(i.state, i.usd_per_hour * (to - from) / 3600.0);
                }
            }
            let keep_day = day_of(keep_from);
            for (day, (seconds, usd)) in days.into_iter().filter(|(d, _)| *d >= keep_day) {
                each(Entry::Summary {
                    outpost: outpost.clone(),
                    provider: t.provider.clone(),
                    session: session.clone(),
                    day,
                    seconds,
                    usd,
                })?;
            }
            if let Some(o) = &t.last
                && (o.mark != Mark::Gone || o.since >= keep_from)
            {
                each(Entry::State {
                    at: o.since,
                    outpost: outpost.clone(),
                    provider: t.provider.clone(),
                    session: session.clone(),
                    sandbox: o.sandbox.clone(),
                    mark: o.mark,
                    resources: o.resources,
                    usd_per_hour: o.usd_per_hour,
                })?;
            }
            if let Some(acus) = t.acus
                && t.last_at >= keep_from
            {
                each(Entry::Usage {
                    at: t.last_at,
                    outpost: outpost.clone(),
                    session: session.clone(),
                    acus,
                })?;
            }
        }
        Ok(())
    }
}

/// `[from, to)` cut at UTC midnights: (day, from, to) pieces.
pub fn split_days(from: f64, to: f64) -> Vec<(i64, f64, f64)> {
    let mut out = Vec::new();
    let mut t = from;
    while t < to {
        let day = day_of(t);
        let end = ((day + 1) as f64 * DAY).min(to);
        out.push((day, t, end));
        t = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(at: f64, session: &str, mark: Mark, rate: f64) -> Entry {
        Entry::State {
            at,
            outpost: "o".into(),
            provider: "daytona".into(),
            session: session.into(),
            sandbox: "sb".into(),
            mark,
            resources: Resources::default(),
            usd_per_hour: rate,
        }
    }

    fn replay(entries: &[Entry]) -> Tally {
        let mut t = Tally::default();
        for e in entries {
            t.apply(e);
        }
        t
    }

    #[test]
    fn seconds_and_usd_per_state_with_the_open_stretch_to_now() {
        let t = replay(&[
            state(1000.0, "s", Mark::Running, 3.6),
            state(1100.0, "s", Mark::Stopped, 0.36),
            state(1300.0, "s", Mark::Running, 3.6),
        ]);
        let (secs, usd) = t.sessions[&("o".into(), "s".into())].sum(0.0, 1400.0);
        assert_eq!(secs.running, 200.0);
        assert_eq!(secs.stopped, 200.0);
        assert!((usd.running - 0.2).abs() < 1e-12);
        assert!((usd.stopped - 0.02).abs() < 1e-12);
        // A window clips both ends.
        let (secs, _) = t.sessions[&("o".into(), "s".into())].sum(1050.0, 1350.0);
        assert_eq!((secs.running, secs.stopped), (100.0, 200.0));
        assert_eq!(
            t.rate_now()[&("daytona".to_string(), CostState::Running)],
            3.6
        );
    }

    #[test]
    fn gone_closes_and_nothing_accrues_after() {
        let t = replay(&[
            state(0.0, "s", Mark::Running, 1.0),
            state(60.0, "s", Mark::Archived, 0.5),
            state(120.0, "s", Mark::Gone, 0.0),
        ]);
        let (secs, _) = t.sessions[&("o".into(), "s".into())].sum(0.0, 10_000.0);
        assert_eq!(
            (secs.running, secs.archived, secs.stopped),
            (60.0, 60.0, 0.0)
        );
        assert!(t.rate_now().is_empty());
    }

    #[test]
    fn compaction_keeps_the_sums_and_the_open_state() {
        let start = 3.0 * DAY - 100.0;
        let entries = vec![
            state(start, "a", Mark::Running, 2.0),
            state(start + 300.0, "a", Mark::Stopped, 0.1),
            state(start + 5000.0, "a", Mark::Running, 2.0),
            state(start, "b", Mark::Running, 1.0),
            state(start + 50.0, "b", Mark::Gone, 0.0),
            Entry::Usage {
                at: start + 60.0,
                outpost: "o".into(),
                session: "b".into(),
                acus: 2.5,
            },
        ];
        let t = replay(&entries);
        let now = start + 9000.0;
        let compact = replay(&t.compacted(0.0));
        assert_eq!(compact.by_provider(0.0, now), t.by_provider(0.0, now));
        assert_eq!(compact.rate_now(), t.rate_now());
        assert_eq!(compact.sessions[&("o".into(), "b".into())].acus, Some(2.5));
        // Twice is the same as once.
        assert_eq!(
            replay(&compact.compacted(0.0)).by_provider(0.0, now),
            t.by_provider(0.0, now)
        );
        // The day of the first stretch is split at midnight.
        let days = &compact.sessions[&("o".into(), "a".into())].days;
        assert_eq!(days[&2].0.running, 100.0);
        assert_eq!(days[&3].0.running, 200.0);
        // Days before the retention go, and so does a session gone before it.
        let kept = replay(&t.compacted(4.0 * DAY));
        assert!(!kept.sessions.contains_key(&("o".into(), "b".into())));
        assert!(kept.sessions[&("o".into(), "a".into())].days.is_empty());
    }

    #[test]
    fn split_days_cuts_at_midnight() {
        assert_eq!(
            split_days(DAY - 10.0, DAY + 5.0),
            vec![(0, DAY - 10.0, DAY), (1, DAY, DAY + 5.0)]
        );
        assert!(split_days(5.0, 5.0).is_empty());
    }
}
