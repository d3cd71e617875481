//! Issue 24, as a newcomer meets the orchestrator: a wrong outpost is an error at once (item 1),
//! the foreground orchestrator narrates on a terminal (item 2), `emulator session new` goes to
//! the configured outpost (item 4), and the status views tell fresh from stale (item 9).

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::orch::*;
use crate::support::{BIN, Emu, TestEnv, block_on};

const WAIT: Duration = Duration::from_secs(60);

/// `outposts ARGS` under `script` (a pseudo-terminal 100 columns wide); the terminal's output
/// goes to `out`.
fn on_a_terminal(env: &TestEnv, args: &[&str], out: &std::path::Path) -> Child {
    let line = std::iter::once(BIN)
        .chain(args.iter().copied())
        .map(|a| format!("'{a}'"))
        .collect::<Vec<_>>()
        .join(" ");
    Command::new("script")
        .args([
            "-qfec",
            &format!("stty cols 100 rows 50; {line}"),
            "/dev/null",
        ])
        .env_clear()
        .envs(&env.vars)
        .env("TERM", "xterm")
        .current_dir(&env.cwd)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(out).unwrap())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn script")
}

fn read(p: &std::path::Path) -> String {
    std::fs::read_to_string(p).unwrap_or_default()
}

/// The pid of the orchestrator holding the env's state dir.
fn orchestrator_pid(env: &TestEnv) -> Option<i32> {
    std::fs::read_to_string(env.path("state/orchestrator.lock"))
        .ok()
        .and_then(|s| s.trim().parse().ok())
}

fn sigterm(pid: i32) {
    unsafe {
        libc::kill(pid, libc::SIGTERM);
    }
}

/// The orchestrator run under `script`: on drop (also when a test fails) the orchestrator and
/// the terminal are killed, so nothing outlives the test.
struct OnTerminal<'a> {
    env: &'a TestEnv,
    child: Child,
}

impl Drop for OnTerminal<'_> {
    fn drop(&mut self) {
        if let Some(pid) = orchestrator_pid(self.env) {
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Item 1: the outpost's name is served under its id; a wrong one stops `orchestrator run`
/// before any claim (exit 2, the outposts listed) and makes `queue list` an error.
#[test]
fn a_wrong_outpost_is_an_error_and_a_name_is_served() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, mut env) = orch_emulator(&[]);
    let id = emu.env_value("OUTPOST_ID");

    let mut wrong = Orch::start(&env, &["--provider", "local", "--outpost", "gpu-linux"]);
    let code = wrong.wait_exit(Duration::from_secs(20));
    assert_eq!(
        code,
        Some(2),
        "still running or wrong code\n{}",
        wrong.log()
    );
    let log = wrong.log();
    assert!(log.contains("\"gpu-linux\""), "{log}");
    assert!(log.contains(&id), "the outposts are listed: {log}");
    assert!(log.contains("outposts outpost list"), "{log}");

    env.set("OUTPOST_ID", "outpost_env-doesnotexist");
    let q = env.run(&["queue", "list"]);
    assert_eq!(q.code, 2, "{q:?}");
    assert!(
        q.stderr.contains("outpost_env-doesnotexist"),
        "{}",
        q.stderr
    );
    let w = env.run(&["queue", "watch", "--limit", "1"]);
    assert_eq!(w.code, 2, "{w:?}");
    // The hint's command, run as printed, lists the outposts.
    env.set("OUTPOST_ID", &id);
    let listed = env.run(&["outpost", "list"]);
    listed.ok();
    assert!(listed.stdout.contains(&id), "{}", listed.stdout);

    // By name: served under the id.
    let orch = Orch::start(&env, &["--provider", "local", "--outpost", "emulator"]);
    let s = new_session(&emu, Some(proof_task("by-name")));
    wait_until(WAIT, "the task", || tasks_done(&emu, &s), || orch.log());
    assert!(orch.log().contains(&id), "{}", orch.log());
    let q = env.run(&["queue", "list", "--outpost", "emulator"]);
    q.ok();
    assert!(q.stdout.contains(&s), "{}", q.stdout);
}

