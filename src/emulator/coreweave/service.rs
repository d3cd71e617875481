//! The SandboxService RPCs: lifecycle here, data-plane calls in [`super::data`], file-system
//! snapshots in [`super::snapshots`]. Methods not implemented (ConnectSandbox, templates,
//! purge) answer UNIMPLEMENTED, which is what the official SDK expects for ConnectSandbox (it
//! then uses these gateway calls).

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use prost::Message;
use tonic::{Request, Response, Status, Streaming};

use super::data;
use super::lifecycle::{self, Boot, Entry, Phase, not_found, observe, to_pb};
use super::{CwState, snapshots, volumes};
use crate::api::coreweave::error::{
    BAD_REQUEST_TYPE, BadRequest, ERROR_DOMAIN, ERROR_INFO_TYPE, ErrorInfo, FieldViolation,
    REASON_INVALID_REQUEST, REASON_REQUEST_ID_CONFLICT, RpcStatus, status_with_reason,
};
use crate::api::coreweave::pb;
use crate::api::coreweave::pb::sandbox_service_server::SandboxService;
use crate::emulator::AppState;
use crate::secrets::Secret;

const MAX_LIFETIME_SECS: i32 = 30 * 24 * 3600;
/// List page size when the request leaves it at 0, and the most one page holds.
const DEFAULT_PAGE: usize = 100;
const MAX_PAGE: usize = 1000;

/// A list request's position and page size: `page_token` is `<prefix><number>` as this server
/// issued it (empty: the start), `page_size` 0 means the default and is capped.
pub(super) fn paging(token: &str, prefix: char, size: i32) -> Result<(u64, usize), Status> {
    let at = if token.is_empty() {
        0
    } else {
        token
            .strip_prefix(prefix)
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| invalid("page_token", "is not a token this server issued"))?
    };
    let size = match size {
        n if n < 0 => return Err(invalid("page_size", "must not be negative")),
        0 => DEFAULT_PAGE,
        n => (n as usize).min(MAX_PAGE),
    };
    Ok((at, size))
}

pub struct EmuService {
    pub(super) shared: AppState,
}

impl EmuService {
    pub fn new(shared: AppState) -> Self {
        EmuService { shared }
    }
}

/// INVALID_ARGUMENT with a `BadRequest` field violation and an `ErrorInfo`, as the backend.
pub(super) fn invalid(field: &str, description: impl Into<String>) -> Status {
    let description = description.into();
    let message = format!("{field}: {description}");
    let details = RpcStatus {
        code: tonic::Code::InvalidArgument as i32,
        message: message.clone(),
        details: vec![
            prost_types::Any {
                type_url: ERROR_INFO_TYPE.into(),
                value: ErrorInfo {
                    reason: REASON_INVALID_REQUEST.into(),
                    domain: ERROR_DOMAIN.into(),
                    metadata: BTreeMap::new(),
                }
                .encode_to_vec(),
            },
            prost_types::Any {
                type_url: BAD_REQUEST_TYPE.into(),
                value: BadRequest {
                    field_violations: vec![FieldViolation {
                        field: field.into(),
                        description,
                    }],
                }
                .encode_to_vec(),
            },
        ],
    };
    Status::with_details(
        tonic::Code::InvalidArgument,
        message,
        details.encode_to_vec().into(),
    )
}

/// Check a create request; returns the primary container.
fn validate(sandbox: Option<&pb::Sandbox>) -> Result<(pb::SandboxSpec, pb::Container), Status> {
    let sandbox = sandbox.ok_or_else(|| invalid("sandbox", "is required"))?;
    let spec = sandbox
        .spec
        .clone()
        .ok_or_else(|| invalid("sandbox.spec", "is required"))?;
    if spec.containers.is_empty() {
        return Err(invalid(
            "sandbox.spec.containers",
            "needs at least one container",
        ));
    }
    if spec.containers.len() > 1 {
        return Err(invalid(
            "sandbox.spec.containers",
            "the emulator runs one container per sandbox",
        ));
    }
    let container = spec.containers[0].clone();
    if container.image.trim().is_empty() {
        return Err(invalid("sandbox.spec.containers[0].image", "is required"));
    }
    if !(0..=MAX_LIFETIME_SECS).contains(&spec.max_lifetime_seconds) {
        return Err(invalid(
            "sandbox.spec.max_lifetime_seconds",
            format!("must be between 0 and {MAX_LIFETIME_SECS}"),
        ));
    }
    super::network::check(&spec)?;
    for (i, f) in container.files.iter().enumerate() {
        if !f.path.starts_with('/') {
            return Err(invalid(
                &format!("sandbox.spec.containers[0].files[{i}].path"),
                "must be an absolute path",
            ));
        }
    }
    Ok((spec, container))
}

