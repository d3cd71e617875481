//! The executor's core: the reconcile loop, the dispatch of actions, and the one place outcomes
//! reach the planner's memory ([`Orchestrator::apply`]).
//!
//! Each pass plans (pure, `plan/`) from the current view and carries the actions out with
//! bounded concurrency, one action per session at a time. The stages that talk to the world
//! live beside this file: `observe.rs` (list, watch, reattach, re-read), `claim.rs` (claim,
//! renew, adopt), `provision.rs` (sandbox, repos, remote, liveness), `end.rs` (stop, delete,
//! release), `sweep.rs` (the janitor). They report typed outcomes; none decides anything.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use serde::Serialize;
use tokio::sync::{Notify, Semaphore, broadcast, watch};
use tokio::task::JoinSet;

use super::metrics::Metrics;
use super::plan::{self, Action, Limits, Observed, Outcome, Track};
use super::remote::LaunchMode;
use super::state::OutpostState;
use crate::api::HttpClient;
use crate::api::devin::DevinClient;
use crate::api::devin_types::QueueEntry;
use crate::env;
use crate::provider::{Provider, Resources, Source};
use crate::secrets::Secret;
use crate::time::now;

/// Everything `orchestrator run` was told.
#[derive(Debug, Clone)]
pub struct RunOptions {
    pub outpost_id: String,
    pub acceptor_id: String,
    pub limits: Limits,
    pub reconcile_interval: Duration,
    pub janitor_interval: Duration,
    /// Sandboxes younger than this are never touched by the janitor.
    pub janitor_grace: Duration,
    pub launch: LaunchMode,
    pub source: Source,
    /// Source for Windows sessions (`None`: the same as Linux).
    pub windows_source: Option<Source>,
    pub resources: Resources,
    pub workdir: String,
    pub windows_workdir: String,
    pub repos: Vec<String>,
    pub git_username: String,
    pub git_token: Option<Secret>,
    pub chrome_path: Option<String>,
    pub windows_chrome_path: Option<String>,
    pub static_base: String,
    /// Used when a claim response carries no gateway URL.
    pub gateway_fallback: Option<String>,
    /// Longest wait for a sandbox to reach `started`.
    pub ready_timeout: Duration,
    /// Stopped sandboxes may be archived after this long (Daytona).
    pub archive_after: Option<Duration>,
    /// Delete the sandbox of a session absent from the queue this long (off: `None`).
    pub sleep_retention: Option<Duration>,
}

impl RunOptions {
    /// The defaults of `orchestrator run` for one outpost (from `env.rs`); callers override
    /// what they need.
    pub fn new(
        outpost_id: impl Into<String>,
        acceptor_id: impl Into<String>,
        static_base: impl Into<String>,
    ) -> Self {
        RunOptions {
            outpost_id: outpost_id.into(),
            acceptor_id: acceptor_id.into(),
            limits: Limits::default(),
            reconcile_interval: env::RECONCILE_INTERVAL.default_duration(),
            janitor_interval: env::JANITOR_INTERVAL.default_duration(),
            janitor_grace: Duration::from_secs(300),
            launch: LaunchMode::Remote,
            source: Source::Default,
            windows_source: None,
            resources: Resources::default(),
            workdir: env::WORKDIR.default_str().into(),
            windows_workdir: env::WINDOWS_WORKDIR.default_str().into(),
            repos: Vec::new(),
            git_username: env::GIT_USERNAME.default_str().into(),
            git_token: None,
            chrome_path: None,
            windows_chrome_path: Some(env::DEVIN_WINDOWS_CHROME_PATH.default_str().into()),
            static_base: static_base.into(),
            gateway_fallback: None,
            ready_timeout: Duration::from_secs(300),
            archive_after: Some(env::ARCHIVE_AFTER.default_duration()),
            sleep_retention: None,
        }
    }
}

