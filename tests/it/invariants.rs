//! The invariant checker (Jepsen style): reads what the emulator recorded — the Devin history
//! (claims, releases, expiries, status changes, removals, remote connects), the provider
//! mutation journal (every sandbox create/start/stop/delete with its caller and the queue's view
//! of the session at that instant), the current sessions and sandboxes, the request log — plus
//! the orchestrators' logs and state dirs, and reports every violation of I1–I8
//! (`shared/background/reliability.md` §3.1).
//!
//! Timing-free by design: the emulator stamps each mutation with the session's state *at the
//! moment it committed*, so "no delete unless terminated" is a property of one record, not a
//! race between two clocks.

#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use outposts::emulator::RequestRecord;
use outposts::emulator::devin::{HistoryRecord, SessionInfo};
use outposts::emulator::journal::Mutation;
use outposts::orchestrator::{LABEL_OUTPOST, LABEL_SESSION};

/// Everything the checker reads.
#[derive(Debug, Default, Clone)]
pub struct World {
    pub outpost: String,
    pub history: Vec<HistoryRecord>,
    pub mutations: Vec<Mutation>,
    pub sessions: Vec<SessionInfo>,
    /// Sandboxes that exist now (errored and deleting included): (id, name, state, labels).
    pub sandboxes: Vec<Sandbox>,
    pub requests: Vec<RequestRecord>,
    /// Journal caller label → acceptor id of that replica.
    pub acceptors: BTreeMap<String, String>,
    /// Claims one acceptor may hold at once.
    pub cap: usize,
    /// Every secret value that must never leak.
    pub secrets: Vec<String>,
    /// Secrets a launched remote legitimately carries in its environment (connect tokens).
    pub session_secrets: Vec<String>,
    /// Orchestrator and emulator logs.
    pub logs: Vec<PathBuf>,
    /// Orchestrator state dirs.
    pub state_dirs: Vec<PathBuf>,
    /// Command lines of processes sampled during the run.
    pub argv_samples: Vec<String>,
    /// Sandbox names the test planted itself (foreign or orphan fixtures), excluded from I5.
    pub planted: BTreeSet<String>,
}

#[derive(Debug, Clone)]
pub struct Sandbox {
    pub id: String,
    pub name: String,
    pub state: String,
    pub labels: BTreeMap<String, String>,
}

impl Sandbox {
    pub fn session(&self) -> Option<&str> {
        self.labels.get(LABEL_SESSION).map(String::as_str)
    }
}

/// One broken promise, with enough context to find it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Violation {
    pub invariant: &'static str,
    pub detail: String,
}

fn v(invariant: &'static str, detail: String) -> Violation {
    Violation { invariant, detail }
}

/// What "after quiesce" means for I5: which sessions must be served right now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quiesce {
    /// Only check the running history (I1–I4, I7, I8).
    No,
    /// Faults are off and the system had time to settle: I5 and I6 too.
    Yes,
}

pub fn check(w: &World, q: Quiesce) -> Vec<Violation> {
    let mut out = Vec::new();
    out.extend(i1_one_live_sandbox(w));
    out.extend(i2_claims_and_fencing(w));
    out.extend(i3_delete_only_terminated(w));
    out.extend(i4_no_stop_of_running(w));
    if q == Quiesce::Yes {
        out.extend(i5_sandboxes_match_sessions(w));
        out.extend(i6_claims_served_or_released(w));
    }
    out.extend(i7_cap(w));
    out.extend(i8_no_secret_leaks(w));
    out.sort();
    out
}

/// Callers that are orchestrator replicas (the test's own key is `default`).
fn replica(w: &World, m: &Mutation) -> Option<String> {
    m.caller
        .as_ref()
        .filter(|c| c.as_str() != "default")
        .map(|c| w.acceptors.get(c).cloned().unwrap_or_else(|| c.clone()))
}

/// A fixture the test made itself (a deleted sandbox's name gains a `DESTROYED_` prefix).
fn is_planted(w: &World, name: &str) -> bool {
    w.planted
        .iter()
        .any(|p| name == p || name.contains(p.as_str()))
}

fn ours(w: &World, labels: &BTreeMap<String, String>) -> bool {
    labels.get(LABEL_OUTPOST) == Some(&w.outpost)
}

