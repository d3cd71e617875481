//! The Windows daemon (Daytona `apps/daemon-win`) as far as this emulator can model it without
//! running PowerShell (nothing here has a .NET runtime):
//! - the default shell is `cmd.exe /C` (the newer daemon: `cmd.exe /S /C "…"`), whose command
//!   line holds at most 8,191 characters: a longer command fails with cmd's own message and
//!   exit 1 (limits, `envs` and timeouts per generation: [`WindowsDaemon`]);
//! - `process/execute` answers only when every holder of the command's output pipe has closed
//!   it. A command that starts a child with inherited handles — `Start-Process` with
//!   `-NoNewWindow` or any `-Redirect*` and without `-Wait` — hands the pipe to a process that
//!   outlives it, so the exec is held until its timeout (HTTP 408), as on a real sandbox;
//! - session commands are written into a long-lived shell's stdin, so a command never reports
//!   an exit code (see [`super::process::session_exec`]).
//!
//! Commands that pass these rules run in the sandbox's local twin like any other. A Windows
//! image has `powershell.exe`, but this model cannot run it (no Windows, no .NET): a command
//! line whose program is Windows PowerShell (or `pwsh`) is answered at once with exit code
//! [`NO_POWERSHELL_EXIT`] and a message that says so, rather than pretending it ran or that
//! the program does not exist.

use std::collections::BTreeMap;
use std::time::Duration;

use base64::Engine;

use super::Ctx;
use crate::emulator::AppState;
#[cfg(doc)]
use crate::emulator::daytona::windows_daemon::WindowsDaemon;
use crate::provider::{ExecOutput, ProviderError};
/// How long a held exec without a timeout of its own waits (the proxy would cut it sooner).
const DEFAULT_HOLD: Duration = Duration::from_secs(600);

/// cmd.exe's answer to a command line over [`CMD_LIMIT`].
pub const TOO_LONG: &str = "The command line is too long.\r\n";

/// The exit code of a PowerShell command line in this model (cmd.exe's own code for a program
/// it could not start is 9009; this one is the model's, so it is never mistaken for the world).
pub const NO_POWERSHELL_EXIT: i32 = 1;

/// The answer to a PowerShell command line.
pub const NO_POWERSHELL: &str = "outposts emulator: this Windows sandbox model cannot run \
PowerShell (nothing here has a Windows or .NET runtime); on a real Windows sandbox cmd.exe would \
start powershell.exe here\r\n";

/// Does this cmd.exe line start Windows PowerShell (`powershell[.exe]` or `pwsh[.exe]`, by name
/// or by path, `@` echo-off prefix allowed)?
pub fn runs_powershell(command: &str) -> bool {
    let first = command
        .trim_start()
        .trim_start_matches('@')
        .split_whitespace()
        .next()
        .unwrap_or("")
        .trim_matches('"')
        .to_ascii_lowercase();
    let program = first.rsplit(['\\', '/']).next().unwrap_or("");
    matches!(
        program,
        "powershell" | "powershell.exe" | "pwsh" | "pwsh.exe"
    )
}

/// The script of a `powershell … -EncodedCommand <base64 of UTF-16LE>` line.
pub fn encoded_script(command: &str) -> Option<String> {
    let mut words = command.split_whitespace();
    words.find(|w| {
        let w = w.to_ascii_lowercase();
        w == "-encodedcommand" || w == "-enc" || w == "-e" || w == "-ec"
    })?;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(words.next()?)
        .ok()?;
    let units: Vec<u16> = bytes
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    String::from_utf16(&units).ok()
}

/// Does the command start a child that inherits the exec's output pipe and outlives it?
pub fn leaks_pipe(command: &str) -> bool {
    let text = encoded_script(command).unwrap_or_else(|| command.to_string());
    text.split(['\n', ';']).any(|stmt| {
        let s = stmt.to_ascii_lowercase();
        s.contains("start-process")
            && (s.contains("-redirectstandard") || s.contains("-nonewwindow"))
            && !s.contains("-wait")
    })
}

/// How long a leaking exec is held.
pub fn hold(timeout: Option<u64>) -> Duration {
    timeout
        .filter(|t| *t > 0)
        .map(Duration::from_secs)
        .unwrap_or(DEFAULT_HOLD)
}

/// The older daemon past a command's timeout: the client is answered 408 while the command
/// (and whatever it started) runs on, untended, to its end.
pub(super) async fn run_untended(
    s: &AppState,
    c: &Ctx,
    command: &str,
    cwd: Option<String>,
    envs: BTreeMap<String, String>,
    timeout: Option<u64>,
) -> Result<ExecOutput, ProviderError> {
    let (s2, c2, command) = (s.clone(), c.clone(), command.to_string());
    let task = tokio::spawn(async move { super::run(&s2, &c2, &command, cwd, envs, None).await });
    let Some(limit) = timeout.filter(|t| *t > 0).map(Duration::from_secs) else {
        return task
            .await
            .unwrap_or_else(|e| Err(ProviderError::Other(e.to_string())));
    };
    match tokio::time::timeout(limit, task).await {
        Ok(done) => done.unwrap_or_else(|e| Err(ProviderError::Other(e.to_string()))),
        Err(_) => Err(ProviderError::Timeout(limit)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encode(script: &str) -> String {
        let utf16: Vec<u8> = script.encode_utf16().flat_map(u16::to_le_bytes).collect();
        format!(
            "powershell.exe -NoProfile -EncodedCommand {}",
            base64::engine::general_purpose::STANDARD.encode(utf16)
        )
    }

    #[test]
    fn inherited_handles_are_found_in_encoded_scripts() {
        let leak = "$x = 1\nStart-Process -FilePath a.exe -WindowStyle Hidden -RedirectStandardOutput o.log\n";
        assert!(leaks_pipe(&encode(leak)));
        assert!(leaks_pipe("Start-Process a.exe -NoNewWindow"));
        assert!(!leaks_pipe(&encode(
            "Start-Process -FilePath a.exe -WindowStyle Hidden\n"
        )));
        // Waiting for the child ends with it: nothing outlives the command.
        assert!(!leaks_pipe("Start-Process a.exe -NoNewWindow -Wait"));
        assert_eq!(encoded_script(&encode("hé")).as_deref(), Some("hé"));
        assert_eq!(encoded_script("echo hi"), None);
    }

    #[test]
    fn powershell_lines_are_recognised_by_their_program() {
        assert!(runs_powershell(&encode("Write-Output 1")));
        assert!(runs_powershell(
            "C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe -Command 1"
        ));
        assert!(runs_powershell("@pwsh -c 1"));
        assert!(!runs_powershell("echo powershell.exe"));
        assert!(!runs_powershell("git status"));
    }
}