/// What happened, for narration (`demo`) and tests. Never carries a secret.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum OrchEvent {
    Claimed {
        session: String,
    },
    ClaimConflict {
        session: String,
    },
    Adopted {
        session: String,
    },
    SandboxCreated {
        session: String,
        sandbox: String,
        /// Served from a provider's warm pool (a started sandbox that existed before the create).
        warm: bool,
    },
    SandboxStarted {
        session: String,
        sandbox: String,
    },
    SandboxReady {
        session: String,
        sandbox: String,
    },
    RemoteLaunched {
        session: String,
        sandbox: String,
        /// Whether the launch reused a cached binary (`cached=yes` of the launch line; a baked
        /// snapshot makes the first launch one); `None` when it did not say (CLI, Windows).
        cached: Option<bool>,
    },
    RemoteRunning {
        session: String,
        sandbox: String,
    },
    RemoteExited {
        session: String,
        code: i32,
    },
    Released {
        session: String,
    },
    SandboxStopped {
        session: String,
        sandbox: String,
    },
    SandboxDeleted {
        session: String,
        sandbox: String,
    },
    SandboxLost {
        session: String,
        sandbox: String,
    },
    Failed {
        session: String,
        error: String,
    },
    Janitor {
        session: String,
        sandbox: String,
        action: super::plan::janitor::JanitorAction,
    },
    /// Not served: the session's network policy cannot be enforced here.
    Refused {
        session: String,
        reason: String,
    },
    /// The session's claim was let go after its sandbox was finished.
    Ended {
        session: String,
        how: EndHow,
    },
    /// Sessions wait in the queue because the cap is reached (said again when the numbers change).
    AtCapacity {
        held: usize,
        cap: usize,
        waiting: usize,
    },
}

/// How a session ended, as its `ended` event says (`slept`, `terminated`, `failed`, `foreign`,
/// `given_up`).
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum EndHow {
    Slept,
    Terminated,
    Failed,
    Foreign,
    GivenUp,
}

impl From<plan::EndKind> for EndHow {
    fn from(kind: plan::EndKind) -> Self {
        match kind {
            plan::EndKind::Sleep => EndHow::Slept,
            plan::EndKind::Terminate => EndHow::Terminated,
            plan::EndKind::Failed => EndHow::Failed,
            plan::EndKind::Foreign => EndHow::Foreign,
            plan::EndKind::GiveUp => EndHow::GivenUp,
        }
    }
}

/// The session's claim material, in memory only.
#[derive(Debug, Clone)]
pub(super) struct ClaimInfo {
    pub token: Secret,
    pub gateway: Option<String>,
    pub sha: Option<String>,
    /// The policy the claim answer carried (lists may omit it: specs §9 question 6).
    pub network_policy: Option<Result<crate::api::network_policy::NetworkPolicy, String>>,
}

#[derive(Debug, Default)]
pub(super) struct Inner {
    pub queue: BTreeMap<String, QueueEntry>,
    pub tracks: BTreeMap<String, Track>,
    pub claiming: BTreeSet<String>,
    /// Sessions with a non-claim action (or a janitor act) in flight.
    pub busy: BTreeSet<String>,
    /// How many of the `busy` actions are provisionings.
    pub launching: usize,
    pub claims: BTreeMap<String, ClaimInfo>,
    pub sandboxes: BTreeMap<String, String>,
    /// Whether each held session's sandbox was served from a warm pool (this process's creates).
    pub served_warm: BTreeMap<String, bool>,
    /// When the janitor first saw a sandbox whose creation time the provider does not report.
    pub first_seen: BTreeMap<String, f64>,
    /// Sessions seen `terminated` (list rows, watch events, reads), with when: the janitor's
    /// proof of termination once the queue has swept the entry.
    pub terminated_seen: BTreeMap<String, f64>,
    pub draining: bool,
    pub relist_due: bool,
    pub status_dirty: bool,
    /// The last listing read every entry: an absence in it is evidence.
    pub view_complete: bool,
    /// Sleeping sessions (kept in the state dir with their absence clocks).
    pub sleepers: BTreeMap<String, super::plan::retention::Sleeper>,
    /// The outpost's sandboxes by state, from the janitor's last listing.
    pub fleet: super::sleep::Fleet,
    /// Sessions not served because their network policy cannot be enforced.
    pub refused: super::egress::Refusals,
    /// The short-claim-TTL warning was logged (once per run).
    pub ttl_warned: bool,
    /// The last lines of each session's remote log, read when it last ended badly.
    pub exit_logs: BTreeMap<String, String>,
    /// Held sessions (with claims in flight) and claimable sessions left waiting, from the last
    /// reconcile round.
    pub capacity: Capacity,
    /// When the status file was last written (rewritten at least every few seconds while
    /// running, so a stopped orchestrator's file says when it was last true).
    pub status_saved_at: f64,
}

