//! The official Daytona TypeScript SDK (`@daytonaio/sdk`, pinned in
//! tests/conformance/package-lock.json) drives the emulator through its whole toolbox surface
//! — life cycle, exec, files, git, sessions with state and input, followed logs, code-run,
//! archive/restore, labels — with the SDK waiting on the event stream and, in a second run,
//! polling. Every exchange is then validated against the official OpenAPI files.

use std::process::Command;

use crate::support::daytona::{assert_openapi_conformance, bare_repo, conformance_dir};
use crate::support::host::{self, require};
use crate::support::{Emu, TestEnv};

/// The steps `daytona_sdk.mjs` prints, in order (`ok <step>`).
const STEPS: &[&str] = &[
    "create with labels and env",
    "get by id and by name",
    "list by labels",
    "set labels",
    "home and work dir",
    "executeCommand with env and cwd",
    "executeCommand exit code",
    "fs createFolder and upload/download",
    "fs listFiles and getFileDetails",
    "fs findFiles (content)",
    "fs searchFiles (name glob)",
    "fs replaceInFiles",
    "fs moveFiles",
    "fs setFilePermissions",
    "fs deleteFile",
    "git clone of a local bare repository",
    "git status",
    "git branches",
    "session keeps shell state",
    "session command exit code and stderr",
    "exit N ends the session shell",
    "async command takes input",
    "followed logs over WebSocket",
    "getSessionCommand after the end, and input refused",
    "getSessionCommandLogs",
    "listSessions and deleteSession",
    "codeRun",
    "stop",
    "start",
    "archive",
    "restore (start from archived)",
    "delete",
    "events: one per state change, each from the last",
    "dispose",
];

fn run_sdk(polling: bool) {
    require!(host::SANDBOXES, host::NODE_DAYTONA);
    let env = TestEnv::new();
    let emu = Emu::start(&env, &[]);
    let (repo, readme) = bare_repo(&env);
    let out = Command::new("node")
        .arg(conformance_dir().join("daytona_sdk.mjs"))
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", env.home.path())
        .env("DAYTONA_API_URL", emu.env_value("DAYTONA_API_URL"))
        .env("DAYTONA_API_KEY", emu.env_value("DAYTONA_API_KEY"))
        .env(
            "DAYTONA_USE_DEPRECATED_POLLING",
            if polling { "true" } else { "false" },
        )
        .env("OUTPOSTS_BARE_REPO", &repo)
        .env("OUTPOSTS_REPO_README", &readme)
        .current_dir(conformance_dir())
        .output()
        .expect("run node");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "the TypeScript SDK run failed (polling: {polling})\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    let done: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("ok "))
        .collect();
    assert_eq!(done, STEPS, "steps (polling: {polling}):\n{stdout}");
    let reqs = emu.requests();
    // The SDK's waits took the path the mode says: the event stream, or polling only.
    let socket: Vec<u16> = reqs
        .iter()
        .filter(|r| r.path.starts_with("/daytona/api/socket.io"))
        .map(|r| r.status)
        .collect();
    assert!(socket.contains(&101), "no event stream: {socket:?}");
    assert!(!socket.contains(&401), "{socket:?}");
    // Followed logs were a WebSocket upgrade, not a plain GET.
    assert!(
        reqs.iter().any(|r| r.path.ends_with("/logs")
            && r.query
                .as_deref()
                .is_some_and(|q| q.contains("follow=true"))
            && r.status == 101),
        "the followed logs were not upgraded"
    );
    // Session input went to the input endpoint: 204 while running, 410 once the command ended.
    let input: Vec<u16> = reqs
        .iter()
        .filter(|r| r.path.ends_with("/input"))
        .map(|r| r.status)
        .collect();
    assert_eq!(input, [204, 204, 410], "input answers");
    assert!(!stdout.contains(&emu.env_value("DAYTONA_API_KEY")));
    assert_openapi_conformance(&emu);
}

