//! Daytona's Socket.IO event stream on the emulator, spoken by hand from the protocol
//! (Engine.IO v4 framing, daytona-api.md §3.6): the upgrade needs no credentials, the CONNECT
//! packet carries the API key (a bad one gets CONNECT_ERROR), and sandbox creation and state
//! changes arrive as EVENT packets. The official SDK's own event path runs in the outsider
//! conformance orchestrator (`daytona_conformance.rs`).

use std::net::TcpStream;
use std::time::{Duration, Instant};

use outposts::provider::{Provider, SandboxSpec, Source};
use serde_json::Value;
use tungstenite::Message;
use tungstenite::stream::MaybeTlsStream;

use crate::support::daytona::provider;
use crate::support::{Emu, TestEnv, block_on};

type Socket = tungstenite::WebSocket<MaybeTlsStream<TcpStream>>;

fn open(emu: &Emu) -> Socket {
    let url = format!(
        "{}/daytona/api/socket.io/?EIO=4&transport=websocket&organizationId=o&source=test",
        emu.base_url.replace("http://", "ws://")
    );
    let (ws, resp) = tungstenite::connect(url).expect("websocket upgrade");
    assert_eq!(resp.status().as_u16(), 101);
    if let MaybeTlsStream::Plain(s) = ws.get_ref() {
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    }
    ws
}

fn text(ws: &mut Socket) -> String {
    loop {
        match ws.read().expect("read") {
            Message::Text(t) => return t.as_str().to_string(),
            Message::Close(_) => return String::new(),
            _ => {}
        }
    }
}

/// Connect (Engine.IO open, Socket.IO CONNECT with `token`); the server's answer to CONNECT.
fn connect(emu: &Emu, token: &str) -> (Socket, String) {
    let mut ws = open(emu);
    let hello = text(&mut ws);
    assert!(
        hello.starts_with('0'),
        "Engine.IO open packet first: {hello}"
    );
    let open: Value = serde_json::from_str(&hello[1..]).unwrap();
    assert!(
        open["sid"].is_string() && open["pingInterval"].is_u64(),
        "{open}"
    );
    ws.send(Message::Text(
        format!("40{}", serde_json::json!({ "token": token })).into(),
    ))
    .unwrap();
    let answer = text(&mut ws);
    (ws, answer)
}

/// The next EVENT packet matching `want` within `limit` (pings answered on the way).
fn event(ws: &mut Socket, limit: Duration, want: impl Fn(&str, &Value) -> bool) -> Value {
    let deadline = Instant::now() + limit;
    while Instant::now() < deadline {
        let t = text(ws);
        if t == "2" {
            ws.send(Message::Text("3".into())).unwrap();
            continue;
        }
        let Some(body) = t.strip_prefix("42") else {
            continue;
        };
        let v: Value = serde_json::from_str(body).unwrap();
        let name = v[0].as_str().unwrap_or_default().to_string();
        if want(&name, &v[1]) {
            return v[1].clone();
        }
    }
    panic!("no matching event within {limit:?}");
}

#[test]
fn the_event_socket_authenticates_in_the_connect_packet_and_streams_state_changes() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let env = TestEnv::new();
    let emu = Emu::start(&env, &[]);
    // A bad key: CONNECT_ERROR, not an HTTP 401.
    let (_bad, answer) = connect(&emu, "dtn_not-a-key");
    assert!(answer.starts_with("44"), "{answer}");
    let (mut ws, answer) = connect(&emu, &emu.env_value("DAYTONA_API_KEY"));
    assert!(answer.starts_with("40"), "{answer}");
    assert!(serde_json::from_str::<Value>(&answer[2..]).unwrap()["sid"].is_string());

    let daytona = provider(&emu);
    let spec = SandboxSpec::new("events-1", Source::Default);
    let sb = block_on(daytona.create(&spec)).unwrap();
    let created = event(&mut ws, Duration::from_secs(30), |n, p| {
        n == "sandbox.created" && p["id"] == sb.id.as_str()
    });
    assert_eq!(created["name"], "events-1");
    event(&mut ws, Duration::from_secs(30), |n, p| {
        n == "sandbox.state.updated"
            && p["sandbox"]["id"] == sb.id.as_str()
            && p["newState"] == "started"
    });
    block_on(daytona.stop(&sb.id)).unwrap();
    let stopped = event(&mut ws, Duration::from_secs(30), |n, p| {
        n == "sandbox.state.updated"
            && p["sandbox"]["id"] == sb.id.as_str()
            && p["newState"] == "stopped"
    });
    assert_eq!(stopped["sandbox"]["state"], "stopped");
    block_on(daytona.delete(&sb.id)).unwrap();
    event(&mut ws, Duration::from_secs(30), |n, p| {
        n == "sandbox.state.updated"
            && p["sandbox"]["id"] == sb.id.as_str()
            && p["newState"] == "destroyed"
    });
    // The upgrades were answered 101, never 401.
    let upgrades: Vec<u16> = emu
        .requests()
        .into_iter()
        .filter(|r| r.path.starts_with("/daytona/api/socket.io"))
        .map(|r| r.status)
        .collect();
    assert_eq!(upgrades, vec![101, 101], "{upgrades:?}");
}
