//! The one HTTP client: every byte `outposts` sends over HTTP goes through [`HttpClient`].
//!
//! - rustls, user agent `outposts/<version>`, connect and read timeouts; a total timeout only on
//!   short requests, never on streams.
//! - Bounded retries with full-jitter exponential backoff. Idempotent requests retry on
//!   transport errors and 5xx; every request retries on 429/502/503/504 and on connection
//!   failures that happened before the request was sent. 400/401/403/404/409/422 never retry.
//! - `Retry-After` (seconds or an HTTP date; Daytona's per-throttler `Retry-After-*` too) pauses
//!   *every* request to that host until it passes, clamped; garbage falls back to backoff.
//! - Typed [`ApiError`]s carrying wire facts (service, status, URL); the user's fix for each
//!   ("run `outposts connect`") is decided in `settings::advice`.
//! - Logs and errors are redacted by the tracing writer and the error printer.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use bytes::Bytes;
use rand::Rng;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use reqwest::{Method, StatusCode};
use serde::de::DeserializeOwned;

use super::telemetry::Answer;
use crate::secrets::{Secret, redact};

/// Who we are talking to, for messages (and, in `settings::advice`, the fix for a 401).
#[derive(Debug, PartialEq, Eq)]
pub struct ServiceInfo {
    pub name: &'static str,
    /// The `api` label of its metrics ([`super::telemetry`]).
    pub api: &'static str,
}

/// A pointer-sized handle to a [`ServiceInfo`], so errors stay small.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Service(pub &'static ServiceInfo);

impl std::ops::Deref for Service {
    type Target = ServiceInfo;
    fn deref(&self) -> &ServiceInfo {
        self.0
    }
}

pub const DEVIN: Service = Service(&ServiceInfo {
    name: "Devin API",
    api: "devin",
});
pub const DAYTONA: Service = Service(&ServiceInfo {
    name: "Daytona API",
    api: "daytona",
});
pub const COREWEAVE: Service = Service(&ServiceInfo {
    name: "CoreWeave Sandbox API",
    api: "coreweave",
});
pub const STATIC: Service = Service(&ServiceInfo {
    name: "remote binary server",
    api: "remote_download",
});
pub const EMULATOR: Service = Service(&ServiceInfo {
    name: "emulator",
    api: "emulator",
});

/// Largest response body we buffer (streams are read incrementally instead).
pub const MAX_BODY: usize = 16 * 1024 * 1024;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{} rejected the credentials (HTTP {status}): {message}", service.name)]
    Unauthorized {
        service: Service,
        status: u16,
        message: String,
    },
    #[error("{} has no such resource (HTTP 404): {message}", service.name)]
    NotFound { service: Service, message: String },
    #[error("{} reported a conflict (HTTP 409): {message}", service.name)]
    Conflict {
        service: Service,
        message: String,
        body: Option<serde_json::Value>,
    },
    #[error("{} kept rate limiting us (HTTP 429) after {attempts} attempts", service.name)]
    RateLimited {
        service: Service,
        attempts: u32,
        retry_after: Option<Duration>,
    },
    #[error("{} answered HTTP {status} to {method} {url}: {message}", service.name)]
    Status {
        service: Service,
        status: u16,
        method: String,
        url: String,
        message: String,
    },
    #[error("cannot reach {} at {url}: {detail}", service.name)]
    Transport {
        service: Service,
        url: String,
        detail: String,
    },
    #[error("{} sent a response we cannot read ({url}): {detail}", service.name)]
    Decode {
        service: Service,
        url: String,
        detail: String,
    },
    /// A value we refuse to put on the wire (e.g. an id that cannot be one URL path segment).
    #[error("cannot send this to {}: {detail}", service.name)]
    InvalidInput { service: Service, detail: String },
}

impl ApiError {
    pub fn status(&self) -> Option<u16> {
        match self {
            ApiError::Unauthorized { status, .. } | ApiError::Status { status, .. } => {
                Some(*status)
            }
            ApiError::NotFound { .. } => Some(404),
            ApiError::Conflict { .. } => Some(409),
            ApiError::RateLimited { .. } => Some(429),
            _ => None,
        }
    }