/// Item 4: sessions go to OUTPOST_ID (here from `.env`), and stderr says where.
#[test]
fn emulator_session_new_queues_on_the_configured_outpost() {
    let emu = Emu::start(&TestEnv::new(), &[]);
    let mut env = TestEnv::new();
    emu.configure(&mut env);
    let created = env.run(&["outpost", "create", "gpu-linux", "--platform", "linux"]);
    created.ok();
    let gpu = created.stdout.trim().to_string();
    env.unset("OUTPOST_ID");
    std::fs::write(env.cwd.join(".env"), format!("OUTPOST_ID={gpu}\n")).unwrap();
    let r = env.run(&["--json", "emulator", "session", "new", "--count", "3"]);
    r.ok();
    assert!(
        r.stderr
            .contains(&format!("3 sessions queued on gpu-linux ({gpu})")),
        "{}",
        r.stderr
    );
    for s in r.json().as_array().unwrap() {
        assert_eq!(s["outpost_id"], gpu.as_str(), "{s}");
    }
    let q = env.run(&["--json", "queue", "list", "--outpost", "gpu-linux"]);
    q.ok();
    assert_eq!(q.json().as_array().unwrap().len(), 3);
}

/// Item 2: on a terminal, one readable line per session event and a line when the cap holds
/// sessions back; `orchestrator status` says how many are held and waiting; `-q` is silent.
#[test]
fn the_foreground_orchestrator_narrates_on_a_terminal() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    crate::support::host::require!(crate::support::host::SCRIPT);
    let (emu, env) = orch_emulator(&[]);
    let out = env.path("narration.txt");
    let mut term = OnTerminal {
        env: &env,
        child: on_a_terminal(
            &env,
            &[
                "orchestrator",
                "run",
                "--provider",
                "local",
                "--max-concurrent-sessions",
                "1",
            ],
            &out,
        ),
    };
    let s1 = new_session(&emu, Some(proof_task("one")));
    wait_until(WAIT, "s1 served", || tasks_done(&emu, &s1), || read(&out));
    let s2 = new_session(&emu, None);
    wait_until(
        WAIT,
        "the capacity line",
        || read(&out).contains("at capacity: 1/1 held, 1 waiting"),
        || read(&out),
    );
    let st = env.run(&["orchestrator", "status"]);
    st.ok();
    assert!(st.stdout.contains("1/1 held, 1 waiting"), "{}", st.stdout);
    block_on(emu.client().suspend(&s1)).unwrap();
    wait_until(
        WAIT,
        "the sleep",
        || read(&out).contains(&format!("{s1}  slept")),
        || read(&out),
    );
    wait_until(
        WAIT,
        "s2 claimed once s1 slept",
        || read(&out).contains(&format!("{s2}  claimed")),
        || read(&out),
    );
    block_on(emu.client().terminate(&s2)).unwrap();
    block_on(emu.client().resume(&s1)).unwrap();
    wait_until(
        WAIT,
        "the wake",
        || read(&out).contains(&format!("{s1}  woke: sandbox")),
        || read(&out),
    );
    block_on(emu.client().terminate(&s1)).unwrap();
    wait_until(
        WAIT,
        "the end",
        || read(&out).contains(&format!("{s1}  ended (terminated)")),
        || read(&out),
    );
    let screen = read(&out);
    for want in [
        format!("{s1}  claimed"),
        format!("{s1}  sandbox "),
        format!("{s1}  served: devin-remote launched"),
        format!("{s1}  sandbox "),
        "stopped, disk kept".to_string(),
        "deleted".to_string(),
    ] {
        assert!(screen.contains(&want), "{want:?} missing:\n{screen}");
    }
    // Readable lines, not JSON blobs.
    assert!(!screen.contains("{\"event\""), "{screen}");
    if let Some(pid) = orchestrator_pid(&env) {
        sigterm(pid);
    }
    let started = Instant::now();
    while term.child.try_wait().unwrap().is_none() && started.elapsed() < Duration::from_secs(35) {
        std::thread::sleep(Duration::from_millis(100));
    }
    drop(term);

    // -q: nothing but errors.
    let quiet_out = env.path("quiet.txt");
    let quiet = OnTerminal {
        env: &env,
        child: on_a_terminal(
            &env,
            &["-q", "orchestrator", "run", "--provider", "local"],
            &quiet_out,
        ),
    };
    let s3 = new_session(&emu, Some(proof_task("three")));
    wait_until(
        WAIT,
        "s3 served",
        || tasks_done(&emu, &s3),
        || read(&quiet_out),
    );
    assert!(!read(&quiet_out).contains(&s3), "{}", read(&quiet_out));
    drop(quiet);
}

/// The fields of the session's row in a table (SESSION PHASE STATE AGE).
fn row(table: &str, session: &str) -> Option<Vec<String>> {
    table
        .lines()
        .rev()
        .find(|l| l.starts_with(session))
        .map(|l| l.split_whitespace().map(str::to_string).collect())
}

