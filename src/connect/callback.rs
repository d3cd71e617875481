//! The loopback listener that receives the browser's redirect (`GET /callback?code=…`).
//!
//! - Binds `127.0.0.1` only. tiny_http is blocking, so it runs on a thread of its own (never a
//!   tokio worker) and polls a stop flag every 250 ms: dropping the [`CallbackHandle`] stops it
//!   and frees the port, even on Ctrl-C or a timeout.
//! - Only `GET /callback` is answered; anything else (favicon, preconnects, other methods) gets
//!   404 and the wait goes on. A callback without exactly one usable `code` gets a 400 page and
//!   the wait goes on. `error`/`error_description` get a 400 page and end the wait with a
//!   sanitised message.
//! - A code is handed to the async side with a reply channel: the browser's page waits for
//!   the exchange and says how it went. Every page is small HTML with `Cache-Control: no-store`.

use std::net::TcpListener;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::api::connection_token::{MAX_MESSAGE, sanitize_message};
use crate::secrets::Secret;

/// Longest request target we read (a code plus parameters fits easily).
const MAX_URL: usize = 8 * 1024;
/// Longest code we accept.
const MAX_CODE: usize = 2048;
/// How long the browser's request waits for the exchange's outcome.
const REPLY_WAIT: Duration = Duration::from_secs(150);

/// What one request to the listener means.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Callback {
    /// Exactly one non-empty, printable `code`.
    Code(String),
    /// `error` (and maybe `error_description`) from the connect page, sanitised.
    Denied {
        error: String,
        description: Option<String>,
    },
    /// `GET /callback` without a usable code: 400, keep waiting.
    Invalid(String),
    /// Another path or method: 404, keep waiting.
    NotFound,
}

impl Callback {
    /// One line for the terminal, ≤ 300 characters.
    pub fn denial_message(error: &str, description: Option<&str>) -> String {
        let text = match description {
            Some(d) if !d.is_empty() => format!("{error}: {d}"),
            _ => error.to_string(),
        };
        sanitize_message(&text, MAX_MESSAGE)
    }
}

/// Classify a request by method and target (`/callback?code=…`). Pure.
pub fn classify(method: &str, target: &str) -> Callback {
    if target.len() > MAX_URL {
        return if target.starts_with("/callback") && method == "GET" {
            Callback::Invalid("the request is too long".into())
        } else {
            Callback::NotFound
        };
    }
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    if method != "GET" || path != "/callback" {
        return Callback::NotFound;
    }
    let mut codes = Vec::new();
    let mut error = None;
    let mut description = None;
    for (k, v) in url::form_urlencoded::parse(query.as_bytes()) {
        match k.as_ref() {
            "code" => codes.push(v.into_owned()),
            "error" if error.is_none() => error = Some(v.into_owned()),
            "error_description" if description.is_none() => description = Some(v.into_owned()),
            _ => {}
        }
    }
    if let Some(e) = error.filter(|e| !e.trim().is_empty()) {
        let error = sanitize_message(&e, 100);
        let description = description
            .map(|d| sanitize_message(&d, MAX_MESSAGE))
            .filter(|d| !d.is_empty());
        return Callback::Denied { error, description };
    }
    match codes.as_slice() {
        [] => Callback::Invalid("the callback has no code".into()),
        [code] if code.trim().is_empty() => Callback::Invalid("the code is empty".into()),
        [code] if code.len() > MAX_CODE || code.chars().any(|c| c.is_control() || c == ' ') => {
            Callback::Invalid("the code is malformed".into())
        }
        [code] => Callback::Code(code.clone()),
        _ => Callback::Invalid("the callback carries more than one code".into()),
    }
}

/// Escape text for HTML element content and attribute values.
pub fn escape_html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// A page the listener answers with.
#[derive(Debug, Clone)]
pub struct Page {
    pub status: u16,
    pub title: String,
    pub message: String,
}

impl Page {
    pub fn new(status: u16, title: &str, message: &str) -> Page {
        Page {
            status,
            title: title.to_string(),
            message: message.to_string(),
        }
    }

    pub fn html(&self) -> String {
        format!(
            "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{title} · outposts</title>\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<style>body{{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#222}}</style>\
</head><body><h1>{title}</h1><p>{message}</p><p>You can close this tab and return to the terminal.</p></body></html>\n",
            title = escape_html(&self.title),
            message = escape_html(&crate::secrets::redact(&self.message)),
        )
    }
}

