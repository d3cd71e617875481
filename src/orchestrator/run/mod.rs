//! The executor's core: the reconcile loop, the dispatch of actions, and the one place the
//! state changes ([`Orchestrator::record`], [`Orchestrator::update`]).
//!
//! Each pass plans (pure, `plan/`) from the current view and carries the actions out with
//! bounded concurrency, one action per session at a time. The stages that talk to the world
//! live beside this module: `observe.rs` (list, watch, reattach, re-read), `claim.rs` (claim,
//! renew, adopt), `provision.rs` (sandbox, repos, remote, liveness), `end.rs` (stop, delete,
//! release), `sweep.rs` and `sleep.rs` (the janitor). They read the state ([`Book`]), report
//! typed outcomes and [`Change`]s, and decide nothing.

mod book;
mod change;
mod dispatch;
mod events;
mod options;
mod pace;
#[cfg(test)]
mod probe;
mod view;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use tokio::sync::{Notify, Semaphore, broadcast, watch};
use tokio::task::{JoinHandle, JoinSet};

pub(super) use book::Book;
pub use change::Capacity;
pub(super) use change::{ActionKind, Change, ClaimInfo, LoopChange, RecordChange, ViewChange};
pub use events::{EndHow, OrchEvent};
pub use options::RunOptions;
pub(super) use pace::CURSOR_EVERY;
pub(super) use view::SessionView;

use super::metrics::Metrics;
use super::plan::{self, Action, Observed, Outcome};
use super::state::OutpostState;
use crate::api::HttpClient;
use crate::api::devin::DevinClient;
use crate::provider::Provider;
use crate::time::now;

pub struct Orchestrator {
    pub(super) devin: DevinClient,
    pub(super) provider: Arc<dyn Provider>,
    pub(super) opts: RunOptions,
    pub(super) state: OutpostState,
    /// Which remote build to run, with its checksums (cached).
    pub(super) remotes: super::remote::Resolver,
    book: Mutex<Book>,
    pub(super) notify: Notify,
    pub metrics: Arc<Metrics>,
    events: broadcast::Sender<OrchEvent>,
    /// Each session's latest event in words, with when (for `orchestrator status`). Apart from
    /// the book because events are emitted with and without that lock held.
    last_events: Mutex<BTreeMap<String, (OrchEvent, f64)>>,
    /// A sandbox was created, started, stopped or deleted since the sandboxes were last counted.
    pub(super) fleet_changed: std::sync::atomic::AtomicBool,
    /// Each session's last wake-integrity check (`integrity/`), for the status file.
    pub(super) wake_checks: super::integrity::WakeChecks,
    /// The failure records (`failures.json`) and each session's last events.
    pub(super) failures: super::failures::FailureStore,
    /// Which snapshots are quarantined (`placing.rs`).
    pub(super) placing: super::placing::Placing,
    /// The outpost's cost ledger.
    pub(super) cost: super::cost::CostHook,
    /// Warm capacity (`warm/`).
    pub(super) warm: super::warm::Warm,
}

/// A read of the state; the lock is held while it lives, so keep it short and never across an
/// `.await`.
pub(super) struct Reading<'a>(MutexGuard<'a, Book>);

