//! Start, stop and delete: the request answers at once with the derived state; the slow part
//! runs in a background task, serialised per sandbox by its lock.

use super::*;

pub(super) async fn start(
    _: Authed,
    State(s): State<AppState>,
    Path(key): Path<String>,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    let path = uri.path();
    let settings = s.daytona.settings();
    let (id, restore) = match change(&s, &key, path, |r| {
        let restore = match (r.stored, r.desired) {
            (St::Started, Desired::Started) => {
                return Err(axum::Json(r.dto(&toolbox(&s))).into_response());
            }
            (St::Archived, Desired::Archived) => {
                r.stored = St::Restoring;
                true
            }
            (St::Stopped, Desired::Stopped | Desired::Archived) => false,
            (st, _) if st.is_error() => return Err(bad("Sandbox is in an errored state", path)),
            _ => return Err(in_progress(path)),
        };
        r.desired = Desired::Started;
        r.updated_ms = now_ms();
        Ok(restore)
    }) {
        Ok(x) => x,
        Err(answer) => return answer,
    };
    journal(&s, &headers, "start", &id);
    if restore {
        // From archived the server answers at once, `restoring` (daytona-api.md §3.5).
        tokio::spawn(super::super::archive::run_restore(s.clone(), id.clone()));
        return ok_dto(&s, &id, path);
    }
    tokio::spawn(run_start(s.clone(), id.clone()));
    wait_for(&s, &id, d(settings.start_wait_ms), |r| {
        r.stored == St::Started
    })
    .await;
    ok_dto(&s, &id, path)
}

async fn run_start(s: AppState, id: String) {
    let Some(lock) = lock_of(&s, &id) else { return };
    let _guard = lock.lock().await;
    tokio::time::sleep(d(s.daytona.settings().start_ms)).await;
    if desired_of(&s, &id) != Some(Desired::Started) {
        return;
    }
    match s.sandboxes.start(&id).await {
        Ok(()) => {
            crate::emulator::file_faults::on_daytona_start(&s, &id).await;
            update(&s, &id, |r| r.stored = St::Started)
        }
        Err(e) => update(&s, &id, |r| {
            r.stored = St::Error;
            r.error_reason = Some(format!("cannot start the local sandbox: {e}"));
        }),
    }
}

pub(super) async fn stop(
    _: Authed,
    State(s): State<AppState>,
    Path(key): Path<String>,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    let path = uri.path();
    let (id, ()) = match change(&s, &key, path, |r| match (r.stored, r.desired) {
        (St::Started, Desired::Started) => {
            r.desired = Desired::Stopped;
            r.updated_ms = now_ms();
            Ok(())
        }
        (St::Stopped | St::Archived, Desired::Stopped | Desired::Archived) => {
            Err(bad("Sandbox is not in a stoppable state", path))
        }
        (st, _) if st.is_error() => Err(bad("Sandbox is not in a stoppable state", path)),
        _ => Err(in_progress(path)),
    }) {
        Ok(x) => x,
        Err(answer) => return answer,
    };
    journal(&s, &headers, "stop", &id);
    tokio::spawn(run_stop(s.clone(), id.clone()));
    ok_dto(&s, &id, path)
}

async fn run_stop(s: AppState, id: String) {
    let Some(lock) = lock_of(&s, &id) else { return };
    let _guard = lock.lock().await;
    tokio::time::sleep(d(s.daytona.settings().stop_ms)).await;
    let ephemeral = s
        .daytona
        .org()
        .sandboxes
        .get(&id)
        .is_some_and(|r| r.auto_delete == 0);
    let result = s.sandboxes.stop(&id).await;
    if ephemeral {
        let _ = s.sandboxes.delete(&id).await;
        destroyed(&s, &id);
        return;
    }
    match result {
        Ok(()) => {
            let at = now_ms();
            update(&s, &id, |r| {
                r.stored = St::Stopped;
                r.stopped_ms = Some(at);
            });
            // The daemon stopped with the sandbox: its session shells are gone.
            s.daytona
                .org()
                .sessions
                .retain(|(sb, _), r| sb != &id || !r.shell);
            // From now on its autoArchiveInterval runs.
            tokio::spawn(super::super::archive::watch(s.clone(), id.clone(), at));
        }
        Err(e) => update(&s, &id, |r| {
            r.stored = St::Error;
            r.error_reason = Some(format!("cannot stop the local sandbox: {e}"));
        }),
    }
}

fn destroyed(s: &AppState, id: &str) {
    let lag = s.daytona.settings().list_lag_ms;
    let mut org = s.daytona.org();
    if let Some(r) = org.sandboxes.remove(id)
        && lag > 0
    {
        org.graveyard.push((now_ms(), r));
    }
    org.sessions.retain(|(sb, _), _| sb != id);
}

pub(super) async fn delete(
    _: Authed,
    State(s): State<AppState>,
    Path(key): Path<String>,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    let path = uri.path();
    let (id, body) = {
        let mut org = s.daytona.org();
        let Some(id) = find_id(&org, &key) else {
            return not_found(&key, path);
        };
        let Some(r) = org.sandboxes.get_mut(&id) else {
            return not_found(&key, path);
        };
        if r.desired == Desired::Destroyed {
            return in_progress(path);
        }
        let now = now_ms();
        // Soft delete frees the name at once.
        r.name = format!("DESTROYED_{}_{now}", r.name);
        r.desired = Desired::Destroyed;
        r.updated_ms = now;
        (id, r.dto(&toolbox(&s)))
    };
    journal(&s, &headers, "delete", &id);
    tokio::spawn(run_delete(s.clone(), id));
    axum::Json(body).into_response()
}

pub(crate) async fn run_delete(s: AppState, id: String) {
    let Some(lock) = lock_of(&s, &id) else { return };
    let _guard = lock.lock().await;
    tokio::time::sleep(d(s.daytona.settings().delete_ms)).await;
    let local = s.daytona.org().sandboxes.get(&id).is_some_and(|r| r.local);
    let simulated = s.sandboxes.sim().is_some();
    if (local || simulated)
        && let Err(e) = s.sandboxes.delete(&id).await
    {
        tracing::warn!("emulated Daytona: cannot delete local sandbox {id}: {e}");
    }
    destroyed(&s, &id);
}
