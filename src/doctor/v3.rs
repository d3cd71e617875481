//! The v3 API key check: when `DEVIN_API_KEY` is set, one cheap authenticated read (a one-item
//! session list, which needs ViewOrgSessions) says whether the key and the organisation work,
//! and names the missing permission when they do not.

use std::time::Duration;

use super::remote::from;
use super::{Check, bounded};
use crate::api::HttpClient;
use crate::api::devin_v3::{DevinV3Client, V3Error};
use crate::config::Config;
use crate::env;
use crate::settings::V3Settings;

pub async fn api_key(config: &Config, http: &HttpClient, t: Duration) -> Check {
    const ID: &str = "api_key";
    const TITLE: &str = "v3 API key";
    let Some(key) = config.get(&env::DEVIN_API_KEY) else {
        return Check::skip(
            ID,
            TITLE,
            "not configured: DEVIN_API_KEY is unset (only `session create|show|end`, `session verify --create` and `outpost default` need it)",
        );
    };
    let client = match V3Settings::resolve(config, None) {
        Ok(s) => DevinV3Client::new(s, http.clone()),
        Err(e) => return Check::fail(ID, TITLE, format!("{e}"), e.hint().to_string()),
    };
    bounded(ID, TITLE, t, "check DEVIN_API_URL and the network", async {
        match client.list_sessions(1, None, &[]).await {
            Ok(page) => Check::pass(
                ID,
                TITLE,
                format!(
                    "{} accepted for organisation {} (ViewOrgSessions; {} session(s))",
                    from(&key),
                    client.org(),
                    page.total
                        .map(|t| t.to_string())
                        .unwrap_or_else(|| "some".into())
                ),
            ),
            Err(e @ (V3Error::KeyRefused { .. } | V3Error::PermissionMissing { .. })) => {
                let fix = e.hint().unwrap_or_default();
                Check::fail(ID, TITLE, format!("{e} ({})", from(&key)), fix)
            }
            Err(e @ V3Error::NotFound { .. }) => Check::fail(
                ID,
                TITLE,
                e.to_string(),
                "check DEVIN_ORG_ID (org-…): the key is not of that organisation",
            ),
            Err(e) => Check::fail(
                ID,
                TITLE,
                e.to_string(),
                e.hint().unwrap_or_else(|| "check DEVIN_API_URL".into()),
            ),
        }
    })
    .await
}
