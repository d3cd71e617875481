//! `devin-remote`: pick the binary, verify it inside the sandbox, launch it detached with only
//! the documented environment, and check that it is (still) the process we launched.
//!
//! Spawn contract: specs/devin-outposts-api.md §8–§9. The checksum is fetched by the
//! orchestrator; the sandbox downloads the binary itself to `<bin>.partial`, checks it with
//! `sha256sum -c`, renames it and makes it executable. A cached copy that verifies skips the
//! download. Every value reaches the sandbox through the exec request's environment, never in
//! the command text; the connect token never appears in a command line.

use std::collections::BTreeMap;

use base64::Engine;
use sha2::{Digest, Sha256};

use crate::api::devin_types::Platform;
use crate::api::http::{self, ApiRequest, HttpClient};
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

/// A `devin-remote` build to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemoteBinary {
    pub sha: String,
    pub suffix: &'static str,
    pub url: String,
    /// Lower-case hex sha256 from the `.sha256` file.
    pub sha256: String,
}

impl RemoteBinary {
    pub fn file_name(&self) -> String {
        format!("devin-remote_{}_{}", self.sha, self.suffix)
    }
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
    #[error("the checksum file for {0} has no sha256 digest")]
    BadChecksum(String),
    #[error("the remote binary's checksum does not match inside the sandbox: {0}")]
    ChecksumMismatch(String),
    #[error("downloading the remote binary inside the sandbox failed: {0}")]
    Download(String),
    #[error("launching the remote failed (exit {code}): {output}")]
    Launch { code: i32, output: String },
    #[error(transparent)]
    Api(#[from] crate::api::ApiError),
    #[error(transparent)]
    Provider(#[from] crate::provider::ProviderError),
}

/// Resolve the binary: the claim's pin, else `latest_<suffix>`; then its checksum.
pub async fn resolve(
    http: &HttpClient,
    static_base: &str,
    pinned: Option<&str>,
    suffix: &'static str,
) -> Result<RemoteBinary, RemoteError> {
    let base = static_base.trim_end_matches('/');
    let sha = match pinned {
        Some(p) if valid_sha(p) => p.to_string(),
        Some(p) => return Err(RemoteError::BadPin(p.to_string())),
        None => {
            let resp = http
                .send(ApiRequest::get(
                    http::STATIC,
                    format!("{base}/latest_{suffix}"),
                ))
                .await?;
            let body = resp.text();
            let sha = body.trim().to_string();
            if !valid_sha(&sha) {
                return Err(RemoteError::BadLatest {
                    suffix: suffix.into(),
                    base: base.into(),
                    body: http::excerpt(body.as_bytes()),
                });
            }
            sha
        }
    };
    let url = format!("{base}/devin-remote_{sha}_{suffix}");
    let resp = http
        .send(ApiRequest::get(http::STATIC, format!("{url}.sha256")))
        .await?;
    let sha256 =
        parse_checksum(&resp.text()).ok_or_else(|| RemoteError::BadChecksum(url.clone()))?;
    Ok(RemoteBinary {
        sha,
        suffix,
        url,
        sha256,
    })
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

// ---- Linux ---------------------------------------------------------------------------------

/// Checks a cached copy, else downloads to `.partial`, verifies, renames, chmods.
/// Env: OUTPOSTS_REMOTE_NAME, OUTPOSTS_REMOTE_URL, OUTPOSTS_REMOTE_SHA256.
const LINUX_INSTALL: &str = r#"set -eu
dir="$HOME/.devin/remote/cache"
bin="$dir/$OUTPOSTS_REMOTE_NAME"
mkdir -p "$dir"
if [ -f "$bin" ] && echo "$OUTPOSTS_REMOTE_SHA256  $bin" | sha256sum -c --status 2>/dev/null; then
  echo "cached $bin"
  exit 0
fi
# A partial file of its own, so two installs never write one file.
part="$bin.partial.$$"
rm -f "$part"
if ! curl -fsSL --retry 3 --connect-timeout 20 -o "$part" "$OUTPOSTS_REMOTE_URL"; then
  rm -f "$part"
  echo "download failed: $OUTPOSTS_REMOTE_URL" >&2
  exit 3
fi
if ! echo "$OUTPOSTS_REMOTE_SHA256  $part" | sha256sum -c --status; then
  got=$(sha256sum "$part" | cut -d' ' -f1)
  rm -f "$part"
  echo "checksum mismatch: expected $OUTPOSTS_REMOTE_SHA256, got $got" >&2
  exit 4
fi
chmod 0755 "$part"
mv -f "$part" "$bin"
echo "downloaded $bin"
"#;

/// Starts the remote detached in the work dir with only the documented environment, under a
/// tiny wrapper that records its exit code. Env: OUTPOSTS_SAFE_ID, OUTPOSTS_WORKDIR,
/// OUTPOSTS_LAUNCH (`remote` | `cli`), OUTPOSTS_REMOTE_NAME, plus the remote's own variables.
const LINUX_LAUNCH: &str = r#"set -eu
run="$HOME/.devin-outposts/$OUTPOSTS_SAFE_ID"
workdir="$OUTPOSTS_WORKDIR"
mode="$OUTPOSTS_LAUNCH"
if [ "$mode" = cli ]; then
  bin=$(command -v devin || true)
  [ -n "$bin" ] || { echo "devin CLI not found on PATH in the sandbox" >&2; exit 5; }
else
  bin="$HOME/.devin/remote/cache/$OUTPOSTS_REMOTE_NAME"
fi
# A state dir of its own per session (the shared fallbacks would mix sessions).
DEVIN_REMOTE_STATE_DIR="$HOME/.devin/remote/sessions/$OUTPOSTS_SAFE_ID"
export DEVIN_REMOTE_STATE_DIR
if [ "$mode" = cli ]; then
  DEVIN_WORKER_CACHE_DIR="$HOME/.devin/worker/cache"
  export DEVIN_WORKER_CACHE_DIR
fi
mkdir -p "$run" "$workdir" "$DEVIN_REMOTE_STATE_DIR"
if [ -f "$run/remote.pid" ]; then
  pid=$(cat "$run/remote.pid" 2>/dev/null || true)
  old=$(cat "$run/remote.bin" 2>/dev/null || true)
  if [ -n "$pid" ] && [ -n "$old" ] && kill -0 "$pid" 2>/dev/null && tr '\0' '\n' < "/proc/$pid/cmdline" 2>/dev/null | grep -qxF "$old"; then
    echo "already running $pid"
    exit 0
  fi
fi
rm -f "$run/remote.exit"
cd "$workdir"
# Only the documented variables reach the remote; everything else would leak into the agent's
# shell. Values never pass through a command line.
for v in $(env | sed -n 's/^\([A-Za-z_][A-Za-z0-9_]*\)=.*/\1/p'); do
  case "$v" in
    PATH|HOME|USER|LOGNAME|TMPDIR|LANG|TZ|DISPLAY|WAYLAND_DISPLAY|XAUTHORITY) ;;
    DEVIN_OUTPOST_GATEWAY_URL|DEVIN_OUTPOST_CONNECT_TOKEN|DEVIN_OUTPOST_SESSION_ID|DEVIN_REMOTE_STATE_DIR) ;;
    DEVIN_CHROME_PATH|DEVIN_OUTPOST_DESKTOP) ;;
    DEVIN_REMOTE_SESSION_TOKEN|DEVIN_WORKER_REMOTE_SHA|DEVIN_WORKER_CACHE_DIR|DEVIN_OUTPOSTS_TOKEN) [ "$mode" = cli ] || unset "$v" ;;
    *) unset "$v" 2>/dev/null || true ;;
  esac
