//! `outposts auth logout`: forget the stored token and v3 API key (keyring entries and .env
//! lines); report, never edit, what still provides one.

use std::path::{Path, PathBuf};

use anyhow::Result;
use schemars::JsonSchema;
use serde::Serialize;

use crate::commands::Ctx;
use crate::commands::connect::target_env_file;
use crate::config::Source;
use crate::env;
use crate::error::{CliError, ExitStatus};
use crate::secrets::dotenv::{self, EnvUpdate};
use crate::secrets::keyring::{self, Keyring, KeyringError};

/// `outposts auth logout --json`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct LogoutDoc {
    pub removed: Vec<Removed>,
    /// Where a token or key is still configured (not edited).
    pub still_set_in: Vec<String>,
}

/// One credential removed: from the keyring (with its account) or from a file (with its path).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(tag = "from", rename_all = "snake_case")]
pub enum Removed {
    Keyring { var: &'static str, account: String },
    File { var: &'static str, path: PathBuf },
}

/// One stored credential `logout` found: in the keyring, in `.env`, or both.
struct Found {
    var: &'static env::EnvVar,
    account: String,
    in_keyring: bool,
    in_file: bool,
}

pub(super) async fn logout(ctx: &Ctx) -> Result<ExitStatus> {
    let env_file = target_env_file(ctx);
    let values = dotenv::read_values(&env_file)
        .map_err(|e| CliError::usage(e.to_string(), "fix the file, or pass --env-file"))?;
    let api_url = ctx.config.devin_api_url()?;
    let keyring = Keyring::from_settings(crate::settings::KeyringSettings::resolve(&ctx.config));
    let mut found = Vec::new();
    for var in keyring::STORED {
        let account = keyring::account(var, &api_url);
        let in_keyring = match keyring.get_async(&account).await {
            Ok(v) => v.is_some(),
            Err(KeyringError::Disabled(_)) => false,
            Err(e) => {
                ctx.printer.warn(&format!(
                    "{e}; the keyring was not checked for {}",
                    var.name
                ));
                false
            }
        };
        let in_file = values.as_ref().is_some_and(|v| v.contains_key(var.name));
        if in_keyring || in_file {
            found.push(Found {
                var,
                account,
                in_keyring,
                in_file,
            });
        }
    }

    let mut removed = Vec::new();
    if !found.is_empty() {
        if !ctx.confirm(&format!("Remove {}?", places(&found, &env_file)))? {
            ctx.printer.note("Nothing removed.");
            return Ok(ExitStatus::Failure);
        }
        removed = remove(&keyring, &found, &env_file).await?;
    }
    let remaining = still_set_in(ctx);
    for r in &remaining {
        ctx.printer.warn(&format!("still set in {r}"));
    }
    let doc = LogoutDoc {
        removed,
        still_set_in: remaining,
    };
    ctx.printer.result(&doc, || {
        if doc.removed.is_empty() {
            return "Nothing to remove: no stored outpost token or v3 API key.\n".into();
        }
        let mut out = String::new();
        for f in &found {
            if f.in_keyring {
                out.push_str(&format!(
                    "Removed {} for {api_url} from the OS keyring.\n",
                    f.var.name
                ));
            }
            if f.in_file {
                out.push_str(&format!(
                    "Removed {} from {}.\n",
                    f.var.name,
                    env_file.display()
                ));
            }
        }
        out
    });
    Ok(ExitStatus::Success)
}

/// "the OS keyring (account) and .env (VAR)" for the confirmation question.
fn places(found: &[Found], env_file: &Path) -> String {
    let places: Vec<String> = found
        .iter()
        .flat_map(|f| {
            let k = f
                .in_keyring
                .then(|| format!("the OS keyring ({})", f.account));
            let e = f
                .in_file
                .then(|| format!("{} ({})", env_file.display(), f.var.name));
            k.into_iter().chain(e)
        })
        .collect();
    places.join(" and ")
}

async fn remove(keyring: &Keyring, found: &[Found], env_file: &Path) -> Result<Vec<Removed>> {
    let mut removed = Vec::new();
    let mut from_file = EnvUpdate::new();
    for f in found {
        if f.in_keyring {
            keyring.delete_async(&f.account).await.map_err(|e| {
                CliError::failed(
                    format!("cannot remove {} from the OS keyring: {e}", f.var.name),
                    "unlock the keyring and retry",
                )
            })?;
            removed.push(Removed::Keyring {
                var: f.var.name,
                account: f.account.clone(),
            });
        }
        if f.in_file {
            from_file = from_file.remove(f.var.name);
            removed.push(Removed::File {
                var: f.var.name,
                path: env_file.to_path_buf(),
            });
        }
    }
    if !from_file.is_empty() {
        dotenv::apply(env_file, &from_file).map_err(|e| CliError::failed(e.to_string(), None))?;
    }
    Ok(removed)
}

/// What still provides a token or key: reported, never edited.
fn still_set_in(ctx: &Ctx) -> Vec<String> {
    let mut remaining = Vec::new();
    for var in keyring::STORED {
        if ctx.config.process_env(var.name).is_some() {
            remaining.push(format!("the environment variable {} (unset it)", var.name));
        }
        if let Some(p) = ctx.config.config_path()
            && let Some(r) = ctx.config.get(var)
            && r.source == Source::ConfigFile(p.to_path_buf())
        {
            remaining.push(format!("{} ({}; edit it)", p.display(), var.name));
        }
    }
    remaining
}
