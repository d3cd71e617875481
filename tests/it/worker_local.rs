//! Fixed workers on the local provider (bubblewrap sandboxes on this machine) and on the
//! emulated Daytona (no main command: the worker runs detached through an exec), both serving
//! the emulator's queue with its fake `devin` CLI.

use std::time::Duration;

use crate::support::{TestEnv, block_on};
use crate::worker_common::*;

/// Launch one worker, serve one session with a shell task, and check status and logs.
fn serve_one(env: &mut TestEnv, emu: &crate::support::Emu, mode: &str) -> String {
    env.set("DEVIN_CHROME_PATH", "/opt/chrome/chrome");
    let (ids, doc) = launch(env, &["--env", "WORKER_EXTRA=extra-1"]);
    assert_eq!(doc["mode"], mode, "{doc}");
    assert_eq!(doc["workers"][0]["readiness"]["result"], "ready", "{doc}");
    let id = ids[0].clone();
    let sid = new_session(
        env,
        "sh: echo served > /workspace/served.txt; echo chrome=$DEVIN_CHROME_PATH account=${DEVIN_OUTPOSTS_TOKEN:-none} extra=${WORKER_EXTRA:-none}",
    );
    wait_for(Duration::from_secs(60), "the session served", || {
        task_done(&session(emu, &sid)).then_some(())
    });
    // The remote gets the documented environment only: the chrome path, never the account
    // token (nor the worker's other variables).
    let out = session(emu, &sid).tasks[0].output.clone().unwrap();
    let mut out = out.trim().to_string();
    // Unisolated, the sandbox path is mapped onto the sandbox's directory on the host.
    if crate::support::host::unisolated()
        && let (Some(a), Some(b)) = (out.find("chrome=/"), out.find("/fs/opt/chrome/chrome"))
    {
        out.replace_range(a + "chrome=".len()..b + "/fs".len(), "");
    }
    assert_eq!(out, "chrome=/opt/chrome/chrome account=none extra=none");
    let st = status(env, &id);
    assert_eq!(st["serving"], true, "{st}");
    assert_eq!(st["mode"], mode);
    assert_eq!(st["restart_count"], 0);
    // Launched with the outpost's name, labelled with its id (resolved once).
    assert_eq!(st["outpost"], emu.env_value("OUTPOST_ID").as_str());
    // The task ran inside the worker's own sandbox.
    let cat = env.run(&["worker", "exec", &id, "--", "cat", "/workspace/served.txt"]);
    cat.ok();
    assert_eq!(cat.stdout, "served\n");
    terminate(env, &sid);
    wait_for(Duration::from_secs(30), "the claim released", || {
        history(emu)
            .iter()
            .any(|h| h.event == "release" && h.session_id == sid)
            .then_some(())
    });
    let log = log_lines(env, &id).join("\n");
    assert!(
        log.contains(&format!("Session {sid} ended (terminated); released")),
        "{log}"
    );
    let tail = env.run(&["worker", "logs", &id, "--tail", "3"]);
    tail.ok();
    assert_eq!(tail.stdout.lines().count(), 3, "{}", tail.stdout);
    let list = env.run(&["--json", "worker", "list", "--outpost", "emulator"]);
    list.ok();
    assert_eq!(list.json().as_array().unwrap().len(), 1);
    // The outpost is resolved: its id finds the same worker, an unknown one is an error.
    let by_id = env.run(&[
        "--json",
        "worker",
        "list",
        "--outpost",
        &emu.env_value("OUTPOST_ID"),
    ]);
    by_id.ok();
    assert_eq!(by_id.json().as_array().unwrap().len(), 1);
    env.run(&["--json", "worker", "list", "--outpost", "another"])
        .code(2);
    id
}

#[test]
fn local_workers_serve_the_emulators_queue() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (mut env, emu) = setup("local");
    let mut cleanup = StopOnDrop::new(&env);
    let id = serve_one(&mut env, &emu, "main");
    cleanup.ids.push(id.clone());
    // In main mode the worker's environment is the sandbox's: `--env` is there.
    let extra = env.run(&["worker", "exec", &id, "--", "printenv", "WORKER_EXTRA"]);
    extra.ok();
    assert_eq!(extra.stdout, "extra-1\n");
    let stopped = env.run(&["--json", "worker", "stop", &id, "--yes"]);
    stopped.ok();
    assert_eq!(stopped.json()["state"], "stopped");
    assert!(
        stopped
            .stderr
            .contains("the local provider keeps a stopped sandbox's disk"),
        "{}",
        stopped.stderr
    );
    // A stopped local worker keeps its log.
    assert!(log_lines(&env, &id).len() >= 5);
    assert_nowhere(
        &emu.env_value("DEVIN_OUTPOSTS_TOKEN"),
        &[&stopped],
        &[env.home.path(), emu.data_dir()],
    );
}