    pub fn is_auth(&self) -> bool {
        matches!(self, ApiError::Unauthorized { .. })
    }
}

/// Retry knobs (from `OUTPOSTS_HTTP_ATTEMPTS`; the rest are fixed).
#[derive(Debug, Clone)]
pub struct RetryPolicy {
    /// Attempts per request, the first included.
    pub attempts: u32,
    pub base: Duration,
    pub cap: Duration,
    /// Longest `Retry-After` we honour; larger values are clamped to this.
    pub retry_after_cap: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            attempts: 5,
            base: Duration::from_millis(250),
            cap: Duration::from_secs(30),
            retry_after_cap: Duration::from_secs(120),
        }
    }
}

impl RetryPolicy {
    /// Full jitter: uniform in [0, min(cap, base·2^n)].
    pub fn backoff(&self, retry: u32) -> Duration {
        let exp = self
            .base
            .saturating_mul(1u32.checked_shl(retry.min(20)).unwrap_or(u32::MAX));
        let ceiling = exp.min(self.cap);
        let ms = ceiling.as_millis() as u64;
        Duration::from_millis(if ms == 0 {
            0
        } else {
            rand::thread_rng().gen_range(0..=ms)
        })
    }
}

#[derive(Debug, Clone)]
pub struct HttpOptions {
    pub connect_timeout: Duration,
    pub read_timeout: Duration,
    /// Total deadline for ordinary (non-stream) requests.
    pub request_timeout: Duration,
    pub retry: RetryPolicy,
}

impl Default for HttpOptions {
    fn default() -> Self {
        HttpOptions {
            connect_timeout: Duration::from_secs(10),
            read_timeout: Duration::from_secs(30),
            request_timeout: Duration::from_secs(120),
            retry: RetryPolicy::default(),
        }
    }
}

/// The shared client. Cheap to clone.
#[derive(Clone)]
pub struct HttpClient {
    inner: reqwest::Client,
    opts: HttpOptions,
    /// Per host: no request before this instant (from `Retry-After`).
    pauses: Arc<Mutex<HashMap<String, Instant>>>,
}

#[derive(Debug, Clone)]
enum Body {
    None,
    Json(Vec<u8>),
    Form(String),
    Raw(Vec<u8>, String),
}

/// A request under construction. Bodies are buffered so that retries can resend them.
#[derive(Debug, Clone)]
pub struct ApiRequest {
    method: Method,
    url: String,
    service: Service,
    bearer: Option<Secret>,
    headers: Vec<(HeaderName, HeaderValue)>,
    query: Vec<(String, String)>,
    body: Body,
    timeout: Option<Duration>,
    retry_all: bool,
    max_body: usize,
    /// Error statuses handed back as responses (e.g. an OAuth endpoint's 400 body).
    pass: Vec<u16>,
}

impl ApiRequest {
    pub fn new(service: Service, method: Method, url: impl Into<String>) -> Self {
        ApiRequest {
            method,
            url: url.into(),
            service,
            bearer: None,
            headers: Vec::new(),
            query: Vec::new(),
            body: Body::None,
            timeout: None,
            retry_all: false,
            max_body: MAX_BODY,
            pass: Vec::new(),
        }
    }
    pub fn get(service: Service, url: impl Into<String>) -> Self {
        Self::new(service, Method::GET, url)
    }
    pub fn post(service: Service, url: impl Into<String>) -> Self {
        Self::new(service, Method::POST, url)
    }
    pub fn bearer(mut self, token: &Secret) -> Self {
        self.bearer = Some(token.clone());
        self
    }
    /// Add a header. Invalid names or values are dropped with a debug log, never a panic.
    pub fn header(mut self, name: &str, value: &str) -> Self {
        match (
            HeaderName::from_bytes(name.as_bytes()),
            HeaderValue::from_str(value),
        ) {
            (Ok(n), Ok(v)) => self.headers.push((n, v)),
            _ => tracing::debug!(header = name, "dropping a header that is not valid HTTP"),
        }
        self
    }
    pub fn query(mut self, key: &str, value: impl ToString) -> Self {
        self.query.push((key.to_string(), value.to_string()));
        self
    }
    pub fn json<T: serde::Serialize + ?Sized>(mut self, body: &T) -> Self {
        self.body = Body::Json(serde_json::to_vec(body).unwrap_or_default());
        self
    }
    pub fn form(mut self, fields: &[(&str, &str)]) -> Self {
        let mut ser = url::form_urlencoded::Serializer::new(String::new());
        for (k, v) in fields {
            ser.append_pair(k, v);
        }
        self.body = Body::Form(ser.finish());
        self
    }
    pub fn bytes(mut self, body: Vec<u8>, content_type: &str) -> Self {
        self.body = Body::Raw(body, content_type.to_string());
        self
    }
    /// Total deadline for this request (ignored by [`HttpClient::stream`]).
    pub fn timeout(mut self, t: Duration) -> Self {
        self.timeout = Some(t);
        self
    }
    /// Treat this non-idempotent request as safe to resend after a transport error or 500
    /// (e.g. a CAS claim: a resent claim by the same acceptor is a renewal).
    pub fn retry_always(mut self) -> Self {
        self.retry_all = true;
        self
    }
    /// Return these error statuses as ordinary responses instead of [`ApiError`]s, for callers
    /// that read a structured error body themselves (RFC 6749 `{"error": ...}`).
    pub fn pass_status(mut self, statuses: &[u16]) -> Self {
        self.pass.extend_from_slice(statuses);
        self
    }
    pub fn max_body(mut self, bytes: usize) -> Self {
        self.max_body = bytes;
        self
    }
    pub fn url(&self) -> &str {
        &self.url
    }

