//! CoreWeave Sandbox API client: gRPC `coreweave.sandbox.v1.SandboxService` over tonic.
//!
//! - TLS (webpki roots) for `https` base URLs, plaintext HTTP/2 (h2c) for `http`, like the
//!   Python SDK; 100 MiB message cap.
//! - Auth metadata on every call ([`auth::Auth`]): bearer API key, or W&B headers.
//! - Deadlines as the SDK uses them (spec §5): create 300 s, get 15 s, list 300 s in total,
//!   delete grace + 10 s, exec the caller's timeout (300 s default), logs 300 s unless
//!   following, files 300 s.
//! - Bounded retries with the shared backoff policy ([`RetryPolicy`]) on UNAVAILABLE and
//!   DEADLINE_EXCEEDED for idempotent calls (get, list, delete, files; create only on
//!   UNAVAILABLE, with its frozen `request_id`). `RetryInfo` delays are honoured up to 10 s.
//! - Failures are [`CoreweaveError`]s: gRPC code + `ErrorInfo` reason, with a hint.

use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use futures::StreamExt;
use futures::stream::BoxStream;
use tonic::transport::{Channel, ClientTlsConfig, Endpoint};

use crate::api::http::RetryPolicy;
use crate::settings::CoreweaveSettings;

pub mod auth;
pub mod error;
mod snapshots;

pub use auth::{Auth, BaseUrl, parse_base_url, wandb_host};
pub use error::{CoreweaveError, ErrorKind};

/// Generated messages, client and server (from `proto/`, see `build.rs`).
#[allow(
    clippy::all,
    clippy::pedantic,
    missing_docs,
    unused_qualifications,
    rustdoc::all
)]
pub mod pb {
    include!(concat!(env!("OUT_DIR"), "/coreweave.sandbox.v1.rs"));
}

use pb::sandbox_service_client::SandboxServiceClient;

/// gRPC message cap, both ways (the SDK's `grpc.max_*_message_length`).
pub const MAX_MESSAGE: usize = 100 * 1024 * 1024;
/// Unary file cap of the service (larger files need streaming).
pub const MAX_FILE: usize = 32 * 1024 * 1024;

pub const CREATE_DEADLINE: Duration = Duration::from_secs(300);
pub const GET_DEADLINE: Duration = Duration::from_secs(15);
pub const LIST_PAGE_DEADLINE: Duration = Duration::from_secs(60);
pub const LIST_TOTAL: Duration = Duration::from_secs(300);
pub const REQUEST_DEADLINE: Duration = Duration::from_secs(300);
/// Added to the grace period for DeleteSandbox (the SDK's grace + 5 + 5).
pub const DELETE_SLACK: Duration = Duration::from_secs(10);
/// Longest `RetryInfo` delay we wait for (as the SDK).
const MAX_RETRY_INFO: Duration = Duration::from_secs(10);
/// Most pages of a list (the SDK stops at 100 as well).
const MAX_PAGES: usize = 100;
/// Most times a followed log stream is resumed after an interruption.
const MAX_LOG_RESUMES: u32 = 5;

/// Which failures a call may be retried after.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Retry {
    /// Idempotent: UNAVAILABLE and DEADLINE_EXCEEDED.
    Idempotent,
    /// Never reached the point of doing anything twice: UNAVAILABLE only.
    UnavailableOnly,
    Never,
}

/// Connection knobs.
#[derive(Debug, Clone)]
pub struct ClientOptions {
    pub connect_timeout: Duration,
    pub retry: RetryPolicy,
}

impl Default for ClientOptions {
    fn default() -> Self {
        ClientOptions {
            connect_timeout: Duration::from_secs(10),
            retry: RetryPolicy::default(),
        }
    }
}

/// The client. Cheap to clone (one HTTP/2 channel underneath, opened on the first call within
/// the tokio runtime that makes it; use one client per runtime).
#[derive(Clone)]
pub struct CoreweaveClient {
    endpoint: Endpoint,
    channel: Arc<std::sync::OnceLock<Channel>>,
    auth: Arc<Auth>,
    base: BaseUrl,
    retry: RetryPolicy,
}

impl std::fmt::Debug for CoreweaveClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CoreweaveClient")
            .field("base_url", &self.base.url)
            .field("auth", &self.auth)
            .finish_non_exhaustive()
    }
}

