//! The queue as Cognition's model of the server behaves (specs §5.1, §5.2, §5.4): pages that
//! overlap (`>=` keyset, page-full `has_next_page`), watches that replay from before their
//! cursor and streams that end often — and our CLI still prints every row and event once.

use std::process::Stdio;
use std::time::Duration;

use serde_json::Value;

use crate::devin_queue::{count, devin_client, new_sessions};
use crate::support::{Emu, TestEnv, block_on};

fn emu_env(extra: &[&str]) -> (TestEnv, Emu) {
    let mut env = TestEnv::new();
    let emu = Emu::start(&env, extra);
    emu.configure(&mut env);
    (env, emu)
}

#[test]
fn overlapping_pages_list_every_row_once_with_integer_timestamps() {
    let (env, emu) = emu_env(&["--page-size", "2"]);
    let ids = new_sessions(&emu, count(5));
    // The server really pages by two and overlaps.
    let page = block_on(devin_client(&emu).list_page(&Default::default(), None)).unwrap();
    assert_eq!(page.items.len(), 2);
    assert!(page.has_next_page);
    let next = block_on(devin_client(&emu).list_page(&Default::default(), page.cursor.as_deref()))
        .unwrap();
    assert_eq!(
        next.items[0].session_id, page.items[1].session_id,
        "overlap"
    );

    let r = env.run(&["queue", "list", "--json"]);
    r.ok();
    let rows: Vec<Value> = serde_json::from_str(r.stdout.trim()).expect("a JSON array");
    let mut listed: Vec<String> = rows
        .iter()
        .map(|e| e["metadata"]["session_id"].as_str().unwrap().to_string())
        .collect();
    listed.sort();
    let mut want = ids.clone();
    want.sort();
    assert_eq!(listed, want, "every row exactly once");
    // Wire integers stay integers.
    for e in &rows {
        assert!(e["metadata"]["created_at"].is_i64(), "{e}");
        assert!(e["metadata"]["updated_at"].is_i64(), "{e}");
    }
    assert!(!r.stdout.contains(".0,"), "{}", r.stdout);
    let table = env.run(&["queue", "list"]);
    table.ok();
    for id in &ids {
        assert_eq!(
            table.stdout.matches(id.as_str()).count(),
            1,
            "{}",
            table.stdout
        );
    }
}

#[test]
fn a_replaying_watch_prints_each_event_once_and_reconnects_without_growing_waits() {
    // Every stream ends after 700 ms and every reconnect replays the last 30 s.
    let (env, emu) = emu_env(&[
        "--page-size",
        "2",
        "--watch-replay",
        "30s",
        "--max-stream",
        "700ms",
    ]);
    let ids = new_sessions(&emu, count(3));
    let mut child = env
        .cmd(&["queue", "watch", "--json", "--from-start"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    // A change between streams, replayed by the next ones too.
    block_on(devin_client(&emu).claim(&ids[0], "acc-a")).unwrap();
    std::thread::sleep(Duration::from_millis(3500));
    unsafe {
        libc::kill(child.id() as i32, libc::SIGTERM);
    }
    let _ = child.wait();
    let (out, err) = crate::support::drain(&mut child);
    let events: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect();
    let reconnects = err.matches("reconnecting in").count();
    assert!(reconnects >= 2, "streams ended and were resumed:\n{err}");
    let keys: Vec<String> = events
        .iter()
        .map(|e| {
            format!(
                "{} {} {}",
                e["object"]["metadata"]["session_id"].as_str().unwrap(),
                e["object"]["status"]["phase"].as_str().unwrap(),
                e["type"]
            )
        })
        .collect();
    let mut unique = keys.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(keys.len(), unique.len(), "an event printed twice:\n{out}");
    assert_eq!(keys.len(), 4, "three new sessions and one claim:\n{out}");
    assert!(
        keys.contains(&format!("{} claimed \"MODIFIED\"", ids[0])),
        "{out}"
    );
    // Streams the server ended normally do not grow the backoff.
    // Under --json every stderr line is a JSON object: the words are its `message`.
    let words: Vec<String> = err
        .lines()
        .map(|l| match serde_json::from_str::<serde_json::Value>(l) {
            Ok(v) => v["message"].as_str().unwrap_or(l).to_string(),
            Err(_) => l.to_string(),
        })
        .collect();
    for line in words.iter().filter(|l| l.contains("reconnecting in")) {
        let secs: f64 = line
            .rsplit("reconnecting in ")
            .next()
            .and_then(|s| s.trim_end_matches('s').parse().ok())
            .unwrap_or_else(|| panic!("unreadable: {line}"));
        assert!(
            secs <= 1.0,
            "the wait grew after a normal end: {line}\n{err}"
        );
    }
}

#[test]
fn claims_follow_the_model_without_acceptor_and_on_ended_rows() {
    let (_env, emu) = emu_env(&[]);
    let ids = new_sessions(&emu, count(2));
    let token = emu.env_value("DEVIN_OUTPOSTS_TOKEN");
    let claim = |id: &str, body: &str| -> (u16, Value) {
        block_on(async {
            let r = reqwest::Client::new()
                .post(format!(
                    "{}/opbeta/outposts/devins/{id}/claim",
                    emu.base_url
                ))
                .bearer_auth(&token)
                .header("content-type", "application/json")
                .body(body.to_string())
                .send()
                .await
                .unwrap();
            let status = r.status().as_u16();
            (status, r.json().await.unwrap_or(Value::Null))
        })
    };
    // A body without acceptor_id is answered 200, as by the model.
    assert_eq!(claim(&ids[0], "{}").0, 200);
    // A pending row of a suspended session is granted (clients must not ask; the server does
    // not protect them).
    block_on(emu.client().suspend(&ids[1])).unwrap();
    let (status, v) = claim(&ids[1], r#"{"acceptor_id":"acc-x"}"#);
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["status"]["session_status"], "suspended");
}