/// I1: at most one live sandbox per session at any instant (replaying the journal).
pub fn i1_one_live_sandbox(w: &World) -> Vec<Violation> {
    let mut out = Vec::new();
    let mut live: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for m in &w.mutations {
        let Some(s) = m.labels.get(LABEL_SESSION) else {
            continue;
        };
        if is_planted(w, &m.name) {
            continue;
        }
        let set = live.entry(s.clone()).or_default();
        match m.op.as_str() {
            "create" => {
                set.insert(m.sandbox_id.clone());
                if set.len() > 1 {
                    out.push(v(
                        "I1",
                        format!(
                            "session {s} has {} live sandboxes after create #{} ({set:?})",
                            set.len(),
                            m.seq
                        ),
                    ));
                }
            }
            "delete" => {
                set.remove(&m.sandbox_id);
            }
            _ => {}
        }
    }
    let mut now: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for sb in &w.sandboxes {
        if let Some(s) = sb.session()
            && ours(w, &sb.labels)
            && !sb.state.starts_with("destroy")
            && !is_planted(w, &sb.name)
        {
            now.entry(s).or_default().push(&sb.id);
        }
    }
    for (s, ids) in now {
        if ids.len() > 1 {
            out.push(v("I1", format!("session {s} has sandboxes {ids:?} now")));
        }
    }
    out
}

/// I2: a claim is only won from an unclaimed row (one holder per generation at a time), and
/// sandbox mutations come only from the holder: creates and starts need the caller's claim;
/// nobody touches a sandbox while another acceptor holds its session.
pub fn i2_claims_and_fencing(w: &World) -> Vec<Violation> {
    let mut out = Vec::new();
    let mut holder: BTreeMap<(String, u32), String> = BTreeMap::new();
    for h in &w.history {
        let key = (h.session_id.clone(), h.generation);
        match h.event.as_str() {
            "claim" => {
                let a = h.acceptor_id.clone().unwrap_or_default();
                if let Some(prev) = holder.get(&key)
                    && prev != &a
                {
                    out.push(v(
                        "I2",
                        format!(
                            "session {} generation {} claimed by {a} while {prev} held it (#{})",
                            h.session_id, h.generation, h.seq
                        ),
                    ));
                }
                holder.insert(key, a);
            }
            "release" | "expire" => {
                holder.remove(&key);
            }
            "remove" => {
                holder.retain(|(s, _), _| s != &h.session_id);
            }
            _ => {}
        }
    }
    for m in &w.mutations {
        let Some(me) = replica(w, m) else { continue };
        let Some(s) = &m.session else { continue };
        let claimed_by = (s.phase == "claimed")
            .then(|| s.acceptor_id.clone())
            .flatten();
        let sid = m.labels.get(LABEL_SESSION).cloned().unwrap_or_default();
        match (&claimed_by, m.op.as_str()) {
            (Some(h), _) if h != &me => out.push(v(
                "I2",
                format!(
                    "{me} sent {} #{} for session {sid} while {h} held its claim",
                    m.op, m.seq
                ),
            )),
            (None, "create" | "start") => out.push(v(
                "I2",
                format!(
                    "{me} sent {} #{} for session {sid} without holding its claim (phase {}, status {})",
                    m.op, m.seq, s.phase, s.real_status
                ),
            )),
            _ => {}
        }
    }
    out
}

/// I3: a replica deletes a sandbox only when its session was `terminated` at that moment.
pub fn i3_delete_only_terminated(w: &World) -> Vec<Violation> {
    w.mutations
        .iter()
        .filter(|m| m.op == "delete")
        .filter_map(|m| {
            let me = replica(w, m)?;
            let status = m.session.as_ref().map(|s| s.real_status.as_str());
            (status != Some("terminated")).then(|| {
                v(
                    "I3",
                    format!(
                        "{me} deleted {} (#{}) of session {:?} whose status was {status:?}",
                        m.name,
                        m.seq,
                        m.labels.get(LABEL_SESSION)
                    ),
                )
            })
        })
        .collect()
}

/// I4: a replica never stops the sandbox of a session that is `running` at that moment.
pub fn i4_no_stop_of_running(w: &World) -> Vec<Violation> {
    w.mutations
        .iter()
        .filter(|m| m.op == "stop")
        .filter_map(|m| {
            let me = replica(w, m)?;
            let s = m.session.as_ref()?;
            (s.real_status == "running" && s.in_queue).then(|| {
                v(
                    "I4",
                    format!(
                        "{me} stopped {} (#{}) of session {:?} while it was running (phase {})",
                        m.name,
                        m.seq,
                        m.labels.get(LABEL_SESSION),
                        s.phase
                    ),
                )
            })
        })
        .collect()
}

