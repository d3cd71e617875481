//! The sleep-integrity proof end to end: a wake compared with the manifest its sleep recorded —
//! intact (a 20,000-file tree, within the default bounds), a file lost while asleep named in a
//! WARN, the metric and `orchestrator status`; on CoreWeave through the emulator's file faults.

use std::time::Duration;

use outposts::orchestrator::sandbox_name;
use outposts::provider::{Provider, SandboxState};

use crate::observability::{http_get, metrics_addr};
use crate::support::orch::*;
use crate::support::{Emu, TestEnv, block_on};

const WAIT: Duration = Duration::from_secs(90);

/// Suspend the session and wait until its sandbox is stopped and the claim released.
fn sleep_local(emu: &Emu, env: &TestEnv, orch: &Orch, s: &str, sb: &str, releases: usize) {
    block_on(emu.client().suspend(s)).unwrap();
    wait_until(
        WAIT,
        "the sleep",
        || {
            block_on(local(env).get(sb))
                .unwrap()
                .is_some_and(|x| x.state == SandboxState::Stopped)
                && block_on(emu.client().history(Some(s)))
                    .unwrap()
                    .iter()
                    .filter(|h| h.event == "release")
                    .count()
                    >= releases
        },
        || orch.log(),
    );
}

/// The session's row in `orchestrator status --json`'s `wake_integrity`, once it says `want`.
fn integrity_row(env: &TestEnv, orch: &Orch, s: &str, want: &str) -> serde_json::Value {
    let read = || {
        let doc = env.run(&["--json", "orchestrator", "status"]).json();
        doc["wake_integrity"]
            .as_array()
            .and_then(|rows| rows.iter().find(|r| r["session_id"] == s).cloned())
            .unwrap_or_default()
    };
    wait_until(
        WAIT,
        &format!("a wake_integrity row saying {want}"),
        || read()["result"] == want,
        || format!("{}\n{}", read(), orch.log()),
    );
    read()
}

fn counter(metrics: &str, result: &str) -> u64 {
    let series = format!("outposts_wake_integrity_total{{result=\"{result}\"}} ");
    metrics
        .lines()
        .find_map(|l| l.strip_prefix(series.as_str()))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0)
}

#[test]
fn a_20000_file_tree_wakes_intact_and_a_file_lost_while_asleep_is_named() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, env) = orch_emulator(&[]);
    let orch = Orch::start(
        &env,
        &["--provider", "local", "--metrics-addr", "127.0.0.1:0"],
    );
    let addr = metrics_addr(&orch);
    let s = new_session(
        &emu,
        Some(
            "sh: mkdir -p tree && (cd tree && seq -f f%g 1 20000 | xargs touch) \
             && echo kept > kept.txt && echo precious > lost.txt"
                .into(),
        ),
    );
    wait_until(WAIT, "the task", || tasks_done(&emu, &s), || orch.log());
    let sb = block_on(local(&env).get(&sandbox_name(&s)))
        .unwrap()
        .expect("sandbox")
        .id;

    // First cycle: nothing touched while asleep.
    sleep_local(&emu, &env, &orch, &s, &sb, 1);
    block_on(emu.client().resume(&s)).unwrap();
    wait_until(
        WAIT,
        "the wake",
        || connected_at(&emu, &s, 2),
        || orch.log(),
    );
    let row = integrity_row(&env, &orch, &s, "intact");
    // Every file of the tree is in the manifest: the default bounds hold 20,000 files whole.
    assert!(row["files"].as_u64().unwrap_or(0) >= 20_002, "{row}");
    assert_eq!(row["detail"], serde_json::Value::Null, "not cut: {row}");

    // Second cycle: a file goes missing while the sandbox is stopped.
    sleep_local(&emu, &env, &orch, &s, &sb, 2);
    let tree = local(&env).tree(&sb).unwrap().expect("the sandbox's tree");
    let lost = tree.join("home/daytona/workspace/lost.txt");
    std::fs::remove_file(&lost).unwrap_or_else(|e| panic!("{}: {e}", lost.display()));
    block_on(emu.client().resume(&s)).unwrap();
    wait_until(
        WAIT,
        "the second wake",
        || connected_at(&emu, &s, 3),
        || orch.log(),
    );
    let row = integrity_row(&env, &orch, &s, "lost");
    assert_eq!(
        (row["lost"].as_u64(), row["changed"].as_u64()),
        (Some(1), Some(0)),
        "{row}"
    );
    let paths = row["paths"].to_string();
    assert!(paths.contains("workspace/lost.txt"), "{row}");
    let log = orch.log();
    assert!(
        log.lines().any(|l| l.contains("WARN")
            && l.contains(&s)
            && l.contains("1 lost of")
            && l.contains("workspace/lost.txt")),
        "a WARN naming the lost file:\n{log}"
    );
    let (_, metrics) = http_get(&addr, "/metrics", None);
    assert_eq!(
        (counter(&metrics, "intact"), counter(&metrics, "lost")),
        (1, 1),
        "{metrics}"
    );
    let table = env.run(&["orchestrator", "status"]).ok().stdout.clone();
    assert!(
        table.contains("wake integrity") && table.contains("1 lost of"),
        "{table}"
    );
}

