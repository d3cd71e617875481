//! `session verify` on the local provider: an orchestrated session end to end, and a sandbox
//! read directly (match, tolerated newline, mismatch, timeout with diagnosis).

use std::collections::BTreeMap;
use std::time::Duration;

use outposts::orchestrator::sandbox_name;
use outposts::provider::Provider;

use crate::local_provider::spec;
use crate::support::orch::{Orch, local, orch_env, wait_until};
use crate::support::verify::{
    assert_nothing_left, local_sandboxes, new_session, processes_mentioning, spawn_verify,
    task_for, verify,
};
use crate::support::{Emu, TestEnv, block_on};

#[test]
fn orchestrated_session_on_the_local_provider_verifies_end_to_end() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let emu_env = TestEnv::new();
    let emu = Emu::start(&emu_env, &[]);
    let env = orch_env(&emu);

    let proof = "outpost-proof-local01";
    let task = task_for(&env, proof);
    let mut orch = Orch::start(&env, &["--provider", "local"]);
    let session = new_session(&env, &task);

    let run = verify(
        &env,
        &[
            "--session",
            &session,
            "--provider",
            "local",
            "--proof",
            proof,
            "--wait",
            "60s",
        ],
    );
    run.ok();
    // stdout: the task, the Slack line (outpost name from the Devin API), the verdict.
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines[0], task, "{}", run.stdout);
    assert_eq!(lines[1], format!("@Devin !outpost emulator {task}"));
    assert!(
        lines[2].contains("verified") && lines[2].contains(proof),
        "{}",
        run.stdout
    );
    assert!(run.stderr.contains("waiting for"), "{}", run.stderr);

    // The same check for a script: one JSON object, the sandbox the orchestrator labelled.
    let run = verify(
        &env,
        &[
            "--session",
            &session,
            "--provider",
            "local",
            "--proof",
            proof,
            "--wait",
            "10s",
            "--json",
        ],
    );
    run.ok();
    let doc = run.json();
    assert_eq!(doc["result"], "match");
    assert_eq!(doc["exit_code"], 0);
    assert_eq!(doc["trailing_newline"], false);
    assert_eq!(doc["provider"], "local");
    assert_eq!(doc["session_id"], session.as_str());
    assert_eq!(
        doc["sandbox"]["labels"]["devin.session_id"],
        session.as_str()
    );
    assert_eq!(
        doc["sandbox"]["name"],
        outposts::orchestrator::sandbox_name(&session)
    );

    // The session ends: the orchestrator deletes its sandbox; then SIGTERM stops it cleanly.
    env.run(&["emulator", "session", "terminate", &session])
        .ok();
    let local = local(&env);
    wait_until(
        Duration::from_secs(30),
        "the orchestrator to delete the sandbox",
        || block_on(local.list(&BTreeMap::new())).unwrap().is_empty(),
        || orch.log(),
    );
    let (code, _) = orch.terminate(Duration::from_secs(35));
    assert_eq!(code, Some(0), "{}", orch.log());
    // The scan sees the emulator (it runs with that HOME), so an empty scan below means something.
    let emu_home = emu_env.home.path().to_string_lossy().into_owned();
    assert!(!processes_mentioning(&emu_home).is_empty());
    drop(emu);
    assert_nothing_left(&emu_home);
    assert_nothing_left(&env.home.path().to_string_lossy());
}

#[test]
fn a_sandbox_read_directly_matches_mismatches_or_times_out_with_a_diagnosis() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (env, p, _tmp, _reaper) = local_sandboxes();
    let sb = block_on(p.create(&spec("fixed-worker-1"))).unwrap();
    let path = "/workspace/outpost-proof.txt";
    let args = |proof: &'static str, wait: &'static str| {
        vec![
            "--sandbox",
            "fixed-worker-1",
            "--provider",
            "local",
            "--proof",
            proof,
            "--wait",
            wait,
        ]
    };

    // No file: exit 3 after the wait, with the sandbox's state and why the queue is not shown.
    let run = verify(&env, &args("P-123", "5s"));
    run.code(3);
    assert!(run.stdout.contains("timed out after 5s"), "{}", run.stdout);
    assert!(run.stdout.contains("started on local"), "{}", run.stdout);
    assert!(
        run.stdout.contains("no Devin token configured"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("hint: "), "{}", run.stdout);
    let mut jargs = args("P-123", "2s");
    jargs.push("--json");
    let doc = verify(&env, &jargs).code(3).json();
    assert_eq!(doc["result"], "timeout");
    assert_eq!(doc["exit_code"], 3);
    assert_eq!(doc["diagnosis"]["sandbox"]["id"], sb.id.as_str());
    assert_eq!(doc["diagnosis"]["sandbox"]["state"], "started");
    assert!(doc["diagnosis"]["queue"].is_null());
    assert!(!doc["diagnosis"]["hints"].as_array().unwrap().is_empty());

    // Another value: exit 3 with both values.
    block_on(p.write_file(&sb.id, path, b"outpost-proof-somebody-else")).unwrap();
    let run = verify(&env, &args("P-123", "5s"));
    run.code(3);
    assert!(run.stdout.contains("expected: \"P-123\""), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("found:    \"outpost-proof-somebody-else\""),
        "{}",
        run.stdout
    );
    let mut jargs = args("P-123", "5s");
    jargs.push("--json");
    let doc = verify(&env, &jargs).code(3).json();
    assert_eq!(
        (
            doc["result"].as_str(),
            doc["expected"].as_str(),
            doc["found"].as_str()
        ),
        (
            Some("mismatch"),
            Some("P-123"),
            Some("outpost-proof-somebody-else")
        )
    );

    // One trailing newline is tolerated and reported; two are not.
    block_on(p.write_file(&sb.id, path, b"P-123\n")).unwrap();
    let run = verify(&env, &args("P-123", "5s"));
    run.ok();
    assert!(run.stdout.contains("trailing newline"), "{}", run.stdout);
    block_on(p.write_file(&sb.id, path, b"P-123\n\n")).unwrap();
    let run = verify(&env, &args("P-123", "5s"));
    run.code(3);
    assert!(run.stdout.contains("\"P-123\\n\\n\""), "{}", run.stdout);
    block_on(p.write_file(&sb.id, path, b"P-123")).unwrap();
    let run = verify(&env, &args("P-123", "5s"));
    run.ok();
    assert!(!run.stdout.contains("newline"), "{}", run.stdout);

    // An empty file is an answer (a mismatch), not a reason to keep waiting.
    block_on(p.write_file(&sb.id, path, b"")).unwrap();
    let run = verify(&env, &args("P-456", "5s"));
    run.code(3);
    assert!(run.stdout.contains("found:    \"\""), "{}", run.stdout);

    block_on(p.delete(&sb.id)).unwrap();
}

