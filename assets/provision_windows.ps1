# Provision a Daytona Windows sandbox (from the `windows-medium` snapshot) as a Devin Outposts
# session machine. `outposts snapshot build --platform windows` uploads this script into a
# builder sandbox, runs it, and snapshots the result as
# `devin-outposts-windows-<first 8 hex of sha256(this file)>`; any edit yields a new name.
#
# Installs pinned Git for Windows and Chrome for Testing, the Devin CLI from the current CLI
# manifest (checksum-verified), creates C:\repos, and verifies every piece. Fails on the first
# error so a broken image is never snapshotted; the failure is reported as one line starting
# `outposts-error: ` (Windows PowerShell 5.1's own last line would be `+ FullyQualifiedErrorId`).
#
# Every download is verified before use: against its pinned SHA-256 below when one is set (set
# it together with the version, from the publisher's release page), and always against its
# publisher's Authenticode signature. Native programs run under `Continue` (see `Native`): under
# `Stop`, 5.1 turns their first stderr line into a terminating error once output is redirected,
# as the build runner does; their exit codes are checked instead.

$ErrorActionPreference = 'Stop'
$ProgressPreference = 'SilentlyContinue'
[Net.ServicePointManager]::SecurityProtocol = [Net.SecurityProtocolType]::Tls12
trap {
    Write-Output ('outposts-error: ' + ("$_" -replace '\s+', ' '))
    exit 1
}

$GitVersion = '2.55.0.windows.2'
$GitInstaller = 'Git-2.55.0.2-64-bit.exe'
$GitSha256 = ''
$GitSigner = 'CN=Johannes Schindelin'
$ChromeVersion = '150.0.7871.115'
$ChromeSha256 = ''
$ChromeSigner = 'CN=Google LLC'
$CliManifestUrl = 'https://static.devin.ai/cli/current/manifest.json'
$CliTarget = 'x86_64-pc-windows'

$Root = 'C:\ProgramData\devin-outposts'
$Downloads = Join-Path $Root 'downloads'
$DevinBin = Join-Path $Root 'devin\bin'
$ChromeDir = Join-Path $Root 'chrome'
$Repos = 'C:\repos'

function Step($message) { Write-Output "==> $message" }

# Runs a native program under Continue; returns its exit code and last output lines.
function Native([scriptblock]$run) {
    $ErrorActionPreference = 'Continue'
    $out = @(& $run 2>&1 | ForEach-Object { "$_" })
    # Shown through the host stream (the runner's `*>` keeps it): the output is the result.
    $out | ForEach-Object { Write-Host $_ }
    [pscustomobject]@{ Code = $LASTEXITCODE; Output = (($out | Select-Object -Last 5) -join ' ') }
}

function Fetch($url, $dest, $sha256) {
    for ($attempt = 1; $attempt -le 4; $attempt++) {
        try {
            Invoke-WebRequest -UseBasicParsing -Uri $url -OutFile $dest
            break
        } catch {
            if ($attempt -eq 4) { throw "download failed after $attempt attempts: $url ($_)" }
            Start-Sleep -Seconds ([math]::Pow(2, $attempt))
        }
    }
    $actual = (Get-FileHash -Algorithm SHA256 -LiteralPath $dest).Hash.ToLowerInvariant()
    if ($sha256 -and ($actual -ne $sha256.ToLowerInvariant())) {
        throw "checksum mismatch for ${url}: pinned $sha256, got $actual"
    }
    Write-Output "sha256 $actual $url"
}

function Assert-Signed($path, $signer) {
    $sig = Get-AuthenticodeSignature -LiteralPath $path
    if (($sig.Status -ne 'Valid') -or -not $sig.SignerCertificate.Subject.StartsWith($signer)) {
        throw "$path is not signed by $signer (signature: $($sig.Status) $($sig.SignerCertificate.Subject))"
    }
}

