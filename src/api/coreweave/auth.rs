//! Where the CoreWeave client connects and how it authenticates (spec §2).
//!
//! - `CWSANDBOX_BASE_URL`: `http` or `https`, a host, an optional port, no path. `https` gets
//!   TLS (webpki roots), `http` plaintext HTTP/2 (h2c), exactly as the Python SDK.
//! - `CWSANDBOX_API_KEY` → `authorization: Bearer <key>`.
//! - else `WANDB_API_KEY` → `x-wandb-api-key`, `x-wandb-sdk-version`, plus `x-entity-id`
//!   (`WANDB_ENTITY`), `x-project-name` (`WANDB_PROJECT`) and `x-wandb-host` when
//!   `WANDB_BASE_URL` is not a W&B or CoreWeave Forge host.
//!
//! Secret values are sent as sensitive metadata and never logged.

use tonic::metadata::{AsciiMetadataValue, MetadataMap};

use crate::secrets::Secret;

/// The `wandb` library version the Python SDK pairs with (spec: `cwsandbox[wandb]` 1.22.0 pulls
/// in wandb 0.31.0); sent as `x-wandb-sdk-version`, which W&B auth requires.
pub const WANDB_SDK_VERSION: &str = "0.31.0";

/// How calls authenticate.
#[derive(Clone, PartialEq, Eq)]
pub enum Auth {
    /// `CWSANDBOX_API_KEY`, as a bearer token.
    ApiKey(Secret),
    /// W&B user API key.
    Wandb {
        api_key: Secret,
        entity: Option<String>,
        project: Option<String>,
        /// `host[:port]` of a self-hosted W&B server, sent as `x-wandb-host`.
        host: Option<String>,
    },
}

impl std::fmt::Debug for Auth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Auth::ApiKey(_) => f.write_str("Auth::ApiKey([REDACTED])"),
            Auth::Wandb {
                entity,
                project,
                host,
                ..
            } => f
                .debug_struct("Auth::Wandb")
                .field("entity", entity)
                .field("project", project)
                .field("host", host)
                .finish_non_exhaustive(),
        }
    }
}

impl Auth {
    /// A short description for logs and `doctor` (never the key).
    pub fn describe(&self) -> String {
        match self {
            Auth::ApiKey(k) => format!("CWSANDBOX_API_KEY ({})", k.hint()),
            Auth::Wandb {
                api_key, entity, ..
            } => match entity {
                Some(e) => format!("WANDB_API_KEY ({}), entity {e}", api_key.hint()),
                None => format!("WANDB_API_KEY ({})", api_key.hint()),
            },
        }
    }

    /// Add the auth metadata to a call.
    pub fn apply(&self, md: &mut MetadataMap) {
        match self {
            Auth::ApiKey(key) => {
                insert_secret(md, "authorization", &format!("Bearer {}", key.expose()));
            }
            Auth::Wandb {
                api_key,
                entity,
                project,
                host,
            } => {
                insert_secret(md, "x-wandb-api-key", api_key.expose());
                insert(md, "x-wandb-sdk-version", WANDB_SDK_VERSION);
                if let Some(h) = host {
                    insert(md, "x-wandb-host", h);
                }
                if let Some(e) = entity {
                    insert(md, "x-entity-id", e);
                }
                if let Some(p) = project {
                    insert(md, "x-project-name", p);
                }
            }
        }
    }
}

fn insert(md: &mut MetadataMap, key: &'static str, value: &str) {
    match AsciiMetadataValue::try_from(value) {
        Ok(v) => {
            md.insert(key, v);
        }
        Err(_) => tracing::warn!("not sending {key}: the value is not printable ASCII"),
    }
}

fn insert_secret(md: &mut MetadataMap, key: &'static str, value: &str) {
    match AsciiMetadataValue::try_from(value) {
        Ok(mut v) => {
            v.set_sensitive(true);
            md.insert(key, v);
        }
        // Never echo the value: it is a credential.
        Err(_) => tracing::warn!("not sending {key}: the credential is not printable ASCII"),
    }
}

