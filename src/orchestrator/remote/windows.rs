//! Windows sandboxes, in short steps (Daytona's proxy cuts a synchronous exec after ~40 s):
//! 1. install: a short exec answers `cached`, or starts a detached download whose exit record is
//!    polled through the file API for up to 300 s ([`super::windows_install`]);
//! 2. hand-off: the bootstrap and `launch.json` (the remote's environment, connect token
//!    included) are written through the provider's file API, so no command line carries them;
//! 3. start: one short exec adopts a live remote of ours or starts the bootstrap detached.
//!
//! A start exec that times out or fails on the way (5xx, a lost answer) is *unconfirmed*, not
//! failed: the PID file is polled for a while before anything is reported. A start that surely
//! never ran (refused, or never confirmed) has its `launch.json` emptied through the file API,
//! so the token does not stay on the sandbox's disk. The scripts and the facts behind them are
//! in [`super::windows_scripts`].

use std::time::Duration;

use super::windows_install::{
    INSTALL_BUDGET, INSTALL_POLL, await_install, runner_script, start_script as install_script,
};
use super::windows_scripts::{
    ERROR_TAG, bootstrap_script, check_script, has_clone_script, root, start_script,
};
use super::*;
use crate::poll::{Backoff, Poll, Waited, poll_until};
use crate::provider::ProviderError;

/// The byte-order mark that makes Windows PowerShell 5.1 read a file as UTF-8.
pub const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";
/// The distribution name of the Windows build.
const SUFFIX: &str = "windows_x64.exe";
/// Every exec of a launch ends well inside the proxy's ~40 s.
const INSTALL_TIMEOUT: Duration = Duration::from_secs(25);
const START_TIMEOUT: Duration = Duration::from_secs(25);
const CHECK_TIMEOUT: Duration = Duration::from_secs(20);
/// How long an unconfirmed start is confirmed by polling the PID file.
const CONFIRM_ROUNDS: u32 = 8;
const CONFIRM_EVERY: Duration = Duration::from_secs(3);

/// The cmd.exe line that runs `script` (see [`crate::shell::powershell_command`]).
pub fn command(script: &str) -> String {
    crate::shell::powershell_command(script)
}

fn ps(script: &str, timeout: Duration) -> ExecRequest {
    ExecRequest {
        cmd: crate::provider::Cmd::Shell(command(script)),
        cwd: None,
        env: BTreeMap::new(),
        timeout: Some(timeout),
    }
}

/// Where the binary of `build` lives in the sandbox, and what installs it (`None`: the CLI mode).
struct Install {
    dir: String,
    exe: String,
    sum: String,
    url: String,
}

fn install(plan: &LaunchPlan) -> Result<(String, Option<Install>), RemoteError> {
    // The CLI mode: the image provides `devin.exe`, which fetches the remote itself (a pinned
    // build only travels as `DEVIN_WORKER_REMOTE_SHA`).
    let b = match (plan.mode, plan.build.as_ref()) {
        (LaunchMode::Cli, _) => return Ok(("devin.exe".to_string(), None)),
        (LaunchMode::Remote, Some(b)) => b,
        (LaunchMode::Remote, None) => {
            return Err(RemoteError::Download(
                "no devin-remote build was resolved for this session".into(),
            ));
        }
    };
    let sum = b.sha256.get(SUFFIX).ok_or_else(|| {
        RemoteError::Download(format!("no published devin-remote build {}", b.url(SUFFIX)))
    })?;
    let dir = format!("C:\\ProgramData\\devin-outposts\\remote\\{}", b.sha);
    let exe = format!("{dir}\\devin-remote.exe");
    Ok((
        exe.clone(),
        Some(Install {
            dir,
            exe,
            sum: sum.clone(),
            url: b.url(SUFFIX),
        }),
    ))
}

/// The line that says what went wrong: the scripts' tagged error line, else the last line.
pub fn failure_detail(stderr: &str, stdout: &str) -> String {
    stdout
        .lines()
        .chain(stderr.lines())
        .filter_map(|l| l.trim().strip_prefix(ERROR_TAG))
        .next_back()
        .map(str::to_string)
        .unwrap_or_else(|| last_line(stderr, stdout))
}

