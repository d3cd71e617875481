//! The built-in emulator: Devin fleet API, connect page and remote distribution; Daytona REST
//! and toolbox; CoreWeave gRPC — all on one loopback port.
//!
//! Every request passes one middleware that applies the fault script and appends to the request
//! log (`GET /_emulator/requests`, and `requests.jsonl` in the data dir). Admin routes live under
//! `/_emulator/`.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result};
use axum::Router;
use axum::body::Body;
use axum::extract::{Query, Request, State};
use axum::http::{HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::{Deserialize, Serialize};

pub mod client;
pub mod coreweave;
pub mod daytona;
pub mod devin;
pub mod devin_cli;
pub mod faults;
pub mod file_faults;
pub mod fleet_stats;
pub mod journal;
pub mod sandboxes;
pub mod simulated;

use faults::{FaultAction, FaultRule, Faults};

/// How to run an emulator.
#[derive(Debug, Clone)]
pub struct EmulatorOptions {
    /// 0 picks a free port.
    pub port: u16,
    /// Where sandboxes and the request log live; a temporary directory when `None`.
    pub data_dir: Option<PathBuf>,
    /// Persist the Devin queue here and load it at start.
    pub state_file: Option<PathBuf>,
    pub faults: Vec<FaultRule>,
    pub seed: u64,
    /// Claim lifetime (the real service uses about 5 minutes).
    pub claim_ttl: Duration,
    /// Longest a watch stream stays open before the server ends it.
    pub max_stream: Duration,
    /// Interval of `: keepalive` comments on idle watch streams.
    pub keepalive: Duration,
    /// How long a released suspended/terminated row lingers before it is swept (tombstoned).
    pub sweep_delay: Duration,
    /// What the remote distribution serves under the Linux names.
    pub remote_form: devin::remote::RemoteForm,
    /// Which Windows daemon a Windows sandbox's toolbox follows.
    pub windows_daemon: daytona::windows_daemon::WindowsDaemon,
    /// How `GET /opbeta/outposts/{id}` answers: the get-one route is documented but absent from
    /// Cognition's model of the server (specs/devin-outposts-api.md §5.6).
    pub outpost_get_route: OutpostGetRoute,
    /// The `gateway_url` claim answers carry instead of the emulator's own gateway (e.g. a URL
    /// the fake remote cannot use, so it exits 2 at once).
    pub gateway_url: Option<String>,
    /// Most rows one queue page serves, whatever `first` asks (`None`: as asked).
    pub page_size: Option<usize>,
    /// A watch replays rows changed this long before its cursor (the model: 50 ms).
    pub watch_replay: Duration,
    /// Daytona `creating` → `started` (`None`: the settings' default).
    pub daytona_create_delay: Option<Duration>,
    /// Daytona `starting` → `started` (`None`: the settings' default).
    pub daytona_start_delay: Option<Duration>,
    /// Simulated sandboxes (records only, no process per sandbox); `None`: process-backed.
    pub simulated: Option<simulated::SimOptions>,
}

/// The get-one outpost route: served, or absent as a FastAPI server answers for a path it does
/// not route (404) or a method it does not route on that path (405).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OutpostGetRoute {
    #[default]
    Served,
    NotFound,
    MethodNotAllowed,
}

impl Default for EmulatorOptions {
    fn default() -> Self {
        EmulatorOptions {
            port: 0,
            data_dir: None,
            state_file: None,
            faults: Vec::new(),
            seed: 0,
            claim_ttl: Duration::from_secs(300),
            max_stream: Duration::from_secs(300),
            keepalive: Duration::from_secs(15),
            sweep_delay: Duration::from_secs(5),
            remote_form: devin::remote::RemoteForm::Binary,
            windows_daemon: daytona::windows_daemon::WindowsDaemon::Legacy,
            outpost_get_route: OutpostGetRoute::Served,
            gateway_url: None,
            page_size: None,
            watch_replay: Duration::from_millis(50),
            daytona_create_delay: None,
            daytona_start_delay: None,
            simulated: None,
        }
    }
}

