//! The reconcile loop: observe (list + watch), plan (pure, `plan.rs`), carry actions out with
//! bounded concurrency, one action per session at a time.
//!
//! The list is the source of truth; the watch only wakes the loop and feeds observations. Every
//! gap in the watch, and every `reconcile_interval`, triggers a full relist.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result};
use serde::Serialize;
use tokio::sync::{Notify, Semaphore, broadcast, watch};
use tokio::task::JoinSet;

use super::janitor::{self, Lookup, Verdict};
use super::metrics::Metrics;
use super::plan::{self, Action, EndKind, Limits, Observed, RemoteState, SandboxKnown, Track};
use super::remote::{self, LaunchMode, LaunchPlan, Liveness};
use super::state::OutpostState;
use super::{LABEL_OUTPOST, sandbox_labels, sandbox_name};
use crate::api::HttpClient;
use crate::api::devin::{ClaimOutcome as Claim, DevinClient, ListQuery, ReleaseOutcome as Release};
use crate::api::devin_types::{EventType, Phase, Platform, QueueEntry, SessionStatus};
use crate::api::sse::WatchItem;
use crate::provider::{
    GitClone, Provider, ProviderError, Resources, SandboxInfo, SandboxSpec, SandboxState, Source,
};
use crate::secrets::Secret;

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
}

impl RunOptions {
    /// The defaults of `orchestrator run` for one outpost; callers override what they need.
    pub fn new(
        outpost_id: impl Into<String>,
        acceptor_id: impl Into<String>,
        static_base: impl Into<String>,
    ) -> Self {
        RunOptions {
            outpost_id: outpost_id.into(),
            acceptor_id: acceptor_id.into(),
            limits: Limits::default(),
            reconcile_interval: Duration::from_secs(30),
            janitor_interval: Duration::from_secs(60),
            janitor_grace: Duration::from_secs(300),
            launch: LaunchMode::Remote,
            source: Source::Default,
            windows_source: None,
            resources: Resources::default(),
            workdir: "/home/daytona/workspace".into(),
            windows_workdir: "C:\\repos".into(),
            repos: Vec::new(),
            git_username: "x-access-token".into(),
            git_token: None,
            chrome_path: None,
            windows_chrome_path: None,
            static_base: static_base.into(),
            gateway_fallback: None,
            ready_timeout: Duration::from_secs(300),
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
        action: String,
    },
}

/// The session's claim material, in memory only.
#[derive(Debug, Clone)]
struct ClaimInfo {
    token: Secret,
    gateway: Option<String>,
    sha: Option<String>,
}

#[derive(Debug, Default)]
struct Inner {
    queue: BTreeMap<String, QueueEntry>,
    tracks: BTreeMap<String, Track>,
    claiming: BTreeSet<String>,
    claims: BTreeMap<String, ClaimInfo>,
    sandboxes: BTreeMap<String, String>,
    /// When the janitor first saw a sandbox whose creation time the provider does not report.
    first_seen: BTreeMap<String, f64>,
    /// Sessions seen `terminated` (list rows, watch events, reads), with when: the janitor's
    /// proof of termination once the queue has swept the entry.
    terminated_seen: BTreeMap<String, f64>,
    draining: bool,
    relist_due: bool,
    status_dirty: bool,
}

pub struct Orchestrator {
    devin: DevinClient,
    provider: Arc<dyn Provider>,
    http: HttpClient,
    opts: RunOptions,
    state: OutpostState,
    inner: Mutex<Inner>,
    notify: Notify,
    pub metrics: Arc<Metrics>,
    events: broadcast::Sender<OrchEvent>,
}

fn now() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0)
}

/// Per-session backoff after failures: 5 s, 10 s, … capped at 5 minutes.
fn backoff(failures: u32) -> f64 {
    (5.0 * 2f64.powi(failures.saturating_sub(1).min(10) as i32)).min(300.0)
}

/// How long a given-up session is left alone.
const COOL_OFF: f64 = 600.0;

/// How long an unheld session's failures are remembered after its last backoff ended.
const FAILURE_MEMORY: f64 = 900.0;

/// Most sessions remembered as terminated.
const TERMINATED_MEMORY: usize = 10_000;

impl Orchestrator {
    pub fn new(
        devin: DevinClient,
        provider: Arc<dyn Provider>,
        http: HttpClient,
        opts: RunOptions,
        state: OutpostState,
    ) -> Arc<Self> {
        let (events, _) = broadcast::channel(1024);
        Arc::new(Orchestrator {
            devin,
            provider,
            http,
            opts,
            state,
            inner: Mutex::new(Inner {
                relist_due: true,
                ..Inner::default()
            }),
            notify: Notify::new(),
            metrics: Arc::new(Metrics::default()),
            events,
        })
    }

    /// Narration of what the orchestrator does.
    pub fn subscribe(&self) -> broadcast::Receiver<OrchEvent> {
        self.events.subscribe()
    }

    pub fn acceptor_id(&self) -> &str {
        &self.opts.acceptor_id
    }

