//! The README's "Nightly check in CI" recipe, run verbatim from `env -i` with only the variables
//! its comment names, and the ways `session verify --create` chooses its outpost, checks its
//! credentials and reports a session served elsewhere (issue 31 items 1, 3, 6, 7, 13).

use std::collections::BTreeMap;
use std::process::{Command, Stdio};

use outposts::config::{Config, LoadOptions};
use outposts::provider::coreweave::CoreweaveProvider;
use outposts::provider::{Provider, SandboxSpec, Source};

use crate::readme_walkthrough::guide;
use crate::support::orch::{Orch, orch_emulator, orch_emulator_built};
use crate::support::{BIN, Emu, Run, TestEnv, emulated_env};

const SECTION: &str = "#### Nightly check in CI";

/// `session verify --create` with these arguments.
fn verify_create(env: &TestEnv, extra: &[&str]) -> Run {
    let mut args = vec!["session", "verify", "--create"];
    args.extend_from_slice(extra);
    env.run(&args)
}

/// The request bodies of every `POST …/sessions` the emulator answered, with their status.
fn creates(emu: &Emu) -> Vec<(u16, serde_json::Value)> {
    emu.requests()
        .into_iter()
        .filter(|r| {
            r.method == "POST"
                && r.path.contains("/organizations/")
                && r.path.ends_with("/sessions")
        })
        .map(|r| {
            let body = r
                .body
                .as_deref()
                .and_then(|b| serde_json::from_str(b).ok())
                .unwrap_or_default();
            (r.status, body)
        })
        .collect()
}

/// The variables a comment line names: upper-case words with an underscore.
fn named_vars(line: &str) -> Vec<String> {
    line.split(|c: char| !(c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_'))
        .filter(|w| w.contains('_') && w.chars().next().is_some_and(|c| c.is_ascii_uppercase()))
        .map(str::to_string)
        .collect()
}

#[test]
fn the_nightly_recipe_passes_as_printed_from_a_clean_environment() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, env) = orch_emulator_built(&[]);
    let orch = Orch::start(&env, &["--provider", "daytona"]);

    let lines = guide(SECTION);
    let (comments, commands): (Vec<&String>, Vec<&String>) =
        lines.iter().partition(|l| l.starts_with('#'));
    assert_eq!(commands.len(), 1, "one command in the recipe: {lines:?}");
    // The comment's required variables, up to its `optional:` line; the optional ones are left
    // out, as a CI job that sets only what is required would.
    let mut required = Vec::new();
    let mut optional = Vec::new();
    let mut in_optional = false;
    for c in &comments {
        in_optional |= c.contains("optional:");
        if in_optional {
            optional.extend(named_vars(c));
        } else {
            required.extend(named_vars(c));
        }
    }
    for v in [
        "DEVIN_API_KEY",
        "DAYTONA_API_KEY",
        "DEVIN_ORG_ID",
        "OUTPOST_ID",
    ] {
        assert!(
            required.contains(&v.to_string()),
            "{v} not required by {comments:?}"
        );
    }
    assert!(
        optional.contains(&"DEVIN_OUTPOSTS_TOKEN".to_string()),
        "{comments:?}"
    );

    let mut vars: BTreeMap<String, String> = BTreeMap::new();
    for v in &required {
        if let Some((_, value)) = emu.info.env.iter().find(|(k, _)| k == v) {
            vars.insert(v.clone(), value.clone());
        }
    }
    // OUTPOST_ID as `outposts connect` writes it: the outpost's id.
    assert!(vars["OUTPOST_ID"].starts_with("outpost_env-"), "{vars:?}");
    // What lets the emulator stand in (the endpoints `outposts emulator env` prints), and what
    // every CI shell has: PATH (with the binary) and HOME.
    for v in ["DEVIN_API_URL", "DAYTONA_API_URL"] {
        vars.insert(v.into(), emu.env_value(v));
    }
    let bin_dir = std::path::Path::new(BIN).parent().expect("bin dir");
    vars.insert(
        "PATH".into(),
        format!("{}:/usr/bin:/bin", bin_dir.display()),
    );
    vars.insert("HOME".into(), env.home.path().display().to_string());
    let script = lines.join("\n");
    let out = Command::new("env")
        .arg("-i")
        .args(vars.iter().map(|(k, v)| format!("{k}={v}")))
        .args(["sh", "-c", &script])
        .current_dir(&env.cwd)
        .stdin(Stdio::null())
        .output()
        .expect("env -i sh");
    let run = Run::from(out);
    assert_eq!(
        run.code,
        0,
        "the recipe failed as printed\nstderr:\n{}\norchestrator:\n{}",
        run.stderr,
        orch.log()
    );
    let proof: serde_json::Value =
        serde_json::from_slice(&std::fs::read(env.cwd.join("proof.json")).expect("proof.json"))
            .expect("proof.json is one JSON document");
    assert_eq!(proof["result"], "match", "{proof}");
    assert_eq!(proof["exit_code"], 0);
    assert_eq!(proof["outpost_name"], "emulator", "{proof}");
    assert_eq!(proof["session_ended"], true);
    // The id was named without the fleet token: the session ran on the outpost's name.
    let made: Vec<_> = creates(&emu)
        .into_iter()
        .filter(|(s, _)| *s == 200)
        .collect();
    assert_eq!(made.len(), 1, "{made:?}");
    assert_eq!(made[0].1["platform"], "emulator");
}

