//! The local provider's processes: detached daemons, stop, the main command's restart loop,
//! logs, secrets in the environment, and coming back after the processes vanished.

use std::collections::BTreeMap;
use std::time::Duration;

use futures::StreamExt;
use outposts::provider::{ExecRequest, LogOptions, Provider, SandboxState};
use outposts::secrets::Secret;

use crate::local_provider::{eventually, pids_with, provider, root, sh, spec, walk};

#[tokio::test]
async fn secrets_never_reach_argv_or_disk() {
    crate::support::host::require!(crate::support::host::BWRAP);
    let (tmp, _reaper) = root();
    let p = provider(tmp.path());
    let secret = "cog_localprovidertestsecret0123456789";
    let mut sp = spec("secret");
    sp.env
        .insert("DEVIN_OUTPOSTS_TOKEN".into(), Secret::new(secret));
    sp.env
        .insert("PLAIN_SETTING".into(), Secret::new("visible"));
    // A main command keeps the supervisor and its bubblewrap running with the spec env.
    sp.command = Some(vec!["sleep".into(), "30".into()]);
    let s = p.create(&sp).await.unwrap();
    let exec_secret = "exec-secret-value-0123456789";
    // An exec that is still running while we look (bubblewrap alive, in the foreground).
    let req = ExecRequest::shell("nohup sleep 30 >/dev/null 2>&1 & sleep 3")
        .env("CONNECT_TOKEN", Secret::new(exec_secret));
    let running = {
        let p = std::sync::Arc::new(p);
        let (p2, id) = (p.clone(), s.id.clone());
        let task = tokio::spawn(async move { p2.exec(&id, &req).await });
        (p, task)
    };
    let (p, task) = running;
    let cmdlines = |pid: i32| {
        let b = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
        String::from_utf8_lossy(&b).replace('\0', " ")
    };
    let environ = |pid: i32| {
        let b = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
        String::from_utf8_lossy(&b).into_owned()
    };
    let entering_with = |value: &str| {
        pids_with(&s.id).into_iter().any(|p| {
            let argv0 = cmdlines(p).split(' ').next().unwrap_or("").to_string();
            argv0.ends_with("nsenter") && environ(p).contains(value)
        })
    };
    // The secrets travel in the environment of the running nsenters (main and exec)...
    eventually("the main command's nsenter", || entering_with(secret)).await;
    eventually("the exec's nsenter", || entering_with(exec_secret)).await;
    // ...and in no process's command line.
    for pid in pids_with(&s.id) {
        let cmdline = cmdlines(pid);
        assert!(
            !cmdline.contains(secret) && !cmdline.contains(exec_secret),
            "{pid}: {cmdline}"
        );
    }
    assert_eq!(task.await.unwrap().unwrap().exit_code, 0);
    // Inside, the value is there for the process that needs it.
    assert_eq!(
        sh(&p, &s.id, "echo $DEVIN_OUTPOSTS_TOKEN")
            .await
            .stdout
            .trim(),
        secret
    );
    // Nothing on disk holds it.
    for entry in walk(tmp.path()) {
        if entry.is_file() {
            let bytes = std::fs::read(&entry).unwrap_or_default();
            let text = String::from_utf8_lossy(&bytes);
            assert!(
                !text.contains(secret) && !text.contains(exec_secret),
                "{}",
                entry.display()
            );
        }
    }
    let rec = std::fs::read_to_string(tmp.path().join(&s.id).join("sandbox.json")).unwrap();
    assert!(rec.contains("visible") && rec.contains("DEVIN_OUTPOSTS_TOKEN"));
    p.delete(&s.id).await.unwrap();
}

#[tokio::test]
async fn detached_processes_outlive_the_exec_and_stop_ends_them() {
    crate::support::host::require!(crate::support::host::BWRAP);
    let (tmp, _reaper) = root();
    let p = provider(tmp.path());
    let s = p.create(&spec("daemon")).await.unwrap();
    // The way the orchestrator launches devin-remote.
    let out = sh(
        &p,
        &s.id,
        "nohup sh -c 'while true; do date +%s%N >> /workspace/beat; sleep 0.1; done' >/tmp/d.log 2>&1 </dev/null & echo $! > /tmp/d.pid",
    )
    .await;
    assert_eq!(out.exit_code, 0);
    let beat = p.tree(&s.id).unwrap().unwrap().join("workspace/beat");
    let size = || std::fs::metadata(&beat).map(|m| m.len()).unwrap_or(0);
    eventually("the daemon to write", || size() > 0).await;
    let before = size();
    eventually("the daemon to keep writing after the exec returned", || {
        size() > before
    })
    .await;
    // A careless `cmd &` without redirection does not hold the exec.
    let t = std::time::Instant::now();
    let out = sh(&p, &s.id, "sleep 20 & echo quick").await;
    assert_eq!(out.stdout, "quick\n");
    assert!(t.elapsed() < Duration::from_secs(5));

    p.stop(&s.id).await.unwrap();
    assert!(
        pids_with(&s.id).is_empty(),
        "stop ends every process of the sandbox"
    );
    let frozen = size();
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(size(), frozen);
    assert!(frozen > 0, "files are kept");
    p.delete(&s.id).await.unwrap();
}

