//! `session verify --create` on the other providers: `orchestrator run` on emulated Daytona and
//! emulated CoreWeave (the session is ended and its sandbox deleted afterwards), and a fixed
//! worker on emulated CoreWeave (found by the claim's acceptor id, the worker's sandbox name).

use std::time::Duration;

use outposts::orchestrator::sandbox_name;
use outposts::provider::{Provider, SandboxState};

use crate::support::orch::{Orch, orch_emulator, orch_emulator_built, wait_until};
use crate::support::{Emu, TestEnv, block_on};
use crate::worker_common::{launch, setup};

const CW_IMAGE: &str = "public.ecr.aws/e0h8a4b6/devin-cli:stable";

fn verify_create(env: &TestEnv, provider: &str) -> serde_json::Value {
    let run = env.run(&[
        "session",
        "verify",
        "--create",
        "--provider",
        provider,
        "--wait",
        "120s",
        "--json",
    ]);
    run.ok();
    let doc = run.json();
    assert_eq!(doc["result"], "match", "{}", run.stderr);
    assert_eq!(doc["session_ended"], true);
    for stage in ["] queued", "] claimed", "] running", "] proof file found"] {
        assert!(run.stderr.contains(stage), "no {stage:?}: {}", run.stderr);
    }
    doc
}

fn fleet_status(emu: &Emu, id: &str) -> String {
    block_on(emu.client().session(id))
        .unwrap()
        .map(|s| s.session_status)
        .unwrap_or_default()
}

fn gone(p: &dyn Provider, name: &str) -> bool {
    match block_on(p.get(name)) {
        Ok(None) => true,
        Ok(Some(sb)) => sb.state == SandboxState::Deleted,
        Err(_) => false,
    }
}

#[test]
fn verify_create_on_emulated_daytona_ends_the_session_and_its_sandbox() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, env) = orch_emulator_built(&[]);
    let orch = Orch::start(&env, &["--provider", "daytona"]);
    let doc = verify_create(&env, "daytona");
    let id = doc["session_id"].as_str().unwrap().to_string();
    assert_eq!(doc["sandbox"]["name"], sandbox_name(&id));
    assert_eq!(fleet_status(&emu, &id), "terminated");
    let p = crate::support::daytona::provider(&emu);
    wait_until(
        Duration::from_secs(60),
        "the orchestrator to delete the Daytona sandbox",
        || gone(&p, &sandbox_name(&id)),
        || orch.log(),
    );
}

#[test]
fn verify_create_on_emulated_coreweave_ends_the_session_and_its_sandbox() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, mut env) = orch_emulator(&[]);
    env.set("WORKDIR", "/workspace");
    let orch = Orch::start(&env, &["--provider", "coreweave", "--image", CW_IMAGE]);
    let doc = verify_create(&env, "coreweave");
    let id = doc["session_id"].as_str().unwrap().to_string();
    assert_eq!(doc["sandbox"]["name"], sandbox_name(&id));
    assert_eq!(fleet_status(&emu, &id), "terminated");
    // The CoreWeave provider keeps a deleted sandbox readable for a while: the orchestrator's
    // own event says it deleted it.
    let deleted = format!("\"event\":\"sandbox_deleted\",\"session\":\"{id}\"");
    wait_until(
        Duration::from_secs(60),
        "the orchestrator to delete the CoreWeave sandbox",
        || orch.log().contains(&deleted),
        || orch.log(),
    );
}

#[test]
fn verify_create_with_a_fixed_worker_on_emulated_coreweave_reads_the_workers_sandbox() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (env, emu) = setup("coreweave");
    let (workers, doc) = launch(&env, &[]);
    let worker_name = doc["workers"][0]["name"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let run_doc = verify_create(&env, "coreweave");
    let id = run_doc["session_id"].as_str().unwrap().to_string();
    // The claim names the worker whose sandbox holds the file.
    assert_eq!(run_doc["sandbox"]["id"], workers[0].as_str(), "{run_doc}");
    assert_eq!(run_doc["sandbox"]["name"], worker_name.as_str());
    let history = block_on(emu.client().history(Some(&id))).unwrap();
    let claim = history
        .iter()
        .find(|h| h.event == "claim")
        .expect("a claim");
    assert_eq!(claim.acceptor_id.as_deref(), Some(worker_name.as_str()));
    assert_eq!(fleet_status(&emu, &id), "terminated");
    env.run(&["worker", "stop", &workers[0], "--yes"]).ok();
}
