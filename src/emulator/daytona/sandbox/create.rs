//! `POST /api/sandbox` and booting what it accepted: checks, the record, the build (for
//! `buildInfo`), then the local sandbox.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::Response;

use super::super::Authed;
use super::super::model::{self, SandboxRec, api_error, d, now_ms};
use super::super::snapshot::{self, BuildCheck};
use super::{bad, check_quota, journal, lock_of, ok_dto, update};
use crate::api::daytona_types::{
    BuildInfo, CreateSandbox, SandboxDesiredState as Desired, SandboxState as St, SnapshotState,
};
use crate::emulator::AppState;
use crate::poll::{Backoff, Poll, Waited, poll_until};
use crate::provider::{SandboxSpec, Source};
use crate::secrets::Secret;

/// What a new sandbox boots from, once the request checked out.
struct Origin {
    snapshot: Option<String>,
    cpu: u32,
    gpu: u32,
    memory: u32,
    disk: u32,
    build_info: Option<BuildInfo>,
    build_check: Option<BuildCheck>,
}

pub(super) async fn create(
    _: Authed,
    State(s): State<AppState>,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let path = uri.path().to_string();
    let req = match parse_create(&body, &path) {
        Ok(r) => r,
        Err(resp) => return resp,
    };
    let settings = s.daytona.settings();
    let id = uuid::Uuid::new_v4().to_string();
    let now = now_ms();
    let origin = match origin(&s, &req, &settings, now, &path) {
        Ok(o) => o,
        Err(resp) => return resp,
    };
    let build_check = origin.build_check;
    let windows = {
        let mut org = s.daytona.org();
        origin
            .snapshot
            .as_deref()
            .and_then(|n| snapshot::find_mut(&mut org, n))
            .is_some_and(|x| x.windows)
    };
    let mut rec = new_rec(&id, &req, origin.snapshot, now, windows);
    (rec.cpu, rec.gpu, rec.memory, rec.disk) = (origin.cpu, origin.gpu, origin.memory, origin.disk);
    rec.stored = if origin.build_info.is_some() {
        St::PendingBuild
    } else {
        St::Unknown
    };
    rec.build_info = origin.build_info;
    super::super::network::apply(&mut rec, &req.network);
    // An eligible create takes a started sandbox from the snapshot's warm pool instead.
    if rec.build_info.is_none()
        && let Some(id) = super::super::warm_pool::hand_over(&s, &req, &rec)
    {
        journal(&s, &headers, "create", &id);
        return ok_dto(&s, &id, &path);
    }
    s.daytona.org().sandboxes.insert(id.clone(), rec);
    journal(&s, &headers, "create", &id);
    let from_build = build_check.is_some();
    tokio::spawn(boot(s.clone(), id.clone(), build_check));
    // From a snapshot the server waits (bounded) for `started`; with buildInfo it answers at once.
    if !from_build
        && let Some(r) = wait_for(&s, &id, d(settings.start_wait_ms), |r| {
            r.stored == St::Started
        })
        .await
        && r.stored.is_error()
    {
        return bad(
            format!(
                "Sandbox failed to start: {}",
                r.error_reason.unwrap_or_default()
            ),
            &path,
        );
    }
    ok_dto(&s, &id, &path)
}

/// The request body, checked for the combinations Daytona refuses.
fn parse_create(body: &[u8], path: &str) -> Result<CreateSandbox, Response> {
    let req: CreateSandbox = if body.is_empty() {
        CreateSandbox::default()
    } else {
        serde_json::from_slice(body).map_err(|e| bad(format!("invalid request body: {e}"), path))?
    };
    super::super::network::check(&req.network).map_err(|m| bad(m, path))?;
    let has_resources =
        req.cpu.is_some() || req.gpu.is_some() || req.memory.is_some() || req.disk.is_some();
    if req.snapshot.is_some() && req.build_info.is_some() {
        return Err(bad(
            "Cannot specify a snapshot when using a build info entry",
            path,
        ));
    }
    if req.build_info.is_none() && has_resources {
        return Err(bad(
            "Cannot specify Sandbox resources when using a snapshot",
            path,
        ));
    }
    if let Some(env) = &req.env
        && let Some(k) = env.keys().find(|k| k.is_empty())
    {
        return Err(bad(
            format!("invalid environment variable name `{k}`"),
            path,
        ));
    }
    Ok(req)
}

/// The snapshot (or build) and resources of a new sandbox; a taken name, a missing or
/// unready snapshot or a quota breach is the error answer.
fn origin(
    s: &AppState,
    req: &CreateSandbox,
    settings: &model::Settings,
    now: u64,
    path: &str,
) -> Result<Origin, Response> {
    let mut org = s.daytona.org();
    if let Some(name) = &req.name
        && org.sandboxes.values().any(|r| &r.name == name && !r.gone())
    {
        return Err(api_error(
            StatusCode::CONFLICT,
            format!("Sandbox with name {name} already exists"),
            path,
        ));
    }
    if let Some(b) = &req.build_info {
        let (cpu, memory, disk) = (
            req.cpu.unwrap_or(1),
            req.memory.unwrap_or(1),
            req.disk.unwrap_or(3),
        );
        check_quota(settings, cpu, memory, disk).map_err(|m| bad(m, path))?;
        let hashes = b.context_hashes.clone();
        let info = BuildInfo {
            dockerfile_content: Some(b.dockerfile_content.clone()),
            context_hashes: Some(hashes.clone()),
            created_at: Some(model::iso(now)),
            updated_at: Some(model::iso(now)),
            snapshot_ref: Some(snapshot::snapshot_ref(&b.dockerfile_content, &hashes)),
        };
        return Ok(Origin {
            snapshot: info.snapshot_ref.clone(),
            cpu,
            gpu: req.gpu.unwrap_or(0),
            memory,
            disk,
            build_info: Some(info),
            build_check: Some(snapshot::check_dockerfile(&b.dockerfile_content)),
        });
    }
    let key = req
        .snapshot
        .clone()
        .unwrap_or_else(|| model::DEFAULT_SNAPSHOT.into());
    let Some(snap) = snapshot::find_mut(&mut org, &key) else {
        return Err(bad(
            format!("Snapshot {key} not found. Did you add it through the Daytona Dashboard?"),
            path,
        ));
    };
    if snap.state != SnapshotState::Active {
        return Err(bad(format!("Snapshot {key} is {}", snap.state), path));
    }
    snap.last_used_ms = Some(now);
    Ok(Origin {
        snapshot: Some(snap.name.clone()),
        cpu: snap.cpu,
        gpu: snap.gpu,
        memory: snap.mem,
        disk: snap.disk,
        build_info: None,
        build_check: None,
    })
}

