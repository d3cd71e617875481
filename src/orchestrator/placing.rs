//! The executor's side of placement (`plan/placement.rs` decides): which snapshot a create
//! uses, what it came to, whether new sessions may be claimed, and saying so — a WARN when a
//! snapshot is quarantined and when claiming stops (once each), the
//! `outposts_placement_quarantined` gauge, the status file's `placement`, and
//! `placements.json` in the outpost's state dir so a restart remembers a quarantine.

use std::sync::Mutex;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::plan::placement::{Attempt, Choice, Key, Placements, Transition};
use super::run::Orchestrator;
use super::state::OutpostState;
use crate::api::devin_types::Platform;
use crate::provider::Source;
use crate::time::now;

const FILE: &str = "placements.json";
/// Least time between two writes of the scores when only timings of good creates changed.
const SAVE_EVERY: std::time::Duration = std::time::Duration::from_secs(5);

/// The placement memory and what has been said about it.
#[derive(Debug, Default)]
pub(super) struct Placing {
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    placements: Placements,
    /// Claiming is stopped (said once when it stops, once when it resumes).
    holding: bool,
    /// When the scores were last written.
    saved_at: Option<std::time::Instant>,
}

impl Placing {
    /// What the state dir remembers (nothing, when the file is missing or unreadable).
    pub(super) fn load(state: &OutpostState) -> Placing {
        let placements = std::fs::read(state.dir().join(FILE))
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .map(|v| Placements::from_json(&v))
            .unwrap_or_default();
        Placing {
            inner: Mutex::new(Inner {
                placements,
                holding: false,
                saved_at: None,
            }),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A create's placement, to be reported with [`Orchestrator::placed`].
#[derive(Debug, Clone)]
pub(super) struct Placed {
    pub key: Key,
    /// What the create boots from.
    pub source: Source,
    /// The Daytona target it goes to (`None`: the provider's own setting).
    pub target: Option<String>,
    /// Placed as the probe of a quarantined placement.
    pub probe: bool,
    pub sent: std::time::Instant,
}

/// `placement` in the status file and `orchestrator status --json`: the snapshots sessions are
/// placed on, and whether new sessions are claimed.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct PlacementReport {
    /// `false` while every configured snapshot is quarantined: no new session is claimed.
    pub claiming: bool,
    /// When claiming stopped, until when at the earliest (the first cool-off's end, Unix s).
    pub claiming_resumes_at: Option<f64>,
    pub placements: Vec<PlacementRow>,
}

/// One snapshot (or target, or profile) sessions are placed on.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct PlacementRow {
    /// `snapshot`, `target` or `profile`.
    pub kind: String,
    pub name: String,
    pub quarantined: bool,
    /// Unix seconds when a probe may go (while quarantined).
    pub quarantined_until: Option<f64>,
    pub cool_off_seconds: f64,
    /// Failed creates in a row.
    pub failures: u32,
    pub successes: u64,
    /// Usual create→ready time, seconds.
    pub usual_ready_seconds: Option<f64>,
    /// The last failure, in words.
    pub reason: Option<String>,
}

impl Orchestrator {
    /// What a session of `platform` may be placed on, in order of preference, with the target
    /// each goes to (`placing_targets.rs`).
    fn placement_sources(&self, platform: Platform) -> Vec<(Key, Source, Option<String>)> {
        super::placing_targets::with_targets(self.snapshot_sources(platform), &self.opts.targets)
    }

    /// Its snapshot and then `SNAPSHOT_FALLBACK` (Linux), or its image (the provider's default:
    /// `default`).
    fn snapshot_sources(&self, platform: Platform) -> Vec<(Key, Source)> {
        let source = match (platform, &self.opts.windows_source) {
            (Platform::Windows, Some(w)) => w,
            _ => &self.opts.source,
        };
        let fallback: &[String] = match platform {
            Platform::Windows => &[],
            _ => &self.opts.snapshot_fallback,
        };
        match source {
            Source::Snapshot(s) => std::iter::once(s)
                .chain(fallback)
                .map(|s| (Key::snapshot(s), Source::Snapshot(s.clone())))
                .collect(),
            Source::Image(i) => vec![(Key::image(i), source.clone())],
            Source::Default => vec![(Key::image("default"), Source::Default)],
        }
    }

