//! Daytona's sandbox event stream: Socket.IO (Engine.IO v4) over a WebSocket at
//! `{apiPath}/socket.io/` (daytona-api.md §3.6), what the official SDK subscribes to by default
//! so that its waits are event-driven, not polled.
//!
//! - The upgrade carries no credentials: the client authenticates in the Socket.IO CONNECT
//!   packet, `40{"token": "<API key>"}`. A bad token gets a CONNECT_ERROR packet
//!   (`44{"message": …}`) and the socket closes.
//! - Engine.IO v4 heartbeats: the server pings (`2`) every `pingInterval`; the client pongs (`3`).
//! - Events (EVENT packets, `42["name", payload]`): `sandbox.created` with the sandbox DTO and
//!   `sandbox.state.updated` with `{"sandbox": DTO, "oldState": …, "newState": …}`, for every
//!   sandbox of the organisation whose reported state changes: one event per transition, sent
//!   as the change is made ([`OrgGuard`]), with the state it left as `oldState`.

use std::collections::BTreeMap;
use std::time::Duration;

use axum::extract::State;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::response::Response;
use serde_json::{Value, json};

use crate::emulator::AppState;

const PING_INTERVAL: Duration = Duration::from_secs(25);
const PING_TIMEOUT_MS: u64 = 20_000;

pub async fn socket(State(s): State<AppState>, ws: WebSocketUpgrade) -> Response {
    ws.on_upgrade(move |socket| serve(s, socket))
}

/// Capacity of the event fan-out: a subscriber this far behind loses the oldest events.
const BACKLOG: usize = 4096;

pub(super) type EventTx = tokio::sync::broadcast::Sender<String>;

pub(super) fn channel() -> EventTx {
    tokio::sync::broadcast::channel(BACKLOG).0
}

/// The organisation, locked. Every change of a sandbox's reported state happens under this
/// lock, so when the lock is released the differences from the last published states are
/// exactly the transitions since then: each becomes one event, in order, with its true
/// `oldState` (no sampling; a state held for a microsecond is still sent).
pub(crate) struct OrgGuard<'a> {
    pub(super) org: std::sync::MutexGuard<'a, super::Org>,
    pub(super) tx: &'a EventTx,
    pub(super) toolbox: &'a str,
}

impl std::ops::Deref for OrgGuard<'_> {
    type Target = super::Org;
    fn deref(&self) -> &super::Org {
        &self.org
    }
}

impl std::ops::DerefMut for OrgGuard<'_> {
    fn deref_mut(&mut self) -> &mut super::Org {
        &mut self.org
    }
}

impl Drop for OrgGuard<'_> {
    fn drop(&mut self) {
        let org = &mut *self.org;
        // Nobody listens: no diff. Diffing every sandbox under every lock cost O(sandboxes)
        // per API call, which at 30,000 simulated sandboxes made the emulator the bottleneck.
        // A subscriber resyncs under the lock before it subscribes ([`DaytonaEmu::subscribe`]),
        // so it still sees every transition made after it subscribed.
        if self.tx.receiver_count() == 0 {
            org.published = None;
            return;
        }
        let published = org.published.get_or_insert_with(BTreeMap::new);
        let mut out = Vec::new();
        for r in org.sandboxes.values().filter(|r| !r.gone()) {
            let state = r.reported().as_str();
            match published.get_mut(&r.id) {
                Some((old, _)) if old.as_str() == state => {}
                Some((old, dto)) => {
                    let new_dto = r.dto(self.toolbox);
                    out.push(event(
                        "sandbox.state.updated",
                        json!({"sandbox": new_dto, "oldState": old, "newState": state}),
                    ));
                    *old = state.to_string();
                    *dto = new_dto;
                }
                None => {
                    let dto = r.dto(self.toolbox);
                    out.push(event("sandbox.created", dto.clone()));
                    published.insert(r.id.clone(), (state.to_string(), dto));
                }
            }
        }
        let gone: Vec<String> = published
            .keys()
            .filter(|id| org.sandboxes.get(*id).is_none_or(|r| r.gone()))
            .cloned()
            .collect();
        for id in gone {
            if let Some((old, mut dto)) = published.remove(&id) {
                dto["state"] = json!("destroyed");
                out.push(event(
                    "sandbox.state.updated",
                    json!({"sandbox": dto, "oldState": old, "newState": "destroyed"}),
                ));
            }
        }
        for e in out {
            // No subscriber is fine: nobody is listening.
            let _ = self.tx.send(e);
        }
    }
}

