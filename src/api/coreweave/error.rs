//! gRPC failures of the CoreWeave Sandbox API as typed errors.
//!
//! The server follows AIP-193: a `google.rpc.Status` in the `grpc-status-details-bin` trailer
//! carries `ErrorInfo{reason, domain: "cwsandbox.com", metadata}`, `RetryInfo{retry_delay}` and
//! `BadRequest{field_violations}`. We decode those by hand (three small messages) rather than
//! pull in a googleapis crate; the emulator uses the same types to produce them.

use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

use prost::Message;

use crate::api::http::COREWEAVE;
use crate::secrets::redact;

/// Domain of the backend's `ErrorInfo`s; reasons from other domains are ignored.
pub const ERROR_DOMAIN: &str = "cwsandbox.com";
pub const REASON_SANDBOX_NOT_FOUND: &str = "CWSANDBOX_SANDBOX_NOT_FOUND";
pub const REASON_FILE_NOT_FOUND: &str = "CWSANDBOX_FILE_NOT_FOUND";
pub const REASON_COMMAND_TIMEOUT: &str = "CWSANDBOX_COMMAND_TIMEOUT";
pub const REASON_INVALID_REQUEST: &str = "CWSANDBOX_INVALID_REQUEST";
pub const REASON_FILE_TOO_LARGE: &str = "CWSANDBOX_FILE_TOO_LARGE";
pub const REASON_REQUEST_ID_CONFLICT: &str = "CWSANDBOX_REQUEST_ID_CONFLICT";

/// Type URLs of the detail messages.
pub const ERROR_INFO_TYPE: &str = "type.googleapis.com/google.rpc.ErrorInfo";
pub const RETRY_INFO_TYPE: &str = "type.googleapis.com/google.rpc.RetryInfo";
pub const BAD_REQUEST_TYPE: &str = "type.googleapis.com/google.rpc.BadRequest";

/// `google.rpc.Status`.
#[derive(Clone, PartialEq, Message)]
pub struct RpcStatus {
    #[prost(int32, tag = "1")]
    pub code: i32,
    #[prost(string, tag = "2")]
    pub message: String,
    #[prost(message, repeated, tag = "3")]
    pub details: Vec<prost_types::Any>,
}

/// `google.rpc.ErrorInfo`.
#[derive(Clone, PartialEq, Message)]
pub struct ErrorInfo {
    #[prost(string, tag = "1")]
    pub reason: String,
    #[prost(string, tag = "2")]
    pub domain: String,
    #[prost(btree_map = "string, string", tag = "3")]
    pub metadata: BTreeMap<String, String>,
}

/// `google.rpc.RetryInfo`.
#[derive(Clone, PartialEq, Message)]
pub struct RetryInfo {
    #[prost(message, optional, tag = "1")]
    pub retry_delay: Option<prost_types::Duration>,
}

/// `google.rpc.BadRequest`.
#[derive(Clone, PartialEq, Message)]
pub struct BadRequest {
    #[prost(message, repeated, tag = "1")]
    pub field_violations: Vec<FieldViolation>,
}

/// `google.rpc.BadRequest.FieldViolation`.
#[derive(Clone, PartialEq, Message)]
pub struct FieldViolation {
    #[prost(string, tag = "1")]
    pub field: String,
    #[prost(string, tag = "2")]
    pub description: String,
}

/// Encode a `google.rpc.Status` with an `ErrorInfo` (and optionally a `RetryInfo`), as the
/// backend does; used by the emulator.
pub fn status_with_reason(
    code: tonic::Code,
    message: impl Into<String>,
    reason: &str,
    metadata: BTreeMap<String, String>,
    retry_delay: Option<Duration>,
) -> tonic::Status {
    let message = message.into();
    let mut details = vec![prost_types::Any {
        type_url: ERROR_INFO_TYPE.into(),
        value: ErrorInfo {
            reason: reason.into(),
            domain: ERROR_DOMAIN.into(),
            metadata,
        }
        .encode_to_vec(),
    }];
    if let Some(d) = retry_delay {
        details.push(prost_types::Any {
            type_url: RETRY_INFO_TYPE.into(),
            value: RetryInfo {
                retry_delay: Some(prost_types::Duration {
                    seconds: d.as_secs() as i64,
                    nanos: d.subsec_nanos() as i32,
                }),
            }
            .encode_to_vec(),
        });
    }
    let status = RpcStatus {
        code: code as i32,
        message: message.clone(),
        details,
    };
    tonic::Status::with_details(code, message, status.encode_to_vec().into())
}

