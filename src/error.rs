//! Error kinds that decide the exit code, and the outcome a command reports.
//!
//! Commands return `anyhow::Result<ExitStatus>`. `main.rs` alone turns that into a process exit
//! code (table in DESIGN.md): it walks the error chain for the typed errors below and the typed
//! errors of the domain ([`crate::config::ConfigError`], [`crate::api::ApiError`],
//! [`crate::provider::ProviderError`], …). The numbers themselves are [`Code`]'s, so a
//! document that reports its exit code ([`ExitStatus::code`]) cannot disagree with the process.

use std::fmt;

use serde::Serialize;

/// How a command that ran to completion ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitStatus {
    /// Exit 0.
    Success,
    /// Exit 1: the command ran but its job failed (it already said why).
    Failure,
    /// Exit 3: a verification or health check failed (`session verify`, `doctor`).
    CheckFailed,
    /// Exit 5: the session is served, but not on the provider given (`session verify`).
    WrongProvider,
    /// Exit 130: stopped gracefully after SIGINT (nothing more to report).
    Interrupted,
    /// Exit with this code: the exit code of a command run on the user's behalf
    /// (`worker exec`).
    Passthrough(u8),
}

impl ExitStatus {
    /// The process exit code this status ends with (the one `main.rs` uses).
    pub fn code(self) -> u8 {
        match self {
            ExitStatus::Success => Code::Ok as u8,
            ExitStatus::Failure => Code::Failure as u8,
            ExitStatus::CheckFailed => Code::CheckFailed as u8,
            ExitStatus::WrongProvider => Code::WrongProvider as u8,
            ExitStatus::Interrupted => Code::Interrupted as u8,
            ExitStatus::Passthrough(n) => n,
        }
    }
}

/// The exit codes of DESIGN.md. `main.rs` decides which one an error gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Code {
    Ok = 0,
    Failure = 1,
    Usage = 2,
    CheckFailed = 3,
    Auth = 4,
    /// `session verify`: the session is served, but not by the provider given (wrong
    /// `--provider`); the message names who holds it and the flag to try.
    WrongProvider = 5,
    Interrupted = 130,
}

impl Code {
    /// The name in `{"error": {"code": …}}`.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::Ok => "ok",
            Code::Failure => "failure",
            Code::Usage => "usage",
            Code::CheckFailed => "check_failed",
            Code::Auth => "auth",
            Code::WrongProvider => "wrong_provider",
            Code::Interrupted => "interrupted",
        }
    }
}

/// The user's next step ("run `outposts connect`"): the one shape every command, error and
/// report uses. Domain errors outside `commands/` keep their own `hint()`; they are converted
/// into a `Hint` where they reach the user (`main.rs`, [`CliError`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(transparent)]
pub struct Hint(String);

impl Hint {
    pub fn new(text: impl Into<String>) -> Self {
        Hint(text.into())
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Hint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<String> for Hint {
    fn from(s: String) -> Self {
        Hint(s)
    }
}

impl From<&str> for Hint {
    fn from(s: &str) -> Self {
        Hint(s.to_string())
    }
}

/// What the hint argument of [`CliError`]'s constructors accepts: a [`Hint`], text, or none
/// (`Option<String>`, so a bare `None` needs no annotation).
pub trait IntoHint {
    fn into_hint(self) -> Option<Hint>;
}

impl IntoHint for Hint {
    fn into_hint(self) -> Option<Hint> {
        Some(self)
    }
}
impl IntoHint for &str {
    fn into_hint(self) -> Option<Hint> {
        Some(Hint::from(self))
    }
}
impl IntoHint for String {
    fn into_hint(self) -> Option<Hint> {
        Some(Hint(self))
    }
}
impl IntoHint for Option<String> {
    fn into_hint(self) -> Option<Hint> {
        self.map(Hint)
    }
}

/// Errors a command raises to pick a specific exit code. Each carries the fix for the user.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// Bad input or configuration the user can correct: exit 2.
    #[error("{message}")]
    Usage { message: String, hint: Option<Hint> },
    /// Credentials missing or rejected: exit 4.
    #[error("{message}")]
    Auth { message: String, hint: Option<Hint> },
    /// A check failed after running: exit 3.
    #[error("{message}")]
    Check { message: String },
    /// The command failed and the user can do something about it: exit 1 with a hint.
    #[error("{message}")]
    Failed { message: String, hint: Option<Hint> },
    /// Ctrl-C or SIGTERM ended a wait: exit 130.
    #[error("interrupted")]
    Interrupted,
}

impl CliError {
    pub fn usage(message: impl Into<String>, hint: impl IntoHint) -> Self {
        CliError::Usage {
            message: message.into(),
            hint: hint.into_hint(),
        }
    }
    pub fn auth(message: impl Into<String>, hint: impl IntoHint) -> Self {
        CliError::Auth {
            message: message.into(),
            hint: hint.into_hint(),
        }
    }
    pub fn failed(message: impl Into<String>, hint: impl IntoHint) -> Self {
        CliError::Failed {
            message: message.into(),
            hint: hint.into_hint(),
        }
    }

    /// The user's next step, when there is one.
    pub fn hint(&self) -> Option<&Hint> {
        match self {
            CliError::Usage { hint, .. }
            | CliError::Auth { hint, .. }
            | CliError::Failed { hint, .. } => hint.as_ref(),
            _ => None,
        }
    }
}
