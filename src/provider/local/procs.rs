//! Which host processes belong to a sandbox, and ending them.
//!
//! Every process the provider starts for a sandbox (each exec, the main command's supervisor and
//! everything they fork — including `nohup … &` daemons) inherits the environment entry
//! `OUTPOSTS_SANDBOX_ID=<id>`; a sandbox's processes are the processes whose
//! `/proc/<pid>/environ` holds it. Sandboxes share the host's pid namespace (that is what lets a
//! detached process outlive the exec that started it), so this scan sees all of them.
//!
//! Limits: a process that replaces its whole environment (`env -i`, some daemons) drops the marker
//! and escapes `stop`; so does a process running as another user whose environ we cannot read.
//! Kernel-side grouping (a cgroup per sandbox) would close that gap where cgroup v2 delegation is
//! available; it is not on most hosts this runs on.

use std::time::Duration;

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

fn has_marker(pid: i32, needle: &str) -> bool {
    std::fs::read(format!("/proc/{pid}/environ"))
        .map(|env| env.split(|b| *b == 0).any(|kv| kv == needle.as_bytes()))
        .unwrap_or(false)
}

/// Whether `pid` is alive and belongs to sandbox `id` (guards against pid reuse).
pub(super) fn is_member(pid: i32, id: &str) -> bool {
    pid > 0 && !is_zombie(pid) && has_marker(pid, &format!("{MARKER}={id}"))
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
        let deadline = tokio::time::Instant::now()
            + if round == 0 {
                grace
            } else {
                Duration::from_millis(500)
            };
        loop {
            tokio::time::sleep(Duration::from_millis(25)).await;
            let alive = members(id);
            if alive.is_empty() || tokio::time::Instant::now() >= deadline {
                break;
            }
        }
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
