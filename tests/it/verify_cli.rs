//! `session verify` as a command: --print-only contacts no provider, where the outpost name in
//! the Slack line comes from, input checks, hostile ids, help.

use crate::support::daytona::assert_openapi_conformance;
use crate::support::verify::verify;
use crate::support::{Emu, TestEnv, emulated_env};

fn emulated() -> (TestEnv, Emu) {
    let (mut env, emu) = emulated_env(&[]);
    let root = env.path("local-sandboxes");
    env.set("OUTPOSTS_LOCAL_ROOT", root.to_string_lossy().into_owned());
    (env, emu)
}

fn apis(emu: &Emu) -> Vec<String> {
    emu.requests()
        .into_iter()
        .map(|r| r.api.to_string())
        .collect()
}

#[test]
fn print_only_prints_the_task_and_contacts_no_provider() {
    let (env, emu) = emulated();
    let outpost_id = emu.env_value("OUTPOST_ID");
    let task = "Write the exact text pp-1 to /workspace/outpost-proof.txt and read the file back. Report its contents.";
    for provider in ["daytona", "coreweave", "local"] {
        for target in [["--sandbox", "sb-1"], ["--session", "devin-abc"]] {
            let mut args = vec!["--print-only", "--provider", provider, "--proof", "pp-1"];
            args.extend(target);
            let run = verify(&env, &args);
            run.ok();
            let lines: Vec<&str> = run.stdout.lines().collect();
            assert_eq!(
                lines,
                [task.to_string(), format!("@Devin !outpost emulator {task}")],
                "{}",
                run.stdout
            );
            // Labels and the tip are on stderr; no wait, no spinner.
            assert!(run.stderr.contains("Submit this task"), "{}", run.stderr);
            assert!(run.stderr.contains("tip: "), "{}", run.stderr);
            assert!(!run.stderr.contains("waiting"), "{}", run.stderr);
        }
    }
    // Without a target, and as JSON.
    let doc = verify(&env, &["--print-only", "--json", "--proof", "pp-1"])
        .ok()
        .json();
    assert_eq!(doc["result"], "printed");
    assert_eq!(doc["task"], task);
    assert_eq!(doc["slack"], format!("@Devin !outpost emulator {task}"));
    assert_eq!(doc["outpost_name"], "emulator");
    assert_eq!(doc["outpost_name_source"], "devin_api");
    assert!(doc["sandbox"].is_null() && doc["provider"].is_null());
    // A fresh proof each time, plain and printable.
    let a = verify(&env, &["--print-only", "--json"]).ok().json();
    let b = verify(&env, &["--print-only", "--json"]).ok().json();
    assert_ne!(a["proof"], b["proof"]);
    assert!(a["proof"].as_str().unwrap().starts_with("outpost-proof-"));

    // Only the outpost-name lookups reached the emulator; nothing was created locally.
    let log = emu.requests();
    assert!(
        log.iter()
            .all(|r| r.api != "daytona" && r.api != "coreweave"),
        "{log:#?}"
    );
    let devin: Vec<_> = log.iter().filter(|r| r.api == "devin").collect();
    assert!(!devin.is_empty());
    assert!(
        devin
            .iter()
            .all(|r| r.method == "GET" && r.path == format!("/opbeta/outposts/{outpost_id}")),
        "{devin:#?}"
    );
    assert!(!env.path("local-sandboxes").exists());

    // The same checks can fail: a real run does reach the provider.
    verify(
        &env,
        &["--sandbox", "sb-1", "--provider", "daytona", "--wait", "0"],
    )
    .code(2);
    verify(
        &env,
        &[
            "--sandbox",
            "sb-1",
            "--provider",
            "coreweave",
            "--wait",
            "0",
        ],
    )
    .code(2);
    verify(
        &env,
        &["--sandbox", "sb-1", "--provider", "local", "--wait", "0"],
    )
    .code(2);
    let after = apis(&emu);
    assert!(after.iter().any(|a| a == "daytona") && after.iter().any(|a| a == "coreweave"));
    assert!(env.path("local-sandboxes").exists());
    assert_openapi_conformance(&emu);
}