/// `x-wandb-host` for a W&B base URL: `None` for W&B SaaS and CoreWeave Forge hosts, else
/// `host` or `host:port` (port only when not the scheme's default), lower-cased.
pub fn wandb_host(base_url: &str) -> Result<Option<String>, String> {
    let url =
        url::Url::parse(base_url.trim()).map_err(|e| format!("`{base_url}` is not a URL ({e})"))?;
    let host = url
        .host_str()
        .ok_or_else(|| format!("`{base_url}` has no host"))?
        .to_ascii_lowercase();
    const FORGE: &[&str] = &[
        "forge.coreweave.com",
        "api.forge.coreweave.com",
        "api.wandb.ai",
        "qa.forge.coreweave.com",
        "api.qa.forge.coreweave.com",
        "api.qa.wandb.ai",
    ];
    if host.ends_with("wandb.ai") || FORGE.contains(&host.as_str()) {
        return Ok(None);
    }
    Ok(Some(match url.port() {
        Some(p) => format!("{host}:{p}"),
        None => host,
    }))
}

/// A checked `CWSANDBOX_BASE_URL`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BaseUrl {
    /// `scheme://host[:port]`, no trailing slash.
    pub url: String,
    pub tls: bool,
}

/// Check a base URL: http(s), a host, no path (a lone `/` is fine), no query.
pub fn parse_base_url(raw: &str) -> Result<BaseUrl, String> {
    let trimmed = raw.trim();
    let url = url::Url::parse(trimmed).map_err(|e| format!("`{raw}` is not a URL ({e})"))?;
    let tls = match url.scheme() {
        "https" => true,
        "http" => false,
        other => {
            return Err(format!(
                "`{raw}` uses the {other}:// scheme; use https:// (or http:// for a local emulator)"
            ));
        }
    };
    let host = url
        .host_str()
        .filter(|h| !h.is_empty())
        .ok_or_else(|| format!("`{raw}` has no host"))?;
    if !matches!(url.path(), "" | "/") {
        return Err(format!(
            "`{raw}` has a path ({}); gRPC needs the scheme, host and port only, e.g. https://api.cwsandbox.com",
            url.path()
        ));
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(format!(
            "`{raw}` has a query or fragment; use scheme, host and port only"
        ));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err("the URL carries credentials; put the key in CWSANDBOX_API_KEY instead".into());
    }
    let host = if host.contains(':') && !host.starts_with('[') {
        format!("[{host}]")
    } else {
        host.to_string()
    };
    let url = match url.port() {
        Some(p) => format!("{}://{host}:{p}", url.scheme()),
        None => format!("{}://{host}", url.scheme()),
    };
    Ok(BaseUrl { url, tls })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_urls() {
        let b = parse_base_url("https://api.cwsandbox.com").unwrap();
        assert_eq!(b.url, "https://api.cwsandbox.com");
        assert!(b.tls);
        let b = parse_base_url("http://127.0.0.1:8790/").unwrap();
        assert_eq!(b.url, "http://127.0.0.1:8790");
        assert!(!b.tls);
        assert_eq!(
            parse_base_url("http://[::1]:9000").unwrap().url,
            "http://[::1]:9000"
        );
        assert!(
            parse_base_url("https://api.cwsandbox.com/v1")
                .unwrap_err()
                .contains("path")
        );
        assert!(parse_base_url("ftp://x").is_err());
        assert!(parse_base_url("api.cwsandbox.com").is_err());
        assert!(parse_base_url("https://x?y=1").is_err());
    }

    #[test]
    fn wandb_host_rules() {
        assert_eq!(wandb_host("https://api.wandb.ai").unwrap(), None);
        assert_eq!(wandb_host("https://api.forge.coreweave.com").unwrap(), None);
        assert_eq!(
            wandb_host("https://wandb.example.com:443").unwrap(),
            Some("wandb.example.com".into())
        );
        assert_eq!(
            wandb_host("https://W.Example.com:8443/x").unwrap(),
            Some("w.example.com:8443".into())
        );
        assert!(wandb_host("not a url").is_err());
    }
}
