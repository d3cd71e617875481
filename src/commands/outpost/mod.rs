//! `outposts outpost create|list|get|delete`: outposts of the account (`/opbeta/outposts`).
//! Create and delete need an orchestrator-scope token, read from DEVIN_OUTPOST_CREATE_TOKEN or
//! the variable `--token-env` names — never from a flag value.

pub(crate) mod default;

use anyhow::Result;
use clap::{Subcommand, ValueEnum};
use schemars::JsonSchema;
use serde::Serialize;

use super::Ctx;
use super::connect::target_env_file;
use crate::api::ApiError;
use crate::api::devin::{DeleteOutcome, DevinClient, Outpost, Platform};
use crate::api::outpost_lookup::{OutpostLookupError, resolve_outpost};
use crate::env;
use crate::error::{CliError, ExitStatus};
use crate::secrets::Secret;
use crate::secrets::dotenv::{self, EnvUpdate};
use crate::settings::DevinSettings;

const AFTER_HELP: &str = "\
Examples:
  outposts outpost create gpu-h200 --platform linux --description \"H200 pool\"
  outposts outpost list
  outposts outpost get gpu-h200
  outposts outpost delete outpost_env-3a1abb1c2bb84512ad9aedb3ca0bf411 --yes

Tokens: create and delete need an orchestrator-scope token (a service user with the Manage
outposts permission) in DEVIN_OUTPOST_CREATE_TOKEN, or in the variable named by --token-env.
list and get use DEVIN_OUTPOSTS_TOKEN, else DEVIN_OUTPOST_CREATE_TOKEN. Tokens are never flag
values, so they stay out of shell history and process listings.";

const CREATE_HELP: &str = "\
Examples:
  outposts outpost create gpu-h200 --platform linux
  OUTPOST_ID=$(outposts outpost create win-build --platform windows)
  outposts outpost create mac-ci --platform macos --write-env   # also sets OUTPOST_ID in .env
  outposts outpost create rhel --platform linux --token-env MY_ORCH_TOKEN --json

Scripting: stdout is the new outpost id alone (JSON: the outpost object, plus env_file with
--write-env). A name already in use exits 1 and names the existing outpost. A token without
the orchestrator scope exits 4.";

const LIST_HELP: &str = "\
Examples:
  outposts outpost list
  outposts outpost list --json | jq -r '.[] | select(.name == \"gpu\") | .outpost_id'

Scripting: --json prints one array of every outpost of the account (all pages), each with
outpost_id, name, platform, description, queue_depth and active_claims.";

const GET_HELP: &str = "\
Examples:
  outposts outpost get outpost_env-3a1abb1c2bb84512ad9aedb3ca0bf411
  outposts outpost get \"$OUTPOST_ID\" --json | jq .queue_depth

Takes an id or a name (an id match wins; a name shared by several outposts is refused).
Scripting: exit 1 when no outpost has that id or name; the error lists the account's outposts.";

const DELETE_HELP: &str = "\
Examples:
  outposts outpost delete outpost_env-3a1abb1c2bb84512ad9aedb3ca0bf411        # asks first
  outposts outpost delete gpu-h200 --yes
  outposts outpost delete \"$OUTPOST_ID\" --yes --json

Scripting: without a terminal --yes is required (exit 2 otherwise). An outpost that is already
gone is not an error (exit 0, \"already_gone\": true), so retries by id are safe; a name that
matches no outpost is (exit 1). Sessions still
queued for a deleted outpost are not moved anywhere.";

#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    #[command(subcommand)]
    pub command: OutpostCommand,
}

impl Args {
    /// `create --write-env` creates the `.env` it writes.
    pub fn writes_env_file(&self) -> bool {
        matches!(&self.command, OutpostCommand::Create(c) if c.write_env)
    }
}