/// Why a sandbox with scratch volumes cannot run on an unisolated local runtime.
/// How a test provisions a secret the emulator's stores do not hold.
const PROVISION_SECRET: &str =
    "emulator: PUT /_emulator/coreweave/secrets with {\"store\",\"path\",\"value\"}";

impl Entry {
    /// A sandbox just accepted, before its local sandbox exists.
    fn creating(
        id: String,
        spec: pb::SandboxSpec,
        display_name: String,
        container: &str,
        ops: Arc<tokio::sync::Mutex<()>>,
    ) -> Entry {
        Entry {
            id,
            spec,
            display_name,
            phase: Phase::Creating,
            local_id: None,
            container_name: container.to_string(),
            create_time: SystemTime::now(),
            start_time: None,
            end_time: None,
            containers: Vec::new(),
            ops,
        }
    }
}

/// A create that repeats an earlier `request_id`: the same sandbox for the same request, an
/// error for a different one; `None` for a new request.
fn replay(
    st: &CwState,
    request_id: &str,
    fingerprint: &[u8],
) -> Option<Result<pb::Sandbox, Status>> {
    let (id, fp) = st
        .request_ids
        .get(request_id)
        .filter(|_| !request_id.is_empty())?;
    if fp.as_slice() != fingerprint {
        return Some(Err(status_with_reason(
            tonic::Code::AlreadyExists,
            format!("request_id {request_id} was already used for a different sandbox ({id})"),
            REASON_REQUEST_ID_CONFLICT,
            BTreeMap::from([("sandbox_id".to_string(), id.clone())]),
            None,
        )));
    }
    // A retry of the same creation: the same sandbox.
    Some(st.sandboxes.get(id).map(to_pb).ok_or_else(|| not_found(id)))
}

/// Secret-store references resolve to values provisioned in the emulator.
fn provisioned_secrets(
    st: &CwState,
    container: &pb::Container,
) -> Result<BTreeMap<String, Secret>, Status> {
    let mut secrets = BTreeMap::new();
    for store in &container.secret_stores {
        for m in &store.secrets {
            let env_var = if m.env_var.is_empty() {
                m.path.clone()
            } else {
                m.env_var.clone()
            };
            let Some(v) = st.secrets.get(&(store.store_name.clone(), m.path.clone())) else {
                return Err(status_with_reason(
                    tonic::Code::FailedPrecondition,
                    format!(
                        "secret {} is not provisioned in store {} ({PROVISION_SECRET})",
                        m.path, store.store_name
                    ),
                    "CWSANDBOX_SECRET_STORE_NOT_PROVISIONED",
                    BTreeMap::from([
                        ("store_name".to_string(), store.store_name.clone()),
                        ("path".to_string(), m.path.clone()),
                    ]),
                    None,
                ));
            };
            secrets.insert(env_var, v.clone());
        }
    }
    Ok(secrets)
}