/// One logged request.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RequestRecord {
    pub seq: u64,
    /// Unix time in milliseconds when the request arrived.
    pub at_ms: u64,
    pub method: String,
    pub path: String,
    pub query: Option<String>,
    pub status: u16,
    /// Which emulated API served it.
    pub api: Api,
    /// The request body, truncated to 4 KiB (credentials in headers are never logged). gRPC
    /// bodies are not logged, except CoreWeave `CreateSandbox`'s network options, as JSON
    /// `{"network": {"deny_egress", "dns_egress", "egress": [{"cidr"}|{"https_hostname"}]}}`
    /// (`{"network": null}` when it has none).
    pub body: Option<String>,
    /// The fault applied, if any.
    pub fault: Option<String>,
    /// Microseconds from the request's arrival to its response's head (a stream's start).
    #[serde(default)]
    pub took_us: u64,
    /// The whole exchange, kept for Daytona routes (not with simulated sandboxes) so tests can validate requests and
    /// responses against the official OpenAPI files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exchange: Option<Exchange>,
}

/// Full request and response of one call (bodies up to [`EXCHANGE_BODY_LIMIT`], lossy UTF-8;
/// credentials masked; streamed and binary response bodies are not kept).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Exchange {
    pub request_headers: std::collections::BTreeMap<String, String>,
    pub request_body: Option<String>,
    pub response_content_type: Option<String>,
    pub response_body: Option<String>,
}

/// Largest body an [`Exchange`] keeps.
pub const EXCHANGE_BODY_LIMIT: usize = 1024 * 1024;

fn masked_headers(headers: &axum::http::HeaderMap) -> std::collections::BTreeMap<String, String> {
    headers
        .iter()
        .map(|(k, v)| {
            let value = match k.as_str() {
                "authorization" | "proxy-authorization" => {
                    let v = v.to_str().unwrap_or_default();
                    match v.split_once(' ') {
                        Some((scheme, _)) => format!("{scheme} [REDACTED]"),
                        None => "[REDACTED]".into(),
                    }
                }
                "cookie" => "[REDACTED]".into(),
                _ => String::from_utf8_lossy(v.as_bytes()).into_owned(),
            };
            (k.as_str().to_string(), value)
        })
        .collect()
}

/// The request log, in memory and as JSON lines on disk.
#[derive(Debug)]
pub struct RequestLog {
    records: Mutex<Vec<RequestRecord>>,
    file: Mutex<Option<std::fs::File>>,
}

impl RequestLog {
    fn new(path: Option<PathBuf>) -> Self {
        let file = path.and_then(|p| {
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .ok()
        });
        RequestLog {
            records: Mutex::new(Vec::new()),
            file: Mutex::new(file),
        }
    }

    fn push(&self, mut rec: RequestRecord) {
        let mut records = self.records.lock().unwrap_or_else(|e| e.into_inner());
        rec.seq = records.len() as u64 + 1;
        if let Some(f) = self.file.lock().unwrap_or_else(|e| e.into_inner()).as_mut()
            && let Ok(line) = serde_json::to_string(&rec)
        {
            use std::io::Write;
            let _ = writeln!(f, "{line}");
        }
        records.push(rec);
    }

    /// The newest record's sequence number (0: none yet).
    pub fn last_seq(&self) -> u64 {
        self.records.lock().unwrap_or_else(|e| e.into_inner()).len() as u64
    }

    /// Visit the records with `seq > since` without copying them.
    pub fn each_since(&self, since: u64, mut f: impl FnMut(&RequestRecord)) {
        let records = self.records.lock().unwrap_or_else(|e| e.into_inner());
        records.iter().skip(since as usize).for_each(&mut f);
    }

    /// Records with `seq > since`.
    pub fn since(&self, since: u64) -> Vec<RequestRecord> {
        let records = self.records.lock().unwrap_or_else(|e| e.into_inner());
        records.iter().filter(|r| r.seq > since).cloned().collect()
    }
}

/// State shared by every handler.
pub struct Shared {
    pub opts: EmulatorOptions,
    pub base_url: String,
    pub data_dir: PathBuf,
    pub log: RequestLog,
    pub faults: Faults,
    pub devin: devin::DevinEmu,
    pub sandboxes: sandboxes::Sandboxes,
    pub daytona: daytona::DaytonaEmu,
    pub coreweave: coreweave::CoreweaveEmu,
    /// Host directory of the fake `devin` CLI (`devin_cli`), when it could be written.
    pub devin_cli: Option<PathBuf>,
    /// Committed sandbox mutations (`GET /_emulator/mutations`).
    pub journal: journal::Journal,
    /// Files to lose or alter on a sandbox's next start (`/_emulator/file-faults`).
    pub file_faults: file_faults::FileFaults,
}

