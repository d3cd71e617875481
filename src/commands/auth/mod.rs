//! `outposts auth status|set-key|logout`: which outpost token and v3 API key are in force and
//! where they came from, storing the v3 key (`auth_key.rs`), and forgetting what was stored.

pub(crate) mod key;
pub(crate) mod logout;
pub(crate) mod status;

use anyhow::Result;
use clap::Subcommand;

use super::Ctx;
use crate::config::Source;
use crate::error::ExitStatus;

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
origin, hint}, outpost_id, api_url, orchestrator_token, accepted, api_key_check,
api_key_check_error, api_key_missing}. source is env, file, keyring or flag; hint is a masked
form such as cog_…a1b2 (no token or key is ever printed). accepted is DEVIN_OUTPOSTS_TOKEN's
check; api_key_check is DEVIN_API_KEY's (accepted, refused or unchecked; null when no key is
set), probed for DEVIN_ORG_ID without changing anything, with the permissions it lacks in
api_key_missing (`outposts doctor` says which commands need them). Exit codes (about the token;
a refused v3 key is reported, not an exit): 0 a token is present (and accepted, unless
--offline) · 4 no token, or the API rejected it · 1 the check itself failed (network): retry,
or pass --offline.";

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
        AuthCommand::Status(a) => status::status(ctx, a).await,
        AuthCommand::SetKey(a) => key::set_key(ctx, a).await,
        AuthCommand::Logout => logout::logout(ctx).await,
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
