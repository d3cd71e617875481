//! Copying directory trees between a sandbox's private tree and the emulator's data dir.
//!
//! Sandbox processes own the files on one side, so a copy must never follow a link they planted
//! (`/workspace/x -> /home/<you>/.ssh` would otherwise carry host files into a snapshot and on
//! into the next sandbox). Every step is fd-relative and refuses symlinks (`O_NOFOLLOW`): a
//! directory is entered only through an fd opened on it, a file is read only through an fd whose
//! `fstat` says it is a regular file, and a symlink is copied as a symlink, never resolved.
//! Other file types (sockets, fifos, devices) are skipped: a snapshot keeps files only.

use std::ffi::{CStr, CString, OsStr};
use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

/// Deeper trees are refused rather than copied (one fd and one stack frame per level).
const MAX_DEPTH: usize = 256;

fn cstr(name: &OsStr) -> io::Result<CString> {
    CString::new(name.as_bytes()).map_err(|_| io::Error::from_raw_os_error(libc::EINVAL))
}

fn check(rc: libc::c_int) -> io::Result<libc::c_int> {
    if rc < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(rc)
    }
}

fn openat(
    dir: &OwnedFd,
    name: &CStr,
    flags: libc::c_int,
    mode: libc::mode_t,
) -> io::Result<OwnedFd> {
    // SAFETY: a valid dirfd and a NUL-terminated name; the mode is passed as the variadic arg.
    let fd = check(unsafe {
        libc::openat(
            dir.as_raw_fd(),
            name.as_ptr(),
            flags | libc::O_CLOEXEC | libc::O_NOFOLLOW,
            mode as libc::c_uint,
        )
    })?;
    // SAFETY: the kernel returned a new fd that we now own.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

fn open_dir_at(dir: &OwnedFd, name: &CStr) -> io::Result<OwnedFd> {
    openat(dir, name, libc::O_RDONLY | libc::O_DIRECTORY, 0)
}

fn fstat(fd: &OwnedFd) -> io::Result<libc::stat> {
    // SAFETY: `st` is written by the kernel before it is read.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    check(unsafe { libc::fstat(fd.as_raw_fd(), &mut st) })?;
    Ok(st)
}

fn lstat_at(dir: &OwnedFd, name: &CStr) -> io::Result<libc::stat> {
    // SAFETY: as in `fstat`; AT_SYMLINK_NOFOLLOW describes a link itself.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    check(unsafe {
        libc::fstatat(
            dir.as_raw_fd(),
            name.as_ptr(),
            &mut st,
            libc::AT_SYMLINK_NOFOLLOW,
        )
    })?;
    Ok(st)
}

fn is(st: &libc::stat, kind: libc::mode_t) -> bool {
    st.st_mode & libc::S_IFMT == kind
}

/// Permission bits worth keeping: no set-id bits (nothing in a sandbox may gain privilege).
fn perm(st: &libc::stat) -> libc::mode_t {
    st.st_mode & 0o1777
}

/// Keep the source's modification time (tools like make and git look at it).
fn keep_times(fd: &OwnedFd, st: &libc::stat) {
    let times = [
        libc::timespec {
            tv_sec: st.st_atime,
            tv_nsec: st.st_atime_nsec,
        },
        libc::timespec {
            tv_sec: st.st_mtime,
            tv_nsec: st.st_mtime_nsec,
        },
    ];
    // SAFETY: a valid fd and two timespecs. Best effort: a copy with new times is still a copy.
    unsafe { libc::futimens(fd.as_raw_fd(), times.as_ptr()) };
}

