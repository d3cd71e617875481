//! `/api/snapshots…` and the proxy's build-log streams. Builds are simulated: the Dockerfile is
//! checked (see the failing-build rule in the module docs of `daytona`), a docker-like log is
//! written one instruction at a time, and the snapshot ends `active` or `build_failed`.

use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{Path, Query, RawQuery, State};
use axum::http::{StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use futures::stream;
use serde_json::json;
use sha2::{Digest, Sha256};

use super::model::{self, SnapshotRec, api_error, d, now_ms};
use super::{API_PREFIX, Authed, Org, PROXY_PREFIX};
use crate::api::daytona_types::{BuildInfo, CreateSnapshot, SnapshotState};
use crate::emulator::AppState;

/// The server's name rule (daytona-api.md §5.2):
/// `^[a-zA-Z0-9_.\-:]+(\/[a-zA-Z0-9_.\-:]+)*(@sha256:[a-f0-9]{64})?$`.
fn check_name(name: &str) -> Result<(), String> {
    let (base, digest) = match name.split_once("@sha256:") {
        Some((b, d)) => (b, Some(d)),
        None => (name, None),
    };
    let segment = |p: &str| {
        !p.is_empty()
            && p.bytes()
                .all(|c| c.is_ascii_alphanumeric() || b"_.-:".contains(&c))
    };
    let digest_ok = digest.is_none_or(|d| {
        d.len() == 64
            && d.bytes()
                .all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c))
    });
    if base.split('/').all(segment) && digest_ok {
        Ok(())
    } else {
        Err(format!("Invalid snapshot name: {name}"))
    }
}

pub fn routes() -> Router<AppState> {
    let p = |s: &str| format!("{API_PREFIX}{s}");
    Router::new()
        .route(&p("/snapshots"), post(create).get(list))
        .route(&p("/snapshots/:id"), get(get_one).delete(delete))
        .route(&p("/snapshots/:id/activate"), post(activate))
        .route(&p("/snapshots/:id/deactivate"), post(deactivate))
        .route(&p("/snapshots/:id/build-logs-url"), get(build_logs_url))
        .route(&p("/snapshots/:id/build-logs"), get(snapshot_logs))
        .route(
            &format!("{PROXY_PREFIX}/snapshots/:id/build-logs"),
            get(snapshot_logs),
        )
        .route(
            &format!("{PROXY_PREFIX}/sandboxes/:id/build-logs"),
            get(sandbox_logs),
        )
}

/// A shared (`general`) snapshot every organization sees, e.g. the default sandbox image.
pub fn general_snapshot(name: &str) -> SnapshotRec {
    let now = now_ms();
    SnapshotRec {
        id: uuid::Uuid::new_v4().to_string(),
        name: name.into(),
        general: true,
        image_name: Some(name.into()),
        state: SnapshotState::Active,
        size: Some(1.2),
        entrypoint: Some(vec!["sleep".into(), "infinity".into()]),
        cpu: 1,
        gpu: 0,
        mem: 1,
        disk: 3,
        error_reason: None,
        created_ms: now,
        updated_ms: now,
        last_used_ms: None,
        build_info: None,
        region: "us".into(),
        source_sandbox_id: None,
        log: Vec::new(),
        windows: false,
        files: Vec::new(),
    }
}

/// By id, then by name.
pub(crate) fn find_mut<'a>(org: &'a mut Org, key: &str) -> Option<&'a mut SnapshotRec> {
    let id = org.snapshots.get(key).map(|s| s.id.clone()).or_else(|| {
        org.snapshots
            .values()
            .find(|s| s.name == key)
            .map(|s| s.id.clone())
    })?;
    org.snapshots.get_mut(&id)
}

/// `daytona-<sha256(dockerfile + sorted hashes)>:daytona` (the server's build dedup key).
pub fn snapshot_ref(dockerfile: &str, hashes: &[String]) -> String {
    let mut sorted = hashes.to_vec();
    sorted.sort();
    let digest = Sha256::digest(format!("{dockerfile}{}", sorted.join("")).as_bytes());
    format!("daytona-{}:daytona", hex::encode(digest))
}

/// The simulated build of one Dockerfile.
#[derive(Debug, Clone)]
pub struct BuildCheck {
    pub log: Vec<String>,
    pub failure: Option<String>,
    pub entrypoint: Option<Vec<String>>,
    /// The `RUN` steps' verified downloads, performed by the build (see `image_files`).
    pub fetches: Vec<super::image_files::Fetch>,
}