impl super::DaytonaEmu {
    /// A new event subscriber. Under the organisation's lock: when nobody was listening, the
    /// published states are first taken silently from the sandboxes as they are now (what a
    /// subscriber would have been told already), so the subscriber gets exactly the
    /// transitions made after it subscribed.
    fn subscribe(&self) -> tokio::sync::broadcast::Receiver<String> {
        let mut guard = self.org();
        if guard.published.is_none() {
            let org = &*guard;
            let now: BTreeMap<String, (String, Value)> = org
                .sandboxes
                .values()
                .filter(|r| !r.gone())
                .map(|r| {
                    let state = r.reported().as_str().to_string();
                    (r.id.clone(), (state, r.dto(guard.toolbox)))
                })
                .collect();
            guard.published = Some(now);
        }
        let rx = self.events.subscribe();
        drop(guard);
        rx
    }
}

fn event(name: &str, payload: Value) -> String {
    format!("42{}", json!([name, payload]))
}

async fn serve(s: AppState, mut ws: WebSocket) {
    let sid = uuid::Uuid::new_v4().simple().to_string();
    let open = json!({
        "sid": sid,
        "upgrades": [],
        "pingInterval": PING_INTERVAL.as_millis() as u64,
        "pingTimeout": PING_TIMEOUT_MS,
        "maxPayload": 1_000_000,
    });
    if ws.send(Message::Text(format!("0{open}"))).await.is_err() {
        return;
    }
    // Socket.IO CONNECT to the default namespace, with the API key in its payload.
    let connected = loop {
        match tokio::time::timeout(Duration::from_secs(30), ws.recv()).await {
            Ok(Some(Ok(Message::Text(t)))) if t.starts_with("40") => {
                let token = serde_json::from_str::<Value>(t.trim_start_matches("40"))
                    .ok()
                    .and_then(|v| v.get("token").and_then(Value::as_str).map(str::to_string));
                break token.is_some_and(|k| s.daytona.key_label(&k).is_some());
            }
            Ok(Some(Ok(Message::Text(t)))) if t == "3" => continue,
            Ok(Some(Ok(Message::Ping(_) | Message::Pong(_)))) => continue,
            _ => return,
        }
    };
    if !connected {
        let _ = ws
            .send(Message::Text(
                r#"44{"message":"Invalid credentials"}"#.to_string(),
            ))
            .await;
        let _ = ws.send(Message::Close(None)).await;
        return;
    }
    // Subscribed before the CONNECT is acknowledged: every change after it is delivered.
    let mut rx = s.daytona.subscribe();
    let ns_sid = uuid::Uuid::new_v4().simple().to_string();
    if ws
        .send(Message::Text(format!("40{}", json!({ "sid": ns_sid }))))
        .await
        .is_err()
    {
        return;
    }
    let mut ping = tokio::time::interval(PING_INTERVAL);
    ping.tick().await;
    loop {
        tokio::select! {
            msg = ws.recv() => match msg {
                // Pongs, and anything else a client may send, need no answer; `41` disconnects.
                Some(Ok(Message::Text(t))) if t == "41" || t == "1" => return,
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => return,
                Some(Ok(_)) => {}
            },
            _ = ping.tick() => {
                if ws.send(Message::Text("2".into())).await.is_err() {
                    return;
                }
            }
            ev = rx.recv() => match ev {
                Ok(text) => {
                    if ws.send(Message::Text(text)).await.is_err() {
                        return;
                    }
                }
                Err(tokio::sync::broadcast::error::RecvError::Lagged(n)) => {
                    tracing::warn!("emulated Daytona: an event subscriber fell {n} events behind");
                }
                Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
            },
        }
    }
}
