//! CoreWeave half of the emulator: `coreweave.sandbox.v1.SandboxService` over gRPC, on the same
//! loopback port as everything else.
//!
//! gRPC needs HTTP/2; the emulator's server (axum on hyper's auto builder) accepts HTTP/2 with
//! prior knowledge (h2c) next to HTTP/1.1 on the one port, so `CWSANDBOX_BASE_URL` is the plain
//! base URL and the gRPC paths `/coreweave.sandbox.v1.SandboxService/<Method>` sit at the root.
//! The axum route hands each call to a tonic `SandboxServiceServer` after checking credentials.
//!
//! Every CoreWeave sandbox is a real local sandbox (`Shared.sandboxes`) whose supervised main
//! process is the container's command; see [`lifecycle`] for the state machine, [`service`]
//! for the RPCs, [`data`] for exec, logs and files, [`volumes`] for scratch volumes and
//! [`snapshots`] for their file-system snapshots.
//!
//! Delays: `GET|PUT /_emulator/coreweave/settings` ([`Settings`]).

// `tonic::Status` is what the generated service trait returns; boxing it here would only add
// conversions at every call.
#![allow(clippy::result_large_err)]

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get, put};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use tonic::codegen::Service;

use super::{AppState, EmulatorOptions};
use crate::api::coreweave::MAX_MESSAGE;
use crate::api::coreweave::pb::sandbox_service_server::SandboxServiceServer;
use crate::secrets::Secret;

mod data;
mod failed_fault;
mod lifecycle;
mod network;
mod service;
mod snapshots;
mod tree;
mod volumes;

pub use lifecycle::{Entry, Phase};

/// The gRPC service name (path prefix).
pub const SERVICE: &str = "coreweave.sandbox.v1.SandboxService";

/// The image CoreWeave workers run; mapped by [`image_profile`].
pub const DEVIN_CLI_IMAGE: &str = "public.ecr.aws/e0h8a4b6/devin-cli:stable";

/// What a container image means for the local sandbox behind it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ImageProfile {
    /// Extra environment of the main process.
    pub env: BTreeMap<String, String>,
    /// Read-only binds `(host path, sandbox path)`, e.g. a fake `devin` CLI.
    pub ro_binds: Vec<(std::path::PathBuf, String)>,
    /// Sandbox directories put first on `PATH`.
    pub extra_path: Vec<String>,
}

/// Hook: how an image maps onto a local sandbox. Every image runs on the host's userland inside
/// bubblewrap. The Devin CLI image gets the emulator's fake `devin` CLI (`devin_cli`, the host
/// directory [`crate::emulator::Shared::devin_cli`]) bound read-only at `/opt/devin/bin`, first
/// on `PATH`.
pub fn image_profile(image: &str, devin_cli: Option<&std::path::Path>) -> ImageProfile {
    match (image, devin_cli) {
        (DEVIN_CLI_IMAGE, Some(dir)) => match crate::provider::local::SandboxOptions::host_bin(dir)
        {
            Ok(o) => ImageProfile {
                env: BTreeMap::new(),
                ro_binds: o.ro_binds,
                extra_path: o.extra_path,
            },
            Err(e) => {
                tracing::warn!("the Devin CLI image runs without the fake CLI: {e:#}");
                ImageProfile::default()
            }
        },
        _ => ImageProfile::default(),
    }
}

/// Delays of the emulated CoreWeave transitions, in milliseconds
/// (`GET|PUT /_emulator/coreweave/settings`).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// A new sandbox stays `CREATING` at least this long (scheduling and image pull, which
    /// take seconds on the service and nothing on loopback).
    pub create_ms: u64,
    /// File-system snapshot `CREATING` → `READY` (the files are copied when it is asked for).
    pub snapshot_ready_ms: u64,
    /// File-system snapshot `DELETING` → gone.
    pub snapshot_delete_ms: u64,
    /// Play a backend that accepts `NetworkOptions` but applies none of them: the status then
    /// reports no effective egress (clients must notice and refuse).
    pub ignore_network: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            create_ms: 0,
            snapshot_ready_ms: 300,
            snapshot_delete_ms: 200,
            ignore_network: false,
        }
    }
}

