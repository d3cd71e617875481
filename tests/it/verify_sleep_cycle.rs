//! `session verify --create --sleep-cycle` (issue 33 item 1): the proof session is suspended,
//! its sandbox sleeps, it is resumed and served again, and the proof file is read once more —
//! the README's recipe run verbatim on the local provider, a file lost in a Daytona sleep, and
//! the refusal against a Devin API that is not the emulator.

use crate::readme_walkthrough::guide;
use crate::support::orch::{Orch, orch_emulator, orch_emulator_built};
use crate::support::{Emu, Run, TestEnv, block_on};

const SECTION: &str = "#### Proving a sleep end to end: `session verify --sleep-cycle`";

/// The README's lines run by `sh` in `env`'s environment, the binary on PATH.
fn run_recipe(env: &TestEnv) -> Run {
    let lines = guide(SECTION);
    assert_eq!(lines.len(), 1, "one command in the recipe: {lines:?}");
    crate::support::shell::run_as_printed(env, &lines.join("\n"))
}

/// The steps the document reached, in order.
fn steps(doc: &serde_json::Value) -> Vec<String> {
    doc["sleep_cycle"]["steps"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|s| s["step"].as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// Whether the emulator saw the session's holder let go (asleep) and the session woken (a
/// second generation connected). The orchestrator stops the sandbox before it releases, and the
/// cycle resumes once the sandbox is seen stopped: a release that arrives after the resume finds
/// the new generation's row and is answered 409 (`release_conflict`), as the real queue would.
fn slept_and_woke(emu: &Emu, id: &str) -> bool {
    let history = block_on(emu.client().history(Some(id))).unwrap();
    history
        .iter()
        .any(|h| h.event == "release" || h.event == "release_conflict")
        && history
            .iter()
            .any(|h| h.event == "connect" && h.generation == 2)
}

#[test]
fn the_readme_sleep_cycle_runs_verbatim_and_reads_the_proof_again_intact() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, env) = orch_emulator(&[]);
    let orch = Orch::start(&env, &["--provider", "local"]);
    let run = run_recipe(&env);
    assert_eq!(
        run.code,
        0,
        "the recipe failed as printed\nstderr:\n{}\norchestrator:\n{}",
        run.stderr,
        orch.log()
    );
    let doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(env.cwd.join("cycle.json")).expect("cycle.json"))
            .expect("cycle.json is one JSON document");
    assert_eq!(doc["result"], "match", "{doc:#}");
    let cycle = &doc["sleep_cycle"];
    assert_eq!(cycle["result"], "match", "{doc:#}");
    assert_eq!(
        steps(&doc),
        ["suspended", "asleep", "resumed", "served", "read"],
        "{doc:#}"
    );
    // The orchestrator's state dir is this machine's: the wake's check is shown.
    assert_eq!(cycle["wake_integrity"]["result"], "intact", "{doc:#}");
    assert_eq!(doc["session_ended"], true);
    let id = doc["session_id"].as_str().unwrap();
    assert!(slept_and_woke(&emu, id), "{}", orch.log());
    for line in ["sleep cycle: asleep", "sleep cycle: served again"] {
        assert!(run.stderr.contains(line), "{line}: {}", run.stderr);
    }
}

#[test]
fn a_proof_file_lost_in_a_daytona_sleep_fails_the_cycle_with_exit_3() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, mut env) = orch_emulator_built(&[]);
    // The release held back 3 s: the cycle sees the sandbox stopped and resumes the session
    // before its holder has let go (the order CI once met by chance), every run.
    env.set("OUTPOSTS_FAILPOINTS", "release.before_post=sleep:3000");
    let orch = Orch::start(&env, &["--provider", "daytona"]);
    // Any sandbox's next start (a create is none): the wake's, after the proof was written. The
    // proof goes into WORKDIR, which the orchestrator's integrity manifest covers.
    const PROOF: &str = "/home/daytona/workspace/outpost-proof.txt";
    let fault = serde_json::json!({"path": PROOF, "action": "lose"});
    block_on(emu.client().add_file_faults(&fault.to_string())).unwrap();
    let run = env.run(&[
        "session",
        "verify",
        "--create",
        "--provider",
        "daytona",
        "--sleep-cycle",
        "--path",
        PROOF,
        "--wait",
        "3m",
        "--json",
    ]);
    assert_eq!(run.code, 3, "{}\norchestrator:\n{}", run.all(), orch.log());
    let doc = run.json();
    assert_eq!(doc["result"], "sleep_cycle_failed", "{doc:#}");
    assert_eq!(doc["exit_code"], 3);
    let cycle = &doc["sleep_cycle"];
    assert_eq!(cycle["result"], "lost", "{doc:#}");
    assert_eq!(cycle["wake_integrity"]["result"], "lost", "{doc:#}");
    assert!(
        cycle["wake_integrity"]["paths"][0]
            .as_str()
            .is_some_and(|p| p.ends_with("/outpost-proof.txt")),
        "{doc:#}"
    );
    assert!(slept_and_woke(&emu, doc["session_id"].as_str().unwrap()));
}

#[test]
fn against_a_devin_api_that_is_not_the_emulator_it_exits_2_before_creating() {
    let (emu, mut env) = orch_emulator(&[]);
    // A loopback port nobody answers on stands for an API without the emulator's admin routes.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    env.set("DEVIN_API_URL", format!("http://127.0.0.1:{port}"));
    let run = env.run(&[
        "session",
        "verify",
        "--create",
        "--provider",
        "local",
        "--sleep-cycle",
        "--wait",
        "5s",
    ]);
    assert_eq!(run.code, 2, "{}", run.all());
    assert!(
        run.stderr.contains("--sleep-cycle") && run.stderr.contains("v3 sessions API has none"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("hint:"), "{}", run.stderr);
    // Nothing was created anywhere.
    assert!(
        emu.requests()
            .iter()
            .all(|r| !(r.method == "POST" && r.path.ends_with("/sessions"))),
        "a session was created"
    );
    // Without --sleep-cycle the same command gets as far as the API (another error).
    let plain = env.run(&[
        "session",
        "verify",
        "--create",
        "--provider",
        "local",
        "--wait",
        "5s",
    ]);
    assert!(!plain.stderr.contains("--sleep-cycle"), "{}", plain.stderr);
}
