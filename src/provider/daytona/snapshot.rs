//! Daytona snapshots for outposts: the embedded image definitions, content-hashed names,
//! Dockerfile checks, and following a build to `active` (Linux: `buildInfo`; Windows: a
//! provisioned `windows-medium` sandbox snapshotted by name).

use std::collections::VecDeque;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use futures::StreamExt;
use sha2::{Digest, Sha256};

use crate::api::ApiError;
use crate::api::daytona::DaytonaClient;
use crate::api::daytona_types::{Snapshot, SnapshotState};
use crate::poll::{Backoff, Poll, poll_until};

/// The default Linux image (`outposts snapshot dockerfile` prints it).
pub const DEFAULT_DOCKERFILE: &[u8] = include_bytes!("../../../assets/Dockerfile.default");
/// The Windows provisioner, run in a `windows-medium` builder sandbox.
pub const WINDOWS_PROVISIONER: &[u8] = include_bytes!("../../../assets/provision_windows.ps1");
/// The Daytona snapshot Windows builds start from.
pub const WINDOWS_SOURCE_SNAPSHOT: &str = "windows-medium";
/// Where the provisioner is uploaded in the builder sandbox.
pub const WINDOWS_SCRIPT_PATH: &str = "C:\\ProgramData\\devin-outposts\\provision.ps1";
/// Lines of build log kept for a failure report.
pub const LOG_TAIL: usize = 30;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Platform {
    Linux,
    Windows,
}

impl Platform {
    pub fn as_str(self) -> &'static str {
        match self {
            Platform::Linux => "linux",
            Platform::Windows => "windows",
        }
    }
}

/// First 8 hex digits of the sha256 of `bytes`.
pub fn sha8(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))[..8].to_string()
}

/// `devin-outposts-default-<sha8(Dockerfile)>` or `devin-outposts-windows-<sha8(script)>`.
pub fn derived_name(platform: Platform, definition: &[u8]) -> String {
    match platform {
        Platform::Linux => format!("devin-outposts-default-{}", sha8(definition)),
        Platform::Windows => format!("devin-outposts-windows-{}", sha8(definition)),
    }
}

/// The server's snapshot name rule: `^[a-zA-Z0-9_.\-:]+(\/[a-zA-Z0-9_.\-:]+)*(@sha256:[a-f0-9]{64})?$`.
pub fn check_name(name: &str) -> Result<(), String> {
    let (base, digest) = match name.split_once("@sha256:") {
        Some((b, d)) => (b, Some(d)),
        None => (name, None),
    };
    let part_ok = |p: &str| {
        !p.is_empty()
            && p.chars()
                .all(|c| c.is_ascii_alphanumeric() || "_.-:".contains(c))
    };
    let digest_ok = digest.is_none_or(|d| {
        d.len() == 64
            && d.chars()
                .all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c))
    });
    if base.split('/').all(part_ok) && digest_ok {
        Ok(())
    } else {
        Err(format!(
            "`{name}` is not a valid snapshot name (letters, digits, `_ . - :`, `/`-separated)"
        ))
    }
}

/// A `COPY`/`ADD` line that needs files from the local build context.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalSource {
    /// 1-based line number where the instruction starts.
    pub line: usize,
    pub instruction: String,
}

/// Instructions that copy local files (what the SDK would upload as build context). `COPY
/// --from=…`, heredocs and `ADD` of URLs need no context.
pub fn local_sources(dockerfile: &str) -> Vec<LocalSource> {
    let mut out = Vec::new();
    let mut lines = dockerfile.lines().enumerate().peekable();
    while let Some((i, raw)) = lines.next() {
        let mut text = raw.trim().to_string();
        if text.starts_with('#') || text.is_empty() {
            continue;
        }
        while text.ends_with('\\') {
            text.pop();
            match lines.next() {
                Some((_, next)) => {
                    text.push(' ');
                    text.push_str(next.trim());
                }
                None => break,
            }
        }
        // Skip a heredoc's body (`RUN <<EOF … EOF`): its lines are not instructions.
        if let Some(word) = heredoc_word(&text) {
            for (_, body) in lines.by_ref() {
                if body.trim() == word {
                    break;
                }
            }
        }
        let mut words = text.split_whitespace();
        let Some(op) = words.next().map(str::to_ascii_uppercase) else {
            continue;
        };
        if op != "COPY" && op != "ADD" {
            continue;
        }
        let args: Vec<&str> = words.collect();
        if args.iter().any(|a| a.starts_with("--from=")) || text.contains("<<") {
            continue;
        }
        let sources: Vec<&str> = args
            .iter()
            .filter(|a| !a.starts_with("--"))
            .copied()
            .collect();
        // Everything but the destination; an exec-form (JSON) list counts as local.
        let srcs = &sources[..sources.len().saturating_sub(1)];
        let local = srcs.iter().any(|s| {
            !(s.starts_with("http://") || s.starts_with("https://") || s.starts_with("git@"))
        }) || text.contains('[');
        if local && (!srcs.is_empty() || text.contains('[')) {
            out.push(LocalSource {
                line: i + 1,
                instruction: text.clone(),
            });
        }
    }
    out
}

