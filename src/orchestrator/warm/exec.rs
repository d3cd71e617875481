//! The warm executor: what this process knows of its warm sandboxes, and the acts the plan
//! asks for (list, create, hand over, delete). Decides nothing: `plan.rs` does.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::plan::{
    self, AutoTarget, Cap, WarmAction, WarmInputs, WarmPlan, WarmSandbox, WarmSettings, WarmState,
};
use super::{LABEL_WARM, LABEL_WARM_OWNER};
use crate::cost::tally::Mark;
use crate::orchestrator::run::Orchestrator;
use crate::orchestrator::{LABEL_OUTPOST, LABEL_SESSION};
use crate::poll::{Backoff, Poll, Waited, poll_until};
use crate::provider::{ProviderError, SandboxInfo, SandboxSpec, SandboxState};
use crate::time::now;

/// Arrivals remembered (the window holds fewer at any sane rate).
const ARRIVALS_KEPT: usize = 10_000;
/// Handed-over ids remembered, so a listing taken before the relabel cannot bring one back.
const TAKEN_KEPT: usize = 4096;
const READY_BACKOFF: Backoff =
    Backoff::doubling(Duration::from_millis(200), Duration::from_secs(2));

/// The warm capacity as `orchestrator status` shows it.
#[derive(
    Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
pub struct WarmStatus {
    /// `WARM_IDLE` as set: a number or `auto`.
    pub setting: String,
    /// How many it should keep now.
    pub target: usize,
    /// Started and waiting for a session.
    pub idle: usize,
    /// Being created.
    pub creating: usize,
    /// What bounded the target below demand: `max` (WARM_MAX) or `spend` (WARM_MAX_HOURLY_COST).
    pub capped_by: Option<Cap>,
    /// New sessions served from warm capacity since the start.
    pub hits: u64,
    /// New sessions created cold since the start.
    pub misses: u64,
    /// Seconds warm sandboxes have spent idle since the start (the capacity's cost driver).
    pub idle_seconds: f64,
    /// Seconds the last warm create took from request to ready (remote pre-installed): what
    /// `auto` sizes by, and what a static `WARM_IDLE` should be sized by. `None` before one.
    pub create_seconds: Option<f64>,
}

struct Entry {
    sb: WarmSandbox,
    /// When this process put it in the pool (a listing begun earlier cannot drop it).
    added: Instant,
}

#[derive(Default)]
struct Inner {
    pool: BTreeMap<String, Entry>,
    creating: usize,
    /// Names of the creates in flight: a listing that sees one does not count it twice.
    creating_names: BTreeSet<String>,
    deleting: BTreeSet<String>,
    taken: VecDeque<String>,
    arrivals: VecDeque<f64>,
    /// When an arrival found none ready (auto's miss bonus).
    miss_times: VecDeque<f64>,
    create_seconds: Option<f64>,
    auto: Option<AutoTarget>,
    /// When the last listing began (`None`: never listed; nothing is created before one).
    listed: Option<Instant>,
    listing: bool,
    last: Option<WarmPlan>,
    hits: u64,
    misses: u64,
    idle_seconds: f64,
}

/// This process's warm capacity.
pub struct Warm {
    pub settings: WarmSettings,
    generation: String,
    started: f64,
    inner: Mutex<Inner>,
}

