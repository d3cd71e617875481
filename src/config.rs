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
                let keyring = secrets::keyring::Keyring::from_config(self);
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
            .unwrap_or_else(|| PathBuf::from(".devin-outposts-orchestrator")))
    }

    /// Every declared variable that has a value, with its origin (secrets masked), for
    /// `doctor` and `auth status`.
    pub fn explain(&self) -> Vec<Resolved> {
        env::ALL.iter().filter_map(|v| self.get(v)).collect()
    }
}

/// Durations have one parser, shared by every flag and variable.
pub use crate::units::parse_duration;

/// Check an http(s) base URL and strip trailing slashes (and `/opbeta` when asked).
pub fn normalize_base_url(raw: &str, strip_opbeta: bool) -> Result<String, String> {
    let mut s = raw.trim().to_string();
    loop {
        let before = s.len();
        while s.ends_with('/') {
            s.pop();
        }
        if strip_opbeta && s.ends_with("/opbeta") {
            s.truncate(s.len() - "/opbeta".len());
        }
        if s.len() == before {
            break;
        }
    }
    let parsed = url::Url::parse(&s).map_err(|e| format!("`{raw}` is not a URL ({e})"))?;
    if !matches!(parsed.scheme(), "http" | "https") || parsed.host_str().is_none() {
        return Err(format!(
            "`{raw}` must be an http:// or https:// URL with a host"
        ));
    }
    Ok(s)
}

pub fn expand_home(path: &str, home: Option<&str>) -> PathBuf {
    match (path.strip_prefix("~/"), home) {
        (Some(rest), Some(home)) => Path::new(home).join(rest),
        _ if path == "~" && home.is_some() => PathBuf::from(home.unwrap_or_default()),
        _ => PathBuf::from(path),
    }
}

fn default_config_path(env: &BTreeMap<String, String>) -> Option<PathBuf> {
    let base = env
        .get("XDG_CONFIG_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            env.get("HOME")
                .filter(|v| !v.is_empty())
                .map(|h| Path::new(h).join(".config"))
        })?;
    Some(base.join("outposts").join("outposts.toml"))
}

fn read_dotenv(
    path: &Path,
    required: bool,
) -> Result<Option<BTreeMap<String, String>>, ConfigError> {
    if !path.exists() {
        if required {
            return Err(ConfigError::File {
                path: path.to_path_buf(),
                problem: "the file does not exist".into(),
                hint: "pass an existing file to --env-file, or drop the flag to use ./.env".into(),
            });
        }
        return Ok(None);
    }
    let iter = dotenvy::from_path_iter(path).map_err(|e| dotenv_error(path, e))?;
    let mut map = BTreeMap::new();
    for item in iter {
        let (k, v) = item.map_err(|e| dotenv_error(path, e))?;
        map.insert(k, v);
    }
    Ok(Some(map))
}

fn dotenv_error(path: &Path, e: dotenvy::Error) -> ConfigError {
    let problem = match &e {
        // The parser reports the offending line; never echo it whole, it may hold a secret.
        dotenvy::Error::LineParse(line, _) => {
            let key: String = line.chars().take_while(|c| *c != '=').take(40).collect();
            let at = std::fs::read_to_string(path)
                .ok()
                .and_then(|t| secrets::dotenv::line_of(&t, line));
            let problem = format!(
                "cannot parse the line starting `{}`",
                secrets::redact(key.trim())
            );
            if let Some(line) = at {
                // `file:line`, as editors and terminals link it.
                return ConfigError::File {
                    path: PathBuf::from(format!("{}:{line}", path.display())),
                    problem,
                    hint: DOTENV_HINT.into(),
                };
            }
            problem
        }
        dotenvy::Error::Io(io) => io.to_string(),
        other => secrets::redact(&other.to_string()).into_owned(),
    };
    ConfigError::File {
        path: path.to_path_buf(),
        problem,
        hint: DOTENV_HINT.into(),
    }
}

const DOTENV_HINT: &str = "each line must be KEY=VALUE (quote values with spaces or #); fix the file or pass another with --env-file";

/// A `.env` key no setting reads but one is spelt much like it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Misspelt {
    pub path: PathBuf,
    pub line: usize,
    pub key: String,
    pub did_you_mean: &'static str,
}

impl std::fmt::Display for Misspelt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}: {} is not a setting outposts reads (ignored); did you mean {}?",
            self.path.display(),
            self.line,
            self.key,
            self.did_you_mean
        )
    }
}