/// What the cap does to the queue right now.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Capacity {
    pub held: usize,
    pub waiting: usize,
}

pub struct Orchestrator {
    pub(super) devin: DevinClient,
    pub(super) provider: Arc<dyn Provider>,
    pub(super) opts: RunOptions,
    pub(super) state: OutpostState,
    /// Which remote build to run, with its checksums (cached).
    pub(super) remotes: super::remote::Resolver,
    inner: Mutex<Inner>,
    pub(super) notify: Notify,
    pub metrics: Arc<Metrics>,
    events: broadcast::Sender<OrchEvent>,
    /// Each session's latest event in words, with when (for `orchestrator status`). Apart from
    /// `inner` because events are emitted with and without that lock held.
    last_events: Mutex<BTreeMap<String, (OrchEvent, f64)>>,
    /// A sandbox was created, started, stopped or deleted since the sandboxes were last counted.
    pub(super) fleet_changed: std::sync::atomic::AtomicBool,
}

impl Orchestrator {
    pub fn new(
        devin: DevinClient,
        provider: Arc<dyn Provider>,
        http: HttpClient,
        opts: RunOptions,
        state: OutpostState,
    ) -> Arc<Self> {
        let (events, _) = broadcast::channel(1024);
        let sleepers = state.sleepers();
        let terminated_seen = state.terminated(crate::time::now());
        let remotes = super::remote::Resolver::new(http.clone(), &opts.static_base);
        let metrics = Arc::new(Metrics::new(provider.kind()));
        let provider = super::metrics::instrument(provider, metrics.clone());
        Arc::new(Orchestrator {
            devin,
            provider,
            remotes,
            opts,
            state,
            inner: Mutex::new(Inner {
                relist_due: true,
                sleepers,
                terminated_seen,
                ..Inner::default()
            }),
            notify: Notify::new(),
            metrics,
            events,
            last_events: Mutex::new(BTreeMap::new()),
            fleet_changed: std::sync::atomic::AtomicBool::new(false),
        })
    }

    /// Narration of what the orchestrator does.
    pub fn subscribe(&self) -> broadcast::Receiver<OrchEvent> {
        self.events.subscribe()
    }

    pub(super) fn emit(&self, ev: OrchEvent) {
        // Readable first; the event as JSON rides along as a field for log searches.
        let json = serde_json::to_string(&ev).unwrap_or_default();
        if ev.is_problem() {
            tracing::warn!(event = %json, "{}", ev.narrate());
        } else {
            tracing::info!(event = %json, "{}", ev.narrate());
        }
        if matches!(
            ev,
            OrchEvent::SandboxCreated { .. }
                | OrchEvent::SandboxStarted { .. }
                | OrchEvent::SandboxStopped { .. }
                | OrchEvent::SandboxDeleted { .. }
                | OrchEvent::SandboxLost { .. }
        ) {
            self.fleet_changed
                .store(true, std::sync::atomic::Ordering::Relaxed);
        }
        if let Some(session) = ev.session() {
            self.last_events
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(session.to_string(), (ev.clone(), now()));
        }
        self.metrics.on_event(&ev);
        if let OrchEvent::SandboxCreated { session, warm, .. } = &ev {
            let mut inner = self.lock();
            inner.served_warm.insert(session.clone(), *warm);
            inner.status_dirty = true;
        }
        let _ = self.events.send(ev);
    }