impl Warm {
    pub fn new(settings: WarmSettings, generation: String) -> Warm {
        Warm {
            settings,
            generation,
            started: now(),
            inner: Mutex::new(Inner::default()),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn plan(&self, inner: &Inner, draining: bool) -> WarmPlan {
        let pool: Vec<WarmSandbox> = inner.pool.values().map(|e| e.sb.clone()).collect();
        let arrivals: Vec<f64> = inner.arrivals.iter().copied().collect();
        let misses: Vec<f64> = inner.miss_times.iter().copied().collect();
        plan::plan(&WarmInputs {
            settings: &self.settings,
            now: now(),
            generation: &self.generation,
            pool: &pool,
            creating: inner.creating,
            arrivals: &arrivals,
            misses: &misses,
            observed_since: self.started,
            create_seconds: inner.create_seconds,
            previous: inner.auto,
            draining,
        })
    }

    /// For `orchestrator status` and the metrics.
    pub fn status(&self) -> WarmStatus {
        let inner = self.lock();
        let t = now();
        let idle: Vec<&Entry> = inner
            .pool
            .values()
            .filter(|e| e.sb.state == WarmState::Ready)
            .collect();
        WarmStatus {
            setting: match self.settings.idle {
                plan::WarmIdle::Auto => "auto".into(),
                plan::WarmIdle::Fixed(n) => n.to_string(),
            },
            target: inner.last.as_ref().map_or(0, |p| p.target),
            idle: idle.len(),
            creating: inner.creating,
            capped_by: inner.last.as_ref().and_then(|p| p.capped_by),
            hits: inner.hits,
            misses: inner.misses,
            idle_seconds: inner.idle_seconds
                + idle.iter().map(|e| (t - e.sb.since).max(0.0)).sum::<f64>(),
            create_seconds: inner.create_seconds,
        }
    }

    /// Is warm capacity asked for at all (or is there some left to clean up)?
    /// A new session arrives: count it, and take the sandbox the plan hands it (out of the pool
    /// under the lock that chose it, so never offered twice) when `usable`; a miss is counted
    /// while warm capacity is on. The id taken, or `None`.
    pub(super) fn pick(&self, usable: bool) -> Option<String> {
        let mut inner = self.lock();
        let t = now();
        inner.arrivals.push_back(t);
        if inner.arrivals.len() > ARRIVALS_KEPT {
            inner.arrivals.pop_front();
        }
        let pool: Vec<WarmSandbox> = inner.pool.values().map(|e| e.sb.clone()).collect();
        let picked = if usable {
            plan::hand_over(&pool, &self.generation).map(|w| w.id.clone())
        } else {
            None
        };
        match &picked {
            Some(id) => {
                // Out of the pool under the lock that chose it: never offered twice.
                if let Some(e) = inner.pool.remove(id) {
                    inner.idle_seconds += (t - e.sb.since).max(0.0);
                }
                inner.taken.push_back(id.clone());
                if inner.taken.len() > TAKEN_KEPT {
                    inner.taken.pop_front();
                }
                inner.hits += 1;
            }
            None if !self.settings.idle.is_off() => {
                inner.misses += 1;
                inner.miss_times.push_back(t);
                if inner.miss_times.len() > ARRIVALS_KEPT {
                    inner.miss_times.pop_front();
                }
            }
            None => {}
        }
        picked
    }

    fn active(&self, inner: &Inner) -> bool {
        !self.settings.idle.is_off() || !inner.pool.is_empty() || inner.creating > 0
    }
}

fn warm_state(sb: &SandboxInfo) -> Option<WarmState> {
    match sb.state {
        SandboxState::Started => Some(WarmState::Ready),
        SandboxState::Creating | SandboxState::Starting | SandboxState::Unknown => {
            Some(WarmState::Coming)
        }
        SandboxState::Deleting | SandboxState::Deleted => None,
        SandboxState::Stopping | SandboxState::Stopped | SandboxState::Error => {
            Some(WarmState::Broken)
        }
    }
}

impl Orchestrator {
    /// The warm capacity for the status file; `None` when it is off and nothing is left.
    pub(in crate::orchestrator) fn warm_status(&self) -> Option<WarmStatus> {
        let on = self.warm.active(&self.warm.lock());
        on.then(|| self.warm.status())
    }

    /// One warm pass, run by the loop after each plan: list when due, then carry out what the
    /// warm plan says. Never waits: the acts run as their own tasks.
    pub(in crate::orchestrator) fn warm_tick(self: &Arc<Self>, draining: bool) {
        let warm = &self.warm;
        let (actions, list) = {
            let mut inner = warm.lock();
            let due = inner
                .listed
                .is_none_or(|t| t.elapsed() >= self.opts.janitor_interval);
            let list = due && !inner.listing;
            if list {
                inner.listing = true;
            }
            // Nothing is created or deleted before the first listing: a restart adopts what the
            // last run left before deciding what is missing.
            if inner.listed.is_none() || !warm.active(&inner) {
                (Vec::new(), list)
            } else {
                let p = warm.plan(&inner, draining);
                inner.auto = p.auto;
                let actions = self.claim_actions(&mut inner, &p);
                let idle = inner
                    .pool
                    .values()
                    .filter(|e| e.sb.state == WarmState::Ready)
                    .count();
                self.metrics.warm_capacity(idle, inner.creating, p.target);
                inner.last = Some(p);
                (actions, list)
            }
        };
        if list {
            let me = self.clone();
            tokio::spawn(async move { me.warm_list().await });
        }
        let gone: Vec<(String, Mark)> = actions
            .iter()
            .filter_map(|a| match a {
                WarmAction::Delete { id, .. } => Some((id.clone(), Mark::Gone)),
                WarmAction::Create { .. } => None,
            })
            .collect();
        self.cost_warm(&gone);
        for a in actions {
            let me = self.clone();
            tokio::spawn(async move { me.warm_act(a).await });
        }
    }

    /// Mark what the actions take (creates in flight, sandboxes being deleted) under the lock
    /// that read the pool, so the next pass does not ask again.
    fn claim_actions(&self, inner: &mut Inner, p: &WarmPlan) -> Vec<WarmAction> {
        let mut out = Vec::new();
        for a in &p.actions {
            match a {
                WarmAction::Create { count } => {
                    inner.creating += count;
                    out.extend((0..*count).map(|_| WarmAction::Create { count: 1 }));
                }
                WarmAction::Delete { id, .. } => {
                    if let Some(e) = inner.pool.remove(id) {
                        if e.sb.state == WarmState::Ready {
                            inner.idle_seconds += (now() - e.sb.since).max(0.0);
                        }
                        inner.deleting.insert(id.clone());
                        out.push(a.clone());
                    }
                }
            }
        }
        out
    }

    async fn warm_act(self: Arc<Self>, a: WarmAction) {
        match a {
            WarmAction::Create { .. } => {
                let r = self.warm_create().await;
                let mut inner = self.warm.lock();
                inner.creating = inner.creating.saturating_sub(1);
                match r {
                    Ok((sb, took)) => {
                        inner.create_seconds = Some(took);
                        let id = sb.id.clone();
                        inner.pool.insert(
                            sb.id.clone(),
                            Entry {
                                sb: WarmSandbox {
                                    id: sb.id,
                                    generation: self.warm.generation.clone(),
                                    state: WarmState::Ready,
                                    since: now(),
                                },
                                added: Instant::now(),
                            },
                        );
                        drop(inner);
                        self.cost_warm(&[(id, Mark::Running)]);
                    }
                    Err(e) => tracing::warn!("cannot create a warm sandbox: {e}"),
                }
            }
            WarmAction::Delete { id, why } => {
                tracing::info!(sandbox = %id, "deleting a warm sandbox: {}", why.as_str());
                if let Err(e) = self.provider.delete(&id).await {
                    tracing::warn!(sandbox = %id, "cannot delete a warm sandbox: {e}");
                }
                self.warm.lock().deleting.remove(&id);
            }
        }
        self.notify.notify_one();
    }

    /// Create one warm sandbox and wait until it is started; (it, seconds it took).
    async fn warm_create(&self) -> Result<(SandboxInfo, f64), ProviderError> {
        let name = format!(
            "devin-warm-{}",
            &uuid::Uuid::new_v4().simple().to_string()[..20]
        );
        let mut spec = SandboxSpec::new(&name, self.opts.source.clone());
        spec.handable = true;
        spec.labels = super::owner_labels(&self.opts.outpost_id, &self.opts.acceptor_id);
        spec.labels
            .insert(LABEL_WARM.to_string(), self.warm.generation.clone());
        spec.resources = self.opts.resources.clone();
        spec.archive_after = self.opts.archive_after;
        // The same workspace a cold create would give the session, so nothing differs once it
        // is handed over.
        spec.workspace = Some(crate::provider::Workspace {
            mount_path: self.opts.workdir.clone(),
            keep_home: true,
            restore: None,
        });
        let began = Instant::now();
        self.warm.lock().creating_names.insert(name.clone());
        let created = self.provider.create(&spec).await;
        self.warm.lock().creating_names.remove(&name);
        let sb = created?;
        let id = sb.id.clone();
        let waited = poll_until(
            Instant::now() + self.opts.ready_timeout,
            READY_BACKOFF,
            || async {
                Ok::<_, ProviderError>(match self.provider.get(&id).await? {
                    Some(sb) if sb.state == SandboxState::Started => Poll::Ready(sb),
                    Some(sb) if warm_state(&sb) == Some(WarmState::Coming) => Poll::Pending(()),
                    other => {
                        return Err(ProviderError::Other(format!(
                            "warm sandbox {id} did not start ({})",
                            other.map(|s| s.raw_state).unwrap_or_else(|| "gone".into())
                        )));
                    }
                })
            },
        )
        .await;
        match waited {
            Ok(Waited::Ready(sb)) => {
                self.warm_prefetch(&sb.id).await;
                Ok((sb, began.elapsed().as_secs_f64()))
            }
            Ok(Waited::TimedOut(_)) | Err(_) => {
                // Not usable: it goes now rather than waiting for the next listing.
                let _ = self.provider.delete(&id).await;
                Err(match waited {
                    Err(e) => e,
                    _ => ProviderError::Other(format!(
                        "warm sandbox {id} did not start within {:?}",
                        self.opts.ready_timeout
                    )),
                })
            }
        }
    }

    /// Pre-install the remote the next session most likely runs (the latest Linux build), so
    /// its launch finds it cached and downloads nothing; a session pinned to another build
    /// downloads its own at launch, as a cold one does. A failure only costs that download.
    async fn warm_prefetch(&self, id: &str) {
        if self.opts.launch != crate::orchestrator::remote::LaunchMode::Remote {
            return;
        }
        let fetched = match self
            .remotes
            .build(crate::api::devin_types::Platform::Linux, None)
            .await
        {
            Ok(build) => crate::orchestrator::remote::prefetch(self.provider.as_ref(), id, &build)
                .await
                .map(|now| (build.sha, now)),
            Err(e) => Err(e),
        };
        match fetched {
            Ok((sha, now)) => tracing::debug!(
                sandbox = %id,
                "warm sandbox has devin-remote {sha} {}",
                if now { "(downloaded)" } else { "(already cached)" }
            ),
            Err(e) => tracing::warn!(
                sandbox = %id,
                "cannot pre-install devin-remote in the warm sandbox (its session downloads it): {e}"
            ),
        }
    }

    /// List this instance's warm sandboxes: adopt those the pool does not know (a restart,
    /// `WARM_ON_EXIT=keep`), forget those gone.
    async fn warm_list(self: Arc<Self>) {
        let began = Instant::now();
        let labels = super::owner_labels(&self.opts.outpost_id, &self.opts.acceptor_id);
        let listed = self.provider.list(&labels).await;
        let mut inner = self.warm.lock();
        inner.listing = false;
        let listed = match listed {
            Ok(l) => l,
            Err(e) => {
                tracing::warn!("cannot list the warm sandboxes: {e}");
                return;
            }
        };
        let t = now();
        let mut seen = BTreeSet::new();
        for sb in listed {
            // Handed over (its labels are a session's now), or not ours after all.
            if sb.labels.contains_key(LABEL_SESSION)
                || sb.labels.get(LABEL_OUTPOST) != Some(&self.opts.outpost_id)
                || sb.labels.get(LABEL_WARM_OWNER) != Some(&self.opts.acceptor_id)
                || inner.taken.contains(&sb.id)
                || inner.creating_names.contains(&sb.name)
                || inner.deleting.contains(&sb.id)
            {
                continue;
            }
            let Some(state) = warm_state(&sb) else {
                continue;
            };
            seen.insert(sb.id.clone());
            let generation = sb.labels.get(LABEL_WARM).cloned().unwrap_or_default();
            let since = inner.pool.get(&sb.id).map(|e| e.sb.since).unwrap_or(t);
            inner.pool.insert(
                sb.id.clone(),
                Entry {
                    sb: WarmSandbox {
                        id: sb.id,
                        generation,
                        state,
                        since,
                    },
                    added: began,
                },
            );
        }
        let mut costs: Vec<(String, Mark)> = inner
            .pool
            .iter()
            .filter(|(id, e)| !seen.contains(*id) && e.added <= began)
            .map(|(id, _)| (id.clone(), Mark::Gone))
            .collect();
        costs.extend(
            inner
                .pool
                .values()
                .filter(|e| seen.contains(&e.sb.id) && e.sb.state == WarmState::Ready)
                .map(|e| (e.sb.id.clone(), Mark::Running)),
        );
        inner
            .pool
            .retain(|id, e| seen.contains(id) || e.added > began);
        inner.listed = Some(began);
        drop(inner);
        // Adopted ready ones are billed from now (the ledger writes nothing it already says).
        self.cost_warm(&costs);
        self.notify.notify_one();
    }

    /// The orchestrator stops: with `WARM_ON_EXIT=delete` delete every warm sandbox (waiting
    /// for the deletes, bounded); with `keep` leave them for the next start to adopt.
    pub(in crate::orchestrator) async fn warm_drain(self: &Arc<Self>) {
        let actions = {
            let mut inner = self.warm.lock();
            if inner.listed.is_none() || !self.warm.active(&inner) {
                return;
            }
            let p = self.warm.plan(&inner, true);
            self.claim_actions(&mut inner, &p)
        };
        if actions.is_empty() {
            return;
        }
        tracing::info!(
            "deleting {} warm sandboxes (WARM_ON_EXIT=delete)",
            actions.len()
        );
        let all = futures::future::join_all(actions.into_iter().map(|a| self.clone().warm_act(a)));
        if tokio::time::timeout(Duration::from_secs(20), all)
            .await
            .is_err()
        {
            tracing::warn!(
                "warm sandboxes still being deleted at exit; the next start deletes what is left"
            );
        }
    }
}
