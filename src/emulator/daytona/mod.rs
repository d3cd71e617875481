//! Daytona half of the emulator: the REST API under `{base}/daytona/api` and the toolbox under
//! `{base}/daytona/toolbox/{sandboxId}` (the sandboxes' `toolboxProxyUrl`), over real local
//! sandboxes from [`super::sandboxes`].
//!
//! Fidelity rules (see `specs/daytona-api.md`): Bearer auth with the emulator's key (bad key →
//! 401 `Invalid credentials`); NestJS error bodies; URL-decoded path parameters; integer
//! resources and `kvm: false` on every sandbox; derived transitional states (`creating`,
//! `starting`, `stopping`, `destroying`) with configurable delays; 409 on duplicate names and on
//! state changes in progress; 400 on stopping a stopped sandbox; delete renames the sandbox
//! `DESTROYED_<name>_<ms>` at once; cursor-paginated lists with `nextCursor: null` at the end;
//! snapshots `pending → building → active` with a build log (`build-logs-url` + `?follow=true`);
//! archive and restore (`stopped → archiving → archived`, by `autoArchiveInterval` or
//! `POST …/archive`; start from `archived` answers `restoring` at once, then `started`).
//!
//! Not emulated: the *content* of snapshots and images — every sandbox boots the same local
//! sandbox (the host's userland under bubblewrap); the build only checks the Dockerfile (rule
//! below) and writes a log.
//!
//! The Socket.IO event stream (`sandbox.created`, `sandbox.state.updated`) the official SDK waits
//! on is served too ([`events`]), one event per state change; clients that poll
//! (`DAYTONA_USE_DEPRECATED_POLLING=true`, ours) see the same states.
//!
//! Failing-build rule: a Dockerfile fails to build (`build_failed`, with `errorReason` and the
//! log) when it has no `FROM` instruction, or when a `RUN` instruction is `false`, `exit N`
//! (N ≠ 0) or ends in `&& false` — e.g. `RUN false`.
//!
//! Quota rule: asking for more than `max_cpu`/`max_memory`/`max_disk` (16 / 64 / 200 by
//! default) answers 400 `… exceeds maximum allowed per sandbox`.
//!
//! Delays and limits: `GET|PUT /_emulator/daytona/settings` ([`model::Settings`]).

// Handler helpers return ready-made HTTP error responses; boxing them buys nothing here.
#![allow(clippy::result_large_err)]

mod archive;
mod error_fault;
mod events;
mod git;
mod image_files;
mod model;
mod network;
mod sandbox;
mod snapshot;
mod toolbox;
mod warm_pool;
pub mod windows_daemon;

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;

use axum::Router;
use axum::extract::{FromRequestParts, Request, State};
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get};

use super::{AppState, EmulatorOptions};
pub use model::Settings;
use model::{SandboxRec, SnapshotRec};

/// Path prefixes of the three Daytona surfaces.
pub const API_PREFIX: &str = "/daytona/api";
pub const TOOLBOX_PREFIX: &str = "/daytona/toolbox";
pub const PROXY_PREFIX: &str = "/daytona/proxy";

pub struct DaytonaEmu {
    /// The API key clients must send (`DAYTONA_API_KEY` in `emulator env`).
    pub api_key: String,
    state: Mutex<Org>,
    settings: Mutex<Settings>,
    /// More keys (`POST /_emulator/daytona/keys`), by key: their label. Tests give each
    /// orchestrator replica its own, so the mutation journal can say who asked.
    extra_keys: Mutex<BTreeMap<String, String>>,
    /// Sandbox events, published as states change ([`events::OrgGuard`]).
    events: events::EventTx,
    /// The sandboxes' `toolboxProxyUrl` (in the event DTOs).
    toolbox_url: String,
}

/// Everything one organization owns.
#[derive(Default)]
pub(crate) struct Org {
    pub sandboxes: BTreeMap<String, SandboxRec>,
    pub snapshots: BTreeMap<String, SnapshotRec>,
    /// Toolbox sessions by (sandbox id, session id).
    pub sessions: HashMap<(String, String), toolbox::SessionRec>,
    /// Recently destroyed sandboxes with the time they went, while lists still lag behind.
    pub graveyard: Vec<(u64, SandboxRec)>,
    /// Warm pools by id (one per snapshot and region).
    pub warm_pools: BTreeMap<String, warm_pool::WarmPoolRec>,
    /// The state and DTO each sandbox was last published with on the event stream; `None`
    /// while nobody subscribes ([`events::OrgGuard`] then skips its diff of every sandbox).
    pub published: Option<BTreeMap<String, (String, serde_json::Value)>>,
    /// The next sandbox to boot lands in `error` with this reason ([`error_fault`]).
    pub error_next: Option<String>,
}

impl DaytonaEmu {
    pub fn new(opts: &EmulatorOptions, base_url: &str) -> anyhow::Result<Self> {
        let mut settings = Settings::default();
        if let Some(d) = opts.daytona_create_delay {
            settings.create_ms = d.as_millis() as u64;
        }
        if let Some(d) = opts.daytona_start_delay {
            settings.start_ms = d.as_millis() as u64;
        }
        let mut org = Org::default();
        let general = snapshot::general_snapshot(model::DEFAULT_SNAPSHOT);
        org.snapshots.insert(general.id.clone(), general);
        let mut windows = snapshot::general_snapshot(model::WINDOWS_SNAPSHOT);
        windows.windows = true;
        org.snapshots.insert(windows.id.clone(), windows);
        Ok(DaytonaEmu {
            api_key: format!("dtn_emu{}", uuid::Uuid::new_v4().simple()),
            state: Mutex::new(org),
            settings: Mutex::new(settings),
            extra_keys: Mutex::new(BTreeMap::new()),
            events: events::channel(),
            toolbox_url: Self::toolbox_url(base_url),
        })
    }

