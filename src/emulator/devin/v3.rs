//! Routes of Devin's public v3 API (specs/devin-sessions-api.md), both prefixes (`/v3`,
//! `/v3beta1`), and their admin side. State and semantics are in `v3_state.rs`.
//!
//! | Route | Permission |
//! |---|---|
//! | `POST /v3/organizations/{org}/sessions` | ManageOrgSessions |
//! | `GET /v3/organizations/{org}/sessions[?first&after&tags]` | ViewOrgSessions |
//! | `GET /v3/organizations/{org}/sessions/{id}` | ViewOrgSessions |
//! | `DELETE /v3/organizations/{org}/sessions/{id}[?archive=true]` | ManageOrgSessions |
//! | `POST /v3/organizations/{org}/sessions/{id}/messages` | ManageOrgSessions |
//! | `GET\|PUT /v3beta1/organizations/{org}/default-platform` | ManageOrgSettings |
//!
//! Errors are `{"detail": …}`: 401 for a key that is not a v3 key of the organisation (a fleet
//! token included), 403 naming the missing permission, 404 for another organisation or an
//! unknown session, 422 for a body of the wrong shape, 400 (with the accepted platforms and
//! outposts) for a platform the organisation does not offer.
//!
//! Admin (loopback, no auth): `POST /_emulator/v3/keys {"permissions": [...], "label"}` →
//! `{"key", "org_id", "permissions"}`; `POST /_emulator/v3/settings {"outposts_only",
//! "proof_override"}`; `POST /_emulator/v3/sessions/{id}/usage {"acus_consumed"}` pins a
//! session's usage (`v3_usage.rs`); `POST /_emulator/outposts {"name", "platform", "personal"}` (routed in
//! `admin.rs`) adds an outpost as another member would (a personal one, or a duplicate name).

// Handlers bail out with a ready `Response`; its size does not matter here.
#![allow(clippy::result_large_err)]

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Value, json};

use super::fleet::{bearer, detail, param, query_map};
use super::state::{OutpostRow, random_hex, secs};
use super::v3_state::{Permission, Refused};
use crate::emulator::AppState;

pub fn routes() -> Router<AppState> {
    let mut r = Router::new();
    for prefix in ["/v3", "/v3beta1"] {
        r = r
            .route(
                &format!("{prefix}/organizations/:org/sessions"),
                get(list).post(create),
            )
            .route(
                &format!("{prefix}/organizations/:org/sessions/:id"),
                get(one).delete(end),
            )
            .route(
                &format!("{prefix}/organizations/:org/sessions/:id/messages"),
                post(message),
            )
            .route(
                &format!("{prefix}/organizations/:org/default-platform"),
                get(default_get).put(default_put),
            );
    }
    r.route("/_emulator/v3/keys", post(mint_key))
        .route(
            "/_emulator/v3/sessions/:id/usage",
            post(super::v3_usage::set_usage),
        )
        .route("/_emulator/v3/settings", post(settings))
}

fn refused((r, body): Refused) -> Response {
    (
        StatusCode::from_u16(r.status).unwrap_or(StatusCode::BAD_REQUEST),
        axum::Json(body),
    )
        .into_response()
}

/// The caller's key, checked against the organisation and the permission.
fn authorize(
    s: &AppState,
    headers: &HeaderMap,
    org: &str,
    need: Permission,
) -> Result<String, Response> {
    let key = bearer(headers).unwrap_or_default().to_string();
    s.devin.with(|q, _| {
        let Some(perms) = q.v3_permissions(&key) else {
            return Err(detail(401, "Invalid API key"));
        };
        if org != q.v3.org_id {
            return Err(detail(404, format!("Organization {org} not found")));
        }
        if !perms.contains(&need) {
            return Err(detail(
                403,
                format!("Missing permission {need:?} on organization {org}"),
            ));
        }
        Ok(key.clone())
    })
}

fn body_json(body: &Bytes) -> Result<Value, Response> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(json!({}));
    }
    serde_json::from_slice(body).map_err(|e| detail(422, format!("the body is not JSON: {e}")))
}

fn ok(v: Value) -> Response {
    axum::Json(v).into_response()
}

async fn create(
    State(s): State<AppState>,
    Path(org): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let key = match authorize(&s, &headers, &org, Permission::ManageOrgSessions) {
        Ok(k) => k,
        Err(r) => return r,
    };
    let v = match body_json(&body) {
        Ok(v) if v.is_object() => v,
        Ok(_) => return detail(422, "the body must be a JSON object"),
        Err(r) => return r,
    };
    match s.devin.with(|q, now| q.v3_create(&v, &key, now)) {
        Ok(v) => ok(v),
        Err(e) => refused(e),
    }
}

async fn list(
    State(s): State<AppState>,
    Path(org): Path<String>,
    headers: HeaderMap,
    RawQuery(raw): RawQuery,
) -> Response {
    if let Err(r) = authorize(&s, &headers, &org, Permission::ViewOrgSessions) {
        return r;
    }
    let pairs = query_map(&raw);
    let first = match param(&pairs, "first").map(|f| f.parse::<usize>()) {
        None => 100,
        Some(Ok(n)) if (1..=200).contains(&n) => n,
        _ => return detail(422, "first: must be an integer from 1 to 200"),
    };
    let tags: Vec<String> = pairs
        .iter()
        .filter(|(k, _)| k == "tags")
        .map(|(_, v)| v.clone())
        .collect();
    match s
        .devin
        .with(|q, _| q.v3_list(first, param(&pairs, "after"), &tags))
    {
        Ok(v) => ok(v),
        Err(e) => refused(e),
    }
}

