//! One failure record: what an operator needs to see after the fact about a sandbox whose
//! provisioning or remote failed. Bounded (lines, characters) and redacted when it is made, so
//! what reaches the state dir or a terminal is already safe to show.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Most log lines kept of each log (the remote's, the bootstrap's).
pub const LOG_LINES: usize = 10;
/// Most of the session's events kept.
pub const EVENTS: usize = 12;
/// Longest line kept (characters); longer ones are cut with `…`.
pub const LINE_CHARS: usize = 300;
/// Longest error kept (characters).
pub const ERROR_CHARS: usize = 2000;

/// The step that failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    /// Reading the session's network policy.
    Policy,
    /// Creating, finding or starting the sandbox.
    Sandbox,
    /// Putting the network policy in force.
    Egress,
    /// Cloning `REPOS`.
    Repos,
    /// Downloading, verifying and starting the remote.
    Launch,
    /// The remote ended badly after it was served.
    Remote,
    /// The janitor found the sandbox in the provider's `error` state.
    SandboxError,
}

impl Step {
    pub fn as_str(self) -> &'static str {
        match self {
            Step::Policy => "policy",
            Step::Sandbox => "sandbox",
            Step::Egress => "egress",
            Step::Repos => "repos",
            Step::Launch => "launch",
            Step::Remote => "remote",
            Step::SandboxError => "sandbox_error",
        }
    }
}

/// One of the session's events, in words.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct EventLine {
    /// Unix seconds.
    pub at: f64,
    pub text: String,
}

/// The latest failure of one session's sandbox (`failures.json` in the outpost's state dir).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct FailureRecord {
    pub session_id: String,
    pub sandbox_name: String,
    pub sandbox_id: Option<String>,
    pub step: Step,
    /// The error, as the provider, the API or the remote reported it (redacted).
    pub error: String,
    /// Unix seconds of this failure.
    pub at: f64,
    /// Unix seconds of the first failure in this streak (the session not served since): the
    /// `FAILED_KEEP` clock, which a retry failing again does not restart.
    #[serde(default)]
    pub failing_since: f64,
    /// Failed attempts in a row for this session (1 = the first).
    pub attempt: u32,
    /// The last lines the remote itself logged (oldest first).
    pub remote_log: Vec<String>,
    /// The last lines of the bootstrap (the launcher that downloads, checks and starts the
    /// remote), oldest first.
    pub bootstrap_log: Vec<String>,
    /// The sandbox's state as last read (`started`, `stopped`, `error`, …), when it was read.
    pub sandbox_state: Option<String>,
    /// The provider's own words for that state (its raw state and error reason).
    pub sandbox_detail: Option<String>,
    /// The session's last events on this instance, oldest first.
    pub events: Vec<EventLine>,
    /// Why the session was given up, once it was.
    pub given_up: Option<String>,
    /// When the session was served again after this failure (the sandbox is no longer kept
    /// as a failed one).
    pub resolved_at: Option<f64>,
    /// When the janitor deleted the kept sandbox (`FAILED_KEEP` ran out).
    pub reaped_at: Option<f64>,
    /// The session had slept (this was a wake): its sandbox holds a sleeper's workspace, which
    /// `FAILED_KEEP` never deletes.
    #[serde(default)]
    pub woke: bool,
}

impl FailureRecord {
    /// A record of `error` at `step`, bounded and redacted.
    pub fn new(session_id: &str, sandbox_name: &str, step: Step, error: &str, at: f64) -> Self {
        FailureRecord {
            session_id: session_id.to_string(),
            sandbox_name: sandbox_name.to_string(),
            sandbox_id: None,
            step,
            error: clean(error, ERROR_CHARS),
            at,
            failing_since: at,
            attempt: 1,
            remote_log: Vec::new(),
            bootstrap_log: Vec::new(),
            sandbox_state: None,
            sandbox_detail: None,
            events: Vec::new(),
            given_up: None,
            resolved_at: None,
            reaped_at: None,
            woke: false,
        }
    }

