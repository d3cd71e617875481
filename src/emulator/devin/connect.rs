//! The connect flow (specs/devin-outposts-api.md §6): Devin's connect page and the
//! server-to-server code exchange.
//!
//! | Route | Answer |
//! |---|---|
//! | `GET /outposts/connect?callback_url&outpost_name&platform&code_challenge` | HTML page: name and platform (editable), Connect and Deny buttons |
//! | `POST /outposts/connect` (form, from that page) | 303 to `callback_url?code=…`, or `?error=access_denied&error_description=…` |
//! | `POST /outposts/connection-token` (form `grant_type, code, code_verifier`) | 200 with the seven documented fields, or RFC 6749 400 `{"error", "error_description"}`; always `Cache-Control: no-store` |
//! | `POST /_emulator/tokens` `{"scope": "orchestrator"\|"machine", "label"}` | `{"token", "scope", "label"}` (admin: mint a token) |
//!
//! - The callback allowlist accepts only loopback listeners: `http://localhost:<port>/callback`
//!   or `http://127.0.0.1:<port>/callback`. Anything else is a 400 page, never a redirect.
//! - Connect checks that the name is free (a taken name re-renders the page with the error).
//!   Codes are single-use (any redemption attempt consumes them), expire after 10 minutes, are
//!   checked against the S256 challenge, and only their SHA-256 is kept (`--state` files never
//!   hold a live code). The outpost and its machine-scope service-user token are created at
//!   the exchange, as in the real flow.
//! - The request log never records a code or verifier ([`scrub_logged_body`]).

// Handlers bail out with a ready `Response`; its size does not matter here.
#![allow(clippy::result_large_err)]

use axum::Router;
use axum::body::Bytes;
use axum::extract::{RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::fleet::detail;
use super::state::{ApiToken, Micros, Queue, Scope, new_api_token, random_hex};
use crate::connect::callback::escape_html;
use crate::connect::pkce::{challenge_for, valid_verifier};
use crate::emulator::AppState;

/// Codes live 10 minutes.
pub const CODE_TTL_US: Micros = 600 * 1_000_000;
const PLATFORMS: [&str; 3] = ["linux", "windows", "macos"];
const INVALID_CODE: &str = "Invalid or expired connection code";

/// An approved connect, waiting for its code to be exchanged.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ConnectCode {
    pub challenge: String,
    pub callback_url: String,
    pub outpost_name: String,
    pub platform: String,
    pub issued_us: Micros,
    pub expires_us: Micros,
}

/// Why a code cannot be redeemed (all are `invalid_grant` on the wire).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Redeem {
    Unknown,
    Expired,
    PkceMismatch,
}

fn code_key(code: &str) -> String {
    hex::encode(Sha256::digest(code.as_bytes()))
}

impl Queue {
    /// Store an approved connect; the code (returned) is kept only as its SHA-256.
    pub fn issue_connect_code(
        &mut self,
        challenge: &str,
        callback_url: &str,
        outpost_name: &str,
        platform: &str,
        now: Micros,
    ) -> String {
        self.connect_codes.retain(|_, c| c.expires_us > now);
        let code = format!("occ_{}", random_hex(40));
        self.connect_codes.insert(
            code_key(&code),
            ConnectCode {
                challenge: challenge.to_string(),
                callback_url: callback_url.to_string(),
                outpost_name: outpost_name.to_string(),
                platform: platform.to_string(),
                issued_us: now,
                expires_us: now + CODE_TTL_US,
            },
        );
        code
    }

    /// Consume `code` (whatever the outcome: a code is tried once) and check its TTL and PKCE.
    pub fn redeem_connect_code(
        &mut self,
        code: &str,
        verifier: &str,
        now: Micros,
    ) -> Result<ConnectCode, Redeem> {
        let c = self
            .connect_codes
            .remove(&code_key(code))
            .ok_or(Redeem::Unknown)?;
        if now >= c.expires_us {
            return Err(Redeem::Expired);
        }
        if !valid_verifier(verifier) || challenge_for(verifier) != c.challenge {
            return Err(Redeem::PkceMismatch);
        }
        Ok(c)
    }