/// What kind of failure, for callers that act on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// Missing or rejected credentials (UNAUTHENTICATED).
    Unauthenticated,
    /// Valid credentials without the right (PERMISSION_DENIED).
    PermissionDenied,
    NotFound,
    AlreadyExists,
    /// Quota, capacity or rate limit (RESOURCE_EXHAUSTED).
    ResourceExhausted,
    /// The request itself is wrong (INVALID_ARGUMENT, OUT_OF_RANGE).
    Invalid,
    /// The request is fine but the sandbox or org is not in a state to serve it.
    FailedPrecondition,
    /// The service or the connection is down (UNAVAILABLE); safe to retry idempotent calls.
    Unavailable,
    /// The call's deadline passed (DEADLINE_EXCEEDED).
    DeadlineExceeded,
    Cancelled,
    /// Not served here (UNIMPLEMENTED), e.g. a feature not enabled for the org.
    Unimplemented,
    Other,
}

/// A failed call, with the server's reason when it sent one.
#[derive(Debug, Clone, thiserror::Error)]
pub struct CoreweaveError {
    pub kind: ErrorKind,
    pub code: tonic::Code,
    /// The RPC, e.g. `GetSandbox`.
    pub method: &'static str,
    /// The server's message (redacted).
    pub message: String,
    /// `ErrorInfo.reason` from the `cwsandbox.com` domain, e.g. `CWSANDBOX_SANDBOX_NOT_FOUND`.
    pub reason: Option<String>,
    pub metadata: BTreeMap<String, String>,
    /// `RetryInfo.retry_delay`.
    pub retry_delay: Option<Duration>,
    /// `BadRequest` field violations: (field, description).
    pub violations: Vec<(String, String)>,
    /// The deadline we gave the call, for timeout messages.
    pub deadline: Option<Duration>,
}

impl CoreweaveError {
    /// Classify a tonic status and decode its details.
    pub fn from_status(method: &'static str, status: &tonic::Status) -> Self {
        let code = status.code();
        let mut err = CoreweaveError {
            kind: kind_of(code),
            code,
            method,
            message: redact(status.message()).into_owned(),
            reason: None,
            metadata: BTreeMap::new(),
            retry_delay: None,
            violations: Vec::new(),
            deadline: None,
        };
        if let Ok(rpc) = RpcStatus::decode(status.details()) {
            for any in rpc.details {
                err.add_detail(&any);
            }
        }
        // tonic reports a non-gRPC answer (a proxy's or load balancer's error page) as an
        // INTERNAL/UNKNOWN protocol error naming the HTTP status; classify it like gRPC's
        // HTTP-to-status mapping would.
        if matches!(code, tonic::Code::Internal | tonic::Code::Unknown)
            && let Some(http) = http_status_in(status.message())
        {
            err.kind = match http {
                401 => ErrorKind::Unauthenticated,
                403 => ErrorKind::PermissionDenied,
                404 => ErrorKind::Unimplemented,
                429 | 502 | 503 | 504 => ErrorKind::Unavailable,
                _ => err.kind,
            };
            err.message = format!(
                "the server answered HTTP {http} instead of gRPC (a proxy, or not the Sandbox \
                 API?)"
            );
        }
        // tonic's own client-side deadline surfaces as CANCELLED "Timeout expired".
        if code == tonic::Code::Cancelled && status.message().contains("Timeout expired") {
            err.kind = ErrorKind::DeadlineExceeded;
        }
        // Reasons refine the code where the SDK does the same.
        match err.reason.as_deref() {
            Some(REASON_SANDBOX_NOT_FOUND | REASON_FILE_NOT_FOUND) => {
                err.kind = ErrorKind::NotFound
            }
            Some(REASON_COMMAND_TIMEOUT) => err.kind = ErrorKind::DeadlineExceeded,
            Some(
                "CWSANDBOX_RUNNER_UNAVAILABLE"
                | "CWSANDBOX_BACKEND_UNAVAILABLE"
                | "CWSANDBOX_RUNNER_SHARD_RETIRING",
            ) => err.kind = ErrorKind::Unavailable,
            _ => {}
        }
        err
    }

