//! Windows defects fixed against the emulator's two Windows daemon models (each test runs as
//! `<test>::legacy` and `<test>::newer`): what the models do differently, how our client stays
//! one way on both (envs refused, commands inside the newer daemon's budget), the detached
//! install's record read through the file API, and the connect token not left behind by a start
//! that never ran.

use std::time::Duration;

use outposts::api::daytona_types::ExecuteRequest;
use outposts::api::devin_types::Platform;
use outposts::orchestrator::remote::windows::command;
use outposts::orchestrator::remote::windows_install::{self, await_install};
use outposts::orchestrator::remote::windows_scripts::{
    bootstrap_script, check_script, has_clone_script, root, start_script,
};
use outposts::orchestrator::remote::{LaunchMode, LaunchPlan, RemoteError, launch};
use outposts::provider::{ExecRequest, Provider, ProviderError};
use outposts::secrets::Secret;
use outposts::shell::WINDOWS_COMMAND_BUDGET;

use crate::support::block_on;
use crate::windows_daemon::{Daemon, both_daemons, windows_sandbox};

both_daemons!(
    the_two_daemons_differ_as_modelled,
    an_exec_with_envs_is_refused_on_every_windows_daemon,
    every_launch_command_fits_the_newer_daemons_budget,
    the_detached_install_is_read_from_its_record,
    a_start_that_never_ran_leaves_no_token_behind,
);

fn raw(command: String, envs: Option<(&str, &str)>, timeout: u64) -> ExecuteRequest {
    ExecuteRequest {
        command,
        cwd: None,
        envs: envs.map(|(k, v)| [(k.to_string(), v.to_string())].into_iter().collect()),
        timeout: Some(timeout),
    }
}

/// legacy: `envs` dropped, a timed-out command runs on, the whole 8,191 characters;
/// newer: `envs` applied, the tree killed at the timeout, 36 characters less for the wrapper.
fn the_two_daemons_differ_as_modelled(d: Daemon) {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let emu = d.emulator();
    let (_p, _id, tb) = windows_sandbox(&emu, "devin-win-d1");
    block_on(async {
        let wait = Duration::from_secs(30);
        let out = tb
            .execute(
                &raw("echo v=$OUTPOSTS_X".into(), Some(("OUTPOSTS_X", "1")), 10),
                wait,
            )
            .await
            .unwrap();
        let applied = out.result.contains("v=1");
        assert_eq!(applied, d == Daemon::Newer, "{d:?}: {out:?}");

        // A line between the newer daemon's limit and cmd.exe's.
        let line = format!("echo {}", "x".repeat(8191 - 36 - 4));
        assert_eq!(line.len(), 8191 - 35);
        let out = tb.execute(&raw(line, None, 10), wait).await.unwrap();
        let too_long = out.result.contains("too long");
        assert_eq!(too_long, d == Daemon::Newer, "{d:?}: {}", &out.result[..40]);

        // A command past its timeout: answered 408 either way; only the newer kills it.
        let late = tb
            .execute(&raw("sleep 2; touch outposts-late".into(), None, 1), wait)
            .await;
        assert!(late.is_err(), "{late:?}");
        tokio::time::sleep(Duration::from_secs(4)).await;
        let ran_on = tb
            .execute(&raw("ls outposts-late".into(), None, 10), wait)
            .await
            .unwrap()
            .exit()
            == 0;
        assert_eq!(ran_on, d == Daemon::Legacy, "{d:?}");
    });
}

/// Issue 37 item 9: the older daemon drops an exec's `envs`, the newer applies them; our client
/// is one way on both — it refuses, naming the variables (never their values), and sends nothing.
fn an_exec_with_envs_is_refused_on_every_windows_daemon(d: Daemon) {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let emu = d.emulator();
    let (p, id, _tb) = windows_sandbox(&emu, "devin-win-d2");
    let before = execs(&emu);
    let mut req = ExecRequest::shell(command("Write-Output $env:GIT_TOKEN\n"));
    req.env
        .insert("GIT_TOKEN".into(), Secret::new("ghp-SECRET-VALUE-37"));
    let refused = block_on(p.exec(&id, &req));
    match refused {
        Err(ProviderError::Invalid(m)) => {
            assert!(
                m.contains("GIT_TOKEN") && m.contains("takes no environment"),
                "{m}"
            );
            assert!(!m.contains("ghp-SECRET-VALUE-37"), "{m}");
        }
        other => panic!("{d:?}: an exec with envs was not refused: {other:?}"),
    }
    assert_eq!(before, execs(&emu), "nothing reached the daemon");
}

fn execs(emu: &crate::support::Emu) -> usize {
    emu.requests()
        .iter()
        .filter(|r| r.path.ends_with("/process/execute"))
        .count()
}

