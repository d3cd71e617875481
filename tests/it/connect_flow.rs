//! `outposts connect` against the emulator, the admin played over HTTP: denial, replayed codes,
//! a busy port, a configured `.env`, `--force`, stray requests, timeout, Ctrl-C, storage
//! failures and the keyring fallback. The real-browser run is in `connect_browser.rs`.

use std::time::Duration;

use crate::support::connect::{
    Connecting, all_text_under, api_requests, approve, assert_never_shown, connect_env, decide,
    deliver, env_value, get, mode, post_form, query,
};
use crate::support::{Emu, TestEnv};

const REAL_TOKEN: &str = "cog_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8s9T0u1V2w3X4y5Z6";
const WAIT: Duration = Duration::from_secs(60);

fn start() -> (TestEnv, Emu) {
    let emu_env = TestEnv::new();
    let emu = Emu::start(&emu_env, &[]);
    (emu_env, emu)
}

fn connect(env: &TestEnv, extra: &[&str]) -> Connecting {
    let mut args = vec!["connect", "--no-browser", "--port", "0"];
    args.extend_from_slice(extra);
    Connecting::spawn(env, &args)
}

#[test]
fn json_result_and_a_working_token() {
    let (_e, emu) = start();
    let env = connect_env(&emu);
    let mut c = connect(&env, &["--name", "ci linux", "--platform", "windows"]);
    let url = c.url();
    assert_eq!(query(&url, "outpost_name"), "ci linux");
    assert_eq!(query(&url, "platform"), "windows");
    assert!(query(&url, "callback_url").starts_with("http://localhost:"));
    assert_eq!(query(&url, "code_challenge").len(), 43);
    assert!(url.starts_with(&format!("{}/outposts/connect?callback_url=", emu.base_url)));
    let page = get(&url);
    assert!(page.body.contains("ci linux") && page.body.contains("windows"));
    assert!(page.body.contains(">Connect</button>") && page.body.contains(">Deny</button>"));
    assert_eq!(page.header("cache-control"), "no-store");

    let done = approve(&url);
    assert_eq!(done.status, 200);
    assert!(done.body.contains("is connected"), "{}", done.body);
    assert_eq!(done.header("cache-control"), "no-store");
    c.wait(WAIT).ok();

    // The same again with --json, into another file.
    let mut c = Connecting::spawn(
        &env,
        &[
            "--json",
            "--env-file",
            "second.env",
            "connect",
            "--no-browser",
            "--port",
            "0",
            "--name",
            "second",
        ],
    );
    approve(&c.url());
    let run = c.wait(WAIT);
    run.ok();
    let doc = run.json();
    let file = env.cwd.join("second.env");
    assert_eq!(doc["outpost_name"], "second");
    assert_eq!(doc["token_store"], "env");
    assert_eq!(doc["api_base_url"], emu.base_url.as_str());
    assert_eq!(
        doc["outpost_id"].as_str(),
        env_value(&file, "OUTPOST_ID").as_deref()
    );
    assert_eq!(mode(&file), 0o600);
    let token = env_value(&file, "DEVIN_OUTPOSTS_TOKEN").unwrap();

    // The exchange was a form post without credentials; the log never holds the code.
    let exchange = emu
        .requests()
        .into_iter()
        .rfind(|r| r.path == "/outposts/connection-token")
        .expect("exchange logged");
    assert_eq!(exchange.method, "POST");
    assert_eq!(exchange.status, 200);
    let body = exchange.body.unwrap_or_default();
    assert!(body.contains("grant_type=authorization_code"), "{body}");
    assert!(
        body.contains("code=%5BREDACTED%5D") && body.contains("code_verifier=%5BREDACTED%5D"),
        "{body}"
    );

    let mut env2 = env;
    env2.set("DEVIN_OUTPOSTS_TOKEN", token.clone());
    env2.run(&["queue", "list"]).ok();
    assert_never_shown(
        &token,
        &[
            ("stdout", &run.stdout),
            ("stderr", &run.stderr),
            ("emulator", &emu.stderr()),
            ("emulator data", &all_text_under(emu.data_dir())),
        ],
    );
}

