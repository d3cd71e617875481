//! A devin-remote build baked into the Daytona snapshot (`snapshot build --bake-remote`): the
//! build downloads and checks it (the emulated builder executes the verified-download `RUN`
//! steps), the bake is part of the snapshot's hashed name, and a session pinned to the baked
//! build launches from the cache (`cached=yes`) with no download; another pin downloads as before.

use std::time::Duration;

use crate::support::orch::*;

const WAIT: Duration = Duration::from_secs(90);
const BAKED: &str = "ba4e0123ab";
const OTHER: &str = "0a4e0123cd";

#[test]
fn a_session_pinned_to_the_baked_build_launches_without_a_download() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, mut env) = orch_emulator(&[]);
    let plain = crate::support::orch::snapshot_name(&env);
    let built = env
        .run(&[
            "snapshot",
            "build",
            "--bake-remote",
            "--remote-sha",
            BAKED,
            "--json",
        ])
        .ok()
        .json();
    let name = built["name"].as_str().unwrap().to_string();
    assert_eq!(built["baked_remote"], BAKED, "{built}");
    assert_ne!(name, plain, "the bake is not part of the snapshot name");
    // The build fetched and checked the binary (each Linux architecture once).
    assert_eq!(remote_downloads(&emu, BAKED), 1);
    let log = emu.requests();
    assert!(
        log.iter().any(|r| r
            .path
            .ends_with(&format!("devin-remote_{BAKED}_linux_arm64"))),
        "the arm64 build was not baked"
    );
    // Another bake is another image, under another name.
    let other = env
        .run(&["snapshot", "build", "--bake-remote", "--json"])
        .ok()
        .json();
    assert_ne!(other["name"], built["name"], "{other}");
    assert_ne!(other["name"].as_str(), Some(plain.as_str()), "{other}");

    env.set("SNAPSHOT_NAME", &name);
    let mut orch = Orch::start(
        &env,
        &["--provider", "daytona", "--max-concurrent-sessions", "2"],
    );
    let baked = pinned_session(&emu, BAKED);
    wait_until(
        WAIT,
        "the baked session's launch",
        || launch_line(&orch, &baked).is_some(),
        || orch.log(),
    );
    let line = launch_line(&orch, &baked).unwrap();
    assert!(line.contains("cached=yes"), "{line}\n{}", orch.log());
    assert_eq!(
        remote_downloads(&emu, BAKED),
        1,
        "the session downloaded the baked build again"
    );

    let other = pinned_session(&emu, OTHER);
    wait_until(
        WAIT,
        "the other session's launch",
        || launch_line(&orch, &other).is_some(),
        || orch.log(),
    );
    let line = launch_line(&orch, &other).unwrap();
    assert!(line.contains("cached=no"), "{line}");
    assert_eq!(remote_downloads(&emu, OTHER), 1);
    orch.kill();
}

#[test]
fn a_bake_whose_checksum_does_not_match_fails_the_build() {
    let (_emu, env) = orch_emulator(&[]);
    // The distribution's checksum for CORRUPT_SHA never matches its binary.
    let sha = outposts::emulator::devin::remote::CORRUPT_SHA;
    let r = env.run(&["snapshot", "build", "--bake-remote", "--remote-sha", sha]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("sha256sum -c failed"), "{}", r.stderr);
    assert!(
        r.stderr.contains("computed checksum did NOT match"),
        "{}",
        r.stderr
    );
    // Usage errors: Windows images have no launch cache to bake into; a sha without the bake.
    let r = env.run(&[
        "snapshot",
        "build",
        "--platform",
        "windows",
        "--bake-remote",
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("Linux snapshots only"), "{}", r.stderr);
    let r = env.run(&["snapshot", "build", "--remote-sha", "5eed0f1ce0"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    let r = env.run(&["snapshot", "build", "--bake-remote", "--remote-sha", "nope"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
}
