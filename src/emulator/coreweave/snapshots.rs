//! File-system snapshots of scratch volumes (coreweave-api.md §3.9; `FileSystemSnapshot` and
//! the `*FileSystemSnapshot` RPCs of sandbox.proto).
//!
//! ```text
//! CreateFileSystemSnapshot ─ files copied at once ─→ CREATING ──snapshot_ready_ms──→ READY
//!                                                        └─ the copy failed ──→ FAILED
//! DeleteFileSystemSnapshot → DELETING ──snapshot_delete_ms──→ gone (files removed)
//! ```
//!
//! The copy is taken when the call arrives (a point-in-time copy of the volume's files, into
//! `<data_dir>/coreweave/snapshots/<id>/`), so a snapshot taken by DeleteSandbox holds what
//! the volume had before the sandbox was stopped. Snapshots outlive their sandboxes: a new
//! sandbox restores one with `scratch.restore_from_snapshot_id`.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use tonic::Status;

use super::CwState;
use super::lifecycle::{Phase, local, not_found as sandbox_not_found, ts};
use super::service::{invalid, paging};
use super::volumes::{self, Scratch};
use crate::api::coreweave::error::{REASON_REQUEST_ID_CONFLICT, status_with_reason};
use crate::api::coreweave::pb;
use crate::emulator::AppState;

/// ErrorInfo reasons of snapshot errors (the `CWSANDBOX_FSS_*` family of coreweave-api.md §4).
pub const REASON_FSS_NOT_FOUND: &str = "CWSANDBOX_FSS_NOT_FOUND";
pub const REASON_FSS_NOT_READY: &str = "CWSANDBOX_FSS_NOT_READY";

/// One snapshot.
#[derive(Debug, Clone)]
pub struct SnapRec {
    /// Creation order: the list order and its page tokens.
    pub seq: u64,
    pub msg: pb::FileSystemSnapshot,
    /// Where its files are.
    pub dir: PathBuf,
    /// Why the copy failed (the snapshot ends FAILED).
    pub failure: Option<String>,
    /// Bytes of regular files copied.
    pub size: u64,
    /// `(sandbox_id, volume name)` it was asked for, to tell a retry from a conflict.
    pub asked: (String, String),
}

fn snapshot_dir(shared: &AppState, id: &str) -> PathBuf {
    shared.data_dir.join("coreweave").join("snapshots").join(id)
}

pub fn not_found(id: &str) -> Status {
    status_with_reason(
        tonic::Code::NotFound,
        format!("file-system snapshot {id} not found"),
        REASON_FSS_NOT_FOUND,
        BTreeMap::from([("file_system_snapshot_id".to_string(), id.to_string())]),
        None,
    )
}

/// The directory of the READY snapshot a restore names (checked at CreateSandbox).
pub fn restorable(st: &CwState, volume: &str, id: &str) -> Result<PathBuf, Status> {
    let rec = st.snapshots.get(id).ok_or_else(|| {
        status_with_reason(
            tonic::Code::NotFound,
            format!("volume {volume}: restore_from_snapshot_id {id} names no file-system snapshot"),
            REASON_FSS_NOT_FOUND,
            BTreeMap::from([("file_system_snapshot_id".to_string(), id.to_string())]),
            None,
        )
    })?;
    let state = pb::SnapshotState::try_from(rec.msg.state).unwrap_or_default();
    if state != pb::SnapshotState::Ready {
        return Err(status_with_reason(
            tonic::Code::FailedPrecondition,
            format!(
                "volume {volume}: file-system snapshot {id} is {} (a restore needs a READY one)",
                state.as_str_name()
            ),
            REASON_FSS_NOT_READY,
            BTreeMap::from([
                ("file_system_snapshot_id".to_string(), id.to_string()),
                ("state".to_string(), state.as_str_name().to_string()),
            ]),
            None,
        ));
    }
    Ok(rec.dir.clone())
}