#[derive(Debug, Subcommand)]
pub enum OutpostCommand {
    /// Create an outpost and print its OUTPOST_ID (orchestrator scope).
    #[command(after_help = CREATE_HELP)]
    Create(CreateArgs),
    /// List every outpost of the account (all pages).
    #[command(after_help = LIST_HELP)]
    List(ReadArgs),
    /// Show one outpost with its queue depth and active claims.
    #[command(after_help = GET_HELP)]
    Get(GetArgs),
    /// Delete an outpost (orchestrator scope); an outpost already gone is not an error.
    #[command(after_help = DELETE_HELP)]
    Delete(DeleteArgs),
    /// Show or change the organisation's default platform (DEVIN_API_KEY, DEVIN_ORG_ID).
    Default(default::Args),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutpostPlatform {
    Linux,
    Windows,
    Macos,
}

impl OutpostPlatform {
    fn wire(self) -> Platform {
        match self {
            OutpostPlatform::Linux => Platform::Linux,
            OutpostPlatform::Windows => Platform::Windows,
            OutpostPlatform::Macos => Platform::Macos,
        }
    }
}

#[derive(Debug, Clone, clap::Args)]
pub struct TokenArgs {
    /// Read the token from this environment variable instead of the default one.
    #[arg(long, value_name = "VAR")]
    pub token_env: Option<String>,
}

#[derive(Debug, clap::Args)]
pub struct CreateArgs {
    /// Name of the outpost (unique in the account).
    pub name: String,
    /// Platform of its machines.
    #[arg(long, value_enum)]
    pub platform: OutpostPlatform,
    /// Free-text description.
    #[arg(long, value_name = "TEXT")]
    pub description: Option<String>,
    /// Also write OUTPOST_ID to .env (or --env-file), replacing a previous value.
    #[arg(long)]
    pub write_env: bool,
    #[command(flatten)]
    pub token: TokenArgs,
}

#[derive(Debug, clap::Args)]
pub struct ReadArgs {
    #[command(flatten)]
    pub token: TokenArgs,
}

#[derive(Debug, clap::Args)]
pub struct GetArgs {
    /// Outpost id (`outpost_env-…`) or name.
    #[arg(value_name = "ID_OR_NAME")]
    pub id: String,
    #[command(flatten)]
    pub token: TokenArgs,
}

#[derive(Debug, clap::Args)]
pub struct DeleteArgs {
    /// Outpost id (`outpost_env-…`) or name.
    #[arg(value_name = "ID_OR_NAME")]
    pub id: String,
    #[command(flatten)]
    pub token: TokenArgs,
}

pub async fn run(ctx: &Ctx, args: Args) -> Result<ExitStatus> {
    match args.command {
        OutpostCommand::Create(a) => create(ctx, a).await,
        OutpostCommand::List(a) => list(ctx, a).await,
        OutpostCommand::Get(a) => get(ctx, a).await,
        OutpostCommand::Delete(a) => delete(ctx, a).await,
        OutpostCommand::Default(a) => default::run(ctx, a).await,
    }
}

/// A client with the token of `--token-env VAR`, else of the first of `defaults` that is set.
/// Returns the variable's name for messages.
fn client(
    ctx: &Ctx,
    token: &TokenArgs,
    defaults: &[&'static env::EnvVar],
) -> Result<(DevinClient, String)> {
    let base = ctx.config.devin_api_url()?;
    let (name, value) = match &token.token_env {
        Some(var) => {
            let var = var.trim();
            if !dotenv::valid_key(var) {
                return Err(CliError::usage(
                    format!("--token-env needs a variable name, not {var:?}"),
                    Some("pass the NAME of an environment variable that holds the token, e.g. --token-env MY_ORCH_TOKEN".into()),
                )
                .into());
            }
            let value = match env::find(var) {
                Some(declared) => ctx.config.value(declared),
                None => ctx.config.process_env(var).map(str::to_string),
            };
            (var.to_string(), value)
        }
        None => defaults
            .iter()
            .find_map(|v| {
                ctx.config
                    .value(v)
                    .map(|val| (v.name.to_string(), Some(val)))
            })
            .unwrap_or_else(|| (defaults[0].name.to_string(), None)),
    };
    let Some(value) = value.filter(|v| !v.trim().is_empty()) else {
        let what = if defaults[0].name == env::DEVIN_OUTPOST_CREATE_TOKEN.name {
            "an orchestrator-scope token (a service user with the Manage outposts permission)"
        } else {
            "an outpost token (`outposts connect`) or an orchestrator-scope token"
        };
        return Err(CliError::auth(
            format!("{name} is not set"),
            Some(format!(
                "set {name} to {what}, or pass --token-env VAR naming the variable that holds one"
            )),
        )
        .into());
    };
    Ok((
        DevinClient::new(
            DevinSettings::new(&base, Secret::new(value.trim())),
            ctx.http()?,
        ),
        name,
    ))
}

const ORCHESTRATOR: &[&env::EnvVar] = &[&env::DEVIN_OUTPOST_CREATE_TOKEN];
const READER: &[&env::EnvVar] = &[&env::DEVIN_OUTPOSTS_TOKEN, &env::DEVIN_OUTPOST_CREATE_TOKEN];

/// A 401/403 on an orchestrator call, explained.
fn scope_error(e: ApiError, var: &str) -> anyhow::Error {
    match e {
        ApiError::Unauthorized {
            status: 403,
            message,
            ..
        } => CliError::auth(
            format!("the token in {var} may not manage outposts: {message}"),
            Some("create and delete need the orchestrator scope (account.outposts.orchestrator): use a service user with the Manage outposts permission".into()),
        )
        .into(),
        ApiError::Unauthorized { status, message, .. } => CliError::auth(
            format!("the Devin API rejected the token in {var} (HTTP {status}): {message}"),
            Some(format!("check {var}")),
        )
        .into(),
        other => other.into(),
    }
}

/// `outposts outpost create --json`: the outpost as `outpost get` shows it, and the `.env` that
/// now names it.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CreatedDoc {
    #[serde(flatten)]
    pub outpost: Outpost,
    pub env_file: Option<std::path::PathBuf>,
}

/// `outposts outpost delete --json`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct DeletedDoc {
    pub outpost_id: String,
    pub deleted: bool,
    pub already_gone: bool,
}

