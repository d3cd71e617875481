//! The toolbox (in-sandbox daemon) under `{base}/daytona/toolbox/{sandboxId}`: process execute,
//! sessions, files and git clone, carried out in the sandbox's local twin.
//!
//! Sessions run each command on its own (no shared `cd`/`export` state between commands).
//! Session logs are JSON `{output, stdout, stderr}` for `X-Daytona-SDK-Version` ≥ 0.167.0 (or
//! `X-Daytona-Split-Output: true`), plain combined text otherwise, like the daemon.

use std::collections::BTreeMap;
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{FromRequest, Multipart, Path, Query, State};
use axum::http::{HeaderMap, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use futures::StreamExt;
use serde::Deserialize;
use serde_json::json;

use super::model::{self, tb_error};
use super::{Authed, TOOLBOX_PREFIX};
use crate::api::daytona_types::{
    CreateSessionRequest, ExecuteRequest, SandboxState as St, SessionExecuteRequest,
};
use crate::emulator::AppState;
use crate::provider::{ExecRequest, GitClone, LogOptions, Provider, ProviderError};
use crate::secrets::Secret;

/// Commands of one toolbox session.
#[derive(Debug, Clone, Default)]
pub struct SessionRec {
    pub commands: Vec<CmdRec>,
}

#[derive(Debug, Clone)]
pub struct CmdRec {
    pub id: String,
    pub command: String,
    pub exit_code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

pub fn routes() -> Router<AppState> {
    let p = |s: &str| format!("{TOOLBOX_PREFIX}/:sid{s}");
    Router::new()
        .route(&p("/process/execute"), post(execute))
        .route(
            &p("/process/session"),
            post(create_session).get(list_sessions),
        )
        .route(&p("/process/session/entrypoint/logs"), get(entrypoint_logs))
        .route(
            &p("/process/session/:sess"),
            get(get_session).delete(delete_session),
        )
        .route(&p("/process/session/:sess/exec"), post(session_exec))
        .route(&p("/process/session/:sess/command/:cid"), get(get_command))
        .route(
            &p("/process/session/:sess/command/:cid/logs"),
            get(command_logs),
        )
        .route(&p("/files"), get(list_files).delete(delete_file))
        .route(&p("/files/download"), get(download))
        .route(&p("/files/bulk-download"), post(bulk_download))
        .route(&p("/files/bulk-upload"), post(bulk_upload))
        .route(&p("/files/upload-v2"), post(upload_single))
        .route(&p("/files/upload"), post(upload_single))
        .route(&p("/files/info"), get(file_info))
        .route(&p("/files/folder"), post(create_folder))
        .route(&p("/git/clone"), post(git_clone))
        .route(&p("/version"), get(version))
        .route(&p("/work-dir"), get(home_dir))
        .route(&p("/user-home-dir"), get(home_dir))
}

/// The daemon path of a request (what the real daemon reports in errors).
fn dpath(uri: &Uri) -> String {
    let p = uri
        .path()
        .strip_prefix(TOOLBOX_PREFIX)
        .unwrap_or(uri.path());
    match p.trim_start_matches('/').split_once('/') {
        Some((_, rest)) => format!("/{rest}"),
        None => p.to_string(),
    }
}

struct Ctx {
    sid: String,
    user: String,
    path: String,
    method: String,
}

impl Ctx {
    fn err(&self, status: StatusCode, msg: impl Into<String>, code: &str) -> Response {
        tb_error(status, msg, code, &self.path, &self.method)
    }
    fn bad(&self, msg: impl Into<String>) -> Response {
        self.err(StatusCode::BAD_REQUEST, msg, "BAD_REQUEST")
    }
    fn home(&self) -> String {
        format!("/home/{}", self.user)
    }
    fn provider_err(&self, e: ProviderError) -> Response {
        match e {
            ProviderError::NotFound(_) => {
                self.err(StatusCode::NOT_FOUND, e.to_string(), "NOT_FOUND")
            }
            ProviderError::Invalid(m) => self.bad(m),
            ProviderError::Timeout(_) => self.err(
                StatusCode::REQUEST_TIMEOUT,
                "command execution timeout",
                "REQUEST_TIMEOUT",
            ),
            other => self.err(
                StatusCode::INTERNAL_SERVER_ERROR,
                other.to_string(),
                "INTERNAL_SERVER_ERROR",
            ),
        }
    }
}

/// The sandbox must exist and be started (the proxy refuses otherwise).
fn ctx(s: &AppState, sid: &str, uri: &Uri, method: &Method) -> Result<Ctx, Response> {
    let c = Ctx {
        sid: sid.to_string(),
        user: String::new(),
        path: dpath(uri),
        method: method.to_string(),
    };
    let org = s.daytona.org();
    let Some(r) = org.sandboxes.get(sid).filter(|r| !r.gone()) else {
        return Err(c.err(
            StatusCode::NOT_FOUND,
            format!("sandbox {sid} not found"),
            "NOT_FOUND",
        ));
    };
    if r.stored != St::Started {
        return Err(c.err(
            StatusCode::CONFLICT,
            format!("sandbox {sid} is not started (state: {})", r.reported()),
            "CONFLICT",
        ));
    }
    Ok(Ctx {
        user: r.user.clone(),
        ..c
    })
}

macro_rules! ctx_or_return {
    ($s:expr, $sid:expr, $uri:expr, $m:expr) => {
        match ctx(&$s, &$sid, &$uri, &$m) {
            Ok(c) => c,
            Err(r) => return r,
        }
    };
}

fn valid_env_key(k: &str) -> bool {
    let mut chars = k.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn parse<T: serde::de::DeserializeOwned>(c: &Ctx, body: &[u8]) -> Result<T, Response> {
    serde_json::from_slice(body).map_err(|e| {
        c.err(
            StatusCode::BAD_REQUEST,
            format!("invalid request body: {e}"),
            "INVALID_REQUEST_BODY",
        )
    })
}

async fn run(
    s: &AppState,
    c: &Ctx,
    command: &str,
    cwd: Option<String>,
    envs: BTreeMap<String, String>,
    timeout: Option<u64>,
) -> Result<crate::provider::ExecOutput, ProviderError> {
    let mut req = ExecRequest::shell(command);
    req.cwd = Some(cwd.unwrap_or_else(|| c.home()));
    req.env = envs.into_iter().map(|(k, v)| (k, Secret::new(v))).collect();
    req.timeout = timeout.filter(|t| *t > 0).map(Duration::from_secs);
    s.sandboxes.provider().exec(&c.sid, &req).await
}

async fn execute(
    _: Authed,
    State(s): State<AppState>,
    Path(sid): Path<String>,
    uri: Uri,
    method: Method,
    body: Bytes,
) -> Response {
    let c = ctx_or_return!(s, sid, uri, method);
    let req: ExecuteRequest = match parse(&c, &body) {
        Ok(r) => r,
        Err(r) => return r,
    };
    if req.command.trim().is_empty() {
        return c.bad("command is required");
    }
    let envs = req.envs.unwrap_or_default();
    if let Some(k) = envs.keys().find(|k| !valid_env_key(k)) {
        return c.bad(format!("invalid environment variable name: {k}"));
    }
    match run(&s, &c, &req.command, req.cwd, envs, req.timeout).await {
        Ok(out) => axum::Json(json!({
            "exitCode": out.exit_code,
            "result": format!("{}{}", out.stdout, out.stderr),
        }))
        .into_response(),
        Err(ProviderError::Timeout(_)) => c.err(
            StatusCode::REQUEST_TIMEOUT,
            "command execution timeout",
            "REQUEST_TIMEOUT",
        ),
        // The daemon reports a command it cannot start as exit -1 with the reason.
        Err(e) => axum::Json(json!({"exitCode": -1, "result": e.to_string()})).into_response(),
    }
}

async fn create_session(
    _: Authed,
    State(s): State<AppState>,
    Path(sid): Path<String>,
    uri: Uri,
    method: Method,
    body: Bytes,
) -> Response {
    let c = ctx_or_return!(s, sid, uri, method);
    let req: CreateSessionRequest = match parse(&c, &body) {
        Ok(r) => r,
        Err(r) => return r,
    };
    if req.session_id.is_empty() || req.session_id == "entrypoint" {
        return c.bad(format!(
            "session id `{}` is reserved or empty",
            req.session_id
        ));
    }
    let mut org = s.daytona.org();
    let key = (sid.clone(), req.session_id.clone());
    if org.sessions.contains_key(&key) {
        return c.err(StatusCode::CONFLICT, "session already exists", "CONFLICT");
    }
    org.sessions.insert(key, SessionRec::default());
    StatusCode::CREATED.into_response()
}

fn session_json(id: &str, rec: &SessionRec) -> serde_json::Value {
    json!({
        "sessionId": id,
        "commands": rec.commands.iter().map(cmd_json).collect::<Vec<_>>(),
    })
}

fn cmd_json(c: &CmdRec) -> serde_json::Value {
    let mut v = json!({"id": c.id, "command": c.command});
    if let Some(code) = c.exit_code {
        v["exitCode"] = json!(code);
    }
    v
}

async fn list_sessions(
    _: Authed,
    State(s): State<AppState>,
    Path(sid): Path<String>,
    uri: Uri,
    method: Method,
) -> Response {
    let _c = ctx_or_return!(s, sid, uri, method);
    let org = s.daytona.org();
    let all: Vec<serde_json::Value> = org
        .sessions
        .iter()
        .filter(|((sb, _), _)| sb == &sid)
        .map(|((_, id), rec)| session_json(id, rec))
        .collect();
    axum::Json(all).into_response()
}

async fn get_session(
    _: Authed,
    State(s): State<AppState>,
    Path((sid, sess)): Path<(String, String)>,
    uri: Uri,
    method: Method,
) -> Response {
    let c = ctx_or_return!(s, sid, uri, method);
    let org = s.daytona.org();
    match org.sessions.get(&(sid.clone(), sess.clone())) {
        Some(rec) => axum::Json(session_json(&sess, rec)).into_response(),
        None => c.err(StatusCode::NOT_FOUND, "session not found", "NOT_FOUND"),
    }
}

async fn delete_session(
    _: Authed,
    State(s): State<AppState>,
    Path((sid, sess)): Path<(String, String)>,
    uri: Uri,
    method: Method,
) -> Response {
    let c = ctx_or_return!(s, sid, uri, method);
    match s.daytona.org().sessions.remove(&(sid.clone(), sess)) {
        Some(_) => StatusCode::NO_CONTENT.into_response(),
        None => c.err(StatusCode::NOT_FOUND, "session not found", "NOT_FOUND"),
    }
}

fn set_cmd(s: &AppState, key: &(String, String), cid: &str, f: impl FnOnce(&mut CmdRec)) {
    let mut org = s.daytona.org();
    if let Some(c) = org
        .sessions
        .get_mut(key)
        .and_then(|r| r.commands.iter_mut().find(|c| c.id == cid))
    {
        f(c);
    }
}

async fn session_exec(
    _: Authed,
    State(s): State<AppState>,
    Path((sid, sess)): Path<(String, String)>,
    uri: Uri,
    method: Method,
    body: Bytes,
) -> Response {
    let c = ctx_or_return!(s, sid, uri, method);
    let req: SessionExecuteRequest = match parse(&c, &body) {
        Ok(r) => r,
        Err(r) => return r,
    };
    if req.command.trim().is_empty() {
        return c.bad("command is required");
    }
    let key = (sid.clone(), sess.clone());
    let cid = uuid::Uuid::new_v4().to_string();
    {
        let mut org = s.daytona.org();
        let Some(rec) = org.sessions.get_mut(&key) else {
            return c.err(StatusCode::NOT_FOUND, "session not found", "NOT_FOUND");
        };
        rec.commands.push(CmdRec {
            id: cid.clone(),
            command: req.command.clone(),
            exit_code: None,
            stdout: String::new(),
            stderr: String::new(),
        });
    }
    let run_async = req.run_async.or(req.async_alias).unwrap_or(false);
    let ctx = Ctx {
        sid: sid.clone(),
        user: c.user.clone(),
        path: String::new(),
        method: String::new(),
    };
    if run_async {
        // Output goes to files in the sandbox so that logs can be read while it runs.
        let (out, err) = spool_paths(&sess, &cid);
        let dir = spool_dir(&sess);
        let wrapped = format!("mkdir -p {dir} && (\n{}\n) > {out} 2> {err}", req.command);
        let s2 = s.clone();
        let (key2, cid2) = (key.clone(), cid.clone());
        tokio::spawn(async move {
            let result = run(&s2, &ctx, &wrapped, None, BTreeMap::new(), None).await;
            let (stdout, stderr) = read_spool(&s2, &ctx.sid, &out, &err).await;
            let (code, stderr) = match result {
                Ok(o) => (o.exit_code, stderr),
                Err(e) => (-1, format!("{stderr}{e}\n")),
            };
            set_cmd(&s2, &key2, &cid2, |c| {
                c.exit_code = Some(code);
                c.stdout = stdout;
                c.stderr = stderr;
            });
        });
        return (StatusCode::ACCEPTED, axum::Json(json!({"cmdId": cid}))).into_response();
    }
    let (code, stdout, stderr) =
        match run(&s, &ctx, &req.command, None, BTreeMap::new(), None).await {
            Ok(o) => (o.exit_code, o.stdout, o.stderr),
            Err(e) => (-1, String::new(), format!("{e}\n")),
        };
    set_cmd(&s, &key, &cid, |c| {
        c.exit_code = Some(code);
        c.stdout = stdout.clone();
        c.stderr = stderr.clone();
    });
    axum::Json(json!({
        "cmdId": cid,
        "output": format!("{stdout}{stderr}"),
        "stdout": stdout,
        "stderr": stderr,
        "exitCode": code,
    }))
    .into_response()
}

/// Where an async session command's output is spooled inside the sandbox.
fn spool_dir(session: &str) -> String {
    let safe: String = session
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("/tmp/.daytona-sessions/{safe}")
}

fn spool_paths(session: &str, cid: &str) -> (String, String) {
    let dir = spool_dir(session);
    (format!("{dir}/{cid}.stdout"), format!("{dir}/{cid}.stderr"))
}

async fn read_spool(s: &AppState, sid: &str, out: &str, err: &str) -> (String, String) {
    let p = s.sandboxes.provider();
    let read = |path: String| async move {
        p.read_file(sid, &path)
            .await
            .ok()
            .flatten()
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default()
    };
    (read(out.to_string()).await, read(err.to_string()).await)
}

async fn get_command(
    _: Authed,
    State(s): State<AppState>,
    Path((sid, sess, cid)): Path<(String, String, String)>,
    uri: Uri,
    method: Method,
) -> Response {
    let c = ctx_or_return!(s, sid, uri, method);
    let org = s.daytona.org();
    match org
        .sessions
        .get(&(sid.clone(), sess))
        .and_then(|r| r.commands.iter().find(|x| x.id == cid))
    {
        Some(cmd) => axum::Json(cmd_json(cmd)).into_response(),
        None => c.err(StatusCode::NOT_FOUND, "command not found", "NOT_FOUND"),
    }
}

/// JSON split output for SDK ≥ 0.167.0 (or `X-Daytona-Split-Output: true`), else plain text.
fn wants_json(headers: &HeaderMap) -> bool {
    if headers
        .get("x-daytona-split-output")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("true"))
    {
        return true;
    }
    let Some(v) = headers
        .get("x-daytona-sdk-version")
        .and_then(|v| v.to_str().ok())
    else {
        return false;
    };
    let nums: Vec<u64> = v
        .trim()
        .trim_start_matches('v')
        .split(['.', '-', '+'])
        .take(3)
        .map(|p| p.parse().unwrap_or(0))
        .collect();
    let n = |i: usize| nums.get(i).copied().unwrap_or(0);
    (n(0), n(1), n(2)) >= (0, 167, 0)
}

fn logs_body(headers: &HeaderMap, stdout: &str, stderr: &str) -> Response {
    if wants_json(headers) {
        axum::Json(json!({
            "output": format!("{stdout}{stderr}"), "stdout": stdout, "stderr": stderr,
        }))
        .into_response()
    } else {
        (
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            format!("{stdout}{stderr}"),
        )
            .into_response()
    }
}

async fn command_logs(
    _: Authed,
    State(s): State<AppState>,
    Path((sid, sess, cid)): Path<(String, String, String)>,
    uri: Uri,
    method: Method,
    headers: HeaderMap,
) -> Response {
    let c = ctx_or_return!(s, sid, uri, method);
    let found = {
        let org = s.daytona.org();
        org.sessions
            .get(&(sid.clone(), sess.clone()))
            .and_then(|r| r.commands.iter().find(|x| x.id == cid))
            .map(|x| (x.stdout.clone(), x.stderr.clone(), x.exit_code.is_none()))
    };
    match found {
        Some((_, _, true)) => {
            let (out, err) = spool_paths(&sess, &cid);
            let (stdout, stderr) = read_spool(&s, &sid, &out, &err).await;
            logs_body(&headers, &stdout, &stderr)
        }
        Some((out, err, false)) => logs_body(&headers, &out, &err),
        None => c.err(StatusCode::NOT_FOUND, "command not found", "NOT_FOUND"),
    }
}

async fn entrypoint_logs(
    _: Authed,
    State(s): State<AppState>,
    Path(sid): Path<String>,
    uri: Uri,
    method: Method,
    headers: HeaderMap,
) -> Response {
    let c = ctx_or_return!(s, sid, uri, method);
    let opts = LogOptions {
        tail: None,
        follow: false,
    };
    let stream = match s.sandboxes.provider().logs(&c.sid, &opts).await {
        Ok(st) => st,
        Err(e) => return c.provider_err(e),
    };
    let lines: Vec<String> = stream.filter_map(|l| async move { l.ok() }).collect().await;
    let mut text = lines.join("\n");
    if !text.is_empty() {
        text.push('\n');
    }
    logs_body(&headers, &text, "")
}

#[derive(Deserialize)]
struct PathQuery {
    #[serde(default)]
    path: Option<String>,
    #[serde(default)]
    mode: Option<String>,
    #[serde(default)]
    recursive: Option<String>,
}

fn need_path(c: &Ctx, q: &PathQuery) -> Result<String, Response> {
    match q.path.as_deref().map(str::trim) {
        Some(p) if !p.is_empty() => Ok(p.to_string()),
        _ => Err(c.bad("path is required")),
    }
}

fn file_name(path: &str) -> String {
    path.rsplit('/').next().unwrap_or(path).to_string()
}

async fn download(
    _: Authed,
    State(s): State<AppState>,
    Path(sid): Path<String>,
    Query(q): Query<PathQuery>,
    uri: Uri,
    method: Method,
) -> Response {
    let c = ctx_or_return!(s, sid, uri, method);
    let path = match need_path(&c, &q) {
        Ok(p) => p,
        Err(r) => return r,
    };
    match s.sandboxes.provider().read_file(&c.sid, &path).await {
        Ok(Some(bytes)) => {
            let name = file_name(&path);
            let disposition = format!(
                "attachment; filename=\"{}\"; filename*=utf-8''{}",
                name.replace('"', ""),
                percent_encoding::utf8_percent_encode(&name, percent_encoding::NON_ALPHANUMERIC)
            );
            (
                [
                    (header::CONTENT_TYPE, "application/octet-stream".to_string()),
                    (header::CONTENT_DISPOSITION, disposition),
                ],
                bytes,
            )
                .into_response()
        }
        Ok(None) => c.err(
            StatusCode::NOT_FOUND,
            format!("file not found: {path}"),
            "FILE_NOT_FOUND",
        ),
        Err(ProviderError::Invalid(m)) => c.err(
            StatusCode::BAD_REQUEST,
            format!("path must be a file: {m}"),
            "BAD_REQUEST",
        ),
        Err(e) => c.provider_err(e),
    }
}

const BOUNDARY: &str = "DAYTONA-FILE-BOUNDARY";

async fn bulk_download(
    _: Authed,
    State(s): State<AppState>,
    Path(sid): Path<String>,
    uri: Uri,
    method: Method,
    body: Bytes,
) -> Response {
    let c = ctx_or_return!(s, sid, uri, method);
    let paths: Vec<String> = serde_json::from_slice::<serde_json::Value>(&body)
        .ok()
        .and_then(|v| serde_json::from_value(v.get("paths")?.clone()).ok())
        .unwrap_or_default();
    if paths.is_empty() {
        return c.bad("request body must be {\"paths\": [ ... ]} and non-empty");
    }
    let mut out: Vec<u8> = Vec::new();
    for p in &paths {
        let enc = percent_encoding::utf8_percent_encode(p, percent_encoding::NON_ALPHANUMERIC);
        match s.sandboxes.provider().read_file(&c.sid, p).await {
            Ok(Some(bytes)) => {
                out.extend_from_slice(
                    format!(
                        "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{}\"; filename*=utf-8''{enc}\r\nContent-Type: application/octet-stream\r\nContent-Length: {}\r\n\r\n",
                        p.replace('"', ""),
                        bytes.len()
                    )
                    .as_bytes(),
                );
                out.extend_from_slice(&bytes);
                out.extend_from_slice(b"\r\n");
            }
            other => {
                let (code, msg) = match other {
                    Ok(None) => ("FILE_NOT_FOUND", format!("file not found: {p}")),
                    Err(e) => ("INVALID_FILE_PATH", e.to_string()),
                    Ok(Some(_)) => ("INTERNAL_SERVER_ERROR", String::new()),
                };
                let err = json!({
                    "statusCode": 404, "message": msg, "code": code, "path": p,
                    "timestamp": model::iso(model::now_ms()),
                });
                out.extend_from_slice(
                    format!(
                        "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"error\"; filename=\"{}\"\r\nContent-Type: application/json\r\n\r\n{err}\r\n",
                        p.replace('"', "")
                    )
                    .as_bytes(),
                );
            }
        }
    }
    out.extend_from_slice(format!("--{BOUNDARY}--\r\n").as_bytes());
    (
        [(
            header::CONTENT_TYPE,
            format!("multipart/form-data; boundary={BOUNDARY}"),
        )],
        out,
    )
        .into_response()
}

async fn bulk_upload(
    _: Authed,
    State(s): State<AppState>,
    Path(sid): Path<String>,
    uri: Uri,
    method: Method,
    mut form: Multipart,
) -> Response {
    let c = ctx_or_return!(s, sid, uri, method);
    let mut targets: BTreeMap<String, String> = BTreeMap::new();
    let mut done = Vec::new();
    let mut errors = Vec::new();
    loop {
        let field = match form.next_field().await {
            Ok(Some(f)) => f,
            Ok(None) => break,
            Err(e) => return c.bad(format!("malformed multipart body: {e}")),
        };
        let name = field.name().unwrap_or_default().to_string();
        let filename = field.file_name().map(str::to_string);
        let data = match field.bytes().await {
            Ok(b) => b,
            Err(e) => return c.bad(format!("malformed multipart body: {e}")),
        };
        let Some(index) = name
            .strip_prefix("files[")
            .and_then(|r| r.split_once(']'))
            .map(|(i, rest)| (i.to_string(), rest.to_string()))
        else {
            continue;
        };
        match index.1.as_str() {
            ".path" => {
                targets.insert(index.0, String::from_utf8_lossy(&data).into_owned());
            }
            ".file" => {
                let Some(dest) = targets.get(&index.0).cloned().or(filename) else {
                    errors.push(format!("files[{}].file has no path", index.0));
                    continue;
                };
                match s
                    .sandboxes
                    .provider()
                    .write_file(&c.sid, &dest, &data)
                    .await
                {
                    Ok(()) => done.push(json!({"path": dest, "bytes": data.len()})),
                    Err(e) => errors.push(format!("{dest}: {e}")),
                }
            }
            _ => {}
        }
    }
    if !errors.is_empty() {
        return (
            StatusCode::BAD_REQUEST,
            axum::Json(json!({"errors": errors, "files": done})),
        )
            .into_response();
    }
    // The spec declares a 200 without a body (the v0.190 daemon sent `{"files": […]}`).
    let _ = done;
    StatusCode::OK.into_response()
}

async fn upload_single(
    _: Authed,
    State(s): State<AppState>,
    Path(sid): Path<String>,
    Query(q): Query<PathQuery>,
    uri: Uri,
    method: Method,
    req: axum::extract::Request,
) -> Response {
    let c = ctx_or_return!(s, sid, uri, method);
    let path = match need_path(&c, &q) {
        Ok(p) => p,
        Err(r) => return r,
    };
    let multipart = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("multipart/form-data"));
    let data = if multipart {
        let mut form = match Multipart::from_request(req, &s).await {
            Ok(f) => f,
            Err(e) => return c.bad(format!("malformed multipart body: {e}")),
        };
        let mut found = None;
        while let Ok(Some(field)) = form.next_field().await {
            if field.name() == Some("file") {
                found = field.bytes().await.ok();
                break;
            }
        }
        match found {
            Some(b) => b,
            None => return c.bad("the multipart body has no `file` part"),
        }
    } else {
        match axum::body::to_bytes(req.into_body(), 1024 * 1024 * 1024).await {
            Ok(b) => b,
            Err(e) => return c.bad(format!("cannot read the body: {e}")),
        }
    };
    match s
        .sandboxes
        .provider()
        .write_file(&c.sid, &path, &data)
        .await
    {
        Ok(()) => axum::Json(json!({"name": file_name(&path), "path": path, "type": "file"}))
            .into_response(),
        Err(e) => c.provider_err(e),
    }
}

/// `stat` inside the sandbox: `size|mode|owner|group|mtime|type|name`.
const STAT_FORMAT: &str = "%s|%a|%U|%G|%Y|%F|%n";

fn file_info_json(line: &str) -> Option<serde_json::Value> {
    let parts: Vec<&str> = line.splitn(7, '|').collect();
    if parts.len() != 7 {
        return None;
    }
    let mtime: u64 = parts[4].parse().unwrap_or(0);
    let is_dir = parts[5] == "directory";
    let mode = u32::from_str_radix(parts[1], 8).unwrap_or(0);
    Some(json!({
        "name": file_name(parts[6]),
        "path": parts[6],
        "isDir": is_dir,
        "size": parts[0].parse::<i64>().unwrap_or(0),
        "mode": mode_string(is_dir, mode),
        "permissions": format!("{:04o}", mode),
        "owner": parts[2],
        "group": parts[3],
        "modifiedAt": model::iso(mtime * 1000),
        "modTime": model::iso(mtime * 1000),
    }))
}

/// `drwxr-xr-x`, like Go's `FileMode.String()`.
fn mode_string(is_dir: bool, mode: u32) -> String {
    let mut out = String::from(if is_dir { "d" } else { "-" });
    for shift in [6, 3, 0] {
        let bits = (mode >> shift) & 7;
        out.push(if bits & 4 != 0 { 'r' } else { '-' });
        out.push(if bits & 2 != 0 { 'w' } else { '-' });
        out.push(if bits & 1 != 0 { 'x' } else { '-' });
    }
    out
}

async fn sandbox_argv(
    s: &AppState,
    c: &Ctx,
    argv: Vec<String>,
) -> Result<crate::provider::ExecOutput, ProviderError> {
    let mut req = ExecRequest::argv(argv);
    req.cwd = Some(c.home());
    s.sandboxes.provider().exec(&c.sid, &req).await
}

async fn file_info(
    _: Authed,
    State(s): State<AppState>,
    Path(sid): Path<String>,
    Query(q): Query<PathQuery>,
    uri: Uri,
    method: Method,
) -> Response {
    let c = ctx_or_return!(s, sid, uri, method);
    let path = match need_path(&c, &q) {
        Ok(p) => p,
        Err(r) => return r,
    };
    let argv = vec![
        "stat".into(),
        "-c".into(),
        STAT_FORMAT.into(),
        "--".into(),
        path.clone(),
    ];
    match sandbox_argv(&s, &c, argv).await {
        Ok(out) if out.exit_code == 0 => match file_info_json(out.stdout.trim_end()) {
            Some(v) => axum::Json(v).into_response(),
            None => c.err(
                StatusCode::INTERNAL_SERVER_ERROR,
                "cannot read file info",
                "INTERNAL_SERVER_ERROR",
            ),
        },
        Ok(_) => c.err(
            StatusCode::NOT_FOUND,
            format!("file not found: {path}"),
            "FILE_NOT_FOUND",
        ),
        Err(e) => c.provider_err(e),
    }
}

async fn list_files(
    _: Authed,
    State(s): State<AppState>,
    Path(sid): Path<String>,
    Query(q): Query<PathQuery>,
    uri: Uri,
    method: Method,
) -> Response {
    let c = ctx_or_return!(s, sid, uri, method);
    let path = q
        .path
        .clone()
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| c.home());
    let argv = vec![
        "find".into(),
        path.clone(),
        "-mindepth".into(),
        "1".into(),
        "-maxdepth".into(),
        "1".into(),
        "-exec".into(),
        "stat".into(),
        "-c".into(),
        STAT_FORMAT.into(),
        "{}".into(),
        "+".into(),
    ];
    match sandbox_argv(&s, &c, argv).await {
        Ok(out) if out.exit_code == 0 => {
            let items: Vec<serde_json::Value> =
                out.stdout.lines().filter_map(file_info_json).collect();
            axum::Json(items).into_response()
        }
        Ok(_) => c.err(
            StatusCode::NOT_FOUND,
            format!("directory not found: {path}"),
            "FILE_NOT_FOUND",
        ),
        Err(e) => c.provider_err(e),
    }
}