/// The scratch volume `name` of a sandbox (empty: its only one), or the error to give.
pub fn pick(
    spec: &pb::SandboxSpec,
    sandbox_id: &str,
    field: &str,
    name: &str,
) -> Result<Scratch, Status> {
    let container = spec.containers.first().cloned().unwrap_or_default();
    let all = volumes::plan(spec, &container)?;
    let vol = if name.is_empty() {
        match all.as_slice() {
            [one] => one.clone(),
            [] => {
                return Err(Status::failed_precondition(format!(
                    "sandbox {sandbox_id} has no scratch volume to snapshot"
                )));
            }
            _ => {
                let names: Vec<&str> = all.iter().map(|v| v.name.as_str()).collect();
                return Err(invalid(
                    field,
                    format!(
                        "sandbox {sandbox_id} has several scratch volumes ({}); name one",
                        names.join(", ")
                    ),
                ));
            }
        }
    } else {
        all.iter()
            .find(|v| v.name == name)
            .cloned()
            .ok_or_else(|| {
                invalid(
                    field,
                    format!("sandbox {sandbox_id} has no scratch volume named {name:?}"),
                )
            })?
    };
    if vol.mount.is_none() {
        return Err(Status::failed_precondition(format!(
            "volume {} of sandbox {sandbox_id} is not mounted, so it has no files here (the \
             emulator keeps a scratch volume at its mount path)",
            vol.name
        )));
    }
    Ok(vol)
}

fn running_local(st: &CwState, sandbox_id: &str) -> Result<String, Status> {
    let e = st
        .sandboxes
        .get(sandbox_id)
        .ok_or_else(|| sandbox_not_found(sandbox_id))?;
    match (&e.phase, &e.local_id) {
        (Phase::Running, Some(l)) => Ok(l.clone()),
        (phase, _) => Err(Status::failed_precondition(format!(
            "sandbox {sandbox_id} is not running (state {}); only a running sandbox's volumes \
             can be snapshotted",
            phase.state().as_str_name()
        ))),
    }
}

/// The snapshot an earlier CreateFileSystemSnapshot with this `request_id` made, if any;
/// ALREADY_EXISTS when it was made for another sandbox or volume.
fn retried(
    st: &CwState,
    request_id: &str,
    asked: &(String, String),
) -> Result<Option<pb::FileSystemSnapshot>, Status> {
    let Some(id) = st.snapshot_requests.get(request_id) else {
        return Ok(None);
    };
    let rec = st.snapshots.get(id).ok_or_else(|| not_found(id))?;
    if &rec.asked != asked {
        return Err(status_with_reason(
            tonic::Code::AlreadyExists,
            format!(
                "request_id {request_id} was already used for snapshot {id} of volume {} of \
                 sandbox {}",
                rec.asked.1, rec.asked.0
            ),
            REASON_REQUEST_ID_CONFLICT,
            BTreeMap::from([("file_system_snapshot_id".to_string(), id.clone())]),
            None,
        ));
    }
    Ok(Some(rec.msg.clone()))
}

/// Snapshot one volume of a running sandbox now. A MANUAL snapshot with a `request_id` seen
/// before answers with that snapshot (or ALREADY_EXISTS when it was for something else).
pub async fn take(
    shared: &AppState,
    sandbox_id: &str,
    vol: &Scratch,
    trigger: pb::SnapshotTrigger,
    request_id: &str,
) -> Result<pb::FileSystemSnapshot, Status> {
    let cw = &shared.coreweave;
    let manual = trigger == pb::SnapshotTrigger::Manual && !request_id.is_empty();
    let asked = (sandbox_id.to_string(), vol.name.clone());
    // A retry finds its snapshot even after the sandbox has gone.
    if manual && let Some(done) = retried(&cw.lock(), request_id, &asked)? {
        return Ok(done);
    }
    let ops = {
        let st = cw.lock();
        running_local(&st, sandbox_id)?;
        st.sandboxes
            .get(sandbox_id)
            .map(|e| e.ops.clone())
            .ok_or_else(|| sandbox_not_found(sandbox_id))?
    };
    // Holding the sandbox's ops lock keeps a delete or lifetime expiry from stopping it midway.
    let _guard = ops.lock().await;
    let (id, local_id, dir) = {
        let mut st = cw.lock();
        if manual && let Some(done) = retried(&st, request_id, &asked)? {
            return Ok(done);
        }
        let local_id = running_local(&st, sandbox_id)?;
        let id = format!("fss-{}", uuid::Uuid::new_v4());
        let now = ts(SystemTime::now());
        let dir = snapshot_dir(shared, &id);
        st.snapshot_seq += 1;
        let rec = SnapRec {
            seq: st.snapshot_seq,
            msg: pb::FileSystemSnapshot {
                file_system_snapshot_id: id.clone(),
                state: pb::SnapshotState::Creating as i32,
                source_sandbox_id: sandbox_id.to_string(),
                source_volume_name: vol.name.clone(),
                trigger: trigger as i32,
                create_time: Some(now),
                updated_at: Some(now),
                request_id: request_id.to_string(),
                ..Default::default()
            },
            dir: dir.clone(),
            failure: None,
            size: 0,
            asked,
        };
        st.snapshots.insert(id.clone(), rec);
        if manual {
            st.snapshot_requests
                .insert(request_id.to_string(), id.clone());
        }
        (id, local_id, dir)
    };
    let copied = copy_out(shared, &local_id, vol, dir).await;
    let msg = {
        let mut st = cw.lock();
        let rec = st.snapshots.get_mut(&id).ok_or_else(|| not_found(&id))?;
        match copied {
            Ok(size) => rec.size = size,
            Err(reason) => {
                tracing::warn!("CoreWeave snapshot {id}: {reason}");
                rec.failure = Some(reason);
            }
        }
        rec.msg.clone()
    };
    let ready_after = Duration::from_millis(cw.settings().snapshot_ready_ms);
    let (shared2, id2) = (shared.clone(), id.clone());
    tokio::spawn(async move {
        tokio::time::sleep(ready_after).await;
        finish(&shared2, &id2);
    });
    Ok(msg)
}

