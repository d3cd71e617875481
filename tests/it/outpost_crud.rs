//! `outposts outpost create|list|get|delete` against the emulator.

use serde_json::Value;

use crate::support::connect::{assert_never_shown, env_value, mode};
use crate::support::{Emu, TestEnv, block_on};

fn setup() -> (TestEnv, Emu, TestEnv) {
    let e = TestEnv::new();
    let emu = Emu::start(&e, &[]);
    let mut env = TestEnv::new();
    emu.configure(&mut env);
    (e, emu, env)
}

#[test]
fn create_then_list_get_and_delete_twice() {
    let (_e, emu, env) = setup();
    let r = env.run(&[
        "outpost",
        "create",
        "gpu-h200",
        "--platform",
        "linux",
        "--description",
        "H200 pool",
    ]);
    r.ok();
    let id = r.stdout.trim().to_string();
    assert!(id.starts_with("outpost_env-"), "{}", r.stdout);
    assert_eq!(r.stdout, format!("{id}\n"), "stdout is the id alone");
    assert!(r.stderr.contains("OUTPOST_ID="), "{}", r.stderr);
    let post = emu
        .requests()
        .into_iter()
        .find(|x| x.method == "POST" && x.path == "/opbeta/outposts")
        .expect("create request");
    let body: Value = serde_json::from_str(&post.body.unwrap()).unwrap();
    assert_eq!(body["name"], "gpu-h200");
    assert_eq!(body["platform"], "linux");
    assert_eq!(body["description"], "H200 pool");

    let list = env.run(&["outpost", "list", "--json"]);
    list.ok();
    let all = list.json();
    let mine = all
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["outpost_id"] == id.as_str())
        .expect("listed");
    assert_eq!(mine["name"], "gpu-h200");
    assert_eq!(mine["platform"], "linux");
    let table = env.run(&["outpost", "list"]);
    table.ok();
    assert!(table.stdout.starts_with("ID"), "{}", table.stdout);
    assert!(table.stdout.contains("gpu-h200") && table.stdout.contains(&id));

    let got = env.run(&["outpost", "get", &id, "--json"]);
    got.ok();
    assert_eq!(got.json()["description"], "H200 pool");

    let d1 = env.run(&["outpost", "delete", &id, "--yes", "--json"]);
    d1.ok();
    assert_eq!(d1.json()["deleted"], true);
    let d2 = env.run(&["outpost", "delete", &id, "--yes"]);
    d2.ok();
    assert!(d2.stdout.contains("already deleted"), "{}", d2.stdout);
    env.run(&["outpost", "get", &id]).code(1);
    let deletes = emu
        .requests()
        .iter()
        .filter(|x| x.method == "DELETE")
        .count();
    assert_eq!(deletes, 2);
}

#[test]
fn paging_lists_every_outpost() {
    let (_e, emu, env) = setup();
    let orch = emu.env_value("DEVIN_OUTPOST_CREATE_TOKEN");
    let http = outposts::api::HttpClient::new(Default::default()).unwrap();
    let admin = outposts::api::devin::DevinClient::new(
        outposts::settings::DevinSettings::new(&emu.base_url, outposts::secrets::Secret::new(orch)),
        http,
    );
    for i in 0..105 {
        block_on(admin.create_outpost(&format!("o{i:03}"), None, None)).unwrap();
    }
    let list = env.run(&["outpost", "list", "--json"]);
    list.ok();
    // 105 plus the emulator's own.
    assert_eq!(list.json().as_array().unwrap().len(), 106);
    let pages = emu
        .requests()
        .iter()
        .filter(|r| r.method == "GET" && r.path == "/opbeta/outposts")
        .count();
    assert_eq!(pages, 2);
}

#[test]
fn a_duplicate_name_is_a_clear_error() {
    let (_e, _emu, env) = setup();
    let first = env.run(&["outpost", "create", "dup", "--platform", "windows"]);
    first.ok();
    let id = first.stdout.trim();
    let r = env.run(&["outpost", "create", "DUP", "--platform", "linux"]);
    r.code(1);
    assert!(
        r.stderr.contains("an outpost named \"DUP\" already exists"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains(id),
        "names the existing one: {}",
        r.stderr
    );
}

#[test]
fn tokens_come_from_variables_and_need_the_orchestrator_scope() {
    let (_e, emu, env) = setup();
    let machine = emu.env_value("DEVIN_OUTPOSTS_TOKEN");

    // The machine token may list but not create.
    let r = env.run(&[
        "outpost",
        "create",
        "x",
        "--platform",
        "linux",
        "--token-env",
        "DEVIN_OUTPOSTS_TOKEN",
    ]);
    r.code(4);
    assert!(r.stderr.contains("orchestrator scope"), "{}", r.stderr);
    assert_never_shown(&machine, &[("output", &r.all())]);

    let mut no_orch = TestEnv::new();
    emu.configure(&mut no_orch);
    no_orch.unset("DEVIN_OUTPOST_CREATE_TOKEN");
    let r = no_orch.run(&["outpost", "create", "x", "--platform", "linux"]);
    r.code(4);
    assert!(
        r.stderr.contains("DEVIN_OUTPOST_CREATE_TOKEN is not set"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("--token-env"), "{}", r.stderr);
    no_orch.run(&["outpost", "list"]).ok();

    // A token minted by the admin API, named by --token-env.
    let minted = block_on(emu.client().mint_token("orchestrator", "ci")).unwrap();
    let mut env = env;
    env.set("MY_ORCH_TOKEN", minted.expose());
    let r = env.run(&[
        "outpost",
        "create",
        "via-var",
        "--platform",
        "macos",
        "--token-env",
        "MY_ORCH_TOKEN",
        "--json",
    ]);
    r.ok();
    assert_eq!(r.json()["platform"], "macos");
    env.run(&["outpost", "list", "--token-env", "UNSET_VAR"])
        .code(4);
    env.run(&["outpost", "list", "--token-env", "not a name"])
        .code(2);
    assert_never_shown(minted.expose(), &[("output", &r.all())]);
}

#[test]
fn create_write_env_and_delete_confirmation() {
    let (_e, emu, env) = setup();
    let r = env.run(&[
        "--env-file",
        "new.env",
        "outpost",
        "create",
        "written",
        "--platform",
        "linux",
        "--write-env",
    ]);
    r.ok();
    let id = r.stdout.trim();
    let file = env.cwd.join("new.env");
    assert_eq!(env_value(&file, "OUTPOST_ID").as_deref(), Some(id));
    assert_eq!(mode(&file), 0o600);

    // Deleting without a terminal needs --yes; nothing is sent without it.
    let before = emu
        .requests()
        .iter()
        .filter(|x| x.method == "DELETE")
        .count();
    let r = env.run(&["outpost", "delete", id]);
    r.code(2);
    assert!(r.stderr.contains("--yes"), "{}", r.stderr);
    let after = emu
        .requests()
        .iter()
        .filter(|x| x.method == "DELETE")
        .count();
    assert_eq!(before, after);
}
