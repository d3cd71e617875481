//! A platform engineer's first hour (issue 24, part B): the usual mistakes, each met with a
//! verdict that is right at once, and every hint's command run exactly as printed.

use std::time::{Duration, Instant};

use outposts::provider::Provider;

use crate::local_provider::spec;
use crate::support::orch::wait_until;
use crate::support::verify::{local_sandboxes, spawn_verify, verify};
use crate::support::{Emu, TestEnv, block_on, emulated_env};

/// The command in the error's `hint:` line, from `outposts` to the end of the line.
pub fn hint_command(stderr: &str) -> String {
    let line = stderr
        .lines()
        .find(|l| l.trim_start().starts_with("hint:"))
        .unwrap_or_else(|| panic!("no hint in:\n{stderr}"));
    let at = line
        .find("outposts ")
        .unwrap_or_else(|| panic!("the hint names no command: {line}"));
    line[at..]
        .trim_end()
        .trim_end_matches(['.', ')'])
        .to_string()
}

pub use crate::support::shell::run_as_printed;

fn emulated() -> (TestEnv, Emu) {
    let (env, emu) = emulated_env(&[]);
    (env, emu)
}

/// Item 3: a second verification (or any after the first on a fixed worker) finds the earlier
/// proof in the file. That is "not yet", not a mismatch: verify keeps reading until the new
/// proof appears, and only when --wait runs out reports what it found (exit 3).
#[test]
fn verify_waits_past_an_earlier_proof_until_the_new_one_appears() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (env, p, _tmp, _reaper) = local_sandboxes();
    let sb = block_on(p.create(&spec("fixed-worker-2nd"))).unwrap();
    let path = "/workspace/outpost-proof.txt";
    block_on(p.write_file(&sb.id, path, b"outpost-proof-first\n")).unwrap();

    let mut child = spawn_verify(&env, &sb.id, "outpost-proof-second");
    std::thread::sleep(Duration::from_secs(3));
    assert!(
        child.try_wait().unwrap().is_none(),
        "verify gave up on the earlier proof instead of waiting for the new one"
    );
    block_on(p.write_file(&sb.id, path, b"outpost-proof-second\n")).unwrap();
    let mut status = None;
    wait_until(
        Duration::from_secs(30),
        "verify to finish",
        || {
            status = child.try_wait().unwrap();
            status.is_some()
        },
        String::new,
    );
    let mut stdout = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut stdout).unwrap();
    assert_eq!(status.unwrap().code(), Some(0), "{stdout}");
    assert!(stdout.contains("verified"), "{stdout}");

    // Nothing new by the end of the wait: the report shows what the file held, exit 3.
    let started = Instant::now();
    let run = verify(
        &env,
        &[
            "--sandbox",
            &sb.id,
            "--provider",
            "local",
            "--proof",
            "outpost-proof-third",
            "--wait",
            "3s",
        ],
    );
    run.code(3);
    assert!(started.elapsed() >= Duration::from_secs(3), "{run:?}");
    assert!(
        run.stdout.contains("found:    \"outpost-proof-second\\n\"")
            && run.stdout.contains("after 3s"),
        "{}",
        run.stdout
    );
    block_on(p.delete(&sb.id)).unwrap();
}

/// Item 7: a mistyped --session fails at once with the same exit code as an unknown --sandbox
/// (2), and the hint's command runs as printed.
#[test]
fn verify_of_an_unknown_session_fails_at_once_like_an_unknown_sandbox() {
    let (env, emu) = emulated();
    let started = Instant::now();
    let run = verify(
        &env,
        &[
            "--session",
            "devin-typo",
            "--provider",
            "daytona",
            "--wait",
            "30s",
        ],
    );
    run.code(2);
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "{:?}",
        started.elapsed()
    );
    assert!(
        run.stderr.contains("no session \"devin-typo\""),
        "{}",
        run.stderr
    );
    let hint = hint_command(&run.stderr);
    assert_eq!(hint, "outposts queue list");
    run_as_printed(&env, &hint).ok();

    verify(
        &env,
        &[
            "--sandbox",
            "sb-typo",
            "--provider",
            "daytona",
            "--wait",
            "30s",
        ],
    )
    .code(2);

    // A session that does exist but has no sandbox yet (nobody serves it) is waited for.
    let real = crate::support::orch::new_session(&emu, None);
    let run = verify(
        &env,
        &["--session", &real, "--provider", "daytona", "--wait", "2s"],
    );
    run.code(3);
    assert!(run.stdout.contains("timed out after 2s"), "{}", run.stdout);
}

