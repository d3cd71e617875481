//! The test harness itself on a machine without bubblewrap (simulated with a PATH that lacks
//! `bwrap`): tests whose sandboxes need isolation only for safety run unisolated, as
//! `outposts demo` does, with one line saying so; tests about isolation skip; strict mode (CI)
//! fails instead.

use std::process::{Command, Output};

use crate::support::host::path_without;

/// One test of this very binary, with `bwrap` hidden from PATH.
fn run_one(test: &str, path: &str, strict: bool) -> (Output, String) {
    let exe = std::env::current_exe().expect("test binary");
    let mut cmd = Command::new(exe);
    cmd.args([test, "--exact", "--nocapture", "--test-threads=1"])
        .env("PATH", path)
        .env_remove("OUTPOSTS_TEST_STRICT");
    if strict {
        cmd.env("OUTPOSTS_TEST_STRICT", "1");
    }
    let out = cmd.output().expect("run the test binary");
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out, all)
}

#[test]
fn without_bubblewrap_sandbox_tests_run_unisolated_and_isolation_tests_skip() {
    let (_bin, path) = path_without(&["bwrap"]);

    // The demo's loop: claimed, served, slept, woken, terminated, verified — unisolated.
    let (out, all) = run_one(
        "orchestrator_extras::demo_runs_the_whole_loop_and_says_so",
        &path,
        false,
    );
    assert!(out.status.success(), "{all}");
    assert!(all.contains("1 passed"), "{all}");
    assert!(!all.contains("outposts-test: SKIP"), "{all}");
    assert_eq!(
        all.matches("sandboxes run unisolated").count(),
        1,
        "one line says so:\n{all}"
    );

    // A test about isolation itself still skips, and says why.
    let (out, all) = run_one(
        "local_provider::hostile_paths_never_touch_the_host",
        &path,
        false,
    );
    assert!(out.status.success(), "{all}");
    assert!(
        all.contains("outposts-test: SKIP local_provider::hostile_paths_never_touch_the_host"),
        "{all}"
    );

    // CI stays strict: a missing bubblewrap fails the test.
    let (out, all) = run_one(
        "orchestrator_extras::demo_runs_the_whole_loop_and_says_so",
        &path,
        true,
    );
    assert!(!out.status.success(), "{all}");
    assert!(all.contains("OUTPOSTS_TEST_STRICT=1"), "{all}");
}
