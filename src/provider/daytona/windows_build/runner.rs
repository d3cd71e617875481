//! The detached provisioner run of a Windows build: a runner script (uploaded) runs the
//! provisioner with all its output in a log and then writes its exit code to a file of its own;
//! a short exec starts the runner without handle inheritance (a plain `Start-Process
//! -WindowStyle Hidden`), so the exec returns at once — the Windows daemon holds an exec open
//! while any process holds its output pipe.

use super::super::snapshot::WINDOWS_SCRIPT_PATH;

pub const RUNNER_PATH: &str = "C:\\ProgramData\\devin-outposts\\build\\run.ps1";
pub const LOG_PATH: &str = "C:\\ProgramData\\devin-outposts\\build\\provision.log";
pub const EXIT_PATH: &str = "C:\\ProgramData\\devin-outposts\\build\\provision.exit";

/// How every error line a Windows script reports begins (the provisioner's and the launch
/// scripts'): the one line read as the failure's message, since Windows PowerShell 5.1's own
/// last line of an error is `+ FullyQualifiedErrorId : …`, which says nothing.
pub const ERROR_TAG: &str = "outposts-error: ";

/// Runs the provisioner; its streams go to the log (Windows PowerShell writes `*>` files as
/// UTF-16), then the exit code goes to its file through a rename, so it is never read half
/// written.
pub fn runner_script() -> String {
    format!(
        r#"$log = '{LOG_PATH}'
$exitFile = '{EXIT_PATH}'
$code = 1
try {{
  & powershell.exe -NoProfile -NonInteractive -ExecutionPolicy Bypass -File '{WINDOWS_SCRIPT_PATH}' *> $log
  $code = $LASTEXITCODE
}} catch {{
  Add-Content -Path $log -Value ("the provisioner could not run: " + $_)
}}
Set-Content -Path "$exitFile.tmp" -Value ([string]$code)
Move-Item -Force "$exitFile.tmp" $exitFile
"#
    )
}

/// Clears the previous run's files and starts the runner detached.
pub fn start_script() -> String {
    format!(
        r#"$ErrorActionPreference = 'Stop'
Remove-Item -Force -ErrorAction SilentlyContinue '{LOG_PATH}', '{EXIT_PATH}'
Start-Process -FilePath 'powershell.exe' -ArgumentList @('-NoProfile','-NonInteractive','-ExecutionPolicy','Bypass','-File','{RUNNER_PATH}') -WindowStyle Hidden
Write-Output 'provisioner started'
"#
    )
}

/// `powershell -EncodedCommand` (base64 of the UTF-16LE text), the one form `cmd.exe /C`
/// passes through unharmed.
pub fn powershell(script: &str) -> String {
    crate::shell::powershell_command(script)
}

/// A log file's text: UTF-16 (LE or BE, by its byte-order mark, or LE without one when every
/// other byte is zero, as Windows PowerShell writes it), UTF-8 otherwise.
pub fn decode_text(bytes: &[u8]) -> String {
    let utf16 = |b: &[u8], le: bool| {
        let units: Vec<u16> = b
            .chunks_exact(2)
            .map(|c| {
                if le {
                    u16::from_le_bytes([c[0], c[1]])
                } else {
                    u16::from_be_bytes([c[0], c[1]])
                }
            })
            .collect();
        String::from_utf16_lossy(&units)
    };
    match bytes {
        [0xFF, 0xFE, rest @ ..] => utf16(rest, true),
        [0xFE, 0xFF, rest @ ..] => utf16(rest, false),
        [0xEF, 0xBB, 0xBF, rest @ ..] => String::from_utf8_lossy(rest).into_owned(),
        b if b.len() >= 2 && b.iter().skip(1).step_by(2).all(|&x| x == 0) => utf16(b, true),
        b => String::from_utf8_lossy(b).into_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logs_decode_in_every_encoding_windows_writes() {
        let le: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain("==> Git\r\n".encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        assert_eq!(decode_text(&le), "==> Git\r\n");
        let be: Vec<u8> = [0xFE, 0xFF]
            .into_iter()
            .chain("ok".encode_utf16().flat_map(u16::to_be_bytes))
            .collect();
        assert_eq!(decode_text(&be), "ok");
        let bare: Vec<u8> = "0\r\n".encode_utf16().flat_map(u16::to_le_bytes).collect();
        assert_eq!(decode_text(&bare).trim(), "0");
        assert_eq!(decode_text(b"\xEF\xBB\xBF7\n").trim(), "7");
        assert_eq!(decode_text(b"plain\n"), "plain\n");
        assert_eq!(decode_text(b""), "");
    }

    #[test]
    fn the_start_inherits_no_handles_and_fits_cmd_exe() {
        let start = start_script();
        assert!(start.contains("-WindowStyle Hidden"), "{start}");
        assert!(!start.contains("-Redirect"), "{start}");
        assert!(!start.contains("-NoNewWindow"), "{start}");
        assert!(powershell(&start).len() < 8191);
        let runner = runner_script();
        assert!(runner.contains(WINDOWS_SCRIPT_PATH));
        // The exit code is written whatever the provisioner did.
        assert!(runner.find("catch").unwrap() < runner.find("Set-Content").unwrap());
    }
}