#[tonic::async_trait]
impl SandboxService for EmuService {
    async fn create_sandbox(
        &self,
        request: Request<pb::CreateSandboxRequest>,
    ) -> Result<Response<pb::Sandbox>, Status> {
        let req = request.into_inner();
        let (spec, mut container) = validate(req.sandbox.as_ref())?;
        let scratch = volumes::plan(&spec, &container)?;
        // Unisolated, only mount paths the local runtime maps into the sandbox's tree are the
        // sandbox's own; any other would be a path on this host.
        if *lifecycle::local(&self.shared).isolation()
            == crate::provider::local::Isolation::Unisolated
            && let Some(outside) = scratch
                .iter()
                .filter_map(|v| v.mount.as_ref().map(|m| format!("/{}", m.join("/"))))
                .find(|m| !crate::provider::local::maps_unisolated(m))
        {
            return Err(Status::failed_precondition(format!(
                "scratch volume mount path {outside} needs the bubblewrap-isolated local runtime: \
                 without isolation it would be a path on this host"
            )));
        }
        let display_name = req
            .sandbox
            .as_ref()
            .map(|s| s.display_name.clone())
            .unwrap_or_default();
        if container.name.is_empty() {
            container.name = "main".into();
        }
        let fingerprint = req
            .sandbox
            .as_ref()
            .map(|s| s.encode_to_vec())
            .unwrap_or_default();
        let cw = &self.shared.coreweave;
        let mut st = cw.lock();
        if let Some(done) = replay(&st, &req.request_id, &fingerprint) {
            return done.map(Response::new);
        }
        let mut restores = Vec::new();
        for v in scratch.iter().filter(|v| !v.restore_from.is_empty()) {
            let dir = snapshots::restorable(&st, &v.name, &v.restore_from)?;
            restores.push((v.name.clone(), dir));
        }
        let secrets = provisioned_secrets(&st, &container)?;
        let id = cw.next_id(&mut st);
        let ops = Arc::new(tokio::sync::Mutex::new(()));
        let guard = ops
            .clone()
            .try_lock_owned()
            .map_err(|_| Status::internal("a fresh lock is already held"))?;
        let mut kept = spec.clone();
        if cw.settings().ignore_network {
            kept.network = None;
        }
        let entry = Entry::creating(id.clone(), kept, display_name, &container.name, ops);
        let body = to_pb(&entry);
        st.sandboxes.insert(id.clone(), entry);
        if !req.request_id.is_empty() {
            st.request_ids
                .insert(req.request_id.clone(), (id.clone(), fingerprint));
        }
        drop(st);
        let (mut local_spec, extra) =
            lifecycle::local_spec(&id, &container, secrets, self.shared.devin_cli.as_deref());
        if !scratch.is_empty() {
            local_spec.command = local_spec.command.map(volumes::gate);
        }
        let lifetime = (spec.max_lifetime_seconds > 0)
            .then(|| Duration::from_secs(spec.max_lifetime_seconds as u64));
        let boot = Boot {
            spec: local_spec,
            extra,
            files: container.files.clone(),
            lifetime,
            volumes: scratch,
            restores,
        };
        lifecycle::spawn_create(self.shared.clone(), id, boot, guard);
        Ok(Response::new(body))
    }

    async fn get_sandbox(
        &self,
        request: Request<pb::GetSandboxRequest>,
    ) -> Result<Response<pb::Sandbox>, Status> {
        let id = request.into_inner().sandbox_id;
        if id.is_empty() {
            return Err(invalid("sandbox_id", "is required"));
        }
        observe(&self.shared, &id).await.map(Response::new)
    }

    async fn list_sandboxes(
        &self,
        request: Request<pb::ListSandboxesRequest>,
    ) -> Result<Response<pb::ListSandboxesResponse>, Status> {
        let req = request.into_inner();
        let (offset, page_size) = paging(&req.page_token, 'o', req.page_size)?;
        let offset = offset as usize;
        let mut ids: Vec<(SystemTime, String)> = {
            let st = self.shared.coreweave.lock();
            st.sandboxes
                .values()
                .filter(|e| req.tags.iter().all(|t| e.spec.tags.contains(t)))
                .map(|e| (e.create_time, e.id.clone()))
                .collect()
        };
        ids.sort();
        if req.sort_direction == pb::SortDirection::Descending as i32 {
            ids.reverse();
        }
        let mut matching = Vec::new();
        for (_, id) in ids {
            let sb = match observe(&self.shared, &id).await {
                Ok(sb) => sb,
                Err(_) => continue,
            };
            let state = sb.status.as_ref().map(|s| s.state).unwrap_or(0);
            let terminal = [
                pb::State::Completed as i32,
                pb::State::Failed as i32,
                pb::State::Terminated as i32,
            ]
            .contains(&state);
            if terminal && !req.show_terminated && req.state == 0 {
                continue;
            }
            if req.state != 0 && req.state != state {
                continue;
            }
            matching.push(sb);
        }
        let total = matching.len();
        let sandboxes: Vec<pb::Sandbox> =
            matching.into_iter().skip(offset).take(page_size).collect();
        let next = offset + sandboxes.len();
        Ok(Response::new(pb::ListSandboxesResponse {
            sandboxes,
            next_page_token: if next < total {
                format!("o{next}")
            } else {
                String::new()
            },
        }))
    }

