//! The cost ledger end to end: on the emulated Daytona, a session served, slept (with the
//! orchestrator killed -9 while it sleeps), woken and terminated; the ledger's seconds per
//! state match the emulator's own journal of the sandbox's create/stop/start/delete within
//! 2 s, `outposts cost --json` sums match the metrics, and `--csv` carries the same row; with
//! warm capacity on, the report's sums (sessions and the warm share) match the cost series at
//! the same moment. And `outposts cost` on a hand-written ledger (torn last line, two days, two
//! outposts).

use std::time::Duration;

use outposts::orchestrator::sandbox_name;
use outposts::provider::Provider;
use serde_json::Value;

use crate::observability::{metrics_addr, sample, scrape};
use crate::support::daytona::provider;
use crate::support::orch::*;
use crate::support::{TestEnv, block_on};

const WAIT: Duration = Duration::from_secs(90);

/// Seconds running and stopped of `sandbox` by the emulator's mutation journal, up to `end`.
fn journal_seconds(
    mutations: &[outposts::emulator::journal::Mutation],
    sandbox: &str,
) -> (f64, f64) {
    let mut running = 0.0;
    let mut stopped = 0.0;
    let mut last: Option<(&str, u64)> = None;
    for m in mutations.iter().filter(|m| m.sandbox_id == sandbox) {
        if let Some((op, at)) = last {
            let secs = (m.at_ms - at) as f64 / 1000.0;
            match op {
                "create" | "start" => running += secs,
                "stop" => stopped += secs,
                _ => {}
            }
        }
        last = Some((m.op.as_str(), m.at_ms));
    }
    (running, stopped)
}

fn cost_json(env: &TestEnv, args: &[&str]) -> Value {
    let mut full = vec!["--json", "cost"];
    full.extend_from_slice(args);
    env.run(&full).ok().json()
}

#[test]
fn ledger_matches_the_emulators_transitions_across_a_kill_and_the_metrics() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, mut env) = orch_emulator_built(&["--sweep-delay", "1s"]);
    // Round prices: $36/h per vCPU running, $3.6/h per GiB of disk stopped.
    env.set(
        "DAYTONA_PRICES",
        "running.vcpu_second=0.01,running.memory_gib_second=0,running.disk_gib_hour=0,\
         stopped.disk_gib_hour=3.6",
    );
    let args = ["--provider", "daytona", "--metrics-addr", "127.0.0.1:0"];
    let mut orch = Orch::start(&env, &args);
    let daytona = provider(&emu);
    let s = new_session(&emu, Some(proof_task("costed")));
    wait_until(WAIT, "the task", || tasks_done(&emu, &s), || orch.log());
    let sb = block_on(daytona.get(&sandbox_name(&s)))
        .unwrap()
        .expect("sandbox");
    std::thread::sleep(Duration::from_secs(2));
    suspend_until_stopped(&emu, &orch, &daytona, &s, &sb.id, WAIT);
    // A crash while the session sleeps: the stopped stretch goes on without anyone recording.
    std::thread::sleep(Duration::from_secs(1));
    orch.kill();
    std::thread::sleep(Duration::from_secs(2));
    let orch = Orch::start(&env, &args);
    resume_until_woken(&emu, &orch, &s, WAIT);
    std::thread::sleep(Duration::from_secs(1));
    terminate_until_deleted(&emu, &orch, &daytona, &s, &sb.id, WAIT);

    let mutations = block_on(emu.client().mutations()).unwrap();
    let ops: Vec<&str> = mutations
        .iter()
        .filter(|m| m.sandbox_id == sb.id)
        .map(|m| m.op.as_str())
        .collect();
    assert_eq!(ops, ["create", "stop", "start", "delete"]);
    let (running, stopped) = journal_seconds(&mutations, &sb.id);
    assert!(stopped >= 3.0, "the sleep spans the kill: {stopped}");

    let doc = cost_json(&env, &["--by", "session"]);
    let row = doc["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["key"] == s.as_str())
        .unwrap_or_else(|| panic!("no row for {s}: {doc}"))
        .clone();
    let got_running = row["seconds"]["running"].as_f64().unwrap();
    let got_stopped = row["seconds"]["stopped"].as_f64().unwrap();
    eprintln!(
        "ledger {got_running:.3}/{got_stopped:.3} s, emulator {running:.3}/{stopped:.3} s (running/stopped)"
    );
    assert!(
        (got_running - running).abs() <= 2.0 && (got_stopped - stopped).abs() <= 2.0,
        "ledger {got_running}/{got_stopped} s vs the emulator's {running}/{stopped} s\n{}",
        orch.log()
    );
    assert_eq!(row["provider"], "daytona");
    // Priced at the table given: 1 vCPU (Daytona's default) at $0.01/s, 3 GiB stopped at $3.6/h.
    let usd_running = row["usd"]["running"].as_f64().unwrap();
    assert!((usd_running - got_running * 0.01).abs() < 1e-6, "{row}");
    assert!(
        (row["usd"]["stopped"].as_f64().unwrap() - got_stopped * 3.0 * 3.6 / 3600.0).abs() < 1e-6
    );

    // The metrics say the same (the sandbox is gone: nothing accrues any more).
    let addr = metrics_addr(&orch);
    let series = |state: &str| {
        format!("outposts_sandbox_cost_usd{{provider=\"daytona\",state=\"{state}\"}}")
    };
    let doc = cost_json(&env, &[]);
    let p = &doc["providers"]["daytona"]["usd"];
    wait_until(
        Duration::from_secs(20),
        "the cost metrics to match `outposts cost --json`",
        || {
            let text = scrape(&addr);
            ["running", "stopped", "archived"].iter().all(|st| {
                sample(&text, &series(st))
                    .is_some_and(|v| (v - p[*st].as_f64().unwrap()).abs() < 1e-6)
            })
        },
        || scrape(&addr),
    );
    let rate = sample(
        &scrape(&addr),
        "outposts_sandbox_spend_usd_per_hour{provider=\"daytona\",state=\"running\"}",
    );
    assert_eq!(rate, Some(0.0));

    // CSV: the same row.
    let csv = env.run(&["cost", "--csv"]).ok().stdout.clone();
    let line = csv
        .split("\r\n")
        .find(|l| l.starts_with(&format!("{s},")))
        .unwrap_or_else(|| panic!("{csv}"));
    assert!(line.contains(",daytona,"), "{line}");
}

