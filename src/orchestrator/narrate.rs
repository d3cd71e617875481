//! Orchestrator events in words: the foreground narration of `orchestrator run`, the readable
//! part of each event's log line, and the LAST EVENT of `orchestrator status`. One wording, so
//! what the terminal said and what the status file recorded read the same.

use super::run::{EndHow, OrchEvent};

impl OrchEvent {
    /// The session the event is about (none for the outpost-wide capacity note).
    pub fn session(&self) -> Option<&str> {
        use OrchEvent::*;
        match self {
            Claimed { session }
            | ClaimConflict { session }
            | Adopted { session }
            | SandboxCreated { session, .. }
            | SandboxStarted { session, .. }
            | SandboxReady { session, .. }
            | RemoteLaunched { session, .. }
            | RemoteRunning { session, .. }
            | RemoteExited { session, .. }
            | Released { session }
            | SandboxStopped { session, .. }
            | SandboxDeleted { session, .. }
            | SandboxLost { session, .. }
            | Failed { session, .. }
            | Refused { session, .. }
            | Ended { session, .. }
            | Janitor { session, .. }
            | WakeIntegrity { session, .. } => Some(session),
            AtCapacity { .. } => None,
        }
    }

    /// What happened, in a few words, without the session id (the caller puts it in front).
    pub fn summary(&self) -> String {
        use OrchEvent::*;
        match self {
            Claimed { .. } => "claimed".into(),
            ClaimConflict { .. } => "claimed by another replica first; left to it".into(),
            Adopted { .. } => "reattached (held before this start)".into(),
            SandboxCreated { sandbox, .. } => format!("sandbox {sandbox} created"),
            SandboxStarted {
                sandbox,
                retry: false,
                ..
            } => format!("woke: sandbox {sandbox} started again"),
            SandboxStarted {
                sandbox,
                retry: true,
                ..
            } => format!("sandbox {sandbox} started again (retry after a failed provision)"),
            SandboxReady { sandbox, .. } => format!("sandbox {sandbox} ready"),
            RemoteLaunched { cached, .. } => match cached {
                Some(true) => "served: devin-remote launched (cached=yes)".into(),
                Some(false) => "served: devin-remote launched (cached=no, downloaded)".into(),
                None => "served: devin-remote launched".into(),
            },
            RemoteRunning { .. } => "served: devin-remote running".into(),
            RemoteExited { code, .. } => format!("devin-remote exited with code {code}"),
            Released { .. } => "claim released".into(),
            SandboxStopped { sandbox, .. } => format!("sandbox {sandbox} stopped, disk kept"),
            SandboxDeleted { sandbox, .. } => format!("sandbox {sandbox} deleted"),
            SandboxLost { sandbox, .. } => format!("sandbox {sandbox} is gone"),
            Failed { error, .. } => format!("failed: {}", one_line(error)),
            Refused { reason, .. } => format!("refused: {}", one_line(reason)),
            Ended { how, .. } => match how {
                EndHow::Slept => "slept (Devin suspended it); claim released".into(),
                EndHow::Terminated => "ended (terminated); claim released".into(),
                EndHow::GivenUp => {
                    "given up after repeated failures; claim released, retried later".into()
                }
                EndHow::Failed => "not served; claim released, retried later".into(),
                EndHow::Foreign => {
                    "its sandbox name belongs to someone else; claim released".into()
                }
            },
            Janitor {
                sandbox, action, ..
            } => format!("janitor: {} sandbox {sandbox}", action.as_str()),
            WakeIntegrity { verdict, .. } => format!("woke {}", verdict.words()),
            AtCapacity { held, cap, waiting } => format!(
                "at capacity: {held}/{cap} held, {waiting} waiting \
                 (raise --max-concurrent-sessions or add a replica to serve them sooner)"
            ),
        }
    }

    /// One readable line: `SESSION  what happened`.
    pub fn narrate(&self) -> String {
        match self.session() {
            Some(s) => format!("{s}  {}", self.summary()),
            None => self.summary(),
        }
    }

    /// Worth a line of its own on the terminal (the rest shows with `-v`).
    pub fn is_milestone(&self) -> bool {
        !matches!(self, OrchEvent::SandboxReady { .. })
    }

    /// The event as a record of the narration log target: a problem at WARN, a milestone at
    /// INFO, the rest at DEBUG. JSON logs carry the event's own fields as the line's fields (see
    /// `logging`); text logs the narrator's words with the event as JSON beside them.
    pub(in crate::orchestrator) fn log(&self) {
        use crate::logging::NARRATION;
        let words = self.narrate();
        let json = serde_json::to_string(self).unwrap_or_default();
        if crate::logging::json() {
            let orch_event = json.as_str();
            if self.is_problem() {
                tracing::warn!(target: NARRATION, orch_event, "{words}");
            } else if self.is_milestone() {
                tracing::info!(target: NARRATION, orch_event, "{words}");
            } else {
                tracing::debug!(target: NARRATION, orch_event, "{words}");
            }
            return;
        }
        // Text logs (shown from -v on): the words, then the event as JSON on the same line for
        // searches (`grep '"event":"adopted"'`).
        if self.is_problem() {
            tracing::warn!(target: NARRATION, event = %json, "{words}");
        } else if self.is_milestone() {
            tracing::info!(target: NARRATION, event = %json, "{words}");
        } else {
            tracing::debug!(target: NARRATION, event = %json, "{words}");
        }
    }

    /// A warning rather than progress.
    pub fn is_problem(&self) -> bool {
        match self {
            OrchEvent::WakeIntegrity { verdict, .. } => verdict.result.is_problem(),
            _ => matches!(self, OrchEvent::Failed { .. } | OrchEvent::Refused { .. }),
        }
    }
}

/// An error's words on one line: a provider's message may carry its own line breaks (a command's
/// output, a response body), and one failure is one line of the log.
pub(super) fn one_line(text: &str) -> String {
    text.split(['\n', '\r'])
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" / ")
}
