//! `--json` on every command: walk the command tree (`Cli::command()`), run every leaf with
//! `--json` against the emulator with what it needs set up first, and check stdout is exactly
//! one JSON document (or NDJSON for streams). `WALK` lists every leaf with its output kind; a
//! command added to the CLI without an entry (or an entry without a command) fails the walk.
//! Errors in JSON mode are JSON on stderr: checked for every leaf (a usage error) and for a
//! domain error of each kind.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use clap::CommandFactory;
use serde_json::Value;

use crate::support::connect::{Connecting, approve, connect_env};
use outposts::provider::local::{LocalOptions, LocalProvider};

use crate::support::orch::proof_task;
use crate::support::{Emu, Run, TestEnv, block_on, emulated_env};
use crate::worker_common::StopOnDrop;

/// The proof value the orchestrated session writes and `session verify` reads back.
const PROOF: &str = "outpost-proof-0123456789ab";

/// What a command prints on stdout with `--json`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Out {
    /// Exactly one JSON document.
    Doc,
    /// NDJSON: one JSON object per line, at least one line.
    Stream,
}

/// Every leaf command, in the order the walk runs them (later ones use what earlier ones made).
const WALK: &[(&str, Out)] = &[
    ("help-env", Out::Doc),
    ("completions", Out::Doc),
    ("generate", Out::Doc),
    ("snapshot name", Out::Doc),
    ("snapshot dockerfile", Out::Doc),
    ("emulator start", Out::Stream),
    ("emulator env", Out::Doc),
    ("emulator status", Out::Doc),
    ("emulator session new", Out::Doc),
    ("emulator session list", Out::Doc),
    ("emulator session task", Out::Doc),
    ("emulator session suspend", Out::Doc),
    ("emulator session resume", Out::Doc),
    ("emulator session terminate", Out::Doc),
    ("auth status", Out::Doc),
    ("queue list", Out::Doc),
    ("queue watch", Out::Stream),
    ("outpost create", Out::Doc),
    ("outpost list", Out::Doc),
    ("outpost get", Out::Doc),
    ("outpost delete", Out::Doc),
    ("outpost default set", Out::Doc),
    ("outpost default clear", Out::Doc),
    ("session create", Out::Doc),
    ("session show", Out::Doc),
    ("session end", Out::Doc),
    ("connect", Out::Doc),
    ("auth set-key", Out::Doc),
    ("auth logout", Out::Doc),
    ("snapshot build", Out::Doc),
    ("snapshot list", Out::Doc),
    ("snapshot warm-pool set", Out::Doc),
    ("snapshot warm-pool show", Out::Doc),
    ("snapshot warm-pool delete", Out::Doc),
    ("doctor", Out::Doc),
    ("snapshot delete", Out::Doc),
    ("orchestrator run", Out::Stream),
    ("orchestrator status", Out::Doc),
    ("orchestrator failures", Out::Doc),
    ("cost", Out::Doc),
    ("session verify", Out::Doc),
    ("worker launch", Out::Doc),
    ("worker list", Out::Doc),
    ("worker status", Out::Doc),
    ("worker logs", Out::Stream),
    ("worker exec", Out::Doc),
    ("worker stop", Out::Doc),
    ("demo", Out::Stream),
];

/// Leaf commands of the real CLI (hidden ones included), as space-separated paths.
fn leaves() -> BTreeSet<String> {
    fn walk(cmd: &clap::Command, prefix: &str, out: &mut BTreeSet<String>) {
        let subs: Vec<&clap::Command> = cmd
            .get_subcommands()
            .filter(|s| s.get_name() != "help")
            .collect();
        if subs.is_empty() && !prefix.is_empty() {
            out.insert(prefix.to_string());
        }
        for s in subs {
            let path = if prefix.is_empty() {
                s.get_name().to_string()
            } else {
                format!("{prefix} {}", s.get_name())
            };
            walk(s, &path, out);
        }
    }
    let mut out = BTreeSet::new();
    walk(&outposts::cli::Cli::command(), "", &mut out);
    out
}

