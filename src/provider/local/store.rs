//! On-disk layout of the local provider, and the `sandbox.json` record.
//!
//! ```text
//! <root>/                 0700
//!   .lock                 serialises create (names are unique)
//!   <id>/                 0700, one per sandbox (id = a UUID)
//!     sandbox.json        0600, the record below, written temp+fsync+rename
//!     lock                flock held while the sandbox changes state
//!     fs/                 the sandbox's own root: /workspace, /home, /tmp, /root, …
//!     main.log            stdout+stderr of the main command (appended by the supervisor)
//!     main.status         written by the supervisor: state, restart count, last exit code
//!     events.log          lifecycle lines (created, started, stopped, restarts)
//! ```
//!
//! A sandbox appears atomically (`.creating-<id>` renamed to `<id>`) and disappears by renaming
//! to `.deleting-<id>` before removal, so a reader never sees half a sandbox.

use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use serde::{Deserialize, Serialize};

use crate::provider::ProviderError;

pub(super) const RECORD: &str = "sandbox.json";
pub(super) const FS: &str = "fs";
pub(super) const MAIN_LOG: &str = "main.log";
pub(super) const MAIN_STATUS: &str = "main.status";
pub(super) const EVENTS_LOG: &str = "events.log";
const LOCK: &str = "lock";
const RECORD_VERSION: u32 = 1;

/// What the sandbox should be doing. Whether its processes really run is observed separately.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(super) enum Desired {
    Started,
    Stopped,
}

/// `sandbox.json`. Never holds a secret: env values whose name or shape looks secret are kept in
/// memory only and listed by name in `secret_env_keys`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct Record {
    pub version: u32,
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub labels: BTreeMap<String, String>,
    /// Non-secret environment of every process in the sandbox.
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    /// Names of secret env values given at create (values are not on disk).
    #[serde(default)]
    pub secret_env_keys: Vec<String>,
    pub state: Desired,
    pub created_at: f64,
    pub updated_at: f64,
    /// Main command (argv), run under the supervisor.
    #[serde(default)]
    pub command: Option<Vec<String>>,
    /// What the spec asked to boot from (informational: local sandboxes use the host's userland).
    #[serde(default)]
    pub source: String,
    /// `HOME` inside the sandbox.
    pub home: String,
    #[serde(default)]
    pub user: Option<String>,
    /// Extra read-only binds `(host path, sandbox path)`, on top of the provider's.
    #[serde(default)]
    pub ro_binds: Vec<(PathBuf, String)>,
    /// Extra `PATH` entries (sandbox paths), first.
    #[serde(default)]
    pub extra_path: Vec<String>,
    /// Host pid of the bubblewrap holding the sandbox's namespaces, while it is started.
    #[serde(default)]
    pub init_pid: Option<i32>,
    /// Pid of the detached supervisor of the main command, when one was launched.
    #[serde(default)]
    pub supervisor_pid: Option<i32>,
    /// How the sandbox was created: `bubblewrap` or `none` (unisolated opt-in).
    #[serde(default)]
    pub isolation: String,
}

pub(super) use crate::time::now;

pub(super) fn io_err(what: impl std::fmt::Display, e: io::Error) -> ProviderError {
    ProviderError::Other(format!("{what}: {e}"))
}

/// Only canonical UUIDs name sandbox directories; anything else (`..`, `/`, …) is not an id.
pub(super) fn is_id(s: &str) -> bool {
    uuid::Uuid::parse_str(s).is_ok_and(|u| u.hyphenated().to_string() == s)
}

pub(super) fn new_id() -> String {
    uuid::Uuid::new_v4().hyphenated().to_string()
}

/// The sandbox root and everything in it.
#[derive(Debug, Clone)]
pub(super) struct Store {
    pub root: PathBuf,
}

