//! What a supervisor's probes see, served beside `/metrics`:
//!
//! - `/readyz`: 200 when the loop reconciles — a pass ran, the queue was listed successfully
//!   within [`READY_INTERVALS`] × `RECONCILE_INTERVAL`, and the latest answer of every API the
//!   loop talks to (Devin, the provider) did not reject our credentials; 503 otherwise.
//! - `/livez` (and `/healthz`, its older name): 200 unless the loop is wedged — no reconcile
//!   pass for [`LIVE_INTERVALS`] × `RECONCILE_INTERVAL`; 503 then, so a restart can unstick it.
//!   A failing API keeps the process live: restarting would not bring Devin back, and the loop
//!   keeps passing (a failed relist is retried on the next pass).
//!
//! The body is one line saying why, for `curl` and `kubectl describe pod`. The verdicts are a
//! pure function of the ages ([`ready`], [`live`]), table-tested below.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::api::telemetry::Answer;

/// Ready while the last successful listing of the queue is at most this many intervals old.
pub const READY_INTERVALS: u32 = 3;
/// Live while the last reconcile pass is at most this many intervals old.
pub const LIVE_INTERVALS: u32 = 10;

/// The APIs whose credentials readiness depends on (not the remote's download host: a 403 there
/// is a missing build, not a revoked token).
const CREDENTIAL_APIS: [&str; 3] = ["devin", "daytona", "coreweave"];

/// What the loop and the API layer reported, with when.
#[derive(Debug)]
pub struct Health {
    interval: Duration,
    started: Instant,
    seen: Mutex<Seen>,
}

#[derive(Debug, Default)]
struct Seen {
    pass: Option<Instant>,
    listed: Option<Instant>,
    /// Per API, the answer that rejected our credentials, while no later answer accepted them.
    rejected: BTreeMap<&'static str, Answer>,
}

/// The facts a verdict is made of (ages, not instants: the verdicts are pure).
#[derive(Debug, Clone, Default)]
pub(super) struct Facts {
    pub interval: Duration,
    pub since_start: Duration,
    pub since_pass: Option<Duration>,
    pub since_listed: Option<Duration>,
    /// `(api, answer)` of each API whose latest answer rejected the credentials.
    pub rejected: Vec<(&'static str, String)>,
}

impl Health {
    pub fn new(interval: Duration) -> Health {
        Health {
            // A zero interval would make every probe fail; the loop passes at least every 500 ms.
            interval: interval.max(Duration::from_secs(1)),
            started: Instant::now(),
            seen: Mutex::new(Seen::default()),
        }
    }

    fn seen(&self) -> std::sync::MutexGuard<'_, Seen> {
        self.seen.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn passed(&self) {
        self.seen().pass = Some(Instant::now());
    }

    pub fn listed(&self) {
        self.seen().listed = Some(Instant::now());
    }

    /// An answer from `api`: a rejection marks its credentials refused until an answer that
    /// is not an error accepts them again.
    pub fn answer(&self, api: &'static str, answer: Answer) {
        if !CREDENTIAL_APIS.contains(&api) {
            return;
        }
        let mut seen = self.seen();
        if answer.rejected_credentials() {
            seen.rejected.insert(api, answer);
        } else if answer.class() == "2xx" {
            seen.rejected.remove(api);
        }
    }

