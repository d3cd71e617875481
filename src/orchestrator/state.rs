//! The orchestrator's state dir: acceptor id and watch cursor per outpost, a status snapshot,
//! and an exclusive lock. Directory 0700, files 0600, every write temp+fsync+rename, and never a
//! secret (session tokens live only in memory).
//!
//! Layout:
//! ```text
//! STATE_DIR/orchestrator.lock                      held for the orchestrator's lifetime
//! STATE_DIR/outposts/<sha256(outpost_id)>/acceptor_id
//! STATE_DIR/outposts/<sha256(outpost_id)>/watch_cursor
//! STATE_DIR/outposts/<sha256(outpost_id)>/status.json
//! STATE_DIR/outposts/<sha256(outpost_id)>/sleepers.json   sleeping sessions, absence clocks
//! STATE_DIR/outposts/<sha256(outpost_id)>/terminated.json terminations seen: session id → when
//! STATE_DIR/outposts/<sha256(outpost_id)>/provider.json   the site (provider, endpoint) holding
//!                                                         the claims and sleepers above
//! ```

use std::fs::{self, File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use std::collections::BTreeMap;

use anyhow::{Context, Result};

use super::handover::Site;
use super::plan::retention::Sleeper;
use fs2::FileExt;
use sha2::{Digest, Sha256};

/// A state dir that cannot be used as it is; the user fixes it (exit 2).
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct StateError {
    pub message: String,
    pub hint: String,
}

/// The state dir, opened (and created) with safe permissions.
#[derive(Debug, Clone)]
pub struct StateDir {
    root: PathBuf,
}

/// The lock; dropping it (or the process dying) releases it.
#[derive(Debug)]
pub struct StateLock {
    _file: File,
}

impl StateDir {
    pub fn open(root: &Path) -> Result<StateDir> {
        create_private_dir(root)?;
        Ok(StateDir {
            root: root.to_path_buf(),
        })
    }

    /// The state dir at `root` as it is: nothing created, no permission changed (for
    /// read-only inspection such as `doctor`).
    pub fn existing(root: &Path) -> StateDir {
        StateDir {
            root: root.to_path_buf(),
        }
    }

    /// The lock file, and the pid the current holder wrote into it (if any).
    pub fn lock_holder(&self) -> (PathBuf, Option<String>) {
        let path = self.root.join("orchestrator.lock");
        let pid = fs::read_to_string(&path)
            .ok()
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty());
        (path, pid)
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Take the exclusive lock, or fail (exit 2) naming the holder.
    pub fn lock(&self) -> Result<StateLock> {
        let path = self.root.join("orchestrator.lock");
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .with_context(|| format!("cannot open {}", path.display()))?;
        set_mode(&path, 0o600);
        if FileExt::try_lock_exclusive(&file).is_err() {
            let mut holder = String::new();
            let _ = file.read_to_string(&mut holder);
            let holder = holder.trim();
            let who = if holder.is_empty() {
                String::new()
            } else {
                format!(" (pid {holder})")
            };
            return Err(StateError {
                message: format!("another orchestrator{who} is using the state dir {}", self.root.display()),
                hint: "run one orchestrator per state dir; give a second one its own STATE_DIR (and so its own acceptor id)".to_string(),
            }
            .into());
        }
        file.set_len(0)?;
        write!(file, "{}", std::process::id())?;
        file.sync_all()?;
        Ok(StateLock { _file: file })
    }

    /// Is some process holding the lock right now?
    pub fn is_locked(&self) -> bool {
        let path = self.root.join("orchestrator.lock");
        match File::open(&path) {
            Ok(f) => match FileExt::try_lock_shared(&f) {
                Ok(()) => {
                    let _ = FileExt::unlock(&f);
                    false
                }
                Err(_) => true,
            },
            Err(_) => false,
        }
    }

    /// The per-outpost directory (`outposts/<sha256(outpost)>`), created on demand.
    pub fn outpost(&self, outpost_id: &str) -> Result<OutpostState> {
        let dir = self
            .root
            .join("outposts")
            .join(hex::encode(Sha256::digest(outpost_id.as_bytes())));
        create_private_dir(&self.root.join("outposts"))?;
        create_private_dir(&dir)?;
        Ok(OutpostState { dir })
    }
}

/// State of one outpost.
#[derive(Debug, Clone)]
pub struct OutpostState {
    dir: PathBuf,
}

impl OutpostState {
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The persisted acceptor id, or a new `devin-outposts-<uuid>` saved for next time.
    /// `configured` (ACCEPTOR_ID) wins and is saved too. A corrupt file is an error, not a
    /// silent new identity: a new identity would orphan this instance's claims.
    pub fn acceptor_id(&self, configured: Option<&str>) -> Result<String> {
        let path = self.dir.join("acceptor_id");
        if let Some(id) = configured {
            check_acceptor(id)?;
            write_atomic(&path, id.as_bytes())?;
            return Ok(id.to_string());
        }
        match fs::read(&path) {
            Ok(bytes) => {
                let text = String::from_utf8(bytes).unwrap_or_default();
                let id = text.trim();
                validate_acceptor(id).map_err(|p| StateError {
                    message: format!("the acceptor id in {} {p}", path.display()),
                    hint: "restore the file from a backup, or delete it to start with a new identity (claims held by the old one then expire)".to_string(),
                })?;
                Ok(id.to_string())
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let id = format!("devin-outposts-{}", uuid::Uuid::new_v4().simple());
                write_atomic(&path, id.as_bytes())?;
                Ok(id)
            }
            Err(e) => Err(anyhow::Error::new(e).context(format!("cannot read {}", path.display()))),
        }
    }

    /// The saved watch cursor and its age in seconds. An unreadable file is ignored (the
    /// cursor only saves a relist).
    pub fn cursor(&self) -> Option<(String, f64)> {
        let path = self.dir.join("watch_cursor");
        let text = fs::read_to_string(&path).ok()?;
        let c = text.trim();
        if c.is_empty() || c.len() > 4096 || c.chars().any(char::is_control) {
            tracing::warn!("ignoring an unreadable watch cursor in {}", path.display());
            return None;
        }
        let age = fs::metadata(&path)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|m| SystemTime::now().duration_since(m).ok())
            .map(|d| d.as_secs_f64())
            .unwrap_or(0.0);
        Some((c.to_string(), age))
    }

    /// Remove temp files a crash mid-write left behind (`write_atomic` never renamed them).
    /// Call only while holding the state dir's lock: then nobody else is writing here.
    pub fn sweep_temp_files(&self) -> usize {
        let Ok(entries) = fs::read_dir(&self.dir) else {
            return 0;
        };
        entries
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with(".tmp-"))
            .filter(|e| fs::remove_file(e.path()).is_ok())
            .count()
    }

    pub fn save_cursor(&self, cursor: &str) -> Result<()> {
        write_atomic(&self.dir.join("watch_cursor"), cursor.as_bytes())
    }

    /// Streamed to the file: at 10,000 sessions the document as one string was megabytes more
    /// of peak RSS every few seconds.
    pub fn save_status(&self, status: &super::report::StatusFile) -> Result<()> {
        write_atomic_with(&self.dir.join("status.json"), |w| {
            serde_json::to_writer_pretty(w, status).map_err(Into::into)
        })
    }

    /// The status file; `None` when missing or unreadable (fields it lacks, written by an older
    /// orchestrator, take their defaults).
    pub fn status(&self) -> Option<super::report::StatusFile> {
        let text = fs::read_to_string(self.dir.join("status.json")).ok()?;
        serde_json::from_str(&text).ok()
    }

    /// The sleeping sessions this instance knows, with their absence clocks (`sleepers.json`).
    /// An unreadable file is an empty record with a warning: a clock that starts over delays a
    /// retention deletion, never hastens one.
    pub fn sleepers(&self) -> BTreeMap<String, Sleeper> {
        let path = self.dir.join("sleepers.json");
        match fs::read_to_string(&path) {
            Ok(text) => serde_json::from_str(&text).unwrap_or_else(|e| {
                tracing::warn!("ignoring {}: {e}", path.display());
                BTreeMap::new()
            }),
            Err(_) => BTreeMap::new(),
        }
    }

    pub fn save_sleepers(&self, sleepers: &BTreeMap<String, Sleeper>) -> Result<()> {
        write_atomic(
            &self.dir.join("sleepers.json"),
            serde_json::to_string_pretty(sleepers)?.as_bytes(),
        )
    }

    /// The site holding this outpost's claims and sleepers (`provider.json`); `None` when none
    /// is recorded (a new state dir, or one written before sites were recorded). A file that
    /// cannot be read is an error, not `None`: guessing could serve a session a second time.
    pub fn site(&self) -> Result<Option<Site>> {
        let path = self.dir.join("provider.json");
        match fs::read_to_string(&path) {
            Ok(text) => serde_json::from_str(&text).map(Some).map_err(|e| {
                StateError {
                    message: format!("cannot read {}: {e}", path.display()),
                    hint: "restore the file from a backup, or delete it: the next start then \
                           checks where the held sessions' sandboxes are"
                        .to_string(),
                }
                .into()
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(anyhow::Error::new(e).context(format!("cannot read {}", path.display()))),
        }
    }

    pub fn save_site(&self, site: &Site) -> Result<()> {
        write_atomic(
            &self.dir.join("provider.json"),
            serde_json::to_string_pretty(site)?.as_bytes(),
        )
    }
}

impl OutpostState {
    /// The sessions this instance saw `terminated`, with when (`terminated.json`), younger than
    /// [`TERMINATED_KEEP`]. Remembered across restarts because a queue row is swept soon after
    /// its release or claim expiry: a termination seen just before a crash would otherwise
    /// read as an absence (= asleep) afterwards, and the sandbox would be kept as a sleeper.
    /// An unreadable file is an empty record with a warning (the janitor then keeps, never
    /// deletes, what it cannot explain).
    pub fn terminated(&self, now: f64) -> BTreeMap<String, f64> {
        let path = self.dir.join("terminated.json");
        let mut seen: BTreeMap<String, f64> = match fs::read_to_string(&path) {
            Ok(text) => serde_json::from_str(&text).unwrap_or_else(|e| {
                tracing::warn!("ignoring {}: {e}", path.display());
                BTreeMap::new()
            }),
            Err(_) => BTreeMap::new(),
        };
        seen.retain(|_, at| *at > now - TERMINATED_KEEP);
        seen
    }

    /// Write the record (entries older than [`TERMINATED_KEEP`] are left out).
    pub fn save_terminated(&self, seen: &BTreeMap<String, f64>, now: f64) -> Result<()> {
        let kept: BTreeMap<&String, &f64> = seen
            .iter()
            .filter(|(_, at)| **at > now - TERMINATED_KEEP)
            .collect();
        write_atomic(
            &self.dir.join("terminated.json"),
            serde_json::to_string(&kept)?.as_bytes(),
        )
    }
}

/// How long a seen termination is remembered: far longer than any sweep delay or claim expiry,
/// short enough that the record stays small.
pub const TERMINATED_KEEP: f64 = 7.0 * 86_400.0;

/// `ACCEPTOR_ID` as configured: checked before anything is sent (exit 2 naming it).
pub fn check_acceptor(id: &str) -> Result<(), StateError> {
    validate_acceptor(id).map_err(|p| StateError {
        message: format!("ACCEPTOR_ID {p}"),
        hint: "use letters, digits, `-`, `_`, `.` (≤ 128)".to_string(),
    })
}

fn validate_acceptor(id: &str) -> Result<(), String> {
    if id.is_empty() {
        return Err("is empty".into());
    }
    if id.len() > 128
        || !id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        return Err("is not a valid acceptor id".into());
    }
    Ok(())
}

