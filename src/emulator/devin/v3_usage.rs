//! `acus_consumed` of a v3 session (specs/devin-sessions-api.md §2: a field of every
//! SessionResponse; the spec gives no rate). Two sources, so a test can pin the value and a
//! demo still sees usage that is not zero:
//!
//! - set by a test: `POST /_emulator/v3/sessions/{id}/usage {"acus_consumed": 4.5}` (loopback
//!   admin, no auth) → the SessionResponse; 404 for an unknown session, 422 for a body without
//!   a non-negative number;
//! - otherwise it grows with the session's life as the queue saw it (created → last update) at
//!   [`SECONDS_PER_ACU`]: deterministic from what the emulator recorded, no clock of its own.

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use serde_json::Value;

use super::fleet::detail;
use super::state::Micros;
use super::v3_state::V3Session;
use crate::emulator::AppState;

/// One ACU per quarter hour of a session's life (an assumption: the spec states no rate).
pub const SECONDS_PER_ACU: f64 = 900.0;

/// The `acus_consumed` a SessionResponse reports, given the session's last update.
pub(super) fn acus(s: &V3Session, updated_us: Micros) -> f64 {
    s.acus.unwrap_or_else(|| {
        let lived = (updated_us - s.created_us).max(0) as f64 / 1e6;
        lived / SECONDS_PER_ACU
    })
}

/// `POST /_emulator/v3/sessions/{id}/usage`.
pub(super) async fn set_usage(
    State(s): State<AppState>,
    Path(id): Path<String>,
    body: Bytes,
) -> Response {
    let value = serde_json::from_slice::<Value>(&body)
        .ok()
        .and_then(|v| v.get("acus_consumed").and_then(Value::as_f64))
        .filter(|a| a.is_finite() && *a >= 0.0);
    let Some(value) = value else {
        return detail(422, "send {\"acus_consumed\": N} with N a number ≥ 0");
    };
    let out = s.devin.with(|q, _| {
        let session = q.v3.sessions.get_mut(&id)?;
        session.acus = Some(value);
        q.mutations += 1;
        q.v3_json(&id, true)
    });
    match out {
        Some(v) => axum::Json(v).into_response(),
        None => detail(404, format!("Session {id} not found")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usage_grows_with_the_sessions_life_unless_a_test_set_it() {
        let mut s = V3Session {
            session_id: "devin-1".into(),
            title: None,
            tags: Vec::new(),
            outpost_id: None,
            created_us: 1_000_000,
            updated_us: 1_000_000,
            ended: false,
            archived: false,
            service_user_id: String::new(),
            from_web_app: true,
            acus: None,
        };
        assert_eq!(acus(&s, 1_000_000), 0.0);
        assert_eq!(acus(&s, 1_000_000 + 1_800_000_000), 2.0);
        s.acus = Some(4.5);
        assert_eq!(acus(&s, 1_000_000 + 1_800_000_000), 4.5);
    }
}