/// State of the emulated CoreWeave API.
pub struct CoreweaveEmu {
    /// The key `emulator env` hands out as `CWSANDBOX_API_KEY`.
    api_key: Secret,
    seed: u64,
    pub(crate) state: Mutex<CwState>,
    settings: Mutex<Settings>,
}

#[derive(Default)]
pub(crate) struct CwState {
    pub sandboxes: BTreeMap<String, Entry>,
    /// `request_id` → (sandbox id, fingerprint of the request).
    pub request_ids: HashMap<String, (String, Vec<u8>)>,
    /// Values of secret-store entries: (store, path) → value.
    pub secrets: BTreeMap<(String, String), Secret>,
    pub seq: u64,
    /// File-system snapshots by id; they outlive their sandboxes.
    pub snapshots: BTreeMap<String, snapshots::SnapRec>,
    pub snapshot_seq: u64,
    /// CreateFileSystemSnapshot `request_id` → snapshot id.
    pub snapshot_requests: HashMap<String, String>,
    /// DeleteSandbox `request_id` (with `snapshot_volumes`) → (sandbox id, snapshot ids), so a
    /// retried delete answers with the snapshots the first attempt took.
    pub delete_requests: HashMap<String, (String, Vec<String>)>,
    /// The `failed` fault armed for the next sandbox created (`failed_fault.rs`).
    pub failed_next: Option<String>,
}

impl CoreweaveEmu {
    pub fn new(opts: &EmulatorOptions, _base_url: &str) -> anyhow::Result<Self> {
        // Derived from the seed like every other emulator choice: stable across restarts.
        let digest = Sha256::digest(format!("outposts-emulator-coreweave-key:{}", opts.seed));
        let api_key = Secret::new(format!("cwemu_{}", &hex::encode(digest)[..32]));
        Ok(CoreweaveEmu {
            api_key,
            seed: opts.seed,
            state: Mutex::new(CwState::default()),
            settings: Mutex::new(Settings::default()),
        })
    }

