//! Parse, set up logging, run the command, and decide the exit code — in one place.

use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use outposts::api::ApiError;
use outposts::cli::{Cli, LogFormat};
use outposts::commands::docs::{ErrorBody, ErrorDoc};
use outposts::config::ConfigError;
use outposts::error::{CliError, Code, Hint, InSession};
use outposts::output::Printer;
use outposts::secrets::{RedactingStderr, redact};

fn main() -> ExitCode {
    // Multi-call: started as `devin`, this binary is the emulator's fake Devin CLI.
    if outposts::emulator::devin_cli::invoked_as_devin() {
        return ExitCode::from(outposts::emulator::devin_cli::main_entry());
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // With --json a usage error is JSON on stderr too, like every other error.
            if e.use_stderr() && wants_json() {
                let doc = usage_error_json(&e.render().to_string()).to_json();
                if session_args() {
                    println!("{doc}");
                }
                eprintln!("{doc}");
                return ExitCode::from(Code::Usage as u8);
            }
            // --help and --version print to stdout and succeed; real usage errors exit 2.
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() {
                Code::Usage as u8
            } else {
                Code::Ok as u8
            });
        }
    };
    let env_set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty());
    let ci = std::env::var("CI")
        .map(|v| !matches!(v.as_str(), "" | "0" | "false"))
        .unwrap_or(false);
    // Under --json every stderr line is a JSON object, log records included.
    let log_format = if cli.global.json {
        LogFormat::Json
    } else {
        cli.global.log_format
    };
    init_tracing(cli.global.verbose, cli.global.quiet, log_format);
    // A `session` command's stdout holds exactly one document with --json, an error's too.
    let one_document = matches!(cli.command, outposts::cli::Command::Session(_));
    let printer = Printer::new(
        cli.global.json,
        cli.global.quiet,
        cli.global.verbose,
        cli.global.color,
        env_set("NO_COLOR"),
        ci,
        env_set("RUST_LOG"),
    );

    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return ExitCode::from(Code::Failure as u8);
        }
    };
    let own_signals = cli.command.handles_signals();
    let result = runtime.block_on(async {
        let run = outposts::commands::run(cli, printer.clone());
        if own_signals {
            run.await
        } else {
            tokio::select! {
                r = run => r,
                _ = tokio::signal::ctrl_c() => Err(CliError::Interrupted.into()),
            }
        }
    });
    // Stray tasks (an open stream, a blocking listener) must not delay the exit.
    runtime.shutdown_timeout(Duration::from_millis(200));

    match result {
        Ok(status) => ExitCode::from(status.code()),
        Err(err) => {
            let (code, hint) = classify(&err);
            report(&printer, code, &err, hint, one_document);
            ExitCode::from(code as u8)
        }
    }
}

/// `--json` among the arguments (before a `--` that ends the options).
fn wants_json() -> bool {
    std::env::args_os()
        .skip(1)
        .take_while(|a| a != "--")
        .any(|a| a == "--json")
}

/// The arguments name a `session` command (its usage errors keep the one-document rule):
/// clap, told to ignore the error, still finds the subcommand.
fn session_args() -> bool {
    use clap::CommandFactory;
    Cli::command()
        .ignore_errors(true)
        .try_get_matches()
        .is_ok_and(|m| m.subcommand_name() == Some("session"))
}

/// clap's rendered error as `{"error": {code, exit_code, message, hint}}`: the first line is
/// the message, the rest (usage, tips) the hint.
fn usage_error_json(rendered: &str) -> ErrorDoc {
    let mut lines = rendered.lines().map(str::trim).filter(|l| !l.is_empty());
    let message = lines
        .next()
        .unwrap_or("invalid arguments")
        .trim_start_matches("error: ")
        .to_string();
    let rest: Vec<&str> = lines.collect();
    let hint = (!rest.is_empty()).then(|| Hint::new(rest.join(" ")));
    error_doc(Code::Usage, &message, hint)
}

/// The `--json` error document on stderr, redacted.
fn error_doc(code: Code, message: &str, hint: Option<Hint>) -> ErrorDoc {
    ErrorDoc {
        error: ErrorBody {
            code: code.as_str(),
            exit_code: code as u8,
            message: redact(message).into_owned(),
            hint: hint.map(|h| Hint::new(redact(h.as_str()))),
        },
        session_id: None,
    }
}

/// The exit-code table of DESIGN.md, applied to an error chain.
/// A rejected credential exits 4; any other failure of the same call exits 1.
fn auth_or_failure(is_auth: bool) -> Code {
    if is_auth { Code::Auth } else { Code::Failure }
}

