//! Failures you can inspect afterwards: a bounded, redacted record per session whose
//! provisioning or remote failed ([`record`]), kept in the state dir ([`store`]) and shown by
//! `outposts orchestrator failures` and `orchestrator status`.
//!
//! The executor's hooks are here (read what the failure left: the sandbox's state, the remote's
//! and the bootstrap's log, the session's events, and record it); when a failed sandbox is
//! reaped is the planner's (`plan/failed.rs`).

pub mod record;
mod render;
pub mod store;

pub use record::{EventLine, FailureRecord, Step};
pub use render::{FailedRow, failed_rows};
pub use store::FailureStore;

use super::SessionId;
use super::run::{OrchEvent, Orchestrator};
use super::sandbox_name;
use crate::time::now;

/// Lines of the remote's log read for a failure record.
const TAIL_LINES: u32 = 20;

/// Where provisioning got to, for the failure record of an attempt that fails.
#[derive(Debug)]
pub struct StepMark(std::sync::Mutex<Step>);

impl Default for StepMark {
    fn default() -> Self {
        StepMark(std::sync::Mutex::new(Step::Policy))
    }
}

impl StepMark {
    pub fn set(&self, step: Step) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = step;
    }

    pub fn get(&self) -> Step {
        *self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Orchestrator {
    /// Remember one of a session's events in words (a failure record copies the last ones).
    pub(super) fn note_failure_event(&self, ev: &OrchEvent) {
        if let Some(session) = ev.session() {
            self.failures
                .note_event(&SessionId::from(session), ev.summary(), now());
        }
    }

    /// A provisioning attempt failed at `step`: record it, with what the sandbox and (once a
    /// launch was tried) the remote's log say.
    pub(super) async fn record_provision_failure(
        &self,
        session: &SessionId,
        step: Step,
        error: &str,
    ) {
        let sandbox = self.book().sandbox(session).map(str::to_string);
        let tail = match (&sandbox, step) {
            (Some(id), Step::Launch) => {
                super::remote::log_tail(self.provider.as_ref(), id, session, TAIL_LINES)
                    .await
                    .unwrap_or_default()
            }
            _ => String::new(),
        };
        self.record_failure(session, step, error, sandbox.as_deref(), &tail)
            .await;
    }

    /// A failure of the session's sandbox at `step`, with the log tail already read (if any).
    pub(super) async fn record_failure(
        &self,
        session: &SessionId,
        step: Step,
        error: &str,
        sandbox: Option<&str>,
        tail: &str,
    ) {
        let name = sandbox_name(session);
        let read = self
            .provider
            .get(sandbox.unwrap_or(&name))
            .await
            .ok()
            .flatten();
        let attempt = self.book().track(session).map(|t| t.failures).unwrap_or(0) + 1;
        let mut rec = FailureRecord::new(session, &name, step, error, now())
            .with_log(tail, super::remote::LAUNCHER_LINE)
            .with_events(&self.failures.events(session));
        rec = match &read {
            Some(sb) => {
                let detail = match &sb.error_reason {
                    Some(why) => format!("{}: {why}", sb.raw_state),
                    None => sb.raw_state.clone(),
                };
                rec.with_sandbox(Some(&sb.id), Some(sb.state.as_str()), Some(&detail))
            }
            None => rec.with_sandbox(sandbox, None, None),
        };
        rec.attempt = attempt;
        rec.woke = self.woke(session);
        self.failures.failed(rec);
    }

    /// The session had slept: its queue entry is a resume, or an earlier record says so.
    fn woke(&self, session: &SessionId) -> bool {
        let resume = self
            .book()
            .entry(session)
            .is_some_and(|e| e.kind == crate::api::devin_types::Kind::Resume);
        resume || self.failures.get(session).is_some_and(|r| r.woke)
    }

    /// The session was given up: its failure record says why.
    pub(super) fn record_given_up(&self, session: &SessionId) {
        let why = self.book().track(session).map(|t| t.give_up_reason());
        if let Some(why) = why {
            self.failures.gave_up(session, &why.to_string());
        }
    }

    /// The session is served: its sandbox is no failed one any more.
    pub(super) fn record_served(&self, session: &SessionId) {
        self.failures.resolved(session, now());
    }

    /// Since when a sandbox of this session counts as failed (its open streak's start), and
    /// whether the session had slept.
    pub(super) fn failed_since(&self, session: &SessionId) -> (Option<f64>, bool) {
        let rec = self.failures.get(session);
        (
            rec.as_ref().filter(|r| r.open()).map(|r| r.failing_since),
            rec.is_some_and(|r| r.woke),
        )
    }

    /// The janitor saw the session's sandbox in `error` with no open record: one starts now
    /// (and with it the `FAILED_KEEP` clock).
    pub(super) fn record_error_state(
        &self,
        session: &SessionId,
        sb: &crate::provider::SandboxInfo,
    ) {
        let error = sb
            .error_reason
            .clone()
            .unwrap_or_else(|| format!("the provider reports the sandbox as {}", sb.raw_state));
        let rec = FailureRecord::new(session, &sb.name, Step::SandboxError, &error, now())
            .with_sandbox(Some(&sb.id), Some(sb.state.as_str()), Some(&sb.raw_state))
            .with_events(&self.failures.events(session));
        let rec = FailureRecord {
            woke: self.woke(session),
            ..rec
        };
        self.failures.failed(rec);
    }

    /// Whether the janitor already reaped sandbox `id` of `session`. A reaped sandbox is over
    /// even when it can still be read: CoreWeave keeps a FAILED sandbox readable after its
    /// delete, and taking it for the session's sandbox would fail every attempt on it again.
    pub(super) fn reaped_already(&self, session: &SessionId, id: &str) -> bool {
        self.failures
            .get(session)
            .is_some_and(|r| r.reaped_at.is_some() && r.sandbox_id.as_deref() == Some(id))
    }

    /// The janitor deleted a failed sandbox.
    pub(super) fn record_reaped(&self, session: &SessionId) {
        self.failures.reaped(session, now());
    }

    /// Every failure record, newest first (for the status file).
    pub(super) fn failure_records(&self) -> Vec<FailureRecord> {
        self.failures.all()
    }
}
