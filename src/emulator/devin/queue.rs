//! Queue reads and claims: keyset lists, watch scans, CAS claims with renewal, releases.
//! Semantics are described in `state.rs`.

use serde_json::{Value, json};

use super::state::{Grant, Micros, Queue, Row, RowPhase, encode_cursor, random_hex};

pub enum ClaimResult {
    Won(Value),
    Conflict(String),
    NotFound,
}

pub enum ReleaseResult {
    Released(Value),
    NotHeld,
    NotFound,
}

/// Filters of a list request.
#[derive(Debug, Clone, Default)]
pub struct ListFilter {
    pub outpost: Option<String>,
    pub phase: Option<RowPhase>,
    pub acceptor_id: Option<String>,
}

pub struct ListResult {
    pub items: Vec<Value>,
    pub cursor: Micros,
    pub has_next_page: bool,
    pub total: usize,
}

impl Queue {
    /// One page, keyset-ordered by stamp: rows at or after `from` (`>=`, so consecutive pages
    /// overlap by their boundary row; clients dedup). `has_next_page` means "this page is full"
    /// and its cursor is the last row's stamp; a page that is not full ends the listing with a
    /// cursor that marks now. Stale claims expire first (lazily, as on every read).
    pub fn list(
        &mut self,
        f: &ListFilter,
        first: usize,
        from: Option<Micros>,
        now: Micros,
    ) -> ListResult {
        self.expire_stale(now);
        let mut total = 0;
        let mut candidates: Vec<&Row> = self
            .rows
            .iter()
            .filter(|r| !r.tombstoned)
            .filter(|r| f.outpost.as_ref().is_none_or(|o| &r.outpost_id == o))
            .filter(|r| f.phase.is_none_or(|p| r.phase == p))
            .filter(|r| {
                f.acceptor_id
                    .as_ref()
                    .is_none_or(|a| r.acceptor_id.as_ref() == Some(a))
            })
            .inspect(|_| total += 1)
            .filter(|r| from.is_none_or(|c| r.stamp >= c))
            .collect();
        // Only the page is sorted: sorting every row for each page of a 30,000-row listing
        // made one listing cost pages × N log N under the queue's lock.
        let key = |r: &&Row| (r.stamp, r.row_id);
        if candidates.len() > first && first > 0 {
            candidates.select_nth_unstable_by_key(first - 1, key);
            candidates.truncate(first);
        }
        candidates.sort_unstable_by_key(key);
        let page = &candidates[..candidates.len().min(first)];
        let has_next_page = page.len() == first;
        let items = page.iter().map(|r| Self::entry_json(r, None)).collect();
        let last = page.last().map(|r| r.stamp);
        let cursor = match (has_next_page, last) {
            (true, Some(s)) => s,
            _ => self.now_cursor(now),
        };
        ListResult {
            items,
            cursor,
            has_next_page,
            total,
        }
    }

    /// Rows (tombstones included) of `outpost` changed at or after `from`, oldest first, as
    /// watch events with their stamps. Each event's cursor is its row's stamp (the `>=` key).
    pub fn watch_scan(
        &mut self,
        outpost: Option<&str>,
        from: Micros,
        now: Micros,
    ) -> Vec<(Micros, Value)> {
        self.expire_stale(now);
        let mut rows: Vec<&Row> = self
            .rows
            .iter()
            .filter(|r| r.stamp >= from)
            .filter(|r| outpost.is_none_or(|o| r.outpost_id == o))
            .collect();
        rows.sort_by_key(|r| (r.stamp, r.row_id));
        rows.into_iter()
            .map(|r| {
                let kind = if r.tombstoned { "DELETED" } else { "MODIFIED" };
                (
                    r.stamp,
                    json!({"type": kind, "object": Self::entry_json(r, None), "cursor": encode_cursor(r.stamp)}),
                )
            })
            .collect()
    }

    /// CAS claim; the same acceptor renews. `acceptor` may be missing (the model answers 200 to
    /// a body without `acceptor_id`; the claim then has no holder name, and only another
    /// nameless claim renews it). A `pending` row is granted whatever its session status — the
    /// model does not protect clients that claim suspended or terminated rows (they must not).
    pub fn claim(
        &mut self,
        session_id: &str,
        acceptor: Option<&str>,
        now: Micros,
        ttl_us: Micros,
        gateway_url: &str,
    ) -> ClaimResult {
        self.expire_stale(now);
        let Some(i) = self.live_index(session_id) else {
            self.record(now, "claim_missing", session_id, acceptor, 0, None);
            return ClaimResult::NotFound;
        };
        let (phase, holder, generation) = {
            let r = &self.rows[i];
            (r.phase, r.acceptor_id.clone(), r.generation)
        };
        let renewal = phase == RowPhase::Claimed && holder.as_deref() == acceptor;
        if !renewal && phase == RowPhase::Claimed {
            self.record(
                now,
                "claim_conflict",
                session_id,
                acceptor,
                generation,
                holder.map(|h| format!("held by {h}")),
            );
            return ClaimResult::Conflict("Session is already claimed".into());
        }
        let token = format!("ct_{}", random_hex(48));
        let stamp = self.stamp(now);
        let r = &mut self.rows[i];
        r.phase = RowPhase::Claimed;
        r.acceptor_id = acceptor.map(str::to_string);
        r.claim_deadline_us = Some(now + ttl_us);
        r.released_us = None;
        r.stamp = stamp;
        let row_id = r.row_id;
        self.index.claimed_until(now + ttl_us);
        let body = Self::entry_json(r, Some((&token, gateway_url)));
        self.grants.insert(
            token,
            Grant {
                session_id: session_id.to_string(),
                row_id,
                acceptor_id: acceptor.unwrap_or_default().to_string(),
            },
        );
        let event = if renewal { "renew" } else { "claim" };
        self.record(now, event, session_id, acceptor, generation, None);
        ClaimResult::Won(body)
    }

