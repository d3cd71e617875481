//! `/api/warm-pools`: N started sandboxes of one snapshot kept ready, handed to eligible
//! creates (specs/daytona-api-openapi.json `WarmPool`, `CreateWarmPool`, `UpdateWarmPool`, and
//! Daytona's public warm-pool docs):
//! - one pool per snapshot and region: a second answers 409;
//! - a create is served from the pool only with the same snapshot and region, the snapshot's
//!   default resources and user, and no custom env or volumes;
//! - on hand-over the create's name, labels, auto-stop/archive/delete intervals, visibility
//!   and network settings are applied to the waiting sandbox, which then leaves the pool;
//! - the pool refills itself (after `Settings::warm_refill_ms`); members are hidden from
//!   `GET /sandbox` unless `includeWarm=true`, and carry `warmPoolId` while they wait.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, patch};
use serde_json::{Value, json};

use super::model::{self, ORG_ID, SandboxRec, api_error, d, now_ms};
use super::sandbox::{bad, boot, run_delete};
use super::{API_PREFIX, Authed, snapshot};
use crate::api::daytona_types::{
    CreateSandbox, SandboxDesiredState as Desired, SandboxState as St,
};
use crate::emulator::AppState;

/// The user sandboxes run as unless a create names another (the snapshot's default).
const DEFAULT_USER: &str = "daytona";
/// The region when a request names none (the organization default).
const DEFAULT_TARGET: &str = "us";

#[derive(Debug, Clone)]
pub struct WarmPoolRec {
    pub id: String,
    /// The snapshot's name (a pool created by id is stored under the name it resolves to).
    pub snapshot: String,
    pub target: String,
    pub pool: u32,
    pub created_ms: u64,
    pub updated_ms: u64,
}

pub fn routes() -> Router<AppState> {
    let p = |s: &str| format!("{API_PREFIX}{s}");
    Router::new()
        .route(&p("/warm-pools"), get(list).post(create))
        .route(&p("/warm-pools/:id"), patch(update).delete(delete))
}

/// Ready members of `pool` (started, unclaimed).
fn ready(org: &super::Org, pool: &str) -> usize {
    org.sandboxes
        .values()
        .filter(|r| r.warm_pool.as_deref() == Some(pool) && r.stored == St::Started)
        .count()
}

fn dto(org: &super::Org, p: &WarmPoolRec) -> Value {
    let snap = org.snapshots.values().find(|s| s.name == p.snapshot);
    json!({
        "id": p.id,
        "organizationId": ORG_ID,
        "snapshot": p.snapshot,
        "target": p.target,
        "pool": p.pool,
        "currentSize": ready(org, &p.id),
        "cpu": snap.map_or(1, |s| s.cpu),
        "mem": snap.map_or(1, |s| s.mem),
        "disk": snap.map_or(3, |s| s.disk),
        "osUser": DEFAULT_USER,
        "env": {},
        "createdAt": model::iso(p.created_ms),
        "updatedAt": model::iso(p.updated_ms),
    })
}

async fn list(_: Authed, State(s): State<AppState>) -> Response {
    let org = s.daytona.org();
    let all: Vec<Value> = org.warm_pools.values().map(|p| dto(&org, p)).collect();
    axum::Json(all).into_response()
}

/// A whole non-negative number (`pool` is `number` in the spec), at least `min`.
fn pool_size(v: &Value, min: u32) -> Option<u32> {
    let n = v.get("pool")?.as_f64()?;
    (n.fract() == 0.0 && n >= f64::from(min) && n <= 1000.0).then_some(n as u32)
}

