//! The emulated brain (`outposts emulator session …`, `emulator status`), outposts CRUD on both
//! documented paths, scopes, and `--state` persistence.

use outposts::api::devin::{DeleteOutcome, DevinClient, Platform};
use outposts::api::http::{self, ApiRequest};
use outposts::api::{ApiError, HttpClient, HttpOptions};
use outposts::secrets::Secret;

use crate::devin_queue::devin_client;
use crate::support::{Emu, TestEnv, block_on, emulated_env};

fn orchestrator_client(emu: &Emu) -> DevinClient {
    DevinClient::new(
        outposts::settings::DevinSettings::new(
            &emu.base_url,
            Secret::new(emu.env_value("DEVIN_OUTPOST_CREATE_TOKEN")),
        ),
        HttpClient::new(HttpOptions::default()).unwrap(),
    )
}

#[test]
fn session_commands_drive_the_lifecycle() {
    let (env, emu) = emulated_env(&["--sweep-delay", "100ms"]);
    let r = env.run(&[
        "--json",
        "emulator",
        "session",
        "new",
        "--count",
        "2",
        "--platform",
        "windows",
        "--sha",
        "412f0e9b19",
    ]);
    r.ok();
    let created = r.json();
    let created = created.as_array().unwrap();
    assert_eq!(created.len(), 2);
    assert_eq!(created[0]["platform"], "windows");
    assert_eq!(created[0]["remote_binary_sha"], "412f0e9b19");
    let id = created[0]["session_id"].as_str().unwrap().to_string();
    let e = block_on(devin_client(&emu).get(&id)).unwrap().unwrap();
    assert_eq!(e.platform, Platform::Windows);
    assert_eq!(e.remote_binary_sha.as_deref(), Some("412f0e9b19"));

    let r = env.run(&["--json", "emulator", "session", "suspend", &id]);
    r.ok();
    assert_eq!(r.json()["session_status"], "suspended");
    // Suspending twice is refused with a clear message.
    let again = env.run(&["emulator", "session", "suspend", &id]);
    again.code(1);
    assert!(
        again.stderr.contains("already suspended"),
        "{}",
        again.stderr
    );
    std::thread::sleep(std::time::Duration::from_millis(600));
    assert!(
        block_on(devin_client(&emu).get(&id)).unwrap().is_none(),
        "swept"
    );

    let r = env.run(&["--json", "emulator", "session", "resume", &id]);
    r.ok();
    let resumed = r.json();
    assert_eq!(resumed["kind"], "resume");
    assert_eq!(resumed["generation"], 2);
    assert_eq!(resumed["session_status"], "pending");
    assert_eq!(resumed["platform"], "windows");
    let e = block_on(devin_client(&emu).get(&id)).unwrap().unwrap();
    assert_eq!(e.kind.as_str(), "resume");

    let r = env.run(&["emulator", "session", "terminate", &id]);
    r.ok();
    assert!(r.stdout.contains("terminated"), "{}", r.stdout);

    let t = env.run(&[
        "--json",
        "emulator",
        "session",
        "task",
        &id,
        "Do something clever",
    ]);
    t.ok();
    assert_eq!(t.json()["status"], "failed");
    assert!(t.stderr.contains("understands only"), "{}", t.stderr);

    let list = env.run(&["--json", "emulator", "session", "list"]);
    list.ok();
    assert_eq!(list.json().as_array().unwrap().len(), 2);
    let human = env.run(&["emulator", "session", "list"]);
    human.ok();
    assert!(human.stdout.starts_with("SESSION"), "{}", human.stdout);

    let status = env.run(&["--json", "emulator", "status"]);
    status.ok();
    let doc = status.json();
    assert_eq!(doc["outposts"].as_array().unwrap().len(), 1);
    assert_eq!(doc["sessions"].as_array().unwrap().len(), 2);
    let human = env.run(&["emulator", "status"]);
    human.ok();
    assert!(human.stdout.contains("OUTPOST") && human.stdout.contains("emulator"));

    let history = block_on(emu.client().history(Some(&id))).unwrap();
    let generations: Vec<u32> = history
        .iter()
        .filter(|h| h.event == "enqueue")
        .map(|h| h.generation)
        .collect();
    assert_eq!(generations, vec![1, 2]);
    assert!(history.iter().any(|h| h.event == "remove"));

    let bad = env.run(&["emulator", "session", "new", "--platform", "beos"]);
    bad.code(1);
    assert!(bad.stderr.contains("platform"), "{}", bad.stderr);
    let unknown = env.run(&["emulator", "session", "suspend", "devin-nope"]);
    unknown.code(1);
    assert!(unknown.stderr.contains("devin-nope"), "{}", unknown.stderr);
}

