//! The pinned remote pre-installed in warm capacity: the warm-up downloads and verifies the
//! latest devin-remote build inside each warm sandbox, so the session handed one launches from
//! the cache (`cached=yes`) and the hand-over sends no download request.

use std::collections::BTreeSet;
use std::time::Duration;

use outposts::provider::local::LocalProvider;

use crate::support::orch::*;
use crate::support::warm::{ready_to_serve, warm_idle, warm_served_launch};
use crate::support::{Emu, TestEnv};

const WAIT: Duration = Duration::from_secs(90);

/// GET requests the distribution answered for a Linux x64 devin-remote binary, of any build.
fn downloads(emu: &Emu) -> usize {
    emu.requests()
        .iter()
        .filter(|r| {
            r.method == "GET" && r.path.contains("/devin-remote_") && r.path.ends_with("_linux_x64")
        })
        .count()
}

/// An orchestrator on local sandboxes keeping one warm sandbox, once it holds it ready with the
/// latest remote pre-installed (fetched once, inside it): the ids of the warm sandboxes then.
fn one_warm_with_the_remote() -> (Emu, TestEnv, Orch, LocalProvider, BTreeSet<String>) {
    let (emu, mut env) = orch_emulator(&[]);
    env.set("WARM_IDLE", "1");
    let orch = Orch::start(&env, &["--provider", "local"]);
    let local = local(&env);
    wait_until(
        WAIT,
        "a warm sandbox with the remote pre-installed",
        || warm_idle(&local).len() == 1 && downloads(&emu) == 1 && ready_to_serve(&env) == 1,
        || orch.log(),
    );
    let warm = warm_idle(&local);
    (emu, env, orch, local, warm)
}

#[test]
fn a_warm_served_session_launches_the_preinstalled_remote_without_a_download() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, _env, mut orch, local, warm) = one_warm_with_the_remote();
    let session = new_session(&emu, Some(proof_task("warm-remote")));
    let line = warm_served_launch(&orch, &local, &warm, &session, WAIT);
    assert!(line.contains("cached=yes"), "{line}\n{}", orch.log());
    // The hand-over downloaded nothing; the next warm sandbox may have fetched its own copy.
    let after = downloads(&emu);
    assert!(after <= 2, "{after} downloads");
    wait_until(
        WAIT,
        "the task",
        || tasks_done(&emu, &session),
        || orch.log(),
    );
    orch.kill();
}

/// The warm-up fetches the latest build only: a session pinned to another build, served from
/// warm capacity all the same, downloads its own build at launch (`cached=no`).
#[test]
fn a_warm_served_session_pinned_to_another_build_downloads_it_at_launch() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    const OTHER: &str = "0a4e0123cd";
    let (emu, _env, mut orch, local, warm) = one_warm_with_the_remote();
    assert_eq!(remote_downloads(&emu, OTHER), 0);
    let session = pinned_session(&emu, OTHER);
    let line = warm_served_launch(&orch, &local, &warm, &session, WAIT);
    assert!(line.contains("cached=no"), "{line}\n{}", orch.log());
    assert_eq!(remote_downloads(&emu, OTHER), 1, "{}", orch.log());
    orch.kill();
}
