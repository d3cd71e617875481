//! `outposts session verify`: prove that a Devin session runs on compute we own.

pub(crate) mod v3;
pub(crate) mod verify;
pub(crate) mod verify_create;
mod verify_report;
mod verify_sleep;

use std::time::Duration;

use anyhow::Result;
use clap::Subcommand;

use super::Ctx;
use crate::api::devin::DevinClient;
use crate::commands::emulator::Signal;
use crate::env;
use crate::error::{CliError, ExitStatus};
use crate::provider::ProviderKind;
use crate::verify::{DEFAULT_PATH, show};

const AFTER_HELP: &str = "\
Examples:
  outposts session verify --session devin-0a1b2c   # a session served by `orchestrator run`
  outposts session verify --sandbox 4f9c…          # a fixed worker's sandbox

Exit codes (every session command; the README's \"Scripting\" section has the table): 0 ok ·
1 failure (API unreachable, unknown session id) · 2 usage or configuration (a flag, DEVIN_API_KEY
or DEVIN_ORG_ID unset or wrong, an outpost the organisation does not offer, no such sandbox) ·
3 check failed or timed out (--wait, --until) · 4 credential refused · 5 wrong --provider ·
130 SIGINT · 143 SIGTERM (verify --create and create --until end their session first).
With --json stdout holds exactly one document (the verdict, or the error with session_id);
every stderr line is a JSON object.";

#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    #[command(subcommand)]
    pub command: SessionCommand,
}

#[derive(Debug, Subcommand)]
pub enum SessionCommand {
    /// Prove a session runs in your sandbox: print a task with a fresh proof value, then wait
    /// for Devin to write it and read it back from that sandbox.
    #[command(long_about = VERIFY_ABOUT, after_help = VERIFY_HELP)]
    Verify(VerifyArgs),
    /// Create a Devin session through the v3 API on an outpost (DEVIN_API_KEY, DEVIN_ORG_ID).
    Create(v3::CreateArgs),
    /// Show a session: v3 status and detail, fleet queue row, sandbox.
    Show(v3::ShowArgs),
    /// End (terminate) a session through the v3 API.
    End(v3::EndArgs),
}

const VERIFY_ABOUT: &str = "\
Prove that a Devin session runs in a sandbox you own.