#[test]
fn outposts_crud_on_both_paths_with_scopes_and_live_counts() {
    let (env, emu) = emulated_env(&[]);
    let orch = orchestrator_client(&emu);
    let machine = devin_client(&emu);
    let created =
        block_on(orch.create_outpost("gpu-h200", Some(Platform::Linux), Some("H200 boxes")))
            .unwrap();
    assert!(created.outpost_id.starts_with("outpost_env-"));
    assert_eq!(created.name.as_deref(), Some("gpu-h200"));
    // Duplicate names: 409 (case-insensitive).
    match block_on(orchestrator_client(&emu).create_outpost("GPU-H200", None, None)) {
        Err(ApiError::Conflict { message, .. }) => assert!(message.contains("already exists")),
        other => panic!("{other:?}"),
    }
    // The machine token reads but cannot create or delete.
    match block_on(machine.create_outpost("nope", None, None)) {
        Err(ApiError::Unauthorized {
            status: 403,
            message,
            ..
        }) => {
            assert!(message.contains("orchestrator"), "{message}")
        }
        other => panic!("{other:?}"),
    }
    let all = block_on(devin_client(&emu).list_outposts()).unwrap();
    assert_eq!(all.len(), 2);

    // The doubled documented path serves the same resources.
    let raw =
        |method: reqwest::Method, path: &str, token: &str, body: Option<serde_json::Value>| {
            block_on(async {
                let mut req =
                    ApiRequest::new(http::DEVIN, method, format!("{}{path}", emu.base_url))
                        .bearer(&Secret::new(token));
                if let Some(b) = body {
                    req = req.json(&b);
                }
                HttpClient::new(HttpOptions::default())
                    .unwrap()
                    .send(req)
                    .await
            })
        };
    let orch_token = emu.env_value("DEVIN_OUTPOST_CREATE_TOKEN");
    let made = raw(
        reqwest::Method::POST,
        "/opbeta/outposts/outposts",
        &orch_token,
        Some(serde_json::json!({"name": "rhel", "platform": "linux", "description": "d"})),
    )
    .unwrap()
    .json_value()
    .unwrap();
    let rhel = made["metadata"]["outpost_id"].as_str().unwrap().to_string();
    let got = raw(
        reqwest::Method::GET,
        &format!("/opbeta/outposts/outposts/{rhel}"),
        &emu.env_value("DEVIN_OUTPOSTS_TOKEN"),
        None,
    )
    .unwrap()
    .json_value()
    .unwrap();
    assert_eq!(got["spec"]["name"], "rhel");
    let listed = raw(
        reqwest::Method::GET,
        "/opbeta/outposts/outposts?first=2",
        &orch_token,
        None,
    )
    .unwrap()
    .json_value()
    .unwrap();
    assert_eq!(listed["items"].as_array().unwrap().len(), 2);
    assert_eq!(listed["has_next_page"], true);
    assert_eq!(listed["total"], 3);
    assert!(listed["end_cursor"].is_string());

    // Live counts.
    let r = env.run(&[
        "emulator",
        "session",
        "new",
        "--outpost",
        "rhel",
        "--count",
        "2",
    ]);
    r.ok();
    let first = r.stdout.lines().next().unwrap().to_string();
    block_on(devin_client(&emu).claim(&first, "acc-a")).unwrap();
    let o = block_on(devin_client(&emu).get_outpost(&rhel))
        .unwrap()
        .unwrap();
    assert_eq!((o.queue_depth, o.active_claims), (Some(1), Some(1)));
    let r = env.run(&["queue", "list", "--json", "--outpost", &rhel]);
    r.ok();
    assert_eq!(r.json().as_array().unwrap().len(), 2);

    // Delete on the doubled path; the client sees it gone on the short one.
    raw(
        reqwest::Method::DELETE,
        &format!("/opbeta/outposts/outposts/{rhel}"),
        &orch_token,
        None,
    )
    .unwrap();
    assert!(
        block_on(devin_client(&emu).get_outpost(&rhel))
            .unwrap()
            .is_none()
    );
    assert_eq!(
        block_on(orchestrator_client(&emu).delete_outpost(&rhel)).unwrap(),
        DeleteOutcome::AlreadyGone
    );
    assert_eq!(
        block_on(orchestrator_client(&emu).delete_outpost(&created.outpost_id)).unwrap(),
        DeleteOutcome::Deleted
    );
    let bad = raw(
        reqwest::Method::GET,
        "/opbeta/outposts",
        "cog_bogus000000000000",
        None,
    );
    assert!(matches!(
        bad,
        Err(ApiError::Unauthorized { status: 401, .. })
    ));
}

