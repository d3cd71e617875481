//! Benchmark (not a test): `outposts orchestrator run --provider daytona` as its own process
//! against `outposts emulator` in another, with N sessions on emulated Daytona whose sandboxes
//! are real bubblewrap sandboxes running the emulator's fake `devin-remote`.
//!
//!     cargo bench --bench orchestrator -- --sessions 200 --steady 600
//!     cargo bench --bench orchestrator -- --sessions 1000 --steady 60 --sleepers 0
//!     cargo bench --bench orchestrator -- --sessions 20 --steady 0 --sleepers 0 --bake
//!     cargo bench --bench orchestrator -- --sessions 200 --steady 0 --sleepers 0 --warm-pool 20
//!
//! Reports, from the emulator's request log and history (one clock, unix ms):
//! - toolbox execs and other API calls per launch (every request from the burst until all are
//!   served, and "until served": without the liveness checks of sessions served early, which a
//!   long burst on a loaded host adds), and downloads of the remote binary per launch (`--bake`
//!   builds the snapshot with `--bake-remote`, the latest build every session runs);
//! - sandbox creates per launch, and how many a Daytona warm pool served (`--warm-pool K` keeps
//!   K started sandboxes of the snapshot, filled before the burst): as the emulator saw them and
//!   as the orchestrator counted them (`served_warm` in `orchestrator status`);
//! - enqueue→claimed and claimed→served (the remote's first gateway connect) p50/p95;
//! - calls per session per minute the orchestrator makes over the steady window (Devin and
//!   Daytona APIs; the remotes' own gateway traffic is not the orchestrator's), by route;
//! - suspend→stopped (the sandbox stopped and the claim released) and resume→served p50 for
//!   `--sleepers` sessions;
//! - the orchestrator process's peak RSS (VmHWM) and its CPU seconds in the steady window.
//!
//! Every interval is the orchestrator's default; only the cap is raised to N. `--keep` leaves
//! the temporary HOME (emulator and orchestrator logs) in place and prints where it is.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use outposts::api::{HttpClient, HttpOptions};
use outposts::emulator::client::EmulatorClient;
use outposts::emulator::devin::{HistoryRecord, NewSession};

mod launch;
mod proc;

use proc::{Proc, proc_usage};

const BIN: &str = env!("CARGO_BIN_EXE_outposts");

