//! Layered settings: flag > process environment > `.env` overlay > `outposts.toml` > OS keyring
//! (`DEVIN_OUTPOSTS_TOKEN`, `DEVIN_API_KEY`) > default.
//!
//! The `.env` file is read as an overlay and never written into the process environment. Every
//! name is declared in [`crate::env`]; a bad value is a [`ConfigError`] naming the variable, where
//! it came from and how to fix it (exit 2).

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Duration;

use crate::env::{self, EnvVar};
use crate::secrets;

mod files;
#[cfg(test)]
mod tests;

pub use files::Misspelt;
use files::{default_config_path, read_dotenv, read_toml};

/// Where a resolved value came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    Flag,
    /// Process environment, under this name (the alias when a legacy name was used).
    Env(&'static str),
    DotEnv(PathBuf),
    ConfigFile(PathBuf),
    /// The OS keyring (only for tokens stored by `connect --store keyring`).
    Keyring,
    Default,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Flag => f.write_str("command-line flag"),
            Source::Env(name) => write!(f, "environment variable {name}"),
            Source::DotEnv(p) => write!(f, "{}", p.display()),
            Source::ConfigFile(p) => write!(f, "{}", p.display()),
            Source::Keyring => f.write_str("OS keyring"),
            Source::Default => f.write_str("default"),
        }
    }
}

/// A value and its origin.
#[derive(Debug, Clone)]
pub struct Resolved {
    pub var: &'static EnvVar,
    pub value: String,
    pub source: Source,
}

