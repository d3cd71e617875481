//! Which host processes belong to a sandbox, and ending them.
//!
//! With bubblewrap, a sandbox's processes are the members of its pid namespace (held by its
//! init, see [`super::isolation`]): membership is kernel-enforced and inherited by every
//! descendant, so nothing started in a sandbox can leave it. Host-side helpers (the init's
//! bubblewrap parent, the `nsenter` waiting for an exec, the main command's supervisor) carry the
//! environment entry `OUTPOSTS_SANDBOX_ID=<id>` and are found by scanning `/proc/<pid>/environ`.
//!
//! Unisolated sandboxes have only the marker: a process that replaces its whole environment
//! (`env -i`) escapes `stop` there.

use std::time::Duration;

use crate::poll::{Backoff, Poll, poll_until};

/// Environment entry naming the sandbox a process belongs to.
pub const MARKER: &str = "OUTPOSTS_SANDBOX_ID";

/// Pids (other than ours) carrying the sandbox's marker.
pub(super) fn members(id: &str) -> Vec<i32> {
    let needle = format!("{MARKER}={id}");
    let me = std::process::id() as i32;
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for e in entries.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<i32>().ok()) else {
            continue;
        };
        if pid != me && has_marker(pid, &needle) {
            out.push(pid);
        }
    }
    out
}

/// Pids (other than ours) carrying the marker of any sandbox under `root` (its sub-directories
/// are the sandboxes' ids): one pass over `/proc`, however many sandboxes there are.
pub fn under_root(root: &std::path::Path) -> Vec<i32> {
    let ids: std::collections::BTreeSet<Vec<u8>> = std::fs::read_dir(root)
        .map(|d| {
            d.flatten()
                .filter_map(|e| e.file_name().to_str().map(|n| n.as_bytes().to_vec()))
                .collect()
        })
        .unwrap_or_default();
    if ids.is_empty() {
        return Vec::new();
    }
    let prefix = format!("{MARKER}=");
    let me = std::process::id() as i32;
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for e in entries.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<i32>().ok()) else {
            continue;
        };
        let Ok(env) = std::fs::read(format!("/proc/{pid}/environ")) else {
            continue;
        };
        let ours = env.split(|b| *b == 0).any(|kv| {
            kv.strip_prefix(prefix.as_bytes())
                .is_some_and(|id| ids.contains(id))
        });
        if pid != me && ours {
            out.push(pid);
        }
    }
    out
}

/// SIGKILL every process of the sandboxes under `root` until none is left (at most about
/// `limit`). A bubblewrap sandbox's pid 1 carries the marker and takes every process of its
/// namespace with it, so a process that cleared its environment still goes. Returns how many
/// processes were killed.
pub fn kill_under_root(root: &std::path::Path, limit: Duration) -> usize {
    let start = std::time::Instant::now();
    let mut killed = std::collections::BTreeSet::new();
    loop {
        let pids: Vec<i32> = under_root(root)
            .into_iter()
            .filter(|p| !is_zombie(*p))
            .collect();
        if pids.is_empty() || start.elapsed() >= limit {
            return killed.len();
        }
        for p in pids {
            signal(p, libc::SIGKILL);
            killed.insert(p);
        }
        // Not poll_until: this runs where no async runtime may exist (teardown, Drop).
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// An attempt of a wait that cannot fail.
fn ok<T>(p: Poll<T>) -> Result<Poll<T>, std::convert::Infallible> {
    Ok(p)
}

fn has_marker(pid: i32, needle: &str) -> bool {
    std::fs::read(format!("/proc/{pid}/environ"))
        .map(|env| env.split(|b| *b == 0).any(|kv| kv == needle.as_bytes()))
        .unwrap_or(false)
}

/// The pid namespace of `pid` (0 = this process), as its inode number.
pub(super) fn pid_ns(pid: i32) -> Option<u64> {
    let path = if pid == 0 {
        "/proc/self/ns/pid".to_string()
    } else {
        format!("/proc/{pid}/ns/pid")
    };
    let link = std::fs::read_link(path).ok()?;
    let s = link.to_str()?;
    s.strip_prefix("pid:[")?.strip_suffix(']')?.parse().ok()
}

/// Live processes in pid namespace `ns` (host pids).
pub(super) fn ns_members(ns: u64) -> Vec<i32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| pid_ns(*pid) == Some(ns) && !is_zombie(*pid))
        .collect()
}

/// Children of `pid`.
fn children(pid: i32) -> Vec<i32> {
    std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children"))
        .map(|t| {
            t.split_whitespace()
                .filter_map(|p| p.parse().ok())
                .collect()
        })
        .unwrap_or_default()
}

