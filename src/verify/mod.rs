//! `session verify`: prove that a Devin session ran in a sandbox we own. A unique, non-secret
//! proof value goes into the task text; the file Devin writes is read back from that very
//! sandbox through the provider and compared exactly.

use std::time::{Duration, Instant};

use rand::Rng;
use serde::Serialize;

use crate::orchestrator::{LABEL_SESSION, sandbox_name};
use crate::provider::{LogOptions, Provider, ProviderError, SandboxInfo, SandboxState};

pub mod diagnose;
pub mod outpost;
pub mod sleep_cycle;
pub mod unattended;

pub const DEFAULT_PATH: &str = "/workspace/outpost-proof.txt";

/// `outpost-proof-<12 hex>`: unique per run, meaningless outside it, safe to print and paste.
pub fn new_proof() -> String {
    let n: u64 = rand::thread_rng().r#gen();
    format!("outpost-proof-{:012x}", n & 0xffff_ffff_ffff)
}

/// The exact task to submit to Devin.
pub fn task_text(proof: &str, path: &str) -> String {
    format!("Write the exact text {proof} to {path} and read the file back. Report its contents.")
}

/// The same task as a Slack message routed to the outpost.
pub fn slack_line(outpost_name: &str, task: &str) -> String {
    format!("@Devin !outpost {outpost_name} {task}")
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "result", rename_all = "snake_case")]
pub enum Comparison {
    /// Exact match; `trailing_newline` when one final newline had to be tolerated.
    Match {
        trailing_newline: bool,
    },
    Mismatch {
        expected: String,
        found: String,
    },
}

/// Compare exactly, tolerating one trailing newline (`\n` or `\r\n`).
pub fn compare(expected: &str, found: &[u8]) -> Comparison {
    let text = String::from_utf8_lossy(found);
    if text == expected {
        return Comparison::Match {
            trailing_newline: false,
        };
    }
    let trimmed = text
        .strip_suffix("\r\n")
        .or_else(|| text.strip_suffix('\n'));
    if trimmed == Some(expected) {
        return Comparison::Match {
            trailing_newline: true,
        };
    }
    Comparison::Mismatch {
        expected: expected.to_string(),
        found: text.into_owned(),
    }
}

/// Printable form of a value that may hold control characters.
pub fn show(value: &str) -> String {
    let escaped: String = value.escape_debug().collect();
    if escaped.chars().count() > 300 {
        format!(
            "\"{}…\" ({} bytes)",
            escaped.chars().take(300).collect::<String>(),
            value.len()
        )
    } else {
        format!("\"{escaped}\"")
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ResolveError {
    #[error("no sandbox {0} on this provider")]
    NoSandbox(String),
    #[error("no sandbox for session {session} (looked for {name})")]
    NoSessionSandbox { session: String, name: String },
    #[error(
        "sandbox {name} does not carry the label {LABEL_SESSION}={session}; refusing to read it"
    )]
    Foreign { session: String, name: String },
    #[error(
        "several sandboxes carry {LABEL_SESSION}={session} ({names}); pass --sandbox to pick one"
    )]
    Ambiguous { session: String, names: String },
    #[error(
        "sandbox {0} disappeared while we waited (was the session terminated and its sandbox deleted?)"
    )]
    Vanished(String),
    /// Neither a sandbox nor a queue entry: the session does not exist on this account (or it
    /// ended and its sandbox is gone), so waiting cannot help.
    #[error("no session {0}: it is not in the outpost's queue and no sandbox serves it")]
    NoSession(String),
    /// `--sandbox` without `--provider`: on none of the configured providers.
    #[error("no sandbox {id} on {searched}{errors}")]
    NowhereFound {
        id: String,
        searched: String,
        errors: String,
    },
    #[error(transparent)]
    Provider(#[from] ProviderError),
}

