//! Fixed workers: sandboxes that run `devin worker start --outpost=…` and serve an outpost's
//! sessions one after another (the CoreWeave model), on any provider.
//!
//! - **Main mode** (CoreWeave, local): the worker is the sandbox's main command, a small shell
//!   wrapper ([`WRAPPER`]) that installs git and CA certificates when the image lacks them and
//!   then `exec`s `devin worker start --outpost=<NAME>`. The provider supervises it (restart on
//!   failure, restart count, exit code, main-process log).
//! - **Exec mode** (Daytona, whose sandboxes have no main command): the same wrapper runs
//!   detached through an exec, under a small restarting supervisor that records its pid, exit
//!   code and restart count in `$HOME/.outposts-worker/` and appends to `worker.log` there
//!   ([`detached`]).
//!
//! The outpost token reaches the worker through the environment (the sandbox's main-process
//! environment, or the launch exec's) or a provider secret-store reference mapped to
//! `DEVIN_OUTPOSTS_TOKEN`; never in argv, never printed.
//!
//! Every worker sandbox is named `devin-worker-<outpost name slug>-<8 hex>` and labelled
//! [`LABEL_ROLE`]`=worker`, [`LABEL_OUTPOST`]`=<outpost as given>` and [`LABEL_MODE`], plus the
//! user's `--tag`s (`K=V`, or `T` as `T=true`). The orchestrator's janitor only touches
//! sandboxes labelled with a Devin session, so it never sees these.
//!
//! Log markers (the fake CLI prints them; see `emulator::devin_cli`): a line containing
//! `waiting for sessions` means the worker reached the queue; `authentication failed`,
//! `invalid token` or `401 Unauthorized` mean the Devin API rejected its token.

/// A worker command that cannot be carried out as asked; the user fixes it (exit 2).
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct WorkerError {
    pub message: String,
    pub hint: String,
}

impl WorkerError {
    pub fn new(message: impl Into<String>, hint: impl Into<String>) -> Self {
        WorkerError {
            message: message.into(),
            hint: hint.into(),
        }
    }
}

mod detached;
mod inspect;
mod launch;
pub mod registry;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;

use crate::provider::local::{LocalProvider, SandboxOptions};
use crate::provider::{
    Provider, ProviderKind, Resources, SandboxInfo, SandboxSpec, SecretRef, Source,
};
use crate::secrets::Secret;

pub use inspect::{LogLine, WorkerStatus, WorkerView};
pub use launch::Readiness;

/// The image workers run unless told otherwise (the Devin CLI image of CoreWeave's guide).
pub const DEFAULT_IMAGE: &str = crate::provider::coreweave::DEFAULT_IMAGE;
/// Label marking a sandbox as an outposts worker (value [`ROLE_WORKER`]).
pub const LABEL_ROLE: &str = "outposts.role";
pub const ROLE_WORKER: &str = "worker";
/// Label with the outpost (name or id, as given to `worker launch`).
pub const LABEL_OUTPOST: &str = "outposts.outpost";
/// Label with the worker's [`Mode`].
pub const LABEL_MODE: &str = "outposts.worker_mode";
/// The variable the worker reads its outpost token from.
pub const TOKEN_VAR: &str = "DEVIN_OUTPOSTS_TOKEN";
/// The worker's acceptor id (the real `devin worker start` reads it too): its sandbox's name.
pub const ACCEPTOR_VAR: &str = "DEVIN_WORKER_ACCEPTOR_ID";
/// Restarts at which `worker status` calls it a restart loop.
pub const RESTART_LOOP: u32 = 3;

/// The main command's wrapper: `$@` is `--outpost=<NAME>`. Installs git and CA certificates when
/// missing (apt, apk or dnf; with `sudo -n` when not root; a failure only warns), then runs the
/// worker in its place.
pub const WRAPPER: &str = r#"has_ca() { [ -s /etc/ssl/certs/ca-certificates.crt ] || [ -s /etc/pki/tls/certs/ca-bundle.crt ] || [ -s /etc/ssl/cert.pem ]; }
if ! command -v git >/dev/null 2>&1 || ! has_ca; then
  echo "outposts: installing git and ca-certificates"
  sudo=''
  if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null 2>&1; then sudo='sudo -n'; fi
  if command -v apt-get >/dev/null 2>&1; then
    { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends git ca-certificates; } >/dev/null 2>&1
  elif command -v apk >/dev/null 2>&1; then
    $sudo apk add --no-cache git ca-certificates >/dev/null 2>&1
  elif command -v dnf >/dev/null 2>&1; then
    $sudo dnf install -y -q git ca-certificates >/dev/null 2>&1
  else
    false
  fi || echo "outposts: warning: could not install git and ca-certificates; continuing" >&2
