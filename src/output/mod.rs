//! The stream contract, enforced by [`Printer`].
//!
//! - stdout carries results only: one JSON document with `--json` (NDJSON for streams), or the
//!   human rendering otherwise.
//! - stderr carries progress, warnings and human errors. `-q` silences progress and notes.
//!   With `--json` every stderr line is one JSON object: progress and warnings as
//!   `{"level": "INFO"|"WARN", "message": …}` ([`stderr_json_line`]), log records as tracing's
//!   JSON records, and a failure's error document `{"error": …}` last — so a script can parse
//!   stderr line by line and take the last line as the error.
//! - Spinners and bars are drawn only when stderr is a terminal; otherwise a plain line is
//!   printed at each step so CI logs are not silent.
//! - Everything printed passes through [`crate::secrets::redact`].

use std::io::{IsTerminal, Write};
use std::sync::Arc;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;

use crate::secrets::redact;
use crate::settings::OutputSettings;

pub mod table;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Default)]
pub enum ColorChoice {
    #[default]
    Auto,
    Always,
    Never,
}

#[derive(Debug, Clone)]
pub struct Printer {
    json: bool,
    quiet: bool,
    verbose: u8,
    color: bool,
    progress: bool,
    stdin_tty: bool,
    ci: bool,
}

impl Printer {
    /// The printer of [`OutputSettings`] (which also switches `console`'s colours).
    pub fn new(s: &OutputSettings) -> Self {
        console::set_colors_enabled(s.color);
        console::set_colors_enabled_stderr(s.color);
        Printer {
            json: s.json,
            quiet: s.quiet,
            verbose: s.verbose,
            color: s.color,
            // Bars would interleave with log lines; uv makes the same call.
            progress: s.stderr_tty && !s.quiet && !s.json && s.verbose == 0 && !s.rust_log,
            stdin_tty: s.stdin_tty,
            ci: s.ci,
        }
    }

    /// A printer for tests and in-process use: no colour, no bars.
    pub fn plain(json: bool) -> Self {
        Printer {
            json,
            quiet: false,
            verbose: 0,
            color: false,
            progress: false,
            stdin_tty: false,
            ci: true,
        }
    }

    pub fn json(&self) -> bool {
        self.json
    }
    pub fn quiet(&self) -> bool {
        self.quiet
    }
    pub fn verbose(&self) -> u8 {
        self.verbose
    }
    pub fn color(&self) -> bool {
        self.color
    }

    /// Prompts only on a real terminal, outside CI and JSON mode.
    pub fn can_prompt(&self) -> bool {
        self.stdin_tty && std::io::stderr().is_terminal() && !self.json && !self.ci
    }

    /// The terminal's width when stdout is one (tables fit it); `None` for pipes and files.
    pub fn width(&self) -> Option<usize> {
        let term = console::Term::stdout();
        (!self.json && term.is_term()).then(|| term.size().1.max(20) as usize)
    }

    /// Print the command's result: `value` as JSON with `--json`, else `human()` as text.
    pub fn result<T: Serialize + ?Sized>(&self, value: &T, human: impl FnOnce() -> String) {
        if self.json {
            self.json_doc(value);
        } else {
            let text = human();
            if !text.is_empty() {
                self.stdout_raw(&redact(&text), !text.ends_with('\n'));
            }
        }
    }

    /// One JSON document (or one NDJSON line) on stdout.
    pub fn json_doc<T: Serialize + ?Sized>(&self, value: &T) {
        let text = serde_json::to_string(value).unwrap_or_else(|e| {
            format!("{{\"error\":{{\"message\":\"cannot encode output: {e}\"}}}}")
        });
        self.stdout_raw(&redact(&text), true);
    }

    /// A human result line on stdout (ignored in JSON mode; use [`Printer::result`]).
    pub fn line(&self, text: &str) {
        if !self.json {
            self.stdout_raw(&redact(text), true);
        }
    }

    /// Print exactly `text` on stdout, unredacted. Only for output whose purpose is to hand a
    /// value to the user's shell (`emulator env`).
    pub fn unredacted_stdout(&self, text: &str) {
        self.stdout_raw(text, !text.ends_with('\n'));
    }

    fn stdout_raw(&self, text: &str, newline: bool) {
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(text.as_bytes());
        if newline {
            let _ = out.write_all(b"\n");
        }
        let _ = out.flush();
    }

    /// A progress note on stderr (hidden with `-q`).
    pub fn note(&self, text: &str) {
        if !self.quiet && crate::logging::json() {
            crate::logging::narrate(false, text);
        } else if !self.quiet {
            stderr_line(self.json, "INFO", text);
        }
    }

    /// A warning on stderr (hidden with `-q`).
    pub fn warn(&self, text: &str) {
        if !self.quiet && crate::logging::json() {
            crate::logging::narrate(true, text);
            return;
        }
        if self.json {
            if !self.quiet {
                stderr_line(true, "WARN", text);
            }
            return;
        }
        if !self.quiet {
            let prefix = if self.color {
                console::style("warning:").yellow().bold().to_string()
            } else {
                "warning:".into()
            };
            eprintln!("{prefix} {}", redact(text));
        }
    }

    /// `✔`/`✘` marks for check lists.
    pub fn mark(&self, ok: bool) -> String {
        match (ok, self.color) {
            (true, true) => console::style("✔").green().to_string(),
            (false, true) => console::style("✘").red().to_string(),
            (true, false) => "✔".into(),
            (false, false) => "✘".into(),
        }
    }

