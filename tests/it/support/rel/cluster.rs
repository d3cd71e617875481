//! A reliability cluster: one emulator and its replicas under a scenario name and seed; fault
//! scripts, argv sampling and the failure report.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use outposts::api::{ApiRequest, HttpClient, HttpOptions, http};
use outposts::emulator::daytona::Settings;
use outposts::emulator::devin::{NewSession, SessionInfo};

use crate::invariants::{self, Quiesce, Sandbox, Violation, World};
use crate::support::orch::orch_env;
use crate::support::{Emu, TestEnv, block_on};

use super::*;

/// Options of a cluster.
#[derive(Debug, Clone)]
pub struct ClusterOpts {
    pub replicas: usize,
    pub cap: usize,
    pub janitor_grace: &'static str,
    pub extra_args: Vec<String>,
    pub extra_env: Vec<(String, String)>,
    pub emulator_args: Vec<String>,
    /// How long ended, released rows linger before the queue sweeps them.
    pub sweep_delay: &'static str,
    /// Fast Daytona transitions.
    pub settings: Settings,
}

impl Default for ClusterOpts {
    fn default() -> Self {
        ClusterOpts {
            replicas: 1,
            cap: 5,
            janitor_grace: "20",
            extra_args: Vec::new(),
            extra_env: Vec::new(),
            emulator_args: Vec::new(),
            sweep_delay: "1s",
            settings: Settings {
                create_ms: 50,
                start_ms: 50,
                stop_ms: 50,
                delete_ms: 50,
                ..Settings::default()
            },
        }
    }
}

/// An emulator and its replicas, under one scenario name and seed.
pub struct Cluster {
    pub name: String,
    pub seed: u64,
    pub emu: Emu,
    pub outpost: String,
    pub replicas: Vec<Replica>,
    pub cap: usize,
    /// Every fault script applied, in order (printed on failure).
    pub scripts: Mutex<Vec<String>>,
    pub planted: BTreeSet<String>,
    argv: Arc<Mutex<BTreeSet<String>>>,
    stop_sampling: Arc<AtomicBool>,
    http: HttpClient,
}

