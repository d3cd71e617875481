//! The human report of a `session verify` that timed out: the sandbox's state, the queue entry,
//! the last log lines and the hints, from the gathered [`Diagnosis`].

use std::time::Duration;

use super::verify::sandbox_label;
use crate::provider::ProviderKind;
use crate::verify::diagnose::{Diagnosis, LogSource};
use crate::verify::show;

fn row(out: &mut String, k: &str, v: String) {
    out.push_str(&format!("  {k:<10}{v}\n"));
}

pub(super) fn timeout_report(
    mark: &str,
    path: &str,
    wait: Duration,
    kind: ProviderKind,
    d: &Diagnosis,
) -> String {
    let mut out = format!(
        "{mark} timed out after {}: no {path} in {}\n",
        humantime::format_duration(wait),
        match &d.sandbox {
            Some(sb) => format!("sandbox {}", sandbox_label(sb)),
            None => format!("a sandbox ({} not found)", d.sandbox_looked_for),
        }
    );
    sandbox_rows(&mut out, kind, d);
    queue_rows(&mut out, d);
    log_rows(&mut out, d);
    for h in &d.hints {
        out.push_str(&format!("  hint: {h}\n"));
    }
    out
}

fn sandbox_rows(out: &mut String, kind: ProviderKind, d: &Diagnosis) {
    match &d.sandbox {
        Some(sb) => row(
            out,
            "sandbox",
            format!(
                "{} on {kind}{}{}",
                sb.state,
                if sb.raw_state != sb.state.as_str() {
                    format!(" ({})", sb.raw_state)
                } else {
                    String::new()
                },
                sb.error_reason
                    .as_deref()
                    .map(|r| format!(": {r}"))
                    .unwrap_or_default()
            ),
        ),
        None => row(
            out,
            "sandbox",
            format!("none named {} on {kind}", d.sandbox_looked_for),
        ),
    }
    if let Some(e) = &d.sandbox_error {
        row(out, "", format!("(state not read: {e})"));
    }
    if let Some(e) = &d.last_read_error {
        row(out, "read", format!("last error: {e}"));
    }
}

fn queue_rows(out: &mut String, d: &Diagnosis) {
    if let Some(s) = &d.session_id {
        row(out, "session", show(s));
    }
    match (&d.queue, &d.queue_note) {
        (Some(q), _) if !q.in_queue => {
            row(out, "queue", "not in the queue (ended or unknown)".into())
        }
        (Some(q), _) => row(
            out,
            "queue",
            format!(
                "phase {}, session {}{}",
                q.phase.as_deref().unwrap_or("?"),
                q.session_status.as_deref().unwrap_or("?"),
                q.acceptor_id
                    .as_deref()
                    .map(|a| format!(", claimed by {a}"))
                    .unwrap_or_default()
            ),
        ),
        (None, Some(note)) => row(out, "queue", note.clone()),
        (None, None) => {}
    }
}

fn log_rows(out: &mut String, d: &Diagnosis) {
    let source = match d.log_source {
        Some(LogSource::Remote) => "remote",
        Some(LogSource::Worker) => "worker",
        Some(LogSource::Sandbox) => "sandbox",
        None => "",
    };
    if d.log_tail.is_empty() {
        if d.sandbox.is_some() {
            out.push_str("  log       no log lines available\n");
        }
    } else {
        out.push_str(&format!("  last {source} log lines:\n"));
        for l in &d.log_tail {
            let clean: String = l
                .chars()
                .map(|c| if c.is_control() && c != '\t' { '?' } else { c })
                .collect();
            out.push_str(&format!("    | {clean}\n"));
        }
    }
}
