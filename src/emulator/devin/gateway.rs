//! The gateway the fake remote talks to (protocol in `tasks.rs`). Real `devin-remote` binaries
//! open a websocket at `/gateway`; the proprietary protocol is not emulated, so that gets 426
//! and shows up in the request log.

use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{RawQuery, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use base64::Engine;
use tokio::time::Instant;

use super::fleet::{bearer, detail, param, query_map};
use super::tasks::Reply;
use crate::emulator::AppState;

/// Longest a `next` long poll waits before answering `wait`.
const LONG_POLL: Duration = Duration::from_secs(15);

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/gateway", get(websocket))
        .route("/gateway/connect", post(connect))
        .route("/gateway/next", get(next))
        .route("/gateway/result", post(result))
}

fn text(status: StatusCode, body: String) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        format!("{body}\n"),
    )
        .into_response()
}

fn reply(r: Reply) -> Response {
    match r {
        Reply::Line(l) => text(StatusCode::OK, l),
        Reply::Unauthorized(m) => text(StatusCode::UNAUTHORIZED, m),
    }
}

/// The session the remote says it serves (base64, since ids may be any text).
fn session_hint(headers: &HeaderMap) -> Option<String> {
    let raw = headers.get("x-devin-outpost-session-b64")?.to_str().ok()?;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(raw.trim())
        .ok()?;
    String::from_utf8(bytes).ok()
}

async fn websocket() -> Response {
    detail(
        426,
        "this emulator's gateway speaks only the fake remote's HTTP protocol; the real devin-remote cannot attach here",
    )
}

async fn connect(State(s): State<AppState>, headers: HeaderMap) -> Response {
    let Some(token) = bearer(&headers).map(str::to_string) else {
        return text(StatusCode::UNAUTHORIZED, "missing connect token".into());
    };
    let hint = session_hint(&headers);
    reply(
        s.devin
            .with(|q, now| q.gateway_connect(&token, hint.as_deref(), now)),
    )
}

async fn next(State(s): State<AppState>, headers: HeaderMap) -> Response {
    let Some(token) = bearer(&headers).map(str::to_string) else {
        return text(StatusCode::UNAUTHORIZED, "missing connect token".into());
    };
    let hint = session_hint(&headers);
    let deadline = Instant::now() + LONG_POLL;
    let mut rx = s.devin.subscribe();
    // Not poll_until: woken by the emulator's change signal, not by a schedule.
    loop {
        rx.borrow_and_update();
        if let Some(r) = s
            .devin
            .with(|q, now| q.gateway_next(&token, hint.as_deref(), now))
        {
            return reply(r);
        }
        tokio::select! {
            changed = rx.changed() => {
                if changed.is_err() {
                    return text(StatusCode::OK, "wait".into());
                }
            }
            _ = tokio::time::sleep_until(deadline) => return text(StatusCode::OK, "wait".into()),
        }
    }
}

async fn result(
    State(s): State<AppState>,
    headers: HeaderMap,
    RawQuery(raw): RawQuery,
    body: Bytes,
) -> Response {
    let Some(token) = bearer(&headers).map(str::to_string) else {
        return text(StatusCode::UNAUTHORIZED, "missing connect token".into());
    };
    let pairs = query_map(&raw);
    let Some(task) = param(&pairs, "task").map(str::to_string) else {
        return detail(422, "task is required");
    };
    let ok = param(&pairs, "status") == Some("ok");
    let code = param(&pairs, "code").and_then(|c| c.parse::<i32>().ok());
    match s
        .devin
        .with(|q, now| q.gateway_result(&token, &task, ok, code, &body, now))
    {
        Ok(info) => text(StatusCode::OK, info.status),
        Err(r) => detail(r.status, r.detail),
    }
}
