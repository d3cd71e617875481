//! Issue 24, as a newcomer meets fixed workers: every later command finds a worker without
//! `--provider`, so each hint runs as printed (item 6); a launch that cannot serve is refused
//! before anything is created or stopped after, and health shows in `status` and `list` (item 8).

use std::time::Duration;

use crate::support::{Emu, TestEnv, block_on};
use crate::worker_common::*;

/// A sealed env on a fresh emulator with no OUTPOSTS_PROVIDER: the default would be Daytona.
/// The secret store holds `outposts:BAD`, a token the Devin API rejects.
fn setup_without_default() -> (TestEnv, Emu) {
    let (mut env, emu) = setup("daytona");
    env.unset("OUTPOSTS_PROVIDER");
    put_secret(&emu, "outposts", "BAD", "wrong-token-0123456789abcdef");
    (env, emu)
}

/// `worker launch --json --provider coreweave --outpost emulator` (the name): its document.
fn launch_on_coreweave(env: &TestEnv) -> serde_json::Value {
    let launched = env.run(&[
        "--json",
        "worker",
        "launch",
        "--provider",
        "coreweave",
        "--outpost",
        "emulator",
    ]);
    launched.ok();
    launched.json()
}

/// `worker launch` on CoreWeave whose token (from a secret store, not checkable before) the
/// Devin API rejects: it exits 4 and prints the worker's id.
fn launch_with_a_rejected_token(env: &TestEnv) -> (crate::support::Run, String) {
    let failed = env.run(&[
        "worker",
        "launch",
        "--provider",
        "coreweave",
        "--outpost",
        "emulator",
        "--secret",
        "outposts:BAD",
        "--wait-timeout",
        "60",
    ]);
    assert_eq!(failed.code, 4, "{failed:?}");
    // A failed launch prints no id on stdout (no result); the progress on stderr names it.
    assert_eq!(failed.stdout.trim(), "", "{failed:?}");
    let id = failed
        .stderr
        .lines()
        .find_map(|l| {
            l.strip_prefix("created ")?
                .split_once(" (")?
                .1
                .strip_suffix(')')
        })
        .expect("the created worker on stderr")
        .to_string();
    (failed, id)
}

/// Item 6: launched on CoreWeave, then found by the bare commands the tool prints — also when
/// the memory of the launch is lost (the configured providers are searched).
#[test]
fn worker_commands_find_the_provider_themselves() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (env, _emu) = setup_without_default();
    let launched = launch_on_coreweave(&env);
    let id = launched["workers"][0]["id"].as_str().unwrap().to_string();
    // `list workers with outposts worker list`
    let list = env.run(&["worker", "list"]);
    list.ok();
    assert!(list.stdout.contains(&id), "{}", list.stdout);
    assert!(list.stdout.contains("coreweave"), "{}", list.stdout);
    assert!(list.stdout.contains("serving"), "{}", list.stdout);
    // Piped, every column is printed (the 80-column fit on a terminal is first_hour_tty's).
    // `see outposts worker logs ID`
    let logs = env.run(&["worker", "logs", &id]);
    logs.ok();
    assert!(logs.stdout.contains("Worker ready"), "{}", logs.stdout);
    env.run(&["worker", "status", &id]).ok();
    env.run(&["worker", "exec", &id, "--", "true"]).ok();
    // Memory lost: found by searching the configured providers.
    std::fs::remove_file(env.path("state/workers.json")).unwrap();
    let st = env.run(&["worker", "status", &id]);
    st.ok();
    assert!(st.stdout.contains("coreweave"), "{}", st.stdout);
    // `stop these workers with outposts worker stop ID --yes`
    env.run(&["worker", "stop", &id, "--yes"]).ok();
    let unknown = env.run(&["worker", "status", "sb-doesnotexist"]);
    assert_eq!(unknown.code, 2, "{unknown:?}");
    assert!(
        unknown.stderr.contains("outposts worker list"),
        "{}",
        unknown.stderr
    );
}

/// Item 8: a token the Devin API rejects is caught before a sandbox exists; an outpost that does
/// not exist too.
#[test]
fn a_rejected_token_or_unknown_outpost_creates_nothing() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (mut env, _emu) = setup_without_default();
    let unknown = env.run(&[
        "worker",
        "launch",
        "--provider",
        "coreweave",
        "--outpost",
        "gpu-typo",
    ]);
    assert_eq!(unknown.code, 2, "{unknown:?}");
    assert!(
        unknown.stderr.contains("no worker was created"),
        "{}",
        unknown.stderr
    );
    env.set("DEVIN_OUTPOSTS_TOKEN", "wrong-token-0123456789abcdef");
    let launched = env.run(&[
        "worker",
        "launch",
        "--provider",
        "coreweave",
        "--outpost",
        "emulator",
    ]);
    assert_eq!(launched.code, 4, "{launched:?}");
    assert!(
        launched.stderr.contains("no worker was created"),
        "{}",
        launched.stderr
    );
    let list = env.run(&["--json", "worker", "list", "--provider", "coreweave"]);
    list.ok();
    assert_eq!(list.json(), serde_json::json!([]), "a sandbox was created");
}