#[test]
fn the_outpost_name_comes_from_the_flag_the_devin_api_or_a_placeholder() {
    let (mut env, emu) = emulated();
    let outpost_id = emu.env_value("OUTPOST_ID");
    let name = |env: &TestEnv, extra: &[&str]| {
        let mut args = vec!["--print-only", "--json", "--proof", "p1"];
        args.extend_from_slice(extra);
        let doc = verify(env, &args).ok().json();
        (
            doc["outpost_name"].as_str().map(str::to_string),
            doc["outpost_name_source"].as_str().unwrap().to_string(),
            doc["slack"].as_str().unwrap().to_string(),
        )
    };
    let before = emu.requests().len();
    let (n, src, slack) = name(&env, &["--outpost", "rhel9"]);
    assert_eq!((n.as_deref(), src.as_str()), (Some("rhel9"), "flag"));
    assert!(slack.starts_with("@Devin !outpost rhel9 Write the exact text p1 "));
    assert!(
        emu.requests()[before..].iter().all(|r| r.api != "devin"),
        "a given name needs no lookup"
    );
    // An outpost id where the name belongs is translated.
    let (n, src, _) = name(&env, &["--outpost", &outpost_id]);
    assert_eq!(
        (n.as_deref(), src.as_str()),
        (Some("emulator"), "devin_api")
    );
    // A token that may not read one outpost still lists them.
    block_on_faults(
        &emu,
        &format!(
            r#"[{{"method":"GET","path":"/opbeta/outposts/{outpost_id}","times":0,"action":{{"kind":"status","status":403,"body":"{{\"detail\":\"This token lacks the account.outposts.orchestrator scope\"}}"}}}}]"#
        ),
    );
    let (n, src, _) = name(&env, &[]);
    assert_eq!(
        (n.as_deref(), src.as_str()),
        (Some("emulator"), "devin_api")
    );
    assert!(
        emu.requests()
            .iter()
            .any(|r| r.path == "/opbeta/outposts" && r.method == "GET" && r.status == 200)
    );

    // No token: a placeholder, and a warning that says how to fill it in.
    env.unset("DEVIN_OUTPOSTS_TOKEN");
    let (n, src, slack) = name(&env, &[]);
    assert_eq!((n, src.as_str()), (None, "placeholder"));
    assert!(
        slack.starts_with("@Devin !outpost <OUTPOST-NAME> "),
        "{slack}"
    );
    let run = verify(&env, &["--print-only"]);
    run.ok();
    assert!(
        run.stderr.contains("outpost name unknown") && run.stderr.contains("--outpost NAME"),
        "{}",
        run.stderr
    );
}

fn block_on_faults(emu: &Emu, script: &str) {
    crate::support::block_on(emu.client().add_faults(script)).expect("faults");
}