impl Cluster {
    pub fn start(name: &str, seed: u64, opts: ClusterOpts) -> Cluster {
        eprintln!("scenario {name}: seed {seed} (replay with OUTPOSTS_REL_SEED={seed})");
        let mut emu_args: Vec<String> = vec![
            "--sweep-delay".into(),
            opts.sweep_delay.into(),
            "--keepalive".into(),
            "1s".into(),
            "--seed".into(),
            seed.to_string(),
        ];
        emu_args.extend(opts.emulator_args.iter().cloned());
        let a: Vec<&str> = emu_args.iter().map(String::as_str).collect();
        let emu = Emu::start(&TestEnv::new(), &a);
        block_on(emu.client().daytona_settings(&opts.settings)).expect("daytona settings");
        let outpost = emu.env_value("OUTPOST_ID");
        let mut replicas = Vec::new();
        for i in 0..opts.replicas {
            let label = format!("r{i}");
            let key = block_on(emu.client().daytona_key(&label)).expect("daytona key");
            let mut env = orch_env(&emu);
            env.set("DAYTONA_API_KEY", key);
            env.set("GIT_TOKEN", GIT_TOKEN);
            env.set("RECONCILE_INTERVAL", "1");
            env.set("JANITOR_INTERVAL", "2");
            env.set("OUTPOSTS_READ_TIMEOUT", "10");
            let fp = env.path("failpoints");
            env.set("OUTPOSTS_FAILPOINTS", format!("@{}", fp.to_string_lossy()));
            for (k, v) in &opts.extra_env {
                env.set(k, v.clone());
            }
            let mut args: Vec<String> = [
                "--provider",
                "daytona",
                "--snapshot",
                SNAPSHOT,
                "--janitor-grace",
                opts.janitor_grace,
                "--max-concurrent-sessions",
            ]
            .iter()
            .map(|s| s.to_string())
            .collect();
            args.push(opts.cap.to_string());
            args.extend(opts.extra_args.iter().cloned());
            replicas.push(Replica {
                label,
                env,
                args,
                orch: None,
                logs: Vec::new(),
                failpoints: fp,
                outpost: outpost.clone(),
            });
        }
        let argv = Arc::new(Mutex::new(BTreeSet::new()));
        let stop_sampling = Arc::new(AtomicBool::new(false));
        {
            let argv = argv.clone();
            let stop = stop_sampling.clone();
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let found = sample_argv();
                    if let Ok(mut a) = argv.lock()
                        && a.len() < 20_000
                    {
                        a.extend(found);
                    }
                    std::thread::sleep(Duration::from_millis(300));
                }
            });
        }
        Cluster {
            name: name.to_string(),
            seed,
            emu,
            outpost,
            replicas,
            cap: opts.cap,
            scripts: Mutex::new(Vec::new()),
            planted: BTreeSet::new(),
            argv,
            stop_sampling,
            http: HttpClient::new(HttpOptions::default()).expect("http"),
        }
    }

    pub fn start_all(&mut self) {
        for r in &mut self.replicas {
            r.start();
        }
    }

    /// Apply a fault script (JSON) and remember it for the failure report.
    pub fn faults(&self, script: &str) {
        self.scripts
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(script.to_string());
        block_on(self.emu.client().add_faults(script)).expect("add faults");
    }

    pub fn clear_faults(&self) {
        block_on(self.emu.client().clear_faults()).expect("clear faults");
    }

    pub fn new_sessions(&self, n: usize) -> Vec<String> {
        let mut ids = Vec::new();
        let mut left = n;
        while left > 0 {
            let batch = left.min(1000);
            let created = block_on(self.emu.client().new_sessions(&NewSession {
                count: Some(batch as u32),
                ..NewSession::default()
            }))
            .expect("new sessions");
            ids.extend(created.into_iter().map(|s| s.session_id));
            left -= batch;
        }
        ids
    }

    pub fn sessions(&self) -> Vec<SessionInfo> {
        block_on(self.emu.client().sessions()).expect("sessions")
    }

    pub fn session(&self, id: &str) -> SessionInfo {
        block_on(self.emu.client().session(id))
            .expect("session")
            .expect("session exists")
    }

    /// Every sandbox of the emulated Daytona, errored and deleting ones included.
    pub fn sandboxes(&self) -> Vec<Sandbox> {
        let mut out = Vec::new();
        let mut cursor: Option<String> = None;
        loop {
            let mut req = ApiRequest::get(
                http::DAYTONA,
                format!("{}/sandbox", self.emu.env_value("DAYTONA_API_URL")),
            )
            .bearer(&outposts::secrets::Secret::new(
                self.emu.env_value("DAYTONA_API_KEY"),
            ))
            .query("limit", 200)
            .query("includeErroredDeleted", "true");
            if let Some(c) = &cursor {
                req = req.query("cursor", c);
            }
            let page: serde_json::Value = block_on(self.http.send_json(req)).expect("list");
            for it in page["items"].as_array().cloned().unwrap_or_default() {
                out.push(Sandbox {
                    id: it["id"].as_str().unwrap_or_default().into(),
                    name: it["name"].as_str().unwrap_or_default().into(),
                    state: it["state"].as_str().unwrap_or_default().into(),
                    labels: serde_json::from_value(it["labels"].clone()).unwrap_or_default(),
                });
            }
            match page["nextCursor"].as_str() {
                Some(c) => cursor = Some(c.to_string()),
                None => return out,
            }
        }
    }

    /// What settling needs: history, journal, sessions, sandboxes (no logs, no request log).
    pub fn world_light(&self) -> World {
        let client = self.emu.client();
        let mut acceptors = BTreeMap::new();
        for r in &self.replicas {
            if let Some(a) = r.acceptor() {
                acceptors.insert(r.label.clone(), a);
            }
        }
        World {
            outpost: self.outpost.clone(),
            history: block_on(client.history(None)).expect("history"),
            mutations: block_on(client.mutations()).expect("mutations"),
            sessions: self.sessions(),
            sandboxes: self.sandboxes(),
            acceptors,
            cap: self.cap,
            planted: self.planted.clone(),
            ..World::default()
        }
    }

    /// Everything the checker needs, read now.
    pub fn world(&self) -> World {
        let client = self.emu.client();
        let mut acceptors = BTreeMap::new();
        let mut logs = Vec::new();
        let mut state_dirs = Vec::new();
        for r in &self.replicas {
            if let Some(a) = r.acceptor() {
                acceptors.insert(r.label.clone(), a);
            }
            logs.extend(r.logs.iter().cloned());
            state_dirs.push(r.state_dir());
        }
        logs.push(self.emu.stderr_path().to_path_buf());
        let secrets = block_on(client.secrets()).expect("secrets");
        // Connect tokens may sit in a launched remote's environment; account secrets never.
        let (session_secrets, mut account): (Vec<String>, Vec<String>) =
            secrets.into_iter().partition(|s| s.starts_with("ct_"));
        account.push(GIT_TOKEN.to_string());
        let mut session_secrets = session_secrets;
        session_secrets.push(CONNECT_TOKEN_FIXTURE.to_string());
        World {
            outpost: self.outpost.clone(),
            history: block_on(client.history(None)).expect("history"),
            mutations: block_on(client.mutations()).expect("mutations"),
            sessions: self.sessions(),
            sandboxes: self.sandboxes(),
            requests: block_on(client.requests(0)).expect("requests"),
            acceptors,
            cap: self.cap,
            secrets: account,
            session_secrets,
            logs,
            state_dirs,
            argv_samples: self
                .argv
                .lock()
                .map(|a| a.iter().cloned().collect())
                .unwrap_or_default(),
            planted: self.planted.clone(),
        }
    }

    /// Clear faults and wait until `done` holds for the world and I5/I6 hold too; the world
    /// then (or the last one seen, when time ran out).
    pub fn settle(&self, limit: Duration, done: impl Fn(&World) -> Result<(), String>) -> World {
        self.clear_faults();
        let start = Instant::now();
        loop {
            let w = self.world_light();
            let quiet = invariants::i5_sandboxes_match_sessions(&w).is_empty()
                && invariants::i6_claims_served_or_released(&w).is_empty();
            let verdict = done(&w);
            if quiet && verdict.is_ok() {
                figure(
                    &self.name,
                    "settle_s",
                    format!("{:.1}", start.elapsed().as_secs_f64()),
                );
                return self.world();
            }
            if start.elapsed() >= limit {
                let pending: Vec<String> = invariants::i5_sandboxes_match_sessions(&w)
                    .into_iter()
                    .chain(invariants::i6_claims_served_or_released(&w))
                    .take(10)
                    .map(|v| format!("{} {}", v.invariant, v.detail))
                    .collect();
                eprintln!(
                    "settle: not converged after {limit:?}: {} {pending:?}",
                    verdict.err().unwrap_or_default()
                );
                return self.world();
            }
            std::thread::sleep(Duration::from_millis(500));
        }
    }

    /// Run the checker; panic with everything needed to reproduce when anything is violated.
    pub fn assert_invariants(&self, w: &World, q: Quiesce) -> Vec<Violation> {
        let found = invariants::check(w, q);
        if !found.is_empty() {
            let list: Vec<String> = found
                .iter()
                .take(40)
                .map(|v| format!("  {} {}", v.invariant, v.detail))
                .collect();
            // The story of the sessions involved (history and provider mutations, in order).
            let mut story = String::new();
            let mut shown = BTreeSet::new();
            for v in found.iter().take(5) {
                for word in v
                    .detail
                    .split(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '-'))
                {
                    if !word.starts_with("devin-") || word.starts_with("devin-outposts-") {
                        continue;
                    }
                    if !w.history.iter().any(|h| h.session_id == word) || !shown.insert(word) {
                        continue;
                    }
                    story.push_str(&format!("session {word}:\n"));
                    for h in w.history.iter().filter(|h| h.session_id == word) {
                        story.push_str(&format!(
                            "  {} {} {:?} g{} {:?}\n",
                            h.at_ms, h.event, h.acceptor_id, h.generation, h.detail
                        ));
                    }
                    for m in w.mutations.iter().filter(|m| {
                        m.labels
                            .get(outposts::orchestrator::LABEL_SESSION)
                            .map(String::as_str)
                            == Some(word)
                    }) {
                        story.push_str(&format!(
                            "  {} provider {} by {:?} (session then: {:?})\n",
                            m.at_ms, m.op, m.caller, m.session
                        ));
                    }
                }
            }
            panic!(
                "{}: {} invariant violation(s):\n{}\n{}\n{story}",
                self.name,
                found.len(),
                list.join("\n"),
                invariants::summary(w)
            );
        }
        figure(&self.name, "violations", 0);
        found
    }

    /// Stop every replica (SIGTERM) so logs are complete.
    /// I9 (one remote attach per session generation); panics with the offenders' history.
    pub fn assert_one_remote_per_generation(&self, w: &World) {
        let found = invariants::i9_one_remote_per_generation(w);
        if found.is_empty() {
            return;
        }
        let mut story = String::new();
        for v in found.iter().take(5) {
            let sid = v.detail.split(' ').next().unwrap_or_default();
            for h in w.history.iter().filter(|h| h.session_id == sid) {
                story.push_str(&format!(
                    "  {} {} {:?} g{} {:?}\n",
                    h.at_ms, h.event, h.acceptor_id, h.generation, h.detail
                ));
            }
        }
        panic!(
            "{} (seed {}): {} double remote(s): {found:?}\n{story}\n{}",
            self.name,
            self.seed,
            found.len(),
            self.replicas
                .iter()
                .map(|r| r.all_logs())
                .collect::<Vec<_>>()
                .join("\n")
                .lines()
                .rev()
                .take(80)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect::<Vec<_>>()
                .join("\n")
        );
    }

    pub fn stop_all(&mut self) {
        for r in &mut self.replicas {
            let _ = r.terminate(Duration::from_secs(35));
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        self.stop_sampling.store(true, Ordering::Relaxed);
        if std::thread::panicking() {
            let scripts = self.scripts.lock().map(|s| s.clone()).unwrap_or_default();
            eprintln!(
                "\n==== {} FAILED: seed {} (replay with OUTPOSTS_REL_SEED={}) ====\nfault scripts:\n{}",
                self.name,
                self.seed,
                self.seed,
                scripts.join("\n")
            );
            for r in &self.replicas {
                let all = r.all_logs();
                let tail: String = all
                    .lines()
                    .rev()
                    .take(60)
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect::<Vec<_>>()
                    .join("\n");
                eprintln!("---- replica {} log tail ----\n{tail}", r.label);
            }
        }
        for r in &mut self.replicas {
            r.kill();
        }
    }
}
