//! `outposts emulator start|env|…`: run the built-in emulator and drive it.

mod arrivals;
pub(crate) mod session;

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;
use clap::Subcommand;
use schemars::JsonSchema;
use serde::Serialize;

use super::Ctx;
use crate::config::parse_duration;
use crate::emulator::client::EmulatorClient;
use crate::emulator::daytona::windows_daemon::WindowsDaemon;
use crate::emulator::devin::remote::RemoteForm;
use crate::emulator::simulated::SimOptions;
use crate::emulator::{Emulator, EmulatorOptions, OutpostGetRoute, faults};
use crate::env;
use crate::error::{CliError, ExitStatus};

pub use session::SessionArgs;

const STATUS_HELP: &str = "\
Examples:
  outposts emulator status
  outposts emulator status --json | jq '.sessions | length'

Scripting: --json prints {\"outposts\": [...], \"sessions\": [...]} (the admin API's shapes).";

const START_HELP: &str = "\
Examples:
  outposts emulator start                             # 127.0.0.1:8790 until Ctrl-C
  outposts emulator start --port 0 --json             # any free port; first stdout line is JSON
  outposts emulator start --state queue.json --seed 7 # keep the queue across restarts
  outposts emulator start --sandboxes simulated      # sandboxes as records: fleets of 10,000+
  outposts emulator start --faults '[{\"path\":\"/opbeta/outposts/devins\",\"action\":{\"kind\":\"status\",\"status\":503}}]'

Serves the Devin, Daytona and CoreWeave APIs on one loopback port until SIGINT/SIGTERM; its
sandboxes are local. Scripting: --json prints one line {\"event\":\"ready\", base_url, port,
data_dir} once it listens; wait for it, then `outposts emulator env --port PORT`.";

const ENV_HELP: &str = "\
Examples:
  eval \"$(outposts emulator env)\"                     # point this shell at the emulator
  outposts emulator env --port 43123 >> .env           # or keep the settings in a file
  outposts emulator env --json | jq -r .DEVIN_API_URL

Prints the emulator's own throwaway credentials (they are not secrets). Scripting: --json
prints one object {NAME: value, …}: DEVIN_API_URL, DEVIN_OUTPOSTS_TOKEN, OUTPOST_ID,
DAYTONA_API_URL, DAYTONA_API_KEY, CWSANDBOX_BASE_URL, CWSANDBOX_API_KEY, ….";

const AFTER_HELP: &str = "\
Examples:
  outposts emulator start                      # serve on 127.0.0.1:8790 until Ctrl-C
  eval \"$(outposts emulator env)\"             # point every client at it
  outposts emulator start --port 0 --json      # any free port; first stdout line is JSON
  outposts emulator session new --count 3      # enqueue three Devin sessions
  outposts emulator status                     # sessions and outposts at a glance

Scripting: `start --json` prints one JSON line {\"event\":\"ready\",\"base_url\":…} once it listens.";

#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    #[command(subcommand)]
    pub command: EmulatorCommand,
}

impl Args {
    pub fn is_server(&self) -> bool {
        matches!(self.command, EmulatorCommand::Start(_))
    }
}

#[derive(Debug, Subcommand)]
pub enum EmulatorCommand {
    /// Serve the emulated APIs on loopback until SIGINT/SIGTERM.
    #[command(after_help = START_HELP)]
    Start(StartArgs),
    /// Print `export` lines that point every client at a running emulator.
    #[command(after_help = ENV_HELP)]
    Env(PortArgs),
    /// Drive the emulated Devin sessions: enqueue, suspend, resume, terminate, give tasks.
    Session(SessionArgs),
    /// Outposts and sessions of a running emulator.
    #[command(after_help = STATUS_HELP)]
    Status(PortArgs),
}

#[derive(Debug, clap::Args)]
pub struct PortArgs {
    /// Port of the running emulator [default: OUTPOSTS_EMULATOR_PORT or 8790].
    #[arg(long)]
    pub port: Option<u16>,
}

#[derive(Debug, clap::Args)]
pub struct StartArgs {
    /// Port to listen on (0 picks a free one) [default: OUTPOSTS_EMULATOR_PORT or 8790].
    #[arg(long)]
    pub port: Option<u16>,
    /// Keep sandboxes and the request log here (default: a temporary directory removed at exit).
    #[arg(long, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    /// Load the Devin queue from this file at start and save it at exit.
    #[arg(long, value_name = "FILE")]
    pub state: Option<PathBuf>,
    /// Fault script: inline JSON or a JSON file (see `POST /_emulator/faults`).
    #[arg(long, value_name = "SPEC")]
    pub faults: Option<String>,
    /// Seed for every random choice the emulator makes.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Claim lifetime.
    #[arg(long, value_parser = parse_duration, default_value = "300s")]
    pub claim_ttl: Duration,
    /// Longest a watch stream stays open.
    #[arg(long, value_parser = parse_duration, default_value = "300s")]
    pub max_stream: Duration,
    /// Interval of keepalive comments on idle watch streams.
    #[arg(long, value_parser = parse_duration, default_value = "15s")]
    pub keepalive: Duration,
    /// How long a released suspended/terminated session's row lingers before it is swept.
    #[arg(long, value_parser = parse_duration, default_value = "5s")]
    pub sweep_delay: Duration,
    /// What `devin-remote` is for Linux: `binary` (a real executable, the running process is
    /// the file) or `script` (a POSIX shell script that behaves the same; its process is the
    /// shell).
    #[arg(long, value_enum, default_value_t = RemoteForm::Binary)]
    pub remote_form: RemoteForm,
    /// Which Windows daemon Windows sandboxes follow: `legacy` (`cmd.exe /C`, an exec's envs
    /// dropped, nothing killed on a timeout) or `newer` (`cmd.exe /S /C "…"`, envs applied, the
    /// process tree killed on a timeout).
    #[arg(long, value_enum, default_value = "legacy", value_name = "MODEL")]
    pub windows_daemon: WindowsDaemon,
    /// How `GET /opbeta/outposts/{id}` answers: `served`, or absent as in Cognition's model of
    /// the server (`404` unknown path, `405` method not allowed).
    #[arg(long, value_enum, default_value = "served", value_name = "MODE")]
    pub outpost_get_route: GetRouteMode,
    /// The gateway URL claim answers carry (default: the emulator's own). A URL the fake remote
    /// cannot use (e.g. `wss://…`) makes it exit 2 at once, with the reason in its log.
    #[arg(long, value_name = "URL")]
    pub gateway_url: Option<String>,
    /// Most rows one queue list page serves, whatever `first` asks (pages overlap by one row).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=200))]
    pub page_size: Option<u16>,
    /// How far before its cursor a watch replays rows (at-least-once delivery): it sends every
    /// row changed at or after the cursor minus this; with 0s only the row at the cursor itself
    /// is sent again.
    #[arg(long, value_parser = parse_duration, default_value = "50ms", value_name = "DURATION")]
    pub watch_replay: Duration,
    /// How long an emulated Daytona sandbox takes from `creating` to `started` (a real one
    /// takes seconds; warm capacity is worth measuring only when it does here too) [default:
    /// 200ms]. Also `PUT /_emulator/daytona/settings` `create_ms`.
    #[arg(long, value_parser = parse_duration, value_name = "DURATION")]
    pub daytona_create_delay: Option<Duration>,
    /// How long an emulated Daytona sandbox takes from `starting` to `started` [default: 150ms].
    #[arg(long, value_parser = parse_duration, value_name = "DURATION")]
    pub daytona_start_delay: Option<Duration>,
    /// What a Daytona or CoreWeave sandbox is: `process` (a real local sandbox running the fake
    /// remote) or `simulated` (a record only; the remote is simulated inside the emulator, so
    /// tens of thousands of sessions fit on one machine).
    #[arg(long, value_enum, default_value_t = SandboxKind::Process, value_name = "KIND")]
    pub sandboxes: SandboxKind,
    /// With `--sandboxes simulated`: how long each exec and each create, start and stop takes.
    #[arg(long, value_parser = parse_duration, default_value = "0s", value_name = "DURATION")]
    pub sim_delay: Duration,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SandboxKind {
    Process,
    Simulated,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum GetRouteMode {
    Served,
    #[value(name = "404")]
    NotFound,
    #[value(name = "405")]
    MethodNotAllowed,
}

pub async fn run(ctx: &Ctx, args: Args) -> Result<ExitStatus> {
    match args.command {
        EmulatorCommand::Start(a) => start(ctx, a).await,
        EmulatorCommand::Env(a) => env_cmd(ctx, a).await,
        EmulatorCommand::Session(a) => session::run(ctx, a).await,
        EmulatorCommand::Status(a) => session::status(ctx, a).await,
    }
}

fn default_port(ctx: &Ctx) -> Result<u16> {
    Ok(ctx
        .config
        .parse(&env::OUTPOSTS_EMULATOR_PORT, |s| {
            s.parse::<u16>()
                .map_err(|_| format!("`{s}` is not a port number"))
        })?
        .unwrap_or(8790))
}

/// The admin client for `--port` (or the default port).
pub fn admin(ctx: &Ctx, port: Option<u16>) -> Result<EmulatorClient> {
    let port = match port {
        Some(p) => p,
        None => default_port(ctx)?,
    };
    Ok(EmulatorClient::on_port(ctx.http()?, port))
}

/// `outposts emulator start --json`: one line once it listens.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ReadyLine {
    /// Always `ready`.
    pub event: &'static str,
    pub base_url: String,
    pub port: u16,
    pub data_dir: PathBuf,
}

async fn start(ctx: &Ctx, a: StartArgs) -> Result<ExitStatus> {
    let faults = match &a.faults {
        Some(spec) => faults::parse_spec(spec).map_err(|e| {
            CliError::usage(
                format!("--faults: {e}"),
                Some("pass inline JSON or a path to a JSON file".to_string()),
            )
        })?,
        None => Vec::new(),
    };
    let port = match a.port {
        Some(p) => p,
        None => default_port(ctx)?,
    };
    let opts = EmulatorOptions {
        port,
        data_dir: a.data_dir,
        state_file: a.state,
        faults,
        seed: a.seed,
        claim_ttl: a.claim_ttl,
        max_stream: a.max_stream,
        keepalive: a.keepalive,
        sweep_delay: a.sweep_delay,
        remote_form: a.remote_form,
        windows_daemon: a.windows_daemon,
        outpost_get_route: match a.outpost_get_route {
            GetRouteMode::Served => OutpostGetRoute::Served,
            GetRouteMode::NotFound => OutpostGetRoute::NotFound,
            GetRouteMode::MethodNotAllowed => OutpostGetRoute::MethodNotAllowed,
        },
        gateway_url: a.gateway_url,
        page_size: a.page_size.map(usize::from),
        watch_replay: a.watch_replay,
        daytona_create_delay: a.daytona_create_delay,
        daytona_start_delay: a.daytona_start_delay,
        simulated: (a.sandboxes == SandboxKind::Simulated)
            .then_some(SimOptions { delay: a.sim_delay }),
    };
    let mut signals = Signals::new()?;
    let emulator = Emulator::start(opts).await.map_err(|e| {
        let message = format!("{e:#}");
        let hint = if message.contains("emulator state") {
            "move the --state file away to start with a fresh queue"
        } else {
            "another process may hold the port; pick one with --port (0 = any free port)"
        };
        CliError::usage(message, Some(hint.to_string()))
    })?;
    let info = emulator.info();
    let port = emulator.addr.port();
    ctx.printer
        .note(&format!("outposts emulator listening on {}", info.base_url));
    ctx.printer
        .note(&format!("  data dir: {}", info.data_dir.display()));
    ctx.printer.note(&format!(
        "  point clients at it: eval \"$(outposts emulator env --port {port})\""
    ));
    let ready = ReadyLine {
        event: "ready",
        base_url: info.base_url.clone(),
        port,
        data_dir: info.data_dir.clone(),
    };
    ctx.printer
        .result(&ready, || format!("ready {}", info.base_url));
    let signal = signals.recv().await;
    ctx.printer.note("emulator stopping");
    emulator.stop().await;
    Ok(signal.exit_status())
}

/// SIGINT and SIGTERM, registered the moment this is created — so a signal that arrives before
/// the first `recv` is held, not fatal.
pub struct Signals {
    #[cfg(unix)]
    int: tokio::signal::unix::Signal,
    #[cfg(unix)]
    term: tokio::signal::unix::Signal,
}

impl Signals {
    pub fn new() -> Result<Signals> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            Ok(Signals {
                int: signal(SignalKind::interrupt())?,
                term: signal(SignalKind::terminate())?,
            })
        }
        #[cfg(not(unix))]
        Ok(Signals {})
    }

    /// The next SIGINT or SIGTERM.
    pub async fn recv(&mut self) -> Signal {
        #[cfg(unix)]
        tokio::select! {
            _ = self.int.recv() => Signal::Interrupt,
            _ = self.term.recv() => Signal::Terminate,
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
            Signal::Interrupt
        }
    }
}

