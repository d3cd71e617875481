//! Devin's own usage of each session in the cost ledger (issue 34): with a v3 key configured,
//! the orchestrator reads `acus_consumed` once when a session goes to sleep and once when it
//! ends, and `outposts cost` shows it (`--json` `acus`/`total_acus`, the CSV column, the table);
//! without a key it is unknown (null, "—"), never 0, and no v3 request is made.

use std::time::Duration;

use outposts::orchestrator::sandbox_name;
use outposts::provider::Provider;
use serde_json::{Value, json};

use crate::support::connect::assert_never_shown;
use crate::support::cost::csv_line;
use crate::support::daytona::provider;
use crate::support::orch::*;
use crate::support::{Emu, TestEnv, block_on};

const WAIT: Duration = Duration::from_secs(90);

/// The emulator's v3 reads of `session` (`GET …/sessions/{id}`).
fn usage_reads(emu: &Emu, session: &str) -> usize {
    emu.requests()
        .iter()
        .filter(|r| {
            r.method == "GET"
                && r.path.contains("/organizations/")
                && r.path.ends_with(&format!("/sessions/{session}"))
        })
        .count()
}

fn row(env: &TestEnv, session: &str) -> (Value, Value) {
    let doc = env.run(&["--json", "cost"]).ok().json();
    let row = doc["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["key"] == session)
        .cloned()
        .unwrap_or(Value::Null);
    (row, doc)
}

fn set_usage(emu: &Emu, session: &str, acus: f64) {
    emulator_post(
        emu,
        &format!("v3/sessions/{session}/usage"),
        json!({ "acus_consumed": acus }),
    );
}

/// Serve a new session on the emulated Daytona, put it to sleep (`at_sleep` ACUs reported
/// then, and waited for in the ledger; negative: neither), wake it, end it (`at_end`): the
/// session id and the orchestrator.
fn cycle(emu: &Emu, env: &TestEnv, at_sleep: f64, at_end: f64) -> (String, Orch) {
    let orch = Orch::start(env, &["--provider", "daytona"]);
    let daytona = provider(emu);
    let s = new_session(emu, None);
    wait_until(
        WAIT,
        "the serve",
        || connected_at(emu, &s, 1),
        || orch.log(),
    );
    let sb = block_on(daytona.get(&sandbox_name(&s)))
        .unwrap()
        .expect("sandbox");
    if at_sleep >= 0.0 {
        set_usage(emu, &s, at_sleep);
    }
    suspend_until_stopped(emu, &orch, &daytona, &s, &sb.id, WAIT);
    if at_sleep >= 0.0 {
        wait_until(
            WAIT,
            "the usage read at sleep",
            || row(env, &s).0["acus"] == at_sleep,
            || orch.log(),
        );
    }
    set_usage(emu, &s, at_end);
    resume_until_woken(emu, &orch, &s, WAIT);
    terminate_until_deleted(emu, &orch, &daytona, &s, &sb.id, WAIT);
    (s, orch)
}

#[test]
fn with_a_v3_key_the_ledger_holds_devins_usage_read_at_sleep_and_at_end() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, env) = orch_emulator_built(&["--sweep-delay", "1s"]);
    let (s, orch) = cycle(&emu, &env, 1.25, 2.5);
    wait_until(
        WAIT,
        "the usage read at the end",
        || row(&env, &s).0["acus"] == 2.5,
        || orch.log(),
    );
    let (r, doc) = row(&env, &s);
    assert_eq!(doc["total_acus"], 2.5, "{doc}");
    assert_eq!(r["provider"], "daytona");
    // One read per sleep and one per end: never polled.
    assert_eq!(usage_reads(&emu, &s), 2);
    let (csv, line) = csv_line(&env, &s);
    assert!(line.ends_with(",2.5"), "{line}");
    let human = env.run(&["cost"]).ok().all();
    assert!(human.contains("Devin usage 2.50 ACUs"), "{human}");
    // The key reached neither the orchestrator's output, the state dir nor the reports.
    let key = emu.env_value("DEVIN_API_KEY");
    let ledger = std::fs::read_to_string(
        std::fs::read_dir(env.path("state/outposts"))
            .unwrap()
            .flatten()
            .map(|d| d.path().join("cost-ledger.jsonl"))
            .find(|p| p.exists())
            .expect("a ledger"),
    )
    .unwrap();
    assert!(ledger.contains("\"kind\":\"usage\""), "{ledger}");
    assert_never_shown(
        &key,
        &[
            ("the orchestrator's log", &orch.log()),
            ("the ledger", &ledger),
            ("cost", &human),
            ("cost --csv", &csv),
        ],
    );
}

#[test]
fn without_a_v3_key_devins_usage_is_unknown_and_never_asked() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, mut env) = orch_emulator_built(&["--sweep-delay", "1s"]);
    env.unset("DEVIN_API_KEY");
    let (s, orch) = cycle(&emu, &env, -1.0, 3.0);
    let (r, doc) = row(&env, &s);
    assert!(r.is_object(), "no row for {s}: {doc}\n{}", orch.log());
    assert_eq!(r["acus"], Value::Null, "{doc}");
    assert_eq!(doc["total_acus"], Value::Null, "{doc}");
    assert_eq!(usage_reads(&emu, &s), 0);
    let human = env.run(&["cost"]).ok().stdout.clone();
    assert!(human.contains("Devin usage — ACUs"), "{human}");
    let (_, line) = csv_line(&env, &s);
    assert!(line.ends_with(','), "an empty acus field: {line}");
}

#[test]
fn a_v3_key_without_an_organisation_is_a_warning_naming_the_variable() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (_emu, mut env) = orch_emulator_built(&[]);
    env.unset("DEVIN_ORG_ID");
    let mut orch = Orch::start(&env, &["--provider", "daytona"]);
    wait_until(
        WAIT,
        "the warning",
        || {
            orch.log()
                .contains("DEVIN_ORG_ID is not set; set DEVIN_ORG_ID beside DEVIN_API_KEY")
        },
        || orch.log(),
    );
    let (code, _) = orch.terminate(Duration::from_secs(35));
    assert_eq!(code, Some(0), "serving goes on: {}", orch.log());
}

#[test]
fn a_refused_usage_read_is_logged_once_per_session_without_the_key_and_left_unknown() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, mut env) = orch_emulator_built(&["--sweep-delay", "1s"]);
    // A key that may manage sessions but not read them: both reads are answered 403.
    let key = block_on(
        emu.client()
            .v3_key(&["ManageOrgSessions"], "no ViewOrgSessions"),
    )
    .unwrap();
    env.set("DEVIN_API_KEY", key.expose());
    let (s, orch) = cycle(&emu, &env, -1.0, 3.0);
    wait_until(
        WAIT,
        "both reads",
        || usage_reads(&emu, &s) == 2,
        || orch.log(),
    );
    // The second failure is not logged again (it may still be in flight: give it a moment).
    wait_until(
        WAIT,
        "the warning",
        || orch.log().contains("of this session is unknown"),
        || orch.log(),
    );
    std::thread::sleep(Duration::from_secs(1));
    let log = orch.log();
    let warned: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("of this session is unknown") && l.contains(&s))
        .collect();
    assert_eq!(warned.len(), 1, "{log}");
    assert!(warned[0].contains("ViewOrgSessions"), "{}", warned[0]);
    let (r, doc) = row(&env, &s);
    assert_eq!(r["acus"], Value::Null, "{doc}");
    assert_never_shown(key.expose(), &[("the orchestrator's log", &log)]);
}
