//! T1 (crash at every step), T5 (restart re-attach), T6 (state dir lost or corrupted), T15
//! (graceful shutdown): real orchestrator processes on the emulated Daytona, SIGKILLed at
//! failpoints or signalled, restarted on the same state dir, checked against I1–I8.

use std::os::unix::process::ExitStatusExt;
use std::time::{Duration, Instant};

use outposts::emulator::devin::NewSession;
use outposts::orchestrator::{sandbox_labels, sandbox_name};

use crate::invariants::Quiesce;
use crate::support::block_on;
use crate::support::rel::*;

const WAIT: Duration = Duration::from_secs(60);

/// What sets a failpoint off, and what "recovered" means afterwards.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Trigger {
    /// A new session: recovered when it is served.
    NewSession,
    /// Suspend a served session: recovered when its sandbox is stopped and the claim released.
    Suspend,
    /// Terminate a served session: recovered when its sandbox is gone.
    Terminate,
    /// An orphan for the janitor (terminated session, our labels): recovered when deleted or
    /// stopped.
    Orphan,
}

#[derive(Clone, Copy)]
struct Point {
    name: &'static str,
    spec: &'static str,
    trigger: Trigger,
    /// Emulator fault that keeps the request in flight when the kill lands.
    fault: Option<&'static str>,
    /// Proof, read right after the kill, that it landed where it should (between what).
    landed: fn(&Cluster, &str) -> bool,
}

fn anywhere(_: &Cluster, _: &str) -> bool {
    true
}

fn ops_on(c: &Cluster, session: &str) -> Vec<String> {
    block_on(c.emu.client().mutations())
        .expect("mutations")
        .into_iter()
        .filter(|m| m.name == sandbox_name(session) || m.name.contains(&sandbox_name(session)))
        .map(|m| m.op)
        .collect()
}

fn events_of(c: &Cluster, session: &str) -> Vec<String> {
    block_on(c.emu.client().history(Some(session)))
        .expect("history")
        .into_iter()
        .map(|h| h.event)
        .collect()
}

/// Not claimed yet: the claim POST never went out.
fn unclaimed(c: &Cluster, s: &str) -> bool {
    !events_of(c, s).contains(&"claim".to_string())
}

/// Claimed on the server, nothing created.
fn claimed_no_sandbox(c: &Cluster, s: &str) -> bool {
    events_of(c, s).contains(&"claim".to_string()) && ops_on(c, s).is_empty()
}

/// Created on the provider, the remote never connected.
fn created_not_connected(c: &Cluster, s: &str) -> bool {
    ops_on(c, s) == ["create"] && !events_of(c, s).contains(&"connect".to_string())
}

/// The stop committed, the claim still held (not released).
fn stopped_not_released(c: &Cluster, s: &str) -> bool {
    ops_on(c, s).contains(&"stop".into()) && c.session(s).phase == "claimed"
}

/// The delete committed, the claim still held (not released).
fn deleted_not_released(c: &Cluster, s: &str) -> bool {
    ops_on(c, s).contains(&"delete".into()) && c.session(s).phase == "claimed"
}

/// Deleted and released on the server (the release answer was lost).
fn released_after_delete(c: &Cluster, s: &str) -> bool {
    ops_on(c, s).contains(&"delete".into()) && events_of(c, s).contains(&"release".to_string())
}

