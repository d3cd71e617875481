//! Judged by clients nobody here wrote: the official Daytona Python SDK drives the emulator, and
//! the official OpenAPI files validate every exchange (ours and the SDK's).

use std::process::Command;

use crate::daytona_support::{assert_openapi_conformance, bare_repo, conformance_dir};
use crate::host::{self, require};
use crate::support::{Emu, TestEnv};

#[test]
fn official_python_sdk_drives_the_emulator() {
    require!(host::BWRAP, host::PY_DAYTONA);
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
        .env("DAYTONA_USE_DEPRECATED_POLLING", "true")
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
    assert_openapi_conformance(&emu);
}

#[test]
fn our_cli_traffic_conforms_to_the_openapi_spec() {
    let mut env = TestEnv::new();
    let emu = Emu::start(&env, &[]);
    emu.configure(&mut env);
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
