//! `/api/sandbox…`: create, get, list, start, stop, delete, labels, toolbox URL, build logs,
//! snapshot-from-sandbox (archive and restore: [`super::archive`]). Slow transitions run in
//! background tasks, serialised per sandbox, against the local provider; the API reports
//! derived states meanwhile.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use serde_json::json;

use super::model::{self, SandboxRec, api_error, d, now_ms};
use super::snapshot;
use super::{API_PREFIX, Authed, DaytonaEmu, PROXY_PREFIX};
use crate::api::daytona_types::{SandboxDesiredState as Desired, SandboxState as St};
use crate::emulator::AppState;

/// The label orchestrators put the session id in (devin-outposts-api.md, sandbox naming): the
/// mutation journal uses it to say which session a sandbox change touched.
const SESSION_LABEL: &str = "devin.session_id";

mod create;
mod transitions;

pub(crate) use create::boot;
use create::{create, wait_for};
pub(crate) use transitions::run_delete;
use transitions::{delete, start, stop};

pub fn routes() -> Router<AppState> {
    let p = |s: &str| format!("{API_PREFIX}{s}");
    Router::new()
        .route(&p("/sandbox"), post(create).get(list))
        .route(&p("/sandbox/:id"), get(get_one).delete(delete))
        .route(&p("/sandbox/:id/start"), post(start))
        .route(&p("/sandbox/:id/stop"), post(stop))
        .route(&p("/sandbox/:id/labels"), put(labels))
        .route(&p("/sandbox/:id/toolbox-proxy-url"), get(toolbox_url))
        .route(&p("/sandbox/:id/build-logs-url"), get(build_logs_url))
        .route(&p("/sandbox/:id/snapshot"), post(snapshot_sandbox))
        .route(&p("/sandbox/:id/autostop/:m"), post(autostop))
        .route(&p("/sandbox/:id/autoarchive/:m"), post(autoarchive))
        .route(&p("/sandbox/:id/autodelete/:m"), post(autodelete))
}

/// The visible sandbox with this id, else this name.
pub(crate) fn find_id(org: &super::Org, key: &str) -> Option<String> {
    if let Some(r) = org.sandboxes.get(key).filter(|r| !r.gone()) {
        return Some(r.id.clone());
    }
    org.sandboxes
        .values()
        .find(|r| r.name == key && !r.gone())
        .map(|r| r.id.clone())
}

fn toolbox(s: &AppState) -> String {
    DaytonaEmu::toolbox_url(&s.base_url)
}

/// Apply `change` to the sandbox `key` names (id or name) under the org lock: its id and what
/// `change` returned, or the answer to send instead (404, or what `change` refused with).
pub(super) fn change<T>(
    s: &AppState,
    key: &str,
    path: &str,
    change: impl FnOnce(&mut super::model::SandboxRec) -> Result<T, Response>,
) -> Result<(String, T), Response> {
    let mut org = s.daytona.org();
    let Some(id) = find_id(&org, key) else {
        return Err(not_found(key, path));
    };
    let Some(r) = org.sandboxes.get_mut(&id) else {
        return Err(not_found(key, path));
    };
    change(r).map(|t| (id, t))
}

pub(super) fn not_found(key: &str, path: &str) -> Response {
    api_error(
        StatusCode::NOT_FOUND,
        format!("Sandbox with ID or name {key} not found"),
        path,
    )
}

fn dto(s: &AppState, id: &str) -> Option<serde_json::Value> {
    let org = s.daytona.org();
    org.sandboxes.get(id).map(|r| r.dto(&toolbox(s)))
}

pub(super) fn ok_dto(s: &AppState, id: &str, path: &str) -> Response {
    match dto(s, id) {
        Some(v) => axum::Json(v).into_response(),
        None => not_found(id, path),
    }
}

pub(super) fn update(s: &AppState, id: &str, f: impl FnOnce(&mut SandboxRec)) {
    let mut org = s.daytona.org();
    if let Some(r) = org.sandboxes.get_mut(id) {
        f(r);
        r.updated_ms = now_ms();
    }
}

