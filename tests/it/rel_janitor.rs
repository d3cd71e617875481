//! T12: janitor false positives.
//!
//! 1. A seeded property test: 1,000 (CI) or 10,000 (long) randomized worlds — sandboxes with our
//!    labels, another outpost's, none; young and old; started, stopped, deleting; sessions
//!    pending, running, claimed by another replica, suspended, terminated, absent — swept by the
//!    real janitor of 3 in-process orchestrators at once, against the in-process emulator (exact
//!    lookups, with injected 5xx) and a recording fake provider (list and get errors). Oracle
//!    from the world's truth: a sandbox may be deleted only when its session is terminated and
//!    unclaimed, stopped only when it is suspended or absent and unclaimed, and only when ours
//!    and older than the grace. Every delete follows an exact get by the same replica; after a
//!    clean pass every true orphan is dealt with.
//! 2. A smaller set of rounds against a real orchestrator process on the emulated Daytona.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use futures::stream::BoxStream;
use outposts::api::devin::DevinClient;
use outposts::api::{HttpClient, HttpOptions};
use outposts::emulator::devin::NewSession;
use outposts::emulator::faults::parse_spec;
use outposts::emulator::{Emulator, EmulatorOptions};
use outposts::orchestrator::plan::Limits;
use outposts::orchestrator::remote::LaunchMode;
use outposts::orchestrator::run::{Orchestrator, RunOptions};
use outposts::orchestrator::state::StateDir;
use outposts::orchestrator::{LABEL_OUTPOST, LABEL_SESSION, sandbox_labels, sandbox_name};
use outposts::provider::{
    ExecOutput, ExecRequest, GitClone, LogOptions, Provider, ProviderError, ProviderKind,
    Resources, SandboxInfo, SandboxSpec, SandboxState, Source,
};
use outposts::secrets::Secret;
use rand::Rng;
use rand::rngs::StdRng;

use crate::invariants::Quiesce;
use crate::support::block_on;
use crate::support::rel::*;

const GRACE: f64 = 60.0;
const OUTPOST_OTHER: &str = "outpost_env-someone-else";

#[derive(Debug, Clone)]
struct Call {
    replica: String,
    op: &'static str,
    id: String,
    /// The sandbox existed (for delete) / was not already stopped (for stop).
    effective: bool,
}

#[derive(Default)]
struct FakeWorld {
    sandboxes: Mutex<BTreeMap<String, SandboxInfo>>,
    calls: Mutex<Vec<Call>>,
    /// Probability that a list / get fails.
    fail: Mutex<(f64, f64)>,
    rng: Mutex<Option<StdRng>>,
}

impl FakeWorld {
    fn roll(&self, p: f64) -> bool {
        p > 0.0
            && self
                .rng
                .lock()
                .unwrap()
                .as_mut()
                .is_some_and(|r| r.gen_bool(p))
    }
    fn record(&self, replica: &str, op: &'static str, id: &str, effective: bool) {
        self.calls.lock().unwrap().push(Call {
            replica: replica.into(),
            op,
            id: id.into(),
            effective,
        });
    }
}

struct FakeProvider {
    world: Arc<FakeWorld>,
    replica: String,
}

fn unsupported(op: &'static str) -> ProviderError {
    ProviderError::Unsupported {
        provider: ProviderKind::Local,
        operation: op,
    }
}

