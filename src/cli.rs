//! The clap root: global flags and the command tree. Each command's arguments live with the
//! command in `src/commands/<group>.rs`.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::commands;
use crate::output::ColorChoice;

const ROOT_AFTER_HELP: &str = "\
Examples:
  outposts demo                         # the whole loop on the built-in emulator
  outposts connect --platform linux     # connect an outpost from the browser
  outposts queue list --json            # the outpost's session queue, for scripts

Exit codes:
  0 ok · 1 failure · 2 usage or configuration · 3 verification failed (verify, doctor)
  4 authentication required or rejected · 130 interrupted

Configuration: flag > environment > .env (or --env-file) > outposts.toml (--config) > OS keyring
(DEVIN_OUTPOSTS_TOKEN, DEVIN_API_KEY) > default.
Run `outposts help-env` for every environment variable, its default and meaning.";

const HELP_ENV_HELP: &str = "\
Examples:
  outposts help-env
  outposts help-env --json | jq -r '.[] | select(.secret) | .name'

Scripting: --json prints an array of {name, aliases, default, doc, secret, group}.";

#[derive(Debug, Parser)]
#[command(
    name = "outposts",
    version,
    about = "Run Devin Outposts on compute you own: Daytona, CoreWeave or this machine",
    long_about = "Run Devin Outposts on compute you own.\n\nDevin's agent loop stays in Devin Cloud; every shell \
command, checkout and browser action of a session runs in a sandbox that `outposts` creates, wakes, stops and \
deletes — on Daytona, CoreWeave or the local machine. `outposts emulator` serves all three remote APIs on \
loopback, so everything also runs offline.",
    after_help = ROOT_AFTER_HELP,
    propagate_version = true,
    max_term_width = 100
)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

/// Help screens list these apart from the command's own options.
const GLOBAL: &str = "Global options";

#[derive(Debug, Clone, Args)]
pub struct GlobalArgs {
    /// Print results as JSON on stdout (NDJSON for streams); errors become JSON on stderr.
    #[arg(long, global = true, help_heading = GLOBAL)]
    pub json: bool,
    /// Print only results and errors.
    #[arg(short, long, global = true, help_heading = GLOBAL, conflicts_with = "verbose")]
    pub quiet: bool,
    /// More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG overrides.
    #[arg(short, long, global = true, help_heading = GLOBAL, action = clap::ArgAction::Count)]
    pub verbose: u8,
    /// When to use colour. NO_COLOR in the environment means never.
    #[arg(long, global = true, help_heading = GLOBAL, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// Read settings from this .env file instead of ./.env.
    #[arg(long, global = true, help_heading = GLOBAL, value_name = "FILE")]
    pub env_file: Option<PathBuf>,
    /// Read settings from this outposts.toml instead of the default
    /// ($XDG_CONFIG_HOME/outposts/outposts.toml).
    #[arg(long, global = true, help_heading = GLOBAL, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Answer yes to confirmations (required for destructive commands without a terminal).
    #[arg(short = 'y', long, global = true, help_heading = GLOBAL)]
    pub yes: bool,
    /// Format of log lines on stderr.
    #[arg(long, global = true, help_heading = GLOBAL, value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum LogFormat {
    #[default]
    Text,
    Json,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the whole job on the built-in emulator, narrated: claim, serve, sleep, wake, terminate.
    Demo(commands::demo::Args),
    /// Connect an outpost from the browser and store its token (PKCE partner flow).
    Connect(commands::connect::Args),
    /// Show or forget the stored outpost token.
    Auth(commands::auth::Args),
    /// Create, list, inspect and delete outposts (orchestrator-scope token).
    Outpost(commands::outpost::Args),
    /// Read the outpost's session queue.
    Queue(commands::queue::Args),
    /// Serve the outpost: one sandbox per Devin session (long-running), and inspect it.
    Orchestrator(commands::orchestrator::Args),
    /// Serve the Devin, Daytona and CoreWeave APIs on loopback, and drive its sessions.
    Emulator(commands::emulator::Args),
    /// Fixed workers: sandboxes running `devin worker start --outpost=…` (CoreWeave model).
    Worker(commands::worker::Args),
    /// Build, name, list and delete the Daytona snapshot sandboxes boot from.
    Snapshot(commands::snapshot::Args),
    /// Prove a Devin session runs on your compute (proof file written by Devin, read back).
    Session(commands::session::Args),
    /// Check settings, tokens, outpost, snapshot, port, state dir and clock; print the fixes.
    Doctor(commands::doctor::Args),
    /// What sandboxes cost: per session, outpost or day, from the orchestrator's cost ledger.
    Cost(commands::cost::Args),
    /// Print every environment variable `outposts` reads, with its default and meaning.
    #[command(after_help = HELP_ENV_HELP)]
    HelpEnv,
    /// Print a shell completion script.
    Completions(commands::generate::CompletionsArgs),
    /// Write completions/ and man/ from the CLI definition (for maintainers).
    #[command(hide = true)]
    Generate(commands::generate::GenerateArgs),
}

impl Command {
    /// Commands that install their own signal handling (daemons and long streams).
    pub fn handles_signals(&self) -> bool {
        matches!(self, Command::Emulator(a) if a.is_server())
            || matches!(self, Command::Orchestrator(a) if a.is_daemon())
            // connect must not lose a token minted just before a Ctrl-C.
            || matches!(self, Command::Connect(_))
            // snapshot build says on Ctrl-C whether the remote build goes on.
            || matches!(self, Command::Snapshot(a) if a.is_build())
            // session verify --create / create --until end their session on a stop signal.
            || matches!(self, Command::Session(a) if a.owns_signals())
    }

    /// Commands that create the `--env-file` they are given (so it need not exist yet).
    pub fn creates_env_file(&self) -> bool {
        matches!(self, Command::Connect(_))
            || matches!(self, Command::Outpost(a) if a.writes_env_file())
    }
}