# Run a native check; its output is shown, a non-zero exit ends the build with `what`.
function Check($what, [scriptblock]$run) {
    $r = Native $run
    if ($r.Code -ne 0) { throw "$what (exit $($r.Code)): $($r.Output)" }
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
Fetch "https://github.com/git-for-windows/git/releases/download/v$GitVersion/$GitInstaller" $gitExe $GitSha256
Assert-Signed $gitExe $GitSigner
$p = Start-Process -FilePath $gitExe -Wait -PassThru -ArgumentList @(
    '/VERYSILENT', '/NORESTART', '/NOCANCEL', '/SP-', '/SUPPRESSMSGBOXES',
    '/COMPONENTS=gitlfs,assoc,assoc_sh', '/o:PathOption=Cmd', '/o:BashTerminalOption=ConHost'
)
if ($p.ExitCode -ne 0) { throw "Git installer exited with $($p.ExitCode)" }
Add-MachinePath 'C:\Program Files\Git\cmd'
Add-MachinePath 'C:\Program Files\Git\usr\bin'

Step "Chrome for Testing $ChromeVersion"
$chromeZip = Join-Path $Downloads 'chrome-win64.zip'
Fetch "https://storage.googleapis.com/chrome-for-testing-public/$ChromeVersion/win64/chrome-win64.zip" $chromeZip $ChromeSha256
Expand-Archive -LiteralPath $chromeZip -DestinationPath $ChromeDir -Force
$chromeExe = Join-Path $ChromeDir 'chrome-win64\chrome.exe'
Assert-Signed $chromeExe $ChromeSigner
[Environment]::SetEnvironmentVariable('DEVIN_CHROME_PATH', $chromeExe, 'Machine')

Step "Devin CLI ($CliTarget) from $CliManifestUrl"
$manifest = Invoke-RestMethod -UseBasicParsing -Uri $CliManifestUrl
$entry = $manifest.platforms.$CliTarget
if (-not $entry) { throw "the CLI manifest has no $CliTarget entry" }
if (-not $entry.sha256) { throw "the CLI manifest has no sha256 for $CliTarget" }
$cliZip = Join-Path $Downloads 'devin-cli.zip'
Fetch $entry.url $cliZip $entry.sha256
# Expanded apart, then the directory holding devin.exe (the archive may nest it) becomes the
# whole of $DevinBin: no file of the archive lands beside an older CLI's.
$cliStage = Join-Path $Downloads 'devin-cli'
Expand-Archive -LiteralPath $cliZip -DestinationPath $cliStage -Force
$cliExe = Get-ChildItem -LiteralPath $cliStage -Recurse -Filter 'devin.exe' | Select-Object -First 1
if (-not $cliExe) { throw "the CLI archive $($entry.url) has no devin.exe" }
Get-ChildItem -LiteralPath $DevinBin | Remove-Item -Recurse -Force
Get-ChildItem -LiteralPath $cliExe.DirectoryName | Copy-Item -Destination $DevinBin -Recurse -Force
Add-MachinePath $DevinBin
Write-Output "Devin CLI $($manifest.version)"

Step 'Verifying'
$devinExe = Join-Path $DevinBin 'devin.exe'
Check 'git does not run' { & git --version }
Check 'Git Bash does not run' { & 'C:\Program Files\Git\bin\bash.exe' -lc 'echo git-bash ok' }
Check 'devin --version failed' { & $devinExe --version }
$r = Native { & $devinExe worker start --help }
if ($r.Code -ne 0) { throw "devin worker start --help failed (exit $($r.Code)): $($r.Output)" }
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
if (Get-Command ffmpeg -ErrorAction SilentlyContinue) { $null = Native { & ffmpeg -hide_banner -version } }
else { Write-Output 'ffmpeg not found (optional: screen recording stays off)' }
if (-not (Test-Path $Repos)) { throw "$Repos is missing" }

Remove-Item -Recurse -Force $Downloads -ErrorAction SilentlyContinue
Write-Output 'provisioning complete'
