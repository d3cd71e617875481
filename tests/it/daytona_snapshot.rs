//! `outposts snapshot …` against the emulated Daytona API.

use sha2::{Digest, Sha256};

use crate::support::daytona::{api_calls, assert_openapi_conformance, set_settings};
use crate::support::{Emu, TestEnv, emulated_env};

fn default_dockerfile() -> Vec<u8> {
    std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/Dockerfile.default"
    ))
    .unwrap()
}

#[test]
fn name_is_sha256_of_the_default_dockerfile_without_network() {
    let env = TestEnv::new();
    let bytes = default_dockerfile();
    let expected = format!(
        "devin-outposts-default-{}",
        &hex::encode(Sha256::digest(&bytes))[..8]
    );
    // No DAYTONA_* configured at all: naming needs no network.
    let r = env.run(&["snapshot", "name"]);
    r.ok();
    assert_eq!(r.stdout.trim(), expected);
    // `snapshot dockerfile` prints exactly those bytes.
    let r = env.cmd(&["snapshot", "dockerfile"]).output().unwrap();
    assert!(r.status.success());
    assert_eq!(r.stdout, bytes);
    let text = String::from_utf8(bytes).unwrap();
    assert!(text.contains("FROM daytonaio/sandbox:0.6.0"));
    for needle in [
        "ca-certificates",
        "curl",
        " gh",
        "/opt/.devin",
        "/var/log/devin",
        "-o daytona",
    ] {
        assert!(text.contains(needle), "default Dockerfile lacks {needle}");
    }
    // A custom Dockerfile hashes its own bytes; SNAPSHOT_NAME and --name win.
    std::fs::write(env.cwd.join("Dockerfile"), "FROM debian:12.9\n").unwrap();
    let custom = format!(
        "devin-outposts-default-{}",
        &hex::encode(Sha256::digest(b"FROM debian:12.9\n"))[..8]
    );
    let r = env.run(&["snapshot", "name", "--dockerfile", "Dockerfile"]);
    assert_eq!(r.stdout.trim(), custom);
    let mut env2 = TestEnv::new();
    env2.set("SNAPSHOT_NAME", "pinned-snap");
    assert_eq!(env2.run(&["snapshot", "name"]).stdout.trim(), "pinned-snap");
    assert_eq!(
        env2.run(&["snapshot", "name", "--name", "flag-wins"])
            .stdout
            .trim(),
        "flag-wins"
    );
    let w = env
        .run(&["snapshot", "name", "--platform", "windows", "--json"])
        .json();
    assert!(
        w["name"]
            .as_str()
            .unwrap()
            .starts_with("devin-outposts-windows-")
    );
    env.run(&["snapshot", "name", "--name", "bad name"]).code(2);
}

