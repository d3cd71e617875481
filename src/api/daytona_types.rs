//! Daytona wire types (main API and toolbox), per `specs/daytona-api.md` and the OpenAPI files.
//!
//! Tolerant where the server is loose: every field outside the spec's required set is an
//! `Option` with a default, enums carry an `Unknown` catch-all, and unknown fields are ignored.
//! Request bodies skip `None` fields, like the official clients (`exclude_none`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::secrets::Secret;

macro_rules! wire_enum {
    ($(#[$m:meta])* $name:ident { $($variant:ident = $wire:literal),* $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum $name {
            $(#[serde(rename = $wire)] $variant,)*
            /// A value this build does not know.
            #[serde(other)]
            Unknown,
        }

        impl $name {
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $wire,)*
                    $name::Unknown => "unknown",
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

wire_enum! {
    /// `SandboxState` as reported (derived from stored + desired state on the server).
    SandboxState {
        Creating = "creating", Restoring = "restoring", Destroyed = "destroyed",
        Destroying = "destroying", Started = "started", Stopped = "stopped",
        Starting = "starting", Stopping = "stopping", Error = "error",
        BuildFailed = "build_failed", PendingBuild = "pending_build",
        BuildingSnapshot = "building_snapshot", PullingSnapshot = "pulling_snapshot",
        Archived = "archived", Archiving = "archiving", Resizing = "resizing",
        Snapshotting = "snapshotting", Forking = "forking", Pausing = "pausing",
        Paused = "paused", Resuming = "resuming",
    }
}

impl SandboxState {
    /// Error states: waiting longer will not help.
    pub fn is_error(self) -> bool {
        matches!(self, SandboxState::Error | SandboxState::BuildFailed)
    }
    /// Disk kept, nothing running.
    pub fn is_stopped(self) -> bool {
        matches!(
            self,
            SandboxState::Stopped | SandboxState::Archived | SandboxState::Paused
        )
    }
}

wire_enum! {
    /// `SandboxDesiredState`.
    SandboxDesiredState {
        Destroyed = "destroyed", Started = "started", Stopped = "stopped",
        Resized = "resized", Archived = "archived", Paused = "paused",
    }
}

wire_enum! {
    /// `SnapshotState`.
    SnapshotState {
        Building = "building", Pending = "pending", Pulling = "pulling",
        Snapshotting = "snapshotting", Active = "active", Inactive = "inactive",
        Error = "error", BuildFailed = "build_failed", Removing = "removing",
    }
}

impl SnapshotState {
    pub fn is_terminal(self) -> bool {
        matches!(
            self,
            SnapshotState::Active | SnapshotState::Error | SnapshotState::BuildFailed
        )
    }
    pub fn is_failed(self) -> bool {
        matches!(self, SnapshotState::Error | SnapshotState::BuildFailed)
    }
}

/// `BuildInfo` on sandboxes and snapshots.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BuildInfo {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dockerfile_content: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context_hashes: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snapshot_ref: Option<String>,
}

/// `CreateBuildInfo`: a Dockerfile and the hashes of its uploaded context archives.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateBuildInfo {
    pub dockerfile_content: String,
    #[serde(default)]
    pub context_hashes: Vec<String>,
}

/// A sandbox (`Sandbox`, and the `SandboxListItem` subset: list items lack `env`, `kvm`…).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Sandbox {
    pub id: String,
    #[serde(default)]
    pub organization_id: Option<String>,
    pub name: String,
    #[serde(default)]
    pub snapshot: Option<String>,
    #[serde(default)]
    pub user: Option<String>,
    #[serde(default)]
    pub env: Option<BTreeMap<String, String>>,
    #[serde(default)]
    pub labels: BTreeMap<String, String>,
    #[serde(default)]
    pub public: Option<bool>,
    #[serde(default)]
    pub network_block_all: Option<bool>,
    /// Comma-separated CIDRs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub network_allow_list: Option<String>,
    /// Comma-separated domains (`example.com,*.daytona.io`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub domain_allow_list: Option<String>,
    #[serde(default)]
    pub kvm: Option<bool>,
    #[serde(default)]
    pub target: Option<String>,
    #[serde(default)]
    pub cpu: Option<f64>,
    #[serde(default)]
    pub gpu: Option<f64>,
    #[serde(default)]
    pub memory: Option<f64>,
    #[serde(default)]
    pub disk: Option<f64>,
    #[serde(default)]
    pub state: Option<SandboxState>,
    #[serde(default)]
    pub desired_state: Option<SandboxDesiredState>,
    #[serde(default)]
    pub error_reason: Option<String>,
    #[serde(default)]
    pub recoverable: Option<bool>,
    #[serde(default)]
    pub auto_stop_interval: Option<i64>,
    #[serde(default)]
    pub auto_archive_interval: Option<i64>,
    #[serde(default)]
    pub auto_delete_interval: Option<i64>,
    #[serde(default)]
    pub build_info: Option<BuildInfo>,
    #[serde(default)]
    pub created_at: Option<String>,
    #[serde(default)]
    pub updated_at: Option<String>,
    #[serde(default)]
    pub sandbox_class: Option<String>,
    #[serde(default)]
    pub daemon_version: Option<String>,
    #[serde(default)]
    pub toolbox_proxy_url: Option<String>,
}

