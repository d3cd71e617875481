//! Windows snapshots: Daytona builds Windows images from a running sandbox, not a Dockerfile.
//!
//! Create a builder sandbox from `windows-medium`, upload the embedded provisioner, run it as a
//! detached process that writes a log and an exit-code file (Daytona cuts synchronous execs
//! after about 40 s, and toolbox sessions on Windows sandboxes never report an exit code), poll
//! both through the file API, stop the builder (VM snapshots need it stopped), snapshot it under
//! the content-hashed name, follow the snapshot to `active`, and delete the builder whatever
//! happened. The builder keeps Daytona's default auto-delete (off): `autoDeleteInterval: 0`
//! would delete it at the stop, before the snapshot exists. It auto-stops after 2 h idle, so a
//! crash of this process leaves a stopped builder at worst.

use std::collections::{BTreeMap, VecDeque};
use std::time::{Duration, Instant};

use super::snapshot::{
    BuildEvent, BuildOutcome, FollowError, LOG_TAIL, WINDOWS_SCRIPT_PATH, WINDOWS_SOURCE_SNAPSHOT,
    follow_build, sha8,
};
use crate::api::ApiError;
use crate::api::daytona::{DaytonaClient, Toolbox};
use crate::api::daytona_types::{CreateSandbox, ExecuteRequest, Sandbox, SandboxState};
use crate::poll::{Backoff, Poll, poll_until};

pub mod runner;
use runner::{
    EXIT_PATH, LOG_PATH, RUNNER_PATH, decode_text, powershell, runner_script, start_script,
};

/// How often the provisioner's log and exit-code file are read.
const POLL: Duration = Duration::from_secs(3);
/// Waiting for the builder sandbox's state and for its snapshot to be listed.
const BUILDER_POLL: Backoff = Backoff::fixed(Duration::from_secs(2));

/// Progress messages and log lines of a Windows build.
pub async fn build_windows(
    client: &DaytonaClient,
    name: &str,
    script: &[u8],
    region: Option<String>,
    timeout: Duration,
    mut on_event: impl FnMut(BuildEvent),
    mut note: impl FnMut(&str),
) -> Result<BuildOutcome, FollowError> {
    let deadline = Instant::now() + timeout;
    let builder_name = format!(
        "outposts-builder-{}-{}",
        sha8(script),
        &uuid::Uuid::new_v4().simple().to_string()[..6]
    );
    let body = CreateSandbox {
        name: Some(builder_name.clone()),
        snapshot: Some(WINDOWS_SOURCE_SNAPSHOT.into()),
        labels: Some(BTreeMap::from([
            ("outposts.role".to_string(), "snapshot-builder".to_string()),
            ("outposts.snapshot".to_string(), name.to_string()),
        ])),
        target: region,
        // Safety net if we die mid-build: stop after 2 h idle (never delete on stop: the
        // snapshot is taken from the stopped builder).
        auto_stop_interval: Some(120),
        ..Default::default()
    };
    note(&format!(
        "creating builder sandbox {builder_name} from {WINDOWS_SOURCE_SNAPSHOT}"
    ));
    let sandbox = client.create_sandbox(&body).await?;
    let result = provision_and_snapshot(
        client,
        &sandbox,
        name,
        script,
        deadline,
        &mut on_event,
        &mut note,
    )
    .await;
    note(&format!("deleting builder sandbox {builder_name}"));
    if let Err(e) = client.delete_sandbox(&sandbox.id).await
        && !matches!(e, ApiError::NotFound { .. })
    {
        note(&format!(
            "could not delete builder sandbox {builder_name} ({e}); delete it by hand (it stops itself after 2 h idle)"
        ));
    }
    result
}

