//! The emulated sandbox state machine, backed by local sandboxes.
//!
//! ```text
//! CreateSandbox → CREATING ──local create ok──→ RUNNING ──main exits 0──→ COMPLETED (exit 0)
//!                    │                             │   main exits ≠0: restarted (OnFailure),
//!                    └──local create fails──→ FAILED   restart_count and last exit code shown
//! DeleteSandbox (any live state) → TERMINATING ──local stop──→ COMPLETED (exit 143, or 137
//!                                                              with no grace period)
//! ```
//!
//! Terminal sandboxes stay readable (Get, List with `show_terminated`, logs). While RUNNING,
//! every Get/List observes the local sandbox's supervised main process. With scratch volumes,
//! the main command starts only once their mount directories and restores are in place
//! ([`volumes::gate`]).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use tonic::Status;

use super::image_profile;
use super::volumes::{self, Scratch};
use crate::api::coreweave::error::{REASON_SANDBOX_NOT_FOUND, status_with_reason};
use crate::api::coreweave::pb;
use crate::emulator::{AppState, Shared};

/// What an emulated image runs when the container names no command.
const IMAGE_COMMAND: [&str; 3] = [
    "/bin/sh",
    "-c",
    "trap 'exit 0' TERM INT; sleep infinity & wait",
];
use crate::provider::local::{LocalProvider, SandboxOptions};
use crate::provider::{ContainerStatus, Provider, SandboxInfo, SandboxSpec, SandboxState, Source};
use crate::secrets::Secret;

/// Label on every local sandbox made for the CoreWeave API.
pub const LABEL_API: &str = "emulator.api";
/// Label with the CoreWeave sandbox id.
pub const LABEL_ID: &str = "coreweave.sandbox_id";
/// Lifetime the emulator reports when the request leaves it to the platform.
const DEFAULT_LIFETIME_SECS: i32 = 24 * 3600;

/// Where an emulated sandbox is in its life.
#[derive(Debug, Clone, PartialEq)]
pub enum Phase {
    Creating,
    Running,
    Terminating,
    Finished {
        state: pb::State,
        exit_code: Option<i32>,
        reason: String,
    },
}

impl Phase {
    pub fn state(&self) -> pb::State {
        match self {
            Phase::Creating => pb::State::Creating,
            Phase::Running => pb::State::Running,
            Phase::Terminating => pb::State::Terminating,
            Phase::Finished { state, .. } => *state,
        }
    }

    pub fn is_terminal(&self) -> bool {
        matches!(self, Phase::Finished { .. })
    }
}

/// One emulated sandbox.
#[derive(Debug, Clone)]
pub struct Entry {
    pub id: String,
    /// The spec as created (echoed back).
    pub spec: pb::SandboxSpec,
    pub display_name: String,
    pub phase: Phase,
    /// The local sandbox behind it, once created.
    pub local_id: Option<String>,
    pub container_name: String,
    pub create_time: SystemTime,
    pub start_time: Option<SystemTime>,
    pub end_time: Option<SystemTime>,
    pub containers: Vec<pb::ContainerStatus>,
    /// Serialises create, delete and lifetime expiry of this sandbox.
    pub ops: Arc<tokio::sync::Mutex<()>>,
}

/// The local provider behind the emulated API.
pub(super) fn local(shared: &Shared) -> &LocalProvider {
    shared.sandboxes.provider()
}

pub(super) fn ts(t: SystemTime) -> prost_types::Timestamp {
    let d = t.duration_since(SystemTime::UNIX_EPOCH).unwrap_or_default();
    prost_types::Timestamp {
        seconds: d.as_secs() as i64,
        nanos: d.subsec_nanos() as i32,
    }
}

pub(super) fn not_found(id: &str) -> Status {
    status_with_reason(
        tonic::Code::NotFound,
        format!("sandbox {id} not found"),
        REASON_SANDBOX_NOT_FOUND,
        BTreeMap::from([("sandbox_id".to_string(), id.to_string())]),
        None,
    )
}