#[test]
fn the_walk_covers_every_command() {
    let tree = leaves();
    let table: BTreeSet<String> = WALK.iter().map(|(p, _)| p.to_string()).collect();
    assert_eq!(table.len(), WALK.len(), "a command is listed twice in WALK");
    let missing: Vec<_> = tree.difference(&table).collect();
    let extra: Vec<_> = table.difference(&tree).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "WALK must list every leaf command exactly once.\nnot in WALK (add them, with how to \
         exercise them in `exercise`): {missing:?}\nin WALK but not in the CLI: {extra:?}"
    );
}

/// stdout is exactly one JSON document.
#[track_caller]
fn one_doc(what: &str, r: &Run) -> Value {
    let text = r.stdout.trim();
    assert!(!text.is_empty(), "{what}: nothing on stdout\n{}", r.stderr);
    let docs: Vec<Result<Value, _>> = serde_json::Deserializer::from_str(text)
        .into_iter::<Value>()
        .collect();
    assert_eq!(
        docs.len(),
        1,
        "{what}: stdout is not ONE JSON document:\n{}",
        r.stdout
    );
    match docs.into_iter().next() {
        Some(Ok(v)) => v,
        _ => panic!("{what}: stdout is not valid JSON:\n{}", r.stdout),
    }
}

/// stdout is NDJSON: one object per line.
#[track_caller]
fn ndjson(what: &str, r: &Run) -> Vec<Value> {
    let lines: Vec<Value> = r
        .stdout
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Value = serde_json::from_str(l)
                .unwrap_or_else(|e| panic!("{what}: not a JSON line ({e}): {l:?}\n{}", r.stdout));
            assert!(v.is_object(), "{what}: NDJSON lines are objects: {l}");
            v
        })
        .collect();
    assert!(!lines.is_empty(), "{what}: no NDJSON line\n{}", r.stderr);
    lines
}

