//! The emulator's v3 surface judged by a client nobody here wrote: `tests/conformance/devin_v3.py`
//! (Python standard library only, written from specs/devin-sessions-api.md) checks field names
//! and types, the status vocabulary and the 400/401/403/404/422 cases.

use std::process::Command;

use crate::support::daytona::conformance_dir;
use crate::support::{Emu, TestEnv, block_on};

#[test]
fn the_v3_conformance_script_accepts_the_emulator() {
    // The script needs only the standard library, but python3 itself is an optional tool.
    crate::support::host::require!(crate::support::host::PYTHON3);
    let env = TestEnv::new();
    let emu = Emu::start(&env, &[]);
    let limited = block_on(emu.client().v3_key(&["ViewOrgSessions"], "conformance")).unwrap();
    let out = Command::new("python3")
        .arg(conformance_dir().join("devin_v3.py"))
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("DEVIN_API_URL", emu.env_value("DEVIN_API_URL"))
        .env("DEVIN_API_KEY", emu.env_value("DEVIN_API_KEY"))
        .env("DEVIN_ORG_ID", emu.env_value("DEVIN_ORG_ID"))
        .env("DEVIN_LIMITED_KEY", limited.expose())
        .env("OUTPOST_NAME", "emulator")
        .output()
        .expect("run python3");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the v3 conformance script failed\nstdout:\n{stdout}\nstderr:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for step in [
        "401 without a valid key",
        "403 for a missing permission",
        "422 without prompt",
        "400 lists the accepted platforms",
        "create answers a SessionResponse",
        "create on an outpost by name",
        "get and list",
        "404 for an unknown session",
        "delete terminates",
        "default platform",
    ] {
        assert!(
            stdout.contains(&format!("ok {step}")),
            "missing {step}:\n{stdout}"
        );
    }
}
