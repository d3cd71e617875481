//! `devin-remote`: pick the binary, verify it inside the sandbox, launch it detached with only
//! the documented environment, and check that it is (still) the process we launched.
//!
//! Spawn contract: specs/devin-outposts-api.md §8–§9. The checksums are fetched by the
//! orchestrator ([`Resolver`], cached: a build's checksum never changes); one exec in the
//! sandbox ([`linux::LAUNCH`]) adopts a live remote of ours, or picks the binary for its
//! architecture, reuses a cached copy that verifies or downloads it to `<bin>.partial` and
//! checks it with `sha256sum -c`, and starts it. Every value reaches the sandbox through the
//! exec request's environment, never in the command text; the connect token never appears in a
//! command line. Windows launches are short PowerShell steps ([`windows`]).

use std::collections::BTreeMap;

use sha2::{Digest, Sha256};

use crate::api::devin_types::Platform;
use crate::provider::{ExecRequest, Provider};
use crate::secrets::Secret;

/// How the session is served inside the sandbox.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Default)]
pub enum LaunchMode {
    /// Download, verify and run `devin-remote serve` (the documented spawn contract).
    #[default]
    Remote,
    /// Run `devin worker start --session <id>` (the CLI's direct-serve mode), which fetches the
    /// remote itself; the sandbox image must provide `devin`.
    Cli,
}

/// The distribution suffix for a platform and `uname -m` machine.
pub fn suffix_for(platform: Platform, machine: &str) -> &'static str {
    match platform {
        Platform::Windows => "windows_x64.exe",
        Platform::Macos => "macos_arm64",
        _ if matches!(machine.trim(), "aarch64" | "arm64") => "linux_arm64",
        _ => "linux_x64",
    }
}

/// A short git sha: 7–64 hex digits.
pub fn valid_sha(s: &str) -> bool {
    (7..=64).contains(&s.len()) && s.chars().all(|c| c.is_ascii_hexdigit())
}

/// The first 64-hex token of a `.sha256` body, lower-cased.
pub fn parse_checksum(body: &str) -> Option<String> {
    body.split(|c: char| !c.is_ascii_hexdigit())
        .find(|t| t.len() == 64)
        .map(str::to_ascii_lowercase)
}

#[derive(Debug, thiserror::Error)]
pub enum RemoteError {
    #[error("the claim pins remote_binary_sha `{0}`, which is not a git sha")]
    BadPin(String),
    #[error("`latest_{suffix}` at {base} does not name a sha: {body:?}")]
    BadLatest {
        suffix: String,
        base: String,
        body: String,
    },
    #[error(
        "no devin-remote build for {platform} is published at {base} (tried {tried}); pin remote_binary_sha on the session"
    )]
    NotPublished {
        platform: String,
        base: String,
        tried: String,
    },
    #[error("the checksum file for {0} has no sha256 digest")]
    BadChecksum(String),
    #[error("the remote binary's checksum does not match inside the sandbox: {0}")]
    ChecksumMismatch(String),
    #[error("downloading the remote binary inside the sandbox failed: {0}")]
    Download(String),
    #[error("launching the remote failed (exit {code}): {output}")]
    Launch { code: i32, output: String },
    /// The check printed none of its answers (a truncated or lost exec): no evidence either way.
    #[error("the liveness check answered nothing it can print (exit {code}): {output:?}")]
    Unanswered { code: i32, output: String },
    #[error(transparent)]
    Api(#[from] crate::api::ApiError),
    #[error(transparent)]
    Provider(#[from] crate::provider::ProviderError),
}

/// A filesystem-safe id for a session: its readable part plus a hash, so distinct ids never
/// collide and hostile ids (`../x`) never escape a directory.
pub fn safe_id(session_id: &str) -> String {
    let readable = super::readable(session_id, 40);
    let hash = &hex::encode(Sha256::digest(session_id.as_bytes()))[..12];
    if readable.is_empty() {
        hash.to_string()
    } else {
        format!("{readable}-{hash}")
    }
}

/// Where and how to run the remote for one session.
#[derive(Debug, Clone)]
pub struct LaunchPlan {
    pub session_id: String,
    pub platform: Platform,
    pub mode: LaunchMode,
    pub workdir: String,
    /// The build to run (`None`: the CLI mode, which fetches the remote itself).
    pub build: Option<Build>,
    pub gateway_url: String,
    pub connect_token: Secret,
    pub chrome_path: Option<String>,
}

/// What the liveness check saw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Liveness {
    Running(u32),
    Exited(i32),
    Absent,
}

fn safe_env(session_id: &str) -> BTreeMap<String, Secret> {
    let mut env = BTreeMap::new();
    env.insert(
        "OUTPOSTS_SAFE_ID".into(),
        Secret::plain(safe_id(session_id)),
    );
    env
}

