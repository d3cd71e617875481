//! Toolbox process endpoints: `process/execute` and sessions (sync/async exec, command status,
//! logs, the entrypoint log).

use std::collections::BTreeMap;

use axum::body::Bytes;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use futures::StreamExt;
use serde_json::json;

use super::super::Authed;
use super::{CmdRec, Ctx, SessionRec, ctx, parse, run, shell, valid_env_key, windows};
use crate::api::daytona_types::{CreateSessionRequest, ExecuteRequest, SessionExecuteRequest};
use crate::emulator::AppState;
use crate::provider::{LogOptions, Provider, ProviderError};

pub(super) async fn execute(
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
    let daemon = s.opts.windows_daemon;
    if c.windows && req.command.len() > daemon.command_limit() {
        return axum::Json(json!({"exitCode": 1, "result": windows::TOO_LONG})).into_response();
    }
    // The older Windows daemon never passes `envs` to the command.
    let envs = if c.windows && !daemon.applies_envs() {
        BTreeMap::new()
    } else {
        envs
    };
    if c.windows && windows::leaks_pipe(&req.command) {
        // A child holds the output pipe: the daemon waits for it until the timeout.
        tokio::time::sleep(windows::hold(req.timeout)).await;
        return c.err(
            StatusCode::REQUEST_TIMEOUT,
            "command execution timeout",
            "REQUEST_TIMEOUT",
        );
    }
    if c.windows && windows::runs_powershell(&req.command) {
        return axum::Json(json!({
            "exitCode": windows::NO_POWERSHELL_EXIT,
            "result": windows::NO_POWERSHELL,
        }))
        .into_response();
    }
    let ran = if c.windows && !daemon.kills_tree_on_timeout() {
        windows::run_untended(&s, &c, &req.command, req.cwd, envs, req.timeout).await
    } else {
        run(&s, &c, &req.command, req.cwd, envs, req.timeout).await
    };
    match ran {
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

pub(super) async fn create_session(
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
    let key = (sid.clone(), req.session_id.clone());
    {
        let mut org = s.daytona.org();
        if org.sessions.contains_key(&key) {
            return c.err(StatusCode::CONFLICT, "session already exists", "CONFLICT");
        }
        let rec = SessionRec {
            shell: !c.windows,
            ..SessionRec::default()
        };
        org.sessions.insert(key.clone(), rec);
    }
    if !c.windows
        && let Err(e) = shell::start(&s, &c, &req.session_id).await
    {
        s.daytona.org().sessions.remove(&key);
        return c.err(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("failed to create session: {e}"),
            "INTERNAL_SERVER_ERROR",
        );
    }
    StatusCode::CREATED.into_response()
}

pub(super) fn session_json(id: &str, rec: &SessionRec) -> serde_json::Value {
    json!({
        "sessionId": id,
        "commands": rec.commands.iter().map(cmd_json).collect::<Vec<_>>(),
    })
}

pub(super) fn cmd_json(c: &CmdRec) -> serde_json::Value {
    let mut v = json!({"id": c.id, "command": c.command});
    if let Some(code) = c.exit_code.filter(|_| c.reports_exit) {
        v["exitCode"] = json!(code);
    }
    v
}

/// Record the exit codes of shell commands that ended since the last look.
pub(super) async fn refresh(s: &AppState, sid: &str, session: &str) {
    let pending: Vec<String> = {
        let org = s.daytona.org();
        match org.sessions.get(&(sid.to_string(), session.to_string())) {
            Some(r) if r.shell => r
                .commands
                .iter()
                .filter(|c| c.exit_code.is_none())
                .map(|c| c.id.clone())
                .collect(),
            _ => return,
        }
    };
    for cid in pending {
        if let Some(code) = shell::exit_code(s, sid, session, &cid).await {
            set_cmd(s, &(sid.to_string(), session.to_string()), &cid, |c| {
                c.exit_code = Some(code)
            });
        }
    }
}

pub(super) async fn list_sessions(
    _: Authed,
    State(s): State<AppState>,
    Path(sid): Path<String>,
    uri: Uri,
    method: Method,
) -> Response {
    let _c = ctx_or_return!(s, sid, uri, method);
    let ids: Vec<String> = {
        let org = s.daytona.org();
        org.sessions
            .keys()
            .filter(|(sb, _)| sb == &sid)
            .map(|(_, id)| id.clone())
            .collect()
    };
    for id in &ids {
        refresh(&s, &sid, id).await;
    }
    let org = s.daytona.org();
    let all: Vec<serde_json::Value> = org
        .sessions
        .iter()
        .filter(|((sb, _), _)| sb == &sid)
        .map(|((_, id), rec)| session_json(id, rec))
        .collect();
    axum::Json(all).into_response()
}

pub(super) async fn get_session(
    _: Authed,
    State(s): State<AppState>,
    Path((sid, sess)): Path<(String, String)>,
    uri: Uri,
    method: Method,
) -> Response {
    let c = ctx_or_return!(s, sid, uri, method);
    refresh(&s, &sid, &sess).await;
    let org = s.daytona.org();
    match org.sessions.get(&(sid.clone(), sess.clone())) {
        Some(rec) => axum::Json(session_json(&sess, rec)).into_response(),
        None => c.err(StatusCode::NOT_FOUND, "session not found", "NOT_FOUND"),
    }
}

pub(super) async fn delete_session(
    _: Authed,
    State(s): State<AppState>,
    Path((sid, sess)): Path<(String, String)>,
    uri: Uri,
    method: Method,
) -> Response {
    let c = ctx_or_return!(s, sid, uri, method);
    let removed = s
        .daytona
        .org()
        .sessions
        .remove(&(sid.clone(), sess.clone()));
    match removed {
        Some(rec) => {
            if rec.shell {
                shell::kill(&s, &c, &sess).await;
            }
            StatusCode::NO_CONTENT.into_response()
        }
        None => c.err(StatusCode::NOT_FOUND, "session not found", "NOT_FOUND"),
    }
}

pub(super) fn set_cmd(
    s: &AppState,
    key: &(String, String),
    cid: &str,
    f: impl FnOnce(&mut CmdRec),
) {
    let mut org = s.daytona.org();
    if let Some(c) = org
        .sessions
        .get_mut(key)
        .and_then(|r| r.commands.iter_mut().find(|c| c.id == cid))
    {
        f(c);
    }
}

/// Run an async session command in the background. Its output goes to files in the sandbox
/// so that logs can be read while it runs; the record gets the exit code at the end.
fn spawn_spooled(s: AppState, ctx: Ctx, key: (String, String), cid: String, command: String) {
    let (out, err) = spool_paths(&key.1, &cid);
    let dir = spool_dir(&key.1);
    let wrapped = format!("mkdir -p {dir} && (\n{command}\n) > {out} 2> {err}");
    tokio::spawn(async move {
        let result = run(&s, &ctx, &wrapped, None, BTreeMap::new(), None).await;
        let (stdout, stderr) = read_spool(&s, &ctx.sid, &out, &err).await;
        let (code, stderr) = match result {
            Ok(o) => (o.exit_code, stderr),
            Err(e) => (-1, format!("{stderr}{e}\n")),
        };
        set_cmd(&s, &key, &cid, |c| {
            c.exit_code = Some(code);
            c.stdout = stdout;
            c.stderr = stderr;
        });
    });
}

pub(super) async fn session_exec(
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
    let shell_session = {
        let mut org = s.daytona.org();
        let Some(rec) = org.sessions.get_mut(&key) else {
            return c.err(StatusCode::NOT_FOUND, "session not found", "NOT_FOUND");
        };
        if let Some(code) = rec.shell_exit {
            // The daemon cannot write into the stdin of a shell that has ended.
            return c.bad(format!(
                "failed to write command: the session's shell has exited (exit code {code}); \
                 delete the session and create it again"
            ));
        }
        rec.commands.push(CmdRec {
            id: cid.clone(),
            command: req.command.clone(),
            exit_code: None,
            stdout: String::new(),
            stderr: String::new(),
            reports_exit: !c.windows,
            suppress_echo: req.suppress_input_echo.unwrap_or(false),
        });
        rec.shell
    };
    let run_async = req.run_async.or(req.async_alias).unwrap_or(false);
    if shell_session {
        return super::session_io::shell_exec(&s, &c, &key, &cid, &req.command, run_async).await;
    }
    let ctx = Ctx {
        sid: sid.clone(),
        user: c.user.clone(),
        windows: c.windows,
        path: String::new(),
        method: String::new(),
    };
    if run_async {
        spawn_spooled(s.clone(), ctx, key, cid.clone(), req.command.clone());
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
    let mut answer = json!({
        "cmdId": cid,
        "output": format!("{stdout}{stderr}"),
        "stdout": stdout,
        "stderr": stderr,
    });
    if !c.windows {
        answer["exitCode"] = json!(code);
    }
    axum::Json(answer).into_response()
}

/// Where an async session command's output is spooled inside the sandbox.
pub(super) fn spool_dir(session: &str) -> String {
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

pub(super) fn spool_paths(session: &str, cid: &str) -> (String, String) {
    let dir = spool_dir(session);
    (format!("{dir}/{cid}.stdout"), format!("{dir}/{cid}.stderr"))
}

pub(super) async fn read_spool(s: &AppState, sid: &str, out: &str, err: &str) -> (String, String) {
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

pub(super) async fn get_command(
    _: Authed,
    State(s): State<AppState>,
    Path((sid, sess, cid)): Path<(String, String, String)>,
    uri: Uri,
    method: Method,
) -> Response {
    let c = ctx_or_return!(s, sid, uri, method);
    refresh(&s, &sid, &sess).await;
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
pub(super) fn wants_json(headers: &HeaderMap) -> bool {
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

pub(super) fn logs_body(headers: &HeaderMap, stdout: &str, stderr: &str) -> Response {
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

#[derive(serde::Deserialize)]
pub(super) struct FollowQuery {
    #[serde(default)]
    follow: Option<String>,
}

// Axum extractors, one per part of the request the daemon looks at.
#[allow(clippy::too_many_arguments)]
/// A command's logs: JSON or text (see [`logs_body`]); over a WebSocket upgrade, the daemon's
/// framed stream ([`shell::follow_logs`]), until the command ends with `?follow=true`.
pub(super) async fn command_logs(
    _: Authed,
    State(s): State<AppState>,
    Path((sid, sess, cid)): Path<(String, String, String)>,
    Query(q): Query<FollowQuery>,
    uri: Uri,
    method: Method,
    headers: HeaderMap,
    ws: Option<WebSocketUpgrade>,
) -> Response {
    let c = ctx_or_return!(s, sid, uri, method);
    refresh(&s, &sid, &sess).await;
    let found = {
        let org = s.daytona.org();
        org.sessions
            .get(&(sid.clone(), sess.clone()))
            .and_then(|r| {
                let cmd = r.commands.iter().find(|x| x.id == cid)?;
                Some((
                    r.shell,
                    cmd.stdout.clone(),
                    cmd.stderr.clone(),
                    cmd.exit_code.is_none(),
                ))
            })
    };
    let Some((is_shell, out, err, running)) = found else {
        return c.err(StatusCode::NOT_FOUND, "command not found", "NOT_FOUND");
    };
    if is_shell {
        if let Some(ws) = ws {
            let follow = q.follow.as_deref() == Some("true");
            return ws
                .on_upgrade(move |socket| shell::follow_logs(s, sid, sess, cid, follow, socket));
        }
        let (out, err) = shell::output(&s, &sid, &sess, &cid).await;
        return logs_body(
            &headers,
            &String::from_utf8_lossy(&out),
            &String::from_utf8_lossy(&err),
        );
    }
    if running {
        let (out, err) = spool_paths(&sess, &cid);
        let (stdout, stderr) = read_spool(&s, &sid, &out, &err).await;
        return logs_body(&headers, &stdout, &stderr);
    }
    logs_body(&headers, &out, &err)
}

pub(super) async fn entrypoint_logs(
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
