//! `outposts orchestrator status --watch`: the state dir's view, refreshed. On a terminal a table
//! redrawn in place (like `kubectl get -w`); otherwise, or with `--json`, one NDJSON snapshot per
//! refresh. Ctrl-C ends it (exit 130, decided in main.rs).

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::time::Duration;

use anyhow::Result;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use super::Ctx;
use crate::error::ExitStatus;

/// Rows of sessions that left the view stay this long, marked released.
const GONE_KEEP: f64 = 30.0;
/// A running orchestrator rewrites its status file every few seconds; older than this, what it
/// says is stale.
const STALE_AFTER: f64 = 30.0;

#[derive(Debug, Clone, Serialize, PartialEq, JsonSchema)]
pub struct Row {
    session: String,
    phase: String,
    sandbox: String,
    /// The session's status while held; the sandbox's sleep state while asleep; what the
    /// session became once it left.
    state: String,
    /// The session's own start (Devin's creation time), when known (Unix time).
    #[serde(skip)]
    since: Option<f64>,
    /// Seconds since the session started; `None` when unknown.
    age_seconds: Option<f64>,
    last_event: String,
    /// When the last event happened (Unix time), when the orchestrator recorded it.
    #[serde(skip)]
    event_at: Option<f64>,
}

fn text(v: &Value, k: &str) -> Option<String> {
    v.get(k).and_then(Value::as_str).map(str::to_string)
}

fn row(v: &Value, id: String, phase: &str, state: String) -> Row {
    Row {
        session: id,
        phase: phase.into(),
        sandbox: text(v, "sandbox_id")
            .or_else(|| text(v, "sandbox_name"))
            .unwrap_or_else(|| "-".into()),
        state,
        since: v.get("created_at").and_then(Value::as_f64),
        age_seconds: None,
        last_event: text(v, "last_event").unwrap_or_default(),
        event_at: v.get("last_event_at").and_then(Value::as_f64),
    }
}

/// The rows of one snapshot of the status file, before ages are filled in.
pub(super) fn rows(doc: &Value) -> BTreeMap<String, Row> {
    let mut out = BTreeMap::new();
    let list = |k: &str| doc.get(k).and_then(Value::as_array).cloned();
    for h in list("sessions").unwrap_or_default() {
        let Some(id) = text(&h, "session_id") else {
            continue;
        };
        let phase = text(&h, "phase").unwrap_or_else(|| {
            if text(&h, "remote").as_deref() == Some("running") {
                "serving".into()
            } else {
                "provisioning".into()
            }
        });
        let state = text(&h, "session_status").unwrap_or_else(|| "unknown".into());
        out.insert(id.clone(), row(&h, id, &phase, state));
    }
    // Not served (its last attempt failed): said before its stopped sandbox makes it look asleep.
    for n in list("not_served").unwrap_or_default() {
        let Some(id) = text(&n, "session_id") else {
            continue;
        };
        let failures = n.get("failures").and_then(Value::as_u64).unwrap_or(0);
        let mut r = row(&n, id.clone(), "not served", format!("failed ×{failures}"));
        r.last_event = format!("failed: {}", text(&n, "reason").unwrap_or_default());
        r.event_at = n.get("at").and_then(Value::as_f64);
        out.entry(id).or_insert(r);
    }
    for z in list("sleeping").unwrap_or_default() {
        let Some(id) = text(&z, "session_id") else {
            continue;
        };
        let state = text(&z, "state").unwrap_or_else(|| "unknown".into());
        let r = out
            .entry(id.clone())
            .or_insert_with(|| row(&z, id, "sleeping", state));
        // A session not served whose stopped sandbox is kept: that sandbox, and its age.
        let asleep = row(&z, String::new(), "", String::new());
        if r.sandbox == "-" {
            r.sandbox = asleep.sandbox;
        }
        r.since = r.since.or(asleep.since);
    }
    for e in list("ended").unwrap_or_default() {
        let Some(id) = text(&e, "session_id") else {
            continue;
        };
        let state = text(&e, "state").unwrap_or_else(|| "unknown".into());
        out.entry(id.clone())
            .or_insert_with(|| row(&e, id, "released", state));
    }
    out
}

/// What changed between a session's previous row and this one, for status files that do not
/// record events (written by an older orchestrator).
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