    async fn delete_sandbox(
        &self,
        request: Request<pb::DeleteSandboxRequest>,
    ) -> Result<Response<pb::DeleteSandboxResponse>, Status> {
        let req = request.into_inner();
        if req.grace_period_seconds < 0 {
            return Err(invalid("grace_period_seconds", "must not be negative"));
        }
        let id = req.sandbox_id;
        // Observe first so a main process that already finished is recorded as such.
        match observe(&self.shared, &id).await {
            Ok(_) => {}
            Err(s) if s.code() == tonic::Code::NotFound && req.allow_missing => {
                return Ok(Response::new(pb::DeleteSandboxResponse::default()));
            }
            Err(s) => return Err(s),
        }
        // Snapshots first (all volume names checked before anything happens), then the delete.
        let file_system_snapshot_ids =
            snapshots::on_delete(&self.shared, &id, &req.snapshot_volumes, &req.request_id).await?;
        let start = {
            let mut st = self.shared.coreweave.lock();
            let e = st.sandboxes.get_mut(&id).ok_or_else(|| not_found(&id))?;
            match e.phase {
                Phase::Creating | Phase::Running => {
                    e.phase = Phase::Terminating;
                    true
                }
                // Already going or gone: deleting again changes nothing.
                _ => false,
            }
        };
        if start {
            let shared = self.shared.clone();
            let grace = Duration::from_secs(req.grace_period_seconds as u64);
            let id2 = id.clone();
            tokio::spawn(async move {
                lifecycle::finish_delete(&shared, &id2, grace, String::new()).await;
            });
        }
        let st = self.shared.coreweave.lock();
        let sandbox = st.sandboxes.get(&id).map(to_pb);
        Ok(Response::new(pb::DeleteSandboxResponse {
            sandbox,
            file_system_snapshot_ids,
        }))
    }

    async fn create_file_system_snapshot(
        &self,
        request: Request<pb::CreateFileSystemSnapshotRequest>,
    ) -> Result<Response<pb::FileSystemSnapshot>, Status> {
        let req = request.into_inner();
        if req.sandbox_id.is_empty() {
            return Err(invalid("sandbox_id", "is required"));
        }
        let spec = {
            let st = self.shared.coreweave.lock();
            st.sandboxes
                .get(&req.sandbox_id)
                .map(|e| e.spec.clone())
                .ok_or_else(|| not_found(&req.sandbox_id))?
        };
        let vol = snapshots::pick(
            &spec,
            &req.sandbox_id,
            "scratch_volume_name",
            &req.scratch_volume_name,
        )?;
        snapshots::take(
            &self.shared,
            &req.sandbox_id,
            &vol,
            pb::SnapshotTrigger::Manual,
            &req.request_id,
        )
        .await
        .map(Response::new)
    }

    async fn get_file_system_snapshot(
        &self,
        request: Request<pb::GetFileSystemSnapshotRequest>,
    ) -> Result<Response<pb::FileSystemSnapshot>, Status> {
        snapshots::get(&self.shared, &request.into_inner().file_system_snapshot_id)
            .map(Response::new)
    }

    async fn list_file_system_snapshots(
        &self,
        request: Request<pb::ListFileSystemSnapshotsRequest>,
    ) -> Result<Response<pb::ListFileSystemSnapshotsResponse>, Status> {
        snapshots::list(&self.shared, &request.into_inner()).map(Response::new)
    }

    async fn delete_file_system_snapshot(
        &self,
        request: Request<pb::DeleteFileSystemSnapshotRequest>,
    ) -> Result<Response<pb::FileSystemSnapshot>, Status> {
        snapshots::delete(&self.shared, &request.into_inner()).map(Response::new)
    }

    async fn exec(
        &self,
        request: Request<pb::ExecRequest>,
    ) -> Result<Response<pb::ExecResponse>, Status> {
        data::exec(&self.shared, request).await.map(Response::new)
    }

    async fn stream_exec(
        &self,
        request: Request<Streaming<pb::ExecStreamRequest>>,
    ) -> Result<Response<tonic::codegen::BoxStream<pb::ExecStreamResponse>>, Status> {
        data::stream_exec(&self.shared, request)
            .await
            .map(Response::new)
    }

    async fn stream_logs(
        &self,
        request: Request<pb::StreamLogsRequest>,
    ) -> Result<Response<tonic::codegen::BoxStream<pb::LogEntry>>, Status> {
        data::stream_logs(&self.shared, request.into_inner())
            .await
            .map(Response::new)
    }

    async fn write_file(
        &self,
        request: Request<pb::WriteFileRequest>,
    ) -> Result<Response<pb::WriteFileResponse>, Status> {
        data::write_file(&self.shared, request.into_inner())
            .await
            .map(|_| Response::new(pb::WriteFileResponse {}))
    }

    async fn read_file(
        &self,
        request: Request<pb::ReadFileRequest>,
    ) -> Result<Response<pb::ReadFileResponse>, Status> {
        data::read_file(&self.shared, request.into_inner())
            .await
            .map(|content| Response::new(pb::ReadFileResponse { content }))
    }
}
