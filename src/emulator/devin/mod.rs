//! Devin half of the emulator: the fleet API (queue, claims, watch, outposts), the remote
//! distribution, the fake remote's gateway, and the admin API that plays Devin's "brain".
//!
//! Routes:
//! - `/opbeta/outposts/devins[/{id}[/claim|/release]]`, `?watch=true` SSE — `fleet.rs`, `watch.rs`
//! - `/opbeta/outposts[/{id}]` and the documented doubled path `/opbeta/outposts/outposts[/{id}]`
//! - `/static/devin-rs/remote/{file}` — `remote.rs`
//! - `/gateway`, `/gateway/{connect,next,result}` — `gateway.rs`, protocol in `tasks.rs`
//! - `/_emulator/sessions…`, `/_emulator/history`, `/_emulator/outposts` — `admin.rs`
//! - `/v3[beta1]/organizations/{org}/sessions…`, `…/default-platform` — `v3.rs`, `v3_state.rs`
//! - `/outposts/connect` (page), `/outposts/connection-token`, `/_emulator/tokens` — `connect.rs`
//!
//! Extension point for the connect flow (built separately): add its routes (`GET
//! /outposts/connect`, `POST /outposts/connection-token`) in a sibling module and merge them in
//! [`router`]; a successful exchange creates the outpost with [`DevinEmu::create_outpost`] and
//! issues the service user's token with [`DevinEmu::issue_token`] (scope [`Scope::Machine`]).
//!
//! All state lives in one [`Queue`] behind one mutex, so claims are atomic. Every mutation wakes
//! watch streams and gateway long polls; a background tick (every 200 ms) ends blips and sweeps
//! ended rows even when nobody reads. Claims expire lazily, only when rows are read or claimed
//! (as in Cognition's model of the server).

use std::path::PathBuf;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use anyhow::Context;
use axum::Router;
use serde_json::Value;

use super::{AppState, EmulatorOptions};

mod admin;
pub mod connect;
mod fleet;
mod gateway;
mod index;
mod lifecycle;
mod outposts;
mod queue;
pub mod remote;
mod sim_gateway;
mod state;
mod tasks;
mod v3;
mod v3_default;
mod v3_state;
mod v3_usage;
mod watch;

pub use lifecycle::{NewSession, SessionInfo, SessionView};
pub use sim_gateway::SimPoll;
pub use state::{HistoryRecord, Micros, Queue, Refusal, Scope, Status};
pub use tasks::{Plan, TaskInfo, plan_task};

struct Core {
    queue: Mutex<Queue>,
    changes: tokio::sync::watch::Sender<u64>,
    claim_ttl: Duration,
    sweep_delay: Duration,
    keepalive: Duration,
    max_stream: Duration,
    gateway_url: String,
    state_file: Option<PathBuf>,
    first_outpost: String,
    outpost_get_route: super::OutpostGetRoute,
    /// Most rows one list page serves, whatever `first` asks.
    page_size: Option<usize>,
    /// How far before its cursor a watch starts replaying.
    watch_replay: Duration,
}

/// The Devin half's state. Cheap to clone.
#[derive(Clone)]
pub struct DevinEmu {
    core: Arc<Core>,
}

impl DevinEmu {
    /// Loads `opts.state_file` when it exists; otherwise starts with one outpost, one machine
    /// token and one orchestrator token.
    pub fn new(opts: &EmulatorOptions, base_url: &str) -> anyhow::Result<Self> {
        let queue = match &opts.state_file {
            Some(path) if path.exists() => {
                let text = std::fs::read_to_string(path).with_context(|| {
                    format!("cannot read the emulator state {}", path.display())
                })?;
                let q: Queue = serde_json::from_str(&text).with_context(|| {
                    format!(
                        "the emulator state {} is not a saved queue (move it away to start fresh)",
                        path.display()
                    )
                })?;
                q
            }
            _ => Queue::fresh(state::now_us()),
        };
        for t in &queue.tokens {
            crate::secrets::register(&t.token);
        }
        for k in &queue.v3.keys {
            crate::secrets::register(&k.key);
        }
        let first_outpost = queue
            .outposts
            .first()
            .map(|o| o.outpost_id.clone())
            .unwrap_or_default();
        let gateway_url = opts.gateway_url.clone().unwrap_or_else(|| {
            format!(
                "{}/gateway",
                base_url
                    .replacen("https://", "wss://", 1)
                    .replacen("http://", "ws://", 1)
            )
        });
        let (changes, _) = tokio::sync::watch::channel(0u64);
        let core = Arc::new(Core {
            queue: Mutex::new(queue),
            changes,
            claim_ttl: opts.claim_ttl,
            sweep_delay: opts.sweep_delay,
            keepalive: opts.keepalive.max(Duration::from_millis(10)),
            max_stream: opts.max_stream,
            gateway_url,
            state_file: opts.state_file.clone(),
            first_outpost,
            outpost_get_route: opts.outpost_get_route,
            page_size: opts.page_size,
            watch_replay: opts.watch_replay,
        });
        if let Ok(rt) = tokio::runtime::Handle::try_current() {
            rt.spawn(maintenance(Arc::downgrade(&core)));
        }
        Ok(DevinEmu { core })
    }

