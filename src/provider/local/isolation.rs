//! How a sandbox is held up and how its processes are started.
//!
//! With bubblewrap, a started sandbox is one long-lived bubblewrap "init" that owns the
//! sandbox's namespaces — user (the sandbox runs as the image's user — uid 0, or 1000 for a named
//! user such as Daytona's `daytona` — of its own user namespace, mapped to the invoking user, so
//! it has no privilege on the host), pid, mount, uts and ipc. Its mount
//! namespace has the sandbox's private tree (`<sandbox>/fs`) read-write as `/`, the host's `/usr`,
//! `/etc`, `/bin`, `/sbin`, `/lib*` and `/sys` read-only on top, a fresh `/proc` (the sandbox's
//! processes only) and a minimal `/dev`. Everything else — `/workspace`, `/home`, `/root`, `/tmp`,
//! `/opt`, `/var`, `/run`, any new top-level directory — is the sandbox's own and survives stop.
//! The network is the host's (sandboxes reach services on 127.0.0.1).
//!
//! Every process of the sandbox (each exec, the main command) enters those namespaces with
//! `nsenter`, so it is a member of the sandbox's pid namespace for good: a detached daemon
//! (`nohup … &`) outlives its exec and is reparented to the sandbox's init, and stopping the
//! sandbox — killing the init — ends every process in it. Environment values travel in the
//! process environment (nsenter passes its own through), never as arguments, which would show
//! in `/proc/<pid>/cmdline`.
//!
//! Limits: only one uid/gid exists in the sandbox's user namespace, so `chown` to another user
//! fails inside (`TAR_OPTIONS=--no-same-owner` is set so that `tar` does not try); the sandbox
//! shares the host's network namespace, so it can reach every service the host listens on.
//!
//! Without bubblewrap, sandboxes are refused unless `OUTPOSTS_LOCAL_UNISOLATED=1`: then processes
//! run as plain host processes with their paths mapped into the private tree (see
//! [`super::unisolated`]). File operations through the provider stay confined to the private
//! tree in both modes.

use std::fs;
use std::io;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::poll::{Backoff, Poll, Waited, poll_until};
use crate::provider::ProviderError;
use crate::settings::not_ready;

use super::paths::HOST_TOPS;
pub(super) use super::tree::prepare_tree;
use super::tree::{ensure_dir_no_links, ensure_file_no_links};

/// apt/dnf package that provides `bwrap`.
pub const BWRAP_PACKAGE: &str = "bubblewrap";

/// How this provider isolates sandboxes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Isolation {
    /// bubblewrap (holds the namespaces) and nsenter (enters them), at these paths.
    Bubblewrap { bwrap: PathBuf, nsenter: PathBuf },
    /// Opted in to running without isolation (`OUTPOSTS_LOCAL_UNISOLATED=1`).
    Unisolated,
    /// No usable isolation; sandboxes are refused with this explanation.
    Unavailable(Unready),
}

/// Why local sandboxes cannot run here, and the fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unready {
    pub problem: String,
    pub fix: String,
}

impl Unready {
    pub fn error(&self) -> ProviderError {
        ProviderError::NotReady {
            problem: self.problem.clone(),
            fix: self.fix.clone(),
        }
    }
}

impl Isolation {
    pub fn as_str(&self) -> &'static str {
        match self {
            Isolation::Bubblewrap { .. } => "bubblewrap",
            Isolation::Unisolated => "none",
            Isolation::Unavailable(_) => "unavailable",
        }
    }

    /// Pick: `bwrap` (explicit path or `$PATH`) with `nsenter`, else unisolated when allowed,
    /// else unavailable.
    pub fn detect(explicit: Option<&Path>, allow_unisolated: bool) -> Isolation {
        let bwrap = match explicit {
            Some(p) => Some(p.to_path_buf()).filter(|p| is_executable(p)),
            None => find_in_path("bwrap"),
        };
        let nsenter = find_in_path("nsenter").or_else(|| {
            ["/usr/bin/nsenter", "/bin/nsenter"]
                .iter()
                .map(PathBuf::from)
                .find(|p| is_executable(p))
        });
        match (bwrap, nsenter) {
            (Some(bwrap), Some(nsenter)) => Isolation::Bubblewrap { bwrap, nsenter },
            _ if allow_unisolated => Isolation::Unisolated,
            (None, _) => Isolation::Unavailable(missing(
                "bubblewrap (`bwrap`) is not installed",
                BWRAP_PACKAGE,
            )),
            (Some(_), None) => {
                Isolation::Unavailable(missing("`nsenter` is not installed", "util-linux"))
            }
        }
    }
}

