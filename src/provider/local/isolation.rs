//! How a sandbox process is started: inside bubblewrap, or (explicit opt-in) on the host.
//!
//! With bubblewrap the sandbox's private tree (`<sandbox>/fs`) is mounted read-write as `/`, and
//! the host's `/usr`, `/etc`, `/bin`, `/sbin`, `/lib*` and `/sys` are bound read-only on top, with
//! a fresh `/proc` and a minimal `/dev`. Everything else — `/workspace`, `/home`, `/root`, `/tmp`,
//! `/opt`, `/var`, `/run`, any new top-level directory — is the sandbox's own and survives stop.
//! The network is the host's (sandboxes reach services on 127.0.0.1). Environment values travel
//! in the process environment (bwrap passes its own through), never as `--setenv` arguments,
//! which would show in `/proc/<pid>/cmdline`.
//!
//! Without bubblewrap, sandboxes are refused unless `OUTPOSTS_LOCAL_UNISOLATED=1`: then processes
//! run as plain host processes with the working directory and `HOME` mapped into the private
//! tree — but an absolute path in a command is a host path. File operations through the
//! provider stay confined to the private tree in both modes.

use std::fs;
use std::io;
use std::os::unix::fs::symlink;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::provider::ProviderError;

use super::paths::{HOST_TOPS, SandboxFs};

/// apt/dnf package that provides `bwrap`.
pub const BWRAP_PACKAGE: &str = "bubblewrap";

/// How this provider isolates sandboxes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Isolation {
    /// bubblewrap at this path.
    Bubblewrap(PathBuf),
    /// Opted in to running without isolation (`OUTPOSTS_LOCAL_UNISOLATED=1`).
    Unisolated,
    /// No usable isolation; sandboxes are refused with this explanation.
    Unavailable(String),
}

impl Isolation {
    pub fn as_str(&self) -> &'static str {
        match self {
            Isolation::Bubblewrap(_) => "bubblewrap",
            Isolation::Unisolated => "none",
            Isolation::Unavailable(_) => "unavailable",
        }
    }

    /// Pick: `bwrap` (explicit path or `$PATH`), else unisolated when allowed, else unavailable.
    pub fn detect(explicit: Option<&Path>, allow_unisolated: bool) -> Isolation {
        let found = match explicit {
            Some(p) => Some(p.to_path_buf()).filter(|p| is_executable(p)),
            None => find_in_path("bwrap"),
        };
        match found {
            Some(p) => Isolation::Bubblewrap(p),
            None if allow_unisolated => Isolation::Unisolated,
            None => {
                Isolation::Unavailable(unavailable_message("bubblewrap (`bwrap`) is not installed"))
            }
        }
    }
}

pub(super) fn unavailable_message(problem: &str) -> String {
    format!(
        "{problem}, and the local provider will not run sandboxes without isolation. Install the \
         `{BWRAP_PACKAGE}` package (e.g. `apt-get install {BWRAP_PACKAGE}`), or set \
         OUTPOSTS_LOCAL_UNISOLATED=1 to run sandbox commands directly on this host (absolute \
         paths in commands then reach the host's files)"
    )
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

fn find_in_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| is_executable(p))
}

/// Check once that bubblewrap can create namespaces here (it cannot in some containers, or with
/// Ubuntu's AppArmor user-namespace restriction).
pub(super) async fn probe(bwrap: &Path) -> Result<(), String> {
    let out = tokio::process::Command::new(bwrap)
        .args([
            "--ro-bind",
            "/",
            "/",
            "--proc",
            "/proc",
            "--dev",
            "/dev",
            "--unshare-uts",
            "--unshare-ipc",
            "--",
            "true",
        ])
        .env_clear()
        .stdin(std::process::Stdio::null())
        .output()
        .await
        .map_err(|e| format!("cannot run {}: {e}", bwrap.display()))?;
    if out.status.success() {
        return Ok(());
    }
    let err = String::from_utf8_lossy(&out.stderr).trim().to_string();
    Err(format!(
        "bubblewrap cannot create a sandbox on this host ({err}). Unprivileged user namespaces may \
         be disabled: check `sysctl kernel.unprivileged_userns_clone` and, on Ubuntu 24.04+, \
         `kernel.apparmor_restrict_unprivileged_userns`; or set OUTPOSTS_LOCAL_UNISOLATED=1 to \
         run without isolation"
    ))
}

/// One process to start in a sandbox.
pub(super) struct Launch {
    /// argv as the sandbox sees it.
    pub argv: Vec<String>,
    /// Working directory (sandbox path).
    pub cwd: String,
    /// The complete environment (secrets included: it never leaves the process environment).
    pub env: Vec<(String, String)>,
    /// Read-only binds `(host path, sandbox path)`.
    pub binds: Vec<(PathBuf, String)>,
    pub hostname: String,
}

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

