//! Error kinds that decide the exit code, and the outcome a command reports.
//!
//! Commands return `anyhow::Result<ExitStatus>`. `main.rs` alone turns that into a process exit
//! code (table in DESIGN.md): it walks the error chain for the typed errors below and the typed
//! errors of the domain ([`crate::config::ConfigError`], [`crate::api::ApiError`],
//! [`crate::provider::ProviderError`], …).

/// How a command that ran to completion ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitStatus {
    /// Exit 0.
    Success,
    /// Exit 1: the command ran but its job failed (it already said why).
    Failure,
    /// Exit 3: a verification or health check failed (`session verify`, `doctor`).
    CheckFailed,
    /// Exit 130: stopped gracefully after SIGINT (nothing more to report).
    Interrupted,
    /// Exit with this code: the exit code of a command run on the user's behalf
    /// (`worker exec`).
    Passthrough(u8),
}

/// Errors a command raises to pick a specific exit code. Each carries the fix for the user.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// Bad input or configuration the user can correct: exit 2.
    #[error("{message}")]
    Usage {
        message: String,
        hint: Option<String>,
    },
    /// Credentials missing or rejected: exit 4.
    #[error("{message}")]
    Auth {
        message: String,
        hint: Option<String>,
    },
    /// A check failed after running: exit 3.
    #[error("{message}")]
    Check { message: String },
    /// The command failed and the user can do something about it: exit 1 with a hint.
    #[error("{message}")]
    Failed {
        message: String,
        hint: Option<String>,
    },
    /// Ctrl-C or SIGTERM ended a wait: exit 130.
    #[error("interrupted")]
    Interrupted,
}

impl CliError {
    pub fn usage(message: impl Into<String>, hint: impl Into<Option<String>>) -> Self {
        CliError::Usage {
            message: message.into(),
            hint: hint.into(),
        }
    }
    pub fn auth(message: impl Into<String>, hint: impl Into<Option<String>>) -> Self {
        CliError::Auth {
            message: message.into(),
            hint: hint.into(),
        }
    }
    pub fn failed(message: impl Into<String>, hint: impl Into<Option<String>>) -> Self {
        CliError::Failed {
            message: message.into(),
            hint: hint.into(),
        }
    }
}

/// A user-facing hint attached to an error ("run `outposts connect`").
pub trait Hinted {
    fn hint(&self) -> Option<String>;
}

impl Hinted for CliError {
    fn hint(&self) -> Option<String> {
        match self {
            CliError::Usage { hint, .. }
            | CliError::Auth { hint, .. }
            | CliError::Failed { hint, .. } => hint.clone(),
            _ => None,
        }
    }
}