#[test]
fn cost_reads_the_ledger_by_session_outpost_and_day() {
    let env = TestEnv::new();
    let dir = env.path("state/outposts/x");
    std::fs::create_dir_all(&dir).unwrap();
    // Two days ago at 23:00 UTC, a sandbox ran 2 h (across midnight) and was deleted; a second
    // outpost's sandbox has been stopped since an hour ago (or today's midnight, if later). The
    // last line was cut short.
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs_f64();
    let day = (now / 86_400.0).floor() * 86_400.0;
    let t0 = day - 86_400.0 - 3600.0;
    let b_from = day.max(now - 3600.0);
    let line = |at: f64, outpost: &str, session: &str, mark: &str, rate: f64| {
        format!(
            r#"{{"kind":"state","at":{at},"outpost":"{outpost}","provider":"daytona","session":"{session}","sandbox":"sb","mark":"{mark}","resources":{{"cpu":1.0,"memory_gib":1.0,"disk_gib":3.0}},"usd_per_hour":{rate}}}"#
        )
    };
    let text = [
        line(t0, "o,1", "a", "running", 1.0),
        line(t0 + 7200.0, "o,1", "a", "gone", 0.0),
        line(b_from, "o2", "b", "stopped", 0.5),
        r#"{"kind":"usage","at":1.0,"outpost":"o2","session":"b","acus":4.5}"#.to_string(),
        r#"{"kind":"state","at":"#.to_string(),
    ]
    .join("\n");
    std::fs::write(dir.join("cost-ledger.jsonl"), text).unwrap();
    let mut env = env;
    env.set(
        "STATE_DIR",
        env.path("state").to_string_lossy().into_owned(),
    );

    let by_day = env.run(&["--json", "cost", "--by", "day"]);
    by_day.ok();
    assert!(
        by_day.stderr.contains("1 unreadable ledger line"),
        "{}",
        by_day.stderr
    );
    let doc = by_day.json();
    assert_eq!(doc["unreadable_lines"], 1);
    let rows = doc["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 3, "{doc}");
    assert_eq!(rows[0]["seconds"]["running"], 3600.0);
    assert_eq!(rows[1]["seconds"]["running"], 3600.0);
    let total = 2.0 + 0.5 * (now - b_from) / 3600.0;
    assert!(
        (doc["total_usd"].as_f64().unwrap() - total).abs() < 0.01,
        "{doc}"
    );

    let by_session = env.run(&["--json", "cost"]).ok().json();
    assert_eq!(by_session["rows"][1]["acus"], 4.5);
    // The last day only: the stopped hour.
    let recent = env.run(&["--json", "cost", "--since", "1h"]).ok().json();
    assert_eq!(recent["rows"].as_array().unwrap().len(), 1, "{recent}");

    let csv = env
        .run(&["cost", "--by", "outpost", "--csv"])
        .ok()
        .stdout
        .clone();
    let lines: Vec<&str> = csv.trim_end().split("\r\n").collect();
    assert!(
        lines[0].starts_with("key,outpost,provider,running_seconds"),
        "{csv}"
    );
    assert!(
        lines[1].starts_with("\"o,1\",\"o,1\",daytona,7200,0,0,"),
        "{csv}"
    );
    assert_eq!(lines.len(), 3);

    let both = env.run(&["--json", "cost", "--csv"]);
    both.code(2);
    assert!(both.stderr.contains("--csv"), "{}", both.stderr);
    // A human table with the total.
    let human = env.run(&["cost"]).ok().stdout.clone();
    assert!(
        human.contains("total: $2.") && human.contains("\na "),
        "{human}"
    );
}

fn unix_now() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs_f64()
}