    /// A new API key labelled `label` (registered as a secret, so logs redact it).
    pub fn add_key(&self, label: &str) -> String {
        let key = format!("dtn_emu{}", uuid::Uuid::new_v4().simple());
        crate::secrets::register(&key);
        self.extra_keys
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key.clone(), label.to_string());
        key
    }

    /// Every API key, the emulator's own first.
    pub fn keys(&self) -> Vec<String> {
        let extra = self.extra_keys.lock().unwrap_or_else(|e| e.into_inner());
        std::iter::once(self.api_key.clone())
            .chain(extra.keys().cloned())
            .collect()
    }

    /// The label of a key we accept: `default` for ours, the given label for extra keys.
    fn key_label(&self, key: &str) -> Option<String> {
        if key == self.api_key {
            return Some("default".into());
        }
        self.extra_keys
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(key)
            .cloned()
    }

    /// Who sent these headers (the label of their bearer key).
    pub(crate) fn caller(&self, headers: &axum::http::HeaderMap) -> Option<String> {
        bearer_key(headers).and_then(|k| self.key_label(k))
    }

    pub fn env_pairs(&self, base_url: &str) -> Vec<(String, String)> {
        vec![
            ("DAYTONA_API_URL".into(), format!("{base_url}{API_PREFIX}")),
            ("DAYTONA_API_KEY".into(), self.api_key.clone()),
        ]
    }

    /// The organisation, locked; releasing it publishes the state changes made under it.
    pub(crate) fn org(&self) -> events::OrgGuard<'_> {
        events::OrgGuard {
            org: self.state.lock().unwrap_or_else(|e| e.into_inner()),
            tx: &self.events,
            toolbox: &self.toolbox_url,
        }
    }

    pub fn settings(&self) -> Settings {
        self.settings
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    pub fn toolbox_url(base_url: &str) -> String {
        format!("{base_url}{TOOLBOX_PREFIX}")
    }
}

pub fn router() -> Router<AppState> {
    Router::new()
        .merge(sandbox::routes())
        .merge(archive::routes())
        .merge(network::routes())
        .merge(snapshot::routes())
        .merge(toolbox::routes())
        .merge(warm_pool::routes())
        .route(&format!("{API_PREFIX}/socket.io/"), get(events::socket))
        .route(&format!("{API_PREFIX}/socket.io"), get(events::socket))
        .route(&format!("{API_PREFIX}/*rest"), any(unknown_route))
        .route(API_PREFIX, any(unknown_route))
        .route(
            "/_emulator/daytona/settings",
            get(get_settings).put(put_settings),
        )
        .route("/_emulator/daytona/keys", axum::routing::post(add_key))
        .route(
            "/_emulator/daytona/error",
            axum::routing::post(error_fault::put_error),
        )
}

fn bearer_key(headers: &axum::http::HeaderMap) -> Option<&str> {
    headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| {
            v.strip_prefix("Bearer ")
                .or_else(|| v.strip_prefix("bearer "))
        })
        .map(str::trim)
}

/// `POST /_emulator/daytona/keys {"label": "replica-a"}` → `{"key": …, "label": …}`.
async fn add_key(State(s): State<AppState>, body: axum::body::Bytes) -> Response {
    let label = serde_json::from_slice::<serde_json::Value>(&body)
        .ok()
        .and_then(|v| v.get("label").and_then(|l| l.as_str()).map(str::to_string))
        .filter(|l| !l.trim().is_empty() && l.len() <= 100);
    let Some(label) = label else {
        return (
            StatusCode::UNPROCESSABLE_ENTITY,
            axum::Json(serde_json::json!({"detail": "send {\"label\": \"…\"} (1-100 characters)"})),
        )
            .into_response();
    };
    let key = s.daytona.add_key(&label);
    axum::Json(serde_json::json!({"key": key, "label": label})).into_response()
}

/// Bearer auth: every Daytona handler takes this extractor first (bad key → 401).
pub(crate) struct Authed;

#[axum::async_trait]
impl FromRequestParts<AppState> for Authed {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, s: &AppState) -> Result<Self, Response> {
        let ok = bearer_key(&parts.headers).is_some_and(|k| s.daytona.key_label(k).is_some());
        if ok {
            Ok(Authed)
        } else {
            let body = serde_json::json!({
                "statusCode": 401, "error": "Unauthorized", "message": "Invalid credentials",
            });
            Err((StatusCode::UNAUTHORIZED, axum::Json(body)).into_response())
        }
    }
}

/// Unknown API routes answer like NestJS: `Cannot GET /api/…`.
async fn unknown_route(_: Authed, req: Request) -> Response {
    let path = req.uri().path().to_string();
    let shown = path.strip_prefix("/daytona").unwrap_or(&path).to_string();
    model::api_error(
        StatusCode::NOT_FOUND,
        format!("Cannot {} {shown}", req.method()),
        &path,
    )
}

async fn get_settings(State(s): State<AppState>) -> axum::Json<Settings> {
    axum::Json(s.daytona.settings())
}

async fn put_settings(State(s): State<AppState>, body: axum::body::Bytes) -> Response {
    match serde_json::from_slice::<Settings>(&body) {
        Ok(new) => {
            *s.daytona.settings.lock().unwrap_or_else(|e| e.into_inner()) = new.clone();
            axum::Json(new).into_response()
        }
        Err(e) => (
            StatusCode::BAD_REQUEST,
            axum::Json(serde_json::json!({"detail": format!("not a settings document: {e}")})),
        )
            .into_response(),
    }
}