    /// A spinner for a wait of unknown length.
    pub fn spinner(&self, message: &str) -> Progress {
        let bar = if self.progress {
            let pb = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            pb.set_style(
                ProgressStyle::with_template("{spinner} {msg} ({elapsed})")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            pb.enable_steady_tick(Duration::from_millis(120));
            pb.set_message(redact(message).into_owned());
            Some(pb)
        } else {
            self.note(message);
            None
        };
        Progress::new(bar, self.quiet, self.json)
    }

    /// A spinner for a wait limited to `limit`, with one clock: `(12s of 10m)` drawn by the
    /// spinner on a terminal, appended to each plain line otherwise. Messages must not carry
    /// their own clock.
    pub fn countdown(&self, message: &str, limit: Duration) -> Progress {
        let of = humantime::format_duration(Duration::from_secs(limit.as_secs())).to_string();
        let bar = if self.progress {
            let pb = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            pb.set_style(
                ProgressStyle::with_template(&format!("{{spinner}} {{msg}} ({{elapsed}} of {of})"))
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            pb.enable_steady_tick(Duration::from_millis(120));
            pb.set_message(redact(message).into_owned());
            Some(pb)
        } else {
            None
        };
        let mut progress = Progress::new(bar, self.quiet, self.json);
        progress.clock = Some((Instant::now(), of));
        if progress.bar.is_none() {
            progress.set_message(message);
        }
        progress
    }

    /// A bar for a wait with a known number of steps.
    pub fn bar(&self, len: u64, message: &str) -> Progress {
        let bar = if self.progress {
            let pb = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
            pb.set_style(
                ProgressStyle::with_template("{bar:30} {pos}/{len} {msg} ({elapsed})")
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            pb.set_message(redact(message).into_owned());
            Some(pb)
        } else {
            self.note(message);
            None
        };
        Progress::new(bar, self.quiet, self.json)
    }
}

/// A live spinner/bar, or plain stderr lines when there is no terminal. Plain lines are
/// throttled so a tight loop does not flood a CI log.
#[derive(Clone)]
pub struct Progress {
    bar: Option<ProgressBar>,
    quiet: bool,
    json: bool,
    /// A countdown's start and limit: plain lines end with `(12s of 10m)`.
    clock: Option<(Instant, String)>,
    last_plain: Arc<std::sync::Mutex<(String, Instant)>>,
}

impl Progress {
    fn new(bar: Option<ProgressBar>, quiet: bool, json: bool) -> Self {
        Progress {
            bar,
            quiet,
            json,
            clock: None,
            last_plain: Arc::new(std::sync::Mutex::new((String::new(), Instant::now()))),
        }
    }

    /// Update the message. Off a terminal, a changed message is printed at once and an
    /// unchanged one at most every 10 s.
    pub fn set_message(&self, message: &str) {
        let message = redact(message).into_owned();
        match &self.bar {
            Some(pb) => pb.set_message(message),
            None if !self.quiet => {
                let mut last = self.last_plain.lock().unwrap_or_else(|e| e.into_inner());
                if last.0 != message || last.1.elapsed() >= Duration::from_secs(10) {
                    match &self.clock {
                        Some((start, of)) => stderr_line(
                            self.json,
                            "INFO",
                            &format!("{message} ({}s of {of})", start.elapsed().as_secs()),
                        ),
                        None => stderr_line(self.json, "INFO", &message),
                    }
                    *last = (message, Instant::now());
                }
            }
            None => {}
        }
    }

    pub fn set_position(&self, pos: u64) {
        if let Some(pb) = &self.bar {
            pb.set_position(pos);
        }
    }

    /// Print a line above the bar (or plainly).
    pub fn println(&self, line: &str) {
        let line = redact(line);
        match &self.bar {
            Some(pb) => pb.println(line),
            None if !self.quiet => stderr_line(self.json, "INFO", &line),
            None => {}
        }
    }

    /// Remove the bar; print `message` as a final line when given.
    pub fn finish(&self, message: Option<&str>) {
        if let Some(pb) = &self.bar {
            pb.finish_and_clear();
        }
        if let Some(m) = message
            && !self.quiet
        {
            stderr_line(self.json, "INFO", m);
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        // The last clone clears a bar left behind on an error path.
        if Arc::strong_count(&self.last_plain) == 1
            && let Some(pb) = &self.bar
        {
            pb.finish_and_clear();
        }
    }
}

/// One progress or warning line on stderr: as typed, or (with `--json`) one JSON object.
fn stderr_line(json: bool, level: &str, text: &str) {
    if json {
        eprintln!("{}", stderr_json_line(level, text));
    } else {
        eprintln!("{}", redact(text));
    }
}

/// The `--json` form of a stderr line: `{"level": …, "message": …}`, redacted. A multi-line
/// note stays one object (its newlines escaped), so every stderr line parses on its own.
pub fn stderr_json_line(level: &str, text: &str) -> String {
    serde_json::json!({ "level": level, "message": redact(text) }).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_json_stderr_line_is_one_object_even_for_many_lines() {
        let line = stderr_json_line("INFO", "submit this task:\n  do it");
        assert!(!line.contains('\n'));
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(v["level"], "INFO");
        assert_eq!(v["message"], "submit this task:\n  do it");
    }
}