impl CoreweaveClient {
    /// A client for `base`; connects lazily on the first call.
    pub fn new(base: BaseUrl, auth: Auth, opts: ClientOptions) -> anyhow::Result<Self> {
        let mut endpoint = Endpoint::from_shared(base.url.clone())
            .map_err(|e| anyhow::anyhow!("cannot use {} as a gRPC endpoint: {e}", base.url))?
            .connect_timeout(opts.connect_timeout)
            .user_agent(concat!("outposts/", env!("CARGO_PKG_VERSION")))
            .map_err(|e| anyhow::anyhow!("bad user agent: {e}"))?
            .http2_keep_alive_interval(Duration::from_secs(30))
            .keep_alive_timeout(Duration::from_secs(20))
            .keep_alive_while_idle(true);
        if base.tls {
            endpoint = endpoint
                .tls_config(ClientTlsConfig::new().with_webpki_roots())
                .map_err(|e| anyhow::anyhow!("cannot set up TLS for {}: {e}", base.url))?;
        }
        Ok(CoreweaveClient {
            endpoint,
            channel: Arc::new(std::sync::OnceLock::new()),
            auth: Arc::new(auth),
            base,
            retry: opts.retry,
        })
    }

    /// The client of resolved [`CoreweaveSettings`].
    pub fn from_settings(s: CoreweaveSettings) -> anyhow::Result<Self> {
        Self::new(
            s.base,
            s.auth,
            ClientOptions {
                connect_timeout: s.http.connect_timeout,
                retry: s.http.retry,
            },
        )
    }

    pub fn base_url(&self) -> &str {
        &self.base.url
    }

    /// The generated client on the shared channel, for RPCs without a wrapper here (StreamExec,
    /// snapshots). Pair it with [`Self::authorized`]. Created lazily: it needs a runtime.
    pub fn grpc(&self) -> SandboxServiceClient<Channel> {
        let channel = self
            .channel
            .get_or_init(|| self.endpoint.connect_lazy())
            .clone();
        SandboxServiceClient::new(channel)
            .max_decoding_message_size(MAX_MESSAGE)
            .max_encoding_message_size(MAX_MESSAGE)
    }

    /// A request carrying the auth metadata.
    pub fn authorized<T>(&self, msg: T) -> tonic::Request<T> {
        self.request(msg, None)
    }

    fn request<T>(&self, msg: T, deadline: Option<Duration>) -> tonic::Request<T> {
        let mut req = tonic::Request::new(msg);
        self.auth.apply(req.metadata_mut());
        if let Some(d) = deadline {
            req.set_timeout(d);
        }
        req
    }

    /// One unary call with deadline and bounded retries.
    async fn unary<M, T, F, Fut>(
        &self,
        method: &'static str,
        msg: M,
        deadline: Duration,
        retry: Retry,
        call: F,
    ) -> Result<T, CoreweaveError>
    where
        M: Clone,
        F: Fn(SandboxServiceClient<Channel>, tonic::Request<M>) -> Fut,
        Fut: Future<Output = Result<tonic::Response<T>, tonic::Status>>,
    {
        let attempts = match retry {
            Retry::Never => 1,
            _ => self.retry.attempts.max(1),
        };
        let mut attempt = 0;
        // Not poll_until: retries a call on the RetryPolicy (jittered backoff), not a wait.
        loop {
            let started = Instant::now();
            tracing::debug!("→ CoreWeave {method}");
            let fut = call(self.grpc(), self.request(msg.clone(), Some(deadline)));
            let answer = tokio::time::timeout(deadline, fut).await;
            let code = match &answer {
                Ok(Ok(_)) => tonic::Code::Ok,
                Ok(Err(status)) => status.code(),
                Err(_) => tonic::Code::DeadlineExceeded,
            };
            super::telemetry::record(&super::telemetry::Exchange {
                api: "coreweave",
                operation: method,
                answer: super::telemetry::Answer::Grpc(code),
                took: started.elapsed(),
            });
            let mut err = match answer {
                Ok(Ok(resp)) => {
                    tracing::debug!(
                        "← CoreWeave {method} OK ({} ms)",
                        started.elapsed().as_millis()
                    );
                    return Ok(resp.into_inner());
                }
                Ok(Err(status)) => CoreweaveError::from_status(method, &status),
                Err(_) => CoreweaveError::from_status(
                    method,
                    &tonic::Status::deadline_exceeded("no answer before the deadline"),
                ),
            };
            err.deadline = Some(deadline);
            tracing::debug!(
                "← CoreWeave {method} {} ({} ms)",
                error::code_name(err.code),
                started.elapsed().as_millis()
            );
            attempt += 1;
            let may_retry = match retry {
                Retry::Idempotent => err.is_retryable(),
                Retry::UnavailableOnly => err.kind == ErrorKind::Unavailable,
                Retry::Never => false,
            };
            if !may_retry || attempt >= attempts {
                return Err(err);
            }
            let wait = err
                .retry_delay
                .map(|d| d.min(MAX_RETRY_INFO))
                .unwrap_or_else(|| self.retry.backoff(attempt - 1));
            tracing::debug!(
                wait_ms = wait.as_millis() as u64,
                attempt,
                "retrying CoreWeave {method}: {err}"
            );
            // Not poll_until: a retry of a failed call after its backoff (or the server's delay),
            // not a wait for a state.
            tokio::time::sleep(wait).await;
        }
    }