fn exec(script: &str, env: BTreeMap<String, Secret>) -> ExecRequest {
    ExecRequest {
        cmd: crate::provider::Cmd::Shell(script.to_string()),
        cwd: None,
        env,
        timeout: Some(std::time::Duration::from_secs(600)),
    }
}

/// Launch the remote in one exec (see [`linux::LAUNCH`]); idempotent: a live remote of ours is
/// adopted, not started again.
pub async fn launch(
    provider: &dyn Provider,
    sandbox_id: &str,
    plan: &LaunchPlan,
) -> Result<Launched, RemoteError> {
    let env = remote_env(plan);
    if plan.platform == Platform::Windows {
        return windows::launch(provider, sandbox_id, plan, env).await;
    }
    let mut all = safe_env(&plan.session_id);
    all.insert(
        "OUTPOSTS_LAUNCH".into(),
        Secret::plain(match plan.mode {
            LaunchMode::Cli => "cli",
            LaunchMode::Remote => "remote",
        }),
    );
    all.insert(
        "OUTPOSTS_WORKDIR".into(),
        Secret::plain(plan.workdir.clone()),
    );
    if let Some(b) = &plan.build {
        all.insert("OUTPOSTS_REMOTE_SHA".into(), Secret::plain(b.sha.clone()));
        all.insert("OUTPOSTS_REMOTE_BASE".into(), Secret::plain(b.base.clone()));
        for (suffix, sum) in &b.sha256 {
            all.insert(
                format!("OUTPOSTS_SHA256_{suffix}"),
                Secret::plain(sum.clone()),
            );
        }
    }
    all.extend(env);
    let out = provider.exec(sandbox_id, &exec(linux::LAUNCH, all)).await?;
    let detail = || last_line(&out.stderr, &out.stdout);
    let parsed = linux::parse_launch(&out.stdout);
    let field = |pairs: &[(String, String)], k: &str| {
        pairs
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.clone())
    };
    match parsed {
        Some((r, pairs)) if r == "running" && out.exit_code == 0 => Ok(Launched::Running {
            pid: field(&pairs, "pid")
                .and_then(|p| p.parse().ok())
                .unwrap_or(0),
        }),
        Some((r, pairs)) if r == "launched" && out.exit_code == 0 => Ok(Launched::Started {
            pid: field(&pairs, "pid")
                .and_then(|p| p.parse().ok())
                .unwrap_or(0),
            cached: match field(&pairs, "cached").as_deref() {
                Some("yes") => Some(true),
                Some("no") => Some(false),
                _ => None,
            },
        }),
        Some((_, pairs)) if field(&pairs, "stage").as_deref() == Some("checksum") => {
            Err(RemoteError::ChecksumMismatch(detail()))
        }
        Some((_, pairs)) if field(&pairs, "stage").as_deref() == Some("download") => {
            Err(RemoteError::Download(detail()))
        }
        _ => Err(RemoteError::Launch {
            code: out.exit_code,
            output: detail(),
        }),
    }
}

/// Warm-up: download and verify `build`'s Linux binary into the cache the launch reads (see
/// [`linux::PREFETCH`]); `Ok(true)` when it was downloaded now, `Ok(false)` when already there.
pub async fn prefetch(
    provider: &dyn Provider,
    sandbox_id: &str,
    build: &Build,
) -> Result<bool, RemoteError> {
    let mut env = BTreeMap::new();
    env.insert(
        "OUTPOSTS_REMOTE_SHA".into(),
        Secret::plain(build.sha.clone()),
    );
    env.insert(
        "OUTPOSTS_REMOTE_BASE".into(),
        Secret::plain(build.base.clone()),
    );
    for (suffix, sum) in &build.sha256 {
        env.insert(
            format!("OUTPOSTS_SHA256_{suffix}"),
            Secret::plain(sum.clone()),
        );
    }
    let out = provider
        .exec(sandbox_id, &exec(linux::PREFETCH, env))
        .await?;
    let detail = || last_line(&out.stderr, &out.stdout);
    match linux::parse_launch(&out.stdout) {
        Some((r, pairs)) if r == "fetched" && out.exit_code == 0 => {
            Ok(!pairs.iter().any(|(k, v)| k == "cached" && v == "yes"))
        }
        Some((_, pairs)) if pairs.iter().any(|(k, v)| k == "stage" && v == "checksum") => {
            Err(RemoteError::ChecksumMismatch(detail()))
        }
        _ => Err(RemoteError::Download(detail())),
    }
}