#[test]
fn deny_exits_nonzero_with_the_description() {
    let (_e, emu) = start();
    let env = connect_env(&emu);
    let mut c = connect(&env, &[]);
    let page = deliver(&decide(&c.url(), "deny", None));
    assert!(page.body.contains("denied"), "{}", page.body);
    // An `?error=` redirect is a failure: 400 (as the reference answers), not 200.
    assert_eq!(page.status, 400, "{}", page.body);
    let run = c.wait(WAIT);
    run.code(1);
    assert!(
        run.stderr
            .contains("access_denied: The administrator denied the connection request"),
        "{}",
        run.stderr
    );
    assert!(!env.cwd.join(".env").exists());
    assert!(
        !emu.requests()
            .iter()
            .any(|r| r.path == "/outposts/connection-token")
    );
}

#[test]
fn a_replayed_code_gets_the_invalid_grant_message() {
    let (_e, emu) = start();
    let env = connect_env(&emu);
    let mut first = connect(&env, &["--name", "first"]);
    let redirect = decide(&first.url(), "connect", None);
    let used = redirect.header("location");
    deliver(&redirect);
    first.wait(WAIT).ok();

    // A second connect receives the first one's (already used) code.
    let mut second = connect(&env, &["--env-file", "other.env", "--name", "second"]);
    let port = second.callback_port();
    let code = query(&used, "code");
    let page = get(&format!("http://127.0.0.1:{port}/callback?code={code}"));
    assert!(page.body.contains("not connected"), "{}", page.body);
    let run = second.wait(WAIT);
    run.code(1);
    assert!(
        run.stderr
            .contains("the code expired or was used; run `outposts connect` again"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("Invalid or expired connection code"),
        "{}",
        run.stderr
    );
    assert!(!env.cwd.join("other.env").exists());
}

#[test]
fn a_busy_port_is_reported_with_what_to_do() {
    let (_e, emu) = start();
    let env = connect_env(&emu);
    let holder = std::net::TcpListener::bind(("127.0.0.1", 0)).unwrap();
    let port = holder.local_addr().unwrap().port().to_string();
    let run = env.run(&["connect", "--no-browser", "--port", &port]);
    run.code(1);
    assert!(
        run.stderr
            .contains(&format!("port {port} on 127.0.0.1 is already in use")),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("--port") && run.stderr.contains("OUTPOSTS_CONNECT_PORT"));
    assert!(api_requests(&emu).is_empty());
    // The variable works too.
    let mut env = env;
    env.set("OUTPOSTS_CONNECT_PORT", port.clone());
    let run = env.run(&["connect", "--no-browser"]);
    run.code(1);
    assert!(
        run.stderr.contains(&format!("port {port}")),
        "{}",
        run.stderr
    );
}

#[test]
fn a_configured_env_is_refused_before_any_browser_or_request() {
    let (_e, emu) = start();
    let mut env = connect_env(&emu);
    let marker = env.path("browser-ran");
    let script = env.path("browser.sh");
    std::fs::write(
        &script,
        format!("#!/bin/sh\ntouch '{}'\n", marker.display()),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    env.set("BROWSER", script.to_string_lossy());
    let original = format!(
        "# prod\nDEVIN_OUTPOSTS_TOKEN={REAL_TOKEN}\nOUTPOST_ID=outpost_env-3a1abb1c2bb84512ad9aedb3ca0bf411\n"
    );
    std::fs::write(env.cwd.join(".env"), &original).unwrap();

    let run = env.run(&["connect"]);
    run.code(2);
    assert!(
        run.stderr.contains("DEVIN_OUTPOSTS_TOKEN and OUTPOST_ID"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("--force") && run.stderr.contains("--env-file"),
        "{}",
        run.stderr
    );
    assert!(
        !run.stderr.contains("/outposts/connect?"),
        "no URL: {}",
        run.stderr
    );
    assert!(api_requests(&emu).is_empty(), "{:?}", api_requests(&emu));
    std::thread::sleep(Duration::from_millis(300));
    assert!(!marker.exists(), "the browser was started");
    assert_eq!(
        std::fs::read_to_string(env.cwd.join(".env")).unwrap(),
        original
    );
    assert_never_shown(REAL_TOKEN, &[("output", &run.all())]);

    // Placeholders are not a configured outpost.
    std::fs::write(
        env.cwd.join(".env"),
        "DEVIN_OUTPOSTS_TOKEN=cog_...\nOUTPOST_ID='<your outpost>'\n",
    )
    .unwrap();
    env.unset("BROWSER");
    let mut c = connect(&env, &[]);
    approve(&c.url());
    c.wait(WAIT).ok();
}

#[test]
fn force_replaces_only_the_managed_keys() {
    let (_e, emu) = start();
    let env = connect_env(&emu);
    let original = "# Devin outposts\r\n\
DAYTONA_API_KEY=dtn_keepme1234567890 # inline comment\r\n\
\r\n\
DEVIN_OUTPOSTS_TOKEN=cog_oldoldoldoldoldoldoldoldoldold\r\n\
export OUTPOST_ID=outpost_env-00000000000000000000000000000000\r\n\
REPOS=\"https://example.com/a.git https://example.com/b.git\"\r\n\
DEVIN_OUTPOSTS_TOKEN=cog_duplicateduplicateduplicate\r\n\
# trailing comment\r\n";
    std::fs::write(env.cwd.join(".env"), original).unwrap();
    let mut c = connect(&env, &["--force"]);
    approve(&c.url());
    let run = c.wait(WAIT);
    run.ok();
    let text = std::fs::read_to_string(env.cwd.join(".env")).unwrap();
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let new_token = env_value(&env.cwd.join(".env"), "DEVIN_OUTPOSTS_TOKEN").unwrap();
    let new_id = env_value(&env.cwd.join(".env"), "OUTPOST_ID").unwrap();
    assert_ne!(new_id, "outpost_env-00000000000000000000000000000000");
    assert_eq!(
        lines,
        vec![
            "# Devin outposts\r\n",
            "DAYTONA_API_KEY=dtn_keepme1234567890 # inline comment\r\n",
            "\r\n",
            &format!("DEVIN_OUTPOSTS_TOKEN={new_token}\r\n"),
            &format!("export OUTPOST_ID={new_id}\r\n"),
            "REPOS=\"https://example.com/a.git https://example.com/b.git\"\r\n",
            "# trailing comment\r\n",
            &format!("DEVIN_API_URL={}\r\n", emu.base_url),
        ]
    );
    assert_eq!(mode(&env.cwd.join(".env")), 0o600);
    assert_never_shown(&new_token, &[("output", &run.all())]);
}

#[test]
fn stray_requests_get_404_and_a_bad_callback_400_while_waiting() {
    let (_e, emu) = start();
    let env = connect_env(&emu);
    let mut c = connect(&env, &[]);
    let url = c.url();
    let port = c.callback_port();
    let base = format!("http://127.0.0.1:{port}");
    assert_eq!(get(&format!("{base}/favicon.ico")).status, 404);
    assert_eq!(get(&format!("{base}/")).status, 404);
    assert_eq!(
        post_form(&format!("{base}/callback"), &[("code", "x")]).status,
        404
    );
    let missing = get(&format!("{base}/callback?state=1"));
    assert_eq!(missing.status, 400);
    assert_eq!(missing.header("cache-control"), "no-store");
    assert!(missing.body.contains("still waiting"), "{}", missing.body);
    assert_eq!(get(&format!("{base}/callback?code=a&code=b")).status, 400);
    assert!(c.running(), "connect must keep waiting");

    // A taken name re-renders the page; a free one goes through.
    let taken = decide(&url, "connect", Some("emulator"));
    assert_eq!(taken.status, 409);
    assert!(taken.body.contains("already exists"), "{}", taken.body);
    assert!(c.running());
    let page = deliver(&decide(&url, "connect", Some("renamed on the page")));
    assert_eq!(page.status, 200);
    let run = c.wait(WAIT);
    run.ok();
    assert!(run.stdout.contains("renamed on the page"), "{}", run.stdout);
}

#[test]
fn timeout_exits_1_and_ctrl_c_exits_130_and_both_free_the_port() {
    let (_e, emu) = start();
    let env = connect_env(&emu);
    let mut c = connect(&env, &["--timeout", "2s"]);
    let port = c.callback_port();
    let run = c.wait(WAIT);
    run.code(1);
    assert!(
        run.stderr
            .contains("no redirect from the browser within 2s"),
        "{}",
        run.stderr
    );
    std::net::TcpListener::bind(("127.0.0.1", port)).expect("port freed after timeout");

    let mut c = connect(&env, &[]);
    let port = c.callback_port();
    unsafe {
        libc::kill(c.pid() as i32, libc::SIGINT);
    }
    let run = c.wait(WAIT);
    run.code(130);
    std::net::TcpListener::bind(("127.0.0.1", port)).expect("port freed after Ctrl-C");
    assert!(api_requests(&emu).is_empty());
}

#[test]
fn a_failed_write_keeps_the_token_in_a_recovery_file() {
    let (_e, emu) = start();
    let env = connect_env(&emu);
    let sub = env.cwd.join("sub");
    std::fs::create_dir_all(&sub).unwrap();
    let mut c = connect(&env, &["--env-file", "sub/.env"]);
    let url = c.url();
    std::fs::remove_dir_all(&sub).unwrap();
    approve(&url);
    let run = c.wait(WAIT);
    run.code(1);
    let line = run
        .stderr
        .lines()
        .find(|l| l.contains("saved to "))
        .unwrap_or_else(|| panic!("no recovery path:\n{}", run.stderr));
    let path = line
        .split("saved to ")
        .nth(1)
        .and_then(|rest| rest.split(" (mode 0600)").next())
        .expect("path");
    let path = std::path::Path::new(path);
    assert!(
        path.starts_with(env.path(".local/state/outposts/recovery")),
        "{}",
        path.display()
    );
    assert_eq!(mode(path), 0o600);
    let token = env_value(path, "DEVIN_OUTPOSTS_TOKEN").expect("token kept");
    assert!(
        env_value(path, "OUTPOST_ID")
            .unwrap()
            .starts_with("outpost_env-")
    );
    assert!(run.stderr.contains("was connected"), "{}", run.stderr);
    assert_never_shown(&token, &[("output", &run.all())]);
}

#[test]
fn stale_values_in_the_environment_are_pointed_out() {
    let (_e, emu) = start();
    let mut env = connect_env(&emu);
    env.set("OUTPOST_ID", "outpost_env-stale");
    let mut c = connect(&env, &[]);
    approve(&c.url());
    let run = c.wait(WAIT);
    run.ok();
    assert!(
        run.stderr
            .contains("OUTPOST_ID in the environment will override what was just stored"),
        "{}",
        run.stderr
    );
    // DEVIN_API_URL is set too, but to the value that was stored.
    assert!(
        !run.stderr.contains("DEVIN_API_URL in the environment"),
        "{}",
        run.stderr
    );
}

#[test]
fn keyring_store_without_a_keyring_falls_back_to_env_and_says_so() {
    let (_e, emu) = start();
    let env = connect_env(&emu);
    let mut c = connect(&env, &["--store", "keyring"]);
    let url = c.url();
    approve(&url);
    let run = c.wait(WAIT);
    run.ok();
    assert!(run.stderr.contains("OUTPOSTS_NO_KEYRING"), "{}", run.stderr);
    assert!(
        run.stderr.contains("written to") && run.stderr.contains(".env"),
        "{}",
        run.stderr
    );
    assert!(env_value(&env.cwd.join(".env"), "DEVIN_OUTPOSTS_TOKEN").is_some());
}

#[test]
fn bad_input_is_refused_before_listening() {
    let (_e, emu) = start();
    let env = connect_env(&emu);
    env.run(&["connect", "--platform", "beos"]).code(2);
    env.run(&["connect", "--name", " ", "--no-browser"]).code(2);
    env.run(&["connect", "--timeout", "soon", "--no-browser"])
        .code(2);
    let run = env.run(&["connect", "--env-file", "no/such/dir/.env", "--no-browser"]);
    run.code(2);
    assert!(run.stderr.contains("does not exist"), "{}", run.stderr);
    assert!(api_requests(&emu).is_empty());
}
