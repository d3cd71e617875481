//! The Devin queue through the real binary and the library client against a spawned emulator:
//! paging, CAS claims, TTL and renewal, release, unclaimable rows, hostile ids, rate limits,
//! malformed payloads, and tokens that never leak.

use std::collections::HashSet;
use std::time::Duration;

use outposts::api::devin::{ClaimOutcome, DevinClient, ReleaseOutcome, SessionStatus};
use outposts::api::{ApiError, HttpClient, HttpOptions};
use outposts::emulator::devin::NewSession;
use outposts::secrets::Secret;

use crate::support::{Emu, block_on, emulated_env};

/// The library client with the emulator's machine token.
pub fn devin_client(emu: &Emu) -> DevinClient {
    DevinClient::new(
        outposts::settings::DevinSettings::new(
            &emu.base_url,
            Secret::new(emu.env_value("DEVIN_OUTPOSTS_TOKEN")),
        ),
        HttpClient::new(HttpOptions::default()).expect("http"),
    )
}

/// Enqueue `n` default sessions; their ids.
pub fn new_sessions(emu: &Emu, spec: NewSession) -> Vec<String> {
    block_on(emu.client().new_sessions(&spec))
        .expect("new sessions")
        .into_iter()
        .map(|s| s.session_id)
        .collect()
}

pub fn count(n: u32) -> NewSession {
    NewSession {
        count: Some(n),
        ..Default::default()
    }
}

fn list_requests(emu: &Emu) -> Vec<outposts::emulator::RequestRecord> {
    emu.requests()
        .into_iter()
        .filter(|r| r.method == "GET" && r.path == "/opbeta/outposts/devins")
        .collect()
}

