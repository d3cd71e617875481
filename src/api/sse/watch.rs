//! The reconnecting queue watch: opens the SSE stream, decodes events, tracks the cursor,
//! reconnects with backoff and reports every gap so the consumer relists. Events the server
//! replays across reconnects are passed on once (`dedup.rs`); a stream the server ended
//! normally resets the backoff (it ends every few minutes by design, and is no failure).

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::Rng;

use super::dedup::Seen;
use super::{Decoder, SseEvent};
use crate::api::devin_types::WatchEvent;
use crate::api::http::{ApiRequest, HttpClient, excerpt};

/// What the watch yields: queue events, and gaps after which the consumer must relist.
#[derive(Debug, Clone)]
// Events are the common item: boxing them would cost an allocation per event.
#[allow(clippy::large_enum_variant)]
pub enum WatchItem {
    /// A decoded event. Persist `event.cursor` only after applying it.
    Event(WatchEvent),
    /// The stream ended, broke or could not be opened; the watch reconnects by itself after
    /// `retry_in`, from the last cursor. Changes may have been missed: relist now.
    Gap(Gap),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GapReason {
    /// The server closed the stream (normal every few minutes).
    Ended,
    /// The connection broke, stalled past the read timeout, or sent an oversized line.
    Broken,
    /// The stream could not be opened (transport error, 5xx, 429, 404…).
    ConnectFailed,
    /// 401/403: retrying will not help until the token is fixed.
    Unauthorized,
    /// The server answered 200 with something that is not an event stream (a proxy page).
    NotAStream,
}

#[derive(Debug, Clone)]
pub struct Gap {
    pub reason: GapReason,
    /// Human explanation (already redacted).
    pub detail: String,
    /// When the watch will reconnect.
    pub retry_in: Duration,
}

/// Reconnect policy: exponential backoff that resets once a connection proved healthy.
#[derive(Debug, Clone)]
pub struct WatchOptions {
    pub initial_backoff: Duration,
    pub max_backoff: Duration,
    /// A connection open at least this long resets the backoff.
    pub healthy_after: Duration,
}

impl Default for WatchOptions {
    fn default() -> Self {
        WatchOptions {
            initial_backoff: Duration::from_secs(1),
            max_backoff: Duration::from_secs(60),
            healthy_after: Duration::from_secs(5),
        }
    }
}

/// Builds the request for a (re)connection from the cursor to resume at.
pub type RequestBuilder = Arc<dyn Fn(Option<&str>) -> ApiRequest + Send + Sync>;

struct Conn {
    resp: reqwest::Response,
    decoder: Decoder,
    opened: Instant,
}

/// A reconnecting watch. [`Watch::next`] never ends and never fails: problems become
/// [`WatchItem::Gap`]s. Cancel-safe: dropping a pending `next()` (e.g. in `select!`) loses
/// nothing that was already received.
pub struct Watch {
    http: HttpClient,
    build: RequestBuilder,
    cursor: Option<String>,
    opts: WatchOptions,
    conn: Option<Conn>,
    queue: VecDeque<WatchItem>,
    backoff: Duration,
    resume_at: Option<Instant>,
    connections: u64,
    /// The server's last `retry:` value.
    server_retry: Option<Duration>,
    /// Recent events passed on, so replays are not passed on twice.
    seen: Seen,
}

/// Longest `retry:` we honour.
const MAX_SERVER_RETRY: Duration = Duration::from_secs(300);

impl Watch {
    pub fn new(
        http: HttpClient,
        build: RequestBuilder,
        cursor: Option<String>,
        opts: WatchOptions,
    ) -> Self {
        Watch {
            http,
            build,
            cursor,
            backoff: opts.initial_backoff,
            opts,
            conn: None,
            queue: VecDeque::new(),
            resume_at: None,
            connections: 0,
            server_retry: None,
            seen: Seen::default(),
        }
    }

    /// The next event or gap.
    pub async fn next(&mut self) -> WatchItem {
        loop {
            if let Some(item) = self.queue.pop_front() {
                if let WatchItem::Event(ev) = &item
                    && let Some(c) = &ev.cursor
                {
                    self.cursor = Some(c.clone());
                }
                return item;
            }
            if self.conn.is_none() {
                self.open().await;
                continue;
            }
            self.read().await;
        }
    }

