//! `GET /_emulator/fleet?since=SEQ`: the figures a fleet benchmark or test needs, counted in
//! the emulator and answered small — the request log and history of a 30,000-session run are
//! far too big to ship to the client every few seconds.
//!
//! - served: sessions whose remote connected in their first generation; connects beyond one per
//!   (session, generation) are `double_serves`;
//! - claims per acceptor (first generation); (session, generation) pairs that another acceptor
//!   claimed without the previous holder releasing them first (`double_claims`: the claim
//!   lapsed, so two acceptors may have believed they held it), and pairs handed over by a
//!   release (`handovers`: a replica gave the session up, another took it); claims refused by
//!   a conflict, per acceptor;
//! - API calls (Devin, Daytona, CoreWeave — not the remotes' gateway traffic) logged after
//!   request `since`, by method and route (ids replaced by `{id}`).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use axum::extract::{Query, State};
use serde::{Deserialize, Serialize};

use super::{AppState, SinceQuery};

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct FleetStats {
    /// Sessions ever enqueued.
    pub sessions: usize,
    pub served: usize,
    pub double_serves: usize,
    pub double_claims: usize,
    /// Sessions another acceptor claimed after their holder released them (same generation).
    #[serde(default)]
    pub handovers: usize,
    pub claims_by_acceptor: BTreeMap<String, usize>,
    /// Claims refused because another acceptor held the row (409), by the acceptor refused:
    /// the races a replica lost (why a split is uneven).
    #[serde(default)]
    pub conflicts_by_acceptor: BTreeMap<String, usize>,
    /// First and last first-generation claim and connect (unix ms).
    pub first_claim_ms: Option<u64>,
    pub last_claim_ms: Option<u64>,
    pub last_connect_ms: Option<u64>,
    /// Simulated remotes running now (`--sandboxes simulated`).
    pub live_remotes: Option<usize>,
    /// The newest request's sequence number.
    pub last_seq: u64,
    /// Calls logged after `since`, by `"<api> <METHOD> <route>"`.
    pub calls_by_route: BTreeMap<String, usize>,
    /// Their summed time to answer (arrival to response head), in milliseconds: where the
    /// emulator spends a run (lock waits included).
    #[serde(default)]
    pub ms_by_route: BTreeMap<String, f64>,
}

/// `/daytona/api/sandbox/3f…/start` → `/daytona/api/sandbox/{id}/start`: routes, not ids.
fn route(path: &str) -> String {
    path.split('/')
        .map(|seg| {
            let idish = seg.len() >= 12 && seg.chars().any(|c| c.is_ascii_digit());
            if idish { "{id}" } else { seg }
        })
        .collect::<Vec<_>>()
        .join("/")
}

pub(super) async fn handler(
    State(s): State<AppState>,
    Query(q): Query<SinceQuery>,
) -> axum::Json<FleetStats> {
    let mut st = s.devin.with(|queue, _| {
        let mut st = FleetStats::default();
        let mut sessions = BTreeSet::new();
        let mut connects: HashMap<(&str, u32), usize> = HashMap::new();
        // Per (session, generation): the last holder, and whether it released the claim.
        let mut holders: HashMap<(&str, u32), (&str, bool)> = HashMap::new();
        let mut doubled: BTreeSet<(&str, u32)> = BTreeSet::new();
        let mut handed: BTreeSet<(&str, u32)> = BTreeSet::new();
        for h in &queue.history {
            match h.event.as_str() {
                "enqueue" => {
                    sessions.insert(h.session_id.as_str());
                }
                "connect" => {
                    *connects
                        .entry((h.session_id.as_str(), h.generation))
                        .or_default() += 1;
                    if h.generation == 1 {
                        st.last_connect_ms = Some(h.at_ms);
                    }
                }
                "release" => {
                    if let Some(held) = holders.get_mut(&(h.session_id.as_str(), h.generation)) {
                        held.1 = true;
                    }
                }
                "claim" => {
                    let acceptor = h.acceptor_id.as_deref().unwrap_or("");
                    let key = (h.session_id.as_str(), h.generation);
                    if let Some((before, released)) = holders.insert(key, (acceptor, false))
                        && before != acceptor
                    {
                        if released {
                            handed.insert(key);
                        } else {
                            doubled.insert(key);
                        }
                    }
                    if h.generation == 1 {
                        *st.claims_by_acceptor
                            .entry(acceptor.to_string())
                            .or_default() += 1;
                        st.first_claim_ms.get_or_insert(h.at_ms);
                        st.last_claim_ms = Some(h.at_ms);
                    }
                }
                "claim_conflict" => {
                    let acceptor = h.acceptor_id.as_deref().unwrap_or("");
                    *st.conflicts_by_acceptor
                        .entry(acceptor.to_string())
                        .or_default() += 1;
                }
                _ => {}
            }
        }
        st.sessions = sessions.len();
        st.served = connects.keys().filter(|(_, g)| *g == 1).count();
        st.double_serves = connects.values().map(|n| n - 1).sum();
        st.double_claims = doubled.len();
        st.handovers = handed.len();
        st
    });
    st.live_remotes = s.sandboxes.sim().map(|sim| sim.live());
    st.last_seq = s.log.last_seq();
    s.log.each_since(q.since, |r| {
        if matches!(
            r.api,
            super::Api::Devin | super::Api::Daytona | super::Api::Coreweave
        ) && !r.path.starts_with("/gateway")
        {
            let key = format!("{:?} {} {}", r.api, r.method, route(&r.path)).to_lowercase();
            *st.ms_by_route.entry(key.clone()).or_default() += r.took_us as f64 / 1000.0;
            *st.calls_by_route.entry(key).or_default() += 1;
        }
    });
    axum::Json(st)
}
