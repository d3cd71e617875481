//! Simulated sandboxes (`emulator start --sandboxes simulated`): Daytona and CoreWeave
//! sandboxes exist only as the emulator's records — same API answers and state machine — and
//! nothing runs per sandbox. What runs *inside* a sandbox is simulated here:
//!
//! - the launch of `devin-remote` (the exec whose environment carries the documented spawn
//!   variables `DEVIN_OUTPOST_GATEWAY_URL`, `DEVIN_OUTPOST_SESSION_ID` and a connect token, specs
//!   §8) starts a simulated remote, which connects to the fleet gateway at once (marking the
//!   session running) and answers the orchestrator's launch line;
//! - the liveness check and the log tail (the other execs naming a session's run directory)
//!   answer from that remote's record: `running <pid>`, `exited <code>` or `absent`;
//! - every simulated remote long-polls the gateway through one shared loop ([`run_gateway`]):
//!   when Devin ends the session it exits 0, when the gateway refuses its token it exits 1 (as
//!   the fake remote does); file-writing tasks are kept in memory, shell tasks fail (no shell);
//! - stopping or deleting a sandbox ends its remotes without an exit code (a killed process);
//! - any other command succeeds silently without running (setup steps such as seeding a home
//!   or probing for a clone find an image that already has what they look for).
//!
//! The answers follow the output lines of the orchestrator's launch and check scripts (the one
//! contract between a sandbox and the orchestrator that no API spec covers). Configurable
//! `delay`: how long each exec and each lifecycle step (create, start, stop) takes.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Mutex, Weak};
use std::time::Duration;

use crate::emulator::Shared;
use crate::emulator::devin::SimPoll;
use crate::provider::ExecOutput;

/// How simulated sandboxes behave.
#[derive(Debug, Clone, Default)]
pub struct SimOptions {
    /// Added to every exec and every create/start/stop of a simulated sandbox.
    pub delay: Duration,
}

/// How often the shared gateway loop looks at every live remote when nothing changed (a change
/// in the queue wakes it sooner).
const TICK: Duration = Duration::from_secs(1);
/// Least time between two passes: a burst of queue changes costs one pass per this long.
const MIN_GAP: Duration = Duration::from_millis(200);
/// And at least this many times the last pass took: a pass holds the queue's lock over every
/// live remote, so at tens of thousands fixed gaps would take much of the lock's time from the
/// claims and lists the orchestrators wait on.
const GAP_PER_PASS: u32 = 4;

#[derive(Debug, Clone, PartialEq, Eq)]
enum RState {
    Live,
    Exited(i32),
}

#[derive(Debug)]
struct Remote {
    pid: u32,
    session: String,
    token: String,
    state: RState,
    log: Vec<String>,
}

#[derive(Default)]
struct State {
    /// By (sandbox id, the launch's OUTPOSTS_SAFE_ID).
    remotes: HashMap<(String, String), Remote>,
    /// Sandboxes that downloaded the remote once (later launches find it cached).
    cached: HashSet<String>,
    /// Files written by tasks, by (sandbox id, path).
    files: HashMap<(String, String), Vec<u8>>,
    next_pid: u32,
}

/// The simulated insides of every sandbox.
pub struct Sim {
    opts: SimOptions,
    state: Mutex<State>,
}

fn out(code: i32, stdout: impl Into<String>) -> ExecOutput {
    ExecOutput {
        exit_code: code,
        stdout: stdout.into(),
        stderr: String::new(),
    }
}

impl Sim {
    pub fn new(opts: SimOptions) -> Sim {
        Sim {
            opts,
            state: Mutex::new(State {
                next_pid: 1000,
                ..State::default()
            }),
        }
    }

