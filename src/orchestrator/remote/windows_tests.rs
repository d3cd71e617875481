//! The Windows scripts' structure, checked on the generated text (nothing here runs
//! PowerShell): what keeps each exec short, exit codes readable, and the token off every
//! command line.

use base64::Engine;

use super::tests::plan;
use super::windows_scripts::*;
use super::*;

fn decode(cmd: &str) -> String {
    let b64 = cmd.rsplit(' ').next().unwrap();
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(b64)
        .unwrap();
    let units: Vec<u16> = bytes
        .chunks(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    String::from_utf16(&units).unwrap()
}

const DIR: &str = "C:\\ProgramData\\devin-outposts\\remote\\412f0e9b19";
const EXE: &str = "C:\\ProgramData\\devin-outposts\\remote\\412f0e9b19\\devin-remote.exe";

fn install() -> String {
    windows_install::start_script(DIR, EXE, &"a".repeat(64))
}

fn runner() -> String {
    windows_install::runner_script(
        DIR,
        EXE,
        &"a".repeat(64),
        "http://x/devin-remote_412f0e9b19_windows_x64.exe",
        "nonce1",
    )
}

#[test]
fn every_exec_fits_cmd_exe_and_round_trips() {
    let id = "devin-".to_string() + &"x".repeat(200);
    for script in [install(), start_script(&id), check_script(&id)] {
        let cmd = windows::command(&script);
        assert!(cmd.starts_with("powershell.exe "));
        assert!(
            cmd.len() <= crate::shell::WINDOWS_COMMAND_BUDGET,
            "{} chars",
            cmd.len()
        );
        assert_eq!(decode(&cmd), script);
    }
}

#[test]
fn the_detached_start_inherits_no_handles() {
    let start = start_script("devin-1");
    let line = start
        .lines()
        .find(|l| l.trim_start().starts_with("Start-Process"))
        .expect("a Start-Process line");
    assert!(line.contains("-WindowStyle Hidden"), "{line}");
    assert!(!line.contains("-Redirect"), "{line}");
    assert!(!line.contains("-NoNewWindow"), "{line}");
    assert!(!start.contains("-Redirect"));
}

/// A duplicated start (the HTTP layer retries a 502/503/504) must neither orphan the remote the
/// first one started nor start a second: the start clears no file, starts nothing while a
/// bootstrap holds its lock, and the bootstrap takes the lock before it touches any file.
#[test]
fn a_duplicated_start_is_safe() {
    let start = start_script("devin-1");
    assert!(!start.contains("worker.id'), "), "{start}");
    for line in start.lines().filter(|l| l.contains("Remove-Item")) {
        assert!(
            line.contains("'launch.json'"),
            "the start removes only the hand-off: {line}"
        );
    }
    let guard = start
        .find("if (-not (Busy))")
        .expect("the start checks the lock");
    assert!(guard < start.find("Start-Process").unwrap());
    let p = plan(LaunchMode::Remote);
    let b = bootstrap_script(
        &p.session_id,
        "C:\\r\\x.exe",
        LaunchMode::Remote,
        &p.workdir,
    );
    let lock = b
        .find("'bootstrap.lock'), 'OpenOrCreate', 'ReadWrite', 'None')")
        .unwrap();
    assert!(lock < b.find("if (-not $lock) { exit 0 }").unwrap());
    for first_touch in ["Remove-Item", "Put 'worker", "Get-Content"] {
        assert!(
            lock < b.find(first_touch).unwrap(),
            "{first_touch} before the lock"
        );
    }
    // A consumed or scrubbed hand-off: nothing to start.
    assert!(
        b.contains("(Get-Item -LiteralPath $launch).Length -eq 0"),
        "{b}"
    );
    // The lock is let go however the bootstrap ends.
    let fin = b.find("} finally {").unwrap();
    assert!(b[fin..].contains("$lock.Dispose()"));
}

#[test]
fn the_bootstrap_reads_the_handle_before_the_exit_code() {
    let p = plan(LaunchMode::Remote);
    let b = bootstrap_script(
        &p.session_id,
        "C:\\r\\devin-remote.exe",
        LaunchMode::Remote,
        &p.workdir,
    );
    let handle = b.find("$null = $proc.Handle").expect("the handle is read");
    assert!(handle < b.find("WaitForExit").unwrap());
    assert!(handle < b.find("$proc.ExitCode").unwrap());
    // Identity: pid and start time in one file, written whole (temp + rename).
    let puts: Vec<&str> = b.lines().filter(|l| l.contains("Put 'worker.")).collect();
    assert_eq!(puts.len(), 3, "{puts:?}");
    assert!(
        puts[0].contains("Put 'worker.id' ([string]$proc.Id + ' ' + [string]$proc.StartTime"),
        "{puts:?}"
    );
    assert!(!b.contains("worker.pid") && !b.contains("worker.start"));
    // The hand-off is deleted however the bootstrap ends.
    let fin = b.find("} finally {").expect("a finally block");
    assert!(
        b[fin..].contains("Remove-Item -Force -ErrorAction SilentlyContinue -LiteralPath $launch")
    );
    for var in [
        "SystemDrive",
        "ProgramFiles(x86)",
        "ProgramW6432",
        "CommonProgramFiles",
        "CommonProgramFiles(x86)",
        "CommonProgramW6432",
        "ALLUSERSPROFILE",
        "HOME",
        "LANG",
        "TZ",
        "PSModulePath",
    ] {
        assert!(b.contains(&format!("'{var}'")), "{var} is kept");
    }
    // What the image sets machine-wide (JAVA_HOME, …) is kept too.
    assert!(b.contains("+ @([Environment]::GetEnvironmentVariables('Machine').Keys)"));
}

/// `[ ]` in a workdir are wildcards to `-Path`: every path goes through `-LiteralPath` or .NET.
#[test]
fn paths_are_literal() {
    let p = plan(LaunchMode::Remote);
    let b = bootstrap_script(
        &p.session_id,
        "C:\\r\\x.exe",
        LaunchMode::Remote,
        "C:\\w\\[x]",
    );
    assert!(b.contains("Set-Location -LiteralPath 'C:\\w\\[x]'"), "{b}");
    assert!(
        b.contains("[IO.Directory]::CreateDirectory('C:\\w\\[x]')"),
        "{b}"
    );
    for s in [
        b,
        start_script("devin-1"),
        check_script("devin-1"),
        install(),
        runner(),
    ] {
        for l in s.lines() {
            assert!(!l.contains(" -Path "), "{l}");
            assert!(!l.contains("New-Item"), "{l}");
            for cmd in [
                "Test-Path $",
                "Get-Content $",
                "Remove-Item -Force $",
                "Set-Location $",
            ] {
                assert!(!l.contains(cmd), "{l}");
            }
        }
    }
}

#[test]
fn liveness_needs_pid_and_start_time() {
    for s in [start_script("devin-1"), check_script("devin-1")] {
        assert!(s.contains("$w.StartTime.ToUniversalTime().Ticks"), "{s}");
        assert!(s.contains("'worker.id'"), "{s}");
        // A pid that does not parse is not ours, never an error under Stop.
        assert!(s.contains("[int]::TryParse($rec[0], [ref]$id)"), "{s}");
    }
}

/// The install exec only answers `cached` or starts the download detached; the download runs
/// alone under a lock, resumes one partial file, sweeps the per-try partials of older tries,
/// and runs curl and Defender under `Continue` with explicit exit-code checks.
#[test]
fn the_install_downloads_detached_and_resumes() {
    let s = install();
    assert!(s.contains("outposts-install result=cached"), "{s}");
    let line = s.lines().find(|l| l.starts_with("Start-Process")).unwrap();
    assert!(
        line.contains("-WindowStyle Hidden") && !line.contains("-Redirect"),
        "{line}"
    );
    assert!(!s.contains("curl"), "no download inside the exec: {s}");
    let r = runner();
    assert!(r.contains(r#"$part = "$exe.partial""#), "{r}");
    assert!(r.contains("--continue-at '-'"), "{r}");
    assert!(r.contains("-Filter '*.partial.*'"), "{r}");
    assert!(r.contains("$r = Native { & curl.exe"), "{r}");
    assert!(r.contains("if ($r.Code -ne 0)"), "{r}");
    assert!(r.contains("$null = Native { & $mp -Scan"), "{r}");
    assert!(r.contains("'install.lock'"), "{r}");
    // The record is written whatever happened, after the lock is let go.
    let fin = r.find("} finally {").unwrap();
    assert!(
        fin < r
            .find("Set-Content -Encoding UTF8 -LiteralPath \"$exitFile.tmp\"")
            .unwrap()
    );
    assert!(r.contains(&format!("$line = '{ERROR_TAG}'")), "{r}");
}

#[test]
fn install_records_name_their_try() {
    use windows_install::parse_record;
    assert_eq!(
        parse_record("n1 0 outposts-install result=installed\r\n", "n1"),
        Some((0, "outposts-install result=installed".into()))
    );
    assert_eq!(
        parse_record("\u{feff}n1 3 outposts-error: download failed", "n1"),
        Some((3, "outposts-error: download failed".into()))
    );
    assert_eq!(
        parse_record("n0 0 outposts-install result=installed", "n1"),
        None
    );
    assert_eq!(parse_record("", "n1"), None);
}

/// Windows PowerShell 5.1's last line of an error is `+ FullyQualifiedErrorId : …`; the tagged
/// line says what failed.
#[test]
fn the_tagged_error_line_is_the_failure() {
    let out = "outposts-error: download of http://x failed (curl exit 28): timed out\r\n\
               At line:12 char:3\r\n    + FullyQualifiedErrorId : RuntimeException\r\n";
    assert_eq!(
        windows::failure_detail("", out),
        "download of http://x failed (curl exit 28): timed out"
    );
    assert_eq!(windows::failure_detail("", "a\nlast\n"), "last");
}

#[test]
fn windows_commands_never_carry_the_token() {
    let p = plan(LaunchMode::Remote);
    let boot = bootstrap_script(
        &p.session_id,
        "C:\\r\\devin-remote.exe",
        LaunchMode::Remote,
        &p.workdir,
    );
    for s in [
        install(),
        runner(),
        start_script(&p.session_id),
        check_script(&p.session_id),
        boot,
    ] {
        assert!(!s.contains("connect-token-SECRET-123"));
        assert!(!windows::command(&s).contains("connect-token-SECRET-123"));
    }
    let env = remote_env(&p);
    assert_eq!(
        env["DEVIN_OUTPOST_CONNECT_TOKEN"].expose(),
        "connect-token-SECRET-123"
    );
    assert_eq!(env["DEVIN_OUTPOST_DESKTOP"].expose(), "true");
}

/// The CLI mode runs what Linux runs (`devin worker start --session <id>`, the direct-serve
/// mode of specs/devin-outposts-api.md §10), never `devin.exe serve`, which is the remote's
/// command and not the CLI's.
#[test]
fn the_cli_mode_runs_the_cli_direct_serve_mode() {
    let p = plan(LaunchMode::Cli);
    let b = bootstrap_script(&p.session_id, "devin.exe", LaunchMode::Cli, &p.workdir);
    let start = b
        .lines()
        .find(|l| l.contains("Start-Process"))
        .expect("a Start-Process line");
    assert!(
        start.contains(&format!(
            "-FilePath 'devin.exe' -ArgumentList @('worker','start','--session','{}')",
            p.session_id
        )),
        "{start}"
    );
    assert!(!start.contains("'serve'"), "{start}");
    let remote = bootstrap_script(
        &p.session_id,
        "C:\\r\\devin-remote.exe",
        LaunchMode::Remote,
        &p.workdir,
    );
    assert!(remote.contains("-FilePath 'C:\\r\\devin-remote.exe' -ArgumentList 'serve'"));
    // The CLI mode's environment: the connect token under the CLI's name, no remote-mode token.
    let env = remote_env(&p);
    assert!(env.contains_key("DEVIN_REMOTE_SESSION_TOKEN"));
    assert!(!env.contains_key("DEVIN_OUTPOST_CONNECT_TOKEN"));
}

#[test]
fn exit_code_files_read_in_every_encoding() {
    assert_eq!(windows::exit_code(b"0\r\n"), 0);
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain("3\r\n".encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    assert_eq!(windows::exit_code(&utf16), 3);
    assert_eq!(
        windows::exit_code(b"\xEF\xBB\xBF-1073741510\r\n"),
        -1073741510
    );
    assert_eq!(windows::exit_code(b""), -1);
    assert_eq!(windows::exit_code(b"garbage"), -1);
}

#[test]
fn only_the_current_launchs_exit_record_counts() {
    // The bootstrap signs its record with the id from `launch.id`.
    assert_eq!(windows::exit_record(b"abc 0\r\n", Some(b"abc")), Some(0));
    assert_eq!(windows::exit_record(b"abc 7", Some(b"abc\r\n")), Some(7));
    // An older launch's record (left over, or written late by an old bootstrap) is not ours.
    assert_eq!(windows::exit_record(b"old 0\r\n", Some(b"abc")), None);
    assert_eq!(windows::exit_record(b"0\r\n", Some(b"abc")), None);
    // A record from before launch ids, with none on file.
    assert_eq!(windows::exit_record(b"3\r\n", None), Some(3));
    let utf16: Vec<u8> = "abc 250\r\n"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    assert_eq!(
        windows::exit_record(&utf16, Some(b"abc")),
        Some(BOOTSTRAP_FAILED)
    );
}

#[test]
fn a_failed_bootstrap_records_an_exit_and_reads_its_files_as_utf8() {
    let p = plan(LaunchMode::Remote);
    let b = bootstrap_script(
        &p.session_id,
        "C:\\r\\x.exe",
        LaunchMode::Remote,
        &p.workdir,
    );
    let catch = b.find("} catch {").expect("a catch block");
    let fin = b.find("} finally {").unwrap();
    let failed = format!("Put 'worker.exit' ($launchId + ' {BOOTSTRAP_FAILED}')");
    let at = b
        .find(&failed)
        .expect("the catch records the reserved code");
    assert!(catch < at && at < fin, "{b}");
    assert!(
        b.contains("Get-Content -Raw -Encoding UTF8 -LiteralPath $launch"),
        "{b}"
    );
    // A start time that cannot be read is not ours, not an error under Stop.
    let s = start_script(&p.session_id);
    assert!(s.contains("try { $ticks = [string]$w.StartTime"), "{s}");
    // One tagged line says why.
    assert!(
        b[catch..].contains(&format!(
            "Add-Content -LiteralPath $log -Value ('{ERROR_TAG}bootstrap failed: '"
        )),
        "{b}"
    );
}

/// The provisioner checks each download before use, expands the CLI apart, runs natives under
/// `Continue` with their exit codes checked, and reports a failure as one tagged line.
#[test]
fn the_provisioner_verifies_downloads_and_reports_one_line() {
    let p = String::from_utf8(crate::provider::daytona::snapshot::WINDOWS_PROVISIONER.to_vec())
        .unwrap();
    for want in [
        "$gitExe $GitSha256\nAssert-Signed $gitExe $GitSigner",
        "$chromeZip $ChromeSha256",
        "Assert-Signed $chromeExe $ChromeSigner",
        "Fetch $entry.url $cliZip $entry.sha256",
        "Expand-Archive -LiteralPath $cliZip -DestinationPath $cliStage",
        "if ($sha256 -and ($actual -ne $sha256.ToLowerInvariant()))",
        "Write-Output ('outposts-error: ' +",
    ] {
        assert!(p.contains(want), "{want}");
    }
    assert!(
        !p.contains("-DestinationPath $DevinBin"),
        "the CLI zip is not expanded flat"
    );
    // Every native call goes through Native/Check (a `{ & ` block), never bare under Stop.
    for l in p.lines() {
        let t = l.trim_start();
        assert!(!t.starts_with("& "), "a bare native call: {l}");
    }
}