#[test]
fn state_survives_a_restart() {
    let mut env = TestEnv::new();
    let state = env.path("emu-state.json");
    let state_arg = state.to_str().unwrap().to_string();
    let (token, id) = {
        let emu = Emu::start(&env, &["--state", &state_arg]);
        emu.configure(&mut env);
        let r = env.run(&["emulator", "session", "new", "--task", "sh: true"]);
        r.ok();
        let id = r.stdout.trim().to_string();
        block_on(devin_client(&emu).claim(&id, "acc-a")).unwrap();
        (emu.env_value("DEVIN_OUTPOSTS_TOKEN"), id)
        // Dropping the emulator sends SIGTERM: it saves the state.
    };
    let meta = std::fs::metadata(&state).expect("state file written at exit");
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(meta.permissions().mode() & 0o777, 0o600);
    let emu = Emu::start(&env, &["--state", &state_arg]);
    assert_eq!(emu.env_value("DEVIN_OUTPOSTS_TOKEN"), token);
    let e = block_on(devin_client(&emu).get(&id))
        .unwrap()
        .expect("restored");
    assert_eq!(e.acceptor_id.as_deref(), Some("acc-a"));
    let s = block_on(emu.client().session(&id)).unwrap().unwrap();
    assert_eq!(s.tasks.len(), 1);
    drop(emu);
    // A corrupt state file is an error naming the file, not a silent reset.
    std::fs::write(&state, "{ not json").unwrap();
    let r = env.run(&["emulator", "start", "--port", "0", "--state", &state_arg]);
    r.code(2);
    assert!(r.stderr.contains("emu-state.json"), "{}", r.stderr);
}

#[test]
fn every_devin_command_has_examples_in_its_help() {
    let env = TestEnv::new();
    for cmd in [
        vec!["queue"],
        vec!["queue", "list"],
        vec!["queue", "watch"],
        vec!["emulator", "status"],
        vec!["emulator", "session"],
        vec!["emulator", "session", "new"],
        vec!["emulator", "session", "list"],
        vec!["emulator", "session", "suspend"],
        vec!["emulator", "session", "resume"],
        vec!["emulator", "session", "terminate"],
        vec!["emulator", "session", "task"],
    ] {
        let mut args = cmd.clone();
        args.push("--help");
        let r = env.run(&args);
        r.ok();
        assert!(r.stdout.contains("Examples:"), "{cmd:?}: {}", r.stdout);
    }
}
