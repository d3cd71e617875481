//! How the launches went, beyond their timing: a Daytona warm pool of the snapshot in use,
//! filled before the burst (`--warm-pool K`, through `outposts snapshot warm-pool set K`); which
//! creates it served, as the emulator saw them and as the orchestrator counted them; and the
//! toolbox execs each sandbox got until its session was served.

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, UNIX_EPOCH};

use outposts::emulator::RequestRecord;

use super::{Bench, wait_for};

/// Keep `size` started sandboxes of the snapshot in use, and wait until all are ready.
pub fn fill_pool(b: &Bench, size: u64) -> anyhow::Result<()> {
    let out = b
        .cmd(&["snapshot", "warm-pool", "set", &size.to_string()])
        .output()?;
    anyhow::ensure!(
        out.status.success(),
        "snapshot warm-pool set failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    wait_for("the warm pool to fill", Duration::from_secs(300), || {
        let out = b.cmd(&["snapshot", "warm-pool", "--json"]).output()?;
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
        Ok(v["pool"]["ready"].as_u64() == Some(size))
    })?;
    // The orchestrator counts a create as served warm when its sandbox is older than the request
    // by more than the clock skew it allows (2 s); members younger than that would be served
    // warm but counted cold, which is not what this run is about.
    std::thread::sleep(Duration::from_millis(2500));
    Ok(())
}

/// The successful creates (`POST /sandbox`) in `log`.
fn creates_in(log: &[RequestRecord]) -> impl Iterator<Item = &RequestRecord> {
    log.iter().filter(|r| {
        r.api == "daytona"
            && r.method == "POST"
            && r.path.ends_with("/sandbox")
            && (200..300).contains(&r.status)
    })
}

/// The JSON a Daytona request was answered with (the emulator keeps Daytona exchanges).
fn answer(r: &RequestRecord) -> Option<serde_json::Value> {
    serde_json::from_str(r.exchange.as_ref()?.response_body.as_ref()?).ok()
}

/// The creates in `log` made until the last session was served, and how many of them the
/// emulator served from a warm pool: a pool hands over a sandbox it started before the request
/// arrived, where a cold create makes its sandbox after (one clock, the emulator's; a member
/// needs at least the emulated create and start delays, 350 ms, to be ready, hence the 100 ms
/// margin).
pub fn creates(log: &[RequestRecord], served: &BTreeMap<&str, u64>) -> (usize, usize) {
    let last = served.values().max().copied().unwrap_or(0);
    let created_ms = |r: &RequestRecord| -> Option<u64> {
        let t = humantime::parse_rfc3339(answer(r)?["createdAt"].as_str()?).ok()?;
        Some(t.duration_since(UNIX_EPOCH).ok()?.as_millis() as u64)
    };
    let all: Vec<&RequestRecord> = creates_in(log).filter(|r| r.at_ms <= last).collect();
    let warm = all
        .iter()
        .filter(|r| created_ms(r).is_some_and(|c| c + 100 < r.at_ms))
        .count();
    (all.len(), warm)
}

/// The launches' own requests, (toolbox execs, orchestrator calls to Devin and Daytona): every
/// call that arrived before the last session was served, counting a sandbox's execs only until
/// its own session was served (`served`: its remote's first connect). Without the liveness
/// checks that sessions served early get while a long burst is still launching the rest, which
/// grow with the burst's length and so with the host's load. Sandboxes are matched to sessions
/// by the `devin.session_id` label in the create's answer.
pub fn until_served(log: &[RequestRecord], served: &BTreeMap<&str, u64>) -> (usize, usize) {
    let last = served.values().max().copied().unwrap_or(0);
    let mut session_of: HashMap<String, String> = HashMap::new();
    for v in creates_in(log).filter_map(answer) {
        let Some(session) = v["labels"]["devin.session_id"].as_str() else {
            continue;
        };
        for key in ["id", "name"] {
            if let Some(k) = v[key].as_str() {
                session_of.insert(k.to_string(), session.to_string());
            }
        }
    }
    let is_exec = |r: &RequestRecord| r.api == "daytona" && r.path.ends_with("/process/execute");
    let execs = log
        .iter()
        .filter(|r| is_exec(r))
        .filter(|r| {
            // `/daytona/toolbox/{id}/process/execute`
            let sandbox = r.path.rsplit('/').nth(2).unwrap_or_default();
            session_of
                .get(sandbox)
                .and_then(|s| served.get(s.as_str()))
                .is_some_and(|&at| r.at_ms <= at)
        })
        .count();
    let others = log
        .iter()
        .filter(|r| matches!(r.api.as_str(), "devin" | "daytona" | "coreweave"))
        .filter(|r| r.at_ms <= last && !is_exec(r))
        .count();
    (execs, others + execs)
}

/// How the orchestrator counted its creates, (warm, cold): `served_warm` of the held sessions
/// in `orchestrator status --json`, once it names at least `n` (its status file is refreshed
/// every 5 s; after 30 s whatever it says then).
pub fn orchestrator_count(b: &Bench, n: usize) -> (usize, usize) {
    let mut seen = (0, 0);
    let _ = wait_for(
        "the orchestrator's status to count every create",
        Duration::from_secs(30),
        || {
            let out = b.cmd(&["orchestrator", "status", "--json"]).output()?;
            let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
            let sessions = v["sessions"].as_array().cloned().unwrap_or_default();
            let count = |w: bool| {
                sessions
                    .iter()
                    .filter(|s| s["served_warm"].as_bool() == Some(w))
                    .count()
            };
            seen = (count(true), count(false));
            Ok(seen.0 + seen.1 >= n)
        },
    );
    seen
}

/// The launch's calls by route (ids folded, a list's query kept without its values: a list by
/// labels reads apart from a plain list), and its toolbox execs by the first words of the
/// command they ran: what each launch's calls were for, route by route.
pub fn by_route(log: &[RequestRecord], route: impl Fn(&str) -> String) -> BTreeMap<String, usize> {
    let mut m: BTreeMap<String, usize> = BTreeMap::new();
    for r in log
        .iter()
        .filter(|r| matches!(r.api.as_str(), "devin" | "daytona" | "coreweave"))
    {
        let query = r.query.as_deref().map(|q| {
            let keys: Vec<&str> = q.split('&').filter_map(|kv| kv.split('=').next()).collect();
            format!("?{}", keys.join("&"))
        });
        let mut key = format!(
            "{} {}{}",
            r.method,
            route(&r.path),
            query.unwrap_or_default()
        );
        if r.path.ends_with("/process/execute") {
            key = format!(
                "{key} [{}]",
                exec_words(r.body.as_deref().unwrap_or_default())
            );
        }
        *m.entry(key).or_default() += 1;
    }
    m
}

/// The first words of an exec's command, enough to tell the launch from a liveness check or
/// the integrity manifest.
fn exec_words(body: &str) -> String {
    let v: serde_json::Value = serde_json::from_str(body).unwrap_or_default();
    let cmd = v["command"].as_str().unwrap_or(body);
    cmd.split_whitespace()
        .take(4)
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .take(48)
        .collect()
}
