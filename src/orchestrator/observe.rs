//! Observation: the claims we hold at start-up, full relists, the watch stream, and exact
//! re-reads. Each keeps the view of the queue current and hands what it saw of each session to
//! the planner as a [`Sighting`]; none decides what a sighting means.
//!
//! The list is the source of truth; the watch only wakes the loop and feeds sightings. Every gap
//! in the watch, and every `reconcile_interval`, triggers a full relist.

use anyhow::Result;

use super::plan::{self, Outcome, Sighting};
use super::run::{Change, LoopChange, Orchestrator, RecordChange, ViewChange};
use crate::api::devin::ListQuery;
use crate::api::devin_types::{EventType, Phase, QueueEntry, SessionStatus};
use crate::api::sse::WatchItem;
use crate::orchestrator::SessionId;

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
        for e in list.entries {
            if plan::holder(&e, &self.opts.acceptor_id) != plan::Holder::Me {
                continue;
            }
            let session = SessionId::from(&e.session_id);
            let outcome = Outcome::Reattached {
                deadline: e.claim_deadline,
            };
            self.record([Change::View(ViewChange::Fold {
                session: session.clone(),
                outcome,
            })]);
            self.emit(super::run::OrchEvent::Adopted {
                session: session.clone(),
            });
            self.record([Change::View(ViewChange::Row(e.into()))]);
        }
        Ok(())
    }

    /// Full list → the view. Returns the cursor to watch from.
    pub(super) async fn relist(&self) -> Result<Option<String>> {
        let q = ListQuery {
            outpost: Some(self.opts.outpost_id.clone()),
            ..ListQuery::default()
        };
        let began = crate::time::now();
        // Each row read is the view's own where they are the same, and a changed one goes into
        // the view as it arrives: a relist never holds the queue twice. What the listing says
        // of each session is folded below, once it is whole.
        let list = (self.devin)
            .list_keyed(&q, |e| {
                self.update(|book| match book.shared_row(e) {
                    (row, true) => (row.clone(), vec![Change::View(ViewChange::Row(row))]),
                    (row, false) => (row, Vec::new()),
                })
            })
            .await?;
        self.metrics.relisted(true);
        let fresh = list.entries;
        // Entries we could not read may be any session, ours included: then a session missing
        // from the listing is not evidence that it left the queue.
        let complete = list.skipped == 0;
        let me = &self.opts.acceptor_id;
        self.update(|book| {
            let mut changes = Vec::new();
            for (id, t) in book.tracks() {
                changes.push(Change::View(ViewChange::Fold {
                    session: id.into(),
                    outcome: Outcome::Relisted { began },
                }));
                let sighting = match fresh.get(id.as_str()) {
                    // The listing was read before a change the view already has.
                    Some(e) if book.queue().get(id.as_str()).is_some_and(|v| plan::older(e, v)) => continue,
                    Some(e) => plan::sighting(e, me, true),
                    None if complete => Sighting::absent(),
                    None => {
                        if t.held {
                            tracing::warn!(session = %id, "not in a listing with unreadable entries: not counted as absent");
                        }
                        continue;
                    }
                };
                if t.held && sighting.holder == plan::Holder::Other {
                    tracing::warn!(session = %id, "the listing shows another acceptor holding this session; confirming with an exact read");
                }
                changes.push(Change::View(ViewChange::Fold {
                    session: id.into(),
                    outcome: Outcome::Seen(sighting),
                }));
            }
            for e in fresh.values() {
                if e.session_status == SessionStatus::Terminated {
                    changes.push(Change::Record(RecordChange::Terminated(e.session_id.clone())));
                }
            }
            changes.push(Change::View(ViewChange::Listed {
                rows: fresh,
                complete,
            }));
            ((), changes)
        });
        if let Some(c) = &list.cursor
            && let Err(e) = self.state.save_cursor(c)
        {
            tracing::warn!("cannot save the watch cursor: {e:#}");
        }
        Ok(list.cursor)
    }

    pub(super) async fn watch_loop(self: std::sync::Arc<Self>, cursor: Option<String>) {
        let mut watch = self.devin.watch(Some(&self.opts.outpost_id), cursor);
        // The cursor file is written by a task of its own, the newest at most once per
        // CURSOR_EVERY: written (with an fsync) per event, it blocked a runtime worker for every
        // event of a burst. It ends with this loop (the sender dropped).
        let (cursor_tx, cursor_rx) = tokio::sync::watch::channel(None::<String>);
        tokio::spawn(self.clone().cursor_writer(cursor_rx));
        loop {
            match watch.next().await {
                WatchItem::Event(ev) => {
                    self.apply_event(ev.kind, ev.object);
                    if let Some(c) = ev.cursor {
                        cursor_tx.send_replace(Some(c));
                    }
                }
                WatchItem::Gap(gap) => {
                    tracing::debug!("watch gap: {}", gap.detail);
                    self.metrics.watch_gap();
                    self.record([Change::Loop(LoopChange::RelistDue(true))]);
                }
            }
            self.notify.notify_one();
        }
    }

    /// Write the newest watch cursor, at most once per [`super::run::CURSOR_EVERY`].
    async fn cursor_writer(
        self: std::sync::Arc<Self>,
        mut cursor: tokio::sync::watch::Receiver<Option<String>>,
    ) {
        while cursor.changed().await.is_ok() {
            let c = cursor.borrow_and_update().clone();
            if let Some(c) = c
                && let Err(e) = self.state.save_cursor(&c)
            {
                tracing::warn!("cannot save the watch cursor: {e:#}");
            }
            // Not poll_until: the pace of the cursor writes, not a wait for a state.
            tokio::time::sleep(super::run::CURSOR_EVERY).await;
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
        let id = entry.session_id.clone();
        if kind != EventType::Deleted
            && self
                .book()
                .queue()
                .get(&id)
                .is_some_and(|v| plan::older(&entry, v))
        {
            // A replayed or late event (the watch replays from just before its cursor): the
            // view already has a later change, e.g. our own claim's answer. Applied, it would
            // undo that claim here while the server still counts it.
            return;
        }
        let mut changes = Vec::new();
        // A DELETED event carries the entry's last state: `terminated` is proof enough.
        if entry.session_status == SessionStatus::Terminated {
            changes.push(Change::Record(RecordChange::Terminated(id.clone())));
        }
        let sighting = match kind {
            EventType::Deleted => {
                changes.push(Change::View(ViewChange::RowGone(id.clone())));
                Sighting::absent()
            }
            EventType::Modified | EventType::Added => {
                let s = plan::sighting(&entry, &self.opts.acceptor_id, false);
                changes.push(Change::View(ViewChange::Row(entry.into())));
                s
            }
            EventType::Unknown => return,
        };
        self.update(|book| {
            if book.track(&id).is_some() {
                changes.push(Change::View(ViewChange::Fold {
                    session: id.into(),
                    outcome: Outcome::Seen(sighting),
                }));
            }
            ((), changes)
        });
    }

    /// GET the session's status once.
    pub(super) async fn reread(&self, session: &SessionId) -> Option<Outcome> {
        match self.devin.get(session).await {
            Ok(entry) => {
                let sighting = match &entry {
                    Some(e) => plan::sighting(e, &self.opts.acceptor_id, false),
                    None => Sighting::absent(),
                };
                let changes = match entry {
                    Some(e) if e.session_status == SessionStatus::Terminated => {
                        vec![
                            Change::Record(RecordChange::Terminated(session.to_string())),
                            Change::View(ViewChange::Row(e.into())),
                        ]
                    }
                    Some(e) => vec![Change::View(ViewChange::Row(e.into()))],
                    None => vec![Change::View(ViewChange::RowGone(session.to_string()))],
                };
                self.record(changes);
                Some(Outcome::Reread(Some(sighting)))
            }
            Err(e) => {
                self.metrics.api_error(e.status());
                Some(Outcome::Reread(None))
            }
        }
    }
}
