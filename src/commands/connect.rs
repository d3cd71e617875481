//! `outposts connect`: connect an outpost from the browser (PKCE partner flow) and store its
//! token. The flow lives in [`crate::connect`]; this file checks inputs, prints and decides.

use std::path::{Path, PathBuf};
use std::sync::mpsc::Sender;
use std::time::Duration;

use anyhow::Result;
use clap::ValueEnum;
use schemars::JsonSchema;
use serde::Serialize;

use super::Ctx;
use crate::api::HttpClient;
use crate::api::connection_token::{self, ConnectionGrant, ExchangeError};
use crate::commands::docs::EnvChangeDoc;
use crate::connect::callback::{BindError, CallbackServer, Page};
use crate::connect::store::{self, Saved, StoreChoice};
use crate::connect::{
    DEFAULT_PORT, Wait, browser, callback_url, connect_url, pkce::Pkce, validate_name,
    wait_for_code,
};
use crate::env;
use crate::error::{CliError, ExitStatus};
use crate::secrets::keyring::Keyring;
use crate::secrets::{Secret, dotenv};

const AFTER_HELP: &str = "\
Examples:
  outposts connect --platform linux                 # browser flow, writes ./.env
  outposts connect --name gpu-h200 --no-browser     # print the URL (SSH, containers)
  outposts connect --store keyring                  # token in the OS keyring
  outposts --env-file deploy/.env connect --force   # replace a configured outpost's keys

What it does: opens {DEVIN_APP_URL}/outposts/connect, where an admin clicks Connect; Devin
redirects to http://localhost:8765/callback, and the one-time code is exchanged (PKCE S256) at
{DEVIN_API_URL}/outposts/connection-token for the outpost's machine token. DEVIN_OUTPOSTS_TOKEN,
DEVIN_API_URL and OUTPOST_ID are written to .env (mode 0600, atomically; other lines, comments
and CRLF are kept), or with --store keyring the token goes to the OS keyring and only the other
two keys to .env.

Scripting: the URL is printed on stderr before any browser starts (never the token). --json
prints one object with outpost_id, outpost_name, api_base_url, env_file and token_store. A .env
that already holds a real token or outpost id is refused (exit 2) before any network activity
unless --force is given. Exit codes: 0 connected · 1 denied, timed out, exchange or storage
failed · 2 bad input or configured .env · 130 Ctrl-C. Over SSH, forward the port first:
ssh -L 8765:127.0.0.1:8765 HOST. BROWSER names the command that opens the URL.";

/// How long we wait for the browser to receive the last page before exiting.
const PAGE_FLUSH: Duration = Duration::from_secs(5);

/// Platforms the connect page offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ConnectPlatform {
    Linux,
    Windows,
}

impl ConnectPlatform {
    pub fn as_str(self) -> &'static str {
        match self {
            ConnectPlatform::Linux => "linux",
            ConnectPlatform::Windows => "windows",
        }
    }
}

#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// Platform of the new outpost (editable on the connect page).
    #[arg(long, value_enum, default_value_t = ConnectPlatform::Linux)]
    pub platform: ConnectPlatform,
    /// Name of the new outpost [default: daytona-<platform>] (editable on the connect page).
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// Replace DEVIN_OUTPOSTS_TOKEN, DEVIN_API_URL and OUTPOST_ID in a .env that already holds
    /// an outpost (every other line is kept).
    #[arg(long)]
    pub force: bool,
    /// Only print the URL; do not start a browser.
    #[arg(long)]
    pub no_browser: bool,
    /// Where to keep the token: .env (mode 0600) or the OS keyring (falls back to .env when no
    /// keyring is available).
    #[arg(long, value_enum, default_value_t = StoreChoice::Env)]
    pub store: StoreChoice,
    /// Give up waiting for the browser after this long (e.g. 90s, 10m).
    #[arg(long, value_name = "DURATION", default_value = "10m", value_parser = parse_timeout)]
    pub timeout: Duration,
    /// Local callback port [default: OUTPOSTS_CONNECT_PORT, else 8765]. Devin redirects only
    /// to its allowlisted callback (port 8765); 0 picks a free port (emulator only).
    #[arg(long, value_name = "PORT")]
    pub port: Option<u16>,
}

fn parse_timeout(s: &str) -> Result<Duration, String> {
    let d = crate::config::parse_duration(s)?;
    if d.is_zero() {
        return Err("the timeout must be longer than 0".into());
    }
    Ok(d)
}

/// The `.env` this command writes: `--env-file`, else `./.env`.
pub fn target_env_file(ctx: &Ctx) -> PathBuf {
    match &ctx.global.env_file {
        Some(p) => p.clone(),
        None => std::env::current_dir()
            .unwrap_or_else(|_| PathBuf::from("."))
            .join(".env"),
    }
}

