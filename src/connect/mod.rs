//! The partner connection flow (specs/devin-outposts-api.md §6), as used by `outposts connect`:
//!
//! 1. PKCE S256 pair ([`pkce`]); the verifier never leaves this process except to the token
//!    endpoint.
//! 2. A loopback listener on `127.0.0.1:<port>` ([`callback`]) and the connect page URL
//!    `{DEVIN_APP_URL}/outposts/connect?callback_url=http://localhost:<port>/callback&…`
//!    ([`connect_url`]), opened in a browser ([`browser`]) after it was printed.
//! 3. Wait for `?code=` (or `?error=`), a timeout, or Ctrl-C ([`wait_for_code`]).
//! 4. Exchange the code ([`crate::api::connection_token`]) and store the result ([`store`]).

use std::time::Duration;

use crate::secrets::Secret;

pub mod browser;
pub mod callback;
pub mod pkce;
pub mod store;

/// The port Devin's callback allowlist expects (the Daytona reference uses it too).
pub const DEFAULT_PORT: u16 = 8765;

/// The redirect target registered with Devin for a local listener on `port`.
pub fn callback_url(port: u16) -> String {
    format!("http://localhost:{port}/callback")
}

/// `{app_url}/outposts/connect?callback_url=…&outpost_name=…&platform=…&code_challenge=…`.
pub fn connect_url(
    app_url: &str,
    callback_url: &str,
    outpost_name: &str,
    platform: &str,
    code_challenge: &str,
) -> String {
    let query = url::form_urlencoded::Serializer::new(String::new())
        .append_pair("callback_url", callback_url)
        .append_pair("outpost_name", outpost_name)
        .append_pair("platform", platform)
        .append_pair("code_challenge", code_challenge)
        .finish();
    format!("{}/outposts/connect?{query}", app_url.trim_end_matches('/'))
}

/// A name the connect page and `.env` can carry: 1–100 printable characters.
pub fn validate_name(name: &str) -> Result<(), String> {
    let n = name.trim();
    if n.is_empty() {
        return Err("the outpost name is empty".into());
    }
    if n.chars().count() > 100 {
        return Err("the outpost name is longer than 100 characters".into());
    }
    if n.chars().any(char::is_control) {
        return Err("the outpost name contains control characters".into());
    }
    Ok(())
}

/// How waiting for the browser ended.
#[derive(Debug)]
pub enum Wait {
    /// A code; answer the browser's page through `reply` once the exchange is done.
    Code {
        code: Secret,
        reply: std::sync::mpsc::Sender<callback::Page>,
    },
    /// The connect page redirected with `error` (already sanitised, ≤ 300 characters).
    Denied(String),
    TimedOut,
    Interrupted,
    /// The listener broke (I/O error on the socket).
    ListenerFailed(String),
}

/// Wait for the callback, at most `timeout`; Ctrl-C ends the wait.
pub async fn wait_for_code(handle: &mut callback::CallbackHandle, timeout: Duration) -> Wait {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    tokio::select! {
        ev = handle.next() => match ev {
            Some(callback::Event::Code { code, reply }) => Wait::Code { code, reply },
            Some(callback::Event::Denied { error, description }) => {
                Wait::Denied(callback::Callback::denial_message(&error, description.as_deref()))
            }
            Some(callback::Event::Failed(e)) => Wait::ListenerFailed(e),
            None => Wait::ListenerFailed("the listener stopped".into()),
        },
        _ = tokio::time::sleep(timeout) => Wait::TimedOut,
        _ = ctrl_c => Wait::Interrupted,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_connect_url_has_the_documented_parameters_in_order() {
        let url = connect_url(
            "https://app.devin.ai/",
            &callback_url(8765),
            "daytona linux",
            "linux",
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
        );
        assert_eq!(
            url,
            "https://app.devin.ai/outposts/connect?callback_url=http%3A%2F%2Flocalhost%3A8765%2Fcallback&outpost_name=daytona+linux&platform=linux&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        );
    }

    #[test]
    fn names_are_checked() {
        assert!(validate_name("daytona-linux").is_ok());
        assert!(validate_name(" ").is_err());
        assert!(validate_name("a\u{7}b").is_err());
        assert!(validate_name(&"n".repeat(101)).is_err());
    }

    #[test]
    fn a_code_from_a_real_request_reaches_the_waiter() {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let server = callback::CallbackServer::bind(0).unwrap();
            let port = server.port();
            let mut handle = server.start();
            let client = std::thread::spawn(move || {
                use std::io::{Read, Write};
                let get = |target: &str| {
                    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
                    write!(
                        s,
                        "GET {target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
                    )
                    .unwrap();
                    let mut out = String::new();
                    s.read_to_string(&mut out).unwrap();
                    out
                };
                let stray = get("/favicon.ico");
                let missing = get("/callback?state=1");
                let ok = get("/callback?code=the-code");
                (stray, missing, ok)
            });
            match wait_for_code(&mut handle, Duration::from_secs(20)).await {
                Wait::Code { code, reply } => {
                    assert_eq!(code.expose(), "the-code");
                    reply
                        .send(callback::Page::new(200, "Connected", "done"))
                        .unwrap();
                }
                other => panic!("{other:?}"),
            }
            let (stray, missing, ok) = tokio::task::spawn_blocking(move || client.join().unwrap())
                .await
                .unwrap();
            assert!(stray.starts_with("HTTP/1.1 404"), "{stray}");
            assert!(missing.starts_with("HTTP/1.1 400"), "{missing}");
            assert!(ok.starts_with("HTTP/1.1 200"), "{ok}");
            assert!(
                ok.to_ascii_lowercase().contains("cache-control: no-store"),
                "{ok}"
            );
            assert!(ok.contains("Connected"), "{ok}");
        });
    }
}