    fn idempotent(&self) -> bool {
        self.retry_all
            || matches!(
                self.method,
                Method::GET | Method::HEAD | Method::PUT | Method::DELETE | Method::OPTIONS
            )
    }

    /// The URL as logged: without its query string (which may carry codes or cursors).
    fn log_url(&self) -> String {
        strip_query(&self.url)
    }
}

/// A buffered response.
#[derive(Debug, Clone)]
pub struct ApiResponse {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Bytes,
    pub url: String,
    pub service: Service,
}

impl ApiResponse {
    /// Parse the body as JSON; HTML, empty or malformed bodies become [`ApiError::Decode`].
    /// Decoded straight from the bytes: a `Value` first doubled every answer's memory (a page
    /// of the queue or of sandboxes each, 256 answers at once in a burst).
    pub fn json<T: DeserializeOwned>(&self) -> Result<T, ApiError> {
        self.json_checked()?;
        serde_json::from_slice(&self.body).map_err(|e| match e.classify() {
            serde_json::error::Category::Data => {
                self.decode_error(format!("unexpected JSON shape: {e}"))
            }
            _ => self.malformed(&e),
        })
    }

    /// The body as a JSON value (for tolerant parsers).
    pub fn json_value(&self) -> Result<serde_json::Value, ApiError> {
        self.json_checked()?;
        serde_json::from_slice(&self.body).map_err(|e| self.malformed(&e))
    }

    fn malformed(&self, e: &serde_json::Error) -> ApiError {
        self.decode_error(format!("malformed JSON ({e}): {}", excerpt(&self.body)))
    }