async fn create(ctx: &Ctx, a: CreateArgs) -> Result<ExitStatus> {
    let name = a.name.trim().to_string();
    crate::connect::validate_name(&name).map_err(|e| {
        CliError::usage(e, Some("pass a name of 1-100 printable characters".into()))
    })?;
    let env_file = target_env_file(ctx);
    let (client, var) = client(ctx, &a.token, ORCHESTRATOR)?;
    let outpost = match client
        .create_outpost(&name, Some(a.platform.wire()), a.description.as_deref())
        .await
    {
        Ok(o) => o,
        Err(ApiError::Conflict { message, .. }) => {
            let existing = client
                .list_outposts()
                .await
                .ok()
                .and_then(|all| {
                    all.into_iter().find(|o| {
                        o.name
                            .as_deref()
                            .is_some_and(|n| n.eq_ignore_ascii_case(&name))
                    })
                })
                .map(|o| format!(" ({})", o.outpost_id))
                .unwrap_or_default();
            return Err(CliError::failed(
                format!("an outpost named {name:?} already exists{existing}: {message}"),
                Some(
                    "pick another name, or use the existing outpost (`outposts outpost list`)"
                        .into(),
                ),
            )
            .into());
        }
        Err(e) => return Err(scope_error(e, &var)),
    };
    let mut written = None;
    if a.write_env {
        let update = EnvUpdate::new().set_with_aliases(
            env::OUTPOST_ID.name,
            env::OUTPOST_ID.aliases,
            &outpost.outpost_id,
        );
        match dotenv::apply(&env_file, &update) {
            Ok(change) => {
                let verb = if change.replaced.is_empty() {
                    "Wrote"
                } else {
                    "Replaced"
                };
                ctx.printer.note(&format!(
                    "{verb} OUTPOST_ID in {} (mode 0600).",
                    env_file.display()
                ));
                written = Some(env_file.clone());
            }
            Err(e) => {
                return Err(CliError::failed(
                    format!("outpost {} was created, but {e}", outpost.outpost_id),
                    Some(format!("set OUTPOST_ID={} yourself", outpost.outpost_id)),
                )
                .into());
            }
        }
    }
    ctx.printer.note(&format!(
        "Created outpost \"{name}\" ({}): OUTPOST_ID={}",
        a.platform.wire().as_str(),
        outpost.outpost_id
    ));
    let doc = CreatedDoc {
        outpost: outpost.clone(),
        env_file: written,
    };
    ctx.printer
        .result(&doc, || format!("{}\n", outpost.outpost_id));
    Ok(ExitStatus::Success)
}

async fn list(ctx: &Ctx, a: ReadArgs) -> Result<ExitStatus> {
    let (client, var) = client(ctx, &a.token, READER)?;
    let all = client
        .list_outposts()
        .await
        .map_err(|e| scope_error(e, &var))?;
    ctx.printer.result(&all, || table(&all));
    ctx.printer.note(&format!("{} outpost(s)", all.len()));
    Ok(ExitStatus::Success)
}

