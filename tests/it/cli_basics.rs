//! Global behaviour: help, version, exit codes, configuration errors, the emulator's env.

use crate::support::{Emu, TestEnv};

#[test]
fn version_and_help_succeed() {
    let env = TestEnv::new();
    let v = env.run(&["--version"]);
    v.ok();
    assert!(v.stdout.starts_with("outposts "), "{}", v.stdout);
    let h = env.run(&["--help"]);
    h.ok();
    assert!(h.stdout.contains("Exit codes"), "{}", h.stdout);
    // One screen that points at help-env, not the whole variable table.
    assert!(h.stdout.contains("outposts help-env"), "{}", h.stdout);
    assert!(!h.stdout.contains("DAYTONA_API_KEY"), "{}", h.stdout);
    assert!(h.stdout.lines().count() < 100, "{}", h.stdout);
    let e = env.run(&["help-env"]);
    e.ok();
    assert!(e.stdout.contains("DAYTONA_API_KEY"), "{}", e.stdout);
}

#[test]
fn usage_errors_exit_2() {
    let env = TestEnv::new();
    env.run(&["no-such-command"]).code(2);
    env.run(&["--color", "sometimes", "help-env"]).code(2);
}

#[test]
fn bad_env_file_names_the_file_and_exits_2() {
    let env = TestEnv::new();
    std::fs::write(
        env.cwd.join(".env"),
        "DEVIN_OUTPOSTS_TOKEN='cog_unterminatedsecret\n",
    )
    .unwrap();
    let r = env.run(&["help-env"]);
    r.code(2);
    assert!(r.stderr.contains(".env"), "{}", r.stderr);
    assert!(!r.all().contains("cog_unterminatedsecret"), "{}", r.all());
    let r = env.run(&["--env-file", "missing.env", "help-env"]);
    r.code(2);
    assert!(r.stderr.contains("missing.env"), "{}", r.stderr);
}

#[test]
fn json_errors_are_json_on_stderr() {
    let mut env = TestEnv::new();
    env.set("OUTPOSTS_EMULATOR_PORT", "not-a-port");
    let r = env.run(&["--json", "emulator", "env"]);
    r.code(2);
    let err: serde_json::Value = serde_json::from_str(r.stderr.trim()).expect("JSON error");
    assert_eq!(err["error"]["code"], "usage");
    assert!(
        err["error"]["message"]
            .as_str()
            .unwrap()
            .contains("OUTPOSTS_EMULATOR_PORT")
    );
    assert!(r.stdout.is_empty());
}

#[test]
fn emulator_env_prints_exports_for_a_running_emulator() {
    let env = TestEnv::new();
    let emu = Emu::start(&env, &[]);
    let port = emu.port.to_string();
    let r = env.run(&["emulator", "env", "--port", &port]);
    r.ok();
    assert!(
        r.stdout
            .contains(&format!("export DEVIN_API_URL={}", emu.base_url)),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("export DEVIN_OUTPOSTS_TOKEN="),
        "{}",
        r.stdout
    );
    // The port rides along, so `emulator session new` after the eval reaches this emulator.
    assert!(
        r.stdout
            .contains(&format!("export OUTPOSTS_EMULATOR_PORT={port}\n")),
        "{}",
        r.stdout
    );
    let j = env.run(&["--json", "emulator", "env", "--port", &port]);
    j.ok();
    assert_eq!(j.json()["OUTPOST_ID"], emu.env_value("OUTPOST_ID"));
    assert_eq!(j.json()["OUTPOSTS_EMULATOR_PORT"], port.as_str());
    // What the eval does: every printed variable, then a session command without --port.
    let mut evald = TestEnv::new();
    for (k, v) in j.json().as_object().unwrap() {
        evald.set(k, v.as_str().unwrap());
    }
    evald.run(&["emulator", "session", "new"]).ok();
}

#[test]
fn emulator_not_running_is_a_clear_failure() {
    let env = TestEnv::new();
    // Port 9 (discard) is never an emulator.
    let r = env.run(&["emulator", "env", "--port", "9"]);
    r.code(1);
    assert!(r.stderr.contains("emulator"), "{}", r.stderr);
}
