//! Session commands in a shell session ([`super::shell`]): running one, and sending input to a
//! running one (`POST …/command/{cid}/input`).

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use super::super::Authed;
use super::process::{refresh, set_cmd};
use super::{Ctx, ctx, parse, shell};
use crate::emulator::AppState;

/// A command in a session's shell: async answers 202 at once; sync waits for the exit code.
pub(super) async fn shell_exec(
    s: &AppState,
    c: &Ctx,
    key: &(String, String),
    cid: &str,
    command: &str,
    run_async: bool,
) -> Response {
    if let Err(e) = shell::submit(s, c, &key.1, cid, command).await {
        if let Some(rec) = s.daytona.org().sessions.get_mut(key) {
            rec.commands.retain(|x| x.id != cid);
        }
        return c.bad(e);
    }
    if run_async {
        return (StatusCode::ACCEPTED, axum::Json(json!({"cmdId": cid}))).into_response();
    }
    let code = shell::wait(s, &c.sid, &key.1, cid).await;
    set_cmd(s, key, cid, |x| x.exit_code = Some(code));
    let (out, err) = shell::output(s, &c.sid, &key.1, cid).await;
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out).into_owned(),
        String::from_utf8_lossy(&err).into_owned(),
    );
    axum::Json(json!({
        "cmdId": cid,
        "output": format!("{stdout}{stderr}"),
        "stdout": stdout,
        "stderr": stderr,
        "exitCode": code,
    }))
    .into_response()
}

/// `POST …/command/{cid}/input {"data": …}` → 204: written to the running command's stdin.
/// 404 for an unknown session or command, 410 once the command (or the session's shell) ended.
pub(super) async fn send_input(
    _: Authed,
    State(s): State<AppState>,
    Path((sid, sess, cid)): Path<(String, String, String)>,
    uri: Uri,
    method: Method,
    body: Bytes,
) -> Response {
    let c = ctx_or_return!(s, sid, uri, method);
    let data = match parse::<serde_json::Value>(&c, &body) {
        Ok(v) => match v.get("data").and_then(|d| d.as_str()) {
            Some(d) => d.to_string(),
            None => return c.bad("data is required"),
        },
        Err(r) => return r,
    };
    refresh(&s, &sid, &sess).await;
    let key = (sid.clone(), sess.clone());
    let found = {
        let org = s.daytona.org();
        let Some(rec) = org.sessions.get(&key) else {
            return c.err(StatusCode::NOT_FOUND, "session not found", "NOT_FOUND");
        };
        if !rec.shell {
            return c.bad("this session does not take input");
        }
        if rec.shell_exit.is_some() {
            return c.err(StatusCode::GONE, "session process has exited", "GONE");
        }
        rec.commands
            .iter()
            .find(|x| x.id == cid)
            .map(|x| (x.exit_code, x.suppress_echo))
    };
    match found {
        None => c.err(StatusCode::NOT_FOUND, "command not found", "NOT_FOUND"),
        Some((Some(code), _)) => c.err(
            StatusCode::GONE,
            format!("command has already completed with exit code {code}"),
            "GONE",
        ),
        Some((None, suppress)) => {
            match shell::send_input(&s, &c, &sess, &cid, &data, !suppress).await {
                Ok(()) => StatusCode::NO_CONTENT.into_response(),
                Err(e) => c.err(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    e,
                    "INTERNAL_SERVER_ERROR",
                ),
            }
        }
    }
}
