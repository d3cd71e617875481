//! `/api/sandbox…`: create, get, list, start, stop, delete, labels, toolbox URL, build logs,
//! snapshot-from-sandbox (archive and restore: [`super::archive`]). Slow transitions run in
//! background tasks, serialised per sandbox, against the local provider; the API reports
//! derived states meanwhile.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use serde_json::json;

use super::model::{self, SandboxRec, api_error, d, now_ms};
use super::snapshot::{self, BuildCheck};
use super::{API_PREFIX, Authed, DaytonaEmu, PROXY_PREFIX};
use crate::api::daytona_types::{
    BuildInfo, CreateSandbox, SandboxDesiredState as Desired, SandboxState as St, SnapshotState,
};
use crate::emulator::AppState;

/// The label orchestrators put the session id in (devin-outposts-api.md, sandbox naming): the
/// mutation journal uses it to say which session a sandbox change touched.
const SESSION_LABEL: &str = "devin.session_id";
use crate::provider::{Provider, SandboxSpec, Source};
use crate::secrets::Secret;

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

async fn create(
    _: Authed,
    State(s): State<AppState>,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let path = uri.path().to_string();
    let req: CreateSandbox = if body.is_empty() {
        CreateSandbox::default()
    } else {
        match serde_json::from_slice(&body) {
            Ok(r) => r,
            Err(e) => return bad(format!("invalid request body: {e}"), &path),
        }
    };
    if let Err(m) = super::network::check(&req.network) {
        return bad(m, &path);
    }
    let has_resources =
        req.cpu.is_some() || req.gpu.is_some() || req.memory.is_some() || req.disk.is_some();
    if req.snapshot.is_some() && req.build_info.is_some() {
        return bad(
            "Cannot specify a snapshot when using a build info entry",
            &path,
        );
    }
    if req.build_info.is_none() && has_resources {
        return bad(
            "Cannot specify Sandbox resources when using a snapshot",
            &path,
        );
    }
    if let Some(env) = &req.env
        && let Some(k) = env.keys().find(|k| k.is_empty())
    {
        return bad(format!("invalid environment variable name `{k}`"), &path);
    }
    let settings = s.daytona.settings();
    let id = uuid::Uuid::new_v4().to_string();
    let now = now_ms();
    let (snapshot_name, cpu, gpu, memory, disk, build_info, build_check) = {
        let mut org = s.daytona.org();
        if let Some(name) = &req.name
            && org.sandboxes.values().any(|r| &r.name == name && !r.gone())
        {
            return api_error(
                StatusCode::CONFLICT,
                format!("Sandbox with name {name} already exists"),
                &path,
            );
        }
        match &req.build_info {
            Some(b) => {
                let (cpu, memory, disk) = (
                    req.cpu.unwrap_or(1),
                    req.memory.unwrap_or(1),
                    req.disk.unwrap_or(3),
                );
                if let Err(m) = check_quota(&settings, cpu, memory, disk) {
                    return bad(m, &path);
                }
                let hashes = b.context_hashes.clone();
                let info = BuildInfo {
                    dockerfile_content: Some(b.dockerfile_content.clone()),
                    context_hashes: Some(hashes.clone()),
                    created_at: Some(model::iso(now)),
                    updated_at: Some(model::iso(now)),
                    snapshot_ref: Some(snapshot::snapshot_ref(&b.dockerfile_content, &hashes)),
                };
                let check = snapshot::check_dockerfile(&b.dockerfile_content);
                (
                    info.snapshot_ref.clone(),
                    cpu,
                    req.gpu.unwrap_or(0),
                    memory,
                    disk,
                    Some(info),
                    Some(check),
                )
            }
            None => {
                let key = req
                    .snapshot
                    .clone()
                    .unwrap_or_else(|| model::DEFAULT_SNAPSHOT.into());
                let Some(snap) = snapshot::find_mut(&mut org, &key) else {
                    return bad(
                        format!(
                            "Snapshot {key} not found. Did you add it through the Daytona Dashboard?"
                        ),
                        &path,
                    );
                };
                if snap.state != SnapshotState::Active {
                    return bad(format!("Snapshot {key} is {}", snap.state), &path);
                }
                snap.last_used_ms = Some(now);
                (
                    Some(snap.name.clone()),
                    snap.cpu,
                    snap.gpu,
                    snap.mem,
                    snap.disk,
                    None,
                    None,
                )
            }
        }
    };
    let stored = if build_info.is_some() {
        St::PendingBuild
    } else {
        St::Unknown
    };
    let windows = {
        let mut org = s.daytona.org();
        snapshot_name
            .as_deref()
            .and_then(|n| snapshot::find_mut(&mut org, n))
            .is_some_and(|x| x.windows)
    };
    let mut rec = SandboxRec {
        id: id.clone(),
        name: req.name.clone().unwrap_or_else(|| id.clone()),
        snapshot: snapshot_name,
        user: req.user.clone().unwrap_or_else(|| "daytona".into()),
        env: req.env.clone().unwrap_or_default(),
        labels: req.labels.clone().unwrap_or_default(),
        public: req.public.unwrap_or(false),
        network_block_all: false,
        network_allow_list: None,
        domain_allow_list: None,
        target: req.target.clone().unwrap_or_else(|| "us".into()),
        cpu,
        gpu,
        memory,
        disk,
        stored,
        desired: Desired::Started,
        error_reason: None,
        auto_stop: req.auto_stop_interval.unwrap_or(15),
        auto_archive: req.auto_archive_interval.unwrap_or(10080),
        auto_delete: req.auto_delete_interval.unwrap_or(-1),
        stopped_ms: None,
        build_info,
        build_log: Vec::new(),
        created_ms: now,
        updated_ms: now,
        local: false,
        windows,
        lock: Arc::new(tokio::sync::Mutex::new(())),
        warm_pool: None,
    };
    super::network::apply(&mut rec, &req.network);
    // An eligible create takes a started sandbox from the snapshot's warm pool instead.
    if rec.build_info.is_none()
        && let Some(id) = super::warm_pool::hand_over(&s, &req, &rec)
    {
        journal(&s, &headers, "create", &id);
        return ok_dto(&s, &id, &path);
    }
    s.daytona.org().sandboxes.insert(id.clone(), rec);
    journal(&s, &headers, "create", &id);
    let from_build = build_check.is_some();
    tokio::spawn(boot(s.clone(), id.clone(), build_check));
    // From a snapshot the server waits (bounded) for `started`; with buildInfo it answers at once.
    if !from_build {
        match wait_for(&s, &id, d(settings.start_wait_ms), |r| {
            r.stored == St::Started
        })
        .await
        {
            Some(r) if r.stored.is_error() => {
                return bad(
                    format!(
                        "Sandbox failed to start: {}",
                        r.error_reason.unwrap_or_default()
                    ),
                    &path,
                );
            }
            _ => {}
        }
    }
    ok_dto(&s, &id, &path)
}