/// The wire form of an entry.
pub(super) fn to_pb(e: &Entry) -> pb::Sandbox {
    let primary = e.spec.containers.first();
    let requirements = primary.and_then(|c| c.resource_requirements.clone());
    let (state_reason, exit_code) = match &e.phase {
        Phase::Finished {
            exit_code, reason, ..
        } => (reason.clone(), *exit_code),
        _ => (String::new(), None),
    };
    let containers = if e.containers.is_empty() {
        vec![pb::ContainerStatus {
            name: e.container_name.clone(),
            state: match e.phase {
                Phase::Creating => pb::State::Creating,
                _ => e.phase.state(),
            } as i32,
            exit_code: exit_code.unwrap_or(0),
            restart_count: 0,
        }]
    } else {
        e.containers.clone()
    };
    let (effective_egress, effective_dns_egress) =
        super::network::effective(e.spec.network.as_ref());
    pb::Sandbox {
        sandbox_id: e.id.clone(),
        // `network` is input-only: what is in force shows in the status.
        spec: Some(pb::SandboxSpec {
            network: None,
            ..e.spec.clone()
        }),
        display_name: e.display_name.clone(),
        status: Some(pb::SandboxStatus {
            state: e.phase.state() as i32,
            state_reason,
            create_time: Some(ts(e.create_time)),
            start_time: e.start_time.map(ts),
            end_time: e.end_time.map(ts),
            exit_code,
            container_statuses: containers,
            effective_resource_requirements: requirements,
            effective_max_lifetime_seconds: if e.spec.max_lifetime_seconds > 0 {
                e.spec.max_lifetime_seconds
            } else {
                DEFAULT_LIFETIME_SECS
            },
            runner_id: "emulator".into(),
            runner_group_id: "emulator".into(),
            effective_egress,
            effective_dns_egress,
            ..Default::default()
        }),
        ..Default::default()
    }
}

/// A local container status in CoreWeave terms. A main process waiting to be restarted after a
/// failure shows as FAILED with its exit code (the sandbox itself stays RUNNING).
fn container_pb(name: &str, c: &ContainerStatus) -> pb::ContainerStatus {
    let state = match (c.state.to_ascii_lowercase().as_str(), c.exit_code) {
        ("running" | "started", _) => pb::State::Running,
        ("waiting" | "restarting" | "failed", Some(_)) => pb::State::Failed,
        ("waiting" | "restarting" | "creating" | "starting" | "pending", _) => pb::State::Pending,
        ("terminated" | "completed" | "exited", Some(0)) => pb::State::Completed,
        ("terminated" | "completed" | "exited", Some(_)) => pb::State::Failed,
        ("terminated" | "stopped", None) => pb::State::Terminated,
        _ => pb::State::Unspecified,
    };
    pb::ContainerStatus {
        name: name.to_string(),
        state: state as i32,
        exit_code: c.exit_code.unwrap_or(0),
        restart_count: c.restart_count.min(i32::MAX as u32) as i32,
    }
}

/// The main process exited 0 on its own (the local provider keeps such a sandbox "started"
/// with raw state `completed`).
fn completed(info: &SandboxInfo) -> bool {
    info.raw_state == "completed"
        || main_container(info).is_some_and(|c| c.state == "terminated" && c.exit_code == Some(0))
}

fn main_container(info: &SandboxInfo) -> Option<&ContainerStatus> {
    info.containers
        .iter()
        .find(|c| c.name == "main")
        .or_else(|| info.containers.first())
}