/// DeleteSandbox's `snapshot_volumes`: snapshot each named volume (trigger ON_DELETE, the
/// delete's `request_id`) before the sandbox goes; their ids. Every name is checked first, so a
/// bad one snapshots and deletes nothing. A retried delete (same `request_id`) gets the ids of
/// the first attempt.
pub async fn on_delete(
    shared: &AppState,
    sandbox_id: &str,
    names: &[String],
    request_id: &str,
) -> Result<Vec<String>, Status> {
    if names.is_empty() {
        return Ok(Vec::new());
    }
    let spec = {
        let st = shared.coreweave.lock();
        if !request_id.is_empty()
            && let Some((sb, ids)) = st.delete_requests.get(request_id)
            && sb == sandbox_id
        {
            return Ok(ids.clone());
        }
        st.sandboxes
            .get(sandbox_id)
            .map(|e| e.spec.clone())
            .ok_or_else(|| sandbox_not_found(sandbox_id))?
    };
    let mut picked = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let field = format!("snapshot_volumes[{i}]");
        if name.is_empty() {
            return Err(invalid(&field, "must name a scratch volume"));
        }
        if names[..i].contains(name) {
            return Err(invalid(&field, format!("volume {name} is named twice")));
        }
        picked.push(pick(&spec, sandbox_id, &field, name)?);
    }
    running_local(&shared.coreweave.lock(), sandbox_id)?;
    let mut ids = Vec::new();
    for vol in &picked {
        let snap = take(
            shared,
            sandbox_id,
            vol,
            pb::SnapshotTrigger::OnDelete,
            request_id,
        )
        .await?;
        ids.push(snap.file_system_snapshot_id);
    }
    if !request_id.is_empty() {
        shared.coreweave.lock().delete_requests.insert(
            request_id.to_string(),
            (sandbox_id.to_string(), ids.clone()),
        );
    }
    Ok(ids)
}

