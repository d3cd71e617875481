//! The PowerShell texts of a Windows launch, each run by its own short exec (or, the bootstrap,
//! delivered as a file). Facts they are built on (Daytona's Windows daemon, `apps/daemon-win`,
//! and Windows PowerShell's documented behaviour):
//! - The toolbox exec returns only when every holder of its output pipe has closed it. A child
//!   created with inherited handles (`Start-Process -NoNewWindow` or any `-Redirect*`) keeps the
//!   exec open for as long as it lives, so the detached start uses neither: a plain
//!   `Start-Process -WindowStyle Hidden` goes through ShellExecute, which inherits no handles,
//!   and the bootstrap writes its own log.
//! - The outer shell is `cmd.exe /C`, whose command line is at most 8,191 characters; each
//!   encoded script stays well under it (the bootstrap travels through the file API instead).
//! - `$p.ExitCode` of a `Start-Process -PassThru` child stays `$null` unless `$p.Handle` was
//!   read while it ran: the bootstrap reads it at once.
//! - The remote is identified by pid **and** its start time (UTC ticks), both in one file
//!   (`worker.id`) written whole by a rename, so a reused pid never passes for ours and no reader
//!   sees half an identity.
//! - One bootstrap at a time: it holds `bootstrap.lock` open without sharing for as long as it
//!   lives (Windows lets the handle go however the process ends). A duplicated start (the HTTP
//!   layer retries a 502/503/504) finds it held and starts nothing; only the bootstrap, under the
//!   lock, clears the previous identity and exit record.
//! - Paths go through `-LiteralPath` (or .NET), never `-Path`: `[ ]` in a workdir are wildcards
//!   to `-Path`.

use super::{LaunchMode, safe_id};
use crate::shell::powershell_quote;

/// Where a session's launch files live.
pub fn root(session_id: &str) -> String {
    format!(
        "C:\\ProgramData\\devin-outposts\\sessions\\{}",
        safe_id(session_id)
    )
}

pub use crate::provider::daytona::windows_build::runner::ERROR_TAG;

/// `Native { & prog args }` runs a native program under `Continue` (under `Stop`, Windows
/// PowerShell 5.1 ends the script at the program's first stderr line once stderr is redirected)
/// and returns its exit code and last output lines for an explicit check.
pub const NATIVE: &str = r#"function Native([scriptblock]$run) {
  $ErrorActionPreference = 'Continue'
  $out = @(& $run 2>&1 | ForEach-Object { "$_" })
  [pscustomobject]@{ Code = $LASTEXITCODE; Output = (($out | Select-Object -Last 5) -join ' ') }
}
"#;

/// The system variables Windows tools expect; besides them only the machine-wide variables the
/// image sets (`JAVA_HOME`, `PSModulePath`, …) are kept: everything else in the ambient
/// environment (the daemon's own) is dropped before the remote starts.
pub const KEEP: &[&str] = &[
    "PSModulePath",
    "PATH",
    "Path",
    "PATHEXT",
    "SystemRoot",
    "SYSTEMROOT",
    "SystemDrive",
    "WINDIR",
    "ComSpec",
    "TEMP",
    "TMP",
    "USERPROFILE",
    "APPDATA",
    "LOCALAPPDATA",
    "ProgramData",
    "ALLUSERSPROFILE",
    "ProgramFiles",
    "ProgramFiles(x86)",
    "ProgramW6432",
    "CommonProgramFiles",
    "CommonProgramFiles(x86)",
    "CommonProgramW6432",
    "COMPUTERNAME",
    "USERNAME",
    "USERDOMAIN",
    "HOMEDRIVE",
    "HOMEPATH",
    "HOME",
    "LANG",
    "TZ",
    "NUMBER_OF_PROCESSORS",
    "PROCESSOR_ARCHITECTURE",
    "OS",
];

/// The exit code the bootstrap records when it failed before or around the remote's start (its
/// message is in `bootstrap.log`); outside the codes a remote exits with.
pub const BOOTSTRAP_FAILED: i32 = 250;

