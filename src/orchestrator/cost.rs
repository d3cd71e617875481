//! The cost ledger's hooks in the executor: each sandbox transition the orchestrator narrates
//! (and each sleeper the janitor finds archived) becomes a ledger line, and every pass the
//! cost metrics are set from the ledger. Deciding nothing: a ledger that cannot be written
//! is logged and the orchestrator carries on (cost is reporting, never a reason to stop
//! serving).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use super::cost_usage::UsageReader;
use super::plan::janitor::JanitorAction;
use super::plan::retention::{SleepState, Sleeper};
use super::run::{OrchEvent, Orchestrator, RunOptions};
use super::state::OutpostState;
use crate::cost::ledger::Ledger;
use crate::cost::prices::Resources;
use crate::cost::tally::Mark;
use crate::provider::ProviderKind;
use crate::time::now;

/// The ledger of this orchestrator's outpost (`None`: it could not be opened; logged once),
/// and the reader of Devin's usage (`None`: no v3 key configured).
#[derive(Debug)]
pub(super) struct CostHook {
    ledger: Option<Arc<Mutex<Ledger>>>,
    usage: Option<Arc<UsageReader>>,
}

/// What a session's sandbox holds: the requested resources, else the provider's default (its
/// descriptor's `default_resources`, settings/descriptor.rs).
pub(super) fn resources(kind: ProviderKind, asked: &crate::provider::Resources) -> Resources {
    let (cpu, memory_gib, disk_gib) = crate::settings::descriptor(kind).default_resources;
    Resources {
        cpu: asked.cpu.unwrap_or(cpu),
        memory_gib: asked.memory_gib.unwrap_or(memory_gib),
        disk_gib: asked.disk_gib.map_or(disk_gib, f64::from),
    }
}

impl CostHook {
    pub(super) fn open(
        state: &OutpostState,
        opts: &RunOptions,
        kind: ProviderKind,
        http: &crate::api::http::HttpClient,
    ) -> CostHook {
        let usage = opts
            .devin_usage
            .clone()
            .map(|v3| UsageReader::new(crate::api::devin_v3::DevinV3Client::new(v3, http.clone())));
        let ledger = match Ledger::open(
            state.dir(),
            &opts.outpost_id,
            kind.as_str(),
            opts.prices,
            resources(kind, &opts.resources),
            now(),
        ) {
            Ok(l) => Some(Arc::new(Mutex::new(l))),
            Err(e) => {
                tracing::warn!("no cost ledger this run: {e:#}");
                None
            }
        };
        CostHook { ledger, usage }
    }

    fn with<R>(&self, f: impl FnOnce(&mut Ledger) -> R) -> Option<R> {
        let l = self.ledger.as_ref()?;
        Some(f(&mut l.lock().unwrap_or_else(|e| e.into_inner())))
    }
}

/// The ledger mark an event means, with its session and sandbox.
fn mark_of(ev: &OrchEvent) -> Option<(&str, &str, Mark)> {
    Some(match ev {
        OrchEvent::SandboxCreated {
            session, sandbox, ..
        }
        | OrchEvent::SandboxStarted {
            session, sandbox, ..
        } => (session.as_str(), sandbox.as_str(), Mark::Running),
        OrchEvent::SandboxStopped { session, sandbox } => {
            (session.as_str(), sandbox.as_str(), Mark::Stopped)
        }
        OrchEvent::SandboxDeleted { session, sandbox }
        | OrchEvent::SandboxLost { session, sandbox } => {
            (session.as_str(), sandbox.as_str(), Mark::Gone)
        }
        OrchEvent::Janitor {
            session,
            sandbox,
            action,
        } => (
            session.as_str(),
            sandbox.as_str(),
            match action {
                JanitorAction::Stopped => Mark::Stopped,
                JanitorAction::Deleted
                | JanitorAction::RetentionDeleted
                | JanitorAction::FailedReaped => Mark::Gone,
            },
        ),
        _ => return None,
    })
}

impl Orchestrator {
    /// A sandbox changed state: one ledger line. A session put to sleep or ended also has its
    /// Devin usage read, once per such change (`cost_usage.rs`).
    pub(super) fn cost_on_event(&self, ev: &OrchEvent) {
        let Some((session, sandbox, mark)) = mark_of(ev) else {
            return;
        };
        let changed = self.cost.with(|l| {
            let before = l.billed_now(session);
            let r = l.mark(session, sandbox, mark, now());
            (r, before != l.billed_now(session))
        });
        let changed = match changed {
            Some((Err(e), _)) => {
                tracing::warn!(session, "cannot record the sandbox's cost: {e:#}");
                return;
            }
            Some((Ok(()), changed)) => changed,
            None => return,
        };
        if changed
            && matches!(mark, Mark::Stopped | Mark::Gone)
            && !session.starts_with(crate::cost::tally::WARM_PREFIX)
            && let (Some(reader), Some(ledger)) = (&self.cost.usage, &self.cost.ledger)
        {
            reader.read(session.into(), ledger.clone());
        }
    }

    /// The sleepers as the janitor last read them: an archived disk (or a workspace kept only
    /// as a snapshot) is billed as archived from now on.
    pub(super) fn cost_on_sleepers(&self, sleepers: &BTreeMap<String, Sleeper>) {
        self.cost.with(|l| {
            for (session, s) in sleepers {
                if !matches!(s.state, SleepState::Archived | SleepState::Snapshot) {
                    continue;
                }
                // Only a sandbox the ledger shows stopped moves on to archived.
                if l.billed_now(session) != Some(crate::cost::prices::CostState::Stopped) {
                    continue;
                }
                let sandbox = s.sandbox_id.as_deref().unwrap_or(&s.sandbox);
                if let Err(e) = l.mark(session, sandbox, Mark::Archived, now()) {
                    tracing::warn!(
                        session = session.as_str(),
                        "cannot record the sandbox's cost: {e:#}"
                    );
                }
            }
        });
    }

    /// Warm sandboxes became ready (`Running`) or left the warm capacity (`Gone`: handed over,
    /// deleted, vanished). Each is billed as the pseudo-session `warm:<sandbox id>` while idle:
    /// warm capacity is no session's, yet it is paid for.
    pub(super) fn cost_warm(&self, changes: &[(String, Mark)]) {
        if changes.is_empty() {
            return;
        }
        self.cost.with(|l| {
            for (sandbox, mark) in changes {
                let session = format!("{}{sandbox}", crate::cost::tally::WARM_PREFIX);
                if let Err(e) = l.mark(&session, sandbox, *mark, now()) {
                    tracing::warn!(sandbox, "cannot record the warm sandbox's cost: {e:#}");
                }
            }
        });
    }

    /// Set the cost metrics from the ledger (every pass).
    pub(super) fn note_cost(&self) {
        self.cost.with(|l| {
            let t = now();
            self.metrics.set_cost(
                &l.tally().by_provider(0.0, t),
                &l.tally().rate_now(),
                &l.tally().warm_by_provider(t),
            );
        });
    }
}