#[test]
fn the_proof_file_is_found_when_it_appears_during_the_wait() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (env, p, _tmp, _reaper) = local_sandboxes();
    let sb = block_on(p.create(&spec("late-writer"))).unwrap();
    // Written from inside the sandbox, three seconds after verify starts polling.
    let mut child = spawn_verify(&env, &sb.id, "late-proof");
    std::thread::sleep(Duration::from_secs(3));
    let out = block_on(p.exec(
        &sb.id,
        &outposts::provider::ExecRequest::shell(
            "mkdir -p /workspace && printf late-proof > /workspace/outpost-proof.txt",
        ),
    ))
    .unwrap();
    assert_eq!(out.exit_code, 0, "{}", out.stderr);
    let mut status = None;
    wait_until(
        Duration::from_secs(30),
        "verify to finish",
        || {
            status = child.try_wait().unwrap();
            status.is_some()
        },
        String::new,
    );
    let status = status.unwrap();
    let mut stdout = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut stdout).unwrap();
    assert_eq!(status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("verified"), "{stdout}");
    block_on(p.delete(&sb.id)).unwrap();
}

#[test]
fn a_session_sandbox_is_found_by_name_and_label_and_foreign_ones_are_refused() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (env, p, _tmp, _reaper) = local_sandboxes();
    let path = "/workspace/outpost-proof.txt";

    // The orchestrator's name without the session label: not ours to read.
    let squatter = block_on(p.create(&spec(&sandbox_name("sess-foreign")))).unwrap();
    block_on(p.write_file(&squatter.id, path, b"proof-f")).unwrap();
    let run = verify(
        &env,
        &[
            "--session",
            "sess-foreign",
            "--provider",
            "local",
            "--proof",
            "proof-f",
            "--wait",
            "2s",
        ],
    );
    run.code(1);
    assert!(
        run.stderr
            .contains("does not carry the label devin.session_id=sess-foreign"),
        "{}",
        run.stderr
    );

    // Another orchestrator's naming, with the label: found by the label.
    let mut s = spec("reference-impl-sandbox");
    s.labels = BTreeMap::from([
        ("devin.session_id".to_string(), "sess-ref".to_string()),
        ("devin.outpost_id".to_string(), "op-1".to_string()),
    ]);
    let labelled = block_on(p.create(&s)).unwrap();
    block_on(p.write_file(&labelled.id, path, b"proof-r")).unwrap();
    let doc = verify(
        &env,
        &[
            "--session",
            "sess-ref",
            "--provider",
            "local",
            "--proof",
            "proof-r",
            "--wait",
            "2s",
            "--json",
        ],
    )
    .ok()
    .json();
    assert_eq!(doc["sandbox"]["name"], "reference-impl-sandbox");

    // Two sandboxes claiming one session: verify will not guess.
    let mut s2 = s.clone();
    s2.name = "reference-impl-sandbox-2".into();
    let twin = block_on(p.create(&s2)).unwrap();
    let run = verify(
        &env,
        &[
            "--session",
            "sess-ref",
            "--provider",
            "local",
            "--proof",
            "proof-r",
            "--wait",
            "2s",
        ],
    );
    run.code(1);
    assert!(run.stderr.contains("pass --sandbox"), "{}", run.stderr);

    for id in [squatter.id, labelled.id, twin.id] {
        block_on(p.delete(&id)).unwrap();
    }
}