#[async_trait]
impl Provider for FakeProvider {
    fn kind(&self) -> ProviderKind {
        ProviderKind::Local
    }
    async fn preflight(&self, _: &outposts::provider::Source) -> outposts::provider::Result<()> {
        Ok(())
    }
    async fn create(&self, _: &SandboxSpec) -> outposts::provider::Result<SandboxInfo> {
        Err(unsupported("create"))
    }
    async fn get(&self, id: &str) -> outposts::provider::Result<Option<SandboxInfo>> {
        let p = self.world.fail.lock().unwrap().1;
        if self.world.roll(p) {
            return Err(ProviderError::Other("injected get failure".into()));
        }
        self.world.record(&self.replica, "get", id, true);
        let sbs = self.world.sandboxes.lock().unwrap();
        Ok(sbs
            .get(id)
            .cloned()
            .or_else(|| sbs.values().find(|s| s.name == id).cloned()))
    }
    async fn list(
        &self,
        labels: &BTreeMap<String, String>,
    ) -> outposts::provider::Result<Vec<SandboxInfo>> {
        let p = self.world.fail.lock().unwrap().0;
        if self.world.roll(p) {
            return Err(ProviderError::Other("injected list failure".into()));
        }
        self.world.record(&self.replica, "list", "", true);
        Ok(self
            .world
            .sandboxes
            .lock()
            .unwrap()
            .values()
            .filter(|s| labels.iter().all(|(k, v)| s.labels.get(k) == Some(v)))
            .cloned()
            .collect())
    }
    async fn list_each(
        &self,
        labels: &BTreeMap<String, String>,
        sink: &mut outposts::provider::Sink<'_>,
    ) -> outposts::provider::Result<()> {
        outposts::provider::feed(self.list(labels).await, sink)
    }
    async fn start(&self, _: &str) -> outposts::provider::Result<()> {
        Err(unsupported("start"))
    }
    async fn stop(&self, id: &str) -> outposts::provider::Result<()> {
        let mut sbs = self.world.sandboxes.lock().unwrap();
        let effective = match sbs.get_mut(id) {
            Some(s) if s.state != SandboxState::Stopped => {
                s.state = SandboxState::Stopped;
                true
            }
            _ => false,
        };
        drop(sbs);
        self.world.record(&self.replica, "stop", id, effective);
        Ok(())
    }
    async fn delete(&self, id: &str) -> outposts::provider::Result<()> {
        let existed = self.world.sandboxes.lock().unwrap().remove(id).is_some();
        self.world.record(&self.replica, "delete", id, existed);
        Ok(())
    }
    async fn set_labels(
        &self,
        _: &str,
        _: &BTreeMap<String, String>,
    ) -> outposts::provider::Result<()> {
        Err(unsupported("set_labels"))
    }
    async fn hand_over(
        &self,
        _: &str,
        _: &str,
        _: &BTreeMap<String, String>,
    ) -> outposts::provider::Result<()> {
        Err(unsupported("hand_over"))
    }
    async fn keeps_workspace(&self, _: &str) -> outposts::provider::Result<bool> {
        Ok(false)
    }
    async fn exec(&self, _: &str, _: &ExecRequest) -> outposts::provider::Result<ExecOutput> {
        Err(unsupported("exec"))
    }
    async fn read_file(&self, _: &str, _: &str) -> outposts::provider::Result<Option<Vec<u8>>> {
        Err(unsupported("read_file"))
    }
    async fn write_file(&self, _: &str, _: &str, _: &[u8]) -> outposts::provider::Result<()> {
        Err(unsupported("write_file"))
    }
    async fn git_clone(&self, _: &str, _: &GitClone) -> outposts::provider::Result<()> {
        Err(unsupported("git_clone"))
    }
    async fn logs(
        &self,
        _: &str,
        _: &LogOptions,
    ) -> outposts::provider::Result<BoxStream<'static, outposts::provider::Result<String>>> {
        Err(unsupported("logs"))
    }
    async fn stop_keeping(&self, id: &str, _: bool) -> outposts::provider::Result<Option<String>> {
        self.stop(id).await.map(|()| None)
    }
    async fn discard(&self, _: &str) -> outposts::provider::Result<()> {
        Ok(())
    }
    fn check_egress(&self, egress: &outposts::provider::Egress) -> Result<(), String> {
        match egress {
            outposts::provider::Egress::Only(_) => Err("the fake cannot restrict egress".into()),
            _ => Ok(()),
        }
    }
    fn can_set_egress(&self) -> bool {
        false
    }
    async fn set_egress(
        &self,
        _: &str,
        _: &outposts::provider::Egress,
    ) -> outposts::provider::Result<()> {
        Err(unsupported("set_egress"))
    }
}

/// What the world says about a sandbox's session.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Truth {
    Pending,
    Running,
    ClaimedByOther,
    TerminatedClaimedByOther,
    Suspended,
    Terminated,
    Absent,
}

const TRUTHS: [Truth; 7] = [
    Truth::Pending,
    Truth::Running,
    Truth::ClaimedByOther,
    Truth::TerminatedClaimedByOther,
    Truth::Suspended,
    Truth::Terminated,
    Truth::Absent,
];

#[derive(Debug, Clone, Copy, PartialEq)]
enum Allowed {
    Nothing,
    Stop,
    Delete,
}

