//! Issue 31 item 13, the parts of the tour's smaller findings about outposts, the queue, the
//! emulator's sessions and worker launch: each as a user meets it.

use crate::json_docs::{assert_items_match, assert_matches};
use crate::support::{Emu, TestEnv, block_on};
use crate::worker_common::{StopOnDrop, put_secret, setup};

fn emulator_env() -> (TestEnv, Emu, TestEnv) {
    let e = TestEnv::new();
    let emu = Emu::start(&e, &[]);
    let mut env = TestEnv::new();
    emu.configure(&mut env);
    (e, emu, env)
}

#[test]
fn outpost_default_set_an_unknown_name_is_a_configuration_error_listing_the_choices() {
    let (_e, _emu, env) = emulator_env();
    let r = env.run(&["outpost", "default", "set", "nope"]);
    r.code(2);
    assert!(
        r.stderr.contains("\"nope\"")
            && r.stderr.contains("accepted: ")
            && r.stderr.contains("emulator"),
        "{}",
        r.stderr
    );
    let r = env.run(&["--json", "outpost", "default", "set", "nope"]);
    r.code(2);
    // Nothing changed.
    let doc = env.run(&["outpost", "default", "--json"]).ok().json();
    assert_eq!(doc["outpost_pool_id"], serde_json::Value::Null, "{doc}");
}

#[test]
fn sessions_made_with_emulator_session_new_are_known_to_the_v3_api() {
    let (_e, emu, env) = emulator_env();
    let id = env
        .run(&["emulator", "session", "new"])
        .ok()
        .stdout
        .trim()
        .to_string();
    assert!(id.starts_with("devin-"), "{id}");
    let show = env.run(&["session", "show", &id, "--json"]);
    show.ok();
    assert_eq!(show.json()["session"]["session_id"], id.as_str());
    let end = env.run(&["session", "end", &id]);
    end.ok();
    let info = block_on(emu.client().session(&id)).unwrap().unwrap();
    assert_eq!(info.session_status, "terminated", "{info:?}");
}

#[test]
fn the_documents_the_tour_found_undocumented_match_docs_json() {
    let (_e, _emu, env) = emulator_env();
    let made = env
        .run(&["--json", "emulator", "session", "new", "--task", "sh: true"])
        .ok()
        .json();
    assert_items_match("emulator session new", &made);
    let id = made[0]["session_id"].as_str().unwrap().to_string();
    let task = env
        .run(&["--json", "emulator", "session", "task", &id, "sh: true"])
        .ok()
        .json();
    assert_matches("emulator session task", &task);
    let suspended = env
        .run(&["--json", "emulator", "session", "suspend", &id])
        .ok()
        .json();
    assert_matches("emulator session suspend", &suspended);
    let vars = env.run(&["--json", "emulator", "env"]).ok().json();
    let schema_check = vars.as_object().expect("an object of variables");
    assert!(schema_check.contains_key("DEVIN_API_URL"), "{vars}");
    assert!(schema_check.values().all(|v| v.is_string()), "{vars}");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let docs = std::fs::read_to_string(root.join("docs/json.md")).unwrap();
    assert!(
        docs.contains("\n## `emulator env`\n"),
        "emulator env is documented"
    );

    env.run(&["emulator", "session", "resume", &id]).ok();
    let queue = env.run(&["--json", "queue", "list"]).ok().json();
    assert_items_match("queue list", &queue);
    let default = env.run(&["--json", "outpost", "default"]).ok().json();
    assert_matches("outpost default", &default);
}

/// `line` on a pseudo-terminal `cols` wide (util-linux `script`); what it showed, `\r` removed.
fn on_a_terminal(env: &TestEnv, cols: u16, line: &str) -> String {
    let dir = std::path::Path::new(crate::support::BIN)
        .parent()
        .expect("bin dir");
    let out = std::process::Command::new("script")
        .args([
            "-qec",
            &format!("stty cols {cols} rows 24; exec {line}"),
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
        .stdin(std::process::Stdio::null())
        .output()
        .expect("script");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8_lossy(&out.stdout).replace('\r', "")
}

#[test]
fn queue_list_fits_the_terminal_it_is_on_and_prints_whole_rows_off_a_terminal() {
    crate::support::host::require!(crate::support::host::SCRIPT);
    let (_e, _emu, env) = emulator_env();
    env.run(&["emulator", "session", "new"]).ok();

    let table = |shown: &str| -> Vec<String> {
        shown
            .lines()
            .skip_while(|l| !l.starts_with("SESSION "))
            .take(2)
            .map(str::to_string)
            .collect()
    };
    let narrow = on_a_terminal(&env, 80, "outposts queue list");
    let rows = table(&narrow);
    assert_eq!(rows.len(), 2, "{narrow}");
    for l in &rows {
        assert!(
            l.chars().count() <= 80,
            "{} columns: {l}",
            l.chars().count()
        );
    }
    assert!(narrow.contains("left out to fit the terminal"), "{narrow}");

    let wide = on_a_terminal(&env, 200, "outposts queue list");
    let rows = table(&wide);
    assert!(
        rows[0].contains("ACCEPTOR") && rows[0].contains("UPDATED") && rows[0].contains("KIND"),
        "{wide}"
    );
    assert!(!wide.contains("left out"), "{wide}");

    let piped = env.run(&["queue", "list"]);
    piped.ok();
    let header = piped.stdout.lines().next().unwrap();
    assert!(
        header.contains("KIND") && header.contains("ACCEPTOR"),
        "{}",
        piped.stdout
    );
    assert!(header.len() > 80, "whole rows off a terminal: {header}");
}

#[test]
fn workers_are_named_after_the_outpost_name_and_labelled_with_its_id() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (env, _emu) = setup("local");
    let mut cleanup = StopOnDrop::new(&env);
    let outpost_id = env.vars["OUTPOST_ID"].clone();
    assert!(outpost_id.starts_with("outpost_env-"), "{outpost_id}");
    let r = env.run(&[
        "--json",
        "worker",
        "launch",
        "--outpost",
        &outpost_id,
        "--no-wait",
    ]);
    r.ok();
    let doc = r.json();
    let w = &doc["workers"][0];
    cleanup.ids.push(w["id"].as_str().unwrap().to_string());
    let name = w["name"].as_str().unwrap();
    assert!(name.starts_with("devin-worker-emulator-"), "{name}");
    let list = env.run(&["--json", "worker", "list"]).ok().json();
    let row = list
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["id"] == w["id"])
        .cloned()
        .expect("listed");
    assert_eq!(
        row["labels"]["outposts.outpost"],
        outpost_id.as_str(),
        "{row}"
    );
}

#[test]
fn a_failed_worker_launch_prints_no_id_on_stdout() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (env, emu) = setup("coreweave");
    let mut cleanup = StopOnDrop::new(&env);
    put_secret(&emu, "outposts", "BAD", "wrong-token-for-stdout-test");
    let r = env.run(&[
        "worker",
        "launch",
        "--outpost",
        "emulator",
        "--secret",
        "outposts:BAD",
        "--wait-timeout",
        "60s",
    ]);
    // Whatever the stderr says, the launch failed and stdout holds no worker id.
    for id in r.stderr.split_whitespace().filter(|w| w.starts_with("sb-")) {
        cleanup.ids.push(
            id.trim_matches(|c: char| !c.is_alphanumeric() && c != '-')
                .to_string(),
        );
    }
    assert_ne!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stdout.trim(),
        "",
        "stdout carries results only: {}",
        r.stdout
    );
    assert!(
        r.stderr.contains("sb-"),
        "the failure names the worker: {}",
        r.stderr
    );
}