/// I5 (after quiesce): our labelled sandboxes are exactly the non-terminated sessions we served;
/// live sessions' sandboxes run, sleeping sessions' sandboxes are stopped, none is left over.
pub fn i5_sandboxes_match_sessions(w: &World) -> Vec<Violation> {
    let mut out = Vec::new();
    let by_id: BTreeMap<&str, &SessionInfo> = w
        .sessions
        .iter()
        .map(|s| (s.session_id.as_str(), s))
        .collect();
    let served: BTreeSet<&str> = w
        .mutations
        .iter()
        .filter(|m| m.op == "create" && replica(w, m).is_some())
        .filter_map(|m| m.labels.get(LABEL_SESSION).map(String::as_str))
        .collect();
    let mut sandbox_of: BTreeMap<&str, &Sandbox> = BTreeMap::new();
    for sb in &w.sandboxes {
        if !ours(w, &sb.labels) || is_planted(w, &sb.name) {
            continue;
        }
        let Some(sid) = sb.session() else { continue };
        sandbox_of.insert(sid, sb);
        match by_id.get(sid) {
            None => out.push(v(
                "I5",
                format!("sandbox {} serves unknown session {sid}", sb.name),
            )),
            Some(s) if s.session_status == "terminated" => out.push(v(
                "I5",
                format!(
                    "sandbox {} ({}) outlives its terminated session {sid}",
                    sb.name, sb.state
                ),
            )),
            Some(s) if s.session_status == "suspended" && sb.state != "stopped" => out.push(v(
                "I5",
                format!(
                    "sandbox {} of sleeping session {sid} is {}, not stopped",
                    sb.name, sb.state
                ),
            )),
            _ => {}
        }
    }
    for s in &w.sessions {
        let sid = s.session_id.as_str();
        let live = matches!(s.session_status.as_str(), "pending" | "running") && s.in_queue;
        if live && served.contains(sid) {
            match sandbox_of.get(sid) {
                None => out.push(v(
                    "I5",
                    format!("live session {sid} ({}) has no sandbox", s.phase),
                )),
                Some(sb) if sb.state != "started" => out.push(v(
                    "I5",
                    format!("live session {sid}'s sandbox {} is {}", sb.name, sb.state),
                )),
                _ => {}
            }
        }
    }
    out
}

/// I6: every claim won is served (the remote connected) or given back (released, expired,
/// removed) — and after quiesce no session sits claimed without a connected remote.
pub fn i6_claims_served_or_released(w: &World) -> Vec<Violation> {
    let mut out = Vec::new();
    for (i, h) in w.history.iter().enumerate() {
        if h.event != "claim" {
            continue;
        }
        let settled = w.history[i + 1..].iter().any(|l| {
            l.session_id == h.session_id
                && l.generation == h.generation
                && match l.event.as_str() {
                    "connect" | "remove" => true,
                    "release" | "expire" => l.acceptor_id == h.acceptor_id,
                    _ => false,
                }
        });
        if !settled {
            let now = w
                .sessions
                .iter()
                .find(|s| s.session_id == h.session_id)
                .map(|s| format!("{} {}", s.phase, s.session_status))
                .unwrap_or_default();
            out.push(v(
                "I6",
                format!(
                    "claim #{} of {} (generation {}) by {:?} was never served nor released (now {now})",
                    h.seq, h.session_id, h.generation, h.acceptor_id
                ),
            ));
        }
    }
    for s in &w.sessions {
        if s.phase == "claimed" && !s.remote_connected && s.session_status != "terminated" {
            out.push(v(
                "I6",
                format!(
                    "session {} is claimed by {:?} but no remote serves it ({})",
                    s.session_id, s.acceptor_id, s.session_status
                ),
            ));
        }
    }
    out
}

/// The most claims each acceptor held at once, replaying the history.
pub fn peak_claims(w: &World) -> BTreeMap<String, usize> {
    let mut held: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut peak: BTreeMap<String, usize> = BTreeMap::new();
    for h in &w.history {
        let a = h.acceptor_id.clone().unwrap_or_default();
        match h.event.as_str() {
            "claim" => {
                let set = held.entry(a.clone()).or_default();
                set.insert(h.session_id.clone());
                let p = peak.entry(a).or_default();
                *p = (*p).max(set.len());
            }
            "release" | "expire" => {
                if let Some(set) = held.get_mut(&a) {
                    set.remove(&h.session_id);
                }
            }
            "remove" => {
                for set in held.values_mut() {
                    set.remove(&h.session_id);
                }
            }
            _ => {}
        }
    }
    peak
}

/// I7: claimed-not-finished sessions per acceptor never exceed the cap.
pub fn i7_cap(w: &World) -> Vec<Violation> {
    if w.cap == 0 {
        return Vec::new();
    }
    peak_claims(w)
        .into_iter()
        .filter(|(_, p)| *p > w.cap)
        .map(|(a, p)| v("I7", format!("{a} held {p} claims at once (cap {})", w.cap)))
        .collect()
}

fn files_under(dir: &std::path::Path, out: &mut Vec<PathBuf>) {
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                files_under(&p, out);
            } else {
                out.push(p);
            }
        }
    }
}

