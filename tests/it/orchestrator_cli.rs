//! The orchestrator's CLI launch mode (`devin worker start --session`, direct-serve) on the
//! emulated CoreWeave, where the Devin CLI image carries the fake `devin`.

use std::time::Duration;

use outposts::orchestrator::sandbox_name;
use outposts::provider::Provider;
use outposts::provider::coreweave::CoreweaveProvider;

use crate::support::block_on;
use crate::support::orch::*;

#[test]
fn cli_launch_serves_the_session_without_the_account_token() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, env) = orch_emulator(&["--sweep-delay", "1s"]);
    let mut orch = Orch::start(
        &env,
        &[
            "--provider",
            "coreweave",
            "--launch",
            "cli",
            "--image",
            "public.ecr.aws/e0h8a4b6/devin-cli:stable",
        ],
    );
    let s = new_session(&emu, Some(proof_task("via-cli")));
    wait_until(
        Duration::from_secs(90),
        "the task",
        || tasks_done(&emu, &s),
        || orch.log(),
    );
    // Read the proof back from the very sandbox, through the CoreWeave API.
    let mut cfg_env = std::collections::BTreeMap::new();
    for (k, v) in &emu.info.env {
        cfg_env.insert(k.clone(), v.clone());
    }
    let config =
        outposts::config::Config::load_with_env(cfg_env, &Default::default(), env.cwd.as_path())
            .unwrap();
    // One runtime for the gRPC client: its channel lives on the runtime that opened it.
    let rt = tokio::runtime::Runtime::new().unwrap();
    let cw = rt
        .block_on(async {
            CoreweaveProvider::from_settings(outposts::settings::CoreweaveSettings::resolve(
                &config,
            )?)
        })
        .unwrap();
    let found = rt.block_on(async {
        let sb = cw.get(&sandbox_name(&s)).await.unwrap().expect("sandbox");
        cw.read_file(&sb.id, PROOF_PATH).await.unwrap()
    });
    assert_eq!(found.as_deref(), Some(b"via-cli".as_slice()));
    // The CLI got the session's connect token, never the account token: the only
    // DEVIN_OUTPOSTS_TOKEN it saw is the direct-serve placeholder.
    let token = emu.env_value("DEVIN_OUTPOSTS_TOKEN");
    let body = emu
        .requests()
        .into_iter()
        .filter_map(|r| r.body)
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        !body.contains(&token),
        "the account token reached a sandbox request"
    );
    block_on(emu.client().terminate(&s)).unwrap();
    wait_until(
        Duration::from_secs(60),
        "the sandbox to go",
        || {
            rt.block_on(async { cw.get(&sandbox_name(&s)).await.unwrap() })
                .is_none_or(|sb| sb.state == outposts::provider::SandboxState::Deleted)
        },
        || orch.log(),
    );
    let (code, _) = orch.terminate(Duration::from_secs(35));
    assert_eq!(code, Some(0), "{}", orch.log());
}
