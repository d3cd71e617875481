//! The main command's supervisor: a small detached `sh` loop on the host.
//!
//! It runs the main command (inside bubblewrap) with stdout+stderr appended to `main.log`, and
//! restarts it with exponential backoff when it exits non-zero, like a Kubernetes container with
//! `restartPolicy: OnFailure`; exit 0 leaves it completed. It records its state in `main.status`
//! (temp file + rename) so that any later `outposts` process can report it.
//!
//! It is a plain `sh` script rather than an `outposts` subcommand so that it needs no particular
//! binary on disk (library users, tests, a replaced binary), and it runs in its own session, so
//! it outlives the process that created the sandbox. The sandbox's environment — secrets
//! included — lives only in the supervisor's process environment, never on disk or in argv.

use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::provider::{ContainerStatus, ProviderError};

/// `$1` status file, `$2` log file, `$3` first backoff (ms), `$4` backoff cap (ms), `$5` seconds
/// of running after which the backoff resets; the rest is the command to supervise.
const SCRIPT: &str = r#"
status=$1; log=$2; first=$3; cap=$4; reset=$5; shift 5
restarts=0; code=; delay=$first
put() {
  printf 'state=%s\nrestart_count=%s\nexit_code=%s\nsupervisor_pid=%s\nchild_pid=%s\n' \
    "$1" "$restarts" "$code" "$$" "$2" > "$status.tmp" && mv -f "$status.tmp" "$status"
}
while :; do
  if [ -f "$log" ] && [ "$(wc -c < "$log")" -gt 52428800 ]; then mv -f "$log" "$log.1"; fi
  started=$(date +%s)
  "$@" >>"$log" 2>&1 </dev/null &
  child=$!
  put running "$child"
  wait "$child"; code=$?
  if [ "$code" -eq 0 ]; then put completed ""; exit 0; fi
  if [ $(( $(date +%s) - started )) -ge "$reset" ]; then delay=$first; fi
  restarts=$((restarts + 1))
  put waiting ""
  sleep "$((delay / 1000)).$(printf '%03d' $((delay % 1000)))"
  delay=$((delay * 2)); if [ "$delay" -gt "$cap" ]; then delay=$cap; fi
done
"#;

/// Backoff settings.
#[derive(Debug, Clone, Copy)]
pub(super) struct Backoff {
    pub first: Duration,
    pub cap: Duration,
    /// Running this long resets the backoff to `first`.
    pub reset_after: Duration,
}

