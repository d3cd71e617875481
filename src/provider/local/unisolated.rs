//! Running a sandbox's processes without isolation (no usable bubblewrap,
//! `OUTPOSTS_LOCAL_UNISOLATED=1`, or the demo).
//!
//! Unisolated, a sandbox process is a plain host process, so an absolute path it is given would
//! be the host's own: `/workspace/outpost-proof.txt` written by a session would land in the
//! host's `/workspace`, and a later read through the provider (confined to the sandbox's tree)
//! would not find it. So the sandbox's view is mapped onto its directory on the host wherever
//! the provider hands a path to a process: the working directory, `HOME`, `PATH`, and absolute
//! paths under the sandbox's private top-level directories ([`MAPPED_TOPS`]: the same as with
//! bubblewrap) or its read-only binds in every argument and environment value — except paths
//! under the provider's own directory, which are host paths already. Each process also gets
//! [`SANDBOX_ROOT_VAR`]: the host directory the sandbox sees as `/`, for a program that is handed
//! paths some other way (the emulator's fake remote receives its task's paths over the network).
//!
//! A user's home is the one path programs commonly look up for themselves (`getent passwd`):
//! unisolated it would be the host user's, so a script that copies "the image's home" would copy
//! the host's (gigabytes of toolchains, and its credentials) into the sandbox. A `getent` shim
//! first on PATH ([`GETENT_SHIM`]) maps the home of every passwd entry as above.
//!
//! Not mapped: other paths a program builds itself or reads from a file, and the temporary files
//! of host programs (`mktemp` without an argument uses the host's `/tmp`). This is safety by
//! convention, not isolation; bubblewrap is what isolates.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::provider::ProviderError;

use super::isolation::{Launch, Layout, prepare_tree};
use super::paths::{HOST_TOPS, SandboxFs};

/// Set in every unisolated sandbox process: where the sandbox's `/` is on the host.
/// (Declared for users as `OUTPOSTS_SANDBOX_ROOT` in `env.rs`; a test keeps the two equal.)
pub const SANDBOX_ROOT_VAR: &str = "OUTPOSTS_SANDBOX_ROOT";

/// The sandbox's own top-level directories whose absolute paths are mapped into its tree.
/// (Every private top of [`super::tree::prepare_tree`]: the same paths as with bubblewrap.)
pub(super) const MAPPED_TOPS: &[&str] = &[
    "workspace",
    "home",
    "root",
    "tmp",
    "opt",
    "var",
    "run",
    "mnt",
    "srv",
];

/// Whether an absolute sandbox path is mapped into the sandbox's tree when unisolated (so a
/// directory there, say a volume's mount path, is the sandbox's own in both modes).
pub fn maps_unisolated(path: &str) -> bool {
    let top = path.trim_start_matches('/').split('/').next().unwrap_or("");
    path.starts_with('/') && MAPPED_TOPS.contains(&top)
}

/// Maps sandbox paths in text onto the host.
pub(super) struct PathMap<'a> {
    /// The sandbox's tree on the host (what it sees as `/`).
    pub fs_root: &'a Path,
    /// Read-only binds `(host path, sandbox path)`.
    pub binds: &'a [(PathBuf, String)],
    /// Host paths that are already host paths (the provider's own directory): never mapped.
    pub keep: &'a [&'a Path],
}

impl PathMap<'_> {
    /// `text` with every absolute sandbox path (at the start of a word) replaced by its host path.
    pub fn text(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut i = 0;
        let bytes = text.as_bytes();
        while i < text.len() {
            let starts_path = bytes[i] == b'/' && (i == 0 || is_boundary(bytes[i - 1]));
            if starts_path && let Some((len, host)) = self.map_at(&text[i..]) {
                out.push_str(&host);
                i += len;
                continue;
            }
            // Copy one whole character.
            let ch = text[i..].chars().next().unwrap_or('\0');
            out.push(ch);
            i += ch.len_utf8().max(1);
        }
        out
    }

    /// The sandbox path at the start of `rest` (its length) and its host path, if it is mapped.
    fn map_at(&self, rest: &str) -> Option<(usize, String)> {
        let end = rest.find(|c: char| !is_path_char(c)).unwrap_or(rest.len());
        let path = &rest[..end];
        if self
            .keep
            .iter()
            .any(|k| Path::new(path).starts_with(k) && !k.as_os_str().is_empty())
        {
            return None;
        }
        let under = |prefix: &str| {
            let prefix = prefix.trim_end_matches('/');
            path == prefix || path.starts_with(&format!("{prefix}/"))
        };
        // The longest bind wins (a bind may sit inside a mapped top, e.g. /opt/devin/bin).
        if let Some((host, inside)) = self
            .binds
            .iter()
            .filter(|(_, inside)| under(inside))
            .max_by_key(|(_, inside)| inside.len())
        {
            let tail = path[inside.trim_end_matches('/').len()..].trim_start_matches('/');
            let mapped = if tail.is_empty() {
                host.clone()
            } else {
                host.join(tail)
            };
            return Some((end, mapped.to_string_lossy().into_owned()));
        }
        let top = path.trim_start_matches('/').split('/').next().unwrap_or("");
        if !MAPPED_TOPS.contains(&top) || path.split('/').any(|c| c == "..") {
            return None;
        }
        Some((
            end,
            self.fs_root
                .join(path.trim_start_matches('/'))
                .to_string_lossy()
                .into_owned(),
        ))
    }
}

