//! `outposts worker launch|list|status|logs|exec|stop`: fixed workers running
//! `devin worker start --outpost=…` in sandboxes (`launch` is in `worker_launch.rs`). Domain
//! logic lives in [`crate::worker`].

pub(crate) mod launch;
pub(crate) mod list;

use std::time::Duration;

use anyhow::Result;
use clap::Subcommand;
use futures::StreamExt;
use schemars::JsonSchema;
use serde::Serialize;

use super::Ctx;
use crate::config::parse_duration;
use crate::error::ExitStatus;
use crate::provider::{ProviderKind, SandboxInfo, SandboxState};
use crate::worker::registry::{self, Registry};
use crate::worker::{LogLine, WorkerStatus, Workers};

const AFTER_HELP: &str = "\
Examples:
  outposts worker launch --provider coreweave --outpost my-outpost --count 2
  outposts worker list
  outposts worker status sb-1a2b3c4d5e6f
  outposts worker logs sb-1a2b3c4d5e6f --tail 50 --follow
  outposts worker exec sb-1a2b3c4d5e6f -- git --version
  outposts worker stop sb-1a2b3c4d5e6f --yes

A worker is a sandbox running `devin worker start --outpost=…`: it claims the outpost's sessions
from Devin's queue and serves them one at a time. `launch` runs on --provider (default
OUTPOSTS_PROVIDER or daytona); the other commands find the worker's provider themselves (the
one it was launched on from here, else every configured provider is searched).";

const LIST_HELP: &str = "\
Examples:
  outposts worker list
  outposts worker list --outpost my-outpost --json | jq -r '.[].id'

