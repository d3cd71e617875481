//! The emulated Daytona organization: sandbox and snapshot records, their DTOs, and the error
//! envelopes (NestJS for the API, `ErrorResponse` for the toolbox).

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, UNIX_EPOCH};

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::api::daytona_types::{
    BuildInfo, SandboxDesiredState as Desired, SandboxState as St, SnapshotState,
};

/// Delays of the emulated transitions, in milliseconds (`GET|PUT /_emulator/daytona/settings`).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// `creating` → `started` (plus the local sandbox's own creation time).
    pub create_ms: u64,
    /// `starting` → `started`.
    pub start_ms: u64,
    /// `stopping` → `stopped`.
    pub stop_ms: u64,
    /// `destroying` → `destroyed`.
    pub delete_ms: u64,
    /// Snapshot `pending` → `building`/`pulling`.
    pub snapshot_pending_ms: u64,
    /// Per Dockerfile instruction while `building`.
    pub snapshot_step_ms: u64,
    /// How long `POST /sandbox` (from a snapshot) and `POST …/start` wait for `started` before
    /// answering with the current state (the real server waits up to 30 s).
    pub start_wait_ms: u64,
    /// Largest CPU / memory GiB / disk GiB one sandbox or snapshot may ask for (quota errors).
    pub max_cpu: u32,
    pub max_memory: u32,
    pub max_disk: u32,
    /// Eventual consistency of lists: a sandbox shows up in `GET /sandbox` only this long after
    /// its creation, and a deleted one keeps showing (as `destroying`) this long after it is
    /// gone. 0 = lists are exact.
    pub list_lag_ms: u64,
    /// A new sandbox answers 404 to `GET /sandbox/{id}` for this long after its creation.
    pub get_lag_ms: u64,
    /// How long one "minute" of the lifecycle intervals (`autoArchiveInterval`) lasts; lower
    /// it to let a test see a stopped sandbox archive itself.
    pub minute_ms: u64,
    /// `archiving` → `archived`.
    pub archive_ms: u64,
    /// `restoring` → `started` (a start from `archived`).
    pub restore_ms: u64,
    /// How long a warm pool waits before replacing a sandbox it handed over (the refill);
    /// raise it to see a create find the pool empty.
    pub warm_refill_ms: u64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            create_ms: 200,
            start_ms: 150,
            stop_ms: 150,
            delete_ms: 150,
            snapshot_pending_ms: 200,
            snapshot_step_ms: 60,
            start_wait_ms: 30_000,
            max_cpu: 16,
            max_memory: 64,
            max_disk: 200,
            list_lag_ms: 0,
            get_lag_ms: 0,
            minute_ms: 60_000,
            archive_ms: 300,
            restore_ms: 300,
            warm_refill_ms: 0,
        }
    }
}

pub fn d(ms: u64) -> Duration {
    Duration::from_millis(ms)
}

pub use crate::emulator::now_ms;

/// `2026-11-30T17:00:00.000Z`.
pub fn iso(ms: u64) -> String {
    humantime::format_rfc3339_millis(UNIX_EPOCH + Duration::from_millis(ms)).to_string()
}

pub const ORG_ID: &str = "5b2d6c3e-0e0a-4f6b-9a57-0e7a2f4d1c01";
pub const DAEMON_VERSION: &str = "0.190.0";
pub const DEFAULT_SNAPSHOT: &str = "daytonaio/sandbox:0.6.0";
/// The general Windows snapshot Daytona offers (class `windows`).
pub const WINDOWS_SNAPSHOT: &str = "windows-medium";

fn class(windows: bool) -> &'static str {
    if windows { "windows" } else { "container" }
}

