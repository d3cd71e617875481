//! Devin sessions through the public v3 API (issue 23): `session verify --create` end to end
//! with `orchestrator run` on the local provider, its failure modes (mismatch, stall, missing or
//! under-permissioned DEVIN_API_KEY), `session create|show|end`, and `outpost default`.

use std::collections::BTreeMap;
use std::time::Duration;

use outposts::orchestrator::sandbox_name;
use outposts::provider::Provider;

use crate::support::orch::{Orch, local, orch_env, wait_until};
use crate::support::{Emu, TestEnv, block_on};

/// `session verify --create` on the local provider with these extra arguments.
fn verify_create(env: &TestEnv, extra: &[&str]) -> crate::support::Run {
    let mut args = vec!["session", "verify", "--create", "--provider", "local"];
    args.extend_from_slice(extra);
    env.run(&args)
}

fn v3_requests(emu: &Emu, method: &str) -> Vec<String> {
    emu.requests()
        .into_iter()
        .filter(|r| r.path.contains("/organizations/") && r.method == method)
        .map(|r| r.path)
        .collect()
}

/// The fleet session behind a v3 id ends `terminated`.
fn fleet_status(emu: &Emu, id: &str) -> String {
    block_on(emu.client().session(id))
        .expect("admin read")
        .map(|s| s.session_status)
        .unwrap_or_default()
}

#[test]
fn verify_create_proves_an_orchestrated_local_session_and_ends_it() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let emu_env = TestEnv::new();
    let emu = Emu::start(&emu_env, &[]);
    let env = orch_env(&emu);
    let mut orch = Orch::start(&env, &["--provider", "local"]);

    let run = verify_create(&env, &["--wait", "90s", "--json"]);
    run.ok();
    let doc = run.json();
    assert_eq!(doc["result"], "match", "{}", run.stderr);
    assert_eq!(doc["exit_code"], 0);
    assert_eq!(doc["session_ended"], true);
    assert_eq!(
        doc["outpost_name"], "emulator",
        "OUTPOST_ID resolved to its name"
    );
    let id = doc["session_id"].as_str().unwrap().to_string();
    assert_eq!(doc["sandbox"]["name"], sandbox_name(&id));
    let stages: Vec<&str> = doc["stages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["stage"].as_str().unwrap())
        .collect();
    assert_eq!(stages, ["queued", "claimed", "running", "proof_found"]);
    // Narration on stderr, in order.
    let at = |needle: &str| {
        run.stderr
            .find(needle)
            .unwrap_or_else(|| panic!("no {needle:?} in {}", run.stderr))
    };
    assert!(at("] queued") < at("] claimed") && at("] claimed") < at("] running"));
    assert!(at("] running") < at("] proof file found"));
    // The session was created with the outpost's name as platform, then ended through the API.
    let created = emu
        .requests()
        .into_iter()
        .find(|r| r.method == "POST" && r.path.ends_with("/sessions"))
        .expect("create request");
    let body: serde_json::Value = serde_json::from_str(created.body.as_deref().unwrap()).unwrap();
    assert_eq!(body["platform"], "emulator");
    assert_eq!(v3_requests(&emu, "DELETE").len(), 1);
    assert_eq!(fleet_status(&emu, &id), "terminated");
    // The orchestrator deletes the terminated session's sandbox.
    let local = local(&env);
    wait_until(
        Duration::from_secs(30),
        "the orchestrator to delete the proof sandbox",
        || block_on(local.list(&BTreeMap::new())).unwrap().is_empty(),
        || orch.log(),
    );
    // The key never reached the sandbox, the orchestrator or the output.
    let key = emu.env_value("DEVIN_API_KEY");
    // The invariant checker's secret list (the emulator's issued secrets) holds the v3 key.
    assert!(block_on(emu.client().secrets()).unwrap().contains(&key));
    assert!(!run.all().contains(&key));
    assert!(!orch.log().contains(&key));
    let (code, _) = orch.terminate(Duration::from_secs(35));
    assert_eq!(code, Some(0), "{}", orch.log());
}