/// Poll the record until `done` or an error state, up to `max`; the final record.
async fn wait_for(
    s: &AppState,
    id: &str,
    max: Duration,
    done: impl Fn(&SandboxRec) -> bool,
) -> Option<SandboxRec> {
    let deadline = Instant::now() + max;
    loop {
        let rec = s.daytona.org().sandboxes.get(id).cloned()?;
        if done(&rec) || rec.stored.is_error() || Instant::now() >= deadline {
            return Some(rec);
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

pub(super) fn lock_of(s: &AppState, id: &str) -> Option<Arc<tokio::sync::Mutex<()>>> {
    s.daytona.org().sandboxes.get(id).map(|r| r.lock.clone())
}

fn desired_of(s: &AppState, id: &str) -> Option<Desired> {
    s.daytona.org().sandboxes.get(id).map(|r| r.desired)
}

/// Sandboxes built from the Devin CLI image (`FROM` it, directly or through their snapshot) get
/// the emulator's fake `devin` CLI at /opt/devin/bin, as on the emulated CoreWeave.
fn devin_cli_for(s: &AppState, rec: &SandboxRec) -> crate::provider::local::SandboxOptions {
    let image = crate::emulator::coreweave::DEVIN_CLI_IMAGE;
    let from_cli = |dockerfile: &str| {
        dockerfile.lines().any(|l| {
            let t = l.trim();
            t.get(..5).is_some_and(|w| w.eq_ignore_ascii_case("from ")) && t.contains(image)
        })
    };
    let mut uses = rec
        .build_info
        .as_ref()
        .and_then(|b| b.dockerfile_content.as_deref())
        .is_some_and(from_cli);
    if !uses && let Some(name) = &rec.snapshot {
        let mut org = s.daytona.org();
        uses = snapshot::find_mut(&mut org, name).is_some_and(|snap| {
            snap.image_name.as_deref() == Some(image)
                || snap
                    .build_info
                    .as_ref()
                    .and_then(|b| b.dockerfile_content.as_deref())
                    .is_some_and(from_cli)
        });
    }
    match (&s.devin_cli, uses) {
        (Some(dir), true) => {
            crate::provider::local::SandboxOptions::host_bin(dir).unwrap_or_default()
        }
        _ => Default::default(),
    }
}

/// The files the sandbox's snapshot build put into its image.
fn image_files_of(s: &AppState, rec: &SandboxRec) -> Vec<super::image_files::ImageFile> {
    let Some(name) = &rec.snapshot else {
        return Vec::new();
    };
    let mut org = s.daytona.org();
    snapshot::find_mut(&mut org, name)
        .map(|snap| snap.files.clone())
        .unwrap_or_default()
}

/// Build (for `buildInfo`), then create the local sandbox.
pub(super) async fn boot(s: AppState, id: String, build: Option<BuildCheck>) {
    let Some(lock) = lock_of(&s, &id) else { return };
    let _guard = lock.lock().await;
    let settings = s.daytona.settings();
    if let Some(check) = build {
        tokio::time::sleep(d(settings.snapshot_pending_ms)).await;
        update(&s, &id, |r| r.stored = St::BuildingSnapshot);
        for line in &check.log {
            tokio::time::sleep(d(settings.snapshot_step_ms)).await;
            update(&s, &id, |r| r.build_log.push(line.clone()));
        }
        if let Some(reason) = check.failure {
            update(&s, &id, |r| {
                r.stored = St::BuildFailed;
                r.error_reason = Some(reason);
            });
            return;
        }
        update(&s, &id, |r| r.stored = St::Unknown);
    }
    tokio::time::sleep(d(settings.create_ms)).await;
    let Some(rec) = s.daytona.org().sandboxes.get(&id).cloned() else {
        return;
    };
    if rec.desired != Desired::Started {
        return;
    }
    let mut spec = SandboxSpec::new(id.clone(), Source::Default);
    spec.labels = BTreeMap::from([("daytona.emulator/sandbox".to_string(), rec.name.clone())]);
    spec.env = rec
        .env
        .iter()
        .map(|(k, v)| (k.clone(), Secret::new(v.clone())))
        .collect();
    spec.user = Some(rec.user.clone());
    let extra = devin_cli_for(&s, &rec);
    let files = image_files_of(&s, &rec);
    let created = match s.sandboxes.provider().create_with(&spec, &extra).await {
        // The image's files are in place before the sandbox reports `started`.
        Ok(_) => match s.sandboxes.provider().tree(&id) {
            Ok(Some(tree)) => super::image_files::place(&tree, &files)
                .map_err(|e| (true, format!("cannot place the image's files: {e}"))),
            Ok(None) => Err((true, "the local sandbox vanished".to_string())),
            Err(e) => Err((true, e.to_string())),
        },
        Err(e) => Err((false, e.to_string())),
    };
    match created {
        Ok(()) => update(&s, &id, |r| {
            r.local = true;
            r.stored = St::Started;
        }),
        Err((local, e)) => update(&s, &id, |r| {
            r.local = local;
            r.stored = St::Error;
            r.error_reason = Some(format!("cannot boot the local sandbox: {e}"));
        }),
    }
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
    let labels: BTreeMap<String, String> = match one("labels") {
        None => BTreeMap::new(),
        Some(raw) => match serde_json::from_str::<BTreeMap<String, serde_json::Value>>(&raw) {
            Ok(m) => m
                .into_iter()
                .map(|(k, v)| (k, v.as_str().map(str::to_string).unwrap_or(v.to_string())))
                .collect(),
            Err(_) => return bad("Invalid labels JSON format", path),
        },
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
    all.sort_by(|a, b| b.created_ms.cmp(&a.created_ms).then(a.id.cmp(&b.id)));
    let items: Vec<serde_json::Value> = all
        .iter()
        .skip(offset)
        .take(limit)
        .map(|r| r.list_item(&tb))
        .collect();
    let next = offset + items.len();
    let next_cursor = (next < all.len()).then(|| next.to_string());
    axum::Json(json!({"items": items, "nextCursor": next_cursor})).into_response()
}

async fn start(
    _: Authed,
    State(s): State<AppState>,
    Path(key): Path<String>,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    let path = uri.path();
    let settings = s.daytona.settings();
    let (id, restore) = match change(&s, &key, path, |r| {
        let restore = match (r.stored, r.desired) {
            (St::Started, Desired::Started) => {
                return Err(axum::Json(r.dto(&toolbox(&s))).into_response());
            }
            (St::Archived, Desired::Archived) => {
                r.stored = St::Restoring;
                true
            }
            (St::Stopped, Desired::Stopped | Desired::Archived) => false,
            (st, _) if st.is_error() => return Err(bad("Sandbox is in an errored state", path)),
            _ => return Err(in_progress(path)),
        };
        r.desired = Desired::Started;
        r.updated_ms = now_ms();
        Ok(restore)
    }) {
        Ok(x) => x,
        Err(answer) => return answer,
    };
    journal(&s, &headers, "start", &id);
    if restore {
        // From archived the server answers at once, `restoring` (daytona-api.md §3.5).
        tokio::spawn(super::archive::run_restore(s.clone(), id.clone()));
        return ok_dto(&s, &id, path);
    }
    tokio::spawn(run_start(s.clone(), id.clone()));
    wait_for(&s, &id, d(settings.start_wait_ms), |r| {
        r.stored == St::Started
    })
    .await;
    ok_dto(&s, &id, path)
}

async fn run_start(s: AppState, id: String) {
    let Some(lock) = lock_of(&s, &id) else { return };
    let _guard = lock.lock().await;
    tokio::time::sleep(d(s.daytona.settings().start_ms)).await;
    if desired_of(&s, &id) != Some(Desired::Started) {
        return;
    }
    match s.sandboxes.provider().start(&id).await {
        Ok(()) => update(&s, &id, |r| r.stored = St::Started),
        Err(e) => update(&s, &id, |r| {
            r.stored = St::Error;
            r.error_reason = Some(format!("cannot start the local sandbox: {e}"));
        }),
    }
}

async fn stop(
    _: Authed,
    State(s): State<AppState>,
    Path(key): Path<String>,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    let path = uri.path();
    let (id, ()) = match change(&s, &key, path, |r| match (r.stored, r.desired) {
        (St::Started, Desired::Started) => {
            r.desired = Desired::Stopped;
            r.updated_ms = now_ms();
            Ok(())
        }
        (St::Stopped | St::Archived, Desired::Stopped | Desired::Archived) => {
            Err(bad("Sandbox is not in a stoppable state", path))
        }
        (st, _) if st.is_error() => Err(bad("Sandbox is not in a stoppable state", path)),
        _ => Err(in_progress(path)),
    }) {
        Ok(x) => x,
        Err(answer) => return answer,
    };
    journal(&s, &headers, "stop", &id);
    tokio::spawn(run_stop(s.clone(), id.clone()));
    ok_dto(&s, &id, path)
}

async fn run_stop(s: AppState, id: String) {
    let Some(lock) = lock_of(&s, &id) else { return };
    let _guard = lock.lock().await;
    tokio::time::sleep(d(s.daytona.settings().stop_ms)).await;
    let ephemeral = s
        .daytona
        .org()
        .sandboxes
        .get(&id)
        .is_some_and(|r| r.auto_delete == 0);
    let provider = s.sandboxes.provider();
    let result = provider.stop(&id).await;
    if ephemeral {
        let _ = provider.delete(&id).await;
        destroyed(&s, &id);
        return;
    }
    match result {
        Ok(()) => {
            let at = now_ms();
            update(&s, &id, |r| {
                r.stored = St::Stopped;
                r.stopped_ms = Some(at);
            });
            // From now on its autoArchiveInterval runs.
            tokio::spawn(super::archive::watch(s.clone(), id.clone(), at));
        }
        Err(e) => update(&s, &id, |r| {
            r.stored = St::Error;
            r.error_reason = Some(format!("cannot stop the local sandbox: {e}"));
        }),
    }
}

fn destroyed(s: &AppState, id: &str) {
    let lag = s.daytona.settings().list_lag_ms;
    let mut org = s.daytona.org();
    if let Some(r) = org.sandboxes.remove(id)
        && lag > 0
    {
        org.graveyard.push((now_ms(), r));
    }
    org.sessions.retain(|(sb, _), _| sb != id);
}

async fn delete(
    _: Authed,
    State(s): State<AppState>,
    Path(key): Path<String>,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    let path = uri.path();
    let (id, body) = {
        let mut org = s.daytona.org();
        let Some(id) = find_id(&org, &key) else {
            return not_found(&key, path);
        };
        let Some(r) = org.sandboxes.get_mut(&id) else {
            return not_found(&key, path);
        };
        if r.desired == Desired::Destroyed {
            return in_progress(path);
        }
        let now = now_ms();
        // Soft delete frees the name at once.
        r.name = format!("DESTROYED_{}_{now}", r.name);
        r.desired = Desired::Destroyed;
        r.updated_ms = now;
        (id, r.dto(&toolbox(&s)))
    };
    journal(&s, &headers, "delete", &id);
    tokio::spawn(run_delete(s.clone(), id));
    axum::Json(body).into_response()
}

pub(super) async fn run_delete(s: AppState, id: String) {
    let Some(lock) = lock_of(&s, &id) else { return };
    let _guard = lock.lock().await;
    tokio::time::sleep(d(s.daytona.settings().delete_ms)).await;
    let local = s.daytona.org().sandboxes.get(&id).is_some_and(|r| r.local);
    if local && let Err(e) = s.sandboxes.provider().delete(&id).await {
        tracing::warn!("emulated Daytona: cannot delete local sandbox {id}: {e}");
    }
    destroyed(&s, &id);
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