Without --provider, lists the workers of every configured provider. HEALTH: serving, auth
failed, restarting (N), stopped or not serving (as `worker status` says).
Scripting: --json prints an array of {\"id\", \"name\", \"provider\", \"outpost\", \"mode\",
\"state\", \"raw_state\", \"restart_count\", \"created_at\", \"labels\", \"health\"}. Workers are found by
their outposts.role=worker label (a CoreWeave tag); finished CoreWeave sandboxes are not listed.";

const STATUS_HELP: &str = "\
Examples:
  outposts worker status sb-1a2b3c4d5e6f
  outposts worker status sb-1a2b3c4d5e6f --json | jq .restart_count

Shows the sandbox state, each container's state, exit code and restart count, and whether the
worker reached the queue; warns about a restart loop and about an authentication failure seen in
its log. Exit 0 when the worker serves, 1 when it does not (stopped, restarting, token
rejected). Scripting: --json prints one object (warnings included).";

const LOGS_HELP: &str = "\
Examples:
  outposts worker logs sb-1a2b3c4d5e6f --tail 5
  outposts worker logs sb-1a2b3c4d5e6f --follow
  outposts worker logs sb-1a2b3c4d5e6f --json | jq -r .line

The worker's own output (the sandbox's main process; the worker log file on Daytona).
Scripting: --json prints NDJSON, one {\"sandbox_id\", \"line\"} per line. Secrets are masked.";

const EXEC_HELP: &str = "\
Examples:
  outposts worker exec sb-1a2b3c4d5e6f -- git --version
  outposts worker exec sb-1a2b3c4d5e6f -- sh -c 'ls -la /workspace'
  outposts worker exec sb-1a2b3c4d5e6f --json -- cat /workspace/outpost-proof.txt

Runs the command (an argv, no shell unless you ask for one) in the worker's sandbox, prints its
stdout and stderr, and exits with its exit code. Scripting: --json prints {\"exit_code\",
\"stdout\", \"stderr\"} and still exits with the command's code.";

const STOP_HELP: &str = "\
Examples:
  outposts worker stop sb-1a2b3c4d5e6f            # asks first on a terminal
  outposts worker stop sb-1a2b3c4d5e6f --yes --no-snapshot

Stops the worker and its sandbox (on Daytona and locally its disk is kept). On CoreWeave, where
a stop deletes the sandbox, its /workspace is snapshotted first (as `cws-agent down` does) and
the snapshot id printed for `worker launch --restore`; --no-snapshot skips it. Without a
terminal, --yes is required.
Scripting: --json prints {\"id\", \"name\", \"provider\", \"state\", \"raw_state\",
\"snapshot\": {\"taken\", \"id\" | \"reason\"}}.";

#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    #[command(subcommand)]
    pub command: WorkerCommand,
}

#[derive(Debug, Subcommand)]
pub enum WorkerCommand {
    /// Create sandboxes that run `devin worker start --outpost=…` and wait until they serve.
    #[command(after_help = launch::LAUNCH_HELP)]
    Launch(launch::LaunchArgs),
    /// List worker sandboxes.
    #[command(after_help = LIST_HELP)]
    List(ListArgs),
    /// Show a worker's sandbox, containers, restarts and health.
    #[command(after_help = STATUS_HELP)]
    Status(IdArgs),
    /// Print a worker's log.
    #[command(after_help = LOGS_HELP)]
    Logs(LogsArgs),
    /// Run a command in a worker's sandbox.
    #[command(after_help = EXEC_HELP)]
    Exec(ExecArgs),
    /// Stop a worker and its sandbox.
    #[command(after_help = STOP_HELP)]
    Stop(StopArgs),
}

#[derive(Debug, Clone, clap::Args)]
pub struct ProviderArg {
    /// Where the workers run [default: launch: OUTPOSTS_PROVIDER or daytona; other commands:
    /// the worker's own, found by its id].
    #[arg(long, value_enum)]
    pub provider: Option<ProviderKind>,
}

#[derive(Debug, clap::Args)]
pub struct ListArgs {
    /// Only workers of this outpost (its name or id).
    #[arg(long, value_name = "NAME")]
    pub outpost: Option<String>,
    #[command(flatten)]
    pub provider: ProviderArg,
}

#[derive(Debug, clap::Args)]
pub struct IdArgs {
    /// Worker sandbox id (or name).
    pub id: String,
    #[command(flatten)]
    pub provider: ProviderArg,
}

#[derive(Debug, clap::Args)]
pub struct LogsArgs {
    /// Worker sandbox id (or name).
    pub id: String,
    #[command(flatten)]
    pub provider: ProviderArg,
    /// Only the last N lines.
    #[arg(long, value_name = "N")]
    pub tail: Option<u32>,
    /// Keep printing new lines until Ctrl-C (or the worker's sandbox ends).
    #[arg(short, long)]
    pub follow: bool,
}

#[derive(Debug, clap::Args)]
pub struct ExecArgs {
    /// Worker sandbox id (or name).
    pub id: String,
    #[command(flatten)]
    pub provider: ProviderArg,
    /// Longest the command may run (e.g. 90s, 5m; bare numbers are seconds).
    #[arg(long, value_name = "DURATION", default_value = "5m", value_parser = parse_duration)]
    pub timeout: Duration,
    /// The command and its arguments, after `--`.
    #[arg(last = true, required = true, value_name = "CMD")]
    pub command: Vec<String>,
}

#[derive(Debug, clap::Args)]
pub struct StopArgs {
    /// Worker sandbox id (or name).
    pub id: String,
    #[command(flatten)]
    pub provider: ProviderArg,
    /// Do not try to snapshot the workspace first.
    #[arg(long)]
    pub no_snapshot: bool,
}

pub async fn run(ctx: &Ctx, args: Args) -> Result<ExitStatus> {
    match args.command {
        WorkerCommand::Launch(a) => launch::launch(ctx, a).await,
        WorkerCommand::List(a) => list::list(ctx, a).await,
        WorkerCommand::Status(a) => status(ctx, a).await,
        WorkerCommand::Logs(a) => logs(ctx, a).await,
        WorkerCommand::Exec(a) => exec(ctx, a).await,
        WorkerCommand::Stop(a) => stop(ctx, a).await,
    }
}

pub(super) fn kind(ctx: &Ctx, flag: &ProviderArg) -> Result<ProviderKind> {
    Ok(ctx.provider_kind(flag.provider)?)
}

pub(super) async fn workers(ctx: &Ctx, flag: &ProviderArg) -> Result<Workers> {
    let kind = kind(ctx, flag)?;
    let http = ctx.http()?;
    Workers::build(ctx.provider_settings(kind)?, http).await
}

/// Where workers are remembered (the state dir's `workers.json`).
pub(super) fn registry(ctx: &Ctx) -> Result<Registry> {
    Ok(Registry::new(&ctx.config.state_dir()?))
}

/// Every configured provider, in search order (see [`crate::worker::registry::candidates`]).
pub(super) async fn candidates(ctx: &Ctx, id: Option<&str>) -> Result<Vec<Workers>> {
    let default = kind(ctx, &ProviderArg { provider: None })?;
    let settings = |k| Ok(ctx.provider_settings(k)?);
    Ok(registry::candidates(settings, ctx.http()?, default, &registry(ctx)?, id).await)
}

/// The worker `id` (or name) and its provider: `--provider` when given, else found (see
/// [`crate::worker::registry::find`]) — so `outposts worker stop ID --yes` works as printed.
pub(super) async fn find_worker(
    ctx: &Ctx,
    flag: &ProviderArg,
    id: &str,
) -> Result<(Workers, SandboxInfo)> {
    if flag.provider.is_some() {
        let w = workers(ctx, flag).await?;
        let info = w.find(id).await?;
        return Ok((w, info));
    }
    registry::find(candidates(ctx, Some(id)).await?, id).await
}

pub(super) fn age(created_at: Option<f64>) -> String {
    created_at
        .map(|t| super::orchestrator::watch::age(crate::time::now() - t))
        .unwrap_or_else(|| "-".into())
}

fn render_status(s: &WorkerStatus) -> String {
    let v = &s.view;
    let mut out = format!(
        "worker     {} ({})\nprovider   {} ({} mode)\noutpost    {}\nsandbox    {} ({})\n",
        v.id,
        v.name,
        v.provider,
        v.mode.as_str(),
        v.outpost.as_deref().unwrap_or("-"),
        v.state,
        v.raw_state
    );
    out.push_str(&format!(
        "process    {}, {} restart{}, last exit code {}\n",
        s.worker_state.as_deref().unwrap_or("unknown"),
        v.restart_count,
        if v.restart_count == 1 { "" } else { "s" },
        s.exit_code
            .map(|c| c.to_string())
            .unwrap_or_else(|| "-".into())
    ));
    out.push_str(&format!(
        "serving    {}\n",
        if s.serving {
            "yes (reached the queue)"
        } else if s.auth_failure.is_some() {
            "no (authentication failed)"
        } else {
            "no"
        }
    ));
    for c in &s.containers {
        out.push_str(&format!(
            "container  {}: {}, exit code {}, {} restart{}\n",
            c.name,
            c.state,
            c.exit_code
                .map(|c| c.to_string())
                .unwrap_or_else(|| "-".into()),
            c.restart_count,
            if c.restart_count == 1 { "" } else { "s" }
        ));
    }
    if !s.last_log_lines.is_empty() {
        out.push_str("log (last lines):\n");
        for l in &s.last_log_lines {
            out.push_str(&format!("  {l}\n"));
        }
    }
    out
}

async fn status(ctx: &Ctx, a: IdArgs) -> Result<ExitStatus> {
    let (workers, info) = find_worker(ctx, &a.provider, &a.id).await?;
    let s = workers.status(&info.id).await?;
    ctx.printer.result(&s, || render_status(&s));
    for w in &s.warnings {
        ctx.printer.warn(w);
    }
    // A worker that does not serve is not healthy, whatever the reason: scripts see it.
    Ok(if s.serving {
        ExitStatus::Success
    } else {
        ExitStatus::Failure
    })
}

async fn logs(ctx: &Ctx, a: LogsArgs) -> Result<ExitStatus> {
    let (workers, info) = find_worker(ctx, &a.provider, &a.id).await?;
    let mut stream = workers.logs(&info.id, a.tail, a.follow).await?;
    while let Some(line) = stream.next().await {
        let line = line?;
        if ctx.printer.json() {
            ctx.printer.json_doc(&LogLine {
                sandbox_id: info.id.clone(),
                line,
            });
        } else {
            ctx.printer.line(&line);
        }
    }
    Ok(ExitStatus::Success)
}

/// `outposts worker exec --json`: the command's own exit code and output.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ExecDoc {
    pub exit_code: i32,
    pub stdout: String,
    pub stderr: String,
}

async fn exec(ctx: &Ctx, a: ExecArgs) -> Result<ExitStatus> {
    let (workers, info) = find_worker(ctx, &a.provider, &a.id).await?;
    let out = workers.exec(&info.id, &a.command, Some(a.timeout)).await?;
    let doc = ExecDoc {
        exit_code: out.exit_code,
        stdout: out.stdout.clone(),
        stderr: out.stderr.clone(),
    };
    ctx.printer.result(&doc, || out.stdout.clone());
    if !ctx.printer.json() && !out.stderr.is_empty() {
        eprint!("{}", crate::secrets::redact(&out.stderr));
    }
    Ok(ExitStatus::Passthrough(
        u8::try_from(out.exit_code).unwrap_or(1),
    ))
}

/// `outposts worker stop --json`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct StopDoc {
    pub id: String,
    pub name: String,
    #[schemars(with = "String")]
    pub provider: ProviderKind,
    #[schemars(with = "String")]
    pub state: SandboxState,
    pub raw_state: String,
    pub snapshot: SnapshotTaken,
}

