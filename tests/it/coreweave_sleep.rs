//! Sleep on CoreWeave keeps the workspace: the orchestrator snapshots the session's working
//! directory before it deletes the sandbox, restores it into the next sandbox on wake, and
//! discards the snapshots when the session is terminated; `worker stop` snapshots a worker's
//! /workspace and `worker launch --restore` brings it back.

use std::time::Duration;

use outposts::api::coreweave::pb;
use outposts::orchestrator::sandbox_name;
use outposts::provider::Provider;
use outposts::provider::coreweave::CoreweaveProvider;

use crate::support::orch::*;
use crate::support::{Emu, TestEnv, block_on};

const WAIT: Duration = Duration::from_secs(90);
const IMAGE: &str = "public.ecr.aws/e0h8a4b6/devin-cli:stable";

/// The CoreWeave provider of the emulator, on a runtime of its own (its channel lives there).
struct Cw {
    rt: tokio::runtime::Runtime,
    p: CoreweaveProvider,
}

impl Cw {
    fn new(emu: &Emu, env: &TestEnv) -> Cw {
        let vars: std::collections::BTreeMap<String, String> =
            emu.info.env.iter().cloned().collect();
        let config =
            outposts::config::Config::load_with_env(vars, &Default::default(), env.cwd.as_path())
                .unwrap();
        let rt = tokio::runtime::Runtime::new().unwrap();
        let p = rt
            .block_on(async {
                CoreweaveProvider::from_settings(outposts::settings::CoreweaveSettings::resolve(
                    &config,
                )?)
            })
            .unwrap();
        Cw { rt, p }
    }

    /// The live (not finished) sandbox named `name`, and a file of it.
    fn live(&self, name: &str) -> Option<outposts::provider::SandboxInfo> {
        self.rt
            .block_on(self.p.get(name))
            .unwrap()
            .filter(|s| s.state == outposts::provider::SandboxState::Started)
    }

    fn read(&self, id: &str, path: &str) -> Option<String> {
        self.rt
            .block_on(self.p.read_file(id, path))
            .unwrap()
            .map(|b| String::from_utf8_lossy(&b).into_owned())
    }

    /// Started warm sandboxes not handed over, by id (`support::warm`, on this runtime).
    fn warm_idle(&self) -> std::collections::BTreeSet<String> {
        self.listed()
            .into_iter()
            .filter(|sb| {
                sb.labels
                    .contains_key(outposts::orchestrator::warm::LABEL_WARM)
                    && !sb
                        .labels
                        .contains_key(outposts::orchestrator::LABEL_SESSION)
                    && sb.state == outposts::provider::SandboxState::Started
            })
            .map(|sb| sb.id)
            .collect()
    }

    /// The session's live sandbox, by the labels a listing shows.
    fn labelled(&self, session: &str) -> Option<outposts::provider::SandboxInfo> {
        self.listed().into_iter().find(|sb| {
            sb.labels
                .get(outposts::orchestrator::LABEL_SESSION)
                .map(String::as_str)
                == Some(session)
        })
    }

    fn listed(&self) -> Vec<outposts::provider::SandboxInfo> {
        self.rt.block_on(self.p.list(&Default::default())).unwrap()
    }

    fn snapshots(&self) -> Vec<pb::FileSystemSnapshot> {
        self.rt
            .block_on(self.p.client().list_snapshots(None))
            .unwrap()
    }
}

#[test]
fn a_coreweave_session_sleeps_into_a_snapshot_and_wakes_with_its_files() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, mut env) = orch_emulator(&["--sweep-delay", "1s"]);
    // The workspace is the session's working directory; the proof goes there.
    env.set("WORKDIR", "/workspace");
    let orch = Orch::start(&env, &["--provider", "coreweave", "--image", IMAGE]);
    let cw = Cw::new(&emu, &env);
    let s = new_session(&emu, Some(proof_task("kept-through-sleep")));
    let name = sandbox_name(&s);
    wait_until(WAIT, "the task", || tasks_done(&emu, &s), || orch.log());
    let first = cw.live(&name).expect("a running sandbox");
    assert_eq!(
        cw.read(&first.id, PROOF_PATH).as_deref(),
        Some("kept-through-sleep")
    );

    // Sleep: a READY snapshot of the workspace, then the sandbox is gone.
    block_on(emu.client().suspend(&s)).unwrap();
    wait_until(
        WAIT,
        "the sleep (snapshot, then delete)",
        || {
            cw.live(&name).is_none()
                && cw.snapshots().iter().any(|x| {
                    x.source_sandbox_id == first.id && x.state == pb::SnapshotState::Ready as i32
                })
        },
        || orch.log(),
    );

    // Wake: served again within seconds, in a new sandbox restored from the snapshot.
    let woke = std::time::Instant::now();
    block_on(emu.client().resume(&s)).unwrap();
    wait_until(
        Duration::from_secs(30),
        "the wake",
        || connected_at(&emu, &s, 2),
        || orch.log(),
    );
    assert!(
        woke.elapsed() < Duration::from_secs(20),
        "{:?}",
        woke.elapsed()
    );
    let second = cw.live(&name).expect("a sandbox after the wake");
    assert_ne!(second.id, first.id, "CoreWeave wakes into a new sandbox");
    assert_eq!(
        cw.read(&second.id, PROOF_PATH).as_deref(),
        Some("kept-through-sleep"),
        "the files Devin left are there"
    );
    assert!(!orch.log().contains("is being deleted"), "{}", orch.log());

    // Terminate: no sandbox, no snapshot left.
    block_on(emu.client().terminate(&s)).unwrap();
    wait_until(
        WAIT,
        "the terminate",
        || cw.live(&name).is_none() && cw.snapshots().is_empty(),
        || orch.log(),
    );
}

