//! Arguments of the fake CLI and its settings (flag > environment > default), as documented for
//! `devin worker start`.

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Parser, Subcommand};

use super::VERSION;
use crate::secrets::Secret;

#[derive(Debug, Parser)]
#[command(
    name = "devin",
    version = VERSION,
    about = "Fake Devin CLI of `outposts emulator` (serves emulated sessions; not Devin's CLI)"
)]
struct Cli {
    #[command(subcommand)]
    command: Top,
}

#[derive(Debug, Subcommand)]
enum Top {
    /// Outpost worker commands.
    Worker {
        #[command(subcommand)]
        command: WorkerCmd,
    },
}

#[derive(Debug, Subcommand)]
enum WorkerCmd {
    /// Claim and serve sessions of an outpost (or serve one session).
    Start(StartArgs),
}

#[derive(Debug, Clone, clap::Args)]
pub struct StartArgs {
    /// Outpost name or id whose queue to serve.
    #[arg(long, alias = "pool", value_name = "NAME|ID")]
    pub outpost: Option<String>,
    /// Serve exactly this session, then exit (direct-serve with DEVIN_REMOTE_SESSION_TOKEN).
    #[arg(long, alias = "session-id", value_name = "ID")]
    pub session: Option<String>,
    /// Stable acceptor id [env: DEVIN_WORKER_ACCEPTOR_ID; default: generated and kept].
    #[arg(long, value_name = "ID")]
    pub acceptor_id: Option<String>,
    /// Outpost token (prefer DEVIN_OUTPOSTS_TOKEN: argv is visible to every process).
    #[arg(long, value_name = "TOKEN", hide = true)]
    pub token: Option<String>,
    /// Exit after one session.
    #[arg(long)]
    pub once: bool,
    /// Devin API origin [env: DEVIN_API_URL; default: https://api.devin.ai].
    #[arg(long, value_name = "URL")]
    pub api_url: Option<String>,
    /// Remote binary cache [env: DEVIN_WORKER_CACHE_DIR; default: ~/.devin/worker/cache].
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,
    /// Remote binary base URL [env: DEVIN_WORKER_STATIC_BASE_URL].
    #[arg(long, value_name = "URL")]
    pub static_base_url: Option<String>,
    /// Gateway used when a claim carries none [env: DEVIN_OUTPOST_GATEWAY_URL].
    #[arg(long, value_name = "URL")]
    pub gateway_url: Option<String>,
    /// Remote binary sha used when a claim pins none [env: DEVIN_WORKER_REMOTE_SHA].
    #[arg(long, value_name = "SHA")]
    pub remote_binary_sha: Option<String>,
    /// Accepted for compatibility; the fake remote needs no PTY bridge.
    #[arg(long, value_name = "PORT")]
    pub pty_bridge_port: Option<u16>,
    /// Seconds between queue polls.
    #[arg(long, default_value_t = 5, value_name = "SECS")]
    pub poll_interval_secs: u64,
}

/// Resolved settings.
#[derive(Debug, Clone)]
pub struct Settings {
    pub token: Option<Secret>,
    pub api_url: String,
    /// The worker's data dir (`~/.devin/worker`); sessions live under `sessions/`.
    pub data_dir: PathBuf,
    pub cache_dir: PathBuf,
    pub static_base: Option<String>,
    pub gateway_fallback: Option<String>,
    pub sha_fallback: Option<String>,
    pub chrome_path: Option<String>,
    pub poll: Duration,
}

fn env(name: &str) -> Option<String> {
    std::env::var(name)
        .ok()
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
}

pub fn normalize_api(url: &str) -> String {
    let mut s = url.trim().trim_end_matches('/').to_string();
    if let Some(b) = s.strip_suffix("/opbeta") {
        s = b.trim_end_matches('/').to_string();
    }
    s
}