fn read_toml(path: &Path, required: bool) -> Result<Option<BTreeMap<String, String>>, ConfigError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && !required => return Ok(None),
        Err(e) => {
            return Err(ConfigError::File {
                path: path.to_path_buf(),
                problem: e.to_string(),
                hint: "pass a readable file to --config (or OUTPOSTS_CONFIG)".into(),
            });
        }
    };
    let table: toml::Table = text
        .parse()
        .map_err(|e: toml::de::Error| ConfigError::File {
            path: path.to_path_buf(),
            problem: e.message().to_string(),
            hint: "outposts.toml is a flat table of settings, e.g. `max_concurrent_sessions = 5`"
                .into(),
        })?;
    let mut map = BTreeMap::new();
    for (key, value) in table {
        let Some(var) = env::find(&key) else {
            return Err(ConfigError::File {
                path: path.to_path_buf(),
                problem: format!("unknown setting `{key}`"),
                hint: "settings are the variable names listed by `outposts --help` (any case)"
                    .into(),
            });
        };
        let value = match value {
            toml::Value::String(s) => s,
            toml::Value::Integer(i) => i.to_string(),
            toml::Value::Float(f) => f.to_string(),
            toml::Value::Boolean(b) => b.to_string(),
            toml::Value::Array(items) => items
                .into_iter()
                .map(|i| match i {
                    toml::Value::String(s) => s,
                    other => other.to_string(),
                })
                .collect::<Vec<_>>()
                .join(","),
            other => {
                return Err(ConfigError::File {
                    path: path.to_path_buf(),
                    problem: format!(
                        "`{key}` must be a string, number, boolean or list, not {}",
                        other.type_str()
                    ),
                    hint: "outposts.toml is a flat table of settings".into(),
                });
            }
        };
        let canonical = if var.name.eq_ignore_ascii_case(&key) {
            var.name
        } else {
            var.aliases[0]
        };
        map.insert(canonical.to_string(), value);
    }
    Ok(Some(map))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(
        env: &[(&str, &str)],
        dotenv: Option<&str>,
        toml: Option<&str>,
    ) -> (tempfile::TempDir, Result<Config, ConfigError>) {
        let dir = tempfile::tempdir().unwrap();
        if let Some(d) = dotenv {
            std::fs::write(dir.path().join(".env"), d).unwrap();
        }
        let mut opts = LoadOptions::default();
        if let Some(t) = toml {
            let p = dir.path().join("outposts.toml");
            std::fs::write(&p, t).unwrap();
            opts.config_file = Some(p);
        }
        let env = env
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let c = Config::load_with_env(env, &opts, dir.path());
        (dir, c)
    }

    #[test]
    fn precedence_flag_env_dotenv_file_default() {
        let (_d, c) = cfg(
            &[("MAX_CONCURRENT_SESSIONS", "3")],
            Some("MAX_CONCURRENT_SESSIONS=4\nWORKDIR=/w\n"),
            Some("max_concurrent_sessions = 9\nreconcile_interval = 7\n"),
        );
        let mut c = c.unwrap();
        assert_eq!(c.positive(&env::MAX_CONCURRENT_SESSIONS).unwrap(), Some(3));
        assert_eq!(c.get(&env::WORKDIR).unwrap().value, "/w");
        assert!(matches!(
            c.get(&env::WORKDIR).unwrap().source,
            Source::DotEnv(_)
        ));
        assert_eq!(c.get(&env::RECONCILE_INTERVAL).unwrap().value, "7");
        assert_eq!(
            c.get(&env::JANITOR_INTERVAL).unwrap().source,
            Source::Default
        );
        c.set_flag(&env::MAX_CONCURRENT_SESSIONS, Some("1"));
        assert_eq!(c.positive(&env::MAX_CONCURRENT_SESSIONS).unwrap(), Some(1));
    }

    #[test]
    fn pool_id_is_a_legacy_alias() {
        let (_d, c) = cfg(&[], Some("POOL_ID=outpost_env-abc\n"), None);
        let r = c.unwrap().get(&env::OUTPOST_ID).unwrap();
        assert_eq!(r.value, "outpost_env-abc");
        let (_d, c) = cfg(&[("POOL_ID", "old"), ("OUTPOST_ID", "new")], None, None);
        assert_eq!(c.unwrap().value(&env::OUTPOST_ID).unwrap(), "new");
    }

    #[test]
    fn devin_api_url_is_normalised() {
        for raw in [
            "https://api.devin.ai/",
            "https://api.devin.ai/opbeta",
            "https://api.devin.ai/opbeta/",
            "https://api.devin.ai",
        ] {
            let (_d, c) = cfg(&[("DEVIN_API_URL", raw)], None, None);
            assert_eq!(
                c.unwrap().devin_api_url().unwrap(),
                "https://api.devin.ai",
                "{raw}"
            );
        }
        let (_d, c) = cfg(&[("DEVIN_API_URL", "ftp://x")], None, None);
        let err = c.unwrap().devin_api_url().unwrap_err();
        assert!(err.to_string().contains("DEVIN_API_URL"), "{err}");
    }

    #[test]
    fn bad_values_name_the_variable_and_source() {
        let (_d, c) = cfg(&[], Some("MAX_CONCURRENT_SESSIONS=lots\n"), None);
        let err = c
            .unwrap()
            .positive(&env::MAX_CONCURRENT_SESSIONS)
            .unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.contains("MAX_CONCURRENT_SESSIONS") && msg.contains(".env") && msg.contains("lots"),
            "{msg}"
        );
        let (_d, c) = cfg(&[("MAX_CONCURRENT_SESSIONS", "0")], None, None);
        assert!(c.unwrap().positive(&env::MAX_CONCURRENT_SESSIONS).is_err());
    }

    #[test]
    fn bad_files_are_errors_not_panics() {
        let (_d, c) = cfg(&[], Some("DEVIN_OUTPOSTS_TOKEN='cog_unterminated\n"), None);
        let err = c.unwrap_err();
        assert!(!err.to_string().contains("cog_unterminated"), "{err}");
        let (_d, c) = cfg(&[], None, Some("nonsense = 1\n"));
        assert!(c.unwrap_err().to_string().contains("nonsense"));
        let (_d, c) = cfg(&[], None, Some("[[[\n"));
        assert!(c.is_err());
    }

    #[test]
    fn keyring_layer_only_when_no_other_layer_has_the_token() {
        let kr = || Some(secrets::Secret::new("cog_fromkeyring123456"));
        let (_d, c) = cfg(&[], None, None);
        let c = c.unwrap().with_keyring_token(kr());
        let r = c.get(&env::DEVIN_OUTPOSTS_TOKEN).unwrap();
        assert_eq!(r.source, Source::Keyring);
        assert_eq!(r.value, "cog_fromkeyring123456");
        // Any other layer wins.
        let (_d, c) = cfg(
            &[],
            Some("DEVIN_OUTPOSTS_TOKEN=cog_fromdotenv12345\n"),
            None,
        );
        let r = c
            .unwrap()
            .with_keyring_token(kr())
            .get(&env::DEVIN_OUTPOSTS_TOKEN)
            .unwrap();
        assert!(matches!(r.source, Source::DotEnv(_)), "{:?}", r.source);
        let (_d, c) = cfg(
            &[("DEVIN_OUTPOSTS_TOKEN", "cog_fromenv1234567")],
            None,
            None,
        );
        let r = c
            .unwrap()
            .with_keyring_token(kr())
            .get(&env::DEVIN_OUTPOSTS_TOKEN)
            .unwrap();
        assert_eq!(r.source, Source::Env("DEVIN_OUTPOSTS_TOKEN"));
        // Only the outpost token and the v3 key live there, and unit tests never read a real
        // keyring.
        let (_d, c) = cfg(&[], None, None);
        let c = c.unwrap();
        assert!(c.get(&env::DEVIN_OUTPOSTS_TOKEN).is_none());
        assert!(c.get(&env::DEVIN_API_KEY).is_none());
        let c = c
            .with_keyring_token(kr())
            .with_keyring_value(&env::DEVIN_OUTPOST_CREATE_TOKEN, kr());
        assert!(c.get(&env::DEVIN_OUTPOST_CREATE_TOKEN).is_none());
        assert!(c.get(&env::DEVIN_API_KEY).is_none());
        // The v3 key has its own slot, below every other layer too.
        let key = || Some(secrets::Secret::new("cog_v3keyfromkeyring99"));
        let (_d, c) = cfg(&[], None, None);
        let c = c.unwrap().with_keyring_value(&env::DEVIN_API_KEY, key());
        let r = c.get(&env::DEVIN_API_KEY).unwrap();
        assert_eq!(
            (r.source, r.value.as_str()),
            (Source::Keyring, "cog_v3keyfromkeyring99")
        );
        assert!(c.get(&env::DEVIN_OUTPOSTS_TOKEN).is_none());
        let (_d, c) = cfg(&[], Some("DEVIN_API_KEY=cog_v3keyfromdotenv1\n"), None);
        let r = c
            .unwrap()
            .with_keyring_value(&env::DEVIN_API_KEY, key())
            .get(&env::DEVIN_API_KEY)
            .unwrap();
        assert!(matches!(r.source, Source::DotEnv(_)), "{:?}", r.source);
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("30").unwrap(), Duration::from_secs(30));
        assert_eq!(parse_duration("2m").unwrap(), Duration::from_secs(120));
        assert_eq!(parse_duration("0.5").unwrap(), Duration::from_millis(500));
        assert!(parse_duration("soon").is_err());
    }
}
