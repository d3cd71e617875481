//! Sleeping sessions, carried out: the record of each sleeper (kept in the state dir with its
//! absence clock), refreshed from the janitor's listing, and the deletions `SLEEP_RETENTION`
//! allows — each confirmed by an exact read that the session is still absent. The rules are
//! the planner's ([`retention`]).

use super::plan::janitor::{self, Lookup};
use super::plan::retention::{self, Keep, Sleeper};
use super::plan::{self};
use super::run::{Inner, OrchEvent, Orchestrator};
use crate::api::devin_types::SessionStatus;
use crate::provider::{SandboxInfo, SandboxState};
use crate::time::now;

/// How many of the outpost's sandboxes are up, asleep and archived (the janitor's last listing;
/// CoreWeave's snapshotted sleepers count as asleep).
#[derive(Debug, Clone, Copy, Default, serde::Serialize)]
pub struct Fleet {
    pub running: usize,
    pub sleeping: usize,
    pub archived: usize,
    /// Of those, sandboxes of sessions another replica (acceptor) holds: the counts are the
    /// outpost's, not this instance's.
    pub other_replicas: usize,
    /// When the listing was taken (Unix seconds); `None` before the first janitor pass.
    pub counted_at: Option<f64>,
}

fn sleep_state(sb: &SandboxInfo) -> &'static str {
    if matches!(sb.raw_state.as_str(), "archived" | "archiving") {
        "archived"
    } else {
        "stopped"
    }
}

impl Orchestrator {
    /// The outpost's sandboxes by state from one listing (CoreWeave's snapshotted sleepers count
    /// as asleep), and how many belong to sessions another replica holds.
    pub(super) fn count_fleet(&self, listing: &[SandboxInfo], inner: &Inner, t: f64) -> Fleet {
        let mut fleet = Fleet {
            counted_at: Some(t),
            ..Fleet::default()
        };
        for sb in listing {
            let Some(session) = janitor::owner(sb, &self.opts.outpost_id) else {
                continue;
            };
            match sb.state {
                SandboxState::Deleting | SandboxState::Deleted | SandboxState::Error => continue,
                SandboxState::Stopped | SandboxState::Stopping if sleep_state(sb) == "archived" => {
                    fleet.archived += 1
                }
                SandboxState::Stopped | SandboxState::Stopping => fleet.sleeping += 1,
                _ => fleet.running += 1,
            }
            let holder = inner
                .queue
                .get(session)
                .and_then(|e| e.acceptor_id.as_deref());
            if holder.is_some_and(|a| a != self.opts.acceptor_id) {
                fleet.other_replicas += 1;
            }
        }
        fleet.sleeping += inner
            .sleepers
            .values()
            .filter(|s| s.state == "snapshot")
            .count();
        fleet
    }

    /// Count the outpost's sandboxes again (a listing, nothing acted on), so `orchestrator
    /// status` follows the sandboxes this instance creates, stops and deletes between janitor
    /// passes.
    pub(super) async fn recount_fleet(self: std::sync::Arc<Self>) {
        let labels = [(
            super::LABEL_OUTPOST.to_string(),
            self.opts.outpost_id.clone(),
        )]
        .into_iter()
        .collect();
        match self.provider.list(&labels).await {
            Ok(listing) => {
                let mut inner = self.lock();
                inner.fleet = self.count_fleet(&listing, &inner, now());
                inner.status_dirty = true;
            }
            Err(e) => tracing::debug!("cannot count the outpost's sandboxes: {e}"),
        }
    }

    /// A session went to sleep (its sandbox finished and the claim released): remember what is
    /// left of its sandbox — a stopped one, or (CoreWeave) only its workspace snapshot.
    pub(super) async fn remember_sleep(&self, session: &str) {
        let name = super::sandbox_name(session);
        let (sandbox_id, state) = match self.provider.get(&name).await {
            Ok(Some(sb)) if sb.state != SandboxState::Deleted => {
                (Some(sb.id.clone()), sleep_state(&sb))
            }
            Ok(_) => (None, "snapshot"),
            Err(e) => {
                tracing::debug!(session, "cannot read the sleeping sandbox: {e}");
                (None, "stopped")
            }
        };
        let mut inner = self.lock();
        inner.sleepers.insert(
            session.to_string(),
            Sleeper {
                sandbox: name,
                sandbox_id,
                state: state.into(),
                slept_since: now(),
                absent_since: None,
            },
        );
        self.save_sleepers(&mut inner);
    }

    /// The session is served again, or ended: no longer a sleeper.
    pub(super) fn forget_sleeper(&self, session: &str) {
        let mut inner = self.lock();
        if inner.sleepers.remove(session).is_some() {
            self.save_sleepers(&mut inner);
        }
    }

    fn save_sleepers(&self, inner: &mut Inner) {
        inner.status_dirty = true;
        if let Err(e) = self.state.save_sleepers(&inner.sleepers) {
            tracing::warn!("cannot save the sleeping sessions: {e:#}");
        }
    }

