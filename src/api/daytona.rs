//! Daytona client: the main REST API (`{DAYTONA_API_URL}/…`) and each sandbox's toolbox
//! (`{toolboxProxyUrl}/{sandboxId}/…`), through the shared [`HttpClient`].
//!
//! Every request carries `Authorization: Bearer <DAYTONA_API_KEY>`, `X-Daytona-Source` and
//! `X-Daytona-SDK-Version`. The version matters: the toolbox daemon answers session logs and sync
//! session execs as split JSON only for SDK versions ≥ 0.167.0, so we send the version the spec
//! was traced with. Errors keep the server's message (`{statusCode, message, error, code?,
//! source?}`); the helpers below classify the ones callers act on.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use reqwest::Method;

use super::daytona_types::*;
use super::http::{self, ApiError, ApiRequest, HttpClient, Service, ServiceInfo};
use crate::secrets::Secret;

/// Sent as `X-Daytona-SDK-Version` (≥ 0.167.0 gets split stdout/stderr JSON from the daemon).
pub const SDK_VERSION: &str = "0.226.1";
/// Sent as `X-Daytona-Source` (used by Daytona for metrics and audit only).
pub const SOURCE: &str = "outposts";
/// Page size for sandbox and snapshot lists (the server's maximum is 200).
pub const PAGE_LIMIT: u32 = 100;
/// Longest we follow `nextCursor` before assuming the server loops.
const MAX_PAGES: usize = 10_000;

/// The toolbox proxy, for messages and the 401 hint.
pub const TOOLBOX: Service = Service(&ServiceInfo {
    name: "Daytona toolbox",
    api: "daytona",
});

/// Path segments: everything but RFC 3986 unreserved characters is escaped (`my-snap:1` →
/// `my-snap%3A1`, like the official clients).
const SEGMENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

pub fn seg(s: &str) -> String {
    utf8_percent_encode(s, SEGMENT).to_string()
}

/// The Daytona API and toolbox client. Cheap to clone.
#[derive(Clone)]
pub struct DaytonaClient {
    http: HttpClient,
    /// Same client settings with a read timeout long enough for a long command: the toolbox
    /// answers `process/execute` only when the command ends. Each such call has its own total
    /// deadline instead.
    long_http: Arc<OnceLock<HttpClient>>,
    api_url: String,
    key: Secret,
    page_limit: u32,
}

impl DaytonaClient {
    /// `api_url` is the API base including `/api` (e.g. `https://app.daytona.io/api`).
    pub fn new(http: HttpClient, api_url: &str, key: Secret) -> Self {
        DaytonaClient {
            http,
            long_http: Arc::new(OnceLock::new()),
            api_url: api_url.trim_end_matches('/').to_string(),
            key,
            page_limit: PAGE_LIMIT,
        }
    }

    /// Page size for the list calls that fetch every page (1..=200).
    pub fn with_page_limit(mut self, limit: u32) -> Self {
        self.page_limit = limit.clamp(1, 200);
        self
    }

    pub fn api_url(&self) -> &str {
        &self.api_url
    }

    fn long_http(&self) -> HttpClient {
        self.long_http
            .get_or_init(|| {
                let mut opts = self.http.options().clone();
                opts.read_timeout = Duration::from_secs(24 * 3600);
                self.http
                    .with_options(opts)
                    .unwrap_or_else(|_| self.http.clone())
            })
            .clone()
    }

    fn req(&self, service: Service, method: Method, url: String) -> ApiRequest {
        ApiRequest::new(service, method, url)
            .bearer(&self.key)
            .header("X-Daytona-Source", SOURCE)
            .header("X-Daytona-SDK-Version", SDK_VERSION)
            .header("Accept", "application/json")
    }

    fn api(&self, method: Method, path: &str) -> ApiRequest {
        self.req(http::DAYTONA, method, format!("{}{path}", self.api_url))
    }

    // ---- sandboxes ----