done
if [ "$mode" = cli ]; then
  nohup sh -c '"$0" worker start --session "$2"; echo $? > "$1"' "$bin" "$run/remote.exit" "$DEVIN_OUTPOST_SESSION_ID" >> "$run/remote.log" 2>&1 < /dev/null &
else
  nohup sh -c '"$0" serve; echo $? > "$1"' "$bin" "$run/remote.exit" >> "$run/remote.log" 2>&1 < /dev/null &
fi
echo $! > "$run/remote.pid"
# The binary is recorded so that a later check (after a restart, without the claim's pin)
# trusts the pid only while it still runs this binary.
echo "$bin" > "$run/remote.bin"
echo "launched $!"
"#;

/// Prints `running <pid>`, `exited <code>` or `absent`. A pid counts only if its command line
/// names the binary recorded at launch (guards against pid reuse). Env: OUTPOSTS_SAFE_ID.
const LINUX_CHECK: &str = r#"run="$HOME/.devin-outposts/$OUTPOSTS_SAFE_ID"
bin=$(cat "$run/remote.bin" 2>/dev/null || true)
pid=$(cat "$run/remote.pid" 2>/dev/null || true)
if [ -n "$pid" ] && [ -n "$bin" ] && kill -0 "$pid" 2>/dev/null && tr '\0' '\n' < "/proc/$pid/cmdline" 2>/dev/null | grep -qxF "$bin"; then
  echo "running $pid"
elif [ -f "$run/remote.exit" ]; then
  echo "exited $(cat "$run/remote.exit")"
else
  echo absent
fi
"#;

/// The last lines of the remote's log. Env: OUTPOSTS_SAFE_ID, OUTPOSTS_LINES.
const LINUX_LOG_TAIL: &str = r#"tail -n "$OUTPOSTS_LINES" "$HOME/.devin-outposts/$OUTPOSTS_SAFE_ID/remote.log" 2>/dev/null || true"#;

