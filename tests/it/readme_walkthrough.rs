//! The README's Daytona guide, run as written: its commands are read from README.md in order
//! and run through `sh` against the emulator, each exit code and key line asserted, so the
//! guide cannot drift from the tool. Only what a reader fills in is filled in: the Daytona key
//! (`dtn_…`), the session id (`devin-…`), and the approval in the browser.

use std::io::Read;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use crate::first_hour::run_as_printed;
use crate::support::connect::{approve, connect_env};
use crate::support::orch::{proof_task, wait_until};
use crate::support::{BIN, Emu, TestEnv, block_on};

/// The shell lines of the code blocks of one README section, comments stripped.
pub(crate) fn guide(section: &str) -> Vec<String> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    let start = text
        .find(&format!("\n{section}\n"))
        .unwrap_or_else(|| panic!("README has no section {section}"));
    let body = &text[start + section.len() + 2..];
    let end = body.find("\n### ").unwrap_or(body.len());
    let mut lines = Vec::new();
    let mut in_code = false;
    for l in body[..end].lines() {
        let t = l.trim();
        if t.starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code && !t.is_empty() {
            let cmd = match t.find("  #") {
                Some(at) => t[..at].trim_end(),
                None => t,
            };
            lines.push(cmd.to_string());
        }
    }
    lines
}

/// A command line running in the background through `sh`, as a second terminal would.
fn spawn_sh(env: &TestEnv, line: &str, name: &str) -> (Child, std::path::PathBuf) {
    let dir = std::path::Path::new(BIN).parent().expect("bin dir");
    let err = env.path(&format!("{name}.err"));
    let child = std::process::Command::new("sh")
        .args(["-c", &format!("exec {line}")])
        .env_clear()
        .envs(&env.vars)
        .env(
            "PATH",
            format!("{}:{}", dir.display(), env.vars["PATH"].as_str()),
        )
        .current_dir(&env.cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(&err).expect("stderr file"))
        .spawn()
        .expect("sh");
    (child, err)
}

fn dotenv(env: &TestEnv) -> String {
    std::fs::read_to_string(env.cwd.join(".env")).unwrap_or_default()
}