impl Store {
    pub fn open(root: &Path) -> Result<Store, ProviderError> {
        create_private_dir_all(root)
            .map_err(|e| io_err(format!("cannot create {}", root.display()), e))?;
        let root = fs::canonicalize(root)
            .map_err(|e| io_err(format!("cannot resolve {}", root.display()), e))?;
        let store = Store { root };
        store.sweep_leftovers();
        Ok(store)
    }

    pub fn dir(&self, id: &str) -> PathBuf {
        self.root.join(id)
    }

    pub fn fs_dir(&self, id: &str) -> PathBuf {
        self.dir(id).join(FS)
    }

    pub fn file(&self, id: &str, name: &str) -> PathBuf {
        self.dir(id).join(name)
    }

    /// The record of `id`, `None` when there is no such sandbox.
    pub fn load(&self, id: &str) -> Result<Option<Record>, ProviderError> {
        if !is_id(id) {
            return Ok(None);
        }
        let path = self.file(id, RECORD);
        let bytes = match fs::read(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(io_err(format!("cannot read {}", path.display()), e)),
        };
        let rec: Record = serde_json::from_slice(&bytes).map_err(|e| {
            ProviderError::Other(format!(
                "{} is damaged ({e}); delete that directory to forget the sandbox",
                path.display()
            ))
        })?;
        Ok(Some(rec))
    }

    pub fn save(&self, rec: &Record) -> Result<(), ProviderError> {
        self.save_in(&self.dir(&rec.id), rec)
    }

    pub fn save_in(&self, dir: &Path, rec: &Record) -> Result<(), ProviderError> {
        let mut rec = rec.clone();
        rec.version = RECORD_VERSION;
        let bytes = serde_json::to_vec_pretty(&rec)
            .map_err(|e| ProviderError::Other(format!("cannot encode the sandbox record: {e}")))?;
        write_atomic(&dir.join(RECORD), &bytes, 0o600)
            .map_err(|e| io_err(format!("cannot write {}", dir.join(RECORD).display()), e))
    }

    /// Every readable record. A damaged one is skipped with a warning rather than hiding the rest.
    pub fn all(&self) -> Result<Vec<Record>, ProviderError> {
        let entries = fs::read_dir(&self.root)
            .map_err(|e| io_err(format!("cannot list {}", self.root.display()), e))?;
        let mut out = Vec::new();
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(name) = name.to_str() else { continue };
            if !is_id(name) {
                continue;
            }
            match self.load(name) {
                Ok(Some(rec)) => out.push(rec),
                Ok(None) => {}
                Err(e) => tracing::warn!("skipping sandbox {name}: {e}"),
            }
        }
        out.sort_by(|a, b| {
            a.created_at
                .partial_cmp(&b.created_at)
                .unwrap_or(std::cmp::Ordering::Equal)
                .then_with(|| a.id.cmp(&b.id))
        });
        Ok(out)
    }

    /// Exclusive lock on the whole store (create: name uniqueness across processes).
    pub async fn lock_store(&self) -> Result<File, ProviderError> {
        lock_file(self.root.join(".lock")).await
    }

    /// Exclusive lock on one sandbox (state changes).
    pub async fn lock_sandbox(&self, id: &str) -> Result<File, ProviderError> {
        lock_file(self.file(id, LOCK)).await
    }

    /// Remove what a crashed delete left behind, and creates abandoned for over an hour.
    fn sweep_leftovers(&self) {
        let Ok(entries) = fs::read_dir(&self.root) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let stale_create = name.starts_with(".creating-")
                && entry
                    .metadata()
                    .and_then(|m| m.modified())
                    .ok()
                    .and_then(|t| t.elapsed().ok())
                    .is_some_and(|age| age.as_secs() > 3600);
            if name.starts_with(".deleting-") || stale_create {
                let _ = remove_tree(&entry.path());
            }
        }
    }

    /// Append a timestamped line to the sandbox's lifecycle log.
    pub fn event(&self, id: &str, line: &str) {
        append_line(&self.file(id, EVENTS_LOG), line);
    }
}