    /// CreateSandbox. `request_id` is the idempotency token: keep it for retries of the same
    /// creation.
    pub async fn create_sandbox(
        &self,
        sandbox: pb::Sandbox,
        request_id: &str,
    ) -> Result<pb::Sandbox, CoreweaveError> {
        let msg = pb::CreateSandboxRequest {
            sandbox: Some(sandbox),
            request_id: request_id.to_string(),
        };
        self.unary(
            "CreateSandbox",
            msg,
            CREATE_DEADLINE,
            Retry::UnavailableOnly,
            |mut c, r| async move { c.create_sandbox(r).await },
        )
        .await
    }

    pub async fn get_sandbox(&self, sandbox_id: &str) -> Result<pb::Sandbox, CoreweaveError> {
        let msg = pb::GetSandboxRequest {
            sandbox_id: sandbox_id.to_string(),
        };
        self.unary(
            "GetSandbox",
            msg,
            GET_DEADLINE,
            Retry::Idempotent,
            |mut c, r| async move { c.get_sandbox(r).await },
        )
        .await
    }

    /// ListSandboxes, every page (tags are ANDed by the server).
    pub async fn list_sandboxes(
        &self,
        tags: &[String],
        show_terminated: bool,
    ) -> Result<Vec<pb::Sandbox>, CoreweaveError> {
        let started = Instant::now();
        let mut out = Vec::new();
        let mut token = String::new();
        let mut seen = std::collections::HashSet::new();
        for _ in 0..MAX_PAGES {
            let left = LIST_TOTAL.saturating_sub(started.elapsed());
            if left.is_zero() {
                let mut e = CoreweaveError::local(
                    "ListSandboxes",
                    ErrorKind::DeadlineExceeded,
                    "listing every page took too long",
                );
                e.deadline = Some(LIST_TOTAL);
                return Err(e);
            }
            let msg = pb::ListSandboxesRequest {
                page_token: token.clone(),
                tags: tags.to_vec(),
                show_terminated,
                ..Default::default()
            };
            let page = self.list_page(msg, LIST_PAGE_DEADLINE.min(left)).await?;
            out.extend(page.sandboxes);
            if page.next_page_token.is_empty() {
                return Ok(out);
            }
            if !seen.insert(page.next_page_token.clone()) {
                return Err(CoreweaveError::local(
                    "ListSandboxes",
                    ErrorKind::Other,
                    "the server repeated a page token; stopping instead of looping",
                ));
            }
            token = page.next_page_token;
        }
        Err(CoreweaveError::local(
            "ListSandboxes",
            ErrorKind::Other,
            format!("more than {MAX_PAGES} pages; narrow the tags"),
        ))
    }

    /// One ListSandboxes page, as asked.
    pub async fn list_page(
        &self,
        req: pb::ListSandboxesRequest,
        deadline: Duration,
    ) -> Result<pb::ListSandboxesResponse, CoreweaveError> {
        self.unary(
            "ListSandboxes",
            req,
            deadline,
            Retry::Idempotent,
            |mut c, r| async move { c.list_sandboxes(r).await },
        )
        .await
    }