/// The identity test shared by the start and the check: `Who` is our remote while the pid in
/// `worker.id` runs and started at the instant (UTC ticks) beside it. A process whose start time
/// cannot be read (another user's, under a reused pid) is not ours, never an error. `Busy`: a
/// bootstrap holds `bootstrap.lock` (it is starting the remote or waiting for it).
const ALIVE: &str = r#"$idFile = Join-Path $root 'worker.id'
$exitFile = Join-Path $root 'worker.exit'
$launchIdFile = Join-Path $root 'launch.id'
$lockFile = Join-Path $root 'bootstrap.lock'
function Who {
  if (-not (Test-Path -LiteralPath $idFile)) { return $null }
  $rec = @(([string](Get-Content -LiteralPath $idFile -TotalCount 1)).Trim() -split '\s+')
  $id = 0
  if (($rec.Count -lt 2) -or -not [int]::TryParse($rec[0], [ref]$id)) { return $null }
  $w = Get-Process -Id $id -ErrorAction SilentlyContinue
  $ticks = ''
  if ($w) { try { $ticks = [string]$w.StartTime.ToUniversalTime().Ticks } catch { $ticks = '' } }
  if ($ticks -and ($ticks -eq $rec[1])) { return $w }
  return $null
}
function Busy {
  try { $f = [IO.File]::Open($lockFile, 'OpenOrCreate', 'ReadWrite', 'None'); $f.Dispose(); return $false }
  catch { return $true }
}
$who = Who
"#;

/// The bootstrap, uploaded as `bootstrap.ps1`. Under `bootstrap.lock` (a duplicate finds it
/// held and leaves): read and delete `launch.json` (whatever happens; an empty or missing one
/// means the hand-off was consumed or scrubbed, so there is nothing to start), clear the old
/// identity and exit record, keep only [`KEEP`] and the machine-wide variables of the ambient
/// environment, start the remote (`<exe> serve`, or in the CLI mode
/// `devin.exe worker start --session <id>`, like Linux), record `worker.id` (pid and start
/// time, one file), wait, record the exit code as `<launch id> <code>` (the id from
/// `launch.id`, so an older launch's record is never read as this one's). Its own failures go
/// to `bootstrap.log` as one [`ERROR_TAG`] line and record [`BOOTSTRAP_FAILED`].
pub fn bootstrap_script(session_id: &str, exe: &str, mode: LaunchMode, workdir: &str) -> String {
    let keep = KEEP
        .iter()
        .map(|k| powershell_quote(k))
        .collect::<Vec<_>>()
        .join(",");
    format!(
        r#"$ErrorActionPreference = 'Stop'
$root = {root}
$launch = Join-Path $root 'launch.json'
$log = Join-Path $root 'bootstrap.log'
$launchId = ''
$lock = $null
function Put($name, $value) {{
  $f = Join-Path $root $name
  Set-Content -LiteralPath "$f.tmp" -Value $value
  Move-Item -Force -LiteralPath "$f.tmp" -Destination $f
}}
# A probe of the lock (the start's, the check's) holds it for an instant: try for a while.
for ($i = 0; ($i -lt 20) -and -not $lock; $i++) {{
  try {{ $lock = [IO.File]::Open((Join-Path $root 'bootstrap.lock'), 'OpenOrCreate', 'ReadWrite', 'None') }}
  catch {{ Start-Sleep -Milliseconds 100 }}
}}
if (-not $lock) {{ exit 0 }}
if (-not (Test-Path -LiteralPath $launch) -or ((Get-Item -LiteralPath $launch).Length -eq 0)) {{ $lock.Dispose(); exit 0 }}
try {{
  $launchId = (Get-Content -Raw -Encoding UTF8 -LiteralPath (Join-Path $root 'launch.id')).Trim()
  $cfg = Get-Content -Raw -Encoding UTF8 -LiteralPath $launch | ConvertFrom-Json
  Remove-Item -Force -LiteralPath $launch
  Remove-Item -Force -ErrorAction SilentlyContinue -LiteralPath (Join-Path $root 'worker.id'), (Join-Path $root 'worker.exit')
  $keep = @({keep}) + @([Environment]::GetEnvironmentVariables('Machine').Keys)
  Get-ChildItem env: | Where-Object {{ $keep -notcontains $_.Name }} | ForEach-Object {{ Remove-Item -LiteralPath ("env:" + $_.Name) }}
  if (-not $env:HOME) {{ $env:HOME = $env:USERPROFILE }}
  if (-not $env:LANG) {{ $env:LANG = 'en_US.UTF-8' }}
  foreach ($v in $cfg.environment.PSObject.Properties) {{ Set-Item -LiteralPath ("env:" + $v.Name) -Value $v.Value }}
  $cfg = $null
  [void][IO.Directory]::CreateDirectory($env:DEVIN_REMOTE_STATE_DIR)
  [void][IO.Directory]::CreateDirectory({workdir})
  Set-Location -LiteralPath {workdir}
  $proc = Start-Process -FilePath {exe} -ArgumentList {args} -NoNewWindow -PassThru -RedirectStandardOutput (Join-Path $root 'worker.out.log') -RedirectStandardError (Join-Path $root 'worker.err.log')
  # Without an open handle, ExitCode stays $null after the exit.
  $null = $proc.Handle
  Put 'worker.id' ([string]$proc.Id + ' ' + [string]$proc.StartTime.ToUniversalTime().Ticks)
  $proc.WaitForExit()
  Put 'worker.exit' ($launchId + ' ' + [string]$proc.ExitCode)
}} catch {{
  Add-Content -LiteralPath $log -Value ('{tag}bootstrap failed: ' + ("$_" -replace '\s+', ' '))
  Put 'worker.exit' ($launchId + ' {failed}')
}} finally {{
  Remove-Item -Force -ErrorAction SilentlyContinue -LiteralPath $launch
  $lock.Dispose()
}}
"#,
        root = powershell_quote(&root(session_id)),
        exe = powershell_quote(exe),
        args = match mode {
            LaunchMode::Remote => "'serve'".to_string(),
            // The CLI's direct-serve mode, as on Linux: it serves this one session.
            LaunchMode::Cli => format!(
                "@('worker','start','--session',{})",
                powershell_quote(session_id)
            ),
        },
        workdir = powershell_quote(workdir),
        tag = ERROR_TAG,
        failed = BOOTSTRAP_FAILED,
    )
}