/// The terminator of a heredoc opened on this line (`<<EOF`, `<<-"EOF"`).
fn heredoc_word(text: &str) -> Option<String> {
    let rest = &text[text.find("<<")? + 2..];
    let rest = rest.strip_prefix('-').unwrap_or(rest);
    let word: String = rest
        .trim_start_matches(['"', '\''])
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    (!word.is_empty()).then_some(word)
}

/// What a build reports while it runs.
#[derive(Debug, Clone, PartialEq)]
pub enum BuildEvent {
    State(SnapshotState),
    Log(String),
}

/// How a followed build ended.
#[derive(Debug)]
pub struct BuildOutcome {
    /// The snapshot in its final state (`None` when a Windows build failed before snapshotting).
    pub snapshot: Option<Snapshot>,
    /// Why it failed, when it did.
    pub failure: Option<String>,
    /// The last [`LOG_TAIL`] log lines.
    pub log_tail: Vec<String>,
}

impl BuildOutcome {
    pub fn failed(&self) -> bool {
        self.failure.is_some()
    }
}

#[derive(Debug, thiserror::Error)]
pub enum FollowError {
    #[error("the snapshot {name} was still {state} after {waited}; it keeps building on Daytona")]
    Timeout {
        name: String,
        state: SnapshotState,
        waited: String,
    },
    #[error("the snapshot {0} disappeared while building (deleted elsewhere?)")]
    Vanished(String),
    /// The Windows builder sandbox failed or timed out.
    #[error("{0}")]
    Builder(String),
    #[error(transparent)]
    Api(#[from] ApiError),
}

/// Poll the snapshot every second until `active`, `error` or `build_failed`, streaming its
/// build log (`build-logs-url` + `?follow=true`) once it leaves `pending`.
pub async fn follow_build(
    client: &DaytonaClient,
    snapshot: Snapshot,
    timeout: Duration,
    on_event: impl FnMut(BuildEvent),
) -> Result<BuildOutcome, FollowError> {
    let deadline = Instant::now() + timeout;
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel::<String>();
    let (id, name) = (snapshot.id.clone(), snapshot.name.clone());
    let follow = Mutex::new(Follow {
        client: client.clone(),
        has_build: snapshot.build_info.is_some(),
        tx,
        rx,
        tail: VecDeque::new(),
        log_task: None,
        last_state: None,
        on_event,
    });
    // The first look is the snapshot we were given; every later one is fetched.
    let given = Mutex::new(Some(snapshot));
    let waited = poll_until(deadline, Backoff::fixed(Duration::from_secs(1)), || async {
        let taken = given.lock().unwrap_or_else(|e| e.into_inner()).take();
        let current = match taken {
            Some(s) => s,
            None => client
                .get_snapshot(&id)
                .await?
                .ok_or_else(|| FollowError::Vanished(name.clone()))?,
        };
        let state = follow
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .see(&current);
        Ok::<_, FollowError>(if state.is_terminal() {
            Poll::Ready(current)
        } else {
            Poll::Pending(current)
        })
    })
    .await;
    let follow = follow.into_inner().unwrap_or_else(|e| e.into_inner());
    let tail = follow.finish().await;
    let current = waited?.or_else(|last| FollowError::Timeout {
        name: last.as_ref().map_or(name.clone(), |s| s.name.clone()),
        state: last.map_or(SnapshotState::Pending, |s| s.state()),
        waited: humantime::format_duration(timeout).to_string(),
    })?;
    let failure = current.state().is_failed().then(|| {
        current
            .error_reason
            .clone()
            .unwrap_or_else(|| format!("the build ended in state {}", current.state()))
    });
    Ok(BuildOutcome {
        snapshot: Some(current),
        failure,
        log_tail: tail.into_iter().collect(),
    })
}

/// What following one build keeps between looks: its log stream and the events sent so far.
struct Follow<F> {
    client: DaytonaClient,
    has_build: bool,
    tx: tokio::sync::mpsc::UnboundedSender<String>,
    rx: tokio::sync::mpsc::UnboundedReceiver<String>,
    tail: VecDeque<String>,
    log_task: Option<tokio::task::JoinHandle<()>>,
    last_state: Option<SnapshotState>,
    on_event: F,
}

impl<F: FnMut(BuildEvent)> Follow<F> {
    /// Report a new state and the log lines that arrived, starting the log stream once the
    /// build leaves `pending`.
    fn see(&mut self, current: &Snapshot) -> SnapshotState {
        let state = current.state();
        if self.last_state != Some(state) {
            (self.on_event)(BuildEvent::State(state));
            self.last_state = Some(state);
        }
        if self.log_task.is_none() && self.has_build && state != SnapshotState::Pending {
            self.log_task = Some(spawn_log_stream(
                self.client.clone(),
                current.id.clone(),
                self.tx.clone(),
            ));
        }
        while let Ok(line) = self.rx.try_recv() {
            push_tail(&mut self.tail, &line);
            (self.on_event)(BuildEvent::Log(line));
        }
        state
    }