fn instructions(dockerfile: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut lines = dockerfile.lines();
    while let Some(raw) = lines.next() {
        let mut text = raw.trim().to_string();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        while text.ends_with('\\') {
            text.pop();
            match lines.next() {
                Some(next) => {
                    text.push(' ');
                    text.push_str(next.trim());
                }
                None => break,
            }
        }
        out.push(text.split_whitespace().collect::<Vec<_>>().join(" "));
    }
    out
}

fn run_fails(cmd: &str) -> Option<i32> {
    let c = cmd.trim();
    if c == "false" || c.ends_with("&& false") || c.ends_with("; false") {
        return Some(1);
    }
    let code = c.strip_prefix("exit ")?.trim().parse::<i32>().ok()?;
    (code != 0).then_some(code)
}

impl BuildCheck {
    /// A build that stops with `failure` after `log`.
    fn failed(log: Vec<String>, failure: impl Into<String>) -> BuildCheck {
        BuildCheck {
            log,
            failure: Some(failure.into()),
            entrypoint: None,
            fetches: Vec::new(),
        }
    }
}

/// Check a Dockerfile and produce its build log. Fails when there is no `FROM` before the first
/// build step, or a `RUN` is `false` / `exit N` (N ≠ 0) / ends in `&& false`.
pub fn check_dockerfile(dockerfile: &str) -> BuildCheck {
    let steps = instructions(dockerfile);
    let total = steps.len();
    let mut log = vec![format!(
        "#0 building with the outposts emulator ({total} instructions; image content is not emulated)"
    )];
    let mut seen_from = false;
    let mut entrypoint = None;
    let mut fetches = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        let mut words = step.splitn(2, ' ');
        let op = words.next().unwrap_or_default().to_ascii_uppercase();
        let rest = words.next().unwrap_or_default();
        if op == "FROM" {
            seen_from = true;
        } else if op != "ARG" && !seen_from {
            let msg = format!(
                "dockerfile parse error on line {}: no build stage in current context (a FROM instruction must come first)",
                i + 1
            );
            log.push(format!("ERROR: {msg}"));
            return BuildCheck::failed(log, msg);
        }
        log.push(format!("Step {}/{total} : {step}", i + 1));
        match op.as_str() {
            "RUN" => {
                log.push(format!(
                    " ---> Running in {}",
                    &uuid::Uuid::new_v4().simple().to_string()[..12]
                ));
                if let Some(f) = super::image_files::fetch_of(rest) {
                    fetches.push(f);
                }
                if let Some(code) = run_fails(rest) {
                    let msg = format!(
                        "process \"/bin/sh -c {rest}\" did not complete successfully: exit code: {code}"
                    );
                    log.push(format!("ERROR: {msg}"));
                    return BuildCheck::failed(
                        log,
                        format!("Step {}/{total} failed: {msg}", i + 1),
                    );
                }
            }
            "CMD" | "ENTRYPOINT" => {
                entrypoint = Some(
                    serde_json::from_str::<Vec<String>>(rest)
                        .unwrap_or_else(|_| vec!["/bin/sh".into(), "-c".into(), rest.into()]),
                );
            }
            _ => {}
        }
        log.push(format!(
            " ---> {}",
            &uuid::Uuid::new_v4().simple().to_string()[..12]
        ));
    }
    if !seen_from {
        let msg = "dockerfile parse error: the file has no FROM instruction".to_string();
        log.push(format!("ERROR: {msg}"));
        return BuildCheck::failed(log, msg);
    }
    log.push("Successfully built the snapshot image".into());
    BuildCheck {
        log,
        failure: None,
        entrypoint,
        fetches,
    }
}

fn bad(msg: impl Into<String>, path: &str) -> Response {
    api_error(StatusCode::BAD_REQUEST, msg, path)
}

fn not_found(key: &str, path: &str) -> Response {
    api_error(
        StatusCode::NOT_FOUND,
        format!("Snapshot {key} not found"),
        path,
    )
}

