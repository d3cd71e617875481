//! Benchmark (not a test): what the sleep-integrity proof costs a wake. One session on the
//! local provider (the emulator's Devin API, bubblewrap sandboxes) writes a tree of `--files`
//! files, then sleeps and wakes `--cycles` times; resume→served (the remote's reconnect) is
//! measured for each wake, with `INTEGRITY_CHECK=on` and `off` alternating cycle by cycle so a
//! load change on a shared host spreads over both.
//!
//!     cargo bench --bench wake_integrity -- --files 1000 --cycles 10
//!     cargo bench --bench wake_integrity -- --files 20000 --cycles 10
//!
//! Each setting runs its own orchestrator (restarted between cycles, state kept), so a wake
//! checked is never one whose sleep went unrecorded.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use outposts::api::{HttpClient, HttpOptions};
use outposts::emulator::client::EmulatorClient;
use outposts::emulator::devin::NewSession;

const BIN: &str = env!("CARGO_BIN_EXE_outposts");

fn arg(name: &str, default: u64) -> u64 {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A child SIGTERMed (then killed) when dropped.
struct Proc(Child);

impl Drop for Proc {
    fn drop(&mut self) {
        unsafe { libc::kill(self.0.id() as i32, libc::SIGTERM) };
        for _ in 0..100 {
            if let Ok(Some(_)) = self.0.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn wait_for(what: &str, mut done: impl FnMut() -> anyhow::Result<bool>) -> anyhow::Result<()> {
    let start = Instant::now();
    while !done()? {
        anyhow::ensure!(
            start.elapsed() < Duration::from_secs(300),
            "gave up waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    Ok(())
}

fn main() -> anyhow::Result<()> {
    let files = arg("--files", 1000);
    let cycles = arg("--cycles", 10);
    let rt = tokio::runtime::Runtime::new()?;
    let home = tempfile::Builder::new()
        .prefix("outposts-bench-")
        .tempdir()?;
    let h = home.path().to_string_lossy().into_owned();
    let mut vars: BTreeMap<String, String> = [
        ("HOME", h.clone()),
        ("XDG_CONFIG_HOME", format!("{h}/.config")),
        ("XDG_STATE_HOME", format!("{h}/.local/state")),
        ("XDG_CACHE_HOME", format!("{h}/.cache")),
        ("STATE_DIR", format!("{h}/state")),
        ("OUTPOSTS_LOCAL_ROOT", format!("{h}/sandboxes")),
        (
            "PATH",
            std::env::var("PATH").unwrap_or_else(|_| "/usr/bin:/bin".into()),
        ),
        ("NO_COLOR", "1".into()),
        ("OUTPOSTS_NO_KEYRING", "1".into()),
        ("RECONCILE_INTERVAL", "1".into()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    if let Ok(v) = std::env::var("OUTPOSTS_LOCAL_UNISOLATED") {
        vars.insert("OUTPOSTS_LOCAL_UNISOLATED".into(), v);
    }
    let cmd = |vars: &BTreeMap<String, String>, args: &[&str]| {
        let mut c = Command::new(BIN);
        c.args(args)
            .env_clear()
            .envs(vars)
            .current_dir(home.path())
            .stdin(Stdio::null());
        c
    };

    let mut emu = cmd(&vars, &["emulator", "start", "--port", "0", "--json"])
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(home.path().join("emulator.log"))?)
        .spawn()?;
    let mut line = String::new();
    BufReader::new(
        emu.stdout
            .take()
            .ok_or_else(|| anyhow::anyhow!("no stdout"))?,
    )
    .read_line(&mut line)?;
    let _emu = Proc(emu);
    let ready: serde_json::Value = serde_json::from_str(line.trim())?;
    let base = ready["base_url"].as_str().unwrap_or_default().to_string();
    let admin = EmulatorClient::new(HttpClient::new(HttpOptions::default())?, &base);
    for (k, v) in rt.block_on(admin.info())?.env {
        vars.insert(k, v);
    }

    let orch = |on: bool| -> anyhow::Result<Proc> {
        let mut v = vars.clone();
        v.insert(
            "INTEGRITY_CHECK".into(),
            if on { "on" } else { "off" }.into(),
        );
        let log: PathBuf = home.path().join(format!("orchestrator-{on}.log"));
        let p = cmd(&v, &["-v", "orchestrator", "run", "--provider", "local"])
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log)?)
            .spawn()?;
        wait_for("the orchestrator to start", || {
            Ok(std::fs::read_to_string(&log)
                .unwrap_or_default()
                .contains("Ctrl-C to stop"))
        })?;
        Ok(Proc(p))
    };

    let task = format!(
        "sh: mkdir -p tree && cd tree && seq -f f%g 1 {files} | xargs -n 500 sh -c \
         'for f; do echo \"$f\" > \"$f\"; done' sh"
    );
    let mut generation = 1u32;
    let connected = |s: &str, g: u32| -> anyhow::Result<Option<u64>> {
        Ok(rt
            .block_on(admin.history(Some(s)))?
            .iter()
            .find(|r| r.event == "connect" && r.generation == g)
            .map(|r| r.at_ms))
    };
    let mut p = Some(orch(true)?);
    let s = rt
        .block_on(admin.new_sessions(&NewSession {
            task: Some(task),
            ..NewSession::default()
        }))?
        .first()
        .map(|i| i.session_id.clone())
        .ok_or_else(|| anyhow::anyhow!("no session"))?;
    wait_for("the first serve", || Ok(connected(&s, 1)?.is_some()))?;
    wait_for("the tree", || {
        Ok(rt
            .block_on(admin.session(&s))?
            .is_some_and(|i| !i.tasks.is_empty() && i.tasks.iter().all(|t| t.status == "done")))
    })?;
    let mut times: BTreeMap<bool, Vec<f64>> = BTreeMap::new();
    for c in 0..cycles * 2 {
        let on = c % 2 == 0;
        // The orchestrator of this cycle's setting serves the sleep and the wake.
        drop(p.take());
        p = Some(orch(on)?);
        rt.block_on(admin.suspend(&s))?;
        let releases = |s: &str| -> anyhow::Result<usize> {
            Ok(rt
                .block_on(admin.history(Some(s)))?
                .iter()
                .filter(|r| r.event == "release")
                .count())
        };
        let before = c as usize + 1;
        wait_for("the sleep", || Ok(releases(&s)? >= before))?;
        generation += 1;
        let resumed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)?
            .as_secs_f64();
        rt.block_on(admin.resume(&s))?;
        wait_for("the wake", || Ok(connected(&s, generation)?.is_some()))?;
        let at = connected(&s, generation)?.unwrap_or(0) as f64 / 1000.0;
        times.entry(on).or_default().push(at - resumed);
    }
    // End the session so the orchestrator deletes its sandbox: stopping the orchestrator keeps
    // a served session's sandbox (a hand-over needs it), and its processes would outlive the
    // temporary directory they run in.
    rt.block_on(admin.terminate(&s))?;
    let sandboxes = home.path().join("sandboxes");
    wait_for("the sandbox deleted", || {
        Ok(std::fs::read_dir(&sandboxes)?
            .flatten()
            .all(|e| e.file_name().to_string_lossy().starts_with('.')))
    })?;
    drop(p);
    println!("files in the tree                      {files}");
    for (on, mut t) in times {
        t.sort_by(|a, b| a.total_cmp(b));
        let p50 = t[(t.len() - 1) / 2];
        println!(
            "resume→served p50 ({:<3})             {p50:.3}s over {} wakes (min {:.3}s, max {:.3}s)",
            if on { "on" } else { "off" },
            t.len(),
            t[0],
            t[t.len() - 1]
        );
    }
    Ok(())
}