async fn provision_and_snapshot(
    client: &DaytonaClient,
    sandbox: &Sandbox,
    name: &str,
    script: &[u8],
    deadline: Instant,
    on_event: &mut impl FnMut(BuildEvent),
    note: &mut impl FnMut(&str),
) -> Result<BuildOutcome, FollowError> {
    let sb = wait_state(client, &sandbox.id, name, deadline, |s| {
        s == SandboxState::Started
    })
    .await?;
    let url = match sb.toolbox_proxy_url.clone().filter(|u| !u.is_empty()) {
        Some(u) => u,
        None => client.toolbox_proxy_url(&sb.id).await?,
    };
    let tb = client.toolbox(&url, &sb.id);
    note("uploading the provisioner and running it");
    tb.upload(WINDOWS_SCRIPT_PATH, script).await?;
    let mut tail = VecDeque::new();
    let exit = run_provisioner(&tb, deadline, name, on_event, &mut tail).await?;
    if exit != 0 {
        return Ok(BuildOutcome {
            snapshot: None,
            // The provisioner reports its failure as one tagged line.
            failure: Some(
                match tail
                    .iter()
                    .rev()
                    .find_map(|l| l.trim().strip_prefix(runner::ERROR_TAG))
                {
                    Some(why) => format!("the provisioner failed (exit {exit}): {why}"),
                    None => format!("the provisioner exited with code {exit}"),
                },
            ),
            log_tail: tail.into_iter().collect(),
        });
    }
    note("stopping the builder to snapshot its disk");
    match client.stop_sandbox(&sb.id, false).await {
        Ok(_) => {}
        Err(e) if crate::api::daytona::is_not_stoppable(&e) => {}
        Err(e) => return Err(e.into()),
    }
    wait_state(client, &sb.id, name, deadline, |s| s.is_stopped()).await?;
    note(&format!("snapshotting the builder as {name}"));
    client.snapshot_sandbox(&sb.id, name).await?;
    // The snapshot appears under its name once the server registers it.
    let snapshot = poll_until(deadline, BUILDER_POLL, || async {
        Ok::<_, FollowError>(
            client
                .get_snapshot(name)
                .await?
                .map_or(Poll::Pending(()), Poll::Ready),
        )
    })
    .await?
    .or_else(|_| {
        FollowError::Builder(format!(
            "building {name}: Daytona never listed the snapshot of the builder"
        ))
    })?;
    let remaining = deadline.saturating_duration_since(Instant::now());
    let mut outcome = follow_build(client, snapshot, remaining, on_event).await?;
    let mut merged: Vec<String> = tail.into_iter().collect();
    merged.append(&mut outcome.log_tail);
    let skip = merged.len().saturating_sub(LOG_TAIL);
    outcome.log_tail = merged.split_off(skip);
    Ok(outcome)
}

async fn wait_state(
    client: &DaytonaClient,
    id: &str,
    name: &str,
    deadline: Instant,
    done: impl Fn(SandboxState) -> bool,
) -> Result<Sandbox, FollowError> {
    let broken = |sb: &Sandbox| {
        FollowError::Builder(format!(
            "building {name}: the builder sandbox is {} ({})",
            sb.state(),
            sb.error_reason.as_deref().unwrap_or("no error reported")
        ))
    };
    poll_until(deadline, BUILDER_POLL, || async {
        let sb = client
            .get_sandbox(id)
            .await?
            .ok_or_else(|| FollowError::Vanished(format!("builder sandbox {id}")))?;
        if done(sb.state()) {
            Ok(Poll::Ready(sb))
        } else if sb.state().is_error() {
            Err(broken(&sb))
        } else {
            Ok(Poll::Pending(sb))
        }
    })
    .await?
    .or_else(|last| match last {
        Some(sb) => broken(&sb),
        None => FollowError::Builder(format!(
            "building {name}: the builder sandbox never started"
        )),
    })
}

/// Start the provisioner detached and follow its log until its exit-code file appears; returns
/// its exit code.
async fn run_provisioner(
    tb: &Toolbox,
    deadline: Instant,
    name: &str,
    on_event: &mut impl FnMut(BuildEvent),
    tail: &mut VecDeque<String>,
) -> Result<i32, FollowError> {
    tb.upload(RUNNER_PATH, runner_script().as_bytes()).await?;
    let start = ExecuteRequest {
        command: powershell(&start_script()),
        cwd: None,
        envs: None,
        timeout: Some(25),
    };
    let out = tb.execute(&start, Duration::from_secs(35)).await?;
    if out.exit() != 0 {
        return Err(FollowError::Builder(format!(
            "building {name}: starting the provisioner failed (exit {}): {}",
            out.exit(),
            out.result.trim()
        )));
    }
    let mut seen = 0usize;
    // Not poll_until: each pass streams the new log lines to `on_event` before checking.
    loop {
        tokio::time::sleep(POLL).await;
        let text = tb
            .download(LOG_PATH)
            .await?
            .map(|b| decode_text(&b))
            .unwrap_or_default();
        // Only whole lines are shown; a partial last line waits for its end.
        let upto = text.rfind('\n').map_or(0, |i| i + 1);
        if let Some(new) = text.get(seen.min(upto)..upto) {
            for line in new.lines() {
                let line = line.trim_end_matches('\r');
                tail.push_back(line.to_string());
                while tail.len() > LOG_TAIL {
                    tail.pop_front();
                }
                on_event(BuildEvent::Log(line.to_string()));
            }
        }
        seen = seen.max(upto);
        if let Some(code) = tb.download(EXIT_PATH).await? {
            let code = decode_text(&code);
            return Ok(code.trim().parse().unwrap_or(-1));
        }
        if Instant::now() >= deadline {
            return Err(FollowError::Builder(format!(
                "building {name}: the provisioner was still running at the deadline (--timeout)"
            )));
        }
    }
}
