//! Server-sent events: a pure incremental decoder ([`Decoder`]) and the reconnecting Devin
//! queue watch built on it ([`Watch`]).
//!
//! The decoder follows the WHATWG event-stream rules that matter to us: CR, LF and CRLF line
//! ends (a CR at the end of one chunk and an LF at the start of the next are one line end),
//! `data:` lines joined with `\n`, `:` comments dropped (but counted, they prove the stream is
//! alive), `event:`/`id:`/`retry:` tolerated, and an event dispatched only at a blank line — a
//! partial event at EOF is discarded, never dispatched. Lines and events are capped so a hostile
//! server cannot make us buffer without bound; hitting a cap is an error the caller answers by
//! reconnecting.

use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::Stream;
use rand::Rng;

use crate::api::devin_types::WatchEvent;
use crate::api::http::{ApiError, ApiRequest, HttpClient, excerpt};

/// Longest line we buffer.
pub const MAX_LINE: usize = 4 * 1024 * 1024;
/// Largest event (all `data:` lines together) we buffer.
pub const MAX_EVENT: usize = 16 * 1024 * 1024;

/// One dispatched event.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SseEvent {
    /// The `event:` field, when the server sent one.
    pub event: Option<String>,
    /// `data:` lines joined with `\n`.
    pub data: String,
    /// The last event id in force when this event was dispatched.
    pub id: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SseError {
    #[error("the event stream sent a line longer than {limit} bytes")]
    LineTooLong { limit: usize },
    #[error("the event stream sent an event larger than {limit} bytes")]
    EventTooLarge { limit: usize },
}

/// Incremental event-stream decoder. Feed it bytes as they arrive; it never blocks or allocates
/// beyond its caps. After an error it stays failed (the connection should be dropped).
#[derive(Debug)]
pub struct Decoder {
    line: Vec<u8>,
    after_cr: bool,
    first_line: bool,
    data: String,
    has_data: bool,
    event: Option<String>,
    last_id: Option<String>,
    retry: Option<Duration>,
    comments: u64,
    failed: Option<SseError>,
    max_line: usize,
    max_event: usize,
}

impl Default for Decoder {
    fn default() -> Self {
        Self::with_limits(MAX_LINE, MAX_EVENT)
    }
}

impl Decoder {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn with_limits(max_line: usize, max_event: usize) -> Self {
        Decoder {
            line: Vec::new(),
            after_cr: false,
            first_line: true,
            data: String::new(),
            has_data: false,
            event: None,
            last_id: None,
            retry: None,
            comments: 0,
            failed: None,
            max_line,
            max_event,
        }
    }

    /// Comment lines seen so far (`: keepalive`): the stream is alive even without events.
    pub fn comments(&self) -> u64 {
        self.comments
    }

    /// The server's last `retry:` value.
    pub fn retry(&self) -> Option<Duration> {
        self.retry
    }

    pub fn last_event_id(&self) -> Option<&str> {
        self.last_id.as_deref()
    }