impl Resolved {
    /// The value for display: secrets are masked.
    pub fn shown(&self) -> String {
        if self.var.secret {
            secrets::Secret::new(self.value.clone()).hint()
        } else {
            self.value.clone()
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("{var} is not set")]
    Missing { var: &'static str, hint: String },
    /// No credentials for a service: authentication is required (exit 4, not 2).
    #[error("{message}")]
    MissingCredentials { message: String, hint: String },
    #[error("invalid value for {var} (from {origin}): {problem}")]
    Invalid {
        var: &'static str,
        origin: Source,
        problem: String,
        hint: String,
    },
    #[error("cannot use {}: {problem}", path.display())]
    File {
        path: PathBuf,
        problem: String,
        hint: String,
    },
}

impl ConfigError {
    pub fn hint(&self) -> &str {
        match self {
            ConfigError::Missing { hint, .. }
            | ConfigError::MissingCredentials { hint, .. }
            | ConfigError::Invalid { hint, .. }
            | ConfigError::File { hint, .. } => hint,
        }
    }
}

/// Where to find the optional files.
#[derive(Debug, Clone, Default)]
pub struct LoadOptions {
    /// `--env-file`: must exist when given. Otherwise `./.env` is read if present.
    pub env_file: Option<PathBuf>,
    /// `--config`: must exist when given. Otherwise the XDG default is read if present.
    pub config_file: Option<PathBuf>,
}

/// All layers, loaded once per process.
#[derive(Debug, Clone, Default)]
pub struct Config {
    flags: BTreeMap<&'static str, String>,
    env: BTreeMap<String, String>,
    dotenv: Option<(PathBuf, BTreeMap<String, String>)>,
    file: Option<(PathBuf, BTreeMap<String, String>)>,
    /// The OS keyring layer, one slot per variable of [`secrets::keyring::STORED`], each read
    /// once, and only when no other layer has it, so commands that never need it never wait
    /// for the keyring.
    keyring: [std::sync::OnceLock<Option<secrets::Secret>>; 2],
}

impl Config {
    /// Load from the real process environment and files.
    pub fn load(opts: &LoadOptions) -> Result<Config, ConfigError> {
        let mut env = BTreeMap::new();
        for (k, v) in std::env::vars_os() {
            let Some(k) = k.to_str() else { continue };
            match v.into_string() {
                Ok(v) => {
                    env.insert(k.to_string(), v);
                }
                Err(_) => {
                    if let Some(var) = env::find(k) {
                        return Err(ConfigError::Invalid {
                            var: var.name,
                            origin: Source::Env(var.name),
                            problem: "the value is not valid UTF-8".into(),
                            hint: format!("set {} to a plain text value", var.name),
                        });
                    }
                }
            }
        }
        Self::load_with_env(
            env,
            opts,
            &std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
        )
    }

    /// Load with an explicit environment (used by tests and the in-process demo).
    pub fn load_with_env(
        env: BTreeMap<String, String>,
        opts: &LoadOptions,
        cwd: &Path,
    ) -> Result<Config, ConfigError> {
        let dotenv = match &opts.env_file {
            Some(path) => Some((path.clone(), read_dotenv(path, true)?.unwrap_or_default())),
            None => {
                let path = cwd.join(".env");
                read_dotenv(&path, false)?.map(|m| (path, m))
            }
        };
        let config_path = opts.config_file.clone().or_else(|| {
            env.get(env::OUTPOSTS_CONFIG.name)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        });
        let file = match config_path {
            Some(path) => Some((path.clone(), read_toml(&path, true)?.unwrap_or_default())),
            None => match default_config_path(&env) {
                Some(path) => read_toml(&path, false)?.map(|m| (path, m)),
                None => None,
            },
        };
        let cfg = Config {
            flags: BTreeMap::new(),
            env,
            dotenv,
            file,
            keyring: Default::default(),
        };
        cfg.register_secrets();
        Ok(cfg)
    }

    fn register_secrets(&self) {
        for var in env::ALL.iter().filter(|v| v.secret) {
            for name in std::iter::once(var.name).chain(var.aliases.iter().copied()) {
                if let Some(v) = self.env.get(name) {
                    secrets::register(v);
                }
                if let Some((_, m)) = &self.dotenv
                    && let Some(v) = m.get(name)
                {
                    secrets::register(v);
                }
                if let Some((_, m)) = &self.file
                    && let Some(v) = m.get(name)
                {
                    secrets::register(v);
                }
            }
        }
    }

    /// Record a command-line flag value; it wins over every other layer.
    pub fn set_flag(&mut self, var: &'static EnvVar, value: Option<impl Into<String>>) {
        if let Some(v) = value {
            let v = v.into();
            if var.secret {
                secrets::register(&v);
            }
            self.flags.insert(var.name, v);
        }
    }

    /// Keys of the `.env` file that no setting reads but that look like one of ours (keys of
    /// other tools that share the file are left alone).
    pub fn dotenv_misspelt(&self) -> Vec<Misspelt> {
        let Some((path, _)) = &self.dotenv else {
            return Vec::new();
        };
        let Ok(text) = std::fs::read_to_string(path) else {
            return Vec::new();
        };
        secrets::dotenv::key_lines(&text)
            .into_iter()
            .filter(|(k, _)| env::find(k).is_none())
            .filter_map(|(key, line)| {
                env::closest(&key).map(|did_you_mean| Misspelt {
                    path: path.clone(),
                    line,
                    key,
                    did_you_mean,
                })
            })
            .collect()
    }

    /// The `.env` file in use, if any.
    pub fn dotenv_path(&self) -> Option<&Path> {
        self.dotenv.as_ref().map(|(p, _)| p.as_path())
    }

    /// The `outposts.toml` in use, if any.
    pub fn config_path(&self) -> Option<&Path> {
        self.file.as_ref().map(|(p, _)| p.as_path())
    }

    /// Read any (possibly undeclared) process variable, e.g. `CI` or `BROWSER`.
    pub fn process_env(&self, name: &str) -> Option<&str> {
        self.env
            .get(name)
            .map(String::as_str)
            .filter(|v| !v.is_empty())
    }

    /// Resolve a variable through every layer. Empty values count as unset.
    pub fn get(&self, var: &'static EnvVar) -> Option<Resolved> {
        let names: Vec<&'static str> = std::iter::once(var.name)
            .chain(var.aliases.iter().copied())
            .collect();
        let found = |v: &String| !v.trim().is_empty();
        if let Some(v) = self.flags.get(var.name).filter(|v| found(v)) {
            return Some(Resolved {
                var,
                value: v.clone(),
                source: Source::Flag,
            });
        }
        for name in &names {
            if let Some(v) = self.env.get(*name).filter(|v| found(v)) {
                return Some(Resolved {
                    var,
                    value: v.clone(),
                    source: Source::Env(name),
                });
            }
        }
        if let Some((path, m)) = &self.dotenv {
            for name in &names {
                if let Some(v) = m.get(*name).filter(|v| found(v)) {
                    return Some(Resolved {
                        var,
                        value: v.clone(),
                        source: Source::DotEnv(path.clone()),
                    });
                }
            }
        }
        if let Some((path, m)) = &self.file {
            for name in &names {
                if let Some(v) = m.get(*name).filter(|v| found(v)) {
                    return Some(Resolved {
                        var,
                        value: v.clone(),
                        source: Source::ConfigFile(path.clone()),
                    });
                }
            }
        }
        if let Some(slot) = secrets::keyring::STORED
            .iter()
            .position(|v| v.name == var.name)
            && let Some(token) = self.keyring_value(slot)
        {
            return Some(Resolved {
                var,
                value: token.expose().to_string(),
                source: Source::Keyring,
            });
        }
        var.default.map(|d| Resolved {
            var,
            value: d.to_string(),
            source: Source::Default,
        })
    }

    /// What `connect --store keyring` or `auth set-key --store keyring` saved for
    /// `STORED[slot]` and the configured `DEVIN_API_URL`, looked up once (bounded by the
    /// keyring timeout; `OUTPOSTS_NO_KEYRING=1` skips it).
    fn keyring_value(&self, slot: usize) -> Option<secrets::Secret> {
        let var = secrets::keyring::STORED[slot];
        self.keyring[slot]
            .get_or_init(|| {
                let keyring = secrets::keyring::Keyring::from_settings(
                    crate::settings::KeyringSettings::resolve(self),
                );
                if keyring.is_disabled() {
                    return None;
                }
                let api = self.devin_api_url().ok()?;
                match keyring.get(&secrets::keyring::account(var, &api)) {
                    Ok(value) => value,
                    Err(e) => {
                        tracing::debug!("no {} from the OS keyring: {e}", var.name);
                        None
                    }
                }
            })
            .clone()
    }

    /// Preset the keyring layer of the outpost token (tests; callers that already read it).
    pub fn with_keyring_token(self, token: Option<secrets::Secret>) -> Self {
        self.with_keyring_value(&env::DEVIN_OUTPOSTS_TOKEN, token)
    }

    /// Preset the keyring layer of one of [`secrets::keyring::STORED`] (others: no-op).
    pub fn with_keyring_value(
        mut self,
        var: &'static EnvVar,
        value: Option<secrets::Secret>,
    ) -> Self {
        if let Some(slot) = secrets::keyring::STORED
            .iter()
            .position(|v| v.name == var.name)
        {
            let cell = std::sync::OnceLock::new();
            let _ = cell.set(value);
            self.keyring[slot] = cell;
        }
        self
    }

    /// The value, or `None`.
    pub fn value(&self, var: &'static EnvVar) -> Option<String> {
        self.get(var).map(|r| r.value)
    }

    /// A list setting: items separated by commas, spaces or newlines; empty when unset.
    pub fn list(&self, var: &'static EnvVar) -> Vec<String> {
        self.value(var)
            .map(|r| {
                r.split([',', ' ', '\n'])
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The value, or a [`ConfigError::Missing`] with `hint`.
    pub fn require(&self, var: &'static EnvVar, hint: &str) -> Result<Resolved, ConfigError> {
        self.get(var).ok_or_else(|| ConfigError::Missing {
            var: var.name,
            hint: hint.to_string(),
        })
    }

    /// Parse a value with `parse`, which explains what is wrong with a bad one.
    pub fn parse<T>(
        &self,
        var: &'static EnvVar,
        parse: impl Fn(&str) -> Result<T, String>,
    ) -> Result<Option<T>, ConfigError> {
        let Some(r) = self.get(var) else {
            return Ok(None);
        };
        parse(r.value.trim())
            .map(Some)
            .map_err(|problem| ConfigError::Invalid {
                var: var.name,
                hint: format!(
                    "fix {} in {}, or unset it to use the default",
                    var.name, r.source
                ),
                origin: r.source,
                problem,
            })
    }

    /// A whole number ≥ 1.
    pub fn positive(&self, var: &'static EnvVar) -> Result<Option<u32>, ConfigError> {
        self.parse(var, |s| match u32::from_str(s) {
            Ok(n) if n >= 1 => Ok(n),
            _ => Err(format!("`{s}` is not a whole number of at least 1")),
        })
    }

    /// Seconds (a number) or a humantime duration such as `90s` or `2m`.
    pub fn duration(&self, var: &'static EnvVar) -> Result<Option<Duration>, ConfigError> {
        self.parse(var, parse_duration)
    }

    /// An http(s) URL without trailing `/`.
    pub fn url(&self, var: &'static EnvVar) -> Result<Option<String>, ConfigError> {
        self.parse(var, |s| normalize_base_url(s, false))
    }

    /// `DEVIN_API_URL`, normalised: no trailing `/` or `/opbeta`.
    pub fn devin_api_url(&self) -> Result<String, ConfigError> {
        Ok(self
            .parse(&env::DEVIN_API_URL, |s| normalize_base_url(s, true))?
            .unwrap_or_default())
    }

    /// The state dir with `~` expanded.
    pub fn state_dir(&self) -> Result<PathBuf, ConfigError> {
        let home = self.env.get("HOME").cloned();
        Ok(self
            .parse(&env::STATE_DIR, |s| Ok(expand_home(s, home.as_deref())))?
            .unwrap_or_else(|| expand_home(env::STATE_DIR.default_str(), home.as_deref())))
    }

    /// Every declared variable that has a value, with its origin (secrets masked), for
    /// `doctor` and `auth status`.
    pub fn explain(&self) -> Vec<Resolved> {
        env::ALL.iter().filter_map(|v| self.get(v)).collect()
    }
}

/// Durations have one parser, shared by every flag and variable.
pub use crate::units::parse_duration;

/// Base URLs have one checker, shared by the settings and the clients.
pub use crate::units::normalize_base_url;

pub fn expand_home(path: &str, home: Option<&str>) -> PathBuf {
    match (path.strip_prefix("~/"), home) {
        (Some(rest), Some(home)) => Path::new(home).join(rest),
        _ if path == "~" && home.is_some() => PathBuf::from(home.unwrap_or_default()),
        _ => PathBuf::from(path),
    }
}
