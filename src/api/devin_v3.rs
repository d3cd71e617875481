//! Devin's public v3 API (specs/devin-sessions-api.md): sessions of an organisation (create,
//! get, list, terminate, message) and its default platform.
//!
//! It takes a service-user key (`DEVIN_API_KEY`) with per-organisation permissions — a different
//! credential from the fleet API's `DEVIN_OUTPOSTS_TOKEN`. Every refusal says which credential
//! was refused and which permission the call needs, so nobody rotates the wrong token. Requests
//! go through the one [`HttpClient`] (retries, redaction, timing); 400/401/403/404/422 are read
//! here so the server's explanation (and a 400's list of accepted platforms) survives.

use serde_json::Value;

use crate::api::devin::path_segment;
pub use crate::api::devin_v3_types::*;
use crate::api::http::{self, ApiError, ApiRequest, ApiResponse, HttpClient, Service, ServiceInfo};
use crate::secrets::Secret;
use crate::settings::V3Settings;

pub const DEVIN_V3: Service = Service(&ServiceInfo {
    name: "Devin API (v3)",
    api: "devin_v3",
});

/// A per-organisation permission of a service user (spec §1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Permission {
    ManageOrgSessions,
    ViewOrgSessions,
    ManageOrgSettings,
}

impl Permission {
    pub fn as_str(self) -> &'static str {
        match self {
            Permission::ManageOrgSessions => "ManageOrgSessions",
            Permission::ViewOrgSessions => "ViewOrgSessions",
            Permission::ManageOrgSettings => "ManageOrgSettings",
        }
    }
}

impl std::fmt::Display for Permission {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a v3 call failed. `KeyRefused` and `PermissionMissing` are about `DEVIN_API_KEY`, never
/// about `DEVIN_OUTPOSTS_TOKEN`.
#[derive(Debug, thiserror::Error)]
pub enum V3Error {
    #[error("the Devin API refused DEVIN_API_KEY (HTTP 401) for {action}: {message}")]
    KeyRefused {
        action: &'static str,
        message: String,
    },
    #[error(
        "DEVIN_API_KEY lacks the {permission} permission on organisation {org} (HTTP 403) for {action}: {message}"
    )]
    PermissionMissing {
        permission: Permission,
        org: String,
        action: &'static str,
        message: String,
    },
    /// 400: the server refused the value; `accepted` is the list it sent (platforms, outposts);
    /// `outposts` the outposts in it that carry both an id and a name.
    #[error(
        "the Devin API refused {action} (HTTP 400): {message}{}",
        list_suffix(accepted)
    )]
    Rejected {
        action: &'static str,
        message: String,
        accepted: Vec<String>,
        outposts: Vec<AcceptedOutpost>,
    },
    #[error("the Devin API has no {what} (HTTP 404): {message}")]
    NotFound { what: String, message: String },
    #[error("the Devin API could not process {action} (HTTP 422): {message}")]
    Invalid {
        action: &'static str,
        message: String,
    },
    #[error(transparent)]
    Api(#[from] ApiError),
}

fn list_suffix(accepted: &[String]) -> String {
    if accepted.is_empty() {
        String::new()
    } else {
        format!("; accepted: {}", accepted.join(", "))
    }
}

impl V3Error {
    /// A credential was refused (exit 4).
    pub fn is_auth(&self) -> bool {
        match self {
            V3Error::KeyRefused { .. } | V3Error::PermissionMissing { .. } => true,
            V3Error::Api(e) => e.is_auth(),
            _ => false,
        }
    }
}

/// The v3 client of one organisation. Cheap to clone.
#[derive(Clone)]
pub struct DevinV3Client {
    http: HttpClient,
    base: String,
    org: String,
    key: Secret,
}

impl std::fmt::Debug for DevinV3Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DevinV3Client")
            .field("base", &self.base)
            .field("org", &self.org)
            .field("key", &self.key)
            .finish()
    }
}

impl DevinV3Client {
    /// The client of resolved [`V3Settings`] (the origin is already normalised there).
    pub fn new(settings: V3Settings, http: HttpClient) -> Self {
        DevinV3Client {
            http,
            base: settings.api_url,
            org: settings.org,
            key: settings.key,
        }
    }

    pub fn org(&self) -> &str {
        &self.org
    }

    /// DEVIN_API_URL as resolved.
    pub fn base_url(&self) -> &str {
        &self.base
    }

    fn org_url(&self, prefix: &str, rest: &str) -> Result<String, V3Error> {
        Ok(format!(
            "{}/{prefix}/organizations/{}{rest}",
            self.base,
            path_segment(&self.org)?
        ))
    }

    fn session_url(&self, id: &str) -> Result<String, V3Error> {
        self.org_url("v3", &format!("/sessions/{}", path_segment(id)?))
    }

