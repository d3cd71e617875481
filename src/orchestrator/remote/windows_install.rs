//! Installing the remote binary on a Windows sandbox over a slow link. A download inside the
//! exec cannot finish there: Daytona's proxy cuts a synchronous exec after ~40 s, and the newer
//! Windows daemon kills the command's whole process tree at its timeout (leaving a partial file
//! each try). So, like the snapshot build's runner:
//! 1. the runner script (below) goes up through the file API;
//! 2. one short exec answers `cached` (a verified copy is in place) or starts the runner detached
//!    (`Start-Process -WindowStyle Hidden`: no inherited handles, the exec returns at once);
//! 3. the runner, alone under `install.lock`, resumes the download into one partial file (curl
//!    `-C -`), checks the sha256, lets Defender scan it, moves it into place, and records
//!    `<nonce> <code> <line>` in `install.exit` by a rename;
//! 4. the tool polls that record through the file API for up to [`INSTALL_BUDGET`].
//!
//! Partial files of older tries (one per try, named by pid and guid, from the tool's earlier
//! single-exec install) are swept under the lock. Natives run under `Continue` with explicit
//! `$LASTEXITCODE` checks: under `Stop`, Windows PowerShell 5.1 turns a redirected stderr line
//! of curl into a terminating error before the script can say what failed.

use std::time::{Duration, Instant};

use super::RemoteError;
use super::windows_scripts::{ERROR_TAG, NATIVE};
use crate::poll::{Backoff, Poll, poll_until};
use crate::provider::Provider;
use crate::shell::powershell_quote;

/// How long the detached download may take (the reference gives the download 300 s).
pub const INSTALL_BUDGET: Duration = Duration::from_secs(300);
/// How often the exit record is read.
pub const INSTALL_POLL: Duration = Duration::from_secs(2);
/// The exit codes of the runner: download failed, checksum mismatch.
pub const DOWNLOAD_FAILED: i32 = 3;
pub const CHECKSUM_MISMATCH: i32 = 4;

/// The runner, uploaded as `install.ps1` next to the binary.
pub fn runner_path(dir: &str) -> String {
    format!("{dir}\\install.ps1")
}

/// The runner's exit record.
pub fn exit_path(dir: &str) -> String {
    format!("{dir}\\install.exit")
}

/// The detached runner: waits for `install.lock` (an earlier try may still be downloading),
/// re-checks the cache, resumes the download, verifies, scans, moves into place; records
/// `<nonce> <code> <line>` where the line is `outposts-install result=installed` or the tagged
/// error line. Codes: 0, [`DOWNLOAD_FAILED`], [`CHECKSUM_MISMATCH`], 1 (anything else).
pub fn runner_script(dir: &str, exe: &str, sum: &str, url: &str, nonce: &str) -> String {
    format!(
        r#"$ErrorActionPreference = 'Stop'
$ProgressPreference = 'SilentlyContinue'
$dir = {dir}
$exe = {exe}
$sum = {sum}
$url = {url}
$nonce = {nonce}
$exitFile = Join-Path $dir 'install.exit'
$part = "$exe.partial"
$code = 1
$line = 'outposts-install result=installed'
$lock = $null
{NATIVE}function Sha($path) {{ (Get-FileHash -Algorithm SHA256 -LiteralPath $path).Hash.ToLower() }}
try {{
  [void][IO.Directory]::CreateDirectory($dir)
  for ($i = 0; -not $lock; $i++) {{
    try {{ $lock = [IO.File]::Open((Join-Path $dir 'install.lock'), 'OpenOrCreate', 'ReadWrite', 'None') }}
    catch {{ if ($i -ge 300) {{ throw 'another install of this build held install.lock for 300 s' }}; Start-Sleep -Seconds 1 }}
  }}
  # Older tries' partial files (one each); the current partial is resumed.
  Get-ChildItem -LiteralPath $dir -Filter '*.partial.*' | ForEach-Object {{ Remove-Item -Force -ErrorAction SilentlyContinue -LiteralPath $_.FullName }}
  if ((Test-Path -LiteralPath $exe) -and ((Sha $exe) -eq $sum)) {{
    $code = 0
  }} else {{
    if (-not ((Test-Path -LiteralPath $part) -and ((Sha $part) -eq $sum))) {{
      $r = Native {{ & curl.exe --fail --location --retry 2 --connect-timeout 30 --max-time 280 --silent --show-error --continue-at '-' -o $part $url }}
      if ($r.Code -ne 0) {{
        # A partial the server will not resume from (e.g. the file changed) starts over next try.
        if ($r.Code -eq 33) {{ Remove-Item -Force -ErrorAction SilentlyContinue -LiteralPath $part }}
        $code = {download}; throw "download of $url failed (curl exit $($r.Code)): $($r.Output)"
      }}
    }}
    $got = Sha $part
    if ($got -ne $sum) {{
      Remove-Item -Force -ErrorAction SilentlyContinue -LiteralPath $part
      $code = {checksum}; throw "checksum mismatch for ${{url}}: expected $sum, got $got"
    }}
    $mp = Join-Path $env:ProgramFiles 'Windows Defender\MpCmdRun.exe'
    if (Test-Path -LiteralPath $mp) {{ $null = Native {{ & $mp -Scan -ScanType 3 -File $part -DisableRemediation }} }}
    Move-Item -Force -LiteralPath $part -Destination $exe
    $code = 0
  }}
}} catch {{
  if ($code -eq 0) {{ $code = 1 }}
  $line = '{ERROR_TAG}' + ("$_" -replace '\s+', ' ')
}} finally {{
  if ($lock) {{ $lock.Dispose() }}
}}
Set-Content -Encoding UTF8 -LiteralPath "$exitFile.tmp" -Value ("$nonce $code " + $line)
Move-Item -Force -LiteralPath "$exitFile.tmp" -Destination $exitFile
"#,
        dir = powershell_quote(dir),
        exe = powershell_quote(exe),
        sum = powershell_quote(sum),
        url = powershell_quote(url),
        nonce = powershell_quote(nonce),
        download = DOWNLOAD_FAILED,
        checksum = CHECKSUM_MISMATCH,
    )
}

