//! The executor's state: the view of the queue, one record per session, and the one map of
//! what is in flight for each session.
//!
//! Every field is private. Stages read through the accessors below and report what changed as
//! [`Change`]s; only `run` applies them ([`Book::apply`] is visible to it alone), so "who
//! writes this" has one answer. "Claiming", "busy" and "launching" are views of the in-flight
//! map, never kept apart: a session has at most one thing in flight, and only the action that
//! put it there takes it out.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use super::change::{
    ActionKind, Capacity, Change, ClaimInfo, LoopChange, RecordChange, ViewChange,
};
use crate::api::devin_types::{Phase, QueueEntry};
use crate::orchestrator::plan::retention::Sleeper;
use crate::orchestrator::plan::{self, Limits, Track};
use crate::orchestrator::session_id::{SessionId, SessionKey};
use crate::orchestrator::sleep::Fleet;
use crate::time::now;

/// Most sessions remembered as terminated (a day's worth at most).
const TERMINATED_MEMORY: usize = 10_000;

/// Everything this instance knows of one session apart from its queue row (the server's).
#[derive(Debug, Default)]
struct Record {
    /// The planner's memory ([`Track::apply`] is the only way it changes).
    track: Option<Track>,
    claim: Option<ClaimInfo>,
    /// The token its remote was launched with, while the claim is held (see `Launched`).
    launch_token: Option<crate::secrets::Secret>,
    /// Its sandbox's id, while held.
    sandbox: Option<String>,
    /// Its sandbox was served from a warm pool (this process's creates).
    served_warm: Option<bool>,
    /// Not served because its network policy cannot be enforced: why, and when. (This and the
    /// other fields set for few sessions are boxed: inline they were 150 of a record's 560
    /// bytes, 10,000 times over.)
    refusal: Option<Box<(String, f64)>>,
    /// The last line of its remote's log, read when it last ended badly.
    exit_log: Option<Box<str>>,
    /// Why its last provisioning attempt failed, and when (cleared by a success).
    failure: Option<Box<(String, f64)>>,
    /// Asleep (kept in the state dir with its absence clock).
    sleeper: Option<Box<Sleeper>>,
    /// When the janitor first saw its sandbox (by id), for providers that do not report a
    /// creation time.
    first_seen: Option<Box<(String, f64)>>,
}

impl Record {
    /// Nothing left worth a record. What only matters while the session is tracked (the warm
    /// flag, the refusal, the exit log) goes with the track.
    fn is_empty(&self) -> bool {
        self.track.is_none()
            && self.claim.is_none()
            && self.sandbox.is_none()
            && self.sleeper.is_none()
            && self.first_seen.is_none()
    }

    fn forget_track(&mut self) {
        self.track = None;
        self.served_warm = None;
        self.refusal = None;
        self.exit_log = None;
        self.failure = None;
    }
}

/// What applying changes asks to be written to the state dir.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct Persist {
    pub sleepers: bool,
    pub terminated: bool,
}

#[derive(Debug)]
pub(in crate::orchestrator) struct Book {
    limits: Limits,
    /// The rows are shared: a relist keeps the row it already has where the listing shows
    /// the same (see [`Book::shared_row`]).
    queue: BTreeMap<String, Arc<QueueEntry>>,
    /// When each claimable row in `queue` was first seen claimable (the planner's share rule).
    pending_since: BTreeMap<String, f64>,
    sessions: BTreeMap<SessionId, Record>,
    in_flight: BTreeMap<SessionId, ActionKind>,
    /// Sessions seen `terminated` (list rows, watch events, reads), with when: the janitor's
    /// proof of termination once the queue has swept the entry.
    terminated: BTreeMap<String, f64>,
    /// The outpost's sandboxes by state, from the last listing.
    fleet: Fleet,
    capacity: Capacity,
    /// The last listing read every entry: an absence in it is evidence.
    view_complete: bool,
    draining: bool,
    relist_due: bool,
    status_dirty: bool,
    /// When the status file was last written.
    status_saved_at: f64,
    /// The short-claim-TTL warning was logged (once per run).
    ttl_warned: bool,
    /// Records a change reached since the last prune: pruning sweeps only these, since a sweep
    /// of all records per batch of changes was O(N) per change (O(N²) in a burst).
    touched: Vec<SessionId>,
    /// A change reached every record (a listing, the sleepers): the next prune sweeps all.
    touched_all: bool,
}