impl Settings {
    fn from(a: &StartArgs) -> Settings {
        let token = a
            .token
            .clone()
            .or_else(|| env("DEVIN_OUTPOSTS_TOKEN"))
            .map(Secret::new);
        let home = env("HOME").unwrap_or_else(|| "/tmp".into());
        let cache_dir = a
            .cache_dir
            .clone()
            .or_else(|| env("DEVIN_WORKER_CACHE_DIR").map(PathBuf::from))
            .unwrap_or_else(|| PathBuf::from(&home).join(".devin/worker/cache"));
        let data_dir = cache_dir
            .parent()
            .map(|p| p.to_path_buf())
            .unwrap_or_else(|| PathBuf::from(&home).join(".devin/worker"));
        Settings {
            token,
            api_url: normalize_api(
                &a.api_url
                    .clone()
                    .or_else(|| env("DEVIN_API_URL"))
                    .unwrap_or_else(|| "https://api.devin.ai".into()),
            ),
            data_dir,
            cache_dir,
            static_base: a
                .static_base_url
                .clone()
                .or_else(|| env("DEVIN_WORKER_STATIC_BASE_URL")),
            gateway_fallback: a
                .gateway_url
                .clone()
                .or_else(|| env("DEVIN_OUTPOST_GATEWAY_URL")),
            sha_fallback: a
                .remote_binary_sha
                .clone()
                .or_else(|| env("DEVIN_WORKER_REMOTE_SHA")),
            chrome_path: env("DEVIN_CHROME_PATH"),
            poll: Duration::from_secs(a.poll_interval_secs.clamp(1, 3600)),
        }
    }

    /// The remote distribution: the setting, else the emulator's under the API origin (or the
    /// gateway's origin, the only URL direct-serve gets), else Devin's.
    pub fn static_base_for(&self, gateway: Option<&str>) -> String {
        if let Some(s) = &self.static_base {
            return s.clone();
        }
        let origin = |u: &str| -> Option<String> {
            let u = u
                .replacen("wss://", "https://", 1)
                .replacen("ws://", "http://", 1);
            let parsed = url::Url::parse(&u).ok()?;
            let host = parsed.host_str()?;
            let port = parsed.port().map(|p| format!(":{p}")).unwrap_or_default();
            Some(format!("{}://{host}{port}", parsed.scheme()))
        };
        let emulated = |o: &str| o.contains("://127.0.0.1") || o.contains("://localhost");
        if let Some(o) = origin(&self.api_url).filter(|o| emulated(o)) {
            return format!("{o}/static/devin-rs/remote/");
        }
        if let Some(o) = gateway.and_then(origin).filter(|o| emulated(o)) {
            return format!("{o}/static/devin-rs/remote/");
        }
        "https://static.devin.ai/devin-rs/remote/".into()
    }
}

/// Parse and run; the exit code.
pub fn main(args: Vec<OsString>) -> u8 {
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    let Top::Worker {
        command: WorkerCmd::Start(a),
    } = cli.command;
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("Error: cannot start the async runtime: {e}");
            return 1;
        }
    };
    if a.token.is_some() {
        super::serve::log_warn(
            "--token puts the token on the command line, where every process can read it; use DEVIN_OUTPOSTS_TOKEN",
        );
    }
    let settings = Settings::from(&a);
    let code = runtime.block_on(super::worker::start(a, settings));
    runtime.shutdown_timeout(Duration::from_millis(200));
    code
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(api: &str) -> Settings {
        Settings {
            token: None,
            api_url: normalize_api(api),
            data_dir: "/d".into(),
            cache_dir: "/d/cache".into(),
            static_base: None,
            gateway_fallback: None,
            sha_fallback: None,
            chrome_path: None,
            poll: Duration::from_secs(5),
        }
    }

    #[test]
    fn static_base_follows_the_emulator() {
        assert_eq!(
            settings("http://127.0.0.1:8790/opbeta/").static_base_for(None),
            "http://127.0.0.1:8790/static/devin-rs/remote/"
        );
        assert_eq!(
            settings("https://api.devin.ai").static_base_for(Some("ws://127.0.0.1:9/gateway")),
            "http://127.0.0.1:9/static/devin-rs/remote/"
        );
        assert_eq!(
            settings("https://api.devin.ai")
                .static_base_for(Some("wss://outpost-gateway.devin.ai")),
            "https://static.devin.ai/devin-rs/remote/"
        );
    }

    #[test]
    fn flags_parse_like_the_real_cli() {
        let c =
            Cli::try_parse_from(["devin", "worker", "start", "--outpost=op", "--once"]).unwrap();
        let Top::Worker {
            command: WorkerCmd::Start(a),
        } = c.command;
        assert_eq!(a.outpost.as_deref(), Some("op"));
        assert!(a.once);
        let c = Cli::try_parse_from([
            "devin",
            "worker",
            "start",
            "--pool",
            "p",
            "--session-id",
            "s",
        ])
        .unwrap();
        let Top::Worker {
            command: WorkerCmd::Start(a),
        } = c.command;
        assert_eq!(
            (a.outpost.as_deref(), a.session.as_deref()),
            (Some("p"), Some("s"))
        );
    }
}
