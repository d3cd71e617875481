//! Shared helpers for Daytona tests: the OpenAPI conformance check every Daytona test runs at
//! its end, the Python prerequisites, an in-process provider against an `Emu`, and fixtures.
//!
//! Other tests that drive the Daytona emulator (e.g. the orchestrator's) should end with
//! `support::daytona::assert_openapi_conformance(&emu)`.

#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use outposts::api::daytona::DaytonaClient;
use outposts::api::{ApiRequest, HttpClient, HttpOptions, http};
use outposts::provider::daytona::DaytonaProvider;
use outposts::secrets::Secret;

use crate::support::{Emu, TestEnv, block_on};

/// Directory of the conformance scripts and spec copies.
pub fn conformance_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance")
}

/// Every Daytona request our clients sent and every response the emulator returned, validated
/// against the official OpenAPI files: 0 violations or the test fails with the list.
pub fn assert_openapi_conformance(emu: &Emu) {
    crate::support::host::require!(crate::support::host::PY_OPENAPI);
    let records = emu.requests();
    let json = serde_json::to_vec(&records).expect("encode the request log");
    let mut child = Command::new("python3")
        .arg(conformance_dir().join("openapi_check.py"))
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run openapi_check.py");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(&json)
        .expect("feed the request log");
    let out = child.wait_with_output().expect("openapi_check.py");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "OpenAPI violations in the Daytona traffic:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !stdout.contains("checked 0 "),
        "the conformance check saw no Daytona traffic:\n{stdout}"
    );
}

pub fn http_client() -> HttpClient {
    HttpClient::new(HttpOptions::default()).expect("http client")
}

/// A Daytona client on the emulator.
pub fn client(emu: &Emu) -> DaytonaClient {
    DaytonaClient::new(
        http_client(),
        &emu.env_value("DAYTONA_API_URL"),
        Secret::new(emu.env_value("DAYTONA_API_KEY")),
    )
}

/// The provider on the emulator (in-process).
pub fn provider(emu: &Emu) -> DaytonaProvider {
    DaytonaProvider::new(client(emu), None, Duration::from_secs(60))
}

/// Change the emulated Daytona delays and limits (`PUT /_emulator/daytona/settings`).
pub fn set_settings(emu: &Emu, settings: serde_json::Value) {
    let req = ApiRequest::new(
        http::EMULATOR,
        reqwest::Method::PUT,
        format!("{}/_emulator/daytona/settings", emu.base_url),
    )
    .json(&settings);
    block_on(http_client().send(req)).expect("update the Daytona settings");
}

/// A bare repository on this host with a README whose first line is returned.
pub fn bare_repo(env: &TestEnv) -> (PathBuf, String) {
    let src = env.path("repo-src");
    let bare = env.path("repo.git");
    let readme = format!("outposts fixture {}", uuid::Uuid::new_v4().simple());
    std::fs::create_dir_all(&src).unwrap();
    std::fs::write(src.join("README"), format!("{readme}\nsecond line\n")).unwrap();
    let git = |args: &[&str], dir: &Path| {
        let out = Command::new("git")
            .args(["-c", "user.email=t@example.com", "-c", "user.name=t"])
            .args(args)
            .current_dir(dir)
            .output()
            .expect("git");
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    git(&["init", "-q", "-b", "main"], &src);
    git(&["add", "."], &src);
    git(&["commit", "-qm", "init"], &src);
    git(
        &[
            "clone",
            "-q",
            "--bare",
            src.to_str().unwrap(),
            bare.to_str().unwrap(),
        ],
        env.home.path(),
    );
    (bare, readme)
}

/// Requests to the Daytona API (method, path without the `/daytona/api` prefix).
pub fn api_calls(emu: &Emu) -> Vec<(String, String, u16)> {
    emu.requests()
        .into_iter()
        .filter(|r| r.path.starts_with("/daytona/api"))
        .map(|r| {
            (
                r.method.clone(),
                r.path.trim_start_matches("/daytona/api").to_string(),
                r.status,
            )
        })
        .collect()
}
