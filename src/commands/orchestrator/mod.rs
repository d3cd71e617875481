//! `outposts orchestrator run|status`.

pub(crate) mod failures;
pub(crate) mod run;
pub(crate) mod status;
mod status_integrity;
mod status_placement;
mod switch;
mod targets;
mod warm;
pub(crate) mod watch;

use std::net::SocketAddr;
use std::time::Duration;

use anyhow::Result;
use clap::Subcommand;

use super::Ctx;
use crate::env;
use crate::error::ExitStatus;
use crate::orchestrator::plan::Limits;
use crate::orchestrator::remote::LaunchMode;
use crate::orchestrator::run::{OrchEvent, RunOptions};
use crate::provider::daytona::snapshot as daytona_snapshot;
use crate::provider::{ProviderKind, Resources, Source};
use crate::secrets::Secret;

const AFTER_HELP: &str = "\
Examples:
  outposts orchestrator run                          # Daytona, settings from .env
  outposts orchestrator run --provider local         # sandboxes on this machine
  outposts orchestrator run --metrics-addr 127.0.0.1:9464 --log-format json
  outposts orchestrator status --json

Notes:
  One orchestrator per STATE_DIR (a second exits 2). SIGTERM/SIGINT stop claiming and exit
  within 30 s, leaving sandboxes and remotes running; the next start reattaches. A second
  signal exits at once. Several replicas may serve one outpost, each with its own STATE_DIR.";

const RUN_HELP: &str = "\
Examples:
  outposts orchestrator run                          # Daytona, settings from .env
  outposts orchestrator run --provider local --max-concurrent-sessions 2
  outposts orchestrator run --metrics-addr 127.0.0.1:9464 --log-format json
  outposts orchestrator run --json | jq -c 'select(.event == \"claimed\")'

