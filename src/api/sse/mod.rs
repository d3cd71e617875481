//! Server-sent events: a pure incremental decoder ([`Decoder`]) and the reconnecting Devin
//! queue watch built on it ([`Watch`], in `watch.rs`).
//!
//! The decoder follows the WHATWG event-stream rules that matter to us: CR, LF and CRLF line
//! ends (a CR at the end of one chunk and an LF at the start of the next are one line end),
//! `data:` lines joined with `\n`, `:` comments dropped (but counted, they prove the stream is
//! alive), `event:`/`id:`/`retry:` tolerated, and an event dispatched only at a blank line — a
//! partial event at EOF is discarded, never dispatched. Lines and events are capped so a hostile
//! server cannot make us buffer without bound; hitting a cap is an error the caller answers by
//! reconnecting.

use std::time::Duration;

mod dedup;
mod watch;

pub use watch::{Gap, GapReason, RequestBuilder, Watch, WatchItem, WatchOptions};

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

    /// Keepalive comments seen (what the tests count).
    #[cfg(test)]
    pub fn comments(&self) -> u64 {
        self.comments
    }

    /// The server's last `retry:` value.
    pub fn retry(&self) -> Option<Duration> {
        self.retry
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
}
