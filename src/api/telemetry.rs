//! What the API layer tells an observer about each exchange it has (every HTTP attempt of
//! [`super::HttpClient`], every gRPC attempt of the CoreWeave client): which API, which
//! operation, how it answered and how long it took. `orchestrator run` installs its metrics as
//! the observer; without one, recording costs a read lock and nothing else.
//!
//! Labels stay bounded: an operation is named from the method and the URL path with every
//! segment that is not one of the APIs' fixed words replaced by `{id}` — ids, names and hashes
//! never become label values.

use std::sync::{Arc, RwLock};
use std::time::Duration;

/// How an exchange ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    Http(u16),
    Grpc(tonic::Code),
    /// No answer: the connection failed, timed out or broke off.
    Transport,
}

impl Answer {
    /// `2xx` … `5xx`, or `transport`; gRPC codes map to the HTTP class they stand for.
    pub fn class(self) -> &'static str {
        use tonic::Code;
        match self {
            Answer::Http(s) => match s / 100 {
                1 | 2 => "2xx",
                3 => "3xx",
                4 => "4xx",
                _ => "5xx",
            },
            Answer::Grpc(Code::Ok) => "2xx",
            Answer::Grpc(
                Code::InvalidArgument
                | Code::NotFound
                | Code::AlreadyExists
                | Code::PermissionDenied
                | Code::Unauthenticated
                | Code::FailedPrecondition
                | Code::OutOfRange
                | Code::ResourceExhausted
                | Code::Cancelled,
            ) => "4xx",
            Answer::Grpc(Code::DeadlineExceeded) => "transport",
            Answer::Grpc(_) => "5xx",
            Answer::Transport => "transport",
        }
    }

    /// The service refused our credentials (HTTP 401/403, gRPC UNAUTHENTICATED/PERMISSION_DENIED).
    pub fn rejected_credentials(self) -> bool {
        matches!(
            self,
            Answer::Http(401 | 403)
                | Answer::Grpc(tonic::Code::Unauthenticated | tonic::Code::PermissionDenied)
        )
    }
}

/// One exchange with a remote API.
#[derive(Debug, Clone)]
pub struct Exchange<'a> {
    /// `devin`, `daytona`, `coreweave`, `remote_download` or `emulator`.
    pub api: &'static str,
    pub operation: &'a str,
    pub answer: Answer,
    pub took: Duration,
}

pub trait Observer: Send + Sync {
    fn exchange(&self, e: &Exchange<'_>);
}

static OBSERVER: RwLock<Option<Arc<dyn Observer>>> = RwLock::new(None);

/// Install the process's observer (replacing any earlier one).
pub fn set_observer(observer: Arc<dyn Observer>) {
    *OBSERVER.write().unwrap_or_else(|e| e.into_inner()) = Some(observer);
}

/// An observer is installed (callers skip building an [`Exchange`] otherwise).
pub fn observing() -> bool {
    OBSERVER.read().unwrap_or_else(|e| e.into_inner()).is_some()
}

pub fn record(e: &Exchange<'_>) {
    if let Some(o) = OBSERVER.read().unwrap_or_else(|e| e.into_inner()).as_ref() {
        o.exchange(e);
    }
}

/// The fixed words of the Devin, Daytona and remote-download paths; anything else is an id.
const WORDS: &[&str] = &[
    "api",
    "opbeta",
    "outposts",
    "devins",
    "claim",
    "release",
    "connection-token",
    "sandbox",
    "sandboxes",
    "start",
    "stop",
    "archive",
    "labels",
    "snapshot",
    "snapshots",
    "activate",
    "build-logs",
    "toolbox",
    "toolbox-proxy-url",
    "process",
    "execute",
    "session",
    "command",
    "logs",
    "entrypoint",
    "files",
    "download",
    "bulk-upload",
    "git",
    "clone",
    "_emulator",
    // The emulator serves Daytona under this prefix.
    "daytona",
];

/// `GET /opbeta/outposts/devins/{id}/claim`: the method and the path, ids replaced.
pub fn http_operation(method: &str, url: &str) -> String {
    let path = url
        .split_once("://")
        .map(|(_, rest)| rest.find('/').map_or("", |i| &rest[i..]))
        .unwrap_or(url);
    let path = path.split(['?', '#']).next().unwrap_or_default();
    let mut op = String::from(method);
    op.push(' ');
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    if segments.is_empty() {
        op.push('/');
    }
    for s in segments {
        op.push('/');
        op.push_str(if WORDS.contains(&s) { s } else { "{id}" });
    }
    op
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operations_never_carry_ids() {
        assert_eq!(
            http_operation(
                "POST",
                "http://h:1/opbeta/outposts/devins/devin-abc%2F1/claim?x=1"
            ),
            "POST /opbeta/outposts/devins/{id}/claim"
        );
        assert_eq!(
            http_operation("GET", "https://app.daytona.io/api/sandbox/my-sandbox"),
            "GET /api/sandbox/{id}"
        );
        assert_eq!(
            http_operation("GET", "http://h/devin-remote_abc_linux_x86_64.sha256"),
            "GET /{id}"
        );
        assert_eq!(http_operation("GET", "http://h"), "GET /");
    }

    #[test]
    fn classes() {
        assert_eq!(Answer::Http(204).class(), "2xx");
        assert_eq!(Answer::Http(409).class(), "4xx");
        assert_eq!(Answer::Http(503).class(), "5xx");
        assert_eq!(Answer::Grpc(tonic::Code::Unavailable).class(), "5xx");
        assert_eq!(Answer::Grpc(tonic::Code::NotFound).class(), "4xx");
        assert!(Answer::Http(403).rejected_credentials());
        assert!(Answer::Grpc(tonic::Code::Unauthenticated).rejected_credentials());
        assert!(!Answer::Http(404).rejected_credentials());
    }
}
