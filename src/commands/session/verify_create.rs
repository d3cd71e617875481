//! `outposts session verify --create`: the proof without a person — create the session through
//! the v3 API on the outpost, narrate its stages, read the file back from its sandbox, end it.
//! Following the session is domain logic in `verify::unattended`.

use std::sync::Arc;
use std::time::Instant;

use anyhow::Result;
use schemars::JsonSchema;
use serde::Serialize;

use super::Ctx;
use super::v3::{POLL, choice_error, choose_outpost, client, org_error, session_line, usage};
use super::{VerifyArgs, check_path, check_proof, devin, signal_name, stopped_by};
use crate::api::devin::DevinClient;
use crate::api::devin_v3::{CreateSession, DevinV3Client, V3Error};
use crate::commands::emulator::{Signal, Signals};
use crate::error::{CliError, ExitStatus, Hint, InSession};
use crate::output::Printer;
use crate::provider::{Provider, ProviderKind, SandboxInfo};
use crate::verify::outpost::{self, Choice, NoneGiven};
use crate::verify::unattended::{Elsewhere, Event, Follow, FollowError, Followed, Stage};
use crate::verify::{self, Comparison, compare, show};
use crate::worker::{LABEL_ROLE, ROLE_WORKER};

/// `outposts session verify --create --json`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CreateVerifyDoc {
    pub result: CreateResult,
    /// The process's exit code, from the same [`ExitStatus`] the command returns.
    pub exit_code: u8,
    pub proof: String,
    pub path: String,
    pub task: String,
    /// The platform the session was created on (null: the organisation's default).
    pub outpost_name: Option<String>,
    #[schemars(with = "String")]
    pub provider: ProviderKind,
    pub session_id: String,
    pub session_url: Option<String>,
    pub stages: Vec<StageAt>,
    /// Where the session stopped: `never claimed`, `claimed but never running`, …, or, for
    /// `wrong_provider`, `running, but no sandbox for it on <provider>`.
    pub stalled_at: Option<String>,
    /// The next step for a session that stalled, ended early or was interrupted.
    pub hint: Option<Hint>,
    #[schemars(with = "Option<serde_json::Value>")]
    pub sandbox: Option<SandboxInfo>,
    pub expected: Option<String>,
    pub found: Option<String>,
    pub trailing_newline: Option<bool>,
    pub session_ended: bool,
    pub waited_seconds: f64,
    /// The session's last v3 status (`status` or `status/detail`).
    pub status: Option<String>,
    /// With --sleep-cycle, once the proof was read: the suspend, sleep, resume and second read.
    pub sleep_cycle: Option<super::verify_sleep::SleepCycleDoc>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CreateResult {
    Match,
    Mismatch,
    Ended,
    Timeout,
    /// SIGINT or SIGTERM: the session was ended (unless --keep-session), exit 130 or 143.
    Interrupted,
    /// Served, but by no sandbox on `--provider` (exit 5): `stalled_at` names who holds it.
    WrongProvider,
    /// The proof was read, but not again after the sleep cycle (exit 3): `sleep_cycle` says why.
    SleepCycleFailed,
}

/// A stage the session reached, seconds after it was created.
#[derive(Debug, Serialize, JsonSchema)]
pub struct StageAt {
    pub stage: Stage,
    pub at_seconds: f64,
}