    /// `POST /sandbox`. From a snapshot the server waits up to 30 s for `started`.
    pub async fn create_sandbox(&self, body: &CreateSandbox) -> Result<Sandbox, ApiError> {
        self.http
            .send_json(
                self.api(Method::POST, "/sandbox")
                    .json(body)
                    .timeout(Duration::from_secs(90)),
            )
            .await
    }

    /// `GET /sandbox/{idOrName}`; `None` on 404 (destroyed sandboxes are invisible).
    pub async fn get_sandbox(&self, id_or_name: &str) -> Result<Option<Sandbox>, ApiError> {
        let req = self.api(Method::GET, &format!("/sandbox/{}", seg(id_or_name)));
        match self.http.send_json(req).await {
            Ok(s) => Ok(Some(s)),
            Err(ApiError::NotFound { .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// One page of `GET /sandbox` filtered by labels (containment match).
    pub async fn list_sandboxes_page(
        &self,
        labels: &BTreeMap<String, String>,
        cursor: Option<&str>,
        limit: u32,
    ) -> Result<ListSandboxesResponse, ApiError> {
        let mut req = self
            .api(Method::GET, "/sandbox")
            .query("limit", limit.clamp(1, 200));
        if !labels.is_empty() {
            let json = serde_json::to_string(labels).unwrap_or_else(|_| "{}".into());
            req = req.query("labels", json);
        }
        if let Some(c) = cursor {
            req = req.query("cursor", c);
        }
        self.http.send_json(req).await
    }

    /// Every sandbox carrying `labels`, following `nextCursor` to the end.
    pub async fn list_sandboxes(
        &self,
        labels: &BTreeMap<String, String>,
    ) -> Result<Vec<Sandbox>, ApiError> {
        self.list_sandboxes_map(labels, Some).await
    }

    /// Every sandbox carrying `labels` through `keep`, a page at a time: only what `keep`
    /// returns outlives its page (at 10,000 sandboxes the full records of a listing were a
    /// third of the orchestrator's peak heap).
    pub async fn list_sandboxes_map<T>(
        &self,
        labels: &BTreeMap<String, String>,
        mut keep: impl FnMut(Sandbox) -> Option<T>,
    ) -> Result<Vec<T>, ApiError> {
        let mut out = Vec::new();
        let mut cursor: Option<String> = None;
        let mut seen = std::collections::HashSet::new();
        for _ in 0..MAX_PAGES {
            let page = self
                .list_sandboxes_page(labels, cursor.as_deref(), self.page_limit)
                .await?;
            out.extend(page.items.into_iter().filter_map(&mut keep));
            match page.next_cursor.filter(|c| !c.is_empty()) {
                // A cursor we already followed would loop forever.
                Some(c) if seen.insert(c.clone()) => cursor = Some(c),
                _ => break,
            }
        }
        Ok(out)
    }

    /// `POST /sandbox/{id}/start`: already started → returned unchanged.
    pub async fn start_sandbox(&self, id: &str) -> Result<Sandbox, ApiError> {
        self.http
            .send_json(
                self.api(Method::POST, &format!("/sandbox/{}/start", seg(id)))
                    .timeout(Duration::from_secs(90)),
            )
            .await
    }

    /// `POST /sandbox/{id}/stop?force=`: a stopped sandbox answers 400 ([`is_not_stoppable`]).
    pub async fn stop_sandbox(&self, id: &str, force: bool) -> Result<Sandbox, ApiError> {
        self.http
            .send_json(
                self.api(Method::POST, &format!("/sandbox/{}/stop", seg(id)))
                    .query("force", force),
            )
            .await
    }

    /// `DELETE /sandbox/{id}`: the sandbox is renamed `DESTROYED_<name>_<ms>` and `destroying`.
    pub async fn delete_sandbox(&self, id: &str) -> Result<Sandbox, ApiError> {
        self.http
            .send_json(self.api(Method::DELETE, &format!("/sandbox/{}", seg(id))))
            .await
    }

    /// `PUT /sandbox/{id}/labels`: replaces the whole label map.
    pub async fn replace_labels(
        &self,
        id: &str,
        labels: &BTreeMap<String, String>,
    ) -> Result<(), ApiError> {
        self.http
            .send(
                self.api(Method::PUT, &format!("/sandbox/{}/labels", seg(id)))
                    .json(&SandboxLabels {
                        labels: labels.clone(),
                    }),
            )
            .await?;
        Ok(())
    }

    /// `POST /sandbox/{id}/network-settings`: change a running sandbox's outbound policy.
    pub async fn update_network_settings(
        &self,
        id: &str,
        body: &NetworkSettings,
    ) -> Result<Sandbox, ApiError> {
        self.http
            .send_json(
                self.api(
                    Method::POST,
                    &format!("/sandbox/{}/network-settings", seg(id)),
                )
                .json(body),
            )
            .await
    }

    /// `GET /sandbox/{id}/toolbox-proxy-url`, for sandboxes whose DTO lacks the field.
    pub async fn toolbox_proxy_url(&self, id: &str) -> Result<String, ApiError> {
        let u: UrlDto = self
            .http
            .send_json(self.api(
                Method::GET,
                &format!("/sandbox/{}/toolbox-proxy-url", seg(id)),
            ))
            .await?;
        Ok(u.url)
    }

    /// `POST /sandbox/{id}/snapshot`: snapshot the sandbox's filesystem as `name`.
    pub async fn snapshot_sandbox(&self, id: &str, name: &str) -> Result<Sandbox, ApiError> {
        self.http
            .send_json(
                self.api(Method::POST, &format!("/sandbox/{}/snapshot", seg(id)))
                    .json(&CreateSandboxSnapshot { name: name.into() }),
            )
            .await
    }

    // ---- snapshots ----

    /// `POST /snapshots` → `pending` (or `active` when an identical build exists).
    pub async fn create_snapshot(&self, body: &CreateSnapshot) -> Result<Snapshot, ApiError> {
        self.http
            .send_json(self.api(Method::POST, "/snapshots").json(body))
            .await
    }

    /// `GET /snapshots/{idOrName}`; `None` on 404.
    pub async fn get_snapshot(&self, id_or_name: &str) -> Result<Option<Snapshot>, ApiError> {
        let req = self.api(Method::GET, &format!("/snapshots/{}", seg(id_or_name)));
        match self.http.send_json(req).await {
            Ok(s) => Ok(Some(s)),
            Err(ApiError::NotFound { .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// One page of `GET /snapshots` (1-based pages).
    pub async fn list_snapshots_page(
        &self,
        page: u32,
        limit: u32,
        name: Option<&str>,
    ) -> Result<PaginatedSnapshots, ApiError> {
        let mut req = self
            .api(Method::GET, "/snapshots")
            .query("page", page.max(1))
            .query("limit", limit.clamp(1, 200));
        if let Some(n) = name {
            req = req.query("name", n);
        }
        self.http.send_json(req).await
    }

    /// Every snapshot (all pages), optionally filtered by a partial name.
    pub async fn list_snapshots(&self, name: Option<&str>) -> Result<Vec<Snapshot>, ApiError> {
        let mut out = Vec::new();
        let mut page = 1u32;
        loop {
            let p = self
                .list_snapshots_page(page, self.page_limit, name)
                .await?;
            let empty = p.items.is_empty();
            out.extend(p.items);
            if empty || f64::from(page) >= p.total_pages || page as usize >= MAX_PAGES {
                break;
            }
            page += 1;
        }
        Ok(out)
    }

    // ---- warm pools ----

    /// `GET /warm-pools`: the organization's pools.
    pub async fn list_warm_pools(&self) -> Result<Vec<WarmPool>, ApiError> {
        self.http
            .send_json(self.api(Method::GET, "/warm-pools"))
            .await
    }

    /// `POST /warm-pools` (409 when the snapshot already has one in that region).
    pub async fn create_warm_pool(
        &self,
        snapshot: &str,
        pool: u32,
        target: Option<&str>,
    ) -> Result<WarmPool, ApiError> {
        let mut body = serde_json::json!({"snapshot": snapshot, "pool": pool});
        if let Some(t) = target {
            body["target"] = serde_json::json!(t);
        }
        self.http
            .send_json(self.api(Method::POST, "/warm-pools").json(&body))
            .await
    }

    /// `PATCH /warm-pools/{id}` (0 drains the pool).
    pub async fn resize_warm_pool(&self, id: &str, pool: u32) -> Result<WarmPool, ApiError> {
        let req = self
            .api(Method::PATCH, &format!("/warm-pools/{}", seg(id)))
            .json(&serde_json::json!({"pool": pool}));
        self.http.send_json(req).await
    }

    /// `DELETE /warm-pools/{id}`.
    pub async fn delete_warm_pool(&self, id: &str) -> Result<(), ApiError> {
        self.http
            .send(self.api(Method::DELETE, &format!("/warm-pools/{}", seg(id))))
            .await?;
        Ok(())
    }

    /// `DELETE /snapshots/{id}`: the server requires the UUID, not the name.
    pub async fn delete_snapshot(&self, id: &str) -> Result<(), ApiError> {
        self.http
            .send(self.api(Method::DELETE, &format!("/snapshots/{}", seg(id))))
            .await?;
        Ok(())
    }

    /// `POST /snapshots/{id}/activate` (only from `inactive`).
    pub async fn activate_snapshot(&self, id: &str) -> Result<Snapshot, ApiError> {
        self.http
            .send_json(self.api(Method::POST, &format!("/snapshots/{}/activate", seg(id))))
            .await
    }

    /// `GET /snapshots/{id}/build-logs-url` → the proxy URL of the build log.
    pub async fn snapshot_build_logs_url(&self, id: &str) -> Result<String, ApiError> {
        let u: UrlDto = self
            .http
            .send_json(
                self.api(
                    Method::GET,
                    &format!("/snapshots/{}/build-logs-url", seg(id)),
                )
                .timeout(Duration::from_secs(45)),
            )
            .await?;
        Ok(u.url)
    }

    /// `GET {url}?follow=true`: the build log as a plain-text stream that ends with the build.
    pub async fn follow_build_logs(&self, url: &str) -> Result<reqwest::Response, ApiError> {
        let req = self
            .req(http::DAYTONA, Method::GET, url.to_string())
            .query("follow", true);
        self.long_http().stream(req).await
    }

    // ---- toolbox ----

    /// The toolbox of one sandbox: `{toolbox_proxy_url}/{sandbox_id}`.
    pub fn toolbox(&self, toolbox_proxy_url: &str, sandbox_id: &str) -> Toolbox {
        Toolbox {
            client: self.clone(),
            base: format!(
                "{}/{}",
                toolbox_proxy_url.trim_end_matches('/'),
                seg(sandbox_id)
            ),
        }
    }
}

/// Operations inside one sandbox, through the toolbox proxy.
#[derive(Clone)]
pub struct Toolbox {
    client: DaytonaClient,
    base: String,
}

impl Toolbox {
    fn tb(&self, method: Method, path: &str) -> ApiRequest {
        self.client
            .req(TOOLBOX, method, format!("{}{path}", self.base))
    }

    /// `POST /process/execute`. `wait` bounds the HTTP call (the daemon's own `timeout` is in
    /// the body); a daemon timeout is HTTP 408.
    pub async fn execute(
        &self,
        req: &ExecuteRequest,
        wait: Duration,
    ) -> Result<ExecuteResponse, ApiError> {
        self.client
            .long_http()
            .send_json(
                self.tb(Method::POST, "/process/execute")
                    .json(req)
                    .timeout(wait),
            )
            .await
    }

    /// `POST /process/session` (201; 409 if it exists).
    pub async fn create_session(&self, session_id: &str) -> Result<(), ApiError> {
        self.client
            .http
            .send(
                self.tb(Method::POST, "/process/session")
                    .json(&CreateSessionRequest {
                        session_id: session_id.into(),
                    }),
            )
            .await?;
        Ok(())
    }

    /// `GET /process/session/{id}`; `None` on 404.
    pub async fn get_session(&self, session_id: &str) -> Result<Option<Session>, ApiError> {
        let req = self.tb(
            Method::GET,
            &format!("/process/session/{}", seg(session_id)),
        );
        match self.client.http.send_json(req).await {
            Ok(s) => Ok(Some(s)),
            Err(ApiError::NotFound { .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// `POST /process/session/{id}/exec`: async → 202 with only `cmdId`.
    pub async fn session_exec(
        &self,
        session_id: &str,
        command: &str,
        run_async: bool,
        wait: Duration,
    ) -> Result<SessionExecuteResponse, ApiError> {
        let body = SessionExecuteRequest {
            command: command.into(),
            run_async: Some(run_async),
            async_alias: None,
            suppress_input_echo: None,
        };
        self.client
            .long_http()
            .send_json(
                self.tb(
                    Method::POST,
                    &format!("/process/session/{}/exec", seg(session_id)),
                )
                .json(&body)
                .timeout(wait),
            )
            .await
    }

    /// `GET /process/session/{sid}/command/{cid}` (`exitCode` absent while running).
    pub async fn session_command(
        &self,
        session_id: &str,
        command_id: &str,
    ) -> Result<SessionCommand, ApiError> {
        self.client
            .http
            .send_json(self.tb(
                Method::GET,
                &format!(
                    "/process/session/{}/command/{}",
                    seg(session_id),
                    seg(command_id)
                ),
            ))
            .await
    }

    /// `GET /process/session/{sid}/command/{cid}/logs`.
    pub async fn session_command_logs(
        &self,
        session_id: &str,
        command_id: &str,
    ) -> Result<CommandLogs, ApiError> {
        self.logs_at(&format!(
            "/process/session/{}/command/{}/logs",
            seg(session_id),
            seg(command_id)
        ))
        .await
    }

    /// `GET /process/session/entrypoint/logs`: the sandbox entrypoint's output.
    pub async fn entrypoint_logs(&self) -> Result<CommandLogs, ApiError> {
        self.logs_at("/process/session/entrypoint/logs").await
    }

    async fn logs_at(&self, path: &str) -> Result<CommandLogs, ApiError> {
        let resp = self.client.http.send(self.tb(Method::GET, path)).await?;
        // Older daemons (or a missing version header) answer plain text.
        match resp.json::<CommandLogs>() {
            Ok(l) => Ok(l),
            Err(_) => {
                let text = resp.text();
                Ok(CommandLogs {
                    output: text.clone(),
                    stdout: text,
                    stderr: String::new(),
                })
            }
        }
    }

    /// `GET /files/download?path=`; `None` on 404.
    pub async fn download(&self, path: &str) -> Result<Option<Vec<u8>>, ApiError> {
        let req = self
            .tb(Method::GET, "/files/download")
            .query("path", path)
            .max_body(1024 * 1024 * 1024)
            .timeout(Duration::from_secs(600));
        match self.client.long_http().send(req).await {
            Ok(r) => Ok(Some(r.body.to_vec())),
            Err(ApiError::NotFound { .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// `POST /files/bulk-upload` with one file (what the official SDK uses): parents are
    /// created, an existing file is replaced.
    pub async fn upload(&self, path: &str, data: &[u8]) -> Result<(), ApiError> {
        let boundary = format!("outposts-{}", uuid::Uuid::new_v4().simple());
        let body = multipart_upload(&boundary, path, data);
        self.client
            .long_http()
            .send(
                self.tb(Method::POST, "/files/bulk-upload")
                    .bytes(body, &format!("multipart/form-data; boundary={boundary}"))
                    .timeout(Duration::from_secs(600)),
            )
            .await?;
        Ok(())
    }

    /// `POST /git/clone`: credentials travel only in the body.
    pub async fn git_clone(&self, req: &GitCloneRequest, wait: Duration) -> Result<(), ApiError> {
        self.client
            .long_http()
            .send(self.tb(Method::POST, "/git/clone").json(req).timeout(wait))
            .await?;
        Ok(())
    }
}

/// The multipart body of a one-file bulk upload: `files[0].path` before `files[0].file`.
fn multipart_upload(boundary: &str, path: &str, data: &[u8]) -> Vec<u8> {
    let quoted = path.replace('\\', "\\\\").replace('"', "\\\"");
    let mut body = Vec::with_capacity(data.len() + 512);
    body.extend_from_slice(
        format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"files[0].path\"\r\n\r\n{path}\r\n"
        )
        .as_bytes(),
    );
    body.extend_from_slice(
        format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"files[0].file\"; filename=\"{quoted}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
        )
        .as_bytes(),
    );
    body.extend_from_slice(data);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    body
}

// ---- error classification ----

fn message_of(e: &ApiError) -> Option<(u16, String)> {
    match e {
        ApiError::Status {
            status, message, ..
        } => Some((*status, message.to_ascii_lowercase())),
        ApiError::Conflict { message, .. } => Some((409, message.to_ascii_lowercase())),
        ApiError::Unauthorized {
            status, message, ..
        } => Some((*status, message.to_ascii_lowercase())),
        _ => None,
    }
}

/// 409 while the sandbox is changing state (or another operation holds it): retry later.
pub fn is_state_change_in_progress(e: &ApiError) -> bool {
    matches!(message_of(e), Some((409, m)) if m.contains("in progress") || m.contains("modified by another"))
}

/// 400 `Sandbox is not in a stoppable state`.
pub fn is_not_stoppable(e: &ApiError) -> bool {
    matches!(message_of(e), Some((400, m)) if m.contains("stoppable"))
}

/// 400 `Sandbox is not in valid state` (start from a transitional state; waiting helps).
/// `Sandbox is in an errored state` is not this: waiting does not help.
pub fn is_invalid_state(e: &ApiError) -> bool {
    matches!(message_of(e), Some((400, m)) if m.contains("not in valid state"))
}

/// A quota or resource-limit rejection (400 or 403 `… limit exceeded`).
pub fn is_quota(e: &ApiError) -> bool {
    matches!(message_of(e), Some((400 | 403, m)) if m.contains("quota") || m.contains("limit exceeded") || m.contains("exceeds"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_are_percent_encoded() {
        assert_eq!(seg("my-snap:1"), "my-snap%3A1");
        assert_eq!(seg("a/b c"), "a%2Fb%20c");
        assert_eq!(seg("devin-x_1.2~"), "devin-x_1.2~");
    }

    #[test]
    fn multipart_puts_path_before_file() {
        let body = String::from_utf8(multipart_upload("B", "/tmp/x", b"abc")).unwrap();
        let p = body.find("files[0].path").unwrap();
        let f = body.find("files[0].file").unwrap();
        assert!(p < f);
        assert!(body.contains("filename=\"/tmp/x\""));
        assert!(body.ends_with("abc\r\n--B--\r\n"));
    }

    #[test]
    fn classifies_daytona_errors() {
        let conflict = ApiError::Conflict {
            service: http::DAYTONA,
            message: "Sandbox state change in progress".into(),
            body: None,
        };
        assert!(is_state_change_in_progress(&conflict));
        let stop = ApiError::Status {
            service: http::DAYTONA,
            status: 400,
            method: "POST".into(),
            url: "u".into(),
            message: "Sandbox is not in a stoppable state".into(),
        };
        assert!(is_not_stoppable(&stop));
        assert!(!is_quota(&stop));
        let quota = ApiError::Status {
            service: http::DAYTONA,
            status: 400,
            method: "POST".into(),
            url: "u".into(),
            message: "Total CPU limit exceeded. Maximum allowed: 10".into(),
        };
        assert!(is_quota(&quota));
    }
}