fi
if ! command -v devin >/dev/null 2>&1; then
  echo "outposts: the devin CLI is not on PATH in this sandbox (PATH=$PATH)" >&2
  exit 127
fi
exec devin worker start "$@"
"#;

/// How the worker process is run in its sandbox.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// The sandbox's supervised main command.
    Main,
    /// Detached through an exec, under our own supervisor.
    Exec,
}

impl Mode {
    pub fn for_provider(kind: ProviderKind) -> Mode {
        if crate::settings::descriptor(kind).worker_is_main {
            Mode::Main
        } else {
            Mode::Exec
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Main => "main",
            Mode::Exec => "exec",
        }
    }
    fn of(info: &SandboxInfo, kind: ProviderKind) -> Mode {
        match info.labels.get(LABEL_MODE).map(String::as_str) {
            Some("exec") => Mode::Exec,
            Some("main") => Mode::Main,
            _ => Mode::for_provider(kind),
        }
    }
}

/// Where the worker's outpost token comes from.
#[derive(Debug, Clone)]
pub enum TokenSource {
    /// The value, handed over in the environment.
    Env(Secret),
    /// A provider secret-store entry (`STORE:NAME`), mapped to `DEVIN_OUTPOSTS_TOKEN`.
    SecretStore { store: String, name: String },
}

/// What to launch.
#[derive(Debug, Clone)]
pub struct WorkerSpec {
    /// Outpost name or id, passed as `--outpost=`.
    pub outpost: String,
    pub image: Option<String>,
    pub resources: Resources,
    pub max_lifetime: Option<Duration>,
    pub token: TokenSource,
    /// More environment of the worker (API URL, chrome path, `--env`).
    pub env: BTreeMap<String, Secret>,
    /// Extra labels (`--tag`).
    pub tags: BTreeMap<String, String>,
    /// Start the worker's workspace from this snapshot (CoreWeave, `worker stop`'s).
    pub restore: Option<String>,
    /// The outpost's name, when known: sandboxes are named after it (a person reads the
    /// name; labels keep `outpost` for matching).
    pub outpost_name: Option<String>,
}

/// Where a worker's workspace lives (kept across `worker stop` on CoreWeave, as `cws-agent`).
pub const WORKSPACE: &str = "/workspace";

/// A `--tag`: `KEY=VALUE`, or `NAME` (as `NAME=true`).
pub fn parse_tag(s: &str) -> Result<(String, String), String> {
    let (k, v) = match s.split_once('=') {
        Some((k, v)) => (k.trim(), v.trim()),
        None => (s.trim(), "true"),
    };
    if k.is_empty() || k.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(format!(
            "`{s}` is not a tag (use NAME or KEY=VALUE, without spaces)"
        ));
    }
    if k.starts_with("outposts.") || k.starts_with("devin.") {
        return Err(format!(
            "tag key `{k}` is reserved (keys starting with `outposts.` or `devin.` are ours)"
        ));
    }
    Ok((k.to_string(), v.to_string()))
}

/// `STORE:NAME` of `--secret`.
pub fn parse_secret_ref(s: &str) -> Result<(String, String), String> {
    match s.split_once(':') {
        Some((store, name)) if !store.trim().is_empty() && !name.trim().is_empty() => {
            Ok((store.trim().to_string(), name.trim().to_string()))
        }
        _ => Err(format!(
            "`{s}` is not STORE:NAME (the secret store and the entry holding the outpost token)"
        )),
    }
}

/// `K=V` of `--env`.
pub fn parse_env(s: &str) -> Result<(String, String), String> {
    let (k, v) = s
        .split_once('=')
        .ok_or_else(|| format!("`{s}` is not KEY=VALUE"))?;
    let valid = !k.is_empty()
        && !k.starts_with(|c: char| c.is_ascii_digit())
        && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !valid {
        return Err(format!("`{k}` is not an environment variable name"));
    }
    if k == TOKEN_VAR {
        return Err(format!(
            "pass the token as {TOKEN_VAR} in your environment or with --secret, not with --env (argv is visible to every process)"
        ));
    }
    Ok((k.to_string(), v.to_string()))
}

/// CPU cores: `2`, `0.5` or `500m`.
pub fn parse_cpu(s: &str) -> Result<f64, String> {
    let t = s.trim();
    let v = match t.strip_suffix('m') {
        Some(milli) => milli.parse::<f64>().map(|m| m / 1000.0),
        None => t.parse::<f64>(),
    };
    match v {
        Ok(c) if c.is_finite() && c > 0.0 && c <= 1024.0 => Ok(c),
        _ => Err(format!("`{s}` is not a CPU count (e.g. 2, 0.5 or 500m)")),
    }
}