#[tokio::test]
async fn main_command_restart_loop_and_completion() {
    crate::support::host::require!(crate::support::host::BWRAP);
    let (tmp, _reaper) = root();
    let p = provider(tmp.path());
    let mut bad = spec("bad-worker");
    bad.command = Some(vec![
        "sh".into(),
        "-c".into(),
        "echo bad token >&2; exit 3".into(),
    ]);
    let s = p.create(&bad).await.unwrap();
    assert_eq!(s.containers.len(), 1);
    let mut info = None;
    for _ in 0..300 {
        let i = p.get(&s.id).await.unwrap().unwrap();
        if i.containers[0].restart_count >= 2 {
            info = Some(i);
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let info = info.expect("restarts");
    let c = &info.containers[0];
    assert_eq!(c.name, "main");
    assert_eq!(c.exit_code, Some(3));
    assert!(matches!(c.state.as_str(), "waiting" | "running"), "{c:?}");
    assert_eq!(info.state, SandboxState::Started);
    let lines: Vec<String> = p
        .logs(
            &s.id,
            &LogOptions {
                tail: Some(2),
                follow: false,
            },
        )
        .await
        .unwrap()
        .map(|l| l.unwrap())
        .collect()
        .await;
    assert_eq!(lines, ["bad token", "bad token"]);

    // The supervisor is detached from us: a new provider sees it run; stop ends it.
    let again = provider(tmp.path());
    assert_eq!(
        again.get(&s.id).await.unwrap().unwrap().state,
        SandboxState::Started
    );
    again.stop(&s.id).await.unwrap();
    assert!(pids_with(&s.id).is_empty());
    let stopped = p.get(&s.id).await.unwrap().unwrap();
    assert_eq!(stopped.state, SandboxState::Stopped);
    assert_eq!(stopped.containers[0].state, "terminated");
    let n = stopped.containers[0].restart_count;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(
        p.get(&s.id).await.unwrap().unwrap().containers[0].restart_count,
        n,
        "no restarts after stop"
    );

    // Exit 0 completes without restarts.
    let mut good = spec("good-worker");
    good.command = Some(vec![
        "sh".into(),
        "-c".into(),
        "echo done; echo $HOME".into(),
    ]);
    let g = p.create(&good).await.unwrap();
    let mut last = None;
    for _ in 0..200 {
        let i = p.get(&g.id).await.unwrap().unwrap();
        if i.raw_state == "completed" {
            last = Some(i);
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let done = last.expect("completion");
    assert_eq!(done.containers[0].state, "terminated");
    assert_eq!(
        (
            done.containers[0].exit_code,
            done.containers[0].restart_count
        ),
        (Some(0), 0)
    );
    p.delete(&s.id).await.unwrap();
    p.delete(&g.id).await.unwrap();
}

#[tokio::test]
async fn logs_tail_and_follow() {
    crate::support::host::require!(crate::support::host::BWRAP);
    let (tmp, _reaper) = root();
    let p = provider(tmp.path());
    let mut sp = spec("logger");
    sp.command = Some(vec![
        "sh".into(),
        "-c".into(),
        "for i in 1 2 3; do echo line $i; done; while [ ! -f /tmp/go ]; do sleep 0.05; done; echo line 4; sleep 30".into(),
    ]);
    let s = p.create(&sp).await.unwrap();
    let log = tmp.path().join(&s.id).join("main.log");
    eventually("three lines", || {
        std::fs::read_to_string(&log)
            .unwrap_or_default()
            .lines()
            .count()
            >= 3
    })
    .await;
    let mut stream = p
        .logs(
            &s.id,
            &LogOptions {
                tail: Some(2),
                follow: true,
            },
        )
        .await
        .unwrap();
    assert_eq!(stream.next().await.unwrap().unwrap(), "line 2");
    assert_eq!(stream.next().await.unwrap().unwrap(), "line 3");
    p.write_file(&s.id, "/tmp/go", b"").await.unwrap();
    let next = tokio::time::timeout(Duration::from_secs(10), stream.next())
        .await
        .unwrap();
    assert_eq!(next.unwrap().unwrap(), "line 4");
    // Stopping the sandbox ends the stream.
    p.stop(&s.id).await.unwrap();
    let end = tokio::time::timeout(Duration::from_secs(10), stream.next())
        .await
        .unwrap();
    assert!(end.is_none());

    // Without a main command, logs are the lifecycle log.
    let plain = p.create(&spec("plain")).await.unwrap();
    p.stop(&plain.id).await.unwrap();
    let lines: Vec<String> = p
        .logs(&plain.id, &LogOptions::default())
        .await
        .unwrap()
        .map(|l| l.unwrap())
        .collect()
        .await;
    assert!(
        lines.iter().any(|l| l.contains("created plain")),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l.contains("stopped")), "{lines:?}");
    p.delete(&s.id).await.unwrap();
    p.delete(&plain.id).await.unwrap();
}

#[tokio::test]
async fn sandboxes_come_back_after_their_processes_vanished() {
    crate::support::host::require!(crate::support::host::BWRAP);
    // What a host reboot does: every process gone, the records and files still there.
    let (tmp, _reaper) = root();
    let p = provider(tmp.path());
    let plain = p.create(&spec("plain-reboot")).await.unwrap();
    p.write_file(&plain.id, "/workspace/kept", b"yes")
        .await
        .unwrap();
    let mut sp = spec("worker-reboot");
    sp.command = Some(vec![
        "sh".into(),
        "-c".into(),
        "echo run >> /workspace/runs; sleep 30".into(),
    ]);
    let worker = p.create(&sp).await.unwrap();
    let runs = p.tree(&worker.id).unwrap().unwrap().join("workspace/runs");
    eventually("the first run", || {
        std::fs::read_to_string(&runs)
            .unwrap_or_default()
            .lines()
            .count()
            == 1
    })
    .await;
    for id in [&plain.id, &worker.id] {
        for pid in p.processes(id).unwrap() {
            // SAFETY: kill(2) on processes of our own sandboxes.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
    }
    eventually("everything to die", || {
        p.processes(&plain.id).unwrap().is_empty() && p.processes(&worker.id).unwrap().is_empty()
    })
    .await;

    // A new provider (the restarted orchestrator) tells the truth about them...
    let again = provider(tmp.path());
    assert_eq!(
        again.get(&plain.id).await.unwrap().unwrap().state,
        SandboxState::Started
    );
    let w = again.get(&worker.id).await.unwrap().unwrap();
    assert_eq!(w.state, SandboxState::Error, "{w:?}");
    assert!(w.error_reason.unwrap().contains("start"));
    assert_eq!(w.containers[0].state, "terminated");

    // ...an exec boots a plain sandbox again, with its files...
    assert_eq!(
        sh(&again, &plain.id, "cat /workspace/kept").await.stdout,
        "yes"
    );
    // ...and start brings the main command back.
    again.start(&worker.id).await.unwrap();
    eventually("the second run", || {
        std::fs::read_to_string(&runs)
            .unwrap_or_default()
            .lines()
            .count()
            == 2
    })
    .await;
    let mut state = None;
    for _ in 0..100 {
        let w = again.get(&worker.id).await.unwrap().unwrap();
        state = Some((w.state, w.containers[0].state.clone()));
        if w.containers[0].state == "running" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(state, Some((SandboxState::Started, "running".to_string())));
    again.delete(&plain.id).await.unwrap();
    again.delete(&worker.id).await.unwrap();
    assert!(pids_with(&worker.id).is_empty());
}

#[tokio::test]
async fn secrets_of_a_main_command_are_not_recovered_from_disk() {
    crate::support::host::require!(crate::support::host::BWRAP);
    let (tmp, _reaper) = root();
    let p = provider(tmp.path());
    let token = "cog_workertokennotondisk0123456789";
    let mut sp = spec("token-worker");
    sp.env
        .insert("DEVIN_OUTPOSTS_TOKEN".into(), Secret::new(token));
    sp.command = Some(vec![
        "sh".into(),
        "-c".into(),
        "echo token=${#DEVIN_OUTPOSTS_TOKEN}; sleep 30".into(),
    ]);
    let s = p.create(&sp).await.unwrap();
    p.stop(&s.id).await.unwrap();
    // The same process still knows the value: start works.
    p.start(&s.id).await.unwrap();
    p.stop(&s.id).await.unwrap();

    // A restarted process does not: start says so, names the variable, and starts nothing.
    let again = provider(tmp.path());
    let err = again.start(&s.id).await.unwrap_err().to_string();
    assert!(
        err.contains("DEVIN_OUTPOSTS_TOKEN") && !err.contains(token),
        "{err}"
    );
    assert_eq!(
        again.get(&s.id).await.unwrap().unwrap().state,
        SandboxState::Stopped
    );
    again
        .remember_secret_env(
            &s.id,
            &BTreeMap::from([("DEVIN_OUTPOSTS_TOKEN".to_string(), Secret::new(token))]),
        )
        .unwrap();
    let log = tmp.path().join(&s.id).join("main.log");
    let want = format!("token={}", token.len());
    let seen = || {
        std::fs::read_to_string(&log)
            .unwrap_or_default()
            .lines()
            .filter(|l| *l == want)
            .count()
    };
    let before = seen();
    again.start(&s.id).await.unwrap();
    eventually("the worker to see its token", || seen() > before).await;
    again.delete(&s.id).await.unwrap();
}

/// Helper run in a child process by `the_supervisor_outlives_the_process_that_created_it`.
#[tokio::test]
#[ignore = "helper: runs only when spawned by another test"]
async fn helper_create_worker_and_exit() {
    let Ok(root) = std::env::var("OUTPOSTS_TEST_HELPER_ROOT") else {
        return;
    };
    let p = provider(std::path::Path::new(&root));
    let mut sp = spec("detached-worker");
    sp.env.insert(
        "WORKER_TOKEN".into(),
        Secret::new("helper-secret-0123456789"),
    );
    sp.command = Some(vec![
        "sh".into(),
        "-c".into(),
        "echo up ${#WORKER_TOKEN}; exit 1".into(),
    ]);
    p.create(&sp).await.unwrap();
}

#[tokio::test]
async fn the_supervisor_outlives_the_process_that_created_it() {
    crate::support::host::require!(crate::support::host::BWRAP);
    let (tmp, _reaper) = root();
    // Like `outposts worker launch`: a short-lived process creates the sandbox and exits.
    let status = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "local_provider_procs::helper_create_worker_and_exit",
            "--ignored",
            "--quiet",
        ])
        .env("OUTPOSTS_TEST_HELPER_ROOT", tmp.path())
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let p = provider(tmp.path());
    let id = p.get("detached-worker").await.unwrap().unwrap().id;
    let restarts = || {
        let p = &p;
        let id = id.clone();
        async move { p.get(&id).await.unwrap().unwrap().containers[0].restart_count }
    };
    let first = restarts().await;
    let mut later = first;
    for _ in 0..200 {
        later = restarts().await;
        if later >= first + 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        later >= first + 2,
        "still restarting after its creator exited: {first} -> {later}"
    );
    // It still has the secret it was created with (held by the supervisor, not on disk).
    let log = std::fs::read_to_string(tmp.path().join(&id).join("main.log")).unwrap();
    assert!(log.lines().all(|l| l == "up 24"), "{log}");
    p.delete(&id).await.unwrap();
    assert!(pids_with(&id).is_empty());
}

/// The emulator's sandboxes at shutdown: every process ends, every file stays.
#[tokio::test]
async fn emulator_shutdown_leaves_nothing_running_and_keeps_files() {
    crate::support::host::require!(crate::support::host::BWRAP);
    let dir = tempfile::tempdir().unwrap();
    let sb = outposts::emulator::sandboxes::Sandboxes::new(&dir.path().join("sandboxes")).unwrap();
    let p = sb.provider();
    let mut sp =
        outposts::provider::SandboxSpec::new("emu-worker", outposts::provider::Source::Default);
    sp.command = Some(vec!["sleep".into(), "60".into()]);
    let s = p.create(&sp).await.unwrap();
    let out = p
        .exec(
            &s.id,
            &ExecRequest::shell("echo kept > /workspace/f; nohup sleep 60 >/dev/null 2>&1 &"),
        )
        .await
        .unwrap();
    assert_eq!(out.exit_code, 0, "{}", out.stderr);
    assert!(!p.processes(&s.id).unwrap().is_empty());
    sb.shutdown().await;
    assert!(p.processes(&s.id).unwrap().is_empty());
    let info = p.get(&s.id).await.unwrap().unwrap();
    assert_eq!(info.state, SandboxState::Stopped);
    assert_eq!(
        p.read_file(&s.id, "/workspace/f").await.unwrap().unwrap(),
        b"kept\n"
    );
    p.delete(&s.id).await.unwrap();
}
