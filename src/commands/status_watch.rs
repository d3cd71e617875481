//! `outposts orchestrator status --watch`: the state dir's view, refreshed. On a terminal a table
//! redrawn in place (like `kubectl get -w`); otherwise, or with `--json`, one NDJSON snapshot per
//! refresh. Ctrl-C ends it (exit 130, decided in main.rs).

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::time::Duration;

use anyhow::Result;
use serde::Serialize;
use serde_json::Value;

use super::Ctx;
use crate::error::ExitStatus;

/// Rows of sessions that left the view stay this long, marked released.
const GONE_KEEP: f64 = 30.0;

#[derive(Debug, Clone, Serialize, PartialEq)]
struct Row {
    session: String,
    phase: String,
    sandbox: String,
    /// The session's status while held; the sandbox's sleep state while asleep.
    state: String,
    /// Since the row's phase last changed (Unix time).
    #[serde(skip)]
    since: f64,
    age_seconds: f64,
    last_event: String,
}

/// The rows of one snapshot, before ages and events are filled in.
fn rows(doc: &Value) -> BTreeMap<String, Row> {
    let s = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
    let mut out = BTreeMap::new();
    let list = |k: &str| doc.get(k).and_then(Value::as_array).cloned();
    for h in list("sessions").unwrap_or_default() {
        let Some(id) = s(&h, "session_id") else {
            continue;
        };
        let remote = s(&h, "remote").unwrap_or_default();
        let phase = if remote == "running" {
            "serving"
        } else {
            "provisioning"
        };
        out.insert(
            id.clone(),
            Row {
                session: id,
                phase: phase.into(),
                sandbox: s(&h, "sandbox_id")
                    .or_else(|| s(&h, "sandbox_name"))
                    .unwrap_or_else(|| "-".into()),
                state: s(&h, "session_status").unwrap_or_else(|| "-".into()),
                since: 0.0,
                age_seconds: 0.0,
                last_event: String::new(),
            },
        );
    }
    for z in list("sleeping").unwrap_or_default() {
        let Some(id) = s(&z, "session_id") else {
            continue;
        };
        out.entry(id.clone()).or_insert(Row {
            session: id,
            phase: "sleeping".into(),
            sandbox: s(&z, "sandbox_id")
                .or_else(|| s(&z, "sandbox_name"))
                .unwrap_or_else(|| "-".into()),
            state: s(&z, "state").unwrap_or_else(|| "-".into()),
            since: z.get("slept_since").and_then(Value::as_f64).unwrap_or(0.0),
            age_seconds: 0.0,
            last_event: String::new(),
        });
    }
    out
}

/// What changed between a session's previous row and this one.
fn event(before: Option<&Row>, now: &Row) -> String {
    let Some(b) = before else {
        return match now.phase.as_str() {
            "serving" => "remote running",
            "sleeping" => "asleep",
            _ => "claimed",
        }
        .into();
    };
    match (b.phase.as_str(), now.phase.as_str()) {
        ("provisioning", "serving") => "remote running".into(),
        (_, "sleeping") if b.phase != "sleeping" => format!("slept ({})", now.state),
        ("sleeping" | "released", "provisioning" | "serving") => "woken".into(),
        ("released", _) => "claimed".into(),
        (x, y) if x != y => format!("{x} → {y}"),
        _ if b.state != now.state => format!("{} → {}", b.state, now.state),
        _ => b.last_event.clone(),
    }
}

/// Fold a new snapshot into the rows shown: keep `since` while a phase holds, mark what left.
fn advance(shown: &BTreeMap<String, Row>, doc: &Value, t: f64) -> BTreeMap<String, Row> {
    let mut next = rows(doc);
    for (id, row) in next.iter_mut() {
        let before = shown.get(id);
        let changed = before.is_none_or(|b| b.phase != row.phase || b.state != row.state);
        row.last_event = event(before, row);
        if row.since == 0.0 {
            row.since = match before {
                Some(b) if !changed => b.since,
                _ => t,
            };
        }
    }
    for (id, b) in shown {
        if next.contains_key(id) {
            continue;
        }
        if b.phase != "released" {
            let mut gone = b.clone();
            gone.phase = "released".into();
            gone.last_event = "released (gone from the state)".into();
            gone.since = t;
            next.insert(id.clone(), gone);
        } else if t - b.since < GONE_KEEP {
            next.insert(id.clone(), b.clone());
        }
    }
    for row in next.values_mut() {
        row.age_seconds = (t - row.since).max(0.0).round();
    }
    next
}

fn age(secs: f64) -> String {
    let s = secs as u64;
    match s {
        0..120 => format!("{s}s"),
        120..7200 => format!("{}m", s / 60),
        7200..172_800 => format!("{}h", s / 3600),
        _ => format!("{}d", s / 86_400),
    }
}