    fn outpost_name_taken(&self, name: &str) -> bool {
        self.outposts
            .iter()
            .any(|o| o.name.eq_ignore_ascii_case(name.trim()))
    }
}

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/outposts/connect", get(page).post(decide))
        .route("/outposts/connection-token", post(exchange))
        .route("/_emulator/tokens", post(mint_token))
}

/// The request log's copy of a token-exchange body, with the code and verifier masked.
pub fn scrub_logged_body(path: &str, body: String) -> String {
    if path != "/outposts/connection-token" {
        return body;
    }
    let mut out = url::form_urlencoded::Serializer::new(String::new());
    for (k, v) in url::form_urlencoded::parse(body.as_bytes()) {
        let masked = matches!(k.as_ref(), "code" | "code_verifier");
        out.append_pair(&k, if masked { "[REDACTED]" } else { &v });
    }
    out.finish()
}

fn pairs(raw: &str) -> Vec<(String, String)> {
    url::form_urlencoded::parse(raw.as_bytes())
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

fn field<'a>(pairs: &'a [(String, String)], key: &str) -> Option<&'a str> {
    pairs
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

/// Only loopback listeners on `/callback` are on this emulator's allowlist.
fn allowed_callback(raw: &str) -> Result<url::Url, String> {
    let u = url::Url::parse(raw).map_err(|_| "callback_url is not a URL".to_string())?;
    let host_ok = matches!(u.host_str(), Some("localhost") | Some("127.0.0.1"));
    if u.scheme() != "http" || !host_ok || u.path() != "/callback" || u.fragment().is_some() {
        return Err(format!(
            "callback_url {raw:?} is not on this integration's allowlist (http://localhost:<port>/callback)"
        ));
    }
    Ok(u)
}

