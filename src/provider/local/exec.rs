//! Running one command to completion: capped output, timeout, cancellation.
//!
//! The command runs in its own session and process group. When it exits, output still buffered
//! is collected for a short moment; a background process that kept the pipes open (`cmd &`
//! without redirection) does not hold the exec hostage, and its later output is drained and
//! discarded while this process lives. Detach daemons with `nohup cmd >log 2>&1 &`.

use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt};

use crate::poll::{Backoff, Poll, poll_until};
use crate::provider::{ExecOutput, ProviderError};

use super::procs;

/// Most bytes kept per stream.
pub const OUTPUT_CAP: usize = 10 * 1024 * 1024;
/// How long to wait for the pipes to close after the command exited.
const DRAIN_GRACE: Duration = Duration::from_millis(300);

#[derive(Default)]
struct Captured {
    bytes: Vec<u8>,
    truncated: bool,
    done: bool,
}

/// Kills the process group unless disarmed (the exec future was dropped or timed out).
struct GroupGuard {
    pgid: i32,
    armed: bool,
}

impl Drop for GroupGuard {
    fn drop(&mut self) {
        if self.armed {
            procs::signal_group(self.pgid, libc::SIGKILL);
        }
    }
}

fn capture<R: AsyncRead + Unpin + Send + 'static>(mut r: R) -> Arc<Mutex<Captured>> {
    let buf = Arc::new(Mutex::new(Captured::default()));
    let out = buf.clone();
    tokio::spawn(async move {
        let mut chunk = vec![0u8; 64 * 1024];
        loop {
            match r.read(&mut chunk).await {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    let mut c = out.lock().unwrap_or_else(|e| e.into_inner());
                    let room = OUTPUT_CAP.saturating_sub(c.bytes.len());
                    if n > room {
                        c.truncated = true;
                    }
                    let take = n.min(room);
                    c.bytes.extend_from_slice(&chunk[..take]);
                }
            }
        }
        out.lock().unwrap_or_else(|e| e.into_inner()).done = true;
    });
    buf
}

fn text(buf: &Arc<Mutex<Captured>>) -> String {
    let c = buf.lock().unwrap_or_else(|e| e.into_inner());
    let mut s = String::from_utf8_lossy(&c.bytes).into_owned();
    if c.truncated {
        s.push_str(&format!(
            "\n[outposts: output truncated at {} MiB]\n",
            OUTPUT_CAP / (1024 * 1024)
        ));
    }
    s
}

fn done(bufs: &[&Arc<Mutex<Captured>>]) -> bool {
    bufs.iter()
        .all(|b| b.lock().unwrap_or_else(|e| e.into_inner()).done)
}

pub(super) fn exit_code(status: ExitStatus) -> i32 {
    use std::os::unix::process::ExitStatusExt;
    status
        .code()
        .or_else(|| status.signal().map(|s| 128 + s))
        .unwrap_or(-1)
}

/// Run `cmd` (already set up by [`super::isolation::command`]) and collect its output.
pub(super) async fn run(
    cmd: std::process::Command,
    timeout: Option<Duration>,
) -> Result<ExecOutput, ProviderError> {
    let mut cmd = tokio::process::Command::from(cmd);
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd
        .spawn()
        .map_err(|e| ProviderError::Other(format!("cannot start the command: {e}")))?;
    let pgid = child.id().map(|p| p as i32).unwrap_or(0);
    let mut guard = GroupGuard { pgid, armed: true };
    let out = child.stdout.take().map(capture).unwrap_or_default();
    let err = child.stderr.take().map(capture).unwrap_or_default();
    let status = match timeout {
        Some(t) => match tokio::time::timeout(t, child.wait()).await {
            Ok(s) => s,
            Err(_) => {
                drop(guard);
                let _ = child.wait().await;
                return Err(ProviderError::Timeout(t));
            }
        },
        None => child.wait().await,
    }
    .map_err(|e| ProviderError::Other(format!("cannot wait for the command: {e}")))?;
    // It exited: what it left in the background is the sandbox's now.
    guard.armed = false;
    // Output a background child still holds open is cut at the grace: take what arrived.
    let _ = poll_until(
        std::time::Instant::now() + DRAIN_GRACE,
        Backoff::fixed(Duration::from_millis(10)),
        || async {
            let ready = done(&[&out, &err]);
            Ok::<_, std::convert::Infallible>(if ready {
                Poll::Ready(())
            } else {
                Poll::Pending(())
            })
        },
    )
    .await;
    Ok(ExecOutput {
        exit_code: exit_code(status),
        stdout: text(&out),
        stderr: text(&err),
    })
}