/// Record a committed mutation in the emulator's journal, with the queue's view of the session.
pub(super) fn journal(s: &AppState, headers: &HeaderMap, op: &str, id: &str) {
    let Some((name, labels)) = s
        .daytona
        .org()
        .sandboxes
        .get(id)
        .map(|r| (r.name.clone(), r.labels.clone()))
    else {
        return;
    };
    let session = labels
        .get(SESSION_LABEL)
        .and_then(|sid| s.devin.session_view(sid));
    s.journal.push(crate::emulator::journal::Mutation {
        seq: 0,
        at_ms: now_ms(),
        provider: "daytona".into(),
        op: op.into(),
        sandbox_id: id.to_string(),
        name,
        labels,
        caller: s.daytona.caller(headers),
        session,
    });
}

pub(super) fn bad(msg: impl Into<String>, path: &str) -> Response {
    api_error(StatusCode::BAD_REQUEST, msg, path)
}

pub(super) fn in_progress(path: &str) -> Response {
    api_error(
        StatusCode::CONFLICT,
        "Sandbox state change in progress",
        path,
    )
}

/// Quota rule shared with snapshots.
pub(crate) fn check_quota(
    settings: &model::Settings,
    cpu: u32,
    memory: u32,
    disk: u32,
) -> Result<(), String> {
    if cpu > settings.max_cpu {
        return Err(format!(
            "CPU request {cpu} exceeds maximum allowed per sandbox ({})",
            settings.max_cpu
        ));
    }
    if memory > settings.max_memory {
        return Err(format!(
            "Memory request {memory}GB exceeds maximum allowed per sandbox ({}GB)",
            settings.max_memory
        ));
    }
    if disk > settings.max_disk {
        return Err(format!(
            "Disk request {disk}GB exceeds maximum allowed per sandbox ({}GB)",
            settings.max_disk
        ));
    }
    Ok(())
}

pub(super) fn lock_of(s: &AppState, id: &str) -> Option<Arc<tokio::sync::Mutex<()>>> {
    s.daytona.org().sandboxes.get(id).map(|r| r.lock.clone())
}

fn desired_of(s: &AppState, id: &str) -> Option<Desired> {
    s.daytona.org().sandboxes.get(id).map(|r| r.desired)
}

async fn get_one(
    _: Authed,
    State(s): State<AppState>,
    Path(key): Path<String>,
    uri: Uri,
) -> Response {
    let lag = s.daytona.settings().get_lag_ms;
    let id = {
        let org = s.daytona.org();
        find_id(&org, &key).filter(|id| {
            lag == 0
                || org
                    .sandboxes
                    .get(id)
                    .is_some_and(|r| r.created_ms + lag <= now_ms())
        })
    };
    match id {
        Some(id) => ok_dto(&s, &id, uri.path()),
        None => not_found(&key, uri.path()),
    }
}

/// The `labels` filter of a list: a JSON object whose values are strings (others are compared
/// as their JSON text).
fn label_filter(raw: &str) -> Result<BTreeMap<String, String>, ()> {
    let m = serde_json::from_str::<BTreeMap<String, serde_json::Value>>(raw).map_err(drop)?;
    Ok(m.into_iter()
        .map(|(k, v)| (k, v.as_str().map(str::to_string).unwrap_or(v.to_string())))
        .collect())
}

