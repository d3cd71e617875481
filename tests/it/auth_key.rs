//! `outposts auth set-key` and the keyring layer of `DEVIN_API_KEY`: stored from stdin, shown by
//! `auth status` without its value, used by a v3 command, forgotten by `auth logout`. The OS
//! keyring is stood in for by the debug-build file backend (`OUTPOSTS_TEST_KEYRING`).

use std::io::Write;
use std::path::PathBuf;
use std::process::Stdio;

use crate::invariants::{World, i8_no_secret_leaks};
use crate::support::connect::{assert_never_shown, env_value};
use crate::support::{Emu, Run, TestEnv};

/// An environment on the emulator without DEVIN_API_KEY, with the file keyring turned on.
fn env_with_file_keyring(emu: &Emu) -> (TestEnv, PathBuf) {
    let mut env = TestEnv::new();
    emu.configure(&mut env);
    env.unset("DEVIN_API_KEY").unset("OUTPOSTS_NO_KEYRING");
    let keyring = env.path("keyring.json");
    env.set("OUTPOSTS_TEST_KEYRING", keyring.to_string_lossy());
    (env, keyring)
}

/// Run with `input` on stdin (a pipe, as in CI).
pub(crate) fn run_with_stdin(env: &TestEnv, args: &[&str], input: &str) -> Run {
    let mut child = env
        .cmd(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn outposts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write stdin");
    Run::from(child.wait_with_output().expect("wait"))
}

fn keyring_entries(path: &std::path::Path) -> serde_json::Value {
    match std::fs::read(path) {
        Ok(b) => serde_json::from_slice(&b).expect("keyring file is JSON"),
        Err(_) => serde_json::json!({}),
    }
}

#[test]
fn set_key_in_the_keyring_is_used_shown_by_source_and_forgotten_by_logout() {
    let e = TestEnv::new();
    let emu = Emu::start(&e, &[]);
    let key = emu.env_value("DEVIN_API_KEY");
    let (mut env, keyring) = env_with_file_keyring(&emu);
    let account = format!("DEVIN_API_KEY@{}", emu.base_url.trim_end_matches('/'));
    let mut outputs = Vec::new();

    // Nothing stored: the v3 command is a usage error naming the key, before any request.
    let r = env.run(&["outpost", "default"]);
    r.code(2);
    assert!(r.stderr.contains("DEVIN_API_KEY"), "{}", r.stderr);
    // Nothing on stdin: usage, nothing written.
    let r = run_with_stdin(&env, &["auth", "set-key", "--store", "keyring"], "");
    r.code(2);
    assert!(!keyring.exists());

    // Stored from stdin into the keyring; .env holds no copy (nor was it created for nothing).
    let r = run_with_stdin(
        &env,
        &["auth", "set-key", "--store", "keyring"],
        &format!("{key}\n"),
    );
    r.ok();
    assert!(r.stdout.contains("OS keyring"), "{}", r.stdout);
    outputs.push(r.all());
    assert_eq!(keyring_entries(&keyring)[&account], key.as_str());
    assert!(!env.cwd.join(".env").exists());

    // auth status names the keyring and shows a hint only.
    let r = env.run(&["auth", "status", "--offline"]);
    r.ok();
    assert!(
        r.stdout.contains("v3 API key:") && r.stdout.contains("(from OS keyring)"),
        "{}",
        r.stdout
    );
    outputs.push(r.all());
    let j = env.run(&["auth", "status", "--json"]);
    j.ok();
    let doc = j.json();
    assert_eq!(doc["api_key"]["present"], true);
    assert_eq!(doc["api_key"]["source"], "keyring");
    let hint = doc["api_key"]["hint"].as_str().unwrap();
    assert!(key.ends_with(&hint[hint.len() - 4..]), "{hint}");
    outputs.push(j.all());

    // A v3 command works with the key from the keyring alone (debug logs on).
    let r = env.run(&["-vv", "outpost", "default", "--json"]);
    r.ok();
    assert!(r.json().get("outpost_pool_id").is_some(), "{}", r.stdout);
    outputs.push(r.all());
    // …and the keyring is what made it work: turned off, the key is missing again.
    env.set("OUTPOSTS_NO_KEYRING", "1");
    env.run(&["outpost", "default"]).code(2);
    env.unset("OUTPOSTS_NO_KEYRING");

    // logout forgets it (and says which), then the command is back to "missing".
    let r = env.run(&["auth", "logout", "--yes", "--json"]);
    r.ok();
    let removed = r.json()["removed"].clone();
    assert!(
        removed
            .as_array()
            .unwrap()
            .iter()
            .any(|x| x["var"] == "DEVIN_API_KEY"
                && x["from"] == "keyring"
                && x["account"] == account.as_str()),
        "{removed}"
    );
    outputs.push(r.all());
    assert!(keyring_entries(&keyring).get(&account).is_none());
    env.run(&["outpost", "default"]).code(2);
    let j = env.run(&["auth", "status", "--json", "--offline"]);
    assert_eq!(j.json()["api_key"]["present"], false);

    for (i, o) in outputs.iter().enumerate() {
        assert_never_shown(&key, &[(&format!("output {i}"), o)]);
    }
    // The invariant checker's I8: not in logs, state files, argv or request URLs.
    let logs = env.path("outputs.log");
    std::fs::write(&logs, outputs.join("\n")).unwrap();
    let world = World {
        secrets: vec![key.clone()],
        logs: vec![logs, emu.stderr_path().to_path_buf()],
        state_dirs: vec![PathBuf::from(&env.vars["STATE_DIR"]), env.path(".local")],
        argv_samples: vec![
            "outposts auth set-key --store keyring".into(),
            "outposts -vv outpost default --json".into(),
        ],
        requests: emu.requests(),
        ..World::default()
    };
    let violations = i8_no_secret_leaks(&world);
    assert!(violations.is_empty(), "{violations:?}");
}

#[test]
fn set_key_to_env_then_moved_to_the_keyring_and_logout_removes_the_line() {
    let e = TestEnv::new();
    let emu = Emu::start(&e, &[]);
    let key = emu.env_value("DEVIN_API_KEY");
    let (env, keyring) = env_with_file_keyring(&emu);
    let file = env.cwd.join(".env");
    std::fs::write(&file, "# mine\nOTHER=1\n").unwrap();

    let r = run_with_stdin(&env, &["auth", "set-key", "--json"], &key);
    r.ok();
    assert_eq!(r.json()["store"], "env");
    assert_eq!(
        env_value(&file, "DEVIN_API_KEY").as_deref(),
        Some(key.as_str())
    );
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(
        std::fs::metadata(&file).unwrap().permissions().mode() & 0o777,
        0o600
    );
    let j = env.run(&["auth", "status", "--json", "--offline"]);
    assert_eq!(j.json()["api_key"]["source"], "file");
    env.run(&["outpost", "default"]).ok();

    // Moving it to the keyring removes the .env line, which would otherwise win.
    let r = run_with_stdin(&env, &["auth", "set-key", "--store", "keyring"], &key);
    r.ok();
    assert!(env_value(&file, "DEVIN_API_KEY").is_none());
    assert!(!std::fs::read_to_string(&file).unwrap().contains(&key));
    let j = env.run(&["auth", "status", "--json", "--offline"]);
    assert_eq!(j.json()["api_key"]["source"], "keyring");

    // Not a key: whitespace inside, or a placeholder.
    run_with_stdin(&env, &["auth", "set-key"], "cog_a b").code(2);
    run_with_stdin(&env, &["auth", "set-key"], "cog_...").code(2);

    // Stored in .env again, logout removes both places; other lines stay.
    run_with_stdin(&env, &["auth", "set-key"], &key).ok();
    let r = env.run(&["auth", "logout", "--yes"]);
    r.ok();
    assert!(
        r.stdout.contains("Removed DEVIN_API_KEY from"),
        "{}",
        r.stdout
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "# mine\nOTHER=1\n");
    assert_eq!(keyring_entries(&keyring), serde_json::json!({}));
    assert_never_shown(&key, &[("logout", &r.all())]);
}