#[test]
fn bad_input_is_refused_with_exit_2_before_any_call() {
    let (env, emu) = emulated();
    let cases: &[(&[&str], &str)] = &[
        (&[], "pass --session ID or --sandbox ID"),
        (&["--sandbox", "a", "--session", "b"], "cannot be used with"),
        (&["--session", " "], "--session is empty"),
        (&["--session", "s", "--proof", "two words"], "--proof"),
        (&["--session", "s", "--proof", ""], "--proof"),
        (
            &["--session", "s", "--path", "proof.txt"],
            "must be an absolute path",
        ),
        (&["--session", "s", "--wait", "soon"], "not a duration"),
        (&["--session", "s", "--provider", "aws"], "invalid value"),
        (
            &["--print-only", "--outpost", "a\u{1b}b"],
            "control characters",
        ),
    ];
    for (args, message) in cases {
        let run = verify(&env, args);
        run.code(2);
        assert!(run.stderr.contains(message), "{args:?}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "{args:?}: {}", run.stdout);
    }
    assert!(apis(&emu).iter().all(|a| a == "admin"), "{:?}", apis(&emu));
}

#[test]
fn hostile_ids_never_escape() {
    let (env, emu) = emulated();
    let root = env.path("local-sandboxes");
    // A sandbox id that is a path: no such sandbox, on either provider.
    for provider in ["local", "daytona"] {
        let run = verify(
            &env,
            &[
                "--sandbox",
                "../../etc",
                "--provider",
                provider,
                "--wait",
                "1s",
            ],
        );
        run.code(2);
        assert!(
            run.stderr.contains("no sandbox \"../../etc\""),
            "{}",
            run.stderr
        );
    }
    // A session id that is a path (and a terminal escape): the sandbox name is hashed, the output
    // shows the id escaped. An id the queue cannot even be asked about is waited for (exit 3);
    // a plain one the queue does not know fails at once (exit 2, as an unknown --sandbox).
    let hostile = "../../etc/passwd\u{1b}[2J";
    let run = verify(
        &env,
        &["--session", hostile, "--provider", "local", "--wait", "1s"],
    );
    run.code(3);
    assert!(!run.all().contains('\u{1b}'), "{}", run.all());
    assert!(
        run.stdout
            .contains(&outposts::orchestrator::sandbox_name(hostile)),
        "{}",
        run.stdout
    );
    let doc = verify(
        &env,
        &[
            "--session",
            "../../etc/passwd",
            "--provider",
            "local",
            "--wait",
            "1s",
            "--json",
        ],
    );
    doc.code(2);
    // Under --json every stderr line is JSON (a warning too, e.g. "bubblewrap is not
    // installed"), the error document last; stdout holds the same one document.
    crate::session_exit::assert_json_stderr(&doc, Some(2));
    let err = doc.json();
    assert_eq!(err["error"]["code"], "usage", "{err}");
    // The remote providers look for the same hashed name (and an exact label filter) first.
    for provider in ["daytona", "coreweave"] {
        let run = verify(
            &env,
            &[
                "--session",
                "../../etc/passwd",
                "--provider",
                provider,
                "--wait",
                "1s",
            ],
        );
        run.code(2);
        assert!(run.stderr.contains("no session"), "{}", run.stderr);
    }
    let devin: Vec<_> = emu
        .requests()
        .into_iter()
        .filter(|r| r.api == "devin" && r.path.starts_with("/opbeta/outposts/devins"))
        .collect();
    assert!(!devin.is_empty());
    for r in &devin {
        assert!(
            !r.path.contains("/etc/") && r.path.matches('/').count() == 4,
            "{}",
            r.path
        );
    }
    // Only the sandbox store itself exists under the local root.
    let entries: Vec<_> = std::fs::read_dir(&root)
        .map(|rd| rd.flatten().map(|e| e.file_name()).collect())
        .unwrap_or_default();
    assert!(
        entries.iter().all(|n| n.to_string_lossy().starts_with('.')),
        "{entries:?}"
    );
    assert!(!env.path("etc").exists() && !root.join("etc").exists());
    assert_openapi_conformance(&emu);
}

#[test]
fn help_has_examples_and_documents_the_json() {
    let env = TestEnv::new();
    let run = env.run(&["session", "verify", "--help"]);
    run.ok();
    for needle in [
        "Examples:",
        "--print-only",
        "--wait",
        "\"result\"",
        "\"diagnosis\"",
        "Exit codes:",
        "<OUTPOST-NAME>",
    ] {
        assert!(run.stdout.contains(needle), "{needle}\n{}", run.stdout);
    }
    let run = env.run(&["session", "--help"]);
    run.ok();
    assert!(run.stdout.contains("Examples:"), "{}", run.stdout);
}
