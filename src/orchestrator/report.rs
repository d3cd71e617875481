//! What the orchestrator tells about itself while it runs: the status file `orchestrator
//! status` reads, and the note that the cap holds sessions back. Nothing here decides anything.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::plan::{self, RemoteState};
use super::run::{Book, Capacity, Change, EndHow, LoopChange, OrchEvent, Orchestrator};
use super::sandbox_name;
use super::sleep::Fleet;
use crate::time::now;

/// How often an unchanged status file is written again, so its age tells how long ago the
/// orchestrator was last alive.
const REFRESH: f64 = 5.0;
/// How long a session that left (released, slept away, ended) keeps its last event in the file.
const ENDED_KEEP: f64 = 120.0;

impl Orchestrator {
    /// Count held and waiting sessions; say so when the cap keeps sessions waiting (again only
    /// when the numbers change).
    pub(super) fn note_capacity(&self) {
        let cap = self.opts.limits.cap;
        let (now_cap, before, draining) = self.update(|book| {
            let claiming = book.claiming();
            let held = book.tracks().filter(|(_, t)| t.held).count() + claiming.len();
            let waiting = book
                .queue()
                .values()
                .filter(|e| plan::claimable(e))
                .filter(|e| !claiming.contains(&e.session_id))
                .filter(|e| book.track(&e.session_id).is_none_or(|t| !t.held))
                .count();
            let c = Capacity { held, waiting };
            (
                (c, book.capacity(), book.draining()),
                vec![Change::Loop(LoopChange::Capacity(c))],
            )
        });
        let full = |c: Capacity| c.held >= cap && c.waiting > 0;
        if full(now_cap) && now_cap != before && !draining {
            self.emit(OrchEvent::AtCapacity {
                held: now_cap.held,
                cap,
                waiting: now_cap.waiting,
            });
        }
    }

    /// Write the status file when something in it changed, or every few seconds.
    pub(super) fn save_status(&self) {
        let doc = self.update(|book| {
            let t = now();
            if !book.status_dirty() && t - book.status_saved_at() < REFRESH {
                return (None, vec![]);
            }
            // A changed file is written at once below 1,000 rows; a bigger one at most every
            // `rows × 0.5 ms` (5 s at 10,000 sessions): every pass changes something at that
            // size, and rewriting O(N) bytes per pass made the writes grow with N².
            let rows = book.queue().len() as f64;
            if rows >= 1000.0
                && !book.draining()
                && t - book.status_saved_at() < (rows * 0.0005).min(REFRESH)
            {
                return (None, vec![]);
            }
            (
                Some(self.status_doc(book, t)),
                vec![Change::Loop(LoopChange::StatusSaved(t))],
            )
        });
        if let Some(doc) = doc
            && let Err(e) = self.state.save_status(&doc)
        {
            tracing::warn!("cannot write the status file: {e:#}");
        }
    }

    fn status_doc(&self, book: &Book, t: f64) -> StatusFile {
        let events = self.last_events_snapshot();
        let retention = self.opts.sleep_retention.map(|d| d.as_secs_f64());
        StatusFile {
            pid: Some(std::process::id()),
            sleeping: sleeping_rows(book, &events, retention),
            sandboxes: Some(book.fleet()),
            sleep_retention_seconds: retention,
            outpost_id: Some(self.opts.outpost_id.clone()),
            acceptor_id: Some(self.opts.acceptor_id.clone()),
            updated_at: Some(t),
            draining: book.draining(),
            cap: Some(self.opts.limits.cap),
            held: Some(book.capacity().held),
            waiting: Some(book.capacity().waiting),
            sessions: session_rows(book, &events),
            ended: ended_rows(book, &events, t),
            refused: super::egress::refusals(book),
            given_up: super::run::given_up(book),
            not_served: not_served_rows(book),
            sleep_keeps: Some(self.provider.kind().sleep_keeps().to_string()),
            wake_integrity: self.integrity_rows(book),
            failed: super::failures::failed_rows(
                &self.failure_records(),
                self.opts.failed_keep.as_secs_f64(),
            ),
            failed_keep_seconds: Some(self.opts.failed_keep.as_secs_f64()),
            placement: self.placement_report(),
            warm: self.warm_status(),
        }
    }
}