    /// An empty body or an HTML page is no JSON, whatever parses of it.
    fn json_checked(&self) -> Result<(), ApiError> {
        let ctype = self
            .headers
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_ascii_lowercase();
        if self.body.iter().all(u8::is_ascii_whitespace) {
            return Err(self.decode_error("the body is empty, expected JSON".into()));
        }
        if ctype.contains("html") || looks_like_html(&self.body) {
            return Err(self.decode_error(format!(
                "expected JSON but got an HTML page ({})",
                excerpt(&self.body)
            )));
        }
        Ok(())
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    pub fn decode_error(&self, detail: String) -> ApiError {
        ApiError::Decode {
            service: self.service,
            url: strip_query(&self.url),
            detail,
        }
    }
}

/// A URL fit for logs and errors: without its query, where signed URLs carry their secrets.
fn strip_query(url: &str) -> String {
    url.split('?').next().unwrap_or_default().to_string()
}

fn looks_like_html(body: &[u8]) -> bool {
    let head: String = String::from_utf8_lossy(&body[..body.len().min(64)])
        .trim_start()
        .to_ascii_lowercase();
    head.starts_with("<!doctype")
        || head.starts_with("<html")
        || head.starts_with("<head")
        || head.starts_with("<body")
}

/// A short, printable, redacted excerpt of a body.
pub fn excerpt(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(&body[..body.len().min(400)]);
    let clean: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let clean = clean.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out: String = clean.chars().take(200).collect();
    if clean.chars().count() > 200 || body.len() > 400 {
        out.push('…');
    }
    redact(&out).into_owned()
}

/// A JSON value as one line of text: strings as they are, lists joined with `, ` (how NestJS
/// reports validation messages), `null` as nothing.
pub fn json_text(v: &serde_json::Value) -> Option<String> {
    match v {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Array(items) => Some(
            items
                .iter()
                .map(|i| {
                    i.as_str()
                        .map(str::to_string)
                        .unwrap_or_else(|| i.to_string())
                })
                .collect::<Vec<_>>()
                .join(", "),
        ),
        serde_json::Value::Null => None,
        other => Some(other.to_string()),
    }
}

/// The human message in an error body: FastAPI `detail`, NestJS `message`, OAuth
/// `error_description`/`error`, Connect `message`, else an excerpt.
pub fn error_message(body: &[u8]) -> (String, Option<serde_json::Value>) {
    if let Ok(v) = serde_json::from_slice::<serde_json::Value>(body) {
        let pick = |key: &str| v.get(key).and_then(json_text);
        let msg = pick("detail")
            .or_else(|| pick("error_description"))
            .or_else(|| pick("message"))
            .or_else(|| pick("error"));
        if let Some(m) = msg {
            return (redact(&m).chars().take(300).collect(), Some(v));
        }
        return (excerpt(body), Some(v));
    }
    if looks_like_html(body) {
        return ("an HTML error page".into(), None);
    }
    if body.is_empty() {
        return ("no details".into(), None);
    }
    (excerpt(body), None)
}

/// Parse `Retry-After`: delta-seconds or an HTTP date. `None` for garbage.
pub fn parse_retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let v = value.trim();
    if let Ok(secs) = v.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    if let Ok(secs) = v.parse::<f64>()
        && secs.is_finite()
        && secs >= 0.0
    {
        return Some(Duration::from_secs_f64(secs.min(1e9)));
    }
    let when = httpdate::parse_http_date(v).ok()?;
    Some(when.duration_since(now).unwrap_or(Duration::ZERO))
}

/// The longest wait any `Retry-After` or `Retry-After-<throttler>` header asks for.
fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let now = SystemTime::now();
    headers
        .iter()
        .filter(|(name, _)| {
            let n = name.as_str();
            n == "retry-after" || n.starts_with("retry-after-")
        })
        .filter_map(|(_, v)| v.to_str().ok().and_then(|s| parse_retry_after(s, now)))
        .max()
}

enum Done {
    Buffered(ApiResponse),
    Stream(reqwest::Response),
}

fn unreachable_stream(req: &ApiRequest) -> Result<ApiResponse, ApiError> {
    Err(ApiError::Transport {
        service: req.service,
        url: req.log_url(),
        detail: "internal: expected a buffered response".into(),
    })
}

enum Attempt {
    Done(Done),
    Retry { wait: Duration, error: ApiError },
    Fail(ApiError),
}

/// Idle connections kept per host: enough for the steady traffic of a large fleet (a few
/// requests at a time), not a burst's worth.
const IDLE_PER_HOST: usize = 16;

impl HttpClient {
    pub fn new(opts: HttpOptions) -> anyhow::Result<Self> {
        Self::build(opts, Arc::new(Mutex::new(HashMap::new())))
    }

    /// The same client with other options (e.g. a longer read timeout for long polls). It
    /// shares this client's `Retry-After` pauses: a host that asked us to wait is waited for by
    /// every request to it, whichever client sends it.
    pub fn with_options(&self, opts: HttpOptions) -> anyhow::Result<Self> {
        Self::build(opts, self.pauses.clone())
    }

