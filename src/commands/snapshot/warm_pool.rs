//! `outposts snapshot warm-pool [show] | set N | delete`: the Daytona warm pool of the snapshot
//! in use (domain logic in `provider::daytona::warm_pool`).

use anyhow::Result;
use clap::Subcommand;
use schemars::JsonSchema;
use serde::Serialize;

use super::Ctx;
use crate::api::daytona_types::WarmPool;
use crate::env;
use crate::error::ExitStatus;
use crate::provider::daytona::warm_pool;

pub const AFTER_HELP: &str = "\
Examples:
  outposts snapshot warm-pool                   # show the pool of the snapshot in use
  outposts snapshot warm-pool set 3             # keep three started sandboxes ready
  outposts snapshot warm-pool delete
  outposts snapshot warm-pool show --snapshot my-snapshot --json

Daytona hands a pool's started sandbox to a create that uses the pool's snapshot and region,
the snapshot's resources and default user, and no custom env, volumes or secrets — the
orchestrator's creates are such creates. Pools count against the organization's quota and must
be enabled for it. The snapshot in use: --snapshot, else SNAPSHOT_NAME, else the content-hashed
default; the region: DAYTONA_TARGET, else any.
Scripting: --json prints {snapshot, pool: null | {id, snapshot, target, size, ready}} (delete:
{snapshot, deleted, id}).";

#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct WarmPoolArgs {
    #[command(subcommand)]
    pub action: Option<WarmPoolAction>,
    /// Snapshot whose pool this is [default: SNAPSHOT_NAME or the content-hashed default].
    #[arg(long, global = true)]
    pub snapshot: Option<String>,
}

#[derive(Debug, Subcommand)]
pub enum WarmPoolAction {
    /// Show the pool (the default).
    #[command(
        after_help = "Examples:\n  outposts snapshot warm-pool show\n  outposts snapshot warm-pool show --snapshot my-snapshot --json\n\nScripting: --json prints {snapshot, pool: null | {id, snapshot, target, size, ready}}."
    )]
    Show,
    /// Keep N started sandboxes of the snapshot ready (creates the pool; 0 drains it).
    #[command(
        after_help = "Examples:\n  outposts snapshot warm-pool set 3\n  outposts snapshot warm-pool set 0      # drain, keep the pool\n\nScripting: --json prints {snapshot, pool: {id, snapshot, target, size, ready}}. A second pool\nfor the snapshot is never made: an existing one is resized."
    )]
    Set {
        /// How many warm sandboxes.
        #[arg(value_parser = clap::value_parser!(u32).range(0..=1000))]
        size: u32,
    },
    /// Delete the pool and its waiting sandboxes.
    #[command(
        after_help = "Examples:\n  outposts snapshot warm-pool delete\n  outposts snapshot warm-pool delete --json\n\nScripting: --json prints {snapshot, deleted, id}; no pool is not an error (deleted: false)."
    )]
    Delete,
}

/// `outposts snapshot warm-pool [show|set] --json`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct PoolDoc {
    pub snapshot: String,
    /// Null when the snapshot has no pool.
    pub pool: Option<PoolView>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct PoolView {
    pub id: String,
    pub snapshot: String,
    pub target: String,
    /// Sandboxes the pool keeps.
    pub size: u64,
    /// Sandboxes waiting now.
    pub ready: u64,
}

/// `outposts snapshot warm-pool delete --json`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct PoolDeleteDoc {
    pub snapshot: String,
    /// False when there was no pool (not an error).
    pub deleted: bool,
    pub id: Option<String>,
}

fn view(p: &WarmPool) -> PoolView {
    PoolView {
        id: p.id.clone(),
        snapshot: p.snapshot.clone(),
        target: p.target.clone(),
        size: p.pool as u64,
        ready: p.current_size as u64,
    }
}

fn line(snapshot: &str, p: Option<&WarmPool>) -> String {
    match p {
        Some(p) => format!(
            "warm pool {} for {snapshot} ({}): {} of {} ready",
            p.id, p.target, p.current_size as u64, p.pool as u64
        ),
        None => format!("no warm pool for {snapshot}"),
    }
}

pub async fn run(ctx: &Ctx, a: WarmPoolArgs, snapshot: String) -> Result<ExitStatus> {
    let client = ctx.daytona()?;
    let target = ctx.config.value(&env::DAYTONA_TARGET);
    let target = target.as_deref();
    match a.action.unwrap_or(WarmPoolAction::Show) {
        WarmPoolAction::Show => {
            let p = warm_pool::find(&client, &snapshot, target).await?;
            ctx.printer.result(
                &PoolDoc {
                    snapshot: snapshot.clone(),
                    pool: p.as_ref().map(view),
                },
                || line(&snapshot, p.as_ref()),
            );
        }
        WarmPoolAction::Set { size } => {
            let p = warm_pool::set(&client, &snapshot, target, size).await?;
            ctx.printer.result(
                &PoolDoc {
                    snapshot: snapshot.clone(),
                    pool: Some(view(&p)),
                },
                || line(&snapshot, Some(&p)),
            );
        }
        WarmPoolAction::Delete => {
            let p = warm_pool::delete(&client, &snapshot, target).await?;
            ctx.printer.result(
                &PoolDeleteDoc {
                    snapshot: snapshot.clone(),
                    deleted: p.is_some(),
                    id: p.as_ref().map(|p| p.id.clone()),
                },
                || match &p {
                    Some(p) => format!("deleted warm pool {} for {snapshot}", p.id),
                    None => format!("no warm pool for {snapshot}: nothing deleted"),
                },
            );
        }
    }
    Ok(ExitStatus::Success)
}
