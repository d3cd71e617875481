//! Running a command line as a user would: through `sh`, exactly as printed.

use crate::support::{BIN, Run, TestEnv};

/// Run a command line exactly as the tool printed it, through `sh`, with this build's
/// `outposts` first on PATH.
pub fn run_as_printed(env: &TestEnv, line: &str) -> Run {
    let dir = std::path::Path::new(BIN).parent().expect("bin dir");
    let path = format!(
        "{}:{}",
        dir.display(),
        env.vars.get("PATH").cloned().unwrap_or_default()
    );
    let out = std::process::Command::new("sh")
        .args(["-c", line])
        .env_clear()
        .envs(&env.vars)
        .env("PATH", path)
        .current_dir(&env.cwd)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("sh");
    Run::from(out)
}
