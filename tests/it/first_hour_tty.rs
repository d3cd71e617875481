//! Issue 24 item 13 on a real pseudo-terminal (util-linux `script`): tables fit 80 columns,
//! help screens keep global options apart, and Ctrl-C during `snapshot build` says the remote
//! build goes on and how to see it — a command that runs as printed.

use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::first_hour::run_as_printed;
use crate::support::verify::processes_mentioning;
use crate::support::{BIN, Run, TestEnv};
use crate::worker_common::{StopOnDrop, launch, setup};

/// `line` run by `sh` on an 80×24 pseudo-terminal; what the terminal showed, `\r` removed.
fn on_a_terminal(env: &TestEnv, line: &str) -> std::process::Command {
    let dir = std::path::Path::new(BIN).parent().expect("bin dir");
    let mut c = std::process::Command::new("script");
    c.args([
        "-qec",
        &format!("stty cols 80 rows 24; exec {line}"),
        "/dev/null",
    ])
    .env_clear()
    .envs(&env.vars)
    .env(
        "PATH",
        format!("{}:{}", dir.display(), env.vars["PATH"].as_str()),
    )
    .env("TERM", "xterm")
    .current_dir(&env.cwd)
    .stdin(Stdio::null());
    c
}

fn screen(out: &[u8]) -> String {
    String::from_utf8_lossy(out).replace('\r', "")
}

#[test]
fn worker_list_fits_an_80_column_terminal_and_says_how_to_see_the_rest() {
    crate::support::host::require!(
        crate::support::host::SCRIPT,
        crate::support::host::SANDBOXES
    );
    let (env, _emu) = setup("daytona");
    let mut cleanup = StopOnDrop::new(&env);
    let (ids, _) = launch(&env, &[]);
    cleanup.ids.extend(ids.iter().cloned());

    let out = on_a_terminal(&env, "outposts worker list")
        .output()
        .expect("script");
    let shown = screen(&out.stdout);
    assert!(out.status.success(), "{shown}");
    let table: Vec<&str> = shown
        .lines()
        .skip_while(|l| !l.starts_with("ID "))
        .take(1 + ids.len())
        .collect();
    assert_eq!(table.len(), 1 + ids.len(), "{shown}");
    assert!(table[1].starts_with(&ids[0]), "{shown}");
    for l in &table {
        assert!(
            l.chars().count() <= 80,
            "{} columns: {l}",
            l.chars().count()
        );
    }
    // What was left out is said, with the command that shows it; run as printed.
    let note = shown
        .lines()
        .find(|l| l.contains("left out to fit the terminal"))
        .unwrap_or_else(|| panic!("no note:\n{shown}"));
    let cmd = &note[note.find("outposts ").expect("a command")..];
    let r = run_as_printed(&env, cmd.trim());
    r.ok();
    let all = r.json();
    assert_eq!(all.as_array().unwrap().len(), ids.len());
    assert_eq!(all[0]["id"], ids[0].as_str());

    // Piped, nothing is left out.
    let r = env.run(&["worker", "list"]);
    r.ok();
    assert!(r.stdout.starts_with("ID ") && r.stdout.contains("NAME"));
    assert!(!r.stderr.contains("left out"), "{}", r.stderr);
}

#[test]
fn help_screens_list_global_options_apart_from_the_commands_own() {
    let env = TestEnv::new();
    for cmd in [
        &["worker", "list", "--help"][..],
        &["snapshot", "build", "--help"],
        &["session", "verify", "--help"],
    ] {
        let r = env.run(cmd);
        r.ok();
        let global = r
            .stdout
            .find("Global options:")
            .unwrap_or_else(|| panic!("{cmd:?}: no global section:\n{}", r.stdout));
        let own = r.stdout.find("Options:").expect("own options");
        assert!(own < global, "{}", r.stdout);
        for flag in ["--json", "--env-file", "--quiet", "--log-format"] {
            let at = r.stdout.find(flag).expect(flag);
            assert!(at > global, "{cmd:?}: {flag} among the command's options");
        }
        assert!(r.stdout[..global].contains("--provider") || cmd[0] == "snapshot");
    }
}

#[test]
fn ctrl_c_during_snapshot_build_says_the_build_goes_on_and_how_to_see_it() {
    crate::support::host::require!(crate::support::host::SCRIPT);
    let mut env = TestEnv::new();
    let emu = crate::support::Emu::start(&env, &[]);
    emu.configure(&mut env);
    // Long enough to interrupt: the emulator takes a moment per build step.
    let mut dockerfile = String::from("FROM ubuntu:22.04\n");
    for i in 0..400 {
        dockerfile.push_str(&format!("RUN echo step {i}\n"));
    }
    std::fs::write(env.cwd.join("Dockerfile.slow"), dockerfile).unwrap();
    let name = env
        .run(&["snapshot", "name", "--dockerfile", "Dockerfile.slow"])
        .ok()
        .stdout
        .trim()
        .to_string();

    let out_path = env.path("build.tty");
    let mut child = on_a_terminal(&env, "outposts snapshot build --dockerfile Dockerfile.slow")
        .stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(Stdio::null())
        .spawn()
        .expect("script");
    // Wait until Daytona builds it, then press Ctrl-C (SIGINT to the foreground process).
    let home = env.home.path().to_string_lossy().into_owned();
    let deadline = Instant::now() + Duration::from_secs(60);
    let pid = loop {
        let building = std::fs::read_to_string(&out_path)
            .unwrap_or_default()
            .contains("Step 3/");
        let pid = processes_mentioning(&home)
            .into_iter()
            .find(|(_, cmd)| cmd.starts_with("outposts snapshot build"))
            .map(|(pid, _)| pid);
        if let (true, Some(pid)) = (building, pid) {
            break pid;
        }
        assert!(
            Instant::now() < deadline,
            "the build never started:\n{}",
            std::fs::read_to_string(&out_path).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    unsafe {
        libc::kill(pid, libc::SIGINT);
    }
    let status = child.wait().expect("script");
    let shown = screen(&std::fs::read(&out_path).unwrap());
    assert_eq!(status.code(), Some(130), "{shown}");
    let said = shown
        .lines()
        .find(|l| l.contains("goes on on Daytona"))
        .unwrap_or_else(|| panic!("no word on the remote build:\n{shown}"));
    // The spinner redraws in place (no newline): the message starts after its last frame.
    let said = &said[said
        .find("warning: stopped following")
        .expect("the warning")..];
    assert!(said.contains(&name), "{said}");
    let cmd = &said[said.find("outposts ").expect("a command")..];
    assert_eq!(cmd.trim(), format!("outposts snapshot list --name {name}"));
    let r: Run = run_as_printed(&env, cmd.trim());
    r.ok();
    assert!(r.stdout.contains(&name), "{}", r.stdout);
    // And it did go on: the build finishes without us.
    let deadline = Instant::now() + Duration::from_secs(90);
    loop {
        let doc = env
            .run(&["--json", "snapshot", "list", "--name", &name])
            .ok()
            .json();
        if doc[0]["state"] == "active" {
            break;
        }
        assert!(Instant::now() < deadline, "{doc}");
        std::thread::sleep(Duration::from_millis(500));
    }
}