Without --json, one readable line per session event goes to stderr (claimed, sandbox created,
served, slept, woke, ended, refused, given up; \"at capacity\" when the cap holds sessions back);
-q silences it, -v turns it into log lines. With --log-format json (the shipped units, image and
StatefulSet) every stderr line is a JSON object, and each session event is one at the default
level, with the event's fields (event, session, …) as fields. --outpost takes a name or an id; an unknown one exits
2 before any claim.
Runs until SIGTERM/SIGINT: stops claiming, persists, exits within 30 s and leaves sandboxes
and remotes running (the next start reattaches); a second signal exits at once. One
orchestrator per STATE_DIR (a second exits 2); replicas each get their own STATE_DIR.
A STATE_DIR remembers the provider (and endpoint) holding its sessions: a start on another one
while sessions are held there exits 2 naming them, unless --adopt-from PROVIDER hands them over
(their old sandboxes are stopped first, disks kept).
Scripting: --json prints NDJSON on stdout: {\"event\":\"started\", outpost_id, acceptor_id,
provider, state_dir, metrics_url, pid}, then one object per event ({\"event\": \"claimed\" |
\"sandbox_created\" | \"remote_running\" | \"released\" | \"failed\" | …, \"session\", …}), and
{\"event\":\"stopped\"} on a graceful stop. Logs go to stderr (--log-format json for JSON).";

const STATUS_HELP: &str = "\
Examples:
  outposts orchestrator status
  outposts orchestrator status --json | jq '.sessions[] | {session_id, sandbox_id}'
  STATE_DIR=/var/lib/outposts/replica-2 outposts orchestrator status
  outposts orchestrator status --watch               # live table, redrawn every 2 s

Reads the state dir only (no network): works whether or not the orchestrator runs.
Scripting: --json prints {outpost_id, acceptor_id, running, stale, status_age_seconds, pid,
state_dir, cursor_age_seconds, status_updated_at, cap, held, waiting, sandboxes: {running,
sleeping, archived, other_replicas, counted_at}, sessions: [{session_id, phase, session_status,
remote, sandbox_id, created_at, last_event, …}], sleeping: [..], sleep_keeps, ended:
[{session_id, state, last_event}], refused: [{session_id, reason, at, retry_at}], given_up:
[{session_id, reason, retry_at, last_log, last_error}], not_served: [{session_id, reason, at,
failures, retry_at}]} (stale: the orchestrator is not running or its
record is older than 30 s; sleep_keeps: what a sleeping session keeps on this provider — the
whole disk on Daytona and local; the home and working directory on CoreWeave; refused: sessions
not served because their network policy cannot be enforced; given_up: released and cooling off,
e.g. a remote that kept exiting at once; not_served: its last provisioning attempt failed, with
why). LAST EVENT is cut at the terminal's width, printed whole off a terminal. Exit 2 when the
state dir holds no state for the outpost.
--watch off a terminal (or with --json) prints that object once per refresh as NDJSON, with
rows: [{session, phase, sandbox, state, age_seconds, last_event}]; Ctrl-C exits 130.";

#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    #[command(subcommand)]
    pub command: OrchestratorCommand,
}

impl Args {
    pub fn is_daemon(&self) -> bool {
        matches!(self.command, OrchestratorCommand::Run(_))
    }
}

#[derive(Debug, Subcommand)]
pub enum OrchestratorCommand {
    /// Serve the outpost's queue: one sandbox per session, until SIGTERM.
    #[command(after_help = RUN_HELP)]
    Run(RunArgs),
    /// Show this instance's identity, cursor age and the sessions it holds.
    #[command(after_help = STATUS_HELP)]
    Status(StatusArgs),
    /// Show the failure records: why a session's sandbox failed, with its last log lines.
    #[command(after_help = FAILURES_HELP)]
    Failures(FailuresArgs),
}

const FAILURES_HELP: &str = "\
Examples:
  outposts orchestrator failures                     # one line per session that failed
  outposts orchestrator failures SESSION_ID          # that record whole
  outposts orchestrator failures --json | jq '.records[] | {session_id, step, error}'

Reads the state dir only (no network): works whether or not the orchestrator runs. Each
session keeps its latest failure: the step (policy, sandbox, egress, repos, launch, remote,
sandbox_error), the error, the last lines of the remote's and the bootstrap's logs, the
sandbox's last state and the session's last events; at most 200 records, secrets redacted.
The failed sandbox is kept stopped for FAILED_KEEP (default 1d), then the janitor deletes it;
a sandbox of a session that had slept is never deleted this way.
Scripting: --json prints {outpost_id, state_dir, failed_keep_seconds, records: [{session_id,
sandbox_id, step, error, at, attempt, remote_log, bootstrap_log, sandbox_state, events,
given_up, resolved_at, reaped_at, woke, …}]}. Exit 1 when SESSION has no record.";

#[derive(Debug, clap::Args)]
pub struct FailuresArgs {
    /// Only this session's record, shown whole.
    pub session: Option<String>,
    /// Outpost name or id [default: OUTPOST_ID].
    #[arg(long)]
    pub outpost: Option<String>,
}

#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// Where sessions run [default: OUTPOSTS_PROVIDER or daytona].
    #[arg(long, value_enum)]
    pub provider: Option<ProviderKind>,
    /// How the session is served inside the sandbox.
    #[arg(long, value_enum, default_value_t = LaunchMode::Remote)]
    pub launch: LaunchMode,
    /// Outpost name or id [default: OUTPOST_ID].
    #[arg(long)]
    pub outpost: Option<String>,
    /// Most sessions held at once [default: MAX_CONCURRENT_SESSIONS or 5].
    #[arg(long)]
    pub max_concurrent_sessions: Option<u32>,
    /// Snapshot new sandboxes start from (Daytona) [default: SNAPSHOT_NAME or the content-hashed default].
    #[arg(long)]
    pub snapshot: Option<String>,
    /// Snapshot Windows sessions' sandboxes start from (Daytona) [default: the content-hashed
    /// Windows snapshot `snapshot build --platform windows` makes].
    #[arg(long)]
    pub windows_snapshot: Option<String>,
    /// Image new sandboxes start from, instead of a snapshot.
    #[arg(long, conflicts_with = "snapshot")]
    pub image: Option<String>,
    /// Serve Prometheus `/metrics` and `/healthz` here (off by default).
    #[arg(long, value_name = "ADDR")]
    pub metrics_addr: Option<SocketAddr>,
    /// How long a new sandbox is safe from the janitor (e.g. 90s, 5m; bare numbers are seconds).
    #[arg(long, value_name = "DURATION", default_value = "5m", value_parser = crate::config::parse_duration)]
    pub janitor_grace: Duration,
    /// Longest wait for a sandbox to start (e.g. 90s, 5m; bare numbers are seconds).
    #[arg(long, value_name = "DURATION", default_value = "5m", value_parser = crate::config::parse_duration)]
    pub ready_timeout: Duration,
    /// Take over the sessions this STATE_DIR holds on another provider: their sandboxes there
    /// are stopped first (disks kept), then they are served here. Needed once when the provider
    /// (or its endpoint) changes while sessions are held; without it such a start exits 2.
    #[arg(long, value_enum, value_name = "PROVIDER")]
    pub adopt_from: Option<ProviderKind>,
}

#[derive(Debug, clap::Args)]
pub struct StatusArgs {
    /// Outpost name or id [default: OUTPOST_ID].
    #[arg(long)]
    pub outpost: Option<String>,
    /// Keep watching: a live table on a terminal, NDJSON snapshots otherwise (or with --json).
    #[arg(long)]
    pub watch: bool,
    /// Seconds between refreshes of --watch.
    #[arg(long, hide = true, default_value = "2", value_parser = crate::config::parse_duration)]
    pub interval: Duration,
}

pub async fn run(ctx: &Ctx, args: Args) -> Result<ExitStatus> {
    match args.command {
        OrchestratorCommand::Run(a) => run::run_cmd(ctx, a).await,
        OrchestratorCommand::Status(a) => status::status(ctx, a).await,
        OrchestratorCommand::Failures(a) => failures::failures(ctx, a).await,
    }
}

pub(super) fn outpost_id(ctx: &Ctx, flag: Option<String>) -> Result<String> {
    let mut config = ctx.config.clone();
    config.set_flag(&env::OUTPOST_ID, flag);
    Ok(config
        .require(
            &env::OUTPOST_ID,
            "pass --outpost, set OUTPOST_ID, or run `outposts connect`",
        )?
        .value)
}

/// Build `RunOptions` from flags and configuration.
pub fn run_options(
    ctx: &Ctx,
    a: &RunArgs,
    kind: ProviderKind,
    outpost: String,
    acceptor: String,
) -> Result<RunOptions> {
    let c = &ctx.config;
    let mut config = c.clone();
    config.set_flag(
        &env::MAX_CONCURRENT_SESSIONS,
        a.max_concurrent_sessions.map(|n| n.to_string()),
    );
    // Every setting below has its default declared in env.rs, which `config` falls back to.
    let cap = config
        .positive(&env::MAX_CONCURRENT_SESSIONS)?
        .unwrap_or_default() as usize;
    let (source, windows_source) = sources(&config, a, kind);
    let repos = config.list(&env::REPOS);
    Ok(RunOptions {
        outpost_id: outpost,
        acceptor_id: acceptor,
        limits: limits(&config, cap)?,
        reconcile_interval: config
            .duration(&env::RECONCILE_INTERVAL)?
            .unwrap_or_default(),
        janitor_interval: config.duration(&env::JANITOR_INTERVAL)?.unwrap_or_default(),
        janitor_grace: a.janitor_grace,
        launch: a.launch,
        source,
        windows_source,
        resources: Resources::default(),
        // The default follows the provider; a value set anywhere wins.
        workdir: match config.get(&env::WORKDIR) {
            Some(r) if !matches!(r.source, crate::config::Source::Default) => r.value,
            _ if kind == ProviderKind::Coreweave => env::WORKDIR_COREWEAVE.into(),
            _ => env::WORKDIR.default_str().into(),
        },
        windows_workdir: config.value(&env::WINDOWS_WORKDIR).unwrap_or_default(),
        repos,
        git_username: config.value(&env::GIT_USERNAME).unwrap_or_default(),
        git_token: config.value(&env::GIT_TOKEN).map(Secret::new),
        chrome_path: config.value(&env::DEVIN_CHROME_PATH),
        windows_chrome_path: config.value(&env::DEVIN_WINDOWS_CHROME_PATH),
        static_base: config
            .url(&env::DEVIN_WORKER_STATIC_BASE_URL)?
            .unwrap_or_default(),
        gateway_fallback: config.value(&env::DEVIN_OUTPOST_GATEWAY_URL),
        ready_timeout: a.ready_timeout,
        archive_after: config.duration(&env::ARCHIVE_AFTER)?,
        sleep_retention: config.duration(&env::SLEEP_RETENTION)?,
        integrity: crate::settings::integrity_bounds(&config)?,
        failed_keep: config.duration(&env::FAILED_KEEP)?.unwrap_or_default(),
        placement: crate::orchestrator::plan::placement::Policy::new(
            config.positive(&env::QUARANTINE_AFTER)?.unwrap_or_default(),
            config
                .duration(&env::QUARANTINE_COOL_OFF)?
                .unwrap_or_default()
                .as_secs_f64(),
        ),
        snapshot_fallback: config.list(&env::SNAPSHOT_FALLBACK),
        targets: targets::targets(&config, kind)?,
        prices: crate::settings::PriceSettings::resolve(&config, kind)?,
        cost_alert_hourly: crate::settings::PriceSettings::alert(&config)?,
        warm: warm::warm_settings(&config)?,
        devin_usage: crate::commands::cost::devin_usage(ctx, &config),
    })
}

fn limits(config: &crate::config::Config, cap: usize) -> Result<Limits> {
    Ok(Limits {
        cap,
        launches: config
            .positive(&env::MAX_PARALLEL_LAUNCHES)?
            .unwrap_or_default() as usize,
        renew_margin: config
            .duration(&env::CLAIM_RENEW_MARGIN)?
            .unwrap_or_default()
            .as_secs_f64(),
        liveness_every: config
            .duration(&env::LIVENESS_INTERVAL)?
            .unwrap_or_default()
            .as_secs_f64()
            .max(1.0),
        ..Limits::default()
    })
}

/// What sessions boot from: (Linux, Windows).
fn sources(
    config: &crate::config::Config,
    a: &RunArgs,
    kind: ProviderKind,
) -> (Source, Option<Source>) {
    let source = match (&a.image, &a.snapshot, config.value(&env::SNAPSHOT_NAME)) {
        (Some(img), _, _) => Source::Image(img.clone()),
        (None, Some(s), _) => Source::Snapshot(s.clone()),
        (None, None, Some(s)) => Source::Snapshot(s),
        (None, None, None) if kind == ProviderKind::Daytona => {
            Source::Snapshot(daytona_snapshot::derived_name(
                daytona_snapshot::Platform::Linux,
                daytona_snapshot::DEFAULT_DOCKERFILE,
            ))
        }
        _ => Source::Default,
    };
    // Windows sessions boot from the Windows snapshot (Daytona's content-hashed default).
    let windows_source = match (kind, &a.windows_snapshot) {
        (_, Some(w)) => Some(Source::Snapshot(w.clone())),
        (ProviderKind::Daytona, None) => Some(Source::Snapshot(daytona_snapshot::derived_name(
            daytona_snapshot::Platform::Windows,
            daytona_snapshot::WINDOWS_PROVISIONER,
        ))),
        (_, None) => None,
    };
    (source, windows_source)
}

/// Print each orchestrator event as `HH:MM:SS  SESSION  what happened` (UTC) until the
/// orchestrator is gone.
pub(super) fn narrator(
    mut rx: tokio::sync::broadcast::Receiver<OrchEvent>,
    printer: crate::output::Printer,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        use tokio::sync::broadcast::error::RecvError;
        loop {
            match rx.recv().await {
                Ok(ev) if ev.is_milestone() => {
                    let stamp =
                        humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
                    let line = format!("{}  {}", stamp.get(11..19).unwrap_or(""), ev.narrate());
                    if ev.is_problem() {
                        printer.warn(&line);
                    } else {
                        printer.note(&line);
                    }
                }
                Ok(_) => {}
                Err(RecvError::Lagged(n)) => printer.note(&format!("({n} events not shown)")),
                Err(RecvError::Closed) => break,
            }
        }
    })
}