    async fn open(&mut self) {
        if let Some(t) = self.resume_at {
            tokio::time::sleep_until(t.into()).await;
            self.resume_at = None;
        }
        let req = (self.build)(self.cursor.as_deref()).header("Accept", "text/event-stream");
        match self.http.stream(req).await {
            Ok(resp) => {
                let ctype = resp
                    .headers()
                    .get(reqwest::header::CONTENT_TYPE)
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("")
                    .to_ascii_lowercase();
                if !ctype.is_empty() && !ctype.starts_with("text/event-stream") {
                    let url = resp.url().path().to_string();
                    // One chunk is enough for a hint (the body may never end).
                    let mut resp = resp;
                    let body = resp.chunk().await.ok().flatten().unwrap_or_default();
                    let wait = self.schedule(None);
                    self.queue.push_back(WatchItem::Gap(Gap {
                        reason: GapReason::NotAStream,
                        detail: format!(
                            "the watch at {url} answered with {ctype}, not an event stream ({})",
                            excerpt(&body)
                        ),
                        retry_in: wait,
                    }));
                    return;
                }
                self.connections += 1;
                tracing::debug!(connection = self.connections, "watch stream open");
                self.conn = Some(Conn {
                    resp,
                    decoder: Decoder::new(),
                    opened: Instant::now(),
                });
            }
            Err(e) => {
                let reason = if e.is_auth() {
                    GapReason::Unauthorized
                } else {
                    GapReason::ConnectFailed
                };
                let wait = self.schedule(None);
                self.queue.push_back(WatchItem::Gap(Gap {
                    reason,
                    detail: format!("cannot open the watch stream: {e}"),
                    retry_in: wait,
                }));
            }
        }
    }

    async fn read(&mut self) {
        let Some(conn) = self.conn.as_mut() else {
            return;
        };
        match conn.resp.chunk().await {
            Ok(Some(bytes)) => match conn.decoder.push(&bytes) {
                Ok(events) => {
                    for ev in events {
                        match parse_event(&ev) {
                            Some(WatchItem::Event(we)) if !self.seen.first(&we) => {
                                tracing::trace!("dropping a replayed watch event");
                            }
                            Some(item) => self.queue.push_back(item),
                            None => {}
                        }
                    }
                }
                Err(e) => self.close(GapReason::Broken, e.to_string()),
            },
            Ok(None) => {
                let cut = conn.decoder.finish();
                let detail = if cut {
                    "the server closed the watch stream in the middle of an event (discarded)"
                } else {
                    // A clean end is the server's normal rotation, not a failure: start the
                    // backoff over (it kept growing, delaying a suspend by 11 s).
                    self.backoff = self.opts.initial_backoff;
                    "the server closed the watch stream"
                };
                self.close(GapReason::Ended, detail.to_string());
            }
            Err(e) => {
                let detail = if e.is_timeout() {
                    "the watch stream stalled (no bytes within the read timeout)".to_string()
                } else {
                    format!(
                        "the watch stream broke: {}",
                        crate::secrets::redact(&e.to_string())
                    )
                };
                self.close(GapReason::Broken, detail);
            }
        }
    }

    fn close(&mut self, reason: GapReason, detail: String) {
        let conn = self.conn.take();
        let lived = conn.as_ref().map(|c| c.opened.elapsed());
        if let Some(r) = conn.as_ref().and_then(|c| c.decoder.retry()) {
            self.server_retry = Some(r.min(MAX_SERVER_RETRY));
        }
        let wait = self.schedule(lived);
        tracing::debug!(?reason, wait_ms = wait.as_millis() as u64, "{detail}");
        self.queue.push_back(WatchItem::Gap(Gap {
            reason,
            detail,
            retry_in: wait,
        }));
    }