impl Book {
    pub(super) fn new(
        limits: Limits,
        sleepers: BTreeMap<String, Sleeper>,
        terminated: BTreeMap<String, f64>,
    ) -> Book {
        let mut book = Book {
            limits,
            queue: BTreeMap::new(),
            pending_since: BTreeMap::new(),
            sessions: BTreeMap::new(),
            in_flight: BTreeMap::new(),
            terminated,
            fleet: Fleet::default(),
            capacity: Capacity::default(),
            view_complete: false,
            draining: false,
            relist_due: true,
            status_dirty: false,
            status_saved_at: 0.0,
            ttl_warned: false,
            touched: Vec::new(),
            touched_all: false,
        };
        book.set_sleepers(sleepers);
        book
    }

    // ---- views of the in-flight map ----

    /// Claims sent whose answer has not arrived.
    pub fn claiming(&self) -> BTreeSet<String> {
        self.flying(|k| k == ActionKind::Claim)
    }

    /// Sessions with anything but a claim in flight (a janitor act included).
    pub fn busy(&self) -> BTreeSet<String> {
        self.flying(|k| k != ActionKind::Claim)
    }

    /// How many provisionings are in flight.
    pub fn launching(&self) -> usize {
        self.in_flight
            .values()
            .filter(|k| **k == ActionKind::Provision)
            .count()
    }

    pub fn in_flight(&self, session: &(impl SessionKey + ?Sized)) -> Option<ActionKind> {
        self.in_flight.get(session.key()).copied()
    }

    fn flying(&self, keep: impl Fn(ActionKind) -> bool) -> BTreeSet<String> {
        self.in_flight
            .iter()
            .filter(|(_, k)| keep(**k))
            .map(|(s, _)| s.to_string())
            .collect()
    }

    /// This instance is working on the session (claiming, holding, or acting on it): the
    /// janitor and the sleepers' review leave such a session alone.
    pub fn active(&self, session: &(impl SessionKey + ?Sized)) -> bool {
        self.in_flight.contains_key(session.key()) || self.track(session).is_some_and(|t| t.held)
    }

    // ---- reads ----

    pub fn queue(&self) -> &BTreeMap<String, Arc<QueueEntry>> {
        &self.queue
    }

    /// A listed row as the view keeps it: the view's own row when it is the same, else new
    /// and to be put in the view now (`true`, a `Row` change, so the row it replaces is let go
    /// before the listing ends) unless the view's is later. A relist held every
    /// row twice while it read (at 15,000 over three replicas, sharing took the peak per
    /// replica from 68.4-70.9 to 63.8-65.5 MiB).
    pub fn shared_row(&self, e: QueueEntry) -> (Arc<QueueEntry>, bool) {
        match self.queue.get(&e.session_id) {
            Some(v) if **v == e => (v.clone(), false),
            Some(v) if plan::older(&e, v) => (Arc::new(e), false),
            _ => (Arc::new(e), true),
        }
    }

    pub fn pending_since(&self) -> &BTreeMap<String, f64> {
        &self.pending_since
    }

    /// Keep `pending_since` in step with one row of the view.
    fn note_row(&mut self, session: &str, t: f64) {
        match self.queue.get(session) {
            Some(e) if plan::claimable(e) => {
                self.pending_since.entry(session.to_string()).or_insert(t);
            }
            _ => {
                self.pending_since.remove(session);
            }
        }
    }

    pub fn entry(&self, session: &(impl SessionKey + ?Sized)) -> Option<&QueueEntry> {
        self.queue.get(session.key()).map(|e| &**e)
    }

    pub fn track(&self, session: &(impl SessionKey + ?Sized)) -> Option<&Track> {
        self.sessions.get(session.key())?.track.as_ref()
    }

    pub fn tracks(&self) -> impl Iterator<Item = (&SessionId, &Track)> {
        self.sessions
            .iter()
            .filter_map(|(id, r)| r.track.as_ref().map(|t| (id, t)))
    }

    /// The planner's memory, as it takes it.
    pub fn tracks_map(&self) -> BTreeMap<String, Track> {
        self.tracks()
            .map(|(id, t)| (id.to_string(), t.clone()))
            .collect()
    }