/// The start: adopt a live remote of ours (and drop the unused hand-off); else, unless a
/// bootstrap is already at work (a duplicated start), start the bootstrap detached; then wait
/// briefly for the remote. Never clears a file: only the bootstrap does, under its lock.
/// Prints `outposts-launch result=running|launched pid=N` (pid 0: not seen yet).
pub fn start_script(session_id: &str) -> String {
    format!(
        r#"$ErrorActionPreference = 'Stop'
$root = {root}
{ALIVE}if ($who) {{
  Remove-Item -Force -ErrorAction SilentlyContinue -LiteralPath (Join-Path $root 'launch.json')
  Write-Output "outposts-launch result=running pid=$($who.Id)"; exit 0
}}
if (-not (Busy)) {{
  $boot = Join-Path $root 'bootstrap.ps1'
  Start-Process -FilePath 'powershell.exe' -ArgumentList @('-NoProfile','-NonInteractive','-ExecutionPolicy','Bypass','-File',('"' + $boot + '"')) -WindowStyle Hidden
}}
for ($i = 0; ($i -lt 100) -and -not $who; $i++) {{ Start-Sleep -Milliseconds 100; $who = Who }}
$n = 0
if ($who) {{ $n = $who.Id }}
Write-Output "outposts-launch result=launched pid=$n"
"#,
        root = powershell_quote(&root(session_id)),
    )
}

/// Prints `running <pid>` (`running 0`: a bootstrap is starting it), `exited <code>` (only for
/// a record of the current launch) or `absent`.
pub fn check_script(session_id: &str) -> String {
    format!(
        r#"$root = {root}
{ALIVE}$rec = @()
if ((Test-Path -LiteralPath $exitFile) -and (Test-Path -LiteralPath $launchIdFile)) {{
  $rec = @((Get-Content -LiteralPath $exitFile -TotalCount 1).Trim() -split '\s+')
  if ($rec[0] -ne (Get-Content -LiteralPath $launchIdFile -TotalCount 1).Trim()) {{ $rec = @() }}
}}
if ($who) {{ Write-Output "running $($who.Id)" }}
elseif ($rec.Count -ge 2) {{ Write-Output "exited $($rec[1])" }}
elseif (Busy) {{ Write-Output 'running 0' }}
else {{ Write-Output 'absent' }}
"#,
        root = powershell_quote(&root(session_id))
    )
}

/// Does a clone of a repository exist at `path` (exit 0) or not (exit 1)?
pub fn has_clone_script(path: &str) -> String {
    format!(
        "if (Test-Path -LiteralPath (Join-Path {} '.git')) {{ exit 0 }} else {{ exit 1 }}\n",
        powershell_quote(path)
    )
}
