//! The per-session summary of the last sleep's manifest, one small file each in
//! `<outpost state>/integrity/` (written temp+fsync+rename like every state file): it must
//! outlive an orchestrator restart between the sleep and the wake.

use crate::orchestrator::SessionId;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::Summary;

fn path(dir: &Path, session: &SessionId) -> PathBuf {
    let h = hex::encode(Sha256::digest(session.as_bytes()));
    dir.join("integrity").join(format!("{}.json", &h[..32]))
}

pub(super) fn load(dir: &Path, session: &SessionId) -> Option<Summary> {
    let bytes = std::fs::read(path(dir, session)).ok()?;
    serde_json::from_slice(&bytes).ok()
}

pub(super) fn save(dir: &Path, session: &SessionId, summary: &Summary) -> anyhow::Result<()> {
    let p = path(dir, session);
    if let Some(parent) = p.parent() {
        std::fs::create_dir_all(parent)?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let private = std::fs::Permissions::from_mode(0o700);
            let _ = std::fs::set_permissions(parent, private);
        }
    }
    crate::orchestrator::state::write_atomic(&p, &serde_json::to_vec(summary)?)
}

pub(super) fn remove(dir: &Path, session: &SessionId) {
    let _ = std::fs::remove_file(path(dir, session));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saved_loaded_removed() {
        let d = tempfile::tempdir().unwrap();
        assert_eq!(load(d.path(), &"s".into()), None);
        let s = Summary {
            files: 3,
            digest: "d".repeat(64),
            ..Summary::default()
        };
        save(d.path(), &"s".into(), &s).unwrap();
        assert_eq!(load(d.path(), &"s".into()), Some(s));
        assert_eq!(load(d.path(), &"t".into()), None);
        remove(d.path(), &"s".into());
        assert_eq!(load(d.path(), &"s".into()), None);
    }
}
