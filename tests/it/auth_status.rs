//! `outposts auth status|logout` against the emulator.

use crate::support::connect::{api_requests, assert_never_shown, env_value};
use crate::support::{Emu, TestEnv};

fn env_without_token(emu: &Emu) -> TestEnv {
    let mut env = TestEnv::new();
    emu.configure(&mut env);
    env.unset("DEVIN_OUTPOSTS_TOKEN");
    env
}

#[test]
fn status_names_the_source_and_checks_the_token() {
    let e = TestEnv::new();
    let emu = Emu::start(&e, &[]);
    let token = emu.env_value("DEVIN_OUTPOSTS_TOKEN");

    // From the environment.
    let mut env = TestEnv::new();
    emu.configure(&mut env);
    let r = env.run(&["auth", "status"]);
    r.ok();
    assert!(
        r.stdout
            .contains("from environment variable DEVIN_OUTPOSTS_TOKEN"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("Accepted:     yes"), "{}", r.stdout);
    let j = env.run(&["auth", "status", "--json"]);
    j.ok();
    let doc = j.json();
    assert_eq!(doc["token"]["source"], "env");
    assert_eq!(doc["accepted"], true);
    assert_eq!(
        doc["outpost_id"]["value"],
        emu.env_value("OUTPOST_ID").as_str()
    );
    assert_eq!(doc["api_url"]["value"], emu.base_url.as_str());
    assert_eq!(doc["orchestrator_token"]["source"], "env");
    let hint = doc["token"]["hint"].as_str().unwrap();
    assert!(
        hint.starts_with("cog_…") && token.ends_with(&hint[hint.len() - 4..]),
        "{hint}"
    );

    // From .env.
    let env = env_without_token(&emu);
    std::fs::write(
        env.cwd.join(".env"),
        format!("DEVIN_OUTPOSTS_TOKEN={token}\n"),
    )
    .unwrap();
    let j = env.run(&["auth", "status", "--json"]);
    j.ok();
    assert_eq!(j.json()["token"]["source"], "file");
    assert!(
        j.json()["token"]["origin"]
            .as_str()
            .unwrap()
            .ends_with(".env")
    );

    assert_never_shown(&token, &[("status", &r.all()), ("json", &j.all())]);
}

#[test]
fn no_token_or_a_rejected_one_exits_4() {
    let e = TestEnv::new();
    let emu = Emu::start(&e, &[]);
    let env = env_without_token(&emu);
    let r = env.run(&["auth", "status"]);
    r.code(4);
    assert!(r.stdout.contains("Token:        none"), "{}", r.stdout);
    assert!(r.stderr.contains("outposts connect"), "{}", r.stderr);
    let j = env.run(&["auth", "status", "--json"]);
    j.code(4);
    assert_eq!(j.json()["token"]["present"], false);
    // No token, no fleet request (the v3 key, a separate credential, is still checked).
    assert!(
        api_requests(&emu)
            .iter()
            .all(|r| r.path.contains("/organizations/")),
        "no token, no fleet request"
    );

    let mut env = env;
    env.set("DEVIN_OUTPOSTS_TOKEN", "cog_bogusbogusbogusbogusbogusbogus");
    let r = env.run(&["auth", "status"]);
    r.code(4);
    assert!(r.stdout.contains("rejected"), "{}", r.stdout);
    assert_never_shown(
        "cog_bogusbogusbogusbogusbogusbogus",
        &[("output", &r.all())],
    );
}

#[test]
fn offline_skips_the_check_and_an_unreachable_api_is_a_failure() {
    let mut env = TestEnv::new();
    env.set("DEVIN_OUTPOSTS_TOKEN", "cog_offlineofflineofflineoffline1")
        .set("DEVIN_API_URL", "http://127.0.0.1:9")
        .set("OUTPOSTS_HTTP_ATTEMPTS", "1");
    let r = env.run(&["auth", "status", "--offline"]);
    r.ok();
    assert!(r.stdout.contains("not checked"), "{}", r.stdout);
    let r = env.run(&["auth", "status"]);
    r.code(1);
    assert!(r.stderr.contains("--offline"), "{}", r.stderr);
}

#[test]
fn logout_removes_only_the_token_line_and_needs_yes_without_a_terminal() {
    let e = TestEnv::new();
    let emu = Emu::start(&e, &[]);
    let token = emu.env_value("DEVIN_OUTPOSTS_TOKEN");
    let env = env_without_token(&emu);
    let file = env.cwd.join(".env");
    let original = format!(
        "# keep me\nDEVIN_OUTPOSTS_TOKEN={token}\nOUTPOST_ID=outpost_env-3a1abb1c2bb84512ad9aedb3ca0bf411\nexport DEVIN_OUTPOSTS_TOKEN={token}\n"
    );
    std::fs::write(&file, &original).unwrap();

    let r = env.run(&["auth", "logout"]);
    r.code(2);
    assert!(r.stderr.contains("--yes"), "{}", r.stderr);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), original);

    let r = env.run(&["auth", "logout", "--yes"]);
    r.ok();
    assert!(
        r.stdout.contains("Removed DEVIN_OUTPOSTS_TOKEN from"),
        "{}",
        r.stdout
    );
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "# keep me\nOUTPOST_ID=outpost_env-3a1abb1c2bb84512ad9aedb3ca0bf411\n"
    );
    assert!(env_value(&file, "DEVIN_OUTPOSTS_TOKEN").is_none());
    env.run(&["auth", "status"]).code(4);

    let again = env.run(&["auth", "logout", "--json"]);
    again.ok();
    assert_eq!(again.json()["removed"], serde_json::json!([]));

    // A token in the environment is reported, not touched.
    let mut env = env;
    env.set("DEVIN_OUTPOSTS_TOKEN", token.clone());
    let r = env.run(&["auth", "logout", "--yes"]);
    r.ok();
    assert!(
        r.stderr.contains("still set in the environment variable"),
        "{}",
        r.stderr
    );
    assert_never_shown(&token, &[("output", &r.all())]);
}
