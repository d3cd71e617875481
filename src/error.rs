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
    /// Exit 143: stopped gracefully after SIGTERM (nothing more to report).
    Terminated,
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
            ExitStatus::Terminated => Code::Terminated as u8,
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
    Terminated = 143,
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
            Code::Terminated => "terminated",
        }
    }
}

/// The user's next step ("run `outposts connect`"): the one shape every command, error and
/// report uses. Every error a command can end with answers it through [`HasHint`].
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

/// Context on an error that happened to a session the command knows (often one it created):
/// `main.rs` puts the id into the `--json` error document, so a script learns which session
/// was left behind even when the command fails.
#[derive(Debug, Clone)]
pub struct InSession(pub String);

impl fmt::Display for InSession {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "session {}", self.0)
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
    /// Ctrl-C ended a wait: exit 130.
    #[error("interrupted")]
    Interrupted,
    /// SIGTERM ended a wait (a command that handles it): exit 143.
    #[error("terminated")]
    Terminated,
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

/// The one hint shape: every error a command can end with answers `hint()` the same way — the
/// user's next step, or `None` — so `main.rs` only picks the exit code. Domain modules may not
/// name `crate::error` (tests/it/layering.rs), so their errors' impls live here and read what
/// each error carries (its own `hint()`, a `hint`/`fix` field, or the error it wraps).
pub trait HasHint {
    fn hint(&self) -> Option<Hint>;
}

/// Errors with nothing to add: the message is the whole story.
macro_rules! no_hint {
    ($($t:ty),* $(,)?) => {$(
        impl HasHint for $t {
            fn hint(&self) -> Option<Hint> {
                None
            }
        }
    )*};
}

/// API errors carry wire facts; the advice for each is `settings::advice`'s (it names the
/// settings to fix).
macro_rules! advised {
    ($($t:ty => $advice:path),* $(,)?) => {$(
        impl HasHint for $t {
            fn hint(&self) -> Option<Hint> {
                $advice(self).map(Hint::from)
            }
        }
    )*};
}

no_hint!(
    crate::api::sse::SseError,
    crate::connect::callback::BindError,
    crate::secrets::keyring::KeyringError,
    crate::secrets::dotenv::DotEnvError,
);
advised!(
    crate::api::ApiError => crate::settings::advice::api,
    crate::api::devin_v3::V3Error => crate::settings::advice::v3,
    crate::api::coreweave::CoreweaveError => crate::settings::advice::coreweave,
    crate::api::outpost_lookup::OutpostLookupError => crate::settings::advice::outpost_lookup,
);

impl HasHint for CliError {
    fn hint(&self) -> Option<Hint> {
        CliError::hint(self).cloned()
    }
}

impl HasHint for crate::config::ConfigError {
    fn hint(&self) -> Option<Hint> {
        Some(Hint::from(crate::config::ConfigError::hint(self)))
    }
}

impl HasHint for crate::orchestrator::state::StateError {
    fn hint(&self) -> Option<Hint> {
        Some(Hint::new(self.hint.clone()))
    }
}

impl HasHint for crate::worker::WorkerError {
    fn hint(&self) -> Option<Hint> {
        Some(Hint::new(self.hint.clone()))
    }
}

impl HasHint for crate::connect::store::SaveError {
    fn hint(&self) -> Option<Hint> {
        Some(Hint::new(self.hint.clone()))
    }
}

impl HasHint for crate::connect::store::StoreError {
    fn hint(&self) -> Option<Hint> {
        None
    }
}

impl HasHint for crate::provider::ProviderError {
    fn hint(&self) -> Option<Hint> {
        use crate::provider::ProviderError as P;
        match self {
            P::NotReady { fix, .. } => Some(Hint::new(fix.clone())),
            P::Api(e) => HasHint::hint(e),
            _ => None,
        }
    }
}

impl HasHint for crate::verify::sleep_cycle::CycleError {
    fn hint(&self) -> Option<Hint> {
        use crate::verify::sleep_cycle::CycleError as E;
        match self {
            E::Admin(e) => HasHint::hint(e),
            E::Provider(e) => HasHint::hint(e),
            E::NoSession(_) => None,
        }
    }
}

