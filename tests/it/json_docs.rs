//! The `--json` documents' contract (`docs/json.md`, generated from their types): what real
//! commands print has exactly the documented fields. The `generated` test keeps the file in step
//! with the types; this keeps the output in step with the file.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::support::{Emu, TestEnv};

/// The schema documented for `command` in the committed docs/json.md.
fn documented(command: &str) -> Value {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("docs/json.md")).expect("docs/json.md");
    let heading = format!("\n## `{command}`\n");
    let at = text
        .find(&heading)
        .unwrap_or_else(|| panic!("docs/json.md documents no `{command}`"));
    let rest = &text[at + heading.len()..];
    let start = rest.find("```json\n").expect("a schema block") + "```json\n".len();
    let end = rest[start..].find("\n```").expect("the block's end");
    serde_json::from_str(&rest[start..start + end]).expect("the schema is JSON")
}

/// The schema's object properties and required names (following a `$ref` to `$defs`).
fn fields(schema: &Value, node: &Value) -> (BTreeSet<String>, BTreeSet<String>) {
    if let Some(r) = node.get("$ref").and_then(Value::as_str) {
        let name = r.trim_start_matches("#/$defs/");
        return fields(schema, &schema["$defs"][name]);
    }
    let props = node["properties"]
        .as_object()
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default();
    let required = node["required"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(String::from)
                .collect()
        })
        .unwrap_or_default();
    (props, required)
}

/// Every key of `doc` is documented, and every required field is there.
pub(crate) fn assert_matches(command: &str, doc: &Value) {
    let schema = documented(command);
    let (props, required) = fields(&schema, &schema);
    let keys: BTreeSet<String> = doc
        .as_object()
        .expect("an object")
        .keys()
        .cloned()
        .collect();
    let undocumented: Vec<_> = keys.difference(&props).collect();
    let missing: Vec<_> = required.difference(&keys).collect();
    assert!(
        undocumented.is_empty() && missing.is_empty(),
        "`{command} --json` drifted from docs/json.md: undocumented {undocumented:?}, missing {missing:?}\n{doc}"
    );
}

#[test]
fn printed_documents_have_the_documented_fields() {
    let env = TestEnv::new();
    let verify = env
        .run(&[
            "session",
            "verify",
            "--print-only",
            "--json",
            "--proof",
            "pp-1",
            "--outpost",
            "o1",
        ])
        .ok()
        .json();
    assert_matches("session verify", &verify);
    // The document's exit code is the process's.
    assert_eq!(verify["exit_code"], 0);
    assert_eq!(verify["result"], "printed");

    let name = env.run(&["snapshot", "name", "--json"]).ok().json();
    assert_matches("snapshot name", &name);
    let script = env.run(&["completions", "bash", "--json"]).ok().json();
    assert_matches("completions", &script);
    let drift = env.run(&["generate", "--check", "--dir", ".", "--json"]);
    drift.code(1);
    assert_matches("generate", &drift.json());

    let vars = env.run(&["help-env", "--json"]).ok().json();
    let schema = documented("help-env");
    let (props, _) = fields(&schema, &schema["items"]);
    for v in vars.as_array().expect("an array") {
        let keys: BTreeSet<String> = v.as_object().expect("an object").keys().cloned().collect();
        assert_eq!(keys, props, "{v}");
    }
}

/// `command`'s array document: every item has the documented item fields.
pub(crate) fn assert_items_match(command: &str, doc: &Value) {
    let schema = documented(command);
    let (props, required) = fields(&schema, &schema["items"]);
    let items = doc.as_array().expect("an array");
    assert!(
        !items.is_empty(),
        "`{command} --json` listed nothing to check: {doc}"
    );
    for item in items {
        let keys: BTreeSet<String> = item
            .as_object()
            .expect("an object")
            .keys()
            .cloned()
            .collect();
        let undocumented: Vec<_> = keys.difference(&props).collect();
        let missing: Vec<_> = required.difference(&keys).collect();
        assert!(
            undocumented.is_empty() && missing.is_empty(),
            "`{command} --json` drifted from docs/json.md: undocumented {undocumented:?}, missing {missing:?}\n{item}"
        );
    }
}

