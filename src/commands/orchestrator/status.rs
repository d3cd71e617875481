//! `outposts orchestrator status`: the state dir's view of one outpost (no network, except to
//! look a name up), rendered with the table `status --watch` shares.

use anyhow::Result;

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
    let doc = status_doc(ctx, &outpost)?;
    let acceptor = doc["acceptor_id"].as_str().unwrap_or_default().to_string();
    let cursor_age = doc["cursor_age_seconds"].as_f64();
    ctx.printer.result(&doc, || {
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

/// The state dir's view of the outpost, as `status --json` prints it (no network).
pub(super) fn status_doc(ctx: &Ctx, outpost: &str) -> Result<serde_json::Value> {
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
            Some(
                "start one with `outposts orchestrator run`, or point STATE_DIR at its state dir"
                    .to_string(),
            ),
        )
        .into());
    };
    let cursor_age = o.cursor().map(|(_, age)| age);
    let snapshot = o.status().unwrap_or_else(|| serde_json::json!({}));
    let sessions = snapshot
        .get("sessions")
        .cloned()
        .unwrap_or_else(|| serde_json::json!([]));
    let doc = serde_json::json!({
        "outpost_id": outpost,
        "acceptor_id": acceptor,
        "running": running,
        "pid": snapshot.get("pid"),
        "state_dir": state_dir.root(),
        "cursor_age_seconds": cursor_age,
        "status_updated_at": snapshot.get("updated_at"),
        "sessions": sessions,
        "sleeping": snapshot.get("sleeping").cloned().unwrap_or_else(|| serde_json::json!([])),
        "sandboxes": snapshot.get("sandboxes"),
        "sleep_retention_seconds": snapshot.get("sleep_retention_seconds"),
        "sleep_keeps": snapshot.get("sleep_keeps"),
        "refused": snapshot.get("refused").cloned().unwrap_or_else(|| serde_json::json!([])),
        "given_up": snapshot.get("given_up").cloned().unwrap_or_else(|| serde_json::json!([])),
        "cap": snapshot.get("cap"),
        "held": snapshot.get("held"),
        "waiting": snapshot.get("waiting"),
        "ended": snapshot.get("ended").cloned().unwrap_or_else(|| serde_json::json!([])),
    });
    let (stale, age) = super::watch::staleness(&doc, crate::time::now());
    let mut doc = doc;
    doc["stale"] = serde_json::json!(stale);
    doc["status_age_seconds"] = serde_json::json!(age);
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
