//! The queue watch: resume from a saved cursor, streams of keepalives only, streams cut in the
//! middle of an event, and DELETED events for swept rows.

use std::process::Stdio;
use std::time::{Duration, Instant};

use outposts::api::devin::ListQuery;
use outposts::api::sse::{GapReason, WatchItem, WatchOptions};

use crate::devin_queue::{count, devin_client, new_sessions};
use crate::support::{Emu, TestEnv, block_on};

fn emu_env(extra: &[&str]) -> (TestEnv, Emu) {
    let mut env = TestEnv::new();
    let emu = Emu::start(&env, extra);
    emu.configure(&mut env);
    (env, emu)
}

fn fast() -> WatchOptions {
    WatchOptions {
        initial_backoff: Duration::from_millis(50),
        max_backoff: Duration::from_millis(200),
        healthy_after: Duration::from_secs(5),
    }
}

fn now_cursor(emu: &Emu) -> String {
    block_on(devin_client(emu).list(&ListQuery::default()))
        .unwrap()
        .cursor
        .expect("list cursor")
}

fn ndjson(stdout: &str) -> Vec<serde_json::Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

fn ids_of(events: &[serde_json::Value]) -> Vec<String> {
    events
        .iter()
        .map(|e| {
            e["object"]["metadata"]["session_id"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect()
}

#[test]
fn a_watch_resumed_from_a_saved_cursor_replays_only_later_changes() {
    // No replay window: what a resumed watch repeats is then exactly its boundary event.
    let (env, emu) = emu_env(&["--watch-replay", "0s"]);
    new_sessions(&emu, count(2));
    let start = now_cursor(&emu);
    let later = new_sessions(&emu, count(3));
    let r = env.run(&[
        "queue", "watch", "--json", "--cursor", &start, "--limit", "3",
    ]);
    r.ok();
    let events = ndjson(&r.stdout);
    assert_eq!(
        ids_of(&events),
        later,
        "only the changes after the list, in order"
    );
    assert!(events.iter().all(|e| e["type"] == "MODIFIED"));
    // Resume after the second event: the boundary event again (the `>=` cursor of the model:
    // at-least-once), then the third; nothing earlier.
    let saved = events[1]["cursor"].as_str().unwrap();
    let r = env.run(&[
        "queue", "watch", "--json", "--cursor", saved, "--limit", "2",
    ]);
    r.ok();
    assert_eq!(ids_of(&ndjson(&r.stdout)), later[1..].to_vec());
    // A change after the last event is the next new thing a resumed watch sees.
    let last = events[2]["cursor"].as_str().unwrap().to_string();
    block_on(devin_client(&emu).claim(&later[0], "acc-a")).unwrap();
    let mut w = devin_client(&emu).watch_with(None, Some(last), fast());
    let mut got = Vec::new();
    while got.len() < 2 {
        match block_on(w.next()) {
            WatchItem::Event(e) => got.push(e.object.unwrap()),
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(got[0].session_id, later[2], "the boundary");
    assert_eq!(got[1].session_id, later[0]);
    assert_eq!(got[1].acceptor_id.as_deref(), Some("acc-a"));
}

#[test]
fn a_stream_of_keepalives_only_loses_no_change() {
    let (env, emu) = emu_env(&["--keepalive", "100ms", "--max-stream", "1500ms"]);
    let start = now_cursor(&emu);
    let mut child = env
        .cmd(&[
            "queue", "watch", "--json", "--cursor", &start, "--limit", "2",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Long enough for the first stream to end with nothing but keepalives.
    std::thread::sleep(Duration::from_millis(2800));
    let created = new_sessions(&emu, count(2));
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(Instant::now() < deadline, "watch did not see the changes");
        std::thread::sleep(Duration::from_millis(50));
    };
    let (out, err) = crate::support::drain(&mut child);
    assert!(status.success(), "{err}");
    assert_eq!(ids_of(&ndjson(&out)), created);
    assert!(err.contains("reconnecting"), "{err}");
    let watches: Vec<_> = emu
        .requests()
        .into_iter()
        .filter(|r| r.query.as_deref().unwrap_or("").contains("watch=true"))
        .collect();
    assert!(
        watches.len() >= 2,
        "the stream ended and was reopened: {watches:?}"
    );
    let encoded: String = url::form_urlencoded::byte_serialize(start.as_bytes()).collect();
    for w in &watches {
        assert!(
            w.query
                .as_deref()
                .unwrap()
                .contains(&format!("cursor={encoded}")),
            "each reconnect resumes from the same cursor: {w:?}"
        );
    }
}

/// Bytes of the first `n` events of a watch from `cursor` (read raw, outside our decoder).
fn raw_events(emu: &Emu, cursor: &str, n: usize) -> Vec<usize> {
    block_on(async {
        let url = format!("{}/opbeta/outposts/devins", emu.base_url);
        let mut resp = reqwest::Client::new()
            .get(url)
            .query(&[("watch", "true"), ("cursor", cursor)])
            .bearer_auth(emu.env_value("DEVIN_OUTPOSTS_TOKEN"))
            .send()
            .await
            .unwrap();
        let mut buf = Vec::new();
        loop {
            let chunk = resp.chunk().await.unwrap().expect("stream open");
            buf.extend_from_slice(&chunk);
            let text = String::from_utf8_lossy(&buf);
            let ends: Vec<usize> = text.match_indices("\n\n").map(|(i, _)| i + 2).collect();
            if ends.len() >= n {
                break ends;
            }
        }
    })
}

#[test]
fn a_stream_cut_mid_event_dispatches_no_partial_event_and_loses_nothing() {
    let (env, emu) = emu_env(&[]);
    let start = now_cursor(&emu);
    let created = new_sessions(&emu, count(3));
    let ends = raw_events(&emu, &start, 3);
    // Cut halfway through the second event, on the next watch connection.
    let cut = ends[0] + (ends[1] - ends[0]) / 2;
    let fault = format!(
        r#"{{"method":"GET","path":"/opbeta/outposts/devins$","nth":1,"times":1,"action":{{"kind":"cut_stream","bytes":{cut}}}}}"#
    );
    block_on(emu.client().add_faults(&fault)).unwrap();

    // Library: event, gap, then the rest — nothing partial, nothing lost, nothing repeated.
    let mut w = devin_client(&emu).watch_with(None, Some(start.clone()), fast());
    let mut seen = Vec::new();
    let mut gaps = Vec::new();
    block_on(async {
        while seen.len() < 3 {
            match w.next().await {
                WatchItem::Event(e) => seen.push(e.object.unwrap().session_id),
                WatchItem::Gap(g) => {
                    assert!(seen.len() == 1, "the gap comes right after the first event");
                    gaps.push(g.reason);
                }
            }
        }
    });
    assert_eq!(seen, created);
    assert_eq!(gaps, vec![GapReason::Broken]);

    // The binary, with the same fault again.
    block_on(emu.client().add_faults(&fault)).unwrap();
    let r = env.run(&[
        "queue", "watch", "--json", "--cursor", &start, "--limit", "3",
    ]);
    r.ok();
    assert_eq!(ids_of(&ndjson(&r.stdout)), created);
    assert!(r.stderr.contains("broke"), "{}", r.stderr);
    // A dispatched partial event would have been an unreadable one.
    assert!(!r.stderr.contains("skipping"), "{}", r.stderr);
}

#[test]
fn swept_rows_arrive_as_deleted_events() {
    let (_env, emu) = emu_env(&["--sweep-delay", "200ms"]);
    let id = new_sessions(&emu, count(1)).remove(0);
    let start = now_cursor(&emu);
    block_on(devin_client(&emu).claim(&id, "acc-a")).unwrap();
    block_on(emu.client().suspend(&id)).unwrap();
    block_on(devin_client(&emu).release(&id, "acc-a")).unwrap();
    let mut w = devin_client(&emu).watch_with(None, Some(start), fast());
    let mut kinds = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(10);
    block_on(async {
        while Instant::now() < deadline {
            let next = tokio::time::timeout(Duration::from_secs(10), w.next()).await;
            if let Ok(WatchItem::Event(e)) = next {
                let o = e.object.unwrap();
                kinds.push((e.kind_raw.clone(), o.session_status.to_string()));
                if e.kind_raw == "DELETED" {
                    break;
                }
            }
        }
    });
    assert_eq!(
        kinds.last(),
        Some(&("DELETED".to_string(), "suspended".to_string())),
        "{kinds:?}"
    );
}

#[test]
fn malformed_and_unknown_events_are_skipped_or_passed_on() {
    let (env, emu) = emu_env(&[]);
    let body = "data: {not json\n\ndata: {\"type\":\"BOOKMARK\",\"cursor\":\"djE6MQ==\"}\n\ndata: {\"type\":\"MODIFIED\",\"object\":{\"metadata\":{\"session_id\":\"devin-ok\"},\"status\":{\"phase\":\"pending\",\"session_status\":\"pending\"}},\"cursor\":\"djE6Mg==\"}\n\n";
    let fault = serde_json::json!({"path": "/opbeta/outposts/devins$", "action": {"kind": "body", "content_type": "text/event-stream", "body": body}});
    block_on(emu.client().add_faults(&fault.to_string())).unwrap();
    let r = env.run(&[
        "queue", "watch", "--json", "--cursor", "djE6MA==", "--limit", "2",
    ]);
    r.ok();
    let events = ndjson(&r.stdout);
    assert_eq!(events[0]["type"], "BOOKMARK");
    assert_eq!(events[1]["object"]["metadata"]["session_id"], "devin-ok");
    assert!(r.stderr.contains("not JSON"), "{}", r.stderr);
    assert!(!r.stderr.contains("panicked"));
}

#[test]
fn a_stalled_stream_is_detected_by_the_read_timeout_and_reopened() {
    let (mut env, emu) = emu_env(&["--keepalive", "30s"]);
    env.set("OUTPOSTS_READ_TIMEOUT", "1");
    let start = now_cursor(&emu);
    let mut child = env
        .cmd(&[
            "queue", "watch", "--json", "--cursor", &start, "--limit", "1",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(2500));
    let created = new_sessions(&emu, count(1));
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(Instant::now() < deadline, "the watch never recovered");
        std::thread::sleep(Duration::from_millis(50));
    };
    let (out, err) = crate::support::drain(&mut child);
    assert!(status.success(), "{err}");
    assert_eq!(ids_of(&ndjson(&out)), created);
    assert!(err.contains("stalled"), "{err}");
}
