//! `outposts auth status|set-key|logout`: which outpost token and v3 API key are in force and
//! where they came from, storing the v3 key (`auth_key.rs`), and forgetting what was stored.

pub(crate) mod key;

use anyhow::Result;
use clap::Subcommand;
use serde_json::{Value, json};

use super::Ctx;
use super::connect::target_env_file;
use crate::api::ApiError;
use crate::api::devin::{DevinClient, ListQuery};
use crate::config::{Resolved, Source};
use crate::env;
use crate::error::{CliError, ExitStatus};
use crate::secrets::Secret;
use crate::secrets::dotenv::{self, EnvUpdate};
use crate::secrets::keyring::{self, Keyring, KeyringError, token_account};

const AFTER_HELP: &str = "\
Examples:
  outposts auth status                 # token source, outpost, API URL; checks the token
  outposts auth status --json --offline
  outposts auth set-key --store keyring < key.txt   # store DEVIN_API_KEY (v3 API key)
  outposts auth logout --yes           # forget the stored token and key (keyring and .env)

DEVIN_OUTPOSTS_TOKEN and DEVIN_API_KEY are each looked up as: environment > .env (or
--env-file) > outposts.toml > OS keyring.";

const STATUS_HELP: &str = "\
Examples:
  outposts auth status
  outposts auth status --offline            # no network: only say where the token comes from
  outposts auth status --json | jq -r .token.source

Scripting: --json prints {token: {present, source, origin, hint}, api_key: {present, source,
origin, hint}, outpost_id, api_url, orchestrator_token, accepted}. source is env, file, keyring
or flag; hint is a masked form such as cog_…a1b2 (no token or key is ever printed). accepted
checks DEVIN_OUTPOSTS_TOKEN only; `outposts doctor` checks DEVIN_API_KEY. Exit codes: 0 a token is present (and
accepted, unless --offline) · 4 no token, or the API rejected it · 1 the check itself failed
(network): retry, or pass --offline.";

const LOGOUT_HELP: &str = "\
Examples:
  outposts auth logout                 # asks first on a terminal
  outposts auth logout --yes           # scripts and CI
  outposts --env-file deploy/.env auth logout --yes

Removes the outpost token (DEVIN_OUTPOSTS_TOKEN) and the v3 API key (DEVIN_API_KEY) of the
configured DEVIN_API_URL from the OS keyring, and their lines from .env (DEVIN_API_URL and
OUTPOST_ID stay; other lines are kept). Neither is revoked at Devin (there is no revocation
endpoint): rotate it in Devin's settings if it leaked. Without a terminal, --yes is required.
Exit 0 also when nothing was stored. A token or key set in the environment or outposts.toml is
reported, not edited.
Scripting: --json prints {removed: [{var, from: \"keyring\", account} | {var, from: \"file\",
path}], still_set_in: [...]} (where a token or key is still configured and was not edited).";

#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    #[command(subcommand)]
    pub command: AuthCommand,
}

#[derive(Debug, Subcommand)]
pub enum AuthCommand {
    /// Which token is in force (environment, .env, keyring) and whether the API accepts it.
    #[command(after_help = STATUS_HELP)]
    Status(StatusArgs),
    /// Store DEVIN_API_KEY (the v3 API key), read from stdin or a hidden prompt, in .env or
    /// the OS keyring.
    #[command(after_help = key::HELP)]
    SetKey(key::SetKeyArgs),
    /// Forget the stored token and v3 API key: their OS keyring entries and their .env lines
    /// (DEVIN_OUTPOSTS_TOKEN, DEVIN_API_KEY).
    #[command(after_help = LOGOUT_HELP)]
    Logout,
}

#[derive(Debug, clap::Args)]
pub struct StatusArgs {
    /// Do not call the API to check the token.
    #[arg(long)]
    pub offline: bool,
}

pub async fn run(ctx: &Ctx, args: Args) -> Result<ExitStatus> {
    match args.command {
        AuthCommand::Status(a) => status(ctx, a).await,
        AuthCommand::SetKey(a) => key::set_key(ctx, a).await,
        AuthCommand::Logout => logout(ctx).await,
    }
}