    fn emit(&self, ev: OrchEvent) {
        match &ev {
            OrchEvent::Failed { session, error } => tracing::warn!(session = %session, "{error}"),
            other => tracing::info!("{}", serde_json::to_string(other).unwrap_or_default()),
        }
        let _ = self.events.send(ev);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Remember that the server said `session` is terminated (bounded: a day, 10,000 ids).
    fn saw_terminated(inner: &mut Inner, session: &str) {
        let t = now();
        if inner.terminated_seen.len() >= TERMINATED_MEMORY {
            inner.terminated_seen.retain(|_, at| *at > t - 86_400.0);
            while inner.terminated_seen.len() >= TERMINATED_MEMORY {
                let oldest = inner
                    .terminated_seen
                    .iter()
                    .min_by(|a, b| a.1.total_cmp(b.1))
                    .map(|(k, _)| k.clone());
                match oldest {
                    Some(k) => inner.terminated_seen.remove(&k),
                    None => break,
                };
            }
        }
        inner.terminated_seen.insert(session.to_string(), t);
    }

    fn track_mut<'a>(inner: &'a mut Inner, session: &str) -> &'a mut Track {
        inner.tracks.entry(session.to_string()).or_default()
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
        let mut last_janitor = Instant::now();
        let mut janitor: Option<tokio::task::JoinHandle<()>> = None;
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
            let started = Instant::now();
            let actions = self.plan_now();
            for action in actions {
                self.mark(&action);
                let me = self.clone();
                let permits = permits.clone();
                tasks.spawn(async move {
                    let _permit = permits.acquire_owned().await;
                    me.execute(action).await;
                    me.notify.notify_one();
                });
            }
            let micros = started.elapsed().as_micros() as u64;
            Metrics::inc(&self.metrics.reconciles);
            self.metrics
                .reconcile_micros
                .fetch_add(micros, std::sync::atomic::Ordering::Relaxed);
            self.metrics
                .last_reconcile_micros
                .store(micros, std::sync::atomic::Ordering::Relaxed);
            self.save_status();
        }
        watcher.abort();
        if let Some(j) = janitor {
            j.abort();
        }
        tasks.abort_all();
        self.lock().status_dirty = true;
        self.save_status();
        Ok(())
    }

    fn plan_now(&self) -> Vec<Action> {
        let inner = self.lock();
        let held = inner.tracks.values().filter(|t| t.held).count() as u64;
        self.metrics
            .active_sessions
            .store(held, std::sync::atomic::Ordering::Relaxed);
        plan::plan(&Observed {
            now: now(),
            acceptor_id: &self.opts.acceptor_id,
            queue: &inner.queue,
            tracks: &inner.tracks,
            claiming: &inner.claiming,
            limits: &self.opts.limits,
            draining: inner.draining,
        })
    }

    fn mark(&self, action: &Action) {
        let mut inner = self.lock();
        match action {
            Action::Claim { session } => {
                inner.claiming.insert(session.clone());
            }
            other => Self::track_mut(&mut inner, other.session()).busy = true,
        }
    }

    async fn execute(self: &Arc<Self>, action: Action) {
        let session = action.session().to_string();
        let is_claim = matches!(action, Action::Claim { .. });
        match action {
            Action::Claim { .. } => self.do_claim(&session).await,
            Action::Adopt { .. } => self.do_adopt(&session).await,
            Action::Renew { .. } => self.do_renew(&session).await,
            Action::Provision { .. } => self.do_provision(&session).await,
            Action::CheckRemote { .. } => self.do_check(&session).await,
            Action::Reread { .. } => self.do_reread(&session).await,
            Action::End { kind, .. } => self.do_end(&session, kind).await,
        }
        let mut inner = self.lock();
        if is_claim {
            // A claim marks `claiming`, never `busy`: clearing `busy` here would release an
            // action the planner started for this session in the meantime (a double provision).
            inner.claiming.remove(&session);
        } else if let Some(t) = inner.tracks.get_mut(&session) {
            t.busy = false;
        }
        inner.status_dirty = true;
    }

    fn count_error(&self, e: &anyhow::Error) {
        let status = e
            .chain()
            .find_map(|c| c.downcast_ref::<crate::api::ApiError>())
            .and_then(|a| a.status());
        self.metrics.api_error(status);
    }

    // ---- observation ----------------------------------------------------------------------

    async fn reattach(&self) -> Result<()> {
        let q = ListQuery {
            outpost: Some(self.opts.outpost_id.clone()),
            phase: Some(Phase::Claimed),
            acceptor_id: Some(self.opts.acceptor_id.clone()),
            ..ListQuery::default()
        };
        let list = self.devin.list(&q).await?;
        let mut inner = self.lock();
        for e in list.entries {
            if e.acceptor_id.as_deref() != Some(self.opts.acceptor_id.as_str()) {
                continue;
            }
            let t = Self::track_mut(&mut inner, &e.session_id);
            t.held = true;
            t.claim_deadline = e.claim_deadline;
            self.emit(OrchEvent::Adopted {
                session: e.session_id.clone(),
            });
            inner.queue.insert(e.session_id.clone(), e);
        }
        Ok(())
    }

    /// Full list → the view. Returns the cursor to watch from.
    async fn relist(&self) -> Result<Option<String>> {
        let q = ListQuery {
            outpost: Some(self.opts.outpost_id.clone()),
            ..ListQuery::default()
        };
        let list = self.devin.list(&q).await?;
        let mut inner = self.lock();
        let fresh: BTreeMap<String, QueueEntry> = list
            .entries
            .into_iter()
            .map(|e| (e.session_id.clone(), e))
            .collect();
        let me = self.opts.acceptor_id.clone();
        // Entries we could not read may be any session, ours included: then a session missing
        // from the listing is not evidence that it left the queue.
        let complete = list.skipped == 0;
        let ids: Vec<String> = inner.tracks.keys().cloned().collect();
        for id in ids {
            let entry = fresh.get(&id).cloned();
            let t = Self::track_mut(&mut inner, &id);
            t.lost_race = false;
            if !t.held {
                continue;
            }
            match &entry {
                Some(e)
                    if e.phase == Phase::Claimed
                        && e.acceptor_id.as_deref() != Some(me.as_str()) =>
                {
                    tracing::warn!(session = %id, "another acceptor holds this session now; leaving it");
                    t.held = false;
                }
                Some(e) => {
                    t.observe(Some(e.session_status), now(), self.opts.limits.reread_every);
                    if e.phase == Phase::Claimed {
                        t.claim_deadline = e.claim_deadline.or(t.claim_deadline);
                    }
                }
                None if complete => t.observe(None, now(), self.opts.limits.reread_every),
                None => {
                    tracing::warn!(session = %id, "not in a listing with unreadable entries: not counted as absent");
                }
            }
        }
        for e in fresh.values() {
            if e.session_status == SessionStatus::Terminated {
                Self::saw_terminated(&mut inner, &e.session_id);
            }
        }
        // Forget idle, unheld tracks that no longer need remembering. A session that failed
        // keeps its failure count for a while after its backoff ends: forgotten at once, every
        // attempt would start again at the first backoff step and the give-up after
        // MAX_FAILURES would never come.
        let t_now = now();
        inner.tracks.retain(|_, t| {
            t.held || t.busy || t.retry_at.is_some_and(|r| r + FAILURE_MEMORY > t_now)
        });
        inner.queue = fresh;
        inner.status_dirty = true;
        drop(inner);
        if let Some(c) = &list.cursor
            && let Err(e) = self.state.save_cursor(c)
        {
            tracing::warn!("cannot save the watch cursor: {e:#}");
        }
        Ok(list.cursor)
    }

    async fn watch_loop(self: Arc<Self>, cursor: Option<String>) {
        let mut watch = self.devin.watch(Some(&self.opts.outpost_id), cursor);
        loop {
            match watch.next().await {
                WatchItem::Event(ev) => {
                    self.apply_event(ev.kind, ev.object);
                    if let Some(c) = &ev.cursor
                        && let Err(e) = self.state.save_cursor(c)
                    {
                        tracing::warn!("cannot save the watch cursor: {e:#}");
                    }
                }
                WatchItem::Gap(gap) => {
                    tracing::debug!("watch gap: {}", gap.detail);
                    self.lock().relist_due = true;
                }
            }
            self.notify.notify_one();
        }
    }

    fn apply_event(&self, kind: EventType, object: Option<QueueEntry>) {
        let Some(entry) = object else { return };
        if entry
            .outpost_id
            .as_deref()
            .is_some_and(|o| o != self.opts.outpost_id)
        {
            return;
        }
        let mut inner = self.lock();
        let id = entry.session_id.clone();
        let me = self.opts.acceptor_id.clone();
        // A DELETED event carries the entry's last state: `terminated` is proof enough.
        if entry.session_status == SessionStatus::Terminated {
            Self::saw_terminated(&mut inner, &id);
        }
        match kind {
            EventType::Deleted => {
                inner.queue.remove(&id);
                if let Some(t) = inner.tracks.get_mut(&id)
                    && t.held
                {
                    t.observe(None, now(), self.opts.limits.reread_every);
                }
            }
            EventType::Modified | EventType::Added => {
                if let Some(t) = inner.tracks.get_mut(&id)
                    && t.held
                {
                    if entry.phase == Phase::Claimed
                        && entry.acceptor_id.as_deref() != Some(me.as_str())
                    {
                        t.held = false;
                    } else {
                        t.observe(
                            Some(entry.session_status),
                            now(),
                            self.opts.limits.reread_every,
                        );
                    }
                }
                inner.queue.insert(id, entry);
            }
            EventType::Unknown => {}
        }
        inner.status_dirty = true;
    }

    // ---- actions ----------------------------------------------------------------------------

    async fn do_claim(&self, session: &str) {
        crate::failpoint!("claim.before_post");
        let outcome = self.devin.claim(session, &self.opts.acceptor_id).await;
        crate::failpoint!("claim.after_response");
        match outcome {
            Ok(Claim::Won(entry)) => {
                Metrics::inc(&self.metrics.claims);
                self.take_claim(session, &entry);
                self.emit(OrchEvent::Claimed {
                    session: session.into(),
                });
            }
            Ok(Claim::Conflict { .. }) => {
                Metrics::inc(&self.metrics.claim_conflicts);
                Self::track_mut(&mut self.lock(), session).lost_race = true;
                self.emit(OrchEvent::ClaimConflict {
                    session: session.into(),
                });
            }
            Ok(Claim::Gone) => {
                self.lock().queue.remove(session);
            }
            Err(e) => {
                // The outcome is unknown: the claim may have committed. The next relist shows
                // it as ours (→ adopt) or not. A session whose claims keep failing (a poisoned
                // entry, a broken proxy) backs off per session instead of being retried on
                // every pass.
                self.metrics.api_error(e.status());
                tracing::warn!(session, "claim failed: {e}");
                let mut inner = self.lock();
                let t = Self::track_mut(&mut inner, session);
                t.lost_race = true;
                t.claim_errors = t.claim_errors.saturating_add(1);
                t.retry_at = Some(now() + backoff(t.claim_errors));
            }
        }
    }

    fn take_claim(&self, session: &str, entry: &QueueEntry) {
        let mut inner = self.lock();
        let t = Self::track_mut(&mut inner, session);
        t.held = true;
        t.lost_race = false;
        if t.claim_errors > 0 {
            // The backoff was for claiming; the claim is ours now.
            t.claim_errors = 0;
            t.retry_at = None;
        }
        t.claim_deadline = entry.claim_deadline;
        t.has_token = entry.connect_token.is_some();
        if let Some(token) = &entry.connect_token {
            let previous_sha = inner.claims.get(session).and_then(|c| c.sha.clone());
            inner.claims.insert(
                session.to_string(),
                ClaimInfo {
                    token: token.clone(),
                    gateway: entry.gateway_url.clone(),
                    sha: entry.remote_binary_sha.clone().or(previous_sha),
                },
            );
        }
        inner.queue.insert(session.to_string(), entry.clone());
    }

    /// The view says we hold a claim we do not track (a restart, or a claim whose answer was
    /// lost). Views lag — a release may not have reached it yet — so confirm with an exact read
    /// before taking the session on.
    async fn do_adopt(&self, session: &str) {
        let entry = match self.devin.get(session).await {
            Ok(e) => e,
            Err(e) => {
                self.metrics.api_error(e.status());
                tracing::warn!(session, "cannot confirm a claim to adopt: {e}");
                return;
            }
        };
        let mut inner = self.lock();
        let ours = entry.as_ref().is_some_and(|e| {
            e.phase == Phase::Claimed
                && e.acceptor_id.as_deref() == Some(self.opts.acceptor_id.as_str())
        });
        match entry {
            Some(e) if ours => {
                let t = Self::track_mut(&mut inner, session);
                t.held = true;
                if t.claim_errors > 0 {
                    // A claim whose answer we lost: no reason to wait before serving it.
                    t.claim_errors = 0;
                    t.retry_at = None;
                }
                t.claim_deadline = e.claim_deadline;
                t.observe(Some(e.session_status), now(), self.opts.limits.reread_every);
                inner.queue.insert(session.to_string(), e);
                drop(inner);
                self.emit(OrchEvent::Adopted {
                    session: session.into(),
                });
            }
            Some(e) => {
                inner.queue.insert(session.to_string(), e);
            }
            None => {
                inner.queue.remove(session);
            }
        }
    }

    async fn do_renew(&self, session: &str) {
        match self.devin.claim(session, &self.opts.acceptor_id).await {
            Ok(Claim::Won(entry)) => {
                Metrics::inc(&self.metrics.renewals);
                self.take_claim(session, &entry);
            }
            Ok(Claim::Conflict { message }) => {
                tracing::warn!(session, "lost the claim while renewing: {message}");
                Self::track_mut(&mut self.lock(), session).held = false;
            }
            Ok(Claim::Gone) => Self::track_mut(&mut self.lock(), session).observe(
                None,
                now(),
                self.opts.limits.reread_every,
            ),
            Err(e) => {
                self.metrics.api_error(e.status());
                tracing::warn!(session, "renewing the claim failed: {e}");
            }
        }
    }

    async fn do_reread(&self, session: &str) {
        let result = self.devin.get(session).await;
        let mut inner = self.lock();
        let me = self.opts.acceptor_id.clone();
        match result {
            Ok(entry) => {
                let t = Self::track_mut(&mut inner, session);
                t.last_reread = Some(now());
                if matches!(t.remote, RemoteState::Exited { code: 0, .. }) {
                    t.rereads = t.rereads.saturating_add(1);
                }
                match &entry {
                    Some(e)
                        if e.phase == Phase::Claimed
                            && e.acceptor_id.as_deref() != Some(me.as_str()) =>
                    {
                        t.held = false
                    }
                    Some(e) => {
                        t.observe(Some(e.session_status), now(), self.opts.limits.reread_every)
                    }
                    None => t.observe(None, now(), self.opts.limits.reread_every),
                }
                if entry
                    .as_ref()
                    .is_some_and(|e| e.session_status == SessionStatus::Terminated)
                {
                    Self::saw_terminated(&mut inner, session);
                }
                match entry {
                    Some(e) => {
                        inner.queue.insert(session.to_string(), e);
                    }
                    None => {
                        inner.queue.remove(session);
                    }
                }
            }
            Err(e) => {
                self.metrics.api_error(e.status());
                Self::track_mut(&mut inner, session).last_reread = Some(now());
            }
        }
    }

    /// The sandbox for a session: create it, or start ours; never touch a foreign one.
    async fn ensure_sandbox(&self, session: &str, platform: Platform) -> Result<SandboxInfo> {
        let name = sandbox_name(session);
        let labels = sandbox_labels(session, &self.opts.outpost_id);
        let existing = self.provider.get(&name).await?;
        let sb = match existing {
            Some(sb) => sb,
            None => {
                // Never create a sandbox for a session that has ended: nothing would serve it.
                let status = self.lock().queue.get(session).map(|e| e.session_status);
                if matches!(
                    status,
                    Some(SessionStatus::Terminated | SessionStatus::Suspended)
                ) {
                    anyhow::bail!(
                        "the session is {} — not creating a sandbox for it",
                        status.map(|s| s.as_str()).unwrap_or_default()
                    );
                }
                let source = match (platform, &self.opts.windows_source) {
                    (Platform::Windows, Some(w)) => w.clone(),
                    _ => self.opts.source.clone(),
                };
                let mut spec = SandboxSpec::new(name.clone(), source);
                spec.labels = labels.clone();
                spec.resources = self.opts.resources.clone();
                crate::failpoint!("provision.before_create");
                let created = self.provider.create(&spec).await;
                crate::failpoint!("provision.after_create");
                match created {
                    Ok(sb) => {
                        Metrics::inc(&self.metrics.sandboxes_created);
                        self.emit(OrchEvent::SandboxCreated {
                            session: session.into(),
                            sandbox: sb.id.clone(),
                        });
                        sb
                    }
                    // Created by a call whose answer we lost, or by another replica: adopt it.
                    Err(ProviderError::AlreadyExists(_)) => {
                        self.provider.get(&name).await?.ok_or_else(|| {
                            anyhow::anyhow!("sandbox {name} exists but cannot be read")
                        })?
                    }
                    Err(e) => return Err(e.into()),
                }
            }
        };
        if sb.labels.get(super::LABEL_SESSION) != labels.get(super::LABEL_SESSION)
            || sb.labels.get(LABEL_OUTPOST) != labels.get(LABEL_OUTPOST)
        {
            anyhow::bail!(
                "sandbox {} ({name}) does not carry this session's labels; it is left untouched — rename or remove it",
                sb.id
            );
        }
        self.lock()
            .sandboxes
            .insert(session.to_string(), sb.id.clone());
        let sb = self.wait_started(session, sb).await?;
        Ok(sb)
    }

    async fn wait_started(&self, session: &str, mut sb: SandboxInfo) -> Result<SandboxInfo> {
        let deadline = Instant::now() + self.opts.ready_timeout;
        let mut delay = Duration::from_millis(200);
        let mut started_it = false;
        loop {
            match sb.state {
                SandboxState::Started => {
                    self.emit(OrchEvent::SandboxReady {
                        session: session.into(),
                        sandbox: sb.id.clone(),
                    });
                    return Ok(sb);
                }
                SandboxState::Stopped if !started_it => {
                    self.provider.start(&sb.id).await?;
                    started_it = true;
                    Metrics::inc(&self.metrics.sandboxes_started);
                    self.emit(OrchEvent::SandboxStarted {
                        session: session.into(),
                        sandbox: sb.id.clone(),
                    });
                }
                SandboxState::Error => anyhow::bail!(
                    "sandbox {} is in an error state: {}",
                    sb.id,
                    sb.error_reason
                        .clone()
                        .unwrap_or_else(|| sb.raw_state.clone())
                ),
                SandboxState::Deleted | SandboxState::Deleting => {
                    anyhow::bail!("sandbox {} is being deleted", sb.id)
                }
                _ => {}
            }
            if Instant::now() >= deadline {
                anyhow::bail!(
                    "sandbox {} did not start within {:?} (state {})",
                    sb.id,
                    self.opts.ready_timeout,
                    sb.raw_state
                );
            }
            tokio::time::sleep(delay).await;
            delay = (delay * 2).min(Duration::from_secs(5));
            sb = self
                .provider
                .get(&sb.id)
                .await?
                .ok_or_else(|| anyhow::anyhow!("sandbox {} vanished while starting", sb.id))?;
        }
    }

    async fn clone_repos(&self, sandbox_id: &str, workdir: &str) -> Result<()> {
        for url in &self.opts.repos {
            let name = repo_dir_name(url);
            let path = format!("{}/{name}", workdir.trim_end_matches('/'));
            let probe = crate::provider::ExecRequest::argv(["test", "-d", &format!("{path}/.git")]);
            if self.provider.exec(sandbox_id, &probe).await?.exit_code == 0 {
                continue; // Existing clones are the user's work: leave them alone.
            }
            let req = GitClone {
                url: url.clone(),
                path,
                branch: None,
                username: self
                    .opts
                    .git_token
                    .as_ref()
                    .map(|_| self.opts.git_username.clone()),
                password: self.opts.git_token.clone(),
            };
            self.provider
                .git_clone(sandbox_id, &req)
                .await
                .with_context(|| format!("cloning {url}"))?;
        }
        Ok(())
    }

    async fn do_provision(&self, session: &str) {
        match self.provision(session).await {
            Ok(()) => {}
            Err(e) => self.fail_provision(session, e).await,
        }
    }

    async fn provision(&self, session: &str) -> Result<()> {
        let platform = self
            .lock()
            .queue
            .get(session)
            .map(|e| e.platform)
            .unwrap_or(Platform::Linux);
        let sb = self.ensure_sandbox(session, platform).await?;
        let (workdir, chrome) = match platform {
            Platform::Windows => (
                self.opts.windows_workdir.clone(),
                self.opts.windows_chrome_path.clone(),
            ),
            _ => (self.opts.workdir.clone(), self.opts.chrome_path.clone()),
        };
        if platform != Platform::Windows && !self.opts.repos.is_empty() {
            self.clone_repos(&sb.id, &workdir).await?;
        }
        // A live remote of ours is never launched twice (restart, adopt).
        if let Ok(Liveness::Running(_)) =
            remote::check(self.provider.as_ref(), &sb.id, session, platform).await
        {
            self.set_remote(session, RemoteState::Running { checked_at: now() });
            self.emit(OrchEvent::RemoteRunning {
                session: session.into(),
                sandbox: sb.id.clone(),
            });
            return Ok(());
        }
        // We need a connect token: only a claim response carries one.
        if !self.lock().tracks.get(session).is_some_and(|t| t.has_token) {
            match self.devin.claim(session, &self.opts.acceptor_id).await? {
                Claim::Won(entry) => self.take_claim(session, &entry),
                Claim::Conflict { message } => {
                    Self::track_mut(&mut self.lock(), session).held = false;
                    anyhow::bail!("lost the claim before launching: {message}");
                }
                Claim::Gone => anyhow::bail!("the session left the queue before launching"),
            }
        }
        let claim = self
            .lock()
            .claims
            .get(session)
            .cloned()
            .ok_or_else(|| anyhow::anyhow!("no connect token for {session}"))?;
        let gateway = claim
            .gateway
            .clone()
            .or_else(|| self.opts.gateway_fallback.clone())
            .ok_or_else(|| {
                anyhow::anyhow!(
                    "the claim carries no gateway_url and DEVIN_OUTPOST_GATEWAY_URL is not set"
                )
            })?;
        let machine = if platform == Platform::Windows {
            "x86_64".to_string()
        } else {
            let out = self
                .provider
                .exec(&sb.id, &crate::provider::ExecRequest::argv(["uname", "-m"]))
                .await?;
            out.stdout.trim().to_string()
        };
        let suffix = remote::suffix_for(platform, &machine);
        let binary = match self.opts.launch {
            LaunchMode::Remote => Some(
                remote::resolve(
                    &self.http,
                    &self.opts.static_base,
                    claim.sha.as_deref(),
                    suffix,
                )
                .await?,
            ),
            LaunchMode::Cli => None,
        };
        let plan = LaunchPlan {
            session_id: session.to_string(),
            platform,
            mode: self.opts.launch,
            workdir,
            binary,
            gateway_url: gateway,
            connect_token: claim.token.clone(),
            chrome_path: chrome,
        };
        remote::install(self.provider.as_ref(), &sb.id, &plan).await?;
        crate::failpoint!("provision.before_launch");
        remote::launch(self.provider.as_ref(), &sb.id, &plan).await?;
        crate::failpoint!("provision.after_launch");
        Metrics::inc(&self.metrics.remotes_launched);
        if let Some(b) = &plan.binary {
            self.lock()
                .claims
                .entry(session.to_string())
                .and_modify(|c| c.sha = Some(b.sha.clone()));
        }
        self.emit(OrchEvent::RemoteLaunched {
            session: session.into(),
            sandbox: sb.id.clone(),
        });
        self.set_remote(session, RemoteState::Running { checked_at: now() });
        Ok(())
    }

    fn set_remote(&self, session: &str, remote: RemoteState) {
        let mut inner = self.lock();
        let t = Self::track_mut(&mut inner, session);
        if matches!(remote, RemoteState::Running { .. })
            && !matches!(t.remote, RemoteState::Running { .. })
        {
            t.rereads = 0;
        }
        t.remote = remote;
        let id = inner.sandboxes.get(session).cloned().unwrap_or_default();
        Self::track_mut(&mut inner, session).sandbox = SandboxKnown::Present { id, running: true };
    }

    /// Release on any provisioning failure; stop our sandbox (disk kept); back off.
    async fn fail_provision(&self, session: &str, e: anyhow::Error) {
        self.count_error(&e);
        Metrics::inc(&self.metrics.provision_failures);
        let error = crate::secrets::redact(&format!("{e:#}")).into_owned();
        self.emit(OrchEvent::Failed {
            session: session.into(),
            error,
        });
        let foreign = e
            .to_string()
            .contains("does not carry this session's labels");
        // Stop while we still hold the claim: released first, another replica could claim the
        // session and start this sandbox just before our stop lands on it.
        if !foreign {
            let sandbox = self.lock().sandboxes.get(session).cloned();
            if let Some(id) = sandbox {
                self.stop_sandbox(session, &id).await;
            }
        }
        let held = self.lock().tracks.get(session).is_some_and(|t| t.held);
        if held {
            self.release(session).await;
        }
        let mut inner = self.lock();
        inner.claims.remove(session);
        let t = Self::track_mut(&mut inner, session);
        t.held = false;
        t.has_token = false;
        t.remote = RemoteState::Unknown;
        t.failures += 1;
        t.retry_at = Some(
            now()
                + if foreign || t.failures >= plan::MAX_FAILURES {
                    COOL_OFF
                } else {
                    backoff(t.failures)
                },
        );
    }

    async fn do_check(&self, session: &str) {
        let (sandbox, platform) = {
            let inner = self.lock();
            (
                inner.sandboxes.get(session).cloned(),
                inner
                    .queue
                    .get(session)
                    .map(|e| e.platform)
                    .unwrap_or(Platform::Linux),
            )
        };
        let Some(sandbox) = sandbox else {
            self.set_remote(session, RemoteState::Unknown);
            return;
        };
        match self.provider.get(&sandbox).await {
            Ok(Some(sb)) if sb.state == SandboxState::Started => {}
            Ok(other) => {
                // The provider stopped or removed it under a live session: say so, then serve
                // the session again (a wake of the same sandbox when it still exists).
                Metrics::inc(&self.metrics.sandboxes_lost);
                self.emit(OrchEvent::SandboxLost {
                    session: session.into(),
                    sandbox: sandbox.clone(),
                });
                if other.is_none() {
                    self.lock().sandboxes.remove(session);
                }
                self.set_remote(session, RemoteState::NotRunning);
                return;
            }
            Err(e) => {
                tracing::warn!(session, "cannot read sandbox {sandbox}: {e}");
                self.set_remote(session, RemoteState::Running { checked_at: now() });
                return;
            }
        }
        match remote::check(self.provider.as_ref(), &sandbox, session, platform).await {
            Ok(Liveness::Running(_)) => {
                let mut inner = self.lock();
                let t = Self::track_mut(&mut inner, session);
                t.remote = RemoteState::Running { checked_at: now() };
                t.failures = 0;
            }
            Ok(Liveness::Exited(code)) => {
                self.emit(OrchEvent::RemoteExited {
                    session: session.into(),
                    code,
                });
                let mut inner = self.lock();
                let t = Self::track_mut(&mut inner, session);
                t.remote = RemoteState::Exited { code, at: now() };
                t.rereads = 0;
                if code != 0 {
                    t.failures += 1;
                    t.retry_at = Some(now() + backoff(t.failures));
                }
            }
            Ok(Liveness::Absent) => {
                let mut inner = self.lock();
                let t = Self::track_mut(&mut inner, session);
                t.remote = RemoteState::NotRunning;
                t.failures += 1;
                t.retry_at = Some(now() + backoff(t.failures));
            }
            Err(e) => tracing::warn!(session, "liveness check failed: {e}"),
        }
    }

    async fn release(&self, session: &str) -> bool {
        crate::failpoint!("release.before_post");
        let outcome = self.devin.release(session, &self.opts.acceptor_id).await;
        crate::failpoint!("release.after_response");
        let released = match outcome {
            Ok(Release::Released(entry)) => {
                Metrics::inc(&self.metrics.releases);
                self.emit(OrchEvent::Released {
                    session: session.into(),
                });
                entry
            }
            Ok(Release::AlreadyReleased { .. }) => None,
            Err(e) => {
                self.metrics.api_error(e.status());
                tracing::warn!(session, "release failed: {e}");
                return false;
            }
        };
        // Our view must not keep saying we hold it (that would look like a claim to adopt).
        let mut inner = self.lock();
        match released {
            Some(e) => {
                inner.queue.insert(session.to_string(), e);
            }
            None => {
                if let Some(e) = inner.queue.get_mut(session)
                    && e.acceptor_id.as_deref() == Some(self.opts.acceptor_id.as_str())
                {
                    e.phase = Phase::Pending;
                    e.acceptor_id = None;
                }
            }
        }
        true
    }

    async fn stop_sandbox(&self, session: &str, id: &str) -> bool {
        crate::failpoint!("stop.before");
        match self.provider.stop(id).await {
            Ok(()) => {
                Metrics::inc(&self.metrics.sandboxes_stopped);
                self.emit(OrchEvent::SandboxStopped {
                    session: session.into(),
                    sandbox: id.into(),
                });
                true
            }
            Err(e) => {
                tracing::warn!(session, "stopping sandbox {id} failed: {e}");
                false
            }
        }
    }

    /// End a session: the sandbox first (stop, or delete after `terminated`), then the release.
    ///
    /// The claim is held until the sandbox work is done, so it doubles as a write-ahead record:
    /// a crash in between leaves a claim the next start reattaches to and finishes. Released
    /// first, a crash would leave a sandbox whose session may be swept from the queue before
    /// anyone deleted it — and an absent session is never proof of termination, so nobody
    /// could delete it any more. Holding the claim also keeps other replicas from starting the
    /// sandbox while our stop is on its way.
    async fn do_end(&self, session: &str, kind: EndKind) {
        if !self.end_sandbox(session, kind).await {
            let mut inner = self.lock();
            let t = Self::track_mut(&mut inner, session);
            t.end_failures += 1;
            if t.end_failures < plan::MAX_FAILURES {
                t.end_retry_at = Some(now() + backoff(t.end_failures));
                return;
            }
            // Do not hold the claim (and a slot) forever for a provider that keeps failing;
            // the janitor takes over the sandbox once the session is released.
            tracing::error!(
                session,
                "giving up on the sandbox after {} attempts; releasing the session anyway",
                t.end_failures
            );
        }
        if !self.release(session).await {
            Self::track_mut(&mut self.lock(), session).end_retry_at = Some(now() + 5.0);
            return;
        }
        let mut inner = self.lock();
        inner.claims.remove(session);
        inner.sandboxes.remove(session);
        match kind {
            EndKind::GiveUp => {
                let t = Self::track_mut(&mut inner, session);
                *t = Track {
                    failures: t.failures,
                    retry_at: Some(now() + COOL_OFF),
                    busy: true,
                    ..Track::default()
                };
            }
            _ => {
                inner.tracks.remove(session);
                // Keep a busy placeholder until `execute` clears it, so nothing races the end.
                Self::track_mut(&mut inner, session).busy = true;
            }
        }
    }

    /// The sandbox side of ending; `false` when a provider call failed (retry later).
    async fn end_sandbox(&self, session: &str, kind: EndKind) -> bool {
        let known = self.lock().sandboxes.get(session).cloned();
        let id = match known {
            Some(id) => id,
            None => match self.provider.get(&sandbox_name(session)).await {
                Ok(Some(sb)) => sb.id,
                Ok(None) => return true,
                Err(e) => {
                    tracing::warn!(session, "cannot look the sandbox up: {e}");
                    return false;
                }
            },
        };
        // Act only on a sandbox that still carries this session's labels.
        let current = match self.provider.get(&id).await {
            Ok(Some(sb)) => sb,
            Ok(None) => return true,
            Err(e) => {
                tracing::warn!(session, "cannot read sandbox {id}: {e}");
                return false;
            }
        };
        if janitor::owner(&current, &self.opts.outpost_id) != Some(session) {
            return true;
        }
        match kind {
            EndKind::Terminate => {
                crate::failpoint!("delete.before");
                match self.provider.delete(&id).await {
                    Ok(()) => {
                        Metrics::inc(&self.metrics.sandboxes_deleted);
                        self.emit(OrchEvent::SandboxDeleted {
                            session: session.into(),
                            sandbox: id.clone(),
                        });
                        true
                    }
                    Err(e) => {
                        tracing::warn!(session, "deleting sandbox {id} failed: {e}");
                        false
                    }
                }
            }
            EndKind::Sleep | EndKind::GiveUp => {
                if matches!(
                    current.state,
                    SandboxState::Stopped | SandboxState::Deleted | SandboxState::Deleting
                ) {
                    return true;
                }
                self.stop_sandbox(session, &id).await
            }
        }
    }

    // ---- janitor ---------------------------------------------------------------------------

    /// One janitor sweep, as the loop runs it every `janitor_interval` (for tests and tools).
    pub async fn janitor_pass(self: &Arc<Self>) {
        self.clone().janitor_sweep().await
    }

    async fn janitor_sweep(self: Arc<Self>) {
        let labels: BTreeMap<String, String> =
            [(LABEL_OUTPOST.to_string(), self.opts.outpost_id.clone())]
                .into_iter()
                .collect();
        let sandboxes = match self.provider.list(&labels).await {
            Ok(s) => s,
            Err(e) => {
                tracing::warn!("janitor: cannot list sandboxes: {e}");
                return;
            }
        };
        let grace = self.opts.janitor_grace.as_secs_f64();
        for sb in sandboxes {
            let Some(session) = janitor::owner(&sb, &self.opts.outpost_id).map(str::to_string)
            else {
                continue;
            };
            let (active, age) = {
                let mut inner = self.lock();
                let active = inner.claiming.contains(&session)
                    || inner.tracks.get(&session).is_some_and(|t| t.held || t.busy);
                let seen = *inner.first_seen.entry(sb.id.clone()).or_insert_with(now);
                (active, now() - sb.created_at.unwrap_or(seen))
            };
            // Cheap skips first: no API call for sandboxes we would not touch anyway.
            if active || age < grace {
                continue;
            }
            let lookup = match self.devin.get(&session).await {
                Ok(Some(e)) => {
                    if e.session_status == SessionStatus::Terminated {
                        Self::saw_terminated(&mut self.lock(), &session);
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
            let verdict = janitor::decide(&sb, &self.opts.outpost_id, age, grace, false, &lookup);
            if matches!(verdict, Verdict::Skip(_)) {
                continue;
            }
            // Claim the session locally so the planner does not race us, then confirm with an
            // exact read of the sandbox.
            {
                let mut inner = self.lock();
                let busy = inner.claiming.contains(&session)
                    || inner.tracks.get(&session).is_some_and(|t| t.held || t.busy);
                if busy {
                    continue;
                }
                Self::track_mut(&mut inner, &session).busy = true;
            }
            let confirmed = matches!(self.provider.get(&sb.id).await, Ok(Some(ref cur)) if janitor::owner(cur, &self.opts.outpost_id) == Some(session.as_str()));
            if confirmed {
                crate::failpoint!("janitor.before_act");
                let result = match verdict {
                    Verdict::Delete => self.provider.delete(&sb.id).await.map(|_| "deleted"),
                    _ => self.provider.stop(&sb.id).await.map(|_| "stopped"),
                };
                match result {
                    Ok(action) => {
                        Metrics::inc(&self.metrics.janitor_actions);
                        self.emit(OrchEvent::Janitor {
                            session: session.clone(),
                            sandbox: sb.id.clone(),
                            action: action.into(),
                        });
                    }
                    Err(e) => {
                        tracing::warn!(session = %session, "janitor could not act on {}: {e}", sb.id)
                    }
                }
            }
            let mut inner = self.lock();
            if let Some(t) = inner.tracks.get_mut(&session) {
                t.busy = false;
            }
        }
    }

    // ---- status ----------------------------------------------------------------------------

    fn save_status(&self) {
        let doc = {
            let mut inner = self.lock();
            if !inner.status_dirty {
                return;
            }
            inner.status_dirty = false;
            let sessions: Vec<serde_json::Value> = inner
                .tracks
                .iter()
                .filter(|(_, t)| t.held)
                .map(|(id, t)| {
                    serde_json::json!({
                        "session_id": id,
                        "sandbox_id": inner.sandboxes.get(id),
                        "sandbox_name": sandbox_name(id),
                        "remote": match &t.remote {
                            RemoteState::Unknown => "unknown".to_string(),
                            RemoteState::NotRunning => "not_running".to_string(),
                            RemoteState::Running { .. } => "running".to_string(),
                            RemoteState::Exited { code, .. } => format!("exited {code}"),
                        },
                        "session_status": inner.queue.get(id).map(|e| e.session_status.as_str()),
                        "claim_deadline": t.claim_deadline,
                        "failures": t.failures,
                    })
                })
                .collect();
            serde_json::json!({
                "pid": std::process::id(),
                "outpost_id": self.opts.outpost_id,
                "acceptor_id": self.opts.acceptor_id,
                "updated_at": now(),
                "draining": inner.draining,
                "cap": self.opts.limits.cap,
                "sessions": sessions,
            })
        };
        if let Err(e) = self.state.save_status(&doc) {
            tracing::warn!("cannot write the status file: {e:#}");
        }
    }
}

/// `https://host/org/app.git` → `app`.
pub fn repo_dir_name(url: &str) -> String {
    let last = url
        .trim_end_matches('/')
        .rsplit(['/', ':'])
        .next()
        .unwrap_or("repo");
    let name = last.strip_suffix(".git").unwrap_or(last);
    let clean: String = name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        .collect();
    if clean.is_empty() || clean.starts_with('.') {
        "repo".into()
    } else {
        clean
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repo_names() {
        assert_eq!(repo_dir_name("https://github.com/org/app.git"), "app");
        assert_eq!(repo_dir_name("git@github.com:org/app"), "app");
        assert_eq!(repo_dir_name("/srv/git/lib.git/"), "lib");
        assert_eq!(repo_dir_name("https://x/../.."), "repo");
    }

    #[test]
    fn backoff_grows_and_caps() {
        assert_eq!(backoff(1), 5.0);
        assert_eq!(backoff(2), 10.0);
        assert_eq!(backoff(30), 300.0);
    }
}
