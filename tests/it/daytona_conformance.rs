//! Judged by clients nobody here wrote: the official Daytona Python SDK drives the emulator, and
//! the official OpenAPI files validate every exchange (ours and the SDK's).

use std::process::Command;

use crate::support::daytona::{assert_openapi_conformance, bare_repo, conformance_dir};
use crate::support::host::{self, require};
use crate::support::{Emu, TestEnv, emulated_env};

#[test]
fn official_python_sdk_drives_the_emulator() {
    require!(host::SANDBOXES, host::PY_DAYTONA);
    let env = TestEnv::new();
    let emu = Emu::start(&env, &[]);
    let (repo, readme) = bare_repo(&env);
    let out = Command::new("python3")
        .arg(conformance_dir().join("daytona_sdk.py"))
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", env.home.path())
        .env("DAYTONA_API_URL", emu.env_value("DAYTONA_API_URL"))
        .env("DAYTONA_API_KEY", emu.env_value("DAYTONA_API_KEY"))
        .env("OUTPOSTS_BARE_REPO", &repo)
        .env("OUTPOSTS_REPO_README", &readme)
        .current_dir(&env.cwd)
        .output()
        .expect("run python3");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the Daytona SDK run failed\nstdout:\n{stdout}\nstderr:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for step in [
        "create from snapshot with labels",
        "get by name",
        "list by labels",
        "process.exec with env",
        "git.clone of a local bare repository",
        "file upload and download",
        "stop",
        "start",
        "delete",
    ] {
        assert!(
            stdout.contains(&format!("ok {step}")),
            "missing step {step}:\n{stdout}"
        );
    }
    // The SDK sent what the spec describes: its version header, and `envs` for exec env.
    let reqs = emu.requests();
    let exec = reqs
        .iter()
        .find(|r| {
            r.path.ends_with("/process/execute")
                && r.body.as_deref().unwrap_or("").contains("\"B\"")
        })
        .expect("an exec with env");
    assert!(
        exec.body.as_deref().unwrap().contains("\"envs\""),
        "{:?}",
        exec.body
    );
    let x = exec.exchange.as_ref().expect("exchange recorded");
    assert_eq!(
        x.request_headers
            .get("x-daytona-sdk-version")
            .map(String::as_str),
        Some("0.226.1")
    );
    assert_eq!(
        x.request_headers.get("authorization").map(String::as_str),
        Some("Bearer [REDACTED]"),
        "the key must never be logged"
    );
    // The SDK took its event path (Socket.IO), not its polling fallback: upgraded, never 401.
    let socket: Vec<u16> = reqs
        .iter()
        .filter(|r| r.path.starts_with("/daytona/api/socket.io"))
        .map(|r| r.status)
        .collect();
    assert!(
        socket.contains(&101),
        "the SDK never opened the event stream: {socket:?}"
    );
    assert!(!socket.contains(&401), "{socket:?}");
    assert_openapi_conformance(&emu);
}

/// An orchestrator written as an outsider would (Python, the official SDK, the public docs
/// only — `tests/conformance/outsider_orchestrator.py`): it claims a default session, creates the
/// sandbox from the snapshot, downloads and verifies the pinned remote, launches it, checks
/// liveness by `/proc/<pid>/exe` and `id -u`, serves it for a minute, and carries it through
/// sleep, wake and terminate while its own Socket.IO client watches the sandbox's state events.
#[test]
fn an_outsider_orchestrator_serves_a_session_through_its_whole_life() {
    require!(host::BWRAP, host::PY_DAYTONA);
    let (env, emu) = emulated_env(&[]);
    env.run(&["emulator", "session", "new"]).ok();
    let serve = std::env::var("OUTPOSTS_OUTSIDER_SERVE_SECONDS").unwrap_or_else(|_| "60".into());
    let out = Command::new("python3")
        .arg(conformance_dir().join("outsider_orchestrator.py"))
        .arg("--drive")
        .env_clear()
        .envs(&env.vars)
        .env("OUTPOSTS_BIN", crate::support::BIN)
        .env("SERVE_SECONDS", &serve)
        .current_dir(&env.cwd)
        .output()
        .expect("run python3");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "the outsider orchestrator failed\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    let steps: Vec<serde_json::Value> = stdout
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    for want in [
        "pin",
        "liveness_exe",
        "sandbox_uid",
        "serve",
        "sandbox_stop",
        "sandbox_start",
        "marker_intact",
        "sandbox_delete",
        "sandbox_events",
    ] {
        assert!(
            steps.iter().any(|s| s["step"] == want && s["ok"] == true),
            "no passing `{want}` step:\n{stdout}"
        );
    }
    assert!(
        steps.iter().all(|s| s["ok"] != false),
        "a failed step:\n{stdout}"
    );
    assert!(steps.last().is_some_and(|s| s["done"] == true), "{stdout}");
    let socket: Vec<u16> = emu
        .requests()
        .into_iter()
        .filter(|r| r.path.starts_with("/daytona/api/socket.io"))
        .map(|r| r.status)
        .collect();
    assert!(
        socket.contains(&101) && !socket.contains(&401),
        "{socket:?}"
    );
    for secret in ["DEVIN_OUTPOSTS_TOKEN", "DAYTONA_API_KEY"] {
        let v = emu.env_value(secret);
        assert!(
            !stdout.contains(&v) && !stderr.contains(&v),
            "{secret} printed"
        );
    }
    assert_openapi_conformance(&emu);
}

#[test]
fn our_cli_traffic_conforms_to_the_openapi_spec() {
    let (env, emu) = emulated_env(&[]);
    env.run(&["snapshot", "build"]).ok();
    env.run(&["snapshot", "build", "--json"]).ok();
    env.run(&["snapshot", "list", "--json"]).ok();
    // Errors too: an unknown snapshot, and a bad key (401 envelope).
    env.run(&["snapshot", "delete", "does-not-exist", "--yes"])
        .code(2);
    let mut bad = TestEnv::new();
    emu.configure(&mut bad);
    bad.set("DAYTONA_API_KEY", "dtn_wrongwrongwrongwrong");
    let r = bad.run(&["snapshot", "list"]);
    r.code(4);
    assert!(r.stderr.contains("Invalid credentials"), "{}", r.stderr);
    assert!(!r.all().contains("dtn_wrongwrongwrongwrong"), "{}", r.all());
    assert_openapi_conformance(&emu);
}