fn missing(problem: &str, package: &str) -> Unready {
    Unready {
        problem: format!(
            "{problem}, and the local provider will not run sandboxes without isolation"
        ),
        fix: not_ready::local_tool_missing(package),
    }
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

pub(super) fn find_in_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| is_executable(p))
}

/// The isolation this host offers, proven by a probe sandbox when it is bubblewrap (what
/// `doctor` reports; a provider caches the same probe for its lifetime).
pub async fn usable(explicit: Option<&Path>, allow_unisolated: bool) -> Result<Isolation, Unready> {
    match Isolation::detect(explicit, allow_unisolated) {
        Isolation::Unavailable(u) => Err(u),
        Isolation::Bubblewrap { bwrap, nsenter } => {
            probe(&bwrap, &nsenter).await?;
            Ok(Isolation::Bubblewrap { bwrap, nsenter })
        }
        Isolation::Unisolated => Ok(Isolation::Unisolated),
    }
}

/// Check once that bubblewrap can create a sandbox here and nsenter can enter it (either fails
/// in some containers, or with Ubuntu's AppArmor user-namespace restriction).
pub(super) async fn probe(bwrap: &Path, nsenter: &Path) -> Result<(), Unready> {
    let unready = |problem: String| Unready {
        problem,
        fix: not_ready::local_userns_blocked(),
    };
    let mut init = Command::new(bwrap);
    init.args([
        "--unshare-user",
        "--uid",
        "0",
        "--gid",
        "0",
        "--unshare-pid",
        "--unshare-uts",
        "--unshare-ipc",
        "--ro-bind",
        "/",
        "/",
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--",
        "sleep",
        "30",
    ])
    .env_clear()
    .env("PATH", "/usr/bin:/bin")
    .stdin(Stdio::null())
    .stdout(Stdio::null())
    .stderr(Stdio::piped());
    let mut child = tokio::process::Command::from(init)
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| unready(format!("cannot run {}: {e}", bwrap.display())))?;
    let b = child.id().map(|p| p as i32).unwrap_or(0);
    let every = std::time::Duration::from_millis(25);
    let deadline = std::time::Instant::now() + every * 200;
    // Ready(Some(pid 1)) once up, Ready(None) once bubblewrap exited.
    let up = poll_until(deadline, Backoff::fixed(every), || {
        let seen = if let Some(pid) = super::procs::first_child(b)
            && super::procs::pid_ns(pid).is_some_and(|ns| Some(ns) != super::procs::pid_ns(0))
            && super::procs::first_child(pid).is_some()
        {
            Poll::Ready(Some(pid))
        } else if let Ok(Some(_)) = child.try_wait() {
            Poll::Ready(None)
        } else {
            Poll::Pending(())
        };
        std::future::ready(Ok::<_, std::convert::Infallible>(seen))
    })
    .await;
    let r = match up {
        Ok(Waited::Ready(r)) => r,
        _ => None,
    };
    let result = match r {
        None => {
            let _ = child.start_kill();
            let out = child
                .wait_with_output()
                .await
                .map_err(|e| unready(e.to_string()))?;
            let err = String::from_utf8_lossy(&out.stderr).trim().to_string();
            return Err(unready(format!(
                "bubblewrap cannot create a sandbox on this host ({err})"
            )));
        }
        Some(r) => {
            let out = tokio::process::Command::from(enter(nsenter, r, "/", &["true".into()]))
                .env_clear()
                .env("PATH", "/usr/bin:/bin")
                .stdin(Stdio::null())
                .output()
                .await
                .map_err(|e| unready(format!("cannot run {}: {e}", nsenter.display())))?;
            if out.status.success() {
                Ok(())
            } else {
                Err(unready(format!(
                    "nsenter cannot enter a bubblewrap sandbox on this host ({})",
                    String::from_utf8_lossy(&out.stderr).trim()
                )))
            }
        }
    };
    if let Some(r) = r {
        super::procs::signal(r, libc::SIGKILL);
    }
    let _ = child.start_kill();
    let _ = child.wait().await;
    result
}