async fn delete_file(
    _: Authed,
    State(s): State<AppState>,
    Path(sid): Path<String>,
    Query(q): Query<PathQuery>,
    uri: Uri,
    method: Method,
) -> Response {
    let c = ctx_or_return!(s, sid, uri, method);
    let path = match need_path(&c, &q) {
        Ok(p) => p,
        Err(r) => return r,
    };
    let recursive = q.recursive.as_deref() == Some("true");
    let mut argv = vec!["rm".to_string()];
    if recursive {
        argv.push("-rf".into());
    } else {
        argv.push("-f".into());
    }
    argv.extend(["--".to_string(), path.clone()]);
    // Without `recursive`, a directory is refused like the daemon does.
    if !recursive {
        let test = vec!["test".into(), "-d".into(), path.clone()];
        if matches!(sandbox_argv(&s, &c, test).await, Ok(o) if o.exit_code == 0) {
            return c.bad(format!("{path} is a directory; pass recursive=true"));
        }
    }
    match sandbox_argv(&s, &c, argv).await {
        Ok(out) if out.exit_code == 0 => StatusCode::NO_CONTENT.into_response(),
        Ok(out) => c.bad(out.stderr.trim().to_string()),
        Err(e) => c.provider_err(e),
    }
}

async fn create_folder(
    _: Authed,
    State(s): State<AppState>,
    Path(sid): Path<String>,
    Query(q): Query<PathQuery>,
    uri: Uri,
    method: Method,
) -> Response {
    let c = ctx_or_return!(s, sid, uri, method);
    let path = match need_path(&c, &q) {
        Ok(p) => p,
        Err(r) => return r,
    };
    let mode = q.mode.clone().unwrap_or_else(|| "0755".into());
    if mode.is_empty() || !mode.chars().all(|ch| ('0'..='7').contains(&ch)) || mode.len() > 4 {
        return c.bad(format!("invalid mode `{mode}` (octal, e.g. 0755)"));
    }
    let argv = vec![
        "mkdir".into(),
        "-p".into(),
        "-m".into(),
        mode,
        "--".into(),
        path,
    ];
    match sandbox_argv(&s, &c, argv).await {
        Ok(out) if out.exit_code == 0 => StatusCode::CREATED.into_response(),
        Ok(out) => c.bad(out.stderr.trim().to_string()),
        Err(e) => c.provider_err(e),
    }
}