    /// Each session's latest event (words, when); forgets those older than an hour.
    pub(super) fn last_events_snapshot(&self) -> Vec<(String, OrchEvent, f64)> {
        let mut map = self.last_events.lock().unwrap_or_else(|e| e.into_inner());
        let t = now();
        map.retain(|_, (_, at)| t - *at < 3600.0);
        map.iter()
            .map(|(s, (ev, at))| (s.clone(), ev.clone(), *at))
            .collect()
    }

    pub(super) fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Fold an outcome into the session's memory: the only place `Track`s change.
    pub(super) fn apply_locked(
        inner: &mut Inner,
        session: &str,
        outcome: Outcome,
        limits: &Limits,
    ) {
        inner
            .tracks
            .entry(session.to_string())
            .or_default()
            .apply(outcome, now(), limits);
        inner.status_dirty = true;
    }

    /// Run until `shutdown` turns true; then stop claiming, let in-flight work finish (bounded)
    /// and return, leaving sandboxes and remotes running for the next start.
    pub async fn run(self: Arc<Self>, mut shutdown: watch::Receiver<bool>) -> Result<()> {
        self.reattach()
            .await
            .context("cannot read the claims this instance holds")?;
        let cursor = self
            .relist()
            .await
            .context("cannot list the session queue")?;
        let watcher = tokio::spawn(self.clone().watch_loop(cursor));
        let permits = Arc::new(Semaphore::new(self.opts.limits.cap.max(1) + 2));
        let mut tasks: JoinSet<()> = JoinSet::new();
        let mut last_relist = Instant::now();
        // The first janitor pass runs at once: until it has listed the outpost's sandboxes,
        // `orchestrator status` could only guess how many there are.
        let mut last_janitor = Instant::now()
            .checked_sub(self.opts.janitor_interval)
            .unwrap_or_else(Instant::now);
        let mut janitor: Option<tokio::task::JoinHandle<()>> = None;
        let mut recount: Option<tokio::task::JoinHandle<()>> = None;
        let mut drain_deadline: Option<Instant> = None;

        loop {
            tokio::select! {
                _ = self.notify.notified() => {}
                _ = tokio::time::sleep(Duration::from_millis(500)) => {}
                changed = shutdown.changed(), if drain_deadline.is_none() => {
                    if changed.is_err() || *shutdown.borrow() {
                        tracing::info!("draining: no new claims; sandboxes and remotes stay up");
                        self.lock().draining = true;
                        drain_deadline = Some(Instant::now() + Duration::from_secs(25));
                    }
                }
            }
            while tasks.try_join_next().is_some() {}
            if let Some(deadline) = drain_deadline {
                if tasks.is_empty() || Instant::now() >= deadline {
                    break;
                }
                continue;
            }
            let relist_due = std::mem::take(&mut self.lock().relist_due);
            if relist_due || last_relist.elapsed() >= self.opts.reconcile_interval {
                match self.relist().await {
                    Ok(_) => last_relist = Instant::now(),
                    Err(e) => {
                        self.count_error(&e);
                        self.metrics.relisted(false);
                        tracing::warn!("relist failed, retrying: {e:#}");
                        self.lock().relist_due = true;
                        tokio::time::sleep(Duration::from_secs(1)).await;
                    }
                }
            }
            if last_janitor.elapsed() >= self.opts.janitor_interval
                && janitor.as_ref().is_none_or(|j| j.is_finished())
            {
                last_janitor = Instant::now();
                janitor = Some(tokio::spawn(self.clone().janitor_sweep()));
            }
            if janitor.as_ref().is_none_or(|j| j.is_finished())
                && recount.as_ref().is_none_or(|j| j.is_finished())
                && self
                    .fleet_changed
                    .swap(false, std::sync::atomic::Ordering::Relaxed)
            {
                recount = Some(tokio::spawn(self.clone().recount_fleet()));
            }
            let started = Instant::now();
            for action in self.plan_now() {
                self.mark(&action);
                let me = self.clone();
                let permits = permits.clone();
                tasks.spawn(async move {
                    let _permit = permits.acquire_owned().await;
                    me.execute(action).await;
                    me.notify.notify_one();
                });
            }
            self.metrics.reconciled(started.elapsed());
            self.note_capacity();
            self.save_status();
        }
        watcher.abort();
        if let Some(j) = janitor {
            j.abort();
        }
        if let Some(j) = recount {
            j.abort();
        }
        tasks.abort_all();
        self.lock().status_dirty = true;
        self.save_status();
        Ok(())
    }

