//! The liveness check of a served session: is its remote still running, did it exit (and why,
//! from its own log), or is its sandbox gone. Results go back as typed outcomes.

use super::plan::{CheckResult, Outcome};
use super::remote::{self, Liveness};
use super::run::{Change, OrchEvent, Orchestrator, RecordChange, SessionView};
use crate::api::devin_types::Platform;
use crate::orchestrator::SessionId;
use crate::provider::SandboxState;

impl Orchestrator {
    /// Is the remote of a served session still running? One exec; only when it fails is the
    /// sandbox itself read, to tell a lost sandbox from a failed check.
    pub(super) async fn check(&self, view: &SessionView) -> Option<Outcome> {
        let (session, platform) = (&view.id, view.platform);
        let Some(sandbox) = view.sandbox.clone() else {
            return Some(Outcome::Checked(CheckResult::NoSandbox));
        };
        let result = match remote::check(self.provider.as_ref(), &sandbox, session, platform).await
        {
            Ok(Liveness::Running(_)) => CheckResult::Running,
            Ok(Liveness::Exited(code)) => {
                self.emit(OrchEvent::RemoteExited {
                    session: session.into(),
                    code,
                });
                if code != 0 {
                    self.report_exit(session, &sandbox, platform, &format!("exited {code}"))
                        .await;
                }
                CheckResult::Exited(code)
            }
            Ok(Liveness::Absent) => {
                self.report_exit(session, &sandbox, platform, "is gone without an exit code")
                    .await;
                CheckResult::Absent
            }
            Err(e) => match self.provider.get(&sandbox).await {
                Ok(Some(sb)) if sb.state == SandboxState::Started => {
                    tracing::warn!(session = session.as_str(), "liveness check failed: {e}");
                    CheckResult::Failed
                }
                Ok(other) => {
                    // The provider stopped or removed it under a live session: say so; the
                    // planner serves the session again (a wake of the same sandbox if it exists).
                    self.emit(OrchEvent::SandboxLost {
                        session: session.into(),
                        sandbox: sandbox.clone(),
                    });
                    if other.is_none() {
                        self.record([Change::Record(RecordChange::Sandbox {
                            session: session.clone(),
                            id: None,
                        })]);
                    }
                    CheckResult::SandboxLost
                }
                Err(e) => {
                    tracing::warn!(
                        session = session.as_str(),
                        "cannot read sandbox {sandbox}: {e}"
                    );
                    CheckResult::SandboxUnreadable
                }
            },
        };
        Some(Outcome::Checked(result))
    }
}

/// Lines of the remote's own log shown when it ends badly.
const EXIT_LOG_LINES: u32 = 5;

impl Orchestrator {
    /// A remote ended badly: say so at WARN with the last lines of its own log (which usually
    /// says why), and keep them for `orchestrator status`.
    async fn report_exit(&self, session: &SessionId, sandbox: &str, platform: Platform, how: &str) {
        let tail = if platform == Platform::Windows {
            remote::windows::log_tail(self.provider.as_ref(), sandbox, session, EXIT_LOG_LINES)
                .await
                .ok()
                .flatten()
                .unwrap_or_default()
        } else {
            remote::log_tail(self.provider.as_ref(), sandbox, session, EXIT_LOG_LINES)
                .await
                .unwrap_or_default()
        };
        let tail = crate::secrets::redact(tail.trim()).into_owned();
        self.record_failure(
            session,
            super::failures::Step::Remote,
            &format!("the remote {how}"),
            Some(sandbox),
            &tail,
        )
        .await;
        let since = self
            .book()
            .track(session)
            .and_then(|t| t.launched_at)
            .map(|l| {
                format!(
                    " {:.0} s after its launch",
                    (crate::time::now() - l).max(0.0)
                )
            })
            .unwrap_or_default();
        if tail.is_empty() {
            tracing::warn!(
                session = session.as_str(),
                "the remote {how}{since}; its log is empty"
            );
        } else {
            // One line, so a log search for the session finds the reason with it.
            let lines: Vec<&str> = tail.lines().filter(|l| !l.trim().is_empty()).collect();
            tracing::warn!(
                session = session.as_str(),
                "the remote {how}{since}; its log ends: {}",
                lines.join(" | ")
            );
            // The remote's own last word: the launcher's diagnostic lines are ours.
            let last = lines
                .iter()
                .rev()
                .find(|l| !l.starts_with(super::remote::LAUNCHER_LINE))
                .or(lines.last())
                .unwrap_or(&"")
                .to_string();
            self.record([Change::Record(RecordChange::ExitLog {
                session: session.clone(),
                line: last,
            })]);
        }
    }
}