/// Where and how to run the remote for one session.
#[derive(Debug, Clone)]
pub struct LaunchPlan {
    pub session_id: String,
    pub platform: Platform,
    pub mode: LaunchMode,
    pub workdir: String,
    pub binary: Option<RemoteBinary>,
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

fn base_env(
    session_id: &str,
    mode: LaunchMode,
    binary: Option<&RemoteBinary>,
) -> BTreeMap<String, Secret> {
    let mut env = BTreeMap::new();
    env.insert(
        "OUTPOSTS_SAFE_ID".into(),
        Secret::plain(safe_id(session_id)),
    );
    env.insert(
        "OUTPOSTS_LAUNCH".into(),
        Secret::plain(if mode == LaunchMode::Cli {
            "cli"
        } else {
            "remote"
        }),
    );
    if let Some(b) = binary {
        env.insert("OUTPOSTS_REMOTE_NAME".into(), Secret::plain(b.file_name()));
        env.insert("OUTPOSTS_REMOTE_URL".into(), Secret::plain(b.url.clone()));
        env.insert(
            "OUTPOSTS_REMOTE_SHA256".into(),
            Secret::plain(b.sha256.clone()),
        );
    }
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

/// Download and verify the binary inside the sandbox (no-op when a cached copy verifies).
pub async fn install(
    provider: &dyn Provider,
    sandbox_id: &str,
    plan: &LaunchPlan,
) -> Result<(), RemoteError> {
    let Some(binary) = &plan.binary else {
        return Ok(());
    };
    if plan.platform == Platform::Windows {
        return Ok(()); // The Windows bootstrap installs and launches in one step.
    }
    let out = provider
        .exec(
            sandbox_id,
            &exec(
                LINUX_INSTALL,
                base_env(&plan.session_id, plan.mode, Some(binary)),
            ),
        )
        .await?;
    match out.exit_code {
        0 => Ok(()),
        4 => Err(RemoteError::ChecksumMismatch(last_line(
            &out.stderr,
            &out.stdout,
        ))),
        _ => Err(RemoteError::Download(last_line(&out.stderr, &out.stdout))),
    }
}

/// Launch detached. Idempotent: a live remote of the same binary is left alone.
pub async fn launch(
    provider: &dyn Provider,
    sandbox_id: &str,
    plan: &LaunchPlan,
) -> Result<(), RemoteError> {
    let env = remote_env(plan);
    if plan.platform == Platform::Windows {
        return windows::launch(provider, sandbox_id, plan, env).await;
    }
    let mut all = base_env(&plan.session_id, plan.mode, plan.binary.as_ref());
    all.insert(
        "OUTPOSTS_WORKDIR".into(),
        Secret::plain(plan.workdir.clone()),
    );
    all.extend(env);
    let out = provider.exec(sandbox_id, &exec(LINUX_LAUNCH, all)).await?;
    if out.exit_code != 0 {
        return Err(RemoteError::Launch {
            code: out.exit_code,
            output: last_line(&out.stderr, &out.stdout),
        });
    }
    Ok(())
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
            if let Some(b) = &plan.binary {
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
    let mut env = BTreeMap::new();
    env.insert(
        "OUTPOSTS_SAFE_ID".into(),
        Secret::plain(safe_id(session_id)),
    );
    let out = provider.exec(sandbox_id, &exec(LINUX_CHECK, env)).await?;
    Ok(parse_liveness(&out.stdout))
}

pub fn parse_liveness(out: &str) -> Liveness {
    let line = out
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim();
    let mut parts = line.split_whitespace();
    match (parts.next(), parts.next().map(str::parse::<i64>)) {
        (Some("running"), Some(Ok(pid))) => Liveness::Running(pid.clamp(0, u32::MAX as i64) as u32),
        (Some("exited"), Some(Ok(code))) => {
            Liveness::Exited(code.clamp(i32::MIN as i64, i32::MAX as i64) as i32)
        }
        // An exit file without a number (killed mid-write) is a crash.
        (Some("exited"), _) => Liveness::Exited(-1),
        _ => Liveness::Absent,
    }
}

/// The last `lines` lines of the remote's log (for diagnostics).
pub async fn log_tail(
    provider: &dyn Provider,
    sandbox_id: &str,
    session_id: &str,
    lines: u32,
) -> Result<String, RemoteError> {
    let mut env = BTreeMap::new();
    env.insert(
        "OUTPOSTS_SAFE_ID".into(),
        Secret::plain(safe_id(session_id)),
    );
    env.insert("OUTPOSTS_LINES".into(), Secret::plain(lines.to_string()));
    let out = provider
        .exec(sandbox_id, &exec(LINUX_LOG_TAIL, env))
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

/// PowerShell `-EncodedCommand`: base64 of the UTF-16LE script text.
pub fn encode_powershell(script: &str) -> String {
    let utf16: Vec<u8> = script.encode_utf16().flat_map(u16::to_le_bytes).collect();
    base64::engine::general_purpose::STANDARD.encode(utf16)
}

pub mod windows;

#[cfg(test)]
mod tests;