/// The record of a sandbox just asked for, with Daytona's defaults for what the request left out.
fn new_rec(
    id: &str,
    req: &CreateSandbox,
    snapshot: Option<String>,
    now: u64,
    windows: bool,
) -> SandboxRec {
    SandboxRec {
        id: id.to_string(),
        name: req.name.clone().unwrap_or_else(|| id.to_string()),
        snapshot,
        user: req.user.clone().unwrap_or_else(|| "daytona".into()),
        env: req.env.clone().unwrap_or_default(),
        labels: req.labels.clone().unwrap_or_default(),
        public: req.public.unwrap_or(false),
        network_block_all: false,
        network_allow_list: None,
        domain_allow_list: None,
        target: req.target.clone().unwrap_or_else(|| "us".into()),
        cpu: 0,
        gpu: 0,
        memory: 0,
        disk: 0,
        stored: St::Unknown,
        desired: Desired::Started,
        error_reason: None,
        auto_stop: req.auto_stop_interval.unwrap_or(15),
        auto_archive: req.auto_archive_interval.unwrap_or(10080),
        auto_delete: req.auto_delete_interval.unwrap_or(-1),
        stopped_ms: None,
        build_info: None,
        build_log: Vec::new(),
        created_ms: now,
        updated_ms: now,
        local: false,
        windows,
        lock: Arc::new(tokio::sync::Mutex::new(())),
        warm_pool: None,
    }
}

/// Poll the record until `done` or an error state, up to `max`; the final record.
pub(super) async fn wait_for(
    s: &AppState,
    id: &str,
    max: Duration,
    done: impl Fn(&SandboxRec) -> bool,
) -> Option<SandboxRec> {
    let every = Backoff::fixed(Duration::from_millis(25));
    // A vanished record ends the wait as an error (`None`).
    let waited = poll_until(Instant::now() + max, every, || {
        std::future::ready(match s.daytona.org().sandboxes.get(id).cloned() {
            None => Err(()),
            Some(rec) if done(&rec) || rec.stored.is_error() => Ok(Poll::Ready(rec)),
            Some(rec) => Ok(Poll::Pending(rec)),
        })
    })
    .await
    .ok()?;
    match waited {
        Waited::Ready(rec) => Some(rec),
        Waited::TimedOut(rec) => rec,
    }
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
fn image_files_of(s: &AppState, rec: &SandboxRec) -> Vec<super::super::image_files::ImageFile> {
    let Some(name) = &rec.snapshot else {
        return Vec::new();
    };
    let mut org = s.daytona.org();
    snapshot::find_mut(&mut org, name)
        .map(|snap| snap.files.clone())
        .unwrap_or_default()
}

/// Build (for `buildInfo`), then create the local sandbox.
pub(crate) async fn boot(s: AppState, id: String, build: Option<BuildCheck>) {
    let Some(lock) = lock_of(&s, &id) else { return };
    let _guard = lock.lock().await;
    let settings = s.daytona.settings();
    if let Some(check) = build {
        tokio::time::sleep(d(settings.snapshot_pending_ms)).await;
        update(&s, &id, |r| r.stored = St::BuildingSnapshot);
        for line in &check.log {
            // Not poll_until: the emulated build's pace (one log line per step), not a wait.
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
    // Simulated: a record only (`emulator::simulated`).
    if let Some(sim) = s.sandboxes.sim() {
        tokio::time::sleep(sim.delay()).await;
        update(&s, &id, |r| r.stored = St::Started);
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
            Ok(Some(tree)) => super::super::image_files::place(&tree, &files)
                .map_err(|e| (true, format!("cannot place the image's files: {e}"))),
            Ok(None) => Err((true, "the local sandbox vanished".to_string())),
            Err(e) => Err((true, e.to_string())),
        },
        Err(e) => Err((false, e.to_string())),
    };
    // The `error` fault, when armed, takes the sandbox that boots next.
    let fault = super::super::error_fault::take_next(&mut s.daytona.org());
    match created {
        Ok(()) => update(&s, &id, |r| {
            r.local = true;
            match fault {
                Some(reason) => {
                    r.stored = St::Error;
                    r.error_reason = Some(reason);
                }
                None => r.stored = St::Started,
            }
        }),
        Err((local, e)) => update(&s, &id, |r| {
            r.local = local;
            r.stored = St::Error;
            r.error_reason = Some(format!("cannot boot the local sandbox: {e}"));
        }),
    }
}