    fn build(
        opts: HttpOptions,
        pauses: Arc<Mutex<HashMap<String, Instant>>>,
    ) -> anyhow::Result<Self> {
        let inner = reqwest::Client::builder()
            .user_agent(concat!("outposts/", env!("CARGO_PKG_VERSION")))
            .connect_timeout(opts.connect_timeout)
            .read_timeout(opts.read_timeout)
            // A burst runs up to 256 actions at once (the orchestrator's in-flight bound), each
            // on a connection with its own buffers (~25 KiB); an unbounded idle pool kept them
            // all after the burst — most of a 2,000-session replica's heap (issue 35).
            .pool_max_idle_per_host(IDLE_PER_HOST)
            .redirect(reqwest::redirect::Policy::custom(|attempt| {
                // Never carry credentials to another host: stop at cross-origin redirects.
                let same = attempt
                    .previous()
                    .first()
                    .map(|u| {
                        u.host_str() == attempt.url().host_str()
                            && u.port_or_known_default() == attempt.url().port_or_known_default()
                    })
                    .unwrap_or(false);
                if same && attempt.previous().len() < 5 {
                    attempt.follow()
                } else {
                    attempt.stop()
                }
            }))
            .build()
            .map_err(|e| anyhow::anyhow!("cannot build the HTTP client: {e}"))?;
        Ok(HttpClient {
            inner,
            opts,
            pauses,
        })
    }

    pub fn options(&self) -> &HttpOptions {
        &self.opts
    }

    /// Send and buffer the body. Non-2xx statuses become [`ApiError`]s.
    pub async fn send(&self, req: ApiRequest) -> Result<ApiResponse, ApiError> {
        match self.execute(&req, false).await? {
            Done::Buffered(resp) => Ok(resp),
            Done::Stream(_) => unreachable_stream(&req),
        }
    }

    /// Send and parse a JSON body.
    pub async fn send_json<T: DeserializeOwned>(&self, req: ApiRequest) -> Result<T, ApiError> {
        self.send(req).await?.json()
    }

    /// Open a streaming response (SSE, logs): retries happen only until the status line
    /// arrives; no total timeout, the read timeout still detects a stalled stream.
    pub async fn stream(&self, req: ApiRequest) -> Result<reqwest::Response, ApiError> {
        match self.execute(&req, true).await? {
            Done::Stream(resp) => Ok(resp),
            Done::Buffered(_) => Err(ApiError::Transport {
                service: req.service,
                url: req.log_url(),
                detail: "internal: expected a stream".into(),
            }),
        }
    }

    async fn execute(&self, req: &ApiRequest, streaming: bool) -> Result<Done, ApiError> {
        let attempts = self.opts.retry.attempts.max(1);
        let host = host_key(&req.url);
        let mut last_err = None;
        for attempt in 0..attempts {
            self.wait_for_host(&host).await;
            match self.attempt(req, streaming, attempt, attempts).await {
                Attempt::Done(resp) => return Ok(resp),
                Attempt::Fail(e) => return Err(e),
                Attempt::Retry { wait, error } => {
                    if attempt + 1 < attempts {
                        tracing::debug!(
                            wait_ms = wait.as_millis() as u64,
                            attempt = attempt + 1,
                            "retrying {} {}: {error}",
                            req.method,
                            req.log_url()
                        );
                        // Not poll_until: a retry of a failed request after its backoff (or
                        // Retry-After), not a wait for a state.
                        tokio::time::sleep(wait).await;
                    }
                    last_err = Some(error);
                }
            }
        }
        Err(match last_err {
            Some(ApiError::RateLimited {
                service,
                retry_after,
                ..
            }) => ApiError::RateLimited {
                service,
                attempts,
                retry_after,
            },
            Some(e) => e,
            None => ApiError::Transport {
                service: req.service,
                url: req.log_url(),
                detail: "no attempt was made".into(),
            },
        })
    }

    async fn attempt(
        &self,
        req: &ApiRequest,
        streaming: bool,
        attempt: u32,
        attempts: u32,
    ) -> Attempt {
        let builder = self.builder(req, streaming);
        let started = Instant::now();
        tracing::debug!("→ {} {}", req.method, req.log_url());
        let resp = match builder.send().await {
            Ok(r) => r,
            Err(e) => return self.unsent(req, &e, started, attempt),
        };
        let status = resp.status();
        self.record(req, Answer::Http(status.as_u16()), started);
        tracing::debug!(
            "← {} {} {} ({} ms)",
            status.as_u16(),
            req.method,
            req.log_url(),
            started.elapsed().as_millis()
        );
        if status.is_success()
            || status.is_informational()
            || status.is_redirection()
            || req.pass.contains(&status.as_u16())
        {
            return self.accepted(req, resp, streaming, attempt).await;
        }
        self.refused(req, resp, attempt, attempts).await
    }