    pub fn claim(&self, session: &(impl SessionKey + ?Sized)) -> Option<&ClaimInfo> {
        self.sessions.get(session.key())?.claim.as_ref()
    }

    pub fn sandbox(&self, session: &(impl SessionKey + ?Sized)) -> Option<&str> {
        self.sessions.get(session.key())?.sandbox.as_deref()
    }

    pub fn served_warm(&self, session: &(impl SessionKey + ?Sized)) -> Option<bool> {
        self.sessions.get(session.key())?.served_warm
    }

    /// Refusals of sessions still tracked: (session, reason, when).
    pub fn refusals(&self) -> impl Iterator<Item = (&SessionId, &str, f64)> {
        self.sessions.iter().filter_map(|(id, r)| {
            let (why, at) = r.refusal.as_deref()?;
            r.track.as_ref().map(|_| (id, why.as_str(), *at))
        })
    }

    /// Why the session's last provisioning attempt failed, and when.
    pub fn failure(&self, session: &(impl SessionKey + ?Sized)) -> Option<(&str, f64)> {
        let (why, at) = self.sessions.get(session.key())?.failure.as_deref()?;
        Some((why.as_str(), *at))
    }

    pub fn exit_log(&self, session: &(impl SessionKey + ?Sized)) -> Option<&str> {
        self.sessions.get(session.key())?.exit_log.as_deref()
    }

    pub fn sleeper(&self, session: &(impl SessionKey + ?Sized)) -> Option<&Sleeper> {
        self.sessions.get(session.key())?.sleeper.as_deref()
    }

    pub fn sleepers(&self) -> impl Iterator<Item = (&SessionId, &Sleeper)> {
        self.sessions
            .iter()
            .filter_map(|(id, r)| r.sleeper.as_deref().map(|s| (id, s)))
    }

    /// Sleepers whose sandbox is gone and whose workspace is a snapshot (CoreWeave): asleep,
    /// though no listing shows them.
    pub fn snapshot_sleepers(&self) -> usize {
        self.sleepers()
            .filter(|(_, s)| s.state == crate::orchestrator::plan::retention::SleepState::Snapshot)
            .count()
    }

    pub fn sleepers_map(&self) -> BTreeMap<String, Sleeper> {
        self.sleepers()
            .map(|(id, s)| (id.to_string(), s.clone()))
            .collect()
    }

    pub fn first_seen(&self, session: &(impl SessionKey + ?Sized), sandbox: &str) -> Option<f64> {
        let (id, at) = self.sessions.get(session.key())?.first_seen.as_deref()?;
        (id == sandbox).then_some(*at)
    }

    pub fn known_terminated(&self, session: &(impl SessionKey + ?Sized)) -> bool {
        self.terminated.contains_key(session.key())
    }

    pub(super) fn terminated_map(&self) -> &BTreeMap<String, f64> {
        &self.terminated
    }

    pub fn fleet(&self) -> Fleet {
        self.fleet
    }

    pub fn capacity(&self) -> Capacity {
        self.capacity
    }

    pub fn view_complete(&self) -> bool {
        self.view_complete
    }

    pub fn draining(&self) -> bool {
        self.draining
    }

    pub fn relist_due(&self) -> bool {
        self.relist_due
    }

    pub fn status_dirty(&self) -> bool {
        self.status_dirty
    }

    pub fn status_saved_at(&self) -> f64 {
        self.status_saved_at
    }

    pub fn ttl_warned(&self) -> bool {
        self.ttl_warned
    }

    // ---- the one place state changes ----

    /// Carry one change out; says what must be written to the state dir.
    pub(super) fn apply(&mut self, change: Change, persist: &mut Persist) {
        match change {
            Change::View(c) => self.apply_to_view(c),
            Change::Record(c) => self.apply_to_record(c, persist),
            Change::Loop(c) => self.apply_to_loop(c),
        }
    }

