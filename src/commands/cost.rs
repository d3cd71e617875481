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

const AFTER_HELP: &str = "\
Examples:
  outposts cost                              # every session the ledger holds
  outposts cost --since 7d --by day          # the last week, one row per UTC day
  outposts cost --by outpost --csv > cost.csv

The ledger is kept by `outposts orchestrator run` in STATE_DIR (one per outpost), one line per
sandbox state change; each stretch is priced at the provider's table of its time
(DAYTONA_PRICES, COREWEAVE_PRICES, LOCAL_PRICES). Open stretches count up to now.

Scripting: --json prints one document {since, until, by, rows: [{key, outpost, provider,
seconds, usd, total_usd, acus}], providers, total_usd, unreadable_lines}; its provider sums are
the outposts_sandbox_cost_usd metric's. --csv prints the rows as RFC 4180 CSV with a header.
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
            r.acus.map(|a| format!("{a}")).unwrap_or_else(|| "–".into()),
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
    out.push_str(&format!("total: ${:.4}\n", doc.total_usd));
    out
}
