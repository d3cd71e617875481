//! `GET /opbeta/outposts/devins?watch=true[&outpost=][&cursor=]`: Server-Sent Events.
//!
//! Replays every row (tombstones as `DELETED`) changed at or after the cursor minus the replay
//! window — everything when there is none — then streams live changes:
//! `data: {"type","object","cursor"}\n\n`, one event per row change, oldest first. Within one
//! stream a row version is sent once. `: keepalive` comments go out whenever nothing was sent
//! for the keepalive interval; the stream ends after the maximum stream duration. Each event's
//! cursor is its own stamp (see `state.rs`), so resuming from a saved event cursor repeats the
//! boundary (at-least-once) and loses nothing. `phase` and `acceptor_id` filters are ignored.

use std::convert::Infallible;

use axum::body::{Body, Bytes};
use axum::http::{HeaderValue, header};
use axum::response::Response;
use tokio::time::Instant;

use super::DevinEmu;
use super::state::Micros;

struct Stream {
    emu: DevinEmu,
    rx: tokio::sync::watch::Receiver<u64>,
    outpost: Option<String>,
    next_from: Micros,
    deadline: Instant,
    last_sent: Instant,
}

pub fn stream(emu: DevinEmu, outpost: Option<String>, from: Option<Micros>) -> Response {
    let now = Instant::now();
    let next_from = from.map_or(Micros::MIN, |c| c.saturating_sub(emu.watch_replay_us()));
    let st = Stream {
        rx: emu.subscribe(),
        deadline: now + emu.core.max_stream,
        emu,
        outpost,
        next_from,
        last_sent: now,
    };
    let body = futures::stream::unfold(st, |mut st| async move {
        // Not poll_until: an SSE body (events and keepalives), not a wait for a state.
        loop {
            if Instant::now() >= st.deadline {
                return None;
            }
            st.rx.borrow_and_update();
            let events = st
                .emu
                .with(|q, now| q.watch_scan(st.outpost.as_deref(), st.next_from, now));
            if !events.is_empty() {
                let mut buf = String::new();
                for (stamp, ev) in events {
                    buf.push_str("data: ");
                    buf.push_str(&ev.to_string());
                    buf.push_str("\n\n");
                    st.next_from = stamp + 1;
                }
                st.last_sent = Instant::now();
                return Some((Ok::<Bytes, Infallible>(Bytes::from(buf)), st));
            }
            let keepalive_at = st.last_sent + st.emu.core.keepalive;
            tokio::select! {
                changed = st.rx.changed() => {
                    if changed.is_err() {
                        return None;
                    }
                }
                _ = tokio::time::sleep_until(keepalive_at) => {
                    st.last_sent = Instant::now();
                    return Some((Ok(Bytes::from_static(b": keepalive\n\n")), st));
                }
                _ = tokio::time::sleep_until(st.deadline) => return None,
            }
        }
    });
    let mut resp = Response::new(Body::from_stream(body));
    let h = resp.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert("x-accel-buffering", HeaderValue::from_static("no"));
    resp
}
