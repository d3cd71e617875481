//! Reading the two settings files: the `.env` overlay (never written into the process
//! environment; a parse error never echoes a line, which may hold a secret) and `outposts.toml`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::ConfigError;
use crate::{env, secrets};

pub(super) fn default_config_path(env: &BTreeMap<String, String>) -> Option<PathBuf> {
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

pub(super) fn read_dotenv(
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

pub(super) fn read_toml(
    path: &Path,
    required: bool,
) -> Result<Option<BTreeMap<String, String>>, ConfigError> {
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
