//! `outposts auth set-key [--store env|keyring]`: store `DEVIN_API_KEY` (the v3 API key) read
//! from stdin or a hidden prompt, never from argv, where `connect --store` keeps the outpost
//! token (`connect::store::store_secret`).

use std::io::{IsTerminal, Read};
use std::path::PathBuf;

use anyhow::Result;
use schemars::JsonSchema;
use serde::Serialize;

use super::Ctx;
use crate::api::devin_v3::DevinV3Client;
use crate::commands::connect::target_env_file;
use crate::commands::docs::EnvChangeDoc;
use crate::connect::store::{self, StoreChoice, StoreError};
use crate::doctor::v3::{self as key_check, KeyCheck, KeyVerdict};
use crate::env;
use crate::error::{CliError, ExitStatus};
use crate::secrets::Secret;
use crate::secrets::keyring::Keyring;

pub const HELP: &str = "\
Examples:
  outposts auth set-key --store keyring < key.txt      # from a file, into the OS keyring
  printenv MY_V3_KEY | outposts auth set-key           # from a pipe, into .env (mode 0600)
  outposts auth set-key --store keyring                # on a terminal: asks, without echo

The key is read from stdin (one line; surrounding whitespace is dropped), or asked for without
echo on a terminal. It is never taken as an argument, so it stays out of shell history and
process listings. It must look like a service-user key (cog_…). Before anything is stored, the
key is checked against the v3 API for DEVIN_ORG_ID (the same probe as `outposts doctor`, which
changes nothing): a key the API refuses is not stored and the one in place stays; when the check
cannot be made (no DEVIN_ORG_ID, API unreachable, --offline) the key is stored with a warning
saying so, and permissions it lacks are named.
Only DEVIN_API_KEY is written: --store env puts that one line in .env (or --env-file)
atomically with mode 0600, keeping every other line; --store keyring keeps it in the OS keyring
under the configured DEVIN_API_URL (falls back to .env when no keyring is available) and removes
a DEVIN_API_KEY line from .env, which would otherwise win over it. `outposts auth status` then
says where it comes from and whether it is accepted; `outposts auth logout` forgets it.
Scripting: --json prints {var, store, keyring_account, env_file, env_change, check, missing}.
Exit codes: 0 stored · 2 no key given, or not a cog_… key · 4 the API refused the key (nothing
stored) · 1 it could not be written.";

#[derive(Debug, clap::Args)]
pub struct SetKeyArgs {
    /// Where to keep DEVIN_API_KEY: `env` writes only its line to .env (mode 0600); `keyring`
    /// keeps it in the OS keyring (falls back to .env when no keyring is available). Nothing else
    /// is written.
    // The choice's own docs speak of `connect`, which also writes DEVIN_API_URL and OUTPOST_ID.
    #[arg(long, value_enum, default_value_t = StoreChoice::Env, hide_possible_values = true)]
    pub store: StoreChoice,
    /// Store the key without asking the API whether it accepts it.
    #[arg(long)]
    pub offline: bool,
}

/// `outposts auth set-key --json`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SetKeyDoc {
    pub var: &'static str,
    /// `env` or `keyring`.
    #[schemars(with = "String")]
    pub store: StoreChoice,
    pub keyring_account: Option<String>,
    pub env_file: PathBuf,
    pub env_change: EnvChangeDoc,
    /// Whether the v3 API accepted the key before it was stored: `accepted` or `unchecked`
    /// (a refused key is never stored).
    pub check: KeyVerdict,
    /// Permissions the stored key lacks, when it was checked.
    pub missing: Vec<String>,
}

