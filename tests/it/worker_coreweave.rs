//! Fixed workers on the emulated CoreWeave: the real binary launches sandboxes of the Devin CLI
//! image, whose fake `devin worker start` claims and serves the emulator's sessions.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use outposts::config::{Config, LoadOptions};
use outposts::provider::Provider;
use outposts::provider::coreweave::CoreweaveProvider;

use crate::support::{TestEnv, block_on};
use crate::worker_common::*;

fn provider(env: &TestEnv) -> CoreweaveProvider {
    let cfg = Config::load_with_env(env.vars.clone(), &LoadOptions::default(), &env.cwd).unwrap();
    CoreweaveProvider::from_settings(outposts::settings::CoreweaveSettings::resolve(&cfg).unwrap())
        .unwrap()
}

fn read(env: &TestEnv, id: &str, path: &str) -> Option<String> {
    block_on(provider(env).read_file(id, path))
        .unwrap()
        .map(|b| String::from_utf8_lossy(&b).into_owned())
}

#[test]
fn two_workers_serve_three_sessions_never_more_than_two_at_once() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (env, emu) = setup("coreweave");
    let token = emu.env_value("DEVIN_OUTPOSTS_TOKEN");
    let launched = env.run(&[
        "--json",
        "worker",
        "launch",
        "--outpost",
        "emulator",
        "--count",
        "2",
        "--tag",
        "suite=acceptance",
    ]);
    launched.ok();
    let doc = launched.json();
    assert_eq!(doc["provider"], "coreweave");
    assert_eq!(doc["mode"], "main");
    let workers: Vec<String> = doc["workers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            assert_eq!(w["readiness"]["result"], "ready", "{w}");
            w["id"].as_str().unwrap().to_string()
        })
        .collect();
    assert_eq!(workers.len(), 2);
    assert_ne!(workers[0], workers[1]);
    // Progress went to stderr, the result to stdout.
    assert!(
        launched.stderr.contains("is serving the queue"),
        "{}",
        launched.stderr
    );

    // The sandboxes run the Devin CLI image with the wrapper as main command; the token is in
    // the environment, not in the command.
    let list = env.run(&["--json", "worker", "list"]);
    list.ok();
    let listed = list.json();
    let listed = listed.as_array().unwrap();
    assert_eq!(listed.len(), 2, "{listed:?}");
    for w in listed {
        assert!(workers.contains(&w["id"].as_str().unwrap().to_string()));
        assert_eq!(w["outpost"], emu.env_value("OUTPOST_ID").as_str());
        assert_eq!(w["provider"], "coreweave");
        assert_eq!(w["labels"]["suite"], "acceptance");
        assert_eq!(w["labels"]["outposts.role"], "worker");
        assert_eq!(w["state"], "started");
    }
    let names: BTreeSet<&str> = listed.iter().map(|w| w["name"].as_str().unwrap()).collect();
    assert_eq!(names.len(), 2, "unique names");
    assert!(
        names
            .iter()
            .all(|n| n.starts_with("devin-worker-emulator-")),
        "named after the outpost's name: {names:?}"
    );
    assert!(
        emu.requests()
            .iter()
            .any(|r| r.path.ends_with("/CreateSandbox"))
    );

    let proofs: Vec<String> = (1..=3)
        .map(|i| {
            format!(
                "proof-{i}-{}",
                &uuid::Uuid::new_v4().simple().to_string()[..10]
            )
        })
        .collect();
    let ids: Vec<String> = proofs
        .iter()
        .enumerate()
        .map(|(i, p)| {
            new_session(
                &env,
                &format!(
                    "Write the exact text {p} to /workspace/proof-{}.txt and read the file back. Report its contents.",
                    i + 1
                ),
            )
        })
        .collect();

    // Two are served at once; the third waits for a free worker.
    let served = wait_for(Duration::from_secs(60), "two sessions served", || {
        let done: Vec<String> = sessions(&emu)
            .into_iter()
            .filter(task_done)
            .map(|s| s.session_id)
            .collect();
        (done.len() >= 2).then_some(done)
    });
    assert_eq!(served.len(), 2, "only two workers: {served:?}");
    std::thread::sleep(Duration::from_millis(1500));
    let waiting: Vec<_> = ids.iter().filter(|i| !served.contains(i)).collect();
    assert_eq!(waiting.len(), 1);
    let third = session(&emu, waiting[0]);
    assert_eq!(third.phase, "pending", "{third:?}");
    assert!(third.acceptor_id.is_none());

    for s in &served {
        terminate(&env, s);
    }
    wait_for(Duration::from_secs(60), "the third session served", || {
        task_done(&session(&emu, waiting[0])).then_some(())
    });
    terminate(&env, waiting[0]);
    wait_for(Duration::from_secs(60), "every claim released", || {
        let h = history(&emu);
        let released: BTreeSet<_> = h
            .iter()
            .filter(|r| r.event == "release")
            .map(|r| r.session_id.clone())
            .collect();
        ids.iter().all(|i| released.contains(i)).then_some(())
    });

    let h = history(&emu);
    assert!(max_concurrent_claims(&h) <= 2, "{h:#?}");
    let claims = claims(&h);
    for id in &ids {
        assert_eq!(claims[id].len(), 1, "one claim per session: {claims:?}");
    }
    let acceptors: BTreeSet<&String> = claims.values().flatten().collect();
    assert_eq!(acceptors.len(), 2, "both workers served: {claims:?}");

    // The task files are inside the workers' own sandboxes, each in exactly one.
    for (i, p) in proofs.iter().enumerate() {
        let path = format!("/workspace/proof-{}.txt", i + 1);
        let found: Vec<String> = workers
            .iter()
            .filter_map(|w| read(&env, w, &path))
            .collect();
        assert_eq!(found, std::slice::from_ref(p), "{path}");
    }
    // The worker's log shows the whole story.
    let log = log_lines(&env, &workers[0]).join("\n");
    assert!(log.contains("Worker ready: waiting for sessions"), "{log}");
    assert!(log.contains("Claimed session devin-"), "{log}");
    assert!(log.contains("released"), "{log}");

    // The token: in no output, no log, no file, no command line.
    let logs0 = env.run(&["worker", "logs", &workers[0]]);
    let logs1 = env.run(&["worker", "logs", &workers[1]]);
    let status0 = env.run(&["--json", "worker", "status", &workers[0]]);
    assert_nowhere(
        &token,
        &[&launched, &list, &logs0, &logs1, &status0],
        &[env.home.path(), emu.data_dir()],
    );
    assert!(!emu.stderr().contains(&token));

    for w in &workers {
        env.run(&["worker", "stop", w, "--yes"]).ok();
    }
}

