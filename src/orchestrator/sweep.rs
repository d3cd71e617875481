//! The janitor's sweep: list the outpost's sandboxes, look up the sessions the planner's
//! verdict asks about, and stop or delete what [`janitor::decide`] says — after claiming the
//! session locally (so the planner does not race us) and confirming with an exact read of the
//! sandbox.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::LABEL_OUTPOST;
use super::observe::saw_terminated;
use super::plan::janitor::{self, JanitorAction, Lookup, Seen, Verdict};
use super::plan::{self};
use super::run::{Inner, OrchEvent, Orchestrator};
use crate::api::devin_types::SessionStatus;
use crate::provider::SandboxInfo;
use crate::time::now;

impl Orchestrator {
    /// One janitor sweep, as the loop runs it every `janitor_interval` (for tests and tools).
    pub async fn janitor_pass(self: &Arc<Self>) {
        self.clone().janitor_sweep().await
    }

    pub(super) async fn janitor_sweep(self: Arc<Self>) {
        let labels: BTreeMap<String, String> =
            [(LABEL_OUTPOST.to_string(), self.opts.outpost_id.clone())]
                .into_iter()
                .collect();
        let sandboxes = match self.provider.list(&labels).await {
            Ok(s) => s,
            Err(e) => {
                self.metrics.janitor_failed();
                tracing::warn!("janitor: cannot list sandboxes: {e}");
                return;
            }
        };
        let outpost = &self.opts.outpost_id;
        let grace = self.opts.janitor_grace.as_secs_f64();
        for sb in sandboxes.iter().cloned() {
            let Some(session) = janitor::owner(&sb, outpost).map(str::to_string) else {
                continue;
            };
            // Cheap rules first: no API call for a sandbox we would not touch anyway.
            let cheap = {
                let mut inner = self.lock();
                janitor::decide(&sb, outpost, seen(&mut inner, &sb, &session, grace), None)
            };
            if cheap != Verdict::NeedsLookup {
                self.metrics.janitor_verdict(&cheap);
                continue;
            }
            let lookup = match self.devin.get(&session).await {
                Ok(Some(e)) => {
                    if e.session_status == SessionStatus::Terminated {
                        saw_terminated(&self.state, &mut self.lock(), &session);
                    }
                    Lookup::Found(Box::new(e))
                }
                Ok(None) if self.lock().terminated_seen.contains_key(&session) => {
                    Lookup::SweptAfterTermination
                }
                Ok(None) => Lookup::Absent,
                Err(e) => {
                    self.metrics.api_error(e.status());
                    Lookup::Failed
                }
            };
            // Decided again with the lookup, and with `active` read again: the planner may
            // have taken the session on during the read. Then claimed locally.
            let verdict = {
                let mut inner = self.lock();
                let seen = seen(&mut inner, &sb, &session, grace);
                let v = janitor::decide(&sb, outpost, seen, Some(&lookup));
                if matches!(v, Verdict::Stop | Verdict::Delete) {
                    inner.busy.insert(session.clone());
                }
                v
            };
            self.metrics.janitor_verdict(&verdict);
            if !matches!(verdict, Verdict::Stop | Verdict::Delete) {
                continue;
            }
            let confirmed = matches!(self.provider.get(&sb.id).await, Ok(Some(ref cur)) if janitor::owner(cur, outpost) == Some(session.as_str()));
            if confirmed && let Some(action) = verdict.action() {
                crate::failpoint!("janitor.before_act");
                let result = match action {
                    JanitorAction::Stopped => self.provider.stop(&sb.id).await,
                    _ => match self.provider.delete(&sb.id).await {
                        Ok(()) => self.provider.discard(&sb.name).await,
                        Err(e) => Err(e),
                    },
                };
                match result {
                    Ok(()) => {
                        if action == JanitorAction::Deleted {
                            self.forget_sleeper(&session);
                        }
                        self.emit(OrchEvent::Janitor {
                            session: session.clone(),
                            sandbox: sb.id.clone(),
                            action,
                        });
                    }
                    Err(e) => {
                        self.metrics.janitor_action(action, false);
                        tracing::warn!(session = %session, "janitor could not act on {}: {e}", sb.id)
                    }
                }
            }
            self.lock().busy.remove(&session);
        }
        self.review_sleepers(&sandboxes).await;
        self.metrics.janitor_done(&self.lock(), &sandboxes, outpost);
    }
}

/// What the janitor knows of a sandbox now, read under the lock (so that a verdict and the
/// local claim that follows it see the same state).
fn seen(inner: &mut Inner, sb: &SandboxInfo, session: &str, grace: f64) -> Seen {
    let first = *inner.first_seen.entry(sb.id.clone()).or_insert_with(now);
    Seen {
        age: now() - sb.created_at.unwrap_or(first),
        grace,
        active: plan::active(session, &inner.tracks, &inner.claiming, &inner.busy),
        known_terminated: inner.terminated_seen.contains_key(session),
    }
}
