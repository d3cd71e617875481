//! Which provider runs sandboxes, and each provider's own settings.
//!
//! Adding a provider: a variant here with its settings struct and `resolve`, its descriptor in
//! `descriptor.rs` (one arm in [`super::descriptor::descriptor`]), and the provider itself under
//! `provider/` (README, "How to add a provider").

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::api::coreweave::{Auth, BaseUrl, parse_base_url, wandb_host};
use crate::config::{Config, ConfigError, Source, expand_home};
use crate::env;
use crate::provider::ProviderKind;
use crate::provider::local::LocalOptions;
use crate::secrets::Secret;

use super::HttpSettings;

/// The resolved settings of the provider sandboxes run on.
#[derive(Debug, Clone)]
pub enum ProviderSettings {
    Daytona(DaytonaSettings),
    Coreweave(CoreweaveSettings),
    Local(LocalSettings),
}

impl ProviderSettings {
    pub fn kind(&self) -> ProviderKind {
        match self {
            ProviderSettings::Daytona(_) => ProviderKind::Daytona,
            ProviderSettings::Coreweave(_) => ProviderKind::Coreweave,
            ProviderSettings::Local(_) => ProviderKind::Local,
        }
    }

    /// `--provider`, else `OUTPOSTS_PROVIDER`, else Daytona.
    pub fn choose(
        config: &Config,
        flag: Option<ProviderKind>,
    ) -> Result<ProviderKind, ConfigError> {
        match flag {
            Some(k) => Ok(k),
            None => Ok(Self::chosen(config)?.0),
        }
    }

    /// The provider commands use without `--provider`, and where that choice came from
    /// (`doctor` tells a default apart from a choice). The one reader of `OUTPOSTS_PROVIDER`.
    pub fn chosen(config: &Config) -> Result<(ProviderKind, Source), ConfigError> {
        let source = config
            .get(&env::OUTPOSTS_PROVIDER)
            .map_or(Source::Default, |r| r.source);
        let kind = config
            .parse(&env::OUTPOSTS_PROVIDER, ProviderKind::parse)?
            .unwrap_or(ProviderKind::Daytona);
        Ok((kind, source))
    }

    /// The settings of the chosen provider ([`Self::choose`]).
    pub fn resolve(config: &Config, flag: Option<ProviderKind>) -> Result<Self, ConfigError> {
        Self::of(config, Self::choose(config, flag)?)
    }

    /// The settings of `kind`, resolved as its descriptor says.
    pub fn of(config: &Config, kind: ProviderKind) -> Result<Self, ConfigError> {
        (super::descriptor::descriptor(kind).resolve)(config)
    }
}

/// Daytona's control plane: what `snapshot` commands need (no sandbox settings).
#[derive(Debug, Clone)]
pub struct DaytonaApiSettings {
    pub api_url: String,
    pub api_key: Secret,
}

impl DaytonaApiSettings {
    /// `DAYTONA_API_KEY` (required) and `DAYTONA_API_URL`.
    pub fn resolve(config: &Config) -> Result<Self, ConfigError> {
        let key = config.require(
            &env::DAYTONA_API_KEY,
            "create an API key in the Daytona dashboard and set DAYTONA_API_KEY (in .env or the \
             environment), or point at `outposts emulator` with `eval \"$(outposts emulator env)\"`",
        )?;
        let api_url = config
            .url(&env::DAYTONA_API_URL)?
            .unwrap_or_else(|| env::DAYTONA_API_URL.default_str().into());
        Ok(DaytonaApiSettings {
            api_url,
            api_key: Secret::new(key.value),
        })
    }
}

/// The Daytona provider.
#[derive(Debug, Clone)]
pub struct DaytonaSettings {
    pub api: DaytonaApiSettings,
    /// `DAYTONA_TARGET`: the region sandboxes are created in (`None`: the account's default).
    pub target: Option<String>,
    /// `DAYTONA_START_TIMEOUT`: how long a sandbox may take to start.
    pub start_timeout: Duration,
}

impl DaytonaSettings {
    /// `DAYTONA_API_KEY`, `DAYTONA_API_URL`, `DAYTONA_TARGET`, `DAYTONA_START_TIMEOUT`.
    pub fn resolve(config: &Config) -> Result<Self, ConfigError> {
        Ok(DaytonaSettings {
            api: DaytonaApiSettings::resolve(config)?,
            target: config.value(&env::DAYTONA_TARGET),
            start_timeout: config
                .duration(&env::DAYTONA_START_TIMEOUT)?
                .unwrap_or(Duration::from_secs(300)),
        })
    }
}

/// The CoreWeave provider: where the gRPC API is and how calls authenticate.
#[derive(Debug, Clone)]
pub struct CoreweaveSettings {
    pub base: BaseUrl,
    pub auth: Auth,
    /// Connect timeout and retries of the gRPC channel.
    pub http: HttpSettings,
}

impl CoreweaveSettings {
    /// `CWSANDBOX_BASE_URL`, `CWSANDBOX_API_KEY` (else `WANDB_*`) and the `OUTPOSTS_*`
    /// connection settings. Bad values are configuration errors (exit 2); missing credentials
    /// an auth error (exit 4).
    pub fn resolve(config: &Config) -> Result<Self, ConfigError> {
        Ok(CoreweaveSettings {
            base: Self::base_url(config)?,
            auth: Self::auth(config)?,
            http: HttpSettings::resolve(config)?,
        })
    }

