//! Nothing outlives its owner by accident (issue 21): the sandbox processes an emulator started
//! end with it — by itself on SIGTERM, promptly; and when it was SIGKILLed, by the test's
//! teardown. Processes are counted by the sandbox ids under this test's own emulator data dir,
//! so tests running in parallel never disturb the count.

use std::time::{Duration, Instant};

use crate::support::rel::*;

/// An emulator with served sessions (bubblewrap sandboxes, remotes running), orchestrator
/// stopped: the sandbox processes that are left belong to the emulator alone.
fn busy_cluster(name: &str) -> Cluster {
    let mut c = Cluster::start(name, seed(), ClusterOpts::default());
    c.start_all();
    let ids = c.new_sessions(3);
    let ok = time_until(Duration::from_secs(60), || {
        let s = served(&c);
        ids.iter().all(|i| s.contains(i))
    });
    assert!(
        ok.is_some(),
        "sessions never served\n{}",
        c.replicas[0].log()
    );
    c.stop_all();
    c
}

#[test]
fn an_emulator_ends_its_sandbox_processes_when_it_exits_on_a_signal() {
    crate::support::host::require!(crate::support::host::BWRAP);
    let mut c = busy_cluster("LEAK-term");
    let before = c.emu.sandbox_processes().len();
    assert!(before >= 3, "the sandboxes run processes: {before}");
    let t0 = Instant::now();
    c.emu.signal(libc::SIGTERM);
    assert!(
        c.emu.wait_exit(Duration::from_secs(10)),
        "the emulator exits"
    );
    let took = t0.elapsed();
    let left = c.emu.sandbox_processes();
    figure("LEAK-term", "sandbox_processes_before", before);
    figure("LEAK-term", "exit_s", format!("{:.2}", took.as_secs_f64()));
    assert!(
        left.is_empty(),
        "{} sandbox processes outlived the emulator: {left:?}",
        left.len()
    );
}

#[test]
fn a_killed_emulators_sandbox_processes_end_with_the_test() {
    crate::support::host::require!(crate::support::host::BWRAP);
    let mut c = busy_cluster("LEAK-kill");
    let root = c.emu.data_dir().join("sandboxes");
    c.emu.signal(libc::SIGKILL);
    std::thread::sleep(Duration::from_millis(300));
    // SIGKILL leaves the emulator no chance: its sandboxes still run...
    let orphaned = outposts::provider::local::processes_under_root(&root).len();
    assert!(orphaned >= 3, "orphaned sandbox processes: {orphaned}");
    // ...until the test's teardown ends them.
    drop(c);
    let left = outposts::provider::local::processes_under_root(&root);
    figure("LEAK-kill", "orphaned_then_ended", orphaned);
    assert!(left.is_empty(), "left behind: {left:?}");
}