/// Fold an observation of the local sandbox into a RUNNING entry.
fn apply(e: &mut Entry, observed: crate::provider::Result<Option<SandboxInfo>>) {
    let now = SystemTime::now();
    match observed {
        Ok(Some(info)) => {
            let main = main_container(&info).cloned();
            if let Some(c) = &main {
                e.containers = vec![container_pb(&e.container_name, c)];
            }
            if completed(&info) {
                e.phase = Phase::Finished {
                    state: pb::State::Completed,
                    exit_code: Some(0),
                    reason: String::new(),
                };
                e.end_time = Some(now);
                return;
            }
            match info.state {
                SandboxState::Error => {
                    e.phase = Phase::Finished {
                        state: pb::State::Failed,
                        exit_code: main.and_then(|c| c.exit_code),
                        reason: info
                            .error_reason
                            .unwrap_or_else(|| "the sandbox failed".into()),
                    };
                    e.end_time = Some(now);
                }
                SandboxState::Stopped | SandboxState::Deleted => {
                    e.phase = Phase::Finished {
                        state: pb::State::Terminated,
                        exit_code: main.and_then(|c| c.exit_code),
                        reason: "stopped outside the API".into(),
                    };
                    e.end_time = Some(now);
                }
                _ => {}
            }
        }
        Ok(None) => {
            e.phase = Phase::Finished {
                state: pb::State::Failed,
                exit_code: None,
                reason: "the local sandbox behind it is gone".into(),
            };
            e.end_time = Some(now);
        }
        Err(err) => tracing::warn!("cannot observe CoreWeave sandbox {}: {err}", e.id),
    }
}

/// The sandbox as the API reports it now (observing the local sandbox while RUNNING).
pub(super) async fn observe(shared: &AppState, id: &str) -> Result<pb::Sandbox, Status> {
    let (phase, local_id) = {
        let st = shared.coreweave.lock();
        let e = st.sandboxes.get(id).ok_or_else(|| not_found(id))?;
        (e.phase.clone(), e.local_id.clone())
    };
    // A simulated sandbox has no local one to observe: it runs until deleted.
    if let (Phase::Running, Some(local_id)) = (&phase, local_id)
        && shared.sandboxes.sim().is_none()
    {
        let observed = local(shared).get(&local_id).await;
        let mut st = shared.coreweave.lock();
        if let Some(e) = st.sandboxes.get_mut(id)
            && e.phase == Phase::Running
        {
            apply(e, observed);
        }
    }
    let st = shared.coreweave.lock();
    st.sandboxes.get(id).map(to_pb).ok_or_else(|| not_found(id))
}

/// The local sandbox spec for a container.
pub(super) fn local_spec(
    id: &str,
    container: &pb::Container,
    secrets: BTreeMap<String, Secret>,
    devin_cli: Option<&std::path::Path>,
) -> (SandboxSpec, SandboxOptions) {
    let mut spec = SandboxSpec::new(format!("cw-{id}"), Source::Image(container.image.clone()));
    spec.labels.insert(LABEL_API.into(), "coreweave".into());
    spec.labels.insert(LABEL_ID.into(), id.to_string());
    let profile = image_profile(&container.image, devin_cli);
    for (k, v) in profile.env.iter().chain(&container.environment_variables) {
        spec.env.insert(k.clone(), Secret::new(v.clone()));
    }
    spec.env.extend(secrets);
    let mut argv: Vec<String> = if container.command.is_empty() {
        // No command: the image's own; an emulated image's process stays up until stopped.
        IMAGE_COMMAND.iter().map(|s| s.to_string()).collect()
    } else {
        std::iter::once(container.command.clone())
            .chain(container.args.iter().cloned())
            .collect()
    };
    if !container.working_dir.is_empty() {
        // `cd` first without a shell line built from user text: the path and argv stay argv.
        let mut wrapped = vec![
            "/bin/sh".to_string(),
            "-c".into(),
            "cd \"$0\" && exec \"$@\"".into(),
            container.working_dir.clone(),
        ];
        wrapped.append(&mut argv);
        argv = wrapped;
    }
    spec.command = Some(argv);
    spec.user = container
        .security_context
        .as_ref()
        .and_then(|s| s.run_as_user)
        .map(|u| u.to_string());
    let extra = SandboxOptions {
        ro_binds: profile.ro_binds,
        extra_path: profile.extra_path,
    };
    (spec, extra)
}