/// I8: no secret in logs, state files, argv, or a sandbox's environment (the connect token may
/// travel only in the remote's launch environment), nor in any URL.
pub fn i8_no_secret_leaks(w: &World) -> Vec<Violation> {
    let mut out = Vec::new();
    let all: Vec<&String> = w
        .secrets
        .iter()
        .chain(&w.session_secrets)
        .filter(|s| s.len() >= 8)
        .collect();
    let account: Vec<&String> = w.secrets.iter().filter(|s| s.len() >= 8).collect();
    let leak = |what: String, text: &str, set: &[&String], out: &mut Vec<Violation>| {
        for s in set {
            if text.contains(s.as_str()) {
                let shown: String = s.chars().take(6).collect();
                out.push(v("I8", format!("{what} contains the secret {shown}…")));
            }
        }
    };
    for log in &w.logs {
        let text = String::from_utf8_lossy(&std::fs::read(log).unwrap_or_default()).into_owned();
        leak(format!("log {}", log.display()), &text, &all, &mut out);
    }
    for dir in &w.state_dirs {
        let mut files = Vec::new();
        files_under(dir, &mut files);
        for f in files {
            let text = String::from_utf8_lossy(&std::fs::read(&f).unwrap_or_default()).into_owned();
            leak(format!("state file {}", f.display()), &text, &all, &mut out);
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                let mode = std::fs::metadata(&f)
                    .map(|m| m.permissions().mode() & 0o777)
                    .unwrap_or(0);
                if mode & 0o077 != 0 {
                    out.push(v(
                        "I8",
                        format!("state file {} has mode {mode:o}", f.display()),
                    ));
                }
            }
        }
    }
    for a in &w.argv_samples {
        leak(
            format!(
                "a command line ({})",
                a.chars().take(60).collect::<String>()
            ),
            a,
            &all,
            &mut out,
        );
    }
    for r in &w.requests {
        if let Some(q) = &r.query {
            leak(
                format!("the query of {} {}", r.method, r.path),
                q,
                &all,
                &mut out,
            );
        }
        if r.api != "daytona" {
            continue;
        }
        let Some(body) = r.exchange.as_ref().and_then(|x| x.request_body.as_ref()) else {
            continue;
        };
        let Ok(json) = serde_json::from_str::<serde_json::Value>(body) else {
            continue;
        };
        // A sandbox's own environment (create) carries no secret at all.
        if r.method == "POST" && r.path == "/daytona/api/sandbox" {
            leak(
                format!("the environment of a created sandbox (#{})", r.seq),
                &json["env"].to_string(),
                &all,
                &mut out,
            );
        }
        // Commands never carry a secret; their environment may carry the connect token only.
        if let Some(cmd) = json.get("command") {
            leak(
                format!("a sandbox command (#{} {})", r.seq, r.path),
                &cmd.to_string(),
                &all,
                &mut out,
            );
        }
        for key in ["envs", "env"] {
            if let Some(env) = json.get(key)
                && r.path.contains("/toolbox/")
            {
                leak(
                    format!("a sandbox command's environment (#{})", r.seq),
                    &env.to_string(),
                    &account,
                    &mut out,
                );
            }
        }
    }
    out
}

/// A short account of what happened, for failure messages and figures.
pub fn summary(w: &World) -> String {
    let count = |ev: &str| w.history.iter().filter(|h| h.event == ev).count();
    let ops = |op: &str| w.mutations.iter().filter(|m| m.op == op).count();
    format!(
        "history: {} claims, {} renewals, {} releases, {} expiries, {} conflicts, {} connects; \
         provider: {} creates, {} starts, {} stops, {} deletes; sandboxes now {}; peak claims {:?}",
        count("claim"),
        count("renew"),
        count("release"),
        count("expire"),
        count("claim_conflict"),
        count("connect"),
        ops("create"),
        ops("start"),
        ops("stop"),
        ops("delete"),
        w.sandboxes.len(),
        peak_claims(w)
    )
}

/// I9: one remote per session generation — the emulator saw at most one remote attach
/// (`connect`) for each (session, generation). A second one means a live remote was judged
/// absent and launched again. Opt-in (not in [`check`]): a test that kills remotes on purpose
/// legitimately sees a relaunch.
pub fn i9_one_remote_per_generation(w: &World) -> Vec<Violation> {
    attaches(w)
        .into_iter()
        .filter(|(_, n)| *n > 1)
        .map(|((s, g), n)| v("I9", format!("{s} generation {g}: {n} remote attaches")))
        .collect()
}

/// Remote attaches per (session, generation).
pub fn attaches(w: &World) -> BTreeMap<(String, u32), usize> {
    let mut out = BTreeMap::new();
    for h in w.history.iter().filter(|h| h.event == "connect") {
        *out.entry((h.session_id.clone(), h.generation)).or_insert(0) += 1;
    }
    out
}
