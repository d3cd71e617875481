//! The pinned remote pre-installed in warm capacity: the warm-up downloads and verifies the
//! latest devin-remote build inside each warm sandbox, so the session handed one launches from
//! the cache (`cached=yes`) and the hand-over sends no download request.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use outposts::emulator::devin::NewSession;
use outposts::orchestrator::LABEL_SESSION;
use outposts::orchestrator::warm::LABEL_WARM;
use outposts::provider::{Provider, SandboxState};

use crate::orchestrator_warm::ready_to_serve;
use crate::support::block_on;
use crate::support::orch::*;

const WAIT: Duration = Duration::from_secs(90);

/// GET requests the distribution answered for a Linux x64 devin-remote binary.
fn downloads(emu: &crate::support::Emu) -> usize {
    emu.requests()
        .iter()
        .filter(|r| {
            r.method == "GET" && r.path.contains("/devin-remote_") && r.path.ends_with("_linux_x64")
        })
        .count()
}

/// Started warm sandboxes not yet handed over, by id.
fn warm_idle(p: &dyn Provider) -> BTreeSet<String> {
    block_on(p.list(&BTreeMap::new()))
        .expect("list")
        .into_iter()
        .filter(|sb| {
            sb.labels.contains_key(LABEL_WARM)
                && !sb.labels.contains_key(LABEL_SESSION)
                && sb.state == SandboxState::Started
        })
        .map(|sb| sb.id)
        .collect()
}

fn launch_line(orch: &Orch, session: &str) -> Option<String> {
    orch.log()
        .lines()
        .find(|l| l.contains(session) && l.contains("served: devin-remote launched"))
        .map(str::to_string)
}

#[test]
fn a_warm_served_session_launches_the_preinstalled_remote_without_a_download() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, mut env) = orch_emulator(&[]);
    env.set("WARM_IDLE", "1");
    let mut orch = Orch::start(&env, &["--provider", "local"]);
    let local = local(&env);
    // The warm-up fetched the build once, inside the warm sandbox.
    wait_until(
        WAIT,
        "a warm sandbox with the remote pre-installed",
        || warm_idle(&local).len() == 1 && downloads(&emu) == 1 && ready_to_serve(&env) == 1,
        || orch.log(),
    );
    let warm = warm_idle(&local);
    let session = new_session(&emu, Some(proof_task("warm-remote")));
    wait_until(
        WAIT,
        "the session's launch",
        || launch_line(&orch, &session).is_some(),
        || orch.log(),
    );
    let served = block_on(local.list(&BTreeMap::new()))
        .expect("list")
        .into_iter()
        .find(|sb| sb.labels.get(LABEL_SESSION) == Some(&session))
        .expect("the session's sandbox");
    assert!(
        warm.contains(&served.id),
        "not served from warm capacity: {served:?}\n{}",
        orch.log()
    );
    let line = launch_line(&orch, &session).unwrap();
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
    let (emu, mut env) = orch_emulator(&[]);
    env.set("WARM_IDLE", "1");
    let mut orch = Orch::start(&env, &["--provider", "local"]);
    let local = local(&env);
    wait_until(
        WAIT,
        "a warm sandbox with the remote pre-installed",
        || warm_idle(&local).len() == 1 && downloads(&emu) == 1 && ready_to_serve(&env) == 1,
        || orch.log(),
    );
    let warm = warm_idle(&local);
    let other_downloads = || {
        emu.requests()
            .iter()
            .filter(|r| {
                r.method == "GET"
                    && r.path
                        .ends_with(&format!("/devin-remote_{OTHER}_linux_x64"))
            })
            .count()
    };
    assert_eq!(other_downloads(), 0);
    let session = block_on(emu.client().new_sessions(&NewSession {
        remote_binary_sha: Some(OTHER.into()),
        ..NewSession::default()
    }))
    .expect("new session")[0]
        .session_id
        .clone();
    wait_until(
        WAIT,
        "the pinned session's launch",
        || launch_line(&orch, &session).is_some(),
        || orch.log(),
    );
    let served = block_on(local.list(&BTreeMap::new()))
        .expect("list")
        .into_iter()
        .find(|sb| sb.labels.get(LABEL_SESSION) == Some(&session))
        .expect("the session's sandbox");
    assert!(
        warm.contains(&served.id),
        "not served from warm capacity: {served:?}\n{}",
        orch.log()
    );
    let line = launch_line(&orch, &session).unwrap();
    assert!(line.contains("cached=no"), "{line}\n{}", orch.log());
    assert_eq!(other_downloads(), 1, "{}", orch.log());
    orch.kill();
}