/// Install the remote binary (or find it cached): `Some(cached?)`.
async fn run_install(
    provider: &dyn Provider,
    sandbox_id: &str,
    i: &Install,
) -> Result<bool, RemoteError> {
    let nonce = uuid::Uuid::new_v4().simple().to_string();
    let mut runner = UTF8_BOM.to_vec();
    runner.extend_from_slice(runner_script(&i.dir, &i.exe, &i.sum, &i.url, &nonce).as_bytes());
    provider
        .write_file(
            sandbox_id,
            &super::windows_install::runner_path(&i.dir),
            &runner,
        )
        .await?;
    let out = provider
        .exec(
            sandbox_id,
            &ps(&install_script(&i.dir, &i.exe, &i.sum), INSTALL_TIMEOUT),
        )
        .await?;
    let result = out
        .stdout
        .lines()
        .rev()
        .find_map(|l| l.trim().strip_prefix("outposts-install result="));
    match (out.exit_code, result) {
        (0, Some("cached")) => Ok(true),
        (0, Some("started")) => {
            tracing::info!(
                "downloading devin-remote in the sandbox (up to {} s)",
                INSTALL_BUDGET.as_secs()
            );
            await_install(
                provider,
                sandbox_id,
                &i.dir,
                &nonce,
                INSTALL_BUDGET,
                INSTALL_POLL,
            )
            .await?;
            Ok(false)
        }
        (code, _) => Err(RemoteError::Launch {
            code,
            output: failure_detail(&out.stderr, &out.stdout),
        }),
    }
}

pub async fn launch(
    provider: &dyn Provider,
    sandbox_id: &str,
    plan: &LaunchPlan,
    env: BTreeMap<String, Secret>,
) -> Result<Launched, RemoteError> {
    let (exe, install) = install(plan)?;
    let mut cached = None;
    if let Some(i) = install {
        cached = Some(run_install(provider, sandbox_id, &i).await?);
    }
    let dir = root(&plan.session_id);
    // This launch's id: the bootstrap signs its exit record with it, and the check reads only a
    // record that names the id on file (an older launch's late or leftover record never counts).
    let launch_id = uuid::Uuid::new_v4().simple().to_string();
    provider
        .write_file(
            sandbox_id,
            &format!("{dir}\\launch.id"),
            launch_id.as_bytes(),
        )
        .await?;
    // Windows PowerShell 5.1 reads a script without a byte-order mark as ANSI: a UTF-8 `ő` in a
    // path would turn into characters that end its quoted literal.
    let mut boot = UTF8_BOM.to_vec();
    boot.extend_from_slice(
        bootstrap_script(&plan.session_id, &exe, plan.mode, &plan.workdir).as_bytes(),
    );
    provider
        .write_file(sandbox_id, &format!("{dir}\\bootstrap.ps1"), &boot)
        .await?;
    let launch_json = serde_json::json!({
        "environment": env.iter().map(|(k, v)| (k.clone(), serde_json::Value::String(v.expose().to_string()))).collect::<serde_json::Map<_, _>>()
    });
    provider
        .write_file(
            sandbox_id,
            &format!("{dir}\\launch.json"),
            launch_json.to_string().as_bytes(),
        )
        .await?;
    let started = start(provider, sandbox_id, &plan.session_id, cached).await;
    if started.is_err() {
        scrub(provider, sandbox_id, &dir).await;
    }
    started
}

/// Empty `launch.json` (the file API has no delete): a start that never ran leaves no token on
/// the sandbox's disk, and a late bootstrap finds nothing to start.
async fn scrub(provider: &dyn Provider, sandbox_id: &str, dir: &str) {
    if let Err(e) = provider
        .write_file(sandbox_id, &format!("{dir}\\launch.json"), b"")
        .await
    {
        tracing::warn!("could not empty {dir}\\launch.json after a failed start: {e}");
    }
}

async fn start(
    provider: &dyn Provider,
    sandbox_id: &str,
    session_id: &str,
    cached: Option<bool>,
) -> Result<Launched, RemoteError> {
    let out = match provider
        .exec(sandbox_id, &ps(&start_script(session_id), START_TIMEOUT))
        .await
    {
        Ok(out) => out,
        Err(e) if unconfirmed(&e) => {
            tracing::info!("the Windows start exec was not confirmed ({e}); polling the PID file");
            return confirm(provider, sandbox_id, session_id, e).await;
        }
        Err(e) => return Err(e.into()),
    };
    let pid_of = |pairs: &[(String, String)]| {
        pairs
            .iter()
            .find(|(k, _)| k == "pid")
            .and_then(|(_, v)| v.parse().ok())
            .unwrap_or(0)
    };
    match (out.exit_code, super::linux::parse_launch(&out.stdout)) {
        (0, Some((r, pairs))) if r == "running" => Ok(Launched::Running {
            pid: pid_of(&pairs),
        }),
        (0, Some((r, pairs))) if r == "launched" => Ok(Launched::Started {
            pid: pid_of(&pairs),
            cached,
        }),
        (code, _) => Err(RemoteError::Launch {
            code,
            output: failure_detail(&out.stderr, &out.stdout),
        }),
    }
}

/// A start whose answer never arrived may well have started the remote.
fn unconfirmed(e: &ProviderError) -> bool {
    match e {
        ProviderError::Timeout(_) => true,
        ProviderError::Api(crate::api::ApiError::Status { status, .. }) => *status >= 500,
        ProviderError::Api(crate::api::ApiError::Transport { .. }) => true,
        _ => false,
    }
}