#[test]
fn the_daytona_guide_runs_as_written_against_the_emulator() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let emu_env = TestEnv::new();
    let emu = Emu::start(&emu_env, &[]);
    let mut env = connect_env(&emu);
    // The reader's key goes into .env by step 2, not into the environment.
    let daytona_key = emu.env_value("DAYTONA_API_KEY");
    env.unset("DAYTONA_API_KEY").unset("SNAPSHOT_NAME");
    // The reader's browser: here a no-op; the test approves on the page as the admin would.
    env.set("BROWSER", "true");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .unwrap()
        .port();
    env.set("OUTPOSTS_CONNECT_PORT", port.to_string());

    let lines = guide("### Daytona (orchestrator)");
    let expected_shape = [
        "outposts connect",
        "echo 'DAYTONA_API_KEY=",
        "outposts snapshot build --write-env",
        "outposts snapshot build --platform windows",
        "outposts doctor",
        "outposts orchestrator run",
        "outposts orchestrator status",
        "outposts session verify",
        "outposts session verify --create",
        "outposts outpost default set gpu-linux",
        "outposts outpost default",
        "outposts outpost default clear",
    ];
    assert_eq!(lines.len(), expected_shape.len(), "{lines:#?}");
    for (l, shape) in lines.iter().zip(expected_shape) {
        assert!(
            l.starts_with(shape),
            "the guide changed: {l:?} (was {shape}…)"
        );
    }

    let mut orch: Option<Child> = None;
    for line in &lines {
        if line.contains("--platform windows") {
            // For a Windows outpost only; this walk-through connects a Linux one.
            continue;
        }
        if line.starts_with("outposts connect") {
            let (child, err) = spawn_sh(&env, line, "connect");
            let mut child = child;
            let deadline = Instant::now() + Duration::from_secs(60);
            let url = loop {
                let text = std::fs::read_to_string(&err).unwrap_or_default();
                if let Some(u) = text
                    .lines()
                    .map(str::trim)
                    .find(|l| l.starts_with("http") && l.contains("/outposts/connect?"))
                {
                    break u.to_string();
                }
                assert!(Instant::now() < deadline, "connect printed no URL: {text}");
                std::thread::sleep(Duration::from_millis(50));
            };
            assert!(url.contains("outpost_name=gpu-linux"), "{url}");
            approve(&url);
            let status = child.wait().expect("connect");
            assert!(
                status.success(),
                "{}",
                std::fs::read_to_string(&err).unwrap_or_default()
            );
            let d = dotenv(&env);
            for key in ["DEVIN_OUTPOSTS_TOKEN=", "DEVIN_API_URL=", "OUTPOST_ID="] {
                assert!(d.contains(key), "{key} missing from .env:\n{d}");
            }
        } else if line.starts_with("echo 'DAYTONA_API_KEY=") {
            let line = line.replace("dtn_…", &daytona_key);
            run_as_printed(&env, &line).ok();
            assert!(dotenv(&env).contains(&format!("DAYTONA_API_KEY={daytona_key}")));
        } else if line.starts_with("outposts snapshot build") {
            let r = run_as_printed(&env, line);
            r.ok();
            assert!(
                r.stdout
                    .starts_with("SNAPSHOT_NAME=devin-outposts-default-"),
                "{}",
                r.stdout
            );
            assert!(dotenv(&env).contains("SNAPSHOT_NAME=devin-outposts-default-"));
        } else if line == "outposts doctor" {
            let r = run_as_printed(&env, line);
            r.ok();
            assert!(r.stdout.contains(" 0 failed"), "{}", r.stdout);
        } else if line == "outposts orchestrator run" {
            let (child, err) = spawn_sh(&env, line, "orchestrator");
            orch = Some(child);
            let log = err.clone();
            wait_until(
                Duration::from_secs(30),
                "the orchestrator to start",
                || {
                    std::fs::read_to_string(&log)
                        .unwrap_or_default()
                        .contains("gpu-linux")
                        || std::fs::read_to_string(&log)
                            .unwrap_or_default()
                            .contains("outpost_env-")
                },
                || std::fs::read_to_string(&err).unwrap_or_default(),
            );
        } else if line == "outposts orchestrator status" {
            let r = run_as_printed(&env, line);
            r.ok();
        } else if line.starts_with("outposts session verify --create") {
            // Unattended: the tool creates, follows and ends the proof session itself.
            let r = run_as_printed(&env, &format!("{line} --wait 90s"));
            r.ok();
            assert!(r.stderr.contains("proof file found"), "{}", r.stderr);
        } else if line.starts_with("outposts outpost default set ") {
            run_as_printed(&env, line).ok();
        } else if line == "outposts outpost default" {
            let r = run_as_printed(&env, line);
            r.ok();
            assert!(r.stdout.contains("gpu-linux"), "{}", r.stdout);
        } else if line == "outposts outpost default clear" {
            run_as_printed(&env, line).ok();
            let r = run_as_printed(&env, "outposts outpost default");
            r.ok();
            assert!(!r.stdout.contains("gpu-linux"), "{}", r.stdout);
        } else if line.starts_with("outposts session verify") {
            // The reader's session: one on the connected outpost, given verify's task.
            let outpost = dotenv(&env)
                .lines()
                .find_map(|l| l.strip_prefix("OUTPOST_ID=").map(str::to_string))
                .expect("OUTPOST_ID");
            let proof = "outpost-proof-readme01";
            let created = block_on(emu.client().new_sessions(
                &outposts::emulator::devin::NewSession {
                    task: Some(proof_task(proof)),
                    outpost: Some(outpost),
                    ..Default::default()
                },
            ))
            .expect("new session");
            let id = &created[0].session_id;
            let line = format!("{} --proof {proof} --wait 90s", line.replace("devin-…", id));
            let r = run_as_printed(&env, &line);
            r.ok();
            assert!(r.stdout.contains("verified"), "{}", r.stdout);
            assert!(
                r.stdout.starts_with(&proof_task(proof)),
                "the task comes first: {}",
                r.stdout
            );
        } else {
            panic!("the walk-through does not know this README line: {line}");
        }
    }
    let mut orch = orch.expect("the guide runs the orchestrator");
    // Ctrl-C, as the guide says: the orchestrator stops and exits 0 or 130.
    unsafe {
        libc::kill(orch.id() as i32, libc::SIGINT);
    }
    let status = orch.wait().expect("orchestrator");
    let mut out = String::new();
    let _ = orch.stdout.take().map(|mut s| s.read_to_string(&mut out));
    assert!(matches!(status.code(), Some(0) | Some(130)), "{status:?}");
}