    /// The request for one attempt: query, bearer, headers, body, timeout (none for a stream).
    fn builder(&self, req: &ApiRequest, streaming: bool) -> reqwest::RequestBuilder {
        let mut builder = self.inner.request(req.method.clone(), &req.url);
        if !req.query.is_empty() {
            builder = builder.query(&req.query);
        }
        if let Some(token) = &req.bearer {
            builder = builder.bearer_auth(token.expose());
        }
        for (n, v) in &req.headers {
            builder = builder.header(n.clone(), v.clone());
        }
        builder = match &req.body {
            Body::None => builder,
            Body::Json(b) => builder
                .header(reqwest::header::CONTENT_TYPE, "application/json")
                .body(b.clone()),
            Body::Form(f) => builder
                .header(
                    reqwest::header::CONTENT_TYPE,
                    "application/x-www-form-urlencoded",
                )
                .body(f.clone()),
            Body::Raw(b, ct) => builder
                .header(reqwest::header::CONTENT_TYPE, ct.as_str())
                .body(b.clone()),
        };
        if !streaming {
            builder = builder.timeout(req.timeout.unwrap_or(self.opts.request_timeout));
        }
        builder
    }

    /// The request never got an answer: retry it where resending is safe.
    fn unsent(
        &self,
        req: &ApiRequest,
        e: &reqwest::Error,
        started: Instant,
        attempt: u32,
    ) -> Attempt {
        self.record(req, Answer::Transport, started);
        let detail = describe_reqwest_error(e);
        tracing::debug!(
            "✗ {} {} after {} ms: {detail}",
            req.method,
            req.log_url(),
            started.elapsed().as_millis()
        );
        let error = ApiError::Transport {
            service: req.service,
            url: req.log_url(),
            detail,
        };
        // A failed connect never reached the server, so even a POST is safe to resend.
        let safe = req.idempotent() || e.is_connect();
        if safe {
            Attempt::Retry {
                wait: self.opts.retry.backoff(attempt),
                error,
            }
        } else {
            Attempt::Fail(error)
        }
    }

    /// An answer the caller takes: the stream itself, or the whole body (a body cut off mid-way
    /// is a transport failure: resend only what is safe).
    async fn accepted(
        &self,
        req: &ApiRequest,
        resp: reqwest::Response,
        streaming: bool,
        attempt: u32,
    ) -> Attempt {
        let status = resp.status();
        if streaming {
            return Attempt::Done(Done::Stream(resp));
        }
        let headers = resp.headers().clone();
        match read_capped(resp, req.max_body).await {
            Ok(body) => Attempt::Done(Done::Buffered(ApiResponse {
                status,
                headers,
                body,
                url: req.url.clone(),
                service: req.service,
            })),
            Err(detail) => {
                let error = ApiError::Decode {
                    service: req.service,
                    url: req.log_url(),
                    detail,
                };
                // A body cut off mid-way is a transport failure: resend only what is safe.
                if req.idempotent() {
                    Attempt::Retry {
                        wait: self.opts.retry.backoff(attempt),
                        error,
                    }
                } else {
                    Attempt::Fail(error)
                }
            }
        }
    }

    /// How long the server asked us to wait (Retry-After), capped; a 429 or 503 with one pauses
    /// every request to its host for that long.
    fn server_wait(&self, req: &ApiRequest, headers: &HeaderMap, code: u16) -> Option<Duration> {
        let asked = retry_after(headers);
        let cap = self.opts.retry.retry_after_cap;
        if let Some(w) = asked
            && w > cap
        {
            tracing::warn!(
                "{} asked us to wait {} s (Retry-After); waiting {} s instead (OUTPOSTS_RETRY_AFTER_CAP)",
                req.service.name,
                w.as_secs(),
                cap.as_secs()
            );
        }
        let server_wait = asked.map(|w| w.min(cap));
        if let Some(w) = server_wait
            && matches!(code, 429 | 503)
        {
            self.pause_host(&host_key(&req.url), w);
        }
        server_wait
    }

