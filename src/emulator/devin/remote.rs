//! The remote distribution under `/static/devin-rs/remote/` (spec §8), serving the fake remote.
//!
//! - `latest_<suffix>` → [`CURRENT_SHA`] and a newline.
//! - `devin-remote_<sha>_<suffix>` → the fake remote — for the Linux names a real executable, or
//!   with `--remote-form script` a POSIX shell script with the same observable behaviour (its
//!   running process is the shell, not the file); a script for the others — naming `<sha>`, so
//!   every sha has its own checksum. Any 7–64 hex sha is served.
//! - `devin-remote_<sha>_<suffix>.sha256` → the bare hex SHA-256 of that file and a newline,
//!   except for [`CORRUPT_SHA`], whose checksum deliberately does not match (checksum tests).
//!
//! Suffixes: `linux_x64`, `linux_arm64`, `macos_arm64`, `windows_x64.exe` (the latest pointer is
//! served both as `latest_windows_x64` and `latest_windows_x64.exe`). Anything else is 404.

use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};

/// The sha `latest_*` points at.
pub const CURRENT_SHA: &str = "5eed0f1ce0";
/// A sha whose `.sha256` never matches its binary.
pub const CORRUPT_SHA: &str = "badc0ffee0";

pub const SUFFIXES: &[&str] = &["linux_x64", "linux_arm64", "macos_arm64", "windows_x64.exe"];

/// What the Linux names serve.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum RemoteForm {
    /// A real executable: the running process is the downloaded file.
    #[default]
    Binary,
    /// A `#!/bin/sh` script: the running process is the shell (`/proc/<pid>/exe` names `sh`).
    Script,
}

/// The fake remote for Windows and macOS names, and for Linux ones in [`RemoteForm::Script`] (the emulator's sandboxes are Linux: nothing
/// runs these, but clients download and verify them).
const SCRIPT: &str = include_str!("fake_remote.sh");

/// The fake remote as a real executable for this host (`fake_remote/main.rs`, built by
/// `build.rs`): the running process is the downloaded file, as with Devin's remote. Served under
/// both Linux names — the emulator's sandboxes always run on this host.
const EXECUTABLE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/fake-remote"));

/// The fake remote's bytes for `sha` and `suffix`: the executable with a trailer naming the
/// build (so every sha has its own checksum; loaders ignore bytes past the ELF's sections), or
/// the script for non-Linux names and for the script form.
pub fn artifact(sha: &str, suffix: &str, form: RemoteForm) -> Vec<u8> {
    if suffix.starts_with("linux_") && form == RemoteForm::Binary {
        let mut b = EXECUTABLE.to_vec();
        b.extend_from_slice(
            format!("\n#outposts-fake-remote sha={sha} target={suffix}\n").as_bytes(),
        );
        b
    } else {
        SCRIPT
            .replace("@SHA@", sha)
            .replace("@SUFFIX@", suffix)
            .into_bytes()
    }
}

/// Hex SHA-256 of the fake remote for `sha`/`suffix`.
pub fn checksum(sha: &str, suffix: &str, form: RemoteForm) -> String {
    hex::encode(Sha256::digest(artifact(sha, suffix, form)))
}

enum Artifact {
    Latest,
    Binary(String, &'static str),
    Checksum(String, &'static str),
}

fn suffix_of(s: &str) -> Option<&'static str> {
    SUFFIXES.iter().copied().find(|x| *x == s)
}

fn parse(file: &str) -> Option<Artifact> {
    if let Some(suffix) = file.strip_prefix("latest_") {
        return (suffix_of(suffix).is_some() || suffix == "windows_x64")
            .then_some(Artifact::Latest);
    }
    let rest = file.strip_prefix("devin-remote_")?;
    let (sha, tail) = rest.split_once('_')?;
    if !super::state::valid_sha(sha) {
        return None;
    }
    if let Some(s) = tail.strip_suffix(".sha256") {
        return Some(Artifact::Checksum(sha.to_string(), suffix_of(s)?));
    }
    Some(Artifact::Binary(sha.to_string(), suffix_of(tail)?))
}

pub async fn serve(
    State(app): State<crate::emulator::AppState>,
    Path(file): Path<String>,
) -> Response {
    let form = app.opts.remote_form;
    let text = |body: String| {
        ([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], body).into_response()
    };
    match parse(&file) {
        Some(Artifact::Latest) => text(format!("{CURRENT_SHA}\n")),
        Some(Artifact::Checksum(sha, suffix)) => {
            let sum = if sha.eq_ignore_ascii_case(CORRUPT_SHA) {
                hex::encode(Sha256::digest(format!("corrupt {sha}").as_bytes()))
            } else {
                checksum(&sha, suffix, form)
            };
            text(format!("{sum}\n"))
        }
        Some(Artifact::Binary(sha, suffix)) => (
            [
                (header::CONTENT_TYPE, "application/octet-stream"),
                (
                    header::CONTENT_DISPOSITION,
                    "attachment; filename=\"devin-remote\"",
                ),
            ],
            artifact(&sha, suffix, form),
        )
            .into_response(),
        None => (
            StatusCode::NOT_FOUND,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            format!("no such artifact: {file}\n"),
        )
            .into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn artifacts_parse() {
        assert!(matches!(parse("latest_linux_x64"), Some(Artifact::Latest)));
        assert!(matches!(
            parse("latest_windows_x64"),
            Some(Artifact::Latest)
        ));
        assert!(parse("latest_linux_x86").is_none());
        assert!(
            matches!(parse("devin-remote_412f0e9b19_linux_arm64"), Some(Artifact::Binary(s, "linux_arm64")) if s == "412f0e9b19")
        );
        assert!(matches!(
            parse("devin-remote_412f0e9b19_windows_x64.exe.sha256"),
            Some(Artifact::Checksum(_, "windows_x64.exe"))
        ));
        assert!(parse("devin-remote_xyz_linux_x64").is_none());
        assert!(parse("devin-remote_412f0e9b19_linux_x64.md5").is_none());
        assert!(parse("devin-remote_12_linux_x64").is_none());
    }

    #[test]
    fn each_sha_has_its_own_checksum() {
        let bin = RemoteForm::Binary;
        assert_ne!(
            checksum("412f0e9b19", "linux_x64", bin),
            checksum(CURRENT_SHA, "linux_x64", bin)
        );
        let linux = artifact("412f0e9b19", "linux_x64", bin);
        assert!(linux.starts_with(b"\x7fELF"), "a real executable");
        assert!(linux.ends_with(b"#outposts-fake-remote sha=412f0e9b19 target=linux_x64\n"));
        let windows = String::from_utf8(artifact("412f0e9b19", "windows_x64.exe", bin)).unwrap();
        assert!(windows.contains("DEVIN_REMOTE_SHA='412f0e9b19'"));
        let script = artifact("412f0e9b19", "linux_x64", RemoteForm::Script);
        assert!(script.starts_with(b"#!/bin/sh\n"), "a shell script");
        assert!(String::from_utf8_lossy(&script).contains("DEVIN_REMOTE_TARGET='linux_x64'"));
    }
}