    /// Split a log tail into the bootstrap's lines (those starting with `launcher_prefix`) and
    /// the remote's, keeping the last [`LOG_LINES`] of each.
    pub fn with_log(mut self, tail: &str, launcher_prefix: &str) -> Self {
        let (boot, remote): (Vec<&str>, Vec<&str>) = tail
            .lines()
            .filter(|l| !l.trim().is_empty())
            .partition(|l| l.starts_with(launcher_prefix));
        self.remote_log = last_lines(&remote);
        self.bootstrap_log = last_lines(&boot);
        self
    }

    pub fn with_events(mut self, events: &[EventLine]) -> Self {
        let skip = events.len().saturating_sub(EVENTS);
        self.events = events[skip..]
            .iter()
            .map(|e| EventLine {
                at: e.at,
                text: clean(&e.text, LINE_CHARS),
            })
            .collect();
        self
    }

    pub fn with_sandbox(
        mut self,
        id: Option<&str>,
        state: Option<&str>,
        detail: Option<&str>,
    ) -> Self {
        self.sandbox_id = id.map(|s| clean(s, LINE_CHARS));
        self.sandbox_state = state.map(|s| clean(s, LINE_CHARS));
        self.sandbox_detail = detail
            .filter(|d| !d.trim().is_empty())
            .map(|d| clean(d, LINE_CHARS));
        self
    }

    /// The remote's last line, if it logged any.
    pub fn last_remote_line(&self) -> Option<&str> {
        self.remote_log.last().map(String::as_str)
    }

    /// The record still stands for a sandbox kept stopped for forensics: not served since, not
    /// reaped yet.
    pub fn open(&self) -> bool {
        self.resolved_at.is_none() && self.reaped_at.is_none()
    }

    /// Bound and redact every field again (a record read from disk may come from an older or a
    /// hand-edited file).
    pub fn bounded(mut self) -> Self {
        self.error = clean(&self.error, ERROR_CHARS);
        self.remote_log = last_lines(
            &self
                .remote_log
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>(),
        );
        self.bootstrap_log = last_lines(
            &self
                .bootstrap_log
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>(),
        );
        let events = std::mem::take(&mut self.events);
        self.with_events(&events)
    }
}

fn last_lines(lines: &[&str]) -> Vec<String> {
    let skip = lines.len().saturating_sub(LOG_LINES);
    lines[skip..].iter().map(|l| clean(l, LINE_CHARS)).collect()
}

/// Redacted (the one redaction point) and cut to `max` characters.
pub fn clean(text: &str, max: usize) -> String {
    let text = crate::secrets::redact(text.trim());
    if text.chars().count() <= max {
        return text.into_owned();
    }
    let mut cut: String = text.chars().take(max.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logs_are_split_bounded_and_redacted() {
        let token = "cog_failurerecordtestsecret0123456789";
        crate::secrets::register(token);
        let mut tail = String::new();
        for i in 0..30 {
            tail.push_str(&format!("launcher: step {i}\nremote line {i}\n"));
        }
        tail.push_str(&format!("remote: fatal: token {token} rejected\n"));
        tail.push_str(&"x".repeat(5000));
        let r = FailureRecord::new("s", "n", Step::Remote, &format!("bad {token}"), 1.0)
            .with_log(&tail, "launcher:");
        assert_eq!(r.remote_log.len(), LOG_LINES);
        assert_eq!(r.bootstrap_log.len(), LOG_LINES);
        assert_eq!(r.bootstrap_log.last().unwrap(), "launcher: step 29");
        assert!(r.remote_log.iter().all(|l| l.chars().count() <= LINE_CHARS));
        let all = serde_json::to_string(&r).unwrap();
        assert!(!all.contains(token), "{all}");
        assert!(r.remote_log[LOG_LINES - 2].contains("fatal"));
    }

    #[test]
    fn events_keep_the_latest() {
        let evs: Vec<EventLine> = (0..40)
            .map(|i| EventLine {
                at: i as f64,
                text: format!("ev {i}"),
            })
            .collect();
        let r = FailureRecord::new("s", "n", Step::Sandbox, "e", 1.0).with_events(&evs);
        assert_eq!(r.events.len(), EVENTS);
        assert_eq!(r.events.last().unwrap().text, "ev 39");
    }
}
