//! Why a proof file did not appear: the sandbox's state now, the last lines of the remote's (or
//! the sandbox's main) log, and the session's place in the outpost's queue when a Devin token is
//! configured. Every probe is best effort and time-boxed: a diagnosis never fails.

use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use serde::Serialize;

use super::{Target, Waited, locate};
use crate::api::devin::DevinClient;
use crate::orchestrator::{LABEL_SESSION, remote, sandbox_name};
use crate::provider::{Provider, SandboxInfo, SandboxState};
use crate::worker::{LABEL_ROLE, ROLE_WORKER, Workers};

/// Longest any one probe may take.
const PROBE_TIMEOUT: Duration = Duration::from_secs(15);

/// Where the log lines came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LogSource {
    /// `devin-remote`'s log inside an orchestrated sandbox.
    Remote,
    /// The fixed worker's log (`devin worker start`), in either worker mode.
    Worker,
    /// The provider's log of the sandbox (its main command: a fixed worker's `devin worker`).
    Sandbox,
}

/// The session's queue entry, as the fleet API reports it.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct QueueState {
    /// `false` when the entry is gone (the session ended, or it is not on this account).
    pub in_queue: bool,
    pub phase: Option<String>,
    pub session_status: Option<String>,
    pub acceptor_id: Option<String>,
    pub outpost_id: Option<String>,
    /// Unix seconds.
    pub claim_deadline: Option<f64>,
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Diagnosis {
    /// The sandbox as the provider reports it now; `None` when there is none.
    #[schemars(with = "Option<serde_json::Value>")]
    pub sandbox: Option<SandboxInfo>,
    /// The id or name looked for.
    pub sandbox_looked_for: String,
    /// Why the sandbox's state could not be read.
    pub sandbox_error: Option<String>,
    /// The last transient error reading the file.
    pub last_read_error: Option<String>,
    /// The session the sandbox serves (from `--session` or its `devin.session_id` label).
    pub session_id: Option<String>,
    pub log_source: Option<LogSource>,
    pub log_tail: Vec<String>,
    pub queue: Option<QueueState>,
    /// Why `queue` is missing (no token, no session known, or the error).
    pub queue_note: Option<String>,
    /// What to check next, most likely first.
    pub hints: Vec<String>,
}

async fn timed<T>(f: impl std::future::Future<Output = T>) -> Option<T> {
    tokio::time::timeout(PROBE_TIMEOUT, f).await.ok()
}

/// Gather the diagnosis after a wait ran out.
pub async fn diagnose(
    provider: &Arc<dyn Provider>,
    target: &Target,
    waited: &Waited,
    devin: Option<&DevinClient>,
    lines: u32,
) -> Diagnosis {
    let looked_for = match target {
        Target::Session(s) => sandbox_name(s),
        Target::Sandbox(id) => id.clone(),
    };
    let provider_ref: &dyn Provider = provider.as_ref();
    let (sandbox, sandbox_error) = match &waited.sandbox {
        Some(sb) => match timed(provider.get(&sb.id)).await {
            Some(Ok(now)) => (now, None),
            Some(Err(e)) => (Some(sb.clone()), Some(e.to_string())),
            None => (Some(sb.clone()), Some("the provider did not answer".into())),
        },
        None => match timed(locate(provider_ref, target)).await {
            Some(Ok(now)) => (now, None),
            Some(Err(e)) => (None, Some(e.to_string())),
            None => (None, Some("the provider did not answer".into())),
        },
    };
    let session_id = target.session().map(str::to_string).or_else(|| {
        sandbox
            .as_ref()
            .and_then(|sb| sb.labels.get(LABEL_SESSION).cloned())
    });

    let (log_source, log_tail) = match &sandbox {
        Some(sb) => logs(provider, sb, session_id.as_deref(), lines).await,
        None => (None, Vec::new()),
    };

    let (queue, queue_note) = match (devin, &session_id) {
        (None, _) => (
            None,
            Some("not read: no Devin token configured (DEVIN_OUTPOSTS_TOKEN)".to_string()),
        ),
        (Some(_), None) => (
            None,
            Some(format!(
                "not read: the sandbox carries no {LABEL_SESSION} label (pass --session to name it)"
            )),
        ),
        (Some(client), Some(session)) => match timed(client.get(session)).await {
            Some(Ok(Some(e))) => (
                Some(QueueState {
                    in_queue: true,
                    phase: Some(e.phase.as_str().to_string()),
                    session_status: Some(e.session_status.as_str().to_string()),
                    acceptor_id: e.acceptor_id,
                    outpost_id: e.outpost_id,
                    claim_deadline: e.claim_deadline,
                }),
                None,
            ),
            Some(Ok(None)) => (
                Some(QueueState {
                    in_queue: false,
                    phase: None,
                    session_status: None,
                    acceptor_id: None,
                    outpost_id: None,
                    claim_deadline: None,
                }),
                None,
            ),
            Some(Err(e)) => (None, Some(format!("not read: {e}"))),
            None => (None, Some("not read: the Devin API did not answer".into())),
        },
    };

    let mut d = Diagnosis {
        sandbox,
        sandbox_looked_for: looked_for,
        sandbox_error,
        last_read_error: waited.last_error.clone(),
        session_id,
        log_source,
        log_tail,
        queue,
        queue_note,
        hints: Vec::new(),
    };
    d.hints = hints(&d, target, provider_ref.kind().as_str());
    d
}

