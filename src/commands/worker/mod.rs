//! `outposts worker launch|list|status|logs|exec|stop`: fixed workers running
//! `devin worker start --outpost=…` in sandboxes (`launch` is in `worker_launch.rs`). Domain
//! logic lives in [`crate::worker`].

pub(crate) mod launch;

use std::time::Duration;

use anyhow::Result;
use clap::Subcommand;
use futures::StreamExt;
use serde_json::json;

use super::Ctx;
use crate::config::parse_duration;
use crate::env;
use crate::error::ExitStatus;
use crate::output::table::Table;
use crate::provider::ProviderKind;
use crate::provider::SandboxInfo;
use crate::worker::registry::{self, Registry};
use crate::worker::{LogLine, WorkerStatus, WorkerView, Workers};

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
        WorkerCommand::List(a) => list(ctx, a).await,
        WorkerCommand::Status(a) => status(ctx, a).await,
        WorkerCommand::Logs(a) => logs(ctx, a).await,
        WorkerCommand::Exec(a) => exec(ctx, a).await,
        WorkerCommand::Stop(a) => stop(ctx, a).await,
    }
}

pub(super) fn kind(ctx: &Ctx, flag: &ProviderArg) -> Result<ProviderKind> {
    Ok(match flag.provider {
        Some(k) => k,
        None => ctx
            .config
            .parse(&env::OUTPOSTS_PROVIDER, ProviderKind::parse)?
            .unwrap_or(ProviderKind::Daytona),
    })
}

pub(super) async fn workers(ctx: &Ctx, flag: &ProviderArg) -> Result<Workers> {
    Workers::from_config(kind(ctx, flag)?, &ctx.config, ctx.http()?).await
}

/// Where workers are remembered (the state dir's `workers.json`).
pub(super) fn registry(ctx: &Ctx) -> Result<Registry> {
    Ok(Registry::new(&ctx.config.state_dir()?))
}

