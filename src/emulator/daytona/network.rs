//! Outbound network settings (daytona-api.md §3.1–3.2; OpenAPI `UpdateSandboxNetworkSettings`):
//! `networkBlockAll`, `networkAllowList` (comma-separated CIDRs) and `domainAllowList`
//! (comma-separated domains) are accepted on create and by `POST /sandbox/{id}/network-settings`
//! ("for a running sandbox") and reflected in every sandbox DTO. The emulator records them; its
//! local-backed sandboxes are not restricted (README, "Network policy").

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, Uri};
use axum::response::Response;
use axum::routing::post;

use super::API_PREFIX;
use super::Authed;
use super::model::SandboxRec;
use super::sandbox::{bad, find_id, journal, not_found, ok_dto, update};
use crate::api::daytona_types::{NetworkSettings, SandboxState as St};
use crate::emulator::AppState;

pub fn routes() -> Router<AppState> {
    Router::new().route(
        &format!("{API_PREFIX}/sandbox/:id/network-settings"),
        post(network_settings),
    )
}

/// A `networkAllowList` the server would refuse: each item must be an address block.
pub fn check(n: &NetworkSettings) -> Result<(), String> {
    for item in n
        .network_allow_list
        .iter()
        .flat_map(|l| l.split(','))
        .map(str::trim)
        .filter(|i| !i.is_empty())
    {
        let (addr, prefix) = item.split_once('/').unwrap_or((item, "32"));
        let ok = addr.parse::<std::net::IpAddr>().is_ok() && prefix.parse::<u8>().is_ok();
        if !ok {
            return Err(format!("Invalid network allow list: {item} is not a CIDR"));
        }
    }
    Ok(())
}

/// Apply the fields present (absent ones are left as they are).
pub fn apply(r: &mut SandboxRec, n: &NetworkSettings) {
    if let Some(b) = n.network_block_all {
        r.network_block_all = b;
    }
    if let Some(l) = &n.network_allow_list {
        r.network_allow_list = (!l.is_empty()).then(|| l.clone());
    }
    if let Some(l) = &n.domain_allow_list {
        r.domain_allow_list = (!l.is_empty()).then(|| l.clone());
    }
}

async fn network_settings(
    _: Authed,
    State(s): State<AppState>,
    Path(key): Path<String>,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let path = uri.path();
    let n: NetworkSettings = match serde_json::from_slice(&body) {
        Ok(n) => n,
        Err(e) => return bad(format!("invalid request body: {e}"), path),
    };
    if let Err(m) = check(&n) {
        return bad(m, path);
    }
    let (id, state) = {
        let org = s.daytona.org();
        let Some(id) = find_id(&org, &key) else {
            return not_found(&key, path);
        };
        let state = org.sandboxes.get(&id).map(SandboxRec::reported);
        (id, state)
    };
    if state != Some(St::Started) {
        return bad(
            format!(
                "Sandbox is not started (state {})",
                state.map(|s| s.as_str()).unwrap_or("unknown")
            ),
            path,
        );
    }
    update(&s, &id, |r| apply(r, &n));
    journal(&s, &headers, "network-settings", &id);
    ok_dto(&s, &id, path)
}