/// Where recovery files go: `$XDG_STATE_HOME/outposts/recovery` (or `~/.local/state/…`).
fn recovery_dir(ctx: &Ctx) -> PathBuf {
    let base = ctx
        .config
        .process_env("XDG_STATE_HOME")
        .map(PathBuf::from)
        .or_else(|| {
            ctx.config
                .process_env("HOME")
                .map(|h| PathBuf::from(h).join(".local/state"))
        })
        .unwrap_or_else(std::env::temp_dir);
    base.join("outposts").join("recovery")
}

fn port(ctx: &Ctx, flag: Option<u16>) -> Result<u16> {
    if let Some(p) = flag {
        return Ok(p);
    }
    Ok(ctx
        .config
        .parse(&env::OUTPOSTS_CONNECT_PORT, |s| {
            s.parse::<u16>()
                .map_err(|_| format!("`{s}` is not a port number (0-65535)"))
        })?
        .unwrap_or(DEFAULT_PORT))
}

/// `outposts connect --json`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ConnectDoc {
    pub outpost_id: String,
    pub outpost_name: Option<String>,
    pub account_id: Option<String>,
    pub service_user_id: Option<String>,
    pub api_base_url: String,
    pub env_file: PathBuf,
    /// `env` or `keyring`.
    #[schemars(with = "String")]
    pub token_store: StoreChoice,
    pub keyring_account: Option<String>,
    pub env_change: EnvChangeDoc,
}

/// The outpost's name: --name, or `daytona-<platform>`.
fn outpost_name(args: &Args) -> Result<String> {
    let name = args
        .name
        .clone()
        .map(|n| n.trim().to_string())
        .unwrap_or_else(|| format!("daytona-{}", args.platform.as_str()));
    validate_name(&name)
        .map_err(|e| CliError::usage(e, "pass --name with 1-100 printable characters"))?;
    Ok(name)
}

pub async fn run(ctx: &Ctx, args: Args) -> Result<ExitStatus> {
    let platform = args.platform.as_str();
    let name = outpost_name(&args)?;

    // Everything that can refuse does so before a socket or a browser is touched.
    let env_file = target_env_file(ctx);
    preflight(&env_file, args.force)?;
    let app_url = ctx.config.url(&env::DEVIN_APP_URL)?.unwrap_or_default();
    let api_url = ctx.config.devin_api_url()?;
    let port = port(ctx, args.port)?;
    let http = ctx.http()?;
    let keyring = Keyring::from_settings(crate::settings::KeyringSettings::resolve(&ctx.config));
    if args.store == StoreChoice::Keyring
        && let Err(e) = keyring.probe_async().await
    {
        ctx.printer.warn(&format!(
            "{e}; the token will be written to {} (mode 0600) instead",
            env_file.display()
        ));
    }
    let server = CallbackServer::bind(port).map_err(|e| bind_error(e, port))?;
    let port = server.port();
    let pkce = Pkce::generate();
    let url = connect_url(
        &app_url,
        &callback_url(port),
        &name,
        platform,
        &pkce.challenge,
    );
    let mut handle = server.start();

    // The URL first, always (even with -q): it is the fallback for every opener problem.
    let open = format!("Open this page to connect outpost \"{name}\" ({platform}):\n  {url}");
    if ctx.printer.json() {
        // The --json stderr rule: every line one JSON object.
        // Not redacted: the URL must reach the user intact (it carries no secret).
        eprintln!(
            "{}",
            serde_json::json!({ "level": "INFO", "message": open })
        );
    } else {
        eprintln!("{open}");
    }
    open_browser(ctx, &url, port, args.no_browser);
    let waiting = ctx.printer.spinner(&format!(
        "waiting for Devin's redirect to 127.0.0.1:{port} (up to {}; Ctrl-C to cancel)",
        humantime::format_duration(args.timeout)
    ));
    let wait = wait_for_code(&mut handle, args.timeout).await;
    waiting.finish(None);
    let (code, reply) = received(wait, args.timeout)?;

    // From here on a Ctrl-C must not lose a minted token: finish, then exit.
    let _ignore = tokio::spawn(async {
        while tokio::signal::ctrl_c().await.is_ok() {
            eprintln!("finishing: the new token is being saved first");
        }
    });
    let link = Link {
        http: &http,
        api_url: &api_url,
        code: &code,
        verifier: &pkce.verifier,
        reply: &reply,
    };
    let (grant, saved) = match link
        .exchange_and_save(ctx, &args, &env_file, &keyring)
        .await
    {
        Ok(done) => done,
        Err(e) => {
            handle.finish(PAGE_FLUSH).await;
            return Err(e);
        }
    };
    let label = grant.outpost_name.clone().unwrap_or_else(|| name.clone());
    let _ = reply.send(Page::new(
        200,
        "Outpost connected",
        &format!("Outpost \"{label}\" is connected."),
    ));
    handle.finish(PAGE_FLUSH).await;
    report(ctx, &grant, &saved, &label);
    Ok(ExitStatus::Success)
}