impl CreateVerifyDoc {
    /// Set the outcome; the document's exit code is the status's.
    fn end(&mut self, result: CreateResult, status: ExitStatus) -> ExitStatus {
        self.result = result;
        self.exit_code = status.code();
        status
    }
}

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
    // Held from now on: a stop signal ends the session once it exists (see `interrupted`).
    let mut signals = Signals::new()?;
    // Everything that can fail on configuration fails before the first request.
    let v3 = client(ctx, a.org.as_deref())?;
    let kind = ctx.provider_kind(a.provider)?;
    let provider = ctx.provider(kind).await?;
    let fleet: Option<DevinClient> = devin(ctx)?;
    let elsewhere = other_providers(ctx, kind).await;
    let task = verify::task_text(&proof, &a.path);
    let p = &ctx.printer;
    // Refused against a real Devin API before anything is created (no suspend in v3).
    let admin = match a.sleep_cycle {
        true => Some(super::verify_sleep::admin(ctx.http()?, v3.base_url()).await?),
        false => None,
    };

    // Then every credential that can be checked, before anything is created.
    check_credentials(&v3, provider.as_ref()).await?;
    let choice = choose_outpost(
        ctx,
        &v3,
        fleet.as_ref(),
        a.outpost.as_deref(),
        NoneGiven::ReadDefault,
    )
    .await?;
    match &choice {
        Choice::Named {
            platform,
            resolved: Some(how),
        } => p.note(&format!("outpost {platform}: {how}")),
        Choice::Default { shown } => p.note(&format!(
            "no outpost given (--outpost, OUTPOST_ID): using the organisation's default platform {shown}"
        )),
        Choice::DefaultUnread { why } => p.warn(&format!(
            "no outpost given (--outpost, OUTPOST_ID) and the organisation's default platform could not be read ({why}): the session goes to the default if one is set; pass --outpost NAME to choose"
        )),
        _ => {}
    }
    // Stopped before anything was created: nothing to end.
    if let Some(sig) = futures::FutureExt::now_or_never(signals.recv()) {
        return Err(match sig {
            Signal::Interrupt => CliError::Interrupted,
            Signal::Terminate => CliError::Terminated,
        }
        .into());
    }
    // Not interruptible: a session created but unknown to us could not be ended.
    let body = CreateSession {
        prompt: task.clone(),
        title: Some(format!("outposts proof {proof}")),
        tags: vec!["outposts-verify".into()],
        platform: None,
    };
    let (created, platform) = outpost::create(&v3, body, &choice)
        .await
        .map_err(|e| choice_error(&v3, e))?;
    let id = created.session_id.clone();
    let on = match (&platform, &choice) {
        (Some(name), Choice::Id { id: given, .. }) if name != given => {
            format!("{name} (outpost {given}, named by the organisation's accepted outposts)")
        }
        (Some(name), _) => name.clone(),
        (None, Choice::Default { shown }) => {
            format!("the organisation's default platform {shown}")
        }
        (None, _) => "the organisation's default platform".to_string(),
    };
    p.note(&format!("created proof session {id} on {on}: {task}"));

    let start = Instant::now();
    let mut stages: Vec<StageAt> = Vec::new();
    let follower = Follow {
        v3: &v3,
        fleet: fleet.as_ref(),
        provider: provider.as_ref(),
        session_id: &id,
        proof: &proof,
        path: &a.path,
        wait: a.wait,
        poll: POLL,
        elsewhere: &elsewhere,
    };
    let follow = follower.run(|ev| narrate(p, start, &mut stages, ev));
    let outcome = tokio::select! {
        f = follow => Ok(f),
        sig = signals.recv() => Err(sig),
    };
    // With --sleep-cycle and the proof read: sleep and wake the session, then read it again.
    let mut cycle = None;
    let mut outcome = outcome;
    if let (Some(admin), Ok(Ok(Followed::Found { sandbox, bytes, .. }))) = (&admin, &outcome)
        && matches!(compare(&proof, bytes), Comparison::Match { .. })
    {
        let run = super::verify_sleep::Cycle {
            p,
            admin,
            provider: provider.as_ref(),
            session_id: &id,
            proof: &proof,
            path: &a.path,
            wait: a.wait,
            start,
            state_root: ctx.config.state_dir().ok(),
        };
        match run.run(&sandbox.clone(), &mut signals).await {
            Ok(c) => cycle = Some(c),
            Err(sig) => outcome = Err(sig),
        }
    }
    if let Err(sig) = outcome {
        p.warn(&format!(
            "{}: ending the proof session {id}",
            signal_name(sig)
        ));
    }

    // End the session whatever happened, unless asked to keep it.
    let ended = end_session(p, &v3, &id, a.keep_session).await;

    let mut doc = CreateVerifyDoc {
        result: CreateResult::Timeout,
        exit_code: ExitStatus::Success.code(),
        proof: proof.clone(),
        path: a.path.clone(),
        task,
        outpost_name: platform.or_else(|| choice.shown()),
        provider: kind,
        session_id: id.clone(),
        session_url: created.url.clone(),
        stages,
        stalled_at: None,
        hint: None,
        sandbox: None,
        expected: None,
        found: None,
        trailing_newline: None,
        session_ended: ended,
        waited_seconds: (start.elapsed().as_secs_f64() * 10.0).round() / 10.0,
        status: None,
        sleep_cycle: None,
    };
    if let Some(c) = cycle {
        doc.sleep_cycle = Some(c.map_err(|e| e.context(InSession(id.clone())))?);
    }
    let followed = match outcome {
        Ok(f) => f.map_err(|e| follow_error(e).context(InSession(id.clone())))?,
        Err(sig) => return Ok(interrupted(p, &mut doc, sig)),
    };
    if let Followed::WorkersNeedToken { workers, .. } = &followed {
        return Err(anyhow::Error::from(CliError::usage(
            format!(
                "session {id} runs, but in no orchestrated sandbox on {kind}, and {} fixed worker{} run there ({}): which one holds it only the claim says, and reading the claim needs DEVIN_OUTPOSTS_TOKEN, which is not set",
                workers.len(),
                if workers.len() == 1 { "" } else { "s" },
                workers.join(", ")
            ),
            "set DEVIN_OUTPOSTS_TOKEN (the outpost's machine token, as `worker launch` uses) so verify can read the claim and find the worker's sandbox",
        ))
        .context(InSession(id.clone())));
    }
    Ok(verdict(p, &a, &mut doc, followed))
}