/// Memory in GiB: sizes have one parser ([`crate::units::parse_size_gib`]).
pub use crate::units::parse_size_gib as parse_memory_gib;

/// `--gpu COUNT[:TYPE]`.
pub fn parse_gpu(s: &str) -> Result<(u32, Option<String>), String> {
    let (count, kind) = match s.split_once(':') {
        Some((c, t)) => (c, Some(t.trim().to_string()).filter(|t| !t.is_empty())),
        None => (s, None),
    };
    match count.trim().parse::<u32>() {
        Ok(n) if (1..=64).contains(&n) => Ok((n, kind)),
        _ => Err(format!("`{s}` is not COUNT[:TYPE] (e.g. 1 or 8:H100)")),
    }
}

fn slug(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        let c = c.to_ascii_lowercase();
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let out: String = out.trim_matches('-').chars().take(32).collect();
    let out = out.trim_end_matches('-').to_string();
    if out.is_empty() {
        "outpost".into()
    } else {
        out
    }
}

/// A fresh, unique sandbox name for a worker of `outpost` (≤ 63 characters).
pub fn worker_name(outpost: &str) -> String {
    let rand = uuid::Uuid::new_v4().simple().to_string();
    format!("devin-worker-{}-{}", slug(outpost), &rand[..8])
}

/// The main command: the wrapper with `--outpost=<NAME>` as its argument (never spliced into
/// the script text).
pub fn main_command(outpost: &str) -> Vec<String> {
    vec![
        "/bin/sh".into(),
        "-c".into(),
        WRAPPER.into(),
        "outposts-worker".into(),
        format!("--outpost={outpost}"),
    ]
}

/// The labels of a worker sandbox.
pub fn labels(
    outpost: &str,
    mode: Mode,
    tags: &BTreeMap<String, String>,
) -> BTreeMap<String, String> {
    let mut l = tags.clone();
    l.insert(LABEL_ROLE.into(), ROLE_WORKER.into());
    l.insert(LABEL_OUTPOST.into(), outpost.to_string());
    l.insert(LABEL_MODE.into(), mode.as_str().into());
    l
}

/// The sandbox to create for one worker. In exec mode the environment (token included) goes
/// with the launch exec instead, so it is not the environment of every process.
pub fn sandbox_spec(w: &WorkerSpec, name: &str, mode: Mode) -> SandboxSpec {
    let image = w
        .image
        .clone()
        .filter(|i| !i.trim().is_empty())
        .unwrap_or_else(|| DEFAULT_IMAGE.to_string());
    let mut spec = SandboxSpec::new(name, Source::Image(image));
    spec.labels = labels(&w.outpost, mode, &w.tags);
    spec.resources = w.resources.clone();
    spec.workspace = Some(crate::provider::Workspace {
        mount_path: WORKSPACE.into(),
        keep_home: false,
        restore: w.restore.clone(),
    });
    spec.max_lifetime = w.max_lifetime;
    if let TokenSource::SecretStore { store, name } = &w.token {
        spec.secret_refs.push(SecretRef {
            store: store.clone(),
            name: name.clone(),
            env_var: TOKEN_VAR.into(),
        });
    }
    if mode == Mode::Main {
        spec.env = worker_env(w, name);
        spec.command = Some(main_command(&w.outpost));
    }
    spec
}

/// The worker's environment: the extras, its acceptor id, then the token when it travels by
/// value. The acceptor id is the sandbox's name, so a session's claim names the sandbox that
/// serves it (`session verify --create` reads the proof file there).
pub fn worker_env(w: &WorkerSpec, sandbox_name: &str) -> BTreeMap<String, Secret> {
    let mut env = w.env.clone();
    env.insert(ACCEPTOR_VAR.into(), Secret::plain(sandbox_name));
    if let TokenSource::Env(t) = &w.token {
        env.insert(TOKEN_VAR.into(), t.clone());
    }
    env
}

/// Markers in a worker's log.
pub mod markers {
    /// The worker reached the queue.
    pub fn is_ready(line: &str) -> bool {
        let l = line.to_ascii_lowercase();
        [
            "waiting for sessions",
            "polling for sessions",
            "listening for sessions",
        ]
        .iter()
        .any(|m| l.contains(m))
    }

    /// The Devin API rejected the worker's token.
    pub fn is_auth_failure(line: &str) -> bool {
        let l = line.to_ascii_lowercase();
        l.contains("authentication failed")
            || l.contains("invalid token")
            || l.contains("401 unauthorized")
            || (l.contains("unauthorized") && l.contains("401"))
    }

