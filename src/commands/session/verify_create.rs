//! `outposts session verify --create`: the proof without a person — create the session through
//! the v3 API on the outpost, narrate its stages, read the file back from its sandbox, end it.
//! Following the session is domain logic in `verify::unattended`.

use std::time::Instant;

use anyhow::Result;
use serde_json::{Value, json};

use super::Ctx;
use super::v3::{POLL, client, outpost_platform, session_line, usage};
use super::{VerifyArgs, check_path, check_proof, devin, provider_kind};
use crate::api::devin::DevinClient;
use crate::api::devin_v3::CreateSession;
use crate::error::ExitStatus;
use crate::provider;
use crate::verify::unattended::{Event, Follow, FollowError, Followed, Stage};
use crate::verify::{self, Comparison, compare, show};

fn follow_error(e: FollowError) -> anyhow::Error {
    // Unwrap, so main.rs sees the typed error itself (transparent errors hide it in the chain).
    match e {
        FollowError::V3(v) => v.into(),
        FollowError::Provider(p) => p.into(),
    }
}

/// `session verify --create`: the proof without a person (see `verify::unattended`).
pub async fn run(ctx: &Ctx, a: VerifyArgs) -> Result<ExitStatus> {
    if a.sandbox.is_some() || a.session.is_some() || a.print_only {
        return Err(usage(
            "--create makes its own session: it takes neither --sandbox, --session nor --print-only".into(),
            "drop those flags, or drop --create to verify a session you started",
        ));
    }
    let proof = match &a.proof {
        Some(p) => {
            check_proof(p)?;
            p.clone()
        }
        None => verify::new_proof(),
    };
    check_path(&a.path)?;
    // Everything that can fail on configuration fails before the first request.
    let v3 = client(ctx, a.org.as_deref())?;
    let kind = provider_kind(ctx, a.provider)?;
    let provider = provider::from_config(kind, &ctx.config, ctx.http()?).await?;
    let fleet: Option<DevinClient> = devin(ctx)?;
    let platform = outpost_platform(ctx, a.outpost.as_deref()).await?;
    let task = verify::task_text(&proof, &a.path);
    let p = &ctx.printer;

    let created = v3
        .create_session(&CreateSession {
            prompt: task.clone(),
            title: Some(format!("outposts proof {proof}")),
            tags: vec!["outposts-verify".into()],
            platform: platform.clone(),
        })
        .await?;
    let id = created.session_id.clone();
    let on = platform
        .as_deref()
        .unwrap_or("the organisation's default platform");
    p.note(&format!("created proof session {id} on {on}: {task}"));

    let start = Instant::now();
    let mut stages: Vec<Value> = Vec::new();
    let followed = Follow {
        v3: &v3,
        fleet: fleet.as_ref(),
        provider: provider.as_ref(),
        session_id: &id,
        proof: &proof,
        path: &a.path,
        wait: a.wait,
        poll: POLL,
    }
    .run(|ev| match ev {
        Event::Reached {
            stage,
            session,
            sandbox,
            acceptor,
        } => {
            let at = start.elapsed().as_secs_f64();
            let whom = match (stage, sandbox, acceptor) {
                (Stage::Claimed, _, Some(a)) => format!(" by {a}"),
                (Stage::Running | Stage::ProofFound, Some(sb), _) => {
                    format!(" in sandbox {}", sb.name)
                }
                _ => String::new(),
            };
            p.note(&format!(
                "[{at:>5.1}s] {}{whom} (v3 status {})",
                stage.label(),
                session_line(session)
            ));
            stages.push(json!({"stage": stage, "at_seconds": (at * 10.0).round() / 10.0}));
        }
        Event::Retrying { error } => tracing::debug!("retrying: {error}"),
    })
    .await;

    // End the session whatever happened, unless asked to keep it.
    let ended = if a.keep_session {
        p.note(&format!("keeping session {id} (--keep-session)"));
        false
    } else {
        match v3.end_session(&id, false).await {
            Ok(s) => {
                p.note(&format!("ended session {id} ({})", s.status));
                true
            }
            Err(e) => {
                p.warn(&format!("could not end session {id}: {e}"));
                false
            }
        }
    };
    let followed = followed.map_err(follow_error)?;

    let mut doc = json!({
        "result": null, "exit_code": 0, "proof": proof, "path": a.path, "task": task,
        "outpost_name": platform, "provider": kind, "session_id": id, "session_url": created.url,
        "stages": stages, "stalled_at": null, "sandbox": null, "expected": null, "found": null,
        "trailing_newline": null, "session_ended": ended, "waited_seconds":
            (start.elapsed().as_secs_f64() * 10.0).round() / 10.0,
    });
    let wait = humantime::format_duration(a.wait);
    match followed {
        Followed::Found {
            sandbox,
            bytes,
            session,
        } => {
            doc["sandbox"] = json!(sandbox);
            doc["status"] = json!(session_line(&session));
            match compare(&proof, &bytes) {
                Comparison::Match { trailing_newline } => {
                    doc["result"] = json!("match");
                    doc["trailing_newline"] = json!(trailing_newline);
                    p.result(&doc, || {
                        format!(
                            "{} verified: session {id} wrote {} to {} in sandbox {} on {kind}",
                            p.mark(true),
                            show(&proof),
                            a.path,
                            sandbox.name
                        )
                    });
                    Ok(ExitStatus::Success)
                }
                Comparison::Mismatch { expected, found } => {
                    doc["result"] = json!("mismatch");
                    doc["exit_code"] = json!(3);
                    doc["expected"] = json!(expected);
                    doc["found"] = json!(found.chars().take(4096).collect::<String>());
                    p.result(&doc, || {
                        format!(
                            "{} mismatch: {} in sandbox {} does not hold the proof\n  expected: {}\n  found:    {}",
                            p.mark(false),
                            a.path,
                            sandbox.name,
                            show(&expected),
                            show(&found)
                        )
                    });
                    Ok(ExitStatus::CheckFailed)
                }
            }
        }
        Followed::Ended { reached, session } => {
            doc["result"] = json!("ended");
            doc["exit_code"] = json!(3);
            doc["stalled_at"] = json!(reached.stall());
            doc["status"] = json!(session_line(&session));
            p.result(&doc, || {
                format!(
                    "{} session {id} ended ({}) before {} appeared: {}",
                    p.mark(false),
                    session_line(&session),
                    a.path,
                    reached.stall()
                )
            });
            Ok(ExitStatus::CheckFailed)
        }
        Followed::Stalled {
            reached,
            session,
            sandbox,
            last_error,
        } => {
            doc["result"] = json!("timeout");
            doc["exit_code"] = json!(3);
            doc["stalled_at"] = json!(reached.stall());
            doc["sandbox"] = json!(sandbox);
            doc["status"] = json!(session.as_ref().map(session_line));
            p.result(&doc, || {
                let mut out = format!(
                    "{} timed out after {wait}: session {id} {}",
                    p.mark(false),
                    reached.stall()
                );
                if let Some(s) = &session {
                    out.push_str(&format!("\n  v3 status: {}", session_line(s)));
                }
                if let Some(sb) = &sandbox {
                    out.push_str(&format!("\n  sandbox:   {} ({})", sb.name, sb.state));
                }
                if let Some(e) = &last_error {
                    out.push_str(&format!("\n  last error: {e}"));
                }
                out.push_str(&format!("\n  hint: {}", stall_hint(reached)));
                out
            });
            Ok(ExitStatus::CheckFailed)
        }
    }
}

fn stall_hint(reached: Stage) -> &'static str {
    match reached {
        Stage::Queued => {
            "is `outposts orchestrator run` (or a worker) serving this outpost? `outposts queue list` shows the queue"
        }
        Stage::Claimed => {
            "the machine did not start the session: look at the orchestrator's log or `outposts worker logs`"
        }
        Stage::Running | Stage::ProofFound => {
            "Devin runs on the machine but wrote no file: open the session's URL to see what it did"
        }
    }
}