/// One process to start in a sandbox.
pub(super) struct Launch {
    /// argv as the sandbox sees it.
    pub argv: Vec<String>,
    /// Working directory (sandbox path).
    pub cwd: String,
    /// The complete environment (secrets included: it never leaves the process environment).
    pub env: Vec<(String, String)>,
}

/// Everything that shapes a sandbox's mount namespace, fixed when it boots.
pub(super) struct Layout<'a> {
    pub fs_root: &'a Path,
    pub home: &'a str,
    /// Read-only binds `(host path, sandbox path)`.
    pub binds: &'a [(PathBuf, String)],
    pub hostname: &'a str,
    /// The image's user: processes run as [`uid_of`] it.
    pub user: Option<&'a str>,
}

/// The uid a sandbox's processes run as: 0 for root (or no user), 1000 for a named user, as in
/// Daytona's images (`daytona`, uid 1000). A user namespace that maps only the invoking user
/// holds exactly one uid, so every named user gets 1000.
pub(super) fn uid_of(user: Option<&str>) -> u32 {
    match user {
        None | Some("root") => 0,
        Some(_) => 1000,
    }
}

/// The detached bubblewrap that holds a sandbox's namespaces (its "init"). `env` is the
/// init's own environment (no secrets: processes enter with their own environment).
pub(super) fn boot_command(
    bwrap: &Path,
    layout: &Layout<'_>,
    env: &[(String, String)],
) -> Result<Command, ProviderError> {
    let fs_root = layout.fs_root;
    let setup = |e: io::Error| {
        ProviderError::Other(format!(
            "cannot prepare the sandbox tree {}: {e}",
            fs_root.display()
        ))
    };
    prepare_tree(fs_root, layout.home).map_err(setup)?;
    let mut cmd = Command::new(bwrap);
    // A user namespace of its own: the image's user inside (root, or uid 1000 for a named
    // user), the invoking user outside — no privilege on the host either way.
    let uid = uid_of(layout.user).to_string();
    cmd.args(["--unshare-user", "--uid", &uid, "--gid", &uid])
        .args(["--unshare-pid", "--unshare-uts", "--unshare-ipc"])
        .arg("--hostname")
        .arg(layout.hostname)
        .arg("--bind")
        .arg(fs_root)
        .arg("/");
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
    // A named user has a passwd and group entry, so `id -un`, `whoami` and `~user` work.
    if let Some(user) = layout.user.filter(|_| uid_of(layout.user) != 0) {
        let dir = fs_root.parent().unwrap_or(fs_root);
        for (file, line) in [
            (
                "passwd",
                format!("{user}:x:1000:1000::{}:/bin/sh\n", layout.home),
            ),
            ("group", format!("{user}:x:1000:\n")),
        ] {
            let host = Path::new("/etc").join(file);
            // The host's entries, minus any that would shadow ours (same name, or id 1000).
            let mut text: String = fs::read_to_string(&host)
                .unwrap_or_default()
                .lines()
                .filter(|l| {
                    let f: Vec<&str> = l.split(':').collect();
                    f.first() != Some(&user) && f.get(2) != Some(&"1000")
                })
                .map(|l| format!("{l}\n"))
                .collect();
            text.push_str(&line);
            let ours = dir.join(format!("etc-{file}"));
            fs::write(&ours, text).map_err(setup)?;
            cmd.arg("--ro-bind").arg(&ours).arg(&host);
        }
    }
    for (host, inside) in layout.binds {
        let rel = inside.trim_start_matches('/');
        if host.is_dir() {
            ensure_dir_no_links(fs_root, rel).map_err(setup)?;
        } else {
            ensure_file_no_links(fs_root, rel).map_err(setup)?;
        }
        cmd.arg("--ro-bind").arg(host).arg(inside);
    }
    // Signals from inside cannot end the sandbox: only the provider stops it.
    cmd.args(["--chdir", "/", "--", "/bin/sh", "-c"])
        .arg("trap '' HUP INT TERM QUIT USR1 USR2; while :; do sleep 86400; done")
        .arg("outposts-sandbox-init");
    cmd.env_clear().envs(env.iter().cloned());
    cmd.stdin(Stdio::null());
    detach(&mut cmd);
    Ok(cmd)
}

