//! The emulator's model of Daytona's Windows daemon, and our Windows launch steps against it.
//! Nothing here runs PowerShell: the model holds an exec while a child that inherited its
//! output pipe lives, enforces cmd.exe's command-line limit, and never reports a session
//! command's exit code — the behaviours that stopped Windows sessions on real sandboxes.
//!
//! Daytona runs two Windows daemons (`outposts emulator start --windows-daemon legacy|newer`):
//! every test here runs against both ([`both_daemons!`]: `<test>::legacy` and `<test>::newer`).

use std::time::{Duration, Instant};

use outposts::orchestrator::remote::windows::command;
use outposts::orchestrator::remote::windows_install;
use outposts::orchestrator::remote::windows_scripts::{check_script, start_script};
use outposts::provider::{ExecRequest, Provider, ProviderError, SandboxSpec, Source};

use outposts::api::daytona_types::ExecuteRequest;

use crate::support::daytona::{client, provider};
use crate::support::{Emu, TestEnv, block_on};

/// The launch of the old Windows script: `Start-Process … -Redirect*` hands the toolbox's output
/// pipe to the detached bootstrap.
const LEAKING_LAUNCH: &str = include_str!("fixtures/windows_leaking_launch.ps1");

fn exec(cmd: String, timeout_s: u64) -> ExecRequest {
    let mut req = ExecRequest::shell(cmd);
    req.timeout = Some(Duration::from_secs(timeout_s));
    req
}

/// One of the Windows daemon generations the emulator models.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Daemon {
    Legacy,
    Newer,
}

impl Daemon {
    /// The `emulator start` arguments that select it.
    pub fn args(self) -> [&'static str; 2] {
        match self {
            Daemon::Legacy => ["--windows-daemon", "legacy"],
            Daemon::Newer => ["--windows-daemon", "newer"],
        }
    }

    /// An emulator modelling this daemon.
    pub fn emulator(self) -> Emu {
        Emu::start(&TestEnv::new(), &self.args())
    }
}

/// `fn name(d: Daemon)` becomes the tests `name::legacy` and `name::newer`.
macro_rules! both_daemons {
    ($($name:ident),+ $(,)?) => {$(
        mod $name {
            #[test]
            fn legacy() {
                super::$name($crate::windows_daemon::Daemon::Legacy)
            }
            #[test]
            fn newer() {
                super::$name($crate::windows_daemon::Daemon::Newer)
            }
        }
    )+};
}
pub(crate) use both_daemons;

both_daemons!(
    windows_execs_return_at_once_unless_a_child_holds_the_pipe,
    linux_sandboxes_keep_linux_daemon_behaviour,
    a_stale_exit_record_is_not_the_new_launchs_exit,
    a_windows_log_tail_reads_the_log_files_not_a_linux_script,
);

/// A started Windows sandbox on `emu`, and a toolbox client for it.
pub fn windows_sandbox(
    emu: &Emu,
    name: &str,
) -> (
    outposts::provider::daytona::DaytonaProvider,
    String,
    outposts::api::daytona::Toolbox,
) {
    let p = provider(emu);
    block_on(async {
        let sb = p
            .create(&SandboxSpec::new(
                name,
                Source::Snapshot("windows-medium".into()),
            ))
            .await
            .unwrap();
        let url = client(emu).toolbox_proxy_url(&sb.id).await.unwrap();
        let tb = client(emu).toolbox(&url, &sb.id);
        (p, sb.id, tb)
    })
}

