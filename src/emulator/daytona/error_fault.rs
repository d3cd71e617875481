//! The `error` fault: put a sandbox into Daytona's `error` state, as a failed runner or a
//! broken image does (specs/daytona-api.md: `error` is a terminal-until-recovered state with an
//! `errorReason`; a client waiting for `started` gives up on it).
//!
//! `POST /_emulator/daytona/error {"sandbox": ID_OR_NAME, "reason": "…"}` puts that sandbox
//! into `error` now; `{"next": true, "reason": "…"}` makes the next sandbox that finishes
//! booting land in `error` instead of `started` (once). A sandbox in `error` can still be read,
//! listed and deleted.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use super::sandbox::{find_id, update};
use crate::api::daytona_types::SandboxState as St;
use crate::emulator::AppState;
use crate::emulator::faults::BrokenSandbox;

pub(super) async fn put_error(State(s): State<AppState>, body: axum::body::Bytes) -> Response {
    let bad = |detail: &str| {
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            axum::Json(json!({ "detail": detail })),
        )
            .into_response()
    };
    let Ok(b) = serde_json::from_slice::<BrokenSandbox>(&body) else {
        return bad(
            "send {\"sandbox\": ID_OR_NAME} or {\"next\": true}, with an optional \"reason\"",
        );
    };
    let reason = b.reason();
    match (b.sandbox, b.next) {
        (Some(key), false) => {
            let Some(id) = find_id(&s.daytona.org(), &key) else {
                return (
                    StatusCode::NOT_FOUND,
                    axum::Json(json!({ "detail": format!("no sandbox {key}") })),
                )
                    .into_response();
            };
            update(&s, &id, |r| {
                r.stored = St::Error;
                r.error_reason = Some(reason.clone());
            });
            axum::Json(json!({ "sandbox": id, "state": "error", "reason": reason })).into_response()
        }
        (None, true) => {
            s.daytona.org().error_next = Some(reason.clone());
            axum::Json(json!({ "next": true, "reason": reason })).into_response()
        }
        _ => bad("send either \"sandbox\" or \"next\": true, not both"),
    }
}

/// The reason the sandbox that just booted lands in `error`, if the fault is armed (once).
pub(crate) fn take_next(org: &mut super::Org) -> Option<String> {
    org.error_next.take()
}
