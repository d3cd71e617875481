//! At-least-once delivery made exactly-once for the consumer: the server replays rows from
//! shortly before the cursor on every reconnect (specs §5.2, Cognition's model), so the watch
//! remembers the last events it passed on and drops a repeat. The key is (session, updated_at,
//! type) plus a digest of the entry: `updated_at` has whole-second resolution on the wire
//! (§4.3), so two real changes within one second share it, and only the content tells them
//! apart — a repeat is the same row in the same state, and dropping it loses nothing.
//! Memory is bounded: the oldest keys are forgotten first (a replay only reaches back a moment).

use std::collections::hash_map::DefaultHasher;
use std::collections::{HashSet, VecDeque};
use std::hash::{Hash, Hasher};

use crate::api::devin_types::WatchEvent;

/// How many recent events are remembered.
pub const REMEMBERED: usize = 4096;

type Key = (String, u64, String, u64);

/// The recent events seen, oldest first.
#[derive(Debug, Default)]
pub struct Seen {
    set: HashSet<Key>,
    order: VecDeque<Key>,
}

impl Seen {
    /// True the first time an event is offered; false for a repeat. Events without a session
    /// or an `updated_at` cannot be told apart and always pass.
    pub fn first(&mut self, ev: &WatchEvent) -> bool {
        let Some(o) = &ev.object else { return true };
        let Some(at) = o.updated_at else { return true };
        let mut h = DefaultHasher::new();
        o.to_json().to_string().hash(&mut h);
        let key = (
            o.session_id.clone(),
            at.to_bits(),
            ev.kind_raw.clone(),
            h.finish(),
        );
        if self.set.contains(&key) {
            return false;
        }
        if self.order.len() >= REMEMBERED
            && let Some(old) = self.order.pop_front()
        {
            self.set.remove(&old);
        }
        self.set.insert(key.clone());
        self.order.push_back(key);
        true
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.order.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ev(session: &str, at: f64, kind: &str) -> WatchEvent {
        ev_in(session, at, kind, "pending")
    }

    fn ev_in(session: &str, at: f64, kind: &str, phase: &str) -> WatchEvent {
        WatchEvent::from_value(&json!({
            "type": kind,
            "object": {"metadata": {"session_id": session, "updated_at": at}, "status": {"phase": phase}},
            "cursor": "c",
        }))
        .unwrap()
    }

    #[test]
    fn repeats_are_dropped_new_versions_pass_and_memory_is_bounded() {
        let mut s = Seen::default();
        assert!(s.first(&ev("a", 1.0, "MODIFIED")));
        assert!(!s.first(&ev("a", 1.0, "MODIFIED")));
        assert!(s.first(&ev("a", 2.0, "MODIFIED")));
        assert!(s.first(&ev("a", 2.0, "DELETED")));
        assert!(s.first(&ev("b", 1.0, "MODIFIED")));
        // Another change within the same second is news, not a repeat.
        assert!(s.first(&ev_in("b", 1.0, "MODIFIED", "claimed")));
        assert!(!s.first(&ev_in("b", 1.0, "MODIFIED", "claimed")));
        for i in 0..(REMEMBERED as u32 + 10) {
            s.first(&ev("c", f64::from(i), "MODIFIED"));
        }
        assert_eq!(s.len(), REMEMBERED);
        // The oldest were forgotten.
        assert!(s.first(&ev("a", 1.0, "MODIFIED")));
    }
}