/// Warnings about what was saved, then the result.
fn report(ctx: &Ctx, grant: &ConnectionGrant, saved: &Saved, label: &str) {
    for w in &saved.warnings {
        ctx.printer.warn(w);
    }
    warn_shadowing(ctx, grant);
    if grant.legacy_pool_field {
        ctx.printer
            .note("note: Devin answered with the legacy `outpost_pool_id` field");
    }

    let doc = ConnectDoc {
        outpost_id: grant.outpost_id.clone(),
        outpost_name: grant.outpost_name.clone(),
        account_id: grant.account_id.clone(),
        service_user_id: grant.service_user_id.clone(),
        api_base_url: grant.api_base_url.clone(),
        env_file: saved.env_file.clone(),
        token_store: saved.token_store,
        keyring_account: saved.keyring_account.clone(),
        env_change: (&saved.change).into(),
    };
    ctx.printer.result(&doc, || {
        let stored = match saved.token_store {
            StoreChoice::Env => format!(
                "Saved DEVIN_OUTPOSTS_TOKEN, DEVIN_API_URL and OUTPOST_ID to {} (mode 0600).",
                saved.env_file.display()
            ),
            StoreChoice::Keyring => format!(
                "Saved the token in the OS keyring, and DEVIN_API_URL and OUTPOST_ID to {} (mode 0600).",
                saved.env_file.display()
            ),
        };
        format!(
            "Connected outpost \"{label}\" ({}) at {}.\n{stored}\nNext: outposts queue list\n",
            grant.outpost_id, grant.api_base_url
        )
    });
}

/// The code the browser brought back, or the error that ends `connect`.
fn received(wait: Wait, timeout: Duration) -> Result<(Secret, Sender<Page>)> {
    Ok(match wait {
        Wait::Code { code, reply } => (code, reply),
        Wait::Denied(message) => {
            return Err(CliError::failed(
                format!("Devin did not connect the outpost: {message}"),
                Some("run `outposts connect` again to retry".into()),
            )
            .into());
        }
        Wait::TimedOut => {
            return Err(CliError::failed(
                format!(
                    "no redirect from the browser within {}",
                    humantime::format_duration(timeout)
                ),
                Some(
                    "run `outposts connect` again (pass --timeout for more time); the page must be opened in a browser that can reach this machine's 127.0.0.1"
                        .into(),
                ),
            )
            .into());
        }
        Wait::Interrupted => return Err(CliError::Interrupted.into()),
        Wait::ListenerFailed(e) => {
            return Err(CliError::failed(
                format!("the local callback listener failed: {e}"),
                Some("run `outposts connect` again".into()),
            )
            .into());
        }
    })
}

/// The environment outranks .env: say so now rather than leave a puzzle for later.
fn warn_shadowing(ctx: &Ctx, grant: &ConnectionGrant) {
    let differs = |key: &str, stored: &str| {
        ctx.config.process_env(key).is_some_and(|v| {
            crate::config::normalize_base_url(v, true).unwrap_or_else(|_| v.to_string()) != stored
        })
    };
    let shadowing: Vec<&str> = [
        (env::DEVIN_OUTPOSTS_TOKEN.name, grant.access_token.expose()),
        (env::DEVIN_API_URL.name, grant.api_base_url.as_str()),
        (env::OUTPOST_ID.name, grant.outpost_id.as_str()),
        ("POOL_ID", grant.outpost_id.as_str()),
    ]
    .into_iter()
    .filter(|(k, v)| differs(k, v))
    .map(|(k, _)| k)
    .collect();
    if !shadowing.is_empty() {
        ctx.printer.warn(&format!(
            "{} in the environment will override what was just stored until you unset {}",
            shadowing.join(", "),
            if shadowing.len() == 1 { "it" } else { "them" }
        ));
    }
}

/// The exchange of the code for a token, and saving it; the browser's page is answered on a
/// failure.
struct Link<'a> {
    http: &'a HttpClient,
    api_url: &'a str,
    code: &'a Secret,
    verifier: &'a Secret,
    reply: &'a Sender<Page>,
}

