//! The Windows scripts' structure, checked on the generated text (nothing here runs
//! PowerShell): what keeps each exec short, exit codes readable, and the token off every
//! command line.

use base64::Engine;

use super::tests::plan;
use super::windows_scripts::*;
use super::*;

/// cmd.exe's limit on a command line (the daemon's default shell is `cmd.exe /C`).
const CMD_LIMIT: usize = 8191;

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

fn install() -> String {
    install_script(
        "C:\\ProgramData\\devin-outposts\\remote\\412f0e9b19",
        "C:\\ProgramData\\devin-outposts\\remote\\412f0e9b19\\devin-remote.exe",
        &"a".repeat(64),
        "http://x/devin-remote_412f0e9b19_windows_x64.exe",
    )
}

#[test]
fn every_exec_fits_cmd_exe_and_round_trips() {
    let id = "devin-".to_string() + &"x".repeat(200);
    for script in [install(), start_script(&id), check_script(&id)] {
        let cmd = windows::command(&script);
        assert!(cmd.starts_with("powershell.exe "));
        assert!(cmd.len() < CMD_LIMIT, "{} chars", cmd.len());
        assert_eq!(decode(&cmd), script);
    }
}

#[test]
fn the_detached_start_inherits_no_handles() {
    let start = start_script("devin-1");
    let line = start
        .lines()
        .find(|l| l.starts_with("Start-Process"))
        .expect("a Start-Process line");
    assert!(line.contains("-WindowStyle Hidden"), "{line}");
    assert!(!line.contains("-Redirect"), "{line}");
    assert!(!line.contains("-NoNewWindow"), "{line}");
    assert!(!start.contains("-Redirect"));
    // The old pid, start time and exit code go before the new start.
    let clear = start
        .find("Remove-Item -Force -ErrorAction SilentlyContinue $pidFile")
        .unwrap();
    assert!(clear < start.find("Start-Process").unwrap());
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
    // Identity: pid and start time, each written whole (temp + rename).
    assert!(b.contains("Put 'worker.start'") && b.contains("Put 'worker.pid'"));
    assert!(b.find("Put 'worker.start'").unwrap() < b.find("Put 'worker.pid'").unwrap());
    // The hand-off is deleted however the bootstrap ends.
    let fin = b.find("} finally {").expect("a finally block");
    assert!(b[fin..].contains("Remove-Item -Force -ErrorAction SilentlyContinue $launch"));
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
    ] {
        assert!(b.contains(&format!("'{var}'")), "{var} is kept");
    }
}

#[test]
fn liveness_needs_pid_and_start_time() {
    for s in [start_script("devin-1"), check_script("devin-1")] {
        assert!(s.contains("$w.StartTime.ToUniversalTime().Ticks"), "{s}");
        assert!(s.contains("worker.start"), "{s}");
    }
}

#[test]
fn the_install_uses_a_partial_name_of_its_own() {
    let s = install();
    assert!(s.contains(r#"$part = "$exe.partial.$PID."#), "{s}");
    assert!(
        s.contains("MpCmdRun.exe"),
        "the Defender scan runs in the install step"
    );
    assert!(s.contains("finally { Remove-Item -Force -ErrorAction SilentlyContinue $part }"));
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
    assert!(b.contains("Get-Content -Raw -Encoding UTF8 $launch"), "{b}");
    // A start time that cannot be read is not ours, not an error under Stop.
    let s = start_script(&p.session_id);
    assert!(s.contains("try { $ticks = [string]$w.StartTime"), "{s}");
}
