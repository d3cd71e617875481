//! `outposts doctor`: named checks of everything a first run depends on, each with a verdict and
//! the fix.
//!
//! - Every check is bounded by one timeout, so an unreachable or stalled server costs at most
//!   that long; remote checks run concurrently.
//! - A check whose subject is not configured (no Daytona key, no CoreWeave credentials, …) is
//!   skipped, not failed. A check that needs another one to pass first (the outpost needs an
//!   accepted token) is skipped with that reason when it did not.
//! - Nothing is created or changed: the state dir is inspected as it is, the callback port is
//!   bound for an instant and released.
//!
//! Checks live in `local.rs` (settings, port, state dir, local sandboxes), `remote.rs` (Devin:
//! tokens, outpost, clock skew) and `providers.rs` (Daytona key and snapshot, CoreWeave).

mod local;
mod providers;
mod remote;
pub(crate) mod v3;
mod warm_pool;

use std::future::Future;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::config::Source;
use crate::provider::ProviderKind;
use crate::settings::DoctorSettings;

/// A check's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Pass,
    Fail,
    Skip,
}

/// One named check.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Check {
    /// Stable identifier for scripts, e.g. `devin_token`.
    pub id: &'static str,
    /// Human label, e.g. `Devin token`.
    pub title: &'static str,
    pub status: Status,
    /// What was found (or why the check was skipped).
    pub message: String,
    /// What to do about a failure (also given for some skips).
    pub fix: Option<String>,
    pub elapsed_ms: u64,
}

impl Check {
    pub fn pass(id: &'static str, title: &'static str, message: impl Into<String>) -> Check {
        Check::new(id, title, Status::Pass, message.into(), None)
    }
    pub fn fail(
        id: &'static str,
        title: &'static str,
        message: impl Into<String>,
        fix: impl Into<String>,
    ) -> Check {
        Check::new(id, title, Status::Fail, message.into(), Some(fix.into()))
    }
    pub fn skip(id: &'static str, title: &'static str, message: impl Into<String>) -> Check {
        Check::new(id, title, Status::Skip, message.into(), None)
    }
    fn new(
        id: &'static str,
        title: &'static str,
        status: Status,
        message: String,
        fix: Option<String>,
    ) -> Check {
        Check {
            id,
            title,
            status,
            message,
            fix,
            elapsed_ms: 0,
        }
    }
    fn timed(mut self, started: Instant) -> Check {
        self.elapsed_ms = started.elapsed().as_millis() as u64;
        self
    }
}

/// One resolved setting: where it came from (secrets masked).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Setting {
    pub name: &'static str,
    pub value: String,
    /// `flag`, `env`, `dotenv`, `config_file`, `keyring` or `default`.
    pub source: &'static str,
    /// The variable name or file the value came from.
    pub origin: String,
    pub secret: bool,
}

/// Everything `doctor` found.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Report {
    pub ok: bool,
    pub passed: usize,
    pub failed: usize,
    pub skipped: usize,
    pub checks: Vec<Check>,
    pub settings: Vec<Setting>,
    /// The `.env` and `outposts.toml` in use.
    pub env_file: Option<String>,
    pub config_file: Option<String>,
}

#[derive(Debug, Clone)]
pub struct Options {
    /// Longest any single check may take.
    pub timeout: Duration,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            timeout: Duration::from_secs(10),
        }
    }
}

/// `flag`, `env`, `dotenv`, `config_file`, `keyring` or `default`.
pub fn source_kind(s: &Source) -> &'static str {
    match s {
        Source::Flag => "flag",
        Source::Env(_) => "env",
        Source::DotEnv(_) => "dotenv",
        Source::ConfigFile(_) => "config_file",
        Source::Keyring => "keyring",
        Source::Default => "default",
    }
}

/// Where a value came from, for messages: `the environment`, `/path/.env`, `the OS keyring`.
pub fn where_from(s: &Source) -> String {
    match s {
        Source::Flag => "a command-line flag".into(),
        Source::Env(_) => "the environment".into(),
        Source::DotEnv(p) | Source::ConfigFile(p) => p.display().to_string(),
        Source::Keyring => "the OS keyring".into(),
        Source::Default => "the default".into(),
    }
}

/// The provider commands use when no `--provider` is given, and whether the user chose it
/// (a default `daytona` does not by itself make Daytona "configured").
#[derive(Debug, Clone, Copy)]
pub(crate) struct ProviderChoice {
    pub kind: ProviderKind,
    pub explicit: bool,
}

fn provider_choice(settings: &DoctorSettings) -> ProviderChoice {
    // A bad OUTPOSTS_PROVIDER is reported by the settings check; here it counts as a choice.
    match &settings.provider {
        Ok((kind, source)) => ProviderChoice {
            kind: *kind,
            explicit: *source != Source::Default,
        },
        Err(_) => ProviderChoice {
            kind: ProviderKind::Daytona,
            explicit: true,
        },
    }
}

/// Run `fut`, but give up after `timeout` with a failed check that says so.
pub(crate) async fn bounded(
    id: &'static str,
    title: &'static str,
    timeout: Duration,
    fix: &str,
    fut: impl Future<Output = Check>,
) -> Check {
    let started = Instant::now();
    match tokio::time::timeout(timeout, fut).await {
        Ok(c) => c.timed(started),
        Err(_) => Check::fail(
            id,
            title,
            format!("no answer within {}", humantime::format_duration(timeout)),
            format!("{fix}; on a slow link raise --timeout"),
        )
        .timed(started),
    }
}

/// The report when the configuration cannot be loaded: the one failed check that says why (no
/// other check can run without settings), so `doctor --json` is still a document.
pub fn unloadable(e: &crate::config::ConfigError) -> Report {
    Report {
        ok: false,
        passed: 0,
        failed: 1,
        skipped: 0,
        checks: vec![local::settings_unloadable(e)],
        settings: Vec::new(),
        env_file: None,
        config_file: None,
    }
}

/// Run every check on settings resolved once ([`DoctorSettings::resolve`]); the settings list
/// of the report comes from the same values.
pub async fn run(settings: &DoctorSettings, opts: &Options) -> Report {
    let provider = provider_choice(settings);
    let mut checks = vec![local::settings(settings)];
    let remote = remote::run(settings, opts, provider).await;
    checks.extend(remote);
    if provider.kind == ProviderKind::Local {
        checks.push(local::local_sandboxes(settings, provider).await);
    }
    checks.push(local::network_policy(provider));
    checks.push(local::connect_port(settings));
    checks.push(local::state_dir(settings));
    let count = |s: Status| checks.iter().filter(|c| c.status == s).count();
    let (passed, failed, skipped) = (
        count(Status::Pass),
        count(Status::Fail),
        count(Status::Skip),
    );
    Report {
        ok: failed == 0,
        passed,
        failed,
        skipped,
        settings: local::settings_list(settings),
        env_file: settings
            .dotenv_path
            .as_ref()
            .map(|p| p.display().to_string()),
        config_file: settings
            .config_path
            .as_ref()
            .map(|p| p.display().to_string()),
        checks,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_check_that_hangs_fails_after_the_timeout() {
        let c = bounded(
            "x",
            "X",
            Duration::from_millis(50),
            "check X_URL",
            std::future::pending(),
        )
        .await;
        assert_eq!(c.status, Status::Fail);
        assert!(c.message.contains("no answer within 50ms"), "{}", c.message);
        assert!(c.fix.unwrap().starts_with("check X_URL"));
        assert!(c.elapsed_ms >= 50);
    }
}