#[derive(Debug, Clone)]
struct Planted {
    id: String,
    truth: Truth,
    allowed: Allowed,
    stopped: bool,
}

fn options(outpost: &str, acceptor: &str) -> RunOptions {
    RunOptions {
        outpost_id: outpost.into(),
        acceptor_id: acceptor.into(),
        limits: Limits::default(),
        reconcile_interval: Duration::from_secs(1),
        janitor_interval: Duration::from_secs(1),
        janitor_grace: Duration::from_secs_f64(GRACE),
        launch: LaunchMode::Remote,
        source: Source::Default,
        windows_source: None,
        resources: Resources::default(),
        workdir: "/w".into(),
        windows_workdir: "C:\\w".into(),
        repos: Vec::new(),
        git_username: "x".into(),
        git_token: None,
        chrome_path: None,
        windows_chrome_path: None,
        static_base: String::new(),
        gateway_fallback: None,
        ready_timeout: Duration::from_secs(5),
        archive_after: None,
        sleep_retention: None,
        integrity: Default::default(),
        failed_keep: Duration::from_secs(86_400),
        placement: Default::default(),
        snapshot_fallback: Vec::new(),
        targets: Vec::new(),
        prices: Default::default(),
        cost_alert_hourly: None,
        warm: Default::default(),
        devin_usage: None,
    }
}

/// Build one random world: sessions in the emulator, sandboxes in the fake provider.
fn build_world(emu: &Emulator, world: &FakeWorld, outpost: &str, rng: &mut StdRng) -> Vec<Planted> {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs_f64();
    let n = rng.gen_range(4..14);
    let mut planted = Vec::new();
    let mut sbs = world.sandboxes.lock().unwrap();
    sbs.clear();
    for _ in 0..n {
        let truth = TRUTHS[rng.gen_range(0..TRUTHS.len())];
        let sid = format!("devin-j{}", uuid::Uuid::new_v4().simple());
        if truth != Truth::Absent {
            emu.shared.devin.with(|q, now_us| {
                q.enqueue(
                    &NewSession {
                        session_id: Some(sid.clone()),
                        ..NewSession::default()
                    },
                    now_us,
                )
                .expect("enqueue");
                match truth {
                    Truth::Running => {
                        let _ =
                            q.set_status(&sid, outposts::emulator::devin::Status::Running, now_us);
                    }
                    Truth::ClaimedByOther => {
                        let _ = q.claim(&sid, Some("other-replica"), now_us, 300_000_000, "ws://g");
                        let _ =
                            q.set_status(&sid, outposts::emulator::devin::Status::Running, now_us);
                    }
                    Truth::TerminatedClaimedByOther => {
                        let _ = q.claim(&sid, Some("other-replica"), now_us, 300_000_000, "ws://g");
                        let _ = q.terminate(&sid, now_us);
                    }
                    Truth::Suspended => {
                        let _ = q.suspend(&sid, now_us);
                    }
                    Truth::Terminated => {
                        let _ = q.terminate(&sid, now_us);
                    }
                    _ => {}
                }
            });
        }
        // Labels: mostly ours; some another outpost's, some missing.
        let labels = match rng.gen_range(0..10) {
            0 => sandbox_labels(&sid, OUTPOST_OTHER),
            1 => BTreeMap::new(),
            2 => BTreeMap::from([(LABEL_OUTPOST.to_string(), outpost.to_string())]),
            _ => sandbox_labels(&sid, outpost),
        };
        let ours = labels.get(LABEL_OUTPOST).map(String::as_str) == Some(outpost)
            && labels.get(LABEL_SESSION).is_some_and(|s| !s.is_empty());
        let state = match rng.gen_range(0..10) {
            0..=5 => SandboxState::Started,
            6..=7 => SandboxState::Stopped,
            8 => SandboxState::Deleting,
            _ => SandboxState::Error,
        };
        // Ages around the grace; sometimes unknown (then the janitor counts from first sight).
        // (Never within a second of the grace: the oracle and the janitor read the clock at
        // slightly different times.)
        let created_at = match rng.gen_range(0..10) {
            0 => None,
            1..=4 => Some(now - rng.gen_range(0.0..GRACE - 1.0)),
            _ => Some(now - rng.gen_range(GRACE + 1.0..2.0 * GRACE)),
        };
        let old = created_at.is_some_and(|c| now - c >= GRACE + 1.0);
        let stopped = state == SandboxState::Stopped;
        let allowed = if !ours || !old || state == SandboxState::Deleting {
            Allowed::Nothing
        } else {
            match truth {
                Truth::Terminated => Allowed::Delete,
                Truth::Suspended | Truth::Absent if !stopped => Allowed::Stop,
                _ => Allowed::Nothing,
            }
        };
        let id = uuid::Uuid::new_v4().to_string();
        sbs.insert(
            id.clone(),
            SandboxInfo {
                id: id.clone(),
                name: sandbox_name(&sid),
                state,
                raw_state: state.to_string(),
                disk: outposts::provider::Disk::Attached,
                labels,
                created_at,
                error_reason: None,
                containers: Vec::new(),
                egress: outposts::provider::Egress::Open,
            },
        );
        planted.push(Planted {
            id,
            truth,
            allowed,
            stopped,
        });
    }
    planted
}