#[test]
fn a_bad_token_shows_restarts_and_the_auth_hint() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (env, emu) = setup("coreweave");
    let bad = format!("wrong-token-{}", uuid::Uuid::new_v4().simple());
    // In a secret store the token cannot be checked before launch; --no-wait keeps the worker
    // (a waited launch stops a worker whose token is rejected).
    put_secret(&emu, "outposts", "BAD", &bad);
    let launched = env.run(&[
        "worker",
        "launch",
        "--outpost",
        "emulator",
        "--secret",
        "outposts:BAD",
        "--no-wait",
    ]);
    launched.ok();
    let id = launched.stdout.trim().to_string();
    assert!(id.starts_with("sb-"), "stdout has the sandbox id: {id:?}");

    let st = wait_for(Duration::from_secs(60), "three restarts", || {
        let s = status(&env, &id);
        (s["restart_count"].as_u64().unwrap_or(0) >= 3).then_some(s)
    });
    assert_eq!(st["restart_loop"], true, "{st}");
    assert_eq!(st["serving"], false);
    assert!(
        st["auth_failure"]
            .as_str()
            .unwrap()
            .contains("authentication failed"),
        "{st}"
    );
    assert_eq!(st["containers"][0]["name"], "main");
    assert!(st["containers"][0]["restart_count"].as_u64().unwrap() >= 3);
    let human = env.run(&["worker", "status", &id]);
    human.code(1);
    assert!(human.stderr.contains("restart loop"), "{}", human.stderr);
    assert!(
        human
            .stderr
            .contains("authentication failed: the Devin API rejects"),
        "{}",
        human.stderr
    );
    assert!(
        human
            .stdout
            .contains("serving    no (authentication failed)"),
        "{}",
        human.stdout
    );
    let logs = env.run(&["worker", "logs", &id]);
    logs.ok();
    assert!(logs.stdout.matches("Error: authentication failed").count() >= 3);
    assert_nowhere(
        &bad,
        &[&launched, &human, &logs],
        &[env.home.path(), emu.data_dir()],
    );
    env.run(&["worker", "stop", &id, "--yes"]).ok();
}

