//! The orchestrator's smaller promises: REPOS pre-cloned once, metrics and health endpoints,
//! JSON logs, a second signal, and `outposts demo` itself.

use std::time::Duration;

use outposts::orchestrator::sandbox_name;
use outposts::provider::Provider;

use crate::support::host::{self, require};
use crate::support::orch::*;
use crate::support::{TestEnv, block_on};

const WAIT: Duration = Duration::from_secs(60);

#[test]
fn repos_are_cloned_into_the_workdir_once_and_left_alone() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    // The repository is served over HTTP by `python3 -m http.server`.
    crate::support::host::require!(crate::support::host::PYTHON3);
    let (emu, mut env) = orch_emulator(&["--sweep-delay", "1s"]);
    let (bare, readme) = crate::support::daytona::bare_repo(&env);
    // Sandboxes cannot see host paths: serve the repository over HTTP (git's dumb protocol).
    let git = std::process::Command::new("git")
        .arg("update-server-info")
        .current_dir(&bare)
        .output()
        .unwrap();
    assert!(git.status.success());
    let server = HttpDir::serve(bare.parent().unwrap());
    env.set(
        "REPOS",
        format!("http://127.0.0.1:{}/repo.git", server.port),
    );
    let mut orch = Orch::start(&env, &["--provider", "local"]);
    let local = local(&env);
    let s = new_session(&emu, Some(proof_task("r1")));
    wait_until(WAIT, "the task", || tasks_done(&emu, &s), || orch.log());
    let sb = block_on(local.get(&sandbox_name(&s))).unwrap().unwrap();
    let file = "/home/daytona/workspace/repo/README";
    let got = block_on(local.read_file(&sb.id, file))
        .unwrap()
        .expect("the repository was cloned into WORKDIR");
    assert!(String::from_utf8_lossy(&got).contains(&readme));
    // The user's work in the clone survives sleep and wake: the clone is not redone.
    block_on(local.write_file(&sb.id, file, b"edited by the session")).unwrap();
    suspend_until_stopped(&emu, &orch, &local, &s, &sb.id, WAIT);
    resume_until_woken(&emu, &orch, &s, WAIT);
    let after = block_on(local.read_file(&sb.id, file)).unwrap().unwrap();
    assert_eq!(after, b"edited by the session");
    let _ = orch.terminate(Duration::from_secs(35));
}

/// `python3 -m http.server` on a free loopback port; killed on drop.
struct HttpDir {
    child: std::process::Child,
    port: u16,
}

impl HttpDir {
    fn serve(dir: &std::path::Path) -> HttpDir {
        use std::io::BufRead;
        let mut child = std::process::Command::new("python3")
            .args([
                "-u",
                "-m",
                "http.server",
                "0",
                "--bind",
                "127.0.0.1",
                "--directory",
            ])
            .arg(dir)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("python3 http.server");
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let port = line
            .split(" port ")
            .nth(1)
            .and_then(|r| r.split_whitespace().next())
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no port in {line:?}"));
        HttpDir { child, port }
    }
}

impl Drop for HttpDir {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn metrics_health_and_json_logs() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, env) = orch_emulator(&[]);
    let mut orch = Orch::start(
        &env,
        &[
            "--provider",
            "local",
            "--metrics-addr",
            "127.0.0.1:0",
            "--log-format",
            "json",
        ],
    );
    let s = new_session(&emu, Some(proof_task("m1")));
    wait_until(WAIT, "the task", || tasks_done(&emu, &s), || orch.log());
    let log = orch.log();
    let addr = log
        .lines()
        .find_map(|l| l.split("metrics on http://").nth(1))
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("the metrics address is announced:\n{log}"))
        .to_string();
    let get = |path: &str| {
        let mut stream = std::net::TcpStream::connect(&addr).unwrap();
        use std::io::{Read, Write};
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut out = String::new();
        stream.read_to_string(&mut out).unwrap();
        out
    };
    let metrics = get("/metrics");
    assert!(
        metrics.contains("outposts_claims_total{result=\"won\"} 1"),
        "{metrics}"
    );
    assert!(
        metrics.contains("outposts_sandbox_transitions_total{transition=\"created\"} 1"),
        "{metrics}"
    );
    // Held: serving, or provisioning while a liveness check is in doubt.
    let held: u32 = ["provisioning", "serving"]
        .iter()
        .filter(|p| {
            metrics.contains(&format!("outposts_sessions{{phase=\"{p}\"}} 1\r\n"))
                || metrics.contains(&format!("outposts_sessions{{phase=\"{p}\"}} 1\n"))
        })
        .count() as u32;
    assert_eq!(held, 1, "{metrics}");
    // Served and reconciling: ready and live (tests/it/orchestrator_health.rs says when not).
    for probe in ["/readyz", "/livez", "/healthz"] {
        let answer = get(probe);
        assert!(answer.starts_with("HTTP/1.1 200 OK"), "{probe}: {answer}");
    }
    // Every stderr line is JSON with --log-format json; a session event's fields are fields.
    let events: Vec<serde_json::Value> = log
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|_| panic!("not a JSON line: {l}")))
        .collect();
    assert!(
        events
            .iter()
            .any(|e| e["event"] == "claimed" && e["session"] == s.as_str()),
        "{log}"
    );
    let _ = orch.terminate(Duration::from_secs(35));
}

