//! Serving one session: fetch and verify the remote, run `devin-remote serve` with only the
//! documented environment, forward its output, and stop it on request.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use sha2::{Digest, Sha256};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::sync::watch;

use super::cli::Settings;
use crate::api::devin_types::Platform;
use crate::api::http::{self, ApiRequest, HttpClient};
use crate::secrets::{Secret, redact};

fn now() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}

/// One log line on stdout (redacted).
pub fn log_info(msg: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{} INFO  {}", now(), redact(msg));
    let _ = out.flush();
}

/// One warning on stderr (redacted).
pub fn log_warn(msg: &str) {
    eprintln!("{} WARN  {}", now(), redact(msg));
}

/// One error on stderr (redacted).
pub fn log_error(msg: &str) {
    eprintln!("{} ERROR {}", now(), redact(msg));
}

/// A verified remote binary in the cache.
#[derive(Debug, Clone)]
pub struct Remote {
    pub path: PathBuf,
    pub sha: String,
}

fn sha256_file(path: &Path) -> Option<String> {
    std::fs::read(path)
        .ok()
        .map(|b| hex::encode(Sha256::digest(&b)))
}

/// Resolve (pin → fallback → `latest_*`), then use the cached copy if it verifies, else
/// download, verify and install it.
pub async fn install(
    http: &HttpClient,
    s: &Settings,
    pinned: Option<&str>,
    gateway: &str,
    platform: Platform,
) -> Result<Remote, String> {
    if !matches!(platform, Platform::Linux | Platform::Unknown) {
        return Err(format!(
            "this worker runs on Linux; the session is for {}",
            platform.as_str()
        ));
    }
    let suffix = match std::env::consts::ARCH {
        "aarch64" => "linux_arm64",
        _ => "linux_x64",
    };
    let base = s.static_base_for(Some(gateway));
    let pin = pinned.or(s.sha_fallback.as_deref());
    let bin = resolve(http, base.trim_end_matches('/'), pin, suffix)
        .await
        .map_err(|e| format!("cannot resolve devin-remote: {e}"))?;
    std::fs::create_dir_all(&s.cache_dir)
        .map_err(|e| format!("cannot create {}: {e}", s.cache_dir.display()))?;
    let path = s.cache_dir.join(&bin.file);
    if sha256_file(&path).as_deref() == Some(bin.sha256.as_str()) {
        return Ok(Remote { path, sha: bin.sha });
    }
    let resp = http
        .send(ApiRequest::get(http::STATIC, bin.url.clone()).max_body(512 * 1024 * 1024))
        .await
        .map_err(|e| format!("cannot download {}: {e}", bin.url))?;
    let got = hex::encode(Sha256::digest(&resp.body));
    if got != bin.sha256 {
        return Err(format!(
            "checksum mismatch for {}: expected {}, got {got}",
            bin.file, bin.sha256
        ));
    }
    let partial = path.with_extension("partial");
    let written = (|| {
        use std::os::unix::fs::PermissionsExt;
        std::fs::write(&partial, &resp.body)?;
        std::fs::set_permissions(&partial, std::fs::Permissions::from_mode(0o755))?;
        std::fs::rename(&partial, &path)
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_file(&partial);
        return Err(format!("cannot install {}: {e}", path.display()));
    }
    log_info(&format!(
        "Downloaded devin-remote {} ({} bytes, sha256 verified)",
        bin.sha,
        resp.body.len()
    ));
    Ok(Remote { path, sha: bin.sha })
}

/// One build of the remote, per the distribution's layout (spec §8).
struct Build {
    sha: String,
    file: String,
    url: String,
    sha256: String,
}

/// The pin, else what `latest_<suffix>` names; then the build's `.sha256`.
async fn resolve(
    http: &HttpClient,
    base: &str,
    pin: Option<&str>,
    suffix: &str,
) -> Result<Build, String> {
    let get = |url: String| async move {
        http.send(ApiRequest::get(http::STATIC, url.clone()))
            .await
            .map(|r| r.text())
            .map_err(|e| format!("{url}: {e}"))
    };
    let sha = match pin {
        Some(p) => p.trim().to_string(),
        None => get(format!("{base}/latest_{suffix}"))
            .await?
            .trim()
            .to_string(),
    };
    if !(7..=64).contains(&sha.len()) || !sha.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(format!("`{sha}` is not a remote build sha"));
    }
    let file = format!("devin-remote_{sha}_{suffix}");
    let url = format!("{base}/{file}");
    let sum = get(format!("{url}.sha256")).await?;
    let sha256 = sum
        .split(|c: char| !c.is_ascii_hexdigit())
        .find(|t| t.len() == 64)
        .map(str::to_ascii_lowercase)
        .ok_or_else(|| format!("{url}.sha256 holds no sha256 digest"))?;
    Ok(Build {
        sha,
        file,
        url,
        sha256,
    })
}

