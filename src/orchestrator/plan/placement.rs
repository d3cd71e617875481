//! Placement: where new sandboxes go, and which capacity is quarantined. Pure (the caller passes
//! the time); table-tested in `tests_placement.rs`.
//!
//! A placement is what a create names that can be bad on its own: a snapshot, a Daytona
//! target, a CoreWeave profile. Each is scored by the creates placed on it — failures in a row
//! and the usual create→ready time. Rules:
//! - [`Policy::after`] failures in a row (a create refused or timed out, a sandbox that never
//!   came up, or one that came up far slower than usual — [`Policy::is_slow`]) quarantine it
//!   for [`Policy::cool_off`]; each failed probe after a cool-off doubles it, up to
//!   [`Policy::max_cool_off`].
//! - New sandboxes go to the first configured placement that is in use or whose cool-off is over
//!   (then as a probe, one at a time); a probe that succeeds brings it back, so the preferred
//!   placement returns on its own. With none usable nothing new is claimed
//!   ([`Placements::may_claim`]).
//! - A probe nobody reported on within [`PROBE_STALE`] is forgotten, so one lost attempt cannot
//!   keep claiming stopped for good.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A probe unanswered this long (seconds) no longer blocks the next one.
pub const PROBE_STALE: f64 = 900.0;
/// At most this many placements are remembered (the oldest healthy ones go first).
pub const MAX_REMEMBERED: usize = 64;
/// Successes before a placement's readiness can be judged slow.
const SLOW_SAMPLES: u64 = 3;
/// Weight of the newest readiness in the usual time.
const ALPHA: f64 = 0.2;

/// What kind of capacity a placement is.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Snapshot,
    /// A container image, or the provider's default (`default`) when no snapshot is named.
    Image,
    Target,
    Profile,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Snapshot => "snapshot",
            Kind::Image => "image",
            Kind::Target => "target",
            Kind::Profile => "profile",
        }
    }
}

/// One placement: its kind and name.
#[derive(
    Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
pub struct Key {
    pub kind: Kind,
    pub name: String,
}

impl Key {
    pub fn snapshot(name: impl Into<String>) -> Key {
        Key {
            kind: Kind::Snapshot,
            name: name.into(),
        }
    }
}

impl Key {
    pub fn target(name: impl Into<String>) -> Key {
        Key {
            kind: Kind::Target,
            name: name.into(),
        }
    }

    pub fn image(name: impl Into<String>) -> Key {
        Key {
            kind: Kind::Image,
            name: name.into(),
        }
    }
}

impl std::fmt::Display for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.kind.as_str(), self.name)
    }
}

/// The knobs (`QUARANTINE_AFTER`, `QUARANTINE_COOL_OFF`).
#[derive(Debug, Clone, PartialEq)]
pub struct Policy {
    /// Failures in a row that quarantine a placement.
    pub after: u32,
    /// The first cool-off, seconds.
    pub cool_off: f64,
    /// The longest cool-off, seconds.
    pub max_cool_off: f64,
}

impl Default for Policy {
    fn default() -> Self {
        Policy::new(
            crate::env::QUARANTINE_AFTER.default_count() as u32,
            crate::env::QUARANTINE_COOL_OFF
                .default_duration()
                .as_secs_f64(),
        )
    }
}

impl Policy {
    /// The cool-off doubles at most five times (32× the first).
    pub fn new(after: u32, cool_off: f64) -> Policy {
        Policy {
            after: after.max(1),
            cool_off,
            max_cool_off: cool_off * 32.0,
        }
    }

    /// Readiness far above the usual: more than five times it and over a minute more.
    pub fn is_slow(&self, score: &Score, secs: f64) -> bool {
        match score.usual_ready {
            Some(usual) if score.successes >= SLOW_SAMPLES => {
                secs > usual * 5.0 && secs > usual + 60.0
            }
            _ => false,
        }
    }
}

