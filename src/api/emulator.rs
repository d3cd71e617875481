//! Client of the emulator's admin API (`/_emulator/...`), used by `outposts emulator …` commands
//! and by tests.

use crate::api::http::{self, ApiError, ApiRequest, HttpClient};
use crate::emulator::{Info, RequestRecord};

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
}
