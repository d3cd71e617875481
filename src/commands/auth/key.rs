//! `outposts auth set-key [--store env|keyring]`: store `DEVIN_API_KEY` (the v3 API key) read
//! from stdin or a hidden prompt, never from argv, where `connect --store` keeps the outpost
//! token (`connect::store::store_secret`).

use std::io::{IsTerminal, Read};
use std::path::PathBuf;

use anyhow::Result;
use schemars::JsonSchema;
use serde::Serialize;

use super::Ctx;
use crate::commands::connect::target_env_file;
use crate::commands::docs::EnvChangeDoc;
use crate::connect::store::{self, StoreChoice, StoreError};
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
process listings. --store env writes DEVIN_API_KEY to .env (or --env-file) atomically with mode
0600, keeping every other line; --store keyring keeps it in the OS keyring under the configured
DEVIN_API_URL (falls back to .env when no keyring is available) and removes a DEVIN_API_KEY line
from .env, which would otherwise win over it. `outposts auth status` then says where it comes
from; `outposts auth logout` forgets it.
Scripting: --json prints {var, store, keyring_account, env_file, env_change}. Exit 2 when no
key was given.";

#[derive(Debug, clap::Args)]
pub struct SetKeyArgs {
    /// Where to keep the key: .env (mode 0600) or the OS keyring (falls back to .env when no
    /// keyring is available).
    #[arg(long, value_enum, default_value_t = StoreChoice::Env)]
    pub store: StoreChoice,
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
}

pub async fn set_key(ctx: &Ctx, args: SetKeyArgs) -> Result<ExitStatus> {
    let var = &env::DEVIN_API_KEY;
    let key = read_key(ctx)?;
    let api_url = ctx.config.devin_api_url()?;
    let env_file = target_env_file(ctx);
    let keyring = Keyring::from_config(&ctx.config);
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
    let doc = SetKeyDoc {
        var: var.name,
        store: stored.store,
        keyring_account: stored.keyring_account.clone(),
        env_file: env_file.clone(),
        env_change: (&stored.change).into(),
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
    Ok(key)
}
