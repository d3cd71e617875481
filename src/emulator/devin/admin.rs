//! Admin routes that play Devin's "brain" (no auth; loopback only):
//!
//! | Route | Body | Answer |
//! |---|---|---|
//! | `POST /_emulator/sessions` | [`NewSession`] | `[SessionInfo]` |
//! | `GET /_emulator/sessions` | | `[SessionInfo]` |
//! | `GET /_emulator/sessions/{id}` | | `SessionInfo` |
//! | `POST /_emulator/sessions/{id}/suspend` \| `resume` \| `terminate` | | `SessionInfo` |
//! | `POST /_emulator/sessions/{id}/resume` | `{"network_policy": …}` (optional: the woken entry's policy) | `SessionInfo` |
//! | `POST /_emulator/sessions/{id}/status` | `{"status": "running"}` | `SessionInfo` |
//! | `POST /_emulator/sessions/{id}/blip` | `{"ms": 2000}` | `SessionInfo` |
//! | `POST /_emulator/sessions/{id}/task` | `{"task": "…"}` | `TaskInfo` |
//! | `GET /_emulator/history[?session=ID]` | | `[HistoryRecord]` |
//! | `GET /_emulator/outposts` | | `[outpost]` (wire shape, live counts) |
//! | `POST /_emulator/outposts` | `{"name", "platform", "personal"}` | outpost (`v3.rs`) |
//!
//! Errors: `{"detail": "..."}` with 404 (unknown session/outpost), 409 (wrong state), 422.

// Handlers bail out with a ready `Response`; its size does not matter here.
#![allow(clippy::result_large_err)]

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::Value;

use super::fleet::{detail, param, query_map};
use super::lifecycle::NewSession;
use super::state::{Micros, Queue, Refusal, Status};
use crate::emulator::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/_emulator/sessions", get(list).post(create))
        .route("/_emulator/sessions/:id", get(one))
        .route("/_emulator/sessions/:id/suspend", post(suspend))
        .route("/_emulator/sessions/:id/resume", post(resume))
        .route("/_emulator/sessions/:id/terminate", post(terminate))
        .route("/_emulator/sessions/:id/status", post(set_status))
        .route("/_emulator/sessions/:id/blip", post(blip))
        .route("/_emulator/sessions/:id/task", post(task))
        .route("/_emulator/history", get(history))
        .route(
            "/_emulator/outposts",
            get(outposts).post(super::v3::add_outpost),
        )
}

fn refusal(r: Refusal) -> Response {
    detail(r.status, r.detail)
}

fn json_body(body: &Bytes) -> Result<Value, Response> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(Value::Object(Default::default()));
    }
    serde_json::from_slice(body).map_err(|e| detail(422, format!("the body is not JSON: {e}")))
}

async fn create(State(s): State<AppState>, body: Bytes) -> Response {
    let spec: NewSession = match json_body(&body).and_then(|v| {
        serde_json::from_value(v).map_err(|e| detail(422, format!("bad session spec: {e}")))
    }) {
        Ok(s) => s,
        Err(r) => return r,
    };
    match s.devin.with(|q, now| {
        q.enqueue(&spec, now).map(|ids| {
            for id in &ids {
                q.v3_register_web_session(id, now);
            }
            ids.iter()
                .filter_map(|id| q.session_info(id))
                .collect::<Vec<_>>()
        })
    }) {
        Ok(infos) => axum::Json(infos).into_response(),
        Err(r) => refusal(r),
    }
}

async fn list(State(s): State<AppState>) -> Response {
    // A read: stale claims expire first, as on the fleet API.
    axum::Json(s.devin.with(|q, now| {
        q.expire_stale(now);
        q.session_infos()
    }))
    .into_response()
}

async fn one(State(s): State<AppState>, Path(id): Path<String>) -> Response {
    match s.devin.with(|q, now| {
        q.expire_stale(now);
        q.session_info(&id)
    }) {
        Some(i) => axum::Json(i).into_response(),
        None => detail(404, format!("no session {id:?}")),
    }
}

/// Apply a lifecycle change and answer with the session's new view.
fn act(
    s: &AppState,
    id: &str,
    f: impl FnOnce(&mut Queue, Micros) -> Result<(), Refusal>,
) -> Response {
    match s
        .devin
        .with(|q, now| f(q, now).map(|()| q.session_info(id)))
    {
        Ok(Some(info)) => axum::Json(info).into_response(),
        Ok(None) => detail(404, format!("no session {id:?}")),
        Err(r) => refusal(r),
    }
}

async fn suspend(State(s): State<AppState>, Path(id): Path<String>) -> Response {
    act(&s, &id, |q, now| q.suspend(&id, now))
}

async fn resume(State(s): State<AppState>, Path(id): Path<String>, body: Bytes) -> Response {
    let v = match json_body(&body) {
        Ok(v) => v,
        Err(r) => return r,
    };
    // Absent: the woken entry keeps the policy it had; present (even null): this one.
    let policy = v.get("network_policy").cloned();
    act(&s, &id, |q, now| {
        q.resume(&id, now)?;
        if let Some(p) = policy
            && let Some(i) = q.latest_index(&id)
        {
            q.rows[i].network_policy = Some(p).filter(|p| !p.is_null());
        }
        Ok(())
    })
}

async fn terminate(State(s): State<AppState>, Path(id): Path<String>) -> Response {
    act(&s, &id, |q, now| q.terminate(&id, now))
}

async fn set_status(State(s): State<AppState>, Path(id): Path<String>, body: Bytes) -> Response {
    let v = match json_body(&body) {
        Ok(v) => v,
        Err(r) => return r,
    };
    let Some(status) = v
        .get("status")
        .and_then(Value::as_str)
        .and_then(Status::parse)
    else {
        return detail(
            422,
            "status must be pending, running, suspended or terminated",
        );
    };
    act(&s, &id, |q, now| q.set_status(&id, status, now))
}

async fn blip(State(s): State<AppState>, Path(id): Path<String>, body: Bytes) -> Response {
    let v = match json_body(&body) {
        Ok(v) => v,
        Err(r) => return r,
    };
    let ms = v
        .get("ms")
        .and_then(Value::as_u64)
        .unwrap_or(2000)
        .min(3_600_000);
    act(&s, &id, |q, now| q.blip(&id, (ms * 1000) as i64, now))
}

async fn task(State(s): State<AppState>, Path(id): Path<String>, body: Bytes) -> Response {
    let v = match json_body(&body) {
        Ok(v) => v,
        Err(r) => return r,
    };
    let Some(text) = v.get("task").and_then(Value::as_str) else {
        return detail(422, "task is required");
    };
    match s.devin.with(|q, now| q.add_task(&id, text, now)) {
        Ok(info) => axum::Json(info).into_response(),
        Err(r) => refusal(r),
    }
}

async fn history(State(s): State<AppState>, RawQuery(raw): RawQuery) -> Response {
    let pairs = query_map(&raw);
    let session = param(&pairs, "session").map(str::to_string);
    axum::Json(s.devin.with(|q, _| {
        q.history
            .iter()
            .filter(|h| session.as_ref().is_none_or(|s| &h.session_id == s))
            .cloned()
            .collect::<Vec<_>>()
    }))
    .into_response()
}

async fn outposts(State(s): State<AppState>) -> Response {
    axum::Json(s.devin.with(|q, _| {
        q.outposts
            .iter()
            .map(|o| q.outpost_json(o))
            .collect::<Vec<_>>()
    }))
    .into_response()
}
