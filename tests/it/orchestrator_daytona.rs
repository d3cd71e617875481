//! The orchestrator on the emulated Daytona: the content-hashed snapshot, the full lifecycle,
//! Windows launches that keep the connect token out of every command, and OpenAPI conformance.

use std::time::Duration;

use base64::Engine;
use outposts::orchestrator::sandbox_name;
use outposts::provider::Provider;

use crate::support::daytona::{assert_openapi_conformance, provider};
use crate::support::orch::*;
use crate::support::{Emu, TestEnv, block_on};

const WAIT: Duration = Duration::from_secs(90);

#[test]
fn daytona_lifecycle_from_the_built_snapshot() {
    crate::support::host::require!(crate::support::host::BWRAP);
    let (emu, env) = orch_emulator(&["--sweep-delay", "1s"]);
    // The real first step: build (or find) the content-hashed snapshot.
    env.run(&["snapshot", "build"]).ok();
    let mut orch = Orch::start(&env, &["--provider", "daytona"]);
    let daytona = provider(&emu);
    let s = new_session(&emu, Some(proof_task("on-daytona")));
    wait_until(WAIT, "the task", || tasks_done(&emu, &s), || orch.log());
    let sb = block_on(daytona.get(&sandbox_name(&s)))
        .unwrap()
        .expect("sandbox");
    let read = || {
        block_on(daytona.read_file(&sb.id, PROOF_PATH))
            .unwrap()
            .map(|b| String::from_utf8_lossy(&b).into_owned())
    };
    assert_eq!(read().as_deref(), Some("on-daytona"));
    // Commands run as the image's user, as on Daytona: `daytona`, uid 1000, HOME /home/daytona.
    let who = block_on(daytona.exec(
        &sb.id,
        &outposts::provider::ExecRequest::shell("id -u; id -un; echo $HOME"),
    ))
    .unwrap();
    assert_eq!(who.stdout.trim(), "1000\ndaytona\n/home/daytona", "{who:?}");

    suspend_until_stopped(&emu, &orch, &daytona, &s, &sb.id, WAIT);
    resume_until_woken(&emu, &orch, &s, WAIT);
    let again = block_on(daytona.get(&sandbox_name(&s)))
        .unwrap()
        .expect("sandbox after wake");
    assert_eq!(again.id, sb.id);
    assert_eq!(
        read().as_deref(),
        Some("on-daytona"),
        "the file survives sleep and wake"
    );

    terminate_until_deleted(&emu, &orch, &daytona, &s, &sb.id, WAIT);
    let (code, _) = orch.terminate(Duration::from_secs(35));
    assert_eq!(code, Some(0));
    // Auto-stop and auto-delete were off on create.
    let create = emu
        .requests()
        .into_iter()
        .find(|r| r.method == "POST" && r.path == "/daytona/api/sandbox")
        .and_then(|r| r.body)
        .expect("a create request");
    let body: serde_json::Value = serde_json::from_str(&create).unwrap();
    assert_eq!(body["autoStopInterval"], 0);
    assert_eq!(body["autoDeleteInterval"], -1);
    assert!(
        body["snapshot"]
            .as_str()
            .unwrap()
            .starts_with("devin-outposts-default-")
    );
    assert_openapi_conformance(&emu);
}