fn seconds(age: &str) -> u64 {
    let (n, unit) = age.split_at(age.len() - 1);
    let n: u64 = n.parse().unwrap_or_else(|_| panic!("age {age:?}"));
    match unit {
        "s" => n,
        "m" => n * 60,
        _ => n * 3600,
    }
}

/// Item 9: right after start the sandboxes are counted (not "0 running" until the janitor's
/// minute), another replica's count is named as such, a stopped orchestrator's record reads
/// stale, and `status --watch` shares the table, ages sessions from their start and follows
/// a deletion.
#[test]
fn status_views_tell_fresh_from_stale() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    crate::support::host::require!(crate::support::host::SCRIPT);
    let (emu, mut env) = orch_emulator(&[]);
    env.set("JANITOR_INTERVAL", "60");
    let mut a = Orch::start(&env, &["--provider", "local"]);
    let s1 = new_session(&emu, Some(proof_task("a")));
    wait_until(WAIT, "s1 served", || tasks_done(&emu, &s1), || a.log());
    wait_until(
        Duration::from_secs(10),
        "status counting the sandbox",
        || {
            env.run(&["orchestrator", "status"])
                .stdout
                .contains("sandboxes    1 running")
        },
        || env.run(&["orchestrator", "status"]).stdout,
    );

    // A second replica (own state dir, same outpost) serves s2 while A is down; A, restarted,
    // counts it at once (its first janitor pass runs at start) and says whose it is.
    a.terminate(Duration::from_secs(35));
    let mut env_b = orch_env(&emu);
    env_b.set(
        "OUTPOSTS_LOCAL_ROOT",
        env.path("sandboxes").to_string_lossy(),
    );
    let b = Orch::start(&env_b, &["--provider", "local"]);
    let s2 = new_session(&emu, Some(proof_task("b")));
    wait_until(WAIT, "s2 served", || tasks_done(&emu, &s2), || b.log());
    let a = Orch::start(&env, &["--provider", "local"]);
    wait_until(
        Duration::from_secs(15),
        "the other replica named",
        || {
            let st = env.run(&["orchestrator", "status"]).stdout;
            st.contains("sandboxes    2 running")
                && st.contains("1 of them held by another replica")
        },
        || env.run(&["orchestrator", "status"]).stdout,
    );
    drop(b);

    // status --watch, started well after s1 began: AGE from the session's start.
    let created = session(&emu, &s1).created_at as f64;
    let age = || {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs_f64()
            - created
    };
    while age() < 6.0 {
        std::thread::sleep(Duration::from_millis(200));
    }
    let out = env.path("watch.txt");
    let mut watch = on_a_terminal(
        &env,
        &["orchestrator", "status", "--watch", "--interval", "1"],
        &out,
    );
    // `status --watch` holds no lock: killed with its terminal.
    wait_until(
        WAIT,
        "the first frame",
        || row(&read(&out), &s1).is_some(),
        || read(&out),
    );
    let first = row(&read(&out), &s1).unwrap();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs_f64();
    let since_start = (now - created) as u64;
    assert!(
        seconds(&first[3]) + 3 >= since_start && since_start >= 5,
        "AGE {} for a session {since_start}s old: {first:?}",
        first[3]
    );
    // The same header as `orchestrator status`.
    let status = env.run(&["orchestrator", "status"]).stdout;
    let header = status
        .lines()
        .find(|l| l.starts_with("SESSION"))
        .unwrap()
        .to_string();
    assert!(read(&out).contains(&header), "{header:?}\n{}", read(&out));
    block_on(emu.client().terminate(&s1)).unwrap();
    wait_until(
        WAIT,
        "the row to follow the deletion",
        || row(&read(&out), &s1).is_some_and(|r| r[2] == "terminated"),
        || read(&out),
    );
    let _ = watch.kill();
    let _ = watch.wait();
    for l in status.lines() {
        assert!(l.chars().count() <= 80, "{l:?} is wider than 80 columns");
    }

    // Down: the last record is labelled stale, with its age.
    drop(a);
    let st = env.run(&["orchestrator", "status"]);
    st.ok();
    assert!(
        st.stdout.contains("orchestrator not running"),
        "{}",
        st.stdout
    );
    assert!(st.stdout.contains("(stale)"), "{}", st.stdout);
    assert!(st.stdout.contains("as of "), "{}", st.stdout);
    let doc = env.run(&["--json", "orchestrator", "status"]).json();
    assert_eq!(doc["stale"], true, "{doc}");
}