async fn list(_: Authed, State(s): State<AppState>, uri: Uri, RawQuery(q): RawQuery) -> Response {
    let path = uri.path();
    let pairs: Vec<(String, String)> =
        url::form_urlencoded::parse(q.unwrap_or_default().as_bytes())
            .into_owned()
            .collect();
    let one = |k: &str| pairs.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
    let many = |k: &str| -> Vec<String> {
        pairs
            .iter()
            .filter(|(n, _)| n == k || n == &format!("{k}[]"))
            .flat_map(|(_, v)| v.split(',').map(str::to_string).collect::<Vec<_>>())
            .collect()
    };
    let limit = match one("limit").map(|l| l.parse::<f64>()) {
        None => 100usize,
        Some(Ok(l)) if (1.0..=200.0).contains(&l) => l as usize,
        Some(Ok(l)) if l > 200.0 => return bad("limit must not be greater than 200", path),
        Some(_) => return bad("limit must not be less than 1", path),
    };
    let labels = match one("labels").map(|raw| label_filter(&raw)).transpose() {
        Ok(l) => l.unwrap_or_default(),
        Err(()) => return bad("Invalid labels JSON format", path),
    };
    let offset = match one("cursor") {
        None => 0usize,
        Some(c) => match c.parse::<usize>() {
            Ok(o) => o,
            Err(_) => return bad("Invalid cursor", path),
        },
    };
    let states = many("states");
    let include_errored_deleted = one("includeErroredDeleted").as_deref() == Some("true");
    let include_warm = one("includeWarm").as_deref() == Some("true");
    let id_prefix = one("id").map(|v| v.to_lowercase());
    let name_prefix = one("name").map(|v| v.to_lowercase());
    let tb = toolbox(&s);
    let lag = s.daytona.settings().list_lag_ms;
    let now = now_ms();
    let mut org = s.daytona.org();
    org.graveyard.retain(|(gone, _)| gone + lag > now);
    let org = org;
    let mut all: Vec<&SandboxRec> = org
        .sandboxes
        .values()
        .filter(|r| r.created_ms + lag <= now)
        .chain(org.graveyard.iter().map(|(_, r)| r))
        .filter(|r| r.stored != St::Destroyed)
        .filter(|r| include_warm || r.warm_pool.is_none())
        .filter(|r| include_errored_deleted || !r.gone())
        .filter(|r| labels.iter().all(|(k, v)| r.labels.get(k) == Some(v)))
        .filter(|r| states.is_empty() || states.iter().any(|st| st == r.reported().as_str()))
        .filter(|r| {
            id_prefix
                .as_ref()
                .is_none_or(|p| r.id.to_lowercase().starts_with(p))
        })
        .filter(|r| {
            name_prefix
                .as_ref()
                .is_none_or(|p| r.name.to_lowercase().starts_with(p))
        })
        .collect();
    // Newest first (the server's default order is by last activity, descending).
    let total = all.len();
    let items: Vec<serde_json::Value> = page(&mut all, offset, limit, |a, b| {
        b.created_ms.cmp(&a.created_ms).then(a.id.cmp(&b.id))
    })
    .iter()
    .map(|r| r.list_item(&tb))
    .collect();
    let next = offset + items.len();
    let next_cursor = (next < total).then(|| next.to_string());
    axum::Json(json!({"items": items, "nextCursor": next_cursor})).into_response()
}

/// Items `offset..offset + limit` of `all` in `order`, without sorting the rest: sorting every
/// match for each page made a listing of N sandboxes cost N/limit × N log N under the org's lock
/// (issue 35: each replica recounted its sandboxes that way after every launch).
fn page<T>(
    all: &mut [T],
    offset: usize,
    limit: usize,
    order: impl Fn(&T, &T) -> std::cmp::Ordering,
) -> &[T] {
    if offset >= all.len() || limit == 0 {
        return &[];
    }
    if offset > 0 {
        all.select_nth_unstable_by(offset, &order);
    }
    let rest = &mut all[offset..];
    let n = limit.min(rest.len());
    if n < rest.len() {
        rest.select_nth_unstable_by(n - 1, &order);
    }
    let page = &mut rest[..n];
    page.sort_unstable_by(&order);
    page
}

async fn labels(
    _: Authed,
    State(s): State<AppState>,
    Path(key): Path<String>,
    uri: Uri,
    body: Bytes,
) -> Response {
    let path = uri.path();
    let parsed: Result<BTreeMap<String, String>, String> =
        serde_json::from_slice::<serde_json::Value>(&body)
            .map_err(|e| e.to_string())
            .and_then(|v| {
                serde_json::from_value(v.get("labels").cloned().unwrap_or(serde_json::Value::Null))
                    .map_err(|_| "labels must be an object of strings".to_string())
            });
    let new = match parsed {
        Ok(l) => l,
        Err(m) => return bad(m, path),
    };
    let Some(id) = find_id(&s.daytona.org(), &key) else {
        return not_found(&key, path);
    };
    update(&s, &id, |r| r.labels = new);
    ok_dto(&s, &id, path)
}

async fn toolbox_url(
    _: Authed,
    State(s): State<AppState>,
    Path(key): Path<String>,
    uri: Uri,
) -> Response {
    if find_id(&s.daytona.org(), &key).is_none() {
        return not_found(&key, uri.path());
    }
    axum::Json(json!({"url": toolbox(&s)})).into_response()
}