/// A snapshot comes from exactly one of an image (tagged, not `:latest`) and a build.
fn check_source(req: &CreateSnapshot) -> Result<(), &'static str> {
    match (&req.build_info, &req.image_name) {
        (Some(_), Some(_)) => {
            return Err("Cannot specify an image name when using a build info entry");
        }
        (Some(_), None) if req.entrypoint.is_some() => {
            return Err("Cannot specify an entrypoint when using a build info entry");
        }
        (None, None) => {
            return Err("Must specify an image name when not using a build info entry");
        }
        (None, Some(img)) => {
            let tag = img.rsplit('/').next().unwrap_or(img);
            if !tag.contains(':') && !img.contains('@') {
                return Err("Images must include a tag or digest");
            }
            if tag.ends_with(":latest") {
                return Err("Images with tag \":latest\" are not allowed");
            }
        }
        _ => {}
    }
    Ok(())
}

/// The record of a snapshot just asked for; `prebuilt` (the log and entrypoint of an identical
/// build already active) makes it active at once.
fn new_snapshot(
    req: &CreateSnapshot,
    build_info: Option<BuildInfo>,
    prebuilt: Option<(Vec<String>, Option<Vec<String>>)>,
    (cpu, mem, disk): (u32, u32, u32),
    now: u64,
) -> SnapshotRec {
    SnapshotRec {
        id: uuid::Uuid::new_v4().to_string(),
        name: req.name.clone(),
        general: false,
        image_name: req.image_name.clone(),
        state: if prebuilt.is_some() {
            SnapshotState::Active
        } else {
            SnapshotState::Pending
        },
        size: prebuilt.as_ref().map(|_| 1.2),
        entrypoint: prebuilt
            .as_ref()
            .and_then(|p| p.1.clone())
            .or(req.entrypoint.clone()),
        cpu,
        gpu: req.gpu.unwrap_or(0),
        mem,
        disk,
        error_reason: None,
        created_ms: now,
        updated_ms: now,
        last_used_ms: None,
        build_info,
        windows: false,
        files: Vec::new(),
        region: req.region_id.clone().unwrap_or_else(|| "us".into()),
        source_sandbox_id: None,
        log: prebuilt.map(|p| p.0).unwrap_or_default(),
    }
}

async fn create(_: Authed, State(s): State<AppState>, uri: Uri, body: Bytes) -> Response {
    let path = uri.path();
    let req: CreateSnapshot = match serde_json::from_slice(&body) {
        Ok(r) => r,
        Err(e) => return bad(format!("invalid request body: {e}"), path),
    };
    if let Err(m) = check_name(&req.name) {
        return bad(m, path);
    }
    if let Err(m) = check_source(&req) {
        return bad(m, path);
    }
    let settings = s.daytona.settings();
    let (cpu, mem, disk) = (
        req.cpu.unwrap_or(1),
        req.memory.unwrap_or(1),
        req.disk.unwrap_or(3),
    );
    if let Err(m) = super::sandbox::check_quota(&settings, cpu, mem, disk) {
        return bad(m, path);
    }
    let now = now_ms();
    let check = req
        .build_info
        .as_ref()
        .map(|b| check_dockerfile(&b.dockerfile_content));
    let build_info = req.build_info.as_ref().map(|b| BuildInfo {
        dockerfile_content: Some(b.dockerfile_content.clone()),
        context_hashes: Some(b.context_hashes.clone()),
        created_at: Some(model::iso(now)),
        updated_at: Some(model::iso(now)),
        snapshot_ref: Some(snapshot_ref(&b.dockerfile_content, &b.context_hashes)),
    });
    let rec = {
        let mut org = s.daytona.org();
        if org.snapshots.values().any(|x| x.name == req.name) {
            return api_error(
                StatusCode::CONFLICT,
                format!(
                    "Snapshot with name \"{}\" already exists for this organization",
                    req.name
                ),
                path,
            );
        }
        // An identical, already built image is reused at once (`active` right away).
        let prebuilt = build_info.as_ref().and_then(|b| {
            org.snapshots
                .values()
                .find(|x| {
                    x.state == SnapshotState::Active
                        && x.build_info.as_ref().and_then(|i| i.snapshot_ref.as_ref())
                            == b.snapshot_ref.as_ref()
                })
                .map(|x| (x.log.clone(), x.entrypoint.clone()))
        });
        let rec = new_snapshot(&req, build_info, prebuilt, (cpu, mem, disk), now);
        org.snapshots.insert(rec.id.clone(), rec.clone());
        rec
    };
    if rec.state == SnapshotState::Pending {
        tokio::spawn(build(s.clone(), rec.id.clone(), check));
    }
    axum::Json(rec.dto()).into_response()
}

