//! The sandbox's private tree on the host: its fixed skeleton, and repairs of links a sandbox
//! process may plant where a mount point or bind must be a real directory.

use std::fs;
use std::io;
use std::os::unix::fs::symlink;
use std::path::Path;

use super::paths::HOST_TOPS;

/// Create the fixed skeleton of a sandbox tree: private directories, and the mount points and
/// `/bin`-style symlinks of host binds. Safe to call before every launch.
pub(super) fn prepare_tree(fs_root: &Path, home: &str) -> io::Result<()> {
    for d in [
        "workspace",
        "home",
        "root",
        "tmp",
        "opt",
        "var/log",
        "var/tmp",
        "var/lib",
        "var/cache",
        "run",
        "mnt",
        "srv",
    ] {
        fs::create_dir_all(fs_root.join(d))?;
    }
    use std::os::unix::fs::PermissionsExt;
    for t in ["tmp", "var/tmp"] {
        fs::set_permissions(fs_root.join(t), fs::Permissions::from_mode(0o1777))?;
    }
    fs::set_permissions(fs_root.join("root"), fs::Permissions::from_mode(0o700))?;
    let home_rel = home.trim_start_matches('/');
    if !home_rel.is_empty() {
        fs::create_dir_all(fs_root.join(home_rel))?;
    }
    for top in HOST_TOPS {
        let host = Path::new("/").join(top);
        let inside = fs_root.join(top);
        match fs::symlink_metadata(&host) {
            Ok(m) if m.file_type().is_symlink() => {
                let target = fs::read_link(&host)?;
                if fs::read_link(&inside).ok().as_deref() != Some(target.as_path()) {
                    remove_any(&inside)?;
                    symlink(&target, &inside)?;
                }
            }
            Ok(m) if m.is_dir() => ensure_dir_no_links(fs_root, top)?,
            _ => {}
        }
    }
    Ok(())
}

pub(super) fn remove_any(p: &Path) -> io::Result<()> {
    match fs::symlink_metadata(p) {
        Ok(m) if m.is_dir() => super::store::remove_tree(p),
        Ok(_) => fs::remove_file(p),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

/// Make `rel` (under `root`) a chain of real directories: a symlink planted by a sandbox process
/// where a bind goes must not steer bubblewrap's `mkdir` onto the host.
pub(super) fn ensure_dir_no_links(root: &Path, rel: &str) -> io::Result<()> {
    let mut p = root.to_path_buf();
    for c in rel.split('/').filter(|c| !c.is_empty() && *c != ".") {
        if c == ".." {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "`..` in a bind path",
            ));
        }
        p.push(c);
        match fs::symlink_metadata(&p) {
            Ok(m) if m.is_dir() && !m.file_type().is_symlink() => {}
            Ok(_) => {
                remove_any(&p)?;
                fs::create_dir(&p)?;
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => fs::create_dir(&p)?,
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Same for a file bind: parents are real directories, the leaf a regular (possibly empty) file.
pub(super) fn ensure_file_no_links(root: &Path, rel: &str) -> io::Result<()> {
    let (parent, leaf) = rel.rsplit_once('/').unwrap_or(("", rel));
    ensure_dir_no_links(root, parent)?;
    let p = root.join(parent.trim_start_matches('/')).join(leaf);
    match fs::symlink_metadata(&p) {
        Ok(m) if m.is_file() => Ok(()),
        Ok(_) => {
            remove_any(&p)?;
            fs::write(&p, b"")
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => fs::write(&p, b""),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tree_skeleton_and_planted_links_are_repaired() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        prepare_tree(root, "/root").unwrap();
        for d in ["workspace", "home", "tmp", "root", "var/log", "opt", "run"] {
            assert!(root.join(d).is_dir(), "{d}");
        }
        // A sandbox process replaces a mount point with a link to the host.
        let host = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(root.join("opt")).unwrap();
        std::fs::remove_dir(root.join("opt")).unwrap();
        symlink(host.path(), root.join("opt")).unwrap();
        ensure_dir_no_links(root, "opt/fake/bin").unwrap();
        assert!(!root.join("opt").is_symlink());
        assert!(root.join("opt/fake/bin").is_dir());
        assert_eq!(std::fs::read_dir(host.path()).unwrap().count(), 0);
    }
}
