//! Ending a session: the sandbox side first (stop, delete, or leave it), then the release.
//!
//! The claim is held until the sandbox work is done, so it doubles as a write-ahead record: a
//! crash in between leaves a claim the next start reattaches to and finishes. Released first, a
//! crash would leave a sandbox whose session may be swept from the queue before anyone deleted
//! it — and an absent session is never proof of termination, so nobody could delete it any
//! more. Holding the claim also keeps other replicas from starting the sandbox while our stop is
//! on its way.

use super::plan::janitor;
use super::plan::{EndKind, Outcome, SandboxEnd};
use super::run::{Change, OrchEvent, Orchestrator, RecordChange, SessionView, ViewChange};
use super::sandbox_name;
use crate::api::devin::ReleaseOutcome;
use crate::orchestrator::SessionId;
use crate::provider::SandboxState;

impl Orchestrator {
    pub(super) async fn end(
        &self,
        view: &SessionView,
        kind: EndKind,
        op: SandboxEnd,
    ) -> Option<Outcome> {
        let session = &view.id;
        let sandbox_done = match op {
            SandboxEnd::Leave => {
                if kind != EndKind::Foreign {
                    tracing::error!(
                        session = session.as_str(),
                        "the provider keeps failing to finish this sandbox; releasing the \
                         session anyway and leaving the sandbox to the janitor"
                    );
                }
                true
            }
            SandboxEnd::Stop | SandboxEnd::Delete => {
                if kind == EndKind::Sleep && op == SandboxEnd::Stop {
                    self.record_before_sleep(view).await;
                }
                self.end_sandbox(view, op).await
            }
        };
        if !sandbox_done {
            return Some(Outcome::Ended {
                kind,
                sandbox_done,
                released: None,
            });
        }
        if kind == EndKind::GiveUp {
            self.record_given_up(session);
        }
        let released = self.release(session).await;
        if released {
            self.record([Change::Record(RecordChange::LetGo(session.into()))]);
            match kind {
                EndKind::Sleep => self.remember_sleep(session).await,
                EndKind::Terminate => self.forget_sleeper(session),
                _ => {}
            }
            self.emit(OrchEvent::Ended {
                session: session.into(),
                how: kind.into(),
            });
        }
        Some(Outcome::Ended {
            kind,
            sandbox_done,
            released: Some(released),
        })
    }

    /// The sandbox side of ending; `false` when a provider call failed (retry later). A
    /// terminated session also loses what its sandbox left outside itself (snapshots).
    async fn end_sandbox(&self, view: &SessionView, op: SandboxEnd) -> bool {
        let session = &view.id;
        if !self.finish_sandbox(view, op).await {
            return false;
        }
        if op == SandboxEnd::Delete
            && let Err(e) = self.provider.discard(&sandbox_name(session)).await
        {
            tracing::warn!(
                session = session.as_str(),
                "cannot remove the workspace snapshots: {e}"
            );
            return false;
        }
        true
    }

    async fn finish_sandbox(&self, view: &SessionView, op: SandboxEnd) -> bool {
        let session = &view.id;
        let id = match view.sandbox.clone() {
            Some(id) => id,
            None => match self.session_sandbox(session).await {
                Ok(Some(sb)) => sb.id,
                Ok(None) => return true,
                Err(e) => {
                    tracing::warn!(
                        session = session.as_str(),
                        "cannot look the sandbox up: {e}"
                    );
                    return false;
                }
            },
        };
        // Act only on a sandbox that still carries this session's labels.
        let current = match self.provider.get(&id).await {
            Ok(Some(sb)) => sb,
            Ok(None) => return true,
            Err(e) => {
                tracing::warn!(session = session.as_str(), "cannot read sandbox {id}: {e}");
                return false;
            }
        };
        if janitor::owner(&current, &self.opts.outpost_id) != Some(session) {
            return true;
        }
        match op {
            SandboxEnd::Delete => {
                crate::failpoint!("delete.before");
                match self.provider.delete(&id).await {
                    Ok(()) => {
                        self.emit(OrchEvent::SandboxDeleted {
                            session: session.into(),
                            sandbox: id.clone(),
                        });
                        true
                    }
                    Err(e) => {
                        tracing::warn!(
                            session = session.as_str(),
                            "deleting sandbox {id} failed: {e}"
                        );
                        false
                    }
                }
            }
            SandboxEnd::Stop => {
                // A sandbox in `error` runs nothing and cannot be stopped (the provider refuses):
                // it stays as it is, for forensics, until FAILED_KEEP reaps it.
                if matches!(
                    current.state,
                    SandboxState::Stopped
                        | SandboxState::Deleted
                        | SandboxState::Deleting
                        | SandboxState::Error
                ) {
                    return true;
                }
                crate::failpoint!("stop.before");
                match self.provider.stop(&id).await {
                    Ok(()) => {
                        self.emit(OrchEvent::SandboxStopped {
                            session: session.into(),
                            sandbox: id.clone(),
                        });
                        true
                    }
                    Err(e) => {
                        tracing::warn!(
                            session = session.as_str(),
                            "stopping sandbox {id} failed: {e}"
                        );
                        false
                    }
                }
            }
            SandboxEnd::Leave => true,
        }
    }

    /// Release the claim; `false` when the call failed (retry later).
    async fn release(&self, session: &SessionId) -> bool {
        crate::failpoint!("release.before_post");
        let outcome = self.devin.release(session, &self.opts.acceptor_id).await;
        crate::failpoint!("release.after_response");
        let released = match outcome {
            Ok(ReleaseOutcome::Released(entry)) => {
                self.emit(OrchEvent::Released {
                    session: session.into(),
                });
                entry
            }
            Ok(ReleaseOutcome::AlreadyReleased { .. }) => None,
            Err(e) => {
                self.metrics.api_error(e.status());
                tracing::warn!(session = session.as_str(), "release failed: {e}");
                return false;
            }
        };
        // Our view must not keep saying we hold it (that would look like a claim to adopt).
        self.record([match released {
            Some(e) => Change::View(ViewChange::Row(e.into())),
            None => Change::View(ViewChange::RowReleased {
                session: session.clone(),
                acceptor: self.opts.acceptor_id.clone(),
            }),
        }]);
        true
    }
}