    /// The queue view, the planner's memory and the in-flight map.
    fn apply_to_view(&mut self, change: ViewChange) {
        match change {
            ViewChange::Fold { session, outcome } => {
                let limits = self.limits.clone();
                self.record(session)
                    .track
                    .get_or_insert_with(Track::default)
                    .apply(outcome, now(), &limits);
                self.status_dirty = true;
            }
            ViewChange::Row(e) => {
                let id = e.session_id.clone();
                self.queue.insert(id.clone(), e);
                self.note_row(&id, now());
                self.status_dirty = true;
            }
            ViewChange::RowGone(session) => {
                self.queue.remove(&session);
                self.note_row(&session, now());
                self.status_dirty = true;
            }
            ViewChange::Listed { rows, complete } => self.listed(rows, complete),
            ViewChange::RowReleased { session, acceptor } => {
                if let Some(e) = self.queue.get_mut(session.as_str())
                    && e.acceptor_id.as_deref() == Some(acceptor.as_str())
                {
                    let e = Arc::make_mut(e);
                    e.phase = Phase::Pending;
                    e.acceptor_id = None;
                    self.note_row(session.as_str(), now());
                }
            }
            ViewChange::Start { session, kind } => {
                if let Some(k) = self.in_flight.get(session.as_str()) {
                    // Never two at once: the one in flight keeps its place (and its removal).
                    tracing::error!(
                        session = session.as_str(),
                        "{kind:?} not started: {k:?} is in flight"
                    );
                } else {
                    self.in_flight.insert(session, kind);
                }
            }
            ViewChange::Finish { session, kind } => {
                if self.in_flight.get(session.as_str()) == Some(&kind) {
                    self.in_flight.remove(session.as_str());
                }
                self.status_dirty = true;
            }
        }
    }

    /// A session's record (and the sleepers and terminations kept in the state dir).
    fn apply_to_record(&mut self, change: RecordChange, persist: &mut Persist) {
        match change {
            RecordChange::Claim { session, mut claim } => {
                let r = self.record(session);
                if claim.sha.is_none() {
                    claim.sha = r.claim.as_ref().and_then(|c| c.sha.clone());
                }
                r.claim = Some(claim);
            }
            RecordChange::RemoteSha { session, sha } => {
                if let Some(c) = self.record(session).claim.as_mut() {
                    c.sha = Some(sha);
                }
            }
            RecordChange::Launched { session, token } => {
                self.record(session).launch_token = Some(token)
            }
            RecordChange::LetGo(session) => {
                let r = self.record(session);
                r.claim = None;
                r.launch_token = None;
                r.sandbox = None;
            }
            RecordChange::Sandbox { session, id } => self.record(session).sandbox = id,
            RecordChange::ServedWarm { session, warm } => {
                self.record(session).served_warm = Some(warm);
                self.status_dirty = true;
            }
            RecordChange::Refusal { session, reason } => {
                self.record(session).refusal = reason.map(|r| Box::new((r, now())));
            }
            RecordChange::ExitLog { session, line } => {
                self.record(session).exit_log = Some(line.into())
            }
            RecordChange::Failure { session, reason } => {
                self.record(session).failure = reason.map(|r| Box::new((r, now())));
                self.status_dirty = true;
            }
            RecordChange::Sleeper { session, sleeper } => {
                let r = self.record(session);
                if r.sleeper.is_some() || sleeper.is_some() {
                    r.sleeper = sleeper.map(Box::new);
                    persist.sleepers = true;
                    self.status_dirty = true;
                }
            }
            RecordChange::Sleepers(all) => {
                self.set_sleepers(all);
                persist.sleepers = true;
                self.status_dirty = true;
            }
            RecordChange::Terminated(session) => {
                persist.terminated |= self.saw_terminated(session.into())
            }
            RecordChange::FirstSeen { session, sandbox } => {
                self.record(session).first_seen = Some(Box::new((sandbox, now())));
            }
        }
    }

    /// The loop's own bookkeeping (what the status file shows of it).
    fn apply_to_loop(&mut self, change: LoopChange) {
        match change {
            LoopChange::Fleet(f) => {
                self.fleet = f;
                self.status_dirty = true;
            }
            LoopChange::Capacity(c) => {
                if self.capacity != c {
                    self.capacity = c;
                    self.status_dirty = true;
                }
            }
            LoopChange::TtlWarned => self.ttl_warned = true,
            LoopChange::Draining => self.draining = true,
            LoopChange::RelistDue(due) => self.relist_due = due,
            LoopChange::Dirty => self.status_dirty = true,
            LoopChange::StatusSaved(at) => {
                self.status_dirty = false;
                self.status_saved_at = at;
            }
        }
    }

