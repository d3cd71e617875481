//! `outposts doctor`: run the checks of [`crate::doctor`] and render them.

use std::time::Duration;

use anyhow::Result;

use super::Ctx;
use crate::config::{ConfigError, parse_duration};
use crate::doctor::{self, Check, Report, Status};
use crate::error::{CliError, ExitStatus};
use crate::output::Printer;

const AFTER_HELP: &str = "\
Examples:
  outposts doctor                         # every check, one line each, with the fix
  outposts doctor --json | jq '.checks[] | select(.status == \"fail\")'
  outposts doctor --timeout 3s            # give up on a slow service sooner
  eval \"$(outposts emulator env)\" && outposts doctor   # against the built-in emulator

Checks: settings (every value parses; which .env and outposts.toml are used), Devin token
(one authenticated read), outpost (exists, platform), clock (skew against the Devin server's
Date header, fails beyond 30 s), orchestrator token (DEVIN_OUTPOST_CREATE_TOKEN, if set), v3 API
key (DEVIN_API_KEY on DEVIN_ORG_ID, if set; names a missing permission),
Daytona API key and snapshot (exists and active), CoreWeave credentials, local sandboxes
(bubblewrap, with the local provider), connect port (8765 free), state dir (0700, ours, files
0600, writable; who holds the lock). A service that is not configured is skipped, not failed.
Each check is bounded by --timeout; nothing is created or changed.

Scripting: exit 0 when no check failed, 3 when any did. --json prints {ok, passed, failed,
skipped, checks: [{id, title, status: pass|fail|skip, message, fix, elapsed_ms}], settings:
[{name, value, source, origin, secret}], env_file, config_file}. Secrets are masked.";

#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// Longest any single check may take (e.g. 10s, 1m).
    #[arg(long, default_value = "10s", value_parser = parse_timeout)]
    pub timeout: Duration,
}

fn parse_timeout(s: &str) -> Result<Duration, String> {
    let d = parse_duration(s)?;
    if d.is_zero() {
        return Err("the timeout must be longer than 0".into());
    }
    Ok(d)
}

fn mark(printer: &Printer, s: Status) -> String {
    match s {
        Status::Pass => printer.mark(true),
        Status::Fail => printer.mark(false),
        Status::Skip => "–".into(),
    }
}

fn line(printer: &Printer, c: &Check, width: usize) -> String {
    let mut out = format!(
        "{} {:<width$}  {}",
        mark(printer, c.status),
        c.title,
        c.message
    );
    if let Some(fix) = &c.fix
        && c.status == Status::Fail
    {
        out.push_str(&format!(" — fix: {fix}"));
    }
    out
}

fn render(printer: &Printer, r: &Report) -> String {
    let width = r.checks.iter().map(|c| c.title.len()).max().unwrap_or(8);
    let mut out = String::new();
    for c in &r.checks {
        out.push_str(&line(printer, c, width));
        out.push('\n');
    }
    out.push_str(&format!(
        "\n{} passed, {} failed, {} skipped\n",
        r.passed, r.failed, r.skipped
    ));
    let set: Vec<_> = r
        .settings
        .iter()
        .filter(|s| s.source != "default")
        .collect();
    if !set.is_empty() {
        out.push_str(
            "\nSettings in use (flag > environment > .env > outposts.toml > keyring > default):\n",
        );
        let w = set.iter().map(|s| s.name.len()).max().unwrap_or(8);
        for s in &set {
            out.push_str(&format!("  {:<w$}  {}  ({})\n", s.name, s.value, s.origin));
        }
    }
    let defaults = r.settings.len() - set.len();
    if defaults > 0 {
        out.push_str(&format!(
            "  {defaults} more at their defaults (`outposts help-env` lists every variable)\n"
        ));
    }
    out
}

pub async fn run(ctx: &Ctx, args: Args) -> Result<ExitStatus> {
    let opts = doctor::Options {
        timeout: args.timeout,
    };
    // A spinner on a terminal; nothing in JSON mode, where stderr carries only the verdict.
    let progress = (!ctx.printer.json()).then(|| ctx.printer.spinner("running checks"));
    let settings = crate::settings::DoctorSettings::resolve(&ctx.config);
    let report = doctor::run(&settings, &opts).await;
    if let Some(p) = progress {
        p.finish(None);
    }
    ctx.printer
        .result(&report, || render(&ctx.printer, &report));
    verdict(&report)
}

/// The configuration itself cannot be loaded: report that as the failed settings check, in the
/// same shape (a JSON document on stdout with --json), and exit 3 like any failed check.
pub fn unloadable(printer: &Printer, e: &ConfigError) -> Result<ExitStatus> {
    let report = doctor::unloadable(e);
    printer.result(&report, || render(printer, &report));
    verdict(&report)
}

fn verdict(report: &Report) -> Result<ExitStatus> {
    if report.ok {
        return Ok(ExitStatus::Success);
    }
    // The report is on stdout; the verdict goes to stderr (JSON with --json) and exits 3.
    let failed: Vec<&str> = report
        .checks
        .iter()
        .filter(|c| c.status == Status::Fail)
        .map(|c| c.id)
        .collect();
    Err(CliError::Check {
        message: format!("{} check(s) failed: {}", failed.len(), failed.join(", ")),
    }
    .into())
}