#[test]
fn a_name_in_outpost_id_is_the_platform_as_it_is() {
    let (emu, mut env) = orch_emulator(&[]);
    env.unset("DEVIN_OUTPOSTS_TOKEN")
        .set("OUTPOST_ID", "emulator");
    // Nobody serves the outpost: the session is created, then the short wait runs out.
    let run = verify_create(&env, &["--provider", "local", "--wait", "2s", "--json"]);
    run.code(3);
    assert_eq!(run.json()["outpost_name"], "emulator", "{}", run.stderr);
    let made = creates(&emu);
    assert_eq!(made.len(), 1, "{made:?}");
    assert_eq!(made[0].1["platform"], "emulator");
    assert!(
        !run.stderr.contains("DEVIN_OUTPOSTS_TOKEN"),
        "{}",
        run.stderr
    );
}

#[test]
fn an_id_without_the_fleet_token_is_named_by_the_v3_api_or_refused_naming_both_fixes() {
    let (emu, mut env) = orch_emulator(&[]);
    env.unset("DEVIN_OUTPOSTS_TOKEN");

    // The organisation's default platform is this outpost: its name comes with it, and the
    // one create goes to that name.
    env.run(&["outpost", "default", "set", "emulator"]).ok();
    let run = verify_create(&env, &["--provider", "local", "--wait", "1s", "--json"]);
    run.code(3);
    let made = creates(&emu);
    assert_eq!(made.len(), 1, "{made:?}");
    assert_eq!(made[0].0, 200);
    assert_eq!(made[0].1["platform"], "emulator", "{}", run.stderr);

    // An id the organisation does not know: exit 2 at once, naming both ways to fix it, and
    // no session exists.
    env.set("OUTPOST_ID", "outpost_env-0000000000000000000000000000dead");
    let run = verify_create(&env, &["--provider", "local", "--wait", "90s"]);
    run.code(2);
    for fix in ["--outpost NAME", "OUTPOST_ID", "DEVIN_OUTPOSTS_TOKEN"] {
        assert!(run.stderr.contains(fix), "no {fix:?}: {}", run.stderr);
    }
    assert!(
        run.stderr.contains("emulator"),
        "the accepted names: {}",
        run.stderr
    );
    let made = creates(&emu);
    assert_eq!(
        made.iter().filter(|(s, _)| *s == 200).count(),
        1,
        "{made:?}"
    );
}

#[test]
fn no_outpost_and_no_default_exits_2_before_creating_and_a_default_is_named() {
    let (emu, mut env) = orch_emulator(&[]);
    env.unset("OUTPOST_ID").unset("DEVIN_OUTPOSTS_TOKEN");
    let run = verify_create(&env, &["--provider", "local", "--wait", "90s", "--json"]);
    run.code(2);
    for fix in [
        "--outpost NAME",
        "OUTPOST_ID",
        "outposts outpost default set",
    ] {
        assert!(run.stderr.contains(fix), "no {fix:?}: {}", run.stderr);
    }
    assert!(creates(&emu).is_empty(), "a session was created");

    env.run(&["outpost", "default", "set", "emulator"]).ok();
    let run = verify_create(&env, &["--provider", "local", "--wait", "1s"]);
    run.code(3);
    assert!(
        run.stderr
            .contains("using the organisation's default platform emulator"),
        "{}",
        run.stderr
    );
    let made = creates(&emu);
    assert_eq!(made.len(), 1, "{made:?}");
    assert!(made[0].1.get("platform").is_none(), "{made:?}");
}

#[test]
fn a_refused_provider_key_or_an_unknown_org_creates_no_session() {
    let (emu, mut env) = orch_emulator(&[]);
    env.set("DAYTONA_API_KEY", "dtn_not-the-key");
    let run = verify_create(&env, &["--provider", "daytona", "--wait", "90s"]);
    run.code(4);
    assert!(run.stderr.contains("Daytona"), "{}", run.stderr);
    assert!(creates(&emu).is_empty(), "a session was created");

    env.set("DAYTONA_API_KEY", emu.env_value("DAYTONA_API_KEY"));
    env.set("DEVIN_ORG_ID", "org-00000000000000000000000000000000");
    let run = verify_create(&env, &["--provider", "daytona", "--wait", "90s"]);
    run.code(2);
    assert!(run.stderr.contains("DEVIN_ORG_ID"), "{}", run.stderr);
    assert!(creates(&emu).is_empty(), "a session was created");
}

