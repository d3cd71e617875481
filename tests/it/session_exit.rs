//! How `session` commands end (issue 31 items 4, 6, 10, 14): a stop signal ends the session a
//! command made and prints its id; one exit table for every `session` command; with `--json`
//! stdout holds exactly one document and every stderr line is a JSON object.

use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::support::{Emu, Run, TestEnv, block_on, drain};

/// An emulator and an environment pointed at it; nobody serves its outpost.
fn emulated() -> (TestEnv, Emu) {
    let emu_env = TestEnv::new();
    let emu = Emu::start(&emu_env, &[]);
    let mut env = TestEnv::new();
    emu.configure(&mut env);
    let root = env.path("local-sandboxes");
    env.set("OUTPOSTS_LOCAL_ROOT", root.to_string_lossy().into_owned());
    drop(emu_env);
    (env, emu)
}

/// The ids of the sessions the emulator holds.
fn session_ids(emu: &Emu) -> Vec<String> {
    block_on(emu.client().sessions())
        .expect("admin read")
        .into_iter()
        .map(|s| s.session_id)
        .collect()
}

/// Start `args`, wait until it created a session (the emulator holds one more), send `sig`,
/// and return the run and the session's id.
fn signalled(env: &TestEnv, emu: &Emu, args: &[&str], sig: i32) -> (Run, String) {
    let before = session_ids(emu);
    let mut child = env
        .cmd(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn outposts");
    let deadline = Instant::now() + Duration::from_secs(60);
    let id = loop {
        if let Some(id) = session_ids(emu).into_iter().find(|i| !before.contains(i)) {
            break id;
        }
        if let Ok(Some(status)) = child.try_wait() {
            let (out, err) = drain(&mut child);
            panic!("exited ({status}) before creating a session:\n{out}\n{err}");
        }
        assert!(Instant::now() < deadline, "no session was created");
        std::thread::sleep(Duration::from_millis(50));
    };
    unsafe {
        libc::kill(child.id() as i32, sig);
    }
    let (stdout, stderr) = drain(&mut child);
    let status = child.wait().expect("wait");
    let run = Run {
        code: status.code().unwrap_or(-1),
        stdout,
        stderr,
    };
    (run, id)
}

/// The session's status as the emulator's v3 API reports it (through `session show`).
fn v3_status(env: &TestEnv, id: &str) -> String {
    let run = env.run(&["session", "show", id, "--json"]);
    run.ok();
    run.json()["session"]["status"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// Every stderr line is a JSON object; the last one, when `error` is given, is the error
/// document with that exit code.
#[track_caller]
pub(crate) fn assert_json_stderr(run: &Run, error: Option<i32>) {
    let lines: Vec<&str> = run
        .stderr
        .lines()
        .filter(|l| !l.trim().is_empty())
        .collect();
    for l in &lines {
        let v: serde_json::Value = serde_json::from_str(l)
            .unwrap_or_else(|e| panic!("stderr line is not JSON ({e}): {l}\n{}", run.stderr));
        assert!(v.is_object(), "{l}");
    }
    if let Some(code) = error {
        let last: serde_json::Value =
            serde_json::from_str(lines.last().expect("an error line")).unwrap();
        assert_eq!(last["error"]["exit_code"], code, "{}", run.stderr);
    }
}

#[test]
fn a_stop_signal_ends_the_proof_session_prints_its_id_and_exits_130_or_143() {
    let (env, emu) = emulated();
    for (sig, code) in [(libc::SIGINT, 130), (libc::SIGTERM, 143)] {
        let (run, id) = signalled(
            &env,
            &emu,
            &[
                "session",
                "verify",
                "--create",
                "--provider",
                "local",
                "--wait",
                "5m",
                "--json",
            ],
            sig,
        );
        run.code(code);
        let doc = run.json();
        assert_eq!(doc["result"], "interrupted", "{doc}");
        assert_eq!(doc["session_id"], id.as_str());
        assert_eq!(doc["exit_code"], code);
        assert_eq!(doc["session_ended"], true);
        assert_eq!(doc["stalled_at"], "never claimed");
        assert!(doc["hint"].is_string(), "{doc}");
        assert_json_stderr(&run, None);
        assert_eq!(v3_status(&env, &id), "exit", "ended through the v3 API");
    }

    // Without --json: the id on stdout as a plain line; --keep-session leaves it running.
    let (run, id) = signalled(
        &env,
        &emu,
        &[
            "session",
            "verify",
            "--create",
            "--provider",
            "local",
            "--wait",
            "5m",
            "--keep-session",
        ],
        libc::SIGINT,
    );
    run.code(130);
    assert!(
        run.stdout
            .contains(&format!("session {id} was left running")),
        "{}",
        run.stdout
    );
    assert_eq!(run.stdout.lines().count(), 1, "{}", run.stdout);
    assert_eq!(v3_status(&env, &id), "new");
}

#[test]
fn a_stop_signal_during_session_create_until_ends_the_session_and_prints_its_id() {
    let (env, emu) = emulated();
    let (run, id) = signalled(
        &env,
        &emu,
        &[
            "session", "create", "--prompt", "hi", "--until", "served", "--wait", "5m", "--json",
        ],
        libc::SIGTERM,
    );
    run.code(143);
    let doc = run.json();
    assert_eq!(doc["result"], "interrupted", "{doc}");
    assert_eq!(doc["session_id"], id.as_str());
    assert_eq!(doc["exit_code"], 143);
    assert_eq!(doc["session_ended"], true);
    assert_json_stderr(&run, None);
    assert_eq!(v3_status(&env, &id), "exit");

    // Plain: stdout is the id alone, as for a created session.
    let (run, id) = signalled(
        &env,
        &emu,
        &["session", "create", "--prompt", "hi", "--until", "finished"],
        libc::SIGINT,
    );
    run.code(130);
    assert_eq!(run.stdout.trim(), id);
    assert!(
        run.stderr.contains("SIGINT: ending session"),
        "{}",
        run.stderr
    );
    assert_eq!(v3_status(&env, &id), "exit");
}

/// A `--json` run whose stdout is exactly one document; the document.
#[track_caller]
fn one_document(run: &Run) -> serde_json::Value {
    let lines: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| !l.trim().is_empty())
        .collect();
    assert_eq!(lines.len(), 1, "one document on stdout:\n{}", run.stdout);
    run.json()
}

/// `args` with `--json` exits `code`, stdout holds exactly the error document (with that exit
/// code) and every stderr line is JSON, the error last; the error document.
#[track_caller]
fn json_error(env: &TestEnv, args: &[&str], code: i32) -> serde_json::Value {
    let mut all = args.to_vec();
    all.push("--json");
    let run = env.run(&all);
    run.code(code);
    let doc = one_document(&run);
    assert_eq!(doc["error"]["exit_code"], code, "{doc}");
    assert_json_stderr(&run, Some(code));
    doc
}

const CREATE: &[&str] = &["session", "create", "--prompt", "hi"];
const VERIFY_CREATE: &[&str] = &["session", "verify", "--create", "--provider", "local"];

fn with<'a>(base: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = base.to_vec();
    v.extend_from_slice(extra);
    v
}

#[test]
fn exit_table_a_wrong_outpost_name_or_org_is_2_for_every_session_command() {
    let (mut env, emu) = emulated();
    // An outpost the organisation does not offer (by name, and by an id the account lacks).
    for outpost in ["nosuch", "outpost_env-0000"] {
        for base in [CREATE, VERIFY_CREATE] {
            let doc = json_error(&env, &with(base, &["--outpost", outpost]), 2);
            assert_eq!(doc["error"]["code"], "usage", "{doc}");
        }
    }
    let run = env.run(&with(CREATE, &["--outpost", "nosuch"]));
    run.code(2);
    assert!(run.stderr.contains("accepted: "), "{}", run.stderr);
    assert!(session_ids(&emu).is_empty(), "nothing was created");

    // A session that exists, then the wrong organisation for every v3 command.
    let id = env.run(CREATE).ok().stdout.trim().to_string();
    env.set("DEVIN_ORG_ID", "org-not-mine");
    for args in [
        CREATE.to_vec(),
        VERIFY_CREATE.to_vec(),
        vec!["session", "show", id.as_str()],
        vec!["session", "end", id.as_str()],
    ] {
        let doc = json_error(&env, &args, 2);
        let msg = doc["error"]["message"].as_str().unwrap();
        assert!(msg.contains("org-not-mine"), "{doc}");
        assert!(
            doc["error"]["hint"]
                .as_str()
                .unwrap()
                .contains("DEVIN_ORG_ID"),
            "{doc}"
        );
    }
    assert_eq!(
        session_ids(&emu),
        std::slice::from_ref(&id),
        "nothing more was created"
    );
    // An unknown session of the right organisation stays a failure (1).
    env.set("DEVIN_ORG_ID", emu.env_value("DEVIN_ORG_ID"));
    json_error(&env, &["session", "show", "devin-nosuch"], 1);
    json_error(&env, &["session", "end", "devin-nosuch"], 1);
}

#[test]
fn exit_table_an_unreachable_api_is_1_for_every_session_command() {
    let (mut env, _emu) = emulated();
    env.set("OUTPOSTS_HTTP_ATTEMPTS", "1");
    // Nothing listens on port 1.
    env.set("DEVIN_API_URL", "http://127.0.0.1:1");
    for args in [
        CREATE.to_vec(),
        VERIFY_CREATE.to_vec(),
        vec!["session", "show", "devin-x"],
        vec!["session", "end", "devin-x"],
    ] {
        json_error(&env, &args, 1);
    }
    env.set("DAYTONA_API_URL", "http://127.0.0.1:1");
    json_error(
        &env,
        &[
            "session",
            "verify",
            "--session",
            "devin-x",
            "--provider",
            "daytona",
            "--wait",
            "2s",
        ],
        1,
    );
}

#[test]
fn exit_table_a_timeout_is_3_for_every_session_command_with_one_document() {
    let (env, emu) = emulated();
    // session verify: a session nobody serves has no sandbox before --wait runs out.
    let id = env
        .run(&["emulator", "session", "new"])
        .ok()
        .stdout
        .trim()
        .to_string();
    let run = env.run(&[
        "session",
        "verify",
        "--session",
        &id,
        "--provider",
        "daytona",
        "--wait",
        "2s",
        "--json",
    ]);
    run.code(3);
    let doc = one_document(&run);
    assert_eq!(doc["result"], "timeout");
    assert_eq!(doc["exit_code"], 3);
    assert_json_stderr(&run, None);
    // Plain, off a terminal: each progress line carries one clock, `(Ns of 2s)`.
    let run = env.run(&[
        "session",
        "verify",
        "--session",
        &id,
        "--provider",
        "daytona",
        "--wait",
        "2s",
    ]);
    run.code(3);
    let waiting: Vec<&str> = run
        .stderr
        .lines()
        .filter(|l| l.starts_with("waiting"))
        .collect();
    assert!(!waiting.is_empty(), "{}", run.stderr);
    for l in waiting {
        assert_eq!(l.matches(" of 2s)").count(), 1, "one clock: {l}");
        assert_eq!(l.matches("s of ").count(), 1, "one clock: {l}");
    }

    // session verify --create: never claimed, with the hint beside stalled_at.
    let run = env.run(&with(VERIFY_CREATE, &["--wait", "2s", "--json"]));
    run.code(3);
    let doc = one_document(&run);
    assert_eq!(doc["result"], "timeout");
    assert_eq!(doc["stalled_at"], "never claimed");
    assert!(
        doc["hint"].as_str().unwrap().contains("queue list"),
        "{doc}"
    );
    assert_json_stderr(&run, None);

    // session create --until: the one document names the session left running; the hint names
    // it and the queue of the outpost actually used.
    let run = env.run(&with(
        CREATE,
        &[
            "--outpost",
            "emulator",
            "--until",
            "served",
            "--wait",
            "2s",
            "--json",
        ],
    ));
    run.code(3);
    let doc = one_document(&run);
    let id = doc["session_id"].as_str().unwrap().to_string();
    assert_eq!(doc["result"], "timeout");
    assert_eq!(doc["exit_code"], 3);
    assert_eq!(doc["session_ended"], false);
    assert_json_stderr(&run, None);
    assert!(
        run.stderr.contains(&format!("outposts session show {id}")),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("outposts queue list --outpost emulator"),
        "{}",
        run.stderr
    );
    assert!(session_ids(&emu).contains(&id));
    // Plain: the id alone on stdout, so `ID=$(…)` keeps it.
    let run = env.run(&with(CREATE, &["--until", "served", "--wait", "1s"]));
    run.code(3);
    assert!(run.stdout.trim().starts_with("devin-"), "{}", run.stdout);
    assert_eq!(run.stdout.lines().count(), 1);
}

#[test]
fn an_error_after_the_session_exists_names_it_in_the_one_document() {
    let (mut env, emu) = emulated();
    // A key that may create sessions but not read them: --until fails on its first read.
    let key = block_on(emu.client().v3_key(&["ManageOrgSessions"], "no view")).unwrap();
    env.set("DEVIN_API_KEY", key.expose());
    let doc = json_error(&env, &with(CREATE, &["--until", "served"]), 4);
    let id = doc["session_id"].as_str().expect("session_id").to_string();
    assert!(session_ids(&emu).contains(&id), "{doc}");
    assert!(
        doc["error"]["message"]
            .as_str()
            .unwrap()
            .contains("ViewOrgSessions"),
        "{doc}"
    );
}

#[test]
fn show_says_in_3m_and_ended_and_end_says_already() {
    let (env, emu) = emulated();
    let id = env.run(CREATE).ok().stdout.trim().to_string();
    let claimed = block_on(crate::devin_queue::devin_client(&emu).claim(&id, "acc-a"));
    assert!(claimed.is_ok(), "{claimed:?}");
    let run = env.run(&["session", "show", &id]);
    run.ok();
    let fleet = run.stdout.lines().find(|l| l.starts_with("fleet")).unwrap();
    assert!(
        fleet.contains("holder acc-a, claim deadline in "),
        "{fleet}"
    );
    // No raw Unix timestamp.
    assert!(
        !fleet
            .split(|c: char| !c.is_ascii_digit())
            .any(|d| d.len() >= 9),
        "{fleet}"
    );

    let run = env.run(&["session", "end", &id]);
    run.ok();
    assert!(run.stdout.starts_with("ended session"), "{}", run.stdout);
    let run = env.run(&["session", "show", &id]);
    run.ok();
    let fleet = run.stdout.lines().find(|l| l.starts_with("fleet")).unwrap();
    assert!(fleet.contains("ended"), "{fleet}");
    assert!(!fleet.contains("phase pending"), "{fleet}");

    let run = env.run(&["session", "end", &id]);
    run.ok();
    assert!(run.stdout.starts_with("already ended"), "{}", run.stdout);
    let run = env.run(&["session", "end", &id, "--json"]);
    run.ok();
    assert_eq!(run.json()["already_ended"], true);
    assert_eq!(run.json()["status"], "exit");
}

#[test]
fn without_bubblewrap_every_json_stderr_line_is_json_and_the_error_is_last() {
    // The machine the README promises `cargo test` on: no bwrap, so the local provider warns
    // that it runs WITHOUT isolation — a warning that must not break the --json contract.
    let (mut env, _emu) = emulated();
    let (_bin, path) = crate::support::host::path_without(&["bwrap"]);
    env.set("PATH", path);
    env.set("OUTPOSTS_LOCAL_UNISOLATED", "1");
    let run = env.run(&[
        "session",
        "verify",
        "--session",
        "../../etc/passwd",
        "--provider",
        "local",
        "--wait",
        "1s",
        "--json",
    ]);
    run.code(2);
    assert!(run.stderr.contains("WITHOUT isolation"), "{}", run.stderr);
    assert_json_stderr(&run, Some(2));
    assert_eq!(one_document(&run)["error"]["code"], "usage");
    // The same warning as a plain line without --json.
    let run = env.run(&[
        "session",
        "verify",
        "--session",
        "../../etc/passwd",
        "--provider",
        "local",
        "--wait",
        "1s",
    ]);
    run.code(2);
    assert!(
        run.stderr
            .lines()
            .any(|l| l.contains("WITHOUT isolation") && !l.starts_with('{'))
    );
}

#[test]
fn show_without_a_chosen_provider_asks_no_provider() {
    let (mut env, emu) = emulated();
    env.unset("OUTPOSTS_PROVIDER");
    let id = env.run(CREATE).ok().stdout.trim().to_string();
    let before = block_on(emu.client().requests(0)).unwrap().len() as u64;
    env.run(&["session", "show", &id]).ok();
    let asked: Vec<String> = block_on(emu.client().requests(before))
        .unwrap()
        .into_iter()
        .filter(|r| r.api == outposts::emulator::Api::Daytona)
        .map(|r| format!("{} {}", r.method, r.path))
        .collect();
    // OUTPOSTS_PROVIDER's built-in default is no choice: `show` looks for no sandbox.
    assert!(asked.is_empty(), "Daytona was asked: {asked:?}");
}