#[test]
fn worker_stop_snapshots_the_workspace_and_launch_restore_brings_it_back() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (env, _emu) = crate::worker_common::setup("coreweave");
    let (ids, _) = crate::worker_common::launch(&env, &["--no-wait"]);
    let id = ids[0].clone();
    env.run(&[
        "worker",
        "exec",
        &id,
        "--",
        "sh",
        "-c",
        "echo worker-notes > /workspace/notes.txt",
    ])
    .ok();
    let stop = env.run(&["--json", "worker", "stop", &id, "--yes"]);
    stop.ok();
    let doc = stop.json();
    assert_eq!(doc["snapshot"]["taken"], true, "{doc}");
    let snap = doc["snapshot"]["id"].as_str().unwrap().to_string();
    assert!(
        stop.stderr.contains(&format!("--restore {snap}")),
        "{}",
        stop.stderr
    );
    let (restored, _) = crate::worker_common::launch(&env, &["--no-wait", "--restore", &snap]);
    let out = env.run(&[
        "worker",
        "exec",
        &restored[0],
        "--",
        "cat",
        "/workspace/notes.txt",
    ]);
    out.ok();
    assert_eq!(out.stdout.trim(), "worker-notes");
    // --no-snapshot stops without one.
    let bare = env.run(&[
        "--json",
        "worker",
        "stop",
        &restored[0],
        "--yes",
        "--no-snapshot",
    ]);
    bare.ok();
    assert_eq!(bare.json()["snapshot"]["taken"], false);
    // --restore is CoreWeave's alone.
    let (local_env, _e) = crate::worker_common::setup("local");
    let r = local_env.run(&[
        "worker",
        "launch",
        "--outpost",
        "emulator",
        "--restore",
        &snap,
    ]);
    r.code(2);
    assert!(r.stderr.contains("CoreWeave"), "{}", r.stderr);
}

/// Everything a session wrote survives sleep on CoreWeave (issue 21): files in `/workspace` (the
/// default `WORKDIR` there), in its working directory and under `$HOME` (where Devin installs
/// tools); and a brand-new session's home holds what the image ships in its own home.
#[test]
fn a_coreweave_session_keeps_its_home_and_working_directory_across_sleep() {
    // About what the sandbox sees (`pwd`, `$HOME` are /workspace…): only isolation shows that.
    crate::support::host::require!(crate::support::host::BWRAP);
    let emu = Emu::start(&TestEnv::new(), &["--sweep-delay", "1s"]);
    // No WORKDIR: the provider's default.
    let env = orch_env(&emu);
    let orch = Orch::start(&env, &["--provider", "coreweave", "--image", IMAGE]);
    let cw = Cw::new(&emu, &env);
    let s = new_session(
        &emu,
        Some(
            "sh: mkdir -p \"$HOME/.local/bin\" && echo home > \"$HOME/.local/bin/sleep-proof\" \
             && echo ws > /workspace/sleep-proof.txt && echo wd > \"$PWD/workdir-proof.txt\" \
             && pwd > /workspace/workdir-path.txt && echo \"$HOME\" > /workspace/home-path.txt \
             && cat \"$HOME/.profile\" > /workspace/image-home.txt"
                .into(),
        ),
    );
    let name = sandbox_name(&s);
    wait_until(WAIT, "the task", || tasks_done(&emu, &s), || orch.log());
    let first = cw.live(&name).expect("a running sandbox");
    let read = |id: &str, p: &str| cw.read(id, p).unwrap_or_default();
    assert_eq!(
        read(&first.id, "/workspace/workdir-path.txt").trim(),
        "/workspace"
    );
    let home = read(&first.id, "/workspace/home-path.txt")
        .trim()
        .to_string();
    assert!(
        home.starts_with("/workspace/"),
        "HOME on the volume: {home}"
    );
    assert!(
        read(&first.id, "/workspace/image-home.txt").contains("shipped by the emulated"),
        "the image's own home was seeded into the new home"
    );

    block_on(emu.client().suspend(&s)).unwrap();
    wait_until(
        WAIT,
        "the sleep (snapshot, then delete)",
        || {
            cw.live(&name).is_none()
                && cw.snapshots().iter().any(|x| {
                    x.source_sandbox_id == first.id && x.state == pb::SnapshotState::Ready as i32
                })
        },
        || orch.log(),
    );
    // While it sleeps, `orchestrator status` says what is kept.
    let st = env.run(&["--json", "orchestrator", "status"]);
    let keeps = st.json()["sleep_keeps"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        keeps.contains("home directory and working directory"),
        "{keeps}"
    );

    block_on(emu.client().resume(&s)).unwrap();
    wait_until(
        WAIT,
        "the wake",
        || connected_at(&emu, &s, 2),
        || orch.log(),
    );
    let second = cw.live(&name).expect("a sandbox after the wake");
    assert_ne!(second.id, first.id);
    assert_eq!(read(&second.id, "/workspace/sleep-proof.txt"), "ws\n");
    assert_eq!(read(&second.id, "/workspace/workdir-proof.txt"), "wd\n");
    assert_eq!(
        read(&second.id, &format!("{home}/.local/bin/sleep-proof")),
        "home\n"
    );
    assert!(read(&second.id, &format!("{home}/.profile")).contains("shipped by the emulated"));
}

