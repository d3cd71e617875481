//! The toolbox (in-sandbox daemon) under `{base}/daytona/toolbox/{sandboxId}`: process execute,
//! sessions, files and git clone, carried out in the sandbox's local twin.
//!
//! Sessions on Linux sandboxes keep one long-lived shell each ([`shell`]): state carries over
//! between commands, input reaches running commands, and logs can be followed over a WebSocket.
//! Session logs are JSON `{output, stdout, stderr}` for `X-Daytona-SDK-Version` ≥ 0.167.0 (or
//! `X-Daytona-Split-Output: true`), plain combined text otherwise, like the daemon.

use std::collections::BTreeMap;
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use serde_json::json;

use super::model::{self, tb_error};
use super::{Authed, TOOLBOX_PREFIX};
use crate::api::daytona_types::SandboxState as St;
use crate::emulator::AppState;
use crate::provider::{ExecRequest, GitClone, Provider, ProviderError};
use crate::secrets::Secret;

/// Commands of one toolbox session.
#[derive(Debug, Clone, Default)]
pub struct SessionRec {
    pub commands: Vec<CmdRec>,
    /// The session runs its commands in one long-lived shell ([`shell`]; Linux sandboxes).
    pub shell: bool,
    /// That shell's exit code, once it has ended (`exit N`, or killed).
    pub shell_exit: Option<i32>,
}

#[derive(Debug, Clone)]
pub struct CmdRec {
    pub id: String,
    pub command: String,
    pub exit_code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    /// Whether the daemon reports the exit code (the Windows daemon never does).
    pub reports_exit: bool,
    /// `suppressInputEcho`: input sent to the command is not copied into its stdout log.
    pub suppress_echo: bool,
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
        .route(
            &p("/process/session/:sess/command/:cid/input"),
            post(session_io::send_input),
        )
        .route(&p("/files"), get(list_files).delete(delete_file))
        .route(&p("/files/download"), get(download))
        .route(&p("/files/bulk-download"), post(bulk_download))
        .route(&p("/files/bulk-upload"), post(bulk_upload))
        .route(&p("/files/upload-v2"), post(upload_single))
        .route(&p("/files/upload"), post(upload_single))
        .route(&p("/files/info"), get(file_info))
        .route(&p("/files/folder"), post(create_folder))
        .route(&p("/files/find"), get(fs_ops::find_in_files))
        .route(&p("/files/search"), get(fs_ops::search_files))
        .route(&p("/files/replace"), post(fs_ops::replace_in_files))
        .route(&p("/files/move"), post(fs_ops::move_file))
        .route(&p("/files/permissions"), post(fs_ops::set_permissions))
        .route(&p("/git/clone"), post(git_clone))
        .route(&p("/git/status"), get(git_ops::status))
        .route(&p("/git/branches"), get(git_ops::branches))
        .route(&p("/process/code-run"), post(code_run::code_run))
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

#[derive(Clone)]
struct Ctx {
    sid: String,
    user: String,
    /// A Windows sandbox: the toolbox follows the Windows daemon ([`windows`]).
    windows: bool,
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
        windows: false,
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
        windows: r.windows,
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

// After the macro: the handlers use it.
mod code_run;
mod files;
mod fs_ops;
mod git_ops;
mod process;
mod session_io;
mod shell;
mod windows;

use files::*;
use process::*;

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
    if let Some(sim) = s.sandboxes.sim() {
        return Ok(sim.exec(s, &c.sid, command, &envs).await);
    }
    let mut req = ExecRequest::shell(command);
    req.cwd = Some(cwd.unwrap_or_else(|| c.home()));
    req.env = envs.into_iter().map(|(k, v)| (k, Secret::new(v))).collect();
    req.timeout = timeout.filter(|t| *t > 0).map(Duration::from_secs);
    s.sandboxes.provider().exec(&c.sid, &req).await
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

/// The daemon's answer to a failed clone, from what git printed (git has no other channel).
fn clone_failure(msg: &str) -> (StatusCode, &'static str) {
    let lower = msg.to_lowercase();
    if lower.contains("authentication")
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
    }
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
        let (status, code) = clone_failure(&msg);
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