impl Sandbox {
    /// The reported state, `Unknown` when absent.
    pub fn state(&self) -> SandboxState {
        self.state.unwrap_or(SandboxState::Unknown)
    }
    pub fn is_windows(&self) -> bool {
        self.sandbox_class.as_deref() == Some("windows")
    }
}

/// `ListSandboxesResponse`: cursor pagination; `nextCursor` is `null` on the last page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListSandboxesResponse {
    pub items: Vec<Sandbox>,
    #[serde(default)]
    pub next_cursor: Option<String>,
}

/// A sandbox volume mount.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SandboxVolume {
    pub volume_id: String,
    pub mount_path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subpath: Option<String>,
}

/// `CreateSandbox`. Resources (`cpu`, `gpu`, `memory`, `disk`) are only accepted with
/// `buildInfo`; with a snapshot the server answers 400.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct CreateSandbox {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub env: Option<BTreeMap<String, String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub labels: Option<BTreeMap<String, String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub public: Option<bool>,
    #[serde(flatten)]
    pub network: NetworkSettings,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpu: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu_type: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub disk: Option<u32>,
    /// Minutes; 0 disables auto-stop.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub auto_stop_interval: Option<i64>,
    /// Minutes; 0 means "the maximum" (Daytona has no "never").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub auto_archive_interval: Option<i64>,
    /// Minutes; negative disables auto-delete, 0 deletes on stop.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub auto_delete_interval: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ttl_minutes: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub volumes: Option<Vec<SandboxVolume>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub build_info: Option<CreateBuildInfo>,
    /// `[{"ENV_NAME": "secret-name"}]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secrets: Option<Vec<BTreeMap<String, String>>>,
}

/// `UpdateSandboxNetworkSettings` (also flattened into `CreateSandbox`): absent fields are not
/// sent, so a sandbox without a policy is created exactly as before.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct NetworkSettings {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub network_block_all: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub network_allow_list: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub domain_allow_list: Option<String>,
}

/// `SandboxLabels`: the body of `PUT /sandbox/{id}/labels`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SandboxLabels {
    pub labels: BTreeMap<String, String>,
}

/// `Url` / `ToolboxProxyUrl`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UrlDto {
    pub url: String,
}

/// `WarmPool`: N started sandboxes of one snapshot, handed to eligible creates.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WarmPool {
    pub id: String,
    pub snapshot: String,
    #[serde(default)]
    pub target: String,
    /// Desired number of warm sandboxes.
    pub pool: f64,
    /// Ready warm sandboxes now.
    #[serde(default)]
    pub current_size: f64,
    #[serde(default)]
    pub cpu: f64,
    #[serde(default)]
    pub mem: f64,
    #[serde(default)]
    pub disk: f64,
    #[serde(default)]
    pub os_user: String,
    #[serde(default)]
    pub error_reason: Option<String>,
}

/// `SnapshotDto`. `mem` here is `memory` in the create body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Snapshot {
    pub id: String,
    #[serde(default)]
    pub organization_id: Option<String>,
    #[serde(default)]
    pub general: Option<bool>,
    pub name: String,
    #[serde(default)]
    pub image_name: Option<String>,
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub state: Option<SnapshotState>,
    #[serde(default)]
    pub size: Option<f64>,
    #[serde(default)]
    pub entrypoint: Option<Vec<String>>,
    #[serde(default)]
    pub cpu: Option<f64>,
    #[serde(default)]
    pub gpu: Option<f64>,
    #[serde(default)]
    pub mem: Option<f64>,
    #[serde(default)]
    pub disk: Option<f64>,
    #[serde(default)]
    pub error_reason: Option<String>,
    #[serde(default)]
    pub created_at: Option<String>,
    #[serde(default)]
    pub updated_at: Option<String>,
    #[serde(default)]
    pub last_used_at: Option<String>,
    #[serde(default)]
    pub build_info: Option<BuildInfo>,
    #[serde(default)]
    pub region_ids: Option<Vec<String>>,
    #[serde(default)]
    pub sandbox_class: Option<String>,
}