impl Link<'_> {
    async fn exchange_and_save(
        &self,
        ctx: &Ctx,
        args: &Args,
        env_file: &Path,
        keyring: &Keyring,
    ) -> Result<(ConnectionGrant, Saved)> {
        let grant =
            match connection_token::exchange(self.http, self.api_url, self.code, self.verifier)
                .await
            {
                Ok(g) => g,
                Err(e) => {
                    let _ = self.reply.send(Page::new(
                        200,
                        "Outpost not connected",
                        "The code could not be exchanged; see the terminal.",
                    ));
                    return Err(exchange_error(e));
                }
            };
        let saved = match store::save(&grant, env_file, args.store, keyring, &recovery_dir(ctx))
            .await
        {
            Ok(s) => s,
            Err(e) => {
                let _ = self.reply.send(Page::new(
                    200,
                    "Connected, but not saved",
                    "The outpost was connected but its settings could not be saved; see the terminal.",
                ));
                return Err(CliError::failed(
                    format!(
                        "outpost {} was connected, but {}",
                        grant.outpost_id, e.message
                    ),
                    Some(e.hint),
                )
                .into());
            }
        };
        Ok((grant, saved))
    }
}

/// Refuse a `.env` that already holds an outpost (unless `--force`), and a directory that
/// does not exist, before anything else happens.
fn preflight(env_file: &std::path::Path, force: bool) -> Result<()> {
    let values = dotenv::read_values(env_file).map_err(|e| {
        CliError::usage(
            e.to_string(),
            Some("fix the file, or pass --env-file FILE to write another one".into()),
        )
    })?;
    if let Some(values) = values {
        let keys = store::configured_keys(&values);
        if !keys.is_empty() && !force {
            return Err(CliError::usage(
                format!(
                    "{} already holds {}; refusing to replace a connected outpost",
                    env_file.display(),
                    keys.join(" and ")
                ),
                Some(
                    "pass --force to replace only DEVIN_OUTPOSTS_TOKEN, DEVIN_API_URL and OUTPOST_ID (comments and other lines are kept), or --env-file FILE to write another file"
                        .into(),
                ),
            )
            .into());
        }
    }
    let dir = env_file
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    if !dir.is_dir() {
        return Err(CliError::usage(
            format!("the directory {} does not exist", dir.display()),
            Some("create it, or pass --env-file with a path in an existing directory".into()),
        )
        .into());
    }
    Ok(())
}

fn bind_error(e: BindError, port: u16) -> anyhow::Error {
    let hint = match &e {
        BindError::InUse { .. } => format!(
            "another `outposts connect` or another program holds it: stop it (`ss -ltnp 'sport = :{port}'` shows which), or pass --port N / set OUTPOSTS_CONNECT_PORT — Devin only redirects to http://localhost:{DEFAULT_PORT}/callback, so other ports work with the emulator only"
        ),
        BindError::Other { .. } => {
            "pass --port N (or set OUTPOSTS_CONNECT_PORT) to listen on another port".into()
        }
    };
    CliError::failed(
        format!("cannot listen for Devin's callback: {e}"),
        Some(hint),
    )
    .into()
}

fn open_browser(ctx: &Ctx, url: &str, port: u16, no_browser: bool) {
    if no_browser {
        ctx.printer.note("Not opening a browser (--no-browser).");
        return;
    }
    let browser_cmd = ctx.config.value(&env::BROWSER);
    let headless = browser::headless_reason(|k| ctx.config.process_env(k).map(str::to_string));
    match (browser_cmd, headless) {
        (None, Some(reason)) => ctx.printer.note(&format!(
            "Not opening a browser: {reason}. Open the URL in a browser that can reach 127.0.0.1:{port} on this machine (over SSH: ssh -L {port}:127.0.0.1:{port} HOST)."
        )),
        (cmd, _) => match browser::open(url, cmd.as_deref()) {
            Ok(how) => ctx.printer.note(&format!("Browser: {how}.")),
            Err(e) => ctx
                .printer
                .warn(&format!("{e}; open the URL above yourself")),
        },
    }
}

fn exchange_error(e: ExchangeError) -> anyhow::Error {
    match e {
        ExchangeError::InvalidGrant { description } => CliError::failed(
            "the code expired or was used; run `outposts connect` again",
            Some(format!("Devin said: {description}")),
        )
        .into(),
        ExchangeError::Api(api) => api.into(),
        other @ ExchangeError::Refused { .. } => CliError::failed(
            other.to_string(),
            Some("check DEVIN_API_URL: it must be the API origin (e.g. https://api.devin.ai), then run `outposts connect` again".into()),
        )
        .into(),
        other @ ExchangeError::BadResponse(_) => CliError::failed(
            other.to_string(),
            Some("DEVIN_API_URL may point at the wrong server; check it and run `outposts connect` again".into()),
        )
        .into(),
    }
}