/// Issue 37 item 10: every command our Windows launch sends, over the longest inputs, passes
/// the newer daemon's wrapper budget — the model answers it (as a PowerShell line it cannot
/// run), never "too long"; and the provider refuses a line over the budget before sending it.
fn every_launch_command_fits_the_newer_daemons_budget(d: Daemon) {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let emu = d.emulator();
    let (p, id, _tb) = windows_sandbox(&emu, "devin-win-d3");
    let long = format!("devin-{}", "ő[x] it's ".repeat(40));
    let dir = format!("C:\\{}", "deep\\".repeat(40));
    let exe = format!("{dir}devin-remote.exe");
    let sum = "0".repeat(64);
    let scripts = [
        windows_install::start_script(&dir, &exe, &sum),
        start_script(&long),
        check_script(&long),
        has_clone_script(&format!("C:\\repos\\{long}")),
    ];
    block_on(async {
        for s in &scripts {
            let line = command(s);
            assert!(line.len() <= WINDOWS_COMMAND_BUDGET, "{}", line.len());
            let out = p.exec(&id, &ExecRequest::shell(line)).await.unwrap();
            assert!(
                out.stdout.contains("cannot run PowerShell"),
                "{d:?}: {out:?}"
            );
        }
    });
    let over = format!("echo {}", "x".repeat(WINDOWS_COMMAND_BUDGET - 4));
    let before = execs(&emu);
    let refused = block_on(p.exec(&id, &ExecRequest::shell(over)));
    assert!(
        matches!(refused, Err(ProviderError::Invalid(_))),
        "{refused:?}"
    );
    assert_eq!(before, execs(&emu));
    // The bootstrap is a file, not a command line: any length.
    assert!(bootstrap_script(&long, &exe, LaunchMode::Remote, &long).len() > 1000);
}

/// Issue 37 item 1: the download runs detached and records `<nonce> <code> <line>`; the tool
/// reads the record of its own try through the file API (a previous try's record never counts),
/// reports a failed download by its tagged line, and gives up at its budget saying so.
fn the_detached_install_is_read_from_its_record(d: Daemon) {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let emu = d.emulator();
    let (p, id, tb) = windows_sandbox(&emu, "devin-win-d4");
    let dir = "C:\\ProgramData\\devin-outposts\\remote\\412f0e9b19";
    let record = windows_install::exit_path(dir);
    let every = Duration::from_millis(100);
    block_on(async {
        // An earlier try's record: not this try's end; nothing arrives within the budget.
        tb.upload(&record, b"old 0 outposts-install result=installed\r\n")
            .await
            .unwrap();
        let waited = await_install(&p, &id, dir, "n1", Duration::from_millis(500), every).await;
        match waited {
            Err(RemoteError::Download(m)) => assert!(m.contains("did not finish within"), "{m}"),
            other => panic!("{other:?}"),
        }
        // The runner fails the download: the tagged line is the message (UTF-8 with a BOM, as
        // `Set-Content -Encoding UTF8` writes it).
        tb.upload(
            &record,
            "\u{feff}n2 3 outposts-error: download of http://x failed (curl exit 28): Operation timed out\r\n"
                .as_bytes(),
        )
        .await
        .unwrap();
        let failed = await_install(&p, &id, dir, "n2", Duration::from_secs(5), every).await;
        match failed {
            Err(RemoteError::Download(m)) => {
                assert_eq!(
                    m,
                    "download of http://x failed (curl exit 28): Operation timed out"
                )
            }
            other => panic!("{other:?}"),
        }
        tb.upload(&record, b"n3 4 outposts-error: checksum mismatch")
            .await
            .unwrap();
        let bad = await_install(&p, &id, dir, "n3", Duration::from_secs(5), every).await;
        assert!(
            matches!(bad, Err(RemoteError::ChecksumMismatch(_))),
            "{bad:?}"
        );
    });
    // The record of this try arrives while the tool polls.
    let tb2 = tb.clone();
    let writer = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(400));
        block_on(tb2.upload(
            &windows_install::exit_path(dir),
            b"n4 0 outposts-install result=installed\r\n",
        ))
        .unwrap();
    });
    let done = block_on(await_install(
        &p,
        &id,
        dir,
        "n4",
        Duration::from_secs(20),
        every,
    ));
    writer.join().unwrap();
    assert!(done.is_ok(), "{done:?}");
}

/// Issue 37 item 10: the hand-off (`launch.json`, connect token included) goes up before the
/// start; when the start surely never ran (here: the model answers that it cannot run
/// PowerShell), the file is emptied through the file API, so no token stays on the disk.
fn a_start_that_never_ran_leaves_no_token_behind(d: Daemon) {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let emu = d.emulator();
    let (p, id, tb) = windows_sandbox(&emu, "devin-win-d5");
    let plan = LaunchPlan {
        session_id: "devin-tok".into(),
        platform: Platform::Windows,
        mode: LaunchMode::Cli,
        workdir: "C:\\repos\\[x]".into(),
        build: None,
        gateway_url: "wss://g".into(),
        connect_token: Secret::new("connect-token-SECRET-37"),
        chrome_path: None,
    };
    let launched = block_on(launch(&p, &id, &plan));
    assert!(
        matches!(launched, Err(RemoteError::Launch { code: 1, .. })),
        "{launched:?}"
    );
    let sent = emu
        .requests()
        .iter()
        .filter_map(|r| r.exchange.as_ref().and_then(|x| x.request_body.clone()))
        .any(|b| b.contains("connect-token-SECRET-37"));
    assert!(sent, "the hand-off carried the token");
    let left = block_on(tb.download(&format!("{}\\launch.json", root(&plan.session_id))))
        .unwrap()
        .unwrap_or_default();
    assert!(
        !String::from_utf8_lossy(&left).contains("connect-token-SECRET-37"),
        "{d:?}: the token stayed in launch.json: {}",
        String::from_utf8_lossy(&left)
    );
}
