use super::*;

#[test]
fn suffixes_and_shas() {
    assert_eq!(suffix_for(Platform::Linux, "x86_64"), "linux_x64");
    assert_eq!(suffix_for(Platform::Linux, "aarch64\n"), "linux_arm64");
    assert_eq!(suffix_for(Platform::Unknown, ""), "linux_x64");
    assert_eq!(suffix_for(Platform::Windows, "x86_64"), "windows_x64.exe");
    assert!(valid_sha("412f0e9b19"));
    assert!(!valid_sha("412f0e"));
    assert!(!valid_sha("412f0e9b1z"));
    assert!(!valid_sha("../../etc"));
}

#[test]
fn checksum_bodies() {
    let d = "a".repeat(64);
    assert_eq!(parse_checksum(&format!("{d}\n")), Some(d.clone()));
    assert_eq!(
        parse_checksum(&format!("{}  devin-remote\n", d.to_uppercase())),
        Some(d.clone())
    );
    assert_eq!(parse_checksum("nope"), None);
    assert_eq!(parse_checksum(&"b".repeat(65)), None);
}

#[test]
fn safe_ids_are_bounded_and_distinct() {
    assert!(safe_id("devin-abc123").starts_with("devin-abc123-"));
    let hostile = safe_id("../../etc/passwd");
    assert!(
        !hostile.contains('/') && !hostile.contains(".."),
        "{hostile}"
    );
    assert_ne!(safe_id("a/b"), safe_id("a-b"));
    assert!(safe_id(&"x".repeat(500)).len() <= 53);
    assert_eq!(safe_id("日本").len(), 12);
}

#[test]
fn liveness_parsing() {
    assert_eq!(parse_liveness("running 42\n"), Some(Liveness::Running(42)));
    assert_eq!(parse_liveness("exited 0"), Some(Liveness::Exited(0)));
    assert_eq!(parse_liveness("exited \n"), Some(Liveness::Exited(-1)));
    assert_eq!(parse_liveness("absent"), Some(Liveness::Absent));
    // Nothing, or noise, is no evidence that the remote is gone.
    assert_eq!(parse_liveness(""), None);
    assert_eq!(parse_liveness("sh: 1: cannot fork"), None);
}

pub(super) fn plan(mode: LaunchMode) -> LaunchPlan {
    LaunchPlan {
        session_id: "devin-1".into(),
        platform: Platform::Windows,
        mode,
        workdir: "C:\\repos".into(),
        build: Some(Build {
            sha: "412f0e9b19".into(),
            base: "http://x".into(),
            sha256: [("windows_x64.exe", "a".repeat(64))].into_iter().collect(),
        }),
        gateway_url: "wss://g".into(),
        connect_token: Secret::new("connect-token-SECRET-123"),
        chrome_path: None,
    }
}

#[test]
fn cli_mode_uses_the_session_token_and_no_account_token() {
    let env = remote_env(&plan(LaunchMode::Cli));
    assert_eq!(
        env["DEVIN_REMOTE_SESSION_TOKEN"].expose(),
        "connect-token-SECRET-123"
    );
    assert!(!env.contains_key("DEVIN_OUTPOST_CONNECT_TOKEN"));
    assert_eq!(
        env["DEVIN_OUTPOSTS_TOKEN"].expose(),
        "placeholder-direct-serve"
    );
}

#[test]
fn linux_scripts_take_values_from_the_environment_only() {
    for s in [linux::LAUNCH, linux::CHECK] {
        assert!(!s.contains("TOKEN=\""), "no inline values");
    }
    assert!(
        linux::LAUNCH.contains("unset"),
        "the remote gets a clean environment"
    );
    // The PID guard compares the process's start time, not its executable.
    for s in [linux::LAUNCH, linux::CHECK] {
        assert!(s.contains("/proc/$1/stat"), "{s}");
    }
}