/// Item 5: after `--write-env` pinned SNAPSHOT_NAME, an explicit new --dockerfile is not
/// silently replaced by the pinned image: it is an error whose hint builds the new file.
#[test]
fn an_explicit_dockerfile_is_never_replaced_by_a_pinned_snapshot() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (env, emu) = emulated();
    env.run(&["snapshot", "build", "--write-env"]).ok();
    let pinned = std::fs::read_to_string(env.cwd.join(".env")).unwrap();
    std::fs::write(
        env.cwd.join("Dockerfile.new"),
        "FROM ubuntu:22.04\nRUN echo changed\n",
    )
    .unwrap();
    let named = env
        .run(&[
            "snapshot",
            "name",
            "--dockerfile",
            "Dockerfile.new",
            "--json",
        ])
        .ok()
        .json();
    // `snapshot name` reports the pin in force, and the file's own name beside it.
    assert_eq!(named["source"], "SNAPSHOT_NAME");
    let derived = named["derived"].as_str().unwrap().to_string();
    let posts = |emu: &Emu| {
        emu.requests()
            .iter()
            .filter(|r| r.method == "POST" && r.path == "/daytona/api/snapshots")
            .count()
    };
    let before = posts(&emu);
    let run = env.run(&["snapshot", "build", "--dockerfile", "Dockerfile.new"]);
    run.code(2);
    assert!(
        run.stderr.contains("SNAPSHOT_NAME=") && run.stderr.contains(&derived),
        "{}",
        run.stderr
    );
    assert_eq!(posts(&emu), before, "nothing was built");
    assert_eq!(
        std::fs::read_to_string(env.cwd.join(".env")).unwrap(),
        pinned
    );

    let hint = hint_command(&run.stderr);
    let built = run_as_printed(&env, &hint);
    built.ok();
    assert_eq!(built.stdout.trim(), format!("SNAPSHOT_NAME={derived}"));
    assert_eq!(posts(&emu), before + 1);
    let dotenv = std::fs::read_to_string(env.cwd.join(".env")).unwrap();
    assert!(
        dotenv.contains(&format!("SNAPSHOT_NAME={derived}")),
        "{dotenv}"
    );
    // Now the pin and the file agree: a plain rebuild reuses it.
    env.run(&["snapshot", "build", "--dockerfile", "Dockerfile.new"])
        .ok();
    assert_eq!(posts(&emu), before + 1);
}

/// Item 11: sizes and durations take the same forms on every flag, in the same words.
#[test]
fn sizes_and_durations_are_parsed_alike_on_every_flag() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (env, emu) = emulated();
    env.run(&[
        "snapshot", "build", "--name", "sized-1", "--memory", "16Gi", "--disk", "20Gi",
    ])
    .ok();
    // Plain GiB numbers keep working.
    env.run(&[
        "snapshot", "build", "--name", "sized-2", "--memory", "4", "--disk", "12",
    ])
    .ok();
    let bodies: Vec<serde_json::Value> = emu
        .requests()
        .iter()
        .filter(|r| r.method == "POST" && r.path == "/daytona/api/snapshots")
        .map(|r| serde_json::from_str(r.body.as_deref().unwrap()).unwrap())
        .collect();
    let sized = |name: &str| {
        let b = bodies.iter().find(|b| b["name"] == name).unwrap();
        (b["memory"].as_u64(), b["disk"].as_u64())
    };
    assert_eq!(sized("sized-1"), (Some(16), Some(20)));
    assert_eq!(sized("sized-2"), (Some(4), Some(12)));

    for args in [
        &["snapshot", "build", "--memory", "lots"][..],
        &["worker", "launch", "--outpost", "x", "--memory", "lots"],
    ] {
        let r = env.run(args);
        r.code(2);
        assert!(
            r.stderr.contains("`lots` is not a size (e.g. 16Gi, 512Mi"),
            "{args:?}: {}",
            r.stderr
        );
    }
    let r = env.run(&["snapshot", "build", "--memory", "512Mi"]);
    r.code(2);
    assert!(r.stderr.contains("whole number of GiB"), "{}", r.stderr);
    for args in [
        &["session", "verify", "--session", "s", "--wait", "soon"][..],
        &["snapshot", "build", "--timeout", "soon"],
        &["worker", "exec", "w", "--timeout", "soon", "--", "true"],
    ] {
        let r = env.run(args);
        r.code(2);
        assert!(
            r.stderr.contains("`soon` is not a duration (e.g. 90s, 10m"),
            "{args:?}: {}",
            r.stderr
        );
    }
}

/// Item 10: a malformed `.env` line is reported as file:line; a misspelt key is warned about
/// with "did you mean" (and fails doctor's settings check); `doctor --json` is a document on
/// stdout even when the file cannot be parsed.
#[test]
fn dotenv_mistakes_are_located_and_named() {
    let (env, _emu) = emulated();
    let dotenv = env.cwd.join(".env");
    std::fs::write(&dotenv, "# mine\nKEEP=1\nOUTPOST_ID='unterminated\n").unwrap();
    let r = env.run(&["queue", "list"]);
    r.code(2);
    let at = format!("{}:3:", dotenv.display());
    assert!(r.stderr.contains(&at), "{}", r.stderr);
    assert!(!r.stderr.contains("character"), "{}", r.stderr);

    let r = env.run(&["--json", "doctor", "--timeout", "5s"]);
    r.code(3);
    let doc = r.json();
    assert_eq!(doc["ok"], false, "{doc}");
    assert_eq!(doc["checks"][0]["id"], "settings");
    assert_eq!(doc["checks"][0]["status"], "fail");
    assert!(
        doc["checks"][0]["message"].as_str().unwrap().contains(&at),
        "{doc}"
    );

    std::fs::write(
        &dotenv,
        "# mine\nDATABASE_URL=postgres://x\nDEVIN_APIURL=http://127.0.0.1:9\n",
    )
    .unwrap();
    let r = env.run(&["snapshot", "name"]);
    r.ok();
    assert!(
        r.stderr.contains(&format!(
            "{}:3: DEVIN_APIURL is not a setting outposts reads (ignored); did you mean DEVIN_API_URL?",
            dotenv.display()
        )),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("DATABASE_URL"), "{}", r.stderr);
    let r = env.run(&["--json", "doctor", "--timeout", "5s"]);
    r.code(3);
    let doc = r.json();
    let settings = doc["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "settings")
        .unwrap();
    assert_eq!(settings["status"], "fail", "{doc}");
    assert!(
        settings["message"]
            .as_str()
            .unwrap()
            .contains("did you mean DEVIN_API_URL?"),
        "{settings}"
    );
}