fn valid_challenge(c: &str) -> bool {
    c.len() == 43
        && c.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

fn html(status: StatusCode, body: String) -> Response {
    let mut r = (status, body).into_response();
    let h = r.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(
        "content-security-policy",
        HeaderValue::from_static("default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http://localhost:* http://127.0.0.1:*"),
    );
    h.insert("x-frame-options", HeaderValue::from_static("DENY"));
    r
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#1b1b1b}\
label{display:block;margin:.8rem 0 .2rem}input,select{font:inherit;padding:.3rem;width:100%}\
.buttons{margin-top:1.5rem;display:flex;gap:1rem}button{font:inherit;padding:.5rem 1.4rem;cursor:pointer}\
#connect{background:#0b5;color:#fff;border:0}.error{color:#b00}.note{color:#555;font-size:.9rem}";

fn error_page(status: StatusCode, message: &str) -> Response {
    html(
        status,
        format!(
            "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Cannot connect · Devin (emulator)</title><style>{STYLE}</style></head>\
<body><h1>Cannot connect this outpost</h1><p class=\"error\">{}</p></body></html>\n",
            escape_html(message)
        ),
    )
}

/// The form an admin sees. `error` re-renders it after a refused Connect.
fn connect_page(
    callback: &str,
    challenge: &str,
    name: &str,
    platform: &str,
    error: Option<&str>,
) -> String {
    let options: String = PLATFORMS
        .iter()
        .map(|p| {
            let sel = if *p == platform { " selected" } else { "" };
            format!("<option value=\"{p}\"{sel}>{p}</option>")
        })
        .collect();
    let error = error
        .map(|e| format!("<p class=\"error\" id=\"error\">{}</p>", escape_html(e)))
        .unwrap_or_default();
    let host = url::Url::parse(callback)
        .ok()
        .and_then(|u| u.port().map(|p| format!("port {p} on this computer")))
        .unwrap_or_else(|| "this computer".into());
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Connect an outpost · Devin (emulator)</title>\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><style>{STYLE}</style></head><body>\
<h1>Connect an outpost</h1>\
<p>An application on {host} asks to connect the outpost <strong id=\"outpost-name\">{name_text}</strong> \
(<span id=\"outpost-platform\">{platform_text}</span>) to your Devin account. It will receive a token that lets its \
machines serve this outpost's sessions.</p>{error}\
<form method=\"post\" action=\"/outposts/connect\">\
<input type=\"hidden\" name=\"callback_url\" value=\"{callback}\">\
<input type=\"hidden\" name=\"code_challenge\" value=\"{challenge}\">\
<label for=\"outpost_name\">Outpost name</label><input id=\"outpost_name\" name=\"outpost_name\" value=\"{name_attr}\" maxlength=\"100\" required>\
<label for=\"platform\">Platform</label><select id=\"platform\" name=\"platform\">{options}</select>\
<div class=\"buttons\"><button type=\"submit\" id=\"connect\" name=\"decision\" value=\"connect\">Connect</button>\
<button type=\"submit\" id=\"deny\" name=\"decision\" value=\"deny\">Deny</button></div>\
</form><p class=\"note\">Served by <code>outposts emulator</code>.</p></body></html>\n",
        name_text = escape_html(name),
        platform_text = escape_html(platform),
        name_attr = escape_html(name),
        callback = escape_html(callback),
        challenge = escape_html(challenge),
    )
}

/// Validated page parameters, or the 400 page to show.
fn check_params(p: &[(String, String)]) -> Result<(url::Url, String, String, String), Response> {
    let callback = field(p, "callback_url").unwrap_or("");
    let url = allowed_callback(callback).map_err(|e| error_page(StatusCode::BAD_REQUEST, &e))?;
    let challenge = field(p, "code_challenge").unwrap_or("");
    if !valid_challenge(challenge) {
        return Err(error_page(
            StatusCode::BAD_REQUEST,
            "code_challenge must be a 43-character base64url S256 challenge",
        ));
    }
    let name = field(p, "outpost_name")
        .or_else(|| field(p, "pool_name"))
        .unwrap_or("outpost")
        .trim()
        .to_string();
    let platform = field(p, "platform")
        .unwrap_or("linux")
        .trim()
        .to_ascii_lowercase();
    if !PLATFORMS.contains(&platform.as_str()) {
        return Err(error_page(
            StatusCode::BAD_REQUEST,
            "platform must be linux, windows or macos",
        ));
    }
    Ok((url, challenge.to_string(), name, platform))
}

async fn page(RawQuery(raw): RawQuery) -> Response {
    let p = pairs(raw.as_deref().unwrap_or(""));
    match check_params(&p) {
        Ok((url, challenge, name, platform)) => html(
            StatusCode::OK,
            connect_page(url.as_str(), &challenge, &name, &platform, None),
        ),
        Err(r) => r,
    }
}

fn redirect(mut url: url::Url, params: &[(&str, &str)]) -> Response {
    {
        let mut q = url.query_pairs_mut();
        for (k, v) in params {
            q.append_pair(k, v);
        }
    }
    let mut r = StatusCode::SEE_OTHER.into_response();
    if let Ok(v) = HeaderValue::from_str(url.as_str()) {
        r.headers_mut().insert(header::LOCATION, v);
    }
    r.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r.headers_mut()
        .insert("referrer-policy", HeaderValue::from_static("no-referrer"));
    r
}

async fn decide(State(s): State<AppState>, body: Bytes) -> Response {
    let p = pairs(&String::from_utf8_lossy(&body));
    let (url, challenge, name, platform) = match check_params(&p) {
        Ok(v) => v,
        Err(r) => return r,
    };
    match field(&p, "decision") {
        Some("deny") => redirect(
            url,
            &[
                ("error", "access_denied"),
                (
                    "error_description",
                    "The administrator denied the connection request",
                ),
            ],
        ),
        Some("connect") => {
            let refuse = |status: StatusCode, msg: &str| {
                html(
                    status,
                    connect_page(url.as_str(), &challenge, &name, &platform, Some(msg)),
                )
            };
            if name.is_empty() || name.chars().count() > 100 || name.chars().any(char::is_control) {
                return refuse(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "The name must be 1-100 printable characters.",
                );
            }
            let code = s.devin.with(|q, now| {
                if q.outpost_name_taken(&name) {
                    return None;
                }
                Some(q.issue_connect_code(&challenge, url.as_str(), &name, &platform, now))
            });
            match code {
                Some(code) => redirect(url, &[("code", &code)]),
                None => refuse(
                    StatusCode::CONFLICT,
                    &format!("An outpost named \"{name}\" already exists. Choose another name."),
                ),
            }
        }
        _ => error_page(StatusCode::BAD_REQUEST, "choose Connect or Deny"),
    }
}

/// An RFC 6749 §5.2 error (or a success body), never cached.
fn oauth(status: StatusCode, body: Value) -> Response {
    let mut r = (status, axum::Json(body)).into_response();
    r.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r.headers_mut()
        .insert(header::PRAGMA, HeaderValue::from_static("no-cache"));
    r
}

fn oauth_error(error: &str, description: &str) -> Response {
    oauth(
        StatusCode::BAD_REQUEST,
        json!({"error": error, "error_description": description}),
    )
}

async fn exchange(State(s): State<AppState>, headers: HeaderMap, body: Bytes) -> Response {
    let form = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|c| {
            c.trim()
                .to_ascii_lowercase()
                .starts_with("application/x-www-form-urlencoded")
        });
    if !form {
        return oauth_error(
            "invalid_request",
            "The body must be application/x-www-form-urlencoded",
        );
    }
    let p = pairs(&String::from_utf8_lossy(&body));
    if field(&p, "grant_type") != Some("authorization_code") {
        return oauth_error(
            "unsupported_grant_type",
            "grant_type must be authorization_code",
        );
    }
    let (Some(code), Some(verifier)) = (field(&p, "code"), field(&p, "code_verifier")) else {
        return oauth_error("invalid_request", "code and code_verifier are required");
    };
    let base_url = s.base_url.clone();
    let result = s.devin.with(|q, now| {
        let c = q.redeem_connect_code(code, verifier, now).map_err(|why| {
            tracing::info!("connection code refused: {why:?}");
            oauth_error("invalid_grant", INVALID_CODE)
        })?;
        let outpost = q
            .create_outpost(
                &c.outpost_name,
                Some(&c.platform),
                Some("Connected with `outposts connect`"),
                now,
            )
            .map_err(|r| oauth_error("invalid_grant", &r.detail))?;
        let token = new_api_token();
        crate::secrets::register(&token);
        let service_user_id = format!("service_user-{}", random_hex(24));
        q.tokens.push(ApiToken {
            token: token.clone(),
            scope: Scope::Machine,
            label: format!(
                "service user {service_user_id} of outpost {}",
                c.outpost_name
            ),
        });
        q.mutations += 1;
        Ok::<_, Response>(json!({
            "outpost_id": outpost["metadata"]["outpost_id"],
            "account_id": q.account_id,
            "outpost_name": c.outpost_name,
            "service_user_id": service_user_id,
            "api_base_url": base_url,
            "access_token": token,
            "token_type": "bearer",
        }))
    });
    match result {
        Ok(body) => oauth(StatusCode::OK, body),
        Err(r) => r,
    }
}