    /// Let the stream deliver the build's last lines (it ends with the build), briefly; the
    /// log tail kept for a failure report.
    async fn finish(mut self) -> VecDeque<String> {
        if let Some(task) = self.log_task.take() {
            drop(self.tx);
            let (rx, tail, on_event) = (&mut self.rx, &mut self.tail, &mut self.on_event);
            let drain = async {
                while let Some(line) = rx.recv().await {
                    push_tail(tail, &line);
                    on_event(BuildEvent::Log(line));
                }
            };
            let _ = tokio::time::timeout(Duration::from_secs(3), drain).await;
            task.abort();
        }
        self.tail
    }
}

fn push_tail(tail: &mut VecDeque<String>, line: &str) {
    tail.push_back(line.to_string());
    while tail.len() > LOG_TAIL {
        tail.pop_front();
    }
}

fn spawn_log_stream(
    client: DaytonaClient,
    id: String,
    tx: tokio::sync::mpsc::UnboundedSender<String>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        // The URL can take a moment to exist (runner assignment); logs are best effort.
        let url = match client.snapshot_build_logs_url(&id).await {
            Ok(u) => u,
            Err(e) => {
                tracing::debug!("no build log for snapshot {id}: {e}");
                return;
            }
        };
        let resp = match client.follow_build_logs(&url).await {
            Ok(r) => r,
            Err(e) => {
                tracing::debug!("cannot stream the build log of snapshot {id}: {e}");
                return;
            }
        };
        let mut body = resp.bytes_stream();
        let mut buf = Vec::new();
        while let Some(chunk) = body.next().await {
            let Ok(chunk) = chunk else { break };
            buf.extend_from_slice(&chunk);
            while let Some(pos) = buf.iter().position(|b| *b == b'\n') {
                let line: Vec<u8> = buf.drain(..=pos).collect();
                let text = String::from_utf8_lossy(&line).trim_end().to_string();
                if tx.send(text).is_err() {
                    return;
                }
            }
        }
        if !buf.is_empty() {
            let _ = tx.send(String::from_utf8_lossy(&buf).trim_end().to_string());
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_hash_the_exact_bytes() {
        let name = derived_name(Platform::Linux, DEFAULT_DOCKERFILE);
        assert!(name.starts_with("devin-outposts-default-"));
        assert_eq!(name.len(), "devin-outposts-default-".len() + 8);
        assert_ne!(derived_name(Platform::Linux, b"FROM a\n"), name);
        assert!(
            derived_name(Platform::Windows, WINDOWS_PROVISIONER)
                .starts_with("devin-outposts-windows-")
        );
        check_name(&name).unwrap();
    }

    #[test]
    fn snapshot_name_rule() {
        check_name("my-snap:1").unwrap();
        check_name(&format!("org/img:1.2@sha256:{}", "a".repeat(64))).unwrap();
        assert!(check_name("bad name").is_err());
        assert!(check_name("").is_err());
        assert!(check_name("a//b").is_err());
    }

    #[test]
    fn finds_local_copy_sources() {
        let df = "FROM x\n# COPY nope\nCOPY --from=builder /a /b\nADD https://e.com/f /f\nCOPY --chown=1:1 \\\n  app/ /app\nRUN <<EOF\nCOPY x y\nEOF\n";
        let found = local_sources(df);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].line, 5);
        assert!(found[0].instruction.contains("app/"));
        assert_eq!(local_sources("FROM x\nCOPY [\"a b\", \"/c\"]\n")[0].line, 2);
        assert!(local_sources(std::str::from_utf8(DEFAULT_DOCKERFILE).unwrap()).is_empty());
    }
}