#[test]
fn secret_store_token_exec_logs_and_stop() {
    crate::support::host::require!(crate::support::host::BWRAP);
    let (mut env, emu) = setup("coreweave");
    let token = emu.env_value("DEVIN_OUTPOSTS_TOKEN");
    put_secret(&emu, "outposts", "DEVIN_TOKEN", &token);
    // Only the secret store has the token.
    env.unset("DEVIN_OUTPOSTS_TOKEN");
    let no_token = env.run(&["worker", "launch", "--outpost", "emulator"]);
    no_token.code(4);
    assert!(no_token.stderr.contains("--secret"), "{}", no_token.stderr);

    let (ids, doc) = launch(
        &env,
        &["--secret", "outposts:DEVIN_TOKEN", "--gpu", "1:A100"],
    );
    assert_eq!(doc["workers"][0]["readiness"]["result"], "ready", "{doc}");
    let id = &ids[0];

    // exec: output and exit code pass through.
    let r = env.run(&[
        "worker",
        "exec",
        id,
        "--",
        "sh",
        "-c",
        "echo out; echo err >&2; exit 3",
    ]);
    r.code(3);
    assert_eq!(r.stdout, "out\n");
    assert!(r.stderr.contains("err"), "{}", r.stderr);
    let j = env.run(&[
        "--json",
        "worker",
        "exec",
        id,
        "--",
        "sh",
        "-c",
        "echo json; exit 7",
    ]);
    j.code(7);
    assert_eq!(j.json()["exit_code"], 7);
    assert_eq!(j.json()["stdout"], "json\n");
    env.run(&["worker", "exec", id, "--", "true"]).code(0);
    let devin = env.run(&[
        "worker",
        "exec",
        id,
        "--",
        "sh",
        "-c",
        "command -v devin && devin --version",
    ]);
    devin.ok();
    assert!(
        devin.stdout.contains("/opt/devin/bin/devin"),
        "{}",
        devin.stdout
    );

    // A sandbox that is not a worker is refused.
    let mut plain = outposts::provider::SandboxSpec::new(
        "not-a-worker",
        outposts::provider::Source::Image("python:3.11".into()),
    );
    plain.labels = BTreeMap::from([("team".into(), "x".into())]);
    let other = block_on(provider(&env).create(&plain)).unwrap();
    let refused = env.run(&["worker", "exec", &other.id, "--", "true"]);
    refused.code(2);
    assert!(
        refused.stderr.contains("not an outposts worker"),
        "{}",
        refused.stderr
    );
    env.run(&["worker", "status", "sb-000000000000"]).code(2);

    // The secret-store token reaches the queue: a session is served.
    let sid = new_session(&env, "sh: echo served-with-a-secret-store-token");
    wait_for(Duration::from_secs(60), "the session served", || {
        task_done(&session(&emu, &sid)).then_some(())
    });
    terminate(&env, &sid);
    wait_for(Duration::from_secs(30), "the claim released", || {
        history(&emu)
            .iter()
            .any(|h| h.event == "release" && h.session_id == sid)
            .then_some(())
    });

    // logs --tail 5: the last five lines, as text and as NDJSON.
    let all = log_lines(&env, id);
    let tail = env.run(&["worker", "logs", id, "--tail", "5"]);
    tail.ok();
    let tail_lines: Vec<&str> = tail.stdout.lines().collect();
    let want = all.len().min(5);
    assert_eq!(tail_lines.len(), want, "{}", tail.stdout);
    assert_eq!(
        tail_lines,
        all[all.len() - want..]
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
    );
    let nd = env.run(&["--json", "worker", "logs", id, "--tail", "2"]);
    nd.ok();
    let lines: Vec<serde_json::Value> = nd
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), all.len().min(2));
    assert_eq!(lines[0]["sandbox_id"], id.as_str());

    // stop: refused without a terminal unless --yes; then the sandbox completes.
    let asked = env.run(&["worker", "stop", id]);
    asked.code(2);
    assert!(asked.stderr.contains("--yes"), "{}", asked.stderr);
    let stopped = env.run(&["--json", "worker", "stop", id, "--yes"]);
    stopped.ok();
    let s = stopped.json();
    assert_eq!(s["raw_state"], "STATE_COMPLETED", "{s}");
    // CoreWeave deletes on stop: the worker's /workspace was snapshotted first.
    assert_eq!(s["snapshot"]["taken"], true, "{s}");
    assert!(
        s["snapshot"]["id"].as_str().is_some_and(|i| !i.is_empty()),
        "{s}"
    );
    let after = status(&env, id);
    assert_eq!(after["raw_state"], "STATE_COMPLETED");
    assert_eq!(after["state"], "deleted");
    assert_eq!(after["containers"][0]["state"], "completed");
    // The log of a finished sandbox stays readable; --tail 5 prints its last five lines.
    let all = log_lines(&env, id);
    assert!(all.len() >= 5, "{all:?}");
    let tail = env.run(&["worker", "logs", id, "--tail", "5"]);
    tail.ok();
    assert_eq!(
        tail.stdout.lines().collect::<Vec<_>>(),
        all[all.len() - 5..]
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
    );
    // Finished sandboxes are not listed.
    let list = env.run(&["--json", "worker", "list"]);
    list.ok();
    assert_eq!(list.json().as_array().unwrap().len(), 0);
    // The CreateSandbox request named the store, not the value.
    assert_nowhere(&token, &[&stopped, &tail], &[env.home.path()]);
    block_on(provider(&env).delete(&other.id)).unwrap();
}