/// Fold a new snapshot into the rows shown: ages from each session's start, events from the
/// orchestrator's record (else from the difference), rows that left kept a while as released.
pub(super) fn advance(shown: &BTreeMap<String, Row>, doc: &Value, t: f64) -> BTreeMap<String, Row> {
    let mut next = rows(doc);
    for (id, row) in next.iter_mut() {
        let before = shown.get(id);
        if row.last_event.is_empty() {
            row.last_event = event(before, row);
        }
        if row.since.is_none() {
            row.since = before.and_then(|b| b.since);
        }
    }
    for (id, b) in shown {
        if next.contains_key(id) {
            continue;
        }
        if b.phase != "released" {
            let mut gone = b.clone();
            gone.phase = "released".into();
            // Nothing says what became of it: unknown, not its last state.
            gone.state = "unknown".into();
            gone.last_event = "released (gone from the state)".into();
            gone.event_at = Some(t);
            next.insert(id.clone(), gone);
        } else if t - b.event_at.unwrap_or(t) < GONE_KEEP {
            next.insert(id.clone(), b.clone());
        }
    }
    for row in next.values_mut() {
        row.age_seconds = row.since.map(|s| (t - s).max(0.0).round());
    }
    next
}

/// A duration in one unit per range, the same in every view: `45s`, `2m`, `3h`, `2d`.
pub(crate) fn age(secs: f64) -> String {
    let s = secs.max(0.0) as u64;
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m", s / 60),
        3600..86_400 => format!("{}h", s / 3600),
        _ => format!("{}d", s / 86_400),
    }
}

/// Whether the status file is stale: the orchestrator is not running, or has not rewritten it
/// for a while. `None` when the file has no time.
pub(super) fn staleness(running: bool, updated_at: Option<f64>, t: f64) -> (bool, Option<f64>) {
    let age = updated_at.map(|u| (t - u).max(0.0));
    (!running || age.is_some_and(|a| a > STALE_AFTER), age)
}

/// The lines above the table, shared by `status` and `status --watch`: whether the orchestrator
/// runs (and how old its word is), what the cap does, and the outpost's sandboxes.
pub(super) fn summary(doc: &Value, t: f64) -> String {
    let running = doc["running"].as_bool().unwrap_or(false);
    let updated_at = doc["status_updated_at"]
        .as_f64()
        .or_else(|| doc["updated_at"].as_f64());
    let (stale, updated) = staleness(running, updated_at, t);
    let as_of = updated
        .map(|a| format!("as of {} ago", age(a)))
        .unwrap_or_else(|| "time unknown".into());
    let mut out = match (running, stale) {
        (true, false) => format!(
            "orchestrator running{}\n",
            doc["pid"]
                .as_u64()
                .map(|p| format!(" (pid {p})"))
                .unwrap_or_default()
        ),
        (true, true) => format!("orchestrator running, but its record is stale ({as_of})\n"),
        (false, _) => format!("orchestrator not running: its last record, {as_of} (stale)\n"),
    };
    match (doc["held"].as_u64(), doc["cap"].as_u64()) {
        (Some(h), Some(c)) => out.push_str(&format!(
            "capacity     {h}/{c} held, {} waiting\n",
            doc["waiting"].as_u64().unwrap_or(0)
        )),
        _ => out.push_str("capacity     unknown\n"),
    }
    let fleet = doc.get("sandboxes").filter(|c| c.is_object());
    match fleet.and_then(|c| {
        c.get("counted_at")
            .and_then(Value::as_f64)
            .map(|at| (c, at))
    }) {
        Some((c, at)) => {
            let n = |k: &str| c.get(k).and_then(Value::as_u64).unwrap_or(0);
            out.push_str(&format!(
                "sandboxes    {} running, {} sleeping, {} archived (counted {} ago)\n",
                n("running"),
                n("sleeping"),
                n("archived"),
                age(t - at)
            ));
            match n("other_replicas") {
                0 => out.push_str("             all of them this instance's or unclaimed\n"),
                o => out.push_str(&format!(
                    "             {o} of them held by another replica (outpost-wide count)\n"
                )),
            }
        }
        // Never "0 running" before anything was counted.
        None => out.push_str("sandboxes    not counted yet (the first janitor pass lists them)\n"),
    }
    out
}

/// The session table of both views: one line per session, then its sandbox and last event
/// indented below, cut at `width` (the terminal's) when given; off a terminal printed whole.
pub(super) fn table(rows: &BTreeMap<String, Row>, t: f64, width: Option<usize>) -> String {
    let mut out = format!(
        "{:<38}  {:<12}  {:<10}  {:>4}\n  SANDBOX · LAST EVENT\n",
        "SESSION", "PHASE", "STATE", "AGE"
    );
    for r in rows.values() {
        out.push_str(&format!(
            "{:<38}  {:<12}  {:<10}  {:>4}\n",
            r.session,
            r.phase,
            r.state,
            r.age_seconds.map(age).unwrap_or_else(|| "-".into())
        ));
        let when = r
            .event_at
            .map(|at| format!(" ({} ago)", age(t - at)))
            .unwrap_or_default();
        let line = format!("  {} · {}{when}", r.sandbox, r.last_event);
        match width {
            Some(w) => out.push_str(&console::truncate_str(&line, w, "…")),
            None => out.push_str(&line),
        }
        out.push('\n');
    }
    if rows.is_empty() {
        out.push_str("(no sessions held or asleep)\n");
    }
    out
}

