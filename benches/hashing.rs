//! Benchmark (not a test): the content hashing behind names.
//!
//! - `snapshot name`: sha256 of the image definition → `devin-outposts-default-<sha8>`, for the
//!   embedded Dockerfile, the Windows provisioner and larger definitions (throughput in MiB/s);
//! - sandbox names: `devin-<readable id>-<sha256(id)[:24]>`, one per session (names/s).
//!
//!     cargo bench --bench hashing [-- --seconds 2]

use std::hint::black_box;
use std::time::{Duration, Instant};

use outposts::orchestrator::sandbox_name;
use outposts::provider::daytona::snapshot::{
    DEFAULT_DOCKERFILE, Platform, WINDOWS_PROVISIONER, derived_name,
};

fn seconds() -> f64 {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == "--seconds")
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(2.0)
}

/// Call `f` repeatedly for about `budget`; calls per second.
fn rate(budget: Duration, mut f: impl FnMut(u64)) -> (u64, f64) {
    // Warm up (page in, settle the CPU frequency).
    for i in 0..64 {
        f(i);
    }
    let start = Instant::now();
    let mut n = 0u64;
    while start.elapsed() < budget {
        for _ in 0..64 {
            f(n);
            n += 1;
        }
    }
    (n, n as f64 / start.elapsed().as_secs_f64())
}

fn main() {
    let budget = Duration::from_secs_f64(seconds());
    println!("snapshot name hashing (sha256 of the image definition), {budget:?} per case");
    let cases: Vec<(&str, Vec<u8>, Platform)> = vec![
        (
            "embedded Dockerfile",
            DEFAULT_DOCKERFILE.to_vec(),
            Platform::Linux,
        ),
        (
            "Windows provisioner",
            WINDOWS_PROVISIONER.to_vec(),
            Platform::Windows,
        ),
        ("64 KiB definition", vec![b'x'; 64 * 1024], Platform::Linux),
        (
            "16 MiB definition",
            vec![b'x'; 16 * 1024 * 1024],
            Platform::Linux,
        ),
    ];
    for (what, bytes, platform) in &cases {
        let (_, per_s) = rate(budget, |_| {
            black_box(derived_name(*platform, black_box(bytes)));
        });
        let mib_s = per_s * bytes.len() as f64 / (1024.0 * 1024.0);
        println!(
            "  {what:<22} {:>9} B  {per_s:>12.0} names/s  {mib_s:>8.1} MiB/s",
            bytes.len()
        );
    }
    let ids: Vec<String> = (0..4096).map(|i| format!("devin-{i:032x}")).collect();
    let (_, per_s) = rate(budget, |i| {
        black_box(sandbox_name(black_box(&ids[(i % 4096) as usize])));
    });
    println!("sandbox names (sha256 of the session id)  {per_s:>12.0} names/s");
}