    /// The last decisive marker in `lines`: `Some(true)` ready, `Some(false)` auth failure.
    pub fn last(lines: &[String]) -> Option<(bool, &str)> {
        lines.iter().rev().find_map(|l| {
            if is_auth_failure(l) {
                Some((false, l.as_str()))
            } else if is_ready(l) {
                Some((true, l.as_str()))
            } else {
                None
            }
        })
    }
}

/// Workers on one provider.
pub struct Workers {
    provider: Arc<dyn Provider>,
    /// The local provider and the host directory of the `devin` CLI its sandboxes get.
    local: Option<(Arc<LocalProvider>, Option<std::path::PathBuf>)>,
}

impl Workers {
    pub fn new(provider: Arc<dyn Provider>) -> Self {
        Workers {
            provider,
            local: None,
        }
    }

    /// Local workers: sandboxes that see the `devin` of `cli_dir` (see
    /// [`SandboxOptions::host_bin`]).
    pub fn local(provider: Arc<LocalProvider>, cli_dir: Option<std::path::PathBuf>) -> Self {
        let dynamic: Arc<dyn Provider> = provider.clone();
        Workers {
            provider: dynamic,
            local: Some((provider, cli_dir)),
        }
    }

    /// The provider of resolved settings, and for `local` the CLI from its `devin_cli_dir`.
    pub async fn build(
        settings: crate::settings::ProviderSettings,
        http: crate::api::HttpClient,
    ) -> anyhow::Result<Self> {
        let crate::settings::ProviderSettings::Local(local) = settings else {
            return Ok(Self::new(crate::provider::build(settings, http).await?));
        };
        let dir = local.devin_cli_dir.clone();
        Ok(Self::local(
            Arc::new(LocalProvider::from_settings(local)?),
            dir,
        ))
    }

    pub fn provider(&self) -> &Arc<dyn Provider> {
        &self.provider
    }

    pub fn kind(&self) -> ProviderKind {
        self.provider.kind()
    }

    /// The binds that give a local worker sandbox its `devin` CLI.
    fn cli_options(&self) -> Result<SandboxOptions, String> {
        match &self.local {
            Some((_, Some(dir))) => {
                SandboxOptions::host_bin(dir).map_err(|e| format!("OUTPOSTS_DEVIN_CLI_DIR: {e}"))
            }
            _ => Ok(SandboxOptions::default()),
        }
    }