/// Every configured provider, in search order (see [`crate::worker::registry::candidates`]).
async fn candidates(ctx: &Ctx, id: Option<&str>) -> Result<Vec<Workers>> {
    let default = kind(ctx, &ProviderArg { provider: None })?;
    Ok(registry::candidates(&ctx.config, ctx.http()?, default, &registry(ctx)?, id).await)
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

fn age(created_at: Option<f64>) -> String {
    created_at
        .map(|t| super::orchestrator::watch::age(crate::time::now() - t))
        .unwrap_or_else(|| "-".into())
}

/// The labels that mean `--outpost VALUE`: the outpost resolved once (name or id; unknown is an
/// error listing the outposts) gives its id — what `worker launch` labels with — and its name
/// (workers launched before it resolved). When the Devin API cannot be asked, the value as typed.
async fn outpost_labels(ctx: &Ctx, typed: &str) -> Result<Vec<String>> {
    let found = match crate::api::devin::DevinClient::from_config(&ctx.config, ctx.http()?) {
        Ok(devin) => match crate::commands::lookup_outpost(&devin, typed).await {
            Ok(o) => Some(o),
            Err(e) if e.downcast_ref::<crate::error::CliError>().is_some() => return Err(e),
            Err(e) => {
                ctx.printer.warn(&format!(
                    "cannot look up outpost {typed} ({e:#}); matching workers labelled {typed}"
                ));
                None
            }
        },
        Err(e) => {
            ctx.printer.warn(&format!(
                "cannot look up outpost {typed} ({e:#}); matching workers labelled {typed}"
            ));
            None
        }
    };
    let mut labels = vec![typed.to_string()];
    if let Some(o) = found {
        labels.push(o.outpost_id);
        labels.extend(o.name);
    }
    Ok(labels)
}

async fn list(ctx: &Ctx, a: ListArgs) -> Result<ExitStatus> {
    // Without --provider, every configured provider: a worker is listed wherever it runs.
    let providers = if a.provider.provider.is_some() {
        vec![workers(ctx, &a.provider).await?]
    } else {
        candidates(ctx, None).await?
    };
    let outposts = match &a.outpost {
        Some(o) => Some(outpost_labels(ctx, o).await?),
        None => None,
    };
    let mut all: Vec<(WorkerView, String)> = Vec::new();
    let mut kinds = Vec::new();
    for w in &providers {
        kinds.push(w.kind().to_string());
        let views = match w.list(None).await {
            Ok(mut v) => {
                if let Some(wanted) = &outposts {
                    v.retain(|w| w.outpost.as_ref().is_some_and(|o| wanted.contains(o)));
                }
                v
            }
            Err(e) if a.provider.provider.is_none() => {
                ctx.printer
                    .warn(&format!("cannot list workers on {}: {e}", w.kind()));
                continue;
            }
            Err(e) => return Err(e.into()),
        };
        let health = futures::future::join_all(views.iter().map(|v| w.status(&v.id))).await;
        for (v, h) in views.into_iter().zip(health) {
            let h = h.map(|s| s.health()).unwrap_or_else(|_| "unknown".into());
            all.push((v, h));
        }
    }
    let doc: Vec<serde_json::Value> = all
        .iter()
        .map(|(v, h)| {
            let mut j = serde_json::to_value(v).unwrap_or_default();
            j["health"] = json!(h);
            j
        })
        .collect();
    let mut hidden = String::new();
    ctx.printer.result(&doc, || {
        if all.is_empty() {
            return String::new();
        }
        // Name and outpost give way first on a narrow terminal; every field is in --json.
        let mut t = Table::new(&[
            "ID", "PROVIDER", "STATE", "HEALTH", "AGE", "NAME", "OUTPOST",
        ])
        .optional("NAME")
        .optional("OUTPOST");
        for (w, h) in &all {
            t.row(vec![
                w.id.clone(),
                w.provider.to_string(),
                w.state.as_str().to_string(),
                h.clone(),
                age(w.created_at),
                w.name.clone(),
                w.outpost.as_deref().unwrap_or("-").to_string(),
            ]);
        }
        let r = t.render(ctx.printer.width());
        if !r.dropped.is_empty() {
            hidden = r.dropped.join(", ");
        }
        r.text
    });
    if !hidden.is_empty() {
        // The same selection, so the command runs as printed.
        let mut again = "outposts worker list --json".to_string();
        if let Some(p) = a.provider.provider {
            again.push_str(&format!(" --provider {p}"));
        }
        if let Some(o) = &a.outpost {
            again.push_str(&format!(" --outpost {}", crate::shell::posix_quote(o)));
        }
        ctx.printer.note(&format!(
            "{hidden} left out to fit the terminal; every field: {again}"
        ));
    }
    if all.is_empty() {
        ctx.printer.note(&format!(
            "no workers on {}{}",
            if kinds.is_empty() {
                "any configured provider".to_string()
            } else {
                kinds.join(", ")
            },
            a.outpost
                .map(|o| format!(" for outpost {o}"))
                .unwrap_or_default()
        ));
    }
    Ok(ExitStatus::Success)
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

async fn exec(ctx: &Ctx, a: ExecArgs) -> Result<ExitStatus> {
    let (workers, info) = find_worker(ctx, &a.provider, &a.id).await?;
    let out = workers.exec(&info.id, &a.command, Some(a.timeout)).await?;
    let doc = json!({"exit_code": out.exit_code, "stdout": out.stdout, "stderr": out.stderr});
    ctx.printer.result(&doc, || out.stdout.clone());
    if !ctx.printer.json() && !out.stderr.is_empty() {
        eprint!("{}", crate::secrets::redact(&out.stderr));
    }
    Ok(ExitStatus::Passthrough(
        u8::try_from(out.exit_code).unwrap_or(1),
    ))
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
            json!({"taken": true, "id": id})
        }
        (None, true) => json!({"taken": false, "reason": "--no-snapshot"}),
        (None, false) => {
            let reason = format!(
                "the {kind} provider keeps a stopped sandbox's disk; no snapshot is needed"
            );
            ctx.printer.note(&format!("workspace snapshot: {reason}"));
            json!({"taken": false, "reason": reason})
        }
    };
    let doc = json!({
        "id": after.id, "name": after.name, "provider": kind,
        "state": after.state, "raw_state": after.raw_state, "snapshot": snapshot,
    });
    ctx.printer.result(&doc, || {
        format!(
            "stopped {} ({}, {})\n",
            after.id, after.state, after.raw_state
        )
    });
    Ok(ExitStatus::Success)
}