/// The domain types printed as they are (outposts, v3 sessions, doctor's report), against the
/// emulator.
#[test]
fn domain_documents_against_the_emulator_have_the_documented_fields() {
    let emu_env = TestEnv::new();
    let emu = Emu::start(&emu_env, &[]);
    let mut env = TestEnv::new();
    emu.configure(&mut env);

    let created = env
        .run(&[
            "outpost",
            "create",
            "docs-check",
            "--platform",
            "linux",
            "--json",
        ])
        .ok()
        .json();
    assert_matches("outpost create", &created);
    let id = created["outpost_id"]
        .as_str()
        .expect("the new outpost's id")
        .to_string();
    let got = env.run(&["outpost", "get", &id, "--json"]).ok().json();
    assert_matches("outpost get", &got);
    let list = env.run(&["outpost", "list", "--json"]).ok().json();
    assert_items_match("outpost list", &list);

    let session = env
        .run(&[
            "session",
            "create",
            "--prompt",
            "sh: true",
            "--outpost",
            "EMULATOR",
            "--json",
        ])
        .ok()
        .json();
    assert_matches("session create", &session);
    let sid = session["session_id"].as_str().expect("the session id");
    let ended = env.run(&["session", "end", sid, "--json"]).ok().json();
    assert_matches("session end", &ended);

    // Some checks fail here (no provider set up); the report is printed all the same.
    let report = env.run(&["doctor", "--json"]);
    let doc: Value = serde_json::from_str(&report.stdout).expect("a JSON report");
    assert_matches("doctor", &doc);
    let schema = documented("doctor");
    let (check_fields, _) = fields(&schema, &schema["properties"]["checks"]["items"]);
    for c in doc["checks"].as_array().expect("checks") {
        let keys: BTreeSet<String> = c.as_object().expect("a check").keys().cloned().collect();
        assert_eq!(keys, check_fields, "{c}");
    }
}

#[test]
fn errors_have_the_documented_fields() {
    let env = TestEnv::new();
    let r = env.run(&[
        "session",
        "verify",
        "--json",
        "--proof",
        "a b",
        "--print-only",
    ]);
    r.code(2);
    let doc: Value = serde_json::from_str(r.stderr.trim()).expect("JSON on stderr");
    assert_matches("(any command, on failure)", &doc);
    assert_eq!(doc["error"]["exit_code"], 2);
    assert!(doc["error"]["hint"].is_string(), "{doc}");
}

/// `orchestrator status --json` from a status file an older orchestrator wrote (no `phase`,
/// `ended`, `sandboxes`, …): it loads, the missing fields take their defaults, and the document
/// keeps the documented fields, down to the rows.
#[test]
fn an_old_status_file_loads_into_the_documented_status() {
    use outposts::orchestrator::state::StateDir;
    let env = TestEnv::new();
    let state = StateDir::open(&env.path("state")).expect("state dir");
    let dir = state
        .outpost("o-docs")
        .expect("outpost dir")
        .dir()
        .to_path_buf();
    std::fs::write(dir.join("acceptor_id"), "acc-docs\n").expect("acceptor id");
    let old = serde_json::json!({"pid": 4242, "updated_at": 1.0, "cap": 3, "held": 1,
        "sessions": [{"session_id": "s1", "remote": "running", "sandbox_id": "sb-1"}],
        "sleeping": [{"session_id": "s2", "state": "stopped", "slept_since": 1.0}]});
    std::fs::write(dir.join("status.json"), old.to_string()).expect("status file");

    let doc = env
        .run(&["orchestrator", "status", "--outpost", "o-docs", "--json"])
        .ok()
        .json();
    assert_matches("orchestrator status", &doc);
    assert_eq!(
        (&doc["pid"], &doc["cap"], &doc["stale"]),
        (
            &serde_json::json!(4242),
            &serde_json::json!(3),
            &Value::Bool(true)
        )
    );
    let schema = documented("orchestrator status");
    for (list, def) in [("sessions", "SessionRow"), ("sleeping", "SleepingRow")] {
        let (props, _) = fields(&schema, &schema["$defs"][def]);
        let row = &doc[list][0];
        let keys: BTreeSet<String> = row.as_object().expect("a row").keys().cloned().collect();
        assert_eq!(keys, props, "{row}");
    }
    assert_eq!(doc["sessions"][0]["sandbox_id"], "sb-1");
    assert_eq!(doc["sleeping"][0]["state"], "stopped");
    assert_eq!(doc["ended"], serde_json::json!([]));

    // The human view reads the same file.
    let human = env.run(&["orchestrator", "status", "--outpost", "o-docs"]);
    human.ok();
    assert!(
        human.stdout.contains("s1") && human.stdout.contains("SLEEPING SESSION"),
        "{}",
        human.stdout
    );
}