/// The status file (`status.json`) a running orchestrator rewrites and `orchestrator status`
/// reads. Every field has a default, so a file an older orchestrator wrote still loads; the
/// `Option`s are always written (as `null` when unknown).
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct StatusFile {
    pub pid: Option<u32>,
    pub sleeping: Vec<SleepingRow>,
    /// The janitor's last count of the outpost's sandboxes.
    pub sandboxes: Option<Fleet>,
    pub sleep_retention_seconds: Option<f64>,
    pub outpost_id: Option<String>,
    pub acceptor_id: Option<String>,
    /// Unix seconds of this rewrite.
    pub updated_at: Option<f64>,
    pub draining: bool,
    pub cap: Option<usize>,
    pub held: Option<usize>,
    pub waiting: Option<usize>,
    pub sessions: Vec<SessionRow>,
    pub ended: Vec<EndedRow>,
    pub refused: Vec<RefusedRow>,
    pub given_up: Vec<GivenUpRow>,
    pub not_served: Vec<NotServedRow>,
    /// What a sleeping session keeps on this provider.
    pub sleep_keeps: Option<String>,
    /// The last wake-integrity check of each session held or asleep.
    pub wake_integrity: Vec<super::integrity::IntegrityRow>,
    /// Failed sandboxes kept for forensics (open failure records), newest first.
    pub failed: Vec<super::failures::FailedRow>,
    /// `FAILED_KEEP`, seconds.
    pub failed_keep_seconds: Option<f64>,
    /// The snapshots sessions are placed on; quarantines; whether new sessions are claimed.
    pub placement: Option<super::placing::PlacementReport>,
    /// The warm capacity (`WARM_IDLE`); `null` when off.
    pub warm: Option<super::warm::WarmStatus>,
}

/// A session this instance holds.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct SessionRow {
    pub session_id: String,
    pub sandbox_id: Option<String>,
    pub sandbox_name: String,
    /// Served from a warm-pool sandbox, when known.
    pub served_warm: Option<bool>,
    /// `provisioning`, `serving` or `ending`.
    pub phase: String,
    /// The remote's state: `unknown`, `not_running`, `running` or `exited CODE`.
    pub remote: String,
    pub session_status: Option<String>,
    /// The session's own start (Devin's), not when we first saw it.
    pub created_at: Option<f64>,
    pub claim_deadline: Option<f64>,
    pub failures: u32,
    pub last_event: Option<String>,
    pub last_event_at: Option<f64>,
}

/// A sleeping session, with its retention clock.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct SleepingRow {
    pub session_id: String,
    pub sandbox_name: String,
    pub sandbox_id: Option<String>,
    /// `stopped`, `archived` or `snapshot`.
    pub state: String,
    pub slept_since: f64,
    pub absent_since: Option<f64>,
    /// When retention removes it; `None` when retention is off.
    pub retention_deadline: Option<f64>,
    pub created_at: Option<f64>,
    pub last_event: Option<String>,
    pub last_event_at: Option<f64>,
}

/// A session that just left this instance, with its last word.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct EndedRow {
    pub session_id: String,
    /// `terminated`, `suspended` or `unknown`.
    pub state: String,
    pub last_event: String,
    pub last_event_at: f64,
}

/// A session not served because its network policy cannot be enforced.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct RefusedRow {
    pub session_id: String,
    pub reason: String,
    pub at: f64,
    /// When it becomes claimable again.
    pub retry_at: Option<f64>,
}

/// A session given up (released, cooling off).
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct GivenUpRow {
    pub session_id: String,
    pub reason: String,
    /// When it is tried again.
    pub retry_at: Option<f64>,
    /// What its remote logged last, when it exited.
    pub last_log: Option<String>,
    /// Why its last provisioning attempt failed, when one did.
    pub last_error: Option<String>,
}

/// A session whose last provisioning attempt failed: released, tried again after a backoff.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct NotServedRow {
    pub session_id: String,
    /// The failure, as the provider or the API reported it.
    pub reason: String,
    /// When it failed (Unix seconds).
    pub at: f64,
    /// Failed attempts so far (given up after `MAX_FAILURES`).
    pub failures: u32,
    /// When it is tried again.
    pub retry_at: Option<f64>,
}

pub(super) type Events = [(String, OrchEvent, f64)];