    /// Take what one `google.rpc` detail says: the reason and metadata (our domain only), the
    /// server's retry delay, the field violations.
    fn add_detail(&mut self, any: &prost_types::Any) {
        let err = self;
        match any.type_url.as_str() {
            ERROR_INFO_TYPE => {
                if let Ok(info) = ErrorInfo::decode(any.value.as_slice())
                    && (info.domain.is_empty() || info.domain == ERROR_DOMAIN)
                    && !info.reason.is_empty()
                {
                    err.reason = Some(info.reason);
                    err.metadata = info
                        .metadata
                        .into_iter()
                        .map(|(k, v)| (k, redact(&v).into_owned()))
                        .collect();
                }
            }
            RETRY_INFO_TYPE => {
                if let Ok(info) = RetryInfo::decode(any.value.as_slice())
                    && let Some(d) = info.retry_delay
                    && d.seconds >= 0
                    && d.nanos >= 0
                {
                    err.retry_delay = Some(Duration::new(d.seconds as u64, d.nanos as u32));
                }
            }
            BAD_REQUEST_TYPE => {
                if let Ok(br) = BadRequest::decode(any.value.as_slice()) {
                    err.violations = br
                        .field_violations
                        .into_iter()
                        .map(|v| (v.field, redact(&v.description).into_owned()))
                        .collect();
                }
            }
            _ => {}
        }
    }

    /// A local failure before any call (bad request built by us).
    pub fn local(method: &'static str, kind: ErrorKind, message: impl Into<String>) -> Self {
        CoreweaveError {
            kind,
            code: tonic::Code::Unknown,
            method,
            message: message.into(),
            reason: None,
            metadata: BTreeMap::new(),
            retry_delay: None,
            violations: Vec::new(),
            deadline: None,
        }
    }

    pub fn is_auth(&self) -> bool {
        matches!(
            self.kind,
            ErrorKind::Unauthenticated | ErrorKind::PermissionDenied
        )
    }

    pub fn is_not_found(&self) -> bool {
        self.kind == ErrorKind::NotFound
    }

    /// The sandbox itself is missing (as opposed to a file in it).
    pub fn is_sandbox_not_found(&self) -> bool {
        self.kind == ErrorKind::NotFound && self.reason.as_deref() != Some(REASON_FILE_NOT_FOUND)
    }

    /// Worth another attempt for an idempotent call.
    pub fn is_retryable(&self) -> bool {
        matches!(
            self.kind,
            ErrorKind::Unavailable | ErrorKind::DeadlineExceeded
        )
    }
}

/// The HTTP status in tonic's "… while receiving response with status: 503 …" messages.
fn http_status_in(message: &str) -> Option<u16> {
    let rest = &message[message.find("with status: ")? + "with status: ".len()..];
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    digits.parse().ok().filter(|s| (100..600).contains(s))
}

fn kind_of(code: tonic::Code) -> ErrorKind {
    use tonic::Code;
    match code {
        Code::Unauthenticated => ErrorKind::Unauthenticated,
        Code::PermissionDenied => ErrorKind::PermissionDenied,
        Code::NotFound => ErrorKind::NotFound,
        Code::AlreadyExists => ErrorKind::AlreadyExists,
        Code::ResourceExhausted => ErrorKind::ResourceExhausted,
        Code::InvalidArgument | Code::OutOfRange => ErrorKind::Invalid,
        Code::FailedPrecondition | Code::Aborted => ErrorKind::FailedPrecondition,
        Code::Unavailable => ErrorKind::Unavailable,
        Code::DeadlineExceeded => ErrorKind::DeadlineExceeded,
        Code::Cancelled => ErrorKind::Cancelled,
        Code::Unimplemented => ErrorKind::Unimplemented,
        _ => ErrorKind::Other,
    }
}