fn respond(req: tiny_http::Request, page: &Page) {
    let mut resp = tiny_http::Response::from_string(page.html()).with_status_code(page.status);
    for (k, v) in [
        ("Content-Type", "text/html; charset=utf-8"),
        ("Cache-Control", "no-store"),
        ("Pragma", "no-cache"),
        ("Referrer-Policy", "no-referrer"),
        ("X-Content-Type-Options", "nosniff"),
        (
            "Content-Security-Policy",
            "default-src 'none'; style-src 'unsafe-inline'",
        ),
    ] {
        if let Ok(h) = tiny_http::Header::from_bytes(k.as_bytes(), v.as_bytes()) {
            resp = resp.with_header(h);
        }
    }
    if let Err(e) = req.respond(resp) {
        tracing::debug!("the browser went away before the page was sent: {e}");
    }
}

/// Why the listener could not start.
#[derive(Debug, thiserror::Error)]
pub enum BindError {
    #[error("port {port} on 127.0.0.1 is already in use")]
    InUse { port: u16 },
    #[error("cannot listen on 127.0.0.1:{port}: {detail}")]
    Other { port: u16, detail: String },
}

/// What the listener reports to the async side.
#[derive(Debug)]
pub enum Event {
    /// A code arrived; answer the browser through `reply` (dropping it sends a generic page).
    Code {
        code: Secret,
        reply: std::sync::mpsc::Sender<Page>,
    },
    /// The connect page sent an error (denied, or refused the request).
    Denied {
        error: String,
        description: Option<String>,
    },
    /// The listener stopped on an I/O error.
    Failed(String),
}

/// A bound, not yet serving listener.
pub struct CallbackServer {
    server: Arc<tiny_http::Server>,
    port: u16,
}

impl CallbackServer {
    /// Bind `127.0.0.1:port` (0 picks a free port).
    pub fn bind(port: u16) -> Result<CallbackServer, BindError> {
        let listener = TcpListener::bind(("127.0.0.1", port)).map_err(|e| {
            if e.kind() == std::io::ErrorKind::AddrInUse {
                BindError::InUse { port }
            } else {
                BindError::Other {
                    port,
                    detail: e.to_string(),
                }
            }
        })?;
        let port = listener.local_addr().map(|a| a.port()).unwrap_or(port);
        let server =
            tiny_http::Server::from_listener(listener, None).map_err(|e| BindError::Other {
                port,
                detail: e.to_string(),
            })?;
        Ok(CallbackServer {
            server: Arc::new(server),
            port,
        })
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// Serve on a thread of its own until a code or an error arrives, or the handle drops.
    pub fn start(self) -> CallbackHandle {
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        let stop = Arc::new(AtomicBool::new(false));
        let server = self.server.clone();
        let flag = stop.clone();
        // Dropped when the thread ends: `finish` waits for that.
        let (done_tx, done) = std::sync::mpsc::channel::<()>();
        let spawned = std::thread::Builder::new()
            .name("outposts-callback".into())
            .spawn(move || {
                serve(&server, &flag, &tx);
                drop(done_tx);
            });
        if let Err(e) = spawned {
            tracing::error!("cannot start the callback listener thread: {e}");
        }
        CallbackHandle {
            rx,
            stop,
            server: self.server,
            done: Some(done),
        }
    }
}

fn serve(
    server: &tiny_http::Server,
    stop: &AtomicBool,
    tx: &tokio::sync::mpsc::UnboundedSender<Event>,
) {
    while !stop.load(Ordering::Relaxed) {
        let req = match server.recv_timeout(Duration::from_millis(250)) {
            Ok(Some(r)) => r,
            Ok(None) => continue,
            Err(e) => {
                let _ = tx.send(Event::Failed(e.to_string()));
                return;
            }
        };
        let method = req.method().as_str().to_string();
        match classify(&method, req.url()) {
            Callback::NotFound => respond(req, &Page::new(404, "Not found", "Nothing here.")),
            Callback::Invalid(why) => {
                tracing::debug!("ignoring a callback: {why}");
                respond(
                    req,
                    &Page::new(
                        400,
                        "Not a valid callback",
                        &format!("{why}; outposts is still waiting for Devin's redirect."),
                    ),
                );
            }
            Callback::Denied { error, description } => {
                let text = Callback::denial_message(&error, description.as_deref());
                respond(
                    req,
                    // 400 like the reference: the redirect carries a failure, not a success.
                    &Page::new(
                        400,
                        "Outpost not connected",
                        &format!("Devin did not connect the outpost: {text}"),
                    ),
                );
                let _ = tx.send(Event::Denied { error, description });
                return;
            }
            Callback::Code(code) => {
                let (reply_tx, reply_rx) = std::sync::mpsc::channel();
                if tx
                    .send(Event::Code {
                        code: Secret::new(code),
                        reply: reply_tx,
                    })
                    .is_err()
                {
                    respond(
                        req,
                        &Page::new(503, "Not waiting any more", "outposts stopped waiting."),
                    );
                    return;
                }
                let page = wait_reply(&reply_rx, stop).unwrap_or_else(|| {
                    Page::new(
                        200,
                        "Code received",
                        "outposts received the code; see the terminal for the outcome.",
                    )
                });
                respond(req, &page);
                return;
            }
        }
    }
}

fn wait_reply(rx: &std::sync::mpsc::Receiver<Page>, stop: &AtomicBool) -> Option<Page> {
    let deadline = std::time::Instant::now() + REPLY_WAIT;
    while std::time::Instant::now() < deadline && !stop.load(Ordering::Relaxed) {
        match rx.recv_timeout(Duration::from_millis(250)) {
            Ok(page) => return Some(page),
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => continue,
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return None,
        }
    }
    None
}

/// A serving listener. Dropping it stops the thread and closes the port.
pub struct CallbackHandle {
    rx: tokio::sync::mpsc::UnboundedReceiver<Event>,
    stop: Arc<AtomicBool>,
    server: Arc<tiny_http::Server>,
    done: Option<std::sync::mpsc::Receiver<()>>,
}

impl CallbackHandle {
    /// The next event; `None` once the listener thread is gone.
    pub async fn next(&mut self) -> Option<Event> {
        self.rx.recv().await
    }