async fn create(_: Authed, State(s): State<AppState>, uri: Uri, body: Bytes) -> Response {
    let path = uri.path();
    let Ok(v) = serde_json::from_slice::<Value>(&body) else {
        return bad("invalid request body", path);
    };
    let Some(key) = v.get("snapshot").and_then(Value::as_str) else {
        return bad("snapshot must be a string", path);
    };
    let Some(size) = pool_size(&v, 1) else {
        return bad("pool must be a whole number not less than 1", path);
    };
    let target = v
        .get("target")
        .and_then(Value::as_str)
        .unwrap_or(DEFAULT_TARGET)
        .to_string();
    let now = now_ms();
    let (id, body) = {
        let mut org = s.daytona.org();
        let Some(snap) = snapshot::find_mut(&mut org, key) else {
            return api_error(
                StatusCode::NOT_FOUND,
                format!("Snapshot {key} not found"),
                path,
            );
        };
        let name = snap.name.clone();
        if org
            .warm_pools
            .values()
            .any(|p| p.snapshot == name && p.target == target)
        {
            return api_error(
                StatusCode::CONFLICT,
                format!("A warm pool for snapshot {name} in region {target} already exists"),
                path,
            );
        }
        let rec = WarmPoolRec {
            id: uuid::Uuid::new_v4().to_string(),
            snapshot: name,
            target,
            pool: size,
            created_ms: now,
            updated_ms: now,
        };
        let id = rec.id.clone();
        org.warm_pools.insert(id.clone(), rec);
        let body = dto(&org, &org.warm_pools[&id]);
        (id, body)
    };
    refill(&s, &id);
    (StatusCode::CREATED, axum::Json(body)).into_response()
}

async fn update(
    _: Authed,
    State(s): State<AppState>,
    Path(id): Path<String>,
    uri: Uri,
    body: Bytes,
) -> Response {
    let path = uri.path();
    let Some(size) = serde_json::from_slice::<Value>(&body)
        .ok()
        .and_then(|v| pool_size(&v, 0))
    else {
        return bad("pool must be a whole number not less than 0", path);
    };
    let body = {
        let mut org = s.daytona.org();
        let Some(p) = org.warm_pools.get_mut(&id) else {
            return pool_not_found(&id, path);
        };
        p.pool = size;
        p.updated_ms = now_ms();
        dto(&org, &org.warm_pools[&id])
    };
    refill(&s, &id);
    axum::Json(body).into_response()
}

async fn delete(
    _: Authed,
    State(s): State<AppState>,
    Path(id): Path<String>,
    uri: Uri,
) -> Response {
    if s.daytona.org().warm_pools.remove(&id).is_none() {
        return pool_not_found(&id, uri.path());
    }
    // Its waiting members go with it.
    drain(&s, &id, 0);
    StatusCode::NO_CONTENT.into_response()
}

fn pool_not_found(id: &str, path: &str) -> Response {
    api_error(
        StatusCode::NOT_FOUND,
        format!("Warm pool {id} not found"),
        path,
    )
}

/// Destroy waiting members of `pool` beyond `keep`.
fn drain(s: &AppState, pool: &str, keep: usize) {
    let doomed: Vec<String> = {
        let mut org = s.daytona.org();
        let ids: Vec<String> = org
            .sandboxes
            .values()
            .filter(|r| r.warm_pool.as_deref() == Some(pool) && r.desired == Desired::Started)
            .map(|r| r.id.clone())
            .skip(keep)
            .collect();
        for id in &ids {
            if let Some(r) = org.sandboxes.get_mut(id) {
                r.desired = Desired::Destroyed;
                r.name = format!("DESTROYED_{}_{}", r.name, now_ms());
            }
        }
        ids
    };
    for id in doomed {
        tokio::spawn(run_delete(s.clone(), id));
    }
}