pub type AppState = Arc<Shared>;

/// What a client needs to point at the emulator (`emulator env`, `GET /_emulator/info`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Info {
    pub base_url: String,
    /// `export` pairs for every client setting, in print order.
    pub env: Vec<(String, String)>,
    pub data_dir: PathBuf,
}

/// A running emulator.
pub struct Emulator {
    pub shared: AppState,
    pub addr: SocketAddr,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<()>>,
    _tempdir: Option<tempfile::TempDir>,
}

impl Emulator {
    /// Bind 127.0.0.1 and serve in the background.
    pub async fn start(opts: EmulatorOptions) -> Result<Emulator> {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", opts.port))
            .await
            .with_context(|| format!("cannot listen on 127.0.0.1:{}", opts.port))?;
        let addr = listener.local_addr()?;
        let base_url = format!("http://127.0.0.1:{}", addr.port());
        let (data_dir, tempdir) = match &opts.data_dir {
            Some(d) => {
                std::fs::create_dir_all(d)
                    .with_context(|| format!("cannot create {}", d.display()))?;
                (d.clone(), None)
            }
            None => {
                let t = tempfile::Builder::new()
                    .prefix("outposts-emulator-")
                    .tempdir()?;
                (t.path().to_path_buf(), Some(t))
            }
        };
        let devin = devin::DevinEmu::new(&opts, &base_url)?;
        let mut sandboxes = sandboxes::Sandboxes::new(&data_dir.join("sandboxes"))?;
        if let Some(sim) = &opts.simulated {
            sandboxes = sandboxes.simulate(sim.clone());
        }
        let daytona = daytona::DaytonaEmu::new(&opts, &base_url)?;
        let coreweave = coreweave::CoreweaveEmu::new(&opts, &base_url)?;
        let devin_cli = devin_cli::install(&data_dir)
            .map_err(|e| tracing::warn!("no fake devin CLI for sandboxes: {e:#}"))
            .ok();
        let shared = Arc::new(Shared {
            devin_cli,
            log: RequestLog::new(Some(data_dir.join("requests.jsonl"))),
            faults: Faults::seeded(opts.faults.clone(), opts.seed),
            devin,
            sandboxes,
            daytona,
            coreweave,
            journal: journal::Journal::default(),
            file_faults: Default::default(),
            base_url: base_url.clone(),
            data_dir,
            opts,
        });
        if shared.sandboxes.sim().is_some() {
            tokio::spawn(simulated::run_gateway(Arc::downgrade(&shared)));
        }
        let app = router(shared.clone());
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            let serve =
                axum::serve(listener, app.into_make_service()).with_graceful_shutdown(async {
                    let _ = rx.await;
                });
            if let Err(e) = serve.await {
                tracing::error!("emulator server stopped: {e}");
            }
        });
        Ok(Emulator {
            shared,
            addr,
            shutdown: Some(tx),
            task: Some(task),
            _tempdir: tempdir,
        })
    }

    pub fn base_url(&self) -> &str {
        &self.shared.base_url
    }

    pub fn info(&self) -> Info {
        info(&self.shared)
    }

    /// Stop serving and wait (briefly) for open connections.
    pub async fn stop(mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(task) = self.task.take() {
            // Watch streams hold connections open; do not wait for them forever.
            let _ = tokio::time::timeout(Duration::from_secs(2), task).await;
        }
        self.shared.devin.persist();
        self.shared.sandboxes.shutdown().await;
    }
}

pub fn info(shared: &Shared) -> Info {
    let mut env = Vec::new();
    env.extend(shared.devin.env_pairs(&shared.base_url));
    env.extend(shared.daytona.env_pairs(&shared.base_url));
    env.extend(shared.coreweave.env_pairs(&shared.base_url));
    // So that `emulator session …` and `emulator status` after `eval "$(outposts emulator env)"`
    // reach this emulator, not the default port.
    if let Some(port) = url::Url::parse(&shared.base_url)
        .ok()
        .and_then(|u| u.port_or_known_default())
    {
        env.push(("OUTPOSTS_EMULATOR_PORT".into(), port.to_string()));
    }
    if let Some(dir) = &shared.devin_cli {
        env.push((
            "OUTPOSTS_DEVIN_CLI_DIR".into(),
            dir.to_string_lossy().into_owned(),
        ));
    }
    Info {
        base_url: shared.base_url.clone(),
        env,
        data_dir: shared.data_dir.clone(),
    }
}