const POINTS: &[Point] = &[
    Point {
        name: "claim.before_post",
        spec: "claim.before_post=kill",
        trigger: Trigger::NewSession,
        fault: None,
        landed: unclaimed,
    },
    Point {
        name: "claim.after_response",
        spec: "claim.after_response=kill",
        trigger: Trigger::NewSession,
        fault: None,
        landed: claimed_no_sandbox,
    },
    Point {
        name: "provision.before_create",
        spec: "provision.before_create=kill",
        trigger: Trigger::NewSession,
        fault: None,
        landed: claimed_no_sandbox,
    },
    Point {
        name: "create.in_flight",
        spec: "provision.before_create=kill_after:300",
        trigger: Trigger::NewSession,
        fault: Some(
            r#"{"method":"POST","path":"/daytona/api/sandbox$","times":0,"action":{"kind":"commit_then_delay","ms":1500}}"#,
        ),
        landed: created_not_connected,
    },
    Point {
        name: "provision.after_create",
        spec: "provision.after_create=kill",
        trigger: Trigger::NewSession,
        fault: None,
        landed: created_not_connected,
    },
    Point {
        name: "provision.after_launch",
        spec: "provision.after_launch=kill",
        trigger: Trigger::NewSession,
        fault: None,
        landed: anywhere,
    },
    Point {
        name: "release.in_flight",
        spec: "release.before_post=kill_after:200",
        trigger: Trigger::Terminate,
        fault: Some(
            r#"{"method":"POST","path":"/opbeta/outposts/devins/*/release$","times":0,"action":{"kind":"commit_then_delay","ms":1500}}"#,
        ),
        landed: released_after_delete,
    },
    Point {
        name: "stop.in_flight",
        spec: "stop.before=kill_after:150",
        trigger: Trigger::Suspend,
        fault: Some(
            r#"{"method":"POST","path":"/daytona/api/sandbox/*/stop$","times":0,"action":{"kind":"commit_then_delay","ms":1500}}"#,
        ),
        landed: stopped_not_released,
    },
    Point {
        name: "delete.in_flight",
        spec: "delete.before=kill_after:150",
        trigger: Trigger::Terminate,
        fault: Some(
            r#"{"method":"DELETE","path":"/daytona/api/sandbox/","times":0,"action":{"kind":"commit_then_delay","ms":1500}}"#,
        ),
        landed: deleted_not_released,
    },
    Point {
        name: "state.before_rename",
        spec: "state.before_rename=kill",
        trigger: Trigger::NewSession,
        fault: None,
        landed: anywhere,
    },
    Point {
        name: "janitor.before_act",
        spec: "janitor.before_act=kill",
        trigger: Trigger::Orphan,
        fault: None,
        landed: anywhere,
    },
];

fn serve_one(c: &Cluster) -> String {
    let id = c.new_sessions(1).remove(0);
    let ok = time_until(WAIT, || served(c).contains(&id));
    assert!(ok.is_some(), "{}: session {id} was never served", c.name);
    id
}

fn sandbox_gone(c: &Cluster, session: &str) -> bool {
    !c.sandboxes()
        .iter()
        .any(|s| s.name == sandbox_name(session) && !s.state.starts_with("destroy"))
}

fn sandbox_state(c: &Cluster, session: &str) -> Option<String> {
    c.sandboxes()
        .into_iter()
        .find(|s| s.name == sandbox_name(session))
        .map(|s| s.state)
}

/// Kill at one failpoint `kills` times; after each kill restart clean and time the recovery of
/// the affected session. Returns (kills landed, recovery times).
fn crash_at(c: &mut Cluster, p: &Point, kills: usize) -> (usize, Vec<f64>) {
    let mut landed = 0;
    let mut recoveries = Vec::new();
    if let Some(f) = p.fault {
        c.faults(f);
    }
    for i in 0..kills {
        // Prepare the session the trigger acts on while disarmed.
        let target = match p.trigger {
            Trigger::NewSession => None,
            Trigger::Suspend | Trigger::Terminate => Some(serve_one(c)),
            Trigger::Orphan => {
                // Enqueued terminated: the orchestrator can never claim it first.
                let sid = block_on(c.emu.client().new_sessions(&NewSession {
                    status: Some("terminated".into()),
                    ..NewSession::default()
                }))
                .expect("enqueue")[0]
                    .session_id
                    .clone();
                let mut spec = outposts::provider::SandboxSpec::new(
                    sandbox_name(&sid),
                    outposts::provider::Source::Snapshot(SNAPSHOT.into()),
                );
                spec.labels = sandbox_labels(&sid, &c.outpost);
                let p = crate::support::daytona::provider(&c.emu);
                block_on(outposts::provider::Provider::create(&p, &spec)).expect("orphan");
                c.planted.insert(sandbox_name(&sid));
                Some(sid)
            }
        };
        c.replicas[0].arm(p.spec);
        let target = match (p.trigger, target) {
            (Trigger::NewSession, _) => c.new_sessions(1).remove(0),
            (Trigger::Suspend, Some(s)) => {
                block_on(c.emu.client().suspend(&s)).expect("suspend");
                s
            }
            (Trigger::Terminate, Some(s)) => {
                block_on(c.emu.client().terminate(&s)).expect("terminate");
                s
            }
            (_, Some(s)) => s,
            (_, None) => unreachable!(),
        };
        let status = c.replicas[0].wait_exit(WAIT);
        let killed = status.is_some_and(|s| s.signal() == Some(9));
        assert!(
            killed,
            "{} iteration {i}: the failpoint never fired ({status:?})\n{}",
            p.name,
            c.replicas[0].log()
        );
        assert!(
            (p.landed)(c, &target),
            "{} iteration {i}: the kill did not land where intended (ops {:?}, events {:?})\n{}",
            p.name,
            ops_on(c, &target),
            events_of(c, &target),
            c.replicas[0].log()
        );
        landed += 1;
        c.replicas[0].disarm();
        let t0 = Instant::now();
        c.replicas[0].start();
        let recovered = time_until(WAIT, || match p.trigger {
            Trigger::NewSession => served(c).contains(&target),
            Trigger::Suspend => {
                sandbox_state(c, &target).as_deref() == Some("stopped")
                    && c.session(&target).phase != "claimed"
            }
            Trigger::Terminate => sandbox_gone(c, &target) && c.session(&target).phase != "claimed",
            // Deleted when the janitor saw `terminated`, stopped when the row was swept first
            // (absent is never proof of termination).
            Trigger::Orphan => {
                sandbox_gone(c, &target) || sandbox_state(c, &target).as_deref() == Some("stopped")
            }
        });
        let took = recovered.unwrap_or_else(|| {
            panic!(
                "{} iteration {i}: session {target} did not recover within {WAIT:?}\n{}",
                p.name,
                c.replicas[0].log()
            )
        });
        recoveries.push(t0.elapsed().as_secs_f64().max(took.as_secs_f64()));
        // Free the capacity again: end the session the iteration created.
        if p.trigger == Trigger::NewSession {
            block_on(c.emu.client().terminate(&target)).expect("terminate");
            let gone = time_until(WAIT, || sandbox_gone(c, &target));
            assert!(gone.is_some(), "{}: {target} never deleted", p.name);
        }
    }
    c.clear_faults();
    (landed, recoveries)
}