/// Which stop signal arrived. After a graceful stop, SIGINT (Ctrl-C) exits 130 — the shell's
/// convention scripts test for — and SIGTERM exits 0, which is what supervisors expect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signal {
    Interrupt,
    Terminate,
}

impl Signal {
    pub fn exit_status(self) -> ExitStatus {
        match self {
            Signal::Interrupt => ExitStatus::Interrupted,
            Signal::Terminate => ExitStatus::Success,
        }
    }
}

/// `outposts emulator env --json`: each variable's value, by name (the emulator's own
/// throwaway credentials included: pointing a shell at it is the point).
#[derive(Debug, Serialize, JsonSchema)]
pub struct EmulatorEnvDoc(pub std::collections::BTreeMap<String, String>);

async fn env_cmd(ctx: &Ctx, a: PortArgs) -> Result<ExitStatus> {
    let client = admin(ctx, a.port)?;
    let info = client.info().await?;
    // These are the emulator's own throwaway credentials; handing them to the shell is the point.
    if ctx.printer.json() {
        let doc = EmulatorEnvDoc(info.env.iter().cloned().collect());
        ctx.printer
            .unredacted_stdout(&serde_json::to_string(&doc).unwrap_or_default());
    } else {
        let mut out = String::new();
        for (k, v) in &info.env {
            out.push_str(&format!("export {k}={}\n", crate::shell::posix_quote(v)));
        }
        ctx.printer.unredacted_stdout(&out);
    }
    Ok(ExitStatus::Success)
}