/// Sessions not held whose last provisioning attempt failed and that are not given up (those
/// are listed as given up, with the same reason).
fn not_served_rows(book: &Book) -> Vec<NotServedRow> {
    book.tracks()
        .filter(|(_, t)| !t.held && t.gave_up.is_none() && t.failures > 0)
        .filter_map(|(id, t)| {
            let (reason, at) = book.failure(id)?;
            Some(NotServedRow {
                session_id: id.to_string(),
                reason: super::narrate::one_line(reason),
                at,
                failures: t.failures,
                retry_at: t.retry_at,
            })
        })
        .collect()
}

/// A session's last event in words, for the status views: a release after a failure says
/// what failed (the narration said it a line before; a status view shows one line).
fn words(book: &Book, id: &str, ev: &OrchEvent) -> String {
    match (ev, book.failure(id)) {
        (
            OrchEvent::Ended {
                how: EndHow::Failed,
                ..
            },
            Some((why, _)),
        ) => format!(
            "not served: {}; claim released, retried later",
            super::narrate::one_line(why)
        ),
        _ => ev.summary(),
    }
}

/// The snapshot is sorted by session (a map's order): a search, since a scan per row made the
/// status rows O(N²) — at 10,000 sessions, 10⁸ comparisons per write.
fn last<'a>(events: &'a Events, id: &str) -> Option<&'a (String, OrchEvent, f64)> {
    let i = events
        .binary_search_by(|(s, _, _)| s.as_str().cmp(id))
        .ok()?;
    events.get(i)
}

/// The sessions this instance holds.
pub(super) fn session_rows(book: &Book, events: &Events) -> Vec<SessionRow> {
    book.tracks()
        .filter(|(_, t)| t.held)
        .map(|(id, t)| {
            let entry = book.entry(id);
            let running = matches!(t.remote, RemoteState::Running { .. });
            SessionRow {
                session_id: id.to_string(),
                sandbox_id: book.sandbox(id).map(str::to_string),
                sandbox_name: sandbox_name(id),
                served_warm: book.served_warm(id),
                phase: if t.terminated {
                    "ending"
                } else if running {
                    "serving"
                } else {
                    "provisioning"
                }
                .to_string(),
                remote: match &t.remote {
                    RemoteState::Unknown => "unknown".to_string(),
                    RemoteState::NotRunning => "not_running".to_string(),
                    RemoteState::Running { .. } => "running".to_string(),
                    RemoteState::Exited { code, .. } => format!("exited {code}"),
                },
                session_status: entry.map(|e| e.session_status.as_str().to_string()),
                created_at: entry.and_then(|e| e.created_at),
                claim_deadline: t.claim_deadline,
                failures: t.failures,
                last_event: last(events, id).map(|e| words(book, id, &e.1)),
                last_event_at: last(events, id).map(|e| e.2),
            }
        })
        .collect()
}

/// The sleeping sessions, with their retention clocks.
fn sleeping_rows(book: &Book, events: &Events, retention: Option<f64>) -> Vec<SleepingRow> {
    book.sleepers()
        .map(|(id, s)| SleepingRow {
            session_id: id.to_string(),
            sandbox_name: s.sandbox.clone(),
            sandbox_id: s.sandbox_id.clone(),
            state: s.state.as_str().to_string(),
            slept_since: s.slept_since,
            absent_since: s.absent_since,
            retention_deadline: s.deadline(retention),
            created_at: book.entry(id).and_then(|e| e.created_at),
            last_event: last(events, id).map(|e| words(book, id, &e.1)),
            last_event_at: last(events, id).map(|e| e.2),
        })
        .collect()
}

/// Sessions that just left this instance: their last word, so a view that showed them can say
/// how they ended instead of keeping their last state.
fn ended_rows(book: &Book, events: &Events, t: f64) -> Vec<EndedRow> {
    events
        .iter()
        .filter(|(id, _, at)| {
            t - at < ENDED_KEEP
                && !book.track(id).is_some_and(|t| t.held)
                && book.sleeper(id).is_none()
        })
        .map(|(id, ev, at)| {
            // What the session's last word says it became.
            let state = match ev {
                OrchEvent::Ended {
                    how: EndHow::Terminated,
                    ..
                } => "terminated",
                OrchEvent::SandboxDeleted { .. } => "terminated",
                OrchEvent::Ended {
                    how: EndHow::Slept, ..
                } => "suspended",
                _ => "unknown",
            };
            EndedRow {
                session_id: id.clone(),
                state: state.to_string(),
                last_event: words(book, id, ev),
                last_event_at: *at,
            }
        })
        .collect()
}