async fn one(
    State(s): State<AppState>,
    Path((org, id)): Path<(String, String)>,
    headers: HeaderMap,
) -> Response {
    if let Err(r) = authorize(&s, &headers, &org, Permission::ViewOrgSessions) {
        return r;
    }
    match s.devin.with(|q, _| q.v3_json(&id, true)) {
        Some(v) => ok(v),
        None => detail(404, format!("Session {id} not found")),
    }
}

async fn end(
    State(s): State<AppState>,
    Path((org, id)): Path<(String, String)>,
    headers: HeaderMap,
    RawQuery(raw): RawQuery,
) -> Response {
    if let Err(r) = authorize(&s, &headers, &org, Permission::ManageOrgSessions) {
        return r;
    }
    let pairs = query_map(&raw);
    let archive = param(&pairs, "archive").is_some_and(|a| a.eq_ignore_ascii_case("true"));
    match s.devin.with(|q, now| q.v3_end(&id, archive, now)) {
        Ok(v) => ok(v),
        Err(e) => refused(e),
    }
}

async fn message(
    State(s): State<AppState>,
    Path((org, id)): Path<(String, String)>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    if let Err(r) = authorize(&s, &headers, &org, Permission::ManageOrgSessions) {
        return r;
    }
    let v = match body_json(&body) {
        Ok(v) => v,
        Err(r) => return r,
    };
    match s.devin.with(|q, now| q.v3_message(&id, &v, now)) {
        Ok(v) => ok(v),
        Err(e) => refused(e),
    }
}

async fn default_get(
    State(s): State<AppState>,
    Path(org): Path<String>,
    headers: HeaderMap,
) -> Response {
    if let Err(r) = authorize(&s, &headers, &org, Permission::ManageOrgSettings) {
        return r;
    }
    ok(s.devin.with(|q, _| q.v3_default_json()))
}

async fn default_put(
    State(s): State<AppState>,
    Path(org): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    if let Err(r) = authorize(&s, &headers, &org, Permission::ManageOrgSettings) {
        return r;
    }
    let v = match body_json(&body) {
        Ok(v) => v,
        Err(r) => return r,
    };
    match s.devin.with(|q, _| q.v3_set_default(&v)) {
        Ok(v) => ok(v),
        Err(e) => refused(e),
    }
}

async fn mint_key(State(s): State<AppState>, body: Bytes) -> Response {
    let v = match body_json(&body) {
        Ok(v) => v,
        Err(r) => return r,
    };
    let mut perms = Vec::new();
    for p in v
        .get("permissions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        match p.as_str().and_then(Permission::parse) {
            Some(p) => perms.push(p),
            None => return detail(422, format!("unknown permission {p}")),
        }
    }
    let label = v
        .get("label")
        .and_then(Value::as_str)
        .unwrap_or("minted key");
    let (key, org) = s
        .devin
        .with(|q, _| (q.v3_mint_key(perms.clone(), label), q.v3.org_id.clone()));
    crate::secrets::register(&key);
    ok(json!({"key": key, "org_id": org, "permissions": perms}))
}

async fn settings(State(s): State<AppState>, body: Bytes) -> Response {
    let v = match body_json(&body) {
        Ok(v) => v,
        Err(r) => return r,
    };
    let doc = s.devin.with(|q, _| {
        if let Some(b) = v.get("outposts_only").and_then(Value::as_bool) {
            q.v3.outposts_only = b;
        }
        if let Some(p) = v.get("proof_override") {
            q.v3.proof_override = p.as_str().map(str::to_string);
        }
        q.mutations += 1;
        json!({"org_id": q.v3.org_id, "outposts_only": q.v3.outposts_only, "proof_override": q.v3.proof_override})
    });
    ok(doc)
}

/// An outpost made by another member (personal, or under a name already taken).
pub(super) async fn add_outpost(State(s): State<AppState>, body: Bytes) -> Response {
    let v = match body_json(&body) {
        Ok(v) => v,
        Err(r) => return r,
    };
    let Some(name) = v
        .get("name")
        .and_then(Value::as_str)
        .filter(|n| !n.trim().is_empty())
    else {
        return detail(422, "name is required");
    };
    let personal = v.get("personal").and_then(Value::as_bool).unwrap_or(false);
    let platform = v
        .get("platform")
        .and_then(Value::as_str)
        .map(str::to_string);
    let out = s.devin.with(|q, now| {
        let row = OutpostRow {
            outpost_id: format!("outpost_env-{}", random_hex(32)),
            account_id: q.account_id.clone(),
            name: name.trim().to_string(),
            platform,
            description: None,
            created_at: secs(now),
            seq: q.next_outpost_seq,
            personal,
        };
        q.next_outpost_seq += 1;
        q.mutations += 1;
        let mut v = q.outpost_json(&row);
        v["personal"] = json!(personal);
        q.outposts.push(row);
        v
    });
    ok(out)
}