#[test]
fn a_session_served_on_another_provider_exits_5_naming_it() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (_emu, env) = orch_emulator(&[]);
    let orch = Orch::start(&env, &["--provider", "local"]);
    // The answer comes as soon as the session runs, long before the wait would run out.
    let run = verify_create(&env, &["--provider", "daytona", "--wait", "90s", "--json"]);
    assert_eq!(run.code, 5, "{}\n{}", run.stderr, orch.log());
    let doc = run.json();
    assert_eq!(doc["result"], "wrong_provider", "{doc}");
    assert_eq!(doc["exit_code"], 5);
    assert_eq!(doc["session_ended"], true);
    let at = doc["stalled_at"].as_str().unwrap_or_default();
    assert!(
        at.starts_with("running, but no sandbox for it on daytona"),
        "{at}"
    );
    assert!(at.contains("on local"), "{at}");
}

#[test]
fn a_fixed_worker_elsewhere_exits_5_and_without_the_fleet_token_is_named_at_once() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (mut env, _emu) = crate::worker_common::setup("coreweave");
    let (workers, doc) = crate::worker_common::launch(&env, &[]);
    let worker = doc["workers"][0]["name"]
        .as_str()
        .unwrap_or_default()
        .to_string();

    // The claim names a worker whose sandbox is on CoreWeave, not on Daytona.
    let run = verify_create(&env, &["--provider", "daytona", "--wait", "90s", "--json"]);
    assert_eq!(run.code, 5, "{}", run.stderr);
    let doc = run.json();
    assert_eq!(doc["result"], "wrong_provider", "{doc}");
    let at = doc["stalled_at"].as_str().unwrap_or_default();
    assert!(at.contains("but no sandbox for it on daytona"), "{at}");
    assert!(
        at.contains(&format!("claimed by {worker}: a fixed worker")),
        "{at}"
    );
    assert!(at.contains("on coreweave"), "{at}");

    env.unset("DEVIN_OUTPOSTS_TOKEN");
    let run = verify_create(&env, &["--provider", "coreweave", "--wait", "90s"]);
    run.code(2);
    assert!(
        run.stderr.contains("DEVIN_OUTPOSTS_TOKEN"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("fixed worker"), "{}", run.stderr);
    assert!(run.stderr.contains("ended session"), "{}", run.stderr);
    env.run(&["worker", "stop", &workers[0], "--yes"]).ok();
}

#[test]
fn a_sandbox_id_without_provider_is_found_on_the_provider_that_has_it() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (mut env, _emu) = emulated_env(&[]);
    env.unset("OUTPOSTS_PROVIDER");
    let rt = tokio::runtime::Runtime::new().unwrap();
    let cfg = Config::load_with_env(env.vars.clone(), &LoadOptions::default(), &env.cwd).unwrap();
    let p = rt.block_on(async {
        CoreweaveProvider::from_settings(
            outposts::settings::CoreweaveSettings::resolve(&cfg).unwrap(),
        )
        .unwrap()
    });
    let mut spec = SandboxSpec::new(
        "verify-search-1",
        Source::Image("public.ecr.aws/e0h8a4b6/devin-cli:stable".into()),
    );
    spec.command = Some(vec!["sh".into(), "-c".into(), "exec sleep 3600".into()]);
    let sb = rt.block_on(p.create(&spec)).unwrap();
    rt.block_on(p.write_file(&sb.id, "/workspace/outpost-proof.txt", b"search-proof-1"))
        .unwrap();
    let run = env.run(&[
        "session",
        "verify",
        "--sandbox",
        &sb.id,
        "--proof",
        "search-proof-1",
        "--wait",
        "10s",
        "--json",
    ]);
    run.ok();
    let doc = run.json();
    assert_eq!(doc["result"], "match", "{doc}");
    assert_eq!(doc["provider"], "coreweave");
    // Not found anywhere: one error naming every provider searched.
    let run = env.run(&[
        "session",
        "verify",
        "--sandbox",
        "sb-nosuch",
        "--wait",
        "10s",
    ]);
    run.code(2);
    assert!(
        run.stderr.contains("daytona") && run.stderr.contains("coreweave"),
        "{}",
        run.stderr
    );
    rt.block_on(p.delete(&sb.id)).ok();
}