    fn placement_candidates(&self, platform: Platform) -> Vec<Key> {
        self.placement_sources(platform)
            .into_iter()
            .map(|(k, _, _)| k)
            .collect()
    }

    /// Where a new sandbox of `platform` goes; an error when everything it could go on is
    /// quarantined.
    pub(super) fn place(&self, platform: Platform) -> anyhow::Result<Placed> {
        let sources = self.placement_sources(platform);
        let candidates = self.placement_candidates(platform);
        let t = now();
        let mut inner = self.placing.lock();
        match inner.placements.choose(&candidates, t) {
            Choice::Place { key, probe } => {
                inner.placements.placed(&key, probe, t);
                if probe {
                    tracing::info!("probing quarantined {key}: its cool-off is over");
                } else if key != candidates[0] {
                    tracing::info!(
                        "placing on fallback {key}: {} is quarantined",
                        candidates[0]
                    );
                }
                let (source, target) = sources
                    .into_iter()
                    .find(|(k, _, _)| *k == key)
                    .map_or((Source::Default, None), |(_, s, t)| (s, t));
                Ok(Placed {
                    key,
                    source,
                    target,
                    probe,
                    sent: std::time::Instant::now(),
                })
            }
            Choice::Hold { until } => Err(anyhow::anyhow!(
                "not creating a sandbox: {} quarantined{}",
                names(&candidates),
                until.map(until_words).unwrap_or_default()
            )),
        }
    }

    /// A refused create that says nothing about where it was placed: a rate limit, a quota or
    /// rejected credentials are the account's, not the snapshot's.
    pub(super) fn refused(&self, placed: &Placed, e: &crate::provider::ProviderError) {
        use crate::provider::ProviderError as E;
        let account = match e {
            E::Quota(_) | E::Busy { .. } => true,
            E::Api(a) => matches!(a.status(), Some(401 | 403 | 429)),
            _ => false,
        };
        if account {
            self.placing
                .lock()
                .placements
                .unplaced(&placed.key, placed.probe);
        } else {
            self.placed(placed, Err(format!("create refused: {e}")));
        }
    }

    /// What a create placed by [`Self::place`] came to.
    pub(super) fn placed(&self, placed: &Placed, outcome: Result<(), String>) {
        let attempt = match outcome {
            Ok(()) => Attempt::Ready(placed.sent.elapsed().as_secs_f64()),
            // Kept in the state dir and the status file: never a secret an error echoed.
            Err(why) => Attempt::Failed(crate::secrets::redact(&why).into_owned()),
        };
        let policy = &self.opts.placement;
        let key = &placed.key;
        let failed = matches!(attempt, Attempt::Failed(_));
        let (transition, json) = {
            let mut inner = self.placing.lock();
            let t = inner
                .placements
                .record(key, attempt, placed.probe, now(), policy);
            // A failure or a change of state is written at once; a create that went well only
            // adds a timing, written at most every SAVE_EVERY (two fsyncs per launch blocked a
            // runtime worker per serve; a crash loses at most those few seconds of timings).
            let save = failed
                || t != Transition::None
                || inner.saved_at.is_none_or(|at| at.elapsed() >= SAVE_EVERY);
            if save {
                inner.saved_at = Some(std::time::Instant::now());
            }
            (t, save.then(|| inner.placements.to_json()))
        };
        let quarantined = match transition {
            Transition::None => None,
            Transition::Quarantined { failures, cool_off } => {
                tracing::warn!(
                    "quarantined {key} after {failures} failed creates in a row: no new sandbox \
                     goes there for {cool_off:.0}s, then one probe"
                );
                Some(true)
            }
            Transition::StillBad { cool_off } => {
                tracing::info!("{key} is still failing: quarantined for {cool_off:.0}s more");
                Some(true)
            }
            Transition::Recovered => {
                tracing::info!("{key} recovered: sandboxes are placed there again");
                Some(false)
            }
        };
        if let Some(q) = quarantined {
            self.metrics.placement_quarantined(key, q);
        }
        if let Some(json) = json
            && let Err(e) = super::state::write_atomic(
                &self.state.dir().join(FILE),
                json.to_string().as_bytes(),
            )
        {
            tracing::warn!("cannot save the placement scores: {e:#}");
        }
        self.record([super::run::Change::Loop(super::run::LoopChange::Dirty)]);
    }

