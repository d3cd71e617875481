//! The connect flow's server-to-server half: `POST {DEVIN_API_URL}/outposts/connection-token`
//! (specs/devin-outposts-api.md §6).
//!
//! Form fields `grant_type=authorization_code`, `code`, `code_verifier`; no Authorization
//! header. Success is 200 with `outpost_id, account_id, outpost_name, service_user_id,
//! api_base_url, access_token, token_type`; errors are RFC 6749 §5.2 bodies
//! (`{"error":"invalid_grant", ...}` for an unknown, expired, replayed or PKCE-mismatched code).
//! The request is never resent after it reached the server: a code is single-use.

use std::time::Duration;

use serde_json::Value;

use crate::api::http::{self, ApiError, ApiRequest, HttpClient};
use crate::secrets::Secret;
use crate::units::normalize_base_url;

/// Longest server message we repeat to the user.
pub const MAX_MESSAGE: usize = 300;

/// What a successful exchange hands back.
#[derive(Debug, Clone)]
pub struct ConnectionGrant {
    pub outpost_id: String,
    pub outpost_name: Option<String>,
    pub account_id: Option<String>,
    pub service_user_id: Option<String>,
    /// Normalised: no trailing `/` or `/opbeta`.
    pub api_base_url: String,
    pub access_token: Secret,
    pub token_type: Option<String>,
    /// The server used the superseded `outpost_pool_id` field.
    pub legacy_pool_field: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum ExchangeError {
    /// The code is unknown, expired, already used, or does not match the verifier.
    #[error("the connection code expired or was already used ({description})")]
    InvalidGrant { description: String },
    /// Another RFC 6749 error (`invalid_request`, `unsupported_grant_type`, …).
    #[error("Devin refused the code exchange (HTTP {status}): {error}{}", description.as_ref().map(|d| format!(": {d}")).unwrap_or_default())]
    Refused {
        status: u16,
        error: String,
        description: Option<String>,
    },
    /// 200, but not the documented body.
    #[error("Devin's token response is not usable: {0}")]
    BadResponse(String),
    #[error(transparent)]
    Api(#[from] ApiError),
}

/// Strip control and formatting characters (newlines, escapes, bidi overrides), collapse
/// whitespace and cap the length: server- or browser-supplied text is shown to the user as is.
pub fn sanitize_message(raw: &str, max_chars: usize) -> String {
    let cleaned: String = raw
        .chars()
        .map(|c| {
            if c.is_control() || is_format_char(c) {
                ' '
            } else {
                c
            }
        })
        .collect();
    let collapsed = cleaned.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out: String = collapsed.chars().take(max_chars).collect();
    if collapsed.chars().count() > max_chars && max_chars > 0 {
        out.pop();
        out.push('…');
    }
    crate::secrets::redact(&out).into_owned()
}

/// Unicode "format" characters that can reorder or hide text in a terminal.
fn is_format_char(c: char) -> bool {
    matches!(c as u32, 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x2069 | 0xFEFF | 0x00AD)
}

/// Exchange `code` for the outpost's token at `{api_url}/outposts/connection-token`.
pub async fn exchange(
    http: &HttpClient,
    api_url: &str,
    code: &Secret,
    verifier: &Secret,
) -> Result<ConnectionGrant, ExchangeError> {
    let url = format!(
        "{}/outposts/connection-token",
        api_url.trim_end_matches('/')
    );
    let req = ApiRequest::post(http::DEVIN, url)
        .form(&[
            ("grant_type", "authorization_code"),
            ("code", code.expose()),
            ("code_verifier", verifier.expose()),
        ])
        .header("accept", "application/json")
        .pass_status(&[400, 401])
        .timeout(Duration::from_secs(60));
    let resp = http.send(req).await?;
    let status = resp.status.as_u16();
    if status == 400 || status == 401 {
        return Err(parse_error(status, &resp.body));
    }
    let v = resp.json_value()?;
    parse_grant(&v).map_err(ExchangeError::BadResponse)
}

/// Read an RFC 6749 error body (anything else becomes a generic refusal).
pub fn parse_error(status: u16, body: &[u8]) -> ExchangeError {
    let v: Option<Value> = serde_json::from_slice(body).ok();
    let field = |k: &str| {
        v.as_ref()
            .and_then(|v| v.get(k))
            .and_then(Value::as_str)
            .map(|s| sanitize_message(s, MAX_MESSAGE))
            .filter(|s| !s.is_empty())
    };
    let error = field("error");
    let description = field("error_description").or_else(|| field("detail"));
    match error.as_deref() {
        Some("invalid_grant") => ExchangeError::InvalidGrant {
            description: description.unwrap_or_else(|| "invalid_grant".into()),
        },
        Some(e) => ExchangeError::Refused {
            status,
            error: e.to_string(),
            description,
        },
        None => ExchangeError::Refused {
            status,
            error: "error".into(),
            description: description.or_else(|| Some(http::excerpt(body))),
        },
    }
}

fn text(v: &Value, key: &str) -> Option<String> {
    match v.get(key)? {
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// An identifier we will write to `.env` and put in URLs: printable, no spaces, bounded.
fn identifier(field: &str, s: String) -> Result<String, String> {
    if s.len() > 256 || s.chars().any(|c| c.is_control() || c.is_whitespace()) {
        return Err(format!(
            "`{field}` is not a plain identifier (spaces, control characters or over 256 bytes)"
        ));
    }
    Ok(s)
}

/// Validate a 200 body: `outpost_id` (or legacy `outpost_pool_id`), `access_token` and
/// `api_base_url` are required; `token_type`, when present, must be `bearer`.
pub fn parse_grant(v: &Value) -> Result<ConnectionGrant, String> {
    if !v.is_object() {
        return Err("expected a JSON object".into());
    }
    let (outpost_id, legacy_pool_field) = match text(v, "outpost_id") {
        Some(id) => (id, false),
        None => match text(v, "outpost_pool_id") {
            Some(id) => (id, true),
            None => return Err("it has no `outpost_id`".into()),
        },
    };
    let outpost_id = identifier("outpost_id", outpost_id)?;
    let access_token = match v.get("access_token") {
        Some(Value::String(s)) if !s.trim().is_empty() => s.trim().to_string(),
        _ => return Err("it has no `access_token`".into()),
    };
    if access_token.len() > 4096
        || access_token
            .chars()
            .any(|c| c.is_control() || c.is_whitespace())
    {
        return Err("`access_token` is not a plain token (spaces or control characters)".into());
    }
    // Registered for redaction before anything else can print it.
    let access_token = Secret::new(access_token);
    if let Some(t) = v.get("token_type").filter(|t| !t.is_null()) {
        match t.as_str() {
            Some(s) if s.trim().eq_ignore_ascii_case("bearer") => {}
            _ => {
                return Err(format!(
                    "`token_type` is {}, expected \"bearer\"",
                    sanitize_message(&t.to_string(), 40)
                ));
            }
        }
    }
    let raw_base = text(v, "api_base_url").ok_or("it has no `api_base_url`")?;
    let api_base_url = normalize_base_url(&raw_base, true)
        .map_err(|e| format!("`api_base_url` is unusable: {}", sanitize_message(&e, 200)))?;
    let optional = |k: &str| text(v, k).map(|s| sanitize_message(&s, 200));
    Ok(ConnectionGrant {
        outpost_id,
        outpost_name: optional("outpost_name").or_else(|| optional("pool_name")),
        account_id: optional("account_id"),
        service_user_id: optional("service_user_id"),
        api_base_url,
        access_token,
        token_type: optional("token_type"),
        legacy_pool_field,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn full() -> Value {
        json!({
            "outpost_id": "outpost_env-3a1abb1c2bb84512ad9aedb3ca0bf411",
            "account_id": "account-1",
            "outpost_name": "daytona-linux",
            "service_user_id": "service_user-1",
            "api_base_url": "https://api.devin.ai/opbeta/",
            "access_token": "cog_parsegranttoken0123456789",
            "token_type": "Bearer"
        })
    }

    #[test]
    fn the_documented_response_is_accepted_and_normalised() {
        let g = parse_grant(&full()).unwrap();
        assert_eq!(g.outpost_id, "outpost_env-3a1abb1c2bb84512ad9aedb3ca0bf411");
        assert_eq!(g.api_base_url, "https://api.devin.ai");
        assert_eq!(g.outpost_name.as_deref(), Some("daytona-linux"));
        assert_eq!(g.access_token.expose(), "cog_parsegranttoken0123456789");
        assert!(!g.legacy_pool_field);
        assert!(!format!("{g:?}").contains("cog_parsegranttoken"));
    }

    #[test]
    fn legacy_pool_id_and_missing_token_type_are_accepted() {
        let mut v = full();
        let o = v.as_object_mut().unwrap();
        let id = o.remove("outpost_id").unwrap();
        o.insert("outpost_pool_id".into(), id);
        o.remove("token_type");
        let g = parse_grant(&v).unwrap();
        assert!(g.legacy_pool_field);
        assert_eq!(g.token_type, None);
    }

    #[test]
    fn required_fields_and_token_type_are_checked() {
        for (key, bad, expect) in [
            ("outpost_id", Value::Null, "outpost_id"),
            ("access_token", json!(""), "access_token"),
            ("access_token", json!("has space"), "access_token"),
            ("api_base_url", Value::Null, "api_base_url"),
            ("api_base_url", json!("ftp://x"), "api_base_url"),
            ("token_type", json!("mac"), "token_type"),
            ("outpost_id", json!("id\nINJECTED=1"), "outpost_id"),
        ] {
            let mut v = full();
            v[key] = bad;
            let err = parse_grant(&v).unwrap_err();
            assert!(err.contains(expect), "{key}: {err}");
            assert!(!err.contains("cog_parsegranttoken"), "{err}");
        }
        assert!(parse_grant(&json!([1])).is_err());
    }

    #[test]
    fn rfc6749_errors_are_classified() {
        let e = parse_error(
            400,
            br#"{"error":"invalid_grant","error_description":"Invalid or expired connection code"}"#,
        );
        assert!(
            matches!(&e, ExchangeError::InvalidGrant { description } if description == "Invalid or expired connection code")
        );
        let e = parse_error(400, br#"{"error":"unsupported_grant_type"}"#);
        assert!(
            matches!(&e, ExchangeError::Refused { error, .. } if error == "unsupported_grant_type")
        );
        let e = parse_error(400, b"<html>nope</html>");
        assert!(matches!(e, ExchangeError::Refused { status: 400, .. }));
    }

    #[test]
    fn messages_are_sanitised() {
        assert_eq!(
            sanitize_message("line1\r\nline2\u{1b}[31m red\u{202e}txt", 300),
            "line1 line2 [31m red txt"
        );
        let long = "a".repeat(400);
        let s = sanitize_message(&long, 300);
        assert_eq!(s.chars().count(), 300);
        assert!(s.ends_with('…'));
    }
}
