//! Creating worker sandboxes and waiting until each worker really serves.

use std::convert::Infallible;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::Serialize;

use super::{Mode, WorkerSpec, Workers, detached, markers, sandbox_spec, worker_env, worker_name};
use crate::poll::{Backoff, Poll, Waited, poll_until};
use crate::provider::{ProviderError, SandboxInfo, SandboxState};

/// Looking for a starting worker's marker: 0.25 s doubling to 2 s.
const READY_POLL: Backoff = Backoff::doubling(Duration::from_millis(250), Duration::from_secs(2));

/// What waiting for a worker found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "result", rename_all = "snake_case")]
pub enum Readiness {
    /// Its log shows it reached the queue.
    Ready { line: String },
    /// The Devin API rejected its token.
    AuthFailed { line: String },
    /// It could not start (or its sandbox failed).
    Failed { reason: String },
    /// Neither within the wait.
    Timeout { last_line: Option<String> },
}

impl Workers {
    /// Create one worker sandbox and start its worker. The sandbox name is fresh per call.
    pub async fn launch_one(&self, w: &WorkerSpec) -> Result<SandboxInfo, ProviderError> {
        let mode = Mode::for_provider(self.kind());
        let name = worker_name(w.outpost_name.as_deref().unwrap_or(&w.outpost));
        let spec = sandbox_spec(w, &name, mode);
        let info = match &self.local {
            Some((local, _)) => {
                let cli = self.cli_options().map_err(ProviderError::Invalid)?;
                local.create_with(&spec, &cli).await?
            }
            None => self.provider.create(&spec).await?,
        };
        if mode == Mode::Exec
            && let Err(e) = detached::launch(
                self.provider.as_ref(),
                &info.id,
                &w.outpost,
                worker_env(w, &name),
            )
            .await
        {
            // A sandbox without its worker is of no use; do not leave it behind.
            let _ = self.provider.delete(&info.id).await;
            return Err(e);
        }
        Ok(info)
    }

    /// The last `n` lines of the worker's log.
    pub async fn tail(&self, id: &str, mode: Mode, n: u32) -> Result<Vec<String>, ProviderError> {
        match mode {
            Mode::Exec => Ok(detached::tail(self.provider.as_ref(), id, n)
                .await?
                .lines()
                .map(str::to_string)
                .collect()),
            Mode::Main => {
                use futures::StreamExt;
                let opts = crate::provider::LogOptions {
                    tail: Some(n),
                    follow: false,
                };
                let mut stream = self.provider.logs(id, &opts).await?;
                let mut lines = Vec::new();
                while let Some(l) = stream.next().await {
                    lines.push(l?);
                }
                Ok(lines)
            }
        }
    }

    /// Wait until the worker's log shows it reached the queue or failed to authenticate, its
    /// sandbox fails, or `timeout` passes. `progress` gets the newest log line now and then.
    pub async fn wait_ready(
        &self,
        id: &str,
        timeout: Duration,
        progress: &(dyn Fn(&str) + Send + Sync),
    ) -> Readiness {
        let last_line = Mutex::new(None);
        let deadline = Instant::now() + timeout;
        let waited = poll_until(deadline, READY_POLL, || async {
            let found = self.look(id, &last_line, progress).await;
            Ok::<_, Infallible>(found.map_or(Poll::Pending(()), Poll::Ready))
        })
        .await;
        match waited {
            Ok(Waited::Ready(r)) => r,
            Ok(Waited::TimedOut(_)) => Readiness::Timeout {
                last_line: last_line.into_inner().unwrap_or_else(|e| e.into_inner()),
            },
            Err(never) => match never {},
        }
    }

    /// One look at a starting worker: `None` while it is still on its way. `last_line` is the
    /// newest log line seen so far (`progress` hears it when it changes).
    async fn look(
        &self,
        id: &str,
        last_line: &Mutex<Option<String>>,
        progress: &(dyn Fn(&str) + Send + Sync),
    ) -> Option<Readiness> {
        let info = match self.provider.get(id).await {
            Ok(Some(info)) => info,
            Ok(None) => {
                return Some(Readiness::Failed {
                    reason: format!("sandbox {id} disappeared"),
                });
            }
            Err(e) => {
                return Some(Readiness::Failed {
                    reason: e.to_string(),
                });
            }
        };
        let mode = Mode::of(&info, self.kind());
        if let Ok(lines) = self.tail(id, mode, 200).await {
            if let Some((ready, line)) = markers::last(&lines) {
                let line = line.trim().to_string();
                return Some(if ready {
                    Readiness::Ready { line }
                } else {
                    Readiness::AuthFailed { line }
                });
            }
            if let Some(l) = lines.iter().rev().find(|l| !l.trim().is_empty()) {
                let mut last = last_line.lock().unwrap_or_else(|e| e.into_inner());
                if last.as_deref() != Some(l.as_str()) {
                    progress(l);
                }
                *last = Some(l.clone());
            }
        }
        let restarts = self.restarts(id, mode, &info).await;
        // One crash may be a blip; two in a row before ever reaching the queue is not.
        if restarts >= 2 {
            return Some(Readiness::Failed {
                reason: format!(
                    "the worker keeps exiting ({restarts} restarts){}",
                    last_line
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .as_ref()
                        .map(|l| format!("; last log line: {}", l.trim()))
                        .unwrap_or_default()
                ),
            });
        }
        match info.state {
            SandboxState::Error | SandboxState::Deleted | SandboxState::Stopped => {
                Some(Readiness::Failed {
                    reason: format!(
                        "the sandbox is {} ({}){}",
                        info.state,
                        info.raw_state,
                        info.error_reason
                            .map(|r| format!(": {r}"))
                            .unwrap_or_default()
                    ),
                })
            }
            _ => None,
        }
    }

    /// How often the worker has exited and been started again.
    async fn restarts(&self, id: &str, mode: Mode, info: &SandboxInfo) -> u32 {
        match mode {
            Mode::Main => info
                .containers
                .first()
                .map(|c| c.restart_count)
                .unwrap_or(0),
            Mode::Exec => detached::check(self.provider.as_ref(), id)
                .await
                .map(|s| s.restarts)
                .unwrap_or(0),
        }
    }
}