fn remove_any(p: &Path) -> io::Result<()> {
    match fs::symlink_metadata(p) {
        Ok(m) if m.is_dir() => super::store::remove_tree(p),
        Ok(_) => fs::remove_file(p),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

/// Make `rel` (under `root`) a chain of real directories: a symlink planted by a sandbox process
/// where a bind goes must not steer bubblewrap's `mkdir` onto the host.
fn ensure_dir_no_links(root: &Path, rel: &str) -> io::Result<()> {
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
fn ensure_file_no_links(root: &Path, rel: &str) -> io::Result<()> {
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

/// The host command that runs `launch` in the sandbox whose tree is `fs_root`.
pub(super) fn command(
    iso: &Isolation,
    fs_root: &Path,
    home: &str,
    launch: &Launch,
) -> Result<Command, ProviderError> {
    let setup = |e: io::Error| {
        ProviderError::Other(format!(
            "cannot prepare the sandbox tree {}: {e}",
            fs_root.display()
        ))
    };
    prepare_tree(fs_root, home).map_err(setup)?;
    let mut cmd = match iso {
        Isolation::Unavailable(msg) => return Err(ProviderError::Other(msg.clone())),
        Isolation::Bubblewrap(bwrap) => {
            let mut cmd = Command::new(bwrap);
            cmd.arg("--bind").arg(fs_root).arg("/");
            for top in HOST_TOPS {
                let host = Path::new("/").join(top);
                match *top {
                    "proc" => {
                        cmd.args(["--proc", "/proc"]);
                    }
                    "dev" => {
                        cmd.args(["--dev", "/dev"]);
                    }
                    _ => {
                        let is_real_dir = fs::symlink_metadata(&host)
                            .is_ok_and(|m| m.is_dir() && !m.file_type().is_symlink());
                        if is_real_dir {
                            cmd.arg("--ro-bind").arg(&host).arg(&host);
                        }
                    }
                }
            }
            // DNS: /etc/resolv.conf often points into /run, which is private here.
            if let Some(dir) = resolv_dir() {
                ensure_dir_no_links(fs_root, &dir).map_err(setup)?;
                cmd.arg("--ro-bind").arg(&dir).arg(&dir);
            }
            for (host, inside) in &launch.binds {
                let rel = inside.trim_start_matches('/');
                if host.is_dir() {
                    ensure_dir_no_links(fs_root, rel).map_err(setup)?;
                } else {
                    ensure_file_no_links(fs_root, rel).map_err(setup)?;
                }
                cmd.arg("--ro-bind").arg(host).arg(inside);
            }
            cmd.args(["--unshare-uts", "--unshare-ipc", "--hostname"])
                .arg(&launch.hostname)
                .arg("--chdir")
                .arg(&launch.cwd)
                .arg("--")
                .args(&launch.argv);
            cmd.env_clear().envs(launch.env.iter().cloned());
            cmd
        }
        Isolation::Unisolated => {
            let sfs = SandboxFs {
                root: fs_root,
                home,
                binds: Vec::new(),
            };
            let (prog, args) = launch
                .argv
                .split_first()
                .ok_or_else(|| ProviderError::Invalid("the command is empty".into()))?;
            let mut cmd = Command::new(prog);
            cmd.args(args).current_dir(sfs.host_path(&launch.cwd)?);
            cmd.env_clear();
            for (k, v) in &launch.env {
                let v = match k.as_str() {
                    "HOME" => sfs.host_path(v)?.to_string_lossy().into_owned(),
                    "PATH" => unisolated_path(v, &sfs, &launch.binds)?,
                    _ => v.clone(),
                };
                cmd.env(k, v);
            }
            cmd
        }
    };
    cmd.stdin(std::process::Stdio::null());
    // Own session and process group: no controlling terminal, and a timeout can end the group.
    // SAFETY: setsid is async-signal-safe.
    unsafe {
        cmd.pre_exec(|| {
            if libc::setsid() < 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(())
        });
    }
    Ok(cmd)
}

/// Unisolated PATH: private-tree entries map to their host paths, bind targets to their sources,
/// host system directories stay.
fn unisolated_path(
    path: &str,
    sfs: &SandboxFs<'_>,
    binds: &[(PathBuf, String)],
) -> Result<String, ProviderError> {
    let mut out = Vec::new();
    for entry in path.split(':').filter(|e| !e.is_empty()) {
        let top = entry
            .trim_start_matches('/')
            .split('/')
            .next()
            .unwrap_or("");
        let mapped = if let Some((host, inside)) = binds.iter().find(|(_, i)| {
            entry == i || entry.starts_with(&format!("{}/", i.trim_end_matches('/')))
        }) {
            host.join(entry[inside.len()..].trim_start_matches('/'))
                .to_string_lossy()
                .into_owned()
        } else if HOST_TOPS.contains(&top) || entry.starts_with("/usr/") {
            entry.to_string()
        } else {
            sfs.host_path(entry)?.to_string_lossy().into_owned()
        };
        out.push(mapped);
    }
    Ok(out.join(":"))
}

fn resolv_dir() -> Option<String> {
    let target = fs::read_link("/etc/resolv.conf").ok()?;
    let abs = if target.is_absolute() {
        target
    } else {
        Path::new("/etc").join(target)
    };
    let abs = fs::canonicalize(abs).ok()?;
    let dir = abs.parent()?.to_str()?.to_string();
    (dir.starts_with("/run/") && Path::new(&dir).is_dir()).then_some(dir)
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

    #[test]
    fn missing_bwrap_without_opt_in_is_unavailable_and_names_the_package() {
        let iso = Isolation::detect(Some(Path::new("/nonexistent/bwrap")), false);
        match iso {
            Isolation::Unavailable(m) => {
                assert!(m.contains("bubblewrap") && m.contains("OUTPOSTS_LOCAL_UNISOLATED"))
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            Isolation::detect(Some(Path::new("/nonexistent/bwrap")), true),
            Isolation::Unisolated
        );
    }
}