impl HasHint for crate::orchestrator::ProvisionError {
    fn hint(&self) -> Option<Hint> {
        use crate::orchestrator::ProvisionError as E;
        match self {
            // Their messages say the fix (rename or remove the sandbox; fix the policy).
            E::Foreign { .. } | E::Policy(_) => None,
            E::Failed(e) => e
                .downcast_ref::<crate::provider::ProviderError>()
                .and_then(HasHint::hint)
                .or_else(|| {
                    e.downcast_ref::<crate::orchestrator::remote::RemoteError>()
                        .and_then(HasHint::hint)
                }),
        }
    }
}

impl HasHint for crate::api::connection_token::ExchangeError {
    fn hint(&self) -> Option<Hint> {
        match self {
            crate::api::connection_token::ExchangeError::Api(e) => HasHint::hint(e),
            _ => None,
        }
    }
}

impl HasHint for crate::provider::daytona::snapshot::FollowError {
    fn hint(&self) -> Option<Hint> {
        match self {
            crate::provider::daytona::snapshot::FollowError::Api(e) => HasHint::hint(e),
            _ => None,
        }
    }
}

impl HasHint for crate::orchestrator::remote::RemoteError {
    fn hint(&self) -> Option<Hint> {
        use crate::orchestrator::remote::RemoteError as R;
        match self {
            R::Api(e) => HasHint::hint(e),
            R::Provider(e) => HasHint::hint(e),
            _ => None,
        }
    }
}

impl HasHint for crate::verify::unattended::FollowError {
    fn hint(&self) -> Option<Hint> {
        use crate::verify::unattended::FollowError as F;
        match self {
            F::V3(e) => HasHint::hint(e),
            F::Provider(e) => HasHint::hint(e),
        }
    }
}

impl HasHint for crate::verify::outpost::ChoiceError {
    fn hint(&self) -> Option<Hint> {
        use crate::verify::outpost::ChoiceError as C;
        match self {
            C::NoOutpost { .. } => Some(Hint::new(
                "choose one: pass --outpost NAME (or set OUTPOST_ID), or make an outpost the organisation's default with `outposts outpost default set NAME`",
            )),
            C::UnknownId { .. } => Some(Hint::new(
                "pass the outpost's name: --outpost NAME, or the name in OUTPOST_ID (a session's platform is an outpost's name); or set DEVIN_OUTPOSTS_TOKEN to look the id up",
            )),
            C::V3(e) => HasHint::hint(e),
            C::Lookup(e) => HasHint::hint(e),
        }
    }
}

impl HasHint for crate::verify::ResolveError {
    fn hint(&self) -> Option<Hint> {
        match self {
            crate::verify::ResolveError::Provider(e) => HasHint::hint(e),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::provider::ProviderError;

    fn not_ready() -> ProviderError {
        ProviderError::NotReady {
            problem: "bubblewrap is missing".into(),
            fix: "install bubblewrap".into(),
        }
    }

    #[test]
    fn every_error_answers_hint_the_same_way() {
        let fix = Some(Hint::new("install bubblewrap"));
        assert_eq!(HasHint::hint(&not_ready()), fix);
        // Wrappers answer with the hint of what they wrap.
        let remote = crate::orchestrator::remote::RemoteError::Provider(not_ready());
        assert_eq!(HasHint::hint(&remote), fix);
        let resolve = crate::verify::ResolveError::Provider(not_ready());
        assert_eq!(HasHint::hint(&resolve), fix);
        let follow = crate::verify::unattended::FollowError::Provider(not_ready());
        assert_eq!(HasHint::hint(&follow), fix);
        let provision = crate::orchestrator::ProvisionError::from(not_ready());
        assert_eq!(HasHint::hint(&provision), fix);
        // Nothing to add is `None`, not an empty hint.
        assert_eq!(HasHint::hint(&ProviderError::Other("x".into())), None);
        let config = crate::config::ConfigError::Missing {
            var: "DAYTONA_API_KEY",
            hint: "set DAYTONA_API_KEY".into(),
        };
        assert_eq!(
            HasHint::hint(&config),
            Some(Hint::new("set DAYTONA_API_KEY"))
        );
        let cli = CliError::usage("bad input", "pass --yes");
        assert_eq!(HasHint::hint(&cli), Some(Hint::new("pass --yes")));
        assert_eq!(HasHint::hint(&CliError::Interrupted), None);
    }
}