    pub fn env_pairs(&self, base_url: &str) -> Vec<(String, String)> {
        let (token, create, outpost, api_key, org) = self.with(|q, _| {
            (
                q.first_token(Scope::Machine)
                    .unwrap_or_default()
                    .to_string(),
                q.first_token(Scope::Orchestrator)
                    .unwrap_or_default()
                    .to_string(),
                q.outposts
                    .first()
                    .map(|o| o.outpost_id.clone())
                    .unwrap_or_else(|| self.core.first_outpost.clone()),
                q.v3.keys.first().map(|k| k.key.clone()).unwrap_or_default(),
                q.v3.org_id.clone(),
            )
        });
        vec![
            ("DEVIN_API_URL".into(), base_url.to_string()),
            ("DEVIN_APP_URL".into(), base_url.to_string()),
            (
                "DEVIN_WORKER_STATIC_BASE_URL".into(),
                format!("{base_url}/static/devin-rs/remote/"),
            ),
            ("DEVIN_OUTPOSTS_TOKEN".into(), token),
            ("OUTPOST_ID".into(), outpost),
            ("DEVIN_OUTPOST_CREATE_TOKEN".into(), create),
            ("DEVIN_API_KEY".into(), api_key),
            ("DEVIN_ORG_ID".into(), org),
        ]
    }

    /// Save the queue to `--state` (temp file + fsync + rename; mode 0600).
    pub fn persist(&self) {
        let Some(path) = &self.core.state_file else {
            return;
        };
        let snapshot = self.with(|q, _| q.clone());
        if let Err(e) = write_atomic(path, &snapshot) {
            tracing::error!(
                "cannot save the emulator state to {}: {e:#}",
                path.display()
            );
        }
    }

    /// Issue a new API token (extension point for the connect flow).
    pub fn issue_token(&self, scope: Scope, label: &str) -> String {
        let token = state::new_api_token();
        crate::secrets::register(&token);
        self.with(|q, _| {
            q.tokens.push(state::ApiToken {
                token: token.clone(),
                scope,
                label: label.to_string(),
            });
            q.mutations += 1;
        });
        token
    }

    /// Create an outpost (extension point for the connect flow); the wire object on success.
    pub fn create_outpost(
        &self,
        name: &str,
        platform: Option<&str>,
        description: Option<&str>,
    ) -> Result<Value, Refusal> {
        self.with(|q, now| q.create_outpost(name, platform, description, now))
    }

    /// Run `f` on the queue under the lock, after lazy maintenance; wakes watchers if anything
    /// changed.
    pub fn with<R>(&self, f: impl FnOnce(&mut Queue, Micros) -> R) -> R {
        let mut q = self.core.queue.lock().unwrap_or_else(|e| e.into_inner());
        let now = state::now_us();
        let before = q.mutations;
        q.maintain(now, self.core.sweep_delay.as_micros() as i64);
        let r = f(&mut q, now);
        let changed = q.mutations != before;
        drop(q);
        if changed {
            self.core.changes.send_modify(|v| *v = v.wrapping_add(1));
        }
        r
    }

    /// The queue's view of a session right now (after lazy maintenance, as every read).
    pub fn session_view(&self, session_id: &str) -> Option<SessionView> {
        self.with(|q, now| {
            q.expire_stale(now);
            q.session_view(session_id)
        })
    }

    /// Every secret the Devin half has issued: API tokens and connect tokens.
    pub fn issued_secrets(&self) -> Vec<String> {
        let q = self.core.queue.lock().unwrap_or_else(|e| e.into_inner());
        q.tokens
            .iter()
            .map(|t| t.token.clone())
            .chain(q.grants.keys().cloned())
            .chain(q.v3.keys.iter().map(|k| k.key.clone()))
            .collect()
    }

    fn subscribe(&self) -> tokio::sync::watch::Receiver<u64> {
        self.core.changes.subscribe()
    }

    fn claim_ttl_us(&self) -> i64 {
        self.core.claim_ttl.as_micros() as i64
    }

    fn page_size(&self, first: usize) -> usize {
        self.core
            .page_size
            .map_or(first, |cap| first.min(cap.max(1)))
    }

    fn watch_replay_us(&self) -> i64 {
        self.core.watch_replay.as_micros() as i64
    }

    fn outpost_get_route(&self) -> super::OutpostGetRoute {
        self.core.outpost_get_route
    }

    fn gateway_url(&self) -> &str {
        &self.core.gateway_url
    }
}

async fn maintenance(core: Weak<Core>) {
    // Not poll_until: the emulator's housekeeping tick, for as long as the emulator lives.
    loop {
        tokio::time::sleep(Duration::from_millis(200)).await;
        let Some(core) = core.upgrade() else {
            return;
        };
        DevinEmu { core }.with(|_, _| ());
    }
}

fn write_atomic(path: &std::path::Path, q: &Queue) -> anyhow::Result<()> {
    use std::io::Write;
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    std::fs::create_dir_all(dir)?;
    let mut tmp = tempfile::Builder::new()
        .prefix(".emulator-state-")
        .tempfile_in(dir)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o600))?;
    }
    tmp.write_all(&serde_json::to_vec_pretty(q)?)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path)?;
    Ok(())
}

pub fn router() -> Router<AppState> {
    Router::new()
        .merge(fleet::routes())
        .merge(admin::routes())
        .merge(gateway::routes())
        .merge(connect::routes())
        .merge(v3::routes())
        .route(
            "/static/devin-rs/remote/:file",
            axum::routing::get(remote::serve),
        )
}
