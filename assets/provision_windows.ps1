# Provision a Daytona Windows sandbox (from the `windows-medium` snapshot) as a Devin Outposts
# session machine. `outposts snapshot build --platform windows` uploads this script into a
# builder sandbox, runs it, and snapshots the result as
# `devin-outposts-windows-<first 8 hex of sha256(this file)>`; any edit yields a new name.
#
# Installs pinned Git for Windows and Chrome for Testing, the Devin CLI from the current CLI
# manifest (checksum-verified), creates C:\repos, and verifies every piece. Fails on the first
# error so a broken image is never snapshotted.

$ErrorActionPreference = 'Stop'
$ProgressPreference = 'SilentlyContinue'
[Net.ServicePointManager]::SecurityProtocol = [Net.SecurityProtocolType]::Tls12

$GitVersion = '2.55.0.windows.2'
$GitInstaller = 'Git-2.55.0.2-64-bit.exe'
$ChromeVersion = '150.0.7871.115'
$CliManifestUrl = 'https://static.devin.ai/cli/current/manifest.json'
$CliTarget = 'x86_64-pc-windows'

$Root = 'C:\ProgramData\devin-outposts'
$Downloads = Join-Path $Root 'downloads'
$DevinBin = Join-Path $Root 'devin\bin'
$ChromeDir = Join-Path $Root 'chrome'
$Repos = 'C:\repos'

function Step($message) { Write-Output "==> $message" }

function Fetch($url, $dest) {
    for ($attempt = 1; $attempt -le 4; $attempt++) {
        try {
            Invoke-WebRequest -UseBasicParsing -Uri $url -OutFile $dest
            return
        } catch {
            if ($attempt -eq 4) { throw "download failed after $attempt attempts: $url ($_)" }
            Start-Sleep -Seconds ([math]::Pow(2, $attempt))
        }
    }
}

function Add-MachinePath($dir) {
    $path = [Environment]::GetEnvironmentVariable('Path', 'Machine')
    if (($path -split ';') -notcontains $dir) {
        [Environment]::SetEnvironmentVariable('Path', "$path;$dir", 'Machine')
    }
    if (($env:Path -split ';') -notcontains $dir) { $env:Path = "$env:Path;$dir" }
}

New-Item -ItemType Directory -Force -Path $Root, $Downloads, $DevinBin, $ChromeDir, $Repos | Out-Null

Step "Git for Windows $GitVersion"
$gitExe = Join-Path $Downloads $GitInstaller
Fetch "https://github.com/git-for-windows/git/releases/download/v$GitVersion/$GitInstaller" $gitExe
$p = Start-Process -FilePath $gitExe -Wait -PassThru -ArgumentList @(
    '/VERYSILENT', '/NORESTART', '/NOCANCEL', '/SP-', '/SUPPRESSMSGBOXES',
    '/COMPONENTS=gitlfs,assoc,assoc_sh', '/o:PathOption=Cmd', '/o:BashTerminalOption=ConHost'
)
if ($p.ExitCode -ne 0) { throw "Git installer exited with $($p.ExitCode)" }
Add-MachinePath 'C:\Program Files\Git\cmd'
Add-MachinePath 'C:\Program Files\Git\usr\bin'

Step "Chrome for Testing $ChromeVersion"
$chromeZip = Join-Path $Downloads 'chrome-win64.zip'
Fetch "https://storage.googleapis.com/chrome-for-testing-public/$ChromeVersion/win64/chrome-win64.zip" $chromeZip
Expand-Archive -Path $chromeZip -DestinationPath $ChromeDir -Force
$chromeExe = Join-Path $ChromeDir 'chrome-win64\chrome.exe'
[Environment]::SetEnvironmentVariable('DEVIN_CHROME_PATH', $chromeExe, 'Machine')

Step "Devin CLI ($CliTarget) from $CliManifestUrl"
$manifest = Invoke-RestMethod -UseBasicParsing -Uri $CliManifestUrl
$entry = $manifest.platforms.$CliTarget
if (-not $entry) { throw "the CLI manifest has no $CliTarget entry" }
$cliZip = Join-Path $Downloads 'devin-cli.zip'
Fetch $entry.url $cliZip
$actual = (Get-FileHash -Algorithm SHA256 -Path $cliZip).Hash.ToLowerInvariant()
if ($actual -ne $entry.sha256.ToLowerInvariant()) {
    throw "Devin CLI checksum mismatch: expected $($entry.sha256), got $actual"
}
Expand-Archive -Path $cliZip -DestinationPath $DevinBin -Force
Add-MachinePath $DevinBin
Write-Output "Devin CLI $($manifest.version)"

Step 'Verifying'
& git --version; if ($LASTEXITCODE -ne 0) { throw 'git does not run' }
& 'C:\Program Files\Git\bin\bash.exe' -lc 'echo git-bash ok'; if ($LASTEXITCODE -ne 0) { throw 'Git Bash does not run' }
& (Join-Path $DevinBin 'devin.exe') --version; if ($LASTEXITCODE -ne 0) { throw 'devin --version failed' }
& (Join-Path $DevinBin 'devin.exe') worker start --help | Out-Null; if ($LASTEXITCODE -ne 0) { throw 'devin worker start --help failed' }
$profileDir = Join-Path $env:TEMP 'devin-outposts-chrome-check'
$chrome = Start-Process -FilePath $chromeExe -PassThru -ArgumentList @(
    '--headless=new', '--disable-gpu', '--no-first-run', "--user-data-dir=$profileDir",
    '--remote-debugging-port=9222', 'about:blank'
)
try {
    $ok = $false
    for ($i = 0; $i -lt 30 -and -not $ok; $i++) {
        Start-Sleep -Seconds 1
        try { Invoke-RestMethod -UseBasicParsing -Uri 'http://127.0.0.1:9222/json/version' | Out-Null; $ok = $true } catch {}
    }
    if (-not $ok) { throw 'Chrome DevTools did not answer on port 9222' }
} finally {
    Stop-Process -Id $chrome.Id -Force -ErrorAction SilentlyContinue
    Remove-Item -Recurse -Force $profileDir -ErrorAction SilentlyContinue
}
if (Get-Command ffmpeg -ErrorAction SilentlyContinue) { & ffmpeg -hide_banner -version | Select-Object -First 1 }
else { Write-Output 'ffmpeg not found (optional: screen recording stays off)' }
if (-not (Test-Path $Repos)) { throw "$Repos is missing" }

Remove-Item -Recurse -Force $Downloads -ErrorAction SilentlyContinue
Write-Output 'provisioning complete'