    /// Drop records with nothing left in them (after a batch of changes).
    pub(super) fn prune(&mut self) {
        let touched = std::mem::take(&mut self.touched);
        if std::mem::take(&mut self.touched_all) {
            self.sessions.retain(|_, r| !r.is_empty());
            return;
        }
        for id in touched {
            if self.sessions.get(&id).is_some_and(Record::is_empty) {
                self.sessions.remove(&id);
            }
        }
    }

    /// The one way to reach a single record: it is remembered for the next [`Self::prune`].
    fn record(&mut self, session: SessionId) -> &mut Record {
        self.touched.push(session.clone());
        self.sessions.entry(session).or_default()
    }

    fn set_sleepers(&mut self, mut all: BTreeMap<String, Sleeper>) {
        self.touched_all = true;
        for (id, r) in self.sessions.iter_mut() {
            r.sleeper = all.remove(id.as_str()).map(Box::new);
        }
        for (id, s) in all {
            self.record(id.into()).sleeper = Some(Box::new(s));
        }
    }

    fn listed(&mut self, mut rows: BTreeMap<String, Arc<QueueEntry>>, complete: bool) {
        self.view_complete = complete;
        // A row the view already has in a later state (our claim's answer came after the
        // listing was read) keeps that state.
        for (id, r) in rows.iter_mut() {
            if let Some(v) = self.queue.get(id)
                && plan::older(r, v)
            {
                *r = v.clone();
            }
        }
        let t = now();
        let in_flight = &self.in_flight;
        self.touched_all = true;
        for (id, r) in self.sessions.iter_mut() {
            let busy = in_flight.get(id).is_some_and(|k| *k != ActionKind::Claim);
            if r.track
                .as_ref()
                .is_some_and(|tr| !plan::keep_track(tr, busy, t))
            {
                r.forget_track();
            }
        }
        self.queue = rows;
        let mut since = std::mem::take(&mut self.pending_since);
        self.pending_since = (self.queue.iter())
            .filter(|(_, e)| plan::claimable(e))
            .map(|(id, _)| (id.clone(), since.remove(id).unwrap_or(t)))
            .collect();
        self.status_dirty = true;
    }