fn table(all: &[Outpost]) -> String {
    if all.is_empty() {
        return "No outposts.\n".into();
    }
    let rows: Vec<[String; 5]> = all
        .iter()
        .map(|o| {
            [
                o.outpost_id.clone(),
                o.name.clone().unwrap_or_else(|| "-".into()),
                o.platform
                    .map(|p| p.as_str().to_string())
                    .unwrap_or_else(|| "-".into()),
                o.queue_depth
                    .map(|n| n.to_string())
                    .unwrap_or_else(|| "-".into()),
                o.active_claims
                    .map(|n| n.to_string())
                    .unwrap_or_else(|| "-".into()),
            ]
        })
        .collect();
    let header = ["ID", "NAME", "PLATFORM", "QUEUED", "CLAIMED"];
    let mut widths = header.map(|h| h.chars().count());
    for r in &rows {
        for (i, c) in r.iter().enumerate() {
            widths[i] = widths[i].max(c.chars().count());
        }
    }
    let line = |cells: [&str; 5]| {
        let mut s = String::new();
        for (i, c) in cells.iter().enumerate() {
            if i + 1 == cells.len() {
                s.push_str(c);
            } else {
                s.push_str(&format!("{c:<w$}  ", w = widths[i]));
            }
        }
        s.trim_end().to_string() + "\n"
    };
    let mut out = line(header);
    for r in &rows {
        out.push_str(&line([&r[0], &r[1], &r[2], &r[3], &r[4]]));
    }
    out
}

/// A lookup failure: the service's own errors explained like every other call here.
fn lookup_error(e: OutpostLookupError, var: &str) -> anyhow::Error {
    match e {
        OutpostLookupError::Api(api) => scope_error(api, var),
        other => other.into(),
    }
}

async fn get(ctx: &Ctx, a: GetArgs) -> Result<ExitStatus> {
    let (client, var) = client(ctx, &a.token, READER)?;
    let o = resolve_outpost(&client, &a.id)
        .await
        .map_err(|e| lookup_error(e, &var))?;
    ctx.printer.result(&o, || {
        let opt = |v: Option<String>| v.unwrap_or_else(|| "-".into());
        format!(
            "ID:           {}\nName:         {}\nPlatform:     {}\nDescription:  {}\nQueued:       {}\nClaimed:      {}\n",
            o.outpost_id,
            opt(o.name.clone()),
            opt(o.platform.map(|p| p.as_str().to_string())),
            opt(o.description.clone()),
            opt(o.queue_depth.map(|n| n.to_string())),
            opt(o.active_claims.map(|n| n.to_string())),
        )
    });
    Ok(ExitStatus::Success)
}

async fn delete(ctx: &Ctx, a: DeleteArgs) -> Result<ExitStatus> {
    let (client, var) = client(ctx, &a.token, ORCHESTRATOR)?;
    let wanted = a.id.trim().to_string();
    // An id that no longer resolves is deleted anyway: the server's 404 makes a retry safe.
    // A name that resolves to nothing is a typo, and is reported with the account's outposts.
    let id = match resolve_outpost(&client, &wanted).await {
        Ok(o) => o.outpost_id,
        Err(OutpostLookupError::NotFound { .. }) if wanted.starts_with("outpost_") => wanted,
        Err(e) => return Err(lookup_error(e, &var)),
    };
    let a = DeleteArgs { id, ..a };
    if !ctx.confirm(&format!(
        "Delete outpost {}? Sessions queued for it will not be served",
        a.id
    ))? {
        ctx.printer.note("Nothing deleted.");
        return Ok(ExitStatus::Failure);
    }
    let outcome = client
        .delete_outpost(&a.id)
        .await
        .map_err(|e| scope_error(e, &var))?;
    let gone = outcome == DeleteOutcome::AlreadyGone;
    let doc = DeletedDoc {
        outpost_id: a.id.clone(),
        deleted: !gone,
        already_gone: gone,
    };
    ctx.printer.result(&doc, || {
        if gone {
            format!("Outpost {} does not exist (already deleted).\n", a.id)
        } else {
            format!("Deleted outpost {}.\n", a.id)
        }
    });
    Ok(ExitStatus::Success)
}
