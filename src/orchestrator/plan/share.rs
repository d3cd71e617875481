//! Replicas on one queue split it evenly (issue 35): a replica holding its share already leaves
//! a new row to the others for [`SHARE_GRACE`] seconds.
//!
//! Claims are the only coordination (specs "Fleet scaling"), so every replica tries every
//! pending row and the fastest one took most of a burst (30,000 over three: 12,500 / 11,387 /
//! 6,113). The queue view says who holds what, so each replica can tell its share: the rows
//! claimed by anyone plus the claimable ones, over the acceptors holding claims and itself.
//! Past that share it only defers: a row nobody took within the grace is claimed anyway, so a
//! peer that is dead, at its cap or slow never strands a session (it costs that row the grace).
//! With no peer in view nothing changes.

use std::collections::{BTreeMap, BTreeSet};

use crate::api::devin_types::{Phase, QueueEntry};

/// Seconds a replica over its share leaves a claimable row to the others: several of their
/// passes (a pass comes at most every cap × 10 µs, and a watch event or a lost race tells them
/// of the row within a second).
pub const SHARE_GRACE: f64 = 2.0;

/// How many more sessions this replica may claim before it is over its even share of what the
/// view shows (`used`: what it holds or is claiming); `None` when no other acceptor holds a
/// claim in view, so there is no one to share with.
pub fn room_in_share<'a>(
    queue: impl IntoIterator<Item = &'a QueueEntry>,
    me: &str,
    used: usize,
) -> Option<usize> {
    let mut peers: BTreeSet<&str> = BTreeSet::new();
    let mut demand = 0usize;
    for e in queue {
        match (&e.phase, e.acceptor_id.as_deref()) {
            (Phase::Claimed, Some(a)) => {
                demand += 1;
                if a != me {
                    peers.insert(a);
                }
            }
            _ if super::claimable(e) => demand += 1,
            _ => {}
        }
    }
    if peers.is_empty() {
        return None;
    }
    let share = demand.div_ceil(peers.len() + 1);
    Some(share.saturating_sub(used))
}

/// Has this row waited out the grace since it was first seen claimable? A row with no sighting
/// on record counts as waited: not knowing must never keep a session unclaimed.
pub fn waited(pending_since: &BTreeMap<String, f64>, session: &str, now: f64) -> bool {
    pending_since
        .get(session)
        .is_none_or(|since| now - since >= SHARE_GRACE)
}
