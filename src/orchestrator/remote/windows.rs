//! Windows sandboxes: everything through `powershell -EncodedCommand`; the remote's
//! environment (connect token included) travels in a `launch.json` written through the
//! provider's file API and deleted by the bootstrap, so no command line carries it. The
//! process is started detached (Daytona ends synchronous commands after ~40 s) and the PID
//! file is the truth.

use super::*;
use crate::shell::powershell_quote;

/// The distribution name of the Windows build.
const SUFFIX: &str = "windows_x64.exe";

fn root(session_id: &str) -> String {
    format!(
        "C:\\ProgramData\\devin-outposts\\sessions\\{}",
        safe_id(session_id)
    )
}

/// The bootstrap: read and delete launch.json, drop the ambient environment, start the
/// remote, record its PID, wait, record its exit code.
pub fn bootstrap_script(session_id: &str, exe: &str, workdir: &str) -> String {
    let root = root(session_id);
    format!(
        r#"$ErrorActionPreference = 'Stop'
$root = {root}
$launch = Join-Path $root 'launch.json'
$cfg = Get-Content -Raw $launch | ConvertFrom-Json
Remove-Item -Force $launch
$keep = @('PATH','Path','SystemRoot','SYSTEMROOT','WINDIR','TEMP','TMP','USERPROFILE','APPDATA','LOCALAPPDATA','ProgramData','ProgramFiles','COMPUTERNAME','USERNAME','HOMEDRIVE','HOMEPATH','ComSpec','PATHEXT')
Get-ChildItem env: | Where-Object {{ $keep -notcontains $_.Name }} | ForEach-Object {{ Remove-Item -Path ("env:" + $_.Name) }}
foreach ($p in $cfg.environment.PSObject.Properties) {{ Set-Item -Path ("env:" + $p.Name) -Value $p.Value }}
New-Item -ItemType Directory -Force -Path $env:DEVIN_REMOTE_STATE_DIR, {workdir} | Out-Null
Set-Location {workdir}
$p = Start-Process -FilePath {exe} -ArgumentList 'serve' -NoNewWindow -PassThru -RedirectStandardOutput (Join-Path $root 'worker.out.log') -RedirectStandardError (Join-Path $root 'worker.err.log')
Set-Content -Path (Join-Path $root 'worker.pid') -Value $p.Id
$p.WaitForExit()
Set-Content -Path (Join-Path $root 'worker.exit') -Value $p.ExitCode
"#,
        root = powershell_quote(&root),
        exe = powershell_quote(exe),
        workdir = powershell_quote(workdir),
    )
}

/// The launcher: install/verify the binary, absorb the first-run scan, write the
/// bootstrap, start it detached.
pub fn launcher_script(session_id: &str, build: Option<&Build>, workdir: &str) -> String {
    let root = root(session_id);
    let binary = build.and_then(|b| {
        b.sha256
            .get(SUFFIX)
            .map(|sum| (b.sha.clone(), sum.clone(), b.url(SUFFIX)))
    });
    let (exe, install) = match &binary {
        Some((sha, sum, url)) => {
            let dir = format!("C:\\ProgramData\\devin-outposts\\remote\\{sha}");
            let exe = format!("{dir}\\devin-remote.exe");
            let install = format!(
                r#"$dir = {dir}
$exe = {exe}
New-Item -ItemType Directory -Force -Path $dir | Out-Null
$ok = (Test-Path $exe) -and ((Get-FileHash -Algorithm SHA256 $exe).Hash.ToLower() -eq {sum})
if (-not $ok) {{
  $part = "$exe.partial"
  & curl.exe --fail --location --retry 3 --silent --show-error -o $part {url}
  if ($LASTEXITCODE -ne 0) {{ Write-Error 'download failed'; exit 3 }}
  if ((Get-FileHash -Algorithm SHA256 $part).Hash.ToLower() -ne {sum}) {{ Remove-Item -Force $part; Write-Error 'checksum mismatch'; exit 4 }}
  Move-Item -Force $part $exe
  & $exe --help | Out-Null
}}
"#,
                dir = powershell_quote(&dir),
                exe = powershell_quote(&exe),
                sum = powershell_quote(sum),
                url = powershell_quote(url),
            );
            (exe, install)
        }
        None => ("devin.exe".to_string(), String::new()),
    };
    let bootstrap = bootstrap_script(session_id, &exe, workdir);
    format!(
        r#"$ErrorActionPreference = 'Stop'
$root = {root}
New-Item -ItemType Directory -Force -Path $root | Out-Null
{install}$pidFile = Join-Path $root 'worker.pid'
if (Test-Path $pidFile) {{
  $old = Get-Process -Id ([int](Get-Content $pidFile)) -ErrorAction SilentlyContinue
  if ($old -and $old.Path -eq {exe}) {{ Write-Output "outposts-launch result=running pid=$($old.Id)"; exit 0 }}
}}
Remove-Item -Force -ErrorAction SilentlyContinue (Join-Path $root 'worker.exit')
$boot = Join-Path $root 'bootstrap.ps1'
Set-Content -Path $boot -Value {bootstrap}
$stdin = Join-Path $root 'bootstrap.stdin'
Set-Content -Path $stdin -Value ''
Start-Process -FilePath 'powershell.exe' -ArgumentList @('-NoProfile','-NonInteractive','-ExecutionPolicy','Bypass','-File',$boot) -WindowStyle Hidden -RedirectStandardInput $stdin -RedirectStandardOutput (Join-Path $root 'bootstrap.out.log') -RedirectStandardError (Join-Path $root 'bootstrap.err.log')
Write-Output 'outposts-launch result=launched pid=0'
"#,
        root = powershell_quote(&root),
        exe = powershell_quote(&exe),
        bootstrap = powershell_quote(&bootstrap),
    )
}

