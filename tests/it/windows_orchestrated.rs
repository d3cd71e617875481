//! An orchestrated Windows session on the emulator's model of Daytona's Windows daemon, as far
//! as it goes without PowerShell (nothing here can run it). The proxy answers every exec with a
//! 502, as Daytona's proxy does when it cuts a long exec: the start is *unconfirmed*, so the
//! orchestrator polls for the remote's pid or exit code instead of failing the launch. The test
//! plays the Windows side the model cannot: when the session is suspended it writes the exit
//! code the bootstrap writes when the remote ends (`worker.exit` = 0). The orchestrator must read
//! that through the file API, take the sleep path (not a crash), and stop the sandbox, keeping
//! it. What needs a running PowerShell — the pid + start-time check of a live remote, hence an
//! adoption after a restart — is not reachable here.

use std::time::Duration;

use outposts::orchestrator::remote::windows_scripts::root;
use outposts::orchestrator::sandbox_name;
use outposts::provider::{Provider, SandboxState};

use crate::support::block_on;
use crate::support::daytona::{client, provider};
use crate::support::orch::*;

const WAIT: Duration = Duration::from_secs(120);

/// Every toolbox exec is cut by the proxy (502): a launch whose start is never confirmed.
const CUT_EXECS: &str = r#"[{"method":"POST","path":"/daytona/toolbox/*/process/execute","times":0,
  "action":{"kind":"status","status":502,"body":"{\"message\":\"Bad Gateway\"}"}}]"#;

crate::windows_daemon::both_daemons!(
    an_unconfirmed_windows_start_is_polled_and_a_clean_exit_sleeps
);

fn an_unconfirmed_windows_start_is_polled_and_a_clean_exit_sleeps(
    d: crate::windows_daemon::Daemon,
) {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let mut args = vec!["--faults", CUT_EXECS];
    args.extend(d.args());
    let (emu, env) = orch_emulator(&args);
    // No install exec: the image provides devin.exe.
    let (mut orch, s) = windows_cli_orch(&emu, &env);
    let uploaded = |name: &str| {
        emu.requests().iter().any(|r| {
            r.path.contains("/files/")
                && (r.query.as_deref().is_some_and(|q| q.contains(name))
                    || r.exchange
                        .as_ref()
                        .and_then(|x| x.request_body.clone())
                        .is_some_and(|b| b.contains(name)))
        })
    };
    // The start was attempted and cut: the orchestrator now polls.
    wait_until(
        WAIT,
        "the unconfirmed start",
        || orch.log().contains("polling the PID file"),
        || orch.log(),
    );
    assert!(uploaded("bootstrap.ps1") && uploaded("launch.json"));
    let daytona = provider(&emu);
    let sb = block_on(daytona.get(&sandbox_name(&s)))
        .unwrap()
        .expect("the sandbox");

    // The remote "ran" and ended cleanly: the bootstrap writes its exit code. The orchestrator
    // must read that code (not sleep on the suspension alone), then the suspension explains it.
    let url = block_on(client(&emu).toolbox_proxy_url(&sb.id)).unwrap();
    let tb = client(&emu).toolbox(&url, &sb.id);
    // The record names this launch (the id the tool wrote to `launch.id`).
    let id = block_on(tb.download(&format!("{}\\launch.id", root(&s))))
        .unwrap()
        .expect("launch.id written at the hand-off");
    let id = String::from_utf8(id).unwrap();
    // The bootstrap went up with a byte-order mark, so Windows PowerShell 5.1 reads it as UTF-8.
    let boot = block_on(tb.download(&format!("{}\\bootstrap.ps1", root(&s))))
        .unwrap()
        .expect("bootstrap.ps1");
    assert!(boot.starts_with(b"\xEF\xBB\xBF"), "no BOM");
    block_on(tb.upload(
        &format!("{}\\worker.exit", root(&s)),
        format!("{id} 0\r\n").as_bytes(),
    ))
    .unwrap();
    wait_until(
        WAIT,
        "the remote's exit code read",
        || orch.log().contains(r#""event":"remote_exited","session":"#),
        || orch.log(),
    );
    block_on(emu.client().suspend(&s)).unwrap();

    wait_until(
        WAIT,
        "the release after the sleep",
        || {
            block_on(emu.client().history(Some(&s)))
                .unwrap()
                .iter()
                .any(|h| h.event == "release")
        },
        || orch.log(),
    );
    let log = orch.log();
    let _ = orch.terminate(Duration::from_secs(35));
    assert!(
        log.contains("polling the PID file"),
        "the start was read as unconfirmed, not failed:\n{log}"
    );
    // The exit code arrived: a clean exit, not a failed launch or a crash.
    assert!(
        log.contains(r#""event":"remote_exited","session":"#) && log.contains(r#""code":0}"#),
        "the remote's exit 0 was read:\n{log}"
    );
    assert!(
        !log.contains(r#""event":"failed""#),
        "the launch did not fail:\n{log}"
    );
    let after = block_on(daytona.get(&sb.id))
        .unwrap()
        .expect("the sandbox is kept");
    assert_eq!(after.state, SandboxState::Stopped, "{after:?}\n{log}");
    let records = emu.requests();
    assert!(
        !records
            .iter()
            .any(|r| r.method == "DELETE" && r.path.contains(&sb.id)),
        "a sleeping session's sandbox is never deleted"
    );
    // One launch: the bootstrap went up once (an unconfirmed start is not retried blindly).
    let boots = records
        .iter()
        .filter(|r| r.path.contains("/files/"))
        .filter(|r| {
            r.exchange
                .as_ref()
                .and_then(|x| x.request_body.clone())
                .is_some_and(|b| b.contains("bootstrap.ps1"))
        })
        .count();
    assert_eq!(boots, 1, "{log}");
    eprintln!("{log}");
}