#[test]
fn official_typescript_sdk_with_events() {
    run_sdk(false);
}

#[test]
fn official_typescript_sdk_with_polling() {
    run_sdk(true);
}

/// The same steps with the official Python SDK, where it has them
/// (`tests/conformance/daytona_sdk_toolbox.py`).
fn run_python(polling: bool) {
    require!(host::SANDBOXES, host::PY_DAYTONA);
    let env = TestEnv::new();
    let emu = Emu::start(&env, &[]);
    let (repo, readme) = bare_repo(&env);
    let out = Command::new("python3")
        .arg(conformance_dir().join("daytona_sdk_toolbox.py"))
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", env.home.path())
        .env("DAYTONA_API_URL", emu.env_value("DAYTONA_API_URL"))
        .env("DAYTONA_API_KEY", emu.env_value("DAYTONA_API_KEY"))
        .env(
            "DAYTONA_USE_DEPRECATED_POLLING",
            if polling { "true" } else { "false" },
        )
        .env("OUTPOSTS_BARE_REPO", &repo)
        .env("OUTPOSTS_REPO_README", &readme)
        .current_dir(&env.cwd)
        .output()
        .expect("run python3");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the Python SDK toolbox run failed (polling: {polling})\nstdout:\n{stdout}\nstderr:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let done: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("ok "))
        .collect();
    assert_eq!(
        done,
        [
            "create with labels and env",
            "set labels",
            "exec with env and cwd",
            "fs upload, find, search, replace, move, permissions",
            "git clone, status, branches",
            "session keeps shell state",
            "exit N ends the session shell",
            "async command, input and followed logs",
            "code_run",
            "stop, start, archive, restore",
            "delete",
        ],
        "{stdout}"
    );
    assert_openapi_conformance(&emu);
}

#[test]
fn official_python_sdk_toolbox_steps_with_events() {
    run_python(false);
}

#[test]
fn official_python_sdk_toolbox_steps_with_polling() {
    run_python(true);
}

/// The code block of README.md's "Your own Daytona code" section whose fence says `lang`.
fn readme_snippet(lang: &str) -> String {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    let start = text
        .find("\n#### Your own Daytona code against the emulator\n")
        .expect("README has the section");
    let body = &text[start..];
    let body = &body[..body[1..].find("\n## ").map_or(body.len(), |i| i + 1)];
    let open = format!("```{lang}\n");
    let from = body.find(&open).expect("a code block") + open.len();
    let len = body[from..].find("```").expect("the block ends");
    body[from..from + len].to_string()
}

/// The README's TypeScript and Python snippets, run as written against the emulator.
#[test]
fn readme_sdk_snippets_run_as_written() {
    require!(host::SANDBOXES, host::NODE_DAYTONA, host::PY_DAYTONA);
    let env = TestEnv::new();
    let emu = Emu::start(&env, &[]);
    let dir = env.path("snippets");
    std::fs::create_dir_all(&dir).unwrap();
    std::os::unix::fs::symlink(
        conformance_dir().join("node_modules"),
        dir.join("node_modules"),
    )
    .unwrap();
    std::fs::write(dir.join("snippet.mjs"), readme_snippet("js")).unwrap();
    std::fs::write(dir.join("snippet.py"), readme_snippet("python")).unwrap();
    for (prog, file) in [("node", "snippet.mjs"), ("python3", "snippet.py")] {
        let out = Command::new(prog)
            .arg(dir.join(file))
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", env.home.path())
            .env("DAYTONA_API_URL", emu.env_value("DAYTONA_API_URL"))
            .env("DAYTONA_API_KEY", emu.env_value("DAYTONA_API_KEY"))
            .current_dir(&dir)
            .output()
            .expect("run the snippet");
        assert!(
            out.status.success(),
            "{prog} {file}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            "hello from /tmp\n",
            "{prog} {file}"
        );
    }
}