/// The canonical upper-case name of a gRPC code (`NOT_FOUND`).
pub fn code_name(code: tonic::Code) -> &'static str {
    use tonic::Code;
    match code {
        Code::Ok => "OK",
        Code::Cancelled => "CANCELLED",
        Code::Unknown => "UNKNOWN",
        Code::InvalidArgument => "INVALID_ARGUMENT",
        Code::DeadlineExceeded => "DEADLINE_EXCEEDED",
        Code::NotFound => "NOT_FOUND",
        Code::AlreadyExists => "ALREADY_EXISTS",
        Code::PermissionDenied => "PERMISSION_DENIED",
        Code::ResourceExhausted => "RESOURCE_EXHAUSTED",
        Code::FailedPrecondition => "FAILED_PRECONDITION",
        Code::Aborted => "ABORTED",
        Code::OutOfRange => "OUT_OF_RANGE",
        Code::Unimplemented => "UNIMPLEMENTED",
        Code::Internal => "INTERNAL",
        Code::Unavailable => "UNAVAILABLE",
        Code::DataLoss => "DATA_LOSS",
        Code::Unauthenticated => "UNAUTHENTICATED",
    }
}

impl fmt::Display for CoreweaveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            ErrorKind::Unauthenticated => "rejected the credentials",
            ErrorKind::PermissionDenied => "refused access",
            ErrorKind::NotFound => "found nothing",
            ErrorKind::AlreadyExists => "reports it already exists",
            ErrorKind::ResourceExhausted => "is out of quota or capacity",
            ErrorKind::Invalid => "rejected the request as invalid",
            ErrorKind::FailedPrecondition => "cannot do that now",
            ErrorKind::Unavailable => "is unavailable",
            ErrorKind::DeadlineExceeded => "did not answer in time",
            ErrorKind::Cancelled => "cancelled the call",
            ErrorKind::Unimplemented => "does not serve this call",
            ErrorKind::Other => "failed",
        };
        write!(f, "{} {what} ({}", COREWEAVE.name, self.method)?;
        if self.code != tonic::Code::Unknown || self.reason.is_some() {
            write!(f, ": {}", code_name(self.code))?;
        }
        if let Some(r) = &self.reason {
            write!(f, ", {r}")?;
        }
        f.write_str(")")?;
        if let (ErrorKind::DeadlineExceeded, Some(d)) = (self.kind, self.deadline) {
            write!(f, " after {}s", d.as_secs_f64().ceil() as u64)?;
        }
        let message = self.message.trim();
        if !message.is_empty() {
            write!(f, ": {message}")?;
        }
        if !self.violations.is_empty() {
            let list: Vec<String> = self
                .violations
                .iter()
                .map(|(field, d)| format!("{field}: {d}"))
                .collect();
            write!(f, " [{}]", list.join("; "))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn not_found_reason_is_decoded_from_details() {
        let status = status_with_reason(
            tonic::Code::NotFound,
            "sandbox sb-9 not found",
            REASON_SANDBOX_NOT_FOUND,
            BTreeMap::from([("sandbox_id".to_string(), "sb-9".to_string())]),
            None,
        );
        let e = CoreweaveError::from_status("GetSandbox", &status);
        assert_eq!(e.kind, ErrorKind::NotFound);
        assert!(e.is_sandbox_not_found());
        assert_eq!(e.reason.as_deref(), Some(REASON_SANDBOX_NOT_FOUND));
        assert_eq!(e.metadata["sandbox_id"], "sb-9");
        let text = e.to_string();
        assert!(
            text.contains("GetSandbox")
                && text.contains("NOT_FOUND")
                && text.contains("CWSANDBOX_SANDBOX_NOT_FOUND")
                && text.contains("sb-9"),
            "{text}"
        );
    }

    #[test]
    fn file_not_found_is_not_a_missing_sandbox() {
        let status = status_with_reason(
            tonic::Code::NotFound,
            "no such file",
            REASON_FILE_NOT_FOUND,
            BTreeMap::new(),
            None,
        );
        let e = CoreweaveError::from_status("ReadFile", &status);
        assert!(e.is_not_found() && !e.is_sandbox_not_found());
    }

    #[test]
    fn codes_map_to_kinds_and_hints() {
        let cases = [
            (tonic::Code::Unauthenticated, ErrorKind::Unauthenticated),
            (tonic::Code::PermissionDenied, ErrorKind::PermissionDenied),
            (tonic::Code::ResourceExhausted, ErrorKind::ResourceExhausted),
            (tonic::Code::InvalidArgument, ErrorKind::Invalid),
            (
                tonic::Code::FailedPrecondition,
                ErrorKind::FailedPrecondition,
            ),
            (tonic::Code::Unavailable, ErrorKind::Unavailable),
            (tonic::Code::DeadlineExceeded, ErrorKind::DeadlineExceeded),
            (tonic::Code::Unimplemented, ErrorKind::Unimplemented),
            (tonic::Code::Internal, ErrorKind::Other),
        ];
        for (code, kind) in cases {
            let e = CoreweaveError::from_status("ListSandboxes", &tonic::Status::new(code, "x"));
            assert_eq!(e.kind, kind, "{code:?}");
        }
        let auth = CoreweaveError::from_status(
            "GetSandbox",
            &tonic::Status::unauthenticated("missing credentials"),
        );
        assert!(auth.is_auth());
        // The advice for it is settings::advice's (tested there).
        assert!(
            CoreweaveError::from_status("GetSandbox", &tonic::Status::unavailable("down"))
                .is_retryable()
        );
        assert!(
            !CoreweaveError::from_status("GetSandbox", &tonic::Status::not_found("x"))
                .is_retryable()
        );
    }

    #[test]
    fn retry_info_and_violations_are_read() {
        let mut status = RpcStatus {
            code: tonic::Code::InvalidArgument as i32,
            message: "bad".into(),
            details: vec![],
        };
        status.details.push(prost_types::Any {
            type_url: BAD_REQUEST_TYPE.into(),
            value: BadRequest {
                field_violations: vec![FieldViolation {
                    field: "sandbox.spec.containers[0].image".into(),
                    description: "must not be empty".into(),
                }],
            }
            .encode_to_vec(),
        });
        status.details.push(prost_types::Any {
            type_url: RETRY_INFO_TYPE.into(),
            value: RetryInfo {
                retry_delay: Some(prost_types::Duration {
                    seconds: 2,
                    nanos: 500_000_000,
                }),
            }
            .encode_to_vec(),
        });
        let s = tonic::Status::with_details(
            tonic::Code::InvalidArgument,
            "bad",
            status.encode_to_vec().into(),
        );
        let e = CoreweaveError::from_status("CreateSandbox", &s);
        assert_eq!(e.kind, ErrorKind::Invalid);
        assert_eq!(e.retry_delay, Some(Duration::from_millis(2500)));
        assert!(
            e.to_string()
                .contains("containers[0].image: must not be empty")
        );
    }

    #[test]
    fn garbage_details_and_foreign_domains_are_ignored() {
        let s = tonic::Status::with_details(
            tonic::Code::NotFound,
            "gone",
            bytes::Bytes::from_static(b"\xff\xff\xffnot a proto"),
        );
        let e = CoreweaveError::from_status("GetSandbox", &s);
        assert_eq!(e.kind, ErrorKind::NotFound);
        assert!(e.reason.is_none());
        let foreign = RpcStatus {
            code: 5,
            message: "x".into(),
            details: vec![prost_types::Any {
                type_url: ERROR_INFO_TYPE.into(),
                value: ErrorInfo {
                    reason: REASON_FILE_NOT_FOUND.into(),
                    domain: "example.com".into(),
                    metadata: BTreeMap::new(),
                }
                .encode_to_vec(),
            }],
        };
        let s =
            tonic::Status::with_details(tonic::Code::NotFound, "x", foreign.encode_to_vec().into());
        assert!(CoreweaveError::from_status("ReadFile", &s).reason.is_none());
    }

    #[test]
    fn http_error_pages_are_classified_by_status() {
        let s = tonic::Status::internal(
            "protocol error: received message with invalid compression flag: 123 (valid flags \
             are 0 and 1) while receiving response with status: 503 Service Unavailable",
        );
        let e = CoreweaveError::from_status("ListSandboxes", &s);
        assert_eq!(e.kind, ErrorKind::Unavailable);
        assert!(e.is_retryable());
        assert!(e.to_string().contains("HTTP 503"), "{e}");
        let s = tonic::Status::unknown("… while receiving response with status: 401 Unauthorized");
        assert!(CoreweaveError::from_status("GetSandbox", &s).is_auth());
        let s = tonic::Status::cancelled("Timeout expired");
        assert_eq!(
            CoreweaveError::from_status("Exec", &s).kind,
            ErrorKind::DeadlineExceeded
        );
    }

    #[test]
    fn messages_are_redacted() {
        crate::secrets::register("cw-secret-key-123456");
        let e = CoreweaveError::from_status(
            "GetSandbox",
            &tonic::Status::unauthenticated("bad key cw-secret-key-123456"),
        );
        assert!(!e.to_string().contains("cw-secret-key-123456"));
    }
}