fn update(s: &AppState, id: &str, f: impl FnOnce(&mut SnapshotRec)) {
    let mut org = s.daytona.org();
    if let Some(r) = org.snapshots.get_mut(id) {
        f(r);
        r.updated_ms = now_ms();
    }
}

async fn build(s: AppState, id: String, check: Option<BuildCheck>) {
    let settings = s.daytona.settings();
    tokio::time::sleep(d(settings.snapshot_pending_ms)).await;
    let Some(check) = check else {
        // From an image: pull, then active.
        update(&s, &id, |r| {
            r.state = SnapshotState::Pulling;
            r.log.push(format!(
                "Pulling {} (image content is not emulated)",
                r.image_name.clone().unwrap_or_default()
            ));
        });
        tokio::time::sleep(d(settings.snapshot_step_ms * 3)).await;
        update(&s, &id, |r| {
            r.state = SnapshotState::Active;
            r.size = Some(1.2);
            r.log.push("Pull complete".into());
        });
        return;
    };
    update(&s, &id, |r| r.state = SnapshotState::Building);
    let last = check.log.len().saturating_sub(1);
    for (i, line) in check.log.into_iter().enumerate() {
        // Not poll_until: the emulated build's pace (one log line per step), not a wait.
        tokio::time::sleep(d(settings.snapshot_step_ms)).await;
        update(&s, &id, |r| r.log.push(line));
        // The verified downloads run before the closing line (a failed one ends the build).
        if i + 1 == last && check.failure.is_none() && !check.fetches.is_empty() {
            let mut log = Vec::new();
            let got = super::image_files::perform(&check.fetches, &mut log).await;
            let ok = got.is_ok();
            update(&s, &id, |r| {
                r.log.extend(log);
                match got {
                    Ok(files) => r.files = files,
                    Err(reason) => {
                        r.state = SnapshotState::BuildFailed;
                        r.error_reason = Some(reason);
                    }
                }
            });
            if !ok {
                return;
            }
        }
    }
    update(&s, &id, |r| match check.failure {
        Some(reason) => {
            r.state = SnapshotState::BuildFailed;
            r.error_reason = Some(reason);
        }
        None => {
            r.state = SnapshotState::Active;
            r.size = Some(1.2);
            r.entrypoint = check.entrypoint;
        }
    });
}

/// `POST /sandbox/{id}/snapshot`: a snapshot of a sandbox's filesystem (content not emulated).
pub(crate) fn from_sandbox(s: &AppState, sandbox_id: &str, name: &str) -> Result<(), Response> {
    let path = format!("{API_PREFIX}/sandbox/{sandbox_id}/snapshot");
    check_name(name).map_err(|m| bad(m, &path))?;
    let id = {
        let mut org = s.daytona.org();
        if org.snapshots.values().any(|x| x.name == name) {
            return Err(api_error(
                StatusCode::CONFLICT,
                format!("Snapshot with name \"{name}\" already exists for this organization"),
                &path,
            ));
        }
        let Some(sb) = org.sandboxes.get(sandbox_id).cloned() else {
            return Err(api_error(StatusCode::NOT_FOUND, "Sandbox not found", &path));
        };
        let mut rec = general_snapshot(name);
        rec.general = false;
        rec.image_name = None;
        rec.state = SnapshotState::Snapshotting;
        rec.size = None;
        rec.cpu = sb.cpu;
        rec.mem = sb.memory;
        rec.disk = sb.disk;
        rec.source_sandbox_id = Some(sb.id.clone());
        rec.windows = sb.windows;
        let id = rec.id.clone();
        org.snapshots.insert(id.clone(), rec);
        id
    };
    let s = s.clone();
    tokio::spawn(async move {
        let st = s.daytona.settings();
        tokio::time::sleep(d(st.snapshot_pending_ms + st.snapshot_step_ms)).await;
        update(&s, &id, |r| {
            r.state = SnapshotState::Active;
            r.size = Some(1.2);
        });
    });
    Ok(())
}

