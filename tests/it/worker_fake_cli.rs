//! The emulator's fake `devin` CLI, run on the host as the orchestrator's `--launch cli` and a
//! fixed worker run it: direct-serve, queue mode, `--once`, and its auth failure.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use outposts::api::devin::ClaimOutcome;
use outposts::emulator::devin::NewSession;

use crate::devin_queue::devin_client;
use crate::support::{Emu, block_on};
use crate::worker_common::*;

fn cli(emu: &Emu) -> PathBuf {
    PathBuf::from(emu.env_value("OUTPOSTS_DEVIN_CLI_DIR")).join("devin")
}

/// The fake CLI with a clean environment (`vars` on top of PATH, HOME, TMPDIR).
fn devin(emu: &Emu, home: &Path, args: &[&str], vars: &[(&str, &str)]) -> Command {
    let mut c = Command::new(cli(emu));
    c.args(args)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("TMPDIR", home)
        .current_dir(home)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in vars {
        c.env(k, v);
    }
    c
}

fn wait_exit(mut child: Child, timeout: Duration) -> Output {
    let started = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        if started.elapsed() > timeout {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "the fake CLI did not exit within {timeout:?}\nstdout:\n{}\nstderr:\n{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn text(o: &Output) -> String {
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn direct_serve_serves_one_session_without_the_queue() {
    let (env, emu) = setup("local");
    let home = env.path("direct");
    std::fs::create_dir_all(&home).unwrap();
    let sid = block_on(emu.client().new_sessions(&NewSession {
        task: Some(
            "Write the exact text direct-proof-1 to proof.txt and read the file back.".into(),
        ),
        ..Default::default()
    }))
    .unwrap()[0]
        .session_id
        .clone();
    let (token, gateway) =
        match block_on(devin_client(&emu).claim(&sid, "orchestrator-test")).unwrap() {
            ClaimOutcome::Won(e) => (
                e.connect_token.unwrap().expose().to_string(),
                e.gateway_url.unwrap(),
            ),
            other => panic!("{other:?}"),
        };
    let cache = home.join("cache");
    let cache_s = cache.to_string_lossy().into_owned();
    let base = |extra: &[(&'static str, &str)]| -> Vec<(&'static str, String)> {
        let mut v: Vec<(&'static str, String)> = vec![
            ("DEVIN_REMOTE_SESSION_TOKEN", token.clone()),
            ("DEVIN_OUTPOST_GATEWAY_URL", gateway.clone()),
            ("DEVIN_WORKER_CACHE_DIR", cache_s.clone()),
        ];
        v.extend(extra.iter().map(|(k, x)| (*k, x.to_string())));
        v
    };
    // Like the real CLI, it refuses to start without some account token.
    let vars = base(&[]);
    let refs: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let out = devin(&emu, &home, &["worker", "start", "--session", &sid], &refs)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("DEVIN_OUTPOSTS_TOKEN"),
        "{}",
        text(&out)
    );

    let vars = base(&[("DEVIN_OUTPOSTS_TOKEN", "placeholder-direct-serve")]);
    let refs: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let before = emu.requests().len() as u64;
    let child = devin(&emu, &home, &["worker", "start", "--session", &sid], &refs)
        .spawn()
        .unwrap();
    wait_for(Duration::from_secs(30), "the task done", || {
        task_done(&session(&emu, &sid)).then_some(())
    });
    assert_eq!(
        std::fs::read_to_string(home.join("proof.txt")).unwrap(),
        "direct-proof-1"
    );
    terminate(&env, &sid);
    let out = wait_exit(child, Duration::from_secs(30));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let log = text(&out);
    assert!(log.contains("Direct-serve: session"), "{log}");
    assert!(log.contains("remote: session ended (terminated)"), "{log}");
    assert!(!log.contains(&token), "the connect token is never printed");
    // The remote was downloaded into the cache and verified; the queue was never contacted.
    assert!(std::fs::read_dir(&cache).unwrap().count() >= 1);
    let after = block_on(emu.client().requests(before)).unwrap();
    assert!(
        after
            .iter()
            .any(|r| r.path.starts_with("/static/devin-rs/remote/"))
    );
    assert!(after.iter().any(|r| r.path.starts_with("/gateway/")));
    assert!(
        !after.iter().any(|r| r.path.starts_with("/opbeta")),
        "direct-serve never talks to the fleet API: {:?}",
        after.iter().map(|r| &r.path).collect::<Vec<_>>()
    );
    // The orchestrator still holds the claim (it releases, not the CLI).
    assert_eq!(
        session(&emu, &sid).acceptor_id.as_deref(),
        Some("orchestrator-test")
    );
}

#[test]
fn queue_mode_once_and_auth_failure() {
    let (env, emu) = setup("local");
    let home = env.path("queue");
    std::fs::create_dir_all(&home).unwrap();
    let api = emu.base_url.clone();
    let token = emu.env_value("DEVIN_OUTPOSTS_TOKEN");

    let v = devin(&emu, &home, &["--version"], &[]).output().unwrap();
    assert!(String::from_utf8_lossy(&v.stdout).starts_with("devin "));

    // A rejected token: the auth error the markers look for, exit 1, the token never shown.
    let bad = format!("wrong-token-{}", uuid::Uuid::new_v4().simple());
    let out = devin(
        &emu,
        &home,
        &["worker", "start", "--outpost=emulator"],
        &[("DEVIN_OUTPOSTS_TOKEN", &bad), ("DEVIN_API_URL", &api)],
    )
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let t = text(&out);
    assert!(t.contains("Error: authentication failed"), "{t}");
    assert!(t.contains("HTTP 401"), "{t}");
    assert!(!t.contains(&bad));

    // An unknown outpost.
    let out = devin(
        &emu,
        &home,
        &["worker", "start", "--outpost", "nope"],
        &[("DEVIN_OUTPOSTS_TOKEN", &token), ("DEVIN_API_URL", &api)],
    )
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("no outpost named \"nope\""),
        "{}",
        text(&out)
    );

    // --once: one session, under a stable acceptor id kept in the data dir, then exit 0.
    let sid = new_session_with(&emu, "sh: echo once");
    let child = devin(
        &emu,
        &home,
        &[
            "worker",
            "start",
            "--outpost=emulator",
            "--once",
            "--poll-interval-secs",
            "1",
        ],
        &[("DEVIN_OUTPOSTS_TOKEN", &token), ("DEVIN_API_URL", &api)],
    )
    .spawn()
    .unwrap();
    wait_for(Duration::from_secs(30), "the task done", || {
        task_done(&session(&emu, &sid)).then_some(())
    });
    let acceptor = session(&emu, &sid).acceptor_id.unwrap();
    let kept = std::fs::read_to_string(home.join(".devin/worker/acceptor_id")).unwrap();
    assert_eq!(kept.trim(), acceptor);
    terminate(&env, &sid);
    let out = wait_exit(child, Duration::from_secs(30));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let t = text(&out);
    assert!(
        t.contains("Worker ready: waiting for sessions on outpost emulator"),
        "{t}"
    );
    assert!(
        t.contains(&format!("Session {sid} ended (terminated); released")),
        "{t}"
    );
    assert!(history(&emu).iter().any(|h| h.event == "release"
        && h.session_id == sid
        && h.acceptor_id.as_deref() == Some(acceptor.as_str())));
}

fn new_session_with(emu: &Emu, task: &str) -> String {
    block_on(emu.client().new_sessions(&NewSession {
        task: Some(task.into()),
        ..Default::default()
    }))
    .unwrap()[0]
        .session_id
        .clone()
}
