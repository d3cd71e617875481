//! Sandbox paths → the sandbox's private tree, without ever touching the host.
//!
//! A sandbox path is resolved the way the sandbox itself would see it, but confined to the
//! sandbox's `fs/` directory: the kernel's `openat2(RESOLVE_IN_ROOT)` treats that directory as
//! `/` for `..` and for absolute symlinks, so a link planted by a sandbox process (say
//! `/workspace/x -> /etc`) resolves inside the sandbox, never on the host, and there is no
//! check-then-use race. Paths that the sandbox sees as read-only host binds (`/usr`, `/etc`,
//! `/proc`, extra binds …) are refused: writing "behind" a bind would be invisible in the sandbox.

use std::ffi::CString;
use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use crate::provider::ProviderError;

/// Largest file `read_file` returns.
pub(super) const MAX_READ: u64 = 512 * 1024 * 1024;

/// Top-level sandbox directories that are host binds, mount points or symlinks into them.
pub(super) const HOST_TOPS: &[&str] = &[
    "usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32", "etc", "proc", "dev", "sys",
];

/// Normalise a sandbox path to its components: relative paths are relative to `home`; `.` and
/// empty components vanish; `..` may not climb above `/`.
pub(super) fn components(path: &str, home: &str) -> Result<Vec<String>, ProviderError> {
    if path.is_empty() {
        return Err(ProviderError::Invalid("the path is empty".into()));
    }
    if path.contains('\0') {
        return Err(ProviderError::Invalid(
            "the path contains a NUL character".into(),
        ));
    }
    let full = if path.starts_with('/') {
        path.to_string()
    } else {
        format!("{home}/{path}")
    };
    let mut out: Vec<String> = Vec::new();
    for c in full.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                if out.pop().is_none() {
                    return Err(ProviderError::Invalid(format!(
                        "{path:?} climbs above the sandbox's root"
                    )));
                }
            }
            c => out.push(c.to_string()),
        }
    }
    Ok(out)
}

pub(super) fn join(components: &[String]) -> String {
    format!("/{}", components.join("/"))
}

/// The sandbox's private tree and the sandbox paths that are not part of it.
pub(super) struct SandboxFs<'a> {
    pub root: &'a Path,
    pub home: &'a str,
    /// Sandbox paths of extra read-only binds.
    pub binds: Vec<String>,
}