    pub(super) fn facts(&self) -> Facts {
        let seen = self.seen();
        Facts {
            interval: self.interval,
            since_start: self.started.elapsed(),
            since_pass: seen.pass.map(|t| t.elapsed()),
            since_listed: seen.listed.map(|t| t.elapsed()),
            rejected: seen
                .rejected
                .iter()
                .map(|(api, a)| (*api, shown(*a)))
                .collect(),
        }
    }
}

fn shown(a: Answer) -> String {
    match a {
        Answer::Http(s) => format!("HTTP {s}"),
        Answer::Grpc(c) => format!("gRPC {c:?}"),
        Answer::Transport => "no answer".into(),
    }
}

fn secs(d: Duration) -> String {
    format!("{:.1}s", d.as_secs_f64())
}

/// `Ok(why)`: live; `Err(why)`: the loop is wedged.
pub(super) fn live(f: &Facts) -> Result<String, String> {
    let limit = f.interval * LIVE_INTERVALS;
    match f.since_pass {
        Some(age) if age <= limit => Ok(format!("live: last reconcile pass {} ago", secs(age))),
        Some(age) => Err(format!(
            "not live: no reconcile pass for {} (limit {} = {LIVE_INTERVALS} x RECONCILE_INTERVAL): the loop is wedged",
            secs(age),
            secs(limit)
        )),
        // Starting: reattaching and the first listing come before the first pass.
        None if f.since_start <= limit => Ok(format!(
            "live: starting ({} since the metrics server started)",
            secs(f.since_start)
        )),
        None => Err(format!(
            "not live: no reconcile pass in the {} since start (limit {} = {LIVE_INTERVALS} x RECONCILE_INTERVAL): the start is stuck",
            secs(f.since_start),
            secs(limit)
        )),
    }
}

/// `Ok(why)`: ready; `Err(why)`: not (the first reason found).
pub(super) fn ready(f: &Facts) -> Result<String, String> {
    if let Some((api, answer)) = f.rejected.first() {
        return Err(format!(
            "not ready: the {api} API rejects the credentials ({answer}); fix the token and restart"
        ));
    }
    let live = live(f).map_err(|e| e.replacen("not live", "not ready", 1))?;
    let Some(_) = f.since_pass else {
        return Err("not ready: no reconcile pass yet".into());
    };
    let limit = f.interval * READY_INTERVALS;
    match f.since_listed {
        None => Err("not ready: the session queue was never listed".into()),
        Some(age) if age > limit => Err(format!(
            "not ready: the session queue was last listed {} ago (limit {} = {READY_INTERVALS} x RECONCILE_INTERVAL); the log says why",
            secs(age),
            secs(limit)
        )),
        Some(age) => Ok(format!(
            "ready: queue listed {} ago; {}",
            secs(age),
            live.trim_start_matches("live: ")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(n: u64) -> Duration {
        Duration::from_secs(n)
    }

    fn facts(pass: Option<u64>, listed: Option<u64>, rejected: bool) -> Facts {
        Facts {
            interval: s(30),
            since_start: s(1000),
            since_pass: pass.map(s),
            since_listed: listed.map(s),
            rejected: if rejected {
                vec![("devin", "HTTP 401".into())]
            } else {
                vec![]
            },
        }
    }

    #[test]
    fn verdicts() {
        // (last pass, last good listing, credentials rejected) → (ready, live)
        let table = [
            (Some(0), Some(5), false, true, true),
            (Some(0), Some(90), false, true, true),
            (Some(0), Some(91), false, false, true),
            (Some(0), None, false, false, true),
            (Some(0), Some(5), true, false, true),
            (Some(300), Some(5), false, true, true),
            (Some(301), Some(5), false, false, false),
            (None, None, false, false, false),
        ];
        for (pass, listed, rejected, want_ready, want_live) in table {
            let f = facts(pass, listed, rejected);
            assert_eq!(ready(&f).is_ok(), want_ready, "{f:?}: {:?}", ready(&f));
            assert_eq!(live(&f).is_ok(), want_live, "{f:?}: {:?}", live(&f));
        }
    }

    #[test]
    fn starting_is_live_but_not_ready() {
        let mut f = facts(None, None, false);
        f.since_start = s(10);
        assert!(live(&f).is_ok());
        assert_eq!(ready(&f), Err("not ready: no reconcile pass yet".into()));
    }

    #[test]
    fn a_rejection_lasts_until_an_accepted_answer() {
        let h = Health::new(s(30));
        h.passed();
        h.listed();
        assert!(ready(&h.facts()).is_ok());
        h.answer("daytona", Answer::Http(401));
        let why = ready(&h.facts()).unwrap_err();
        assert!(
            why.contains("daytona API rejects the credentials (HTTP 401)"),
            "{why}"
        );
        h.answer("daytona", Answer::Http(503));
        assert!(ready(&h.facts()).is_err());
        h.answer("remote_download", Answer::Http(200));
        assert!(ready(&h.facts()).is_err());
        h.answer("daytona", Answer::Http(200));
        assert!(ready(&h.facts()).is_ok());
        h.answer("remote_download", Answer::Http(403));
        assert!(ready(&h.facts()).is_ok());
    }
}
