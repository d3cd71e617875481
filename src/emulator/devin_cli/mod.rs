//! The emulator's fake Devin CLI: `devin worker start` for sandboxes that run against
//! `outposts emulator`. It is NOT Devin's CLI; it speaks the public fleet API (through
//! [`crate::api::devin::DevinClient`]) and runs the emulator's fake `devin-remote`.
//!
//! **How it is built.** It is this very binary in a multi-call mode: when `argv[0]`'s file name
//! is `devin`, `main` runs [`main_entry`] instead of the `outposts` CLI. The emulator writes
//! `<data dir>/devin-cli/bin/devin`, a symlink to its own executable, and every sandbox that
//! should have the CLI gets that directory bound read-only at `/opt/devin/bin` (first on `PATH`)
//! plus the executable bound read-only at its own host path, so the symlink resolves inside the
//! sandbox ([`crate::provider::local::SandboxOptions::host_bin`]). `outposts emulator env` exports the directory as
//! `OUTPOSTS_DEVIN_CLI_DIR`, which `worker launch --provider local` binds the same way.
//!
//! **Modes** (flags and environment as documented for the real CLI, specs/devin-outposts-api.md
//! §10):
//! - `devin worker start --outpost NAME|ID`: claims sessions of that outpost from the queue
//!   under its own acceptor id (`--acceptor-id`, `DEVIN_WORKER_ACCEPTOR_ID`, else generated and
//!   kept in `~/.devin/worker/acceptor_id`) and serves them one at a time: download the remote
//!   from the distribution (claim's pinned sha, else `DEVIN_WORKER_REMOTE_SHA`, else `latest_*`),
//!   verify its sha256, run `devin-remote serve` with only the documented environment, renew the
//!   claim while it runs, re-read the session status after it exits, release, loop. `--once`
//!   exits after one session. On start it first re-serves claims its acceptor still holds.
//! - `devin worker start --session ID` with `DEVIN_REMOTE_SESSION_TOKEN`: direct-serve. Serves
//!   that one session with the given connect token and `DEVIN_OUTPOST_GATEWAY_URL`, never
//!   contacts the queue, and exits with the remote's exit code. Like the real CLI it refuses to
//!   start without some `DEVIN_OUTPOSTS_TOKEN` (which it does not use).
//! - `devin worker start --session ID` without a session token: claims that one session, serves
//!   it, releases it, exits.
//!
//! **Secrets.** The account token is read from `DEVIN_OUTPOSTS_TOKEN` (or `--token`, with a
//! warning that argv is visible to every process), never printed, and never passed to the
//! remote; every line it prints goes through [`crate::secrets::redact`].
//!
//! **Log markers** (what `outposts worker launch|status` look for; see [`crate::worker`]):
//! - `Worker ready: waiting for sessions on outpost <name> (<id>) as acceptor <id>` once the
//!   outpost resolved and the queue answered ([`READY_LINE`] prefix);
//! - `Error: authentication failed: …(HTTP 401…)… check DEVIN_OUTPOSTS_TOKEN` when the API
//!   rejects the token, then exit 1 ([`AUTH_LINE`] prefix);
//! - `Claimed session <id>`, `Serving session <id> with devin-remote <sha>`,
//!   `Session <id> ended (<status>); released`, and the remote's own lines prefixed `remote: `.

mod cli;
mod serve;
mod worker;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// Where sandboxes see the CLI's directory.
pub const BIN_DIR: &str = crate::provider::local::HOST_BIN_DIR;
/// The version the fake reports.
pub const VERSION: &str = "3000.0.0-outposts-emulator";
/// Prefix of the line printed once the worker reached the queue.
pub const READY_LINE: &str = "Worker ready: waiting for sessions";
/// Prefix of the line printed when the Devin API rejects the token.
pub const AUTH_LINE: &str = "Error: authentication failed";

/// Whether this process was started as `devin` (the multi-call switch).
pub fn invoked_as_devin() -> bool {
    std::env::args_os()
        .next()
        .as_deref()
        .and_then(|a| Path::new(a).file_name())
        .is_some_and(|n| n == OsStr::new("devin"))
}

/// Run the fake CLI with this process's arguments; the process exit code.
pub fn main_entry() -> u8 {
    use tracing_subscriber::EnvFilter;
    let _ = tracing_subscriber::fmt()
        .with_env_filter(EnvFilter::new("warn"))
        .with_writer(crate::secrets::RedactingStderr)
        .with_ansi(false)
        .with_target(false)
        .try_init();
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    cli::main(args)
}

/// Write `<data_dir>/devin-cli/bin/devin` (a symlink to this executable) and return the
/// directory. Idempotent.
pub fn install(data_dir: &Path) -> anyhow::Result<PathBuf> {
    use anyhow::Context;
    let exe = std::env::current_exe().context("cannot locate the outposts executable")?;
    let exe = std::fs::canonicalize(&exe).unwrap_or(exe);
    let dir = data_dir.join("devin-cli").join("bin");
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let link = dir.join("devin");
    if std::fs::read_link(&link).ok().as_deref() != Some(exe.as_path()) {
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(&exe, &link)
            .with_context(|| format!("cannot write {}", link.display()))?;
    }
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::provider::local::SandboxOptions;

    #[test]
    fn install_links_this_executable_and_binds_it() {
        let dir = tempfile::tempdir().unwrap();
        let bin = install(dir.path()).unwrap();
        assert!(bin.ends_with("devin-cli/bin"));
        // Idempotent.
        assert_eq!(install(dir.path()).unwrap(), bin);
        let opts = SandboxOptions::host_bin(&bin).unwrap();
        assert_eq!(opts.extra_path, [BIN_DIR]);
        assert_eq!(opts.ro_binds[0], (bin.clone(), BIN_DIR.to_string()));
        let target = std::fs::read_link(bin.join("devin")).unwrap();
        if !target.starts_with("/usr") {
            assert_eq!(opts.ro_binds.len(), 2);
            assert_eq!(opts.ro_binds[1].0, target);
        }
    }

    #[test]
    fn a_directory_without_devin_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let e = SandboxOptions::host_bin(dir.path())
            .unwrap_err()
            .to_string();
        assert!(e.contains("OUTPOSTS_DEVIN_CLI_DIR"), "{e}");
    }
}