/// A character that may precede a path in a shell word, an assignment or a list.
fn is_boundary(b: u8) -> bool {
    matches!(
        b,
        b' ' | b'\t'
            | b'\n'
            | b'='
            | b':'
            | b'\''
            | b'"'
            | b'('
            | b';'
            | b'|'
            | b'&'
            | b'>'
            | b'<'
            | b'`'
            | b','
            | b'{'
            | b'['
    )
}

fn is_path_char(c: char) -> bool {
    !(c.is_whitespace()
        || matches!(
            c,
            '\'' | '"' | ':' | ';' | '|' | '&' | '>' | '<' | '`' | ',' | ')' | '}' | ']' | '$'
        ))
}

/// The host command that runs `launch` directly on the host, its paths mapped (module docs).
pub(super) fn command(
    layout: &Layout<'_>,
    launch: &Launch,
    keep: &[&Path],
) -> Result<Command, ProviderError> {
    prepare_tree(layout.fs_root, layout.home).map_err(|e| {
        ProviderError::Other(format!(
            "cannot prepare the sandbox tree {}: {e}",
            layout.fs_root.display()
        ))
    })?;
    let sfs = SandboxFs {
        root: layout.fs_root,
        home: layout.home,
        binds: Vec::new(),
    };
    let map = PathMap {
        fs_root: layout.fs_root,
        binds: layout.binds,
        keep,
    };
    let (prog, args) = launch
        .argv
        .split_first()
        .ok_or_else(|| ProviderError::Invalid("the command is empty".into()))?;
    let mut cmd = Command::new(map.text(prog));
    cmd.args(args.iter().map(|a| map.text(a)))
        .current_dir(sfs.host_path(&launch.cwd)?);
    cmd.env_clear();
    for (k, v) in &launch.env {
        let v = match k.as_str() {
            "HOME" => sfs.host_path(v)?.to_string_lossy().into_owned(),
            "PATH" => {
                let path = unisolated_path(v, &sfs, layout.binds)?;
                match shim_dir(layout.fs_root)? {
                    Some(dir) => format!("{}:{path}", dir.display()),
                    None => path,
                }
            }
            _ => map.text(v),
        };
        cmd.env(k, v);
    }
    cmd.env(SANDBOX_ROOT_VAR, layout.fs_root);
    Ok(cmd)
}

/// Directory of the sandbox's shims, next to its tree (a provider path: never mapped).
const SHIM_DIR: &str = "unisolated-bin";

/// `getent` for an unisolated sandbox: the host's, with the home field of `passwd` entries under
/// a mapped top moved into the sandbox's tree (`@GETENT@` and `@ROOT@` are filled in, quoted).
/// The exit status is the real `getent`'s (2: no such entry).
const GETENT_SHIM: &str = r#"#!/bin/sh
# Written by outposts for an unisolated sandbox: see src/provider/local/unisolated.rs.
[ "$1" = passwd ] || exec @GETENT@ "$@"
out=$(@GETENT@ "$@"); rc=$?
[ -z "$out" ] || printf '%s\n' "$out" | OUTPOSTS_SHIM_ROOT=@ROOT@ awk -F: -v OFS=: \
  '$6 ~ /^\/(@TOPS@)(\/|$)/ { $6 = ENVIRON["OUTPOSTS_SHIM_ROOT"] $6 } { print }'
exit $rc
"#;