/// The workspace snapshot taken before the stop: `{taken: true, id}` or `{taken: false, reason}`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SnapshotTaken {
    pub taken: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

async fn stop(ctx: &Ctx, a: StopArgs) -> Result<ExitStatus> {
    let (workers, info) = find_worker(ctx, &a.provider, &a.id).await?;
    let kind = workers.kind();
    if !ctx.confirm(&format!(
        "Stop worker {} ({}) on {kind}? Its current session is released and picked up elsewhere",
        info.name, info.id
    ))? {
        ctx.printer.note("nothing stopped");
        return Ok(ExitStatus::Failure);
    }
    let progress = ctx.printer.spinner(&format!(
        "stopping {} ({}){}",
        info.name,
        info.id,
        if a.no_snapshot {
            ""
        } else {
            ", snapshotting its workspace first where the provider keeps it apart"
        }
    ));
    let stopped = workers.stop(&info.id, !a.no_snapshot).await;
    progress.finish(None);
    let (after, snap) = stopped?;
    let snapshot = match (&snap, a.no_snapshot) {
        (Some(id), _) => {
            ctx.printer.note(&format!(
                "workspace snapshot {id} (start a worker from it with `outposts worker launch \
                 --provider {kind} --restore {id}`)"
            ));
            SnapshotTaken {
                taken: true,
                id: Some(id.clone()),
                reason: None,
            }
        }
        (None, true) => SnapshotTaken {
            taken: false,
            id: None,
            reason: Some("--no-snapshot".into()),
        },
        (None, false) => {
            let reason = format!(
                "the {kind} provider keeps a stopped sandbox's disk; no snapshot is needed"
            );
            ctx.printer.note(&format!("workspace snapshot: {reason}"));
            SnapshotTaken {
                taken: false,
                id: None,
                reason: Some(reason),
            }
        }
    };
    let doc = StopDoc {
        id: after.id.clone(),
        name: after.name.clone(),
        provider: kind,
        state: after.state,
        raw_state: after.raw_state.clone(),
        snapshot,
    };
    ctx.printer.result(&doc, || {
        format!(
            "stopped {} ({}, {})\n",
            after.id, after.state, after.raw_state
        )
    });
    Ok(ExitStatus::Success)
}