    /// An error status: the typed error, retried where the status and the method allow it
    /// (Retry-After honoured up to its cap, the host paused for a 429/503).
    async fn refused(
        &self,
        req: &ApiRequest,
        resp: reqwest::Response,
        attempt: u32,
        attempts: u32,
    ) -> Attempt {
        let status = resp.status();
        let headers = resp.headers().clone();
        let body = read_capped(resp, 64 * 1024).await.unwrap_or_default();
        let (message, json) = error_message(&body);
        let code = status.as_u16();
        let server_wait = self.server_wait(req, &headers, code);
        let service = req.service;
        match code {
            401 | 403 => Attempt::Fail(ApiError::Unauthorized {
                service,
                status: code,
                message,
            }),
            404 => Attempt::Fail(ApiError::NotFound { service, message }),
            409 => Attempt::Fail(ApiError::Conflict {
                service,
                message,
                body: json,
            }),
            429 => {
                if attempt + 1 >= attempts {
                    return Attempt::Fail(ApiError::RateLimited {
                        service,
                        attempts,
                        retry_after: server_wait,
                    });
                }
                // The host pause already holds us back for the server's wait.
                let wait = if server_wait.is_some() {
                    Duration::ZERO
                } else {
                    self.opts.retry.backoff(attempt)
                };
                Attempt::Retry {
                    wait,
                    error: ApiError::RateLimited {
                        service,
                        attempts,
                        retry_after: server_wait,
                    },
                }
            }
            502..=504 | 500 if code != 500 || req.idempotent() => {
                let error = ApiError::Status {
                    service,
                    status: code,
                    method: req.method.to_string(),
                    url: req.log_url(),
                    message,
                };
                let wait = if code == 503 && server_wait.is_some() {
                    Duration::ZERO
                } else {
                    self.opts.retry.backoff(attempt)
                };
                Attempt::Retry { wait, error }
            }
            _ => Attempt::Fail(ApiError::Status {
                service,
                status: code,
                method: req.method.to_string(),
                url: req.log_url(),
                message,
            }),
        }
    }

    /// Tell the telemetry observer about one attempt (until the status line, for streams).
    fn record(&self, req: &ApiRequest, answer: Answer, started: Instant) {
        if !super::telemetry::observing() {
            return;
        }
        super::telemetry::record(&super::telemetry::Exchange {
            api: req.service.api,
            operation: &super::telemetry::http_operation(req.method.as_str(), &req.url),
            answer,
            took: started.elapsed(),
        });
    }

    fn pause_host(&self, host: &str, wait: Duration) {
        let until = Instant::now() + wait;
        let mut p = self.pauses.lock().unwrap_or_else(|e| e.into_inner());
        let entry = p.entry(host.to_string()).or_insert(until);
        if *entry < until {
            *entry = until;
        }
        tracing::debug!(
            host,
            wait_ms = wait.as_millis() as u64,
            "server asked us to pause"
        );
    }

    async fn wait_for_host(&self, host: &str) {
        // Not poll_until: sleeps out a server's Retry-After, which may be extended meanwhile.
        loop {
            let until = {
                let p = self.pauses.lock().unwrap_or_else(|e| e.into_inner());
                p.get(host).copied()
            };
            match until {
                Some(t) if t > Instant::now() => tokio::time::sleep_until(t.into()).await,
                _ => return,
            }
        }
    }
}

fn host_key(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(u) => format!(
            "{}:{}",
            u.host_str().unwrap_or_default(),
            u.port_or_known_default().unwrap_or(0)
        ),
        Err(_) => url.to_string(),
    }
}

fn describe_reqwest_error(e: &reqwest::Error) -> String {
    let kind = if e.is_connect() {
        "connection failed"
    } else if e.is_timeout() {
        "timed out"
    } else if e.is_body() || e.is_decode() {
        "the response body broke off"
    } else if e.is_redirect() {
        "redirect refused"
    } else {
        "request failed"
    };
    // The innermost cause is the useful part ("Connection refused (os error 111)").
    let mut source: Option<&dyn std::error::Error> = std::error::Error::source(e);
    let mut inner = None;
    while let Some(s) = source {
        inner = Some(s.to_string());
        source = s.source();
    }
    match inner {
        Some(i) => redact(&format!("{kind}: {i}")).into_owned(),
        None => kind.to_string(),
    }
}