    /// Whether new sessions may be claimed: not while every snapshot of a platform is
    /// quarantined. Says so once when claiming stops and once when it resumes.
    pub(super) fn may_claim(&self) -> bool {
        let groups = [Platform::Linux, Platform::Windows].map(|p| self.placement_candidates(p));
        let t = now();
        let mut inner = self.placing.lock();
        let blocked = groups
            .iter()
            .find(|c| !inner.placements.may_claim(c, t))
            .cloned();
        match (&blocked, inner.holding) {
            (Some(c), false) => {
                let until = match inner.placements.choose(c, t) {
                    Choice::Hold { until } => until.map(until_words).unwrap_or_default(),
                    Choice::Place { .. } => String::new(),
                };
                let fallback = match c.first().map(|k| k.kind) {
                    Some(super::plan::placement::Kind::Target) => {
                        "DAYTONA_TARGET_FALLBACK to place sessions on another target"
                    }
                    _ => "SNAPSHOT_FALLBACK to place sessions on another snapshot",
                };
                tracing::warn!(
                    "not claiming new sessions: {} quarantined{until}; set {fallback} meanwhile",
                    names(c)
                );
                inner.holding = true;
                self.metrics.claiming_stopped(true);
            }
            (None, true) => {
                tracing::info!("claiming new sessions again");
                inner.holding = false;
                self.metrics.claiming_stopped(false);
            }
            _ => {}
        }
        blocked.is_none()
    }

    /// Whether a warm sandbox may be handed over: it booted from the preferred placement (the
    /// session's snapshot, the provider's target), which must not be quarantined — a warm
    /// sandbox from bad capacity would serve a session the quarantine keeps off it. The hook
    /// the warm hand-over (`warm/exec.rs`) calls.
    pub(in crate::orchestrator) fn warm_placeable(&self) -> bool {
        let Some(first) = self
            .placement_candidates(Platform::Linux)
            .into_iter()
            .next()
        else {
            return true;
        };
        let inner = self.placing.lock();
        !inner
            .placements
            .score(&first)
            .is_some_and(|s| s.quarantined())
    }

    /// The placement part of the status file.
    pub(super) fn placement_report(&self) -> Option<PlacementReport> {
        let groups = [Platform::Linux, Platform::Windows].map(|p| self.placement_candidates(p));
        let t = now();
        let inner = self.placing.lock();
        let rows: Vec<PlacementRow> = groups
            .iter()
            .flatten()
            .filter_map(|k| Some((k, inner.placements.score(k)?)))
            .map(|(k, s)| PlacementRow {
                kind: k.kind.as_str().into(),
                name: k.name.clone(),
                quarantined: s.quarantined(),
                quarantined_until: s.quarantined_until,
                cool_off_seconds: s.cool_off,
                failures: s.failures,
                successes: s.successes,
                usual_ready_seconds: s.usual_ready,
                reason: s.reason.clone(),
            })
            .collect();
        let holds: Vec<Option<f64>> = groups
            .iter()
            .filter_map(|c| match inner.placements.choose(c, t) {
                Choice::Hold { until } if !c.is_empty() => Some(until),
                _ => None,
            })
            .collect();
        (!rows.is_empty()).then(|| PlacementReport {
            claiming: holds.is_empty(),
            claiming_resumes_at: holds.into_iter().flatten().reduce(f64::max),
            placements: rows,
        })
    }

    /// Every candidate's gauge from the start (0, or 1 for a quarantine remembered across a
    /// restart), so alerts see a series before the first failure.
    pub(super) fn init_placement_metrics(&self) {
        self.metrics.claiming_stopped(false);
        let inner = self.placing.lock();
        for p in [Platform::Linux, Platform::Windows] {
            for k in self.placement_candidates(p) {
                let q = inner.placements.score(&k).is_some_and(|s| s.quarantined());
                self.metrics.placement_quarantined(&k, q);
            }
        }
    }
}

fn names(keys: &[Key]) -> String {
    let all: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
    match all.len() {
        1 => format!("{} is", all[0]),
        _ => format!("{} are all", all.join(", ")),
    }
}

fn until_words(until: f64) -> String {
    let left = (until - now()).max(0.0);
    format!(" (the next probe in {left:.0}s)")
}
