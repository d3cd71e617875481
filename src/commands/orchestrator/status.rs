//! `outposts orchestrator status`: the state dir's view of one outpost (no network, except to
//! look a name up), rendered with the table `status --watch` shares.

use std::path::PathBuf;

use anyhow::Result;
use schemars::JsonSchema;
use serde::Serialize;

use super::Ctx;
use super::{StatusArgs, outpost_id};
use crate::error::{CliError, ExitStatus};
use crate::orchestrator::state::StateDir;
use crate::orchestrator::{
    EndedRow, FailedRow, Fleet, GivenUpRow, NotServedRow, RefusedRow, SessionRow, SleepingRow,
};

pub(super) async fn status(ctx: &Ctx, a: StatusArgs) -> Result<ExitStatus> {
    let mut outpost = outpost_id(ctx, a.outpost)?;
    // The state dir is keyed by id: a name (or anything without state) is looked up, when the
    // outposts can be read; otherwise the state dir's own answer stands.
    if status_doc(ctx, &outpost).is_err()
        && let Ok(devin) = ctx.devin()
        && let Ok(found) = crate::commands::lookup_outpost(&devin, &outpost).await
    {
        outpost = found.outpost_id;
    }
    if a.watch {
        return super::watch::watch(ctx, &outpost, a.interval).await;
    }
    let typed = status_doc(ctx, &outpost)?;
    let acceptor = typed.acceptor_id.clone();
    let cursor_age = typed.cursor_age_seconds;
    // The table views shared with `--watch` read the document as JSON.
    let doc = serde_json::to_value(&typed)?;
    ctx.printer.result(&typed, || {
        use super::watch as view;
        let t = crate::time::now();
        let mut out = format!(
            "outpost      {outpost}\nacceptor     {acceptor}\n{}cursor age   {}\n",
            view::summary(&doc, t),
            cursor_age
                .map(view::age)
                .unwrap_or_else(|| "no cursor".into())
        );
        if let Some(w) = &typed.warm {
            out.push_str(&super::warm::warm_line(w));
        }
        // The same table `status --watch` draws.
        out.push_str(&view::table(
            &view::advance(&Default::default(), &doc, t),
            t,
            ctx.printer.width(),
        ));
        out.push_str(&sleeping_table(&typed));
        out.push_str(&super::status_integrity::lines(&typed.wake_integrity));
        if !typed.cost.sessions.is_empty() {
            out.push_str(&format!(
                // Kept under 80 columns (the status table's width); `outposts cost` has more.
                "cost         ${:.4} so far, ${:.4}/h now, {} session(s) shown\n",
                typed.cost.total_usd,
                typed.cost.usd_per_hour,
                typed.cost.sessions.len()
            ));
        }
        // Sessions not served because their network policy cannot be enforced, and sessions
        // given up (released, cooling off), each with why and when it may be tried again.
        for r in &typed.refused {
            let row = (r.session_id.as_str(), r.reason.as_str(), None, r.retry_at);
            out.push_str(&cooling_off_line("refused", "claimable again", row));
        }
        for g in &typed.given_up {
            let reason = match &g.last_error {
                Some(e) => format!("{} (last: {e})", g.reason),
                None => g.reason.clone(),
            };
            let row = (
                g.session_id.as_str(),
                reason.as_str(),
                g.last_log.as_deref(),
                g.retry_at,
            );
            out.push_str(&cooling_off_line("given up", "tried again", row));
        }
        // Sessions whose last provisioning attempt failed: why, and when they are tried again.
        for n in &typed.not_served {
            let reason = format!("{} (attempt {})", n.reason, n.failures);
            let row = (n.session_id.as_str(), reason.as_str(), None, n.retry_at);
            out.push_str(&cooling_off_line("not served", "tried again", row));
        }
        out.push_str(&super::failures::kept_lines(&typed.failed));
        if let Some(p) = &typed.placement {
            out.push_str(&super::status_placement::lines(p, crate::time::now()));
        }
        out
    });
    Ok(ExitStatus::Success)
}

/// `outposts orchestrator status --json`: the state dir's view of one outpost. The lists and
/// counters are the running orchestrator's status file, as it wrote them.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct OrchStatusDoc {
    pub outpost_id: String,
    pub acceptor_id: String,
    /// Whether an orchestrator holds the state dir's lock.
    pub running: bool,
    pub pid: Option<u32>,
    pub state_dir: PathBuf,
    pub cursor_age_seconds: Option<f64>,
    /// Unix seconds of the status file's last rewrite.
    pub status_updated_at: Option<f64>,
    /// Sessions held.
    pub sessions: Vec<SessionRow>,
    /// Sleeping sessions.
    pub sleeping: Vec<SleepingRow>,
    pub sandboxes: Option<Fleet>,
    pub sleep_retention_seconds: Option<f64>,
    pub sleep_keeps: Option<String>,
    /// Sessions not served (network policy).
    pub refused: Vec<RefusedRow>,
    /// Sessions given up (cooling off).
    pub given_up: Vec<GivenUpRow>,
    /// Sessions whose last provisioning attempt failed (released, tried again after a backoff).
    pub not_served: Vec<NotServedRow>,
    pub cap: Option<usize>,
    pub held: Option<usize>,
    pub waiting: Option<usize>,
    /// Sessions released lately.
    pub ended: Vec<EndedRow>,
    /// The last wake-integrity check of each session held or asleep.
    pub wake_integrity: Vec<crate::orchestrator::integrity::IntegrityRow>,
    /// Failed sandboxes kept stopped for forensics until `reap_at` (`outposts orchestrator
    /// failures SESSION` shows the whole record).
    pub failed: Vec<FailedRow>,
    pub failed_keep_seconds: Option<f64>,
    /// The snapshots sessions are placed on, which are quarantined, and whether new sessions
    /// are claimed (`null` before the first create on a snapshot).
    pub placement: Option<crate::orchestrator::PlacementReport>,
    /// The status file is older than a running orchestrator would leave it.
    pub stale: bool,
    pub status_age_seconds: Option<f64>,
    /// What the sessions shown (held and sleeping) cost, from the cost ledger.
    pub cost: crate::cost::report::StatusCost,
    /// The warm capacity (`WARM_IDLE`); `null` when off.
    pub warm: Option<crate::orchestrator::warm::WarmStatus>,
}