fn frame(doc: &Value, rows: &BTreeMap<String, Row>, t: f64) -> String {
    format!(
        "outpost      {}\n{}{}",
        doc["outpost_id"].as_str().unwrap_or("-"),
        summary(doc, t),
        // The live view cuts every line of the frame to the terminal's width itself.
        table(rows, t, None)
    )
}

/// One NDJSON line of `orchestrator status --watch --json`: the status document plus the rows
/// the table shows.
#[derive(Debug, Serialize, JsonSchema)]
pub struct WatchDoc {
    #[serde(flatten)]
    pub status: super::status::OrchStatusDoc,
    pub rows: Vec<Row>,
    /// Unix seconds of this snapshot.
    pub at: f64,
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
        let status = super::status::status_doc(ctx, outpost)?;
        // The table views read the document as JSON (old status files included).
        let doc = serde_json::to_value(&status)?;
        let t = crate::time::now();
        shown = advance(&shown, &doc, t);
        if live {
            // Cut to the terminal's width: a wrapped line would throw the redraw's count off.
            let width = console::Term::stdout().size().1.max(20) as usize;
            let frame: String = frame(&doc, &shown, t)
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
            ctx.printer.json_doc(&WatchDoc {
                status,
                rows: shown.values().cloned().collect(),
                at: crate::time::now(),
            });
        }
        // Not poll_until: a redraw tick that runs until interrupted, not a wait with a deadline.
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
                serde_json::json!([{"session_id": "s1", "remote": remote, "sandbox_id": "sb",
                    "session_status": "running", "created_at": 40.0}]),
                serde_json::json!([]),
            )
        };
        let r = advance(&BTreeMap::new(), &held("unknown"), 100.0);
        assert_eq!(r["s1"].phase, "provisioning");
        assert_eq!(r["s1"].last_event, "claimed");
        // The age counts from the session's start, not from the first sight.
        assert_eq!(r["s1"].age_seconds, Some(60.0));
        let r = advance(&r, &held("running"), 102.0);
        assert_eq!(
            (r["s1"].phase.as_str(), r["s1"].last_event.as_str()),
            ("serving", "remote running")
        );
        let asleep = doc(
            serde_json::json!([]),
            serde_json::json!([{"session_id": "s1", "state": "stopped", "sandbox_id": "sb"}]),
        );
        let r = advance(&r, &asleep, 112.0);
        assert_eq!(r["s1"].last_event, "slept (stopped)");
        assert_eq!(r["s1"].age_seconds, Some(72.0));
        let r = advance(&r, &held("unknown"), 120.0);
        assert_eq!(r["s1"].last_event, "woken");
        let empty = doc(serde_json::json!([]), serde_json::json!([]));
        let r = advance(&r, &empty, 121.0);
        assert_eq!(
            (r["s1"].phase.as_str(), r["s1"].state.as_str()),
            ("released", "unknown")
        );
        let r = advance(&r, &empty, 121.0 + GONE_KEEP + 1.0);
        assert!(r.is_empty());
    }

    #[test]
    fn last_event_is_cut_at_the_width_given_and_whole_without_one() {
        let long = "failed: ".to_string() + &"x".repeat(200);
        let d = doc(
            serde_json::json!([{"session_id": "s1", "remote": "unknown", "sandbox_id": "sb",
                "last_event": long.clone(), "last_event_at": 1.0}]),
            serde_json::json!([]),
        );
        let r = advance(&BTreeMap::new(), &d, 2.0);
        assert!(table(&r, 2.0, None).contains(&long));
        let cut = table(&r, 2.0, Some(120));
        assert!(!cut.contains(&long));
        assert!(cut.lines().all(|l| l.chars().count() <= 120), "{cut}");
    }

    #[test]
    fn one_unit_per_range_and_a_table_within_80_columns() {
        assert_eq!(
            [59.0, 102.0, 3599.0, 7200.0, 200_000.0].map(age),
            ["59s", "1m", "59m", "2h", "2d"]
        );
        let ended = serde_json::json!({"outpost_id": "o", "running": false, "updated_at": 0.0,
            "sessions": [{"session_id": format!("devin-{}", "a".repeat(32)), "phase": "serving",
                "session_status": "running", "sandbox_id": "0f".repeat(18),
                "last_event": "served: devin-remote running", "last_event_at": 10.0}],
            "ended": [{"session_id": "devin-b", "state": "terminated",
                "last_event": "ended (terminated); claim released"}]});
        let r = advance(&BTreeMap::new(), &ended, 900.0);
        assert_eq!(r["devin-b"].state, "terminated");
        let f = frame(&ended, &r, 900.0);
        assert!(f.lines().all(|l| l.chars().count() <= 80), "{f}");
        assert!(f.contains("as of 15m ago (stale)"), "{f}");
        assert!(f.contains("not counted yet"), "{f}");
    }
}