verify makes a unique, non-secret proof value (or takes --proof) and prints the exact task to
give Devin, and the same task as a Slack line for the outpost. It then finds the sandbox — by
--sandbox, or the orchestrator's sandbox of --session (hashed name, checked label) — and reads
the file through the provider (polling with backoff) until it exists or --wait runs out. The
contents must equal the proof exactly; one trailing newline is tolerated and reported. Other
contents (an earlier verification's proof) mean `not yet`: verify keeps reading until the proof
appears or --wait runs out. A --session that has no sandbox and is not in the outpost's queue
fails at once.";

const VERIFY_HELP: &str = "\
Examples:
  outposts session verify --session devin-0a1b2c3d --provider daytona
  outposts session verify --sandbox 4f9c2e1a --provider coreweave --outpost gpu-h200
  outposts session verify --print-only --outpost rhel9     # just the task text; no provider call
  outposts session verify --print-only --proof P | head -1 # the task line alone
  P=$(openssl rand -hex 6)
  outposts session verify --print-only --proof \"$P\" --json | jq -r .task   # submit this
  outposts session verify --session \"$ID\" --proof \"$P\" --wait 5m --json

Output: the task text (line 1) and the Slack line (line 2) go to stdout, then the verdict;
labels, tips and progress go to stderr. Submit the task in a session on the outpost: in the
Devin app choose the outpost as the session's machine; in Slack the line's `!outpost NAME`
routes it.

The outpost NAME comes from --outpost, else OUTPOST_ID when it holds a name, else from the Devin
API (the name of the OUTPOST_ID id) when DEVIN_OUTPOSTS_TOKEN is set, else a placeholder
<OUTPOST-NAME> to replace. Without --provider, a --sandbox is looked for on every configured
provider (the one a worker was launched on from here first), as the worker commands do.

Exit codes: 0 match · 1 failure (an API unreachable) · 2 bad input, or no such sandbox or
session · 3 timed out (the diagnosis says why: the sandbox's state, the last remote or worker
log lines, and the session's queue state when a Devin token is configured), or mismatch: the
file still held another value when --wait ran out (both values shown) · 4 credentials rejected.

Unattended (CI): --create makes the session itself through Devin's v3 API on the outpost
(DEVIN_API_KEY with ManageOrgSessions and ViewOrgSessions, DEVIN_ORG_ID or --org), shows each
stage on stderr (queued, claimed, running, proof file found), reads the file from that session's
sandbox and ends the session whatever the outcome (--keep-session leaves it). The outpost is
--outpost, else OUTPOST_ID: a name is the session's platform as it is; an outpost_env-… id is
named through the fleet API when DEVIN_OUTPOSTS_TOKEN is set, else through the v3 API (the
organisation's default platform, or the outposts it accepts). Neither: the organisation's
default platform, read first — with none set, nothing is created. The provider's key and
DEVIN_API_KEY's access to the organisation are checked before the session is created. Exit
0 match · 3 mismatch, session ended before the file, or --wait ran out (naming the stage it
stalled at: never claimed / claimed but never running / running but no proof file; the
verdict's `hint` says what to look at) · 2 DEVIN_API_KEY or DEVIN_ORG_ID unset or unknown, no
outpost and no default, an id nothing names, an outpost the organisation does not offer, or
fixed workers to search without DEVIN_OUTPOSTS_TOKEN · 4 a key refused or lacking a permission
(no session created) · 5 the session is served, but by no sandbox on --provider (the message
names who holds it and the --provider to try) · 130/143 SIGINT/SIGTERM: the session is ended
first (unless --keep-session) and the verdict `interrupted` names it.
  outposts session verify --create --provider daytona --wait 15m

Scripting: --json prints one object on stdout at the end:
  {\"result\": \"match\"|\"mismatch\"|\"timeout\"|\"printed\", \"exit_code\", \"proof\", \"path\",
   \"task\", \"slack\", \"outpost_name\", \"outpost_name_source\": \"flag\"|\"env\"|\"devin_api\"|\"placeholder\",
   \"provider\", \"session_id\", \"sandbox\": {\"id\", \"name\", \"state\", \"raw_state\", \"labels\", …}|null,
   \"waited_seconds\", \"trailing_newline\", \"expected\", \"found\", \"found_bytes\",
   \"diagnosis\": {\"sandbox\", \"sandbox_looked_for\", \"sandbox_error\", \"last_read_error\",
     \"session_id\", \"log_source\": \"remote\"|\"worker\"|\"sandbox\"|null, \"log_tail\": [..],
     \"queue\": {\"in_queue\", \"phase\", \"session_status\", \"acceptor_id\", \"outpost_id\",
     \"claim_deadline\"}|null, \"queue_note\", \"hints\": [..]}|null,
   \"egress\": {\"mode\": \"open\"|\"restricted\"|\"unknown\", \"allow\": [{\"hostname\"}|{\"ipv4\"}|{\"ipv6\"}]}|null}
The sandbox's network is shown as its provider reports it (the session's policy in force).
Fields that do not apply are null. Pass --proof to know the value before the run ends.";

#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// Sandbox id or name to read (a fixed worker's, or any sandbox).
    #[arg(long, value_name = "ID", conflicts_with = "session")]
    pub sandbox: Option<String>,
    /// Devin session id; its sandbox is the orchestrator's (`devin-<id>-<hash>`, labelled).
    #[arg(long, value_name = "ID")]
    pub session: Option<String>,
    /// Where the sandbox runs [default: OUTPOSTS_PROVIDER or daytona].
    #[arg(long, value_enum)]
    pub provider: Option<ProviderKind>,
    /// The outpost (name, or `outpost_env-…` id). With --create: the one the session is created
    /// on [default: OUTPOST_ID, else the organisation's default platform]. Otherwise: the name
    /// for the Slack line [default: OUTPOST_ID's name].
    #[arg(long, value_name = "NAME")]
    pub outpost: Option<String>,
    /// The value to expect [default: a fresh `outpost-proof-<12 hex>`].
    #[arg(long, value_name = "VALUE")]
    pub proof: Option<String>,
    /// Absolute path of the proof file inside the sandbox.
    #[arg(long, value_name = "PATH", default_value = DEFAULT_PATH)]
    pub path: String,
    /// How long to wait for the file (e.g. 90s, 10m, 1h).
    #[arg(long, value_name = "DURATION", default_value = "10m",
          value_parser = crate::config::parse_duration)]
    pub wait: Duration,
    /// Print the task and the Slack line, then exit 0; no provider is contacted.
    #[arg(long)]
    pub print_only: bool,
    /// Create the proof session yourself through Devin's v3 API on the outpost, follow it,
    /// read the file back and end the session (DEVIN_API_KEY, DEVIN_ORG_ID). Unattended.
    #[arg(long)]
    pub create: bool,
    /// With --create: leave the proof session running afterwards.
    #[arg(long, requires = "create")]
    pub keep_session: bool,
    /// With --create: the organisation [default: DEVIN_ORG_ID].
    #[arg(long, value_name = "ORG", requires = "create")]
    pub org: Option<String>,
    /// With --create: once the proof is read, suspend the session, wait for its sandbox to
    /// sleep, resume it, and read the proof again once it is served (the emulator only: Devin's
    /// v3 API cannot suspend a session).
    #[arg(long, requires = "create")]
    pub sleep_cycle: bool,
}

impl Args {
    /// The commands that end the session they made on SIGINT/SIGTERM (and print its id)
    /// install their own handlers; `main.rs` must not drop them mid-wait.
    pub fn owns_signals(&self) -> bool {
        match &self.command {
            SessionCommand::Verify(a) => a.create,
            SessionCommand::Create(a) => a.until.is_some(),
            _ => false,
        }
    }
}

/// The exit status after a stop signal: 130 for SIGINT, 143 for SIGTERM (the shell's 128+n,
/// which CI runners report for a cancelled job).
pub(super) fn stopped_by(sig: Signal) -> ExitStatus {
    match sig {
        Signal::Interrupt => ExitStatus::Interrupted,
        Signal::Terminate => ExitStatus::Terminated,
    }
}

pub(super) fn signal_name(sig: Signal) -> &'static str {
    match sig {
        Signal::Interrupt => "SIGINT",
        Signal::Terminate => "SIGTERM",
    }
}