/// What one placement has shown.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct Score {
    /// Failures in a row.
    pub failures: u32,
    pub successes: u64,
    pub total_failures: u64,
    /// Usual create→ready time (seconds, moving average of the good ones).
    pub usual_ready: Option<f64>,
    /// Quarantined until (Unix seconds); `None`: in use.
    pub quarantined_until: Option<f64>,
    /// The current cool-off (seconds; 0 while in use).
    pub cool_off: f64,
    /// Since when it is quarantined.
    pub quarantined_since: Option<f64>,
    /// Why, in words (the last failure).
    pub reason: Option<String>,
    /// A probe placed on it, not yet reported (not persisted: a restart forgets it).
    #[serde(skip)]
    pub probe_at: Option<f64>,
    /// The last outcome (for the bound on what is remembered).
    pub last_seen: f64,
}

impl Score {
    pub fn quarantined(&self) -> bool {
        self.quarantined_until.is_some()
    }

    fn probing(&self, now: f64) -> bool {
        self.probe_at.is_some_and(|at| now - at < PROBE_STALE)
    }

    /// In use, or (quarantined) a probe may go now.
    fn usable(&self, now: f64) -> Option<bool> {
        match self.quarantined_until {
            None => Some(false),
            Some(until) if until <= now && !self.probing(now) => Some(true),
            Some(_) => None,
        }
    }
}

/// What a create placed on a placement came to.
#[derive(Debug, Clone, PartialEq)]
pub enum Attempt {
    /// Ready after this many seconds.
    Ready(f64),
    /// Refused, timed out, or never came up.
    Failed(String),
}

/// What an outcome changed, for the executor to say.
#[derive(Debug, Clone, PartialEq)]
pub enum Transition {
    None,
    /// Quarantined now (after `failures` in a row) for `cool_off` seconds.
    Quarantined {
        failures: u32,
        cool_off: f64,
    },
    /// A probe failed: quarantined again, for longer.
    StillBad {
        cool_off: f64,
    },
    /// A probe succeeded: in use again.
    Recovered,
}

/// Where the next sandbox goes.
#[derive(Debug, Clone, PartialEq)]
pub enum Choice {
    /// On this placement (`probe`: it is quarantined and its cool-off is over).
    Place { key: Key, probe: bool },
    /// Nowhere: every configured placement is quarantined; the earliest cool-off ends then.
    Hold { until: Option<f64> },
}

/// Every placement's score.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Placements {
    scores: BTreeMap<Key, Score>,
}

/// One remembered placement as it is persisted.
#[derive(Serialize, Deserialize)]
struct Entry {
    key: Key,
    score: Score,
}

impl Placements {
    pub fn score(&self, key: &Key) -> Option<&Score> {
        self.scores.get(key)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&Key, &Score)> {
        self.scores.iter()
    }

    /// Where the next sandbox goes, among `candidates` in order of preference.
    pub fn choose(&self, candidates: &[Key], now: f64) -> Choice {
        // In order of preference: one in use, or one whose cool-off is over (probed even when
        // a later one is in use, so the preferred placement comes back on its own).
        let usable = |k: &Key| self.scores.get(k).map_or(Some(false), |s| s.usable(now));
        if let Some((k, probe)) = candidates
            .iter()
            .find_map(|k| usable(k).map(|probe| (k, probe)))
        {
            return Choice::Place {
                key: k.clone(),
                probe,
            };
        }
        let until = candidates
            .iter()
            .filter_map(|k| self.scores.get(k)?.quarantined_until)
            .reduce(f64::min);
        Choice::Hold { until }
    }

    /// Whether a new session may be claimed: only when it could be placed somewhere.
    pub fn may_claim(&self, candidates: &[Key], now: f64) -> bool {
        candidates.is_empty() || matches!(self.choose(candidates, now), Choice::Place { .. })
    }

    /// A create goes to `key` now (a probe is marked, so the next waits for its answer).
    pub fn placed(&mut self, key: &Key, probe: bool, now: f64) {
        if probe {
            self.scores.entry(key.clone()).or_default().probe_at = Some(now);
        }
    }

    /// A create on `key` ended in a way that says nothing about it (rate limit, credentials):
    /// only its probe mark goes, if it was the probe.
    pub fn unplaced(&mut self, key: &Key, probe: bool) {
        if probe && let Some(s) = self.scores.get_mut(key) {
            s.probe_at = None;
        }
    }