pub(super) fn append_line(path: &Path, line: &str) {
    let stamp = humantime::format_rfc3339_seconds(SystemTime::now());
    let res = OpenOptions::new()
        .create(true)
        .append(true)
        .mode(0o600)
        .open(path)
        .and_then(|mut f| writeln!(f, "{stamp} {line}"));
    if let Err(e) = res {
        tracing::debug!("cannot append to {}: {e}", path.display());
    }
}

async fn lock_file(path: PathBuf) -> Result<File, ProviderError> {
    tokio::task::spawn_blocking(move || {
        let f = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .mode(0o600)
            .open(&path)
            .map_err(|e| io_err(format!("cannot open {}", path.display()), e))?;
        fs2::FileExt::lock_exclusive(&f)
            .map_err(|e| io_err(format!("cannot lock {}", path.display()), e))?;
        Ok(f)
    })
    .await
    .map_err(|e| ProviderError::Other(format!("lock task failed: {e}")))?
}

/// `mkdir -p` where every directory we create is 0700.
pub(super) fn create_private_dir_all(path: &Path) -> io::Result<()> {
    if path.is_dir() {
        return Ok(());
    }
    if let Some(parent) = path.parent()
        && !parent.as_os_str().is_empty()
    {
        fs::create_dir_all(parent)?;
    }
    match fs::create_dir(path) {
        Ok(()) => fs::set_permissions(path, fs::Permissions::from_mode(0o700)),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists && path.is_dir() => Ok(()),
        Err(e) => Err(e),
    }
}

/// Write `bytes` to `path` via a temporary sibling, fsync and rename; then fsync the directory.
pub(super) fn write_atomic(path: &Path, bytes: &[u8], mode: u32) -> io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let tmp = dir.join(format!(
        ".{}.tmp-{}",
        path.file_name().and_then(|n| n.to_str()).unwrap_or("file"),
        uuid::Uuid::new_v4().simple()
    ));
    let result = (|| {
        let mut f = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(mode)
            .open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        fs::rename(&tmp, path)?;
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// Remove a directory tree that sandbox processes may have made hard to remove (dirs without
/// write or search permission). Never follows symlinks.
pub(super) fn remove_tree(path: &Path) -> io::Result<()> {
    match fs::remove_dir_all(path) {
        Ok(()) => return Ok(()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(_) => {}
    }
    make_writable(path);
    match fs::remove_dir_all(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        other => other,
    }
}

fn make_writable(path: &Path) {
    let Ok(meta) = fs::symlink_metadata(path) else {
        return;
    };
    if !meta.is_dir() {
        return;
    }
    let _ = fs::set_permissions(path, fs::Permissions::from_mode(0o700));
    if let Ok(entries) = fs::read_dir(path) {
        for e in entries.flatten() {
            make_writable(&e.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_canonical_uuids_only() {
        let id = new_id();
        assert!(is_id(&id));
        assert!(!is_id("../etc"));
        assert!(!is_id(""));
        assert!(!is_id(&id.to_uppercase()));
        assert!(!is_id(&id.replace('-', "")));
    }

    #[test]
    fn atomic_write_replaces_and_sets_mode() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x.json");
        write_atomic(&p, b"one", 0o600).unwrap();
        write_atomic(&p, b"two", 0o600).unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"two");
        let mode = fs::metadata(&p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        assert_eq!(
            fs::read_dir(dir.path()).unwrap().count(),
            1,
            "no temp files left"
        );
    }

    #[test]
    fn remove_tree_handles_locked_dirs() {
        let dir = tempfile::tempdir().unwrap();
        let t = dir.path().join("t");
        fs::create_dir_all(t.join("a/b")).unwrap();
        fs::write(t.join("a/b/f"), b"x").unwrap();
        fs::set_permissions(t.join("a"), fs::Permissions::from_mode(0o000)).unwrap();
        remove_tree(&t).unwrap();
        assert!(!t.exists());
    }
}
