//! Benchmark (not a test): N sessions on the in-process emulator with an instant provider.
//!
//! Reports peak RSS, CPU seconds, claim latency p50/p99 (enqueue → claim, from the emulator's
//! history) and API calls per session per minute in steady state (from its request log).
//!
//!     cargo bench --bench orchestrator -- --sessions 1000 --steady 60
//!     cargo bench --bench orchestrator -- --sessions 100 --interval-ms 100 --steady 10
//!
//! The second form enqueues one session at a time, so its claim latency is that of a lone
//! session after enqueue rather than of a burst of 1,000.
//!
//! The provider answers every call at once (sandboxes are records in memory; the liveness
//! check always says "running"), so the figures are the orchestrator's own cost.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use futures::stream::BoxStream;
use outposts::api::devin::DevinClient;
use outposts::api::{HttpClient, HttpOptions};
use outposts::emulator::client::EmulatorClient;
use outposts::emulator::devin::NewSession;
use outposts::emulator::{Emulator, EmulatorOptions};
use outposts::orchestrator::plan::Limits;
use outposts::orchestrator::run::{Orchestrator, RunOptions};
use outposts::orchestrator::state::StateDir;
use outposts::provider::{
    Cmd, ExecOutput, ExecRequest, GitClone, LogOptions, Provider, ProviderError, ProviderKind,
    SandboxInfo, SandboxSpec, SandboxState,
};
use outposts::secrets::Secret;

/// Counts every call, so provider traffic counts as API calls too.
#[derive(Default)]
struct Instant_ {
    sandboxes: Mutex<BTreeMap<String, SandboxInfo>>,
    calls: std::sync::atomic::AtomicU64,
}

impl Instant_ {
    fn count(&self) {
        self.calls
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }
}

#[async_trait]
impl Provider for Instant_ {
    fn kind(&self) -> ProviderKind {
        ProviderKind::Local
    }
    async fn preflight(&self, _: &outposts::provider::Source) -> outposts::provider::Result<()> {
        Ok(())
    }
    async fn create(&self, spec: &SandboxSpec) -> Result<SandboxInfo, ProviderError> {
        self.count();
        let mut m = self.sandboxes.lock().unwrap();
        if m.values().any(|s| s.name == spec.name) {
            return Err(ProviderError::AlreadyExists(spec.name.clone()));
        }
        let info = SandboxInfo {
            id: format!("sb-{}", m.len()),
            name: spec.name.clone(),
            state: SandboxState::Started,
            raw_state: "started".into(),
            labels: spec.labels.clone(),
            created_at: None,
            error_reason: None,
            containers: vec![],
            egress: outposts::provider::Egress::Open,
        };
        m.insert(info.id.clone(), info.clone());
        Ok(info)
    }
    async fn get(&self, id: &str) -> Result<Option<SandboxInfo>, ProviderError> {
        self.count();
        Ok(self
            .sandboxes
            .lock()
            .unwrap()
            .values()
            .find(|s| s.id == id || s.name == id)
            .cloned())
    }
    async fn list(
        &self,
        labels: &BTreeMap<String, String>,
    ) -> Result<Vec<SandboxInfo>, ProviderError> {
        self.count();
        Ok(self
            .sandboxes
            .lock()
            .unwrap()
            .values()
            .filter(|s| labels.iter().all(|(k, v)| s.labels.get(k) == Some(v)))
            .cloned()
            .collect())
    }
    async fn start(&self, _id: &str) -> Result<(), ProviderError> {
        self.count();
        Ok(())
    }
    async fn stop(&self, _id: &str) -> Result<(), ProviderError> {
        self.count();
        Ok(())
    }
    async fn delete(&self, id: &str) -> Result<(), ProviderError> {
        self.count();
        self.sandboxes.lock().unwrap().remove(id);
        Ok(())
    }
    async fn set_labels(
        &self,
        _id: &str,
        _l: &BTreeMap<String, String>,
    ) -> Result<(), ProviderError> {
        self.count();
        Ok(())
    }
    async fn exec(&self, _id: &str, req: &ExecRequest) -> Result<ExecOutput, ProviderError> {
        self.count();
        let out = match &req.cmd {
            Cmd::Argv(a) if a.first().map(String::as_str) == Some("uname") => "x86_64\n",
            Cmd::Shell(s) if s.contains("remote.pid") && !s.contains("nohup") => "running 1\n",
            _ => "ok\n",
        };
        Ok(ExecOutput {
            exit_code: 0,
            stdout: out.into(),
            stderr: String::new(),
        })
    }
    async fn read_file(&self, _id: &str, _p: &str) -> Result<Option<Vec<u8>>, ProviderError> {
        self.count();
        Ok(None)
    }
    async fn write_file(&self, _id: &str, _p: &str, _d: &[u8]) -> Result<(), ProviderError> {
        self.count();
        Ok(())
    }
    async fn git_clone(&self, _id: &str, _r: &GitClone) -> Result<(), ProviderError> {
        self.count();
        Ok(())
    }
    async fn logs(
        &self,
        _id: &str,
        _o: &LogOptions,
    ) -> Result<BoxStream<'static, Result<String, ProviderError>>, ProviderError> {
        self.count();
        Ok(Box::pin(futures::stream::empty()))
    }
}