    /// `CWSANDBOX_BASE_URL` (default `https://api.cwsandbox.com`); a bad value is a
    /// configuration error naming the variable (exit 2).
    pub fn base_url(config: &Config) -> Result<BaseUrl, ConfigError> {
        let (raw, source) = match config.get(&env::CWSANDBOX_BASE_URL) {
            Some(r) => (r.value, r.source),
            None => (
                env::CWSANDBOX_BASE_URL.default_str().to_string(),
                Source::Default,
            ),
        };
        parse_base_url(&raw).map_err(|problem| ConfigError::Invalid {
            var: env::CWSANDBOX_BASE_URL.name,
            hint: format!(
                "set {} to scheme, host and optional port only, e.g. https://api.cwsandbox.com or \
                 http://127.0.0.1:8790 for the emulator",
                env::CWSANDBOX_BASE_URL.name
            ),
            origin: source,
            problem,
        })
    }

    /// `CWSANDBOX_API_KEY`, else W&B from `WANDB_*`; neither is an auth error (exit 4) that
    /// says how to fix it.
    pub fn auth(config: &Config) -> Result<Auth, ConfigError> {
        if let Some(key) = config.value(&env::CWSANDBOX_API_KEY) {
            return Ok(Auth::ApiKey(Secret::new(key.trim())));
        }
        let Some(key) = config.value(&env::WANDB_API_KEY) else {
            return Err(ConfigError::MissingCredentials {
                message:
                    "no CoreWeave credentials: neither CWSANDBOX_API_KEY nor WANDB_API_KEY is set"
                        .into(),
                hint: "set CWSANDBOX_API_KEY to a CoreWeave Sandbox API key, or WANDB_API_KEY \
                       (and WANDB_ENTITY) to a W&B user API key, in the environment or .env"
                    .into(),
            });
        };
        let host = match config.get(&env::WANDB_BASE_URL) {
            Some(r) => wandb_host(&r.value).map_err(|problem| ConfigError::Invalid {
                var: env::WANDB_BASE_URL.name,
                hint: format!(
                    "set {} to the W&B server URL, e.g. https://api.wandb.ai",
                    env::WANDB_BASE_URL.name
                ),
                origin: r.source,
                problem,
            })?,
            None => None,
        };
        let nonempty =
            |v: Option<String>| v.map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
        Ok(Auth::Wandb {
            api_key: Secret::new(key.trim()),
            entity: nonempty(config.value(&env::WANDB_ENTITY)),
            project: nonempty(config.value(&env::WANDB_PROJECT)),
            host,
        })
    }
}

/// The local provider: where sandboxes live and whether running without isolation is allowed.
#[derive(Debug, Clone)]
pub struct LocalSettings {
    pub root: PathBuf,
    pub options: LocalOptions,
    /// `OUTPOSTS_DEVIN_CLI_DIR`: the host's `devin` that local workers see.
    pub devin_cli_dir: Option<PathBuf>,
}

impl LocalSettings {
    /// Root from `OUTPOSTS_LOCAL_ROOT` (default `$XDG_DATA_HOME/outposts/sandboxes`), unisolated
    /// opt-in from `OUTPOSTS_LOCAL_UNISOLATED`.
    pub fn resolve(config: &Config) -> Result<Self, ConfigError> {
        Ok(LocalSettings {
            root: Self::root(config)?,
            options: Self::options(config)?,
            devin_cli_dir: config
                .value(&env::OUTPOSTS_DEVIN_CLI_DIR)
                .map(|d| PathBuf::from(d.trim())),
        })
    }

    /// `OUTPOSTS_LOCAL_ROOT`, else `$XDG_DATA_HOME/outposts/sandboxes`, else
    /// `~/.local/share/outposts/sandboxes`.
    pub fn root(config: &Config) -> Result<PathBuf, ConfigError> {
        let home = config.process_env("HOME").map(str::to_string);
        if let Some(p) = config.parse(&env::OUTPOSTS_LOCAL_ROOT, |s| {
            Ok(expand_home(s, home.as_deref()))
        })? {
            return Ok(p);
        }
        let data = match config.process_env("XDG_DATA_HOME") {
            Some(d) => PathBuf::from(d),
            None => match home {
                Some(h) => Path::new(&h).join(".local/share"),
                None => {
                    return Err(ConfigError::Missing {
                        var: env::OUTPOSTS_LOCAL_ROOT.name,
                        hint: "cannot place local sandboxes: neither OUTPOSTS_LOCAL_ROOT, \
                               XDG_DATA_HOME nor HOME is set; set OUTPOSTS_LOCAL_ROOT to a \
                               directory"
                            .into(),
                    });
                }
            },
        };
        Ok(data.join("outposts").join("sandboxes"))
    }

    /// `OUTPOSTS_LOCAL_UNISOLATED` (default off) on top of the provider's defaults.
    pub fn options(config: &Config) -> Result<LocalOptions, ConfigError> {
        let allow = config
            .parse(&env::OUTPOSTS_LOCAL_UNISOLATED, |s| {
                match s.to_ascii_lowercase().as_str() {
                    "1" | "true" | "yes" | "on" => Ok(true),
                    "0" | "false" | "no" | "off" => Ok(false),
                    other => Err(format!("`{other}` is not 1 or 0")),
                }
            })?
            .unwrap_or(false);
        Ok(LocalOptions {
            allow_unisolated: allow,
            ..LocalOptions::default()
        })
    }
}