fn create_private_dir(dir: &Path) -> Result<()> {
    fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    set_mode(dir, 0o700);
    Ok(())
}

fn set_mode(path: &Path, mode: u32) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = fs::set_permissions(path, fs::Permissions::from_mode(mode));
    }
    #[cfg(not(unix))]
    let _ = (path, mode);
}

/// Write `bytes` to `path` so that a crash leaves either the old or the new content: a 0600
/// temp file in the same directory, fsync, rename, fsync the directory.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomic_with(path, |w| w.write_all(bytes).map_err(Into::into))
}

/// [`write_atomic`], the content written by `fill` through a buffer.
pub(crate) fn write_atomic_with(
    path: &Path,
    fill: impl FnOnce(&mut std::io::BufWriter<&mut File>) -> Result<()>,
) -> Result<()> {
    let dir = path.parent().unwrap_or_else(|| Path::new("."));
    let mut tmp = tempfile::Builder::new()
        .prefix(".tmp-")
        .tempfile_in(dir)
        .with_context(|| format!("cannot write in {}", dir.display()))?;
    set_mode(tmp.path(), 0o600);
    {
        let mut w = std::io::BufWriter::new(tmp.as_file_mut());
        fill(&mut w)?;
        w.flush()?;
    }
    tmp.as_file().sync_all()?;
    crate::failpoint!("state.before_rename");
    tmp.persist(path)
        .map_err(|e| anyhow::anyhow!("cannot replace {}: {}", path.display(), e.error))?;
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn acceptor_id_is_stable_and_private() {
        let d = tempfile::tempdir().unwrap();
        let sd = StateDir::open(&d.path().join("s")).unwrap();
        let o = sd.outpost("outpost_env-1").unwrap();
        let a = o.acceptor_id(None).unwrap();
        assert!(a.starts_with("devin-outposts-"));
        assert_eq!(o.acceptor_id(None).unwrap(), a);
        // Another outpost, another identity.
        assert_ne!(
            sd.outpost("outpost_env-2")
                .unwrap()
                .acceptor_id(None)
                .unwrap(),
            a
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode(sd.root()), 0o700);
            assert_eq!(mode(o.dir()), 0o700);
            assert_eq!(mode(&o.dir().join("acceptor_id")), 0o600);
        }
    }

    #[test]
    fn corrupt_acceptor_is_an_error_not_a_new_identity() {
        let d = tempfile::tempdir().unwrap();
        let o = StateDir::open(d.path()).unwrap().outpost("x").unwrap();
        fs::write(o.dir().join("acceptor_id"), b"\x00\xffgarbage").unwrap();
        let err = o.acceptor_id(None).unwrap_err();
        assert!(err.to_string().contains("acceptor id"), "{err}");
        fs::write(o.dir().join("acceptor_id"), b"").unwrap();
        assert!(o.acceptor_id(None).is_err());
        assert_eq!(o.acceptor_id(Some("fixed-1")).unwrap(), "fixed-1");
        assert_eq!(o.acceptor_id(None).unwrap(), "fixed-1");
    }

    #[test]
    fn cursor_round_trip_and_garbage_ignored() {
        let d = tempfile::tempdir().unwrap();
        let o = StateDir::open(d.path()).unwrap().outpost("x").unwrap();
        assert!(o.cursor().is_none());
        o.save_cursor("djE6MTc4MTA1MDAwMC4w").unwrap();
        assert_eq!(o.cursor().unwrap().0, "djE6MTc4MTA1MDAwMC4w");
        fs::write(o.dir().join("watch_cursor"), b"bad\x07cursor").unwrap();
        assert!(o.cursor().is_none());
    }

    #[test]
    fn terminations_survive_a_restart_for_a_week_and_garbage_is_ignored() {
        let d = tempfile::tempdir().unwrap();
        let o = StateDir::open(d.path()).unwrap().outpost("x").unwrap();
        let now = 1_000_000_000.0;
        assert!(o.terminated(now).is_empty());
        let seen = BTreeMap::from([
            ("fresh".to_string(), now - 60.0),
            ("old".to_string(), now - TERMINATED_KEEP - 1.0),
        ]);
        o.save_terminated(&seen, now).unwrap();
        let back = o.terminated(now);
        assert_eq!(back.keys().collect::<Vec<_>>(), ["fresh"]);
        // A week on, the fresh one is pruned too.
        assert!(o.terminated(now + TERMINATED_KEEP).is_empty());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let m = fs::metadata(o.dir().join("terminated.json")).unwrap();
            assert_eq!(m.permissions().mode() & 0o777, 0o600);
        }
        fs::write(o.dir().join("terminated.json"), b"{not json").unwrap();
        assert!(o.terminated(now).is_empty());
    }

    #[test]
    fn temp_files_of_a_crashed_write_are_swept() {
        let d = tempfile::tempdir().unwrap();
        let o = StateDir::open(d.path()).unwrap().outpost("x").unwrap();
        o.save_cursor("c1").unwrap();
        fs::write(o.dir().join(".tmp-abc123"), b"half").unwrap();
        assert_eq!(o.sweep_temp_files(), 1);
        assert_eq!(o.cursor().unwrap().0, "c1");
        assert_eq!(o.sweep_temp_files(), 0);
    }

    #[test]
    fn the_site_round_trips_and_a_missing_one_is_none() {
        let d = tempfile::tempdir().unwrap();
        let o = StateDir::open(d.path()).unwrap().outpost("x").unwrap();
        // A state dir from before sites were recorded: its other files load, no site.
        fs::write(o.dir().join("sleepers.json"), b"{}").unwrap();
        assert!(o.site().unwrap().is_none());
        let site = Site {
            provider: crate::provider::ProviderKind::Local,
            endpoint: "/srv/sandboxes".into(),
        };
        o.save_site(&site).unwrap();
        assert_eq!(o.site().unwrap(), Some(site));
        fs::write(o.dir().join("provider.json"), b"{broken").unwrap();
        let err = o.site().unwrap_err();
        assert!(err.downcast_ref::<StateError>().is_some(), "{err}");
    }

    #[test]
    fn second_lock_fails_with_usage_error() {
        let d = tempfile::tempdir().unwrap();
        let sd = StateDir::open(d.path()).unwrap();
        let _held = sd.lock().unwrap();
        assert!(sd.is_locked());
        let err = sd.lock().unwrap_err();
        assert!(err.downcast_ref::<StateError>().is_some());
        assert!(err.to_string().contains("another orchestrator"));
    }
}