/// The provider's key with one cheap read (its fixed workers), and the v3 key's access to the
/// organisation (one page of one session: ViewOrgSessions, which following needs). A refused
/// key exits 4 and an unknown organisation 2, with no session created.
async fn check_credentials(v3: &DevinV3Client, provider: &dyn Provider) -> Result<()> {
    let workers = [(LABEL_ROLE.to_string(), ROLE_WORKER.to_string())].into();
    provider.list(&workers).await?;
    match v3.list_sessions(1, None, &[]).await {
        Ok(_) => Ok(()),
        Err(e @ V3Error::NotFound { .. }) => Err(org_error(v3, e)),
        Err(e) => Err(e.into()),
    }
}

/// The other configured providers, in the worker commands' search order; building them sends
/// no request.
async fn other_providers(ctx: &Ctx, kind: ProviderKind) -> Vec<Arc<dyn Provider>> {
    match crate::commands::worker::candidates(ctx, None).await {
        Ok(all) => all
            .into_iter()
            .filter(|w| w.kind() != kind)
            .map(|w| w.provider().clone())
            .collect(),
        Err(e) => {
            tracing::debug!("not searching other providers: {e:#}");
            Vec::new()
        }
    }
}

/// A stop signal ended the wait: the document says so, with the session's id and whether it
/// was ended; the exit code is the signal's (130, 143).
fn interrupted(p: &Printer, doc: &mut CreateVerifyDoc, sig: Signal) -> ExitStatus {
    let status = doc.end(CreateResult::Interrupted, stopped_by(sig));
    let reached = doc.stages.last().map(|s| s.stage).unwrap_or(Stage::Queued);
    doc.stalled_at = Some(reached.stall().to_string());
    let id = doc.session_id.clone();
    doc.hint = Some(Hint::new(if doc.session_ended {
        "the session was ended; run the command again for a new proof".to_string()
    } else {
        format!("session {id} is still running: end it with `outposts session end {id}`")
    }));
    p.result(&*doc, || {
        format!(
            "{} interrupted ({}): session {id} {}",
            p.mark(false),
            signal_name(sig),
            if doc.session_ended {
                "was ended"
            } else {
                "was left running (--keep-session)"
            }
        )
    });
    status
}

/// One stage reached: a line on stderr, and a row of the document's `stages`.
fn narrate(p: &Printer, start: Instant, stages: &mut Vec<StageAt>, ev: Event<'_>) {
    match ev {
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
            stages.push(StageAt {
                stage,
                at_seconds: (at * 10.0).round() / 10.0,
            });
        }
        Event::Retrying { error } => tracing::debug!("retrying: {error}"),
    }
}

/// End the proof session (unless kept); whether it was ended.
async fn end_session(p: &Printer, v3: &DevinV3Client, id: &str, keep: bool) -> bool {
    if keep {
        p.note(&format!("keeping session {id} (--keep-session)"));
        false
    } else {
        match v3.end_session(id, false).await {
            Ok(s) => {
                p.note(&format!("ended session {id} ({})", s.status));
                true
            }
            Err(e) => {
                p.warn(&format!("could not end session {id}: {e}"));
                false
            }
        }
    }
}

/// The file was found: it holds the proof, or something else.
fn found(
    p: &Printer,
    a: &VerifyArgs,
    doc: &mut CreateVerifyDoc,
    sandbox: &SandboxInfo,
    bytes: &[u8],
) -> ExitStatus {
    let (id, proof, kind) = (doc.session_id.clone(), doc.proof.clone(), doc.provider);
    match compare(&proof, bytes) {
        Comparison::Match { trailing_newline } => {
            let passed = doc.sleep_cycle.as_ref().is_none_or(|c| c.passed());
            let status = match passed {
                true => doc.end(CreateResult::Match, ExitStatus::Success),
                false => doc.end(CreateResult::SleepCycleFailed, ExitStatus::CheckFailed),
            };
            doc.trailing_newline = Some(trailing_newline);
            p.result(&*doc, || {
                let cycle = doc
                    .sleep_cycle
                    .as_ref()
                    .map(|c| format!(", {}", c.line(&a.path)))
                    .unwrap_or_default();
                format!(
                    "{} {}: session {id} wrote {} to {} in sandbox {} on {kind}{cycle}",
                    p.mark(passed),
                    if passed {
                        "verified"
                    } else {
                        "sleep cycle failed"
                    },
                    show(&proof),
                    a.path,
                    sandbox.name
                )
            });
            status
        }
        Comparison::Mismatch { expected, found } => {
            let status = doc.end(CreateResult::Mismatch, ExitStatus::CheckFailed);
            doc.expected = Some(expected.clone());
            doc.found = Some(found.chars().take(4096).collect());
            p.result(&*doc, || {
                format!(
                    "{} mismatch: {} in sandbox {} does not hold the proof\n  expected: {}\n  found:    {}",
                    p.mark(false),
                    a.path,
                    sandbox.name,
                    show(&expected),
                    show(&found)
                )
            });
            status
        }
    }
}