fn table(doc: &Value, rows: &BTreeMap<String, Row>) -> String {
    let running = doc["running"].as_bool().unwrap_or(false);
    let mut out = format!(
        "outpost {}  acceptor {}  orchestrator {}\n",
        doc["outpost_id"].as_str().unwrap_or("-"),
        doc["acceptor_id"].as_str().unwrap_or("-"),
        if running { "running" } else { "not running" }
    );
    let mut lines = vec![[
        "SESSION".to_string(),
        "PHASE".into(),
        "SANDBOX".into(),
        "STATE".into(),
        "AGE".into(),
        "LAST EVENT".into(),
    ]];
    for r in rows.values() {
        lines.push([
            r.session.clone(),
            r.phase.clone(),
            r.sandbox.clone(),
            r.state.clone(),
            age(r.age_seconds),
            r.last_event.clone(),
        ]);
    }
    // Columns as wide as their widest cell, like `kubectl get`.
    let mut widths = [0usize; 6];
    for l in &lines {
        for (w, cell) in widths.iter_mut().zip(l) {
            *w = (*w).max(cell.chars().count());
        }
    }
    for l in &lines {
        let cells: Vec<String> = l
            .iter()
            .zip(widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect();
        out.push_str(cells.join("   ").trim_end());
        out.push('\n');
    }
    if rows.is_empty() {
        out.push_str("(no sessions held or asleep)\n");
    }
    out
}

pub async fn watch(ctx: &Ctx, outpost: &str, every: Duration) -> Result<ExitStatus> {
    let live = std::io::stdout().is_terminal() && !ctx.printer.json();
    if live {
        ctx.printer.note(&format!(
            "refreshing every {}; Ctrl-C to stop",
            humantime::format_duration(every)
        ));
    }
    let mut shown = BTreeMap::new();
    let mut drawn_lines = 0usize;
    loop {
        let mut doc = super::orchestrator::status_doc(ctx, outpost)?;
        shown = advance(&shown, &doc, crate::time::now());
        if live {
            // Cut to the terminal's width: a wrapped line would throw the redraw's count off.
            let width = console::Term::stdout().size().1.max(20) as usize;
            let frame: String = table(&doc, &shown)
                .lines()
                .map(|l| format!("{}\n", console::truncate_str(l, width, "…")))
                .collect();
            // Back over the previous frame, clear to the end of the screen, draw this one.
            let back = if drawn_lines > 0 {
                format!("\x1b[{drawn_lines}F\x1b[J")
            } else {
                String::new()
            };
            drawn_lines = frame.lines().count();
            ctx.printer
                .line(&format!("{back}{}", frame.trim_end_matches('\n')));
        } else {
            doc["rows"] = serde_json::to_value(shown.values().collect::<Vec<_>>())?;
            doc["at"] = serde_json::json!(crate::time::now());
            ctx.printer.json_doc(&doc);
        }
        tokio::time::sleep(every).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(sessions: Value, sleeping: Value) -> Value {
        serde_json::json!({"outpost_id": "o", "acceptor_id": "a", "running": true,
            "sessions": sessions, "sleeping": sleeping})
    }

    #[test]
    fn rows_follow_a_session_through_serve_sleep_wake_and_end() {
        let held = |remote: &str| {
            doc(
                serde_json::json!([{"session_id": "s1", "remote": remote, "sandbox_id": "sb", "session_status": "running"}]),
                serde_json::json!([]),
            )
        };
        let r = advance(&BTreeMap::new(), &held("unknown"), 100.0);
        assert_eq!(r["s1"].phase, "provisioning");
        assert_eq!(r["s1"].last_event, "claimed");
        let r = advance(&r, &held("running"), 102.0);
        assert_eq!(
            (r["s1"].phase.as_str(), r["s1"].last_event.as_str()),
            ("serving", "remote running")
        );
        let r = advance(&r, &held("running"), 110.0);
        assert_eq!(r["s1"].age_seconds, 8.0);
        let asleep = doc(
            serde_json::json!([]),
            serde_json::json!([{"session_id": "s1", "state": "stopped", "sandbox_id": "sb", "slept_since": 111.0}]),
        );
        let r = advance(&r, &asleep, 112.0);
        assert_eq!(r["s1"].last_event, "slept (stopped)");
        assert_eq!(r["s1"].age_seconds, 1.0);
        let r = advance(&r, &held("unknown"), 120.0);
        assert_eq!(r["s1"].last_event, "woken");
        let empty = doc(serde_json::json!([]), serde_json::json!([]));
        let r = advance(&r, &empty, 121.0);
        assert_eq!(r["s1"].phase, "released");
        let r = advance(&r, &empty, 121.0 + GONE_KEEP + 1.0);
        assert!(r.is_empty());
    }
}
