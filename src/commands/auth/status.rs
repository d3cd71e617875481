//! `outposts auth status`: which token and key are in force, where they came from, and whether
//! the Devin API accepts the token.

use std::path::PathBuf;

use anyhow::Result;
use schemars::JsonSchema;
use serde::Serialize;

use super::{StatusArgs, source_kind};
use crate::api::ApiError;
use crate::api::devin::{DevinClient, ListQuery};
use crate::api::devin_v3::DevinV3Client;
use crate::commands::Ctx;
use crate::config::Resolved;
use crate::doctor::v3::{self as key_check, KeyCheck, KeyVerdict};
use crate::env;
use crate::error::{CliError, ExitStatus};
use crate::secrets::Secret;
use crate::secrets::keyring::{Keyring, token_account};
use crate::settings::DevinSettings;

/// `outposts auth status --json`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct StatusDoc {
    pub token: Presence,
    pub api_key: Presence,
    /// Whether the API accepted the token; null when not checked or the check failed.
    pub accepted: Option<bool>,
    pub check_error: Option<String>,
    pub outpost_id: Option<Setting>,
    pub api_url: ApiUrl,
    pub orchestrator_token: Option<Setting>,
    /// Whether the v3 API accepts DEVIN_API_KEY for DEVIN_ORG_ID: `accepted`, `refused` or
    /// `unchecked` (--offline, no DEVIN_ORG_ID, or no answer); null when no key is set.
    pub api_key_check: Option<KeyVerdict>,
    /// Why the key was refused or left unchecked.
    pub api_key_check_error: Option<String>,
    /// Permissions an accepted key lacks (ManageOrgSessions, ViewOrgSessions, ManageOrgSettings).
    pub api_key_missing: Vec<String>,
    pub env_file: Option<PathBuf>,
    /// Where the keyring stands, when it could have supplied the missing token.
    pub keyring: Option<String>,
}

/// A secret's presence; `source`, `origin` and the masked `hint` only when present.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Presence {
    pub present: bool,
    /// `env`, `file`, `keyring`, `flag` or `default`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub origin: Option<String>,
    /// A masked form such as `cog_…a1b2`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Setting {
    /// Masked when the setting is a secret.
    pub value: String,
    pub source: &'static str,
    pub origin: String,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct ApiUrl {
    pub value: String,
    pub source: Option<&'static str>,
    pub origin: Option<String>,
}

fn setting(r: Option<&Resolved>) -> Option<Setting> {
    r.map(|r| Setting {
        value: r.shown(),
        source: source_kind(&r.source),
        origin: r.source.to_string(),
    })
}

fn presence(r: Option<&Resolved>) -> Presence {
    Presence {
        present: r.is_some(),
        source: r.map(|t| source_kind(&t.source)),
        origin: r.map(|t| t.source.to_string()),
        hint: r.map(Resolved::shown),
    }
}

/// One cheap authenticated read (the first queue entry of the outpost): (accepted, error).
async fn check_token(
    ctx: &Ctx,
    api_url: &str,
    token: &Resolved,
    outpost: Option<&Resolved>,
) -> Result<(Option<bool>, Option<String>)> {
    let client = DevinClient::new(
        DevinSettings::new(api_url, Secret::new(token.value.trim())),
        ctx.http()?,
    );
    let q = ListQuery {
        outpost: outpost.map(|o| o.value.clone()),
        page_size: Some(1),
        ..Default::default()
    };
    Ok(match client.list_page(&q, None).await {
        Ok(_) => (Some(true), None),
        Err(e @ ApiError::Unauthorized { .. }) => (Some(false), Some(e.to_string())),
        Err(e) => (None, Some(e.to_string())),
    })
}

/// The v3 key through the same probe as `doctor` (nothing is created or changed).
async fn check_api_key(ctx: &Ctx, offline: bool) -> Result<KeyCheck> {
    if offline {
        return Ok(KeyCheck::unchecked("--offline"));
    }
    Ok(
        match crate::settings::V3Settings::resolve(&ctx.config, None) {
            Ok(settings) => key_check::probe(&DevinV3Client::new(settings, ctx.http()?)).await,
            Err(e) => KeyCheck::unchecked(e.to_string()),
        },
    )
}

async fn keyring_state(ctx: &Ctx, api_url: &str) -> String {
    match Keyring::from_settings(crate::settings::KeyringSettings::resolve(&ctx.config))
        .get_async(&token_account(api_url))
        .await
    {
        Ok(Some(_)) => "has a token, but it could not be used".to_string(),
        Ok(None) => format!("no entry for {api_url}"),
        Err(e) => e.to_string(),
    }
}

