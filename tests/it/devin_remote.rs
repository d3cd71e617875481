//! The remote distribution and the fake remote — a real executable, run here on the host.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use outposts::api::devin::ClaimOutcome;
use outposts::emulator::devin::NewSession;
use outposts::emulator::devin::remote::{CORRUPT_SHA, CURRENT_SHA};
use sha2::{Digest, Sha256};

use crate::devin_queue::{devin_client, new_sessions};
use crate::support::{Emu, TestEnv, block_on, emulated_env};

fn fetch(emu: &Emu, file: &str) -> (u16, Vec<u8>) {
    block_on(async {
        let resp = reqwest::get(format!("{}/static/devin-rs/remote/{file}", emu.base_url))
            .await
            .unwrap();
        let status = resp.status().as_u16();
        (status, resp.bytes().await.unwrap().to_vec())
    })
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).trim().to_string()
}

/// Download the fake remote for `sha`, verify it like the orchestrator will, make it executable.
fn install_remote(emu: &Emu, dir: &Path, sha: &str) -> PathBuf {
    let (status, bin) = fetch(emu, &format!("devin-remote_{sha}_linux_x64"));
    assert_eq!(status, 200);
    let (status, sum) = fetch(emu, &format!("devin-remote_{sha}_linux_x64.sha256"));
    assert_eq!(status, 200);
    assert_eq!(hex::encode(Sha256::digest(&bin)), text(&sum));
    let path = dir.join("devin-remote");
    std::fs::write(&path, &bin).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

fn claim(emu: &Emu, id: &str) -> (String, String) {
    match block_on(devin_client(emu).claim(id, "acc-host")).unwrap() {
        ClaimOutcome::Won(e) => (
            e.connect_token.unwrap().expose().to_string(),
            e.gateway_url.unwrap(),
        ),
        other => panic!("{other:?}"),
    }
}

fn serve(bin: &Path, cwd: &Path, env: &[(&str, &str)]) -> Child {
    let mut c = Command::new(bin);
    c.arg("serve")
        .current_dir(cwd)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("TMPDIR", cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        c.env(k, v);
    }
    c.spawn().expect("run the fake remote")
}

fn wait_exit(child: &mut Child, within: Duration) -> (i32, String) {
    let deadline = Instant::now() + within;
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the fake remote did not exit within {within:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut out = String::new();
    if let Some(mut o) = child.stdout.take() {
        o.read_to_string(&mut out).unwrap();
    }
    if let Some(mut e) = child.stderr.take() {
        e.read_to_string(&mut out).unwrap();
    }
    (status.code().unwrap_or(-1), out)
}

fn wait_for<T>(what: &str, mut f: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        if let Some(v) = f() {
            return v;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn distribution_serves_latest_binaries_and_checksums() {
    let env = TestEnv::new();
    let emu = Emu::start(&env, &[]);
    for suffix in ["linux_x64", "linux_arm64", "macos_arm64", "windows_x64.exe"] {
        let (status, latest) = fetch(&emu, &format!("latest_{suffix}"));
        assert_eq!((status, text(&latest)), (200, CURRENT_SHA.to_string()));
        let (status, bin) = fetch(&emu, &format!("devin-remote_{CURRENT_SHA}_{suffix}"));
        assert_eq!(status, 200);
        let (_, sum) = fetch(&emu, &format!("devin-remote_{CURRENT_SHA}_{suffix}.sha256"));
        assert_eq!(text(&sum), hex::encode(Sha256::digest(&bin)));
    }
    let (_, a) = fetch(&emu, "devin-remote_412f0e9b19_linux_x64.sha256");
    let (_, b) = fetch(
        &emu,
        &format!("devin-remote_{CURRENT_SHA}_linux_x64.sha256"),
    );
    assert_ne!(a, b, "each sha has its own bytes");
    let (_, bin) = fetch(&emu, "devin-remote_412f0e9b19_linux_x64");
    assert!(String::from_utf8_lossy(&bin).contains("412f0e9b19"));
    let (_, bad_bin) = fetch(&emu, &format!("devin-remote_{CORRUPT_SHA}_linux_x64"));
    let (_, bad_sum) = fetch(
        &emu,
        &format!("devin-remote_{CORRUPT_SHA}_linux_x64.sha256"),
    );
    assert_ne!(text(&bad_sum), hex::encode(Sha256::digest(&bad_bin)));
    assert_eq!(text(&bad_sum).len(), 64);
    for missing in [
        "latest_linux_x86",
        "devin-remote_nothex_linux_x64",
        "devin-remote_412f0e9b19_solaris",
        "devin-remote_412f0e9b19_linux_x64.md5",
    ] {
        assert_eq!(fetch(&emu, missing).0, 404, "{missing}");
    }
}

#[test]
fn the_fake_remote_connects_writes_the_proof_file_and_exits_0_at_suspend() {
    let env = TestEnv::new();
    let emu = Emu::start(&env, &[]);
    let work = tempfile::tempdir().unwrap();
    let bin = install_remote(&emu, work.path(), CURRENT_SHA);
    let abs = work.path().join("abs dir/outpost-proof.txt");
    let task = format!(
        "Write the exact text proof-7c1d to {} and read the file back. Report its contents.",
        abs.display()
    );
    let id = new_sessions(
        &emu,
        NewSession {
            task: Some(task),
            ..Default::default()
        },
    )
    .remove(0);
    block_on(emu.client().add_task(
        &id,
        "Write the exact text `rel-proof` to outpost-proof.txt and read the file back. Report its contents.",
    ))
    .unwrap();
    let (token, gateway) = claim(&emu, &id);
    assert!(gateway.starts_with("ws://127.0.0.1:") && gateway.ends_with("/gateway"));
    let state = work.path().join("state");
    let mut child = serve(
        &bin,
        work.path(),
        &[
            ("DEVIN_OUTPOST_GATEWAY_URL", &gateway),
            ("DEVIN_OUTPOST_CONNECT_TOKEN", &token),
            ("DEVIN_OUTPOST_SESSION_ID", &id),
            ("DEVIN_REMOTE_STATE_DIR", state.to_str().unwrap()),
        ],
    );
    let mut first = String::new();
    BufReader::new(child.stdout.as_mut().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert_eq!(first.trim(), "connected to outpost gateway");
    let info = wait_for("both tasks", || {
        let s = block_on(emu.client().session(&id)).unwrap().unwrap();
        s.tasks.iter().all(|t| t.status == "done").then_some(s)
    });
    assert_eq!(info.session_status, "running");
    assert!(info.remote_connected);
    assert_eq!(std::fs::read_to_string(&abs).unwrap(), "proof-7c1d");
    assert_eq!(
        std::fs::read_to_string(work.path().join("outpost-proof.txt")).unwrap(),
        "rel-proof"
    );
    assert_eq!(info.tasks[0].output.as_deref(), Some("proof-7c1d"));
    assert!(state.is_dir());
    // A shell task runs in the remote's working directory; its output is recorded.
    block_on(
        emu.client()
            .add_task(&id, "sh: cat outpost-proof.txt; echo; pwd; exit 3"),
    )
    .unwrap();
    let t = wait_for("the shell task", || {
        let s = block_on(emu.client().session(&id)).unwrap().unwrap();
        s.tasks
            .into_iter()
            .find(|t| t.action == "shell" && t.status != "queued" && t.status != "sent")
    });
    assert_eq!(t.status, "failed");
    assert_eq!(t.exit_code, Some(3));
    let out = t.output.unwrap();
    assert!(out.starts_with("rel-proof\n"), "{out}");
    assert!(
        out.contains(work.path().file_name().unwrap().to_str().unwrap()),
        "{out}"
    );

    block_on(emu.client().suspend(&id)).unwrap();
    let (code, output) = wait_exit(&mut child, Duration::from_secs(10));
    assert_eq!(code, 0, "{output}");
    assert!(output.contains("session ended (suspended)"), "{output}");
    assert!(!output.contains(&token), "the remote printed its token");
    let history = block_on(emu.client().history(Some(&id))).unwrap();
    assert!(history.iter().any(|h| h.event == "connect"));
}

#[test]
fn the_fake_remote_refuses_bad_setups_and_stale_tokens() {
    let env = TestEnv::new();
    let emu = Emu::start(&env, &[]);
    let work = tempfile::tempdir().unwrap();
    let bin = install_remote(&emu, work.path(), "412f0e9b19");
    let v = Command::new(&bin).arg("--version").output().unwrap();
    assert!(v.status.success());
    assert!(String::from_utf8_lossy(&v.stdout).contains("412f0e9b19"));
    let h = Command::new(&bin).arg("--help").output().unwrap();
    assert!(String::from_utf8_lossy(&h.stdout).contains("serve"));

    let mut missing = serve(
        &bin,
        work.path(),
        &[("DEVIN_OUTPOST_SESSION_ID", "devin-x")],
    );
    let (code, out) = wait_exit(&mut missing, Duration::from_secs(5));
    assert_eq!(code, 2);
    assert!(out.contains("DEVIN_OUTPOST_GATEWAY_URL"), "{out}");

    let gateway = format!("{}/gateway", emu.base_url.replace("http://", "ws://"));
    let mut wrong = serve(
        &bin,
        work.path(),
        &[
            ("DEVIN_OUTPOST_GATEWAY_URL", &gateway),
            ("DEVIN_OUTPOST_CONNECT_TOKEN", "ct_wrong0000000000"),
            ("DEVIN_OUTPOST_SESSION_ID", "devin-x"),
        ],
    );
    let (code, out) = wait_exit(&mut wrong, Duration::from_secs(10));
    assert_eq!(code, 1);
    assert!(out.contains("rejected the connect token"), "{out}");
    assert!(!out.contains("ct_wrong0000000000"), "{out}");

    // A token whose claim was released (the session still live) is stale.
    let id = new_sessions(&emu, Default::default()).remove(0);
    let (token, gateway) = claim(&emu, &id);
    block_on(devin_client(&emu).release(&id, "acc-host")).unwrap();
    let mut stale = serve(
        &bin,
        work.path(),
        &[
            ("DEVIN_OUTPOST_GATEWAY_URL", &gateway),
            ("DEVIN_OUTPOST_CONNECT_TOKEN", &token),
            ("DEVIN_OUTPOST_SESSION_ID", &id),
        ],
    );
    let (code, out) = wait_exit(&mut stale, Duration::from_secs(10));
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("stale connect token"), "{out}");
    let s = block_on(emu.client().session(&id)).unwrap().unwrap();
    assert_eq!(
        s.session_status, "pending",
        "a refused remote never marks running"
    );
}

#[test]
fn a_terminated_session_ends_its_remote_and_renewal_keeps_old_tokens_working() {
    let env = TestEnv::new();
    let emu = Emu::start(&env, &[]);
    let work = tempfile::tempdir().unwrap();
    let bin = install_remote(&emu, work.path(), CURRENT_SHA);
    let id = new_sessions(&emu, Default::default()).remove(0);
    let (token, gateway) = claim(&emu, &id);
    // Renewal hands out a fresh token; the first one (given to the remote) keeps working.
    let (fresh, _) = claim(&emu, &id);
    assert_ne!(fresh, token);
    let mut child = serve(
        &bin,
        work.path(),
        &[
            ("DEVIN_OUTPOST_GATEWAY_URL", &gateway),
            ("DEVIN_OUTPOST_CONNECT_TOKEN", &token),
            ("DEVIN_OUTPOST_SESSION_ID", &id),
        ],
    );
    wait_for("running", || {
        let s = block_on(emu.client().session(&id)).unwrap().unwrap();
        (s.session_status == "running").then_some(())
    });
    let r = env.run(&[
        "emulator",
        "session",
        "terminate",
        &id,
        "--port",
        &emu.port.to_string(),
    ]);
    r.ok();
    let (code, out) = wait_exit(&mut child, Duration::from_secs(10));
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("session ended (terminated)"), "{out}");
}

/// What a careful client checks: the process it started is the downloaded file itself, not a
/// shell interpreting it (`/proc/<pid>/exe`).
#[test]
fn the_served_remote_is_an_executable_whose_process_is_the_downloaded_file() {
    let env = TestEnv::new();
    let emu = Emu::start(&env, &[]);
    let work = tempfile::tempdir().unwrap();
    let bin = install_remote(&emu, work.path(), CURRENT_SHA);
    assert!(std::fs::read(&bin).unwrap().starts_with(b"\x7fELF"));
    let id = new_sessions(&emu, Default::default()).remove(0);
    let (token, gateway) = claim(&emu, &id);
    let mut child = serve(
        &bin,
        work.path(),
        &[
            ("DEVIN_OUTPOST_GATEWAY_URL", &gateway),
            ("DEVIN_OUTPOST_CONNECT_TOKEN", &token),
            ("DEVIN_OUTPOST_SESSION_ID", &id),
        ],
    );
    let exe = std::fs::read_link(format!("/proc/{}/exe", child.id())).unwrap();
    assert_eq!(exe, std::fs::canonicalize(&bin).unwrap());
    wait_for("the connect", || {
        let s = block_on(emu.client().session(&id)).unwrap().unwrap();
        s.remote_connected.then_some(())
    });
    block_on(emu.client().terminate(&id)).unwrap();
    let (code, output) = wait_exit(&mut child, Duration::from_secs(10));
    assert_eq!(code, 0, "{output}");
    let v = Command::new(&bin).arg("--version").output().unwrap();
    assert!(
        String::from_utf8_lossy(&v.stdout).contains(&format!("devin-remote {CURRENT_SHA} ")),
        "{v:?}"
    );
}

/// Sessions are pinned to the published build by default, like Devin's own; `--sha none`
/// keeps the unpinned case (clients then fetch `latest_*`).
#[test]
fn sessions_are_pinned_to_the_published_build_by_default() {
    let (env, emu) = emulated_env(&[]);
    let pinned = env.run(&["--json", "emulator", "session", "new"]);
    pinned.ok();
    assert_eq!(pinned.json()[0]["remote_binary_sha"], CURRENT_SHA);
    let (_, latest) = fetch(&emu, "latest_linux_x64");
    assert_eq!(text(&latest), CURRENT_SHA, "the pin is the published build");
    let bare = env.run(&["--json", "emulator", "session", "new", "--sha", "none"]);
    bare.ok();
    assert!(
        bare.json()[0]["remote_binary_sha"].is_null(),
        "{}",
        bare.stdout
    );
    // The queue shows the pin too (what a claim hands out).
    let id = pinned.json()[0]["session_id"].as_str().unwrap().to_string();
    let entry = block_on(devin_client(&emu).get(&id)).unwrap().unwrap();
    assert_eq!(entry.remote_binary_sha.as_deref(), Some(CURRENT_SHA));
}