/// The directory at `root/comps…`, every component a real directory, never a symlink. With
/// `create`, missing components are made (0755); without, a missing one gives `Ok(None)`.
pub fn descend(root: &Path, comps: &[String], create: bool) -> io::Result<Option<OwnedFd>> {
    // The root itself is ours (the sandbox tree's directory or the data dir), not sandbox-made.
    let mut dir = OwnedFd::from(
        std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_DIRECTORY | libc::O_CLOEXEC)
            .open(root)?,
    );
    for c in comps {
        let name = cstr(OsStr::new(c))?;
        if create {
            // SAFETY: a valid dirfd and a NUL-terminated name.
            let rc = unsafe { libc::mkdirat(dir.as_raw_fd(), name.as_ptr(), 0o755) };
            if rc < 0 {
                let e = io::Error::last_os_error();
                if e.raw_os_error() != Some(libc::EEXIST) {
                    return Err(e);
                }
            }
        }
        dir = match open_dir_at(&dir, &name) {
            Ok(d) => d,
            Err(e) if !create && e.raw_os_error() == Some(libc::ENOENT) => return Ok(None),
            // O_NOFOLLOW with O_DIRECTORY fails on a link with ENOTDIR (or ELOOP): say which.
            Err(e) if matches!(e.raw_os_error(), Some(libc::ENOTDIR | libc::ELOOP)) => {
                let link = lstat_at(&dir, &name).is_ok_and(|st| is(&st, libc::S_IFLNK));
                return Err(io::Error::other(if link {
                    format!("{c} is a symbolic link; volumes are copied without following links")
                } else {
                    format!("{c} is not a directory")
                }));
            }
            Err(e) => return Err(e),
        };
    }
    Ok(Some(dir))
}

/// Copy the contents of directory `src` into directory `dst` (existing entries of the same name
/// are replaced). Returns the bytes of regular files copied.
pub fn copy_dir(src: &OwnedFd, dst: &OwnedFd) -> io::Result<u64> {
    copy_level(src, dst, 0)
}

fn copy_level(src: &OwnedFd, dst: &OwnedFd, depth: usize) -> io::Result<u64> {
    if depth > MAX_DEPTH {
        return Err(io::Error::other(format!(
            "the tree is deeper than {MAX_DEPTH} levels"
        )));
    }
    // `/proc/self/fd/N` is the directory the fd holds (the same inode), wherever it now is.
    let entries = std::fs::read_dir(format!("/proc/self/fd/{}", src.as_raw_fd()))?;
    let mut bytes = 0u64;
    for entry in entries {
        let entry = entry?;
        let name = cstr(&entry.file_name())?;
        let st = match lstat_at(src, &name) {
            Ok(st) => st,
            // Gone since the listing: a live sandbox changes its files while we copy.
            Err(e) if e.raw_os_error() == Some(libc::ENOENT) => continue,
            Err(e) => return Err(e),
        };
        if is(&st, libc::S_IFDIR) {
            let from = match open_dir_at(src, &name) {
                Ok(d) => d,
                Err(e)
                    if matches!(
                        e.raw_os_error(),
                        Some(libc::ENOENT | libc::ELOOP | libc::ENOTDIR)
                    ) =>
                {
                    continue;
                }
                Err(e) => return Err(e),
            };
            // SAFETY: a valid dirfd and a NUL-terminated name.
            let rc = unsafe { libc::mkdirat(dst.as_raw_fd(), name.as_ptr(), 0o700) };
            if rc < 0 {
                let e = io::Error::last_os_error();
                if e.raw_os_error() != Some(libc::EEXIST) {
                    return Err(e);
                }
            }
            let to = open_dir_at(dst, &name)?;
            bytes += copy_level(&from, &to, depth + 1)?;
            // Modes last: a read-only directory must still take its contents first.
            // SAFETY: a valid fd.
            unsafe { libc::fchmod(to.as_raw_fd(), perm(&st)) };
            keep_times(&to, &st);
        } else if is(&st, libc::S_IFREG) {
            bytes += copy_file(src, dst, &name)?;
        } else if is(&st, libc::S_IFLNK) {
            copy_link(src, dst, &name)?;
        }
    }
    Ok(bytes)
}

