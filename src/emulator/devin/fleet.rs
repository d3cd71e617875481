//! The fleet API routes: `/opbeta/outposts/devins…` (queue) and `/opbeta/outposts…` (outposts).
//!
//! Auth: `Authorization: Bearer <token>`; a missing or unknown token is 401 `{"detail":"Invalid
//! token"}`. Machine tokens reach the queue and may list/get outposts; creating and deleting
//! outposts needs the orchestrator scope (403 otherwise). Errors are FastAPI-style
//! `{"detail": "..."}`; validation failures are 422.

// Handlers bail out with a ready `Response`; its size does not matter here.
#![allow(clippy::result_large_err)]

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::{Value, json};

use super::outposts::decode_outpost_cursor;
use super::queue::{ClaimResult, ListFilter, ReleaseResult};
use super::state::{Queue, RowPhase, Scope, decode_cursor, encode_cursor};
use crate::emulator::{AppState, OutpostGetRoute};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/opbeta/outposts/devins", get(queue_list))
        .route("/opbeta/outposts/devins/:id", get(queue_get))
        .route(
            "/opbeta/outposts/devins/:id/claim",
            axum::routing::post(queue_claim),
        )
        .route(
            "/opbeta/outposts/devins/:id/release",
            axum::routing::post(queue_release),
        )
        .route("/opbeta/outposts", get(outposts_list).post(outpost_create))
        .route(
            "/opbeta/outposts/outposts",
            get(outposts_list).post(outpost_create),
        )
        .route(
            "/opbeta/outposts/:id",
            get(outpost_get).delete(outpost_delete),
        )
        .route(
            "/opbeta/outposts/outposts/:id",
            get(outpost_get).delete(outpost_delete),
        )
}

pub fn detail(status: u16, message: impl Into<String>) -> Response {
    (
        StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
        axum::Json(json!({"detail": message.into()})),
    )
        .into_response()
}

pub fn bearer(headers: &HeaderMap) -> Option<&str> {
    let v = headers.get("authorization")?.to_str().ok()?.trim();
    let (scheme, token) = v.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim())
        .filter(|t| !t.is_empty())
}

fn authorize(s: &AppState, headers: &HeaderMap, need: Scope) -> Result<(), Response> {
    let scope = bearer(headers).and_then(|t| s.devin.with(|q, _| q.token_scope(t)));
    match (scope, need) {
        (None, _) => Err(detail(401, "Invalid token")),
        (Some(Scope::Machine), Scope::Orchestrator) => Err(detail(
            403,
            "This token lacks the account.outposts.orchestrator scope",
        )),
        _ => Ok(()),
    }
}

/// Query pairs; the first value of a key wins.
pub fn query_map(raw: &Option<String>) -> Vec<(String, String)> {
    raw.as_deref()
        .map(|q| {
            url::form_urlencoded::parse(q.as_bytes())
                .into_owned()
                .collect()
        })
        .unwrap_or_default()
}

pub fn param<'a>(pairs: &'a [(String, String)], key: &str) -> Option<&'a str> {
    pairs
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
        .filter(|v| !v.is_empty())
}

fn page_size(pairs: &[(String, String)]) -> Result<usize, Response> {
    match param(pairs, "first") {
        None => Ok(100),
        Some(v) => match v.parse::<usize>() {
            Ok(n) if (1..=200).contains(&n) => Ok(n),
            _ => Err(detail(
                422,
                format!("first must be an integer between 1 and 200 (got {v:?})"),
            )),
        },
    }
}

async fn queue_list(
    State(s): State<AppState>,
    headers: HeaderMap,
    RawQuery(raw): RawQuery,
) -> Response {
    if let Err(r) = authorize(&s, &headers, Scope::Machine) {
        return r;
    }
    let pairs = query_map(&raw);
    // `pool` is the old name of the filter.
    let outpost = param(&pairs, "outpost")
        .or_else(|| param(&pairs, "pool"))
        .map(str::to_string);
    let from = match param(&pairs, "cursor") {
        None => None,
        Some(c) => match decode_cursor(c) {
            Some(us) => Some(us),
            None => return detail(400, "Invalid cursor"),
        },
    };
    if param(&pairs, "watch").is_some_and(|w| matches!(w, "true" | "1" | "True" | "yes")) {
        return super::watch::stream(s.devin.clone(), outpost, from);
    }
    let first = match page_size(&pairs) {
        Ok(n) => n,
        Err(r) => return r,
    };
    let phase = match param(&pairs, "phase") {
        None => None,
        Some("pending") => Some(RowPhase::Pending),
        Some("claimed") => Some(RowPhase::Claimed),
        Some(other) => {
            return detail(
                422,
                format!("phase must be pending or claimed (got {other:?})"),
            );
        }
    };
    let filter = ListFilter {
        outpost,
        phase,
        acceptor_id: param(&pairs, "acceptor_id").map(str::to_string),
    };
    let first = s.devin.page_size(first);
    let page = s.devin.with(|q, now| q.list(&filter, first, from, now));
    axum::Json(json!({
        "items": page.items,
        "cursor": encode_cursor(page.cursor),
        "has_next_page": page.has_next_page,
        "total": page.total,
    }))
    .into_response()
}

