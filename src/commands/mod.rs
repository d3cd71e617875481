//! One module per command group: parse, prompt, call domain code, render. No HTTP here.

use std::sync::OnceLock;

use anyhow::Result;

use crate::api::HttpClient;
use crate::api::devin::DevinClient;
use crate::cli::{Cli, Command, GlobalArgs};
use crate::config::{Config, ConfigError, LoadOptions};
use crate::env;
use crate::error::{CliError, ExitStatus};
use crate::output::Printer;
use crate::provider::{Provider, ProviderKind};
use crate::settings::{DaytonaApiSettings, DevinSettings, HttpSettings, ProviderSettings};

pub mod auth;
pub mod connect;
pub mod cost;
pub mod demo;
pub mod docs;
pub mod doctor;
pub mod emulator;
pub mod generate;
pub mod orchestrator;
pub mod outpost;
pub mod queue;
pub mod session;
pub mod snapshot;
pub mod worker;

/// What every command gets: the global flags, the printer, the layered configuration and the
/// settings resolved from it ([`crate::settings`]), which is what clients and providers take.
pub struct Ctx {
    pub global: GlobalArgs,
    pub printer: Printer,
    pub config: Config,
    http: OnceLock<HttpClient>,
}

impl Ctx {
    pub fn new(global: GlobalArgs, printer: Printer, config: Config) -> Self {
        Ctx {
            global,
            printer,
            config,
            http: OnceLock::new(),
        }
    }

    /// The shared HTTP client, configured from `OUTPOSTS_HTTP_*` settings.
    pub fn http(&self) -> Result<HttpClient> {
        if let Some(c) = self.http.get() {
            return Ok(c.clone());
        }
        let client = HttpClient::new(HttpSettings::resolve(&self.config)?)?;
        Ok(self.http.get_or_init(|| client).clone())
    }

    /// The fleet API's settings (`DEVIN_API_URL`, `DEVIN_OUTPOSTS_TOKEN`).
    pub fn devin_settings(&self) -> Result<DevinSettings, ConfigError> {
        DevinSettings::resolve(&self.config)
    }

    /// A fleet API client of [`Self::devin_settings`].
    pub fn devin(&self) -> Result<DevinClient> {
        let http = self.http()?;
        Ok(DevinClient::new(self.devin_settings()?, http))
    }

    /// `--provider`, else `OUTPOSTS_PROVIDER`, else Daytona.
    pub fn provider_kind(&self, flag: Option<ProviderKind>) -> Result<ProviderKind, ConfigError> {
        ProviderSettings::choose(&self.config, flag)
    }

    /// The settings of provider `kind`.
    pub fn provider_settings(&self, kind: ProviderKind) -> Result<ProviderSettings, ConfigError> {
        ProviderSettings::of(&self.config, kind)
    }

    /// Provider `kind`, built from its settings.
    pub async fn provider(&self, kind: ProviderKind) -> Result<std::sync::Arc<dyn Provider>> {
        let http = self.http()?;
        crate::provider::build(self.provider_settings(kind)?, http).await
    }

    /// Daytona's API client (`snapshot` commands).
    pub fn daytona(&self) -> Result<crate::api::daytona::DaytonaClient> {
        let http = self.http()?;
        Ok(crate::provider::daytona::client(
            DaytonaApiSettings::resolve(&self.config)?,
            http,
        ))
    }

    /// Ask for confirmation on a terminal; otherwise require `--yes`.
    pub fn confirm(&self, question: &str) -> Result<bool> {
        if self.global.yes {
            return Ok(true);
        }
        if !self.printer.can_prompt() {
            return Err(CliError::usage(
                format!("{question} — cannot ask without a terminal"),
                Some("pass --yes to confirm non-interactively".to_string()),
            )
            .into());
        }
        let answer = dialoguer::Confirm::new()
            .with_prompt(question)
            .default(false)
            .interact_opt();
        match answer {
            Ok(Some(yes)) => Ok(yes),
            Ok(None) => Err(CliError::Interrupted.into()),
            Err(e) => Err(CliError::usage(
                format!("cannot read the answer: {e}"),
                Some("pass --yes instead".to_string()),
            )
            .into()),
        }
    }
}

/// Load configuration and dispatch.
pub async fn run(cli: Cli, printer: Printer) -> Result<ExitStatus> {
    let opts = LoadOptions {
        env_file: cli
            .global
            .env_file
            .clone()
            .filter(|p| p.exists() || !cli.command.creates_env_file()),
        config_file: cli.global.config.clone(),
    };
    let config = match Config::load(&opts) {
        Ok(c) => c,
        Err(e) if matches!(cli.command, Command::Doctor(_)) => {
            return doctor::unloadable(&printer, &e);
        }
        Err(e) => return Err(e.into()),
    };
    // A misspelt key would be ignored in silence; doctor reports it as a failed check.
    if !matches!(cli.command, Command::Doctor(_)) {
        for m in config.dotenv_misspelt() {
            printer.warn(&m.to_string());
        }
    }
    let ctx = Ctx::new(cli.global, printer, config);
    match cli.command {
        Command::Connect(args) => connect::run(&ctx, args).await,
        Command::Auth(args) => auth::run(&ctx, args).await,
        Command::Outpost(args) => outpost::run(&ctx, args).await,
        Command::Queue(args) => queue::run(&ctx, args).await,
        Command::Demo(args) => demo::run(&ctx, args).await,
        Command::Orchestrator(args) => orchestrator::run(&ctx, args).await,
        Command::Emulator(args) => emulator::run(&ctx, args).await,
        Command::Worker(args) => worker::run(&ctx, args).await,
        Command::Completions(args) => generate::completions(&ctx, args).await,
        Command::Generate(args) => generate::generate(&ctx, args).await,
        Command::Snapshot(args) => snapshot::run(&ctx, args).await,
        Command::Session(args) => session::run(&ctx, args).await,
        Command::Doctor(args) => doctor::run(&ctx, args).await,
        Command::Cost(args) => cost::run(&ctx, args).await,
        Command::HelpEnv => {
            ctx.printer.result(&env_json(), env::help_text);
            Ok(ExitStatus::Success)
        }
    }
}

fn env_json() -> docs::EnvDoc {
    docs::EnvDoc(
        env::ALL
            .iter()
            .map(|v| docs::EnvVarDoc {
                name: v.name,
                aliases: v.aliases,
                default: v.default,
                doc: v.doc.trim(),
                secret: v.secret,
                group: v.group.title(),
            })
            .collect(),
    )
}

/// The outpost the user named (a name or an id), through the one lookup
/// ([`crate::api::outpost_lookup`]); an unknown or ambiguous one is a usage error (exit 2)
/// listing the account's outposts. API failures pass through unchanged.
pub(crate) async fn lookup_outpost(
    devin: &crate::api::devin::DevinClient,
    wanted: &str,
) -> Result<crate::api::devin::Outpost> {
    use crate::api::outpost_lookup::resolve_outpost;
    match resolve_outpost(devin, wanted).await {
        Ok(o) => Ok(o),
        Err(e) if e.is_bad_input() => {
            Err(CliError::usage(e.to_string(), crate::settings::advice::outpost_lookup(&e)).into())
        }
        Err(e) => Err(e.into()),
    }
}