/// Read a body up to `max` bytes; a larger or broken body is an error.
async fn read_capped(mut resp: reqwest::Response, max: usize) -> Result<Bytes, String> {
    let mut buf = Vec::new();
    loop {
        match resp.chunk().await {
            Ok(Some(chunk)) => {
                if buf.len() + chunk.len() > max {
                    return Err(format!(
                        "the body is larger than {} MiB",
                        max / (1024 * 1024)
                    ));
                }
                buf.extend_from_slice(&chunk);
            }
            Ok(None) => return Ok(Bytes::from(buf)),
            Err(e) => return Err(describe_reqwest_error(&e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_forms() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000);
        assert_eq!(parse_retry_after("2", now), Some(Duration::from_secs(2)));
        assert_eq!(parse_retry_after(" 0 ", now), Some(Duration::ZERO));
        let date = httpdate::fmt_http_date(now + Duration::from_secs(7));
        assert_eq!(parse_retry_after(&date, now), Some(Duration::from_secs(7)));
        let past = httpdate::fmt_http_date(now - Duration::from_secs(7));
        assert_eq!(parse_retry_after(&past, now), Some(Duration::ZERO));
        assert_eq!(parse_retry_after("soon", now), None);
        assert_eq!(parse_retry_after("-3", now), None);
    }

    #[test]
    fn backoff_is_full_jitter_and_capped() {
        let p = RetryPolicy {
            attempts: 5,
            base: Duration::from_millis(100),
            cap: Duration::from_millis(1000),
            retry_after_cap: Duration::from_secs(1),
        };
        let mut distinct = std::collections::HashSet::new();
        for _ in 0..200 {
            let d = p.backoff(10);
            assert!(d <= Duration::from_millis(1000));
            distinct.insert(d.as_millis());
        }
        assert!(distinct.len() > 20, "jitter should spread the waits");
        assert!(p.backoff(0) <= Duration::from_millis(100));
    }

    #[test]
    fn error_messages_from_common_shapes() {
        assert_eq!(
            error_message(br#"{"detail":"Invalid token"}"#).0,
            "Invalid token"
        );
        assert_eq!(
            error_message(br#"{"statusCode":400,"message":["a","b"],"error":"Bad Request"}"#).0,
            "a, b"
        );
        assert_eq!(
            error_message(br#"{"error":"invalid_grant","error_description":"expired"}"#).0,
            "expired"
        );
        assert_eq!(
            error_message(b"<html><body>502</body></html>").0,
            "an HTML error page"
        );
        assert_eq!(error_message(b"").0, "no details");
    }

    #[test]
    fn derived_clients_share_pauses() {
        let a = HttpClient::new(HttpOptions::default()).unwrap();
        let b = a
            .with_options(HttpOptions {
                read_timeout: Duration::from_secs(3600),
                ..HttpOptions::default()
            })
            .unwrap();
        b.pause_host("h:1", Duration::from_secs(60));
        let until = a.pauses.lock().unwrap().get("h:1").copied();
        assert!(until.is_some_and(|t| t > Instant::now() + Duration::from_secs(50)));
        assert!(
            HttpClient::new(HttpOptions::default())
                .unwrap()
                .pauses
                .lock()
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn html_with_200_is_a_decode_error() {
        let resp = ApiResponse {
            status: StatusCode::OK,
            headers: HeaderMap::new(),
            body: Bytes::from_static(b"<!DOCTYPE html><html>login</html>"),
            url: "http://x/y?token=abc".into(),
            service: DEVIN,
        };
        let err = resp.json_value().unwrap_err();
        assert!(matches!(err, ApiError::Decode { .. }));
        assert!(!err.to_string().contains("token=abc"));
        let resp = ApiResponse {
            body: Bytes::from_static(b"{\"items\": [1,"),
            ..resp
        };
        assert!(
            resp.json_value()
                .unwrap_err()
                .to_string()
                .contains("malformed JSON")
        );
    }
}