/// The documented environment of the remote (and of the CLI in direct-serve mode).
pub fn remote_env(plan: &LaunchPlan) -> BTreeMap<String, Secret> {
    let safe = safe_id(&plan.session_id);
    let mut env = BTreeMap::new();
    env.insert(
        "DEVIN_OUTPOST_GATEWAY_URL".into(),
        Secret::plain(plan.gateway_url.clone()),
    );
    env.insert(
        "DEVIN_OUTPOST_SESSION_ID".into(),
        Secret::plain(plan.session_id.clone()),
    );
    // On Linux the launch script sets DEVIN_REMOTE_STATE_DIR under the sandbox's $HOME.
    if plan.platform == Platform::Windows {
        env.insert(
            "DEVIN_REMOTE_STATE_DIR".into(),
            Secret::plain(format!(
                "C:\\ProgramData\\devin-outposts\\sessions\\{safe}\\state"
            )),
        );
    }
    if let Some(c) = &plan.chrome_path {
        env.insert("DEVIN_CHROME_PATH".into(), Secret::plain(c.clone()));
    }
    // Windows sandboxes run the daemon in the interactive session, so the desktop stream works.
    if plan.platform == Platform::Windows {
        env.insert("DEVIN_OUTPOST_DESKTOP".into(), Secret::plain("true"));
    }
    match plan.mode {
        LaunchMode::Remote => {
            env.insert(
                "DEVIN_OUTPOST_CONNECT_TOKEN".into(),
                plan.connect_token.clone(),
            );
        }
        LaunchMode::Cli => {
            env.insert(
                "DEVIN_REMOTE_SESSION_TOKEN".into(),
                plan.connect_token.clone(),
            );
            if let Some(b) = &plan.build {
                env.insert(
                    "DEVIN_WORKER_REMOTE_SHA".into(),
                    Secret::plain(b.sha.clone()),
                );
            }
            // The CLI refuses to start without some account token; it never uses it in this
            // mode, and the real one must never enter a sandbox.
            env.insert(
                "DEVIN_OUTPOSTS_TOKEN".into(),
                Secret::plain("placeholder-direct-serve"),
            );
        }
    }
    env
}

/// Is the remote running, exited, or absent?
pub async fn check(
    provider: &dyn Provider,
    sandbox_id: &str,
    session_id: &str,
    platform: Platform,
) -> Result<Liveness, RemoteError> {
    if platform == Platform::Windows {
        return windows::check(provider, sandbox_id, session_id).await;
    }
    let out = provider
        .exec(sandbox_id, &exec(linux::CHECK, safe_env(session_id)))
        .await?;
    liveness(&out)
}

/// The check's answer, or `None` when its output holds none (never read as "absent").
pub fn parse_liveness(out: &str) -> Option<Liveness> {
    let line = out
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim();
    let mut parts = line.split_whitespace();
    match (parts.next(), parts.next().map(str::parse::<i64>)) {
        (Some("running"), Some(Ok(pid))) => {
            Some(Liveness::Running(pid.clamp(0, u32::MAX as i64) as u32))
        }
        (Some("exited"), Some(Ok(code))) => Some(Liveness::Exited(
            code.clamp(i32::MIN as i64, i32::MAX as i64) as i32,
        )),
        // An exit file without a number (killed mid-write) is a crash.
        (Some("exited"), _) => Some(Liveness::Exited(-1)),
        (Some("absent"), None) => Some(Liveness::Absent),
        _ => None,
    }
}

/// [`parse_liveness`] of an exec's output, as the check's result.
pub(super) fn liveness(out: &crate::provider::ExecOutput) -> Result<Liveness, RemoteError> {
    parse_liveness(&out.stdout).ok_or_else(|| RemoteError::Unanswered {
        code: out.exit_code,
        output: crate::secrets::redact(out.stdout.chars().take(200).collect::<String>().trim())
            .into_owned(),
    })
}

/// How the launch script's own diagnostic lines in the remote's log begin (see `linux.rs`).
pub const LAUNCHER_LINE: &str = "outposts: ";

/// The last `lines` lines of the remote's log (for diagnostics).
pub async fn log_tail(
    provider: &dyn Provider,
    sandbox_id: &str,
    session_id: &str,
    lines: u32,
) -> Result<String, RemoteError> {
    // A Windows launch leaves `launch.id`: its logs are files, read without a script.
    if let Ok(Some(tail)) = windows::log_tail(provider, sandbox_id, session_id, lines).await {
        return Ok(tail);
    }
    let mut env = safe_env(session_id);
    env.insert("OUTPOSTS_LINES".into(), Secret::plain(lines.to_string()));
    let out = provider
        .exec(sandbox_id, &exec(linux::LOG_TAIL, env))
        .await?;
    Ok(out.stdout)
}

fn last_line(stderr: &str, stdout: &str) -> String {
    let pick = |s: &str| {
        s.lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .map(str::to_string)
    };
    pick(stderr)
        .or_else(|| pick(stdout))
        .unwrap_or_else(|| "no output".into())
}

pub mod bake;
mod linux;
mod resolve;
pub mod windows;
pub mod windows_install;
pub mod windows_scripts;

pub use linux::Launched;
pub use resolve::{Build, Resolver};

#[cfg(test)]
mod tests;
#[cfg(test)]
mod windows_tests;
