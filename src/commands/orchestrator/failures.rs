//! `outposts orchestrator failures [SESSION]`: the failure records the orchestrator kept in
//! the state dir (no network, except to look an outpost name up) — a list, or one record whole.

use std::path::PathBuf;

use anyhow::Result;
use schemars::JsonSchema;
use serde::Serialize;

use super::{Ctx, FailuresArgs, outpost_id};
use crate::env;
use crate::error::{CliError, ExitStatus};
use crate::orchestrator::failures::{FailedRow, FailureRecord, store};
use crate::orchestrator::state::StateDir;

/// `outposts orchestrator failures --json`: the outpost's failure records, newest first (one
/// per session: its latest failure), or only SESSION's.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct OrchFailuresDoc {
    pub outpost_id: String,
    pub state_dir: PathBuf,
    /// `FAILED_KEEP`, seconds: how long a failed sandbox is kept before the janitor reaps it.
    pub failed_keep_seconds: f64,
    pub records: Vec<FailureRecord>,
}

pub(super) async fn failures(ctx: &Ctx, a: FailuresArgs) -> Result<ExitStatus> {
    let mut outpost = outpost_id(ctx, a.outpost)?;
    let state_dir = StateDir::open(&ctx.config.state_dir()?)?;
    // The state dir is keyed by id: a name without state of its own is looked up.
    if !state_dir
        .outpost(&outpost)?
        .dir()
        .join("acceptor_id")
        .exists()
        && let Ok(devin) = ctx.devin()
        && let Ok(found) = crate::commands::lookup_outpost(&devin, &outpost).await
    {
        outpost = found.outpost_id;
    }
    let o = state_dir.outpost(&outpost)?;
    let mut records = store::read(o.dir())?;
    // What the running orchestrator was told, else this command's own settings.
    let keep = match o.status().and_then(|s| s.failed_keep_seconds) {
        Some(k) => k,
        None => ctx
            .config
            .duration(&env::FAILED_KEEP)?
            .unwrap_or_default()
            .as_secs_f64(),
    };
    if let Some(session) = &a.session {
        records.retain(|r| &r.session_id == session);
        if records.is_empty() {
            return Err(CliError::failed(
                format!(
                    "no failure record for session {session} in {}",
                    o.dir().display()
                ),
                "list the recorded ones with `outposts orchestrator failures`",
            )
            .into());
        }
    }
    let doc = OrchFailuresDoc {
        outpost_id: outpost,
        state_dir: state_dir.root().to_path_buf(),
        failed_keep_seconds: keep,
        records,
    };
    let width = ctx.printer.width();
    let one = a.session.is_some();
    ctx.printer.result(&doc, || {
        let now = crate::time::now();
        match doc.records.first() {
            Some(r) if one => detail(r, keep, now),
            _ => list(&doc.records, now, width),
        }
    });
    Ok(ExitStatus::Success)
}

/// `orchestrator status`'s lines for failed sandboxes kept for forensics.
pub(super) fn kept_lines(rows: &[FailedRow]) -> String {
    let now = crate::time::now();
    let mut out = String::new();
    for r in rows {
        let log = r
            .last_log
            .as_ref()
            .map(|l| format!("; its remote logged: {l}"))
            .unwrap_or_default();
        let given = r
            .given_up
            .as_ref()
            .map(|g| format!(" (given up: {g})"))
            .unwrap_or_default();
        let fate = match r.reap_at {
            Some(t) => format!("sandbox kept, reaped {}", ago(t - now)),
            None => "sandbox kept: the session had slept".into(),
        };
        out.push_str(&format!(
            "{:<12} {}: {} failed{given}: {}{log} ({fate}; `outposts orchestrator failures {}`)\n",
            "failed", r.session_id, r.step, r.error, r.session_id
        ));
    }
    out
}

/// What became of the record's sandbox, in words.
fn sandbox_fate(r: &FailureRecord, keep: f64, now: f64) -> String {
    if let Some(t) = r.reaped_at {
        return format!("reaped {}", ago(t - now));
    }
    if let Some(t) = r.resolved_at {
        return format!("served again {}", ago(t - now));
    }
    if r.woke {
        return "kept (the session had slept: its workspace is never reaped)".into();
    }
    format!(
        "kept, stopped; reaped {} (FAILED_KEEP)",
        ago(r.failing_since + keep - now)
    )
}

/// One line per record: `SESSION  STEP  WHEN  ATTEMPT  ERROR`.
fn list(records: &[FailureRecord], now: f64, width: Option<usize>) -> String {
    if records.is_empty() {
        return "no failure records\n".into();
    }
    let mut out = format!(
        "{:<40} {:<13} {:<10} {:>7}  {}\n",
        "SESSION", "STEP", "WHEN", "ATTEMPT", "ERROR"
    );
    for r in records {
        let mut error = one_line(&r.error);
        if let Some(g) = &r.given_up {
            error = format!("given up ({g}): {error}");
        }
        let line = format!(
            "{:<40} {:<13} {:<10} {:>7}  {error}",
            r.session_id,
            r.step.as_str(),
            ago(r.at - now),
            r.attempt
        );
        out.push_str(&cut(&line, width));
        out.push('\n');
    }
    out
}

/// One record whole.
fn detail(r: &FailureRecord, keep: f64, now: f64) -> String {
    let mut out = format!(
        "session      {}\nsandbox      {} ({})\nstep         {}\nfailed       {} (attempt {})\nerror        {}\n",
        r.session_id,
        r.sandbox_id.as_deref().unwrap_or("-"),
        r.sandbox_name,
        r.step.as_str(),
        ago(r.at - now),
        r.attempt,
        one_line(&r.error),
    );
    if let Some(g) = &r.given_up {
        out.push_str(&format!("given up     {g}\n"));
    }
    let state = match (&r.sandbox_state, &r.sandbox_detail) {
        (Some(s), Some(d)) if d != s => format!("{s} ({d})"),
        (Some(s), _) => s.clone(),
        (None, _) => "unknown (not read)".into(),
    };
    out.push_str(&format!("last state   {state}\n"));
    out.push_str(&format!("sandbox now  {}\n", sandbox_fate(r, keep, now)));
    let block = |title: &str, lines: &[String]| {
        if lines.is_empty() {
            return format!("{title}: (none)\n");
        }
        let mut b = format!("{title}:\n");
        for l in lines {
            b.push_str(&format!("  {l}\n"));
        }
        b
    };
    out.push_str(&block("remote log (last lines)", &r.remote_log));
    out.push_str(&block("bootstrap log (last lines)", &r.bootstrap_log));
    let events: Vec<String> = r
        .events
        .iter()
        .map(|e| format!("{:<10} {}", ago(e.at - now), e.text))
        .collect();
    out.push_str(&block("events", &events));
    out
}

fn ago(delta: f64) -> String {
    crate::commands::queue::relative(delta)
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn cut(line: &str, width: Option<usize>) -> String {
    match width {
        Some(w) if line.chars().count() > w && w > 1 => {
            let mut s: String = line.chars().take(w - 1).collect();
            s.push('…');
            s
        }
        _ => line.to_string(),
    }
}
