//! `outposts orchestrator status`: the state dir's view of one outpost (no network, except to
//! look a name up), rendered with the table `status --watch` shares.

use std::path::PathBuf;

use anyhow::Result;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use super::Ctx;
use super::{StatusArgs, outpost_id};
use crate::api::devin::DevinClient;
use crate::error::{CliError, ExitStatus};
use crate::orchestrator::state::StateDir;

pub(super) async fn status(ctx: &Ctx, a: StatusArgs) -> Result<ExitStatus> {
    let mut outpost = outpost_id(ctx, a.outpost)?;
    // The state dir is keyed by id: a name (or anything without state) is looked up, when the
    // outposts can be read; otherwise the state dir's own answer stands.
    if status_doc(ctx, &outpost).is_err()
        && let Ok(devin) = DevinClient::from_config(&ctx.config, ctx.http()?)
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
    // The views read the status file's lists as they were written.
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
        // The same table `status --watch` draws.
        out.push_str(&view::table(
            &view::advance(&Default::default(), &doc, t),
            t,
        ));
        out.push_str(&sleeping_table(&doc));
        // Sessions not served because their network policy cannot be enforced, and sessions
        // given up (released, cooling off), each with why and when it may be tried again.
        out.push_str(&cooling_off(&doc["refused"], "refused", "claimable again"));
        out.push_str(&cooling_off(&doc["given_up"], "given up", "tried again"));
        out
    });
    Ok(ExitStatus::Success)
}

/// `outposts orchestrator status --json`: the state dir's view of one outpost. The lists and
/// counters are the running orchestrator's status file, passed through as it wrote them.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct OrchStatusDoc {
    pub outpost_id: String,
    pub acceptor_id: String,
    /// Whether an orchestrator holds the state dir's lock.
    pub running: bool,
    pub pid: Option<Value>,
    pub state_dir: PathBuf,
    pub cursor_age_seconds: Option<f64>,
    /// Unix seconds of the status file's last rewrite.
    pub status_updated_at: Option<Value>,
    /// Sessions held: `session_id`, `phase`, `remote`, `session_status`, `sandbox_id`, …
    pub sessions: Value,
    /// Sleeping sessions: `session_id`, `state`, `slept_since`, `retention_deadline`, …
    pub sleeping: Value,
    pub sandboxes: Option<Value>,
    pub sleep_retention_seconds: Option<Value>,
    pub sleep_keeps: Option<Value>,
    /// Sessions not served (network policy): `session_id`, `reason`, `retry_at`, …
    pub refused: Value,
    /// Sessions given up (cooling off): `session_id`, `reason`, `retry_at`, `last_log`, …
    pub given_up: Value,
    pub cap: Option<Value>,
    pub held: Option<Value>,
    pub waiting: Option<Value>,
    /// Sessions released lately: `session_id`, `state`, `last_event`, …
    pub ended: Value,
    /// The status file is older than a running orchestrator would leave it.
    pub stale: bool,
    pub status_age_seconds: Option<f64>,
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
    let snapshot = o.status().unwrap_or_default();
    let field = |k: &str| snapshot.get(k).cloned();
    let list = |k: &str| field(k).unwrap_or_else(|| Value::Array(Vec::new()));
    let mut doc = OrchStatusDoc {
        outpost_id: outpost.to_string(),
        acceptor_id: acceptor,
        running,
        pid: field("pid"),
        state_dir: state_dir.root().to_path_buf(),
        cursor_age_seconds: o.cursor().map(|(_, age)| age),
        status_updated_at: field("updated_at"),
        sessions: list("sessions"),
        sleeping: list("sleeping"),
        sandboxes: field("sandboxes"),
        sleep_retention_seconds: field("sleep_retention_seconds"),
        sleep_keeps: field("sleep_keeps"),
        refused: list("refused"),
        given_up: list("given_up"),
        cap: field("cap"),
        held: field("held"),
        waiting: field("waiting"),
        ended: list("ended"),
        stale: false,
        status_age_seconds: None,
    };
    (doc.stale, doc.status_age_seconds) =
        super::watch::staleness(&serde_json::to_value(&doc)?, crate::time::now());
    Ok(doc)
}

/// The sleeping sessions' part of `orchestrator status`: what sleep costs, and what the
/// retention setting would remove and when.
fn sleeping_table(doc: &serde_json::Value) -> String {
    let now = crate::time::now();
    let ago = |t: Option<f64>| {
        t.map(|t| crate::commands::queue::relative(t - now))
            .unwrap_or_else(|| "-".into())
    };
    let mut out = String::new();
    let list = doc
        .get("sleeping")
        .and_then(|v| v.as_array())
        .cloned()
        .unwrap_or_default();
    if list.is_empty() {
        return out;
    }
    if let Some(keeps) = doc.get("sleep_keeps").and_then(|v| v.as_str()) {
        out.push_str(&format!("sleep keeps  {keeps}\n"));
    }
    let retention = doc.get("sleep_retention_seconds").and_then(|v| v.as_f64());
    out.push_str(&format!(
        "{:<40} {:<9} {:<10} {:<22} {}\n",
        "SLEEPING SESSION", "STATE", "SLEPT", "REMOVED (RETENTION)", "SANDBOX"
    ));
    for s in list {
        let f = |k: &str| s.get(k).and_then(|v| v.as_str()).unwrap_or("-").to_string();
        let when = match (
            retention,
            s.get("retention_deadline").and_then(|v| v.as_f64()),
        ) {
            (None, _) => "never (off)".to_string(),
            (Some(_), Some(d)) => ago(Some(d)),
            (Some(_), None) => "when absent".to_string(),
        };
        out.push_str(&format!(
            "{:<40} {:<9} {:<10} {:<22} {}\n",
            f("session_id"),
            f("state"),
            ago(s.get("slept_since").and_then(|v| v.as_f64())),
            when,
            s.get("sandbox_id")
                .and_then(|v| v.as_str())
                .unwrap_or_else(|| s
                    .get("sandbox_name")
                    .and_then(|v| v.as_str())
                    .unwrap_or("-"))
        ));
    }
    out
}

/// One line per cooling-off session: `LABEL  SESSION: REASON[; its remote logged: …] (AGAIN in …)`.
fn cooling_off(rows: &serde_json::Value, label: &str, again: &str) -> String {
    let mut out = String::new();
    for r in rows.as_array().into_iter().flatten() {
        let f = |k: &str| r.get(k).and_then(|v| v.as_str()).unwrap_or("-").to_string();
        let when = r
            .get("retry_at")
            .and_then(|v| v.as_f64())
            .map(|t| {
                format!(
                    " ({again} {})",
                    crate::commands::queue::relative(t - crate::time::now())
                )
            })
            .unwrap_or_default();
        let log = r
            .get("last_log")
            .and_then(|v| v.as_str())
            .map(|l| format!("; its remote logged: {l}"))
            .unwrap_or_default();
        out.push_str(&format!(
            "{label:<12} {}: {}{log}{when}\n",
            f("session_id"),
            f("reason")
        ));
    }
    out
}
