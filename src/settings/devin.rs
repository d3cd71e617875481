//! The Devin APIs: the fleet API (outpost token) and the public v3 API (service-user key).

use crate::config::{Config, ConfigError};
use crate::env::{self, EnvVar};
use crate::secrets::Secret;

/// Where the fleet API is and the token it takes.
#[derive(Debug, Clone)]
pub struct DevinSettings {
    /// The API origin, normalised (no trailing `/` or `/opbeta`).
    pub api_url: String,
    pub token: Secret,
}

impl DevinSettings {
    pub fn new(api_url: &str, token: Secret) -> Self {
        DevinSettings {
            api_url: strip_base(api_url),
            token,
        }
    }

    /// `DEVIN_API_URL` and `DEVIN_OUTPOSTS_TOKEN`. A missing token is an auth error (exit 4)
    /// that says how to get one; a bad URL is a configuration error (exit 2).
    pub fn resolve(config: &Config) -> Result<Self, ConfigError> {
        Self::resolve_with(config, &env::DEVIN_OUTPOSTS_TOKEN)
    }

    /// Like [`DevinSettings::resolve`] with another token variable (e.g.
    /// `DEVIN_OUTPOST_CREATE_TOKEN` for outpost create/delete).
    pub fn resolve_with(config: &Config, token_var: &'static EnvVar) -> Result<Self, ConfigError> {
        let base = config.devin_api_url()?;
        let token = config
            .get(token_var)
            .ok_or_else(|| ConfigError::MissingCredentials {
                message: format!("{} is not set", token_var.name),
                hint: format!(
                    "run `outposts connect` to connect an outpost (it stores the token), or set {} in the environment or .env",
                    token_var.name
                ),
            })?;
        Ok(Self::new(&base, Secret::new(token.value.trim())))
    }
}

/// Where the v3 API is, the organisation and the service-user key.
#[derive(Debug, Clone)]
pub struct V3Settings {
    /// The API origin, normalised (no trailing `/` or `/opbeta`).
    pub api_url: String,
    pub org: String,
    pub key: Secret,
}

impl V3Settings {
    pub fn new(api_url: &str, org: &str, key: Secret) -> Self {
        V3Settings {
            api_url: strip_base(api_url),
            org: org.trim().to_string(),
            key,
        }
    }

    /// `DEVIN_API_URL`, `DEVIN_API_KEY` and `DEVIN_ORG_ID` (or `--org`). A missing key or
    /// organisation is a usage error (exit 2) raised before any request.
    pub fn resolve(config: &Config, org: Option<&str>) -> Result<Self, ConfigError> {
        let key = config
            .value(&env::DEVIN_API_KEY)
            .filter(|k| !k.trim().is_empty())
            .ok_or_else(|| ConfigError::Missing {
                var: env::DEVIN_API_KEY.name,
                hint: "set DEVIN_API_KEY to a service-user key (cog_…) of the organisation with ManageOrgSessions and ViewOrgSessions (ManageOrgSettings for `outpost default`), or store one with `outposts auth set-key`; it is not DEVIN_OUTPOSTS_TOKEN".into(),
            })?;
        let org = match org.map(str::trim).filter(|o| !o.is_empty()) {
            Some(o) => o.to_string(),
            None => config
                .value(&env::DEVIN_ORG_ID)
                .filter(|o| !o.trim().is_empty())
                .ok_or_else(|| ConfigError::Missing {
                    var: env::DEVIN_ORG_ID.name,
                    hint:
                        "set DEVIN_ORG_ID (org-…, from the organisation's settings) or pass --org"
                            .into(),
                })?,
        };
        let base = config.devin_api_url()?;
        Ok(Self::new(&base, &org, Secret::new(key.trim())))
    }
}

/// An API origin without trailing `/` or `/opbeta` (what the clients append paths to).
fn strip_base(base: &str) -> String {
    let mut base = base.trim().trim_end_matches('/').to_string();
    if let Some(b) = base.strip_suffix("/opbeta") {
        base = b.trim_end_matches('/').to_string();
    }
    base
}