async fn build_logs_url(
    _: Authed,
    State(s): State<AppState>,
    Path(key): Path<String>,
    uri: Uri,
) -> Response {
    let org = s.daytona.org();
    let Some(id) = find_id(&org, &key) else {
        return not_found(&key, uri.path());
    };
    if org
        .sandboxes
        .get(&id)
        .is_none_or(|r| r.build_info.is_none())
    {
        return api_error(
            StatusCode::NOT_FOUND,
            format!("Sandbox {key} has no build info"),
            uri.path(),
        );
    }
    axum::Json(json!({"url": format!("{}{PROXY_PREFIX}/sandboxes/{id}/build-logs", s.base_url)}))
        .into_response()
}

/// The build log of a sandbox created from `buildInfo` (the proxy route).
pub(crate) fn build_log(s: &AppState, id: &str) -> Option<(Vec<String>, bool)> {
    let org = s.daytona.org();
    let r = org.sandboxes.get(id)?;
    let done = !matches!(r.stored, St::PendingBuild | St::BuildingSnapshot);
    Some((r.build_log.clone(), done))
}

async fn snapshot_sandbox(
    _: Authed,
    State(s): State<AppState>,
    Path(key): Path<String>,
    uri: Uri,
    body: Bytes,
) -> Response {
    let path = uri.path();
    let name = match serde_json::from_slice::<serde_json::Value>(&body)
        .ok()
        .and_then(|v| v.get("name").and_then(|n| n.as_str()).map(str::to_string))
    {
        Some(n) => n,
        None => return bad("name must be a string", path),
    };
    let id = {
        let org = s.daytona.org();
        match find_id(&org, &key) {
            Some(id) => id,
            None => return not_found(&key, path),
        }
    };
    match snapshot::from_sandbox(&s, &id, &name) {
        Ok(()) => ok_dto(&s, &id, path),
        Err(resp) => resp,
    }
}

async fn set_interval(
    s: &AppState,
    key: &str,
    m: &str,
    path: &str,
    f: fn(&mut SandboxRec, i64),
) -> Response {
    let Ok(minutes) = m.parse::<i64>() else {
        return bad("Validation failed (numeric string is expected)", path);
    };
    let Some(id) = find_id(&s.daytona.org(), key) else {
        return not_found(key, path);
    };
    update(s, &id, |r| f(r, minutes));
    ok_dto(s, &id, path)
}

async fn autostop(
    _: Authed,
    State(s): State<AppState>,
    Path((k, m)): Path<(String, String)>,
    uri: Uri,
) -> Response {
    set_interval(&s, &k, &m, uri.path(), |r, v| r.auto_stop = v).await
}

async fn autoarchive(
    _: Authed,
    State(s): State<AppState>,
    Path((k, m)): Path<(String, String)>,
    uri: Uri,
) -> Response {
    set_interval(&s, &k, &m, uri.path(), |r, v| r.auto_archive = v).await
}

async fn autodelete(
    _: Authed,
    State(s): State<AppState>,
    Path((k, m)): Path<(String, String)>,
    uri: Uri,
) -> Response {
    set_interval(&s, &k, &m, uri.path(), |r, v| r.auto_delete = v).await
}

#[cfg(test)]
mod page_tests {
    /// Every page equals the same slice of a full sort, for offsets and limits around the edges.
    #[test]
    fn a_page_is_the_same_slice_of_a_full_sort() {
        let items: Vec<(u64, String)> = (0..23u64)
            .map(|i| ((i * 7) % 5, format!("sb-{:02}", (i * 11) % 23)))
            .collect();
        let order = |a: &(u64, String), b: &(u64, String)| b.0.cmp(&a.0).then(a.1.cmp(&b.1));
        let mut sorted = items.clone();
        sorted.sort_by(order);
        for offset in [0, 1, 5, 22, 23, 30] {
            for limit in [0, 1, 4, 23, 200] {
                let mut all = items.clone();
                let got = super::page(&mut all, offset, limit, order).to_vec();
                let want: Vec<_> = sorted.iter().skip(offset).take(limit).cloned().collect();
                assert_eq!(got, want, "offset {offset} limit {limit}");
            }
        }
    }
}