impl SandboxFs<'_> {
    /// Components of `path` if it lies in the private tree, else an error naming the path.
    fn private(&self, path: &str) -> Result<Vec<String>, ProviderError> {
        let comps = components(path, self.home)?;
        if comps.is_empty() {
            return Err(ProviderError::Invalid(format!("{path:?} is a directory")));
        }
        self.check_private(path, &comps)?;
        Ok(comps)
    }

    fn check_private(&self, shown: &str, comps: &[String]) -> Result<(), ProviderError> {
        let joined = join(comps);
        let host_bound = comps
            .first()
            .is_some_and(|top| HOST_TOPS.contains(&top.as_str()))
            || self.binds.iter().any(|b| {
                joined == *b || joined.starts_with(&format!("{}/", b.trim_end_matches('/')))
            });
        if host_bound {
            return Err(ProviderError::Invalid(format!(
                "{shown:?} is a read-only host path inside the sandbox"
            )));
        }
        Ok(())
    }

    fn open_root(&self) -> Result<OwnedFd, ProviderError> {
        let f = File::open(self.root).map_err(|e| {
            ProviderError::Other(format!(
                "cannot open the sandbox tree {}: {e}",
                self.root.display()
            ))
        })?;
        Ok(OwnedFd::from(f))
    }

    /// Where an opened fd really is, relative to the sandbox root; refuses anything outside.
    fn confined(&self, shown: &str, fd: &OwnedFd) -> Result<Vec<String>, ProviderError> {
        let real = std::fs::read_link(format!("/proc/self/fd/{}", fd.as_raw_fd()))
            .map_err(|e| ProviderError::Other(format!("cannot check {shown:?}: {e}")))?;
        let rel = real.strip_prefix(self.root).map_err(|_| {
            ProviderError::Invalid(format!("{shown:?} resolves outside the sandbox"))
        })?;
        let comps: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        if !comps.is_empty() {
            self.check_private(shown, &comps)?;
        }
        Ok(comps)
    }

    /// Contents of the file, `None` when it does not exist.
    pub fn read(&self, path: &str) -> Result<Option<Vec<u8>>, ProviderError> {
        let comps = self.private(path)?;
        let root = self.open_root()?;
        let flags = libc::O_RDONLY | libc::O_CLOEXEC | libc::O_NOCTTY | libc::O_NONBLOCK;
        let fd = match open_in_root(&root, &comps.join("/"), flags, 0) {
            Ok(fd) => fd,
            Err(e) if is_missing(&e) => return Ok(None),
            Err(e) => return Err(fs_error("read", path, e)),
        };
        self.confined(path, &fd)?;
        let mut f = File::from(fd);
        let meta = f.metadata().map_err(|e| fs_error("read", path, e))?;
        if meta.is_dir() {
            return Err(ProviderError::Invalid(format!("{path:?} is a directory")));
        }
        if !meta.is_file() {
            return Err(ProviderError::Invalid(format!(
                "{path:?} is not a regular file"
            )));
        }
        if meta.len() > MAX_READ {
            return Err(ProviderError::Invalid(format!(
                "{path:?} is {} bytes; the local provider reads files up to {MAX_READ} bytes",
                meta.len()
            )));
        }
        let mut buf = Vec::with_capacity(meta.len() as usize);
        (&mut f)
            .take(MAX_READ)
            .read_to_end(&mut buf)
            .map_err(|e| fs_error("read", path, e))?;
        Ok(Some(buf))
    }

    /// Write (replace) the file, creating parent directories; atomic via rename.
    pub fn write(&self, path: &str, data: &[u8]) -> Result<(), ProviderError> {
        let comps = self.private(path)?;
        let (name, parents) = comps
            .split_last()
            .ok_or_else(|| ProviderError::Invalid(format!("{path:?} is a directory")))?;
        let root = self.open_root()?;
        let dir = self.mkdirs(path, &root, parents)?;
        self.confined(path, &dir)?;
        let tmp = format!(".{name}.outposts-{}", uuid::Uuid::new_v4().simple());
        let tmp_c = cstring(&tmp)?;
        let name_c = cstring(name)?;
        // SAFETY: plain syscall on a valid dirfd and NUL-terminated names.
        let raw = unsafe {
            libc::openat(
                dir.as_raw_fd(),
                tmp_c.as_ptr(),
                libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL | libc::O_NOFOLLOW | libc::O_CLOEXEC,
                0o644 as libc::c_uint,
            )
        };
        if raw < 0 {
            return Err(fs_error("write", path, io::Error::last_os_error()));
        }
        // SAFETY: `raw` is a fresh fd we own.
        let mut f = unsafe { File::from_raw_fd(raw) };
        let written = f.write_all(data).and_then(|_| f.sync_all());
        drop(f);
        let renamed = written.and_then(|_| {
            // SAFETY: as above; rename within one directory fd never follows a symlink at `name`.
            let rc = unsafe {
                libc::renameat(
                    dir.as_raw_fd(),
                    tmp_c.as_ptr(),
                    dir.as_raw_fd(),
                    name_c.as_ptr(),
                )
            };
            if rc < 0 {
                Err(io::Error::last_os_error())
            } else {
                Ok(())
            }
        });
        if let Err(e) = renamed {
            // SAFETY: as above.
            unsafe { libc::unlinkat(dir.as_raw_fd(), tmp_c.as_ptr(), 0) };
            return Err(fs_error("write", path, e));
        }
        Ok(())
    }

    /// Open (creating as needed) the directory `parents`, each step resolved inside the root.
    fn mkdirs(
        &self,
        shown: &str,
        root: &OwnedFd,
        parents: &[String],
    ) -> Result<OwnedFd, ProviderError> {
        let dir_flags = libc::O_PATH | libc::O_DIRECTORY | libc::O_CLOEXEC;
        let mut current =
            open_in_root(root, ".", dir_flags, 0).map_err(|e| fs_error("write", shown, e))?;
        for (i, comp) in parents.iter().enumerate() {
            let prefix = parents[..=i].join("/");
            match open_in_root(root, &prefix, dir_flags, 0) {
                Ok(fd) => current = fd,
                Err(e) if e.raw_os_error() == Some(libc::ENOENT) => {
                    // The parent (`current`) is already confined; create the next step in it.
                    self.confined(shown, &current)?;
                    let c = cstring(comp)?;
                    // SAFETY: valid dirfd and NUL-terminated name.
                    let rc = unsafe { libc::mkdirat(current.as_raw_fd(), c.as_ptr(), 0o755) };
                    if rc < 0 {
                        let err = io::Error::last_os_error();
                        if err.raw_os_error() != Some(libc::EEXIST) {
                            return Err(fs_error("write", shown, err));
                        }
                    }
                    current = open_in_root(root, &prefix, dir_flags, 0)
                        .map_err(|e| fs_error("write", shown, e))?;
                }
                Err(e) => return Err(fs_error("write", shown, e)),
            }
        }
        Ok(current)
    }

    /// Whether `path` is an existing directory as the sandbox sees it (host binds excluded).
    pub fn is_private_dir(&self, path: &str) -> Result<bool, ProviderError> {
        let comps = components(path, self.home)?;
        if comps.is_empty() {
            return Ok(true);
        }
        let root = self.open_root()?;
        let flags = libc::O_PATH | libc::O_DIRECTORY | libc::O_CLOEXEC;
        match open_in_root(&root, &comps.join("/"), flags, 0) {
            Ok(_) => Ok(true),
            Err(e) if is_missing(&e) => Ok(false),
            Err(e) => Err(fs_error("open", path, e)),
        }
    }

    /// Host path of a sandbox path (unisolated mode runs processes on the host).
    pub fn host_path(&self, path: &str) -> Result<PathBuf, ProviderError> {
        let comps = components(path, self.home)?;
        let mut p = self.root.to_path_buf();
        for c in comps {
            p.push(c);
        }
        Ok(p)
    }
}

