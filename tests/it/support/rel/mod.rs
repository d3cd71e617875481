//! Reliability harness: one emulator (Devin + Daytona), N orchestrator replicas as real processes
//! on the emulated Daytona, each with its own state dir and its own Daytona API key (so the
//! mutation journal names the replica), fault scripts derived from a printed seed, failpoints,
//! argv sampling, and the invariant checker (`invariants.rs`) run at the end.
//!
//! Every failing scenario prints its name, seed, fault scripts, the checker's summary and the
//! tail of every log. Iteration counts come from `OUTPOSTS_REL_*` knobs (CI defaults are small;
//! `scripts/reliability-long.sh` raises them); figures go to stderr as `FIGURE …` lines and, when
//! `OUTPOSTS_REL_FIGURES` names a file, as JSON lines there.

#![allow(dead_code)]

mod cluster;
mod measure;
mod replica;

pub use cluster::{Cluster, ClusterOpts};
pub use measure::*;
pub use replica::Replica;

/// The snapshot every emulated Daytona has (no build step needed).
pub const SNAPSHOT: &str = "daytonaio/sandbox:0.6.0";
/// A fixture secret that must never show up anywhere.
pub const GIT_TOKEN: &str = "ghp_reliabilityFixtureToken0123456789abcdef";
/// A connect token a mangled claim answer carries (T17): never logged either.
pub const CONNECT_TOKEN_FIXTURE: &str = "ct_fixtureConnectToken0123456789abcdef0123456789";

/// Sandboxes not (being) destroyed in a world snapshot.
pub fn live_sandboxes(w: &crate::invariants::World) -> usize {
    w.sandboxes
        .iter()
        .filter(|s| !s.state.starts_with("destroy"))
        .count()
}

/// A [`Cluster::settle`] goal: every sandbox destroyed.
pub fn all_destroyed(w: &crate::invariants::World) -> Result<(), String> {
    let left = live_sandboxes(w);
    if left == 0 {
        Ok(())
    } else {
        Err(format!("{left} sandboxes left"))
    }
}

/// An iteration count: `OUTPOSTS_REL_<NAME>` or the CI default.
pub fn knob(name: &str, default: usize) -> usize {
    std::env::var(format!("OUTPOSTS_REL_{name}"))
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(default)
}

/// The seed of a scenario: `OUTPOSTS_REL_SEED` (to replay a failure) or a fresh one.
pub fn seed() -> u64 {
    std::env::var("OUTPOSTS_REL_SEED")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos() as u64 ^ std::process::id() as u64)
                .unwrap_or(1)
        })
}

/// Report a measured figure.
pub fn figure(test: &str, key: &str, value: impl std::fmt::Display) {
    eprintln!("FIGURE {test} {key} {value}");
    if let Ok(path) = std::env::var("OUTPOSTS_REL_FIGURES") {
        use std::io::Write;
        if let Ok(mut f) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
        {
            let _ = writeln!(
                f,
                "{}",
                serde_json::json!({"test": test, "key": key, "value": value.to_string()})
            );
        }
    }
}

/// p50/p99/max of some durations, in seconds, for figures.
pub fn percentiles(mut xs: Vec<f64>) -> String {
    if xs.is_empty() {
        return "n=0".into();
    }
    xs.sort_by(|a, b| a.total_cmp(b));
    let at = |p: f64| xs[((xs.len() - 1) as f64 * p).round() as usize];
    format!(
        "n={} p50={:.2}s p99={:.2}s max={:.2}s",
        xs.len(),
        at(0.5),
        at(0.99),
        xs[xs.len() - 1]
    )
}

/// Command lines of every process we can read (for the argv leak check).
pub fn sample_argv() -> Vec<String> {
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir("/proc") {
        for e in entries.flatten() {
            let name = e.file_name();
            if !name.to_string_lossy().bytes().all(|b| b.is_ascii_digit()) {
                continue;
            }
            if let Ok(raw) = std::fs::read(e.path().join("cmdline"))
                && !raw.is_empty()
            {
                let text = String::from_utf8_lossy(&raw).replace('\0', " ");
                out.push(text);
            }
        }
    }
    out
}

/// A deterministic RNG for a scenario.
pub fn rng(seed: u64) -> rand::rngs::StdRng {
    use rand::SeedableRng;
    rand::rngs::StdRng::seed_from_u64(seed)
}