    /// One janitor pass over the sleepers: refresh them from the listing, move the absence
    /// clocks, and carry out what the retention setting allows.
    pub(super) async fn review_sleepers(&self, listing: &[SandboxInfo]) {
        let outpost = self.opts.outpost_id.clone();
        let retention = self.opts.sleep_retention.map(|d| d.as_secs_f64());
        let t = now();
        let due: Vec<(String, Sleeper, Keep)> = {
            let mut inner = self.lock();
            let mut listed = std::collections::BTreeSet::new();
            for sb in listing {
                let Some(session) = janitor::owner(sb, &outpost).map(str::to_string) else {
                    continue;
                };
                listed.insert(session.clone());
                if matches!(sb.state, SandboxState::Stopped | SandboxState::Stopping) {
                    let state = sleep_state(sb);
                    let active =
                        plan::active(&session, &inner.tracks, &inner.claiming, &inner.busy);
                    if !active {
                        let s = inner.sleepers.entry(session).or_insert_with(|| Sleeper {
                            sandbox: sb.name.clone(),
                            sandbox_id: Some(sb.id.clone()),
                            state: state.into(),
                            slept_since: t,
                            absent_since: None,
                        });
                        s.state = state.into();
                        s.sandbox_id = Some(sb.id.clone());
                    }
                }
            }
            let Inner {
                sleepers,
                tracks,
                claiming,
                busy,
                queue,
                view_complete,
                terminated_seen,
                ..
            } = &mut *inner;
            // Served again, or gone (a listed sandbox that is not there any more); snapshots are
            // not in listings and stay.
            sleepers.retain(|session, s| {
                !plan::active(session, tracks, claiming, busy)
                    && (s.state == "snapshot" || listed.contains(session))
            });
            for (session, s) in sleepers.iter_mut() {
                let present = view_complete.then(|| queue.contains_key(session));
                retention::observe(s, present, t);
            }
            let due: Vec<_> = sleepers
                .iter()
                .filter_map(|(session, s)| {
                    let known_terminated = terminated_seen.contains_key(session);
                    match retention::decide(s, retention, t, known_terminated) {
                        Keep::Keep => None,
                        del => Some((session.clone(), s.clone(), del)),
                    }
                })
                .collect();
            for (session, ..) in &due {
                busy.insert(session.clone());
            }
            let fleet = self.count_fleet(listing, &inner, t);
            inner.fleet = fleet;
            self.save_sleepers(&mut inner);
            due
        };
        for (session, s, verdict) in due {
            self.retire(&session, &s, verdict).await;
            self.lock().busy.remove(&session);
        }
    }

    /// Delete a sleeper's workspace once an exact read shows its session still absent (or
    /// terminated): its sandbox if one is left, then what it left outside (snapshots).
    async fn retire(&self, session: &str, s: &Sleeper, verdict: Keep) {
        let lookup = match self.devin.get(session).await {
            Ok(Some(e)) if e.session_status == SessionStatus::Terminated => {
                Lookup::SweptAfterTermination
            }
            Ok(Some(_)) => {
                // Back in the queue: the clock starts over.
                let mut inner = self.lock();
                if let Some(r) = inner.sleepers.get_mut(session) {
                    retention::observe(r, Some(true), now());
                }
                return;
            }
            Ok(None) => Lookup::Absent,
            Err(e) => {
                self.metrics.api_error(e.status());
                return;
            }
        };
        if let Some(id) = &s.sandbox_id {
            match self.provider.get(id).await {
                Ok(Some(sb)) if janitor::owner(&sb, &self.opts.outpost_id) == Some(session) => {
                    if let Err(e) = self.provider.delete(id).await {
                        tracing::warn!(session, "cannot delete sleeping sandbox {id}: {e}");
                        return;
                    }
                }
                Ok(_) => {}
                Err(e) => {
                    tracing::warn!(session, "cannot read sleeping sandbox {id}: {e}");
                    return;
                }
            }
        }
        if let Err(e) = self.provider.discard(&s.sandbox).await {
            tracing::warn!(session, "cannot remove the workspace of {}: {e}", s.sandbox);
            return;
        }
        let (why, action) = match (&lookup, verdict) {
            (Lookup::SweptAfterTermination, _) => {
                ("its session was terminated".to_string(), "deleted")
            }
            (
                _,
                Keep::Delete {
                    slept_for,
                    absent_for,
                },
            ) => (
                format!(
                    "SLEEP_RETENTION: slept {}, absent from the queue {}",
                    humantime::format_duration(std::time::Duration::from_secs(slept_for as u64)),
                    humantime::format_duration(std::time::Duration::from_secs(absent_for as u64))
                ),
                "retention_deleted",
            ),
            _ => return,
        };
        tracing::info!(session, sandbox = %s.sandbox, "deleted a sleeping session's workspace ({why})");
        self.emit(OrchEvent::Janitor {
            session: session.into(),
            sandbox: s.sandbox_id.clone().unwrap_or_else(|| s.sandbox.clone()),
            action: action.into(),
        });
        let mut inner = self.lock();
        inner.sleepers.remove(session);
        self.save_sleepers(&mut inner);
    }
}