/// Every ledger line of the test's state dir.
fn ledger_text(env: &TestEnv) -> String {
    std::fs::read_dir(env.path("state/outposts"))
        .map(|dirs| {
            dirs.flatten()
                .filter_map(|d| std::fs::read_to_string(d.path().join("cost-ledger.jsonl")).ok())
                .collect()
        })
        .unwrap_or_default()
}

/// `outposts cost --json` and `/metrics` read at the same moment, with warm capacity on: the
/// metrics are set by the orchestrator's passes, the report is made when asked, so each is
/// the ledger at its own instant. With one warm sandbox the only thing accruing (a known rate
/// r), the report made at `until` and the metrics scraped just after differ by r × (until −
/// the pass that set them): the test takes that pass to be no earlier than 3 s before the
/// report was asked for (the loop runs every second; a slower pass is retried), so the sums
/// agree to within that, and a warm share missing from either side (≥ 12 s of it) shows.
#[test]
fn cost_json_sums_match_the_metrics_with_warm_capacity_on() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, mut env) = orch_emulator_built(&[]);
    env.set("WARM_IDLE", "1");
    // $0.01/s per vCPU running (Daytona's default sandbox: 1 vCPU, so $36/h), nothing else.
    env.set(
        "DAYTONA_PRICES",
        "running.vcpu_second=0.01,running.memory_gib_second=0,running.disk_gib_hour=0,\
         stopped.disk_gib_hour=0,archived.disk_gib_hour=0",
    );
    let orch = Orch::start(
        &env,
        &["--provider", "daytona", "--metrics-addr", "127.0.0.1:0"],
    );
    let addr = metrics_addr(&orch);
    let rate_series = "outposts_sandbox_spend_usd_per_hour{provider=\"daytona\",state=\"running\"}";
    let warm_series = "outposts_warm_idle_cost_usd{provider=\"daytona\"}";
    let cost_series = |state: &str| {
        format!("outposts_sandbox_cost_usd{{provider=\"daytona\",state=\"{state}\"}}")
    };
    // A session served (from the warm sandbox) and ended; the warm capacity refilled.
    wait_until(
        WAIT,
        "a warm sandbox",
        || ledger_text(&env).contains("\"session\":\"warm:"),
        || orch.log(),
    );
    let s = new_session(&emu, None);
    wait_until(
        WAIT,
        "the serve",
        || connected_at(&emu, &s, 1),
        || orch.log(),
    );
    block_on(emu.client().terminate(&s)).unwrap();
    let gone = format!("\"session\":\"{s}\",");
    wait_until(
        WAIT,
        "the session's sandbox deleted and one warm sandbox running",
        || {
            ledger_text(&env)
                .lines()
                .any(|l| l.contains(&gone) && l.contains("\"mark\":\"gone\""))
                && sample(&scrape(&addr), rate_series) == Some(36.0)
        },
        || format!("{}\n{}", orch.log(), ledger_text(&env)),
    );
    // Enough warm idle time that a missing warm share is far outside the tolerance.
    wait_until(
        WAIT,
        "12 s of warm idle cost",
        || sample(&scrape(&addr), warm_series).is_some_and(|v| v >= 0.12),
        || scrape(&addr),
    );

    let last = std::cell::RefCell::new(String::new());
    wait_until(
        Duration::from_secs(60),
        "`outposts cost --json` to match /metrics at the same moment",
        || {
            let asked = unix_now();
            let doc = cost_json(&env, &["--by", "session"]);
            let text = scrape(&addr);
            let scraped = unix_now();
            let until = doc["until"].as_f64().unwrap();
            let p = &doc["providers"]["daytona"]["usd"];
            let warm_row = doc["rows"]
                .as_array()
                .unwrap()
                .iter()
                .find(|r| r["key"] == "warm")
                .map_or(0.0, |r| r["total_usd"].as_f64().unwrap());
            let session_row = doc["rows"]
                .as_array()
                .unwrap()
                .iter()
                .any(|r| r["key"] == s);
            let m = |st: &str| sample(&text, &cost_series(st)).unwrap_or(f64::NAN);
            let rate = sample(&text, rate_series).unwrap_or(0.0) / 3600.0;
            // Seconds of accrual between the pass behind the metrics and the report.
            let lag = (p["running"].as_f64().unwrap() - m("running")) / rate;
            let warm_lag = (warm_row - sample(&text, warm_series).unwrap_or(f64::NAN)) / rate;
            *last.borrow_mut() = format!(
                "lag {lag:.3} s, warm lag {warm_lag:.3} s, asked {asked:.3} until {until:.3} \
                 scraped {scraped:.3}, rate {rate}/s\n{doc}\n{text}"
            );
            session_row
                && rate > 0.0
                && lag >= -(scraped - asked) - 0.01
                && lag <= until - asked + 3.0
                && (warm_lag - lag).abs() < 0.01
                && ["stopped", "archived"]
                    .iter()
                    .all(|st| (p[*st].as_f64().unwrap() - m(st)).abs() < 1e-9)
        },
        || last.borrow().clone(),
    );
    eprintln!("{}", last.borrow().lines().next().unwrap_or_default());
}