async fn queue_get(
    State(s): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    if let Err(r) = authorize(&s, &headers, Scope::Machine) {
        return r;
    }
    match s.devin.with(|q, now| {
        q.expire_stale(now);
        q.live_index(&id)
            .map(|i| Queue::entry_json(&q.rows[i], None))
    }) {
        Some(v) => axum::Json(v).into_response(),
        None => detail(404, "Session not found in queue"),
    }
}

fn acceptor_of(body: &Bytes) -> Result<String, Response> {
    claim_acceptor(body)?.ok_or_else(|| detail(422, "acceptor_id is required (1-256 characters)"))
}

/// A claim's `acceptor_id`: the model answers 200 to a claim without one (an empty body, `{}`
/// or a null), so only a malformed body or a malformed id is refused.
fn claim_acceptor(body: &Bytes) -> Result<Option<String>, Response> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    let v: Value = serde_json::from_slice(body).map_err(|e| {
        detail(
            422,
            format!("the body must be JSON {{\"acceptor_id\": …}}: {e}"),
        )
    })?;
    match v.get("acceptor_id") {
        None | Some(Value::Null) => Ok(None),
        Some(a) => a
            .as_str()
            .map(str::trim)
            .filter(|a| !a.is_empty() && a.len() <= 256)
            .map(|a| Some(a.to_string()))
            .ok_or_else(|| detail(422, "acceptor_id must be a string of 1-256 characters")),
    }
}

async fn queue_claim(
    State(s): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Bytes,
) -> Response {
    if let Err(r) = authorize(&s, &headers, Scope::Machine) {
        return r;
    }
    let acceptor = match claim_acceptor(&body) {
        Ok(a) => a,
        Err(r) => return r,
    };
    let ttl = s.devin.claim_ttl_us();
    let gateway = s.devin.gateway_url().to_string();
    match s
        .devin
        .with(|q, now| q.claim(&id, acceptor.as_deref(), now, ttl, &gateway))
    {
        ClaimResult::Won(v) => axum::Json(v).into_response(),
        ClaimResult::Conflict(m) => detail(409, m),
        ClaimResult::NotFound => detail(404, "Session not found in queue"),
    }
}

async fn queue_release(
    State(s): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Bytes,
) -> Response {
    if let Err(r) = authorize(&s, &headers, Scope::Machine) {
        return r;
    }
    let acceptor = match acceptor_of(&body) {
        Ok(a) => a,
        Err(r) => return r,
    };
    match s.devin.with(|q, now| q.release(&id, &acceptor, now)) {
        ReleaseResult::Released(v) => axum::Json(v).into_response(),
        ReleaseResult::NotHeld => detail(409, "Session is not claimed by this acceptor"),
        ReleaseResult::NotFound => detail(404, "Session not found in queue"),
    }
}

async fn outposts_list(
    State(s): State<AppState>,
    headers: HeaderMap,
    RawQuery(raw): RawQuery,
) -> Response {
    if let Err(r) = authorize(&s, &headers, Scope::Machine) {
        return r;
    }
    let pairs = query_map(&raw);
    let first = match page_size(&pairs) {
        Ok(n) => n,
        Err(r) => return r,
    };
    let after = match param(&pairs, "after") {
        None => None,
        Some(a) => match decode_outpost_cursor(a) {
            Some(n) => Some(n),
            None => return detail(422, "Invalid cursor in `after`"),
        },
    };
    axum::Json(s.devin.with(|q, _| q.outposts_page(first, after))).into_response()
}

async fn outpost_get(
    State(s): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    // An absent route answers before auth, as a router does for a path it does not know.
    match s.devin.outpost_get_route() {
        OutpostGetRoute::Served => {}
        OutpostGetRoute::NotFound => return detail(404, "Not Found"),
        OutpostGetRoute::MethodNotAllowed => {
            let mut r = detail(405, "Method Not Allowed");
            r.headers_mut().insert(
                axum::http::header::ALLOW,
                axum::http::HeaderValue::from_static("DELETE"),
            );
            return r;
        }
    }
    if let Err(r) = authorize(&s, &headers, Scope::Machine) {
        return r;
    }
    match s.devin.with(|q, _| {
        q.outposts
            .iter()
            .find(|o| o.outpost_id == id)
            .map(|o| q.outpost_json(o))
    }) {
        Some(v) => axum::Json(v).into_response(),
        None => detail(404, "Outpost not found"),
    }
}

async fn outpost_create(State(s): State<AppState>, headers: HeaderMap, body: Bytes) -> Response {
    if let Err(r) = authorize(&s, &headers, Scope::Orchestrator) {
        return r;
    }
    let v: Value = match serde_json::from_slice(&body) {
        Ok(v) => v,
        Err(e) => {
            return detail(
                422,
                format!("the body must be JSON {{\"name\", \"platform\", \"description\"}}: {e}"),
            );
        }
    };
    let Some(name) = v.get("name").and_then(Value::as_str) else {
        return detail(422, "name is required");
    };
    let platform = v.get("platform").and_then(Value::as_str);
    let description = v.get("description").and_then(Value::as_str);
    match s.devin.create_outpost(name, platform, description) {
        Ok(o) => axum::Json(o).into_response(),
        Err(r) => detail(r.status, r.detail),
    }
}

async fn outpost_delete(
    State(s): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    if let Err(r) = authorize(&s, &headers, Scope::Orchestrator) {
        return r;
    }
    if s.devin.with(|q, _| q.delete_outpost(&id)) {
        axum::Json(json!({"outpost_id": id, "deleted": true})).into_response()
    } else {
        detail(404, "Outpost not found")
    }
}