pub async fn set_key(ctx: &Ctx, args: SetKeyArgs) -> Result<ExitStatus> {
    let var = &env::DEVIN_API_KEY;
    let key = read_key(ctx)?;
    let api_url = ctx.config.devin_api_url()?;
    let checked = check_key(ctx, &api_url, &key, args.offline).await?;
    let env_file = target_env_file(ctx);
    let keyring = Keyring::from_settings(crate::settings::KeyringSettings::resolve(&ctx.config));
    let stored = store::store_secret(var, &key, &api_url, &env_file, args.store, &keyring, |u| u)
        .await
        .map_err(|e| match e {
            StoreError::AfterKeyring(_) => CliError::failed(
                e.to_string(),
                Some(format!(
                    "remove the DEVIN_API_KEY line from {} yourself: it wins over the keyring",
                    env_file.display()
                )),
            ),
            StoreError::Env(_) => CliError::failed(
                e.to_string(),
                Some("fix the file or its directory, or pass --env-file".into()),
            ),
        })?;
    for w in &stored.warnings {
        ctx.printer.warn(w);
    }
    // A higher layer keeps winning until it is removed: say so rather than edit it.
    if ctx.config.process_env(var.name).is_some() {
        ctx.printer.warn(&format!(
            "{} in the environment overrides what was just stored until you unset it",
            var.name
        ));
    }
    match checked.verdict {
        KeyVerdict::Unchecked => ctx.printer.warn(&format!(
            "stored without checking it: {}",
            checked.reason.as_deref().unwrap_or("no answer")
        )),
        _ if !checked.missing().is_empty() => ctx.printer.warn(&format!(
            "the key is accepted but lacks {}: run `outposts doctor` to see which commands need it",
            checked
                .missing()
                .iter()
                .map(|p| p.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )),
        _ => {}
    }
    let doc = SetKeyDoc {
        var: var.name,
        store: stored.store,
        keyring_account: stored.keyring_account.clone(),
        env_file: env_file.clone(),
        env_change: (&stored.change).into(),
        check: checked.verdict,
        missing: checked.missing().iter().map(|p| p.to_string()).collect(),
    };
    ctx.printer.result(&doc, || match &stored.keyring_account {
        Some(account) => format!("Saved {} in the OS keyring ({account}).\n", var.name),
        None => format!(
            "Saved {} to {} (mode 0600).\n",
            var.name,
            env_file.display()
        ),
    });
    Ok(ExitStatus::Success)
}

/// Ask the v3 API about the new key before it replaces anything: a refused key is an error
/// (exit 4) and nothing is written.
async fn check_key(ctx: &Ctx, api_url: &str, key: &Secret, offline: bool) -> Result<KeyCheck> {
    if offline {
        return Ok(KeyCheck::unchecked("--offline"));
    }
    let Some(org) = ctx
        .config
        .value(&env::DEVIN_ORG_ID)
        .filter(|o| !o.trim().is_empty())
    else {
        return Ok(KeyCheck::unchecked(
            "DEVIN_ORG_ID is not set (the v3 API is per organisation)",
        ));
    };
    let client = DevinV3Client::new(
        crate::settings::V3Settings::new(api_url, &org, key.clone()),
        ctx.http()?,
    );
    let checked = key_check::probe(&client).await;
    if checked.verdict == KeyVerdict::Refused {
        return Err(CliError::auth(
            format!(
                "not stored: {}",
                checked.reason.as_deref().unwrap_or("the API refused the key")
            ),
            "pass a service-user key (cog_…) of the organisation in DEVIN_ORG_ID; the key in place was left as it was",
        )
        .into());
    }
    Ok(checked)
}

/// The key from a hidden prompt on a terminal, else the whole of stdin (one line).
fn read_key(ctx: &Ctx) -> Result<Secret> {
    let raw = if std::io::stdin().is_terminal() {
        if !ctx.printer.can_prompt() {
            return Err(CliError::usage(
                "no key on stdin, and no terminal to ask on",
                Some("pipe the key in: `outposts auth set-key < key.txt`".into()),
            )
            .into());
        }
        let term = console::Term::stderr();
        term.write_str("DEVIN_API_KEY (input hidden): ")
            .and_then(|_| term.read_secure_line())
            .map_err(|e| CliError::usage(format!("cannot read the key: {e}"), None))?
    } else {
        let mut s = String::new();
        std::io::stdin()
            .take(64 * 1024)
            .read_to_string(&mut s)
            .map_err(|e| CliError::usage(format!("cannot read the key from stdin: {e}"), None))?;
        s
    };
    let key = raw.trim();
    if key.is_empty() {
        return Err(CliError::usage(
            "no key given: stdin was empty",
            Some("pipe the key in: `outposts auth set-key < key.txt`".into()),
        )
        .into());
    }
    // Register first, so no message below can echo it.
    let key = Secret::new(key);
    if key.expose().chars().any(char::is_whitespace) || store::is_placeholder(key.expose()) {
        return Err(CliError::usage(
            "that is not a key: it contains whitespace or is a placeholder",
            Some("pass exactly one key (`cog_…`) on stdin".into()),
        )
        .into());
    }
    // Service-user keys start with `cog_` (specs/devin-sessions-api.md §1).
    if !key.expose().starts_with("cog_") {
        return Err(CliError::usage(
            "that is not a v3 API key: a service-user key starts with cog_",
            Some("pass the service-user key (cog_…) from the organisation's settings on stdin; nothing was stored".into()),
        )
        .into());
    }
    Ok(key)
}