    pub fn release(&mut self, session_id: &str, acceptor: &str, now: Micros) -> ReleaseResult {
        self.expire_stale(now);
        let Some(i) = self.live_index(session_id) else {
            return ReleaseResult::NotFound;
        };
        let r = &self.rows[i];
        let generation = r.generation;
        if r.phase != RowPhase::Claimed || r.acceptor_id.as_deref() != Some(acceptor) {
            let holder = r.acceptor_id.clone();
            self.record(
                now,
                "release_conflict",
                session_id,
                Some(acceptor),
                generation,
                Some(match holder {
                    Some(h) => format!("held by {h}"),
                    None => "not claimed".into(),
                }),
            );
            return ReleaseResult::NotHeld;
        }
        let stamp = self.stamp(now);
        let r = &mut self.rows[i];
        r.phase = RowPhase::Pending;
        r.acceptor_id = None;
        r.claim_deadline_us = None;
        r.released_us = Some(now);
        r.stamp = stamp;
        let body = Self::entry_json(r, None);
        self.record(now, "release", session_id, Some(acceptor), generation, None);
        ReleaseResult::Released(body)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::emulator::devin::state::{Status, decode_cursor};

    const TTL: Micros = 300_000_000;

    fn queue_with(n: usize, now: Micros) -> (Queue, Vec<String>) {
        let mut q = Queue::fresh(now);
        let mut ids = Vec::new();
        for _ in 0..n {
            let id = q
                .enqueue(&Default::default(), now)
                .expect("enqueue")
                .remove(0);
            ids.push(id);
        }
        (q, ids)
    }

    #[test]
    fn pages_overlap_by_their_boundary_row_and_the_last_cursor_marks_now() {
        let now = 1_700_000_000_000_000;
        let (mut q, ids) = queue_with(7, now);
        let mut seen: Vec<String> = Vec::new();
        let mut raw = 0;
        let mut from = None;
        loop {
            let page = q.list(&ListFilter::default(), 3, from, now);
            assert_eq!(page.total, 7);
            // "Has a next page" means "this page is full".
            assert_eq!(page.has_next_page, page.items.len() == 3);
            for item in &page.items {
                raw += 1;
                let id = item["metadata"]["session_id"].as_str().unwrap().to_string();
                if !seen.contains(&id) {
                    seen.push(id);
                }
            }
            from = Some(page.cursor);
            if !page.has_next_page {
                break;
            }
        }
        assert_eq!(seen, ids);
        assert!(raw > ids.len(), "pages overlap (>= boundary)");
        // Nothing changed since: a watch from the final cursor replays nothing.
        assert!(q.watch_scan(None, from.unwrap(), now).is_empty());
        q.claim(&ids[0], Some("a"), now + 1, TTL, "ws://g");
        let events = q.watch_scan(None, from.unwrap(), now + 1);
        assert_eq!(events.len(), 1);
        // Resuming from that event's cursor repeats it (at-least-once), nothing more.
        let cursor = decode_cursor(events[0].1["cursor"].as_str().unwrap()).unwrap();
        assert_eq!(q.watch_scan(None, cursor, now + 1).len(), 1);
    }

    #[test]
    fn claim_is_cas_renewal_refreshes_token_release_needs_holder() {
        let now = 1_700_000_000_000_000;
        let (mut q, ids) = queue_with(1, now);
        let id = &ids[0];
        let ClaimResult::Won(first) = q.claim(id, Some("a"), now, TTL, "ws://g") else {
            panic!("first claim")
        };
        assert!(matches!(
            q.claim(id, Some("b"), now, TTL, "ws://g"),
            ClaimResult::Conflict(_)
        ));
        let ClaimResult::Won(again) = q.claim(id, Some("a"), now + 10_000_000, TTL, "ws://g")
        else {
            panic!("renewal")
        };
        assert_ne!(
            first["status"]["connect_token"],
            again["status"]["connect_token"]
        );
        assert!(
            again["status"]["claim_deadline"].as_i64() > first["status"]["claim_deadline"].as_i64()
        );
        assert!(matches!(q.release(id, "b", now), ReleaseResult::NotHeld));
        assert!(matches!(
            q.release(id, "a", now),
            ReleaseResult::Released(_)
        ));
        assert!(matches!(q.release(id, "a", now), ReleaseResult::NotHeld));
        assert!(matches!(
            q.claim("devin-nope", Some("a"), now, TTL, "ws://g"),
            ClaimResult::NotFound
        ));
        let events: Vec<&str> = q.history.iter().map(|h| h.event.as_str()).collect();
        assert_eq!(
            events,
            vec![
                "enqueue",
                "claim",
                "claim_conflict",
                "renew",
                "release_conflict",
                "release",
                "release_conflict",
                "claim_missing"
            ]
        );
    }

    #[test]
    fn expiry_spares_running_sessions() {
        let now = 1_700_000_000_000_000;
        let (mut q, ids) = queue_with(2, now);
        q.claim(&ids[0], Some("a"), now, 1_000_000, "ws://g");
        q.claim(&ids[1], Some("a"), now, 1_000_000, "ws://g");
        let i = q.live_index(&ids[1]).unwrap();
        q.rows[i].status = Status::Running;
        // Nothing expires until something reads or claims (no ticker).
        q.maintain(now + 2_000_000, 10_000_000);
        assert_eq!(
            q.rows[q.live_index(&ids[0]).unwrap()].phase,
            RowPhase::Claimed
        );
        q.expire_stale(now + 2_000_000);
        assert_eq!(
            q.rows[q.live_index(&ids[0]).unwrap()].phase,
            RowPhase::Pending
        );
        assert_eq!(q.rows[i].phase, RowPhase::Claimed);
        // Another acceptor takes over the expired one, not the running one.
        assert!(matches!(
            q.claim(&ids[0], Some("b"), now + 2_000_000, TTL, "ws://g"),
            ClaimResult::Won(_)
        ));
        assert!(matches!(
            q.claim(&ids[1], Some("b"), now + 2_000_000, TTL, "ws://g"),
            ClaimResult::Conflict(_)
        ));
    }

    #[test]
    fn ended_rows_are_granted_linger_and_get_swept() {
        let now = 1_700_000_000_000_000;
        let (mut q, ids) = queue_with(1, now);
        let id = &ids[0];
        q.claim(id, Some("a"), now, TTL, "ws://g");
        q.suspend(id, now).unwrap();
        assert!(
            matches!(q.claim(id, Some("b"), now, TTL, "ws://g"), ClaimResult::Conflict(m) if m.contains("already claimed"))
        );
        q.release(id, "a", now);
        // The model grants a pending row whatever its status: clients must not ask.
        assert!(matches!(
            q.claim(id, Some("b"), now, TTL, "ws://g"),
            ClaimResult::Won(_)
        ));
        q.release(id, "b", now);
        q.maintain(now + 500_000, 1_000_000);
        assert!(q.live_index(id).is_some(), "lingers until the sweep delay");
        q.maintain(now + 1_500_000, 1_000_000);
        assert!(q.live_index(id).is_none());
        let list = q.list(&ListFilter::default(), 100, None, now + 2_000_000);
        assert!(list.items.is_empty());
        let events = q.watch_scan(None, 0, now + 2_000_000);
        assert_eq!(events.last().unwrap().1["type"], "DELETED");
        // Resume: a new generation with kind=resume.
        q.resume(id, now + 3_000_000).unwrap();
        let r = &q.rows[q.live_index(id).unwrap()];
        assert_eq!(
            (r.kind.as_str(), r.generation, r.status),
            ("resume", 2, Status::Pending)
        );
    }

    #[test]
    fn a_claim_without_an_acceptor_is_granted_and_renewed_only_by_another_nameless_claim() {
        let now = 1_700_000_000_000_000;
        let (mut q, ids) = queue_with(1, now);
        let ClaimResult::Won(v) = q.claim(&ids[0], None, now, TTL, "ws://g") else {
            panic!("nameless claim")
        };
        assert!(v["status"]["acceptor_id"].is_null());
        assert!(matches!(
            q.claim(&ids[0], Some("a"), now, TTL, "ws://g"),
            ClaimResult::Conflict(_)
        ));
        assert!(matches!(
            q.claim(&ids[0], None, now, TTL, "ws://g"),
            ClaimResult::Won(_)
        ));
    }

    #[test]
    fn blips_read_suspended_then_restore_without_ending_the_session() {
        let now = 1_700_000_000_000_000;
        let (mut q, ids) = queue_with(1, now);
        let id = &ids[0];
        q.set_status(id, Status::Running, now).unwrap();
        q.blip(id, 1_000_000, now).unwrap();
        let i = q.live_index(id).unwrap();
        assert_eq!(q.rows[i].status, Status::Suspended);
        q.maintain(now + 500_000, 0);
        assert!(q.live_index(id).is_some(), "a blip is never swept");
        q.maintain(now + 1_000_000, 0);
        assert_eq!(q.rows[i].status, Status::Running);
    }
}