#[test]
fn local_workers_need_a_devin_cli() {
    if std::path::Path::new("/usr/local/bin/devin").exists()
        || std::path::Path::new("/usr/bin/devin").exists()
    {
        return; // The host has a real CLI every sandbox sees.
    }
    let (mut env, _emu) = setup("local");
    env.unset("OUTPOSTS_DEVIN_CLI_DIR");
    let r = env.run(&["worker", "launch", "--outpost", "emulator"]);
    r.code(2);
    assert!(r.stderr.contains("OUTPOSTS_DEVIN_CLI_DIR"), "{}", r.stderr);
    let empty = env.path("empty");
    std::fs::create_dir_all(&empty).unwrap();
    env.set(
        "OUTPOSTS_DEVIN_CLI_DIR",
        empty.to_string_lossy().into_owned(),
    );
    let r = env.run(&["worker", "launch", "--outpost", "emulator"]);
    r.code(2);
    assert!(
        r.stderr.contains("has no `devin` executable"),
        "{}",
        r.stderr
    );
    // Nothing was created.
    let list = env.run(&["--json", "worker", "list", "--provider", "local"]);
    list.ok();
    assert_eq!(list.json().as_array().unwrap().len(), 0);
}

#[test]
fn local_workers_without_bubblewrap_are_refused_before_anything_is_created() {
    let (mut env, _emu) = setup("local");
    let (_bin, path) = crate::support::host::path_without(&["bwrap"]);
    env.set("PATH", path);
    // Not opted in, whatever the harness allows its own sandboxes.
    env.unset("OUTPOSTS_LOCAL_UNISOLATED");
    let r = env.run(&["worker", "launch", "--outpost", "emulator"]);
    r.code(2);
    assert!(r.stderr.contains("bubblewrap"), "{}", r.stderr);
    assert!(
        r.stderr.contains("apt-get install -y bubblewrap"),
        "{}",
        r.stderr
    );
    let list = env.run(&["--json", "worker", "list", "--provider", "local"]);
    list.ok();
    assert_eq!(list.json().as_array().unwrap().len(), 0);
}

#[test]
fn daytona_workers_run_detached_via_exec() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (mut env, emu) = setup("daytona");
    let id = serve_one(&mut env, &emu, "exec");
    // The worker is a detached process with its pid and log recorded in the sandbox.
    let files = env.run(&[
        "worker", "exec", &id, "--", "sh", "-c",
        "cd $HOME/.outposts-worker && cat state restarts && kill -0 $(cat supervisor.pid) && echo alive",
    ]);
    files.ok();
    assert_eq!(files.stdout, "running\n0\nalive\n");
    let stopped = env.run(&["--json", "worker", "stop", &id, "--yes"]);
    stopped.ok();
    assert_eq!(stopped.json()["state"], "stopped");
    let st = status(&env, &id);
    assert_eq!(st["worker_state"], "stopped");
    assert_eq!(st["serving"], false);
    let logs = env.run(&["worker", "logs", &id]);
    logs.code(2);
    assert!(
        logs.stderr.contains("readable only while it runs"),
        "{}",
        logs.stderr
    );
    assert_nowhere(
        &emu.env_value("DEVIN_OUTPOSTS_TOKEN"),
        &[&stopped, &logs],
        &[env.home.path()],
    );
}

#[test]
fn daytona_bad_token_restarts_under_the_supervisor() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (env, emu) = setup("daytona");
    // A token the launch's check accepts but the queue rejects (as after a revocation): a
    // token rejected outright is refused before anything is created.
    let token = emu.env_value("DEVIN_OUTPOSTS_TOKEN");
    block_on(emu.client().add_faults(
        r#"{"path":"/opbeta/outposts/devins","times":0,"action":{"kind":"status","status":401}}"#,
    ))
    .unwrap();
    // --no-wait keeps it (a waited launch stops a worker whose token is rejected).
    let launched = env.run(&[
        "--json",
        "worker",
        "launch",
        "--outpost",
        "emulator",
        "--no-wait",
    ]);
    launched.ok();
    let id = launched.json()["workers"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let st = wait_for(Duration::from_secs(60), "three restarts", || {
        let s = status(&env, &id);
        (s["restart_count"].as_u64().unwrap_or(0) >= 3).then_some(s)
    });
    assert_eq!(st["restart_loop"], true, "{st}");
    assert_eq!(st["exit_code"], 1);
    assert!(st["auth_failure"].is_string(), "{st}");
    let logs = env.run(&["worker", "logs", &id, "--tail", "50"]);
    logs.ok();
    assert_nowhere(&token, &[&launched, &logs], &[env.home.path()]);
    env.run(&["worker", "stop", &id, "--yes"]).ok();
}