    /// Wait (at most `timeout`) until the listener has sent its last page, then stop it, so
    /// the browser is not cut off when the process exits right after.
    pub async fn finish(mut self, timeout: Duration) {
        if let Some(done) = self.done.take() {
            let _ = tokio::task::spawn_blocking(move || done.recv_timeout(timeout)).await;
        }
    }
}

impl Drop for CallbackHandle {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.server.unblock();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_errors_and_strays() {
        assert_eq!(
            classify("GET", "/callback?code=abc123"),
            Callback::Code("abc123".into())
        );
        assert_eq!(classify("GET", "/favicon.ico"), Callback::NotFound);
        assert_eq!(classify("POST", "/callback?code=abc"), Callback::NotFound);
        assert_eq!(classify("GET", "/callbackx?code=abc"), Callback::NotFound);
        assert!(matches!(classify("GET", "/callback"), Callback::Invalid(_)));
        assert!(matches!(
            classify("GET", "/callback?code="),
            Callback::Invalid(_)
        ));
        assert!(matches!(
            classify("GET", "/callback?code=a&code=b"),
            Callback::Invalid(w) if w.contains("more than one")
        ));
        assert!(matches!(
            classify("GET", "/callback?code=a%0Ab"),
            Callback::Invalid(_)
        ));
        let long = format!("/callback?code={}", "a".repeat(MAX_URL));
        assert!(matches!(classify("GET", &long), Callback::Invalid(_)));
    }

    #[test]
    fn errors_are_sanitised_and_win_over_codes() {
        let c = classify(
            "GET",
            "/callback?code=x&error=access_denied&error_description=The%20admin%0D%0Adenied%1B%5B2J%20it",
        );
        assert_eq!(
            c,
            Callback::Denied {
                error: "access_denied".into(),
                description: Some("The admin denied [2J it".into())
            }
        );
        let long = format!("/callback?error=e&error_description={}", "d".repeat(1000));
        let Callback::Denied { error, description } = classify("GET", &long) else {
            panic!("expected a denial")
        };
        let msg = Callback::denial_message(&error, description.as_deref());
        assert!(msg.chars().count() <= 300, "{}", msg.len());
        assert_eq!(
            Callback::denial_message("access_denied", None),
            "access_denied"
        );
    }

    #[test]
    fn pages_escape_html() {
        let html = Page::new(400, "<t>", "a <script>&\"'").html();
        assert!(html.contains("&lt;t&gt;"));
        assert!(html.contains("a &lt;script&gt;&amp;&quot;&#39;"));
        assert!(!html.contains("<script>"));
    }

    #[test]
    fn busy_ports_are_reported_and_drop_frees_the_port() {
        let first = CallbackServer::bind(0).unwrap();
        let port = first.port();
        assert!(matches!(
            CallbackServer::bind(port),
            Err(BindError::InUse { port: p }) if p == port
        ));
        let handle = first.start();
        drop(handle);
        let mut rebound = None;
        for _ in 0..40 {
            if let Ok(s) = CallbackServer::bind(port) {
                rebound = Some(s);
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        assert!(rebound.is_some(), "port {port} was not freed");
    }
}