impl std::ops::Deref for Reading<'_> {
    type Target = Book;
    fn deref(&self) -> &Book {
        &self.0
    }
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
        let book = Book::new(
            opts.limits.clone(),
            state.sleepers(),
            state.terminated(now()),
        );
        let remotes = super::remote::Resolver::new(http.clone(), &opts.static_base);
        let failures = super::failures::FailureStore::open(state.dir());
        let metrics = Arc::new(Metrics::new(provider.kind(), opts.reconcile_interval));
        let provider = super::metrics::instrument(provider, metrics.clone());
        let placing = super::placing::Placing::load(&state);
        let cost = super::cost::CostHook::open(&state, &opts, provider.kind(), &http);
        metrics.set_spend_ceiling(opts.cost_alert_hourly.unwrap_or(f64::INFINITY));
        // One warm sandbox's hourly cost: the operator's figure, else the price table's running
        // rate for the sandbox size sessions get (what the spend ceiling divides by).
        let mut warm_settings = opts.warm.clone();
        if warm_settings.sandbox_hourly_cost.is_none() {
            let size = super::cost::resources(provider.kind(), &opts.resources);
            warm_settings.sandbox_hourly_cost = Some(
                opts.prices
                    .hourly(&size, crate::cost::prices::CostState::Running),
            );
        }
        let warm = super::warm::Warm::new(warm_settings, super::warm::generation(&opts.source));
        Arc::new(Orchestrator {
            devin,
            provider,
            remotes,
            opts,
            state,
            book: Mutex::new(book),
            notify: Notify::new(),
            metrics,
            events,
            last_events: Mutex::new(BTreeMap::new()),
            fleet_changed: std::sync::atomic::AtomicBool::new(false),
            wake_checks: Default::default(),
            failures,
            placing,
            cost,
            warm,
        })
    }

    /// Narration of what the orchestrator does.
    pub fn subscribe(&self) -> broadcast::Receiver<OrchEvent> {
        self.events.subscribe()
    }

    pub(super) fn emit(&self, ev: OrchEvent) {
        ev.log();
        self.note_failure_event(&ev);
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
        self.cost_on_event(&ev);
        if let OrchEvent::SandboxCreated { session, warm, .. } = &ev {
            self.record([Change::Record(RecordChange::ServedWarm {
                session: session.clone(),
                warm: *warm,
            })]);
        }
        let _ = self.events.send(ev);
    }

    /// Each session's latest event (words, when), sorted by session; forgets those older than
    /// an hour.
    pub(super) fn last_events_snapshot(&self) -> Vec<(String, OrchEvent, f64)> {
        let mut map = self.last_events.lock().unwrap_or_else(|e| e.into_inner());
        let t = now();
        map.retain(|_, (_, at)| t - *at < 3600.0);
        map.iter()
            .map(|(s, (ev, at))| (s.clone(), ev.clone(), *at))
            .collect()
    }

    fn lock(&self) -> MutexGuard<'_, Book> {
        self.book.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Read the state.
    pub(super) fn book(&self) -> Reading<'_> {
        Reading(self.lock())
    }

    /// Apply what a stage reports.
    pub(super) fn record(&self, changes: impl IntoIterator<Item = Change>) {
        let mut book = self.lock();
        self.apply(&mut book, changes);
    }

    /// Read and report under one lock: a decision and what it marks must see the same state
    /// (the janitor's local claim of a session, the capacity note).
    pub(super) fn update<R>(&self, f: impl FnOnce(&Book) -> (R, Vec<Change>)) -> R {
        let mut book = self.lock();
        let (r, changes) = f(&book);
        self.apply(&mut book, changes);
        r
    }

    /// The one place the state changes; what must outlive a crash is written before the lock
    /// is let go.
    fn apply(&self, book: &mut Book, changes: impl IntoIterator<Item = Change>) {
        let mut persist = book::Persist::default();
        for c in changes {
            book.apply(c, &mut persist);
        }
        book.prune();
        if persist.terminated
            && let Err(e) = self.state.save_terminated(book.terminated_map(), now())
        {
            tracing::warn!("cannot save the terminated sessions: {e:#}");
        }
        if persist.sleepers
            && let Err(e) = self.state.save_sleepers(&book.sleepers_map())
        {
            tracing::warn!("cannot save the sleeping sessions: {e:#}");
        }
        if persist.sleepers {
            self.cost_on_sleepers(&book.sleepers_map());
        }
    }

    /// Run until `shutdown` turns true; then stop claiming, let in-flight work finish (bounded)
    /// and return, leaving sandboxes and remotes running for the next start.
    pub async fn run(self: Arc<Self>, mut shutdown: watch::Receiver<bool>) -> Result<()> {
        self.init_placement_metrics();
        self.reattach()
            .await
            .context("cannot read the claims this instance holds")?;
        let cursor = self
            .relist()
            .await
            .context("cannot list the session queue")?;
        let watcher = tokio::spawn(self.clone().watch_loop(cursor));
        // At most MAX_IN_FLIGHT actions talk to the APIs at once: with one permit per session, a
        // burst of 10,000 claims opened 10,000 connections at once (their buffers were most of
        // the peak RSS); the others are planned again when a permit frees.
        let permits = Arc::new(Semaphore::new(
            (self.opts.limits.cap.max(1) + 2).min(MAX_IN_FLIGHT),
        ));
        let mut tasks: JoinSet<()> = JoinSet::new();
        let mut chores = Chores::new(self.opts.janitor_interval);
        let mut drain_deadline: Option<Instant> = None;
        let mut last_pass = Instant::now();
        let mut pass_took = Duration::ZERO;

        loop {
            wedge_point();
            // Not poll_until: the reconcile loop's wake-up (a change or 500 ms), not a wait for a
            // state.
            tokio::select! {
                _ = self.notify.notified() => {}
                _ = tokio::time::sleep(Duration::from_millis(500)) => {}
                changed = shutdown.changed(), if drain_deadline.is_none() => {
                    if changed.is_err() || *shutdown.borrow() {
                        tracing::info!("draining: no new claims; sandboxes and remotes stay up");
                        self.record([Change::Loop(LoopChange::Draining)]);
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
            // Passes at most every `cap × 10 µs` (100 ms at 10,000): each completed action wakes
            // the loop, so passes grew with N and each costs O(N) — O(N²) in all.
            // And at least twenty times what the last pass took (`pace.rs`).
            let gap = pace::pass_gap(min_pass_gap(self.opts.limits.cap), pass_took)
                .saturating_sub(last_pass.elapsed());
            // Not poll_until: the minimum gap between reconcile passes, not a wait for a state.
            if !gap.is_zero() {
                tokio::time::sleep(gap).await;
            }
            last_pass = Instant::now();
            self.chores(&mut chores).await;
            let started = Instant::now();
            // No new claim while every snapshot is quarantined (`plan/placement.rs`).
            dispatch::dispatch(
                plan::placement::gate(self.plan_now(), self.may_claim()),
                &permits,
                |action| self.mark(action),
                |action, permit| {
                    let me = self.clone();
                    tasks.spawn(async move {
                        let _permit = permit;
                        me.execute(action).await;
                        me.notify.notify_one();
                    });
                },
            );
            self.warm_tick(false);
            self.metrics.reconciled(started.elapsed());
            self.note_capacity();
            self.note_cost();
            self.save_status();
            pass_took = started.elapsed();
        }
        watcher.abort();
        chores.abort();
        tasks.abort_all();
        self.warm_drain().await;
        self.record([Change::Loop(LoopChange::Dirty)]);
        self.save_status();
        Ok(())
    }

    /// The loop's housekeeping between passes: the relist when due, the janitor every
    /// `janitor_interval`, and a recount of the sandboxes after they changed.
    async fn chores(self: &Arc<Self>, c: &mut Chores) {
        let relist_due = self.update(|b| {
            (
                b.relist_due(),
                vec![Change::Loop(LoopChange::RelistDue(false))],
            )
        });
        if relist_due || c.last_relist.elapsed() >= self.opts.reconcile_interval {
            match self.relist().await {
                Ok(_) => c.last_relist = Instant::now(),
                Err(e) => {
                    self.count_error(&e);
                    self.metrics.relisted(false);
                    tracing::warn!("relist failed, retrying: {e:#}");
                    self.record([Change::Loop(LoopChange::RelistDue(true))]);
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
            }
        }
        let idle = |j: &Option<JoinHandle<()>>| j.as_ref().is_none_or(|j| j.is_finished());
        if c.last_janitor.elapsed() >= self.opts.janitor_interval && idle(&c.janitor) {
            c.last_janitor = Instant::now();
            c.janitor = Some(tokio::spawn(self.clone().janitor_sweep()));
        }
        // Paced by what the last recount took: a listing of every sandbox, which each launch
        // made due again (`pace.rs`).
        let took = Duration::from_micros(c.recount_took.load(std::sync::atomic::Ordering::Relaxed));
        if idle(&c.janitor)
            && idle(&c.recount)
            && c.recount_started.elapsed() >= pace::recount_gap(took)
            && self
                .fleet_changed
                .swap(false, std::sync::atomic::Ordering::Relaxed)
        {
            c.recount_started = Instant::now();
            let (me, took) = (self.clone(), c.recount_took.clone());
            c.recount = Some(tokio::spawn(async move {
                let started = Instant::now();
                me.recount_fleet().await;
                let us = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX);
                took.store(us, std::sync::atomic::Ordering::Relaxed);
            }));
        }
    }

    fn plan_now(&self) -> Vec<Action> {
        let book = self.lock();
        self.metrics.observe_sessions(&book);
        let tracks = book.tracks_map();
        let claiming = book.claiming();
        let busy = book.busy();
        plan::plan(&Observed {
            now: now(),
            acceptor_id: &self.opts.acceptor_id,
            queue: book.queue(),
            pending_since: book.pending_since(),
            tracks: &tracks,
            claiming: &claiming,
            busy: &busy,
            launching: book.launching(),
            limits: &self.opts.limits,
            draining: book.draining(),
        })
    }

    /// An action is in flight for its session until [`Self::execute`] returns. `false` (and
    /// nothing dispatched) if something already is: one action per session at a time.
    fn mark(&self, action: &Action) -> bool {
        let session = action.session().clone();
        self.update(|book| {
            if let Some(k) = book.in_flight(&session) {
                tracing::debug!(
                    session = session.as_str(),
                    "{action:?} waits: {k:?} is in flight"
                );
                return (false, vec![]);
            }
            self.metrics.on_action(action, book);
            let kind = ActionKind::of(action);
            (
                true,
                vec![Change::View(ViewChange::Start { session, kind })],
            )
        })
    }

    async fn execute(self: &Arc<Self>, action: Action) {
        let session = action.session().clone();
        // The session as the book shows it now: the stage acts on this view.
        let view = SessionView::of(&self.book(), &session);
        let outcome = match &action {
            Action::Claim { .. } => self.claim(&session).await,
            Action::Adopt { .. } => self.adopt(&session).await,
            Action::Renew { .. } => self.renew(&session).await,
            Action::Provision { .. } => self.provision(&view).await,
            Action::CheckRemote { .. } => self.check(&view).await,
            Action::Reread { .. } => self.reread(&session).await,
            Action::End { kind, sandbox, .. } => self.end(&view, *kind, *sandbox).await,
        };
        self.metrics.on_outcome(&session, outcome.as_ref());
        let mut changes = Vec::new();
        // Claimed or served again: no longer asleep.
        if matches!(
            outcome,
            Some(
                Outcome::Claimed(plan::ClaimResult::Won { .. })
                    | Outcome::Provisioned(plan::ProvisionResult::Served)
            )
        ) {
            changes.push(Change::Record(RecordChange::Sleeper {
                session: session.clone(),
                sleeper: None,
            }));
        }
        if let Some(outcome) = outcome {
            changes.push(Change::View(ViewChange::Fold {
                session: session.clone(),
                outcome,
            }));
        }
        // Only this action's own entry goes: whatever else the map holds for the session is
        // left in flight (clearing another's entry is how a double provision once happened).
        changes.push(Change::View(ViewChange::Finish {
            session,
            kind: ActionKind::of(&action),
        }));
        self.record(changes);
    }

    pub(super) fn count_error(&self, e: &anyhow::Error) {
        let status = e
            .chain()
            .find_map(|c| c.downcast_ref::<crate::api::ApiError>())
            .and_then(|a| a.status());
        self.metrics.api_error(status);
    }
}

/// The failpoint `reconcile.pass` (debug builds), hit before every pass: a test wedges the loop
/// here (`sleep:MS`) and watches the liveness probe fail. The sleep blocks in place, so this
/// worker's other tasks (the metrics server's among them) move to another thread and keep
/// running, as they would while a real wedge holds only the loop.
fn wedge_point() {
    #[cfg(debug_assertions)]
    {
        use tokio::runtime::{Handle, RuntimeFlavor};
        if !crate::failpoint::armed() {
            return;
        }
        if Handle::try_current().is_ok_and(|h| h.runtime_flavor() == RuntimeFlavor::MultiThread) {
            tokio::task::block_in_place(|| crate::failpoint!("reconcile.pass"));
        } else {
            crate::failpoint!("reconcile.pass");
        }
    }
}

/// Most actions executing at once, whatever the cap.
const MAX_IN_FLIGHT: usize = 256;

/// Least time between two reconcile passes for a cap of `cap` sessions (none below 1,000).
fn min_pass_gap(cap: usize) -> Duration {
    if cap < 1000 {
        return Duration::ZERO;
    }
    Duration::from_micros(10 * cap as u64).min(Duration::from_millis(100))
}

/// The loop's background chores and when they last ran.
struct Chores {
    last_relist: Instant,
    last_janitor: Instant,
    janitor: Option<JoinHandle<()>>,
    recount: Option<JoinHandle<()>>,
    recount_started: Instant,
    /// How long the last recount took, in µs.
    recount_took: Arc<std::sync::atomic::AtomicU64>,
}

impl Chores {
    fn new(janitor_interval: Duration) -> Chores {
        Chores {
            last_relist: Instant::now(),
            // The first janitor pass runs at once: until it has listed the outpost's sandboxes,
            // `orchestrator status` could only guess how many there are.
            last_janitor: Instant::now()
                .checked_sub(janitor_interval)
                .unwrap_or_else(Instant::now),
            janitor: None,
            recount: None,
            recount_started: Instant::now(),
            recount_took: Default::default(),
        }
    }

    fn abort(&self) {
        for j in [&self.janitor, &self.recount].into_iter().flatten() {
            j.abort();
        }
    }
}

/// Sessions given up and cooling off: why, until when, and the last line their remote logged.
pub(super) fn given_up(book: &Book) -> Vec<super::report::GivenUpRow> {
    let t_now = now();
    book.tracks()
        .filter(|(_, t)| !t.held && t.retry_at.is_some_and(|r| r > t_now))
        .filter_map(|(id, t)| {
            let why = t.gave_up?;
            Some(super::report::GivenUpRow {
                session_id: id.to_string(),
                reason: why.to_string(),
                retry_at: t.retry_at,
                last_log: book.exit_log(id).map(str::to_string),
                last_error: book.failure(id).map(|(why, _)| why.to_string()),
            })
        })
        .collect()
}