fn router(shared: AppState) -> Router {
    Router::new()
        .merge(devin::router())
        .merge(daytona::router())
        .merge(coreweave::router())
        .route("/_emulator/info", get(info_handler))
        .route("/_emulator/requests", get(requests_handler))
        .route(
            "/_emulator/faults",
            get(faults_list).post(faults_add).delete(faults_clear),
        )
        .route(
            "/_emulator/file-faults",
            get(file_faults_list)
                .post(file_faults_add)
                .delete(file_faults_clear),
        )
        .route("/_emulator/mutations", get(mutations_handler))
        .route("/_emulator/secrets", get(secrets_handler))
        .route("/_emulator/fleet", get(fleet_stats::handler))
        .fallback(not_found)
        .layer(axum::middleware::from_fn_with_state(
            shared.clone(),
            record_and_fault,
        ))
        .with_state(shared)
}

async fn not_found(req: Request) -> Response {
    let path = req.uri().path().to_string();
    if path.starts_with("/opbeta") || path.starts_with("/outposts") {
        return (
            StatusCode::NOT_FOUND,
            axum::Json(serde_json::json!({"detail": "Not Found"})),
        )
            .into_response();
    }
    (StatusCode::NOT_FOUND, axum::Json(serde_json::json!({"statusCode": 404, "error": "Not Found", "message": format!("Cannot {} {}", req.method(), path)})))
        .into_response()
}

async fn file_faults_list(State(s): State<AppState>) -> axum::Json<Vec<file_faults::FileFault>> {
    axum::Json(s.file_faults.list())
}

async fn file_faults_add(State(s): State<AppState>, body: String) -> Response {
    match file_faults::parse(&body) {
        Ok(faults) => {
            let n = faults.len();
            s.file_faults.add(faults);
            axum::Json(serde_json::json!({"added": n})).into_response()
        }
        Err(e) => (
            StatusCode::BAD_REQUEST,
            axum::Json(serde_json::json!({"detail": e})),
        )
            .into_response(),
    }
}

async fn file_faults_clear(State(s): State<AppState>) -> StatusCode {
    s.file_faults.clear();
    StatusCode::NO_CONTENT
}

async fn info_handler(State(s): State<AppState>) -> axum::Json<Info> {
    axum::Json(info(&s))
}

#[derive(Deserialize)]
struct SinceQuery {
    #[serde(default)]
    since: u64,
}

async fn requests_handler(
    State(s): State<AppState>,
    Query(q): Query<SinceQuery>,
) -> axum::Json<Vec<RequestRecord>> {
    axum::Json(s.log.since(q.since))
}

async fn mutations_handler(State(s): State<AppState>) -> axum::Json<Vec<journal::Mutation>> {
    axum::Json(s.journal.all())
}

/// Every credential the emulator issued (API tokens, connect tokens, Daytona keys): the list a
/// test greps logs, argv and state files for. Loopback admin route, like `/_emulator/info`.
async fn secrets_handler(State(s): State<AppState>) -> axum::Json<Vec<String>> {
    let mut all = s.devin.issued_secrets();
    all.extend(s.daytona.keys());
    axum::Json(all)
}

async fn faults_list(State(s): State<AppState>) -> axum::Json<Vec<FaultRule>> {
    axum::Json(s.faults.rules())
}

async fn faults_add(State(s): State<AppState>, body: String) -> Response {
    match faults::parse_spec(&body) {
        Ok(rules) => {
            let n = rules.len();
            s.faults.add(rules);
            axum::Json(serde_json::json!({"added": n})).into_response()
        }
        Err(e) => (
            StatusCode::BAD_REQUEST,
            axum::Json(serde_json::json!({"detail": e.to_string()})),
        )
            .into_response(),
    }
}

async fn faults_clear(State(s): State<AppState>) -> StatusCode {
    s.faults.clear();
    StatusCode::NO_CONTENT
}

/// Which emulated API served a request (the request log's `api`, lowercase on the wire).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Api {
    /// `/_emulator/…`: the emulator's own admin routes.
    Admin,
    /// The fleet API (`/opbeta/…`) and the connection-token exchange.
    Devin,
    /// The app pages (the connect page).
    App,
    /// The remote distribution.
    Static,
    /// The gateway the fake remote talks to.
    Gateway,
    Daytona,
    Coreweave,
    Other,
}