impl Snapshot {
    pub fn state(&self) -> SnapshotState {
        self.state.unwrap_or(SnapshotState::Unknown)
    }
}

/// `PaginatedSnapshots`: page-based.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PaginatedSnapshots {
    pub items: Vec<Snapshot>,
    #[serde(default)]
    pub total: f64,
    #[serde(default)]
    pub page: f64,
    #[serde(default)]
    pub total_pages: f64,
}

/// `CreateSnapshot`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct CreateSnapshot {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub image_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entrypoint: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpu: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub disk: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub build_info: Option<CreateBuildInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub region_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sandbox_class: Option<String>,
}

/// `CreateSandboxSnapshot`: snapshot a sandbox's filesystem under `name`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CreateSandboxSnapshot {
    pub name: String,
}

// ---- Toolbox ----

/// `ExecuteRequest`: `envs` carries the environment out of band.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct ExecuteRequest {
    pub command: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub envs: Option<BTreeMap<String, String>>,
    /// Seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout: Option<u64>,
}

/// `ExecuteResponse`: `result` is stdout and stderr combined. Very old daemons sent `code`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExecuteResponse {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<i32>,
    #[serde(default)]
    pub result: String,
}

impl ExecuteResponse {
    pub fn exit(&self) -> i32 {
        self.exit_code.or(self.code).unwrap_or(-1)
    }
}

/// `CreateSessionRequest`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateSessionRequest {
    pub session_id: String,
}

/// `SessionExecuteRequest` (`async` is the deprecated alias of `runAsync`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionExecuteRequest {
    pub command: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_async: Option<bool>,
    #[serde(default, rename = "async", skip_serializing_if = "Option::is_none")]
    pub async_alias: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suppress_input_echo: Option<bool>,
}

/// `SessionExecuteResponse`: 202 with only `cmdId` for async runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionExecuteResponse {
    pub cmd_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stdout: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stderr: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
}

/// `Command`: `exitCode` is absent while the command runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionCommand {
    pub id: String,
    pub command: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
}

/// `Session`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Session {
    pub session_id: String,
    #[serde(default)]
    pub commands: Vec<SessionCommand>,
}

/// `SessionCommandLogsResponse` (JSON when `X-Daytona-SDK-Version` ≥ 0.167.0).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct CommandLogs {
    #[serde(default)]
    pub output: String,
    #[serde(default)]
    pub stdout: String,
    #[serde(default)]
    pub stderr: String,
}

/// `GitCloneRequest`: snake_case `commit_id`; credentials only here, never in the URL.
#[derive(Clone, Serialize)]
pub struct GitCloneRequest {
    pub url: String,
    pub path: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub branch: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub username: Option<String>,
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "expose_secret"
    )]
    pub password: Option<Secret>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
}

impl std::fmt::Debug for GitCloneRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GitCloneRequest")
            .field("url", &crate::secrets::redact(&self.url))
            .field("path", &self.path)
            .field("branch", &self.branch)
            .field("username", &self.username.as_ref().map(|_| "[set]"))
            .field("password", &self.password)
            .finish()
    }
}

fn expose_secret<S: serde::Serializer>(v: &Option<Secret>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(secret) => s.serialize_str(secret.expose()),
        None => s.serialize_none(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_enum_values_are_tolerated() {
        let s: Sandbox = serde_json::from_str(
            r#"{"id":"a","name":"n","labels":{},"state":"teleporting","desiredState":"x","cpu":2}"#,
        )
        .unwrap();
        assert_eq!(s.state(), SandboxState::Unknown);
        assert_eq!(s.desired_state, Some(SandboxDesiredState::Unknown));
        let s: Snapshot = serde_json::from_str(
            r#"{"id":"a","name":"n","state":"build_failed","errorReason":null,"size":null}"#,
        )
        .unwrap();
        assert!(s.state().is_failed());
    }

    #[test]
    fn create_body_skips_unset_fields() {
        let body = CreateSandbox {
            name: Some("x".into()),
            auto_delete_interval: Some(-1),
            ..Default::default()
        };
        assert_eq!(
            serde_json::to_value(&body).unwrap(),
            serde_json::json!({"name":"x","autoDeleteInterval":-1})
        );
    }

    #[test]
    fn git_clone_debug_hides_the_password() {
        let req = GitCloneRequest {
            url: "https://example.com/r.git".into(),
            path: "/w".into(),
            branch: None,
            commit_id: None,
            username: Some("u".into()),
            password: Some(Secret::new("hunter2-very-secret")),
            depth: None,
        };
        assert!(!format!("{req:?}").contains("hunter2"));
        let wire = serde_json::to_value(&req).unwrap();
        assert_eq!(wire["password"], "hunter2-very-secret");
    }
}
