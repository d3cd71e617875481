//! Daytona warm pools: `outposts snapshot warm-pool` against the emulated Daytona, and the
//! orchestrator's sessions served from a pool's started sandboxes (named and labelled as
//! usual), a create the pool cannot serve (custom env) created cold.

use std::collections::BTreeMap;
use std::time::Duration;

use outposts::api::daytona_types::CreateSandbox;
use outposts::api::http::{self, ApiRequest};
use outposts::orchestrator::sandbox_name;
use outposts::provider::Provider;

use crate::support::daytona::{
    assert_openapi_conformance, client, http_client, provider, set_settings,
};
use crate::support::orch::*;
use crate::support::{Emu, TestEnv, block_on};

const WAIT: Duration = Duration::from_secs(90);

/// The ids of the pool's ready members (`GET /sandbox?includeWarm=true`, `warmPoolId` set).
fn warm_ids(emu: &Emu) -> Vec<String> {
    let req = ApiRequest::new(
        http::DAYTONA,
        reqwest::Method::GET,
        format!(
            "{}/sandbox?includeWarm=true&states=started",
            emu.env_value("DAYTONA_API_URL")
        ),
    )
    .bearer(&outposts::secrets::Secret::new(
        emu.env_value("DAYTONA_API_KEY"),
    ));
    let v: serde_json::Value = block_on(http_client().send_json(req)).expect("list");
    v["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["warmPoolId"].is_string())
        .map(|s| s["id"].as_str().unwrap().to_string())
        .collect()
}

fn show(env: &TestEnv) -> serde_json::Value {
    env.run(&["snapshot", "warm-pool", "--json"]).ok().json()
}

/// Wait until the pool reports `n` ready members.
fn wait_ready(env: &TestEnv, emu: &Emu, n: u64) {
    wait_until(
        WAIT,
        &format!("{n} warm sandboxes"),
        || show(env)["pool"]["ready"] == n && warm_ids(emu).len() as u64 == n,
        || format!("{}", show(env)),
    );
}

#[test]
fn warm_pool_set_show_delete_round_trip() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, env, name) = crate::support::orch::emulator_with_snapshot();
    assert_eq!(
        show(&env),
        serde_json::json!({"snapshot": name, "pool": null})
    );
    let set = env
        .run(&["snapshot", "warm-pool", "set", "2", "--json"])
        .ok()
        .json();
    assert_eq!(set["pool"]["size"], 2, "{set}");
    assert_eq!(set["pool"]["snapshot"], name.as_str(), "{set}");
    wait_ready(&env, &emu, 2);
    let id = show(&env)["pool"]["id"].clone();
    // Resizing keeps the pool; a second pool for the snapshot is refused (409).
    env.run(&["snapshot", "warm-pool", "set", "3"]).ok();
    wait_ready(&env, &emu, 3);
    assert_eq!(show(&env)["pool"]["id"], id);
    let again = block_on(client(&emu).create_warm_pool(&name, 1, None));
    assert!(
        matches!(again, Err(outposts::api::ApiError::Conflict { .. })),
        "{again:?}"
    );
    // doctor: the creates are eligible; with another region they would not be, and it says why.
    let warm_check = |env: &TestEnv| {
        let doc = env.run(&["--json", "doctor"]).json();
        doc["checks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == "warm_pool")
            .cloned()
            .unwrap_or_else(|| panic!("no warm_pool check: {doc}"))
    };
    let c = warm_check(&env);
    assert_eq!(c["status"], "pass", "{c}");
    assert!(
        c["message"].as_str().unwrap().contains("3 of 3 ready"),
        "{c}"
    );
    let mut elsewhere = orch_env(&emu);
    elsewhere.set("DAYTONA_TARGET", "eu");
    let c = warm_check(&elsewhere);
    assert_eq!(c["status"], "fail", "{c}");
    assert!(
        c["message"]
            .as_str()
            .unwrap()
            .contains("none would be served warm"),
        "{c}"
    );
    let text = env.run(&["snapshot", "warm-pool"]).ok().stdout.clone();
    assert!(text.contains("3 of 3 ready"), "{text}");
    let del = env
        .run(&["snapshot", "warm-pool", "delete", "--json"])
        .ok()
        .json();
    assert_eq!(del["deleted"], true, "{del}");
    assert_eq!(show(&env)["pool"], serde_json::Value::Null);
    wait_until(
        WAIT,
        "the members gone",
        || warm_ids(&emu).is_empty(),
        String::new,
    );
    let del = env
        .run(&["snapshot", "warm-pool", "delete", "--json"])
        .ok()
        .json();
    assert_eq!(del["deleted"], false, "{del}");
    assert_openapi_conformance(&emu);
}

