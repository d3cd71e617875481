//! `outposts worker launch|list|status|logs|exec|stop`: fixed workers running
//! `devin worker start --outpost=…` in sandboxes. Domain logic lives in [`crate::worker`].

use std::collections::BTreeMap;
use std::time::Duration;

use anyhow::Result;
use clap::Subcommand;
use futures::StreamExt;
use serde_json::json;

use super::Ctx;
use crate::config::{Source as ConfigSource, parse_duration};
use crate::env;
use crate::error::{CliError, ExitStatus};
use crate::provider::{ProviderKind, Resources};
use crate::secrets::Secret;
use crate::worker::{
    self, LogLine, Mode, Readiness, TokenSource, WorkerSpec, WorkerStatus, WorkerView, Workers,
};

const AFTER_HELP: &str = "\
Examples:
  outposts worker launch --provider coreweave --outpost my-outpost --count 2
  outposts worker list
  outposts worker status sb-1a2b3c4d5e6f
  outposts worker logs sb-1a2b3c4d5e6f --tail 50 --follow
  outposts worker exec sb-1a2b3c4d5e6f -- git --version
  outposts worker stop sb-1a2b3c4d5e6f --yes

A worker is a sandbox running `devin worker start --outpost=…`: it claims the outpost's sessions
from Devin's queue and serves them one at a time. The provider defaults to OUTPOSTS_PROVIDER.";

const LAUNCH_HELP: &str = "\
Examples:
  outposts worker launch --provider coreweave --outpost my-outpost --count 2
  outposts worker launch --outpost my-outpost --secret wandb:DEVIN_TOKEN   # token from a secret store
  outposts worker launch --outpost gpu-outpost --gpu 1:H100 --memory 32Gi --tag team=ml
  outposts worker launch --provider local --outpost my-outpost --no-wait --json

The outpost token comes from DEVIN_OUTPOSTS_TOKEN (environment, .env or `outposts connect`) and
reaches the worker in its environment, or from a provider secret store with --secret STORE:NAME
(mapped to DEVIN_OUTPOSTS_TOKEN); it is never printed and never on a command line.
The sandbox's main command installs git and CA certificates when the image lacks them, then
runs `devin worker start --outpost=NAME`. On Daytona (no main command) the worker runs detached
through an exec under a small restarting supervisor ($HOME/.outposts-worker/ in the sandbox).
Local sandboxes see the `devin` of OUTPOSTS_DEVIN_CLI_DIR at /opt/devin/bin.

Waits until each worker's log shows it reached the queue (spinner on a terminal, plain lines
otherwise), or reports the authentication or startup failure it saw; --no-wait returns at once.

