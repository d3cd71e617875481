//! Parse, set up logging, run the command, and decide the exit code — in one place.

use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use outposts::api::ApiError;
use outposts::cli::{Cli, LogFormat};
use outposts::commands::docs::{ErrorBody, ErrorDoc};
use outposts::config::ConfigError;
use outposts::error::{CliError, Code, HasHint, Hint, InSession};
use outposts::output::Printer;
use outposts::secrets::{RedactingStderr, redact};
use outposts::settings::OutputSettings;

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
    // Under --json every stderr line is a JSON object, log records included; --log-format json
    // also turns the narration into log records.
    init_tracing(
        cli.global.verbose,
        cli.global.quiet,
        cli.global.log_format,
        cli.global.json,
    );
    // A `session` command's stdout holds exactly one document with --json, an error's too.
    let one_document = matches!(cli.command, outposts::cli::Command::Session(_));
    let printer = Printer::new(&OutputSettings::resolve(&cli.global));

    outposts::orchestrator::limit_arenas();
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
    err.chain()
        .find_map(exit_code)
        .map_or((Code::Failure, None), |(code, e)| (code, e.hint()))
}

/// The exit code of an error the table knows (`None`: look further down the chain). The hint
/// is the error's own ([`HasHint`]).
fn exit_code<'a>(cause: &'a (dyn std::error::Error + 'static)) -> Option<(Code, &'a dyn HasHint)> {
    use outposts::api::outpost_lookup::OutpostLookupError;
    use outposts::provider::ProviderError;
    if let Some(e) = cause.downcast_ref::<CliError>() {
        let code = match e {
            CliError::Usage { .. } => Code::Usage,
            CliError::Auth { .. } => Code::Auth,
            CliError::Check { .. } => Code::CheckFailed,
            CliError::Interrupted => Code::Interrupted,
            CliError::Terminated => Code::Terminated,
            CliError::Failed { .. } => Code::Failure,
        };
        return hinted(code, e);
    }
    if let Some(e) = cause.downcast_ref::<ConfigError>() {
        let code = match e {
            ConfigError::MissingCredentials { .. } => Code::Auth,
            _ => Code::Usage,
        };
        return hinted(code, e);
    }
    if let Some(e) = cause.downcast_ref::<outposts::orchestrator::state::StateError>() {
        return hinted(Code::Usage, e);
    }
    if let Some(e) = cause.downcast_ref::<outposts::worker::WorkerError>() {
        return hinted(Code::Usage, e);
    }
    // A provider that cannot run here, or its API's failure (ProviderError::Api is
    // transparent, so the ApiError itself is not in the chain).
    if let Some(e) = cause.downcast_ref::<ProviderError>() {
        match e {
            ProviderError::NotReady { .. } => return hinted(Code::Usage, e),
            ProviderError::Api(api) => return hinted(auth_or_failure(api.is_auth()), e),
            _ => {}
        }
    }
    // The v3 API: a refused DEVIN_API_KEY or a missing permission is a credentials problem.
    if let Some(e) = cause.downcast_ref::<outposts::api::devin_v3::V3Error>() {
        // A 400 refuses a value we were given (an outpost the organisation does not offer): a
        // configuration error, like a wrong name anywhere else.
        let code = match e {
            outposts::api::devin_v3::V3Error::Rejected { .. } => Code::Usage,
            _ => auth_or_failure(e.is_auth()),
        };
        return hinted(code, e);
    }
    // Transparent over ApiError, so the ApiError itself is not in the chain.
    if let Some(e) = cause.downcast_ref::<OutpostLookupError>() {
        let code = match e {
            OutpostLookupError::Api(api) if api.is_auth() => Code::Auth,
            _ => Code::Failure,
        };
        return hinted(code, e);
    }
    if let Some(e) = cause.downcast_ref::<ApiError>() {
        return hinted(auth_or_failure(e.is_auth()), e);
    }
    None
}

fn hinted(code: Code, e: &dyn HasHint) -> Option<(Code, &dyn HasHint)> {
    Some((code, e))
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
    if outposts::logging::json() {
        // `--log-format json`: the error is a log line like every other one.
        let (code, exit_code) = (code.as_str(), code as u8);
        let hint = hint.as_deref();
        tracing::error!(target: outposts::logging::NARRATION, code, exit_code, hint, "{message}");
        return;
    }
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

fn init_tracing(verbose: u8, quiet: bool, format: LogFormat, json_output: bool) {
    use tracing_subscriber::EnvFilter;
    let json = format == LogFormat::Json;
    outposts::logging::set_json(json);
    let default = outposts::logging::default_filter(verbose, quiet, json);
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(RedactingStderr)
        .with_target(verbose >= 2);
    // JSON: one object per line, a session event's fields as the line's fields.
    let format = if json_output { LogFormat::Json } else { format };
    let _ = match format {
        LogFormat::Json => builder
            .event_format(outposts::logging::JsonLines)
            .try_init(),
        LogFormat::Text => builder.with_ansi(false).try_init(),
    };
}