impl Api {
    /// The API a path belongs to.
    pub fn of(path: &str) -> Api {
        if path.starts_with("/_emulator") {
            Api::Admin
        } else if path.starts_with("/opbeta") || path.starts_with("/outposts/connection-token") {
            Api::Devin
        } else if path.starts_with("/outposts") {
            Api::App
        } else if path.starts_with("/static") {
            Api::Static
        } else if path.starts_with("/gateway") {
            Api::Gateway
        } else if path.starts_with("/daytona") {
            Api::Daytona
        } else if path.starts_with("/coreweave.") {
            Api::Coreweave
        } else {
            Api::Other
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Api::Admin => "admin",
            Api::Devin => "devin",
            Api::App => "app",
            Api::Static => "static",
            Api::Gateway => "gateway",
            Api::Daytona => "daytona",
            Api::Coreweave => "coreweave",
            Api::Other => "other",
        }
    }
}

impl std::fmt::Display for Api {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Tests filter the log by name (`r.api == "daytona"`).
impl PartialEq<&str> for Api {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

const LOG_BODY_LIMIT: usize = 4096;
const MAX_REQUEST_BODY: usize = 64 * 1024 * 1024;

async fn record_and_fault(State(s): State<AppState>, req: Request, next: Next) -> Response {
    let at_ms = now_ms();
    let started = std::time::Instant::now();
    let method = req.method().to_string();
    let path = req.uri().path().to_string();
    let query = req.uri().query().map(str::to_string);
    let api = Api::of(&path);
    let is_grpc = req
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|c| c.starts_with("application/grpc"));
    // Not with simulated sandboxes: a fleet of them would keep every answer (the janitor's
    // lists of thousands of sandboxes among them) in memory for the life of the emulator.
    let mut exchange = (api == Api::Daytona && s.opts.simulated.is_none()).then(|| Exchange {
        request_headers: masked_headers(req.headers()),
        ..Exchange::default()
    });
    // gRPC bodies are streams and binary; log them without reading — except a CoreWeave
    // create (unary, small), whose network options are logged as JSON for tests to assert on.
    let mut body_bytes = None;
    let (req, body_text) = if is_grpc && path == coreweave::CREATE_PATH {
        let (parts, body) = req.into_parts();
        let bytes = axum::body::to_bytes(body, MAX_REQUEST_BODY)
            .await
            .unwrap_or_default();
        let text = coreweave::logged_create(&bytes);
        (Request::from_parts(parts, Body::from(bytes)), text)
    } else if is_grpc || api == Api::Admin {
        (req, None)
    } else {
        let (parts, body) = req.into_parts();
        let bytes = axum::body::to_bytes(body, MAX_REQUEST_BODY)
            .await
            .unwrap_or_default();
        let text = (!bytes.is_empty()).then(|| {
            String::from_utf8_lossy(&bytes[..bytes.len().min(LOG_BODY_LIMIT)]).into_owned()
        });
        if let Some(x) = exchange.as_mut()
            && !bytes.is_empty()
        {
            x.request_body = Some(
                String::from_utf8_lossy(&bytes[..bytes.len().min(EXCHANGE_BODY_LIMIT)])
                    .into_owned(),
            );
        }
        let text = text.map(|t| devin::connect::scrub_logged_body(&path, t));
        body_bytes = Some(bytes.clone());
        (Request::from_parts(parts, Body::from(bytes)), text)
    };
    let action = if api == Api::Admin {
        None
    } else {
        s.faults
            .check_request(&method, &path, query.as_deref(), body_bytes.as_deref())
    };
    let fault_name = action.as_ref().map(|a| format!("{a:?}"));
    let response = with_fault(action, req, next).await;
    // JSON answers are small and complete: keep them for the exchange; never buffer streams.
    let response = match exchange.as_mut() {
        // A faulted response may be a deliberately broken stream: leave it alone.
        Some(x) => keep_response(x, response, fault_name.is_none()).await,
        None => response,
    };
    s.log.push(RequestRecord {
        exchange,
        seq: 0,
        at_ms,
        method,
        path,
        query,
        status: response.status().as_u16(),
        api,
        body: body_text,
        fault: fault_name,
        took_us: started.elapsed().as_micros() as u64,
    });
    response
}

/// Run the request through the handler with the fault `action` applied (`None`: untouched).
async fn with_fault(action: Option<FaultAction>, req: Request, next: Next) -> Response {
    match action {
        None => next.run(req).await,
        Some(FaultAction::Status {
            status,
            headers,
            body,
        }) => json_error(
            StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
            body.unwrap_or_else(|| default_error_body(status)),
            headers,
        ),
        Some(FaultAction::Body {
            status,
            content_type,
            body,
        }) => {
            let mut resp = Response::new(Body::from(body));
            *resp.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::OK);
            if let Ok(v) = HeaderValue::from_str(&content_type) {
                resp.headers_mut().insert("content-type", v);
            }
            resp
        }
        Some(FaultAction::Delay { ms }) => {
            tokio::time::sleep(Duration::from_millis(ms)).await;
            next.run(req).await
        }
        Some(FaultAction::CommitThenDrop) => {
            let resp = next.run(req).await;
            broken(resp.status(), 0)
        }
        Some(FaultAction::Reset) => broken(StatusCode::OK, 0),
        Some(FaultAction::Truncate { bytes }) => truncated(next.run(req).await, bytes).await,
        Some(FaultAction::CutStream { bytes }) => cut_stream(next.run(req).await, bytes),
        Some(FaultAction::CommitThenStatus { status, headers }) => {
            // The handler runs (and commits); its answer is replaced.
            let _ = next.run(req).await;
            json_error(
                StatusCode::from_u16(status).unwrap_or(StatusCode::GATEWAY_TIMEOUT),
                default_error_body(status),
                headers,
            )
        }
        Some(FaultAction::CommitThenDelay { ms }) => {
            let resp = next.run(req).await;
            tokio::time::sleep(Duration::from_millis(ms)).await;
            resp
        }
        Some(FaultAction::Stall { bytes, ms }) => stall(next.run(req).await, bytes, ms),
        Some(FaultAction::HugeLine { bytes }) => huge_line(bytes),
        Some(FaultAction::Rewrite { pairs }) => rewritten(next.run(req).await, &pairs).await,
    }
}
/// The first `bytes` of the answer's body, then a broken connection.
async fn truncated(resp: Response, bytes: usize) -> Response {
    let status = resp.status();
    let body = axum::body::to_bytes(resp.into_body(), MAX_REQUEST_BODY)
        .await
        .unwrap_or_default();
    let keep = body.slice(..bytes.min(body.len()));
    let stream = futures::stream::iter(vec![
        Ok::<_, std::io::Error>(keep),
        Err(std::io::Error::other("truncated by fault")),
    ]);
    let mut r = Response::new(Body::from_stream(stream));
    *r.status_mut() = status;
    r.headers_mut()
        .insert("content-type", HeaderValue::from_static("application/json"));
    r
}