    async fn call(
        &self,
        req: ApiRequest,
        action: &'static str,
        permission: Permission,
        what: impl FnOnce() -> String,
    ) -> Result<ApiResponse, V3Error> {
        let resp = self
            .http
            .send(
                req.bearer(&self.key)
                    .pass_status(&[400, 401, 403, 404, 422]),
            )
            .await?;
        let status = resp.status.as_u16();
        if resp.status.is_success() {
            return Ok(resp);
        }
        let (message, body) = http::error_message(&resp.body);
        Err(match status {
            401 => V3Error::KeyRefused { action, message },
            403 => V3Error::PermissionMissing {
                permission,
                org: self.org.clone(),
                action,
                message,
            },
            404 => V3Error::NotFound {
                what: what(),
                message,
            },
            422 => V3Error::Invalid { action, message },
            _ => V3Error::Rejected {
                action,
                accepted: body.as_ref().map(accepted_labels).unwrap_or_default(),
                outposts: body.as_ref().map(accepted_outposts).unwrap_or_default(),
                message,
            },
        })
    }

    /// `POST /v3/organizations/{org}/sessions`.
    pub async fn create_session(&self, body: &CreateSession) -> Result<V3Session, V3Error> {
        let req = ApiRequest::post(DEVIN_V3, self.org_url("v3", "/sessions")?).json(body);
        let org = self.org.clone();
        let resp = self
            .call(
                req,
                "creating a session",
                Permission::ManageOrgSessions,
                || format!("organisation {org}"),
            )
            .await?;
        Ok(resp.json()?)
    }

    /// `GET /v3/organizations/{org}/sessions/{id}`.
    pub async fn get_session(&self, id: &str) -> Result<V3Session, V3Error> {
        let req = ApiRequest::get(DEVIN_V3, self.session_url(id)?);
        let resp = self
            .call(
                req,
                "reading a session",
                Permission::ViewOrgSessions,
                || format!("session {id}"),
            )
            .await?;
        Ok(resp.json()?)
    }

    /// One page of `GET /v3/organizations/{org}/sessions` (newest first as the server orders).
    pub async fn list_sessions(
        &self,
        first: u32,
        after: Option<&str>,
        tags: &[String],
    ) -> Result<V3SessionPage, V3Error> {
        let mut req =
            ApiRequest::get(DEVIN_V3, self.org_url("v3", "/sessions")?).query("first", first);
        if let Some(a) = after {
            req = req.query("after", a);
        }
        for t in tags {
            req = req.query("tags", t);
        }
        let org = self.org.clone();
        let resp = self
            .call(req, "listing sessions", Permission::ViewOrgSessions, || {
                format!("organisation {org}")
            })
            .await?;
        Ok(resp.json()?)
    }

    /// `DELETE /v3/organizations/{org}/sessions/{id}[?archive=true]`: terminate it.
    pub async fn end_session(&self, id: &str, archive: bool) -> Result<V3Session, V3Error> {
        let mut req = ApiRequest::new(DEVIN_V3, reqwest::Method::DELETE, self.session_url(id)?);
        if archive {
            req = req.query("archive", "true");
        }
        let resp = self
            .call(
                req,
                "ending a session",
                Permission::ManageOrgSessions,
                || format!("session {id}"),
            )
            .await?;
        Ok(resp.json()?)
    }

    /// `POST …/sessions/{id}/messages`: a user message to the session.
    pub async fn send_message(&self, id: &str, message: &str) -> Result<(), V3Error> {
        let url = format!("{}/messages", self.session_url(id)?);
        let req = ApiRequest::post(DEVIN_V3, url).json(&serde_json::json!({"message": message}));
        self.call(
            req,
            "messaging a session",
            Permission::ManageOrgSessions,
            || format!("session {id}"),
        )
        .await?;
        Ok(())
    }

    /// `GET /v3beta1/organizations/{org}/default-platform`.
    pub async fn default_platform(&self) -> Result<DefaultPlatform, V3Error> {
        let req = ApiRequest::get(DEVIN_V3, self.org_url("v3beta1", "/default-platform")?);
        let org = self.org.clone();
        let resp = self
            .call(
                req,
                "reading the default platform",
                Permission::ManageOrgSettings,
                || format!("organisation {org}"),
            )
            .await?;
        Ok(resp.json()?)
    }

    /// `PUT /v3beta1/organizations/{org}/default-platform`; answers the new setting.
    pub async fn set_default_platform(
        &self,
        choice: &PlatformChoice,
    ) -> Result<DefaultPlatform, V3Error> {
        let body = match choice {
            PlatformChoice::Platform(p) => serde_json::json!({"platform": p}),
            PlatformChoice::OutpostId(id) => serde_json::json!({"outpost_pool_id": id}),
            PlatformChoice::Clear => serde_json::json!({}),
        };
        let req = ApiRequest::new(
            DEVIN_V3,
            reqwest::Method::PUT,
            self.org_url("v3beta1", "/default-platform")?,
        )
        .json(&body);
        let org = self.org.clone();
        let resp = self
            .call(
                req,
                "setting the default platform",
                Permission::ManageOrgSettings,
                || format!("organisation {org}"),
            )
            .await?;
        // The answer's shape is not documented; fall back to what was asked.
        match resp.json_value() {
            Ok(v @ Value::Object(_)) => Ok(serde_json::from_value(v).unwrap_or_default()),
            _ => Ok(match choice {
                PlatformChoice::Platform(p) => DefaultPlatform {
                    platform: Some(p.clone()),
                    ..Default::default()
                },
                PlatformChoice::OutpostId(id) => DefaultPlatform {
                    outpost_pool_id: Some(id.clone()),
                    ..Default::default()
                },
                PlatformChoice::Clear => DefaultPlatform::default(),
            }),
        }
    }
}
