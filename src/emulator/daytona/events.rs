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
//!   sandbox of the organisation whose reported state changes (observed every 100 ms).

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

/// The org's sandboxes as the API reports them: id → (reported state, DTO).
/// Each sandbox's reported state and DTO, by id.
type Seen = BTreeMap<String, (String, Value)>;

fn snapshot(s: &AppState) -> Seen {
    let toolbox = super::DaytonaEmu::toolbox_url(&s.base_url);
    let org = s.daytona.org();
    org.sandboxes
        .values()
        .filter(|r| !r.gone())
        .map(|r| {
            (
                r.id.clone(),
                (r.reported().as_str().to_string(), r.dto(&toolbox)),
            )
        })
        .collect()
}

fn event(name: &str, payload: Value) -> Message {
    Message::Text(format!("42{}", json!([name, payload])))
}

/// The events between two looks at the sandboxes: new ones, changed states, and ones gone
/// (reported as `destroyed`).
fn changes(seen: &Seen, now: &Seen) -> Vec<Message> {
    let mut out = Vec::new();
    for (id, (state, dto)) in now {
        match seen.get(id) {
            None => out.push(event("sandbox.created", dto.clone())),
            Some((old, _)) if old != state => out.push(event(
                "sandbox.state.updated",
                json!({"sandbox": dto, "oldState": old, "newState": state}),
            )),
            _ => {}
        }
    }
    for (id, (old, dto)) in seen {
        if !now.contains_key(id) {
            let mut gone = dto.clone();
            gone["state"] = json!("destroyed");
            out.push(event(
                "sandbox.state.updated",
                json!({"sandbox": gone, "oldState": old, "newState": "destroyed"}),
            ));
        }
    }
    out
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
    let ns_sid = uuid::Uuid::new_v4().simple().to_string();
    if ws
        .send(Message::Text(format!("40{}", json!({ "sid": ns_sid }))))
        .await
        .is_err()
    {
        return;
    }
    let mut seen = snapshot(&s);
    let mut ping = tokio::time::interval(PING_INTERVAL);
    ping.tick().await;
    let mut poll = tokio::time::interval(Duration::from_millis(100));
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
            _ = poll.tick() => {
                let now = snapshot(&s);
                let out = changes(&seen, &now);
                seen = now;
                for m in out {
                    if ws.send(m).await.is_err() {
                        return;
                    }
                }
            }
        }
    }
}
