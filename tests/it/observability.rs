//! What an operator sees of a running orchestrator: `/metrics` through one session's serve,
//! sleep, wake and termination (histogram counts, the sandbox-state gauge), a scrape that
//! `promtool check metrics` accepts, and `orchestrator status --watch` on a terminal and off it.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::orch::*;
use crate::support::{BIN, TestEnv, block_on};

const WAIT: Duration = Duration::from_secs(60);

/// The metrics address `orchestrator run --metrics-addr 127.0.0.1:0` announced.
pub fn metrics_addr(orch: &Orch) -> String {
    let mut addr = None;
    wait_until(
        WAIT,
        "the metrics address",
        || {
            addr = orch
                .log()
                .lines()
                .find_map(|l| l.split("metrics on http://").nth(1))
                .and_then(|rest| rest.split('/').next())
                .map(str::to_string);
            addr.is_some()
        },
        || orch.log(),
    );
    addr.unwrap_or_default()
}

/// GET `path` over HTTP/1.0 (a close-delimited body, no chunking): (headers, body).
pub fn http_get(addr: &str, path: &str, accept: Option<&str>) -> (String, String) {
    let mut stream = std::net::TcpStream::connect(addr).expect("connect");
    let accept = accept
        .map(|a| format!("Accept: {a}\r\n"))
        .unwrap_or_default();
    write!(
        stream,
        "GET {path} HTTP/1.0\r\nHost: {addr}\r\n{accept}\r\n"
    )
    .unwrap();
    let mut out = String::new();
    stream.read_to_string(&mut out).expect("read");
    let (head, body) = out.split_once("\r\n\r\n").unwrap_or((&out, ""));
    (head.to_string(), body.to_string())
}

pub fn scrape(addr: &str) -> String {
    http_get(addr, "/metrics", None).1
}

/// The value of one series (`name` or `name{labels}` exactly as exposed), if present.
pub fn sample(text: &str, series: &str) -> Option<f64> {
    text.lines().filter(|l| !l.starts_with('#')).find_map(|l| {
        l.strip_prefix(series)?
            .strip_prefix(' ')?
            .trim()
            .parse()
            .ok()
    })
}