#[derive(Deserialize)]
struct MintRequest {
    #[serde(default)]
    scope: Option<String>,
    #[serde(default)]
    label: Option<String>,
}

async fn mint_token(State(s): State<AppState>, body: Bytes) -> Response {
    let req: MintRequest = if body.iter().all(u8::is_ascii_whitespace) {
        MintRequest {
            scope: None,
            label: None,
        }
    } else {
        match serde_json::from_slice(&body) {
            Ok(r) => r,
            Err(e) => {
                return detail(
                    422,
                    format!("the body is not {{\"scope\", \"label\"}}: {e}"),
                );
            }
        }
    };
    let scope = match req.scope.as_deref().unwrap_or("orchestrator") {
        "orchestrator" => Scope::Orchestrator,
        "machine" => Scope::Machine,
        other => {
            return detail(
                422,
                format!("scope must be orchestrator or machine, not {other:?}"),
            );
        }
    };
    let label = req
        .label
        .unwrap_or_else(|| format!("{scope:?} token minted by the admin API").to_lowercase());
    let token = s.devin.issue_token(scope, &label);
    axum::Json(json!({"token": token, "scope": scope, "label": label})).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::connect::pkce::Pkce;

    const NOW: Micros = 1_700_000_000_000_000;

    #[test]
    fn codes_are_single_use_expire_and_check_pkce() {
        let mut q = Queue::fresh(NOW);
        let p = Pkce::generate();
        let cb = "http://localhost:8765/callback";
        let code = q.issue_connect_code(&p.challenge, cb, "daytona-linux", "linux", NOW);
        // Only the hash is stored.
        assert!(!serde_json::to_string(&q).unwrap().contains(&code));
        let ok = q
            .redeem_connect_code(&code, p.verifier.expose(), NOW + 1)
            .unwrap();
        assert_eq!(ok.outpost_name, "daytona-linux");
        assert_eq!(
            q.redeem_connect_code(&code, p.verifier.expose(), NOW + 2)
                .unwrap_err(),
            Redeem::Unknown
        );

        let code = q.issue_connect_code(&p.challenge, cb, "n", "linux", NOW);
        let other = Pkce::generate();
        assert_eq!(
            q.redeem_connect_code(&code, other.verifier.expose(), NOW)
                .unwrap_err(),
            Redeem::PkceMismatch
        );
        // A failed attempt burns the code.
        assert_eq!(
            q.redeem_connect_code(&code, p.verifier.expose(), NOW)
                .unwrap_err(),
            Redeem::Unknown
        );

        let code = q.issue_connect_code(&p.challenge, cb, "n", "linux", NOW);
        assert_eq!(
            q.redeem_connect_code(&code, p.verifier.expose(), NOW + CODE_TTL_US)
                .unwrap_err(),
            Redeem::Expired
        );
        // Expired codes are pruned when new ones are issued.
        q.issue_connect_code(&p.challenge, cb, "a", "linux", NOW);
        q.issue_connect_code(&p.challenge, cb, "b", "linux", NOW + CODE_TTL_US + 1);
        assert_eq!(q.connect_codes.len(), 1);
    }

    #[test]
    fn only_loopback_callbacks_are_allowed() {
        for ok in [
            "http://localhost:8765/callback",
            "http://127.0.0.1:1/callback",
        ] {
            assert!(allowed_callback(ok).is_ok(), "{ok}");
        }
        for bad in [
            "https://evil.example/callback",
            "http://localhost:8765/other",
            "http://localhost.evil:8765/callback",
            "http://localhost:8765/callback#x",
            "javascript:alert(1)",
            "",
        ] {
            assert!(allowed_callback(bad).is_err(), "{bad}");
        }
        assert!(valid_challenge(
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        ));
        assert!(!valid_challenge("short"));
    }

    #[test]
    fn the_page_escapes_what_it_shows() {
        let html = connect_page(
            "http://localhost:1/callback",
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
            "<script>x</script>",
            "windows",
            Some("taken"),
        );
        assert!(!html.contains("<script>x"));
        assert!(html.contains("&lt;script&gt;x&lt;/script&gt;"));
        assert!(html.contains("<option value=\"windows\" selected>"));
        assert!(html.contains("id=\"connect\"") && html.contains("id=\"deny\""));
    }

    #[test]
    fn logged_exchange_bodies_hide_codes() {
        let body =
            "grant_type=authorization_code&code=occ_secret&code_verifier=ver_secret".to_string();
        let logged = scrub_logged_body("/outposts/connection-token", body.clone());
        assert!(
            !logged.contains("occ_secret") && !logged.contains("ver_secret"),
            "{logged}"
        );
        assert!(logged.contains("grant_type=authorization_code"));
        assert_eq!(scrub_logged_body("/opbeta/outposts", body.clone()), body);
    }
}