#[derive(Deserialize)]
struct CloneBody {
    url: String,
    path: String,
    #[serde(default)]
    branch: Option<String>,
    #[serde(default)]
    commit_id: Option<String>,
    #[serde(default)]
    username: Option<String>,
    #[serde(default)]
    password: Option<String>,
}

async fn git_clone(
    _: Authed,
    State(s): State<AppState>,
    Path(sid): Path<String>,
    uri: Uri,
    method: Method,
    body: Bytes,
) -> Response {
    let c = ctx_or_return!(s, sid, uri, method);
    let req: CloneBody = match parse(&c, &body) {
        Ok(r) => r,
        Err(r) => return r,
    };
    if req.url.trim().is_empty() || req.path.trim().is_empty() {
        return c.bad("url and path are required");
    }
    // Credentials are used only when both are set, like the daemon.
    let (username, password) = match (req.username, req.password) {
        (Some(u), Some(p)) if !u.is_empty() && !p.is_empty() => (Some(u), Some(Secret::new(p))),
        _ => (None, None),
    };
    let result = match super::git::host_repo(&req.url) {
        // A repository on this host is not visible inside the sandbox: clone it from here.
        Some(src) => {
            super::git::clone_host_repo(
                &s,
                &c.sid,
                &c.home(),
                &src,
                &req.path,
                req.branch.as_deref(),
            )
            .await
        }
        None => {
            let spec = GitClone {
                url: req.url.clone(),
                path: req.path.clone(),
                branch: req.branch.clone(),
                username,
                password,
            };
            s.sandboxes.provider().git_clone(&c.sid, &spec).await
        }
    };
    if let Err(e) = result {
        let msg = e.to_string();
        let lower = msg.to_lowercase();
        let (status, code) = if lower.contains("authentication")
            || lower.contains("could not read username")
            || lower.contains("403")
        {
            (StatusCode::UNAUTHORIZED, "GIT_AUTH_FAILED")
        } else if lower.contains("not found")
            || lower.contains("does not appear to be a git repository")
            || lower.contains("does not exist")
        {
            (StatusCode::NOT_FOUND, "GIT_REPO_NOT_FOUND")
        } else if lower.contains("remote branch") {
            (StatusCode::NOT_FOUND, "GIT_BRANCH_NOT_FOUND")
        } else {
            (StatusCode::BAD_REQUEST, "GIT_TRANSPORT_FAILED")
        };
        return c.err(status, msg, code);
    }
    if let Some(commit) = req.commit_id.filter(|x| !x.is_empty()) {
        let argv = vec![
            "git".into(),
            "-C".into(),
            req.path.clone(),
            "checkout".into(),
            "--quiet".into(),
            commit,
        ];
        match sandbox_argv(&s, &c, argv).await {
            Ok(o) if o.exit_code == 0 => {}
            Ok(o) => return c.bad(format!("checkout failed: {}", o.stderr.trim())),
            Err(e) => return c.provider_err(e),
        }
    }
    StatusCode::OK.into_response()
}

async fn version(
    _: Authed,
    State(s): State<AppState>,
    Path(sid): Path<String>,
    uri: Uri,
    method: Method,
) -> Response {
    let _c = ctx_or_return!(s, sid, uri, method);
    axum::Json(json!({"version": model::DAEMON_VERSION})).into_response()
}

async fn home_dir(
    _: Authed,
    State(s): State<AppState>,
    Path(sid): Path<String>,
    uri: Uri,
    method: Method,
) -> Response {
    let c = ctx_or_return!(s, sid, uri, method);
    axum::Json(json!({"dir": c.home()})).into_response()
}
