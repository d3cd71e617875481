//! One outpost lookup for every command: by id or name, through the get-one route when it
//! answers and through the list when it does not (Cognition's model of the server has no
//! get-one route; `emulator start --outpost-get-route 404|405` plays it).

use serde_json::Value;

use crate::support::{Emu, TestEnv, emulated_env};

fn setup(mode: &str) -> (TestEnv, Emu, String, String) {
    let (mut env, emu) = emulated_env(&["--outpost-get-route", mode]);
    env.set("OUTPOSTS_PROVIDER", "local");
    let id = emu.env_value("OUTPOST_ID");
    let listed = env.run(&["outpost", "list", "--json"]);
    listed.ok();
    let name = listed.json()[0]["name"]
        .as_str()
        .expect("the emulator's outpost has a name")
        .to_string();
    (env, emu, id, name)
}

fn outpost_check(env: &TestEnv) -> Value {
    let r = env.run(&["doctor", "--json"]);
    let doc: Value = serde_json::from_str(r.stdout.trim())
        .unwrap_or_else(|e| panic!("doctor --json ({e}):\n{}\n{}", r.stdout, r.stderr));
    doc["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .find(|c| c["id"] == "outpost")
        .cloned()
        .unwrap_or_else(|| panic!("no outpost check in {doc}"))
}

#[test]
fn without_a_get_one_route_get_and_doctor_resolve_by_id_and_name() {
    for mode in ["404", "405"] {
        let (mut env, emu, id, name) = setup(mode);
        // The route really is absent.
        let got = env.run(&["outpost", "get", &id, "--json"]);
        got.ok();
        assert_eq!(got.json()["outpost_id"], id.as_str(), "mode {mode}");
        let gets: Vec<_> = emu
            .requests()
            .into_iter()
            .filter(|r| r.method == "GET" && r.path == format!("/opbeta/outposts/{id}"))
            .collect();
        assert!(!gets.is_empty() && gets.iter().all(|r| r.status.to_string() == mode));

        let by_name = env.run(&["outpost", "get", &name]);
        by_name.ok();
        assert!(by_name.stdout.contains(&id), "{}", by_name.stdout);

        let c = outpost_check(&env);
        assert_eq!(c["status"], "pass", "mode {mode}: {c}");
        assert!(c["message"].as_str().unwrap().contains(&id), "{c}");
        env.set("OUTPOST_ID", name.clone());
        let c = outpost_check(&env);
        assert_eq!(c["status"], "pass", "mode {mode}, OUTPOST_ID=name: {c}");
    }
}

#[test]
fn an_unknown_outpost_lists_the_accounts_outposts_and_the_fix() {
    let (mut env, _emu, id, name) = setup("404");
    let r = env.run(&["outpost", "get", "no-such-outpost"]);
    r.code(1);
    assert!(r.stdout.is_empty(), "{}", r.stdout);
    assert!(
        r.stderr.contains(&format!("{name} ({id})")),
        "the error lists the outposts: {}",
        r.stderr
    );
    assert!(r.stderr.contains("outposts outpost list"), "{}", r.stderr);
    let j = env.run(&["outpost", "get", "no-such-outpost", "--json"]);
    j.code(1);
    let err: Value = serde_json::from_str(j.stderr.trim()).expect("JSON error");
    assert_eq!(err["error"]["exit_code"], 1);

    env.set("OUTPOST_ID", "outpost_env-0000");
    let c = outpost_check(&env);
    assert_eq!(c["status"], "fail", "{c}");
    assert!(c["message"].as_str().unwrap().contains(&id), "{c}");
    assert!(c["fix"].as_str().unwrap().contains("outposts outpost list"));
}

#[test]
fn delete_takes_a_name_and_an_id_already_gone_stays_safe() {
    let (env, _emu, _id, _name) = setup("404");
    let created = env.run(&["outpost", "create", "to-delete", "--platform", "linux"]);
    created.ok();
    let new_id = created.stdout.trim().to_string();
    let d = env.run(&["outpost", "delete", "to-delete", "--yes", "--json"]);
    d.ok();
    assert_eq!(d.json()["outpost_id"], new_id.as_str());
    assert_eq!(d.json()["deleted"], true);
    // The id again: already gone, not an error; the name again: a typo, an error.
    let again = env.run(&["outpost", "delete", &new_id, "--yes", "--json"]);
    again.ok();
    assert_eq!(again.json()["already_gone"], true);
    env.run(&["outpost", "delete", "to-delete", "--yes"])
        .code(1);
}
