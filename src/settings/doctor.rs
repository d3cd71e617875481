//! What `outposts doctor` inspects, resolved once from the configuration: every declared
//! variable with its source (the settings list), the typed settings each check needs (the same
//! `resolve` the commands call, so doctor judges what a command would use), and every value that
//! does not parse. `doctor/` is handed this and never sees a `Config` (tests/it/layering.rs).
//!
//! A setting that does not resolve is kept as its error: a check reports it, the others run.

use std::path::PathBuf;

use crate::config::{Config, ConfigError, Resolved, Source};
use crate::env::{self, EnvVar};
use crate::provider::ProviderKind;
use crate::provider::local::LocalOptions;

use super::{
    CoreweaveSettings, DaytonaApiSettings, DevinSettings, HttpSettings, LocalSettings,
    ProviderSettings, V3Settings,
};

/// The resolved settings `doctor`'s checks read.
#[derive(Debug)]
pub struct DoctorSettings {
    /// Every declared variable that has a value (defaults included), in declaration order.
    pub listed: Vec<Resolved>,
    pub dotenv_path: Option<PathBuf>,
    pub config_path: Option<PathBuf>,
    /// Keys of `.env` that look like a misspelt variable.
    pub misspelt: Vec<crate::config::Misspelt>,
    /// Typed settings that do not parse, each with its own hint.
    pub errors: Vec<ConfigError>,
    /// Provider-specific values that do not parse (their errors carry their own wording).
    pub other_errors: Vec<String>,
    /// The provider used without `--provider`, and where that choice came from.
    pub provider: Result<(ProviderKind, Source), ConfigError>,
    pub http: Result<HttpSettings, ConfigError>,
    /// `DEVIN_API_URL`, normalised.
    pub devin_api_url: Result<String, ConfigError>,
    /// The Devin client of `DEVIN_OUTPOSTS_TOKEN`.
    pub devin: Result<DevinSettings, ConfigError>,
    /// The Devin client of `DEVIN_OUTPOST_CREATE_TOKEN`.
    pub orchestrator: Result<DevinSettings, ConfigError>,
    pub v3: Result<V3Settings, ConfigError>,
    pub daytona: Result<DaytonaApiSettings, ConfigError>,
    pub coreweave: Result<CoreweaveSettings, ConfigError>,
    pub local: Result<LocalOptions, ConfigError>,
    pub state_dir: Result<PathBuf, ConfigError>,
    /// `OUTPOSTS_CONNECT_PORT` (`None`: the default).
    pub connect_port: Result<Option<u16>, ConfigError>,
}

impl DoctorSettings {
    /// Resolve everything doctor looks at, once.
    pub fn resolve(config: &Config) -> DoctorSettings {
        let (errors, other_errors) = setting_errors(config);
        DoctorSettings {
            listed: config.explain(),
            dotenv_path: config.dotenv_path().map(PathBuf::from),
            config_path: config.config_path().map(PathBuf::from),
            misspelt: config.dotenv_misspelt(),
            errors,
            other_errors,
            provider: ProviderSettings::chosen(config),
            http: HttpSettings::resolve(config),
            devin_api_url: config.devin_api_url(),
            devin: DevinSettings::resolve(config),
            orchestrator: DevinSettings::resolve_with(config, &env::DEVIN_OUTPOST_CREATE_TOKEN),
            v3: V3Settings::resolve(config, None),
            daytona: DaytonaApiSettings::resolve(config),
            coreweave: CoreweaveSettings::resolve(config),
            local: LocalSettings::options(config),
            state_dir: config.state_dir(),
            connect_port: port(config, &env::OUTPOSTS_CONNECT_PORT),
        }
    }

    /// `var`'s value and source, if it has one (a default counts).
    pub fn get(&self, var: &'static EnvVar) -> Option<Resolved> {
        self.listed.iter().find(|r| r.var.name == var.name).cloned()
    }

    /// `var`'s value, if it has one.
    pub fn value(&self, var: &'static EnvVar) -> Option<String> {
        self.get(var).map(|r| r.value)
    }
}

fn port(config: &Config, var: &'static EnvVar) -> Result<Option<u16>, ConfigError> {
    config.parse(var, |s| {
        s.parse::<u16>()
            .map_err(|_| format!("`{s}` is not a port number (0-65535)"))
    })
}

/// Every typed setting that does not parse: the configuration's own errors, and the
/// provider-specific ones (which carry their own wording).
fn setting_errors(config: &Config) -> (Vec<ConfigError>, Vec<String>) {
    let mut errors: Vec<ConfigError> = Vec::new();
    let mut keep = |r: Result<(), ConfigError>| {
        if let Err(e) = r {
            errors.push(e);
        }
    };
    keep(config.devin_api_url().map(drop));
    for var in [
        &env::DEVIN_APP_URL,
        &env::DEVIN_WORKER_STATIC_BASE_URL,
        &env::DAYTONA_API_URL,
    ] {
        keep(config.url(var).map(drop));
    }
    for var in [&env::MAX_CONCURRENT_SESSIONS, &env::OUTPOSTS_HTTP_ATTEMPTS] {
        keep(config.positive(var).map(drop));
    }
    for var in [
        &env::DAYTONA_START_TIMEOUT,
        &env::RECONCILE_INTERVAL,
        &env::JANITOR_INTERVAL,
        &env::CLAIM_RENEW_MARGIN,
        &env::OUTPOSTS_CONNECT_TIMEOUT,
        &env::OUTPOSTS_READ_TIMEOUT,
    ] {
        keep(config.duration(var).map(drop));
    }
    for var in [&env::OUTPOSTS_CONNECT_PORT, &env::OUTPOSTS_EMULATOR_PORT] {
        keep(port(config, var).map(drop));
    }
    keep(ProviderSettings::chosen(config).map(drop));
    keep(config.state_dir().map(drop));
    let mut other: Vec<String> = Vec::new();
    if config.get(&env::CWSANDBOX_BASE_URL).is_some()
        && let Err(e) = CoreweaveSettings::base_url(config)
    {
        other.push(format!("{e:#}"));
    }
    if config.get(&env::OUTPOSTS_LOCAL_UNISOLATED).is_some()
        && let Err(e) = LocalSettings::options(config)
    {
        other.push(format!("{e:#}"));
    }
    (errors, other)
}
