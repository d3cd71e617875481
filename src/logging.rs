//! Log lines on stderr: plain text, or (`--log-format json`) one JSON object per line for
//! everything the process writes there — log records, the orchestrator's session events with
//! their fields as fields, and the notes and warnings the [`Printer`](crate::output::Printer)
//! would otherwise print as text. Journald and `kubectl logs` readers then parse every line.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::{Map, Value};
use tracing::field::{Field, Visit};
use tracing::{Event, Subscriber};
use tracing_subscriber::fmt::format::Writer;
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields};
use tracing_subscriber::registry::LookupSpan;

use crate::secrets::redact;

/// The target of what the terminal narration says (session events, the orchestrator's banner
/// and stop lines, notes and warnings): shown at the default level in JSON mode, where it is the
/// only narration; in text mode the narrator prints those words instead.
pub const NARRATION: &str = "outposts::narration";

/// The field that carries a session event serialized as JSON; [`JsonLines`] lifts its keys into
/// the line (`"event": "claimed", "session": …`). Text logs never get it.
pub const EVENT_FIELD: &str = "orch_event";

static JSON: AtomicBool = AtomicBool::new(false);

/// Whether stderr lines are JSON objects (`--log-format json`), set once at start-up.
pub fn json() -> bool {
    JSON.load(Ordering::Relaxed)
}

/// Record the log format chosen on the command line.
pub fn set_json(on: bool) {
    JSON.store(on, Ordering::Relaxed);
}

/// The level filter when `RUST_LOG` is unset. In JSON mode the narration is on at the default
/// level (it replaces the terminal narrator); in text mode it shows from `-v` on, as log lines.
pub fn default_filter(verbose: u8, quiet: bool, json: bool) -> String {
    let base = match (quiet, verbose) {
        (true, _) => return "error".into(),
        (_, 0) => "warn",
        (_, 1) => "warn,outposts=info",
        (_, 2) => "info,outposts=debug",
        _ => "debug,outposts=trace",
    };
    match (verbose, json) {
        (0, true) => format!("{base},{NARRATION}=info"),
        (0, false) => format!("{base},{NARRATION}=off"),
        _ => base.to_string(),
    }
}

/// A note or warning the `Printer` would print, as a log record (JSON mode only).
pub fn narrate(warning: bool, text: &str) {
    if warning {
        tracing::warn!(target: NARRATION, "{text}");
    } else {
        tracing::info!(target: NARRATION, "{text}");
    }
}

/// `{"timestamp", "level", "target", "message", …fields}` per line; a session event's own
/// fields (`event`, `session`, …) are fields of the line, not a string inside it.
pub struct JsonLines;

impl<S, N> FormatEvent<S, N> for JsonLines
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        _ctx: &FmtContext<'_, S, N>,
        mut writer: Writer<'_>,
        event: &Event<'_>,
    ) -> fmt::Result {
        let meta = event.metadata();
        let mut fields = Fields::default();
        event.record(&mut fields);
        writeln!(
            writer,
            "{}",
            line(meta.level().as_str(), meta.target(), fields)
        )
    }
}

/// One line's object, its fixed keys first (a reader's eye finds time, level and words where it
/// expects them); a field never overwrites one of them.
fn line(level: &str, target: &str, fields: Fields) -> String {
    let time = humantime::format_rfc3339_millis(std::time::SystemTime::now()).to_string();
    let mut pairs: Vec<(String, Value)> = vec![
        ("timestamp".into(), time.into()),
        ("level".into(), level.into()),
        ("target".into(), target.into()),
    ];
    if let Some(m) = fields.message {
        pairs.push(("message".into(), m.into()));
    }
    for (k, v) in fields.event.into_iter().chain(fields.rest) {
        if !pairs.iter().any(|(have, _)| *have == k) {
            pairs.push((k, v));
        }
    }
    let body: Vec<String> = pairs
        .iter()
        .map(|(k, v)| format!("{}:{v}", Value::from(k.as_str())))
        .collect();
    format!("{{{}}}", body.join(","))
}

#[derive(Default)]
struct Fields {
    message: Option<String>,
    /// The session event's keys, when the record carries one.
    event: Map<String, Value>,
    rest: Map<String, Value>,
}

impl Fields {
    fn put(&mut self, field: &Field, value: Value) {
        self.rest.insert(field.name().to_string(), value);
    }
}

impl Visit for Fields {
    fn record_str(&mut self, field: &Field, value: &str) {
        let clean = redact(value).into_owned();
        match field.name() {
            "message" => self.message = Some(clean),
            EVENT_FIELD => match serde_json::from_str::<Value>(&clean) {
                Ok(Value::Object(map)) => self.event = map,
                _ => self.put(field, clean.into()),
            },
            _ => self.put(field, clean.into()),
        }
    }
    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        // `%x` and `?x` fields (and the message) arrive here, already formatted.
        self.record_str(field, &format!("{value:?}"));
    }
    fn record_i64(&mut self, field: &Field, value: i64) {
        self.put(field, value.into());
    }
    fn record_u64(&mut self, field: &Field, value: u64) {
        self.put(field, value.into());
    }
    fn record_f64(&mut self, field: &Field, value: f64) {
        self.put(field, value.into());
    }
    fn record_bool(&mut self, field: &Field, value: bool) {
        self.put(field, value.into());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narration_is_on_by_default_only_in_json_mode() {
        assert_eq!(
            default_filter(0, false, true),
            "warn,outposts::narration=info"
        );
        assert_eq!(
            default_filter(0, false, false),
            "warn,outposts::narration=off"
        );
        assert_eq!(default_filter(1, false, true), "warn,outposts=info");
        assert_eq!(default_filter(0, true, true), "error");
    }

    #[test]
    fn an_event_field_becomes_the_lines_fields() {
        let mut f = Fields {
            message: Some("s1  claimed".into()),
            ..Fields::default()
        };
        f.event = serde_json::from_str(r#"{"event":"claimed","session":"s1","level":"x"}"#)
            .expect("json");
        let v: Value = serde_json::from_str(&line("INFO", NARRATION, f)).expect("one object");
        assert_eq!(v["event"], "claimed");
        assert_eq!(v["session"], "s1");
        assert_eq!(v["message"], "s1  claimed");
        // A field never overwrites the line's own keys.
        assert_eq!(v["level"], "INFO");
    }
}
