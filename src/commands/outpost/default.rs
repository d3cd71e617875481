//! `outposts outpost default [set NAME_OR_ID | clear]`: the organisation's default platform
//! (`/v3beta1/organizations/{org}/default-platform`, specs/devin-sessions-api.md §4), so new
//! sessions of the organisation run on an outpost without anyone choosing it in the web app.

use anyhow::Result;
use clap::Subcommand;

use super::Ctx;
use crate::api::devin_v3::{DefaultPlatform, DevinV3Client, PlatformChoice, V3Error};
use crate::error::{CliError, ExitStatus};
use crate::settings::V3Settings;

const HELP: &str = "\
Examples:
  outposts outpost default                      # show the organisation's default platform
  outposts outpost default set gpu-h200         # route new sessions to this shared outpost
  outposts outpost default set outpost_env-3a1a…
  outposts outpost default set linux            # back to a hosted machine
  outposts outpost default clear --json

Needs DEVIN_API_KEY with the ManageOrgSettings permission and DEVIN_ORG_ID (or --org). Only a
shared outpost can be the default; the server refuses a personal outpost, an unknown or
ambiguous name, and hosted labels in an Outposts-only enterprise — the refusal (exit 2, a
configuration error like a wrong OUTPOST_ID) shows the platforms and outposts it accepts. A user's own default overrides the organisation's.";

const LEAF_HELP: &str = "\
Examples:
  outposts outpost default set gpu-h200
  outposts outpost default clear --json

Scripting: --json prints the setting as the server answers it: {platform, outpost_pool_id,
outpost_pool_name} (all null when cleared). Exit codes: 0 done · 2 the server refuses the name
(unknown, ambiguous, personal, or a hosted label in an Outposts-only enterprise; the message
lists what it accepts), or DEVIN_API_KEY/DEVIN_ORG_ID are unset · 4 DEVIN_API_KEY is refused or
lacks ManageOrgSettings · 1 the API could not be reached.";

#[derive(Debug, clap::Args)]
#[command(after_help = HELP)]
pub struct Args {
    #[command(subcommand)]
    pub command: Option<DefaultCommand>,
    /// Organisation id [default: DEVIN_ORG_ID].
    #[arg(long, value_name = "ORG", global = true)]
    pub org: Option<String>,
}

#[derive(Debug, Subcommand)]
pub enum DefaultCommand {
    /// Make a shared outpost (name or id) or a hosted label the organisation's default.
    #[command(after_help = LEAF_HELP)]
    Set {
        /// Outpost name or id (`outpost_env-…`), or a hosted label (linux, windows, macos).
        #[arg(value_name = "NAME_OR_ID")]
        target: String,
    },
    /// Remove the organisation's default platform.
    #[command(after_help = LEAF_HELP)]
    Clear,
}

fn describe(d: &DefaultPlatform) -> String {
    match (&d.outpost_pool_id, &d.outpost_pool_name, &d.platform) {
        (Some(id), Some(name), _) => format!("outpost {name} ({id})"),
        (Some(id), None, _) => format!("outpost {id}"),
        (None, _, Some(p)) => format!("platform {p}"),
        (None, _, None) => "none (Devin's own default applies)".into(),
    }
}

pub async fn run(ctx: &Ctx, a: Args) -> Result<ExitStatus> {
    let v3 = DevinV3Client::new(
        V3Settings::resolve(&ctx.config, a.org.as_deref())?,
        ctx.http()?,
    );
    let (current, verb) = match a.command {
        None => (v3.default_platform().await?, "default platform"),
        Some(DefaultCommand::Clear) => (
            v3.set_default_platform(&PlatformChoice::Clear).await?,
            "cleared; default platform",
        ),
        Some(DefaultCommand::Set { target }) => {
            let t = target.trim();
            if t.is_empty() || t.chars().any(char::is_control) {
                return Err(CliError::usage(
                    "the outpost name or id is empty or has control characters",
                    Some("pass the outpost's name or its outpost_env-… id".to_string()),
                )
                .into());
            }
            // An id goes as `outpost_pool_id`, anything else as `platform` (a name or a label).
            let choice = if t.starts_with("outpost_env-") {
                PlatformChoice::OutpostId(t.to_string())
            } else {
                PlatformChoice::Platform(t.to_string())
            };
            let set = match v3.set_default_platform(&choice).await {
                Ok(set) => set,
                // A name the organisation does not offer is a configuration error (exit 2,
                // like a wrong OUTPOST_ID), not a failure of the tool: the message carries the
                // server's list of what it accepts.
                Err(e @ V3Error::Rejected { .. }) => {
                    return Err(CliError::usage(
                        format!("{t:?} cannot be the default platform: {e}"),
                        Some(
                            "pass one of the accepted platforms or shared outposts listed above (`outposts outpost list` shows the outposts)"
                                .to_string(),
                        ),
                    )
                    .into());
                }
                Err(e) => return Err(e.into()),
            };
            (set, "set; default platform")
        }
    };
    ctx.printer.result(&current, || {
        format!(
            "organisation {}: {verb} is {}",
            v3.org(),
            describe(&current)
        )
    });
    Ok(ExitStatus::Success)
}