/// Poll the PID file after an unconfirmed start: a pid (or an exit code) proves the start.
async fn confirm(
    provider: &dyn Provider,
    sandbox_id: &str,
    session_id: &str,
    cause: ProviderError,
) -> Result<Launched, RemoteError> {
    let deadline = std::time::Instant::now() + CONFIRM_EVERY * CONFIRM_ROUNDS;
    let waited = poll_until(deadline, Backoff::fixed(CONFIRM_EVERY), || async {
        Ok::<_, std::convert::Infallible>(match check(provider, sandbox_id, session_id).await {
            Ok(Liveness::Running(pid)) => Poll::Ready(pid),
            // It started and already ended: the supervision reads the exit code.
            Ok(Liveness::Exited(_)) => Poll::Ready(0),
            Ok(Liveness::Absent) | Err(_) => Poll::Pending(()),
        })
    })
    .await;
    match waited {
        Ok(Waited::Ready(pid)) => Ok(Launched::Started { pid, cached: None }),
        _ => Err(RemoteError::Launch {
            code: -1,
            output: format!("the start was not confirmed ({cause}) and no remote pid appeared"),
        }),
    }
}

/// Is the remote running, exited or absent? The bootstrap writes `worker.exit` (whole, by a
/// rename) only after the remote ended, as `<launch id> <code>`: when it names the launch in
/// `launch.id`, the file API answers without starting a PowerShell; otherwise (none yet, or an
/// older launch's) the check script tests the pid and its start time.
pub async fn check(
    provider: &dyn Provider,
    sandbox_id: &str,
    session_id: &str,
) -> Result<Liveness, RemoteError> {
    let dir = root(session_id);
    if let Some(bytes) = provider
        .read_file(sandbox_id, &format!("{dir}\\worker.exit"))
        .await?
    {
        let id = provider
            .read_file(sandbox_id, &format!("{dir}\\launch.id"))
            .await?;
        if let Some(code) = exit_record(&bytes, id.as_deref()) {
            return Ok(Liveness::Exited(code));
        }
    }
    let out = provider
        .exec(sandbox_id, &ps(&check_script(session_id), CHECK_TIMEOUT))
        .await?;
    super::liveness(&out)
}

/// The last `lines` lines of the remote's stderr log and of the bootstrap's own log, read
/// through the file API (never a script: a Linux one would only earn cmd.exe's "The system
/// cannot find the path specified."). `None` when no launch was ever handed off here.
pub async fn log_tail(
    provider: &dyn Provider,
    sandbox_id: &str,
    session_id: &str,
    lines: u32,
) -> Result<Option<String>, RemoteError> {
    let dir = root(session_id);
    if provider
        .read_file(sandbox_id, &format!("{dir}\\launch.id"))
        .await?
        .is_none()
    {
        return Ok(None);
    }
    let mut out = Vec::new();
    for name in ["worker.err.log", "bootstrap.log"] {
        if let Some(bytes) = provider
            .read_file(sandbox_id, &format!("{dir}\\{name}"))
            .await?
        {
            let text = crate::provider::daytona::windows_build::runner::decode_text(&bytes);
            let all: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
            let skip = all.len().saturating_sub(lines as usize);
            out.extend(all[skip..].iter().map(|l| l.to_string()));
        }
    }
    Ok(Some(out.join("\n")))
}

/// Is there a clone at `path` already (the user's work, never touched)?
pub async fn has_clone(
    provider: &dyn Provider,
    sandbox_id: &str,
    path: &str,
) -> Result<bool, RemoteError> {
    let out = provider
        .exec(sandbox_id, &ps(&has_clone_script(path), CHECK_TIMEOUT))
        .await?;
    Ok(out.exit_code == 0)
}

/// The code in an exit record when it belongs to the launch `id` (the content of `launch.id`);
/// `None` for another launch's record. A record without an id (a launch made before ids) counts
/// only when no id is on file.
pub fn exit_record(bytes: &[u8], id: Option<&[u8]>) -> Option<i32> {
    let text = ascii(bytes);
    let mut words = text.split_whitespace();
    let first = words.next().unwrap_or("");
    match (id.map(ascii), words.next()) {
        (Some(want), Some(code)) if first == want.trim() => Some(exit_code(code.as_bytes())),
        (None, None) => Some(exit_code(first.as_bytes())),
        _ => None,
    }
}

fn ascii(bytes: &[u8]) -> String {
    bytes
        .iter()
        .filter(|b| b.is_ascii() && **b != 0)
        .map(|b| *b as char)
        .collect()
}

/// The number in an exit-code file, whichever encoding Windows PowerShell wrote it in (ANSI, or
/// UTF-16 with or without a byte-order mark: the digits are ASCII either way); anything else
/// reads as a crash.
pub fn exit_code(bytes: &[u8]) -> i32 {
    ascii(bytes).trim().parse().unwrap_or(-1)
}