/// What to run.
pub struct RunSpec<'a> {
    pub session_id: &'a str,
    pub gateway: &'a str,
    pub connect_token: &'a Secret,
    pub state_dir: PathBuf,
    pub chrome_path: Option<&'a str>,
}

/// How the remote ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    Code(i32),
    /// Stopped because the worker is shutting down.
    Shutdown,
    /// Stopped because the session ended and it did not exit by itself.
    Stopped,
}

/// Variables of the worker's own environment the remote may see (spec §9's clean
/// environment), plus the fake remote's file-root override.
const PASS: &[&str] = &[
    "PATH",
    "HOME",
    "USER",
    "LOGNAME",
    "TMPDIR",
    "LANG",
    "TZ",
    "DISPLAY",
    "WAYLAND_DISPLAY",
    "XAUTHORITY",
    "DEVIN_OUTPOST_DESKTOP",
    "DEVIN_REMOTE_FS_ROOT",
    // Unisolated local sandboxes: where the sandbox's `/` is on the host.
    "OUTPOSTS_SANDBOX_ROOT",
];

fn signal_group(pid: u32, sig: i32) {
    // SAFETY: kill(2) with a negative pid signals the process group we created for the remote.
    unsafe {
        libc::kill(-(pid as i32), sig);
    }
}

/// Run `devin-remote serve` until it exits, `shutdown` turns true, or `stop` turns true.
pub async fn run(
    remote: &Remote,
    spec: &RunSpec<'_>,
    mut shutdown: watch::Receiver<bool>,
    mut stop: watch::Receiver<bool>,
) -> Result<Exit, String> {
    std::fs::create_dir_all(&spec.state_dir)
        .map_err(|e| format!("cannot create {}: {e}", spec.state_dir.display()))?;
    let mut cmd = tokio::process::Command::new(&remote.path);
    cmd.arg("serve").env_clear();
    for k in PASS {
        if let Ok(v) = std::env::var(k) {
            cmd.env(k, v);
        }
    }
    cmd.env("DEVIN_OUTPOST_GATEWAY_URL", spec.gateway)
        .env("DEVIN_OUTPOST_CONNECT_TOKEN", spec.connect_token.expose())
        .env("DEVIN_OUTPOST_SESSION_ID", spec.session_id)
        .env("DEVIN_REMOTE_STATE_DIR", &spec.state_dir);
    if let Some(c) = spec.chrome_path {
        cmd.env("DEVIN_CHROME_PATH", c);
    }
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(true);
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", remote.path.display()))?;
    let pid = child.id().unwrap_or(0);
    let mut forwards = Vec::new();
    if let Some(out) = child.stdout.take() {
        forwards.push(tokio::spawn(forward(BufReader::new(out), false)));
    }
    if let Some(err) = child.stderr.take() {
        forwards.push(tokio::spawn(forward(BufReader::new(err), true)));
    }
    let why = tokio::select! {
        status = child.wait() => {
            let status = status.map_err(|e| format!("waiting for the remote: {e}"))?;
            use std::os::unix::process::ExitStatusExt;
            let code = status.code().unwrap_or_else(|| 128 + status.signal().unwrap_or(0));
            // A grandchild may hold the pipes open; do not wait for it.
            for f in forwards { let _ = tokio::time::timeout(Duration::from_secs(2), f).await; }
            return Ok(Exit::Code(code));
        }
        _ = shutdown.wait_for(|v| *v) => Exit::Shutdown,
        _ = stop.wait_for(|v| *v) => Exit::Stopped,
    };
    if pid != 0 {
        signal_group(pid, libc::SIGTERM);
    }
    if tokio::time::timeout(Duration::from_secs(5), child.wait())
        .await
        .is_err()
    {
        if pid != 0 {
            signal_group(pid, libc::SIGKILL);
        }
        let _ = child.wait().await;
    }
    for f in forwards {
        let _ = tokio::time::timeout(Duration::from_secs(1), f).await;
    }
    Ok(why)
}

async fn forward<R: tokio::io::AsyncRead + Unpin>(reader: BufReader<R>, stderr: bool) {
    let mut lines = reader.lines();
    while let Ok(Some(line)) = lines.next_line().await {
        if stderr {
            log_warn(&format!("remote: {line}"));
        } else {
            log_info(&format!("remote: {line}"));
        }
    }
}
