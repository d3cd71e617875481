//! Issue 35, three replicas on one queue at a CI-friendly size: 600 sessions whose sandboxes
//! are simulated by the emulator (`--sandboxes simulated`), shared by three orchestrators on
//! one outpost. Every session is served once: no session generation claimed by two replicas,
//! no remote connected twice, and each replica serves a share. `scripts/bench-fleet.sh`
//! measures the same at 30,000.

use std::time::{Duration, Instant};

use outposts::emulator::fleet_stats::FleetStats;

use crate::support::block_on;
use crate::support::rel::*;

fn fleet(c: &Cluster) -> FleetStats {
    block_on(c.emu.client().fleet(u64::MAX)).expect("fleet figures")
}

#[test]
fn three_replicas_serve_a_simulated_queue_once_each_and_share_it() {
    let n = knob("FLEET_REPLICA_SESSIONS", 600);
    let replicas = 3;
    // An even share and a quarter more (as the benchmark): room to be uneven, not to take all.
    // Eight launches at once: claims run at most 16 ahead of them (`plan::CLAIM_AHEAD`).
    let share = n.div_ceil(replicas);
    let mut c = Cluster::start(
        "fleet-replicas",
        seed(),
        ClusterOpts {
            replicas,
            cap: share + share / 4,
            emulator_args: vec!["--sandboxes".into(), "simulated".into()],
            extra_env: vec![("MAX_PARALLEL_LAUNCHES".into(), "8".into())],
            ..ClusterOpts::default()
        },
    );
    c.start_all();
    for r in &c.replicas {
        r.wait_ready();
    }
    c.new_sessions(n);
    let t0 = Instant::now();
    let mut f = fleet(&c);
    while f.served < n {
        assert!(
            t0.elapsed() < Duration::from_secs(240),
            "only {} of {n} sessions served after {:?}: {f:?}\n{}",
            f.served,
            t0.elapsed(),
            c.replicas
                .iter()
                .map(|r| r.log())
                .collect::<Vec<_>>()
                .join("\n----\n")
        );
        std::thread::sleep(Duration::from_millis(500));
        f = fleet(&c);
    }
    eprintln!(
        "{n} simulated sessions served by {replicas} replicas after {:?}: claims {:?}",
        t0.elapsed(),
        f.claims_by_acceptor
    );
    assert_eq!(
        (f.double_claims, f.double_serves),
        (0, 0),
        "double claims / serves: {f:?}"
    );
    let acceptors: Vec<String> = c
        .replicas
        .iter()
        .map(|r| r.acceptor().expect("each replica names its acceptor"))
        .collect();
    for a in &acceptors {
        let claimed = f.claims_by_acceptor.get(a).copied().unwrap_or(0);
        assert!(
            claimed > 0,
            "replica {a} claimed nothing: {:?}",
            f.claims_by_acceptor
        );
    }
    // Roughly even (issue 35): seen 1.04–1.07 with the claim-ahead and share rules, 1.44 and 1.51
    // without them (one replica claimed up to its cap).
    let (min, max) = (
        f.claims_by_acceptor.values().min().copied().unwrap_or(0),
        f.claims_by_acceptor.values().max().copied().unwrap_or(0),
    );
    assert!(
        max * 4 <= min * 5,
        "uneven split (max/min over 1.25): {:?}",
        f.claims_by_acceptor
    );
    assert_eq!(
        f.claims_by_acceptor.values().sum::<usize>(),
        n,
        "one first-generation claim per session, all by our replicas: {:?}",
        f.claims_by_acceptor
    );
    assert_eq!(f.live_remotes, Some(n), "every simulated remote still up");
    c.stop_all();
}