pub fn check_script(session_id: &str) -> String {
    format!(
        r#"$root = {root}
$pidFile = Join-Path $root 'worker.pid'
$exitFile = Join-Path $root 'worker.exit'
if ((Test-Path $pidFile) -and (Get-Process -Id ([int](Get-Content $pidFile)) -ErrorAction SilentlyContinue)) {{ Write-Output "running $(Get-Content $pidFile)" }}
elseif (Test-Path $exitFile) {{ Write-Output "exited $(Get-Content $exitFile)" }}
else {{ Write-Output 'absent' }}
"#,
        root = powershell_quote(&root(session_id))
    )
}

pub fn command(script: &str) -> String {
    format!(
        "powershell.exe -NoProfile -NonInteractive -ExecutionPolicy Bypass -EncodedCommand {}",
        encode_powershell(script)
    )
}

pub async fn launch(
    provider: &dyn Provider,
    sandbox_id: &str,
    plan: &LaunchPlan,
    env: BTreeMap<String, Secret>,
) -> Result<Launched, RemoteError> {
    let launch_json = serde_json::json!({
        "environment": env.iter().map(|(k, v)| (k.clone(), serde_json::Value::String(v.expose().to_string()))).collect::<serde_json::Map<_, _>>()
    });
    let path = format!("{}\\launch.json", root(&plan.session_id));
    provider
        .write_file(sandbox_id, &path, launch_json.to_string().as_bytes())
        .await?;
    let script = launcher_script(&plan.session_id, plan.build.as_ref(), &plan.workdir);
    let req = ExecRequest {
        cmd: crate::provider::Cmd::Shell(command(&script)),
        cwd: None,
        env: BTreeMap::new(),
        timeout: Some(std::time::Duration::from_secs(600)),
    };
    let out = provider.exec(sandbox_id, &req).await?;
    match out.exit_code {
        0 => Ok(match super::linux::parse_launch(&out.stdout) {
            Some((r, pairs)) if r == "running" => Launched::Running {
                pid: pairs
                    .iter()
                    .find(|(k, _)| k == "pid")
                    .and_then(|(_, v)| v.parse().ok())
                    .unwrap_or(0),
            },
            _ => Launched::Started {
                pid: 0,
                cached: None,
            },
        }),
        4 => Err(RemoteError::ChecksumMismatch(last_line(
            &out.stderr,
            &out.stdout,
        ))),
        code => Err(RemoteError::Launch {
            code,
            output: last_line(&out.stderr, &out.stdout),
        }),
    }
}

pub async fn check(
    provider: &dyn Provider,
    sandbox_id: &str,
    session_id: &str,
) -> Result<Liveness, RemoteError> {
    let req = ExecRequest {
        cmd: crate::provider::Cmd::Shell(command(&check_script(session_id))),
        cwd: None,
        env: BTreeMap::new(),
        timeout: Some(std::time::Duration::from_secs(60)),
    };
    let out = provider.exec(sandbox_id, &req).await?;
    super::liveness(&out)
}