/// In the CLI launch mode (no install step) the hand-off reaches the emulated Windows sandbox:
/// the environment file carries the session token, the Chrome path and the desktop switch, and
/// never the account token; no exec carries a token.
#[test]
fn windows_launch_keeps_the_connect_token_out_of_every_command() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, env) = orch_emulator(&[]);
    let (mut orch, s) = windows_cli_orch(&emu, &env);
    // The emulated Windows sandbox has no PowerShell: the start fails and the claim is
    // released — what matters here is what was sent.
    wait_until(
        WAIT,
        "the launch attempt",
        || {
            block_on(emu.client().history(Some(&s)))
                .unwrap()
                .iter()
                .any(|h| h.event == "release")
        },
        || orch.log(),
    );
    let _ = orch.terminate(Duration::from_secs(35));
    let records = emu.requests();
    let upload = records
        .iter()
        .filter(|r| r.path.contains("/files/"))
        .filter_map(|r| {
            r.exchange
                .as_ref()
                .and_then(|x| x.request_body.clone())
                .or_else(|| r.body.clone())
        })
        .find(|b| b.contains("\"DEVIN_REMOTE_SESSION_TOKEN\""))
        .unwrap_or_else(|| {
            panic!(
                "the environment hand-off was uploaded as a file\n{}\n{:#?}",
                orch.log(),
                records
                    .iter()
                    .map(|r| format!("{} {} {}", r.method, r.path, r.status))
                    .collect::<Vec<_>>()
            )
        });
    let token = regex_token(&upload).expect("the launch file carries the session token");
    assert!(
        upload.contains(r#""DEVIN_CHROME_PATH":"C:\\ProgramData\\devin-outposts\\chrome\\chrome-win64\\chrome.exe""#),
        "{upload}"
    );
    assert!(
        upload.contains(r#""DEVIN_OUTPOST_DESKTOP":"true""#),
        "{upload}"
    );
    let account = emu.env_value("DEVIN_OUTPOSTS_TOKEN");
    assert!(
        !upload.contains(&account),
        "the account token never enters the sandbox"
    );
    assert!(
        records
            .iter()
            .filter_map(|r| r.exchange.as_ref().and_then(|x| x.request_body.clone()))
            .any(|b| b.contains("bootstrap.ps1")),
        "the bootstrap travels through the file API"
    );
    let execs: Vec<String> = records
        .iter()
        .filter(|r| r.path.ends_with("/process/execute"))
        .filter_map(|r| {
            r.exchange
                .as_ref()
                .and_then(|x| x.request_body.clone())
                .or_else(|| r.body.clone())
        })
        .collect();
    assert!(!execs.is_empty(), "a PowerShell launch was attempted");
    for body in &execs {
        assert!(
            !body.contains(&token),
            "an exec carried the connect token: {body}"
        );
        let cmd: serde_json::Value = serde_json::from_str(body).unwrap();
        let command = cmd["command"].as_str().unwrap_or_default();
        if let Some(b64) = command.strip_prefix(
            "powershell.exe -NoProfile -NonInteractive -ExecutionPolicy Bypass -EncodedCommand ",
        ) {
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(b64.trim())
                .unwrap();
            let units: Vec<u16> = bytes
                .chunks(2)
                .map(|c| u16::from_le_bytes([c[0], c[1]]))
                .collect();
            let script = String::from_utf16(&units).unwrap();
            assert!(
                !script.contains(&token),
                "the decoded script carried the token"
            );
        }
    }
    assert!(!orch.log().contains(&token));
}

fn regex_token(body: &str) -> Option<String> {
    let key = "\"DEVIN_REMOTE_SESSION_TOKEN\":\"";
    let start = body.find(key)? + key.len();
    let end = body[start..].find('"')? + start;
    Some(body[start..end].to_string())
}

/// Before the first claim the orchestrator proves the snapshot exists: without it, exit 2 with
/// the command that builds it, and the queued session is never claimed.
#[test]
fn a_missing_snapshot_is_reported_before_any_claim() {
    let (emu, env) = orch_emulator(&[]);
    let s = new_session(&emu, None);
    // Bounded: without the check the orchestrator would run (and claim) until killed.
    let mut orch = Orch::start(&env, &["--provider", "daytona"]);
    assert_eq!(orch.wait_exit(WAIT), Some(2), "{}", orch.log());
    assert!(orch.log().contains("does not exist"), "{}", orch.log());
    assert!(
        orch.log().contains("outposts snapshot build"),
        "{}",
        orch.log()
    );
    assert!(
        block_on(emu.client().history(Some(&s)))
            .unwrap()
            .iter()
            .all(|h| h.event != "claim"),
        "claimed anyway"
    );
    // A rejected key is an authentication failure (exit 4), also before any claim.
    let mut bad = env;
    bad.set("DAYTONA_API_KEY", "dtn_rejectedrejectedrejected");
    let mut orch = Orch::start(&bad, &["--provider", "daytona"]);
    assert_eq!(orch.wait_exit(WAIT), Some(4), "{}", orch.log());
    assert!(
        !orch.log().contains("dtn_rejectedrejectedrejected"),
        "{}",
        orch.log()
    );
    assert!(
        block_on(emu.client().history(Some(&s)))
            .unwrap()
            .iter()
            .all(|h| h.event != "claim"),
        "claimed anyway"
    );
}

/// ARCHIVE_AFTER sets the archive interval of the orchestrator's sandboxes: a sleeper reaches
/// `archived` (cheaper storage), and a wake restores it and serves the session again with its
/// files.
#[test]
fn a_sleeping_sandbox_is_archived_and_a_wake_restores_it() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let emu = Emu::start(&TestEnv::new(), &["--sweep-delay", "1s"]);
    // One emulated "minute" lasts half a second.
    crate::support::daytona::set_settings(
        &emu,
        serde_json::json!({"minute_ms": 500, "archive_ms": 300, "restore_ms": 1500}),
    );
    let mut env = orch_env(&emu);
    env.set("ARCHIVE_AFTER", "1m");
    env.run(&["snapshot", "build"]).ok();
    let orch = Orch::start(&env, &["--provider", "daytona"]);
    let daytona = provider(&emu);
    let s = new_session(&emu, Some(proof_task("archived-and-back")));
    wait_until(WAIT, "the task", || tasks_done(&emu, &s), || orch.log());
    let sb = block_on(daytona.get(&sandbox_name(&s))).unwrap().unwrap();
    block_on(emu.client().suspend(&s)).unwrap();
    wait_until(
        WAIT,
        "the archive",
        || {
            block_on(daytona.get(&sb.id))
                .unwrap()
                .is_some_and(|x| x.raw_state == "archived")
        },
        || orch.log(),
    );
    resume_until_woken(&emu, &orch, &s, WAIT);
    let again = block_on(daytona.get(&sandbox_name(&s))).unwrap().unwrap();
    assert_eq!(again.id, sb.id, "the same sandbox, restored");
    let file = block_on(daytona.read_file(&sb.id, PROOF_PATH)).unwrap();
    assert_eq!(file.as_deref(), Some(b"archived-and-back".as_slice()));
    assert!(
        orch.log().contains("waking an archived sandbox"),
        "{}",
        orch.log()
    );
    let create = emu
        .requests()
        .into_iter()
        .find(|r| r.method == "POST" && r.path == "/daytona/api/sandbox")
        .and_then(|r| r.body)
        .expect("a create request");
    let body: serde_json::Value = serde_json::from_str(&create).unwrap();
    assert_eq!(body["autoArchiveInterval"], 1);
    assert_openapi_conformance(&emu);
}