/// The property test. Returns (rounds, sandboxes seen, deletes, stops, duplicate deletes).
fn janitor_property(rounds: usize, seed: u64) -> BTreeMap<&'static str, usize> {
    let mut rng = rng(seed);
    let mut figures: BTreeMap<&'static str, usize> = BTreeMap::new();
    let state_root = tempfile::tempdir().unwrap();
    block_on(async {
        let mut emu: Option<Emulator> = None;
        for round in 0..rounds {
            // A fresh emulator now and then keeps its queue small.
            if round % 200 == 0 {
                if let Some(e) = emu.take() {
                    e.stop().await;
                }
                emu = Some(
                    Emulator::start(EmulatorOptions {
                        seed: seed ^ round as u64,
                        ..EmulatorOptions::default()
                    })
                    .await
                    .expect("emulator"),
                );
            }
            let emu_ref = emu.as_ref().unwrap();
            let info = emu_ref.info();
            let val = |k: &str| {
                info.env
                    .iter()
                    .find(|(n, _)| n == k)
                    .map(|(_, v)| v.clone())
                    .unwrap()
            };
            let outpost = val("OUTPOST_ID");
            let world = Arc::new(FakeWorld::default());
            *world.rng.lock().unwrap() = Some(crate::support::rel::rng(rng.r#gen()));
            let planted = build_world(emu_ref, &world, &outpost, &mut rng);
            // Faulty conditions: queue 5xx on the exact lookup, provider list/get errors.
            let lookup_5xx: f64 = [0.0, 0.0, 0.3, 1.0][rng.gen_range(0..4)];
            *world.fail.lock().unwrap() = (
                [0.0, 0.0, 0.5][rng.gen_range(0..3)],
                [0.0, 0.0, 0.2][rng.gen_range(0..3)],
            );
            emu_ref.shared.faults.clear();
            if lookup_5xx > 0.0 {
                emu_ref.shared.faults.add(
                    parse_spec(&format!(
                        r#"{{"method":"GET","path":"/opbeta/outposts/devins/","times":0,"rate":{lookup_5xx},"action":{{"kind":"status","status":503}}}}"#
                    ))
                    .unwrap(),
                );
            }
            let http = HttpClient::new(HttpOptions {
                retry: outposts::api::http::RetryPolicy {
                    attempts: 1,
                    ..Default::default()
                },
                ..HttpOptions::default()
            })
            .unwrap();
            let orch = |name: &str| {
                let state = StateDir::open(&state_root.path().join(name))
                    .unwrap()
                    .outpost(&outpost)
                    .unwrap();
                Orchestrator::new(
                    DevinClient::new(
                        outposts::settings::DevinSettings::new(
                            emu_ref.base_url(),
                            Secret::new(val("DEVIN_OUTPOSTS_TOKEN")),
                        ),
                        http.clone(),
                    ),
                    Arc::new(FakeProvider {
                        world: world.clone(),
                        replica: name.into(),
                    }),
                    http.clone(),
                    options(&outpost, &format!("acceptor-{name}")),
                    state,
                )
            };
            let (a, b, c) = (orch("a"), orch("b"), orch("c"));
            // Three replicas sweep the same world at once, under faults.
            tokio::join!(a.janitor_pass(), b.janitor_pass(), c.janitor_pass());
            // Then a clean pass: every true orphan must be dealt with now.
            emu_ref.shared.faults.clear();
            *world.fail.lock().unwrap() = (0.0, 0.0);
            a.janitor_pass().await;
            let calls = world.calls.lock().unwrap().clone();
            let by_id: BTreeMap<&str, &Planted> =
                planted.iter().map(|p| (p.id.as_str(), p)).collect();
            for call in calls.iter().filter(|c| c.op == "delete" || c.op == "stop") {
                let p = by_id[call.id.as_str()];
                let ok = matches!(
                    (call.op, p.allowed),
                    ("delete", Allowed::Delete) | ("stop", Allowed::Stop)
                );
                assert!(
                    ok,
                    "round {round} (seed {seed}): {} sent {} to a sandbox whose session is {:?} (allowed: {:?}, stopped {})",
                    call.replica, call.op, p.truth, p.allowed, p.stopped
                );
                *figures
                    .entry(if call.op == "delete" {
                        "deletes"
                    } else {
                        "stops"
                    })
                    .or_default() += 1;
                if call.op == "delete" && !call.effective {
                    *figures.entry("duplicate_deletes_harmless").or_default() += 1;
                }
            }
            // Every delete follows an exact get of that sandbox by the same replica.
            for (i, call) in calls.iter().enumerate() {
                if call.op != "delete" {
                    continue;
                }
                let confirmed = calls[..i]
                    .iter()
                    .any(|c| c.op == "get" && c.id == call.id && c.replica == call.replica);
                assert!(
                    confirmed,
                    "round {round} (seed {seed}): delete of {} by {} without an exact get first",
                    call.id, call.replica
                );
            }
            // After the clean pass: orphans handled in 100%.
            let sbs = world.sandboxes.lock().unwrap();
            for p in &planted {
                match p.allowed {
                    Allowed::Delete => assert!(
                        !sbs.contains_key(&p.id),
                        "round {round} (seed {seed}): orphan of a terminated session not deleted"
                    ),
                    Allowed::Stop => assert_eq!(
                        sbs.get(&p.id).map(|s| s.state),
                        Some(SandboxState::Stopped),
                        "round {round} (seed {seed}): {:?} session's sandbox not stopped",
                        p.truth
                    ),
                    Allowed::Nothing => {}
                }
            }
            *figures.entry("sandboxes").or_default() += planted.len();
            *figures.entry("true_orphans").or_default() += planted
                .iter()
                .filter(|p| p.allowed != Allowed::Nothing)
                .count();
            if lookup_5xx == 1.0 {
                *figures.entry("rounds_with_queue_down").or_default() += 1;
            }
        }
        if let Some(e) = emu.take() {
            e.stop().await;
        }
    });
    figures.insert("rounds", rounds);
    figures
}

#[test]
fn t12_janitor_never_deletes_what_it_must_not_property() {
    let rounds = knob("T12_ROUNDS", 1000);
    let seed = seed();
    eprintln!("T12 property: seed {seed} (replay with OUTPOSTS_REL_SEED={seed})");
    let figures = janitor_property(rounds, seed);
    for (k, v) in &figures {
        figure("T12", k, v);
    }
    figure("T12", "false_deletions", 0);
    figure("T12", "false_stops", 0);
    figure("T12", "deletes_without_exact_get", 0);
}

/// Real process rounds: sandboxes planted on the emulated Daytona for sessions in every state;
/// one orchestrator with no grace sweeps them. Checked with I1–I8 (I3: deletes only after
/// `terminated`; I2: nothing touched while another acceptor holds the claim).
#[test]
fn t12_janitor_rounds_against_a_real_process() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let rounds = knob("T12_REAL_ROUNDS", 4);
    let seed = seed();
    let mut c = Cluster::start(
        "T12real",
        seed,
        ClusterOpts {
            cap: 50,
            janitor_grace: "0",
            // Terminated rows stay visible long enough for the janitor to see `terminated`.
            sweep_delay: "60s",
            ..ClusterOpts::default()
        },
    );
    c.start_all();
    let mut rng = rng(seed);
    let provider = crate::support::daytona::provider(&c.emu);
    let devin = DevinClient::new(
        outposts::settings::DevinSettings::new(
            &c.emu.base_url,
            Secret::new(c.emu.env_value("DEVIN_OUTPOSTS_TOKEN")),
        ),
        crate::support::daytona::http_client(),
    );
    let mut expect: Vec<(String, &'static str)> = Vec::new();
    for _ in 0..rounds {
        // Build the round's world with the orchestrator down, so it cannot claim a fresh
        // session before the "other replica" does.
        let _ = c.replicas[0].terminate(Duration::from_secs(35));
        for _ in 0..6 {
            let truth = [
                Truth::ClaimedByOther,
                Truth::TerminatedClaimedByOther,
                Truth::Suspended,
                Truth::Terminated,
                Truth::Absent,
            ][rng.gen_range(0..5)];
            let sid = match truth {
                Truth::Absent => format!("devin-gone{}", uuid::Uuid::new_v4().simple()),
                _ => c.new_sessions(1).remove(0),
            };
            match truth {
                Truth::ClaimedByOther => {
                    block_on(devin.claim(&sid, "other-replica")).unwrap();
                    block_on(c.emu.client().set_status(&sid, "running")).unwrap();
                }
                Truth::TerminatedClaimedByOther => {
                    // The other replica has not finished with it yet: hands off.
                    block_on(devin.claim(&sid, "other-replica")).unwrap();
                    block_on(c.emu.client().terminate(&sid)).unwrap();
                }
                Truth::Suspended => {
                    block_on(devin.claim(&sid, "other-replica")).unwrap();
                    block_on(c.emu.client().suspend(&sid)).unwrap();
                    block_on(devin.release(&sid, "other-replica")).unwrap();
                }
                Truth::Terminated => {
                    block_on(c.emu.client().terminate(&sid)).unwrap();
                }
                _ => {}
            }
            let foreign = rng.gen_bool(0.2);
            let mut spec = SandboxSpec::new(
                format!("planted-{}", uuid::Uuid::new_v4().simple()),
                Source::Snapshot(SNAPSHOT.into()),
            );
            spec.labels = sandbox_labels(&sid, if foreign { OUTPOST_OTHER } else { &c.outpost });
            block_on(provider.create(&spec)).expect("plant");
            c.planted.insert(spec.name.clone());
            let want = match (foreign, truth) {
                (true, _) => "untouched",
                (false, Truth::Terminated) => "deleted",
                (false, Truth::Suspended | Truth::Absent) => "stopped",
                _ => "untouched",
            };
            expect.push((spec.name, want));
        }
        c.replicas[0].start();
        // Two janitor periods (2 s each) plus slack.
        let ok = time_until(Duration::from_secs(30), || {
            let sbs = c.sandboxes();
            expect.iter().all(|(name, want)| {
                let sb = sbs
                    .iter()
                    .find(|s| &s.name == name || s.name.contains(name.as_str()));
                match *want {
                    "deleted" => sb.is_none_or(|s| s.state.starts_with("destroy")),
                    "stopped" => sb.is_some_and(|s| s.state == "stopped"),
                    _ => sb.is_some_and(|s| s.state == "started"),
                }
            })
        });
        assert!(
            ok.is_some(),
            "the janitor did not converge: {:?}\n{}",
            c.sandboxes()
                .iter()
                .filter(|s| s.name.starts_with("planted"))
                .map(|s| format!("{} {}", s.name, s.state))
                .collect::<Vec<_>>(),
            c.replicas[0].log()
        );
    }
    std::thread::sleep(Duration::from_secs(4));
    c.stop_all();
    let w = c.world();
    // Nothing was ever done to a foreign or claimed sandbox.
    let touched: BTreeSet<String> = w
        .mutations
        .iter()
        .filter(|m| m.caller.as_deref() == Some("r0"))
        .map(|m| m.name.clone())
        .collect();
    for (name, want) in &expect {
        if *want == "untouched" {
            assert!(
                !touched.iter().any(|t| t.contains(name.as_str())),
                "{name} was touched"
            );
        }
    }
    c.assert_invariants(&w, Quiesce::No);
    figure("T12real", "rounds", rounds);
    figure("T12real", "planted", expect.len());
    figure(
        "T12real",
        "deleted_stopped_untouched",
        format!(
            "{}/{}/{}",
            expect.iter().filter(|e| e.1 == "deleted").count(),
            expect.iter().filter(|e| e.1 == "stopped").count(),
            expect.iter().filter(|e| e.1 == "untouched").count()
        ),
    );
}