pub(super) async fn status(ctx: &Ctx, a: StatusArgs) -> Result<ExitStatus> {
    let api_url = ctx.config.devin_api_url()?;
    let api = ctx.config.get(&env::DEVIN_API_URL);
    let outpost = ctx.config.get(&env::OUTPOST_ID);
    let create = ctx.config.get(&env::DEVIN_OUTPOST_CREATE_TOKEN);
    let nonblank = |r: Option<Resolved>| r.filter(|r| !r.value.trim().is_empty());
    let token = nonblank(ctx.config.get(&env::DEVIN_OUTPOSTS_TOKEN));
    let api_key = nonblank(ctx.config.get(&env::DEVIN_API_KEY));

    let (accepted, check_error) = match (&token, a.offline) {
        (Some(t), false) => check_token(ctx, &api_url, t, outpost.as_ref()).await?,
        _ => (None, None),
    };
    let key_check = match &api_key {
        Some(_) => Some(check_api_key(ctx, a.offline).await?),
        None => None,
    };
    let keyring = match &token {
        Some(_) => None,
        None => Some(keyring_state(ctx, &api_url).await),
    };
    let doc = StatusDoc {
        token: presence(token.as_ref()),
        api_key: presence(api_key.as_ref()),
        accepted,
        check_error: check_error.clone(),
        outpost_id: setting(outpost.as_ref()),
        api_url: ApiUrl {
            value: api_url.clone(),
            source: api.as_ref().map(|r| source_kind(&r.source)),
            origin: api.as_ref().map(|r| r.source.to_string()),
        },
        orchestrator_token: setting(create.as_ref()),
        api_key_check: key_check.as_ref().map(|c| c.verdict),
        api_key_check_error: key_check.as_ref().and_then(|c| c.reason.clone()),
        api_key_missing: key_check
            .as_ref()
            .map(|c| c.missing().iter().map(|p| p.to_string()).collect())
            .unwrap_or_default(),
        env_file: ctx.config.dotenv_path().map(|p| p.to_path_buf()),
        keyring,
    };
    let human = Human {
        token: token.as_ref(),
        outpost: outpost.as_ref(),
        api: api.as_ref(),
        create: create.as_ref(),
        api_key: api_key.as_ref(),
        doc: &doc,
    };
    ctx.printer.result(&doc, || human.render());
    verdict(token.as_ref(), accepted, check_error)
}

/// What `auth status` prints on a terminal.
struct Human<'a> {
    token: Option<&'a Resolved>,
    outpost: Option<&'a Resolved>,
    api: Option<&'a Resolved>,
    create: Option<&'a Resolved>,
    api_key: Option<&'a Resolved>,
    doc: &'a StatusDoc,
}

impl Human<'_> {
    fn render(&self) -> String {
        let mut out = String::new();
        let doc = self.doc;
        match self.token {
            Some(t) => out.push_str(&format!(
                "Token:        {} (from {})\n",
                t.shown(),
                t.source
            )),
            None => out.push_str("Token:        none (DEVIN_OUTPOSTS_TOKEN is not set anywhere)\n"),
        }
        if let Some(k) = &doc.keyring {
            out.push_str(&format!("Keyring:      {k}\n"));
        }
        match (doc.accepted, &doc.check_error) {
            (Some(true), _) => out.push_str("Accepted:     yes\n"),
            (Some(false), _) => out.push_str("Accepted:     no, the API rejected it\n"),
            (None, Some(e)) => out.push_str(&format!("Accepted:     unknown ({e})\n")),
            (None, None) if self.token.is_some() => {
                out.push_str("Accepted:     not checked (--offline)\n")
            }
            _ => {}
        }
        match self.outpost {
            Some(o) => out.push_str(&format!("Outpost:      {} (from {})\n", o.value, o.source)),
            None => out.push_str("Outpost:      none (OUTPOST_ID is not set)\n"),
        }
        let api_from = self.api.map(|r| r.source.to_string()).unwrap_or_default();
        out.push_str(&format!(
            "API URL:      {} (from {api_from})\n",
            doc.api_url.value
        ));
        match self.create {
            Some(c) => out.push_str(&format!("Orchestrator: {} (from {})\n", c.shown(), c.source)),
            None => out.push_str("Orchestrator: none (DEVIN_OUTPOST_CREATE_TOKEN, for `outposts outpost create|delete`)\n"),
        }
        match self.api_key {
            Some(k) => {
                out.push_str(&format!("v3 API key:   {} (from {})\n", k.shown(), k.source));
                let why = doc.api_key_check_error.as_deref().unwrap_or("no answer");
                let line = match doc.api_key_check {
                    Some(KeyVerdict::Accepted) if doc.api_key_missing.is_empty() => {
                        "accepted".to_string()
                    }
                    Some(KeyVerdict::Accepted) => format!(
                        "accepted, but lacks {} (`outposts doctor` says which commands need it)",
                        doc.api_key_missing.join(", ")
                    ),
                    Some(KeyVerdict::Refused) => format!("refused: {why}"),
                    Some(KeyVerdict::Unchecked) | None => format!("unchecked: {why}"),
                };
                out.push_str(&format!("Key accepted: {line}\n"));
            }
            None => out.push_str("v3 API key:   none (DEVIN_API_KEY, for `outposts session create|show|end` and `outpost default`; store it with `outposts auth set-key`)\n"),
        }
        out
    }
}

/// The exit: a present (and, when checked, accepted) token succeeds.
fn verdict(
    token: Option<&Resolved>,
    accepted: Option<bool>,
    check_error: Option<String>,
) -> Result<ExitStatus> {
    match (token, accepted, check_error) {
        (None, _, _) => Err(CliError::auth(
            "no outpost token: DEVIN_OUTPOSTS_TOKEN is not set in the environment, .env, outposts.toml or the OS keyring",
            "run `outposts connect` to connect an outpost, or set DEVIN_OUTPOSTS_TOKEN",
        )
        .into()),
        (Some(t), Some(false), _) => Err(CliError::auth(
            format!("the Devin API rejected the token from {}", t.source),
            "run `outposts connect` for a fresh token (add --force to replace the one in .env)",
        )
        .into()),
        (Some(_), None, Some(e)) => Err(CliError::failed(
            format!("could not check the token: {e}"),
            "check DEVIN_API_URL and the network, or pass --offline",
        )
        .into()),
        _ => Ok(ExitStatus::Success),
    }
}