/// `env`, `file`, `keyring`, `flag` or `default`.
pub fn source_kind(s: &Source) -> &'static str {
    match s {
        Source::Flag => "flag",
        Source::Env(_) => "env",
        Source::DotEnv(_) | Source::ConfigFile(_) => "file",
        Source::Keyring => "keyring",
        Source::Default => "default",
    }
}

fn setting(r: Option<&Resolved>) -> Value {
    match r {
        Some(r) => {
            json!({"value": r.shown(), "source": source_kind(&r.source), "origin": r.source.to_string()})
        }
        None => Value::Null,
    }
}

async fn status(ctx: &Ctx, a: StatusArgs) -> Result<ExitStatus> {
    let api_url = ctx.config.devin_api_url()?;
    let api = ctx.config.get(&env::DEVIN_API_URL);
    let outpost = ctx.config.get(&env::OUTPOST_ID);
    let create = ctx.config.get(&env::DEVIN_OUTPOST_CREATE_TOKEN);
    let token = ctx
        .config
        .get(&env::DEVIN_OUTPOSTS_TOKEN)
        .filter(|r| !r.value.trim().is_empty());

    // One cheap authenticated read: the first queue entry of the outpost.
    let mut check_error = None;
    let accepted = match (&token, a.offline) {
        (Some(t), false) => {
            let client = DevinClient::new(ctx.http()?, &api_url, Secret::new(t.value.trim()));
            let q = ListQuery {
                outpost: outpost.as_ref().map(|o| o.value.clone()),
                page_size: Some(1),
                ..Default::default()
            };
            match client.list_page(&q, None).await {
                Ok(_) => Some(true),
                Err(e @ ApiError::Unauthorized { .. }) => {
                    check_error = Some(e.to_string());
                    Some(false)
                }
                Err(e) => {
                    check_error = Some(e.to_string());
                    None
                }
            }
        }
        _ => None,
    };

    // Where the keyring stands, when it could have supplied the missing token.
    let keyring_state = match &token {
        Some(_) => None,
        None => Some(
            match Keyring::from_config(&ctx.config)
                .get_async(&token_account(&api_url))
                .await
            {
                Ok(Some(_)) => "has a token, but it could not be used".to_string(),
                Ok(None) => format!("no entry for {api_url}"),
                Err(e) => e.to_string(),
            },
        ),
    };
    let api_key = ctx
        .config
        .get(&env::DEVIN_API_KEY)
        .filter(|r| !r.value.trim().is_empty());
    let presence = |r: &Option<Resolved>| match r {
        Some(t) => json!({
            "present": true, "source": source_kind(&t.source), "origin": t.source.to_string(),
            "hint": t.shown(),
        }),
        None => json!({"present": false}),
    };
    let token_doc = presence(&token);
    let doc = json!({
        "token": token_doc,
        "api_key": presence(&api_key),
        "accepted": accepted,
        "check_error": check_error,
        "outpost_id": setting(outpost.as_ref()),
        "api_url": {"value": api_url, "source": api.as_ref().map(|r| source_kind(&r.source)), "origin": api.as_ref().map(|r| r.source.to_string())},
        "orchestrator_token": setting(create.as_ref()),
        "env_file": ctx.config.dotenv_path(),
        "keyring": keyring_state,
    });
    ctx.printer.result(&doc, || {
        let mut out = String::new();
        match &token {
            Some(t) => out.push_str(&format!("Token:        {} (from {})\n", t.shown(), t.source)),
            None => out.push_str("Token:        none (DEVIN_OUTPOSTS_TOKEN is not set anywhere)\n"),
        }
        if let Some(k) = &keyring_state {
            out.push_str(&format!("Keyring:      {k}\n"));
        }
        match (accepted, &check_error) {
            (Some(true), _) => out.push_str("Accepted:     yes\n"),
            (Some(false), _) => out.push_str("Accepted:     no, the API rejected it\n"),
            (None, Some(e)) => out.push_str(&format!("Accepted:     unknown ({e})\n")),
            (None, None) if token.is_some() => out.push_str("Accepted:     not checked (--offline)\n"),
            _ => {}
        }
        match &outpost {
            Some(o) => out.push_str(&format!("Outpost:      {} (from {})\n", o.value, o.source)),
            None => out.push_str("Outpost:      none (OUTPOST_ID is not set)\n"),
        }
        let api_from = api.as_ref().map(|r| r.source.to_string()).unwrap_or_default();
        out.push_str(&format!("API URL:      {api_url} (from {api_from})\n"));
        match &create {
            Some(c) => out.push_str(&format!("Orchestrator: {} (from {})\n", c.shown(), c.source)),
            None => out.push_str("Orchestrator: none (DEVIN_OUTPOST_CREATE_TOKEN, for `outposts outpost create|delete`)\n"),
        }
        match &api_key {
            Some(k) => out.push_str(&format!("v3 API key:   {} (from {})\n", k.shown(), k.source)),
            None => out.push_str("v3 API key:   none (DEVIN_API_KEY, for `outposts session create|show|end` and `outpost default`; store it with `outposts auth set-key`)\n"),
        }
        out
    });

    match (&token, accepted) {
        (None, _) => Err(CliError::auth(
            "no outpost token: DEVIN_OUTPOSTS_TOKEN is not set in the environment, .env, outposts.toml or the OS keyring",
            Some("run `outposts connect` to connect an outpost, or set DEVIN_OUTPOSTS_TOKEN".into()),
        )
        .into()),
        (Some(t), Some(false)) => Err(CliError::auth(
            format!("the Devin API rejected the token from {}", t.source),
            Some("run `outposts connect` for a fresh token (add --force to replace the one in .env)".into()),
        )
        .into()),
        (Some(_), None) if check_error.is_some() => Err(CliError::failed(
            format!("could not check the token: {}", check_error.unwrap_or_default()),
            Some("check DEVIN_API_URL and the network, or pass --offline".into()),
        )
        .into()),
        _ => Ok(ExitStatus::Success),
    }
}