/// The state dir's view of the outpost, as `status --json` prints it (no network).
pub(super) fn status_doc(ctx: &Ctx, outpost: &str) -> Result<OrchStatusDoc> {
    let state_dir = StateDir::open(&ctx.config.state_dir()?)?;
    let o = state_dir.outpost(outpost)?;
    let running = state_dir.is_locked();
    let acceptor = std::fs::read_to_string(o.dir().join("acceptor_id"))
        .ok()
        .map(|s| s.trim().to_string());
    let Some(acceptor) = acceptor else {
        return Err(CliError::usage(
            format!(
                "no orchestrator state for outpost {outpost} in {}",
                state_dir.root().display()
            ),
            "start one with `outposts orchestrator run`, or point STATE_DIR at its state dir",
        )
        .into());
    };
    let file = o.status().unwrap_or_default();
    // What the sessions shown cost, from the ledger beside the status file.
    let cost = {
        let tally =
            crate::cost::ledger::read(&o.dir().join(crate::cost::ledger::FILE)).unwrap_or_default();
        let held = file.sessions.iter().map(|s| s.session_id.as_str());
        let asleep = file.sleeping.iter().map(|s| s.session_id.as_str());
        crate::cost::report::status_cost(&tally, outpost, held.chain(asleep), crate::time::now())
    };
    let (stale, status_age_seconds) =
        super::watch::staleness(running, file.updated_at, crate::time::now());
    Ok(OrchStatusDoc {
        outpost_id: outpost.to_string(),
        acceptor_id: acceptor,
        running,
        pid: file.pid,
        state_dir: state_dir.root().to_path_buf(),
        cursor_age_seconds: o.cursor().map(|(_, age)| age),
        status_updated_at: file.updated_at,
        sessions: file.sessions,
        sleeping: file.sleeping,
        sandboxes: file.sandboxes,
        sleep_retention_seconds: file.sleep_retention_seconds,
        sleep_keeps: file.sleep_keeps,
        refused: file.refused,
        given_up: file.given_up,
        not_served: file.not_served,
        cap: file.cap,
        held: file.held,
        waiting: file.waiting,
        ended: file.ended,
        wake_integrity: file.wake_integrity,
        failed: file.failed,
        failed_keep_seconds: file.failed_keep_seconds,
        placement: file.placement,
        stale,
        status_age_seconds,
        cost,
        warm: file.warm,
    })
}

/// The sleeping sessions' part of `orchestrator status`: what sleep costs, and what the
/// retention setting would remove and when.
fn sleeping_table(doc: &OrchStatusDoc) -> String {
    let now = crate::time::now();
    let ago = |t: Option<f64>| {
        t.map(|t| crate::commands::queue::relative(t - now))
            .unwrap_or_else(|| "-".into())
    };
    let mut out = String::new();
    if doc.sleeping.is_empty() {
        return out;
    }
    if let Some(keeps) = &doc.sleep_keeps {
        out.push_str(&format!("sleep keeps  {keeps}\n"));
    }
    out.push_str(&format!(
        "{:<40} {:<9} {:<10} {:<22} {}\n",
        "SLEEPING SESSION", "STATE", "SLEPT", "REMOVED (RETENTION)", "SANDBOX"
    ));
    for s in &doc.sleeping {
        let when = match (doc.sleep_retention_seconds, s.retention_deadline) {
            (None, _) => "never (off)".to_string(),
            (Some(_), Some(d)) => ago(Some(d)),
            (Some(_), None) => "when absent".to_string(),
        };
        let dash = |v: &str| {
            if v.is_empty() {
                "-".to_string()
            } else {
                v.to_string()
            }
        };
        out.push_str(&format!(
            "{:<40} {:<9} {:<10} {:<22} {}\n",
            dash(&s.session_id),
            dash(&s.state),
            ago(Some(s.slept_since)),
            when,
            s.sandbox_id
                .clone()
                .unwrap_or_else(|| dash(&s.sandbox_name))
        ));
    }
    out
}

/// One cooling-off session: `LABEL  SESSION: REASON[; its remote logged: …] (AGAIN in …)`.
fn cooling_off_line(
    label: &str,
    again: &str,
    (session, reason, last_log, retry_at): (&str, &str, Option<&str>, Option<f64>),
) -> String {
    let when = retry_at
        .map(|t| {
            format!(
                " ({again} {})",
                crate::commands::queue::relative(t - crate::time::now())
            )
        })
        .unwrap_or_default();
    let log = last_log
        .map(|l| format!("; its remote logged: {l}"))
        .unwrap_or_default();
    format!("{label:<12} {session}: {reason}{log}{when}\n")
}