/// Copy a volume's files out of the sandbox tree into `dir` (`<dir>/<sub_path>/…`).
async fn copy_out(
    shared: &AppState,
    local_id: &str,
    vol: &Scratch,
    dir: PathBuf,
) -> Result<u64, String> {
    let tree_root = local(shared)
        .tree(local_id)
        .map_err(|e| format!("cannot find the sandbox's files: {e}"))?
        .ok_or_else(|| "the local sandbox behind it is gone".to_string())?;
    let vol = vol.clone();
    let partial = dir.clone();
    let job = move || -> Result<u64, String> {
        let mount = vol.mount.clone().unwrap_or_default();
        std::fs::create_dir_all(&dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let dst = super::tree::descend(&dir, &vol.sub_path, true)
            .map_err(|e| format!("cannot create the snapshot directory: {e}"))?
            .ok_or("cannot create the snapshot directory")?;
        // A mount path the sandbox removed is an empty volume.
        let Some(src) = super::tree::descend(&tree_root, &mount, false)
            .map_err(|e| format!("cannot open /{}: {e}", mount.join("/")))?
        else {
            return Ok(0);
        };
        super::tree::copy_dir(&src, &dst).map_err(|e| format!("cannot copy the volume: {e}"))
    };
    let result = tokio::task::spawn_blocking(job)
        .await
        .map_err(|e| format!("the copy did not finish: {e}"))?;
    if result.is_err() {
        // A FAILED snapshot keeps no half copy.
        let _ = std::fs::remove_dir_all(&partial);
    }
    result
}

/// CREATING → READY (or FAILED when the copy failed). A snapshot deleted meanwhile stays so.
fn finish(shared: &AppState, id: &str) {
    let mut st = shared.coreweave.lock();
    let Some(rec) = st.snapshots.get_mut(id) else {
        return;
    };
    if rec.msg.state != pb::SnapshotState::Creating as i32 {
        return;
    }
    let now = Some(ts(SystemTime::now()));
    match rec.failure.clone() {
        None => {
            rec.msg.state = pb::SnapshotState::Ready as i32;
            rec.msg.size_bytes = rec.size.min(i64::MAX as u64) as i64;
            rec.msg.complete_time = now;
        }
        Some(reason) => {
            rec.msg.state = pb::SnapshotState::Failed as i32;
            rec.msg.state_reason = reason;
        }
    }
    rec.msg.updated_at = now;
}

pub fn get(shared: &AppState, id: &str) -> Result<pb::FileSystemSnapshot, Status> {
    if id.is_empty() {
        return Err(invalid("file_system_snapshot_id", "is required"));
    }
    let st = shared.coreweave.lock();
    st.snapshots
        .get(id)
        .map(|r| r.msg.clone())
        .ok_or_else(|| not_found(id))
}

pub fn list(
    shared: &AppState,
    req: &pb::ListFileSystemSnapshotsRequest,
) -> Result<pb::ListFileSystemSnapshotsResponse, Status> {
    let (after, page_size) = paging(&req.page_token, 's', req.page_size)?;
    let st = shared.coreweave.lock();
    let mut all: Vec<&SnapRec> = st
        .snapshots
        .values()
        .filter(|r| r.seq > after)
        .filter(|r| {
            req.source_sandbox_id.is_empty() || r.msg.source_sandbox_id == req.source_sandbox_id
        })
        .collect();
    all.sort_by_key(|r| r.seq);
    let more = all.len() > page_size;
    let page: Vec<&SnapRec> = all.into_iter().take(page_size).collect();
    let next_page_token = match page.last() {
        Some(last) if more => format!("s{}", last.seq),
        _ => String::new(),
    };
    Ok(pb::ListFileSystemSnapshotsResponse {
        file_system_snapshots: page.iter().map(|r| r.msg.clone()).collect(),
        next_page_token,
    })
}

pub fn delete(
    shared: &AppState,
    req: &pb::DeleteFileSystemSnapshotRequest,
) -> Result<pb::FileSystemSnapshot, Status> {
    let id = &req.file_system_snapshot_id;
    if id.is_empty() {
        return Err(invalid("file_system_snapshot_id", "is required"));
    }
    let cw = &shared.coreweave;
    let msg = {
        let mut st = cw.lock();
        let Some(rec) = st.snapshots.get_mut(id) else {
            if req.allow_missing {
                return Ok(pb::FileSystemSnapshot {
                    file_system_snapshot_id: id.clone(),
                    ..Default::default()
                });
            }
            return Err(not_found(id));
        };
        if rec.msg.state == pb::SnapshotState::Deleting as i32 {
            // Already going: deleting again changes nothing.
            return Ok(rec.msg.clone());
        }
        rec.msg.state = pb::SnapshotState::Deleting as i32;
        rec.msg.updated_at = Some(ts(SystemTime::now()));
        rec.msg.clone()
    };
    let after = Duration::from_millis(cw.settings().snapshot_delete_ms);
    let (shared, id) = (shared.clone(), id.clone());
    tokio::spawn(async move {
        tokio::time::sleep(after).await;
        let rec = shared.coreweave.lock().snapshots.remove(&id);
        shared
            .coreweave
            .lock()
            .snapshot_requests
            .retain(|_, s| s != &id);
        if let Some(rec) = rec {
            let dir = rec.dir;
            let removed = tokio::task::spawn_blocking(move || std::fs::remove_dir_all(&dir)).await;
            if let Ok(Err(e)) = removed
                && e.kind() != std::io::ErrorKind::NotFound
            {
                tracing::warn!("cannot remove the files of snapshot {id}: {e}");
            }
        }
    });
    Ok(msg)
}