/// The short exec: `outposts-install result=cached` when a verified copy is in place, else the
/// previous record goes and the runner starts detached (`outposts-install result=started`).
pub fn start_script(dir: &str, exe: &str, sum: &str) -> String {
    format!(
        r#"$ErrorActionPreference = 'Stop'
$dir = {dir}
$exe = {exe}
if ((Test-Path -LiteralPath $exe) -and ((Get-FileHash -Algorithm SHA256 -LiteralPath $exe).Hash.ToLower() -eq {sum})) {{ Write-Output 'outposts-install result=cached'; exit 0 }}
Remove-Item -Force -ErrorAction SilentlyContinue -LiteralPath (Join-Path $dir 'install.exit')
$runner = Join-Path $dir 'install.ps1'
Start-Process -FilePath 'powershell.exe' -ArgumentList @('-NoProfile','-NonInteractive','-ExecutionPolicy','Bypass','-File',('"' + $runner + '"')) -WindowStyle Hidden
Write-Output 'outposts-install result=started'
"#,
        dir = powershell_quote(dir),
        exe = powershell_quote(exe),
        sum = powershell_quote(sum),
    )
}

/// An install record of the try `nonce`: its code and its line (`None` for another try's).
pub fn parse_record(text: &str, nonce: &str) -> Option<(i32, String)> {
    let text = text.trim_start_matches('\u{feff}').trim();
    let mut parts = text.splitn(3, ' ');
    if parts.next()? != nonce {
        return None;
    }
    let code = parts.next()?.trim().parse().unwrap_or(1);
    Some((code, parts.next().unwrap_or("").trim().to_string()))
}

/// Wait for the try `nonce` to record its end in `dir`; `Ok(())` once installed.
pub async fn await_install(
    provider: &dyn Provider,
    sandbox_id: &str,
    dir: &str,
    nonce: &str,
    budget: Duration,
    every: Duration,
) -> Result<(), RemoteError> {
    let deadline = Instant::now() + budget;
    let waited = poll_until(deadline, Backoff::fixed(every), || async {
        let Some(bytes) = provider.read_file(sandbox_id, &exit_path(dir)).await? else {
            return Ok(Poll::Pending(()));
        };
        let text = crate::provider::daytona::windows_build::runner::decode_text(&bytes);
        let Some((code, line)) = parse_record(&text, nonce) else {
            return Ok(Poll::Pending(()));
        };
        let detail = line
            .strip_prefix(ERROR_TAG)
            .map(str::to_string)
            .unwrap_or(line);
        Err(match code {
            0 => return Ok(Poll::Ready(())),
            DOWNLOAD_FAILED => RemoteError::Download(detail),
            CHECKSUM_MISMATCH => RemoteError::ChecksumMismatch(detail),
            code => RemoteError::Launch {
                code,
                output: detail,
            },
        })
    })
    .await?;
    waited.or_else(|_| {
        RemoteError::Download(format!(
            "the download of devin-remote into {dir} did not finish within {} s; the \
             next launch resumes it",
            budget.as_secs()
        ))
    })
}