#[derive(Debug, Clone)]
pub struct SandboxRec {
    pub id: String,
    pub name: String,
    pub snapshot: Option<String>,
    pub user: String,
    pub env: BTreeMap<String, String>,
    pub labels: BTreeMap<String, String>,
    pub public: bool,
    pub network_block_all: bool,
    pub network_allow_list: Option<String>,
    pub domain_allow_list: Option<String>,
    pub target: String,
    pub cpu: u32,
    pub gpu: u32,
    pub memory: u32,
    pub disk: u32,
    /// The stored state (the reported one is derived, see [`SandboxRec::reported`]).
    pub stored: St,
    pub desired: Desired,
    pub error_reason: Option<String>,
    pub auto_stop: i64,
    pub auto_archive: i64,
    pub auto_delete: i64,
    /// When it last reached `stopped` (its `autoArchiveInterval` counts from there).
    pub stopped_ms: Option<u64>,
    pub build_info: Option<BuildInfo>,
    pub build_log: Vec<String>,
    pub created_ms: u64,
    pub updated_ms: u64,
    /// Whether the backing local sandbox exists.
    pub local: bool,
    /// A Windows sandbox (`sandboxClass: windows`): its toolbox follows the Windows daemon.
    pub windows: bool,
    /// Serialises the slow transitions of this sandbox.
    pub lock: Arc<tokio::sync::Mutex<()>>,
    /// The warm pool it waits in, while it is an unclaimed member (hidden from lists then).
    pub warm_pool: Option<String>,
}

impl SandboxRec {
    /// `getSandboxState`: the transitional states are derived from stored + desired.
    pub fn reported(&self) -> St {
        match (self.stored, self.desired) {
            (St::Started, Desired::Stopped) => St::Stopping,
            (St::Started, Desired::Destroyed) => St::Destroying,
            (St::Stopped, Desired::Started) => St::Starting,
            (St::Stopped, Desired::Destroyed) => St::Destroying,
            (St::Stopped, Desired::Archived) => St::Archiving,
            (St::Unknown, Desired::Started) => St::Creating,
            (St::Unknown, Desired::Destroyed) => St::Destroying,
            (s, _) => s,
        }
    }

    /// Invisible to every API call (404).
    pub fn gone(&self) -> bool {
        self.stored == St::Destroyed
            || (self.stored.is_error() && self.desired == Desired::Destroyed)
    }

    fn common(&self, toolbox: &str) -> serde_json::Map<String, Value> {
        let mut m = serde_json::Map::new();
        m.insert("id".into(), json!(self.id));
        m.insert("organizationId".into(), json!(ORG_ID));
        m.insert("name".into(), json!(self.name));
        if let Some(s) = &self.snapshot {
            m.insert("snapshot".into(), json!(s));
        }
        m.insert("user".into(), json!(self.user));
        m.insert("labels".into(), json!(self.labels));
        m.insert("public".into(), json!(self.public));
        m.insert("networkBlockAll".into(), json!(self.network_block_all));
        if let Some(l) = &self.network_allow_list {
            m.insert("networkAllowList".into(), json!(l));
        }
        if let Some(l) = &self.domain_allow_list {
            m.insert("domainAllowList".into(), json!(l));
        }
        m.insert("target".into(), json!(self.target));
        m.insert("cpu".into(), json!(self.cpu));
        m.insert("gpu".into(), json!(self.gpu));
        m.insert("memory".into(), json!(self.memory));
        m.insert("disk".into(), json!(self.disk));
        m.insert("state".into(), json!(self.reported().as_str()));
        m.insert("desiredState".into(), json!(self.desired.as_str()));
        if let Some(r) = &self.error_reason {
            m.insert("errorReason".into(), json!(r));
        }
        m.insert("recoverable".into(), json!(false));
        m.insert("backupState".into(), json!("None"));
        m.insert("autoStopInterval".into(), json!(self.auto_stop));
        m.insert("autoArchiveInterval".into(), json!(self.auto_archive));
        m.insert("autoDeleteInterval".into(), json!(self.auto_delete));
        m.insert("createdAt".into(), json!(iso(self.created_ms)));
        m.insert("updatedAt".into(), json!(iso(self.updated_ms)));
        m.insert("lastActivityAt".into(), json!(iso(self.updated_ms)));
        m.insert("sandboxClass".into(), json!(class(self.windows)));
        m.insert("daemonVersion".into(), json!(DAEMON_VERSION));
        m.insert("runnerId".into(), json!("emulator-runner"));
        m.insert("toolboxProxyUrl".into(), json!(toolbox));
        if let Some(p) = &self.warm_pool {
            m.insert("warmPoolId".into(), json!(p));
        }
        m
    }