#[test]
fn build_twice_creates_once_and_writes_env() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (env, emu) = emulated_env(&[]);
    std::fs::write(env.cwd.join(".env"), "KEEP_ME=1\n# comment\n").unwrap();
    let name = env.run(&["snapshot", "name"]).stdout.trim().to_string();

    let first = env.run(&["snapshot", "build", "--write-env"]);
    first.ok();
    assert_eq!(first.stdout.trim(), format!("SNAPSHOT_NAME={name}"));
    assert!(
        first.stderr.contains("Step 1/"),
        "build log streamed: {}",
        first.stderr
    );
    let dotenv = std::fs::read_to_string(env.cwd.join(".env")).unwrap();
    assert_eq!(
        dotenv,
        format!("KEEP_ME=1\n# comment\nSNAPSHOT_NAME={name}\n")
    );

    let creates = |emu: &Emu| {
        api_calls(emu)
            .into_iter()
            .filter(|(m, p, _)| m == "POST" && p == "/snapshots")
            .count()
    };
    assert_eq!(creates(&emu), 1);
    // The create body: buildInfo with the exact Dockerfile bytes and the resource flags.
    let post = emu
        .requests()
        .into_iter()
        .find(|r| r.method == "POST" && r.path == "/daytona/api/snapshots")
        .unwrap();
    let body: serde_json::Value = serde_json::from_str(post.body.as_deref().unwrap()).unwrap();
    assert_eq!(body["name"], name);
    assert_eq!(
        (
            body["cpu"].as_u64(),
            body["memory"].as_u64(),
            body["disk"].as_u64()
        ),
        (Some(2), Some(8), Some(10))
    );
    assert_eq!(
        body["buildInfo"]["dockerfileContent"]
            .as_str()
            .unwrap()
            .as_bytes(),
        default_dockerfile().as_slice()
    );

    let second = env.run(&["snapshot", "build", "--json"]);
    second.ok();
    let doc = second.json();
    assert_eq!(doc["name"], name);
    assert_eq!(doc["created"], false);
    assert_eq!(doc["state"], "active");
    assert!(
        second.stderr.contains("already exists"),
        "{}",
        second.stderr
    );
    assert_eq!(
        creates(&emu),
        1,
        "the second build must make no create call"
    );

    let list = env.run(&["snapshot", "list", "--json"]).json();
    assert!(list.as_array().unwrap().iter().any(|s| s["name"] == name));
    assert_openapi_conformance(&emu);
}

#[test]
fn failing_build_exits_1_with_the_log_tail() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (env, emu) = emulated_env(&[]);
    std::fs::write(
        env.cwd.join("Dockerfile"),
        "FROM debian:12.9\nRUN echo preparing\nRUN false\nRUN echo never\n",
    )
    .unwrap();
    let r = env.run(&["snapshot", "build", "--dockerfile", "Dockerfile"]);
    r.code(1);
    assert!(r.stderr.contains("build_failed"), "{}", r.stderr);
    assert!(r.stderr.contains("last build log lines"), "{}", r.stderr);
    assert!(r.stderr.contains("Step 3/4 : RUN false"), "{}", r.stderr);
    assert!(r.stderr.contains("exit code: 1"), "{}", r.stderr);
    assert!(
        r.stdout.is_empty(),
        "no SNAPSHOT_NAME on failure: {}",
        r.stdout
    );
    // JSON mode: the failure as a document, still exit 1.
    std::fs::write(env.cwd.join("Dockerfile2"), "RUN echo no base\n").unwrap();
    let r = env.run(&["snapshot", "build", "--dockerfile", "Dockerfile2", "--json"]);
    r.code(1);
    let doc = r.json();
    assert_eq!(doc["state"], "build_failed");
    assert!(doc["error_reason"].as_str().unwrap().contains("FROM"));
    // Building the failed one again says how to recover, without a second create.
    let r = env.run(&["snapshot", "build", "--dockerfile", "Dockerfile"]);
    r.code(1);
    assert!(r.stderr.contains("snapshot delete"), "{}", r.stderr);
    assert_openapi_conformance(&emu);
}