fn is_missing(e: &io::Error) -> bool {
    matches!(e.raw_os_error(), Some(libc::ENOENT) | Some(libc::ENOTDIR))
}

fn cstring(s: &str) -> Result<CString, ProviderError> {
    CString::new(Path::new(s).as_os_str().as_bytes())
        .map_err(|_| ProviderError::Invalid("the path contains a NUL character".into()))
}

fn fs_error(op: &str, path: &str, e: io::Error) -> ProviderError {
    match e.raw_os_error() {
        Some(libc::ENOSYS) => ProviderError::Other(
            "this kernel lacks openat2 (Linux 5.6 or newer is needed for sandbox file access)"
                .into(),
        ),
        Some(libc::EXDEV) | Some(libc::ELOOP) => ProviderError::Invalid(format!(
            "cannot {op} {path:?}: it resolves outside the sandbox or through too many links"
        )),
        Some(libc::EISDIR) => ProviderError::Invalid(format!("{path:?} is a directory")),
        Some(libc::ENOTDIR) => {
            ProviderError::Invalid(format!("a parent of {path:?} is not a directory"))
        }
        _ => ProviderError::Other(format!("cannot {op} {path:?} in the sandbox: {e}")),
    }
}

/// `struct open_how` (libc's is non-exhaustive).
#[repr(C)]
struct OpenHow {
    flags: u64,
    mode: u64,
    resolve: u64,
}

/// `openat2(root, path, RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS)`.
fn open_in_root(root: &OwnedFd, path: &str, flags: i32, mode: u64) -> io::Result<OwnedFd> {
    let c =
        CString::new(path.as_bytes()).map_err(|_| io::Error::from_raw_os_error(libc::EINVAL))?;
    let how = OpenHow {
        flags: flags as u64,
        mode,
        resolve: libc::RESOLVE_IN_ROOT | libc::RESOLVE_NO_MAGICLINKS,
    };
    // SAFETY: valid dirfd, NUL-terminated path and a correctly sized `open_how`.
    let rc = unsafe {
        libc::syscall(
            libc::SYS_openat2,
            root.as_raw_fd(),
            c.as_ptr(),
            &how as *const OpenHow,
            std::mem::size_of::<OpenHow>(),
        )
    };
    if rc < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: the kernel returned a new fd that we now own.
    Ok(unsafe { OwnedFd::from_raw_fd(rc as i32) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn sfs(root: &Path) -> SandboxFs<'_> {
        SandboxFs {
            root,
            home: "/root",
            binds: vec!["/opt/fake".into()],
        }
    }

    #[test]
    fn components_normalise_and_refuse_climbing() {
        assert_eq!(components("/a/./b//c/", "/root").unwrap(), ["a", "b", "c"]);
        assert_eq!(components("x/../y", "/root").unwrap(), ["root", "y"]);
        assert!(components("/../etc/passwd", "/root").is_err());
        assert!(components("../../..", "/root").is_err());
        assert!(components("", "/root").is_err());
        assert!(components("a\0b", "/root").is_err());
    }

    #[test]
    fn write_then_read_inside_the_tree() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let s = sfs(&root);
        s.write("/workspace/deep/x.txt", b"hello").unwrap();
        assert_eq!(s.read("/workspace/deep/x.txt").unwrap().unwrap(), b"hello");
        assert_eq!(
            std::fs::read(root.join("workspace/deep/x.txt")).unwrap(),
            b"hello"
        );
        assert!(s.read("/workspace/missing").unwrap().is_none());
        assert!(
            s.read("/workspace/deep").is_err(),
            "a directory is not a file"
        );
        s.write("notes.txt", b"r").unwrap();
        assert!(
            root.join("root/notes.txt").exists(),
            "relative paths are under HOME"
        );
    }

    #[test]
    fn symlinks_cannot_leave_the_tree() {
        let host = tempfile::tempdir().unwrap();
        let outside = host.path().join("outside");
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(outside.join("secret"), b"host").unwrap();
        let root = host.path().join("sb");
        std::fs::create_dir_all(root.join("workspace")).unwrap();
        let root = root.canonicalize().unwrap();
        // An absolute link to the host directory, and a relative one climbing out.
        symlink(&outside, root.join("workspace/abs")).unwrap();
        symlink("../../outside", root.join("workspace/rel")).unwrap();
        let s = sfs(&root);
        for p in ["/workspace/abs/secret", "/workspace/rel/secret"] {
            assert!(s.read(p).unwrap().is_none(), "{p} must not reach the host");
            let _ = s.write(p, b"pwned");
        }
        assert_eq!(std::fs::read(outside.join("secret")).unwrap(), b"host");
        // A link to a host-bound directory is refused rather than written behind the bind.
        symlink("/etc", root.join("workspace/etc")).unwrap();
        assert!(s.write("/workspace/etc/passwd", b"x").is_err());
        assert!(s.write("/etc/passwd", b"x").is_err());
        assert!(s.write("/opt/fake/bin/devin", b"x").is_err());
        assert!(s.write("/proc/self/mem", b"x").is_err());
    }
}
