//! The janitor's sweep: list the outpost's sandboxes, look up the sessions the planner's
//! verdict asks about, and stop or delete what [`janitor::decide`] says — after claiming the
//! session locally (so the planner does not race us) and confirming with an exact read of the
//! sandbox.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::LABEL_OUTPOST;
use super::census::{Census, Known};
use super::plan::failed::{self, FailedSeen};
use super::plan::janitor::{self, JanitorAction, Lookup, Seen, Verdict};
use super::plan::{Holder, holder};
use super::run::{ActionKind, Book, Change, OrchEvent, Orchestrator, RecordChange, ViewChange};
use crate::api::devin_types::SessionStatus;
use crate::orchestrator::SessionId;
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
        let me = self.opts.acceptor_id.as_str();
        let mut census = Census::new(now());
        // The cheap rules settle most sandboxes as their page arrives (those this instance or
        // another replica serves); only the rest wait for the lookup, and nothing is acted on
        // until the whole listing has been read.
        let mut undecided = Vec::new();
        let listed = self
            .provider
            .list_each(&labels, &mut |sb| {
                let Some(session) = janitor::owner(&sb, &self.opts.outpost_id) else {
                    return;
                };
                let session = SessionId::from(session);
                if self.janitor_cheap(&sb, &session) {
                    undecided.push((session, sb));
                } else {
                    census.add(&sb, &session, Known::of(&self.book(), &session, me));
                }
            })
            .await;
        if let Err(e) = listed {
            self.metrics.janitor_failed();
            tracing::warn!("janitor: cannot list sandboxes: {e}");
            return;
        }
        for (session, sb) in undecided {
            // The sleepers and the counts read the sandbox as this pass left it: one just
            // deleted is no sleeper (its session was terminated), one just stopped counts as
            // stopped.
            let sb = match self.janitor_one(&sb, &session).await {
                Some(
                    JanitorAction::Deleted
                    | JanitorAction::RetentionDeleted
                    | JanitorAction::FailedReaped,
                ) => continue,
                Some(JanitorAction::Stopped) => SandboxInfo {
                    state: crate::provider::SandboxState::Stopped,
                    ..sb
                },
                None => sb,
            };
            census.add(&sb, &session, Known::of(&self.book(), &session, me));
        }
        self.review_sleepers(&census).await;
        self.metrics
            .janitor_done(&self.book(), census.terminated_left());
        super::memory::give_back();
    }

    /// The janitor's cheap rules on one of our sandboxes, as its listing page arrives: `true`
    /// when only an exact lookup of its session can decide.
    fn janitor_cheap(&self, sb: &SandboxInfo, session: &SessionId) -> bool {
        // Reaped already, still readable (a FAILED CoreWeave sandbox): deleting it again would
        // change nothing.
        if self.reaped_already(session, &sb.id) {
            return false;
        }
        let grace = self.opts.janitor_grace.as_secs_f64();
        let me = self.opts.acceptor_id.as_str();
        let failed = self.failed_seen(sb, session);
        let cheap = self.update(|book| {
            let (seen, first) = seen(book, sb, session, grace, me);
            let v = janitor::decide(sb, &self.opts.outpost_id, seen, None);
            (failed::decide(v, &failed, None), first)
        });
        if cheap != Verdict::NeedsLookup {
            self.metrics.janitor_verdict(&cheap);
        }
        cheap == Verdict::NeedsLookup
    }

    /// The janitor on one of our sandboxes the cheap rules left undecided: the planner's
    /// verdict with an exact lookup of the session, and the act it allows, on an exact read of
    /// the sandbox; the action carried out, if any.
    async fn janitor_one(&self, sb: &SandboxInfo, session: &SessionId) -> Option<JanitorAction> {
        let outpost = &self.opts.outpost_id;
        let grace = self.opts.janitor_grace.as_secs_f64();
        let me = self.opts.acceptor_id.as_str();
        let lookup = self.lookup(session).await;
        let failed = self.failed_seen(sb, session);
        // Decided again with the lookup, and with `active` read again: the planner may have
        // taken the session on during the read. Then claimed locally, under the same lock.
        let verdict = self.update(|book| {
            let (seen, mut changes) = seen(book, sb, session, grace, me);
            let v = janitor::decide(sb, outpost, seen, Some(&lookup));
            let v = failed::decide(v, &failed, Some(&lookup));
            if v.action().is_some() {
                changes.push(Change::View(ViewChange::Start {
                    session: session.clone(),
                    kind: ActionKind::Janitor,
                }));
            }
            (v, changes)
        });
        self.metrics.janitor_verdict(&verdict);
        let action = verdict.action()?;
        let confirmed = matches!(self.provider.get(&sb.id).await, Ok(Some(ref cur)) if janitor::owner(cur, outpost) == Some(session));
        let acted = confirmed && self.janitor_act(sb, session, action).await;
        self.record([Change::View(ViewChange::Finish {
            session: session.clone(),
            kind: ActionKind::Janitor,
        })]);
        acted.then_some(action)
    }

    /// What the failed-sandbox rule knows of one of our sandboxes; a sandbox first seen in
    /// `error` gets its failure record (and its `FAILED_KEEP` clock) here.
    fn failed_seen(&self, sb: &SandboxInfo, session: &SessionId) -> FailedSeen {
        let (sleeper, active) = {
            let book = self.book();
            (book.sleeper(session).is_some(), book.active(session))
        };
        let (mut failed_since, mut woke) = self.failed_since(session);
        if failed_since.is_none() && sb.state == crate::provider::SandboxState::Error && !active {
            self.record_error_state(session, sb);
            (failed_since, woke) = self.failed_since(session);
        }
        FailedSeen {
            state: sb.state,
            failed_since,
            sleeper: sleeper || woke,
            active,
            keep: self.opts.failed_keep.as_secs_f64(),
            now: now(),
        }
    }

    /// The exact lookup of a sandbox's session.
    async fn lookup(&self, session: &SessionId) -> Lookup {
        match self.devin.get(session).await {
            Ok(Some(e)) => {
                if e.session_status == SessionStatus::Terminated {
                    self.record([Change::Record(RecordChange::Terminated(
                        session.to_string(),
                    ))]);
                }
                Lookup::Found(Box::new(e))
            }
            Ok(None) if self.book().known_terminated(session) => Lookup::SweptAfterTermination,
            Ok(None) => Lookup::Absent,
            Err(e) => {
                self.metrics.api_error(e.status());
                Lookup::Failed
            }
        }
    }

    /// `true` when the provider did it.
    async fn janitor_act(
        &self,
        sb: &SandboxInfo,
        session: &SessionId,
        action: JanitorAction,
    ) -> bool {
        crate::failpoint!("janitor.before_act");
        let result = match action {
            JanitorAction::Stopped => self.provider.stop(&sb.id).await,
            // A failed sandbox only: workspace snapshots a sleep left stay.
            JanitorAction::FailedReaped => self.provider.delete(&sb.id).await,
            _ => match self.provider.delete(&sb.id).await {
                Ok(()) => self.provider.discard(&sb.name).await,
                Err(e) => Err(e),
            },
        };
        match result {
            Ok(()) => {
                if action == JanitorAction::Deleted {
                    self.forget_sleeper(session);
                }
                if action == JanitorAction::FailedReaped {
                    self.record_reaped(session);
                }
                self.emit(OrchEvent::Janitor {
                    session: session.clone(),
                    sandbox: sb.id.clone(),
                    action,
                });
                true
            }
            Err(e) => {
                self.metrics.janitor_action(action, false);
                tracing::warn!(session = %session, "janitor could not act on {}: {e}", sb.id);
                false
            }
        }
    }
}

/// What the janitor knows of a sandbox now, read under the lock (so that a verdict and the
/// local claim that follows it see the same state); with the change that starts its
/// first-seen clock, when the provider reports no creation time and this is the first look.
fn seen(
    book: &Book,
    sb: &SandboxInfo,
    session: &SessionId,
    grace: f64,
    me: &str,
) -> (Seen, Vec<Change>) {
    let (age, start_clock) = janitor::age(sb.created_at, book.first_seen(session, &sb.id), now());
    let changes = if start_clock {
        vec![Change::Record(RecordChange::FirstSeen {
            session: session.clone(),
            sandbox: sb.id.clone(),
        })]
    } else {
        vec![]
    };
    let seen = Seen {
        age,
        grace,
        active: book.active(session),
        known_terminated: book.known_terminated(session),
        held_elsewhere: book.entry(session).is_some_and(|e| {
            holder(e, me) == Holder::Other && e.claim_deadline.is_some_and(|d| d > now())
        }),
    };
    (seen, changes)
}