    /// Refuse a launch that cannot work before creating anything: local sandboxes need a
    /// `devin` CLI (a bound one, or one in the host directories every sandbox sees).
    pub fn preflight(&self) -> Result<(), WorkerError> {
        let Some((_, dir)) = &self.local else {
            return Ok(());
        };
        let hint = "set OUTPOSTS_DEVIN_CLI_DIR to the directory holding `devin` (`outposts \
                    emulator env` sets it to the emulator's fake CLI)";
        match dir {
            Some(_) => self
                .cli_options()
                .map(|_| ())
                .map_err(|e| WorkerError::new(e, hint)),
            None if !["/usr/local/bin", "/usr/bin", "/bin"]
                .iter()
                .any(|d| std::path::Path::new(d).join("devin").exists()) =>
            {
                Err(WorkerError::new(
                    "local sandboxes would have no `devin` CLI to run (OUTPOSTS_DEVIN_CLI_DIR is unset)",
                    hint,
                ))
            }
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(token: TokenSource) -> WorkerSpec {
        WorkerSpec {
            outpost: "My Outpost".into(),
            image: None,
            resources: Resources::default(),
            max_lifetime: Some(Duration::from_secs(8 * 3600)),
            token,
            env: BTreeMap::from([(
                "DEVIN_API_URL".to_string(),
                Secret::plain("http://127.0.0.1:1"),
            )]),
            tags: BTreeMap::from([("team".to_string(), "infra".to_string())]),
            restore: None,
            outpost_name: None,
        }
    }

    #[test]
    fn names_are_unique_bounded_and_safe() {
        let a = worker_name("My Outpost/../x");
        let b = worker_name("My Outpost/../x");
        assert_ne!(a, b);
        assert!(a.starts_with("devin-worker-my-outpost-x-"), "{a}");
        assert!(worker_name(&"ü".repeat(300)).len() <= 63);
        assert!(worker_name(&"a".repeat(300)).len() <= 63);
        assert!(worker_name("").starts_with("devin-worker-outpost-"));
    }

    #[test]
    fn main_mode_spec_carries_the_token_in_env_only() {
        let s = sandbox_spec(
            &spec(TokenSource::Env(Secret::new("tok-value-123456"))),
            "n",
            Mode::Main,
        );
        assert_eq!(s.source, Source::Image(DEFAULT_IMAGE.into()));
        let cmd = s.command.clone().unwrap();
        assert_eq!(cmd.last().unwrap(), "--outpost=My Outpost");
        assert!(!cmd.iter().any(|a| a.contains("tok-value")));
        assert!(cmd[2].contains("exec devin worker start \"$@\""));
        assert_eq!(s.env[TOKEN_VAR].expose(), "tok-value-123456");
        assert_eq!(s.labels[LABEL_ROLE], "worker");
        assert_eq!(s.labels[LABEL_OUTPOST], "My Outpost");
        assert_eq!(s.labels[LABEL_MODE], "main");
        assert_eq!(s.labels["team"], "infra");
        assert!(s.secret_refs.is_empty());
    }

    #[test]
    fn secret_store_tokens_become_refs_and_exec_mode_has_no_env() {
        let s = sandbox_spec(
            &spec(TokenSource::SecretStore {
                store: "wandb".into(),
                name: "DEVIN_TOKEN".into(),
            }),
            "n",
            Mode::Exec,
        );
        assert_eq!(
            s.secret_refs,
            [SecretRef {
                store: "wandb".into(),
                name: "DEVIN_TOKEN".into(),
                env_var: TOKEN_VAR.into()
            }]
        );
        assert!(s.env.is_empty());
        assert!(s.command.is_none());
        assert_eq!(s.labels[LABEL_MODE], "exec");
    }

    #[test]
    fn resources_parse() {
        assert_eq!(parse_cpu("2").unwrap(), 2.0);
        assert_eq!(parse_cpu("500m").unwrap(), 0.5);
        assert!(parse_cpu("0").is_err() && parse_cpu("lots").is_err());
        assert_eq!(parse_memory_gib("4Gi").unwrap(), 4.0);
        assert_eq!(parse_memory_gib("512Mi").unwrap(), 0.5);
        assert_eq!(parse_memory_gib("8").unwrap(), 8.0);
        assert!(parse_memory_gib("-1Gi").is_err() && parse_memory_gib("Gi").is_err());
        assert_eq!(parse_gpu("1").unwrap(), (1, None));
        assert_eq!(parse_gpu("8:H100").unwrap(), (8, Some("H100".into())));
        assert!(parse_gpu("0").is_err() && parse_gpu("x:H100").is_err());
    }

    #[test]
    fn flag_values_parse() {
        assert_eq!(parse_tag("gpu").unwrap(), ("gpu".into(), "true".into()));
        assert_eq!(
            parse_tag("team=a=b").unwrap(),
            ("team".into(), "a=b".into())
        );
        assert!(parse_tag("outposts.role=x").is_err());
        assert!(parse_tag("a b").is_err());
        assert_eq!(
            parse_secret_ref("wandb:DEVIN_TOKEN").unwrap(),
            ("wandb".into(), "DEVIN_TOKEN".into())
        );
        assert!(parse_secret_ref("nocolon").is_err());
        assert!(parse_secret_ref(":x").is_err());
        assert_eq!(parse_env("A_1=x=y").unwrap(), ("A_1".into(), "x=y".into()));
        assert!(parse_env("1A=x").is_err());
        assert!(parse_env("NOVALUE").is_err());
        let e = parse_env("DEVIN_OUTPOSTS_TOKEN=x").unwrap_err();
        assert!(e.contains("--secret"), "{e}");
    }

    #[test]
    fn markers_match_the_fake_cli_and_common_wording() {
        use crate::emulator::devin_cli::{AUTH_LINE, READY_LINE};
        assert!(markers::is_ready(&format!(
            "2026 INFO  {READY_LINE} on outpost x"
        )));
        assert!(markers::is_auth_failure(&format!(
            "ERROR {AUTH_LINE}: HTTP 401"
        )));
        assert!(markers::is_auth_failure("Error: 401 Unauthorized"));
        assert!(markers::is_auth_failure("{\"detail\":\"Invalid token\"}"));
        assert!(!markers::is_ready("remote: connected to outpost gateway"));
        let lines = vec![
            format!("{READY_LINE} on outpost x"),
            format!("{AUTH_LINE}: …"),
        ];
        assert_eq!(markers::last(&lines).map(|m| m.0), Some(false));
        assert_eq!(markers::last(&lines[..1]).map(|m| m.0), Some(true));
        assert_eq!(markers::last(&[]), None);
    }
}
