//! Sleeping sessions, carried out: the record of each sleeper (kept in the state dir with its
//! absence clock), refreshed from the janitor's listing, and the deletions `SLEEP_RETENTION`
//! allows — each confirmed by an exact read that the session is still absent. Every rule
//! (what a sleeper is, when its clock moves, what may be deleted) is the planner's
//! ([`retention`]); this file reads, deletes and reports.

use super::census::{Census, Known};
use super::plan::janitor::{self, Lookup};
use super::plan::retention::{self, Keep, RetireStep, SleepRead, Sleeper};
use super::run::{
    ActionKind, Change, LoopChange, OrchEvent, Orchestrator, RecordChange, ViewChange,
};
use crate::orchestrator::SessionId;
use crate::time::now;

/// How many of the outpost's sandboxes are up, asleep and archived (the janitor's last listing;
/// CoreWeave's snapshotted sleepers count as asleep).
#[derive(
    Debug, Clone, Copy, Default, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(default)]
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

impl Orchestrator {
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
        let me = self.opts.acceptor_id.as_str();
        let mut census = Census::new(now());
        let listed = self
            .provider
            .list_each(&labels, &mut |sb| {
                if let Some(session) = janitor::owner(&sb, &self.opts.outpost_id) {
                    census.add(&sb, session, Known::of(&self.book(), session, me));
                }
            })
            .await;
        match listed {
            Ok(()) => self.update(|book| {
                let fleet = census.fleet(book.snapshot_sleepers());
                ((), vec![Change::Loop(LoopChange::Fleet(fleet))])
            }),
            Err(e) => tracing::debug!("cannot count the outpost's sandboxes: {e}"),
        }
    }

    /// A session went to sleep (its sandbox finished and the claim released): remember what is
    /// left of its sandbox — a stopped one, or (CoreWeave) only its workspace snapshot.
    pub(super) async fn remember_sleep(&self, session: &SessionId) {
        let name = super::sandbox_name(session);
        // A sandbox served from warm capacity keeps its own name: found by its labels.
        let read = self.session_sandbox(session).await;
        if let Err(e) = &read {
            tracing::debug!(
                session = session.as_str(),
                "cannot read the sleeping sandbox: {e}"
            );
        }
        let (sandbox_id, state) = retention::left_after_sleep(match &read {
            Ok(Some(sb)) => SleepRead::Sandbox(sb),
            Ok(None) => SleepRead::Gone,
            Err(_) => SleepRead::Unreadable,
        });
        self.record([Change::Record(RecordChange::Sleeper {
            session: session.clone(),
            sleeper: Some(Sleeper {
                sandbox: match &read {
                    Ok(Some(sb)) => sb.name.clone(),
                    _ => name,
                },
                sandbox_id,
                state,
                slept_since: now(),
                absent_since: None,
            }),
        })]);
    }

    /// The session is served again, or ended: no longer a sleeper.
    pub(super) fn forget_sleeper(&self, session: &SessionId) {
        self.forget_integrity(session);
        self.record([Change::Record(RecordChange::Sleeper {
            session: session.clone(),
            sleeper: None,
        })]);
    }

    /// One janitor pass over the sleepers: refresh them from the pass's listing, move the absence
    /// clocks, and carry out what the retention setting allows.
    pub(super) async fn review_sleepers(&self, census: &Census) {
        let retention = self.opts.sleep_retention.map(|d| d.as_secs_f64());
        let t = now();
        let due: Vec<(SessionId, Sleeper, Keep)> = self.update(|book| {
            let mut sleepers = book.sleepers_map();
            let active = |s: &str| book.active(s);
            let listed = |s: &str| census.listed(s);
            retention::refresh(&mut sleepers, census.stopped(), &listed, &active, t);
            let complete = book.view_complete();
            let present = |s: &str| complete.then(|| book.entry(s).is_some());
            let terminated = |s: &str| book.known_terminated(s);
            let due: Vec<(SessionId, Sleeper, Keep)> =
                retention::review(&mut sleepers, &present, &terminated, retention, t)
                    .into_iter()
                    .map(|(s, sleeper, keep)| (s.into(), sleeper, keep))
                    .collect();
            let mut changes = vec![Change::Record(RecordChange::Sleepers(sleepers))];
            for (session, ..) in &due {
                changes.push(Change::View(ViewChange::Start {
                    session: session.into(),
                    kind: ActionKind::Janitor,
                }));
            }
            (due, changes)
        });
        // Counted after the review: the snapshots it forgot are not asleep any more.
        self.update(|book| {
            (
                (),
                vec![Change::Loop(LoopChange::Fleet(
                    census.fleet(book.snapshot_sleepers()),
                ))],
            )
        });
        for (session, s, verdict) in due {
            self.retire(&session, &s, verdict).await;
            self.record([Change::View(ViewChange::Finish {
                session,
                kind: ActionKind::Janitor,
            })]);
        }
    }

    /// Delete a sleeper's workspace once an exact read shows its session still absent (or
    /// terminated): its sandbox if one is left, then what it left outside (snapshots).
    async fn retire(&self, session: &SessionId, s: &Sleeper, verdict: Keep) {
        let lookup = match self.devin.get(session).await {
            Ok(Some(e)) => Lookup::Found(Box::new(e)),
            Ok(None) => Lookup::Absent,
            Err(e) => {
                self.metrics.api_error(e.status());
                Lookup::Failed
            }
        };
        let (action, why) = match retention::retire_step(&lookup, verdict) {
            RetireStep::Delete { action, why } => (action, why),
            RetireStep::BackInQueue => {
                self.update(|book| {
                    let back = book.sleeper(session).cloned().map(|mut r| {
                        retention::observe(&mut r, Some(true), now());
                        r
                    });
                    let changes = back
                        .map(|r| {
                            Change::Record(RecordChange::Sleeper {
                                session: session.clone(),
                                sleeper: Some(r),
                            })
                        })
                        .into_iter()
                        .collect();
                    ((), changes)
                });
                return;
            }
            RetireStep::Keep => return,
        };
        if !self.delete_sleeper(session, s).await {
            return;
        }
        tracing::info!(session = session.as_str(), sandbox = %s.sandbox, "deleted a sleeping session's workspace ({why})");
        self.emit(OrchEvent::Janitor {
            session: session.into(),
            sandbox: s.sandbox_id.clone().unwrap_or_else(|| s.sandbox.clone()),
            action,
        });
        self.forget_sleeper(session);
    }

    /// Delete what is left of a sleeper: its sandbox (once an exact read shows it still carries
    /// the session's labels), then what it left outside (snapshots). `false` when a call failed.
    async fn delete_sleeper(&self, session: &SessionId, s: &Sleeper) -> bool {
        if let Some(id) = &s.sandbox_id {
            match self.provider.get(id).await {
                Ok(Some(sb)) if janitor::owner(&sb, &self.opts.outpost_id) == Some(session) => {
                    if let Err(e) = self.provider.delete(id).await {
                        tracing::warn!(
                            session = session.as_str(),
                            "cannot delete sleeping sandbox {id}: {e}"
                        );
                        return false;
                    }
                }
                Ok(_) => {}
                Err(e) => {
                    tracing::warn!(
                        session = session.as_str(),
                        "cannot read sleeping sandbox {id}: {e}"
                    );
                    return false;
                }
            }
        }
        if let Err(e) = self.provider.discard(&s.sandbox).await {
            tracing::warn!(
                session = session.as_str(),
                "cannot remove the workspace of {}: {e}",
                s.sandbox
            );
            return false;
        }
        true
    }
}
