//! `outposts cost`: what sandboxes cost, from the orchestrator's cost ledger in the state dir
//! (no network). Rows per session, outpost or UTC day; a table, `--json` or `--csv`.

use std::time::Duration;

use anyhow::Result;
use clap::Parser;

use super::Ctx;
use crate::cost::ledger;
use crate::cost::report::{self, By, CostDoc};
use crate::error::{CliError, ExitStatus};
use crate::output::table::Table;
use crate::settings::V3Settings;

const AFTER_HELP: &str = "\
Examples:
  outposts cost                              # every session the ledger holds
  outposts cost --since 7d --by day          # the last week, one row per UTC day
  outposts cost --by outpost --csv > cost.csv

The ledger is kept by `outposts orchestrator run` in STATE_DIR (one per outpost), one line per
sandbox state change; each stretch is priced at the provider's table of its time
(DAYTONA_PRICES, COREWEAVE_PRICES, LOCAL_PRICES). Open stretches count up to now.

Scripting: --json prints one document {since, until, by, rows: [{key, outpost, provider,
seconds, usd, total_usd, acus}], providers, total_usd, total_acus, unreadable_lines}; its
provider sums are the outposts_sandbox_cost_usd metric's. acus is Devin's own usage of the
session (acus_consumed, read by the orchestrator when the session sleeps or ends, with
DEVIN_API_KEY and DEVIN_ORG_ID set); null when unknown. --csv prints the rows as RFC 4180 CSV
with a header (acus empty when unknown).
Exit 0, or 2 for a bad flag or state dir.";

#[derive(Debug, Parser)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// Only time since this long ago (e.g. 24h, 7d); default: everything the ledger holds.
    #[arg(long, value_parser = crate::config::parse_duration)]
    pub since: Option<Duration>,
    /// One row per session, outpost or UTC day.
    #[arg(long, value_enum, default_value = "session")]
    pub by: By,
    /// CSV (RFC 4180) on stdout instead of a table.
    #[arg(long)]
    pub csv: bool,
}

pub async fn run(ctx: &Ctx, a: Args) -> Result<ExitStatus> {
    if a.csv && ctx.printer.json() {
        return Err(CliError::usage(
            "--csv and --json both ask for the output format",
            "pass one of them: `outposts cost --json` or `outposts cost --csv`",
        )
        .into());
    }
    let dir = ctx.config.state_dir()?;
    let tally = ledger::read_all(&dir)?;
    let now = crate::time::now();
    let since = a.since.map_or(0.0, |d| now - d.as_secs_f64());
    let doc = report::report(&tally, since, now, a.by);
    if doc.unreadable_lines > 0 {
        ctx.printer.warn(&format!(
            "{} unreadable ledger line(s) under {} skipped (a write cut short by a crash?)",
            doc.unreadable_lines,
            dir.display()
        ));
    }
    if a.csv {
        ctx.printer.line(report::csv(&doc).trim_end_matches("\r\n"));
        return Ok(ExitStatus::Success);
    }
    ctx.printer
        .result(&doc, || human(&doc, &dir, ctx.printer.width()));
    Ok(ExitStatus::Success)
}

/// Where `orchestrator run` reads Devin's usage of each session: the v3 key and organisation
/// when both are configured. No key: `None` in silence (usage is optional); a key without an
/// organisation (or another unusable setting) is a warning naming the variable, not an error:
/// cost reporting is never a reason not to serve.
pub(crate) fn devin_usage(ctx: &Ctx, config: &crate::config::Config) -> Option<V3Settings> {
    config
        .value(&crate::env::DEVIN_API_KEY)
        .filter(|k| !k.trim().is_empty())?;
    match V3Settings::resolve(config, None) {
        Ok(s) => Some(s),
        Err(e) => {
            // `V3Settings`' own hint offers `--org`, which `orchestrator run` does not take.
            let fix = match &e {
                crate::config::ConfigError::Missing { var, .. } => {
                    format!("set {var} beside DEVIN_API_KEY")
                }
                other => other.hint().to_string(),
            };
            ctx.printer.warn(&format!(
                "Devin's usage (ACUs) of sessions will not be in the cost ledger: {e}; {fix}"
            ));
            None
        }
    }
}

fn hours(s: f64) -> String {
    format!("{:.2}", s / 3600.0)
}

fn human(doc: &CostDoc, dir: &std::path::Path, width: Option<usize>) -> String {
    if doc.rows.is_empty() {
        return format!(
            "no sandbox time recorded{} in the cost ledger under {}\n",
            if doc.since > 0.0 {
                " in that window"
            } else {
                ""
            },
            dir.display()
        );
    }
    let first = match doc.by {
        By::Session => "SESSION",
        By::Outpost => "OUTPOST",
        By::Day => "DAY",
    };
    let mut t = Table::new(&[
        first,
        "PROVIDER",
        "RUNNING H",
        "STOPPED H",
        "ARCHIVED H",
        "USD",
        "ACUS",
    ])
    .optional("ACUS")
    .optional("ARCHIVED H")
    .optional("PROVIDER");
    for r in &doc.rows {
        t.row(vec![
            r.key.clone(),
            r.provider.clone(),
            hours(r.seconds.running),
            hours(r.seconds.stopped),
            hours(r.seconds.archived),
            format!("{:.4}", r.total_usd),
            acus(r.acus),
        ]);
    }
    let mut out = t.render(width).text;
    if !out.ends_with('\n') {
        out.push('\n');
    }
    for (provider, p) in &doc.providers {
        out.push_str(&format!(
            "{provider}: ${:.4} (running ${:.4}, stopped ${:.4}, archived ${:.4})\n",
            p.usd.total(),
            p.usd.running,
            p.usd.stopped,
            p.usd.archived
        ));
    }
    out.push_str(&format!(
        "total: ${:.4}, Devin usage {} ACUs\n",
        doc.total_usd,
        acus(doc.total_acus)
    ));
    out
}

/// ACUs as recorded; "—" when unknown (no v3 key, or never read): never shown as 0.
fn acus(a: Option<f64>) -> String {
    a.map_or_else(|| "—".into(), |a| format!("{a:.2}"))
}