/// Bring `pool` to its size: start missing members, destroy surplus ones.
fn refill(s: &AppState, pool: &str) {
    let new: Vec<String> = {
        let mut org = s.daytona.org();
        let Some(p) = org.warm_pools.get(pool).cloned() else {
            return;
        };
        let members = org
            .sandboxes
            .values()
            .filter(|r| r.warm_pool.as_deref() == Some(pool) && r.desired == Desired::Started)
            .count();
        let want = p.pool as usize;
        if members > want {
            drop(org);
            drain(s, pool, want);
            return;
        }
        let Some(snap) = snapshot::find_mut(&mut org, &p.snapshot).cloned() else {
            return;
        };
        (members..want)
            .map(|_| {
                let id = uuid::Uuid::new_v4().to_string();
                let now = now_ms();
                org.sandboxes.insert(
                    id.clone(),
                    SandboxRec {
                        id: id.clone(),
                        name: id.clone(),
                        windows: snap.windows,
                        snapshot: Some(snap.name.clone()),
                        user: DEFAULT_USER.into(),
                        env: BTreeMap::new(),
                        labels: BTreeMap::new(),
                        public: false,
                        network_block_all: false,
                        network_allow_list: None,
                        domain_allow_list: None,
                        target: p.target.clone(),
                        cpu: snap.cpu,
                        gpu: snap.gpu,
                        memory: snap.mem,
                        disk: snap.disk,
                        stored: St::Unknown,
                        desired: Desired::Started,
                        error_reason: None,
                        auto_stop: 15,
                        auto_archive: 10080,
                        auto_delete: -1,
                        stopped_ms: None,
                        build_info: None,
                        build_log: Vec::new(),
                        created_ms: now,
                        updated_ms: now,
                        local: false,
                        lock: Arc::new(tokio::sync::Mutex::new(())),
                        warm_pool: Some(pool.to_string()),
                    },
                );
                id
            })
            .collect()
    };
    for id in new {
        tokio::spawn(boot(s.clone(), id, None));
    }
}

/// Why `req` cannot be served warm, or `None` when it can (the eligibility rules above).
fn ineligible(req: &CreateSandbox) -> Option<&'static str> {
    if req.env.as_ref().is_some_and(|e| !e.is_empty()) {
        return Some("custom env");
    }
    if req.volumes.as_ref().is_some_and(|v| !v.is_empty()) {
        return Some("volumes");
    }
    if req.secrets.as_ref().is_some_and(|v| !v.is_empty()) {
        return Some("secrets");
    }
    if req.user.as_deref().is_some_and(|u| u != DEFAULT_USER) {
        return Some("a non-default user");
    }
    if req.cpu.is_some() || req.gpu.is_some() || req.memory.is_some() || req.disk.is_some() {
        return Some("custom resources");
    }
    None
}

/// Serve the create `req` (whose cold record would be `cold`) from its snapshot's warm pool: the
/// handed-over sandbox's id, or `None` when the create is ineligible or the pool has no ready
/// member. The pool then refills.
pub(super) fn hand_over(s: &AppState, req: &CreateSandbox, cold: &SandboxRec) -> Option<String> {
    if ineligible(req).is_some() {
        return None;
    }
    let (pool, id) = {
        let mut org = s.daytona.org();
        let snapshot = cold.snapshot.clone()?;
        let pool = org
            .warm_pools
            .values()
            .find(|p| p.snapshot == snapshot && p.target == cold.target)?
            .id
            .clone();
        let id = org
            .sandboxes
            .values()
            .filter(|r| r.warm_pool.as_deref() == Some(pool.as_str()) && r.stored == St::Started)
            .min_by_key(|r| r.created_ms)?
            .id
            .clone();
        let r = org.sandboxes.get_mut(&id)?;
        r.warm_pool = None;
        r.name = req.name.clone().unwrap_or_else(|| r.id.clone());
        r.labels = cold.labels.clone();
        r.public = cold.public;
        r.auto_stop = cold.auto_stop;
        r.auto_archive = cold.auto_archive;
        r.auto_delete = cold.auto_delete;
        r.network_block_all = cold.network_block_all;
        r.network_allow_list = cold.network_allow_list.clone();
        r.domain_allow_list = cold.domain_allow_list.clone();
        r.updated_ms = now_ms();
        (pool, id)
    };
    let s2 = s.clone();
    tokio::spawn(async move {
        tokio::time::sleep(d(s2.daytona.settings().warm_refill_ms)).await;
        refill(&s2, &pool);
    });
    Some(id)
}