    /// Remember that the server said `session` is terminated (bounded: a day, 10,000 ids);
    /// `true` when it is news (to be written to the state dir before anything acts on it).
    fn saw_terminated(&mut self, session: SessionId) -> bool {
        let t = now();
        if self.terminated.contains_key(session.as_str()) {
            return false;
        }
        if self.terminated.len() >= TERMINATED_MEMORY {
            self.terminated.retain(|_, at| *at > t - 86_400.0);
            while self.terminated.len() >= TERMINATED_MEMORY {
                let oldest = self
                    .terminated
                    .iter()
                    .min_by(|a, b| a.1.total_cmp(b.1))
                    .map(|(k, _)| k.clone());
                match oldest {
                    Some(k) => self.terminated.remove(&k),
                    None => break,
                };
            }
        }
        self.terminated.insert(session.into(), t);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn book() -> Book {
        Book::new(Limits::default(), BTreeMap::new(), BTreeMap::new())
    }

    fn apply(b: &mut Book, changes: impl IntoIterator<Item = Change>) -> Persist {
        let mut persist = Persist::default();
        for c in changes {
            b.apply(c, &mut persist);
        }
        b.prune();
        persist
    }

    fn start(session: &str, kind: ActionKind) -> Change {
        Change::View(ViewChange::Start {
            session: session.into(),
            kind,
        })
    }

    fn finish(session: &str, kind: ActionKind) -> Change {
        Change::View(ViewChange::Finish {
            session: session.into(),
            kind,
        })
    }

    #[test]
    fn one_thing_in_flight_per_session_and_only_its_own_finish_clears_it() {
        let mut b = book();
        apply(&mut b, [start("s", ActionKind::Claim)]);
        // A second start for the same session is refused; its finish must not clear the claim.
        apply(
            &mut b,
            [
                start("s", ActionKind::Provision),
                finish("s", ActionKind::Provision),
            ],
        );
        assert_eq!(b.in_flight("s"), Some(ActionKind::Claim));
        assert!(b.claiming().contains("s") && b.busy().is_empty());
        assert_eq!(b.launching(), 0);
        apply(&mut b, [finish("s", ActionKind::Claim)]);
        assert_eq!(b.in_flight("s"), None);
        // The views: claims apart, every other kind busy, provisionings counted.
        apply(
            &mut b,
            [
                start("a", ActionKind::Provision),
                start("b", ActionKind::Janitor),
                start("c", ActionKind::Claim),
            ],
        );
        assert_eq!(b.busy().into_iter().collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(b.claiming().into_iter().collect::<Vec<_>>(), ["c"]);
        assert_eq!(b.launching(), 1);
        assert!(b.active("b") && b.active("c") && !b.active("s"));
    }

    #[test]
    fn records_hold_what_is_known_and_go_when_nothing_is_left() {
        let mut b = book();
        let claim = |sha: Option<&str>| ClaimInfo {
            token: crate::secrets::Secret::new("t"),
            gateway: None,
            sha: sha.map(str::to_string),
            network_policy: None,
        };
        apply(
            &mut b,
            [
                Change::Record(RecordChange::Claim {
                    session: "s".into(),
                    claim: claim(Some("abc")),
                }),
                Change::Record(RecordChange::Sandbox {
                    session: "s".into(),
                    id: Some("sb-1".into()),
                }),
                // A renewal that pins no build keeps the one launched.
                Change::Record(RecordChange::Claim {
                    session: "s".into(),
                    claim: claim(None),
                }),
            ],
        );
        assert_eq!(b.claim("s").and_then(|c| c.sha.as_deref()), Some("abc"));
        assert_eq!(b.sandbox("s"), Some("sb-1"));
        apply(&mut b, [Change::Record(RecordChange::LetGo("s".into()))]);
        assert!(b.claim("s").is_none() && b.sandbox("s").is_none());
        assert!(b.sessions.is_empty(), "an empty record is dropped");
        // Sleepers and terminations ask to be written to the state dir; only news does.
        let sleeper = Sleeper {
            sandbox: "n".into(),
            sandbox_id: None,
            state: plan::retention::SleepState::Snapshot,
            slept_since: 1.0,
            absent_since: None,
        };
        let p = apply(
            &mut b,
            [Change::Record(RecordChange::Sleeper {
                session: "z".into(),
                sleeper: Some(sleeper),
            })],
        );
        assert!(p.sleepers && !p.terminated);
        assert!(b.sleeper("z").is_some());
        let p = apply(
            &mut b,
            [Change::Record(RecordChange::Terminated("z".into()))],
        );
        assert!(p.terminated);
        let p = apply(
            &mut b,
            [Change::Record(RecordChange::Terminated("z".into()))],
        );
        assert!(!p.terminated, "a termination already known is not news");
        let p = apply(
            &mut b,
            [Change::Record(RecordChange::Sleeper {
                session: "gone".into(),
                sleeper: None,
            })],
        );
        assert!(
            !p.sleepers,
            "forgetting a sleeper that was not one writes nothing"
        );
    }

    #[test]
    fn pruning_reaches_records_emptied_by_one_change_or_by_a_listing() {
        let mut b = book();
        let fold = |s: &str| {
            Change::View(ViewChange::Fold {
                session: s.into(),
                outcome: plan::Outcome::Relisted { began: 0.0 },
            })
        };
        let sandbox = |s: &str, id: Option<&str>| {
            Change::Record(RecordChange::Sandbox {
                session: s.into(),
                id: id.map(str::to_string),
            })
        };
        apply(&mut b, [fold("a"), fold("b"), sandbox("c", Some("sb"))]);
        assert_eq!(b.sessions.len(), 3);
        // One change empties one record: only that record is swept, and it goes.
        apply(&mut b, [sandbox("c", None)]);
        assert!(!b.sessions.contains_key("c"));
        // A listing without their rows forgets both tracks at once: both records go.
        apply(
            &mut b,
            [Change::View(ViewChange::Listed {
                rows: BTreeMap::new(),
                complete: true,
            })],
        );
        assert!(b.sessions.is_empty(), "left: {:?}", b.sessions.keys());
        assert!(b.touched.is_empty() && !b.touched_all);
    }

    fn row(updated: f64, acceptor: Option<&str>) -> QueueEntry {
        let phase = if acceptor.is_some() {
            "claimed"
        } else {
            "pending"
        };
        QueueEntry::from_value(&serde_json::json!({
            "metadata": {"session_id": "s", "updated_at": updated},
            "status": {"phase": phase, "acceptor_id": acceptor, "session_status": "running"},
        }))
        .unwrap()
    }

    /// A complete listing of row `s` alone.
    fn listed(r: QueueEntry) -> Change {
        Change::View(ViewChange::Listed {
            rows: [("s".to_string(), Arc::new(r))].into(),
            complete: true,
        })
    }

    #[test]
    fn a_listing_read_before_our_claim_does_not_undo_it() {
        let mut b = book();
        apply(
            &mut b,
            [Change::View(ViewChange::Row(row(10.0, Some("me")).into()))],
        );
        apply(&mut b, [listed(row(9.0, None))]);
        assert_eq!(b.queue()["s"].acceptor_id.as_deref(), Some("me"));
        apply(&mut b, [listed(row(11.0, None))]);
        assert_eq!(b.queue()["s"].acceptor_id, None);
    }

    /// A relist holds a row twice only when it changed: the same row read again is the view's
    /// own (shared), a changed one is new.
    #[test]
    fn a_relisted_row_that_did_not_change_is_the_views_own() {
        let mut b = book();
        apply(
            &mut b,
            [Change::View(ViewChange::Row(
                row(10.0, Some("peer")).into(),
            ))],
        );
        let held = b.queue()["s"].clone();
        let (same, put) = b.shared_row(row(10.0, Some("peer")));
        assert!(
            Arc::ptr_eq(&same, &held),
            "the same row read again is held twice"
        );
        assert!(!put);
        // Read before the view's row: not put in the view (the listing's end keeps the later).
        assert!(!b.shared_row(row(9.0, None)).1);
        let (changed, put) = b.shared_row(row(11.0, None));
        assert!(put && !Arc::ptr_eq(&changed, &held));
        apply(&mut b, [Change::View(ViewChange::Row(changed.clone()))]);
        assert!(Arc::ptr_eq(&b.queue()["s"], &changed));
        assert!(
            b.pending_since().contains_key("s"),
            "a claimable row's clock starts"
        );
        apply(&mut b, [listed(row(10.0, Some("peer")))]);
        assert_eq!(b.queue()["s"].acceptor_id, None, "the later row stays");
        apply(
            &mut b,
            [Change::View(ViewChange::Row(
                row(12.0, Some("peer")).into(),
            ))],
        );
        let held = b.queue()["s"].clone();
        // Releasing a shared row changes the view's row alone, not a listing's copy of it.
        apply(
            &mut b,
            [Change::View(ViewChange::RowReleased {
                session: "s".into(),
                acceptor: "peer".into(),
            })],
        );
        assert_eq!(b.queue()["s"].acceptor_id, None);
        assert_eq!(held.acceptor_id.as_deref(), Some("peer"));
    }

    /// The share rule's clock: a row's first sighting as claimable survives relistings and
    /// repeated events, and goes once the row is claimed or gone.
    #[test]
    fn a_claimable_row_keeps_its_first_sighting_until_it_is_taken() {
        let mut b = book();
        apply(
            &mut b,
            [Change::View(ViewChange::Row(row(1.0, None).into()))],
        );
        let first = b.pending_since()["s"];
        std::thread::sleep(std::time::Duration::from_millis(20));
        apply(&mut b, [listed(row(2.0, None))]);
        apply(
            &mut b,
            [Change::View(ViewChange::Row(row(3.0, None).into()))],
        );
        assert_eq!(b.pending_since()["s"], first);
        apply(
            &mut b,
            [Change::View(ViewChange::Row(row(4.0, Some("peer")).into()))],
        );
        assert!(b.pending_since().is_empty());
        apply(&mut b, [listed(row(5.0, None))]);
        assert!(
            b.pending_since()["s"] > first,
            "a new sighting after the claim"
        );
        apply(&mut b, [Change::View(ViewChange::RowGone("s".into()))]);
        assert!(b.pending_since().is_empty());
    }
}
