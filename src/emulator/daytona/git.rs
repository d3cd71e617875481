//! `git/clone` of a repository that lives on this host (an absolute path or `file://` URL, e.g.
//! a test's bare repository): the sandbox cannot see host paths, so the emulator clones it on
//! the host straight into the sandbox's private tree.

use std::path::{Path, PathBuf};

use crate::emulator::AppState;
use crate::provider::ProviderError;

/// The host path behind `url` when it names an existing local repository.
pub fn host_repo(url: &str) -> Option<PathBuf> {
    let path = match url.strip_prefix("file://") {
        Some(rest) => PathBuf::from(rest),
        None if url.starts_with('/') => PathBuf::from(url),
        None => return None,
    };
    path.exists().then_some(path)
}

/// `dest` (absolute, or relative to `home`) as components; `..` is refused.
fn components(dest: &str, home: &str) -> Result<Vec<String>, ProviderError> {
    let full = if dest.starts_with('/') {
        dest.to_string()
    } else {
        format!("{home}/{dest}")
    };
    let mut out = Vec::new();
    for c in full.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                return Err(ProviderError::Invalid(format!(
                    "clone path {dest:?} may not contain `..`"
                )));
            }
            other => out.push(other.to_string()),
        }
    }
    if out.is_empty() {
        return Err(ProviderError::Invalid("clone path is the root".into()));
    }
    Ok(out)
}

pub async fn clone_host_repo(
    s: &AppState,
    sandbox: &str,
    home: &str,
    src: &Path,
    dest: &str,
    branch: Option<&str>,
) -> Result<(), ProviderError> {
    let tree = s
        .sandboxes
        .provider()
        .tree(sandbox)?
        .ok_or_else(|| ProviderError::NotFound(sandbox.to_string()))?;
    let mut host_dest = tree;
    for c in components(dest, home)? {
        host_dest.push(c);
    }
    if host_dest
        .read_dir()
        .map(|mut d| d.next().is_some())
        .unwrap_or(false)
        || host_dest.is_file()
    {
        return Err(ProviderError::Invalid(format!(
            "destination path '{dest}' already exists and is not an empty directory"
        )));
    }
    if let Some(parent) = host_dest.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| ProviderError::Other(format!("cannot create {dest}: {e}")))?;
    }
    let mut cmd = tokio::process::Command::new("git");
    cmd.args(["-c", "credential.helper=", "clone", "--quiet"]);
    if let Some(b) = branch {
        cmd.args(["--branch", b]);
    }
    cmd.arg("--").arg(src).arg(&host_dest);
    cmd.env("GIT_TERMINAL_PROMPT", "0")
        .stdin(std::process::Stdio::null());
    let out = cmd
        .output()
        .await
        .map_err(|e| ProviderError::Other(format!("cannot run git: {e}")))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let tree_str = host_dest.to_string_lossy().into_owned();
        return Err(ProviderError::Other(format!(
            "git clone into {dest} failed: {}",
            err.trim().replace(&tree_str, dest)
        )));
    }
    Ok(())
}