async fn get_one(
    _: Authed,
    State(s): State<AppState>,
    Path(key): Path<String>,
    uri: Uri,
) -> Response {
    let mut org = s.daytona.org();
    match find_mut(&mut org, &key) {
        Some(r) => axum::Json(r.dto()).into_response(),
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
    let num = |k: &str, default: f64| -> Result<f64, String> {
        match one(k) {
            None => Ok(default),
            Some(v) => v.parse::<f64>().map_err(|_| {
                format!("{k} must be a number conforming to the specified constraints")
            }),
        }
    };
    let page = match num("page", 1.0) {
        Ok(p) if p >= 1.0 => p as usize,
        Ok(_) => return bad("page must not be less than 1", path),
        Err(m) => return bad(m, path),
    };
    let limit = match num("limit", 100.0) {
        Ok(l) if (1.0..=200.0).contains(&l) => l as usize,
        Ok(_) => return bad("limit must not be greater than 200", path),
        Err(m) => return bad(m, path),
    };
    let name = one("name").map(|n| n.to_lowercase());
    let sort = one("sort").unwrap_or_else(|| "lastUsedAt".into());
    let asc = one("order").as_deref() == Some("asc");
    let org = s.daytona.org();
    let mut all: Vec<&SnapshotRec> = org
        .snapshots
        .values()
        .filter(|x| {
            name.as_ref()
                .is_none_or(|n| x.name.to_lowercase().contains(n))
        })
        .collect();
    all.sort_by(|a, b| {
        let o = match sort.as_str() {
            "name" => a.name.cmp(&b.name),
            "state" => a.state.as_str().cmp(b.state.as_str()),
            "createdAt" => a.created_ms.cmp(&b.created_ms),
            _ => a.last_used_ms.cmp(&b.last_used_ms),
        }
        .then(a.created_ms.cmp(&b.created_ms));
        if asc { o } else { o.reverse() }
    });
    let total = all.len();
    let items: Vec<serde_json::Value> = all
        .iter()
        .skip((page - 1) * limit)
        .take(limit)
        .map(|x| x.dto())
        .collect();
    axum::Json(json!({
        "items": items,
        "total": total,
        "page": page,
        "totalPages": total.div_ceil(limit),
    }))
    .into_response()
}

async fn delete(
    _: Authed,
    State(s): State<AppState>,
    Path(key): Path<String>,
    uri: Uri,
) -> Response {
    let path = uri.path();
    if uuid::Uuid::parse_str(&key).is_err() {
        return bad("Validation failed (uuid is expected)", path);
    }
    let mut org = s.daytona.org();
    match org.snapshots.get(&key) {
        None => not_found(&key, path),
        Some(x) if x.general => api_error(
            StatusCode::FORBIDDEN,
            "You cannot delete a general snapshot",
            path,
        ),
        Some(_) => {
            org.snapshots.remove(&key);
            StatusCode::OK.into_response()
        }
    }
}

async fn activate(
    _: Authed,
    State(s): State<AppState>,
    Path(key): Path<String>,
    uri: Uri,
) -> Response {
    let path = uri.path();
    let mut org = s.daytona.org();
    let Some(r) = find_mut(&mut org, &key) else {
        return not_found(&key, path);
    };
    match r.state {
        SnapshotState::Active => bad(format!("Snapshot {key} is already active"), path),
        SnapshotState::Inactive => {
            r.state = SnapshotState::Active;
            r.updated_ms = now_ms();
            axum::Json(r.dto()).into_response()
        }
        other => bad(
            format!("Snapshot {key} cannot be activated: it is {other}"),
            path,
        ),
    }
}

async fn deactivate(
    _: Authed,
    State(s): State<AppState>,
    Path(key): Path<String>,
    uri: Uri,
) -> Response {
    let mut org = s.daytona.org();
    let Some(r) = find_mut(&mut org, &key) else {
        return not_found(&key, uri.path());
    };
    r.state = SnapshotState::Inactive;
    r.updated_ms = now_ms();
    StatusCode::NO_CONTENT.into_response()
}

async fn build_logs_url(
    _: Authed,
    State(s): State<AppState>,
    Path(key): Path<String>,
    uri: Uri,
) -> Response {
    let mut org = s.daytona.org();
    let Some(r) = find_mut(&mut org, &key) else {
        return not_found(&key, uri.path());
    };
    if r.build_info.is_none() {
        return api_error(
            StatusCode::NOT_FOUND,
            format!("Snapshot {key} has no build info"),
            uri.path(),
        );
    }
    axum::Json(
        json!({"url": format!("{}{PROXY_PREFIX}/snapshots/{}/build-logs", s.base_url, r.id)}),
    )
    .into_response()
}

#[derive(serde::Deserialize)]
struct FollowQuery {
    #[serde(default)]
    follow: Option<String>,
}

/// The build log so far, and whether the build has ended.
type LogSource = fn(&AppState, &str) -> Option<(Vec<String>, bool)>;

fn snapshot_log(s: &AppState, key: &str) -> Option<(Vec<String>, bool)> {
    let mut org = s.daytona.org();
    let r = find_mut(&mut org, key)?;
    let done = !matches!(
        r.state,
        SnapshotState::Pending
            | SnapshotState::Building
            | SnapshotState::Pulling
            | SnapshotState::Snapshotting
    );
    Some((r.log.clone(), done))
}

async fn snapshot_logs(
    _: Authed,
    State(s): State<AppState>,
    Path(key): Path<String>,
    Query(q): Query<FollowQuery>,
    uri: Uri,
) -> Response {
    logs_response(s, key, q, uri, snapshot_log, "Snapshot")
}

async fn sandbox_logs(
    _: Authed,
    State(s): State<AppState>,
    Path(key): Path<String>,
    Query(q): Query<FollowQuery>,
    uri: Uri,
) -> Response {
    logs_response(s, key, q, uri, super::sandbox::build_log, "Sandbox")
}

/// Plain text; with `?follow=true` a chunked stream that ends with the build.
fn logs_response(
    s: AppState,
    key: String,
    q: FollowQuery,
    uri: Uri,
    source: LogSource,
    what: &str,
) -> Response {
    let Some((lines, _)) = source(&s, &key) else {
        return api_error(
            StatusCode::NOT_FOUND,
            format!("{what} {key} not found"),
            uri.path(),
        );
    };
    let follow = matches!(q.follow.as_deref(), Some("true" | "1"));
    let text_response =
        |body: Body| ([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], body).into_response();
    if !follow {
        let mut text = lines.join("\n");
        if !text.is_empty() {
            text.push('\n');
        }
        return text_response(Body::from(text));
    }
    let stream = stream::unfold(
        (s, key, 0usize, false),
        move |(s, key, sent, finished)| async move {
            if finished {
                return None;
            }
            loop {
                let (lines, done) = source(&s, &key).unwrap_or((Vec::new(), true));
                if lines.len() > sent {
                    let chunk: String = lines[sent..].iter().map(|l| format!("{l}\n")).collect();
                    let n = lines.len();
                    return Some((
                        Ok::<_, std::io::Error>(Bytes::from(chunk)),
                        (s, key, n, false),
                    ));
                }
                if done {
                    return Some((Ok(Bytes::new()), (s, key, sent, true)));
                }
                // Not poll_until: a log follow that streams each new line as it comes, until the
                // build ends.
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        },
    );
    text_response(Body::from_stream(stream))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failing_build_rule() {
        assert!(
            check_dockerfile("FROM a\nRUN echo hi\nCMD [\"x\"]\n")
                .failure
                .is_none()
        );
        let f = check_dockerfile("FROM a\nRUN false\n");
        assert!(f.failure.unwrap().contains("exit code: 1"));
        assert!(
            check_dockerfile("FROM a\nRUN make && false\n")
                .failure
                .is_some()
        );
        assert!(
            check_dockerfile("FROM a\nRUN exit 3\n")
                .failure
                .unwrap()
                .contains("3")
        );
        assert!(
            check_dockerfile("RUN echo\n")
                .failure
                .unwrap()
                .contains("FROM")
        );
        assert!(check_dockerfile("# nothing\n").failure.is_some());
        assert!(check_dockerfile("ARG V=1\nFROM a:$V\n").failure.is_none());
        let ok = check_dockerfile("FROM a\nCMD [\"sleep\", \"1\"]\n");
        assert_eq!(
            ok.entrypoint,
            Some(vec!["sleep".to_string(), "1".to_string()])
        );
    }

    #[test]
    fn snapshot_ref_sorts_hashes() {
        let a = snapshot_ref("FROM a\n", &["b".into(), "a".into()]);
        let b = snapshot_ref("FROM a\n", &["a".into(), "b".into()]);
        assert_eq!(a, b);
        assert!(a.starts_with("daytona-") && a.ends_with(":daytona"));
    }
}