/// Warm capacity on CoreWeave: a warm sandbox served to a session is that session's for good
/// (found by its name, never offered again, not even by an orchestrator started after), and its
/// workspace follows the session through a sleep into the sandbox the wake creates.
#[test]
fn a_warm_served_coreweave_session_keeps_its_sandbox_across_a_restart_and_its_files_across_sleep() {
    use crate::support::warm::ready_to_serve;
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, mut env) = orch_emulator(&["--sweep-delay", "1s"]);
    env.set("WORKDIR", "/workspace");
    env.set("WARM_IDLE", "1");
    env.set("WARM_ON_EXIT", "keep");
    let args = ["--provider", "coreweave", "--image", IMAGE];
    let mut orch = Orch::start(&env, &args);
    let cw = Cw::new(&emu, &env);
    wait_until(
        WAIT,
        "a warm sandbox ready to serve",
        || ready_to_serve(&env) == 1,
        || orch.log(),
    );
    let warm = cw.warm_idle();
    assert_eq!(warm.len(), 1, "{warm:?}");

    let s = new_session(&emu, Some(proof_task("warm-then-asleep")));
    let name = sandbox_name(&s);
    wait_until(WAIT, "the task", || tasks_done(&emu, &s), || orch.log());
    let served = cw
        .labelled(&s)
        .expect("the session's sandbox, by its labels");
    assert!(warm.contains(&served.id), "not served warm: {served:?}");
    let by_name = cw.live(&name).expect("the session's sandbox, by its name");
    assert_eq!(
        (by_name.id.as_str(), by_name.name.as_str()),
        (served.id.as_str(), name.as_str())
    );
    assert_eq!(
        cw.read(&served.id, PROOF_PATH).as_deref(),
        Some("warm-then-asleep")
    );

    // A restart: the new orchestrator neither adopts the served sandbox as warm nor deletes it,
    // and the next session gets another one.
    let (code, _) = orch.terminate(Duration::from_secs(35));
    assert_eq!(code, Some(0), "{}", orch.log());
    let orch = Orch::start(&env, &args);
    wait_until(
        WAIT,
        "a new warm sandbox ready to serve",
        || ready_to_serve(&env) == 1,
        || orch.log(),
    );
    assert!(!cw.warm_idle().contains(&served.id), "{}", orch.log());
    let other = new_session(&emu, None);
    wait_until(
        WAIT,
        "the second session's launch",
        || launch_line(&orch, &other).is_some(),
        || orch.log(),
    );
    let second = cw.labelled(&other).expect("the second session's sandbox");
    assert_ne!(second.id, served.id, "served twice:\n{}", orch.log());
    assert_eq!(cw.live(&name).map(|sb| sb.id), Some(served.id.clone()));

    // Sleep and wake: a new sandbox under the session's own name, with the files.
    block_on(emu.client().suspend(&s)).unwrap();
    wait_until(
        WAIT,
        "the sleep (snapshot, then delete)",
        || {
            // The receipt of the hand-over, and the sleep's own.
            cw.live(&name).is_none()
                && cw
                    .snapshots()
                    .iter()
                    .filter(|x| {
                        x.source_sandbox_id == served.id
                            && x.state == pb::SnapshotState::Ready as i32
                    })
                    .count()
                    == 2
        },
        || orch.log(),
    );
    resume_until_woken(&emu, &orch, &s, WAIT);
    let woke = cw.live(&name).expect("a sandbox after the wake");
    assert_ne!(woke.id, served.id);
    assert!(!warm.contains(&woke.id) && woke.id != second.id, "{woke:?}");
    assert_eq!(
        cw.read(&woke.id, PROOF_PATH).as_deref(),
        Some("warm-then-asleep"),
        "the files Devin left are there\n{}",
        orch.log()
    );

    // Terminate: nothing of the session is left, its receipt included.
    block_on(emu.client().terminate(&s)).unwrap();
    wait_until(
        WAIT,
        "the terminate",
        || {
            cw.live(&name).is_none()
                && !cw
                    .snapshots()
                    .iter()
                    .any(|x| x.source_sandbox_id == served.id || x.source_sandbox_id == woke.id)
        },
        || orch.log(),
    );
}