    /// The full `Sandbox` DTO: `kvm: false` and integer resources always present.
    pub fn dto(&self, toolbox: &str) -> Value {
        let mut m = self.common(toolbox);
        m.insert("env".into(), json!(self.env));
        m.insert("kvm".into(), json!(false));
        m.insert("volumes".into(), json!([]));
        if let Some(b) = &self.build_info {
            m.insert("buildInfo".into(), json!(b));
        }
        Value::Object(m)
    }

    /// `SandboxListItem`: no `env`, `volumes`, `buildInfo` or `kvm`.
    pub fn list_item(&self, toolbox: &str) -> Value {
        Value::Object(self.common(toolbox))
    }
}

#[derive(Debug, Clone)]
pub struct SnapshotRec {
    pub id: String,
    pub name: String,
    pub general: bool,
    pub image_name: Option<String>,
    pub state: SnapshotState,
    pub size: Option<f64>,
    pub entrypoint: Option<Vec<String>>,
    pub cpu: u32,
    pub gpu: u32,
    pub mem: u32,
    pub disk: u32,
    pub error_reason: Option<String>,
    pub created_ms: u64,
    pub updated_ms: u64,
    pub last_used_ms: Option<u64>,
    pub build_info: Option<BuildInfo>,
    pub region: String,
    pub source_sandbox_id: Option<String>,
    pub log: Vec<String>,
    /// A Windows image (`sandboxClass: windows`).
    pub windows: bool,
    /// Files the build's verified downloads put into the image.
    pub files: Vec<super::image_files::ImageFile>,
}

impl SnapshotRec {
    /// `SnapshotDto`: the nullable-but-required fields are always present.
    pub fn dto(&self) -> Value {
        let mut m = serde_json::Map::new();
        m.insert("id".into(), json!(self.id));
        if !self.general {
            m.insert("organizationId".into(), json!(ORG_ID));
        }
        m.insert("general".into(), json!(self.general));
        m.insert("name".into(), json!(self.name));
        if let Some(i) = &self.image_name {
            m.insert("imageName".into(), json!(i));
        }
        m.insert("state".into(), json!(self.state.as_str()));
        m.insert("size".into(), json!(self.size));
        m.insert("entrypoint".into(), json!(self.entrypoint));
        m.insert("cpu".into(), json!(self.cpu));
        m.insert("gpu".into(), json!(self.gpu));
        m.insert("mem".into(), json!(self.mem));
        m.insert("disk".into(), json!(self.disk));
        m.insert("errorReason".into(), json!(self.error_reason));
        m.insert("createdAt".into(), json!(iso(self.created_ms)));
        m.insert("updatedAt".into(), json!(iso(self.updated_ms)));
        m.insert("lastUsedAt".into(), json!(self.last_used_ms.map(iso)));
        if let Some(b) = &self.build_info {
            m.insert("buildInfo".into(), json!(b));
        }
        m.insert("regionIds".into(), json!([self.region]));
        m.insert("sourceSandboxId".into(), json!(self.source_sandbox_id));
        m.insert("sandboxClass".into(), json!(class(self.windows)));
        Value::Object(m)
    }
}

/// The NestJS error envelope of the API (`path` as the real server would see it).
pub fn api_error(status: StatusCode, message: impl Into<String>, path: &str) -> Response {
    let body = json!({
        "path": path.strip_prefix("/daytona").unwrap_or(path),
        "timestamp": iso(now_ms()),
        "statusCode": status.as_u16(),
        "error": status.canonical_reason().unwrap_or("Error"),
        "message": message.into(),
    });
    (status, axum::Json(body)).into_response()
}

/// The daemon's `ErrorResponse`.
pub fn tb_error(
    status: StatusCode,
    message: impl Into<String>,
    code: &str,
    path: &str,
    method: &str,
) -> Response {
    let body = json!({
        "statusCode": status.as_u16(),
        "message": message.into(),
        "code": code,
        "timestamp": iso(now_ms()),
        "path": path,
        "method": method,
        "source": "DAYTONA_DAEMON",
    });
    (status, axum::Json(body)).into_response()
}