    pub fn settings(&self) -> Settings {
        self.settings
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    pub fn env_pairs(&self, base_url: &str) -> Vec<(String, String)> {
        vec![
            ("CWSANDBOX_BASE_URL".into(), base_url.to_string()),
            (
                "CWSANDBOX_API_KEY".into(),
                self.api_key.expose().to_string(),
            ),
        ]
    }

    pub(crate) fn lock(&self) -> std::sync::MutexGuard<'_, CwState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A new sandbox id, deterministic for a seed.
    pub(crate) fn next_id(&self, st: &mut CwState) -> String {
        st.seq += 1;
        let digest = Sha256::digest(format!("cw-sandbox:{}:{}", self.seed, st.seq));
        format!("sb-{}", &hex::encode(digest)[..12])
    }

    /// Credentials as the real service takes them: the emulator's API key as a bearer token,
    /// or any non-empty W&B API key.
    fn check_auth(&self, headers: &axum::http::HeaderMap) -> Result<(), tonic::Status> {
        if let Some(v) = headers.get("authorization") {
            let v = v.to_str().unwrap_or_default().trim();
            let token = v
                .strip_prefix("Bearer ")
                .or_else(|| v.strip_prefix("bearer "))
                .unwrap_or("")
                .trim();
            if !token.is_empty() && token == self.api_key.expose() {
                return Ok(());
            }
            return Err(tonic::Status::unauthenticated(
                "invalid API key: the bearer token is not this emulator's CWSANDBOX_API_KEY \
                 (see `outposts emulator env`)",
            ));
        }
        if let Some(v) = headers.get("x-wandb-api-key") {
            if v.to_str().is_ok_and(|s| !s.trim().is_empty()) {
                return Ok(());
            }
            return Err(tonic::Status::unauthenticated("the W&B API key is empty"));
        }
        Err(tonic::Status::unauthenticated(
            "missing credentials: send `authorization: Bearer <CWSANDBOX_API_KEY>` or \
             `x-wandb-api-key`",
        ))
    }

    /// Store a secret-store value for sandboxes that reference it.
    pub fn put_secret(&self, store: &str, path: &str, value: &str) {
        self.lock().secrets.insert(
            (store.to_string(), path.to_string()),
            Secret::new(value.to_string()),
        );
    }
}

/// The path of `CreateSandbox` (its network options go into the request log).
pub const CREATE_PATH: &str = "/coreweave.sandbox.v1.SandboxService/CreateSandbox";

/// The logged view of a `CreateSandbox` gRPC body: its network options only (the rest may
/// carry environment values).
pub fn logged_create(body: &[u8]) -> Option<String> {
    use prost::Message;
    // One length-prefixed, uncompressed gRPC message.
    let msg = body.get(5..)?;
    if body.first() != Some(&0) {
        return None;
    }
    let req = crate::api::coreweave::pb::CreateSandboxRequest::decode(msg).ok()?;
    let network = req
        .sandbox
        .and_then(|s| s.spec)
        .and_then(|s| s.network)
        .map(|n| network::to_json(&n));
    Some(serde_json::json!({ "network": network }).to_string())
}

pub fn router() -> Router<AppState> {
    Router::new()
        .route(&format!("/{SERVICE}/*method"), any(grpc))
        .route("/_emulator/coreweave/secrets", put(put_secret))
        .route(
            "/_emulator/coreweave/failed",
            axum::routing::post(failed_fault::put_failed),
        )
        .route(
            "/_emulator/coreweave/settings",
            get(get_settings).put(put_settings),
        )
}

async fn get_settings(State(s): State<AppState>) -> axum::Json<Settings> {
    axum::Json(s.coreweave.settings())
}

/// `PUT /_emulator/coreweave/settings`: fields left out take their defaults.
async fn put_settings(State(s): State<AppState>, body: axum::body::Bytes) -> Response {
    match serde_json::from_slice::<Settings>(&body) {
        Ok(new) => {
            *s.coreweave
                .settings
                .lock()
                .unwrap_or_else(|e| e.into_inner()) = new.clone();
            axum::Json(new).into_response()
        }
        Err(e) => (
            axum::http::StatusCode::BAD_REQUEST,
            axum::Json(serde_json::json!({"detail": format!("not a settings document: {e}")})),
        )
            .into_response(),
    }
}

/// Every gRPC call: check credentials, then let tonic decode and dispatch it.
async fn grpc(State(shared): State<AppState>, req: Request) -> Response {
    if let Err(status) = shared.coreweave.check_auth(req.headers()) {
        return status.into_http().map(Body::new);
    }
    let mut server = SandboxServiceServer::new(service::EmuService::new(shared))
        .max_decoding_message_size(MAX_MESSAGE)
        .max_encoding_message_size(MAX_MESSAGE);
    let ready =
        futures::future::poll_fn(|cx| Service::<Request>::poll_ready(&mut server, cx)).await;
    let result = match ready {
        Ok(()) => server.call(req).await,
        Err(e) => Err(e),
    };
    match result {
        Ok(resp) => resp.map(Body::new),
        Err(never) => match never {},
    }
}

#[derive(Deserialize)]
struct SecretBody {
    store: String,
    path: String,
    value: String,
}

/// `PUT /_emulator/coreweave/secrets {"store","path","value"}`: provision a secret-store entry.
async fn put_secret(
    State(shared): State<AppState>,
    axum::Json(body): axum::Json<SecretBody>,
) -> Response {
    if body.store.is_empty() || body.path.is_empty() {
        return (
            axum::http::StatusCode::BAD_REQUEST,
            axum::Json(serde_json::json!({"detail": "store and path must not be empty"})),
        )
            .into_response();
    }
    shared
        .coreweave
        .put_secret(&body.store, &body.path, &body.value);
    axum::http::StatusCode::NO_CONTENT.into_response()
}
