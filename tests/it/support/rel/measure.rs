//! What the reliability scenarios wait for and measure: served sessions, time to a condition,
//! enqueue-to-running latencies, faults fired.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use crate::invariants::World;

use super::Cluster;

/// Session ids whose remote is connected and that are claimed.
pub fn served(c: &Cluster) -> BTreeSet<String> {
    c.sessions()
        .into_iter()
        .filter(|s| s.phase == "claimed" && s.remote_connected && s.session_status == "running")
        .map(|s| s.session_id)
        .collect()
}

/// A `done` predicate: these sessions are served (claimed, running, remote connected).
pub fn all_served(ids: &[String]) -> impl Fn(&World) -> Result<(), String> + '_ {
    move |w: &World| {
        let missing: Vec<&String> = ids
            .iter()
            .filter(|id| {
                !w.sessions.iter().any(|s| {
                    &s.session_id == *id
                        && s.phase == "claimed"
                        && s.remote_connected
                        && s.session_status == "running"
                })
            })
            .collect();
        if missing.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "{} of {} sessions not served, e.g. {:?}",
                missing.len(),
                ids.len(),
                missing.iter().take(3).collect::<Vec<_>>()
            ))
        }
    }
}

/// Poll `cond` every 100 ms up to `limit`; the time it took, or `None`.
pub fn time_until(limit: Duration, mut cond: impl FnMut() -> bool) -> Option<Duration> {
    let start = Instant::now();
    while start.elapsed() < limit {
        if cond() {
            return Some(start.elapsed());
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    None
}

/// Seconds from each session's enqueue to its first remote connect (generation 1).
pub fn enqueue_to_running(w: &World) -> Vec<f64> {
    let mut enq: BTreeMap<&str, u64> = BTreeMap::new();
    let mut out = Vec::new();
    let mut done = BTreeSet::new();
    for h in &w.history {
        match h.event.as_str() {
            "enqueue" if h.generation == 1 => {
                enq.insert(&h.session_id, h.at_ms);
            }
            "connect" if done.insert(h.session_id.as_str()) => {
                if let Some(t) = enq.get(h.session_id.as_str()) {
                    out.push((h.at_ms.saturating_sub(*t)) as f64 / 1000.0);
                }
            }
            _ => {}
        }
    }
    out
}

/// Requests that carried a fault, by fault kind (from the request log).
pub fn faults_fired(w: &World) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for r in &w.requests {
        if let Some(f) = &r.fault {
            let kind = f.split([' ', '{', '(']).next().unwrap_or(f).to_string();
            *out.entry(kind).or_default() += 1;
        }
    }
    out
}
