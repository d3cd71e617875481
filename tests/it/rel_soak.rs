//! T19-style soak (long runs only: `scripts/reliability-long.sh`, `OUTPOSTS_REL_SOAK_SECS`):
//! two replicas under session churn of about one per second, 1% 5xx and 0.5% 429 on the queue,
//! watch streams cut, Daytona lists lagging 2 s, and a SIGKILL of one replica every few
//! minutes. The other replica is never killed: its memory and open files are sampled for drift.
//! At the end: I1–I8 after quiesce, no leaked sandbox.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use rand::Rng;

use crate::invariants::Quiesce;
use crate::support::block_on;
use crate::support::rel::*;

fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
}

fn fds(pid: u32) -> Option<usize> {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .ok()
        .map(|d| d.count())
}

#[test]
#[ignore = "long: run by scripts/reliability-long.sh (OUTPOSTS_REL_SOAK_SECS, default 300)"]
fn soak() {
    let secs = knob("SOAK_SECS", 300) as u64;
    let kill_every = Duration::from_secs((secs / 12).clamp(30, 300));
    let seed = seed();
    let mut opts = ClusterOpts {
        replicas: 2,
        cap: 8,
        janitor_grace: "10",
        ..ClusterOpts::default()
    };
    opts.settings.list_lag_ms = 2000;
    let mut c = Cluster::start("soak", seed, opts);
    c.start_all();
    c.faults(
        r#"[
        {"path":"/opbeta/outposts/devins","query":"first=","times":0,"rate":0.01,"action":{"kind":"status","status":503}},
        {"method":"GET","path":"/opbeta/outposts/devins/","times":0,"rate":0.01,"action":{"kind":"status","status":500}},
        {"method":"POST","path":"/opbeta/outposts/devins/*/claim$","times":0,"rate":0.01,"action":{"kind":"commit_then_status","status":502}},
        {"path":"/opbeta/outposts/devins","times":0,"rate":0.005,"action":{"kind":"status","status":429,"headers":{"Retry-After":"1"}}},
        {"method":"GET","path":"/opbeta/outposts/devins$","query":"watch=true","times":0,"rate":0.3,"action":{"kind":"cut_stream","bytes":2000}},
        {"method":"POST","path":"/daytona/api/sandbox$","times":0,"rate":0.01,"action":{"kind":"commit_then_drop"}}
    ]"#,
    );
    let mut rng = rng(seed);
    let start = Instant::now();
    let deadline = start + Duration::from_secs(secs);
    let mut last_kill = Instant::now();
    let mut kills = 0;
    let mut created = 0usize;
    let mut suspended: Vec<(String, Instant)> = Vec::new();
    let mut samples: Vec<(f64, u64, usize)> = Vec::new();
    let mut last_sample = Instant::now() - Duration::from_secs(60);
    let mut ops: BTreeMap<&str, usize> = BTreeMap::new();
    while Instant::now() < deadline {
        let sessions = c.sessions();
        let live = sessions
            .iter()
            .filter(|s| s.in_queue && matches!(s.session_status.as_str(), "pending" | "running"))
            .count();
        if live < 2 * c.cap {
            c.new_sessions(1);
            created += 1;
        }
        for s in sessions
            .iter()
            .filter(|s| s.phase == "claimed" && s.remote_connected && s.session_status == "running")
        {
            match rng.gen_range(0..100) {
                0..=3 => {
                    block_on(c.emu.client().terminate(&s.session_id)).ok();
                    *ops.entry("terminate").or_default() += 1;
                }
                4..=5 if block_on(c.emu.client().suspend(&s.session_id)).is_ok() => {
                    suspended.push((s.session_id.clone(), Instant::now()));
                    *ops.entry("suspend").or_default() += 1;
                }
                6 => {
                    block_on(
                        c.emu
                            .client()
                            .blip(&s.session_id, Duration::from_millis(800)),
                    )
                    .ok();
                    *ops.entry("blip").or_default() += 1;
                }
                _ => {}
            }
        }
        // Wake sleepers after a while, or end them for good.
        let now = Instant::now();
        suspended.retain(|(id, at)| {
            if now.duration_since(*at) < Duration::from_secs(20) {
                return true;
            }
            if rng.gen_bool(0.5) {
                block_on(c.emu.client().resume(id)).ok();
                *ops.entry("resume").or_default() += 1;
            } else {
                block_on(c.emu.client().terminate(id)).ok();
                *ops.entry("terminate_sleeping").or_default() += 1;
            }
            false
        });
        if last_kill.elapsed() >= kill_every {
            c.replicas[1].kill();
            c.replicas[1].start();
            kills += 1;
            last_kill = Instant::now();
        }
        if last_sample.elapsed() >= Duration::from_secs(30)
            && let Some(o) = c.replicas[0].orch.as_ref()
        {
            let pid = o.child.id();
            if let (Some(r), Some(f)) = (rss_kib(pid), fds(pid)) {
                samples.push((start.elapsed().as_secs_f64(), r, f));
            }
            last_sample = Instant::now();
        }
        assert!(c.replicas[0].running(), "the never-killed replica exited");
        std::thread::sleep(Duration::from_millis(1000));
    }
    // Wind down: end everything, then everything must be cleaned up.
    for s in c.sessions() {
        if s.session_status != "terminated" {
            block_on(c.emu.client().terminate(&s.session_id)).ok();
        }
    }
    let w = c.settle(Duration::from_secs(180), |w| {
        let left = live_sandboxes(w);
        let held = w.sessions.iter().filter(|s| s.phase == "claimed").count();
        if left == 0 && held == 0 {
            Ok(())
        } else {
            Err(format!("{left} sandboxes, {held} claims left"))
        }
    });
    let leaked = live_sandboxes(&w);
    c.stop_all();
    let w2 = c.world();
    c.assert_invariants(&w2, Quiesce::Yes);
    assert_eq!(leaked, 0, "sandboxes leaked");
    // Drift of the never-killed replica: first sample after a minute vs the last.
    let base = samples
        .iter()
        .find(|s| s.0 >= 60.0)
        .or(samples.first())
        .copied();
    let last = samples.last().copied();
    if let (Some(b), Some(l)) = (base, last) {
        figure(
            "soak",
            "rss_kib_first_minute_to_end",
            format!(
                "{} -> {} ({:+.1}%)",
                b.1,
                l.1,
                (l.1 as f64 - b.1 as f64) / b.1 as f64 * 100.0
            ),
        );
        figure(
            "soak",
            "open_fds_first_minute_to_end",
            format!("{} -> {}", b.2, l.2),
        );
    }
    figure("soak", "seconds", secs);
    figure("soak", "sessions_created", created);
    figure("soak", "lifecycle_ops", format!("{ops:?}"));
    figure("soak", "sigkills", kills);
    figure("soak", "faults_fired", format!("{:?}", faults_fired(&w2)));
    figure("soak", "leaked_sandboxes", leaked);
    figure(
        "soak",
        "enqueue_to_running",
        percentiles(enqueue_to_running(&w2)),
    );
    figure("soak", "summary", crate::invariants::summary(&w2));
}
