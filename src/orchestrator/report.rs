//! What the orchestrator tells about itself while it runs: the status file `orchestrator
//! status` reads, and the note that the cap holds sessions back. Nothing here decides anything.

use super::plan::{self, RemoteState};
use super::run::{Capacity, EndHow, OrchEvent, Orchestrator};
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
        let (now_cap, before) = {
            let mut inner = self.lock();
            let held = inner.tracks.values().filter(|t| t.held).count() + inner.claiming.len();
            let waiting = inner
                .queue
                .values()
                .filter(|e| plan::claimable(e))
                .filter(|e| !inner.claiming.contains(&e.session_id))
                .filter(|e| inner.tracks.get(&e.session_id).is_none_or(|t| !t.held))
                .count();
            let c = Capacity { held, waiting };
            let before = std::mem::replace(&mut inner.capacity, c);
            if before != c {
                inner.status_dirty = true;
            }
            (c, before)
        };
        let full = |c: Capacity| c.held >= cap && c.waiting > 0;
        if full(now_cap) && now_cap != before && !self.lock().draining {
            self.emit(OrchEvent::AtCapacity {
                held: now_cap.held,
                cap,
                waiting: now_cap.waiting,
            });
        }
    }

    pub(super) fn save_status(&self) {
        let doc = {
            let mut inner = self.lock();
            let t = now();
            if !inner.status_dirty && t - inner.status_saved_at < REFRESH {
                return;
            }
            inner.status_dirty = false;
            inner.status_saved_at = t;
            {
                let i = &mut *inner;
                let tracks = &i.tracks;
                i.served_warm.retain(|id, _| tracks.contains_key(id));
            }
            let events = self.last_events_snapshot();
            let last = |id: &str| events.iter().find(|(s, _, _)| s == id);
            let sessions: Vec<serde_json::Value> = inner
                .tracks
                .iter()
                .filter(|(_, t)| t.held)
                .map(|(id, t)| {
                    let entry = inner.queue.get(id);
                    let running = matches!(t.remote, RemoteState::Running { .. });
                    serde_json::json!({
                        "session_id": id,
                        "sandbox_id": inner.sandboxes.get(id),
                        "sandbox_name": sandbox_name(id),
                        "served_warm": inner.served_warm.get(id),
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
                        "last_event": last(id).map(|e| e.1.summary()),
                        "last_event_at": last(id).map(|e| e.2),
                    })
                })
                .collect();
            let retention = self.opts.sleep_retention.map(|d| d.as_secs_f64());
            let sleeping: Vec<serde_json::Value> = inner
                .sleepers
                .iter()
                .map(|(id, s)| {
                    serde_json::json!({
                        "session_id": id,
                        "sandbox_name": s.sandbox,
                        "sandbox_id": s.sandbox_id,
                        "state": s.state,
                        "slept_since": s.slept_since,
                        "absent_since": s.absent_since,
                        "retention_deadline": s.deadline(retention),
                        "created_at": inner.queue.get(id).and_then(|e| e.created_at),
                        "last_event": last(id).map(|e| e.1.summary()),
                        "last_event_at": last(id).map(|e| e.2),
                    })
                })
                .collect();
            // Sessions that just left this instance: their last word, so a view that showed them
            // can say how they ended instead of keeping their last state.
            let ended: Vec<serde_json::Value> = events
                .iter()
                .filter(|(id, _, at)| {
                    t - at < ENDED_KEEP
                        && !inner.tracks.get(id).is_some_and(|t| t.held)
                        && !inner.sleepers.contains_key(id)
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
                .collect();
            serde_json::json!({
                "pid": std::process::id(),
                "sleeping": sleeping,
                "sandboxes": inner.fleet,
                "sleep_retention_seconds": retention,
                "outpost_id": self.opts.outpost_id,
                "acceptor_id": self.opts.acceptor_id,
                "updated_at": t,
                "draining": inner.draining,
                "cap": self.opts.limits.cap,
                "held": inner.capacity.held,
                "waiting": inner.capacity.waiting,
                "sessions": sessions,
                "ended": ended,
                "refused": super::egress::refusals_json(&mut inner),
                "given_up": super::run::given_up_json(&mut inner),
                "sleep_keeps": self.provider.kind().sleep_keeps(),
            })
        };
        if let Err(e) = self.state.save_status(&doc) {
            tracing::warn!("cannot write the status file: {e:#}");
        }
    }
}
