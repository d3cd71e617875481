//! How the executor reports to the metrics: the actions it starts ([`Metrics::on_action`]), the
//! outcomes it folds ([`Metrics::on_outcome`]), the events it emits ([`Metrics::on_event`]), its
//! view of the sessions ([`Metrics::observe_sessions`]) and the janitor's passes. One call at
//! each of those places; everything metric-specific is here.

use std::time::Instant;

use super::{Metrics, labels};
use crate::api::devin_types::{Phase, SessionStatus};
use crate::orchestrator::SessionId;
use crate::orchestrator::plan::janitor::{JanitorAction, Verdict};
use crate::orchestrator::plan::{
    Action, ClaimResult, EndKind, Outcome, ProvisionFailure, ProvisionResult, RemoteState,
};
use crate::orchestrator::run::{Book, OrchEvent};
use crate::time::now;

pub(super) const PHASES: [&str; 3] = ["waiting", "provisioning", "serving"];
pub(super) const FLEET_STATES: [&str; 4] = ["running", "stopped", "archived", "snapshot"];

/// Most sessions whose latencies are being timed (a leak bound, far above any cap).
const MAX_TIMERS: usize = 10_000;

/// When one session's latencies started.
#[derive(Debug, Default)]
pub(super) struct Timers {
    /// Its queue row's last change, when a claim was dispatched (server clock, seconds).
    enqueued_at: Option<f64>,
    /// It was asleep when claimed: serving it is a wake.
    waking: bool,
    claimed: Option<Instant>,
    sleep_started: Option<Instant>,
}