/// Item 8: a worker whose token (from a secret store, not checkable here) is rejected is stopped
/// by the failed launch; one launched with --no-wait stays, and reads unhealthy in `status`
/// (non-zero exit) and `list`.
#[test]
fn a_worker_that_cannot_serve_is_stopped_or_reads_unhealthy() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (env, _emu) = setup_without_default();
    let (failed, id) = launch_with_a_rejected_token(&env);
    assert!(
        failed.stderr.contains(&format!("stopped {id}")),
        "{}",
        failed.stderr
    );
    let list = env.run(&["--json", "worker", "list"]);
    list.ok();
    assert!(
        list.json()
            .as_array()
            .unwrap()
            .iter()
            .all(|w| w["id"] != id.as_str() || w["state"] != "started"),
        "left running: {}",
        list.stdout
    );

    let kept = env.run(&[
        "worker",
        "launch",
        "--provider",
        "coreweave",
        "--outpost",
        "emulator",
        "--secret",
        "outposts:BAD",
        "--no-wait",
    ]);
    kept.ok();
    let id = kept.stdout.trim().to_string();
    let st = wait_for(Duration::from_secs(60), "the auth failure", || {
        let r = env.run(&["worker", "status", &id]);
        r.stdout.contains("authentication failed").then_some(r)
    });
    assert_eq!(
        st.code, 1,
        "an unhealthy worker's status exits non-zero: {st:?}"
    );
    let list = env.run(&["worker", "list"]);
    list.ok();
    let line = list
        .stdout
        .lines()
        .find(|l| l.starts_with(&id))
        .unwrap_or_default();
    assert!(line.contains("auth failed"), "{}", list.stdout);
    env.run(&["worker", "stop", &id, "--yes"]).ok();
}

/// The printed hint when a failed launch cannot stop its worker either (the provider refuses
/// the stop): the command in it is run exactly as printed, and it stops the worker.
#[test]
fn the_hint_of_a_stop_that_failed_runs_as_printed() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (env, emu) = setup_without_default();
    block_on(emu.client().add_faults(
        r#"[{"path": "/coreweave.sandbox.v1.SandboxService/DeleteSandbox", "times": 0,
             "action": {"kind": "status", "status": 503}}]"#,
    ))
    .unwrap();
    let (failed, id) = launch_with_a_rejected_token(&env);
    let hint = format!("`outposts worker stop {id} --yes`");
    assert!(failed.stderr.contains(&hint), "{}", failed.stderr);
    block_on(emu.client().clear_faults()).unwrap();
    // As printed: the text between the backticks, run by a shell.
    crate::first_hour::run_as_printed(&env, hint.trim_matches('`')).ok();
    let list = env.run(&["--json", "worker", "list"]);
    list.ok();
    assert!(
        list.json()
            .as_array()
            .unwrap()
            .iter()
            .all(|w| w["id"] != id.as_str() || w["state"] != "started"),
        "the printed command left it running: {}",
        list.stdout
    );
}

/// `worker launch --outpost NAME` resolves the name once: the workers are started for, and
/// labelled with, the outpost's id; `worker list --outpost` finds them by name or id.
#[test]
fn a_worker_outpost_is_resolved_once_to_its_id() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (env, emu) = setup_without_default();
    let outposts = block_on(emu.client().outposts()).expect("outposts");
    let id = outposts
        .iter()
        .find(|o| o["spec"]["name"] == "emulator")
        .and_then(|o| o["metadata"]["outpost_id"].as_str())
        .expect("the emulator outpost")
        .to_string();
    assert_ne!(id, "emulator");
    let launched = launch_on_coreweave(&env);
    let doc = launched;
    assert_eq!(doc["outpost"], id.as_str(), "{doc}");
    let worker = doc["workers"][0]["id"].as_str().unwrap().to_string();
    for wanted in ["emulator", id.as_str()] {
        let list = env.run(&["--json", "worker", "list", "--outpost", wanted]);
        list.ok();
        let rows = list.json();
        let rows = rows.as_array().unwrap();
        assert!(
            rows.iter()
                .any(|w| w["id"] == worker.as_str() && w["outpost"] == id.as_str()),
            "--outpost {wanted}: {}",
            list.stdout
        );
    }
    let unknown = env.run(&["worker", "list", "--outpost", "gpu-typo"]);
    assert_eq!(unknown.code, 2, "{unknown:?}");
    env.run(&["worker", "stop", &worker, "--yes"]).ok();
}