#[test]
fn a_devin_that_writes_another_text_fails_with_both_values_and_keep_session_sends_no_delete() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let emu_env = TestEnv::new();
    let emu = Emu::start(&emu_env, &[]);
    let env = orch_env(&emu);
    let _orch = Orch::start(&env, &["--provider", "local"]);
    block_on(
        emu.client()
            .v3_settings(&serde_json::json!({"proof_override": "something-else"})),
    )
    .unwrap();

    let run = verify_create(&env, &["--wait", "90s", "--proof", "outpost-proof-abc"]);
    run.code(3);
    assert!(run.stdout.contains("mismatch"), "{}", run.stdout);
    assert!(
        run.stdout.contains("expected: \"outpost-proof-abc\"")
            && run.stdout.contains("found:    \"something-else\""),
        "{}",
        run.stdout
    );
    assert_eq!(
        v3_requests(&emu, "DELETE").len(),
        1,
        "ended after a mismatch"
    );

    let run = verify_create(&env, &["--wait", "90s", "--keep-session", "--json"]);
    run.code(3);
    let id = run.json()["session_id"].as_str().unwrap().to_string();
    assert_eq!(
        v3_requests(&emu, "DELETE").len(),
        1,
        "--keep-session sent a DELETE"
    );
    assert_eq!(fleet_status(&emu, &id), "running");
    assert!(run.stderr.contains("keeping session"), "{}", run.stderr);
}

#[test]
fn a_session_nobody_serves_stalls_at_never_claimed_and_is_ended() {
    let emu_env = TestEnv::new();
    let emu = Emu::start(&emu_env, &[]);
    let mut env = TestEnv::new();
    emu.configure(&mut env);
    let run = verify_create(&env, &["--wait", "3s"]);
    run.code(3);
    assert!(run.stdout.contains("never claimed"), "{}", run.stdout);
    assert!(run.stderr.contains("] queued"), "{}", run.stderr);
    assert_eq!(v3_requests(&emu, "DELETE").len(), 1);
}