    /// Fold what a create on `key` came to (`probe`: the create was placed as its probe).
    pub fn record(
        &mut self,
        key: &Key,
        attempt: Attempt,
        probe: bool,
        now: f64,
        p: &Policy,
    ) -> Transition {
        let s = self.scores.entry(key.clone()).or_default();
        s.last_seen = now;
        if probe {
            s.probe_at = None;
        }
        let why = match attempt {
            Attempt::Ready(secs) if p.is_slow(s, secs) => {
                let usual = s.usual_ready.unwrap_or_default();
                format!("ready after {secs:.0}s, usually {usual:.0}s")
            }
            Attempt::Ready(secs) => {
                let was = s.quarantined();
                // In use again: a probe still out is no longer one (its answer is a create's).
                s.probe_at = None;
                s.failures = 0;
                s.successes += 1;
                s.usual_ready = Some(match s.usual_ready {
                    Some(u) => u + ALPHA * (secs - u),
                    None => secs,
                });
                s.quarantined_until = None;
                s.quarantined_since = None;
                s.cool_off = 0.0;
                s.reason = None;
                return if was {
                    Transition::Recovered
                } else {
                    Transition::None
                };
            }
            Attempt::Failed(why) => why,
        };
        s.failures += 1;
        s.total_failures += 1;
        s.reason = Some(why);
        let t = if s.quarantined() && !probe {
            // A create sent before the quarantine began, failing after it: the same trouble
            // the quarantine already answers, not a failed probe (each of a burst of creates
            // in flight doubled a 1-minute cool-off: 8 minutes after four).
            return Transition::None;
        } else if s.quarantined() {
            s.cool_off = (s.cool_off * 2.0).clamp(p.cool_off, p.max_cool_off);
            Transition::StillBad {
                cool_off: s.cool_off,
            }
        } else if s.failures >= p.after {
            s.cool_off = p.cool_off;
            s.quarantined_since = Some(now);
            Transition::Quarantined {
                failures: s.failures,
                cool_off: s.cool_off,
            }
        } else {
            return Transition::None;
        };
        s.quarantined_until = Some(now + s.cool_off);
        self.bound();
        t
    }

    /// Keep at most [`MAX_REMEMBERED`]: quarantined ones stay, the oldest others go.
    fn bound(&mut self) {
        while self.scores.len() > MAX_REMEMBERED {
            let oldest = self
                .scores
                .iter()
                .min_by(|a, b| {
                    (a.1.quarantined(), a.1.last_seen)
                        .partial_cmp(&(b.1.quarantined(), b.1.last_seen))
                        .unwrap_or(std::cmp::Ordering::Equal)
                })
                .map(|(k, _)| k.clone());
            match oldest {
                Some(k) => self.scores.remove(&k),
                None => break,
            };
        }
    }

    /// The persisted form (a list: JSON maps need string keys).
    pub fn to_json(&self) -> serde_json::Value {
        let entries: Vec<Entry> = self
            .scores
            .iter()
            .map(|(key, score)| Entry {
                key: key.clone(),
                score: score.clone(),
            })
            .collect();
        serde_json::json!({ "placements": entries })
    }

    /// Read back what [`Self::to_json`] wrote (an unreadable file is an empty memory).
    pub fn from_json(v: &serde_json::Value) -> Placements {
        let entries: Vec<Entry> = v
            .get("placements")
            .and_then(|p| serde_json::from_value(p.clone()).ok())
            .unwrap_or_default();
        let mut p = Placements {
            scores: entries.into_iter().map(|e| (e.key, e.score)).collect(),
        };
        p.bound();
        p
    }
}

/// The pass's actions, without its claims when nothing could be placed (the sessions already
/// held go on: their own failures release them).
pub fn gate(actions: Vec<super::Action>, may_claim: bool) -> Vec<super::Action> {
    if may_claim {
        return actions;
    }
    actions
        .into_iter()
        .filter(|a| !matches!(a, super::Action::Claim { .. }))
        .collect()
}
