//! Conformance: the official `cwsandbox` Python SDK (pinned in
//! `tests/conformance/requirements-coreweave.txt`) runs the Devin-guide flow against the
//! emulator's CoreWeave gRPC API on the shared loopback port.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::host::{self, require};
use crate::support::{Emu, TestEnv, emulated_env};

const SCRIPT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/conformance/cwsandbox_sdk.py"
);
const INSTALL: &str = "python3 -m pip install -r tests/conformance/requirements-coreweave.txt";

/// Run the SDK script with `env`'s variables (the test has required the SDK; see `host`).
fn run_sdk(env: &TestEnv) -> (String, String) {
    let mut child = Command::new("python3")
        .arg(SCRIPT)
        .env_clear()
        .envs(&env.vars)
        .env("CWSANDBOX_DISABLE_SIGNAL_HANDLERS", "1")
        .env("WANDB_SILENT", "true")
        .current_dir(&env.cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!("cannot run python3 ({e}); install Python 3 and then: {INSTALL}")
        });
    let started = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if started.elapsed() > Duration::from_secs(300) {
            let _ = child.kill();
            let out = child.wait_with_output().expect("output");
            panic!(
                "the SDK run hung for 300 s\nstdout:\n{}\nstderr:\n{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let out = child.wait_with_output().expect("output");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    match status.code() {
        Some(0) => {}
        Some(3) => panic!(
            "the official cwsandbox SDK is not installed for python3; install it with:\n  {INSTALL}\n{stderr}"
        ),
        other => panic!(
            "the SDK conformance run failed ({other:?})\nstdout:\n{stdout}\nstderr:\n{stderr}"
        ),
    }
    assert!(
        stdout.lines().any(|l| l.contains("\"done\": true")),
        "the script did not finish:\n{stdout}"
    );
    (stdout, stderr)
}

fn steps(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| v["step"].as_str().map(str::to_string))
        .collect()
}

fn grpc_methods(emu: &Emu) -> Vec<(String, u16)> {
    emu.requests()
        .into_iter()
        .filter(|r| r.api == "coreweave")
        .map(|r| {
            (
                r.path
                    .trim_start_matches("/coreweave.sandbox.v1.SandboxService/")
                    .to_string(),
                r.status,
            )
        })
        .collect()
}

#[test]
fn official_sdk_runs_the_guide_flow_with_an_api_key() {
    require!(host::BWRAP, host::PY_CWSANDBOX);
    let (env, emu) = emulated_env(&[]);
    let key = emu.env_value("CWSANDBOX_API_KEY");
    // The base URL is the emulator's own, without a path; `emulator env` exports both.
    assert_eq!(emu.env_value("CWSANDBOX_BASE_URL"), emu.base_url);
    let exported = env.run(&["emulator", "env"]);
    exported.ok();
    assert!(
        exported.stdout.contains("CWSANDBOX_BASE_URL")
            && exported.stdout.contains("CWSANDBOX_API_KEY"),
        "{}",
        exported.stdout
    );
    let (stdout, stderr) = run_sdk(&env);
    let done = steps(&stdout);
    for step in [
        "run",
        "wait",
        "from_id+get_status",
        "container_statuses",
        "exec_cat",
        "exec_exit_code",
        "exec_cwd",
        "exec_stdin",
        "files",
        "stream_logs_tail",
        "list",
        "stop",
        "from_id_missing",
    ] {
        assert!(
            done.iter().any(|s| s == step),
            "step {step} missing:\n{stdout}"
        );
    }
    // Every call went to the root gRPC paths on the shared port.
    let methods = grpc_methods(&emu);
    for m in [
        "CreateSandbox",
        "GetSandbox",
        "StreamExec",
        "StreamLogs",
        "ListSandboxes",
        "DeleteSandbox",
        "ReadFile",
        "WriteFile",
    ] {
        assert!(
            methods.iter().any(|(p, _)| p == m),
            "{m} was never called: {methods:?}"
        );
    }
    // HTTP/1.1 still works on the same port.
    assert!(!emu.requests().is_empty());
    for text in [&stdout, &stderr, &emu.stderr()] {
        assert!(!text.contains(&key), "the API key leaked");
    }
}

#[test]
fn official_sdk_runs_the_guide_flow_with_wandb_auth() {
    require!(host::BWRAP, host::PY_CWSANDBOX);
    let (mut env, emu) = emulated_env(&[]);
    let wandb_key = "0123456789abcdef0123456789abcdef01234567";
    env.unset("CWSANDBOX_API_KEY")
        .set("WANDB_API_KEY", wandb_key)
        .set("WANDB_ENTITY", "conformance-team")
        .set("CONFORMANCE_AUTH", "wandb");
    let (stdout, stderr) = run_sdk(&env);
    assert!(steps(&stdout).iter().any(|s| s == "stop"), "{stdout}");
    for text in [&stdout, &stderr, &emu.stderr()] {
        assert!(!text.contains(wandb_key), "the W&B key leaked");
    }
}