/// Start the supervisor detached; returns its pid. `bwrap_cmd` is the fully prepared command that
/// runs the main process in the sandbox (its environment becomes the supervisor's).
pub(super) fn spawn(dir: &Path, inner: &Command, backoff: Backoff) -> Result<i32, ProviderError> {
    let status = dir.join(super::store::MAIN_STATUS);
    let log = dir.join(super::store::MAIN_LOG);
    let _ = std::fs::remove_file(&status);
    let events = OpenOptions::new()
        .create(true)
        .append(true)
        .mode(0o600)
        .open(dir.join(super::store::EVENTS_LOG))
        .map_err(|e| ProviderError::Other(format!("cannot open the events log: {e}")))?;
    let events2 = events
        .try_clone()
        .map_err(|e| ProviderError::Other(format!("cannot open the events log: {e}")))?;
    let mut cmd = Command::new("/bin/sh");
    cmd.arg("-c")
        .arg(SCRIPT)
        .arg("outposts-supervisor")
        .arg(&status)
        .arg(&log)
        .arg(backoff.first.as_millis().max(1).to_string())
        .arg(backoff.cap.as_millis().max(1).to_string())
        .arg(backoff.reset_after.as_secs().max(1).to_string())
        .arg(inner.get_program())
        .args(inner.get_args())
        .env_clear()
        .stdin(Stdio::null())
        .stdout(events)
        .stderr(events2);
    for (k, v) in inner.get_envs() {
        if let Some(v) = v {
            cmd.env(k, v);
        }
    }
    if let Some(cwd) = inner.get_current_dir() {
        cmd.current_dir(cwd);
    } else {
        cmd.current_dir(dir);
    }
    // SAFETY: setsid is async-signal-safe.
    unsafe {
        use std::os::unix::process::CommandExt;
        cmd.pre_exec(|| {
            if libc::setsid() < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut child = cmd
        .spawn()
        .map_err(|e| ProviderError::Other(format!("cannot start the supervisor: {e}")))?;
    let pid = child.id() as i32;
    // Reap it if it ends while we live; if we exit first, init adopts it.
    std::thread::spawn(move || {
        let _ = child.wait();
    });
    Ok(pid)
}

/// What `main.status` says.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Status {
    pub state: String,
    pub restart_count: u32,
    pub exit_code: Option<i32>,
    pub supervisor_pid: Option<i32>,
    pub child_pid: Option<i32>,
}

pub(super) fn read_status(dir: &Path) -> Option<Status> {
    let text = std::fs::read_to_string(dir.join(super::store::MAIN_STATUS)).ok()?;
    let map: BTreeMap<&str, &str> = text
        .lines()
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.trim(), v.trim()))
        .collect();
    Some(Status {
        state: map.get("state").map(|s| s.to_string()).unwrap_or_default(),
        restart_count: map
            .get("restart_count")
            .and_then(|v| v.parse().ok())
            .unwrap_or(0),
        exit_code: map.get("exit_code").and_then(|v| v.parse().ok()),
        supervisor_pid: map.get("supervisor_pid").and_then(|v| v.parse().ok()),
        child_pid: map.get("child_pid").and_then(|v| v.parse().ok()),
    })
}

/// Record the end of a run we stopped (the supervisor cannot: it was killed).
pub(super) fn mark_stopped(dir: &Path) {
    let prev = read_status(dir).unwrap_or_default();
    if prev.state == "completed" {
        return;
    }
    let text = format!(
        "state=stopped\nrestart_count={}\nexit_code={}\nsupervisor_pid=\nchild_pid=\n",
        prev.restart_count,
        prev.exit_code.map(|c| c.to_string()).unwrap_or_default()
    );
    let _ =
        super::store::write_atomic(&dir.join(super::store::MAIN_STATUS), text.as_bytes(), 0o600);
}

/// The `main` container as the trait reports it.
pub(super) fn container(status: Option<&Status>, supervisor_alive: bool) -> ContainerStatus {
    let (state, exit_code) = match status {
        Some(s) if s.state == "completed" => ("terminated", Some(0)),
        Some(s) if supervisor_alive && s.state == "running" => ("running", None),
        Some(s) if supervisor_alive => ("waiting", s.exit_code),
        None if supervisor_alive => ("waiting", None),
        Some(s) => ("terminated", s.exit_code),
        None => ("terminated", None),
    };
    ContainerStatus {
        name: "main".into(),
        state: state.into(),
        exit_code,
        restart_count: status.map(|s| s.restart_count).unwrap_or(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_round_trip_and_container_mapping() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(super::super::store::MAIN_STATUS),
            "state=waiting\nrestart_count=3\nexit_code=2\nsupervisor_pid=42\nchild_pid=\n",
        )
        .unwrap();
        let s = read_status(dir.path()).unwrap();
        assert_eq!(s.restart_count, 3);
        assert_eq!(s.exit_code, Some(2));
        assert_eq!(s.supervisor_pid, Some(42));
        assert_eq!(s.child_pid, None);
        let c = container(Some(&s), true);
        assert_eq!(
            (c.state.as_str(), c.exit_code, c.restart_count),
            ("waiting", Some(2), 3)
        );
        let c = container(Some(&s), false);
        assert_eq!(c.state, "terminated");
        mark_stopped(dir.path());
        let s = read_status(dir.path()).unwrap();
        assert_eq!((s.state.as_str(), s.restart_count), ("stopped", 3));
    }
}