/// Single-quoted for `sh`.
fn sh_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// The sandbox's shim directory, written when missing or stale; `None` when the host has no
/// `getent` to wrap.
fn shim_dir(fs_root: &Path) -> Result<Option<PathBuf>, ProviderError> {
    let Some(getent) = super::isolation::find_in_path("getent") else {
        return Ok(None);
    };
    let Some(sandbox) = fs_root.parent() else {
        return Ok(None);
    };
    let dir = sandbox.join(SHIM_DIR);
    let script = GETENT_SHIM
        .replace("@GETENT@", &sh_quote(&getent.to_string_lossy()))
        .replace("@ROOT@", &sh_quote(&fs_root.to_string_lossy()))
        .replace("@TOPS@", &MAPPED_TOPS.join("|"));
    let shim = dir.join("getent");
    if std::fs::read_to_string(&shim).is_ok_and(|s| s == script) {
        return Ok(Some(dir));
    }
    let write = || -> std::io::Result<()> {
        use std::os::unix::fs::PermissionsExt;
        std::fs::create_dir_all(&dir)?;
        // Written aside and renamed: a process starting meanwhile sees the old shim or the new.
        let tmp = dir.join(format!(".getent.{}", uuid::Uuid::new_v4().simple()));
        std::fs::write(&tmp, &script)?;
        std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o755))?;
        std::fs::rename(&tmp, &shim)
    };
    write().map_err(|e| {
        ProviderError::Other(format!(
            "cannot write the sandbox's shim {}: {e}",
            shim.display()
        ))
    })?;
    Ok(Some(dir))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sandbox_paths_in_text_map_into_the_tree_and_host_paths_stay() {
        let binds = vec![(PathBuf::from("/host/cli"), "/opt/devin/bin".to_string())];
        let keep = [Path::new("/root/.local/share/outposts")];
        let m = PathMap {
            fs_root: Path::new("/sb/fs"),
            binds: &binds,
            keep: &keep,
        };
        assert_eq!(
            m.text("echo hi > /workspace/outpost-proof.txt"),
            "echo hi > /sb/fs/workspace/outpost-proof.txt"
        );
        assert_eq!(m.text("/workspace"), "/sb/fs/workspace");
        assert_eq!(
            m.text("cd '/home/daytona/workspace' && ls"),
            "cd '/sb/fs/home/daytona/workspace' && ls"
        );
        assert_eq!(m.text("X=/root/a:/srv/b"), "X=/sb/fs/root/a:/sb/fs/srv/b");
        assert_eq!(m.text("/opt/devin/bin/devin"), "/host/cli/devin");
        assert_eq!(m.text("/opt/other"), "/sb/fs/opt/other");
        assert_eq!(m.text("git init -q /tmp/src"), "git init -q /sb/fs/tmp/src");
        // Host paths, system directories and lookalikes are left alone.
        assert!(maps_unisolated("/workspace") && maps_unisolated("/run/x"));
        assert!(
            maps_unisolated("/tmp/x")
                && !maps_unisolated("/usr/bin")
                && !maps_unisolated("workspace")
        );
        for same in [
            "/usr/bin/env",
            "/etc/passwd",
            "/workspaces",
            "a/workspace/b",
            "http://h/workspace",
            "/root/.local/share/outposts/sandboxes/x/git-askpass",
            "/workspace/../etc/passwd",
        ] {
            assert_eq!(m.text(same), same, "{same}");
        }
        assert_eq!(m.text("ünï /workspace"), "ünï /sb/fs/workspace");
    }

    #[test]
    fn the_getent_shim_puts_passwd_homes_in_the_sandbox_tree() {
        if super::super::isolation::find_in_path("getent").is_none() {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let fs_root = dir.path().join("fs it's");
        std::fs::create_dir_all(&fs_root).unwrap();
        let shims = shim_dir(&fs_root).unwrap().unwrap();
        let run = |args: &[&str]| {
            std::process::Command::new(shims.join("getent"))
                .args(args)
                .output()
                .unwrap()
        };
        let out = run(&["passwd", "0"]);
        assert!(out.status.success());
        let line = String::from_utf8(out.stdout).unwrap();
        let home = line.trim_end().split(':').nth(5).unwrap().to_string();
        assert_eq!(home, format!("{}/root", fs_root.display()), "{line}");
        // Not found stays not found; other databases pass through.
        assert_eq!(run(&["passwd", "no-such-user-here"]).status.code(), Some(2));
        assert!(run(&["group", "0"]).status.success());
        // Rewritten only when stale.
        assert_eq!(shim_dir(&fs_root).unwrap(), Some(shims));
    }
}