pub async fn run(ctx: &Ctx, args: Args) -> Result<ExitStatus> {
    match args.command {
        SessionCommand::Verify(a) if a.create => verify_create::run(ctx, a).await,
        SessionCommand::Verify(a) => verify::run(ctx, a).await,
        SessionCommand::Create(a) => v3::run_create(ctx, a).await,
        SessionCommand::Show(a) => v3::run_show(ctx, a).await,
        SessionCommand::End(a) => v3::run_end(ctx, a).await,
    }
}

pub(super) fn usage(message: String, hint: &str) -> anyhow::Error {
    CliError::usage(message, hint).into()
}

pub(super) fn printable(s: &str) -> bool {
    !s.chars().any(char::is_control)
}

/// A proof must survive being typed into a chat box and compared byte for byte.
pub(super) fn check_proof(p: &str) -> Result<()> {
    if p.is_empty() || p.len() > 128 || p.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(usage(
            format!("--proof {} is not usable", show(p)),
            "use 1-128 printable characters without spaces, or omit --proof for a fresh value",
        ));
    }
    Ok(())
}

pub(super) fn check_path(p: &str) -> Result<()> {
    let b = p.as_bytes();
    let windows_abs = b.len() > 2 && b[0].is_ascii_alphabetic() && b[1] == b':';
    if !(p.starts_with('/') || windows_abs) || p.len() > 1024 || !printable(p) {
        return Err(usage(
            format!("--path {} must be an absolute path", show(p)),
            "the remote resolves relative paths against its own working directory, which verify cannot see; use e.g. /workspace/outpost-proof.txt",
        ));
    }
    Ok(())
}

/// A fleet client when a token is configured (the name lookup and the queue state need one).
pub(super) fn devin(ctx: &Ctx) -> Result<Option<DevinClient>> {
    if ctx.config.get(&env::DEVIN_OUTPOSTS_TOKEN).is_none() {
        return Ok(None);
    }
    Ok(Some(ctx.devin()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proofs_and_paths_are_checked() {
        assert!(check_proof("outpost-proof-0123").is_ok());
        for bad in ["", "a b", "a\nb", &"x".repeat(129)] {
            assert!(check_proof(bad).is_err(), "{bad:?}");
        }
        assert!(check_path("/workspace/outpost-proof.txt").is_ok());
        assert!(check_path("C:\\repos\\proof.txt").is_ok());
        for bad in ["proof.txt", "./x", "", "/a\u{7}b"] {
            assert!(check_path(bad).is_err(), "{bad:?}");
        }
    }
}
