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
    pub fn list(
        &mut self,
        f: &ListFilter,
        first: usize,
        from: Option<Micros>,
        now: Micros,
    ) -> ListResult {
        let mut rows: Vec<&Row> = self
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
            .collect();
        rows.sort_by_key(|r| (r.stamp, r.row_id));
        let total = rows.len();
        let candidates: Vec<&Row> = rows
            .into_iter()
            .filter(|r| from.is_none_or(|c| r.stamp >= c))
            .collect();
        let has_next_page = candidates.len() > first;
        let page = &candidates[..candidates.len().min(first)];
        let items = page.iter().map(|r| Self::entry_json(r, None)).collect();
        let last = page.last().map(|r| r.stamp);
        let cursor = match (has_next_page, last) {
            (true, Some(s)) => s + 1,
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
    /// watch events with their stamps.
    pub fn watch_scan(&self, outpost: Option<&str>, from: Micros) -> Vec<(Micros, Value)> {
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
                    json!({"type": kind, "object": Self::entry_json(r, None), "cursor": encode_cursor(r.stamp + 1)}),
                )
            })
            .collect()
    }

    pub fn claim(
        &mut self,
        session_id: &str,
        acceptor: &str,
        now: Micros,
        ttl_us: Micros,
        gateway_url: &str,
    ) -> ClaimResult {
        let Some(i) = self.live_index(session_id) else {
            self.record(now, "claim_missing", session_id, Some(acceptor), 0, None);
            return ClaimResult::NotFound;
        };
        let (phase, holder, status, generation) = {
            let r = &self.rows[i];
            (r.phase, r.acceptor_id.clone(), r.status, r.generation)
        };
        let renewal = phase == RowPhase::Claimed && holder.as_deref() == Some(acceptor);
        if !renewal {
            if phase == RowPhase::Claimed {
                self.record(
                    now,
                    "claim_conflict",
                    session_id,
                    Some(acceptor),
                    generation,
                    holder.map(|h| format!("held by {h}")),
                );
                return ClaimResult::Conflict("Session is already claimed".into());
            }
            // Documented choice: a suspended or terminated row (including a transient
            // `suspended` blip) is refused with 409, which clients already read as "not yours,
            // touch nothing".
            if status.ended() {
                self.record(
                    now,
                    "claim_refused",
                    session_id,
                    Some(acceptor),
                    generation,
                    Some(status.as_str().to_string()),
                );
                return ClaimResult::Conflict(format!("Session is {}", status.as_str()));
            }
        }
        let token = format!("ct_{}", random_hex(48));
        let stamp = self.stamp(now);
        let r = &mut self.rows[i];
        r.phase = RowPhase::Claimed;
        r.acceptor_id = Some(acceptor.to_string());
        r.claim_deadline_us = Some(now + ttl_us);
        r.released_us = None;
        r.stamp = stamp;
        let row_id = r.row_id;
        let body = Self::entry_json(r, Some((&token, gateway_url)));
        self.grants.insert(
            token,
            Grant {
                session_id: session_id.to_string(),
                row_id,
                acceptor_id: acceptor.to_string(),
            },
        );
        let event = if renewal { "renew" } else { "claim" };
        self.record(now, event, session_id, Some(acceptor), generation, None);
        ClaimResult::Won(body)
    }

    pub fn release(&mut self, session_id: &str, acceptor: &str, now: Micros) -> ReleaseResult {
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
    fn pages_cover_everything_once_and_the_last_cursor_marks_now() {
        let now = 1_700_000_000_000_000;
        let (mut q, ids) = queue_with(7, now);
        let mut seen = Vec::new();
        let mut from = None;
        loop {
            let page = q.list(&ListFilter::default(), 3, from, now);
            assert_eq!(page.total, 7);
            for item in &page.items {
                seen.push(item["metadata"]["session_id"].as_str().unwrap().to_string());
            }
            from = Some(page.cursor);
            if !page.has_next_page {
                break;
            }
        }
        assert_eq!(seen, ids);
        // Nothing changed since: a watch from the final cursor replays nothing.
        assert!(q.watch_scan(None, from.unwrap()).is_empty());
        q.claim(&ids[0], "a", now + 1, TTL, "ws://g");
        let events = q.watch_scan(None, from.unwrap());
        assert_eq!(events.len(), 1);
        // Resuming from that event's cursor replays nothing more.
        let cursor = decode_cursor(events[0].1["cursor"].as_str().unwrap()).unwrap();
        assert!(q.watch_scan(None, cursor).is_empty());
    }

    #[test]
    fn claim_is_cas_renewal_refreshes_token_release_needs_holder() {
        let now = 1_700_000_000_000_000;
        let (mut q, ids) = queue_with(1, now);
        let id = &ids[0];
        let ClaimResult::Won(first) = q.claim(id, "a", now, TTL, "ws://g") else {
            panic!("first claim")
        };
        assert!(matches!(
            q.claim(id, "b", now, TTL, "ws://g"),
            ClaimResult::Conflict(_)
        ));
        let ClaimResult::Won(again) = q.claim(id, "a", now + 10_000_000, TTL, "ws://g") else {
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
            q.claim("devin-nope", "a", now, TTL, "ws://g"),
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
        q.claim(&ids[0], "a", now, 1_000_000, "ws://g");
        q.claim(&ids[1], "a", now, 1_000_000, "ws://g");
        let i = q.live_index(&ids[1]).unwrap();
        q.rows[i].status = Status::Running;
        q.maintain(now + 2_000_000, 10_000_000);
        assert_eq!(
            q.rows[q.live_index(&ids[0]).unwrap()].phase,
            RowPhase::Pending
        );
        assert_eq!(q.rows[i].phase, RowPhase::Claimed);
        // Another acceptor takes over the expired one, not the running one.
        assert!(matches!(
            q.claim(&ids[0], "b", now + 2_000_000, TTL, "ws://g"),
            ClaimResult::Won(_)
        ));
        assert!(matches!(
            q.claim(&ids[1], "b", now + 2_000_000, TTL, "ws://g"),
            ClaimResult::Conflict(_)
        ));
    }

    #[test]
    fn ended_rows_are_refused_linger_and_get_swept() {
        let now = 1_700_000_000_000_000;
        let (mut q, ids) = queue_with(1, now);
        let id = &ids[0];
        q.claim(id, "a", now, TTL, "ws://g");
        q.suspend(id, now).unwrap();
        // The holder may still renew (it is about to release); nobody else may claim.
        assert!(
            matches!(q.claim(id, "b", now, TTL, "ws://g"), ClaimResult::Conflict(m) if m.contains("already claimed"))
        );
        q.release(id, "a", now);
        assert!(
            matches!(q.claim(id, "b", now, TTL, "ws://g"), ClaimResult::Conflict(m) if m == "Session is suspended")
        );
        q.maintain(now + 500_000, 1_000_000);
        assert!(q.live_index(id).is_some(), "lingers until the sweep delay");
        q.maintain(now + 1_500_000, 1_000_000);
        assert!(q.live_index(id).is_none());
        let list = q.list(&ListFilter::default(), 100, None, now + 2_000_000);
        assert!(list.items.is_empty());
        let events = q.watch_scan(None, 0);
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
