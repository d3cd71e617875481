//! What the orchestrator tells about itself while it runs: the status file `orchestrator
//! status` reads, and the note that the cap holds sessions back. Nothing here decides anything.

use super::plan::{self, RemoteState};
use super::run::{Book, Capacity, Change, EndHow, OrchEvent, Orchestrator};
use super::sandbox_name;
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
                vec![Change::Capacity(c)],
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
            (Some(self.status_doc(book, t)), vec![Change::StatusSaved(t)])
        });
        if let Some(doc) = doc
            && let Err(e) = self.state.save_status(&doc)
        {
            tracing::warn!("cannot write the status file: {e:#}");
        }
    }

    fn status_doc(&self, book: &Book, t: f64) -> serde_json::Value {
        let events = self.last_events_snapshot();
        let retention = self.opts.sleep_retention.map(|d| d.as_secs_f64());
        serde_json::json!({
            "pid": std::process::id(),
            "sleeping": sleeping_json(book, &events, retention),
            "sandboxes": book.fleet(),
            "sleep_retention_seconds": retention,
            "outpost_id": self.opts.outpost_id,
            "acceptor_id": self.opts.acceptor_id,
            "updated_at": t,
            "draining": book.draining(),
            "cap": self.opts.limits.cap,
            "held": book.capacity().held,
            "waiting": book.capacity().waiting,
            "sessions": sessions_json(book, &events),
            "ended": ended_json(book, &events, t),
            "refused": super::egress::refusals_json(book),
            "given_up": super::run::given_up_json(book),
            "sleep_keeps": self.provider.kind().sleep_keeps(),
        })
    }
}

type Events = [(String, OrchEvent, f64)];

fn last<'a>(events: &'a Events, id: &str) -> Option<&'a (String, OrchEvent, f64)> {
    events.iter().find(|(s, _, _)| s == id)
}

/// The sessions this instance holds.
fn sessions_json(book: &Book, events: &Events) -> Vec<serde_json::Value> {
    book.tracks()
        .filter(|(_, t)| t.held)
        .map(|(id, t)| {
            let entry = book.entry(id);
            let running = matches!(t.remote, RemoteState::Running { .. });
            serde_json::json!({
                "session_id": id,
                "sandbox_id": book.sandbox(id),
                "sandbox_name": sandbox_name(id),
                "served_warm": book.served_warm(id),
                "phase": if t.terminated { "ending" } else if running { "serving" } else { "provisioning" },
                "remote": match &t.remote {
                    RemoteState::Unknown => "unknown".to_string(),
                    RemoteState::NotRunning => "not_running".to_string(),
                    RemoteState::Running { .. } => "running".to_string(),
                    RemoteState::Exited { code, .. } => format!("exited {code}"),
                },
                "session_status": entry.map(|e| e.session_status.as_str()),
                // The session's own start (Devin's), not when we first saw it.
                "created_at": entry.and_then(|e| e.created_at),
                "claim_deadline": t.claim_deadline,
                "failures": t.failures,
                "last_event": last(events, id).map(|e| e.1.summary()),
                "last_event_at": last(events, id).map(|e| e.2),
            })
        })
        .collect()
}

/// The sleeping sessions, with their retention clocks.
fn sleeping_json(book: &Book, events: &Events, retention: Option<f64>) -> Vec<serde_json::Value> {
    book.sleepers()
        .map(|(id, s)| {
            serde_json::json!({
                "session_id": id,
                "sandbox_name": s.sandbox,
                "sandbox_id": s.sandbox_id,
                "state": s.state,
                "slept_since": s.slept_since,
                "absent_since": s.absent_since,
                "retention_deadline": s.deadline(retention),
                "created_at": book.entry(id).and_then(|e| e.created_at),
                "last_event": last(events, id).map(|e| e.1.summary()),
                "last_event_at": last(events, id).map(|e| e.2),
            })
        })
        .collect()
}

/// Sessions that just left this instance: their last word, so a view that showed them can say
/// how they ended instead of keeping their last state.
fn ended_json(book: &Book, events: &Events, t: f64) -> Vec<serde_json::Value> {
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
            serde_json::json!({"session_id": id, "state": state,
                "last_event": ev.summary(), "last_event_at": at})
        })
        .collect()
}
