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
//! - The remote is identified by pid **and** its start time (UTC ticks), so a reused pid never
//!   passes for ours.

use super::{LaunchMode, safe_id};
use crate::shell::powershell_quote;

/// Where a session's launch files live.
pub fn root(session_id: &str) -> String {
    format!(
        "C:\\ProgramData\\devin-outposts\\sessions\\{}",
        safe_id(session_id)
    )
}

/// The system variables Windows tools expect; everything else in the ambient environment is
/// dropped before the remote starts.
pub const KEEP: &[&str] = &[
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

/// The identity test shared by the start and the check: `$who` is our remote while the pid in
/// `worker.pid` runs and started at the instant in `worker.start`. A process whose start time
/// cannot be read (another user's, under a reused pid) is not ours, never an error.
const ALIVE: &str = r#"$pidFile = Join-Path $root 'worker.pid'
$startFile = Join-Path $root 'worker.start'
$exitFile = Join-Path $root 'worker.exit'
$idFile = Join-Path $root 'launch.id'
$who = $null
if ((Test-Path $pidFile) -and (Test-Path $startFile)) {
  $w = Get-Process -Id ([int](Get-Content $pidFile -TotalCount 1)) -ErrorAction SilentlyContinue
  $ticks = ''
  if ($w) { try { $ticks = [string]$w.StartTime.ToUniversalTime().Ticks } catch { $ticks = '' } }
  if ($ticks -and ($ticks -eq (Get-Content $startFile -TotalCount 1).Trim())) { $who = $w }
}
"#;

/// Install (or verify the cached copy of) the remote binary: download to a partial name of its
/// own, check the sha256, let Defender scan it here (its first-run scan would otherwise stall
/// the start), then move it into place. Prints `outposts-install result=cached|installed`;
/// exit 3 = download failed, 4 = checksum mismatch.
pub fn install_script(dir: &str, exe: &str, sum: &str, url: &str) -> String {
    format!(
        r#"$ErrorActionPreference = 'Stop'
$ProgressPreference = 'SilentlyContinue'
$dir = {dir}
$exe = {exe}
$sum = {sum}
New-Item -ItemType Directory -Force -Path $dir | Out-Null
if ((Test-Path $exe) -and ((Get-FileHash -Algorithm SHA256 $exe).Hash.ToLower() -eq $sum)) {{ Write-Output 'outposts-install result=cached'; exit 0 }}
$part = "$exe.partial.$PID.$([guid]::NewGuid().ToString('N'))"
try {{
  & curl.exe --fail --location --retry 2 --silent --show-error --max-time 25 -o $part {url}
  if ($LASTEXITCODE -ne 0) {{ Write-Output 'outposts-install result=error stage=download'; exit 3 }}
  $got = (Get-FileHash -Algorithm SHA256 $part).Hash.ToLower()
  if ($got -ne $sum) {{ Write-Output "outposts-install result=error stage=checksum got=$got"; exit 4 }}
  $mp = Join-Path $env:ProgramFiles 'Windows Defender\MpCmdRun.exe'
  if (Test-Path $mp) {{ & $mp -Scan -ScanType 3 -File $part -DisableRemediation | Out-Null }}
  Move-Item -Force $part $exe
}} finally {{ Remove-Item -Force -ErrorAction SilentlyContinue $part }}
Write-Output 'outposts-install result=installed'
"#,
        dir = powershell_quote(dir),
        exe = powershell_quote(exe),
        sum = powershell_quote(sum),
        url = powershell_quote(url),
    )
}

/// The bootstrap, uploaded as `bootstrap.ps1`: read and delete `launch.json` (whatever
/// happens), keep only [`KEEP`] of the ambient environment, start the remote (`<exe> serve`, or
/// in the CLI mode `devin.exe worker start --session <id>`, like Linux), record its pid and
/// start time, wait, record its exit code as `<launch id> <code>` (the id from `launch.id`, so
/// an older launch's record is never read as this one's). Its own failures go to
/// `bootstrap.log` and record [`BOOTSTRAP_FAILED`].
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
function Put($name, $value) {{
  $f = Join-Path $root $name
  Set-Content -Path "$f.tmp" -Value $value
  Move-Item -Force "$f.tmp" $f
}}
try {{
  $launchId = (Get-Content -Raw -Encoding UTF8 (Join-Path $root 'launch.id')).Trim()
  $cfg = Get-Content -Raw -Encoding UTF8 $launch | ConvertFrom-Json
  Remove-Item -Force $launch
  $keep = @({keep})
  Get-ChildItem env: | Where-Object {{ $keep -notcontains $_.Name }} | ForEach-Object {{ Remove-Item -Path ("env:" + $_.Name) }}
  if (-not $env:HOME) {{ $env:HOME = $env:USERPROFILE }}
  if (-not $env:LANG) {{ $env:LANG = 'en_US.UTF-8' }}
  foreach ($v in $cfg.environment.PSObject.Properties) {{ Set-Item -Path ("env:" + $v.Name) -Value $v.Value }}
  $cfg = $null
  New-Item -ItemType Directory -Force -Path $env:DEVIN_REMOTE_STATE_DIR, {workdir} | Out-Null
  Set-Location {workdir}
  $proc = Start-Process -FilePath {exe} -ArgumentList {args} -NoNewWindow -PassThru -RedirectStandardOutput (Join-Path $root 'worker.out.log') -RedirectStandardError (Join-Path $root 'worker.err.log')
  # Without an open handle, ExitCode stays $null after the exit.
  $null = $proc.Handle
  Put 'worker.start' ([string]$proc.StartTime.ToUniversalTime().Ticks)
  Put 'worker.pid' ([string]$proc.Id)
  $proc.WaitForExit()
  Put 'worker.exit' ($launchId + ' ' + [string]$proc.ExitCode)
}} catch {{
  Add-Content -Path $log -Value ("bootstrap failed: " + $_)
  Put 'worker.exit' ($launchId + ' {failed}')
}} finally {{
  Remove-Item -Force -ErrorAction SilentlyContinue $launch
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
        failed = BOOTSTRAP_FAILED,
    )
}

/// The start: adopt a live remote of ours (and drop the unused hand-off), else clear the old
/// pid, start time and exit code, start the bootstrap detached, and wait briefly for its pid.
/// Prints `outposts-launch result=running|launched pid=N` (pid 0: not seen yet).
pub fn start_script(session_id: &str) -> String {
    format!(
        r#"$ErrorActionPreference = 'Stop'
$root = {root}
{ALIVE}if ($who) {{
  Remove-Item -Force -ErrorAction SilentlyContinue (Join-Path $root 'launch.json')
  Write-Output "outposts-launch result=running pid=$($who.Id)"; exit 0
}}
Remove-Item -Force -ErrorAction SilentlyContinue $pidFile, $startFile, $exitFile
$boot = Join-Path $root 'bootstrap.ps1'
Start-Process -FilePath 'powershell.exe' -ArgumentList @('-NoProfile','-NonInteractive','-ExecutionPolicy','Bypass','-File',('"' + $boot + '"')) -WindowStyle Hidden
for ($i = 0; ($i -lt 100) -and -not (Test-Path $pidFile); $i++) {{ Start-Sleep -Milliseconds 100 }}
$n = 0
if (Test-Path $pidFile) {{ $n = (Get-Content $pidFile -TotalCount 1).Trim() }}
Write-Output "outposts-launch result=launched pid=$n"
"#,
        root = powershell_quote(&root(session_id)),
    )
}

/// Prints `running <pid>`, `exited <code>` (only for a record of the current launch) or `absent`.
pub fn check_script(session_id: &str) -> String {
    format!(
        r#"$root = {root}
{ALIVE}$rec = @()
if ((Test-Path $exitFile) -and (Test-Path $idFile)) {{
  $rec = @((Get-Content $exitFile -TotalCount 1).Trim() -split '\s+')
  if ($rec[0] -ne (Get-Content $idFile -TotalCount 1).Trim()) {{ $rec = @() }}
}}
if ($who) {{ Write-Output "running $($who.Id)" }}
elseif ($rec.Count -ge 2) {{ Write-Output "exited $($rec[1])" }}
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