    /// Decode a chunk; returns the events completed by it.
    pub fn push(&mut self, mut bytes: &[u8]) -> Result<Vec<SseEvent>, SseError> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        let mut out = Vec::new();
        while !bytes.is_empty() {
            if self.after_cr {
                self.after_cr = false;
                if bytes[0] == b'\n' {
                    bytes = &bytes[1..];
                    continue;
                }
            }
            match bytes.iter().position(|b| *b == b'\r' || *b == b'\n') {
                Some(i) => {
                    self.extend_line(&bytes[..i])?;
                    self.after_cr = bytes[i] == b'\r';
                    bytes = &bytes[i + 1..];
                    let line = std::mem::take(&mut self.line);
                    if let Some(ev) = self.process_line(&line)? {
                        out.push(ev);
                    }
                }
                None => {
                    self.extend_line(bytes)?;
                    bytes = &[];
                }
            }
        }
        Ok(out)
    }

    /// End of stream: whatever is buffered is incomplete and is discarded. Returns whether
    /// anything was thrown away (a cut-off event), so the caller can log it.
    pub fn finish(&mut self) -> bool {
        let discarded = !self.line.is_empty() || self.has_data;
        self.line.clear();
        self.data.clear();
        self.has_data = false;
        self.event = None;
        self.after_cr = false;
        discarded
    }

    fn extend_line(&mut self, part: &[u8]) -> Result<(), SseError> {
        if self.line.len() + part.len() > self.max_line {
            let e = SseError::LineTooLong {
                limit: self.max_line,
            };
            self.line.clear();
            self.failed = Some(e.clone());
            return Err(e);
        }
        self.line.extend_from_slice(part);
        Ok(())
    }

    fn process_line(&mut self, raw: &[u8]) -> Result<Option<SseEvent>, SseError> {
        let mut raw = raw;
        if self.first_line {
            self.first_line = false;
            raw = raw.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(raw);
        }
        if raw.is_empty() {
            return Ok(self.dispatch());
        }
        if raw[0] == b':' {
            self.comments += 1;
            return Ok(None);
        }
        let line = String::from_utf8_lossy(raw);
        let (field, value) = match line.find(':') {
            Some(i) => {
                let v = &line[i + 1..];
                (&line[..i], v.strip_prefix(' ').unwrap_or(v))
            }
            None => (line.as_ref(), ""),
        };
        match field {
            "data" => {
                if self.data.len() + value.len() + 1 > self.max_event {
                    let e = SseError::EventTooLarge {
                        limit: self.max_event,
                    };
                    self.data.clear();
                    self.has_data = false;
                    self.failed = Some(e.clone());
                    return Err(e);
                }
                if self.has_data {
                    self.data.push('\n');
                }
                self.data.push_str(value);
                self.has_data = true;
            }
            "event" => self.event = Some(value.to_string()),
            "id" if !value.contains('\0') => {
                self.last_id = (!value.is_empty()).then(|| value.to_string());
            }
            "retry" if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) => {
                if let Ok(ms) = value.parse::<u64>() {
                    self.retry = Some(Duration::from_millis(ms));
                }
            }
            _ => {}
        }
        Ok(None)
    }

    fn dispatch(&mut self) -> Option<SseEvent> {
        let event = self.event.take();
        if !self.has_data {
            return None;
        }
        self.has_data = false;
        Some(SseEvent {
            event,
            data: std::mem::take(&mut self.data),
            id: self.last_id.clone(),
        })
    }
}