fn classify(err: &anyhow::Error) -> (Code, Option<Hint>) {
    for cause in err.chain() {
        if let Some(e) = cause.downcast_ref::<CliError>() {
            let code = match e {
                CliError::Usage { .. } => Code::Usage,
                CliError::Auth { .. } => Code::Auth,
                CliError::Check { .. } => Code::CheckFailed,
                CliError::Interrupted => Code::Interrupted,
                CliError::Terminated => Code::Terminated,
                CliError::Failed { .. } => Code::Failure,
            };
            return (code, e.hint().cloned());
        }
        if let Some(e) = cause.downcast_ref::<ConfigError>() {
            let code = match e {
                ConfigError::MissingCredentials { .. } => Code::Auth,
                _ => Code::Usage,
            };
            return (code, Some(Hint::from(e.hint())));
        }
        if let Some(e) = cause.downcast_ref::<outposts::orchestrator::state::StateError>() {
            return (Code::Usage, Some(Hint::new(e.hint.clone())));
        }
        if let Some(e) = cause.downcast_ref::<outposts::worker::WorkerError>() {
            return (Code::Usage, Some(Hint::new(e.hint.clone())));
        }
        if let Some(outposts::provider::ProviderError::NotReady { fix, .. }) =
            cause.downcast_ref::<outposts::provider::ProviderError>()
        {
            return (Code::Usage, Some(Hint::new(fix.clone())));
        }
        // A provider's API failure (ProviderError::Api is transparent, so the ApiError itself
        // is not in the chain).
        if let Some(outposts::provider::ProviderError::Api(e)) =
            cause.downcast_ref::<outposts::provider::ProviderError>()
        {
            return (auth_or_failure(e.is_auth()), e.hint().map(Hint::from));
        }
        // The v3 API: a refused DEVIN_API_KEY or a missing permission is a credentials problem.
        if let Some(e) = cause.downcast_ref::<outposts::api::devin_v3::V3Error>() {
            // A 400 refuses a value we were given (an outpost the organisation does not offer):
            // a configuration error, like a wrong name anywhere else.
            let code = match e {
                outposts::api::devin_v3::V3Error::Rejected { .. } => Code::Usage,
                _ => auth_or_failure(e.is_auth()),
            };
            return (code, e.hint().map(Hint::from));
        }
        // Transparent over ApiError, so the ApiError itself is not in the chain.
        if let Some(e) = cause.downcast_ref::<outposts::api::outpost_lookup::OutpostLookupError>() {
            let code = match e {
                outposts::api::outpost_lookup::OutpostLookupError::Api(api) if api.is_auth() => {
                    Code::Auth
                }
                _ => Code::Failure,
            };
            return (code, e.hint().map(Hint::from));
        }
        if let Some(e) = cause.downcast_ref::<ApiError>() {
            return (auth_or_failure(e.is_auth()), e.hint().map(Hint::from));
        }
    }
    (Code::Failure, None)
}

fn report(printer: &Printer, code: Code, err: &anyhow::Error, hint: Option<Hint>, stdout: bool) {
    if printer.json() {
        let mut doc = error_doc(code, &format!("{err:#}"), hint);
        doc.session_id = err.downcast_ref::<InSession>().map(|s| s.0.clone());
        let doc = doc.to_json();
        if stdout {
            println!("{doc}");
        }
        // The last stderr line, so stderr alone also tells the failure.
        eprintln!("{doc}");
        return;
    }
    let message = redact(&format!("{err:#}")).into_owned();
    let hint = hint.map(|h| redact(h.as_str()).into_owned());
    if code == Code::Interrupted || code == Code::Terminated {
        eprintln!("{}", code.as_str());
        return;
    }
    let label = if printer.color() {
        console::style("error:").red().bold().to_string()
    } else {
        "error:".into()
    };
    eprintln!("{label} {message}");
    if let Some(h) = hint {
        eprintln!("  hint: {h}");
    }
}

fn init_tracing(verbose: u8, quiet: bool, format: LogFormat) {
    use tracing_subscriber::EnvFilter;
    let default = match (quiet, verbose) {
        (true, _) => "error",
        (_, 0) => "warn",
        (_, 1) => "warn,outposts=info",
        (_, 2) => "info,outposts=debug",
        _ => "debug,outposts=trace",
    };
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(RedactingStderr)
        .with_target(verbose >= 2);
    let _ = match format {
        LogFormat::Json => builder.json().try_init(),
        LogFormat::Text => builder.with_ansi(false).try_init(),
    };
}