#[test]
fn queue_list_returns_250_distinct_entries_over_two_pages() {
    let (env, emu) = emulated_env(&[]);
    let created: HashSet<String> = new_sessions(&emu, count(250)).into_iter().collect();
    assert_eq!(created.len(), 250);
    let r = env.run(&["queue", "list", "--json"]);
    r.ok();
    let items = r.json();
    let items = items.as_array().expect("array");
    assert_eq!(items.len(), 250);
    let ids: HashSet<String> = items
        .iter()
        .map(|e| e["metadata"]["session_id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(ids, created);
    assert!(
        items
            .iter()
            .all(|e| e["status"].get("connect_token").is_none()),
        "connect tokens are never printed"
    );
    let lists = list_requests(&emu);
    assert!(lists.len() >= 2, "{lists:?}");
    assert!(
        lists
            .iter()
            .all(|r| r.query.as_deref().unwrap_or("").contains("first=200"))
    );
    assert!(!lists[0].query.as_deref().unwrap_or("").contains("cursor="));
    assert!(lists[1].query.as_deref().unwrap_or("").contains("cursor="));
    assert!(r.stderr.contains("250 sessions"), "{}", r.stderr);
    // The human table has a header and one line per session.
    let t = env.run(&["queue", "list"]);
    t.ok();
    assert!(t.stdout.starts_with("SESSION"), "{}", t.stdout);
    assert_eq!(t.stdout.lines().count(), 251);
}

#[test]
fn two_concurrent_claims_exactly_one_wins() {
    let (_env, emu) = emulated_env(&[]);
    let ids = new_sessions(&emu, count(8));
    for id in &ids {
        // One client per runtime: pooled connections do not outlive the runtime that made them.
        let c = devin_client(&emu);
        let (a, b) = block_on(async { tokio::join!(c.claim(id, "acc-a"), c.claim(id, "acc-b")) });
        let outcomes = [a.expect("claim a"), b.expect("claim b")];
        let won: Vec<_> = outcomes
            .iter()
            .filter_map(|o| match o {
                ClaimOutcome::Won(e) => Some(e),
                _ => None,
            })
            .collect();
        assert_eq!(won.len(), 1, "{outcomes:?}");
        assert!(won[0].connect_token.is_some() && won[0].gateway_url.is_some());
        assert!(won[0].claim_deadline.is_some());
        assert!(
            outcomes.iter().any(|o| matches!(o, ClaimOutcome::Conflict { message } if message.contains("already claimed"))),
            "{outcomes:?}"
        );
        let history = block_on(emu.client().history(Some(id))).unwrap();
        let claims = history.iter().filter(|h| h.event == "claim").count();
        let conflicts = history
            .iter()
            .filter(|h| h.event == "claim_conflict")
            .count();
        assert_eq!((claims, conflicts), (1, 1), "{history:?}");
    }
}

#[test]
fn claims_expire_unless_running_and_renewal_extends_with_a_fresh_token() {
    let (_env, emu) = emulated_env(&["--claim-ttl", "2s"]);
    let ids = new_sessions(&emu, count(2));
    let ClaimOutcome::Won(first) = block_on(devin_client(&emu).claim(&ids[0], "acc-a")).unwrap()
    else {
        panic!("first claim")
    };
    std::thread::sleep(Duration::from_millis(1100));
    let ClaimOutcome::Won(renewed) = block_on(devin_client(&emu).claim(&ids[0], "acc-a")).unwrap()
    else {
        panic!("renewal")
    };
    assert_ne!(
        first.connect_token.as_ref().unwrap().expose(),
        renewed.connect_token.as_ref().unwrap().expose()
    );
    assert!(renewed.claim_deadline.unwrap() > first.claim_deadline.unwrap());
    assert!(matches!(
        block_on(devin_client(&emu).claim(&ids[0], "acc-b")).unwrap(),
        ClaimOutcome::Conflict { .. }
    ));
    // A running session's claim outlives its deadline.
    block_on(devin_client(&emu).claim(&ids[1], "acc-a")).unwrap();
    block_on(emu.client().set_status(&ids[1], "running")).unwrap();
    std::thread::sleep(Duration::from_millis(3200));
    assert!(matches!(
        block_on(devin_client(&emu).claim(&ids[0], "acc-b")).unwrap(),
        ClaimOutcome::Won(e) if e.acceptor_id.as_deref() == Some("acc-b")
    ));
    assert!(matches!(
        block_on(devin_client(&emu).claim(&ids[1], "acc-b")).unwrap(),
        ClaimOutcome::Conflict { .. }
    ));
    let history = block_on(emu.client().history(None)).unwrap();
    let events: Vec<(&str, &str)> = history
        .iter()
        .map(|h| (h.event.as_str(), h.session_id.as_str()))
        .collect();
    assert!(events.contains(&("renew", ids[0].as_str())), "{events:?}");
    assert!(events.contains(&("expire", ids[0].as_str())), "{events:?}");
    assert!(!events.contains(&("expire", ids[1].as_str())), "{events:?}");
}

#[test]
fn release_needs_the_holder() {
    let (_env, emu) = emulated_env(&[]);
    let id = new_sessions(&emu, count(1)).remove(0);
    block_on(devin_client(&emu).claim(&id, "acc-a")).unwrap();
    assert!(matches!(
        block_on(devin_client(&emu).release(&id, "acc-b")).unwrap(),
        ReleaseOutcome::AlreadyReleased { message } if message.contains("not claimed by this acceptor")
    ));
    match block_on(devin_client(&emu).release(&id, "acc-a")).unwrap() {
        ReleaseOutcome::Released(Some(e)) => {
            assert_eq!(e.phase.as_str(), "pending");
            assert_eq!(e.acceptor_id, None);
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        block_on(devin_client(&emu).release(&id, "acc-a")).unwrap(),
        ReleaseOutcome::AlreadyReleased { .. }
    ));
    let statuses: Vec<u16> = emu
        .requests()
        .iter()
        .filter(|r| r.path.ends_with("/release"))
        .map(|r| r.status)
        .collect();
    assert_eq!(statuses, vec![409, 200, 409]);
    assert!(matches!(
        block_on(devin_client(&emu).release("devin-missing", "acc-a")).unwrap(),
        ReleaseOutcome::AlreadyReleased { .. }
    ));
}

/// Cognition's model grants a claim of any `pending` row, whatever its session status: the
/// server does not protect clients, which must not ask (the planner never does: plan tests).
#[test]
fn suspended_and_terminated_pending_rows_are_granted_linger_and_get_swept() {
    let (env, emu) = emulated_env(&["--sweep-delay", "400ms"]);
    let r = env.run(&["emulator", "session", "new", "--status", "suspended"]);
    r.ok();
    let suspended = r.stdout.trim().to_string();
    let r = env.run(&[
        "emulator",
        "session",
        "new",
        "--status",
        "terminated",
        "--json",
    ]);
    r.ok();
    let terminated = r.json()[0]["session_id"].as_str().unwrap().to_string();
    for (id, word) in [(&suspended, "suspended"), (&terminated, "terminated")] {
        match block_on(devin_client(&emu).claim(id, "acc-a")).unwrap() {
            ClaimOutcome::Won(e) => assert_eq!(e.session_status.as_str(), word),
            // Swept already (the sweep delay is short): gone is unclaimable.
            ClaimOutcome::Gone => {}
            other => panic!("{other:?}"),
        }
    }
    // A claimed session that is suspended lingers as pending+suspended after release, then
    // disappears.
    let id = new_sessions(&emu, count(1)).remove(0);
    block_on(devin_client(&emu).claim(&id, "acc-a")).unwrap();
    block_on(emu.client().suspend(&id)).unwrap();
    block_on(devin_client(&emu).release(&id, "acc-a")).unwrap();
    let e = block_on(devin_client(&emu).get(&id))
        .unwrap()
        .expect("lingers");
    assert_eq!(e.session_status, SessionStatus::Suspended);
    std::thread::sleep(Duration::from_millis(1200));
    assert!(
        block_on(devin_client(&emu).get(&id)).unwrap().is_none(),
        "swept"
    );
    assert!(matches!(
        block_on(devin_client(&emu).claim(&id, "acc-b")).unwrap(),
        ClaimOutcome::Gone
    ));
    let get = emu
        .requests()
        .into_iter()
        .rfind(|r| r.method == "GET" && r.path.starts_with("/opbeta/outposts/devins/"))
        .unwrap();
    assert_eq!(get.status, 404);
}

#[test]
fn hostile_session_ids_stay_one_path_segment() {
    let (env, emu) = emulated_env(&[]);
    let hostile = "../../etc passwd ü%2F?#";
    let ids = new_sessions(
        &emu,
        NewSession {
            session_id: Some(hostile.into()),
            ..Default::default()
        },
    );
    assert_eq!(ids, vec![hostile.to_string()]);
    let e = block_on(devin_client(&emu).get(hostile))
        .unwrap()
        .expect("found by its exact id");
    assert_eq!(e.session_id, hostile);
    assert!(matches!(
        block_on(devin_client(&emu).claim(hostile, "acc-a")).unwrap(),
        ClaimOutcome::Won(_)
    ));
    let claim = emu
        .requests()
        .into_iter()
        .find(|r| r.path.ends_with("/claim"))
        .unwrap();
    assert_eq!(
        claim.path,
        "/opbeta/outposts/devins/%2E%2E%2F%2E%2E%2Fetc%20passwd%20%C3%BC%252F%3F%23/claim"
    );
    // The admin commands encode it too.
    env.run(&["emulator", "session", "suspend", hostile]).ok();
    for bad in ["..", ".", ""] {
        assert!(
            matches!(
                block_on(devin_client(&emu).get(bad)),
                Err(ApiError::InvalidInput { .. })
            ),
            "{bad:?}"
        );
    }
}

#[test]
fn retry_after_pauses_the_host_and_400_is_not_retried() {
    let (env, emu) = emulated_env(&[]);
    new_sessions(&emu, count(3));
    block_on(emu.client().add_faults(
        r#"{"method":"GET","path":"/opbeta/outposts/devins$","nth":1,"action":{"kind":"status","status":429,"headers":{"Retry-After":"2"}}}"#,
    ))
    .unwrap();
    let r = env.run(&["queue", "list", "--json"]);
    r.ok();
    assert_eq!(r.json().as_array().unwrap().len(), 3);
    // The queue's reads (the outpost is looked up first, on its own route).
    let devin: Vec<_> = emu
        .requests()
        .into_iter()
        .filter(|r| r.api == "devin" && r.path.starts_with("/opbeta/outposts/devins"))
        .collect();
    assert_eq!(devin[0].status, 429);
    assert!(devin.len() >= 2);
    for later in &devin[1..] {
        assert!(
            later.at_ms >= devin[0].at_ms + 1995,
            "a request came {} ms after the 429",
            later.at_ms - devin[0].at_ms
        );
    }

    block_on(emu.client().add_faults(
        r#"{"method":"GET","path":"/opbeta/outposts/devins$","nth":1,"action":{"kind":"status","status":400,"body":"{\"detail\":\"bad filter\"}"}}"#,
    ))
    .unwrap();
    let before = list_requests(&emu).len();
    let r = env.run(&["queue", "list"]);
    r.code(1);
    assert!(
        r.stderr.contains("400") && r.stderr.contains("bad filter"),
        "{}",
        r.stderr
    );
    assert_eq!(
        list_requests(&emu).len(),
        before + 1,
        "a 400 is not retried"
    );
}

#[test]
fn malformed_html_and_unknown_values_never_panic() {
    let (env, emu) = emulated_env(&[]);
    let cases = [
        (
            r#"{"path":"/opbeta/outposts/devins$","action":{"kind":"body","body":"{\"items\": [1,"}}"#,
            "malformed JSON",
        ),
        (
            r#"{"path":"/opbeta/outposts/devins$","action":{"kind":"body","content_type":"text/html","body":"<!DOCTYPE html><html><body>Sign in</body></html>"}}"#,
            "HTML",
        ),
        (
            r#"{"path":"/opbeta/outposts/devins$","action":{"kind":"body","body":"{\"data\": []}"}}"#,
            "items",
        ),
    ];
    for (fault, needle) in cases {
        block_on(emu.client().add_faults(fault)).unwrap();
        let r = env.run(&["queue", "list", "--json"]);
        r.code(1);
        assert!(r.stderr.contains(needle), "{needle}: {}", r.stderr);
        assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    }
    let weird = r#"{"items":[{"metadata":{"session_id":"devin-weird"},"spec":{"kind":"teleport","platform":"plan9"},"status":{"phase":"limbo","session_status":"exploded"}},{"status":{}}],"cursor":"c","has_next_page":false,"total":2}"#;
    let fault = serde_json::json!({"path": "/opbeta/outposts/devins$", "action": {"kind": "body", "body": weird}});
    block_on(emu.client().add_faults(&fault.to_string())).unwrap();
    let r = env.run(&["queue", "list", "--json"]);
    r.ok();
    let e = &r.json()[0];
    assert_eq!(e["metadata"]["session_id"], "devin-weird");
    for (section, field) in [
        ("status", "phase"),
        ("status", "session_status"),
        ("spec", "kind"),
        ("spec", "platform"),
    ] {
        assert_eq!(e[section][field], "unknown", "{section}.{field}");
    }
    assert!(r.stderr.contains("skipped 1 entry"), "{}", r.stderr);
}

#[test]
fn the_token_never_appears_even_at_trace_level() {
    let (env, emu) = emulated_env(&[]);
    let token = emu.env_value("DEVIN_OUTPOSTS_TOKEN");
    let id = new_sessions(&emu, count(2)).remove(0);
    let ClaimOutcome::Won(e) = block_on(devin_client(&emu).claim(&id, "acc-a")).unwrap() else {
        panic!("claim")
    };
    let connect = e.connect_token.unwrap().expose().to_string();
    for args in [
        vec!["-vvv", "queue", "list", "--json"],
        vec!["-vvv", "queue", "list"],
        vec![
            "-vvv",
            "--json",
            "queue",
            "watch",
            "--from-start",
            "--limit",
            "2",
        ],
        vec!["-vvv", "--log-format", "json", "queue", "list"],
    ] {
        let r = env.run(&args);
        r.ok();
        assert!(
            r.stderr.contains("/opbeta/outposts/devins"),
            "trace logs are on: {}",
            r.stderr
        );
        assert!(!r.all().contains(&token), "{args:?} leaked the token");
        assert!(
            !r.all().contains(&connect),
            "{args:?} leaked a connect token"
        );
    }
    let log = std::fs::read_to_string(emu.data_dir().join("requests.jsonl")).unwrap();
    assert!(!log.contains(&token));
}

#[test]
fn missing_or_rejected_tokens_exit_4_with_the_connect_hint() {
    let (mut env, _emu) = emulated_env(&[]);
    env.unset("DEVIN_OUTPOSTS_TOKEN");
    for args in [["queue", "list"], ["queue", "watch"]] {
        let r = env.run(&args);
        r.code(4);
        assert!(r.stderr.contains("DEVIN_OUTPOSTS_TOKEN"), "{}", r.stderr);
        assert!(r.stderr.contains("outposts connect"), "{}", r.stderr);
    }
    env.set("DEVIN_OUTPOSTS_TOKEN", "cog_notarealtoken0000000000000000");
    let r = env.run(&["queue", "list"]);
    r.code(4);
    assert!(
        r.stderr.contains("401") && r.stderr.contains("Invalid token"),
        "{}",
        r.stderr
    );
    let r = env.run(&["queue", "watch", "--cursor", "djE6MQ=="]);
    r.code(4);
}

#[test]
fn list_dedupes_with_later_pages_winning_and_stops_on_a_repeated_cursor() {
    let (env, emu) = emulated_env(&[]);
    let entry = |id: &str, phase: &str| serde_json::json!({"metadata": {"session_id": id}, "status": {"phase": phase, "session_status": "pending"}});
    let page1 = serde_json::json!({"items": [entry("devin-a", "pending"), entry("devin-b", "pending")], "cursor": "c1", "has_next_page": true, "total": 3});
    let page2 = serde_json::json!({"items": [entry("devin-b", "claimed"), entry("devin-c", "pending")], "cursor": "c2", "has_next_page": false, "total": 3});
    let rules = serde_json::json!([
        {"path": "/opbeta/outposts/devins$", "nth": 1, "action": {"kind": "body", "body": page1.to_string()}},
        {"path": "/opbeta/outposts/devins$", "nth": 2, "action": {"kind": "body", "body": page2.to_string()}},
    ]);
    block_on(emu.client().add_faults(&rules.to_string())).unwrap();
    let r = env.run(&["queue", "list", "--json"]);
    r.ok();
    let items = r.json();
    let got: Vec<(String, String)> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["metadata"]["session_id"].as_str().unwrap().to_string(),
                e["status"]["phase"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            ("devin-a".into(), "pending".into()),
            ("devin-b".into(), "claimed".into()),
            ("devin-c".into(), "pending".into())
        ]
    );
    let lists = list_requests(&emu);
    assert!(lists[1].query.as_deref().unwrap().contains("cursor=c1"));

    let stuck = serde_json::json!({"items": [entry("devin-a", "pending")], "cursor": "same", "has_next_page": true});
    let rule = serde_json::json!({"path": "/opbeta/outposts/devins$", "times": 0, "action": {"kind": "body", "body": stuck.to_string()}});
    block_on(emu.client().add_faults(&rule.to_string())).unwrap();
    let before = list_requests(&emu).len();
    let r = env.run(&["queue", "list"]);
    r.code(1);
    assert!(r.stderr.contains("does not advance"), "{}", r.stderr);
    assert_eq!(
        list_requests(&emu).len(),
        before + 2,
        "stops at the first repeat"
    );
}