#[test]
fn local_copy_quota_and_delete() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (env, emu) = emulated_env(&[]);
    // COPY of local files needs a context upload we refuse, naming the line; no API call.
    std::fs::write(
        env.cwd.join("Dockerfile"),
        "FROM debian:12.9\n\nCOPY app/ /app\n",
    )
    .unwrap();
    let r = env.run(&["snapshot", "build", "--dockerfile", "Dockerfile"]);
    r.code(2);
    assert!(r.stderr.contains("line 3"), "{}", r.stderr);
    assert!(r.stderr.contains("COPY app/ /app"), "{}", r.stderr);
    assert!(api_calls(&emu).is_empty());

    // Quota: the emulator refuses more than max_cpu.
    set_settings(&emu, serde_json::json!({"max_cpu": 4}));
    let r = env.run(&["snapshot", "build", "--cpu", "8"]);
    r.code(1);
    assert!(r.stderr.contains("exceeds maximum"), "{}", r.stderr);
    assert!(r.stderr.contains("MAX_CONCURRENT_SESSIONS"), "{}", r.stderr);
    assert!(r.stderr.contains("--cpu"), "{}", r.stderr);

    env.run(&["snapshot", "build", "--name", "to-delete", "--cpu", "2"])
        .ok();
    // No terminal and no --yes: refuse rather than guess.
    env.run(&["snapshot", "delete", "to-delete"]).code(2);
    let r = env.run(&["snapshot", "delete", "to-delete", "--yes", "--json"]);
    r.ok();
    assert_eq!(r.json()["deleted"], true);
    // Deleted by UUID after resolving the name, like the SDK.
    let del = api_calls(&emu)
        .into_iter()
        .find(|(m, _, _)| m == "DELETE")
        .unwrap();
    assert!(
        uuid::Uuid::parse_str(del.1.trim_start_matches("/snapshots/")).is_ok(),
        "{del:?}"
    );
    env.run(&["snapshot", "delete", "to-delete", "--yes"])
        .code(2);
    assert_openapi_conformance(&emu);
}

/// A Windows build keeps Daytona's default auto-delete on its builder (`autoDeleteInterval: 0`
/// would delete it at the stop that comes before the snapshot), starts the provisioner with one
/// short exec and no toolbox session (Windows sessions never report an exit code), and deletes
/// the builder at the end. The emulator's Windows model cannot run PowerShell, so the build
/// fails at the start of the provisioner, saying that the emulator cannot run PowerShell — the
/// rest (provisioning, stop, snapshot, `active`) needs a real Windows sandbox. Up to there the
/// builder is neither stopped nor deleted.
#[test]
fn windows_build_keeps_its_builder_and_starts_the_provisioner_detached() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (env, emu) = emulated_env(&[]);
    let r = env.run(&["snapshot", "build", "--platform", "windows"]);
    r.code(1);
    assert!(
        r.stderr
            .contains("starting the provisioner failed (exit 1)")
            && r.stderr.contains("cannot run PowerShell"),
        "{}",
        r.stderr
    );
    let records = emu.requests();
    let create = records
        .iter()
        .find(|r| r.method == "POST" && r.path == "/daytona/api/sandbox")
        .and_then(|r| r.body.clone())
        .expect("the builder was created");
    let body: serde_json::Value = serde_json::from_str(&create).unwrap();
    assert_eq!(body["snapshot"], "windows-medium");
    assert_ne!(body["autoDeleteInterval"], 0, "{body}");
    let paths: Vec<String> = records
        .iter()
        .map(|r| {
            format!(
                "{} {}?{}",
                r.method,
                r.path,
                r.query.clone().unwrap_or_default()
            )
        })
        .collect();
    assert!(
        paths.iter().all(|p| !p.contains("/process/session")),
        "no toolbox session: {paths:#?}"
    );
    assert!(
        records
            .iter()
            .filter(|r| r.path.contains("/files/"))
            .filter_map(|r| r.exchange.as_ref().and_then(|x| x.request_body.clone()))
            .any(|b| b.contains("run.ps1")),
        "the runner is uploaded: {paths:#?}"
    );
    assert_eq!(
        paths
            .iter()
            .filter(|p| p.contains("/process/execute"))
            .count(),
        1,
        "{paths:#?}"
    );
    let exec_at = paths
        .iter()
        .position(|p| p.contains("/process/execute"))
        .unwrap();
    let delete_at = paths
        .iter()
        .position(|p| p.starts_with("DELETE /daytona/api/sandbox/"))
        .expect("the builder is deleted at the end");
    assert!(exec_at < delete_at, "{paths:#?}");
    assert!(
        !paths[..delete_at].iter().any(|p| p.contains("/stop")),
        "the builder is not stopped before the provisioner ran: {paths:#?}"
    );
    assert_openapi_conformance(&emu);
}
