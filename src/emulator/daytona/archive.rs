//! Archive and restore (daytona-api.md §3.1, §3.5):
//!
//! ```text
//! stopped ──autoArchiveInterval elapsed, or POST /sandbox/{id}/archive──→ archiving
//!         ──archive_ms──→ archived ──POST …/start──→ restoring ──restore_ms──→ started
//! ```
//!
//! A stopped sandbox archives itself once its `autoArchiveInterval` (minutes; 0 = the maximum,
//! [`MAX_AUTO_ARCHIVE_MINUTES`]; negative = never) has passed since it stopped; one "minute"
//! lasts `minute_ms` ([`super::Settings`]), so tests can scale time. An archived sandbox is the
//! same local sandbox, stopped: starting it brings back its files as they were. `archiving` is
//! derived (stored `stopped`, desired `archived`); `restoring` is stored, as the server does.

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, Uri};
use axum::response::Response;
use axum::routing::post;

use super::API_PREFIX;
use super::Authed;
use super::model::{d, now_ms};
use super::sandbox::{bad, change, in_progress, journal, lock_of, ok_dto, update};
use crate::api::daytona_types::{SandboxDesiredState as Desired, SandboxState as St};
use crate::emulator::AppState;

/// What `autoArchiveInterval: 0` means: the deployment's maximum (`GET /config` →
/// `maxAutoArchiveInterval`; the OpenAPI file's example value, 30 days).
pub const MAX_AUTO_ARCHIVE_MINUTES: i64 = 43_200;

/// How often a stopped sandbox's watcher looks again (settings and intervals may change).
const RECHECK_MS: u64 = 250;

pub fn routes() -> Router<AppState> {
    Router::new().route(&format!("{API_PREFIX}/sandbox/:id/archive"), post(archive))
}

/// `POST /sandbox/{idOrName}/archive`: only from `stopped`; answers with the sandbox
/// `archiving`.
async fn archive(
    _: Authed,
    State(s): State<AppState>,
    Path(key): Path<String>,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    let path = uri.path();
    let (id, ()) = match change(&s, &key, path, |r| match (r.stored, r.desired) {
        (St::Stopped, Desired::Stopped) => {
            r.desired = Desired::Archived;
            r.updated_ms = now_ms();
            Ok(())
        }
        (st, desired) if !st.is_error() && st.as_str() != desired.as_str() => {
            Err(in_progress(path))
        }
        _ => Err(bad("Sandbox is not stopped", path)),
    }) {
        Ok(x) => x,
        Err(answer) => return answer,
    };
    journal(&s, &headers, "archive", &id);
    tokio::spawn(run_archive(s.clone(), id.clone()));
    ok_dto(&s, &id, path)
}

/// `archiving` → `archived` (unless a start or delete took over meanwhile).
async fn run_archive(s: AppState, id: String) {
    let Some(lock) = lock_of(&s, &id) else { return };
    let _guard = lock.lock().await;
    tokio::time::sleep(d(s.daytona.settings().archive_ms)).await;
    update(&s, &id, |r| {
        if r.stored == St::Stopped && r.desired == Desired::Archived {
            r.stored = St::Archived;
        }
    });
}

/// Watch a sandbox that just stopped (at `stopped_ms`) and archive it when its interval is up.
/// Ends as soon as it is no longer that same stop.
pub async fn watch(s: AppState, id: String, stopped_ms: u64) {
    loop {
        let minute_ms = s.daytona.settings().minute_ms;
        let interval = {
            let org = s.daytona.org();
            match org.sandboxes.get(&id) {
                Some(r)
                    if r.stored == St::Stopped
                        && r.desired == Desired::Stopped
                        && r.stopped_ms == Some(stopped_ms) =>
                {
                    r.auto_archive
                }
                _ => return,
            }
        };
        let minutes = match interval {
            0 => MAX_AUTO_ARCHIVE_MINUTES,
            m if m < 0 => return,
            m => m,
        };
        let due = stopped_ms.saturating_add((minutes as u64).saturating_mul(minute_ms));
        let now = now_ms();
        if now >= due {
            break;
        }
        // Not poll_until: the emulator's auto-archive timer (a due time, re-read as the record
        // changes), not a wait for a state.
        tokio::time::sleep(d((due - now).min(RECHECK_MS))).await;
    }
    let begun = {
        let mut org = s.daytona.org();
        match org.sandboxes.get_mut(&id) {
            Some(r)
                if r.stored == St::Stopped
                    && r.desired == Desired::Stopped
                    && r.stopped_ms == Some(stopped_ms) =>
            {
                r.desired = Desired::Archived;
                r.updated_ms = now_ms();
                true
            }
            _ => false,
        }
    };
    if begun {
        run_archive(s, id).await;
    }
}

/// `restoring` → `started`: the local sandbox is started again (its files never left).
pub async fn run_restore(s: AppState, id: String) {
    let Some(lock) = lock_of(&s, &id) else { return };
    let _guard = lock.lock().await;
    tokio::time::sleep(d(s.daytona.settings().restore_ms)).await;
    let still = s
        .daytona
        .org()
        .sandboxes
        .get(&id)
        .is_some_and(|r| r.stored == St::Restoring && r.desired == Desired::Started);
    if !still {
        return;
    }
    match s.sandboxes.start(&id).await {
        Ok(()) => {
            crate::emulator::file_faults::on_daytona_start(&s, &id).await;
            update(&s, &id, |r| r.stored = St::Started)
        }
        Err(e) => update(&s, &id, |r| {
            r.stored = St::Error;
            r.error_reason = Some(format!("cannot restore the local sandbox: {e}"));
        }),
    }
}
