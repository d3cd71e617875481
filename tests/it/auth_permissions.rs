//! Issue 31 item 8: a v3 key is judged by the permissions the commands need, not by one read.
//! `doctor` names the missing permission of a view-only key; `auth set-key` refuses a value that
//! is not a key (exit 2) and a key the API refuses (exit 4) without touching the working one;
//! `auth status` says accepted / refused / unchecked; `set-key --help` names only what it writes.

use crate::auth_key::run_with_stdin;
use crate::support::connect::env_value;
use crate::support::{Emu, TestEnv, block_on};

fn api_key_check(env: &TestEnv) -> (i32, serde_json::Value) {
    let r = env.run(&["doctor", "--json"]);
    let doc = r.json();
    let check = doc["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "api_key")
        .cloned()
        .expect("an api_key check");
    (r.code, check)
}

#[test]
fn doctor_fails_a_view_only_key_naming_manage_org_sessions_and_changes_nothing() {
    let e = TestEnv::new();
    let emu = Emu::start(&e, &[]);
    let mut env = TestEnv::new();
    emu.configure(&mut env);

    // The emulator's default key has every permission: the check passes and lists them.
    let (_, check) = api_key_check(&env);
    assert_eq!(check["status"], "pass", "{check}");
    for p in ["ManageOrgSessions", "ViewOrgSessions", "ManageOrgSettings"] {
        assert!(check["message"].as_str().unwrap().contains(p), "{check}");
    }

    let view_only = block_on(emu.client().v3_key(&["ViewOrgSessions"], "view only")).unwrap();
    env.set("DEVIN_API_KEY", view_only.expose());
    let (code, check) = api_key_check(&env);
    assert_eq!(check["status"], "fail", "{check}");
    assert_ne!(code, 0, "a key that cannot create sessions is not fine");
    let msg = check["message"].as_str().unwrap();
    assert!(
        msg.contains("lacks ManageOrgSessions") && msg.contains("session create"),
        "{check}"
    );
    // OUTPOST_ID is set, so the default platform's permission is only a note.
    assert!(!msg.contains("lacks ManageOrgSessions and"), "{check}");
    assert!(
        check["fix"].as_str().unwrap().contains("ManageOrgSessions"),
        "{check}"
    );

    // Without an outpost, session create falls back to the default platform: that needs
    // ManageOrgSettings, and a key without it fails too.
    let no_settings = block_on(
        emu.client()
            .v3_key(&["ViewOrgSessions", "ManageOrgSessions"], "no settings"),
    )
    .unwrap();
    env.set("DEVIN_API_KEY", no_settings.expose());
    let (_, check) = api_key_check(&env);
    assert_eq!(check["status"], "pass", "{check}");
    env.unset("OUTPOST_ID");
    let (_, check) = api_key_check(&env);
    assert_eq!(check["status"], "fail", "{check}");
    assert!(
        check["message"]
            .as_str()
            .unwrap()
            .contains("lacks ManageOrgSettings"),
        "{check}"
    );

    // The probes changed nothing: no session was created or ended.
    assert!(block_on(emu.client().sessions()).unwrap().is_empty());
    let v3: Vec<_> = emu
        .requests()
        .into_iter()
        .filter(|r| r.path.contains("/organizations/"))
        .collect();
    assert!(
        v3.iter().all(|r| r.method != "POST" && r.method != "PUT"),
        "{v3:?}"
    );
}

#[test]
fn set_key_refuses_a_malformed_or_refused_key_and_keeps_the_working_one() {
    let e = TestEnv::new();
    let emu = Emu::start(&e, &[]);
    let working = emu.env_value("DEVIN_API_KEY");
    let mut env = TestEnv::new();
    emu.configure(&mut env);
    env.unset("DEVIN_API_KEY");
    let file = env.cwd.join(".env");
    std::fs::write(&file, format!("DEVIN_API_KEY={working}\n")).unwrap();

    let r = run_with_stdin(&env, &["auth", "set-key"], "notakey\n");
    r.code(2);
    assert!(r.stderr.contains("cog_"), "{}", r.stderr);
    assert_eq!(
        env_value(&file, "DEVIN_API_KEY").as_deref(),
        Some(working.as_str())
    );

    // Well formed, but not a key the API knows: refused (exit 4), the working key stays.
    let unknown = format!("cog_{}", "0123456789abcdef".repeat(3));
    let r = run_with_stdin(&env, &["auth", "set-key"], &unknown);
    r.code(4);
    assert!(
        r.stderr.contains("not stored") && r.stderr.contains("401"),
        "{}",
        r.stderr
    );
    assert!(!r.all().contains(&unknown), "the key is never shown");
    assert_eq!(
        env_value(&file, "DEVIN_API_KEY").as_deref(),
        Some(working.as_str())
    );

    // A real key of the organisation is checked and stored.
    let other = block_on(emu.client().v3_key(
        &["ViewOrgSessions", "ManageOrgSessions", "ManageOrgSettings"],
        "new",
    ))
    .unwrap();
    let r = run_with_stdin(&env, &["auth", "set-key", "--json"], other.expose());
    r.ok();
    assert_eq!(r.json()["check"], "accepted");
    assert_eq!(
        env_value(&file, "DEVIN_API_KEY").as_deref(),
        Some(other.expose())
    );

    // The API unreachable: stored, with a warning that it was not checked.
    env.set("DEVIN_API_URL", "http://127.0.0.1:9");
    let r = run_with_stdin(&env, &["auth", "set-key", "--json"], &working);
    r.ok();
    assert_eq!(r.json()["check"], "unchecked");
    assert!(r.stderr.contains("without checking"), "{}", r.stderr);
}

#[test]
fn auth_status_says_whether_the_v3_key_is_accepted_refused_or_unchecked() {
    let e = TestEnv::new();
    let emu = Emu::start(&e, &[]);
    let mut env = TestEnv::new();
    emu.configure(&mut env);

    let r = env.run(&["auth", "status", "--json"]);
    r.ok();
    assert_eq!(r.json()["api_key_check"], "accepted");
    let r = env.run(&["auth", "status"]);
    assert!(r.stdout.contains("Key accepted: accepted"), "{}", r.stdout);

    let view_only = block_on(emu.client().v3_key(&["ViewOrgSessions"], "view only")).unwrap();
    env.set("DEVIN_API_KEY", view_only.expose());
    let doc = env.run(&["auth", "status", "--json"]).json();
    assert_eq!(doc["api_key_check"], "accepted");
    assert!(
        doc["api_key_missing"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p == "ManageOrgSessions"),
        "{doc}"
    );

    env.set("DEVIN_API_KEY", emu.env_value("DEVIN_OUTPOSTS_TOKEN"));
    let doc = env.run(&["auth", "status", "--json"]).json();
    assert_eq!(doc["api_key_check"], "refused", "{doc}");
    let r = env.run(&["auth", "status"]);
    assert!(r.stdout.contains("Key accepted: refused"), "{}", r.stdout);

    let doc = env.run(&["auth", "status", "--json", "--offline"]).json();
    assert_eq!(doc["api_key_check"], "unchecked", "{doc}");
}

#[test]
fn set_key_help_names_only_what_it_writes() {
    let env = TestEnv::new();
    let r = env.run(&["auth", "set-key", "--help"]);
    r.ok();
    assert!(!r.stdout.contains("OUTPOST_ID"), "{}", r.stdout);
    assert!(!r.stdout.contains("with DEVIN_API_URL"), "{}", r.stdout);
    assert!(
        r.stdout.contains("Only DEVIN_API_KEY is written"),
        "{}",
        r.stdout
    );
}