/// Sleep through the emulator, lose one file and alter another (same size and mtime: only its
/// hash shows it) on the wake's start, and read what the wake says.
fn faults_on_wake(emu: &Emu, env: &TestEnv, args: &[&str], workdir: &str) {
    let orch = Orch::start(env, args);
    let s = new_session(
        emu,
        Some(format!(
            "sh: echo precious > {workdir}/lost.txt && echo same-size > {workdir}/altered.txt \
             && echo kept > {workdir}/kept.txt"
        )),
    );
    wait_until(WAIT, "the task", || tasks_done(emu, &s), || orch.log());
    block_on(emu.client().suspend(&s)).unwrap();
    wait_until(
        WAIT,
        "the sleep",
        || {
            block_on(emu.client().history(Some(&s)))
                .unwrap()
                .iter()
                .any(|h| h.event == "release")
        },
        || orch.log(),
    );
    let faults = serde_json::json!([
        {"sandbox": s, "path": format!("{workdir}/lost.txt"), "action": "lose"},
        {"sandbox": s, "path": format!("{workdir}/altered.txt"), "action": "alter"},
    ]);
    block_on(emu.client().add_file_faults(&faults.to_string())).unwrap();
    block_on(emu.client().resume(&s)).unwrap();
    let row = integrity_row(env, &orch, &s, "lost");
    assert_eq!(
        (row["lost"].as_u64(), row["changed"].as_u64()),
        (Some(1), Some(1)),
        "{row}"
    );
    let paths: Vec<String> = row["paths"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap_or_default().to_string())
        .collect();
    assert!(
        paths.len() == 2 && paths[0].ends_with("/lost.txt") && paths[1].ends_with("/altered.txt"),
        "lost first, then changed: {row}"
    );
    // Reported, not refused: the session is served again all the same.
    wait_until(WAIT, "the wake", || connected_at(emu, &s, 2), || orch.log());
}

#[test]
fn a_coreweave_wake_reports_a_file_lost_and_one_altered_in_the_restore() {
    // The emulated CoreWeave restore fires its file faults inside a bubblewrap sandbox; on an
    // unisolated one they were seen not to reach the restored workspace (the wake read intact),
    // like the other CoreWeave restore tests, which need bubblewrap too.
    crate::support::host::require!(crate::support::host::BWRAP);
    let (emu, mut env) = orch_emulator(&["--sweep-delay", "1s"]);
    env.set("WORKDIR", "/workspace");
    let image = "public.ecr.aws/e0h8a4b6/devin-cli:stable";
    faults_on_wake(
        &emu,
        &env,
        &["--provider", "coreweave", "--image", image],
        "/workspace",
    );
}

#[test]
fn a_daytona_wake_reports_a_file_lost_and_one_altered_on_start() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, env, _snapshot) = emulator_with_snapshot();
    faults_on_wake(
        &emu,
        &env,
        &["--provider", "daytona"],
        "/home/daytona/workspace",
    );
}
