//! `logs`: the last lines of a log file, optionally followed.

use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::time::Duration;

use futures::stream::BoxStream;
use tokio_stream::wrappers::ReceiverStream;

use crate::provider::{ProviderError, Result};

const POLL: Duration = Duration::from_millis(200);

/// The last `n` lines of `path` (all when `None`) and the byte offset after them.
pub(super) fn tail(path: &Path, n: Option<u32>) -> std::io::Result<(Vec<String>, u64)> {
    let mut f = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((Vec::new(), 0)),
        Err(e) => return Err(e),
    };
    let len = f.metadata()?.len();
    // Read backwards in chunks until enough newlines are in hand.
    let mut start = len;
    let mut buf: Vec<u8> = Vec::new();
    if let Some(n) = n {
        const CHUNK: u64 = 64 * 1024;
        while start > 0 && buf.iter().filter(|b| **b == b'\n').count() <= n as usize {
            let from = start.saturating_sub(CHUNK);
            let mut chunk = vec![0u8; (start - from) as usize];
            f.seek(SeekFrom::Start(from))?;
            f.read_exact(&mut chunk)?;
            chunk.extend_from_slice(&buf);
            buf = chunk;
            start = from;
        }
    } else {
        f.read_to_end(&mut buf)?;
    }
    // Only complete lines; a partial last line is picked up by `follow`.
    let complete = buf
        .iter()
        .rposition(|b| *b == b'\n')
        .map(|i| i + 1)
        .unwrap_or(0);
    let end = if n.is_some() {
        start + complete as u64
    } else {
        complete as u64
    };
    let mut lines: Vec<String> = String::from_utf8_lossy(&buf[..complete])
        .lines()
        .map(str::to_string)
        .collect();
    if let Some(n) = n {
        let skip = lines.len().saturating_sub(n as usize);
        lines.drain(..skip);
    }
    // Without follow, the unterminated last line is still part of the log.
    Ok((lines, end))
}

/// Whether the stream should keep following.
pub(super) type Alive = Box<dyn Fn() -> bool + Send + Sync>;

/// Stream `path`: the tail, then (if `follow`) new lines until `alive` turns false.
pub(super) fn stream(
    path: PathBuf,
    n: Option<u32>,
    follow: bool,
    alive: Alive,
) -> Result<BoxStream<'static, Result<String>>> {
    let (mut lines, offset) =
        tail(&path, n).map_err(|e| ProviderError::Other(format!("cannot read the log: {e}")))?;
    if !follow {
        // Include an unterminated last line.
        if let Ok(bytes) = std::fs::read(&path) {
            let rest = &bytes[(offset as usize).min(bytes.len())..];
            if !rest.is_empty() {
                lines.push(String::from_utf8_lossy(rest).into_owned());
                if let Some(n) = n {
                    let skip = lines.len().saturating_sub(n as usize);
                    lines.drain(..skip);
                }
            }
        }
        return Ok(Box::pin(futures::stream::iter(lines.into_iter().map(Ok))));
    }
    let (tx, rx) = tokio::sync::mpsc::channel::<Result<String>>(256);
    tokio::spawn(async move {
        for l in lines {
            if tx.send(Ok(l)).await.is_err() {
                return;
            }
        }
        let mut offset = offset;
        let mut partial: Vec<u8> = Vec::new();
        // Not poll_until: a log follow, not a wait: it ends when the sandbox does.
        loop {
            let still = alive();
            let (new, next, restarted) = read_from(&path, offset);
            if restarted {
                partial.clear(); // rotated or truncated: start over
            }
            offset = next;
            partial.extend_from_slice(&new);
            while let Some(i) = partial.iter().position(|b| *b == b'\n') {
                let line: Vec<u8> = partial.drain(..=i).collect();
                let text = String::from_utf8_lossy(&line[..line.len() - 1]).into_owned();
                if tx.send(Ok(text)).await.is_err() {
                    return;
                }
            }
            if !still {
                if !partial.is_empty() {
                    let _ = tx
                        .send(Ok(String::from_utf8_lossy(&partial).into_owned()))
                        .await;
                }
                return;
            }
            tokio::select! {
                _ = tokio::time::sleep(POLL) => {}
                _ = tx.closed() => return,
            }
        }
    });
    Ok(Box::pin(ReceiverStream::new(rx)))
}

/// Bytes after `offset` (from 0 when the file shrank), the new offset, and whether it shrank.
fn read_from(path: &Path, offset: u64) -> (Vec<u8>, u64, bool) {
    let Ok(mut f) = std::fs::File::open(path) else {
        return (Vec::new(), offset, false);
    };
    let len = f.metadata().map(|m| m.len()).unwrap_or(0);
    let from = if len < offset { 0 } else { offset };
    let mut buf = Vec::new();
    if f.seek(SeekFrom::Start(from)).is_ok() {
        let _ = f.take(8 * 1024 * 1024).read_to_end(&mut buf);
    }
    let next = from + buf.len() as u64;
    (buf, next, from != offset)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tail_returns_the_last_lines() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("log");
        let body: String = (1..=5000).map(|i| format!("line {i}\n")).collect();
        std::fs::write(&p, body).unwrap();
        let (lines, off) = tail(&p, Some(3)).unwrap();
        assert_eq!(lines, ["line 4998", "line 4999", "line 5000"]);
        assert_eq!(off, std::fs::metadata(&p).unwrap().len());
        let (all, _) = tail(&p, None).unwrap();
        assert_eq!(all.len(), 5000);
        let (none, _) = tail(&dir.path().join("missing"), Some(3)).unwrap();
        assert!(none.is_empty());
    }
}