/// The provider holding sandbox `id`, looked for on each of `candidates` in order (the worker
/// commands' search order: the one it was launched on from here, the default, the rest).
pub async fn search(
    candidates: Vec<crate::worker::Workers>,
    id: &str,
) -> Result<(crate::provider::ProviderKind, std::sync::Arc<dyn Provider>), ResolveError> {
    let mut searched = Vec::new();
    let mut errors = Vec::new();
    for w in candidates {
        searched.push(w.kind().to_string());
        match w.provider().get(id).await {
            Ok(Some(_)) => return Ok((w.kind(), w.provider().clone())),
            Ok(None) => {}
            Err(e) => errors.push(format!("{}: {e}", w.kind())),
        }
    }
    Err(ResolveError::NowhereFound {
        id: show(id),
        searched: if searched.is_empty() {
            "any provider (none is configured)".to_string()
        } else {
            searched.join(", ")
        },
        errors: if errors.is_empty() {
            String::new()
        } else {
            format!(" ({})", errors.join("; "))
        },
    })
}

/// Fail at once when a session named by `--session` has no sandbox yet and the fleet API does
/// not know it either. An unanswered lookup proves nothing, so it lets the wait go on.
pub async fn check_session_known(
    devin: &crate::api::devin::DevinClient,
    session: &str,
) -> Result<(), ResolveError> {
    match tokio::time::timeout(Duration::from_secs(30), devin.get(session)).await {
        Ok(Ok(None)) => Err(ResolveError::NoSession(session.to_string())),
        _ => Ok(()),
    }
}

/// The sandbox to read: by id/name, or a session's: the orchestrator's name for it, else the one
/// sandbox labelled with the session. A sandbox found by name must carry the session's label.
pub async fn resolve(
    provider: &dyn Provider,
    sandbox: Option<&str>,
    session: Option<&str>,
) -> Result<SandboxInfo, ResolveError> {
    if let Some(id) = sandbox {
        return provider
            .get(id)
            .await?
            .ok_or_else(|| ResolveError::NoSandbox(id.to_string()));
    }
    let session = session.unwrap_or_default();
    let name = sandbox_name(session);
    let Some(sb) = provider.get(&name).await? else {
        return by_label(provider, session, name).await;
    };
    if sb.labels.get(LABEL_SESSION).map(String::as_str) != Some(session) {
        return Err(ResolveError::Foreign {
            session: session.into(),
            name,
        });
    }
    Ok(sb)
}

/// A session's sandbox under another name: one made by another orchestrator (the reference
/// implementation names them differently) carries the same label.
async fn by_label(
    provider: &dyn Provider,
    session: &str,
    name: String,
) -> Result<SandboxInfo, ResolveError> {
    let filter = [(LABEL_SESSION.to_string(), session.to_string())].into();
    let mut live: Vec<SandboxInfo> = provider
        .list(&filter)
        .await?
        .into_iter()
        .filter(|sb| {
            sb.state != SandboxState::Deleted
                && sb.labels.get(LABEL_SESSION).map(String::as_str) == Some(session)
        })
        .collect();
    match live.len() {
        0 => Err(ResolveError::NoSessionSandbox {
            session: session.into(),
            name,
        }),
        1 => Ok(live.remove(0)),
        _ => Err(ResolveError::Ambiguous {
            session: session.into(),
            names: live
                .iter()
                .map(|sb| sb.name.as_str())
                .collect::<Vec<_>>()
                .join(", "),
        }),
    }
}

/// Which sandbox to read: one named by the user, or the orchestrator's sandbox of a session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    Sandbox(String),
    Session(String),
}

impl Target {
    /// The session this target names, when it names one.
    pub fn session(&self) -> Option<&str> {
        match self {
            Target::Session(s) => Some(s),
            Target::Sandbox(_) => None,
        }
    }
}