/// Compare what the session wrote, or say where it stalled; the status decides the exit.
fn verdict(
    p: &Printer,
    a: &VerifyArgs,
    doc: &mut CreateVerifyDoc,
    followed: Followed,
) -> ExitStatus {
    let id = doc.session_id.clone();
    let wait = humantime::format_duration(a.wait);
    match followed {
        Followed::Found {
            sandbox,
            bytes,
            session,
        } => {
            doc.sandbox = Some(sandbox.clone());
            doc.status = Some(session_line(&session));
            found(p, a, doc, &sandbox, &bytes)
        }
        Followed::Ended { reached, session } => {
            let status = doc.end(CreateResult::Ended, ExitStatus::CheckFailed);
            doc.stalled_at = Some(reached.stall().to_string());
            doc.hint = Some(stall_hint(reached));
            doc.status = Some(session_line(&session));
            p.result(&*doc, || {
                format!(
                    "{} session {id} ended ({}) before {} appeared: {}",
                    p.mark(false),
                    session_line(&session),
                    a.path,
                    reached.stall()
                )
            });
            status
        }
        Followed::Elsewhere(e) => {
            let status = doc.end(CreateResult::WrongProvider, ExitStatus::WrongProvider);
            let (what, hint) = elsewhere_text(doc.provider, &e);
            doc.stalled_at = Some(what.clone());
            doc.hint = Some(hint.clone());
            doc.status = Some(session_line(&e.session));
            p.result(&*doc, || {
                format!(
                    "{} session {id} is {what}\n  v3 status: {}\n  hint: {hint}",
                    p.mark(false),
                    session_line(&e.session)
                )
            });
            status
        }
        // Raised as an error by `run` before the verdict; kept total for the compiler.
        Followed::WorkersNeedToken { session, .. } => {
            let status = doc.end(CreateResult::Timeout, ExitStatus::CheckFailed);
            doc.status = Some(session_line(&session));
            p.result(&*doc, || {
                format!("{} session {id}: no sandbox found", p.mark(false))
            });
            status
        }
        Followed::Stalled {
            reached,
            session,
            sandbox,
            last_error,
        } => {
            let status = doc.end(CreateResult::Timeout, ExitStatus::CheckFailed);
            doc.stalled_at = Some(reached.stall().to_string());
            doc.hint = Some(stall_hint(reached));
            doc.sandbox = sandbox.clone();
            doc.status = session.as_ref().map(session_line);
            p.result(&*doc, || {
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
            status
        }
    }
}

fn stall_hint(reached: Stage) -> Hint {
    Hint::from(match reached {
        Stage::Queued => {
            "is `outposts orchestrator run` (or a worker) serving this outpost? `outposts queue list` shows the queue"
        }
        Stage::Claimed => {
            "the machine did not start the session: look at the orchestrator's log or `outposts worker logs`"
        }
        Stage::Running | Stage::ProofFound => {
            "Devin runs on the machine but wrote no file: open the session's URL to see what it did"
        }
    })
}

/// "running, but no sandbox for it on daytona; claimed by …: a fixed worker on coreweave"
/// and the hint that names the flag to try.
fn elsewhere_text(kind: ProviderKind, e: &Elsewhere) -> (String, Hint) {
    let mut what = format!("{}, but no sandbox for it on {kind}", e.reached.label());
    if let Some(h) = &e.holder {
        what.push_str(&format!("; claimed by {h}"));
        if e.holder_is_worker {
            what.push_str(": a fixed worker");
        }
    }
    let hint = match &e.found_on {
        Some((other, sandbox)) => {
            what.push_str(&format!(" (sandbox {sandbox} on {other})"));
            Hint::new(format!(
                "try --provider {other}: the session is served there"
            ))
        }
        None => Hint::new(format!(
            "the machine serving it is on none of the other providers configured here: pass the --provider of the orchestrator or worker that serves the outpost{}",
            e.holder
                .as_deref()
                .map(|h| format!(" (its acceptor id is {h})"))
                .unwrap_or_default()
        )),
    };
    (what, hint)
}