/// The answer with every `from` in its body replaced by its `to`.
async fn rewritten(resp: Response, pairs: &[(String, String)]) -> Response {
    let (mut parts, body) = resp.into_parts();
    let bytes = axum::body::to_bytes(body, MAX_REQUEST_BODY)
        .await
        .unwrap_or_default();
    let mut text = String::from_utf8_lossy(&bytes).into_owned();
    for (from, to) in pairs {
        text = text.replace(from, to);
    }
    parts.headers.remove("content-length");
    Response::from_parts(parts, Body::from(text))
}

/// A JSON error answer with the fault's extra headers (unparseable ones skipped).
fn json_error(
    status: StatusCode,
    body: String,
    headers: std::collections::BTreeMap<String, String>,
) -> Response {
    let mut resp = Response::new(Body::from(body));
    *resp.status_mut() = status;
    resp.headers_mut()
        .insert("content-type", HeaderValue::from_static("application/json"));
    for (k, v) in headers {
        if let (Ok(n), Ok(v)) = (
            axum::http::HeaderName::from_bytes(k.as_bytes()),
            HeaderValue::from_str(&v),
        ) {
            resp.headers_mut().insert(n, v);
        }
    }
    resp
}

/// Note `response`'s content type in the exchange, and its body when it is JSON and `whole`.
async fn keep_response(x: &mut Exchange, response: Response, whole: bool) -> Response {
    let ctype = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    x.response_content_type = ctype.clone();
    if !(whole
        && ctype
            .as_deref()
            .is_some_and(|c| c.starts_with("application/json")))
    {
        return response;
    }
    let (parts, body) = response.into_parts();
    let bytes = axum::body::to_bytes(body, MAX_REQUEST_BODY)
        .await
        .unwrap_or_default();
    x.response_body =
        Some(String::from_utf8_lossy(&bytes[..bytes.len().min(EXCHANGE_BODY_LIMIT)]).into_owned());
    Response::from_parts(parts, Body::from(bytes))
}