#[test]
fn three_sessions_are_served_warm_and_a_fourth_cold() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let emu = Emu::start(&TestEnv::new(), &[]);
    // The pool refills after 5 s: the fourth create finds it empty.
    set_settings(&emu, serde_json::json!({"warm_refill_ms": 5000}));
    let env = orch_env(&emu);
    env.run(&["snapshot", "build"]).ok();
    env.run(&["snapshot", "warm-pool", "set", "3"]).ok();
    wait_ready(&env, &emu, 3);
    let warm = warm_ids(&emu);
    // A pool's sandboxes have waited a while; the orchestrator counts a create as served warm
    // when its sandbox is older than the request by more than the clock skew it allows (2 s).
    std::thread::sleep(Duration::from_secs(3));
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let addr = format!("127.0.0.1:{port}");
    let mut orch = Orch::start(
        &env,
        &[
            "--provider",
            "daytona",
            "--max-concurrent-sessions",
            "4",
            "--metrics-addr",
            &addr,
        ],
    );
    let sessions: Vec<String> = (0..4)
        .map(|i| new_session(&emu, Some(proof_task(&format!("warm-{i}")))))
        .collect();
    for s in &sessions {
        wait_until(WAIT, "the task", || tasks_done(&emu, s), || orch.log());
    }
    let daytona = provider(&emu);
    let mut served_warm = 0;
    for s in &sessions {
        let sb = block_on(daytona.get(&sandbox_name(s)))
            .unwrap()
            .expect("sandbox");
        // Named and labelled as usual, whichever way it was created.
        assert_eq!(sb.name, sandbox_name(s));
        assert_eq!(sb.labels.get("devin.session_id"), Some(s));
        if warm.contains(&sb.id) {
            served_warm += 1;
        }
    }
    assert_eq!(served_warm, 3, "warm {warm:?}\n{}", orch.log());
    // The orchestrator saw which creates were served warm.
    let metrics = block_on(async {
        reqwest::get(format!("http://{addr}/metrics"))
            .await?
            .text()
            .await
    })
    .expect("metrics");
    for (served, n) in [("warm", 3), ("cold", 1)] {
        let line = format!("outposts_sandbox_creates_total{{served=\"{served}\"}} {n}");
        assert!(metrics.contains(&line), "no `{line}` in\n{metrics}");
    }
    // `orchestrator status` says which sessions were served warm.
    let status = env.run(&["orchestrator", "status", "--json"]).ok().json();
    let flags: Vec<bool> = status["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["served_warm"].as_bool().unwrap_or(false))
        .collect();
    assert_eq!(
        (flags.len(), flags.iter().filter(|w| **w).count()),
        (4, 3),
        "{status}"
    );
    // The pool refills itself with new sandboxes.
    wait_ready(&env, &emu, 3);
    let refilled = warm_ids(&emu);
    assert!(refilled.iter().all(|id| !warm.contains(id)), "{refilled:?}");
    orch.kill();
}

#[test]
fn a_create_with_custom_env_is_never_served_warm() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, env, name) = crate::support::orch::emulator_with_snapshot();
    env.run(&["snapshot", "warm-pool", "set", "1"]).ok();
    wait_ready(&env, &emu, 1);
    let warm = warm_ids(&emu);
    let daytona = client(&emu);
    let create = |env_vars: Option<BTreeMap<String, String>>, n: &str| {
        block_on(daytona.create_sandbox(&CreateSandbox {
            name: Some(n.into()),
            snapshot: Some(name.clone()),
            env: env_vars,
            ..Default::default()
        }))
        .expect("create")
    };
    let custom = create(Some(BTreeMap::from([("A".into(), "b".into())])), "with-env");
    assert!(
        !warm.contains(&custom.id),
        "served warm despite a custom env"
    );
    assert_eq!(warm_ids(&emu), warm, "the pool kept its sandbox");
    // The same create without the env takes it: the pool was there to serve.
    let plain = create(None, "plain");
    assert!(warm.contains(&plain.id), "{warm:?} {}", plain.id);
    assert_eq!(plain.name, "plain");
}
