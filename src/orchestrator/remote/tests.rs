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
    // The PID guard compares the process's executable, not its command line.
    for s in [linux::LAUNCH, linux::CHECK] {
        assert!(s.contains("/proc/$pid/exe"), "{s}");
    }
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
