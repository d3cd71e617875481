//! `session verify`: prove that a Devin session ran in a sandbox we own. A unique, non-secret
//! proof value goes into the task text; the file Devin writes is read back from that very
//! sandbox through the provider and compared exactly.

use std::time::{Duration, Instant};

use rand::Rng;
use serde::Serialize;

use crate::orchestrator::{LABEL_SESSION, sandbox_name};
use crate::provider::{LogOptions, Provider, ProviderError, SandboxInfo};

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
    #[error(transparent)]
    Provider(#[from] ProviderError),
}

/// The sandbox to read: by id/name, or the orchestrator's sandbox for a session.
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
    let sb = provider
        .get(&name)
        .await?
        .ok_or_else(|| ResolveError::NoSessionSandbox {
            session: session.into(),
            name: name.clone(),
        })?;
    if sb.labels.get(LABEL_SESSION).map(String::as_str) != Some(session) {
        return Err(ResolveError::Foreign {
            session: session.into(),
            name,
        });
    }
    Ok(sb)
}

/// Poll the file with backoff (1 s doubling to 10 s) until it exists or `wait` runs out.
/// `tick` hears each attempt's elapsed time for progress output.
pub async fn wait_for_file(
    provider: &dyn Provider,
    id: &str,
    path: &str,
    wait: Duration,
    mut tick: impl FnMut(Duration, Option<&str>),
) -> Result<Option<Vec<u8>>, ProviderError> {
    let start = Instant::now();
    let mut delay = Duration::from_secs(1);
    loop {
        match provider.read_file(id, path).await {
            Ok(Some(bytes)) => return Ok(Some(bytes)),
            Ok(None) => tick(start.elapsed(), None),
            // A sandbox that is starting or briefly unreachable is not a verdict yet.
            Err(
                e @ (ProviderError::Api(_) | ProviderError::Busy { .. } | ProviderError::Other(_)),
            ) => tick(start.elapsed(), Some(&e.to_string())),
            Err(e) => return Err(e),
        }
        let left = wait.saturating_sub(start.elapsed());
        if left.is_zero() {
            return Ok(None);
        }
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
