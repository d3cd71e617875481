//! The benchmark's child processes: killed when dropped, and measured from `/proc`.

use std::process::Child;
use std::time::Duration;

/// A child that is SIGTERMed, then killed, when dropped; with a sandbox root, whatever sandbox
/// process under it outlived the child is killed too (the benchmark leaves nothing running).
pub struct Proc(pub Child, pub Option<std::path::PathBuf>);

impl Drop for Proc {
    fn drop(&mut self) {
        unsafe { libc::kill(self.0.id() as i32, libc::SIGTERM) };
        let mut ended = false;
        for _ in 0..100 {
            if let Ok(Some(_)) = self.0.try_wait() {
                ended = true;
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        if !ended {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
        if let Some(root) = &self.1 {
            let left = outposts::provider::local::processes_under_root(root).len();
            outposts::provider::local::kill_under_root(root, Duration::from_secs(10));
            eprintln!("sandbox processes left running after the emulator exited: {left}");
        }
    }
}

/// The orchestrator's own figures from /proc: (CPU seconds, peak RSS KiB, current RSS KiB).
pub fn proc_usage(pid: u32) -> (f64, u64, u64) {
    let tick = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64;
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields after the parenthesised command: utime and stime are the 12th and 13th.
    let rest = stat.rsplit_once(')').map(|x| x.1).unwrap_or("");
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    let cpu = (ticks(11) + ticks(12)) / tick;
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let kib = |key: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(key))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or(0)
    };
    (cpu, kib("VmHWM:"), kib("VmRSS:"))
}