fn arg(name: &str, default: u64) -> u64 {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn rusage() -> (f64, u64) {
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) };
    let cpu = ru.ru_utime.tv_sec as f64
        + ru.ru_utime.tv_usec as f64 / 1e6
        + ru.ru_stime.tv_sec as f64
        + ru.ru_stime.tv_usec as f64 / 1e6;
    (cpu, ru.ru_maxrss as u64)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let sessions = arg("--sessions", 1000) as usize;
    let steady = arg("--steady", 60);
    // 0: enqueue all at once (a burst); otherwise one session every this many milliseconds.
    let interval_ms = arg("--interval-ms", 0);
    let dir = tempfile::tempdir()?;
    let emulator = Emulator::start(EmulatorOptions {
        data_dir: Some(dir.path().join("emu")),
        ..EmulatorOptions::default()
    })
    .await?;
    let info = emulator.info();
    let env = |k: &str| {
        info.env
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    let http = HttpClient::new(HttpOptions::default())?;
    let admin = EmulatorClient::new(http.clone(), &info.base_url);
    let devin = DevinClient::new(
        http.clone(),
        &env("DEVIN_API_URL"),
        Secret::new(env("DEVIN_OUTPOSTS_TOKEN")),
    );
    let outpost = env("OUTPOST_ID");
    let state = StateDir::open(&dir.path().join("state"))?.outpost(&outpost)?;
    let acceptor = state.acceptor_id(None)?;
    let opts = RunOptions {
        limits: Limits {
            cap: sessions,
            ..Limits::default()
        },
        ..RunOptions::new(outpost, acceptor, env("DEVIN_WORKER_STATIC_BASE_URL"))
    };
    let provider = Arc::new(Instant_::default());
    let orch = Orchestrator::new(devin, provider.clone(), http, opts, state);
    let (tx, rx) = tokio::sync::watch::channel(false);
    let runner = tokio::spawn(orch.clone().run(rx));
    tokio::time::sleep(Duration::from_millis(500)).await;

    let started = Instant::now();
    if interval_ms > 0 {
        // One at a time: each claim latency is that of a lone session (watch-driven).
        for _ in 0..sessions {
            admin
                .new_sessions(&NewSession {
                    count: Some(1),
                    ..NewSession::default()
                })
                .await?;
            tokio::time::sleep(Duration::from_millis(interval_ms)).await;
        }
    } else {
        let mut left = sessions;
        while left > 0 {
            let n = left.min(1000);
            admin
                .new_sessions(&NewSession {
                    count: Some(n as u32),
                    ..NewSession::default()
                })
                .await?;
            left -= n;
        }
    }
    // Wait until every session is claimed.
    loop {
        let claimed = admin
            .sessions()
            .await?
            .iter()
            .filter(|s| s.phase == "claimed")
            .count();
        if claimed >= sessions {
            break;
        }
        if started.elapsed() > Duration::from_secs(600) {
            anyhow::bail!("only {claimed}/{sessions} claimed after 10 minutes");
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    let all_claimed = started.elapsed();
    let history = admin.history(None).await?;
    let mut enqueued = BTreeMap::new();
    let mut latencies = Vec::new();
    for h in &history {
        match h.event.as_str() {
            "enqueue" => {
                enqueued.insert(h.session_id.clone(), h.at_ms);
            }
            "claim" => {
                if let Some(t0) = enqueued.get(&h.session_id) {
                    latencies.push((h.at_ms.saturating_sub(*t0)) as f64 / 1000.0);
                }
            }
            _ => {}
        }
    }
    latencies.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));

    // Steady state: count the Devin API calls over a window with nothing changing.
    let before = admin.requests(0).await?.len();
    let provider_before = provider.calls.load(std::sync::atomic::Ordering::Relaxed);
    let (cpu0, _) = rusage();
    tokio::time::sleep(Duration::from_secs(steady)).await;
    let (cpu1, maxrss_kib) = rusage();
    let window = admin.requests(before as u64).await?;
    let api: Vec<_> = window.iter().filter(|r| r.api == "devin").collect();
    let provider_calls =
        provider.calls.load(std::sync::atomic::Ordering::Relaxed) - provider_before;
    let minutes = steady as f64 / 60.0;
    let per_session_min = (api.len() as f64 + provider_calls as f64) / sessions as f64 / minutes;

    let _ = tx.send(true);
    let _ = tokio::time::timeout(Duration::from_secs(30), runner).await;
    emulator.stop().await;
    let (cpu_total, _) = rusage();
    println!(
        "sessions                         {sessions} ({})",
        if interval_ms > 0 {
            format!("one every {interval_ms} ms")
        } else {
            "enqueued at once".to_string()
        }
    );
    println!(
        "all claimed after                {:.2}s",
        all_claimed.as_secs_f64()
    );
    println!(
        "claim latency p50 / p99          {:.3}s / {:.3}s",
        percentile(&latencies, 0.5),
        percentile(&latencies, 0.99)
    );
    println!(
        "steady window                    {steady}s, {} Devin API calls",
        api.len()
    );
    println!("API calls per session per minute {per_session_min:.3}");
    println!("CPU seconds in the steady window {:.2}", cpu1 - cpu0);
    println!("CPU seconds in all (incl. emulator) {cpu_total:.2}");
    println!(
        "peak RSS (process, incl. emulator) {:.1} MiB",
        maxrss_kib as f64 / 1024.0
    );
    Ok(())
}