fn windows_execs_return_at_once_unless_a_child_holds_the_pipe(d: Daemon) {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let emu = d.emulator();
    let p = provider(&emu);
    let sb = block_on(async {
        let sb = p
            .create(&SandboxSpec::new(
                "devin-win-1",
                Source::Snapshot("windows-medium".into()),
            ))
            .await
            .unwrap();
        let raw = client(&emu).get_sandbox(&sb.id).await.unwrap().unwrap();
        assert!(raw.is_windows(), "{raw:?}");

        // Every step of the new launch returns well inside the proxy's ~40 s.
        let install =
            windows_install::start_script("C:\\r", "C:\\r\\devin-remote.exe", &"a".repeat(64));
        // The model cannot run PowerShell: each says so at once (never "not found").
        for script in [install, start_script("devin-w"), check_script("devin-w")] {
            let t = Instant::now();
            let out = p.exec(&sb.id, &exec(command(&script), 30)).await.unwrap();
            assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
            assert_eq!(out.exit_code, 1, "{out:?}");
            assert!(out.stdout.contains("cannot run PowerShell"), "{out:?}");
        }

        // An argv reaches the Windows daemon as a cmd.exe line (an encoded PowerShell call),
        // not as PowerShell syntax cmd.exe would choke on.
        let out = p
            .exec(&sb.id, &ExecRequest::argv(["git", "status"]))
            .await
            .unwrap();
        assert!(out.stdout.contains("cannot run PowerShell"), "{out:?}");
        sb
    });
    {
        let sent = emu
            .requests()
            .into_iter()
            .rev()
            .find(|r| r.path.ends_with("/process/execute"))
            .and_then(|r| r.exchange.and_then(|x| x.request_body).or(r.body))
            .unwrap();
        let sent: serde_json::Value = serde_json::from_str(&sent).unwrap();
        let line = sent["command"].as_str().unwrap();
        assert!(line.starts_with("powershell.exe "), "{line}");
        assert!(!line.contains(['&', '\'', '"', '|', '%']), "{line}");
    }
    block_on(async {
        // The old launch hangs until its exec times out.
        let t = Instant::now();
        let held = p.exec(&sb.id, &exec(command(LEAKING_LAUNCH), 3)).await;
        let waited = t.elapsed();
        assert!(
            matches!(held, Err(ProviderError::Timeout(_))),
            "the leaking launch returned: {held:?}"
        );
        assert!(waited >= Duration::from_secs(3), "{waited:?}");
        eprintln!("the leaking launch was held {waited:?}, then timed out");

        // cmd.exe refuses a command line over 8,191 characters; our provider does not send one.
        let url = client(&emu).toolbox_proxy_url(&sb.id).await.unwrap();
        let tb = client(&emu).toolbox(&url, &sb.id);
        let too_long = format!("echo {}", "x".repeat(8200));
        let refused = p.exec(&sb.id, &exec(too_long.clone(), 10)).await;
        assert!(
            matches!(refused, Err(ProviderError::Invalid(_))),
            "{refused:?}"
        );
        let long = tb
            .execute(
                &ExecuteRequest {
                    command: too_long,
                    cwd: None,
                    envs: None,
                    timeout: Some(10),
                },
                Duration::from_secs(20),
            )
            .await
            .unwrap();
        assert_eq!(long.exit(), 1);
        assert!(long.result.contains("too long"), "{long:?}");

        // Session commands on Windows never report an exit code.
        tb.create_session("s").await.unwrap();
        let sync = tb
            .session_exec("s", "echo hi", false, Duration::from_secs(30))
            .await
            .unwrap();
        assert_eq!(sync.exit_code, None, "{sync:?}");
        let cmd = tb.session_command("s", &sync.cmd_id).await.unwrap();
        assert_eq!(cmd.exit_code, None);
    });
}

fn linux_sandboxes_keep_linux_daemon_behaviour(d: Daemon) {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let emu = d.emulator();
    let p = provider(&emu);
    block_on(async {
        let sb = p
            .create(&SandboxSpec::new("devin-lin-1", Source::Default))
            .await
            .unwrap();
        let url = client(&emu).toolbox_proxy_url(&sb.id).await.unwrap();
        let tb = client(&emu).toolbox(&url, &sb.id);
        tb.create_session("s").await.unwrap();
        let sync = tb
            .session_exec("s", "exit 3", false, Duration::from_secs(30))
            .await
            .unwrap();
        assert_eq!(sync.exit_code, Some(3));
        // A long command line is no problem for sh.
        let long = p
            .exec(
                &sb.id,
                &exec(format!("echo {} | wc -c", "x".repeat(9000)), 10),
            )
            .await
            .unwrap();
        assert_eq!(long.exit_code, 0, "{long:?}");
    });
}