/// Find the target's sandbox now. A named sandbox must exist; a session's sandbox may not exist
/// yet (the orchestrator creates it when it claims the session), which is `Ok(None)`.
pub async fn locate(
    provider: &dyn Provider,
    target: &Target,
) -> Result<Option<SandboxInfo>, ResolveError> {
    match target {
        Target::Sandbox(id) => resolve(provider, Some(id), None).await.map(Some),
        Target::Session(session) => match resolve(provider, None, Some(session)).await {
            Ok(sb) => Ok(Some(sb)),
            Err(ResolveError::NoSessionSandbox { .. }) => Ok(None),
            Err(e) => Err(e),
        },
    }
}

/// What the wait loop reports at each attempt (for progress output).
#[derive(Debug)]
pub enum Waiting<'a> {
    /// The session's sandbox does not exist yet.
    NoSandbox { name: &'a str },
    /// The sandbox exists; the file does not, yet.
    NoFile { sandbox: &'a SandboxInfo },
    /// The file holds something else (an earlier proof, a half-written value): not yet.
    Other {
        sandbox: &'a SandboxInfo,
        found: &'a str,
    },
    /// A read failed in a way that may pass (sandbox starting, an API hiccup).
    Retrying {
        sandbox: &'a SandboxInfo,
        error: &'a str,
    },
}

/// How a wait ended.
#[derive(Debug, Clone)]
pub struct Waited {
    /// The sandbox read (or last seen); `None` when a session's sandbox never appeared.
    pub sandbox: Option<SandboxInfo>,
    /// The file's bytes: the proof as soon as it appears; otherwise, when `wait` ran out, the
    /// last other content seen (`None` when there never was a file).
    pub contents: Option<Vec<u8>>,
    pub elapsed: Duration,
    /// The last transient read error, for the diagnosis.
    pub last_error: Option<String>,
}

/// Errors a wait does not outlive: credentials rejected, a request the provider refuses, a
/// feature it lacks. Everything else (sandbox starting, 5xx, timeouts) is retried.
fn is_transient(e: &ProviderError) -> bool {
    match e {
        ProviderError::Api(api) => !api.is_auth(),
        ProviderError::Busy { .. } | ProviderError::Timeout(_) | ProviderError::Other(_) => true,
        _ => false,
    }
}

/// One read, bounded so a hung provider call cannot stretch the wait much past `--wait`.
async fn read_once(
    provider: &dyn Provider,
    id: &str,
    path: &str,
    left: Duration,
) -> Result<Option<Vec<u8>>, ProviderError> {
    let limit = left.clamp(Duration::from_secs(5), Duration::from_secs(60));
    tokio::time::timeout(limit, provider.read_file(id, path))
        .await
        .unwrap_or(Err(ProviderError::Timeout(limit)))
}

/// Wait for the proof file: find the session's sandbox when it appears, then read `path` with
/// backoff (1 s doubling to 10 s) until it holds `expected` or `wait` runs out. Other content
/// (an earlier verification's proof — a fixed worker serves many sessions from one sandbox, and
/// a session can be verified twice) means "not yet": Devin may not have written the new value.
/// `found` is what [`locate`] returned. `tick` hears each unsuccessful attempt.
pub async fn wait_for_proof(
    provider: &dyn Provider,
    target: &Target,
    found: Option<SandboxInfo>,
    path: &str,
    expected: &str,
    wait: Duration,
    mut tick: impl FnMut(Duration, Waiting<'_>),
) -> Result<Waited, ResolveError> {
    let start = Instant::now();
    let mut delay = Duration::from_secs(1);
    let mut sandbox = found;
    let mut last_error = None;
    let mut other: Option<Vec<u8>> = None;
    let looked_for = match target {
        Target::Session(s) => sandbox_name(s),
        Target::Sandbox(id) => id.clone(),
    };
    loop {
        if sandbox.is_none() {
            sandbox = locate(provider, target).await?;
        }
        match &sandbox {
            None => tick(start.elapsed(), Waiting::NoSandbox { name: &looked_for }),
            Some(sb) => {
                match read_once(provider, &sb.id, path, wait.saturating_sub(start.elapsed())).await
                {
                    Ok(Some(bytes))
                        if matches!(compare(expected, &bytes), Comparison::Match { .. }) =>
                    {
                        return Ok(Waited {
                            sandbox,
                            contents: Some(bytes),
                            elapsed: start.elapsed(),
                            last_error,
                        });
                    }
                    Ok(Some(bytes)) => {
                        let text = String::from_utf8_lossy(&bytes).into_owned();
                        tick(
                            start.elapsed(),
                            Waiting::Other {
                                sandbox: sb,
                                found: &text,
                            },
                        );
                        other = Some(bytes);
                    }
                    Ok(None) => {
                        other = None;
                        tick(start.elapsed(), Waiting::NoFile { sandbox: sb });
                    }
                    Err(ProviderError::NotFound(_)) => {
                        return Err(ResolveError::Vanished(sb.name.clone()));
                    }
                    Err(e) if is_transient(&e) => {
                        let text = e.to_string();
                        tick(
                            start.elapsed(),
                            Waiting::Retrying {
                                sandbox: sb,
                                error: &text,
                            },
                        );
                        last_error = Some(text);
                    }
                    Err(e) => return Err(e.into()),
                }
            }
        }
        let left = wait.saturating_sub(start.elapsed());
        if left.is_zero() {
            return Ok(Waited {
                sandbox,
                contents: other,
                elapsed: start.elapsed(),
                last_error,
            });
        }
        // Not poll_until: each look reports progress and keeps what it saw (the sandbox, the last
        // contents, the last transient error), all of which a timeout answers with; sharing that
        // with an attempt closure would take RefCells for no gain.
        tokio::time::sleep(delay.min(left)).await;
        delay = (delay * 2).min(Duration::from_secs(10));
    }
}

/// The last lines of the sandbox's log, best effort.
pub async fn log_tail(provider: &dyn Provider, id: &str, lines: u32) -> Vec<String> {
    use futures::StreamExt;
    let Ok(stream) = provider
        .logs(
            id,
            &LogOptions {
                tail: Some(lines),
                follow: false,
            },
        )
        .await
    else {
        return Vec::new();
    };
    let collected: Vec<String> = tokio::time::timeout(
        Duration::from_secs(10),
        stream
            .filter_map(|l| async move { l.ok() })
            .collect::<Vec<_>>(),
    )
    .await
    .unwrap_or_default();
    let skip = collected.len().saturating_sub(lines as usize);
    collected.into_iter().skip(skip).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proofs_are_unique_and_plain() {
        let a = new_proof();
        let b = new_proof();
        assert_ne!(a, b);
        assert!(
            a.starts_with("outpost-proof-") && a.len() == "outpost-proof-".len() + 12,
            "{a}"
        );
        assert!(a.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'));
    }

    #[test]
    fn task_and_slack_text() {
        let t = task_text("P1", DEFAULT_PATH);
        assert_eq!(
            t,
            "Write the exact text P1 to /workspace/outpost-proof.txt and read the file back. Report its contents."
        );
        assert_eq!(slack_line("rhel", &t), format!("@Devin !outpost rhel {t}"));
    }

    #[test]
    fn comparison_is_exact_with_one_newline_tolerated() {
        assert_eq!(
            compare("abc", b"abc"),
            Comparison::Match {
                trailing_newline: false
            }
        );
        assert_eq!(
            compare("abc", b"abc\n"),
            Comparison::Match {
                trailing_newline: true
            }
        );
        assert_eq!(
            compare("abc", b"abc\r\n"),
            Comparison::Match {
                trailing_newline: true
            }
        );
        assert!(matches!(
            compare("abc", b"abc\n\n"),
            Comparison::Mismatch { .. }
        ));
        assert!(matches!(
            compare("abc", b" abc"),
            Comparison::Mismatch { .. }
        ));
        assert!(matches!(
            compare("abc", b"ABC"),
            Comparison::Mismatch { .. }
        ));
        assert!(matches!(
            compare("abc", b"\xff"),
            Comparison::Mismatch { .. }
        ));
        assert_eq!(show("a\nb"), "\"a\\nb\"");
    }
}
