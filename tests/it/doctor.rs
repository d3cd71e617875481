//! `outposts doctor` against the emulator: a good setup passes every check; a wrong token, a
//! busy port, an open state dir and a stalled service each fail with the fix; services that are
//! not configured are skipped.

use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::{Emu, Run, TestEnv};

/// A loopback port nobody listens on (bound, then released).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("free port")
}

fn setup(extra: &[&str]) -> (TestEnv, Emu) {
    let mut env = TestEnv::new();
    let emu = Emu::start(&env, extra);
    emu.configure(&mut env);
    env.set("OUTPOSTS_PROVIDER", "daytona");
    env.set("OUTPOSTS_CONNECT_PORT", free_port().to_string());
    (env, emu)
}

fn check<'a>(doc: &'a Value, id: &str) -> &'a Value {
    doc["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .find(|c| c["id"] == id)
        .unwrap_or_else(|| panic!("no check {id} in {doc}"))
}

/// The human line of the check titled `title`.
fn line<'a>(r: &'a Run, title: &str) -> &'a str {
    r.stdout
        .lines()
        .find(|l| l.get(4..).is_some_and(|rest| rest.starts_with(title)))
        .unwrap_or_else(|| panic!("no line for {title}:\n{}", r.stdout))
}

#[test]
fn a_good_setup_passes_every_check() {
    let (env, emu) = setup(&[]);
    env.run(&["snapshot", "build"]).ok();
    let r = env.run(&["doctor"]);
    r.ok();
    let lines: Vec<&str> = r.stdout.lines().take_while(|l| !l.is_empty()).collect();
    assert_eq!(lines.len(), 13, "{}", r.stdout);
    for l in &lines {
        assert!(l.starts_with('✔'), "not passed: {l}\n{}", r.stdout);
    }
    assert!(
        r.stdout.contains("13 passed, 0 failed, 0 skipped"),
        "{}",
        r.stdout
    );
    assert!(
        line(&r, "v3 API key").contains("DEVIN_API_KEY"),
        "{}",
        r.stdout
    );
    // Where each setting comes from.
    assert!(
        r.stdout.contains("OUTPOST_ID") && r.stdout.contains("(environment)"),
        "{}",
        r.stdout
    );
    assert!(
        line(&r, "network policy").contains("networkBlockAll"),
        "{}",
        r.stdout
    );
    assert!(
        line(&r, "outpost").contains("platform linux"),
        "{}",
        r.stdout
    );
    assert!(line(&r, "snapshot").contains("devin-outposts-default-"));

    let j = env.run(&["doctor", "--json"]);
    j.ok();
    let doc = j.json();
    assert_eq!(doc["ok"], true);
    assert_eq!(doc["failed"], 0);
    assert_eq!(doc["skipped"], 0);
    for c in doc["checks"].as_array().unwrap() {
        assert_eq!(c["status"], "pass", "{c}");
        assert!(c["fix"].is_null());
    }
    let token = emu.env_value("DEVIN_OUTPOSTS_TOKEN");
    let setting = doc["settings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "DEVIN_OUTPOSTS_TOKEN")
        .expect("token setting");
    assert_eq!(setting["source"], "env");
    assert_eq!(setting["secret"], true);
    for out in [&r.stdout, &r.stderr, &j.stdout, &j.stderr] {
        assert!(!out.contains(&token), "the token leaked:\n{out}");
    }
    // One cheap authenticated read per service.
    let reqs = emu.requests();
    let probe = reqs
        .iter()
        .filter(|q| q.path == "/opbeta/outposts/devins")
        .count();
    assert_eq!(probe, 2, "one queue read per doctor run");
    assert!(reqs.iter().any(|q| q.path.contains("ListSandboxes")));
}

#[test]
fn a_wrong_token_fails_with_the_fix_and_exit_3() {
    let (mut env, _emu) = setup(&[]);
    env.unset("DEVIN_OUTPOSTS_TOKEN");
    std::fs::write(
        env.cwd.join(".env"),
        "DEVIN_OUTPOSTS_TOKEN=cog_wrongwrongwrongwrongwrong\n",
    )
    .unwrap();
    let r = env.run(&["doctor"]);
    r.code(3);
    let token = line(&r, "Devin token");
    assert!(token.starts_with('✘'), "{token}");
    assert!(token.contains("HTTP 401"), "{token}");
    assert!(token.contains("fix: run `outposts connect`"), "{token}");
    assert!(
        token.contains(&format!("{}", env.cwd.join(".env").display())),
        "the fix names where the token comes from: {token}"
    );
    // What depends on the token is skipped, not failed twice.
    assert!(line(&r, "outpost").starts_with('–'), "{}", r.stdout);
    assert!(line(&r, "clock").starts_with('–'), "{}", r.stdout);
    // (The snapshot was never built here, so that check fails too.)
    assert!(
        r.stderr
            .contains("2 check(s) failed: devin_token, snapshot"),
        "{}",
        r.stderr
    );
    assert!(!r.all().contains("cog_wrongwrongwrongwrongwrong"));

    let j = env.run(&["doctor", "--json"]);
    j.code(3);
    let doc = j.json();
    assert_eq!(doc["ok"], false);
    let c = check(&doc, "devin_token");
    assert_eq!(c["status"], "fail");
    assert!(c["fix"].as_str().unwrap().contains("outposts connect"));
    assert_eq!(check(&doc, "outpost")["status"], "skip");
    let err: Value = serde_json::from_str(j.stderr.trim()).expect("JSON error on stderr");
    assert_eq!(err["error"]["code"], "check_failed");
    assert_eq!(err["error"]["exit_code"], 3);
}

#[test]
fn unconfigured_services_are_skipped_and_local_problems_fail() {
    let (mut env, _emu) = setup(&[]);
    env.unset("DAYTONA_API_KEY")
        .unset("CWSANDBOX_API_KEY")
        .unset("DEVIN_OUTPOST_CREATE_TOKEN")
        .set("OUTPOSTS_PROVIDER", "local")
        // The local check passes with or without bubblewrap on this host.
        .set("OUTPOSTS_LOCAL_UNISOLATED", "1");
    let state = env.path("state");
    std::fs::create_dir_all(&state).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&state, std::fs::Permissions::from_mode(0o755)).unwrap();
    let busy = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = busy.local_addr().unwrap().port();
    env.set("OUTPOSTS_CONNECT_PORT", port.to_string());

    let r = env.run(&["--json", "doctor"]);
    r.code(3);
    let doc = r.json();
    for id in [
        "daytona_key",
        "snapshot",
        "coreweave_key",
        "orchestrator_token",
    ] {
        assert_eq!(check(&doc, id)["status"], "skip", "{id}: {doc}");
    }
    let sd = check(&doc, "state_dir");
    assert_eq!(sd["status"], "fail");
    assert!(sd["message"].as_str().unwrap().contains("0755"), "{sd}");
    assert_eq!(sd["fix"], format!("chmod 700 {}", state.display()));
    let cp = check(&doc, "connect_port");
    assert_eq!(cp["status"], "fail");
    assert!(cp["fix"].as_str().unwrap().contains(&port.to_string()));
    assert_eq!(check(&doc, "devin_token")["status"], "pass");
    assert_eq!(doc["failed"], 2);
    drop(busy);

    // Fixed as told: both pass, nothing else changes.
    std::fs::set_permissions(&state, std::fs::Permissions::from_mode(0o700)).unwrap();
    let r = env.run(&["--json", "doctor"]);
    r.ok();
    let doc = r.json();
    assert!(
        check(&doc, "state_dir")["message"]
            .as_str()
            .unwrap()
            .contains("not locked"),
        "{doc}"
    );
    // Choosing a provider without its credentials is a failure, not a skip.
    env.set("OUTPOSTS_PROVIDER", "coreweave");
    let r = env.run(&["--json", "doctor"]);
    r.code(3);
    let cw = r.json();
    let c = check(&cw, "coreweave_key");
    assert_eq!(c["status"], "fail");
    assert!(c["fix"].as_str().unwrap().contains("CWSANDBOX_API_KEY"));
}

