//! File faults: "on the next start of sandbox X (or any), lose or alter path P" — what a real
//! provider does when a stop, an archive or a snapshot restore does not bring a disk back whole.
//! One-shot: a fault is used up by the start it fires on.
//!
//! Set with `POST /_emulator/file-faults` (one fault or a list, JSON), listed with `GET`, cleared
//! with `DELETE`. They fire on Daytona's start (from stopped or archived) and on a CoreWeave
//! create (a wake restores the workspace snapshot there), after the disk is back and before the
//! sandbox reads as started, so a client can never see the file as it was. The local provider's
//! sandboxes live in the client's own process, out of the emulator's reach: a local test changes
//! the sandbox's directory itself.

use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use crate::provider::local::LocalProvider;
use crate::provider::{ExecRequest, Provider};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FileFault {
    /// Which sandbox: its id, its name or the value of one of its labels (a session id);
    /// any sandbox when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sandbox: Option<String>,
    /// Absolute path inside the sandbox (a file or a directory).
    pub path: String,
    pub action: FileAction,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FileAction {
    /// Remove it (recursively).
    Lose,
    /// Change its first byte, keeping its size and mtime: only its content differs.
    Alter,
}

/// Faults waiting for their start.
#[derive(Debug, Default)]
pub struct FileFaults(Mutex<Vec<FileFault>>);

impl FileFaults {
    pub fn add(&self, faults: Vec<FileFault>) {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend(faults);
    }

    pub fn list(&self) -> Vec<FileFault> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    pub fn clear(&self) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }

    /// Take the faults meant for a sandbox known by any of `keys`.
    fn take(&self, keys: &[String]) -> Vec<FileFault> {
        let mut all = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let (mine, rest): (Vec<_>, Vec<_>) = all
            .drain(..)
            .partition(|f| f.sandbox.as_ref().is_none_or(|s| keys.contains(s)));
        *all = rest;
        mine
    }
}

/// What a file fault may name a Daytona sandbox by: its id, its name, its label values.
pub fn daytona_keys(s: &super::Shared, id: &str) -> Vec<String> {
    let mut keys = vec![id.to_string()];
    if let Some(r) = s.daytona.org().sandboxes.get(id) {
        keys.push(r.name.clone());
        keys.extend(r.labels.values().cloned());
    }
    keys
}

/// An emulated Daytona sandbox has just started (or been restored): its file faults, if it is
/// a real local sandbox (a simulated one has no files).
pub async fn on_daytona_start(s: &super::Shared, id: &str) {
    if s.sandboxes.sim().is_none() {
        on_start(
            &s.file_faults,
            s.sandboxes.provider(),
            id,
            daytona_keys(s, id),
        )
        .await;
    }
}

/// Parse a body of `POST /_emulator/file-faults`: one fault or a list.
pub fn parse(body: &str) -> Result<Vec<FileFault>, String> {
    let value: serde_json::Value =
        serde_json::from_str(body).map_err(|e| format!("not JSON: {e}"))?;
    let faults: Vec<FileFault> = match value {
        serde_json::Value::Array(_) => serde_json::from_value(value),
        other => serde_json::from_value(other).map(|f| vec![f]),
    }
    .map_err(|e| e.to_string())?;
    if let Some(f) = faults.iter().find(|f| !f.path.starts_with('/')) {
        return Err(format!("path {} is not absolute", f.path));
    }
    Ok(faults)
}

const LOSE: &str = r#"rm -rf -- "$1""#;
const ALTER: &str = r#"t=$(stat -c %Y "$1") || exit 1
if [ "$(head -c 1 "$1")" = X ]; then b=Y; else b=X; fi
printf %s "$b" | dd of="$1" bs=1 count=1 conv=notrunc 2>/dev/null
touch -d "@$t" "$1""#;

/// The local sandbox `local_id` has just started: carry out the faults meant for it. `keys`: what
/// the emulated API knows it by (its id, its name, its label values or tags).
pub async fn on_start(
    faults: &FileFaults,
    provider: &LocalProvider,
    local_id: &str,
    mut keys: Vec<String>,
) {
    keys.push(local_id.to_string());
    let also = keys.first().cloned().unwrap_or_default();
    let also = also.as_str();
    for f in faults.take(&keys) {
        let script = match f.action {
            FileAction::Lose => LOSE,
            FileAction::Alter => ALTER,
        };
        let req = ExecRequest::argv(["sh", "-c", script, "sh", f.path.as_str()]);
        match provider.exec(local_id, &req).await {
            Ok(out) if out.exit_code == 0 => {
                tracing::info!(sandbox = also, "file fault: {:?} {}", f.action, f.path)
            }
            Ok(out) => tracing::warn!(
                sandbox = also,
                "file fault {:?} {} failed: {}{}",
                f.action,
                f.path,
                out.stdout,
                out.stderr
            ),
            Err(e) => tracing::warn!(sandbox = also, "file fault {:?} {}: {e}", f.action, f.path),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parsed_and_taken_once_per_sandbox() {
        let f = FileFaults::default();
        f.add(parse(r#"[{"sandbox":"s1","path":"/w/a","action":"lose"},{"path":"/w/b","action":"alter"}]"#).unwrap());
        assert!(parse(r#"{"path":"w/a","action":"lose"}"#).is_err());
        assert!(parse(r#"{"path":"/w/a","action":"burn"}"#).is_err());
        let taken = f.take(&["s2".into()]);
        assert_eq!(taken.len(), 1, "{taken:?}");
        assert_eq!(taken[0].path, "/w/b");
        assert_eq!(f.take(&["s1".into()]).len(), 1);
        assert!(f.list().is_empty());
    }
}