/// The first child of `pid` (bubblewrap's child is the sandbox's pid 1).
pub(super) fn first_child(pid: i32) -> Option<i32> {
    if pid <= 0 {
        return None;
    }
    let text = std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")).ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// Whether `pid` is alive and belongs to sandbox `id` (guards against pid reuse).
pub(super) fn is_member(pid: i32, id: &str) -> bool {
    pid > 0 && !is_zombie(pid) && has_marker(pid, &format!("{MARKER}={id}"))
}

/// Process group of `pid`.
pub(super) fn pgid(pid: i32) -> Option<i32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name: state ppid pgrp …
    let (_, rest) = stat.rsplit_once(')')?;
    rest.split_whitespace().nth(2)?.parse().ok()
}

fn is_zombie(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| {
            s.rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().next().map(|st| st == "Z"))
        })
        .unwrap_or(true)
}

pub(super) fn signal(pid: i32, sig: i32) {
    if pid > 0 {
        // SAFETY: kill(2) with a positive pid has no memory effects.
        unsafe { libc::kill(pid, sig) };
    }
}

pub(super) fn signal_group(pgid: i32, sig: i32) {
    if pgid > 1 {
        // SAFETY: killpg(2) has no memory effects.
        unsafe { libc::killpg(pgid, sig) };
    }
}

/// End a bubblewrap sandbox: SIGTERM to every process in its pid namespace but the init, SIGKILL
/// to the init after `grace` (the kernel then kills whatever is left in the namespace), then the
/// host-side helpers carrying the marker. Returns how many sandbox processes there were.
pub(super) async fn end_namespace(id: &str, init: Option<i32>, grace: Duration) -> usize {
    let mut count = 0;
    if let Some(init) = init
        && let Some(ns) = pid_ns(init).filter(|ns| Some(*ns) != pid_ns(0))
    {
        // The init's keep-alive loop ignores SIGTERM by design; it dies with the init.
        let keep: Vec<i32> = first_child(init)
            .map(|lp| std::iter::once(lp).chain(children(lp)).collect())
            .unwrap_or_default();
        let workload = |pids: Vec<i32>| -> Vec<i32> {
            pids.into_iter()
                .filter(|p| *p != init && !keep.contains(p))
                .collect()
        };
        let others = workload(ns_members(ns));
        count = others.len();
        for &p in &others {
            signal(p, libc::SIGTERM);
        }
        // Timing out of either wait is fine: the SIGKILLs that follow end what is left.
        let gone = |pids: Vec<i32>| {
            if pids.is_empty() {
                Poll::Ready(())
            } else {
                Poll::Pending(())
            }
        };
        let every = Backoff::fixed(Duration::from_millis(25));
        let deadline = std::time::Instant::now() + grace;
        let _ = poll_until(deadline, every, || async {
            ok(gone(workload(ns_members(ns))))
        })
        .await;
        signal(init, libc::SIGKILL);
        let every = Backoff::fixed(Duration::from_millis(10));
        let deadline = std::time::Instant::now() + Duration::from_secs(2);
        let _ = poll_until(deadline, every, || async { ok(gone(ns_members(ns))) }).await;
    }
    count + end_all(id, Duration::from_millis(200)).await
}

/// End every process of the sandbox: SIGTERM, then SIGKILL for what is left after `grace`.
/// Rescans until nothing carries the marker (a process may fork while we work). Returns how many
/// processes were signalled.
pub(super) async fn end_all(id: &str, grace: Duration) -> usize {
    let mut ended = std::collections::BTreeSet::new();
    for round in 0..20 {
        let pids = members(id);
        if pids.is_empty() {
            break;
        }
        let sig = if round == 0 {
            libc::SIGTERM
        } else {
            libc::SIGKILL
        };
        for &p in &pids {
            signal(p, sig);
            ended.insert(p);
        }
        let deadline = std::time::Instant::now()
            + if round == 0 {
                grace
            } else {
                Duration::from_millis(500)
            };
        let every = Backoff::fixed(Duration::from_millis(25));
        let _ = poll_until(deadline, every, || async {
            ok(if members(id).is_empty() {
                Poll::Ready(())
            } else {
                Poll::Pending(())
            })
        })
        .await;
    }
    ended.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn finds_and_ends_marked_processes() {
        let id = super::super::store::new_id();
        let mut child = std::process::Command::new("sh")
            .args(["-c", "sleep 30 & sleep 30; wait"])
            .env(MARKER, &id)
            .spawn()
            .unwrap();
        let mut found = Vec::new();
        for _ in 0..100 {
            found = members(&id);
            if found.len() >= 3 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert!(found.len() >= 3, "sh and both sleeps: {found:?}");
        assert!(is_member(child.id() as i32, &id));
        let n = end_all(&id, Duration::from_secs(2)).await;
        assert!(n >= 3);
        let _ = child.wait();
        assert!(members(&id).is_empty());
        assert!(!is_member(child.id() as i32, &id));
    }
}