/// One stored credential `logout` found: in the keyring, in `.env`, or both.
struct Found {
    var: &'static env::EnvVar,
    account: String,
    in_keyring: bool,
    in_file: bool,
}

async fn logout(ctx: &Ctx) -> Result<ExitStatus> {
    let env_file = target_env_file(ctx);
    let values = dotenv::read_values(&env_file).map_err(|e| {
        CliError::usage(
            e.to_string(),
            Some("fix the file, or pass --env-file".into()),
        )
    })?;
    let api_url = ctx.config.devin_api_url()?;
    let keyring = Keyring::from_config(&ctx.config);
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
        if !ctx.confirm(&format!("Remove {}?", places.join(" and ")))? {
            ctx.printer.note("Nothing removed.");
            return Ok(ExitStatus::Failure);
        }
        let mut from_file = EnvUpdate::new();
        for f in &found {
            if f.in_keyring {
                keyring.delete_async(&f.account).await.map_err(|e| {
                    CliError::failed(
                        format!("cannot remove {} from the OS keyring: {e}", f.var.name),
                        Some("unlock the keyring and retry".into()),
                    )
                })?;
                removed.push(json!({"var": f.var.name, "from": "keyring", "account": f.account}));
            }
            if f.in_file {
                from_file = from_file.remove(f.var.name);
                removed.push(json!({"var": f.var.name, "from": "file", "path": env_file}));
            }
        }
        if !from_file.is_empty() {
            dotenv::apply(&env_file, &from_file)
                .map_err(|e| CliError::failed(e.to_string(), None))?;
        }
    }

    // What still provides a token or key is reported, never edited.
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
    for r in &remaining {
        ctx.printer.warn(&format!("still set in {r}"));
    }
    let doc = json!({"removed": removed, "still_set_in": remaining});
    ctx.printer.result(&doc, || {
        if removed.is_empty() {
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