fn t1(points: &[&str], name: &str) {
    t1_with(points, name, "binary", knob("T1_KILLS", 10));
}

fn t1_with(points: &[&str], name: &str, form: &str, kills: usize) {
    let seed = seed();
    let mut c = Cluster::start(
        name,
        seed,
        ClusterOpts {
            cap: 4,
            janitor_grace: "1",
            emulator_args: vec!["--remote-form".into(), form.into()],
            ..ClusterOpts::default()
        },
    );
    c.start_all();
    // A session that stays up the whole time: no crash may disturb it.
    let steady = serve_one(&c);
    let steady_sb = sandbox_state(&c, &steady);
    let mut total = 0;
    for p in POINTS.iter().filter(|p| points.contains(&p.name)) {
        let (landed, rec) = crash_at(&mut c, p, kills);
        total += landed;
        figure(name, &format!("{}.kills", p.name), landed);
        figure(name, &format!("{}.recovery", p.name), percentiles(rec));
    }
    let w = c.settle(WAIT, all_served(std::slice::from_ref(&steady)));
    assert_eq!(sandbox_state(&c, &steady), steady_sb);
    // The steady session's sandbox was created once and never touched again.
    let touched: Vec<_> = w
        .mutations
        .iter()
        .filter(|m| m.name == sandbox_name(&steady))
        .map(|m| m.op.clone())
        .collect();
    assert_eq!(
        touched,
        vec!["create".to_string()],
        "{}",
        c.replicas[0].all_logs()
    );
    c.assert_one_remote_per_generation(&w);
    c.stop_all();
    let w = c.world();
    c.assert_invariants(&w, Quiesce::Yes);
    figure(name, "kills", total);
}

#[test]
fn t1_crash_during_claim_and_create() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    t1(
        &[
            "claim.before_post",
            "claim.after_response",
            "provision.before_create",
            "create.in_flight",
            "provision.after_create",
            "state.before_rename",
        ],
        "T1a",
    );
}

#[test]
fn t1_crash_during_launch_stop_delete_release_and_janitor() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    t1(
        &[
            "provision.after_launch",
            "release.in_flight",
            "stop.in_flight",
            "delete.in_flight",
            "janitor.before_act",
        ],
        "T1b",
    );
}

/// T1 at the launch and sleep steps with the emulator's remote as a shell script.
#[test]
fn t1_crash_around_launch_with_a_script_remote() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    t1_with(
        &[
            "provision.after_launch",
            "release.in_flight",
            "stop.in_flight",
        ],
        "T1-script",
        "script",
        knob("T1_SCRIPT_KILLS", 4),
    );
}