/// What the watch yields: queue events, and gaps after which the consumer must relist.
#[derive(Debug, Clone)]
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
    /// The typed error, when there was one (401 → exit 4 for commands).
    pub error: Option<Arc<ApiError>>,
    /// When the watch will reconnect.
    pub retry_in: Duration,
    /// The cursor it will resume from.
    pub cursor: Option<String>,
    /// How long the stream that just ended was open (None when it never opened).
    pub connected_for: Option<Duration>,
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
}

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
        }
    }

    /// The cursor of the last event handed out (or the starting cursor).
    pub fn cursor(&self) -> Option<&str> {
        self.cursor.as_deref()
    }

    /// Connections opened so far.
    pub fn connections(&self) -> u64 {
        self.connections
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

    /// As a `Stream` (infinite).
    pub fn into_stream(self) -> Pin<Box<dyn Stream<Item = WatchItem> + Send>> {
        Box::pin(futures::stream::unfold(self, |mut w| async move {
            let item = w.next().await;
            Some((item, w))
        }))
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
                    let body = resp.bytes().await.unwrap_or_default();
                    let wait = self.schedule(None);
                    self.queue.push_back(WatchItem::Gap(Gap {
                        reason: GapReason::NotAStream,
                        detail: format!(
                            "the watch at {url} answered with {ctype}, not an event stream ({})",
                            excerpt(&body)
                        ),
                        error: None,
                        retry_in: wait,
                        cursor: self.cursor.clone(),
                        connected_for: None,
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
                    error: Some(Arc::new(e)),
                    retry_in: wait,
                    cursor: self.cursor.clone(),
                    connected_for: None,
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
                        if let Some(item) = parse_event(&ev) {
                            self.queue.push_back(item);
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
        let lived = self.conn.take().map(|c| c.opened.elapsed());
        let wait = self.schedule(lived);
        tracing::debug!(?reason, wait_ms = wait.as_millis() as u64, "{detail}");
        self.queue.push_back(WatchItem::Gap(Gap {
            reason,
            detail,
            error: None,
            retry_in: wait,
            cursor: self.cursor.clone(),
            connected_for: lived,
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
        let wait = base.mul_f64(factor);
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

    fn data(events: &[SseEvent]) -> Vec<&str> {
        events.iter().map(|e| e.data.as_str()).collect()
    }

    #[test]
    fn data_lines_and_blank_line_dispatch() {
        let mut d = Decoder::new();
        let evs = d
            .push(b"data: {\"a\":1}\n\ndata: one\ndata:two\ndata\n\n")
            .unwrap();
        assert_eq!(data(&evs), vec!["{\"a\":1}", "one\ntwo\n"]);
    }

    #[test]
    fn comments_are_dropped_but_counted() {
        let mut d = Decoder::new();
        let evs = d.push(b": keepalive\n\n: keepalive\n\n").unwrap();
        assert!(evs.is_empty());
        assert_eq!(d.comments(), 2);
        assert!(!d.finish());
    }

    #[test]
    fn id_event_retry_are_tolerated() {
        let mut d = Decoder::new();
        let evs = d
            .push(b"id: 7\nevent: change\nretry: 1500\ndata: x\n\nretry: soon\ndata: y\n\n")
            .unwrap();
        assert_eq!(evs.len(), 2);
        assert_eq!(evs[0].event.as_deref(), Some("change"));
        assert_eq!(evs[0].id.as_deref(), Some("7"));
        assert_eq!(evs[1].event, None);
        assert_eq!(evs[1].id.as_deref(), Some("7"));
        assert_eq!(d.retry(), Some(Duration::from_millis(1500)));
    }

    #[test]
    fn event_without_data_is_not_dispatched() {
        let mut d = Decoder::new();
        assert!(d.push(b"event: x\nid: 1\n\n").unwrap().is_empty());
        // The event type does not leak into the next event.
        let evs = d.push(b"data: z\n\n").unwrap();
        assert_eq!(evs[0].event, None);
    }

    #[test]
    fn cr_lf_and_crlf_line_ends() {
        for sep in ["\n", "\r", "\r\n"] {
            let text = format!("data: a{sep}data: b{sep}{sep}: c{sep}data: d{sep}{sep}");
            let mut d = Decoder::new();
            let evs = d.push(text.as_bytes()).unwrap();
            assert_eq!(data(&evs), vec!["a\nb", "d"], "separator {sep:?}");
        }
        // Mixed in one stream.
        let mut d = Decoder::new();
        let evs = d.push(b"data: a\r\n\rdata: b\n\r\ndata: c\r\r").unwrap();
        assert_eq!(data(&evs), vec!["a", "b", "c"]);
    }

    #[test]
    fn cr_at_chunk_end_then_lf_is_one_line_end() {
        let mut d = Decoder::new();
        assert!(d.push(b"data: a\r").unwrap().is_empty());
        // If the LF were a second line end, this would dispatch an event with data "a".
        assert!(d.push(b"\ndata: b\r").unwrap().is_empty());
        let evs = d.push(b"\n\r\n").unwrap();
        assert_eq!(data(&evs), vec!["a\nb"]);
    }

    #[test]
    fn byte_by_byte_equals_whole() {
        let stream = b"\xEF\xBB\xBFdata: {\"type\":\"MODIFIED\",\"cursor\":\"djE6MQ==\"}\r\n\r\n: keepalive\n\ndata: \xC3\xBC\xE2\x82\xAC\n\ndata: tail";
        let mut whole = Decoder::new();
        let expected = whole.push(stream).unwrap();
        assert_eq!(expected.len(), 2);
        assert_eq!(expected[1].data, "ü€");
        let mut d = Decoder::new();
        let mut got = Vec::new();
        for b in stream.iter() {
            got.extend(d.push(std::slice::from_ref(b)).unwrap());
        }
        assert_eq!(got, expected);
        assert_eq!(d.comments(), 1);
        // The trailing partial event is discarded at EOF, never dispatched.
        assert!(d.finish());
    }

    #[test]
    fn partial_event_at_eof_is_discarded() {
        let mut d = Decoder::new();
        assert!(d.push(b"data: complete?\n").unwrap().is_empty());
        assert!(d.finish());
        // The decoder can be reused and starts clean.
        assert_eq!(data(&d.push(b"data: next\n\n").unwrap()), vec!["next"]);
    }

    #[test]
    fn overlong_lines_are_an_error_not_memory() {
        let mut d = Decoder::with_limits(16, 64);
        assert!(d.push(b"data: 0123456789").is_ok());
        let err = d.push(b"abcdef").unwrap_err();
        assert_eq!(err, SseError::LineTooLong { limit: 16 });
        // Stays failed.
        assert!(d.push(b"\n\n").is_err());
        let mut d = Decoder::with_limits(16, 20);
        let err = d.push(b"data: 0123456789\ndata: 0123456789\n").unwrap_err();
        assert_eq!(err, SseError::EventTooLarge { limit: 20 });
    }

    #[test]
    fn field_without_colon_and_unknown_fields() {
        let mut d = Decoder::new();
        let evs = d.push(b"data\nfoo: bar\nnonsense\n\n").unwrap();
        assert_eq!(data(&evs), vec![""]);
    }

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
    }
}