fn promtool_accepts(text: &str) {
    let mut child = Command::new("promtool")
        .args(["check", "metrics"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("promtool");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "promtool check metrics: {}{}\n{text}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Wait until every `(series, value)` holds in a scrape.
fn wait_metrics(addr: &str, what: &str, want: &[(&str, f64)], orch: &Orch) {
    let deadline = Instant::now() + WAIT;
    loop {
        let last = scrape(addr);
        if want.iter().all(|(s, v)| sample(&last, s) == Some(*v)) {
            return;
        }
        if Instant::now() > deadline {
            let got: Vec<String> = want
                .iter()
                .map(|(s, v)| format!("{s}: want {v}, got {:?}", sample(&last, s)))
                .collect();
            panic!(
                "timed out waiting for {what}:\n{}\n--- scrape\n{last}\n--- log\n{}",
                got.join("\n"),
                orch.log()
            );
        }
        std::thread::sleep(Duration::from_millis(250));
    }
}

const CLAIM_WAIT: &str = "outposts_claim_wait_seconds_count";
const CONNECT: &str = "outposts_connect_seconds_count";
const WAKE: &str = "outposts_wake_seconds_count";
const SLEEP: &str = "outposts_sleep_seconds_count";
const RUNNING: &str = "outposts_sandboxes{state=\"running\"}";
const STOPPED: &str = "outposts_sandboxes{state=\"stopped\"}";
const SERVING: &str = "outposts_sessions{phase=\"serving\"}";

#[test]
fn metrics_follow_a_session_through_serve_sleep_wake_and_terminate() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    crate::support::host::require!(crate::support::host::PROMTOOL);
    let (emu, env) = orch_emulator(&[]);
    let orch = Orch::start(
        &env,
        &["--provider", "local", "--metrics-addr", "127.0.0.1:0"],
    );
    let addr = metrics_addr(&orch);
    let s = new_session(&emu, Some(proof_task("obs")));
    wait_until(WAIT, "the task", || tasks_done(&emu, &s), || orch.log());
    wait_metrics(
        &addr,
        "the session served",
        &[
            (CLAIM_WAIT, 1.0),
            (CONNECT, 1.0),
            (WAKE, 0.0),
            (SLEEP, 0.0),
            (SERVING, 1.0),
            (RUNNING, 1.0),
            (STOPPED, 0.0),
            ("outposts_claims_total{result=\"won\"}", 1.0),
            ("outposts_remote_launches_total", 1.0),
            (
                "outposts_sandbox_transitions_total{transition=\"created\"}",
                1.0,
            ),
        ],
        &orch,
    );
    let text = scrape(&addr);
    promtool_accepts(&text);
    assert!(
        text.contains("outposts_api_request_duration_seconds_count{api=\"devin\",operation=\"POST /opbeta/outposts/devins/{id}/claim\",status_class=\"2xx\"}"),
        "{text}"
    );
    assert!(!text.contains(&s), "a session id became a label:\n{text}");
    // Prometheus asks for OpenMetrics and gets it.
    let (head, om) = http_get(
        &addr,
        "/metrics",
        Some("application/openmetrics-text;version=1.0.0,text/plain;q=0.5"),
    );
    assert!(
        head.to_ascii_lowercase()
            .contains("content-type: application/openmetrics-text"),
        "{head}"
    );
    assert!(om.ends_with("# EOF\n"), "{om}");

    block_on(emu.client().suspend(&s)).unwrap();
    wait_metrics(
        &addr,
        "the sleep",
        &[
            (SLEEP, 1.0),
            (SERVING, 0.0),
            (RUNNING, 0.0),
            (STOPPED, 1.0),
            ("outposts_releases_total", 1.0),
        ],
        &orch,
    );
    block_on(emu.client().resume(&s)).unwrap();
    wait_metrics(
        &addr,
        "the wake",
        &[
            (CLAIM_WAIT, 2.0),
            (CONNECT, 2.0),
            (WAKE, 1.0),
            (SERVING, 1.0),
            (RUNNING, 1.0),
            (STOPPED, 0.0),
            (
                "outposts_sandbox_transitions_total{transition=\"started\"}",
                1.0,
            ),
        ],
        &orch,
    );
    block_on(emu.client().terminate(&s)).unwrap();
    wait_metrics(
        &addr,
        "the termination",
        &[
            (
                "outposts_sandbox_transitions_total{transition=\"deleted\"}",
                1.0,
            ),
            (SERVING, 0.0),
            (RUNNING, 0.0),
            (STOPPED, 0.0),
            (WAKE, 1.0),
            (SLEEP, 1.0),
            ("outposts_releases_total", 2.0),
            ("outposts_sandboxes_of_terminated_sessions", 0.0),
        ],
        &orch,
    );
    promtool_accepts(&scrape(&addr));
}

/// `outposts orchestrator status --watch` with the test env, under `script` (a pseudo-terminal)
/// when `tty`; stdout goes to `out`.
fn watch_cmd(env: &TestEnv, tty: bool, out: &std::path::Path) -> std::process::Child {
    let args = ["orchestrator", "status", "--watch", "--interval", "1"];
    let mut cmd = if tty {
        // A wide terminal: the table is cut to the terminal's width.
        let line = std::iter::once(BIN)
            .chain(args)
            .map(|a| format!("'{a}'"))
            .collect::<Vec<_>>()
            .join(" ");
        let line = format!("stty cols 250 rows 50; {line}");
        let mut c = Command::new("script");
        c.args(["-qfec", &line, "/dev/null"]);
        c
    } else {
        let mut c = Command::new(BIN);
        c.args(args);
        c
    };
    cmd.env_clear()
        .envs(&env.vars)
        .env("TERM", "xterm")
        .current_dir(&env.cwd)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(out).unwrap())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn status --watch")
}

#[test]
fn status_watch_redraws_on_a_terminal_and_streams_ndjson_off_one() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    crate::support::host::require!(crate::support::host::SCRIPT);
    let (emu, env) = orch_emulator(&[]);
    let orch = Orch::start(&env, &["--provider", "local"]);
    let s = new_session(&emu, Some(proof_task("watch")));
    wait_until(WAIT, "the task", || tasks_done(&emu, &s), || orch.log());
    let tty_out = env.path("watch-tty.txt");
    let ndjson_out = env.path("watch.ndjson");
    let mut tty = watch_cmd(&env, true, &tty_out);
    let mut plain = watch_cmd(&env, false, &ndjson_out);
    let read = |p: &std::path::Path| std::fs::read_to_string(p).unwrap_or_default();
    wait_until(
        WAIT,
        "the live table showing the session served",
        || read(&tty_out).contains("serving"),
        || read(&tty_out),
    );
    // Both views sample the status file on their own clock: the stream must have seen the
    // session served before it is put to sleep.
    wait_until(
        WAIT,
        "the NDJSON stream showing the session served",
        || read(&ndjson_out).contains("\"phase\":\"serving\""),
        || read(&ndjson_out),
    );
    block_on(emu.client().suspend(&s)).unwrap();
    wait_until(
        WAIT,
        "the live table showing the sleep",
        // The orchestrator's own record of the event.
        || read(&tty_out).contains("slept (Devin suspended it)"),
        || format!("{}\n--- log\n{}", read(&tty_out), orch.log()),
    );
    wait_until(
        WAIT,
        "the NDJSON stream showing the sleep",
        || read(&ndjson_out).contains("\"phase\":\"sleeping\""),
        || read(&ndjson_out),
    );
    let screen = read(&tty_out);
    // Redrawn in place: back over the previous frame and clear, never a second header below.
    assert!(screen.contains("\x1b[J"), "{screen:?}");
    let frames = screen.matches("SESSION").count();
    assert!(frames >= 2, "{screen:?}");
    assert!(screen.matches("\x1b[").count() >= frames - 1, "{screen:?}");
    assert!(
        screen.contains(&s) && screen.contains("LAST EVENT"),
        "{screen}"
    );
    let _ = tty.kill();
    let _ = tty.wait();

    // Off a terminal: one JSON object per line per refresh, the state change among them.
    let lines = read(&ndjson_out);
    let docs: Vec<serde_json::Value> = lines
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l:?}")))
        .collect();
    assert!(docs.len() >= 2, "{lines}");
    let phase = |d: &serde_json::Value| {
        d["rows"]
            .as_array()
            .and_then(|r| r.iter().find(|x| x["session"] == s.as_str()))
            .map(|x| x["phase"].as_str().unwrap_or_default().to_string())
    };
    assert!(
        docs.iter().any(|d| phase(d).as_deref() == Some("serving")),
        "{lines}"
    );
    assert_eq!(
        phase(docs.last().unwrap()).as_deref(),
        Some("sleeping"),
        "{lines}"
    );
    // Ctrl-C ends it with 130.
    unsafe {
        libc::kill(plain.id() as i32, libc::SIGINT);
    }
    let started = Instant::now();
    let code = loop {
        if let Some(st) = plain.try_wait().unwrap() {
            break st.code();
        }
        assert!(started.elapsed() < Duration::from_secs(10), "still running");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(code, Some(130));
}