    fn plan_now(&self) -> Vec<Action> {
        let inner = self.lock();
        self.metrics.observe_sessions(&inner);
        plan::plan(&Observed {
            now: now(),
            acceptor_id: &self.opts.acceptor_id,
            queue: &inner.queue,
            tracks: &inner.tracks,
            claiming: &inner.claiming,
            busy: &inner.busy,
            launching: inner.launching,
            limits: &self.opts.limits,
            draining: inner.draining,
        })
    }

    /// An action is in flight for its session until [`Self::execute`] returns.
    fn mark(&self, action: &Action) {
        let mut inner = self.lock();
        let session = action.session().to_string();
        self.metrics.on_action(action, &inner);
        match action {
            Action::Claim { .. } => inner.claiming.insert(session),
            Action::Provision { .. } => {
                inner.launching += 1;
                inner.busy.insert(session)
            }
            _ => inner.busy.insert(session),
        };
    }

    async fn execute(self: &Arc<Self>, action: Action) {
        let session = action.session().to_string();
        let outcome = match &action {
            Action::Claim { .. } => self.claim(&session).await,
            Action::Adopt { .. } => self.adopt(&session).await,
            Action::Renew { .. } => self.renew(&session).await,
            Action::Provision { .. } => self.provision(&session).await,
            Action::CheckRemote { .. } => self.check(&session).await,
            Action::Reread { .. } => self.reread(&session).await,
            Action::End { kind, sandbox, .. } => self.end(&session, *kind, *sandbox).await,
        };
        self.metrics.on_outcome(&session, outcome.as_ref());
        // Claimed or served again: no longer asleep.
        if matches!(
            outcome,
            Some(
                Outcome::Claimed(plan::ClaimResult::Won { .. })
                    | Outcome::Provisioned(plan::ProvisionResult::Served)
            )
        ) {
            self.forget_sleeper(&session);
        }
        let mut inner = self.lock();
        if let Some(outcome) = outcome {
            Self::apply_locked(&mut inner, &session, outcome, &self.opts.limits);
        }
        // A claim marks `claiming`, never `busy`: clearing `busy` here would release an action
        // the planner started for this session in the meantime (a double provision).
        match action {
            Action::Claim { .. } => inner.claiming.remove(&session),
            Action::Provision { .. } => {
                inner.launching = inner.launching.saturating_sub(1);
                inner.busy.remove(&session)
            }
            _ => inner.busy.remove(&session),
        };
        inner.status_dirty = true;
    }

    pub(super) fn count_error(&self, e: &anyhow::Error) {
        let status = e
            .chain()
            .find_map(|c| c.downcast_ref::<crate::api::ApiError>())
            .and_then(|a| a.status());
        self.metrics.api_error(status);
    }
}

/// Sessions given up and cooling off: why, until when, and the last line their remote logged.
pub(super) fn given_up_json(inner: &mut Inner) -> Vec<serde_json::Value> {
    let t_now = now();
    let tracks = &inner.tracks;
    inner.exit_logs.retain(|id, _| tracks.contains_key(id));
    tracks
        .iter()
        .filter(|(_, t)| !t.held && t.retry_at.is_some_and(|r| r > t_now))
        .filter_map(|(id, t)| {
            let why = t.gave_up?;
            Some(serde_json::json!({
                "session_id": id,
                "reason": why.to_string(),
                "retry_at": t.retry_at,
                "last_log": inner.exit_logs.get(id),
            }))
        })
        .collect()
}