    /// DeleteSandbox with a grace period (0 = kill now). `Ok(None)` when the sandbox is gone
    /// and `allow_missing` is set, or when a retried delete finds it gone.
    pub async fn delete_sandbox(
        &self,
        sandbox_id: &str,
        grace: Duration,
        allow_missing: bool,
    ) -> Result<Option<pb::Sandbox>, CoreweaveError> {
        let msg = pb::DeleteSandboxRequest {
            sandbox_id: sandbox_id.to_string(),
            grace_period_seconds: grace.as_secs_f64().ceil().min(i32::MAX as f64) as i32,
            allow_missing,
            ..Default::default()
        };
        let retried = std::sync::atomic::AtomicBool::new(false);
        let result = self
            .unary(
                "DeleteSandbox",
                msg,
                grace + DELETE_SLACK,
                Retry::Idempotent,
                |mut c, r| {
                    let again = retried.swap(true, std::sync::atomic::Ordering::Relaxed);
                    async move {
                        match c.delete_sandbox(r).await {
                            // A retry that finds nothing means the first attempt worked.
                            Err(s) if again && s.code() == tonic::Code::NotFound => {
                                Ok(tonic::Response::new(pb::DeleteSandboxResponse::default()))
                            }
                            other => other,
                        }
                    }
                },
            )
            .await;
        match result {
            Ok(resp) => Ok(resp.sandbox),
            Err(e) if allow_missing && e.is_sandbox_not_found() => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Unary Exec; `timeout` is the call deadline. Never retried (not idempotent).
    pub async fn exec(
        &self,
        req: pb::ExecRequest,
        timeout: Duration,
    ) -> Result<pb::ExecResponse, CoreweaveError> {
        self.unary("Exec", req, timeout, Retry::Never, |mut c, r| async move {
            c.exec(r).await
        })
        .await
    }

    pub async fn read_file(&self, sandbox_id: &str, path: &str) -> Result<Bytes, CoreweaveError> {
        let msg = pb::ReadFileRequest {
            sandbox_id: sandbox_id.to_string(),
            path: path.to_string(),
            container: String::new(),
        };
        self.unary(
            "ReadFile",
            msg,
            REQUEST_DEADLINE,
            Retry::Idempotent,
            |mut c, r| async move { c.read_file(r).await },
        )
        .await
        .map(|r| r.content)
    }

    pub async fn write_file(
        &self,
        sandbox_id: &str,
        path: &str,
        content: Bytes,
    ) -> Result<(), CoreweaveError> {
        if content.len() > MAX_FILE {
            return Err(CoreweaveError::local(
                "WriteFile",
                ErrorKind::Invalid,
                format!(
                    "{path} is {} MiB; the unary WriteFile call takes at most {} MiB",
                    content.len() / (1024 * 1024),
                    MAX_FILE / (1024 * 1024)
                ),
            ));
        }
        let msg = pb::WriteFileRequest {
            sandbox_id: sandbox_id.to_string(),
            path: path.to_string(),
            content,
            container: String::new(),
        };
        self.unary(
            "WriteFile",
            msg,
            REQUEST_DEADLINE,
            Retry::Idempotent,
            |mut c, r| async move { c.write_file(r).await },
        )
        .await
        .map(|_| ())
    }

    /// StreamLogs: the main process's output as raw chunks. Not following: the stream ends
    /// with the existing output, within 300 s. Following: no deadline; an interrupted stream
    /// is resumed from the last offset (a few times).
    pub async fn stream_logs(
        &self,
        req: pb::StreamLogsRequest,
    ) -> Result<BoxStream<'static, Result<Bytes, CoreweaveError>>, CoreweaveError> {
        let deadline = (!req.follow).then(|| tokio::time::Instant::now() + REQUEST_DEADLINE);
        let first = self.open_logs(req.clone(), deadline).await?;
        let state = LogState {
            client: self.clone(),
            req,
            deadline,
            stream: Some(first),
            session: String::new(),
            offset: 0,
            resumes: 0,
        };
        Ok(futures::stream::unfold(state, next_log_chunk).boxed())
    }

    async fn open_logs(
        &self,
        req: pb::StreamLogsRequest,
        deadline: Option<tokio::time::Instant>,
    ) -> Result<tonic::Streaming<pb::LogEntry>, CoreweaveError> {
        let timeout = deadline
            .map(|d| d.saturating_duration_since(tokio::time::Instant::now()))
            .unwrap_or(REQUEST_DEADLINE);
        self.unary(
            "StreamLogs",
            req,
            timeout,
            Retry::UnavailableOnly,
            |mut c, r| async move { c.stream_logs(r).await },
        )
        .await
    }
}

struct LogState {
    client: CoreweaveClient,
    req: pb::StreamLogsRequest,
    deadline: Option<tokio::time::Instant>,
    stream: Option<tonic::Streaming<pb::LogEntry>>,
    session: String,
    offset: u64,
    resumes: u32,
}

/// Codes after which the SDK resumes a followed stream from its offset.
fn resumable(code: &str) -> bool {
    code == "STREAM_INTERRUPTED"
}

async fn next_log_chunk(mut st: LogState) -> Option<(Result<Bytes, CoreweaveError>, LogState)> {
    loop {
        let stream = st.stream.as_mut()?;
        let item = match st.deadline {
            Some(d) => match tokio::time::timeout_at(d, stream.message()).await {
                Ok(r) => r,
                Err(_) => {
                    st.stream = None;
                    let mut e = CoreweaveError::local(
                        "StreamLogs",
                        ErrorKind::DeadlineExceeded,
                        "the log stream did not end in time",
                    );
                    e.deadline = Some(REQUEST_DEADLINE);
                    return Some((Err(e), st));
                }
            },
            None => stream.message().await,
        };
        let interrupted = match item {
            Ok(None) => return None,
            Ok(Some(entry)) => {
                if !entry.log_session_id.is_empty() {
                    st.session = entry.log_session_id.clone();
                }
                if entry.next_log_offset > 0 {
                    st.offset = entry.next_log_offset;
                }
                if let Some(e) = entry.error {
                    if st.req.follow && resumable(&e.code) {
                        format!("{}: {}", e.code, e.message)
                    } else {
                        st.stream = None;
                        let err = CoreweaveError::local(
                            "StreamLogs",
                            ErrorKind::Other,
                            format!("the log stream failed ({}): {}", e.code, e.message),
                        );
                        return Some((Err(err), st));
                    }
                } else if entry.data.is_empty() {
                    continue;
                } else {
                    return Some((Ok(entry.data), st));
                }
            }
            Err(status) => {
                let err = CoreweaveError::from_status("StreamLogs", &status);
                if st.req.follow && err.kind == ErrorKind::Unavailable {
                    err.to_string()
                } else {
                    st.stream = None;
                    return Some((Err(err), st));
                }
            }
        };
        // Resume a followed stream where it broke off.
        if let Err(e) = st.resume(&interrupted).await {
            st.stream = None;
            return Some((Err(e), st));
        }
    }
}

impl LogState {
    /// Reopen a followed stream at the session and offset it broke off at (`interrupted` says
    /// why), unless it broke too often or never named its session.
    async fn resume(&mut self, interrupted: &str) -> Result<(), CoreweaveError> {
        self.resumes += 1;
        if self.resumes > MAX_LOG_RESUMES || self.session.is_empty() {
            return Err(CoreweaveError::local(
                "StreamLogs",
                ErrorKind::Unavailable,
                format!("the log stream broke off and could not be resumed: {interrupted}"),
            ));
        }
        tracing::debug!("resuming the CoreWeave log stream: {interrupted}");
        let resume = pb::StreamLogsRequest {
            sandbox_id: self.req.sandbox_id.clone(),
            follow: true,
            resume_log_session_id: self.session.clone(),
            resume_log_offset: self.offset,
            ..Default::default()
        };
        self.stream = Some(self.client.open_logs(resume, None).await?);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn client(url: &str, attempts: u32) -> CoreweaveClient {
        CoreweaveClient::new(
            parse_base_url(url).unwrap(),
            Auth::ApiKey(crate::secrets::Secret::new("cw-test-key-000000")),
            ClientOptions {
                connect_timeout: Duration::from_secs(2),
                retry: RetryPolicy {
                    attempts,
                    base: Duration::from_millis(10),
                    cap: Duration::from_millis(20),
                    retry_after_cap: Duration::from_secs(1),
                },
            },
        )
        .unwrap()
    }

    #[tokio::test]
    async fn unreachable_endpoints_are_unavailable_for_tls_and_plaintext() {
        // Port 1 on loopback refuses connections: no network needed.
        for url in ["https://127.0.0.1:1", "http://127.0.0.1:1"] {
            let c = client(url, 2);
            let err = c.get_sandbox("sb-1").await.unwrap_err();
            assert_eq!(err.kind, ErrorKind::Unavailable, "{url}: {err}");
            assert!(!err.to_string().contains("cw-test-key-000000"));
        }
    }

    #[tokio::test]
    async fn oversized_files_are_refused_before_sending() {
        let c = client("http://127.0.0.1:1", 1);
        let err = c
            .write_file("sb-1", "/big", Bytes::from(vec![0u8; MAX_FILE + 1]))
            .await
            .unwrap_err();
        assert_eq!(err.kind, ErrorKind::Invalid);
        assert!(err.to_string().contains("32 MiB"), "{err}");
    }

    #[test]
    fn debug_never_shows_the_key() {
        // No runtime needed: the channel opens on the first call.
        let c = client("https://api.cwsandbox.com", 1);
        let text = format!("{c:?}");
        assert!(text.contains("api.cwsandbox.com") && !text.contains("cw-test-key-000000"));
    }
}