/// What the local sandbox of a new CoreWeave sandbox needs besides its spec.
pub(super) struct Boot {
    pub spec: SandboxSpec,
    pub extra: SandboxOptions,
    /// `container.files`, written once the sandbox exists.
    pub files: Vec<pb::FileMount>,
    pub lifetime: Option<Duration>,
    /// Scratch volumes; with any, the main command waits behind [`volumes::gate`].
    pub volumes: Vec<Scratch>,
    /// `(volume, snapshot directory)` to restore before the main command starts.
    pub restores: Vec<(String, PathBuf)>,
}

/// Mount directories, restores, files, then the gate: everything the main command may expect
/// to find when it starts.
/// A file every emulated image ships in its (root) user's home.
pub const IMAGE_HOME_FILE: &str = "/root/.profile";
const IMAGE_HOME_CONTENT: &[u8] =
    b"# shipped by the emulated CoreWeave image\nexport PATH=\"$HOME/.local/bin:$PATH\"\n";

async fn furnish(provider: &LocalProvider, local_id: &str, boot: &Boot) -> Result<(), String> {
    if !boot.volumes.is_empty() {
        let tree = provider
            .tree(local_id)
            .map_err(|e| format!("cannot find the sandbox's files: {e}"))?
            .ok_or("the local sandbox has no files")?;
        let (volumes, restores) = (boot.volumes.clone(), boot.restores.clone());
        tokio::task::spawn_blocking(move || volumes::prepare(&tree, &volumes, &restores))
            .await
            .map_err(|e| format!("the volumes were not prepared: {e}"))??;
    }
    // The emulated images run as root and ship a home of their own, as real images do
    // (dotfiles, preinstalled tools): a client that mounts a volume over it must not lose it.
    if boot.spec.user.is_none() {
        provider
            .write_file(local_id, IMAGE_HOME_FILE, IMAGE_HOME_CONTENT)
            .await
            .map_err(|e| format!("cannot lay out the image's home: {e}"))?;
    }
    for f in &boot.files {
        provider
            .write_file(local_id, &f.path, &f.content)
            .await
            .map_err(|e| format!("cannot mount file {}: {e}", f.path))?;
    }
    if !boot.volumes.is_empty() {
        provider
            .write_file(local_id, volumes::GATE_MARKER, b"")
            .await
            .map_err(|e| format!("cannot start the main command: {e}"))?;
    }
    Ok(())
}