/// The last stderr line is `{"error": {code, exit_code, message, hint}}` with the exit code.
#[track_caller]
fn json_error(what: &str, r: &Run) -> Value {
    let last = r
        .stderr
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or_else(|| panic!("{what}: nothing on stderr"));
    let v: Value = serde_json::from_str(last)
        .unwrap_or_else(|e| panic!("{what}: the error is not JSON ({e}):\n{}", r.stderr));
    assert_eq!(v["error"]["exit_code"], r.code, "{what}: {v}");
    assert!(
        v["error"]["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty())
    );
    assert!(v["error"]["code"].is_string());
    v
}

/// A command running in the background, its output going to files.
struct Bg {
    child: Option<Child>,
    out: PathBuf,
    err: PathBuf,
}

impl Bg {
    fn spawn(env: &TestEnv, args: &[&str]) -> Bg {
        let id = uuid::Uuid::new_v4().simple().to_string();
        let out = env.path(&format!("bg-{id}.out"));
        let err = env.path(&format!("bg-{id}.err"));
        let child = env
            .cmd(args)
            .stdout(std::fs::File::create(&out).expect("stdout file"))
            .stderr(std::fs::File::create(&err).expect("stderr file"))
            .stdin(Stdio::null())
            .spawn()
            .expect("spawn outposts");
        Bg {
            child: Some(child),
            out,
            err,
        }
    }

    fn stdout(&self) -> String {
        std::fs::read_to_string(&self.out).unwrap_or_default()
    }

    /// Wait until stdout satisfies `cond` (panics with the output after `limit`).
    fn wait_stdout(&mut self, limit: Duration, what: &str, cond: impl Fn(&str) -> bool) {
        let start = Instant::now();
        loop {
            if cond(&self.stdout()) {
                return;
            }
            let exited = matches!(self.child.as_mut().map(|c| c.try_wait()), Some(Ok(Some(_))));
            if exited || start.elapsed() > limit {
                let r = self.wait(Duration::from_secs(5));
                panic!("{what}: not seen within {limit:?}\n{r:?}");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn signal(&self, sig: i32) {
        if let Some(c) = &self.child {
            // SAFETY: a plain kill(2) of our own child.
            unsafe {
                libc::kill(c.id() as i32, sig);
            }
        }
    }

    /// Wait for the exit; kill it (and panic) after `limit`.
    fn wait(&mut self, limit: Duration) -> Run {
        let mut child = self.child.take().expect("not waited yet");
        let start = Instant::now();
        let code = loop {
            if let Ok(Some(s)) = child.try_wait() {
                break s.code().unwrap_or(-1);
            }
            if start.elapsed() > limit {
                let _ = child.kill();
                let _ = child.wait();
                panic!(
                    "did not exit within {limit:?}\nstdout:\n{}\nstderr:\n{}",
                    self.stdout(),
                    std::fs::read_to_string(&self.err).unwrap_or_default()
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        Run {
            code,
            stdout: self.stdout(),
            stderr: std::fs::read_to_string(&self.err).unwrap_or_default(),
        }
    }
}

impl Drop for Bg {
    fn drop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// Run to completion, but never hang the suite.
fn run_bounded(env: &TestEnv, args: &[&str], limit: Duration) -> Run {
    Bg::spawn(env, args).wait(limit)
}

/// Stops the sandboxes the orchestrator leaves running (by design), even when the walk panics.
struct Cleanup {
    root: PathBuf,
}

impl Drop for Cleanup {
    fn drop(&mut self) {
        let opts = LocalOptions {
            allow_unisolated: crate::support::host::unisolated(),
            ..LocalOptions::default()
        };
        if let Ok(p) = LocalProvider::new(&self.root, opts) {
            block_on(p.stop_all());
        }
    }
}

/// The emulator, an environment pointed at it, and what earlier steps created.
struct World {
    env: TestEnv,
    emu: Emu,
    session: Option<String>,
    outpost: Option<String>,
    connected: Option<TestEnv>,
    snapshot: Option<String>,
    worker: Option<String>,
    workers: StopOnDrop,
    /// A session created through the v3 API (`session create`).
    v3_session: Option<String>,
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("free port")
}

impl World {
    fn new() -> World {
        let (mut env, emu) = emulated_env(&[]);
        env.set("OUTPOSTS_PROVIDER", "local");
        env.set(
            "OUTPOSTS_LOCAL_ROOT",
            env.path("sandboxes").to_string_lossy().into_owned(),
        );
        env.set("RECONCILE_INTERVAL", "1");
        env.set("JANITOR_INTERVAL", "2");
        env.set("OUTPOSTS_CONNECT_PORT", free_port().to_string());
        let workers = StopOnDrop::new(&env);
        World {
            env,
            emu,
            session: None,
            outpost: None,
            connected: None,
            snapshot: None,
            worker: None,
            workers,
            v3_session: None,
        }
    }

    #[track_caller]
    fn ok(&self, args: &[&str]) -> Run {
        let mut full = vec!["--json"];
        full.extend_from_slice(args);
        let r = run_bounded(&self.env, &full, Duration::from_secs(120));
        r.ok();
        r
    }

    fn new_session(&self, task: Option<&str>) -> String {
        let mut args = vec!["emulator", "session", "new"];
        if let Some(t) = task {
            args.extend_from_slice(&["--task", t]);
        }
        let r = self.ok(&args);
        r.json()[0]["session_id"]
            .as_str()
            .expect("session id")
            .to_string()
    }

    fn worker(&self) -> String {
        self.worker.clone().expect("worker launch ran first")
    }
}

/// Run one leaf with `--json` (after its prerequisites); the runs whose stdout is checked.
fn exercise(w: &mut World, leaf: &str) -> Vec<Run> {
    match leaf {
        "help-env" => vec![w.ok(&["help-env"])],
        "completions" => vec![w.ok(&["completions", "zsh"])],
        "generate" => {
            let dir = w.env.path("generated").to_string_lossy().into_owned();
            vec![w.ok(&["generate", "--dir", &dir])]
        }
        "snapshot name" => vec![w.ok(&["snapshot", "name"])],
        "snapshot dockerfile" => vec![w.ok(&["snapshot", "dockerfile", "--platform", "windows"])],
        "emulator start" => {
            let mut bg = Bg::spawn(&w.env, &["--json", "emulator", "start", "--port", "0"]);
            bg.wait_stdout(Duration::from_secs(30), "ready line", |s| s.contains('\n'));
            bg.signal(libc::SIGTERM);
            let r = bg.wait(Duration::from_secs(30));
            r.ok();
            vec![r]
        }
        "emulator env" => vec![w.ok(&["emulator", "env"])],
        "emulator status" => vec![w.ok(&["emulator", "status"])],
        "emulator session new" => {
            let r = w.ok(&["emulator", "session", "new", "--count", "2"]);
            w.session = Some(r.json()[0]["session_id"].as_str().unwrap().to_string());
            vec![r]
        }
        "emulator session list" => vec![w.ok(&["emulator", "session", "list"])],
        "emulator session task" => {
            let id = w.session.clone().unwrap();
            vec![w.ok(&["emulator", "session", "task", &id, "sh: true"])]
        }
        "emulator session suspend" | "emulator session resume" | "emulator session terminate" => {
            let id = w.session.clone().unwrap();
            let verb = leaf.rsplit(' ').next().unwrap();
            vec![w.ok(&["emulator", "session", verb, &id])]
        }
        "auth status" => vec![w.ok(&["auth", "status"])],
        "queue list" => vec![w.ok(&["queue", "list"])],
        "queue watch" => {
            w.new_session(None);
            vec![w.ok(&["queue", "watch", "--from-start", "--limit", "2"])]
        }
        "outpost create" => {
            let r = w.ok(&["outpost", "create", "json-walk", "--platform", "linux"]);
            w.outpost = Some(r.json()["outpost_id"].as_str().expect("id").to_string());
            vec![r]
        }
        "outpost list" => vec![w.ok(&["outpost", "list"])],
        "outpost default set" => vec![w.ok(&["outpost", "default", "set", "emulator"])],
        "outpost default clear" => vec![w.ok(&["outpost", "default", "clear"])],
        "session create" => {
            let r = w.ok(&[
                "session",
                "create",
                "--prompt",
                "sh: true",
                "--outpost",
                "emulator",
            ]);
            w.v3_session = Some(r.json()["session_id"].as_str().expect("id").to_string());
            vec![r]
        }
        "session show" => {
            let id = w.v3_session.clone().unwrap();
            vec![w.ok(&["session", "show", &id])]
        }
        "session end" => {
            let id = w.v3_session.clone().unwrap();
            vec![w.ok(&["session", "end", &id])]
        }
        "outpost get" => {
            let id = w.outpost.clone().unwrap();
            vec![w.ok(&["outpost", "get", &id])]
        }
        "outpost delete" => {
            let id = w.outpost.clone().unwrap();
            vec![w.ok(&["outpost", "delete", &id, "--yes"])]
        }
        "connect" => {
            let env = connect_env(&w.emu);
            let mut c =
                Connecting::spawn(&env, &["--json", "connect", "--no-browser", "--port", "0"]);
            approve(&c.url());
            let r = c.wait(Duration::from_secs(60));
            r.ok();
            w.connected = Some(env);
            vec![r]
        }
        "auth set-key" => {
            // Stored in the connected setup's .env, which `auth logout` then clears.
            let env = w.connected.as_ref().expect("connect ran first");
            let key = w.emu.env_value("DEVIN_API_KEY");
            let r = crate::auth_key::run_with_stdin(env, &["--json", "auth", "set-key"], &key);
            r.ok();
            vec![r]
        }
        "auth logout" => {
            let env = w.connected.as_ref().expect("connect ran first");
            let r = env.run(&["--json", "auth", "logout", "--yes"]);
            r.ok();
            vec![r]
        }
        "snapshot build" => {
            let r = w.ok(&["snapshot", "build"]);
            w.snapshot = Some(r.json()["name"].as_str().expect("name").to_string());
            vec![r]
        }
        "snapshot list" => {
            let r = w.ok(&["snapshot", "list"]);
            // The documented shape (docs/json.md), on the snapshot just built.
            crate::json_docs::assert_items_match("snapshot list", &r.json());
            vec![r]
        }
        "snapshot warm-pool set" => {
            let name = w.snapshot.clone().unwrap();
            vec![w.ok(&["snapshot", "warm-pool", "set", "1", "--snapshot", &name])]
        }
        "snapshot warm-pool show" => {
            let name = w.snapshot.clone().unwrap();
            vec![w.ok(&["snapshot", "warm-pool", "show", "--snapshot", &name])]
        }
        "snapshot warm-pool delete" => {
            let name = w.snapshot.clone().unwrap();
            vec![w.ok(&["snapshot", "warm-pool", "delete", "--snapshot", &name])]
        }
        "doctor" => vec![w.ok(&["doctor"])],
        "snapshot delete" => {
            let name = w.snapshot.clone().unwrap();
            vec![w.ok(&["snapshot", "delete", &name, "--yes"])]
        }
        "orchestrator run" => {
            let mut bg = Bg::spawn(&w.env, &["--json", "orchestrator", "run"]);
            bg.wait_stdout(Duration::from_secs(60), "started", |s| {
                s.contains("\"event\":\"started\"")
            });
            let id = w.new_session(Some(&proof_task(PROOF)));
            let launched = format!("{{\"event\":\"remote_launched\",\"session\":\"{id}\"");
            bg.wait_stdout(Duration::from_secs(90), "remote launched", |s| {
                s.contains(&launched)
            });
            // The fake remote carries out the task: the proof file `session verify` reads.
            let client = w.emu.client();
            let start = Instant::now();
            while !block_on(client.session(&id))
                .ok()
                .flatten()
                .is_some_and(|s| !s.tasks.is_empty() && s.tasks.iter().all(|t| t.status == "done"))
            {
                assert!(
                    start.elapsed() < Duration::from_secs(60),
                    "the proof task never ran"
                );
                std::thread::sleep(Duration::from_millis(200));
            }
            bg.signal(libc::SIGTERM);
            let r = bg.wait(Duration::from_secs(40));
            r.ok();
            let lines = ndjson("orchestrator run", &r);
            assert_eq!(lines[0]["event"], "started", "{}", r.stdout);
            assert_eq!(lines.last().unwrap()["event"], "stopped", "{}", r.stdout);
            assert!(
                lines
                    .iter()
                    .any(|l| l["event"] == "claimed" && l["session"] == id.as_str()),
                "{}",
                r.stdout
            );
            w.session = Some(id);
            vec![r]
        }
        "orchestrator status" => vec![w.ok(&["orchestrator", "status"])],
        "orchestrator failures" => vec![w.ok(&["orchestrator", "failures"])],
        "cost" => vec![w.ok(&["cost"])],
        "session verify" => {
            // The orchestrator's sandbox of that session still runs, with the proof in it.
            let id = w.session.clone().unwrap();
            let r = w.ok(&[
                "session",
                "verify",
                "--session",
                &id,
                "--proof",
                PROOF,
                "--wait",
                "60s",
            ]);
            assert_eq!(r.json()["result"], "match", "{}", r.stdout);
            vec![r]
        }
        "worker launch" => {
            let r = w.ok(&["worker", "launch", "--outpost", "emulator"]);
            let id = r.json()["workers"][0]["id"]
                .as_str()
                .expect("worker id")
                .to_string();
            w.workers.ids.push(id.clone());
            w.worker = Some(id);
            vec![r]
        }
        "worker list" => vec![w.ok(&["worker", "list"])],
        "worker status" => {
            let r = w.ok(&["worker", "status", &w.worker()]);
            crate::json_docs::assert_matches("worker status", &r.json());
            vec![r]
        }
        "worker logs" => {
            let id = w.worker();
            let tail = w.ok(&["worker", "logs", &id, "--tail", "3"]);
            assert!(
                ndjson("worker logs --tail", &tail).len() <= 3,
                "{}",
                tail.stdout
            );
            for line in ndjson("worker logs --tail", &tail) {
                crate::json_docs::assert_matches("worker logs", &line);
            }
            let mut bg = Bg::spawn(&w.env, &["--json", "worker", "logs", &id, "--follow"]);
            bg.wait_stdout(Duration::from_secs(30), "a followed line", |s| {
                s.contains('\n')
            });
            bg.signal(libc::SIGINT);
            let follow = bg.wait(Duration::from_secs(30));
            assert!(
                follow.code == 0 || follow.code == 130,
                "worker logs --follow: {follow:?}"
            );
            vec![tail, follow]
        }
        "worker exec" => vec![w.ok(&["worker", "exec", &w.worker(), "--", "true"])],
        "worker stop" => vec![w.ok(&["worker", "stop", &w.worker(), "--yes"])],
        "demo" => vec![w.ok(&["demo"])],
        other => panic!(
            "{other} has no step in the JSON walk: add it to WALK and to `exercise` with what it \
             needs set up first"
        ),
    }
}

#[test]
fn every_command_prints_json_with_json() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let mut w = World::new();
    let _cleanup = Cleanup {
        root: w.env.path("sandboxes"),
    };
    for (leaf, out) in WALK {
        let started = Instant::now();
        let runs = exercise(&mut w, leaf);
        eprintln!(
            "json walk: {leaf} ({:.1} s)",
            started.elapsed().as_secs_f64()
        );
        for r in runs {
            match out {
                Out::Doc => {
                    one_doc(leaf, &r);
                }
                Out::Stream => {
                    ndjson(leaf, &r);
                }
            }
            if r.code != 0 {
                json_error(leaf, &r);
            }
        }
    }
}

#[test]
fn errors_are_json_on_stderr_with_json() {
    let mut env = TestEnv::new();
    // Usage errors, for every leaf command.
    for leaf in leaves() {
        let mut args: Vec<&str> = vec!["--json"];
        args.extend(leaf.split(' '));
        args.push("--no-such-flag");
        let r = env.run(&args);
        r.code(2);
        let e = json_error(&leaf, &r);
        assert_eq!(e["error"]["code"], "usage");
        // A `session` command's stdout always holds one document: there, the same error.
        if leaf.starts_with("session ") {
            assert_eq!(r.json(), e, "{leaf}: {}", r.stdout);
        } else {
            assert!(r.stdout.is_empty(), "{leaf}: {}", r.stdout);
        }
    }
    // Configuration (2), authentication (4), failure (1) and a failed check (3).
    env.set("DEVIN_API_URL", "ftp://devin.example");
    let r = env.run(&["--json", "queue", "list"]);
    r.code(2);
    assert!(
        json_error("bad setting", &r)["error"]["message"]
            .as_str()
            .unwrap()
            .contains("DEVIN_API_URL")
    );
    env.unset("DEVIN_API_URL");
    let r = env.run(&["--json", "queue", "list"]);
    r.code(4);
    assert_eq!(json_error("no token", &r)["error"]["code"], "auth");
    env.set("OUTPOSTS_EMULATOR_PORT", free_port().to_string());
    let r = env.run(&["--json", "emulator", "status"]);
    r.code(1);
    assert!(json_error("no emulator", &r)["error"]["hint"].is_string());
    let r = env.run(&["--json", "doctor", "--timeout", "2s"]);
    r.code(3);
    one_doc("doctor", &r);
    assert_eq!(json_error("doctor", &r)["error"]["code"], "check_failed");
}