/// `nsenter` into the namespaces held by `init` (host pid of the sandbox's pid 1), then `cd` and
/// `exec` argv. The `sh` step only changes directory (nsenter resolves `--wd` on the host).
fn enter(nsenter: &Path, init: i32, cwd: &str, argv: &[String]) -> Command {
    let mut cmd = Command::new(nsenter);
    cmd.arg("--target")
        .arg(init.to_string())
        .args([
            "--user",
            "--mount",
            "--pid",
            "--uts",
            "--ipc",
            "--root",
            "--wd",
            "--preserve-credentials",
            "--",
            "/bin/sh",
            "-c",
        ])
        .arg("cd -- \"$1\" || exit 126; shift; exec \"$@\"")
        .arg("outposts-exec")
        .arg(cwd)
        .args(argv);
    cmd
}

/// The host command that runs `launch` in a sandbox: entering the namespaces of its init (host
/// pid `init`) with bubblewrap, or directly on the host when unisolated.
pub(super) fn command(
    iso: &Isolation,
    layout: &Layout<'_>,
    init: Option<i32>,
    launch: &Launch,
    keep: &[&Path],
) -> Result<Command, ProviderError> {
    let mut cmd = match iso {
        Isolation::Unavailable(u) => return Err(u.error()),
        Isolation::Bubblewrap { nsenter, .. } => {
            let init = init.ok_or_else(|| {
                ProviderError::Other("the sandbox is not running (no init process)".into())
            })?;
            let mut cmd = enter(nsenter, init, &launch.cwd, &launch.argv);
            cmd.env_clear().envs(launch.env.iter().cloned());
            cmd
        }
        Isolation::Unisolated => super::unisolated::command(layout, launch, keep)?,
    };
    cmd.stdin(Stdio::null());
    detach(&mut cmd);
    Ok(cmd)
}

/// Own session and process group: no controlling terminal, a timeout can end the whole group,
/// and the process outlives ours.
fn detach(cmd: &mut Command) {
    // SAFETY: setsid is async-signal-safe.
    unsafe {
        cmd.pre_exec(|| {
            if libc::setsid() < 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(())
        });
    }
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
    fn missing_bwrap_without_opt_in_is_unavailable_and_names_the_package() {
        let iso = Isolation::detect(Some(Path::new("/nonexistent/bwrap")), false);
        match iso {
            Isolation::Unavailable(u) => {
                assert!(u.problem.contains("bubblewrap"), "{u:?}");
                assert!(
                    u.fix.contains("apt-get install -y bubblewrap")
                        && u.fix.contains("OUTPOSTS_LOCAL_UNISOLATED"),
                    "{u:?}"
                );
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            Isolation::detect(Some(Path::new("/nonexistent/bwrap")), true),
            Isolation::Unisolated
        );
    }
}