fn arg(name: &str, default: u64) -> u64 {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

fn sorted(mut v: Vec<f64>) -> Vec<f64> {
    v.sort_by(|a, b| a.total_cmp(b));
    v
}

struct Bench {
    home: tempfile::TempDir,
    vars: BTreeMap<String, String>,
}

impl Bench {
    fn new() -> anyhow::Result<Bench> {
        let home = tempfile::Builder::new()
            .prefix("outposts-bench-")
            .tempdir()?;
        let h = home.path().to_string_lossy().into_owned();
        let mut vars = BTreeMap::new();
        for (k, v) in [
            ("HOME", h.clone()),
            ("XDG_CONFIG_HOME", format!("{h}/.config")),
            ("XDG_STATE_HOME", format!("{h}/.local/state")),
            ("XDG_CACHE_HOME", format!("{h}/.cache")),
            ("STATE_DIR", format!("{h}/state")),
            (
                "PATH",
                std::env::var("PATH").unwrap_or_else(|_| "/usr/bin:/bin".into()),
            ),
            ("NO_COLOR", "1".into()),
            ("OUTPOSTS_NO_KEYRING", "1".into()),
        ] {
            vars.insert(k.to_string(), v);
        }
        Ok(Bench { home, vars })
    }

    fn cmd(&self, args: &[&str]) -> Command {
        let mut c = Command::new(BIN);
        c.args(args)
            .env_clear()
            .envs(&self.vars)
            .current_dir(self.home.path())
            .stdin(Stdio::null());
        c
    }

    fn log(&self, name: &str) -> PathBuf {
        self.home.path().join(name)
    }
}

fn wait_for(
    what: &str,
    limit: Duration,
    mut done: impl FnMut() -> anyhow::Result<bool>,
) -> anyhow::Result<()> {
    let start = Instant::now();
    let mut said = Instant::now();
    while !done()? {
        if start.elapsed() > limit {
            anyhow::bail!("gave up after {limit:?} waiting for {what}");
        }
        if said.elapsed() > Duration::from_secs(30) {
            eprintln!(
                "  … still waiting for {what} ({:.0}s)",
                start.elapsed().as_secs_f64()
            );
            said = Instant::now();
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    Ok(())
}

/// `/daytona/api/sandbox/3f…/start` → `/daytona/api/sandbox/{id}/start`: routes, not ids.
fn route(path: &str) -> String {
    path.split('/')
        .map(|seg| {
            let idish = seg.len() >= 12 && seg.chars().any(|c| c.is_ascii_digit());
            if idish { "{id}" } else { seg }
        })
        .collect::<Vec<_>>()
        .join("/")
}

fn first_at<'a>(
    history: &'a [HistoryRecord],
    event: &str,
    generation: u32,
) -> BTreeMap<&'a str, u64> {
    let mut m = BTreeMap::new();
    for h in history
        .iter()
        .filter(|h| h.event == event && h.generation == generation)
    {
        m.entry(h.session_id.as_str()).or_insert(h.at_ms);
    }
    m
}

fn main() -> anyhow::Result<()> {
    let n = arg("--sessions", 20) as usize;
    let steady = arg("--steady", 600);
    let sleepers = (arg("--sleepers", 20) as usize).min(n);
    let rt = tokio::runtime::Runtime::new()?;
    let mut b = Bench::new()?;

    // The emulator, its own process.
    let emu_log = std::fs::File::create(b.log("emulator.log"))?;
    let mut emu = b
        .cmd(&["emulator", "start", "--port", "0", "--json"])
        .stdout(Stdio::piped())
        .stderr(emu_log)
        .spawn()?;
    let mut line = String::new();
    BufReader::new(
        emu.stdout
            .take()
            .ok_or_else(|| anyhow::anyhow!("no stdout"))?,
    )
    .read_line(&mut line)?;
    let mut emu = Proc(emu, None);
    let ready: serde_json::Value = serde_json::from_str(line.trim())
        .map_err(|e| anyhow::anyhow!("emulator ready line {line:?}: {e}"))?;
    let base = ready["base_url"].as_str().unwrap_or_default().to_string();
    let admin = EmulatorClient::new(HttpClient::new(HttpOptions::default())?, &base);
    let info = rt.block_on(admin.info())?;
    emu.1 = Some(info.data_dir.join("sandboxes"));
    for (k, v) in &info.env {
        b.vars.insert(k.clone(), v.clone());
    }
    b.vars
        .insert("MAX_CONCURRENT_SESSIONS".into(), n.to_string());

    let bake = std::env::args().any(|a| a == "--bake");
    let build: &[&str] = if bake {
        &["snapshot", "build", "--bake-remote"]
    } else {
        &["snapshot", "build"]
    };
    eprintln!("== {}", build.join(" "));
    let out = b.cmd(build).output()?;
    anyhow::ensure!(
        out.status.success(),
        "snapshot build failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The baked image has its own name: the orchestrator uses it.
    if let Some(name) = String::from_utf8_lossy(&out.stdout)
        .trim()
        .strip_prefix("SNAPSHOT_NAME=")
    {
        b.vars.insert("SNAPSHOT_NAME".into(), name.to_string());
    }
    let warm_pool = arg("--warm-pool", 0);
    if warm_pool > 0 {
        eprintln!("== snapshot warm-pool set {warm_pool}");
        launch::fill_pool(&b, warm_pool)?;
    }

    eprintln!("== orchestrator run --provider daytona (cap {n})");
    let orch_log = b.log("orchestrator.log");
    let orch = Proc(
        b.cmd(&["-v", "orchestrator", "run", "--provider", "daytona"])
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&orch_log)?)
            .spawn()?,
        None,
    );
    let pid = orch.0.id();
    let read_log = |p: &Path| std::fs::read_to_string(p).unwrap_or_default();
    wait_for("the orchestrator to start", Duration::from_secs(60), || {
        Ok(read_log(&orch_log).contains("Ctrl-C to stop"))
    })?;
    std::thread::sleep(Duration::from_millis(500));
    let idle = proc_usage(pid);

    // A burst of N sessions.
    eprintln!("== {n} sessions enqueued at once");
    let req0 = rt
        .block_on(admin.requests(0))?
        .last()
        .map(|r| r.seq)
        .unwrap_or(0);
    let enqueued_at = Instant::now();
    let mut left = n;
    while left > 0 {
        let k = left.min(500);
        rt.block_on(admin.new_sessions(&NewSession {
            count: Some(k as u32),
            ..NewSession::default()
        }))?;
        left -= k;
    }
    wait_for("every session served", Duration::from_secs(1800), || {
        let h = rt.block_on(admin.history(None))?;
        Ok(first_at(&h, "connect", 1).len() >= n)
    })?;
    let all_served = enqueued_at.elapsed();
    let history = rt.block_on(admin.history(None))?;
    let (enq, claim, conn) = (
        first_at(&history, "enqueue", 1),
        first_at(&history, "claim", 1),
        first_at(&history, "connect", 1),
    );
    let mut to_claim = Vec::new();
    let mut to_serve = Vec::new();
    for (s, c) in &claim {
        if let Some(e) = enq.get(s) {
            to_claim.push(c.saturating_sub(*e) as f64 / 1000.0);
        }
        if let Some(x) = conn.get(s) {
            to_serve.push(x.saturating_sub(*c) as f64 / 1000.0);
        }
    }
    let (to_claim, to_serve) = (sorted(to_claim), sorted(to_serve));
    let launch = rt.block_on(admin.requests(req0))?;
    let ours = |api: &str| matches!(api, "devin" | "daytona" | "coreweave");
    let execs = launch
        .iter()
        .filter(|r| r.api == "daytona" && r.path.ends_with("/process/execute"))
        .count();
    let launch_calls = launch.iter().filter(|r| ours(r.api.as_str())).count();
    // The remote binary itself, not its checksum or the latest pointer.
    let downloads = launch
        .iter()
        .filter(|r| {
            r.api == "static"
                && r.path
                    .rsplit('/')
                    .next()
                    .is_some_and(|f| f.starts_with("devin-remote_") && !f.ends_with(".sha256"))
        })
        .count();

    // Steady state: everything served, nothing changing.
    eprintln!("== steady window of {steady}s");
    let seq0 = launch.last().map(|r| r.seq).unwrap_or(req0);
    let (cpu0, _, _) = proc_usage(pid);
    let window_start = Instant::now();
    let mut said = 0;
    while window_start.elapsed() < Duration::from_secs(steady) {
        std::thread::sleep(Duration::from_secs(1));
        let minute = window_start.elapsed().as_secs() / 60;
        if minute > said {
            said = minute;
            eprintln!("  {}s", minute * 60);
        }
    }
    let (cpu1, _, _) = proc_usage(pid);
    let window = rt.block_on(admin.requests(seq0))?;
    let mut by_route: BTreeMap<String, usize> = BTreeMap::new();
    for r in window.iter().filter(|r| ours(r.api.as_str())) {
        *by_route
            .entry(format!("{} {}", r.method, route(&r.path)))
            .or_default() += 1;
    }
    let calls: usize = by_route.values().sum();
    let per_min = calls as f64 / n as f64 / (steady as f64 / 60.0);
    let (_, hwm_held, rss_held) = proc_usage(pid);

    // The launches once more, "until served" (see `launch`), from a settled log: the emulator
    // logs a request once it has answered it, and a launch's exec may answer after its remote
    // connected. Read after the window so the figures above keep their timing.
    std::thread::sleep(Duration::from_secs(1));
    let settled = rt.block_on(admin.requests(req0))?;
    let (creates, served_warm) = launch::creates(&settled, &conn);
    let (execs_served, calls_served) = launch::until_served(&settled, &conn);
    let counted = launch::orchestrator_count(&b, n);

    // Sleep and wake.
    let mut to_stop = Vec::new();
    let mut to_wake = Vec::new();
    if sleepers > 0 {
        eprintln!("== {sleepers} sessions suspended, then resumed");
        let ids: Vec<String> = conn.keys().take(sleepers).map(|s| s.to_string()).collect();
        let suspended_at = now_ms();
        for s in &ids {
            rt.block_on(admin.suspend(s))?;
        }
        wait_for(
            "the sleepers to be released",
            Duration::from_secs(600),
            || {
                let h = rt.block_on(admin.history(None))?;
                let rel = first_at(&h, "release", 1);
                Ok(ids.iter().all(|s| rel.contains_key(s.as_str())))
            },
        )?;
        let h = rt.block_on(admin.history(None))?;
        let rel = first_at(&h, "release", 1);
        to_stop = sorted(
            ids.iter()
                .filter_map(|s| rel.get(s.as_str()))
                .map(|r| r.saturating_sub(suspended_at) as f64 / 1000.0)
                .collect(),
        );
        let stops = rt
            .block_on(admin.mutations())?
            .iter()
            .filter(|m| m.op == "stop")
            .count();
        anyhow::ensure!(
            stops >= sleepers,
            "only {stops} stops for {sleepers} sleepers"
        );
        let resumed_at = now_ms();
        for s in &ids {
            rt.block_on(admin.resume(s))?;
        }
        wait_for(
            "the sleepers to be served again",
            Duration::from_secs(600),
            || {
                let h = rt.block_on(admin.history(None))?;
                let c = first_at(&h, "connect", 2);
                Ok(ids.iter().all(|s| c.contains_key(s.as_str())))
            },
        )?;
        let h = rt.block_on(admin.history(None))?;
        let c = first_at(&h, "connect", 2);
        to_wake = sorted(
            ids.iter()
                .filter_map(|s| c.get(s.as_str()))
                .map(|x| x.saturating_sub(resumed_at) as f64 / 1000.0)
                .collect(),
        );
    }
    let (_, hwm, _) = proc_usage(pid);
    drop(orch);
    drop(emu);
    if std::env::args().any(|a| a == "--keep") {
        eprintln!("logs kept in {}", b.home.keep().display());
    }

    let mib = |k: u64| k as f64 / 1024.0;
    println!(
        "sessions                           {n} (enqueued at once; emulated Daytona, bubblewrap sandboxes)"
    );
    println!(
        "all served after                   {:.2}s",
        all_served.as_secs_f64()
    );
    // Until served: without the liveness checks of sessions served early while the burst went
    // on, which grow with the burst's length (and so with the host's load).
    println!(
        "toolbox execs per launch           {:.2} ({:.2} until served)",
        execs as f64 / n as f64,
        execs_served as f64 / n as f64
    );
    println!(
        "API calls per launch               {:.2} (Devin and Daytona; {:.2} until served)",
        launch_calls as f64 / n as f64,
        calls_served as f64 / n as f64
    );
    for (r, k) in launch::by_route(&launch, route) {
        println!("  {:<72} {:.2}/launch", r, k as f64 / n as f64);
    }
    println!(
        "remote downloads per launch        {:.2}{}",
        downloads as f64 / n as f64,
        if bake { " (baked snapshot)" } else { "" }
    );
    println!(
        "sandbox creates per launch         {:.2}",
        creates as f64 / n as f64
    );
    println!(
        "creates served warm (emulator)     {served_warm} of {creates} ({:.0}%; warm pool {warm_pool})",
        100.0 * served_warm as f64 / creates.max(1) as f64
    );
    println!(
        "creates counted warm (orchestrator) {} of {}",
        counted.0,
        counted.0 + counted.1
    );
    println!(
        "enqueue→claimed p50 / p95          {:.3}s / {:.3}s",
        percentile(&to_claim, 0.5),
        percentile(&to_claim, 0.95)
    );
    println!(
        "claimed→served p50 / p95           {:.3}s / {:.3}s",
        percentile(&to_serve, 0.5),
        percentile(&to_serve, 0.95)
    );
    println!("steady window                      {steady}s, {calls} orchestrator calls");
    println!("API calls per session per minute   {per_min:.3}");
    for (r, k) in &by_route {
        println!(
            "  {:<60} {:.3}/session/min",
            r,
            *k as f64 / n as f64 / (steady as f64 / 60.0)
        );
    }
    println!("CPU seconds in the steady window   {:.2}", cpu1 - cpu0);
    if sleepers > 0 {
        println!(
            "suspend→stopped p50 / p95          {:.3}s / {:.3}s ({sleepers} sessions)",
            percentile(&to_stop, 0.5),
            percentile(&to_stop, 0.95)
        );
        println!(
            "resume→served p50 / p95            {:.3}s / {:.3}s",
            percentile(&to_wake, 0.5),
            percentile(&to_wake, 0.95)
        );
    }
    println!(
        "orchestrator RSS idle / held      {:.1} MiB / {:.1} MiB (peak while held {:.1} MiB)",
        mib(idle.2),
        mib(rss_held),
        mib(hwm_held)
    );
    println!("orchestrator peak RSS              {:.1} MiB", mib(hwm));
    Ok(())
}