#[test]
fn a_stalled_service_is_bounded_by_the_timeout() {
    let faults =
        r#"[{"path":"/daytona/api/snapshots","times":0,"action":{"kind":"delay","ms":60000}}]"#;
    let (env, _emu) = setup(&["--faults", faults]);
    let started = Instant::now();
    let r = env.run(&["doctor", "--timeout", "2s"]);
    r.code(3);
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "doctor waited for the stalled service"
    );
    let day = line(&r, "Daytona API key");
    assert!(day.contains("no answer within 2s"), "{day}");
    assert!(day.contains("DAYTONA_API_URL"), "{day}");
    assert!(line(&r, "Devin token").starts_with('✔'), "{}", r.stdout);
}

/// Each provider's descriptor (settings/descriptor.rs) names doctor checks that `doctor --json`
/// really reports when that provider is chosen.
#[test]
fn each_providers_descriptor_names_checks_doctor_reports() {
    let (mut env, _emu) = setup(&[]);
    env.set("OUTPOSTS_LOCAL_UNISOLATED", "1");
    for d in outposts::settings::PROVIDERS.iter() {
        env.set("OUTPOSTS_PROVIDER", d.kind.as_str());
        let r = env.run(&["doctor", "--json", "--timeout", "20s"]);
        let doc: Value = serde_json::from_str(&r.stdout).expect("doctor --json");
        for id in d.doctor_checks {
            check(&doc, id);
        }
    }
}
