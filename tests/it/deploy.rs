//! The shipped deployment files are correct by construction (docker cannot run here): the
//! systemd units pass `systemd-analyze verify` without a warning, and every command line they
//! and the Dockerfile run is accepted by the real CLI.

use std::path::Path;
use std::process::Command;

use clap::Parser;
use outposts::cli::Cli;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

pub(crate) fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The CLI accepts `args` (as a parsed command line, nothing run).
#[track_caller]
fn parses(what: &str, args: &[String]) {
    let mut argv = vec!["outposts".to_string()];
    argv.extend(args.iter().cloned());
    if let Err(e) = Cli::try_parse_from(&argv) {
        panic!("{what}: the CLI rejects {argv:?}:\n{e}");
    }
}

/// `key=value` lines of one unit file section-agnostic.
pub(crate) fn unit_values(text: &str, key: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix(&format!("{key}=")))
        .map(str::to_string)
        .collect()
}

#[test]
fn systemd_units_verify_and_run_valid_commands() {
    crate::support::host::require!(crate::support::host::SYSTEMD_ANALYZE);
    let bin = env!("CARGO_BIN_EXE_outposts");
    let dir = tempfile::tempdir().unwrap();
    for (file, instance) in [
        (
            "outposts-orchestrator.service",
            "outposts-orchestrator.service",
        ),
        (
            "outposts-orchestrator@.service",
            "outposts-orchestrator@a.service",
        ),
    ] {
        let text = read(&format!("deploy/{file}"));
        // Verify a copy that runs the binary under test (verify checks it is executable).
        let copy = dir.path().join(instance);
        std::fs::write(&copy, text.replace("/usr/local/bin/outposts", bin)).unwrap();
        let out = Command::new("systemd-analyze")
            .args(["verify", "--man=no"])
            .arg(&copy)
            .output()
            .expect("systemd-analyze (package systemd; `.ci/run` installs it)");
        assert!(
            out.status.success() && out.stderr.is_empty() && out.stdout.is_empty(),
            "{file}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let defaults: Vec<(String, String)> = unit_values(&text, "Environment")
            .iter()
            .filter_map(|e| e.split_once('=').map(|(k, v)| (k.into(), v.into())))
            .collect();
        let starts = unit_values(&text, "ExecStart");
        assert_eq!(starts.len(), 1, "{file}");
        for line in starts
            .iter()
            .chain(unit_values(&text, "ExecStartPre").iter())
        {
            let mut line = line.clone();
            for (k, v) in &defaults {
                line = line.replace(&format!("${{{k}}}"), v);
            }
            let argv: Vec<String> = line
                .split_whitespace()
                .skip(1)
                .map(str::to_string)
                .collect();
            assert!(
                !line.contains("${"),
                "{file}: unexpanded variable in {line}"
            );
            parses(file, &argv);
        }
        assert!(text.contains("KillSignal=SIGTERM"), "{file}");
        assert!(text.contains("StateDirectoryMode=0700"), "{file}");
    }
}

/// An exec-form instruction of the Dockerfile (`CMD `, `ENTRYPOINT `) as its JSON array.
pub(crate) fn dockerfile_array(text: &str, key: &str) -> Vec<String> {
    let line = text
        .lines()
        .find(|l| l.starts_with(key))
        .unwrap_or_else(|| panic!("no {key} in the Dockerfile"));
    serde_json::from_str(line[key.len()..].trim())
        .unwrap_or_else(|e| panic!("{key} is not an exec-form JSON array ({e}): {line}"))
}

#[test]
fn the_dockerfile_runs_the_cli_it_builds() {
    let text = read("Dockerfile");
    let json_array = |key: &str| dockerfile_array(&text, key);
    let entry = json_array("ENTRYPOINT ");
    assert_eq!(
        entry.last().map(String::as_str),
        Some("outposts"),
        "{entry:?}"
    );
    parses("Dockerfile CMD", &json_array("CMD "));
    assert!(text.contains("cargo build --release --locked"));
    assert!(text.contains("FROM debian:bookworm-slim"));
    for pkg in ["ca-certificates", "bubblewrap", "tini"] {
        assert!(text.contains(pkg), "the runtime image lacks {pkg}");
    }
    // The build context keeps what the build needs and leaves out secrets and target/.
    let ignore = read(".dockerignore");
    for needed in ["src", "assets", "proto", "build.rs", "Cargo.lock"] {
        assert!(
            !ignore.lines().any(|l| l.trim_end_matches('/') == needed),
            ".dockerignore excludes {needed}"
        );
    }
    for secret in [".env", "target/"] {
        assert!(
            ignore.lines().any(|l| l == secret),
            ".dockerignore keeps {secret}"
        );
    }
    // The healthcheck probes the port the default command serves metrics on.
    let cmd = json_array("CMD ").join(" ");
    let port = cmd
        .split("--metrics-addr ")
        .nth(1)
        .and_then(|a| a.split_whitespace().next())
        .and_then(|a| a.rsplit(':').next())
        .expect("CMD serves metrics");
    assert!(text.contains(&format!("127.0.0.1:{port}/livez")), "{text}");
}