    pub fn delay(&self) -> Duration {
        self.opts.delay
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// One exec in simulated sandbox `sandbox` (see the module docs for what it answers).
    pub async fn exec(
        &self,
        shared: &Shared,
        sandbox: &str,
        command: &str,
        env: &BTreeMap<String, String>,
    ) -> ExecOutput {
        if !self.opts.delay.is_zero() {
            tokio::time::sleep(self.opts.delay).await;
        }
        let Some(safe) = env.get("OUTPOSTS_SAFE_ID") else {
            // Nothing runs, and nothing fails: setup steps (seeding a home, probing for a
            // clone) succeed silently, as on an image that already has what they look for.
            tracing::debug!(
                sandbox,
                "simulated exec: {}",
                command.chars().take(60).collect::<String>()
            );
            return out(0, "");
        };
        let key = (sandbox.to_string(), safe.clone());
        let token = env
            .get("DEVIN_OUTPOST_CONNECT_TOKEN")
            .or_else(|| env.get("DEVIN_REMOTE_SESSION_TOKEN"));
        if let (Some(token), Some(session), Some(gateway)) = (
            token,
            env.get("DEVIN_OUTPOST_SESSION_ID"),
            env.get("DEVIN_OUTPOST_GATEWAY_URL"),
        ) {
            return self.launch(shared, key, token, session, gateway);
        }
        let st = self.state();
        if let Some(lines) = env.get("OUTPOSTS_LINES") {
            let n = lines.parse::<usize>().unwrap_or(20);
            let log = st
                .remotes
                .get(&key)
                .map(|r| r.log.as_slice())
                .unwrap_or(&[]);
            let tail = &log[log.len().saturating_sub(n)..];
            return out(0, tail.iter().map(|l| format!("{l}\n")).collect::<String>());
        }
        match st.remotes.get(&key).map(|r| (&r.state, r.pid)) {
            Some((RState::Live, pid)) => out(0, format!("running {pid}\n")),
            Some((RState::Exited(code), _)) => out(0, format!("exited {code}\n")),
            None => out(0, "absent\n"),
        }
    }

    fn launch(
        &self,
        shared: &Shared,
        key: (String, String),
        token: &str,
        session: &str,
        gateway: &str,
    ) -> ExecOutput {
        let mut st = self.state();
        if let Some(r) = st.remotes.get(&key).filter(|r| r.state == RState::Live) {
            return out(0, format!("outposts-launch result=running pid={}\n", r.pid));
        }
        let cached = if st.cached.insert(key.0.clone()) {
            "no"
        } else {
            "yes"
        };
        st.next_pid += 1;
        let pid = st.next_pid;
        let ours = gateway
            .replacen("wss://", "https://", 1)
            .replacen("ws://", "http://", 1)
            .strip_suffix("/gateway")
            .is_some_and(|b| b == shared.base_url);
        let (state, line) = if !ours {
            (
                RState::Exited(2),
                format!("devin-remote: cannot use the gateway URL {gateway}"),
            )
        } else {
            match shared.devin.sim_connect(token, session) {
                SimPoll::Ended(why) => {
                    (RState::Exited(0), format!("session ended ({why}); exiting"))
                }
                SimPoll::Refused(why) => (
                    RState::Exited(1),
                    format!("devin-remote: the outpost gateway rejected the connect token: {why}"),
                ),
                _ => (RState::Live, "connected".to_string()),
            }
        };
        st.remotes.insert(
            key,
            Remote {
                pid,
                session: session.to_string(),
                token: token.to_string(),
                state,
                log: vec![format!("outposts: launched the remote pid={pid}"), line],
            },
        );
        out(
            0,
            format!("outposts-launch result=launched pid={pid} cached={cached}\n"),
        )
    }

    /// The sandbox stopped: its processes are gone (no exit code written).
    pub fn stopped(&self, sandbox: &str) {
        self.state().remotes.retain(|(sb, _), _| sb != sandbox);
    }

    /// The sandbox is gone with its disk.
    pub fn deleted(&self, sandbox: &str) {
        let mut st = self.state();
        st.remotes.retain(|(sb, _), _| sb != sandbox);
        st.cached.remove(sandbox);
        st.files.retain(|(sb, _), _| sb != sandbox);
    }

    /// A file a task wrote in the sandbox.
    pub fn file(&self, sandbox: &str, path: &str) -> Option<Vec<u8>> {
        self.state()
            .files
            .get(&(sandbox.to_string(), path.to_string()))
            .cloned()
    }

    /// How many simulated remotes are live now.
    pub fn live(&self) -> usize {
        self.state()
            .remotes
            .values()
            .filter(|r| r.state == RState::Live)
            .count()
    }

    /// One pass: ask the gateway about every live remote, apply the answers.
    fn pass(&self, shared: &Shared) {
        let live: Vec<((String, String), (String, String))> = self
            .state()
            .remotes
            .iter()
            .filter(|(_, r)| r.state == RState::Live)
            .map(|(k, r)| (k.clone(), (r.token.clone(), r.session.clone())))
            .collect();
        if live.is_empty() {
            return;
        }
        let asks: Vec<(String, String)> = live.iter().map(|(_, a)| a.clone()).collect();
        let answers = shared.devin.sim_poll(&asks);
        let mut results = Vec::new();
        {
            let mut st = self.state();
            for ((key, (token, _)), answer) in live.into_iter().zip(answers) {
                let exit = match &answer {
                    SimPoll::Live => continue,
                    SimPoll::Ended(why) => Some((0, format!("session ended ({why}); exiting"))),
                    SimPoll::Refused(why) => Some((1, format!("devin-remote: {why}"))),
                    SimPoll::Write {
                        task,
                        path,
                        content,
                    } => {
                        st.files
                            .insert((key.0.clone(), path.clone()), content.clone());
                        results.push((token, task.clone(), true, 0, content.clone()));
                        None
                    }
                    SimPoll::Run { task } => {
                        let msg = b"simulated sandbox: no shell to run commands".to_vec();
                        results.push((token, task.clone(), false, 127, msg));
                        None
                    }
                };
                if let Some((code, line)) = exit
                    && let Some(r) = st.remotes.get_mut(&key)
                    && r.state == RState::Live
                {
                    r.state = RState::Exited(code);
                    r.log.push(line);
                }
            }
        }
        for (token, task, ok, code, output) in results {
            shared.devin.sim_result(&token, &task, ok, code, &output);
        }
    }
}

/// The simulated remotes' long poll: one loop for all of them, woken by queue changes (at most
/// once per [`MIN_GAP`] or [`GAP_PER_PASS`] passes' time) and at least every [`TICK`]; ends with
/// the emulator.
pub async fn run_gateway(shared: Weak<Shared>) {
    let mut changes = match shared.upgrade() {
        Some(s) => s.devin.sim_changes(),
        None => return,
    };
    loop {
        let _ = tokio::time::timeout(TICK, changes.changed()).await;
        let Some(s) = shared.upgrade() else { return };
        let started = std::time::Instant::now();
        if let Some(sim) = s.sandboxes.sim() {
            sim.pass(&s);
        }
        drop(s);
        // Not poll_until: the gap between passes of a loop that lives as long as the emulator, not
        // a wait.
        tokio::time::sleep(MIN_GAP.max(started.elapsed() * GAP_PER_PASS)).await;
    }
}