/// Copy the regular file `name` (its mode and times too); the bytes copied, 0 when it is gone
/// or no longer a regular file.
fn copy_file(src: &OwnedFd, dst: &OwnedFd, name: &CStr) -> io::Result<u64> {
    let from = match openat(src, name, libc::O_RDONLY | libc::O_NONBLOCK, 0) {
        Ok(f) => f,
        Err(e) if matches!(e.raw_os_error(), Some(libc::ENOENT | libc::ELOOP)) => return Ok(0),
        Err(e) => return Err(e),
    };
    let st = fstat(&from)?;
    if !is(&st, libc::S_IFREG) {
        return Ok(0);
    }
    unlink(dst, name);
    let to = openat(
        dst,
        name,
        libc::O_WRONLY | libc::O_CREAT | libc::O_TRUNC,
        0o600,
    )?;
    let (mut r, mut w) = (File::from(from), File::from(to));
    let bytes = io::copy(&mut r, &mut w)?;
    let to = OwnedFd::from(w);
    // SAFETY: a valid fd.
    unsafe { libc::fchmod(to.as_raw_fd(), perm(&st)) };
    keep_times(&to, &st);
    Ok(bytes)
}

/// Copy the symbolic link `name` as a link (never followed); a link gone since is skipped.
fn copy_link(src: &OwnedFd, dst: &OwnedFd, name: &CStr) -> io::Result<()> {
    let mut buf = vec![0u8; libc::PATH_MAX as usize];
    // SAFETY: the buffer is as long as we say; readlinkat does not NUL-terminate.
    let n = unsafe {
        libc::readlinkat(
            src.as_raw_fd(),
            name.as_ptr(),
            buf.as_mut_ptr().cast(),
            buf.len(),
        )
    };
    if n < 0 {
        return Ok(());
    }
    buf.truncate(n as usize);
    let target = cstr(OsStr::from_bytes(&buf))?;
    unlink(dst, name);
    // SAFETY: NUL-terminated target and name, a valid dirfd.
    check(unsafe { libc::symlinkat(target.as_ptr(), dst.as_raw_fd(), name.as_ptr()) })?;
    Ok(())
}

/// Remove a non-directory entry before replacing it (a planted link must not be written through).
fn unlink(dir: &OwnedFd, name: &CStr) {
    // SAFETY: a valid dirfd and a NUL-terminated name; a missing entry is fine.
    unsafe { libc::unlinkat(dir.as_raw_fd(), name.as_ptr(), 0) };
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::{PermissionsExt, symlink};

    #[test]
    fn copies_files_dirs_and_links_without_following_them() {
        let t = tempfile::tempdir().unwrap();
        let (src, dst, outside) = (
            t.path().join("src"),
            t.path().join("dst"),
            t.path().join("x"),
        );
        std::fs::create_dir_all(src.join("a/b")).unwrap();
        std::fs::create_dir_all(&dst).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(outside.join("secret"), "host file").unwrap();
        std::fs::write(src.join("a/b/f.txt"), "hello").unwrap();
        std::fs::set_permissions(src.join("a/b/f.txt"), PermissionsExt::from_mode(0o750)).unwrap();
        symlink(&outside, src.join("a/escape")).unwrap();
        let from = descend(&src, &[], false).unwrap().unwrap();
        let to = descend(&dst, &[], false).unwrap().unwrap();
        assert_eq!(copy_dir(&from, &to).unwrap(), 5);
        assert_eq!(
            std::fs::read_to_string(dst.join("a/b/f.txt")).unwrap(),
            "hello"
        );
        let mode = std::fs::metadata(dst.join("a/b/f.txt"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o750);
        // The link is copied as a link, and nothing behind it came along.
        assert_eq!(std::fs::read_link(dst.join("a/escape")).unwrap(), outside);
        assert!(
            std::fs::symlink_metadata(dst.join("a/escape"))
                .unwrap()
                .is_symlink()
        );
    }

    #[test]
    fn descend_refuses_links_and_creates_on_request() {
        let t = tempfile::tempdir().unwrap();
        symlink("/etc", t.path().join("workspace")).unwrap();
        let err = descend(t.path(), &["workspace".into()], true).unwrap_err();
        assert!(err.to_string().contains("symbolic link"), "{err}");
        assert!(
            descend(t.path(), &["none".into()], false)
                .unwrap()
                .is_none()
        );
        assert!(
            descend(t.path(), &["new".into(), "deep".into()], true)
                .unwrap()
                .is_some()
        );
        assert!(t.path().join("new/deep").is_dir());
    }
}