/// Run one of the Linux scripts with `sh`, as the sandbox would, with HOME and PATH under `dir`.
fn run_script(script: &str, dir: &std::path::Path, extra: &[(&str, &str)]) -> String {
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(script)
        .env_clear()
        .env("HOME", dir.join("home"))
        .env(
            "PATH",
            format!("{}:/usr/local/bin:/usr/bin:/bin", dir.join("bin").display()),
        )
        .env("OUTPOSTS_SAFE_ID", "s1")
        .envs(extra.iter().copied())
        .output()
        .expect("sh");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn launch_cli(dir: &std::path::Path) -> String {
    let workdir = dir.join("work").to_string_lossy().into_owned();
    run_script(
        linux::LAUNCH,
        dir,
        &[
            ("OUTPOSTS_LAUNCH", "cli"),
            ("OUTPOSTS_WORKDIR", &workdir),
            ("DEVIN_OUTPOST_SESSION_ID", "devin-1"),
        ],
    )
}

/// The launch adopts the process it started — a script whose `/proc/<pid>/exe` is the shell,
/// named with spaces and parentheses, even after its file was replaced and then deleted — and
/// only that process: a different start time (a reused pid) is not ours.
#[test]
fn the_guard_identifies_the_process_not_the_file() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::create_dir_all(dir.join("bin")).unwrap();
    // The command name (stat field 2) of a script is its file name: make it hostile.
    let odd = dir.join("bin").join("x) (y z");
    std::fs::write(&odd, "#!/bin/sh\nsleep 30\n").unwrap();
    let devin = dir.join("bin").join("devin");
    std::fs::write(&devin, "#!/bin/sh\nexec \"$(dirname \"$0\")/x) (y z\"\n").unwrap();
    for f in [&odd, &devin] {
        std::fs::set_permissions(f, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let first = launch_cli(dir);
    let (r, pairs) = linux::parse_launch(&first).expect("launch line");
    assert_eq!(r, "launched", "{first}");
    let pid = pairs.iter().find(|(k, _)| k == "pid").unwrap().1.clone();
    let run = dir.join("home/.devin-outposts/s1");
    let start = std::fs::read_to_string(run.join("remote.start")).unwrap();
    assert!(start.trim().parse::<u64>().is_ok(), "start time {start:?}");
    let check = || parse_liveness(&run_script(linux::CHECK, dir, &[]));
    let pid_n: u32 = pid.parse().unwrap();
    assert_eq!(check(), Some(Liveness::Running(pid_n)));
    // The file replaced, then deleted, while it runs: still the same process, adopted.
    std::fs::write(&devin, "#!/bin/sh\nexit 1\n").unwrap();
    let again = launch_cli(dir);
    assert_eq!(linux::parse_launch(&again).unwrap().0, "running", "{again}");
    std::fs::remove_file(&devin).unwrap();
    std::fs::remove_file(&odd).unwrap();
    assert_eq!(check(), Some(Liveness::Running(pid_n)));
    let log = std::fs::read_to_string(run.join("remote.log")).unwrap();
    assert!(log.contains("adopted the running remote"), "{log}");
    // Another start time under the same pid (what a reused pid looks like): not ours.
    std::fs::write(run.join("remote.start"), "1\n").unwrap();
    assert_ne!(check(), Some(Liveness::Running(pid_n)));
    std::fs::write(run.join("remote.start"), &start).unwrap();
    // SAFETY: kill(2) of the test's own child's pid.
    unsafe { libc::kill(pid_n as i32, libc::SIGKILL) };
    let t0 = std::time::Instant::now();
    while check() == Some(Liveness::Running(pid_n)) && t0.elapsed().as_secs() < 10 {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(
        matches!(check(), Some(Liveness::Exited(_))),
        "{:?}",
        check()
    );
}

#[test]
fn the_launch_line_is_parsed() {
    let out = "downloading\noutposts-launch result=launched pid=42 cached=no\n";
    let (r, pairs) = linux::parse_launch(out).unwrap();
    assert_eq!(r, "launched");
    assert!(pairs.contains(&("pid".into(), "42".into())));
    assert_eq!(
        linux::parse_launch("outposts-launch result=running pid=7")
            .unwrap()
            .0,
        "running"
    );
    assert!(linux::parse_launch("no marker here").is_none());
}