/// Create the local sandbox for a CREATING entry (in the background; `guard` is its ops lock).
pub(super) fn spawn_create(
    shared: AppState,
    id: String,
    boot: Boot,
    guard: tokio::sync::OwnedMutexGuard<()>,
) {
    tokio::spawn(async move {
        let provider = local(&shared);
        // Simulated (`emulator::simulated`): a record only, "running" after the delay.
        let simulated = shared.sandboxes.sim().map(|sim| sim.delay());
        let create_ms = shared.coreweave.settings().create_ms;
        if create_ms > 0 {
            tokio::time::sleep(std::time::Duration::from_millis(create_ms)).await;
        }
        let result = match simulated {
            Some(delay) => {
                tokio::time::sleep(delay).await;
                Ok(None)
            }
            None => provider
                .create_with(&boot.spec, &boot.extra)
                .await
                .map(Some),
        };
        let outcome = match result {
            Ok(None) => Ok(id.clone()),
            Ok(Some(info)) => match furnish(provider, &info.id, &boot).await {
                Ok(()) => {
                    // Its id, name and tags (`key=value`: the value is a label's).
                    let mut keys = vec![id.clone(), boot.spec.name.clone()];
                    let tags: Vec<String> = (shared.coreweave.lock().sandboxes.get(&id))
                        .map(|e| e.spec.tags.clone())
                        .unwrap_or_default();
                    let values = tags
                        .iter()
                        .map(|t| t.split_once('=').map_or(&t[..], |kv| kv.1));
                    keys.extend(values.map(str::to_string));
                    let faults = &shared.file_faults;
                    crate::emulator::file_faults::on_start(faults, provider, &info.id, keys).await;
                    Ok(info.id)
                }
                Err(reason) => {
                    let _ = provider.delete(&info.id).await;
                    Err(reason)
                }
            },
            Err(e) => Err(format!("the sandbox could not be created: {e}")),
        };
        // The `failed` fault, armed for the next sandbox up: it fails instead of running.
        let failed = outcome
            .is_ok()
            .then(|| super::failed_fault::take_next(&shared));
        {
            let mut st = shared.coreweave.lock();
            if let Some(e) = st.sandboxes.get_mut(&id) {
                match outcome {
                    Ok(local_id) => {
                        e.local_id = Some(local_id);
                        e.start_time = Some(SystemTime::now());
                        if e.phase == Phase::Creating {
                            e.phase = Phase::Running;
                        }
                    }
                    Err(reason) => {
                        tracing::warn!("CoreWeave sandbox {id}: {reason}");
                        e.phase = Phase::Finished {
                            state: pb::State::Failed,
                            exit_code: None,
                            reason,
                        };
                        e.end_time = Some(SystemTime::now());
                    }
                }
            }
        }
        if let Some(Some(reason)) = failed {
            super::failed_fault::fail(&shared, &id, reason).await;
        }
        drop(guard);
        if let Some(lifetime) = boot.lifetime {
            let shared = shared.clone();
            tokio::spawn(async move {
                tokio::time::sleep(lifetime).await;
                let live = {
                    let mut st = shared.coreweave.lock();
                    match st.sandboxes.get_mut(&id) {
                        Some(e) if !e.phase.is_terminal() && e.phase != Phase::Terminating => {
                            e.phase = Phase::Terminating;
                            true
                        }
                        _ => false,
                    }
                };
                if live {
                    finish_delete(
                        &shared,
                        &id,
                        Duration::from_secs(10),
                        "max lifetime reached".into(),
                    )
                    .await;
                }
            });
        }
    });
}

/// Stop the local sandbox of a TERMINATING entry and record the exit.
pub(super) async fn finish_delete(shared: &AppState, id: &str, grace: Duration, reason: String) {
    let ops = {
        let st = shared.coreweave.lock();
        match st.sandboxes.get(id) {
            Some(e) => e.ops.clone(),
            None => return,
        }
    };
    let _guard = ops.lock().await;
    let local_id = {
        let st = shared.coreweave.lock();
        match st.sandboxes.get(id) {
            Some(e) if e.phase == Phase::Terminating => e.local_id.clone(),
            _ => return,
        }
    };
    let provider = local(shared);
    let mut code = if grace.is_zero() { 137 } else { 143 };
    let mut observed = None;
    if let Some(local_id) = &local_id {
        // A main process that already finished on its own keeps its own exit code.
        if let Ok(Some(info)) = provider.get(local_id).await
            && let Some(c) = main_container(&info)
        {
            if completed(&info) {
                code = 0;
            }
            observed = Some(c.restart_count);
        }
        if let Err(e) = shared.sandboxes.stop(local_id).await {
            tracing::warn!("stopping the local sandbox of CoreWeave sandbox {id}: {e}");
        }
        if let Some(sim) = shared.sandboxes.sim() {
            sim.deleted(local_id);
        }
    }
    let mut st = shared.coreweave.lock();
    if let Some(e) = st.sandboxes.get_mut(id) {
        let name = e.container_name.clone();
        e.containers = vec![pb::ContainerStatus {
            name,
            state: pb::State::Completed as i32,
            exit_code: code,
            restart_count: observed.unwrap_or(0).min(i32::MAX as u32) as i32,
        }];
        e.phase = Phase::Finished {
            state: pb::State::Completed,
            exit_code: Some(code),
            reason,
        };
        e.end_time = Some(SystemTime::now());
    }
}
