//! The `failed` fault: put a CoreWeave sandbox into its FAILED phase, as a runner that lost the
//! pod or an image that cannot run does (specs/coreweave-api.md §3: FAILED is terminal, with a
//! `state_reason`; the SDK raises SandboxFailedError; the sandbox stays readable). The
//! counterpart of Daytona's `POST /_emulator/daytona/error`.
//!
//! `POST /_emulator/coreweave/failed {"sandbox": ID_NAME_OR_TAG_VALUE, "reason": "…"}` fails
//! that sandbox now (its main process is stopped, exit code 1); `{"next": true, "reason": "…"}`
//! makes the next sandbox that finishes creating land in FAILED instead of RUNNING (once). A
//! failed sandbox can still be read, listed and deleted (a delete changes nothing: it is over).

use std::time::SystemTime;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use super::lifecycle::Phase;
use crate::api::coreweave::pb;
use crate::emulator::AppState;
use crate::emulator::faults::BrokenSandbox;

pub(super) async fn put_failed(State(s): State<AppState>, body: axum::body::Bytes) -> Response {
    let answer = |status: StatusCode, v: serde_json::Value| (status, axum::Json(v)).into_response();
    let Ok(b) = serde_json::from_slice::<BrokenSandbox>(&body) else {
        return answer(
            StatusCode::UNPROCESSABLE_ENTITY,
            json!({"detail": "send {\"sandbox\": ID_OR_NAME} or {\"next\": true}, with an optional \"reason\""}),
        );
    };
    let reason = b.reason();
    match (b.sandbox, b.next) {
        (Some(key), false) => match find(&s, &key) {
            Some(id) => {
                fail(&s, &id, reason.clone()).await;
                answer(
                    StatusCode::OK,
                    json!({"sandbox": id, "state": "FAILED", "reason": reason}),
                )
            }
            None => answer(
                StatusCode::NOT_FOUND,
                json!({"detail": format!("no live sandbox {key}")}),
            ),
        },
        (None, true) => {
            s.coreweave.lock().failed_next = Some(reason.clone());
            answer(StatusCode::OK, json!({"next": true, "reason": reason}))
        }
        _ => answer(
            StatusCode::UNPROCESSABLE_ENTITY,
            json!({"detail": "send either \"sandbox\" or \"next\": true, not both"}),
        ),
    }
}

/// The live sandbox `key` names: its id, its display name, or the value of one of its tags
/// (`key=value`: a session id, the orchestrator's name tag).
fn find(s: &AppState, key: &str) -> Option<String> {
    let st = s.coreweave.lock();
    st.sandboxes
        .values()
        .filter(|e| !e.phase.is_terminal())
        .find(|e| {
            e.id == key
                || e.display_name == key
                || e.spec
                    .tags
                    .iter()
                    .any(|t| t.split_once('=').is_some_and(|(_, v)| v == key))
        })
        .map(|e| e.id.clone())
}

/// The reason the sandbox that just finished creating fails, if the fault is armed (once).
pub(super) fn take_next(s: &AppState) -> Option<String> {
    s.coreweave.lock().failed_next.take()
}

/// Put sandbox `id` into FAILED now and stop its local sandbox (nothing runs in a failed one).
pub(super) async fn fail(s: &AppState, id: &str, reason: String) {
    let local_id = {
        let mut st = s.coreweave.lock();
        let Some(e) = st.sandboxes.get_mut(id) else {
            return;
        };
        let name = e.container_name.clone();
        e.containers = vec![pb::ContainerStatus {
            name,
            state: pb::State::Failed as i32,
            exit_code: 1,
            restart_count: 0,
        }];
        e.phase = Phase::Finished {
            state: pb::State::Failed,
            exit_code: Some(1),
            reason,
        };
        e.end_time = Some(SystemTime::now());
        e.local_id.clone()
    };
    if let Some(local_id) = local_id
        && let Err(e) = s.sandboxes.stop(&local_id).await
    {
        tracing::warn!("stopping the local sandbox of failed CoreWeave sandbox {id}: {e}");
    }
}