/// A fixed worker's log; the remote's log for an orchestrated sandbox; the sandbox's own log
/// otherwise (or when the remote has not written one).
async fn logs(
    provider: &Arc<dyn Provider>,
    sb: &SandboxInfo,
    session: Option<&str>,
    lines: u32,
) -> (Option<LogSource>, Vec<String>) {
    if sb.labels.get(LABEL_ROLE).map(String::as_str) == Some(ROLE_WORKER) {
        let workers = Workers::new(provider.clone());
        let tail = match timed(workers.logs(&sb.id, Some(lines), false)).await {
            Some(Ok(stream)) => timed(stream.filter_map(|l| async move { l.ok() }).collect())
                .await
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        return (
            (!tail.is_empty()).then_some(LogSource::Worker),
            last(tail, lines),
        );
    }
    let orchestrated = sb.labels.contains_key(LABEL_SESSION);
    if orchestrated
        && sb.state == SandboxState::Started
        && let Some(session) = session
        && let Some(Ok(text)) =
            timed(remote::log_tail(provider.as_ref(), &sb.id, session, lines)).await
    {
        let tail: Vec<String> = text.lines().map(str::to_string).collect();
        if !tail.is_empty() {
            return (Some(LogSource::Remote), tail);
        }
    }
    let tail = super::log_tail(provider.as_ref(), &sb.id, lines).await;
    if tail.is_empty() {
        (None, tail)
    } else {
        (Some(LogSource::Sandbox), tail)
    }
}

fn last(mut lines: Vec<String>, n: u32) -> Vec<String> {
    let skip = lines.len().saturating_sub(n as usize);
    lines.drain(..skip);
    lines
}

fn hints(d: &Diagnosis, target: &Target, provider: &str) -> Vec<String> {
    let mut out = Vec::new();
    let q = d.queue.as_ref();
    let status = q.and_then(|q| q.session_status.as_deref());
    let phase = q.and_then(|q| q.phase.as_deref());
    match &d.sandbox {
        None => {
            if let Target::Session(_) = target {
                match (q, phase) {
                    (Some(q), _) if !q.in_queue => out.push(
                        "the session is not in the outpost's queue: it ended, or it belongs to another account".into(),
                    ),
                    (Some(_), Some("pending")) => out.push(
                        "nobody has claimed the session: start `outposts orchestrator run` for its outpost (with the same --provider)".into(),
                    ),
                    (Some(q), Some("claimed")) => out.push(format!(
                        "the session is claimed by {} but its sandbox {} is not on the {provider} provider: is --provider the one that orchestrator uses? If a fixed worker serves it, pass --sandbox with the worker's id (`outposts worker list`)",
                        q.acceptor_id.as_deref().unwrap_or("an acceptor"),
                        d.sandbox_looked_for
                    )),
                    _ => out.push(format!(
                        "no sandbox {} on the {provider} provider: is an orchestrator serving this session with the same provider?",
                        d.sandbox_looked_for
                    )),
                }
            } else {
                out.push(format!(
                    "sandbox {} is gone from the {provider} provider",
                    d.sandbox_looked_for
                ));
            }
        }
        Some(sb) => match sb.state {
            SandboxState::Started => {}
            SandboxState::Error => out.push(format!(
                "the sandbox is in error{}",
                sb.error_reason
                    .as_deref()
                    .map(|r| format!(": {r}"))
                    .unwrap_or_default()
            )),
            SandboxState::Stopped | SandboxState::Stopping => out.push(
                "the sandbox is stopped: the session is probably asleep (suspended); it is woken when the session resumes".into(),
            ),
            s if s.is_coming_up() => out.push(format!(
                "the sandbox is still {s}: give it longer (--wait)"
            )),
            s => out.push(format!("the sandbox is {s}")),
        },
    }
    match status {
        Some("suspended") => out.push(
            "the session is suspended: wake it in Devin, then verify again with the same --proof"
                .into(),
        ),
        Some("terminated") => {
            out.push("the session has ended (terminated): start a new one and verify it".into())
        }
        _ => {}
    }
    if let Some(sb) = &d.sandbox
        && sb.state == SandboxState::Started
        && sb.labels.get(LABEL_ROLE).map(String::as_str) == Some(ROLE_WORKER)
    {
        out.push(format!(
            "any worker of the outpost may claim a session: check `outposts worker logs {}` for `Claimed session`, or verify the outpost's other workers (`outposts worker list`)",
            sb.id
        ));
    }
    if out.is_empty()
        || d.sandbox
            .as_ref()
            .is_some_and(|s| s.state == SandboxState::Started)
    {
        out.push(
            "was the task submitted to this session, on this outpost? Devin may still be working: verify again with the same --proof and a longer --wait".into(),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    fn sb(state: SandboxState) -> SandboxInfo {
        SandboxInfo {
            id: "id1".into(),
            name: "devin-s-123".into(),
            state,
            raw_state: state.as_str().into(),
            disk: crate::provider::Disk::Attached,
            labels: BTreeMap::new(),
            created_at: None,
            error_reason: Some("disk full".into()),
            containers: Vec::new(),
            egress: crate::provider::Egress::Open,
        }
    }

    fn diag(sandbox: Option<SandboxInfo>, queue: Option<QueueState>) -> Diagnosis {
        Diagnosis {
            sandbox,
            sandbox_looked_for: "devin-s-123".into(),
            sandbox_error: None,
            last_read_error: None,
            session_id: Some("s".into()),
            log_source: None,
            log_tail: Vec::new(),
            queue,
            queue_note: None,
            hints: Vec::new(),
        }
    }

    fn queue(phase: &str, status: &str) -> QueueState {
        QueueState {
            in_queue: true,
            phase: Some(phase.into()),
            session_status: Some(status.into()),
            acceptor_id: Some("acc-1".into()),
            outpost_id: None,
            claim_deadline: None,
        }
    }

    #[test]
    fn hints_name_the_likely_cause() {
        let t = Target::Session("s".into());
        let h = hints(&diag(None, Some(queue("pending", "pending"))), &t, "local");
        assert!(h[0].contains("nobody has claimed"), "{h:?}");
        let h = hints(
            &diag(None, Some(queue("claimed", "running"))),
            &t,
            "daytona",
        );
        assert!(h[0].contains("acc-1") && h[0].contains("daytona"), "{h:?}");
        let h = hints(&diag(None, None), &t, "local");
        assert!(h[0].contains("no sandbox devin-s-123"), "{h:?}");
        let h = hints(
            &diag(
                Some(sb(SandboxState::Stopped)),
                Some(queue("pending", "suspended")),
            ),
            &t,
            "local",
        );
        assert!(
            h[0].contains("stopped") && h[1].contains("suspended"),
            "{h:?}"
        );
        let h = hints(&diag(Some(sb(SandboxState::Error)), None), &t, "local");
        assert!(h[0].contains("disk full"), "{h:?}");
        let h = hints(&diag(Some(sb(SandboxState::Started)), None), &t, "local");
        assert!(h[0].contains("was the task submitted"), "{h:?}");
    }
}