impl Metrics {
    fn timers(&self) -> std::sync::MutexGuard<'_, std::collections::HashMap<String, Timers>> {
        let mut t = self.timers.lock().unwrap_or_else(|e| e.into_inner());
        if t.len() > MAX_TIMERS {
            t.clear();
        }
        t
    }

    /// An action is dispatched (under the orchestrator's lock).
    pub(in crate::orchestrator) fn on_action(&self, action: &Action, book: &Book) {
        let session = action.session();
        match action {
            Action::Claim { .. } => {
                let row = book.entry(session);
                let mut t = self.timers();
                let e = t.entry(session.to_string()).or_default();
                e.enqueued_at = row.and_then(|r| r.updated_at.or(r.created_at));
                e.waking = book.sleeper(session).is_some();
            }
            Action::End {
                kind: EndKind::Sleep,
                ..
            } => {
                self.timers()
                    .entry(session.to_string())
                    .or_default()
                    .sleep_started
                    .get_or_insert_with(Instant::now);
            }
            _ => {}
        }
    }

    /// An action's outcome, before it is folded into the session's memory.
    pub(in crate::orchestrator) fn on_outcome(
        &self,
        session: &SessionId,
        outcome: Option<&Outcome>,
    ) {
        let Some(outcome) = outcome else { return };
        match outcome {
            Outcome::Claimed(r) => {
                let result = match r {
                    ClaimResult::Won { .. } => "won",
                    ClaimResult::Conflict => "lost",
                    ClaimResult::Gone => "gone",
                    ClaimResult::Failed => "failed",
                };
                self.claims
                    .get_or_create(&labels(&[("result", result)]))
                    .inc();
                let mut t = self.timers();
                if matches!(r, ClaimResult::Won { .. }) {
                    let e = t.entry(session.to_string()).or_default();
                    if let Some(at) = e.enqueued_at.take() {
                        self.claim_wait.observe((now() - at).max(0.0));
                    }
                    e.claimed = Some(Instant::now());
                } else if !matches!(r, ClaimResult::Failed) {
                    t.remove(session.as_str());
                }
            }
            Outcome::Renewed(r) => {
                let result = match r {
                    ClaimResult::Won { .. } => "ok",
                    ClaimResult::Conflict | ClaimResult::Gone => "lost",
                    ClaimResult::Failed => "failed",
                };
                self.renewals
                    .get_or_create(&labels(&[("result", result)]))
                    .inc();
            }
            Outcome::Provisioned(ProvisionResult::Served) => {
                let mut t = self.timers();
                if let Some(e) = t.get_mut(session.as_str())
                    && let Some(at) = e.claimed.take()
                {
                    let took = at.elapsed().as_secs_f64();
                    self.connect.observe(took);
                    if std::mem::take(&mut e.waking) {
                        self.wake.observe(took);
                    }
                }
            }
            Outcome::Provisioned(ProvisionResult::Failed(why)) => {
                let reason = match why {
                    ProvisionFailure::Foreign => "foreign",
                    ProvisionFailure::Policy => "policy",
                    ProvisionFailure::Other => "other",
                };
                self.provision_failures
                    .get_or_create(&labels(&[("reason", reason)]))
                    .inc();
            }
            Outcome::Ended {
                released: Some(true),
                ..
            } => {
                self.timers().remove(session.as_str());
            }
            _ => {}
        }
    }

    /// An event the orchestrator emits.
    pub(in crate::orchestrator) fn on_event(&self, ev: &OrchEvent) {
        let transition = |t: &str| {
            self.transitions
                .get_or_create(&labels(&[("transition", t)]))
                .inc();
        };
        match ev {
            OrchEvent::Released { .. } => {
                self.releases.inc();
            }
            OrchEvent::RemoteLaunched { .. } => {
                self.launches.inc();
            }
            OrchEvent::SandboxCreated { warm, .. } => {
                transition("created");
                self.sandbox_creates
                    .get_or_create(&labels(&[("served", if *warm { "warm" } else { "cold" })]))
                    .inc();
            }
            OrchEvent::SandboxStarted { .. } => transition("started"),
            OrchEvent::SandboxDeleted { .. } => transition("deleted"),
            OrchEvent::SandboxLost { .. } => transition("lost"),
            OrchEvent::SandboxStopped { session, .. } => {
                transition("stopped");
                let started = self
                    .timers()
                    .get_mut(session.as_str())
                    .and_then(|e| e.sleep_started.take());
                if let Some(at) = started {
                    self.sleep.observe(at.elapsed().as_secs_f64());
                }
            }
            OrchEvent::Janitor { action, .. } => self.janitor_action(*action, true),
            OrchEvent::WakeIntegrity { verdict, .. } => {
                self.wake_integrity
                    .get_or_create(&labels(&[("result", verdict.result.as_str())]))
                    .inc();
            }
            _ => {}
        }
    }

    pub(in crate::orchestrator) fn janitor_action(&self, action: JanitorAction, ok: bool) {
        self.janitor_actions
            .get_or_create(&labels(&[
                ("action", action.as_str()),
                ("result", if ok { "ok" } else { "failed" }),
            ]))
            .inc();
    }

    /// The sessions by phase and the longest wait, from the view (under the lock).
    pub(in crate::orchestrator) fn observe_sessions(&self, book: &Book) {
        let mut counts = [0i64; 3];
        for (_, t) in book.tracks().filter(|(_, t)| t.held) {
            let serving = matches!(t.remote, RemoteState::Running { .. });
            counts[if serving { 2 } else { 1 }] += 1;
        }
        let t = now();
        let mut oldest: f64 = 0.0;
        for e in book.queue().values() {
            let claimable = e.phase == Phase::Pending
                && matches!(
                    e.session_status,
                    SessionStatus::Pending | SessionStatus::Running
                )
                && !book.track(&e.session_id).is_some_and(|t| t.held);
            if claimable {
                counts[0] += 1;
                if let Some(at) = e.updated_at.or(e.created_at) {
                    oldest = oldest.max(t - at);
                }
            }
        }
        for (phase, n) in PHASES.iter().zip(counts) {
            self.sessions
                .get_or_create(&labels(&[("phase", phase)]))
                .set(n);
        }
        self.oldest_waiting.set(oldest);
    }

    /// The janitor could not list the outpost's sandboxes.
    pub(in crate::orchestrator) fn janitor_failed(&self) {
        self.janitor_runs
            .get_or_create(&labels(&[("result", "failed")]))
            .inc();
    }

    /// A janitor pass is done: the fleet by state and the terminated sessions' leftovers.
    pub(in crate::orchestrator) fn janitor_done(&self, book: &Book, terminated_left: usize) {
        self.janitor_runs
            .get_or_create(&labels(&[("result", "ok")]))
            .inc();
        self.janitor_success.set(now());
        let f = book.fleet();
        let snapshots = book.snapshot_sleepers();
        let counts = [
            f.running,
            f.sleeping.saturating_sub(snapshots),
            f.archived,
            snapshots,
        ];
        for (state, n) in FLEET_STATES.iter().zip(counts) {
            self.sandboxes
                .get_or_create(&labels(&[("state", state)]))
                .set(n as i64);
        }
        self.terminated_left.set(terminated_left as i64);
    }

    /// The janitor's final verdict on one sandbox.
    pub(in crate::orchestrator) fn janitor_verdict(&self, v: &Verdict) {
        let verdict = match v {
            Verdict::Stop => "stop",
            Verdict::Delete => "delete",
            Verdict::Reap => "reap",
            Verdict::Skip(_) => "skip",
            Verdict::NeedsLookup => return,
        };
        self.janitor_verdicts
            .get_or_create(&labels(&[("verdict", verdict)]))
            .inc();
    }

    pub(in crate::orchestrator) fn watch_gap(&self) {
        self.watch_reconnects.inc();
    }

    pub(in crate::orchestrator) fn relisted(&self, ok: bool) {
        if ok {
            self.health.listed();
        }
        self.relists
            .get_or_create(&labels(&[("result", if ok { "ok" } else { "failed" })]))
            .inc();
    }
}
