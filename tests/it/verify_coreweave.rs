//! `session verify` on the emulated CoreWeave (gRPC): a fixed worker serving a session end to
//! end, and a plain sandbox read by id with its main command's log in the timeout diagnosis.

use outposts::config::{Config, LoadOptions};
use outposts::provider::coreweave::CoreweaveProvider;
use outposts::provider::{Provider, SandboxSpec, Source};

use crate::support::verify::{assert_nothing_left, new_session, task_for, verify};
use crate::support::{TestEnv, emulated_env};
use crate::worker_common::{launch, setup, terminate};

const IMAGE: &str = "public.ecr.aws/e0h8a4b6/devin-cli:stable";

fn provider(env: &TestEnv) -> CoreweaveProvider {
    let cfg = Config::load_with_env(env.vars.clone(), &LoadOptions::default(), &env.cwd).unwrap();
    CoreweaveProvider::from_settings(outposts::settings::CoreweaveSettings::resolve(&cfg).unwrap())
        .unwrap()
}

#[test]
fn a_coreweave_sandbox_is_read_through_grpc_and_its_log_explains_a_timeout() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (env, emu) = emulated_env(&[]);
    // The gRPC channel lives on a runtime that keeps running while the CLI runs.
    let rt = tokio::runtime::Runtime::new().unwrap();
    let p = rt.block_on(async { provider(&env) });
    let mut spec = SandboxSpec::new("verify-cw-1", Source::Image(IMAGE.into()));
    spec.command = Some(vec![
        "sh".into(),
        "-c".into(),
        "echo worker-booted; echo waiting-for-sessions; exec sleep 3600".into(),
    ]);
    let sb = rt.block_on(p.create(&spec)).unwrap();
    let base = ["--sandbox", sb.id.as_str(), "--provider", "coreweave"];

    let mut args = base.to_vec();
    args.extend(["--proof", "cw-proof-1", "--wait", "3s", "--json"]);
    let doc = verify(&env, &args).code(3).json();
    let d = &doc["diagnosis"];
    assert_eq!(d["sandbox"]["raw_state"], "STATE_RUNNING");
    assert_eq!(d["log_source"], "sandbox", "{d}");
    assert!(d["log_tail"].to_string().contains("worker-booted"), "{d}");
    // No devin.session_id label and no --session: the queue cannot be asked.
    assert!(
        d["queue_note"]
            .as_str()
            .unwrap()
            .contains("devin.session_id"),
        "{d}"
    );

    rt.block_on(p.write_file(&sb.id, "/workspace/outpost-proof.txt", b"cw-proof-1"))
        .unwrap();
    let mut args = base.to_vec();
    args.extend(["--proof", "cw-proof-1", "--wait", "10s"]);
    let run = verify(&env, &args);
    run.ok();
    assert!(run.stdout.contains("verified"), "{}", run.stdout);
    let reads = emu
        .requests()
        .iter()
        .filter(|r| r.api == "coreweave" && r.path.ends_with("/ReadFile"))
        .count();
    assert!(reads >= 2, "verify reads through the CoreWeave API");

    rt.block_on(p.delete(&sb.id)).unwrap();
    let data_dir = emu.data_dir().to_string_lossy().into_owned();
    drop(emu);
    assert_nothing_left(&data_dir);
}

#[test]
fn a_fixed_worker_on_emulated_coreweave_verifies_end_to_end() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (env, emu) = setup("coreweave");
    let (workers, _) = launch(&env, &[]);
    let worker = workers[0].as_str();
    let proof = "outpost-proof-cwworker1";
    let task = task_for(&env, proof);
    // The fake `devin worker` in the sandbox claims the session and carries out the task.
    let session = new_session(&env, &task);

    let run = verify(
        &env,
        &[
            "--sandbox",
            worker,
            "--provider",
            "coreweave",
            "--proof",
            proof,
            "--wait",
            "60s",
        ],
    );
    run.ok();
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines[0], task);
    assert_eq!(lines[1], format!("@Devin !outpost emulator {task}"));
    assert!(lines[2].contains("verified"), "{}", run.stdout);

    // A file nobody writes: the diagnosis shows the worker's own log (it claimed the session).
    let doc = verify(
        &env,
        &[
            "--sandbox",
            worker,
            "--provider",
            "coreweave",
            "--path",
            "/workspace/never.txt",
            "--wait",
            "3s",
            "--json",
        ],
    )
    .code(3)
    .json();
    let d = &doc["diagnosis"];
    assert_eq!(doc["sandbox"]["labels"]["outposts.role"], "worker");
    assert_eq!(d["log_source"], "worker", "{d}");
    assert!(
        d["log_tail"]
            .to_string()
            .contains(&format!("Claimed session {session}")),
        "{d}"
    );
    assert!(d["hints"].to_string().contains("worker logs"), "{d}");

    // By session, a fixed worker's session has no sandbox of its own: the diagnosis says the
    // session is claimed and points at --sandbox.
    let doc = verify(
        &env,
        &[
            "--session",
            &session,
            "--provider",
            "coreweave",
            "--wait",
            "2s",
            "--json",
        ],
    )
    .code(3)
    .json();
    let d = &doc["diagnosis"];
    assert_eq!(d["queue"]["phase"], "claimed", "{d}");
    assert!(
        d["queue"]["acceptor_id"]
            .as_str()
            .unwrap()
            .starts_with("devin-worker-")
    );
    assert!(d["hints"].to_string().contains("--sandbox"), "{d}");

    terminate(&env, &session);
    env.run(&["worker", "stop", worker, "--yes"]).ok();
    let data_dir = emu.data_dir().to_string_lossy().into_owned();
    drop(emu);
    assert_nothing_left(&data_dir);
    assert_nothing_left(&env.home.path().to_string_lossy());
}