#[test]
fn a_second_signal_exits_at_once() {
    let (_emu, mut env) = orch_emulator(&[]);
    // No session runs here: the start-up check need not find bubblewrap.
    env.set("OUTPOSTS_LOCAL_UNISOLATED", "1");
    let mut orch = Orch::start(&env, &["--provider", "local"]);
    wait_until(
        WAIT,
        "the start",
        || orch.log().contains("Ctrl-C to stop"),
        || orch.log(),
    );
    orch.signal(libc::SIGINT);
    std::thread::sleep(Duration::from_millis(100));
    let (code, took) = orch.terminate(Duration::from_secs(10));
    assert_eq!(code, Some(130), "{}", orch.log());
    assert!(took < Duration::from_secs(5), "{took:?}");
}

#[test]
fn sigint_exits_130_and_sigterm_exits_0_after_a_graceful_stop() {
    let (_emu, mut env) = orch_emulator(&[]);
    env.set("OUTPOSTS_LOCAL_UNISOLATED", "1");
    for (signal, want) in [(libc::SIGINT, 130), (libc::SIGTERM, 0)] {
        let mut orch = Orch::start(&env, &["--provider", "local"]);
        wait_until(
            WAIT,
            "the start",
            || orch.log().contains("Ctrl-C to stop"),
            || orch.log(),
        );
        orch.signal(signal);
        let code = orch.wait_exit(Duration::from_secs(35));
        assert_eq!(code, Some(want), "signal {signal}\n{}", orch.log());
        // Drained, not cut short.
        assert!(
            orch.log().contains("orchestrator stopped"),
            "{}",
            orch.log()
        );
        assert!(!orch.log().contains("interrupted"), "{}", orch.log());
    }
}

#[test]
fn demo_runs_the_whole_loop_and_says_so() {
    require!(host::SANDBOXES);
    let env = TestEnv::new();
    let r = env.run(&["--json", "demo"]);
    r.ok();
    let last: serde_json::Value = serde_json::from_str(r.stdout.lines().last().unwrap()).unwrap();
    assert_eq!(last["ok"], true);
    assert_eq!(last["summary"].as_array().unwrap().len(), 6);
    for line in r.stdout.lines() {
        serde_json::from_str::<serde_json::Value>(line).expect("NDJSON");
    }
    let human = env.run(&["demo"]);
    human.ok();
    assert!(
        human.stdout.contains("All 6 checks passed"),
        "{}",
        human.stdout
    );
    assert!(human.stdout.contains("sandbox deleted"));
    // With bubblewrap there is no note about running unisolated; without it, one.
    assert_eq!(
        human.stdout.contains("WITHOUT isolation"),
        crate::support::host::unisolated(),
        "{}",
        human.stdout
    );
}

#[test]
fn demo_passes_without_bubblewrap_and_says_it_ran_unisolated() {
    let mut env = TestEnv::new();
    let (_bin, path) = host::path_without(&["bwrap"]);
    env.set("PATH", path);
    let r = env.run(&["demo"]);
    r.ok();
    assert!(r.stdout.contains("All 6 checks passed"), "{}", r.stdout);
    let notes: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.contains("WITHOUT isolation"))
        .collect();
    assert_eq!(notes.len(), 1, "{}", r.stdout);
    assert!(
        notes[0].contains("apt-get install -y bubblewrap"),
        "{}",
        notes[0]
    );
    for check in [
        "session claimed and served in its own sandbox",
        "the task's file was read back from the very sandbox",
        "sleep stopped the sandbox and kept its disk",
        "wake started the same sandbox with the file intact",
        "terminate deleted the sandbox",
        "one claim per session generation, each released",
    ] {
        assert!(r.stdout.contains(check), "{check}\n{}", r.stdout);
    }
}

#[test]
fn without_bubblewrap_the_orchestrator_claims_nothing_and_exits_2() {
    let (emu, mut env) = orch_emulator(&[]);
    let (_bin, path) = host::path_without(&["bwrap"]);
    env.set("PATH", path);
    // Not opted in, whatever the harness allows its own sandboxes.
    env.unset("OUTPOSTS_LOCAL_UNISOLATED");
    let id = new_session(&emu, None);
    // Bounded: without the check the orchestrator would run (and claim) until killed.
    let mut orch = Orch::start(&env, &["--provider", "local"]);
    assert_eq!(orch.wait_exit(WAIT), Some(2), "{}", orch.log());
    let log = orch.log();
    assert!(log.contains("bubblewrap"), "{log}");
    assert!(log.contains("no session was claimed"), "{log}");
    assert!(
        log.contains("apt-get install -y bubblewrap")
            && log.contains("OUTPOSTS_LOCAL_UNISOLATED=1"),
        "the fix: {log}"
    );
    let history = block_on(emu.client().history(Some(&id))).expect("history");
    assert!(
        history.iter().all(|h| h.event != "claim"),
        "claimed anyway: {history:?}"
    );
    assert_eq!(session(&emu, &id).session_status, "pending");
    // doctor reports the same check, with the same fix.
    env.set("OUTPOSTS_PROVIDER", "local");
    let d = env.run(&["--json", "doctor"]);
    let doc = d.json();
    let check = doc["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "local_sandboxes")
        .cloned()
        .unwrap_or_else(|| panic!("no local_sandboxes check: {doc}"));
    assert_eq!(check["status"], "fail", "{check}");
    assert!(
        check["fix"]
            .as_str()
            .unwrap()
            .contains("apt-get install -y bubblewrap"),
        "{check}"
    );
}
