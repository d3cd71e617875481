//! After `worker launch` created its workers: wait for them to reach the queue, stop the ones
//! that cannot serve, and turn what happened into the command's exit.

use std::time::Duration;

use anyhow::Result;

use super::LaunchArgs;
use crate::commands::Ctx;
use crate::error::{CliError, ExitStatus, Hint};
use crate::provider::SandboxInfo;
use crate::worker::{Readiness, Workers};

/// Wait for every created worker to reach the queue (or fail, or time out).
pub(super) async fn wait_ready(
    ctx: &Ctx,
    workers: &Workers,
    created: &[SandboxInfo],
    wait_timeout: Duration,
) -> Vec<Option<Readiness>> {
    if created.is_empty() {
        return Vec::new();
    }
    let progress = ctx.printer.spinner(&format!(
        "waiting for {} worker{} to reach the queue",
        created.len(),
        if created.len() == 1 { "" } else { "s" }
    ));
    let waits = created.iter().map(|info| {
        let p = progress.clone();
        let name = info.name.clone();

        let timeout = wait_timeout;
        async move {
            let show = move |line: &str| p.set_message(&format!("{name}: {}", line.trim()));
            workers.wait_ready(&info.id, timeout, &show).await
        }
    });
    let results = futures::future::join_all(waits).await;
    progress.finish(None);
    results.into_iter().map(Some).collect()
}

/// The workers that cannot serve, by why.
pub(super) struct Verdicts {
    pub(super) auth_failed: Vec<String>,
    pub(super) not_ready: Vec<String>,
    pub(super) failed_ids: Vec<String>,
}

pub(super) fn verdicts(
    ctx: &Ctx,
    created: &[SandboxInfo],
    readiness: &[Option<Readiness>],
    wait_timeout: Duration,
) -> Verdicts {
    let mut auth_failed = Vec::new();
    let mut not_ready = Vec::new();
    let mut failed_ids = Vec::new();
    for (info, r) in created.iter().zip(readiness) {
        match r {
            None => {}
            Some(Readiness::Ready { .. }) => ctx
                .printer
                .note(&format!("{} ({}) is serving the queue", info.name, info.id)),
            Some(Readiness::AuthFailed { line }) => {
                failed_ids.push(info.id.clone());
                auth_failed.push(format!("{}: {}", info.id, line));
            }
            Some(Readiness::Failed { reason }) => {
                failed_ids.push(info.id.clone());
                not_ready.push(format!("{}: {reason}", info.id));
            }
            Some(Readiness::Timeout { last_line }) => {
                failed_ids.push(info.id.clone());
                not_ready.push(format!(
                    "{}: not serving after {}s{}",
                    info.id,
                    wait_timeout.as_secs(),
                    last_line
                        .as_ref()
                        .map(|l| format!(" (last log line: {})", l.trim()))
                        .unwrap_or_default()
                ))
            }
        }
    }
    Verdicts {
        auth_failed,
        not_ready,
        failed_ids,
    }
}

/// The launch's exit: the first creation failure, rejected tokens (exit 4), workers that did
/// not reach the queue.
pub(super) fn outcome(
    a: &LaunchArgs,
    failure: Option<anyhow::Error>,
    created: &[SandboxInfo],
    v: &Verdicts,
    cleanup: &str,
) -> Result<ExitStatus> {
    if let Some(e) = failure {
        let left: Vec<String> = created.iter().map(|c| c.id.clone()).collect();
        return Err(match stop_hint(&left) {
            Some(h) => e.context(h),
            None => e,
        });
    }
    if !v.auth_failed.is_empty() {
        return Err(CliError::auth(
            format!(
                "the Devin API rejected the workers' outpost token: {}",
                v.auth_failed.join("; ")
            ),
            Some(format!(
                "check the token ({}), then launch new workers; {cleanup}",
                if a.secret.is_some() {
                    "the secret-store entry given with --secret"
                } else {
                    "DEVIN_OUTPOSTS_TOKEN"
                }
            )),
        )
        .into());
    }
    if !v.not_ready.is_empty() {
        anyhow::bail!(
            "{} worker{} did not reach the queue: {} (see {}); {cleanup}",
            v.not_ready.len(),
            if v.not_ready.len() == 1 { "" } else { "s" },
            v.not_ready.join("; "),
            v.failed_ids
                .iter()
                .map(|id| format!("`outposts worker logs {id}`"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    Ok(ExitStatus::Success)
}

/// Stop the workers that cannot serve; what was done, in words, with the exact command for
/// any that could not be stopped.
pub(super) async fn stop_failed(ctx: &Ctx, workers: &Workers, ids: &[String]) -> String {
    let mut stopped = Vec::new();
    let mut left = Vec::new();
    for id in ids {
        match workers.stop(id, false).await {
            Ok(_) => stopped.push(id.clone()),
            Err(e) => {
                ctx.printer.warn(&format!("cannot stop worker {id}: {e:#}"));
                left.push(id.clone());
            }
        }
    }
    let mut out = Vec::new();
    if !stopped.is_empty() {
        out.push(format!(
            "stopped {} so {} not restart in a loop",
            stopped.join(", "),
            if stopped.len() == 1 {
                "it does"
            } else {
                "they do"
            }
        ));
    }
    out.extend(stop_hint(&left).map(|h| h.to_string()));
    out.join("; ")
}

/// The commands that stop these workers, exactly as they can be run.
fn stop_hint(ids: &[String]) -> Option<Hint> {
    (!ids.is_empty()).then(|| {
        Hint::new(format!(
            "stop {} with {}",
            if ids.len() == 1 { "it" } else { "them" },
            ids.iter()
                .map(|id| format!("`outposts worker stop {id} --yes`"))
                .collect::<Vec<_>>()
                .join(", ")
        ))
    })
}