    /// Pick the wait before the next connection and advance the backoff.
    fn schedule(&mut self, lived: Option<Duration>) -> Duration {
        if lived.is_some_and(|l| l >= self.opts.healthy_after) {
            self.backoff = self.opts.initial_backoff;
        }
        let base = self.backoff;
        self.backoff = (self.backoff * 2).min(self.opts.max_backoff);
        // A little jitter so many watchers do not reconnect in lockstep.
        let factor = rand::thread_rng().gen_range(0.8..=1.0);
        // Never sooner than the server's `retry:` asks.
        let wait = base
            .mul_f64(factor)
            .max(self.server_retry.unwrap_or_default());
        self.resume_at = Some(Instant::now() + wait);
        wait
    }
}

/// One SSE event → a watch item; unreadable events are logged and skipped.
fn parse_event(ev: &SseEvent) -> Option<WatchItem> {
    if ev.data.trim().is_empty() {
        return None;
    }
    let value: serde_json::Value = match serde_json::from_str(&ev.data) {
        Ok(v) => v,
        Err(e) => {
            tracing::warn!(
                "skipping a watch event that is not JSON ({e}): {}",
                excerpt(ev.data.as_bytes())
            );
            return None;
        }
    };
    match WatchEvent::from_value(&value) {
        Ok(mut we) => {
            if we.cursor.is_none() {
                we.cursor = ev.id.clone();
            }
            if we.kind == crate::api::devin_types::EventType::Unknown {
                tracing::debug!(kind = %we.kind_raw, "passing on a watch event of an unknown type");
            }
            Some(WatchItem::Event(we))
        }
        Err(e) => {
            tracing::warn!(
                "skipping a watch event we cannot read ({e}): {}",
                excerpt(ev.data.as_bytes())
            );
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_event_tolerates_garbage_and_unknown_types() {
        let bad = SseEvent {
            data: "{not json".into(),
            ..Default::default()
        };
        assert!(parse_event(&bad).is_none());
        let no_id = SseEvent {
            data: r#"{"type":"MODIFIED","object":{"status":{}}}"#.into(),
            ..Default::default()
        };
        assert!(parse_event(&no_id).is_none());
        let unknown = SseEvent {
            data: r#"{"type":"BOOKMARK","cursor":"c1"}"#.into(),
            ..Default::default()
        };
        match parse_event(&unknown) {
            Some(WatchItem::Event(e)) => {
                assert_eq!(e.kind_raw, "BOOKMARK");
                assert_eq!(e.cursor.as_deref(), Some("c1"));
            }
            other => panic!("unexpected {other:?}"),
        }
        let id_fallback = SseEvent {
            data: r#"{"type":"MODIFIED","object":{"metadata":{"session_id":"devin-1"}}}"#.into(),
            id: Some("c9".into()),
            ..Default::default()
        };
        match parse_event(&id_fallback) {
            Some(WatchItem::Event(e)) => assert_eq!(e.cursor.as_deref(), Some("c9")),
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn backoff_doubles_caps_and_resets_after_a_healthy_connection() {
        let http = HttpClient::new(crate::api::HttpOptions::default()).unwrap();
        let build: RequestBuilder =
            Arc::new(|_| ApiRequest::get(crate::api::http::DEVIN, "http://127.0.0.1:9/"));
        let mut w = Watch::new(
            http,
            build,
            None,
            WatchOptions {
                initial_backoff: Duration::from_secs(1),
                max_backoff: Duration::from_secs(4),
                healthy_after: Duration::from_secs(5),
            },
        );
        let waits: Vec<u64> = (0..5)
            .map(|_| w.schedule(None).as_millis() as u64)
            .collect();
        let ceilings = [1000, 2000, 4000, 4000, 4000];
        for (w, c) in waits.iter().zip(ceilings) {
            assert!(*w <= c && *w >= c * 8 / 10, "{waits:?}");
        }
        let after_healthy = w.schedule(Some(Duration::from_secs(6)));
        assert!(after_healthy <= Duration::from_secs(1), "{after_healthy:?}");
        // A short-lived connection does not reset.
        let short = w.schedule(Some(Duration::from_millis(100)));
        assert!(short > Duration::from_millis(1500), "{short:?}");
        // The server's `retry:` is a floor.
        w.server_retry = Some(Duration::from_secs(30));
        assert!(w.schedule(Some(Duration::from_secs(9))) >= Duration::from_secs(30));
    }
}