#[test]
fn credentials_a_missing_key_is_usage_and_a_key_without_the_permission_is_refused() {
    let emu_env = TestEnv::new();
    let emu = Emu::start(&emu_env, &[]);
    let mut env = TestEnv::new();
    emu.configure(&mut env);

    env.unset("DEVIN_API_KEY");
    let run = verify_create(&env, &["--wait", "5s"]);
    run.code(2);
    assert!(run.stderr.contains("DEVIN_API_KEY"), "{}", run.stderr);
    assert!(
        emu.requests()
            .iter()
            .all(|r| !r.path.contains("/organizations/"))
    );

    let key = block_on(emu.client().v3_key(&["ViewOrgSessions"], "no manage")).unwrap();
    env.set("DEVIN_API_KEY", key.expose());
    let run = verify_create(&env, &["--wait", "5s"]);
    run.code(4);
    assert!(
        run.stderr.contains("DEVIN_API_KEY") && run.stderr.contains("ManageOrgSessions"),
        "{}",
        run.stderr
    );
    assert!(
        !run.stderr.contains("DEVIN_OUTPOSTS_TOKEN"),
        "{}",
        run.stderr
    );
    assert!(!run.all().contains(key.expose()));

    // doctor names the permission a key lacks (its cheap read needs ViewOrgSessions).
    let key = block_on(emu.client().v3_key(&["ManageOrgSessions"], "no view")).unwrap();
    env.set("DEVIN_API_KEY", key.expose());
    let run = env.run(&["doctor", "--json"]);
    let doc = run.json();
    let check = doc["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "api_key")
        .cloned()
        .unwrap();
    assert_eq!(check["status"], "fail", "{check}");
    assert!(
        check["message"]
            .as_str()
            .unwrap()
            .contains("ViewOrgSessions"),
        "{check}"
    );

    // A fleet token where the v3 key belongs is refused as DEVIN_API_KEY.
    env.set("DEVIN_API_KEY", emu.env_value("DEVIN_OUTPOSTS_TOKEN"));
    let run = env.run(&["session", "show", "devin-x"]);
    run.code(4);
    assert!(
        run.stderr.contains("refused DEVIN_API_KEY"),
        "{}",
        run.stderr
    );
}

#[test]
fn session_create_show_end_and_unknown_outposts() {
    let emu_env = TestEnv::new();
    let emu = Emu::start(&emu_env, &[]);
    let mut env = TestEnv::new();
    emu.configure(&mut env);

    let run = env.run(&["session", "create", "--prompt", "hi", "--outpost", "nosuch"]);
    assert_ne!(run.code, 0);
    assert!(
        run.stderr.contains("HTTP 400")
            && run.stderr.contains("emulator")
            && run.stderr.contains("linux"),
        "{}",
        run.stderr
    );
    assert!(
        block_on(emu.client().sessions()).unwrap().is_empty(),
        "nothing queued"
    );

    let run = env.run(&[
        "session",
        "create",
        "--prompt",
        "sh: true",
        "--tag",
        "t1",
        "--outpost",
        "EMULATOR",
    ]);
    run.ok();
    let id = run.stdout.trim().to_string();
    assert!(id.starts_with("devin-"), "{id}");
    let info = block_on(emu.client().session(&id))
        .unwrap()
        .expect("queued in the outpost");
    assert_eq!(info.phase, "pending");

    let run = env.run(&["session", "show", &id, "--json"]);
    run.ok();
    let doc = run.json();
    assert_eq!(doc["session"]["status"], "new");
    assert_eq!(doc["session"]["tags"][0], "t1");
    assert_eq!(doc["fleet"]["phase"], "pending");

    let run = env.run(&["session", "end", &id, "--archive", "--json"]);
    run.ok();
    assert_eq!(run.json()["status"], "exit");
    assert_eq!(fleet_status(&emu, &id), "terminated");
    let run = env.run(&["session", "show", "devin-nosuch"]);
    run.code(1);
    assert!(run.stderr.contains("404"), "{}", run.stderr);
}

#[test]
fn outpost_default_set_clear_round_trip_and_a_personal_outpost_is_refused() {
    let emu_env = TestEnv::new();
    let emu = Emu::start(&emu_env, &[]);
    let mut env = TestEnv::new();
    emu.configure(&mut env);

    let run = env.run(&["outpost", "default", "--json"]);
    run.ok();
    assert_eq!(run.json()["outpost_pool_id"], serde_json::Value::Null);

    let run = env.run(&["outpost", "default", "set", "emulator", "--json"]);
    run.ok();
    assert_eq!(run.json()["outpost_pool_name"], "emulator");
    let run = env.run(&["outpost", "default"]);
    run.ok();
    assert!(run.stdout.contains("outpost emulator"), "{}", run.stdout);
    // A session created without an outpost now lands in the default outpost's queue.
    env.unset("OUTPOST_ID");
    let run = env.run(&["session", "create", "--prompt", "hi"]);
    run.ok();
    assert!(
        block_on(emu.client().session(run.stdout.trim()))
            .unwrap()
            .is_some()
    );

    block_on(emu.client().add_outpost("mine", true)).unwrap();
    let run = env.run(&["outpost", "default", "set", "mine"]);
    // A value the organisation refuses (HTTP 400) is a configuration error.
    run.code(2);
    assert!(
        run.stderr.contains("personal")
            && run.stderr.contains("accepted: ")
            && run.stderr.contains("linux"),
        "{}",
        run.stderr
    );

    let run = env.run(&["outpost", "default", "clear", "--json"]);
    run.ok();
    assert_eq!(run.json()["outpost_pool_id"], serde_json::Value::Null);

    let key = block_on(emu.client().v3_key(&["ManageOrgSessions"], "no settings")).unwrap();
    env.set("DEVIN_API_KEY", key.expose());
    let run = env.run(&["outpost", "default"]);
    run.code(4);
    assert!(run.stderr.contains("ManageOrgSettings"), "{}", run.stderr);
}

/// `session create` names an outpost the way `session verify --create` does (one resolver): an
/// `outpost_env-…` id without DEVIN_OUTPOSTS_TOKEN goes as the platform, and the 400 listing
/// the outposts the organisation accepts gives its name for the one create that succeeds.
#[test]
fn session_create_names_an_outpost_id_without_the_fleet_token() {
    let emu_env = TestEnv::new();
    let emu = Emu::start(&emu_env, &[]);
    let mut env = TestEnv::new();
    emu.configure(&mut env);
    let id = emu.env_value("OUTPOST_ID");
    assert!(id.starts_with("outpost_env-"), "{id}");
    env.unset("DEVIN_OUTPOSTS_TOKEN").unset("OUTPOST_ID");

    let run = env.run(&["session", "create", "--prompt", "hi", "--outpost", &id]);
    run.ok();
    let session = run.stdout.trim().to_string();
    assert!(session.starts_with("devin-"), "{session}");
    let platforms: Vec<(u16, serde_json::Value)> = emu
        .requests()
        .into_iter()
        .filter(|r| r.method == "POST" && r.path.ends_with("/sessions"))
        .map(|r| {
            let body: serde_json::Value = r
                .body
                .as_deref()
                .and_then(|b| serde_json::from_str(b).ok())
                .unwrap_or_default();
            (r.status, body["platform"].clone())
        })
        .collect();
    let created: Vec<_> = platforms.iter().filter(|(s, _)| *s == 200).collect();
    assert_eq!(created.len(), 1, "{platforms:?}");
    assert_eq!(created[0].1, "emulator", "{platforms:?}");
    assert!(
        block_on(emu.client().session(&session)).unwrap().is_some(),
        "queued in the outpost"
    );

    // The same id from OUTPOST_ID, as `session verify --create` reads it.
    env.set("OUTPOST_ID", &id);
    env.run(&["session", "create", "--prompt", "hi"]).ok();
}
