//! Client of the emulator's admin API (`/_emulator/...`), used by `outposts emulator …` commands
//! and by tests.

use std::time::Duration;

use serde::de::DeserializeOwned;
use serde_json::json;

use super::daytona::Settings as DaytonaSettings;
use super::devin::{HistoryRecord, NewSession, SessionInfo, TaskInfo};
use super::journal::Mutation;
use super::{Info, RequestRecord};
use crate::api::devin::path_segment;
use crate::api::http::{self, ApiError, ApiRequest, HttpClient};
use crate::secrets::Secret;

#[derive(Clone)]
pub struct EmulatorClient {
    http: HttpClient,
    base: String,
}

impl EmulatorClient {
    pub fn new(http: HttpClient, base_url: &str) -> Self {
        EmulatorClient {
            http,
            base: base_url.trim_end_matches('/').to_string(),
        }
    }

    /// For a local port.
    pub fn on_port(http: HttpClient, port: u16) -> Self {
        Self::new(http, &format!("http://127.0.0.1:{port}"))
    }

    pub fn base_url(&self) -> &str {
        &self.base
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    pub async fn info(&self) -> Result<Info, ApiError> {
        self.http
            .send_json(ApiRequest::get(http::EMULATOR, self.url("/_emulator/info")))
            .await
    }

    /// Logged requests with a sequence number above `since`.
    pub async fn requests(&self, since: u64) -> Result<Vec<RequestRecord>, ApiError> {
        self.http
            .send_json(
                ApiRequest::get(http::EMULATOR, self.url("/_emulator/requests"))
                    .query("since", since),
            )
            .await
    }

    /// Fleet figures, with the API calls logged after request `since` (`/_emulator/fleet`).
    pub async fn fleet(&self, since: u64) -> Result<super::fleet_stats::FleetStats, ApiError> {
        self.http
            .send_json(
                ApiRequest::get(http::EMULATOR, self.url("/_emulator/fleet")).query("since", since),
            )
            .await
    }

    /// Add fault rules (JSON text: one rule or a list).
    pub async fn add_faults(&self, script: &str) -> Result<(), ApiError> {
        self.http
            .send(
                ApiRequest::post(http::EMULATOR, self.url("/_emulator/faults"))
                    .bytes(script.as_bytes().to_vec(), "application/json"),
            )
            .await?;
        Ok(())
    }

    /// Add file faults (JSON text: one or a list; see `emulator::file_faults`).
    pub async fn add_file_faults(&self, faults: &str) -> Result<(), ApiError> {
        self.http
            .send(
                ApiRequest::post(http::EMULATOR, self.url("/_emulator/file-faults"))
                    .bytes(faults.as_bytes().to_vec(), "application/json"),
            )
            .await?;
        Ok(())
    }

    pub async fn clear_faults(&self) -> Result<(), ApiError> {
        self.http
            .send(ApiRequest::new(
                http::EMULATOR,
                reqwest::Method::DELETE,
                self.url("/_emulator/faults"),
            ))
            .await?;
        Ok(())
    }

    async fn post_json<T: DeserializeOwned>(
        &self,
        path: &str,
        body: &serde_json::Value,
    ) -> Result<T, ApiError> {
        self.http
            .send_json(ApiRequest::post(http::EMULATOR, self.url(path)).json(body))
            .await
    }

    fn session_path(id: &str, action: &str) -> Result<String, ApiError> {
        Ok(format!("/_emulator/sessions/{}{action}", path_segment(id)?))
    }

    /// Enqueue sessions (`POST /_emulator/sessions`).
    pub async fn new_sessions(&self, spec: &NewSession) -> Result<Vec<SessionInfo>, ApiError> {
        let body = serde_json::to_value(spec).unwrap_or_default();
        self.post_json("/_emulator/sessions", &body).await
    }

    /// Every session the emulator knows, oldest first.
    pub async fn sessions(&self) -> Result<Vec<SessionInfo>, ApiError> {
        self.http
            .send_json(ApiRequest::get(
                http::EMULATOR,
                self.url("/_emulator/sessions"),
            ))
            .await
    }

    /// One session; `None` when the emulator never had it.
    pub async fn session(&self, id: &str) -> Result<Option<SessionInfo>, ApiError> {
        let req = ApiRequest::get(http::EMULATOR, self.url(&Self::session_path(id, "")?));
        match self.http.send_json(req).await {
            Ok(s) => Ok(Some(s)),
            Err(ApiError::NotFound { .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Put the session to sleep: its remote is told to exit; the row is swept once released.
    pub async fn suspend(&self, id: &str) -> Result<SessionInfo, ApiError> {
        self.post_json(&Self::session_path(id, "/suspend")?, &json!({}))
            .await
    }

    /// Wake a suspended session: a new pending row with `kind=resume`.
    pub async fn resume(&self, id: &str) -> Result<SessionInfo, ApiError> {
        self.post_json(&Self::session_path(id, "/resume")?, &json!({}))
            .await
    }

    /// Wake a suspended session whose woken entry carries `network_policy` (`null`: none).
    pub async fn resume_with_policy(
        &self,
        id: &str,
        network_policy: &serde_json::Value,
    ) -> Result<SessionInfo, ApiError> {
        self.post_json(
            &Self::session_path(id, "/resume")?,
            &json!({ "network_policy": network_policy }),
        )
        .await
    }

    /// End the session for good.
    pub async fn terminate(&self, id: &str) -> Result<SessionInfo, ApiError> {
        self.post_json(&Self::session_path(id, "/terminate")?, &json!({}))
            .await
    }

    /// Set `session_status` directly (`pending|running|suspended|terminated`).
    pub async fn set_status(&self, id: &str, status: &str) -> Result<SessionInfo, ApiError> {
        self.post_json(
            &Self::session_path(id, "/status")?,
            &json!({"status": status}),
        )
        .await
    }

    /// Make the session read `suspended` for `dur`, then go back (a transient blip).
    pub async fn blip(&self, id: &str, dur: Duration) -> Result<SessionInfo, ApiError> {
        self.post_json(
            &Self::session_path(id, "/blip")?,
            &json!({"ms": dur.as_millis() as u64}),
        )
        .await
    }

    /// Give the session's remote a task (see `emulator::devin::plan_task` for the grammar).
    pub async fn add_task(&self, id: &str, task: &str) -> Result<TaskInfo, ApiError> {
        self.post_json(&Self::session_path(id, "/task")?, &json!({"task": task}))
            .await
    }

    /// Claims, releases, status changes, enqueues and removals, in order.
    pub async fn history(&self, session: Option<&str>) -> Result<Vec<HistoryRecord>, ApiError> {
        let mut req = ApiRequest::get(http::EMULATOR, self.url("/_emulator/history"));
        if let Some(s) = session {
            req = req.query("session", s);
        }
        self.http.send_json(req).await
    }

    /// Mint a Devin API token (`"orchestrator"` or `"machine"` scope) and register it for
    /// redaction in this process.
    pub async fn mint_token(&self, scope: &str, label: &str) -> Result<Secret, ApiError> {
        let v: serde_json::Value = self
            .post_json(
                "/_emulator/tokens",
                &json!({"scope": scope, "label": label}),
            )
            .await?;
        match v.get("token").and_then(serde_json::Value::as_str) {
            Some(t) => Ok(Secret::new(t)),
            None => Err(ApiError::Decode {
                service: http::EMULATOR,
                url: self.url("/_emulator/tokens"),
                detail: "the answer has no token".into(),
            }),
        }
    }

    /// The emulator's outposts in wire shape, with live queue depth and active claims.
    pub async fn outposts(&self) -> Result<Vec<serde_json::Value>, ApiError> {
        self.http
            .send_json(ApiRequest::get(
                http::EMULATOR,
                self.url("/_emulator/outposts"),
            ))
            .await
    }

    /// Committed sandbox mutations with the queue's view of their sessions, in order.
    pub async fn mutations(&self) -> Result<Vec<Mutation>, ApiError> {
        self.http
            .send_json(ApiRequest::get(
                http::EMULATOR,
                self.url("/_emulator/mutations"),
            ))
            .await
    }

    /// Every credential the emulator issued.
    pub async fn secrets(&self) -> Result<Vec<String>, ApiError> {
        self.http
            .send_json(ApiRequest::get(
                http::EMULATOR,
                self.url("/_emulator/secrets"),
            ))
            .await
    }

    /// A new Daytona API key with this label (its mutations are journalled under the label).
    pub async fn daytona_key(&self, label: &str) -> Result<String, ApiError> {
        let v: serde_json::Value = self
            .post_json("/_emulator/daytona/keys", &json!({"label": label}))
            .await?;
        Ok(v["key"].as_str().unwrap_or_default().to_string())
    }

    /// Replace the emulated Daytona's delays and limits.
    pub async fn daytona_settings(&self, settings: &DaytonaSettings) -> Result<(), ApiError> {
        self.http
            .send(
                ApiRequest::new(
                    http::EMULATOR,
                    reqwest::Method::PUT,
                    self.url("/_emulator/daytona/settings"),
                )
                .json(settings),
            )
            .await?;
        Ok(())
    }

    /// A new v3 API key (`DEVIN_API_KEY`) with exactly these permissions (e.g. without
    /// `ManageOrgSessions`), registered for redaction in this process.
    pub async fn v3_key(&self, permissions: &[&str], label: &str) -> Result<Secret, ApiError> {
        let v: serde_json::Value = self
            .post_json(
                "/_emulator/v3/keys",
                &json!({"permissions": permissions, "label": label}),
            )
            .await?;
        let key = v["key"].as_str().unwrap_or_default();
        crate::secrets::register(key);
        Ok(Secret::new(key))
    }

    /// Change the emulated organisation: `{"outposts_only": bool, "proof_override": text|null}`
    /// (a Devin that writes another text than the proof prompt asks for).
    pub async fn v3_settings(
        &self,
        settings: &serde_json::Value,
    ) -> Result<serde_json::Value, ApiError> {
        self.post_json("/_emulator/v3/settings", settings).await
    }

    /// Add an outpost as another member would: `personal` ones cannot be the org default.
    pub async fn add_outpost(
        &self,
        name: &str,
        personal: bool,
    ) -> Result<serde_json::Value, ApiError> {
        self.post_json(
            "/_emulator/outposts",
            &json!({"name": name, "platform": "linux", "personal": personal}),
        )
        .await
    }
}