/// An exit record is read through the file API only when it names the launch on file: a record
/// left by an earlier launch (a start that never ran, or an old bootstrap writing late) is not
/// this launch's exit. A failed bootstrap's reserved code reads as an exit, not as "absent".
fn a_stale_exit_record_is_not_the_new_launchs_exit(d: Daemon) {
    use outposts::orchestrator::remote::Liveness;
    use outposts::orchestrator::remote::windows::check;
    use outposts::orchestrator::remote::windows_scripts::{BOOTSTRAP_FAILED, root};
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let emu = d.emulator();
    let p = provider(&emu);
    block_on(async {
        let sb = p
            .create(&SandboxSpec::new(
                "devin-win-2",
                Source::Snapshot("windows-medium".into()),
            ))
            .await
            .unwrap();
        let url = client(&emu).toolbox_proxy_url(&sb.id).await.unwrap();
        let tb = client(&emu).toolbox(&url, &sb.id);
        let dir = root("devin-w");
        tb.upload(&format!("{dir}\\launch.id"), b"new")
            .await
            .unwrap();
        tb.upload(&format!("{dir}\\worker.exit"), b"old 0\r\n")
            .await
            .unwrap();
        // Not an exit: the check goes on to the script (which this model cannot run).
        let stale = check(&p, &sb.id, "devin-w").await;
        assert!(
            !matches!(stale, Ok(Liveness::Exited(_))),
            "an older launch's record was read as this one's: {stale:?}"
        );
        tb.upload(
            &format!("{dir}\\worker.exit"),
            format!("new {BOOTSTRAP_FAILED}\r\n").as_bytes(),
        )
        .await
        .unwrap();
        let failed = check(&p, &sb.id, "devin-w").await.unwrap();
        assert_eq!(failed, Liveness::Exited(BOOTSTRAP_FAILED));
    });
}

/// Diagnosis of a Windows session reads its logs through the file API — the remote's stderr and
/// the bootstrap's own failures — and never sends the Linux log script to cmd.exe.
fn a_windows_log_tail_reads_the_log_files_not_a_linux_script(d: Daemon) {
    use outposts::orchestrator::remote::log_tail;
    use outposts::orchestrator::remote::windows_scripts::root;
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let emu = d.emulator();
    let p = provider(&emu);
    let sb = block_on(async {
        let sb = p
            .create(&SandboxSpec::new(
                "devin-win-3",
                Source::Snapshot("windows-medium".into()),
            ))
            .await
            .unwrap();
        let url = client(&emu).toolbox_proxy_url(&sb.id).await.unwrap();
        let tb = client(&emu).toolbox(&url, &sb.id);
        let dir = root("devin-w");
        tb.upload(&format!("{dir}\\launch.id"), b"abc")
            .await
            .unwrap();
        // Windows PowerShell writes redirected stderr as UTF-16LE with a byte-order mark.
        let err: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain(
                "starting\r\nerror: could not bind\r\n"
                    .encode_utf16()
                    .flat_map(u16::to_le_bytes),
            )
            .collect();
        tb.upload(&format!("{dir}\\worker.err.log"), &err)
            .await
            .unwrap();
        tb.upload(
            &format!("{dir}\\bootstrap.log"),
            b"bootstrap failed: Access is denied\r\n",
        )
        .await
        .unwrap();
        sb
    });
    let before = emu
        .requests()
        .iter()
        .filter(|r| r.path.ends_with("/process/execute"))
        .count();
    let tail = block_on(log_tail(&p, &sb.id, "devin-w", 5)).unwrap();
    assert!(tail.contains("error: could not bind"), "{tail:?}");
    assert!(
        tail.contains("bootstrap failed: Access is denied"),
        "{tail:?}"
    );
    assert!(!tail.contains("cannot find the path"), "{tail:?}");
    let after = emu
        .requests()
        .iter()
        .filter(|r| r.path.ends_with("/process/execute"))
        .count();
    assert_eq!(before, after, "no exec for a Windows log tail");
}