Scripting: stdout has one sandbox id per line; --json prints {\"provider\", \"outpost\",
\"workers\": [{\"id\", \"name\", \"state\", \"readiness\"}]}. Exit 4 when a worker's token is
rejected, 1 when a worker fails to start or does not reach the queue in --wait-timeout.";

const LIST_HELP: &str = "\
Examples:
  outposts worker list
  outposts worker list --outpost my-outpost --json | jq -r '.[].id'

Scripting: --json prints an array of {\"id\", \"name\", \"provider\", \"outpost\", \"mode\",
\"state\", \"raw_state\", \"restart_count\", \"created_at\", \"labels\"}. Workers are found by
their outposts.role=worker label (a CoreWeave tag); finished CoreWeave sandboxes are not listed.";

const STATUS_HELP: &str = "\
Examples:
  outposts worker status sb-1a2b3c4d5e6f
  outposts worker status sb-1a2b3c4d5e6f --json | jq .restart_count

Shows the sandbox state, each container's state, exit code and restart count, and whether the
worker reached the queue; warns about a restart loop and about an authentication failure seen in
its log. Scripting: --json prints one object (warnings included); the exit code is 0 whenever
the status could be read.";

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

Stops the worker and its sandbox (on CoreWeave the sandbox then completes and stays readable; on
Daytona and locally its disk is kept). A workspace snapshot is taken first where the provider
supports one; otherwise it says so and stops without. Without a terminal, --yes is required.
Scripting: --json prints {\"id\", \"name\", \"provider\", \"state\", \"raw_state\", \"snapshot\"}.";

#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    #[command(subcommand)]
    pub command: WorkerCommand,
}

#[derive(Debug, Subcommand)]
pub enum WorkerCommand {
    /// Create sandboxes that run `devin worker start --outpost=…` and wait until they serve.
    #[command(after_help = LAUNCH_HELP)]
    Launch(LaunchArgs),
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
    /// Where the workers run [default: OUTPOSTS_PROVIDER or daytona].
    #[arg(long, value_enum)]
    pub provider: Option<ProviderKind>,
}

#[derive(Debug, clap::Args)]
pub struct LaunchArgs {
    /// Outpost (name or id) the workers serve [default: OUTPOST_ID].
    #[arg(long, value_name = "NAME")]
    pub outpost: Option<String>,
    #[command(flatten)]
    pub provider: ProviderArg,
    /// How many workers (one sandbox each).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub count: u32,
    /// Container image [default: public.ecr.aws/e0h8a4b6/devin-cli:stable].
    #[arg(long, value_name = "IMG")]
    pub image: Option<String>,
    /// CPU cores per worker (CoreWeave, Daytona).
    #[arg(long, default_value = "2", value_parser = worker::parse_cpu)]
    pub cpu: f64,
    /// Memory per worker, e.g. 4Gi or 512Mi (CoreWeave, Daytona).
    #[arg(long, default_value = "4Gi", value_parser = worker::parse_memory_gib)]
    pub memory: f64,
    /// GPUs per worker: COUNT or COUNT:TYPE (e.g. 1:H100).
    #[arg(long, value_name = "COUNT[:TYPE]", value_parser = worker::parse_gpu)]
    pub gpu: Option<(u32, Option<String>)>,
    /// Hard lifetime cap where the provider has one (CoreWeave).
    #[arg(long, default_value = "8h", value_parser = parse_duration)]
    pub max_lifetime: Duration,
    /// Take the outpost token from this provider secret-store entry (mapped to
    /// DEVIN_OUTPOSTS_TOKEN) instead of DEVIN_OUTPOSTS_TOKEN.
    #[arg(long, value_name = "STORE:NAME", value_parser = worker::parse_secret_ref)]
    pub secret: Option<(String, String)>,
    /// Label the sandboxes: NAME or KEY=VALUE (repeatable).
    #[arg(long = "tag", value_name = "T", value_parser = worker::parse_tag)]
    pub tags: Vec<(String, String)>,
    /// Extra environment of the worker (repeatable; not for secrets).
    #[arg(long = "env", value_name = "KEY=VALUE", value_parser = worker::parse_env)]
    pub env: Vec<(String, String)>,
    /// Return once the sandboxes exist, without waiting for the workers.
    #[arg(long)]
    pub no_wait: bool,
    /// Longest wait for each worker to reach the queue.
    #[arg(long, default_value = "180", value_parser = parse_duration)]
    pub wait_timeout: Duration,
}

#[derive(Debug, clap::Args)]
pub struct ListArgs {
    /// Only workers of this outpost (as given to `worker launch`).
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
    /// Longest the command may run.
    #[arg(long, default_value = "300", value_parser = parse_duration)]
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
        WorkerCommand::Launch(a) => launch(ctx, a).await,
        WorkerCommand::List(a) => list(ctx, a).await,
        WorkerCommand::Status(a) => status(ctx, a).await,
        WorkerCommand::Logs(a) => logs(ctx, a).await,
        WorkerCommand::Exec(a) => exec(ctx, a).await,
        WorkerCommand::Stop(a) => stop(ctx, a).await,
    }
}

fn kind(ctx: &Ctx, flag: &ProviderArg) -> Result<ProviderKind> {
    Ok(match flag.provider {
        Some(k) => k,
        None => ctx
            .config
            .parse(&env::OUTPOSTS_PROVIDER, ProviderKind::parse)?
            .unwrap_or(ProviderKind::Daytona),
    })
}

async fn workers(ctx: &Ctx, flag: &ProviderArg) -> Result<Workers> {
    Workers::from_config(kind(ctx, flag)?, &ctx.config, ctx.http()?).await
}

/// The worker's environment from configuration: where Devin is, and the optional extras.
fn worker_env(ctx: &Ctx, extra: &[(String, String)]) -> Result<BTreeMap<String, Secret>> {
    let c = &ctx.config;
    let mut env = BTreeMap::new();
    env.insert(
        env::DEVIN_API_URL.name.to_string(),
        Secret::plain(c.devin_api_url()?),
    );
    // The CLI has its own default; pass the distribution only when it was set on purpose.
    if let Some(r) = c.get(&env::DEVIN_WORKER_STATIC_BASE_URL)
        && r.source != ConfigSource::Default
    {
        env.insert(r.var.name.to_string(), Secret::plain(r.value));
    }
    for var in [&env::DEVIN_OUTPOST_GATEWAY_URL, &env::DEVIN_CHROME_PATH] {
        if let Some(v) = c.value(var) {
            env.insert(var.name.to_string(), Secret::plain(v));
        }
    }
    for (k, v) in extra {
        env.insert(k.clone(), Secret::plain(v.clone()));
    }
    Ok(env)
}

async fn launch(ctx: &Ctx, a: LaunchArgs) -> Result<ExitStatus> {
    let mut config = ctx.config.clone();
    config.set_flag(&env::OUTPOST_ID, a.outpost.clone());
    let outpost = config
        .require(
            &env::OUTPOST_ID,
            "pass --outpost NAME (the outpost's name or id), or set OUTPOST_ID",
        )?
        .value;
    let token = match &a.secret {
        Some((store, name)) => TokenSource::SecretStore {
            store: store.clone(),
            name: name.clone(),
        },
        None => TokenSource::Env(Secret::new(
            ctx.config
                .get(&env::DEVIN_OUTPOSTS_TOKEN)
                .ok_or_else(|| {
                    CliError::auth(
                        "DEVIN_OUTPOSTS_TOKEN is not set: the workers need the outpost token",
                        Some(
                            "run `outposts connect`, set DEVIN_OUTPOSTS_TOKEN, or pass --secret STORE:NAME to use a provider secret store"
                                .to_string(),
                        ),
                    )
                })?
                .value
                .trim(),
        )),
    };
    let workers = workers(ctx, &a.provider).await?;
    let kind = workers.kind();
    workers.preflight()?;
    let spec = WorkerSpec {
        outpost: outpost.clone(),
        image: a.image.clone(),
        resources: Resources {
            cpu: Some(a.cpu),
            memory_gib: Some(a.memory),
            disk_gib: None,
            gpu: a.gpu.as_ref().map(|g| g.0),
            gpu_type: a.gpu.as_ref().and_then(|g| g.1.clone()),
        },
        max_lifetime: Some(a.max_lifetime),
        token,
        env: worker_env(ctx, &a.env)?,
        tags: a.tags.iter().cloned().collect(),
    };
    let mode = Mode::for_provider(kind);
    ctx.printer.note(&format!(
        "launching {} worker{} for outpost {outpost} on {kind} ({})",
        a.count,
        if a.count == 1 { "" } else { "s" },
        match mode {
            Mode::Main => "main command",
            Mode::Exec => "detached via exec",
        }
    ));
    let mut created = Vec::new();
    let mut failure = None;
    for i in 0..a.count {
        let progress = ctx
            .printer
            .spinner(&format!("creating worker {}/{}", i + 1, a.count));
        match workers.launch_one(&spec).await {
            Ok(info) => {
                progress.finish(Some(&format!("created {} ({})", info.name, info.id)));
                created.push(info);
            }
            Err(e) => {
                progress.finish(None);
                failure = Some(anyhow::Error::new(e).context(format!(
                    "creating worker {}/{} failed{}",
                    i + 1,
                    a.count,
                    if created.is_empty() {
                        String::new()
                    } else {
                        format!(
                            " ({} already created: {})",
                            created.len(),
                            created
                                .iter()
                                .map(|c| c.id.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        )
                    }
                )));
                break;
            }
        }
    }
    let readiness: Vec<Option<Readiness>> = if a.no_wait || created.is_empty() {
        vec![None; created.len()]
    } else {
        let progress = ctx.printer.spinner(&format!(
            "waiting for {} worker{} to reach the queue",
            created.len(),
            if created.len() == 1 { "" } else { "s" }
        ));
        let waits = created.iter().map(|info| {
            let p = progress.clone();
            let name = info.name.clone();
            let workers = &workers;
            let timeout = a.wait_timeout;
            async move {
                let show = move |line: &str| p.set_message(&format!("{name}: {}", line.trim()));
                workers.wait_ready(&info.id, timeout, &show).await
            }
        });
        let results = futures::future::join_all(waits).await;
        progress.finish(None);
        results.into_iter().map(Some).collect()
    };
    let mut auth_failed = Vec::new();
    let mut not_ready = Vec::new();
    for (info, r) in created.iter().zip(&readiness) {
        match r {
            None => {}
            Some(Readiness::Ready { .. }) => ctx
                .printer
                .note(&format!("{} ({}) is serving the queue", info.name, info.id)),
            Some(Readiness::AuthFailed { line }) => {
                auth_failed.push(format!("{}: {}", info.id, line));
            }
            Some(Readiness::Failed { reason }) => not_ready.push(format!("{}: {reason}", info.id)),
            Some(Readiness::Timeout { last_line }) => not_ready.push(format!(
                "{}: not serving after {}s{}",
                info.id,
                a.wait_timeout.as_secs(),
                last_line
                    .as_ref()
                    .map(|l| format!(" (last log line: {})", l.trim()))
                    .unwrap_or_default()
            )),
        }
    }
    let doc = json!({
        "provider": kind,
        "outpost": outpost,
        "mode": mode,
        "workers": created.iter().zip(&readiness).map(|(i, r)| json!({
            "id": i.id, "name": i.name, "state": i.state, "raw_state": i.raw_state, "readiness": r,
        })).collect::<Vec<_>>(),
    });
    ctx.printer.result(&doc, || {
        created
            .iter()
            .map(|i| format!("{}\n", i.id))
            .collect::<String>()
    });
    if let Some(e) = failure {
        return Err(e);
    }
    if !auth_failed.is_empty() {
        return Err(CliError::auth(
            format!(
                "the Devin API rejected the workers' outpost token: {}",
                auth_failed.join("; ")
            ),
            Some(format!(
                "check the token ({}), then stop these workers with `outposts worker stop ID --yes` and launch new ones",
                if a.secret.is_some() {
                    "the secret-store entry given with --secret"
                } else {
                    "DEVIN_OUTPOSTS_TOKEN"
                }
            )),
        )
        .into());
    }
    if !not_ready.is_empty() {
        anyhow::bail!(
            "{} worker{} did not reach the queue: {} (see `outposts worker logs ID`)",
            not_ready.len(),
            if not_ready.len() == 1 { "" } else { "s" },
            not_ready.join("; ")
        );
    }
    Ok(ExitStatus::Success)
}

fn age(created_at: Option<f64>) -> String {
    let Some(t) = created_at else {
        return "-".into();
    };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(t);
    let s = (now - t).max(0.0) as u64;
    match s {
        0..=119 => format!("{s}s"),
        120..=7199 => format!("{}m", s / 60),
        7200..=172_799 => format!("{}h", s / 3600),
        _ => format!("{}d", s / 86400),
    }
}

async fn list(ctx: &Ctx, a: ListArgs) -> Result<ExitStatus> {
    let workers = workers(ctx, &a.provider).await?;
    let all: Vec<WorkerView> = workers.list(a.outpost.as_deref()).await?;
    ctx.printer.result(&all, || {
        if all.is_empty() {
            return String::new();
        }
        let mut out = format!(
            "{:<36} {:<42} {:<20} {:<10} {:<8} {}\n",
            "ID", "NAME", "OUTPOST", "STATE", "RESTARTS", "AGE"
        );
        for w in &all {
            out.push_str(&format!(
                "{:<36} {:<42} {:<20} {:<10} {:<8} {}\n",
                w.id,
                w.name,
                w.outpost.as_deref().unwrap_or("-"),
                w.state.as_str(),
                w.restart_count,
                age(w.created_at)
            ));
        }
        out
    });
    if all.is_empty() {
        ctx.printer.note(&format!(
            "no workers on {}{}",
            workers.kind(),
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
    let workers = workers(ctx, &a.provider).await?;
    let s = workers.status(&a.id).await?;
    ctx.printer.result(&s, || render_status(&s));
    for w in &s.warnings {
        ctx.printer.warn(w);
    }
    Ok(ExitStatus::Success)
}

async fn logs(ctx: &Ctx, a: LogsArgs) -> Result<ExitStatus> {
    let workers = workers(ctx, &a.provider).await?;
    let info = workers.find(&a.id).await?;
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
    let workers = workers(ctx, &a.provider).await?;
    let out = workers.exec(&a.id, &a.command, Some(a.timeout)).await?;
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
    let workers = workers(ctx, &a.provider).await?;
    let kind = workers.kind();
    let info = workers.find(&a.id).await?;
    if !ctx.confirm(&format!(
        "Stop worker {} ({}) on {kind}? Its current session is released and picked up elsewhere",
        info.name, info.id
    ))? {
        ctx.printer.note("nothing stopped");
        return Ok(ExitStatus::Failure);
    }
    // The Provider trait has no snapshot operation yet: say so instead of pretending.
    let snapshot = if a.no_snapshot {
        serde_json::Value::Null
    } else {
        let reason = format!("not supported by the {kind} provider; stopping without a snapshot");
        ctx.printer.note(&format!("workspace snapshot: {reason}"));
        json!({"taken": false, "reason": reason})
    };
    let progress = ctx
        .printer
        .spinner(&format!("stopping {} ({})", info.name, info.id));
    let after = workers.stop(&info.id).await;
    progress.finish(None);
    let after = after?;
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
