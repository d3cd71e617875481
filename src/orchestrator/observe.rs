//! Observation: the claims we hold at start-up, full relists, the watch stream, and exact
//! re-reads. Each keeps the view of the queue current and hands what it saw of each session to
//! the planner as a [`Sighting`]; none decides what a sighting means.
//!
//! The list is the source of truth; the watch only wakes the loop and feeds sightings. Every gap
//! in the watch, and every `reconcile_interval`, triggers a full relist.

use std::collections::BTreeMap;

use anyhow::Result;

use super::plan::{self, Outcome, Sighting};
use super::run::{Inner, Orchestrator};
use super::state::OutpostState;
use crate::api::devin::ListQuery;
use crate::api::devin_types::{EventType, Phase, QueueEntry, SessionStatus};
use crate::api::sse::WatchItem;
use crate::time::now;

/// Most sessions remembered as terminated (a day's worth at most).
const TERMINATED_MEMORY: usize = 10_000;

impl Orchestrator {
    /// Start-up: the claims the server says this acceptor holds.
    pub(super) async fn reattach(&self) -> Result<()> {
        let q = ListQuery {
            outpost: Some(self.opts.outpost_id.clone()),
            phase: Some(Phase::Claimed),
            acceptor_id: Some(self.opts.acceptor_id.clone()),
            ..ListQuery::default()
        };
        let list = self.devin.list(&q).await?;
        let mut inner = self.lock();
        for e in list.entries {
            if plan::holder(&e, &self.opts.acceptor_id) != plan::Holder::Me {
                continue;
            }
            let outcome = Outcome::Reattached {
                deadline: e.claim_deadline,
            };
            Self::apply_locked(&mut inner, &e.session_id, outcome, &self.opts.limits);
            self.emit(super::run::OrchEvent::Adopted {
                session: e.session_id.clone(),
            });
            inner.queue.insert(e.session_id.clone(), e);
        }
        Ok(())
    }

    /// Full list → the view. Returns the cursor to watch from.
    pub(super) async fn relist(&self) -> Result<Option<String>> {
        let q = ListQuery {
            outpost: Some(self.opts.outpost_id.clone()),
            ..ListQuery::default()
        };
        let list = self.devin.list(&q).await?;
        self.metrics.relisted(true);
        let mut inner = self.lock();
        let fresh: BTreeMap<String, QueueEntry> = list
            .entries
            .into_iter()
            .map(|e| (e.session_id.clone(), e))
            .collect();
        // Entries we could not read may be any session, ours included: then a session missing
        // from the listing is not evidence that it left the queue.
        let complete = list.skipped == 0;
        inner.view_complete = complete;
        let me = &self.opts.acceptor_id;
        let ids: Vec<String> = inner.tracks.keys().cloned().collect();
        for id in ids {
            Self::apply_locked(&mut inner, &id, Outcome::Relisted, &self.opts.limits);
            let held = inner.tracks.get(&id).is_some_and(|t| t.held);
            let sighting = match fresh.get(&id) {
                Some(e) => plan::sighting(e, me, true),
                None if complete => Sighting::absent(),
                None => {
                    if held {
                        tracing::warn!(session = %id, "not in a listing with unreadable entries: not counted as absent");
                    }
                    continue;
                }
            };
            if held && sighting.holder == plan::Holder::Other {
                tracing::warn!(session = %id, "another acceptor holds this session now; leaving it");
            }
            Self::apply_locked(&mut inner, &id, Outcome::Seen(sighting), &self.opts.limits);
        }
        for e in fresh.values() {
            if e.session_status == SessionStatus::Terminated {
                saw_terminated(&self.state, &mut inner, &e.session_id);
            }
        }
        let Inner { tracks, busy, .. } = &mut *inner;
        plan::forget(tracks, busy, now());
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

    pub(super) async fn watch_loop(self: std::sync::Arc<Self>, cursor: Option<String>) {
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
                    self.metrics.watch_gap();
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
        // A DELETED event carries the entry's last state: `terminated` is proof enough.
        if entry.session_status == SessionStatus::Terminated {
            saw_terminated(&self.state, &mut inner, &id);
        }
        let sighting = match kind {
            EventType::Deleted => {
                inner.queue.remove(&id);
                Sighting::absent()
            }
            EventType::Modified | EventType::Added => {
                let s = plan::sighting(&entry, &self.opts.acceptor_id, false);
                inner.queue.insert(id.clone(), entry);
                s
            }
            EventType::Unknown => return,
        };
        if inner.tracks.contains_key(&id) {
            Self::apply_locked(&mut inner, &id, Outcome::Seen(sighting), &self.opts.limits);
        }
        inner.status_dirty = true;
    }

    /// GET the session's status once.
    pub(super) async fn reread(&self, session: &str) -> Option<Outcome> {
        let result = self.devin.get(session).await;
        let mut inner = self.lock();
        match result {
            Ok(entry) => {
                let sighting = match &entry {
                    Some(e) => plan::sighting(e, &self.opts.acceptor_id, false),
                    None => Sighting::absent(),
                };
                match entry {
                    Some(e) => {
                        if e.session_status == SessionStatus::Terminated {
                            saw_terminated(&self.state, &mut inner, session);
                        }
                        inner.queue.insert(session.to_string(), e);
                    }
                    None => {
                        inner.queue.remove(session);
                    }
                }
                Some(Outcome::Reread(Some(sighting)))
            }
            Err(e) => {
                self.metrics.api_error(e.status());
                Some(Outcome::Reread(None))
            }
        }
    }
}

/// Remember that the server said `session` is terminated (bounded: a day, 10,000 ids).
///
/// A first sighting is written to the state dir at once, before anything acts on it, so a
/// crash between seeing the termination and deleting the sandbox does not forget it.
pub(super) fn saw_terminated(state: &OutpostState, inner: &mut Inner, session: &str) {
    let t = now();
    if inner.terminated_seen.contains_key(session) {
        return;
    }
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
    if let Err(e) = state.save_terminated(&inner.terminated_seen, t) {
        tracing::warn!("cannot save the terminated sessions: {e:#}");
    }
}