/// Pass a (streaming) body through, then break the connection after `limit` bytes.
fn cut_stream(resp: Response, limit: usize) -> Response {
    use futures::StreamExt;
    enum Cut {
        Passing(axum::body::BodyDataStream, usize),
        Failing,
        Done,
    }
    let (parts, body) = resp.into_parts();
    let stream = futures::stream::unfold(
        Cut::Passing(body.into_data_stream(), limit),
        |state| async move {
            match state {
                Cut::Passing(_, 0) | Cut::Failing => {
                    // Let the server flush what it sent, so the break lands mid-stream.
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    Some((Err(std::io::Error::other("stream cut by fault")), Cut::Done))
                }
                Cut::Passing(mut s, left) => match s.next().await {
                    Some(Ok(chunk)) if chunk.len() < left => {
                        let left = left - chunk.len();
                        Some((Ok(chunk), Cut::Passing(s, left)))
                    }
                    Some(Ok(chunk)) => Some((Ok(chunk.slice(..left)), Cut::Failing)),
                    Some(Err(e)) => Some((Err(std::io::Error::other(e.to_string())), Cut::Done)),
                    None => None,
                },
                Cut::Done => None,
            }
        },
    );
    Response::from_parts(parts, Body::from_stream(stream))
}

/// Pass `limit` bytes of a (streaming) body through, then go silent for `ms` (0: for as long as
/// the client stays), then break the connection.
fn stall(resp: Response, limit: usize, ms: u64) -> Response {
    use futures::StreamExt;
    let (parts, body) = resp.into_parts();
    let stream = futures::stream::unfold(
        (Some(body.into_data_stream()), limit),
        move |(inner, left)| async move {
            let mut s = inner?;
            if left == 0 {
                let wait = if ms == 0 { u64::MAX / 4 } else { ms };
                tokio::time::sleep(Duration::from_millis(wait)).await;
                return Some((
                    Err(std::io::Error::other("stream stalled by fault")),
                    (None, 0),
                ));
            }
            match s.next().await {
                Some(Ok(chunk)) if chunk.len() < left => {
                    let left = left - chunk.len();
                    Some((Ok(chunk), (Some(s), left)))
                }
                Some(Ok(chunk)) => Some((Ok(chunk.slice(..left)), (Some(s), 0))),
                Some(Err(e)) => Some((Err(std::io::Error::other(e.to_string())), (None, 0))),
                None => None,
            }
        },
    );
    Response::from_parts(parts, Body::from_stream(stream))
}

/// An event stream whose first line is a `data:` line of `bytes` bytes, produced lazily.
fn huge_line(bytes: usize) -> Response {
    use futures::StreamExt;
    const CHUNK: usize = 64 * 1024;
    let head = futures::stream::iter(vec![Ok::<_, std::io::Error>(bytes::Bytes::from_static(
        b"data: ",
    ))]);
    let filler = bytes::Bytes::from(vec![b'x'; CHUNK]);
    let body = futures::stream::unfold(bytes, move |left| {
        let filler = filler.clone();
        async move {
            if left == 0 {
                return None;
            }
            let n = left.min(CHUNK);
            Some((Ok(filler.slice(..n)), left - n))
        }
    });
    let tail = futures::stream::iter(vec![Ok(bytes::Bytes::from_static(b"\n\n"))]);
    let mut r = Response::new(Body::from_stream(head.chain(body).chain(tail)));
    r.headers_mut().insert(
        "content-type",
        HeaderValue::from_static("text/event-stream"),
    );
    r
}

/// A response whose body fails at once: the client sees the connection break.
fn broken(status: StatusCode, _after: usize) -> Response {
    let stream = futures::stream::iter(vec![Err::<bytes::Bytes, _>(std::io::Error::other(
        "connection dropped by fault",
    ))]);
    let mut r = Response::new(Body::from_stream(stream));
    *r.status_mut() = status;
    // A declared length the body never delivers makes the break unmistakable.
    r.headers_mut()
        .insert("content-length", HeaderValue::from_static("1024"));
    r
}

fn default_error_body(status: u16) -> String {
    let reason = StatusCode::from_u16(status)
        .ok()
        .and_then(|s| s.canonical_reason())
        .unwrap_or("Error");
    serde_json::json!({"detail": reason}).to_string()
}
