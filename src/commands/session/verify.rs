//! `outposts session verify` (without `--create`): print the task, wait for the proof file in
//! the session's sandbox, compare, and explain a timeout.

use std::time::Duration;

use anyhow::Result;
use schemars::JsonSchema;
use serde::Serialize;

use super::{VerifyArgs, check_path, check_proof, devin, printable, usage};
use crate::api::ApiError;
use crate::api::devin::DevinClient;
use crate::commands::Ctx;
use crate::env;
use crate::error::{CliError, ExitStatus};
use crate::provider::{self, Egress, ProviderKind, SandboxInfo};
use crate::verify::diagnose::{Diagnosis, diagnose};
use crate::verify::{self, Comparison, ResolveError, Target, Waited, Waiting, compare, show};

const PLACEHOLDER: &str = "<OUTPOST-NAME>";
const LOG_LINES: u32 = 20;

/// The outpost name for the Slack line and where it came from.
struct OutpostName {
    name: Option<String>,
    source: NameSource,
    /// Why the name is unknown (placeholder) or not the flag's value.
    note: Option<String>,
}

impl OutpostName {
    fn shown(&self) -> &str {
        self.name.as_deref().unwrap_or(PLACEHOLDER)
    }
}

fn target(a: &VerifyArgs) -> Result<Option<Target>> {
    let check = |flag: &str, v: &str| {
        if v.trim().is_empty() {
            Err(usage(format!("--{flag} is empty"), "pass the id to verify"))
        } else {
            Ok(())
        }
    };
    Ok(match (&a.sandbox, &a.session) {
        (Some(id), _) => {
            check("sandbox", id)?;
            Some(Target::Sandbox(id.clone()))
        }
        (None, Some(s)) => {
            check("session", s)?;
            Some(Target::Session(s.clone()))
        }
        (None, None) if a.print_only => None,
        (None, None) => {
            return Err(usage(
                "which sandbox? pass --session ID or --sandbox ID".into(),
                "--session finds the sandbox `orchestrator run` made for a session; --sandbox reads any sandbox (a fixed worker's); --print-only only prints the task",
            ));
        }
    })
}

/// The name of an outpost id; a machine token may not read one outpost (orchestrator scope),
/// but it can list them.
async fn lookup_name(client: &DevinClient, id: &str) -> Result<Option<String>, ApiError> {
    let one = match client.get_outpost(id).await {
        Ok(o) => o,
        Err(ApiError::Unauthorized { status: 403, .. }) => client
            .list_outposts()
            .await?
            .into_iter()
            .find(|o| o.outpost_id == id),
        Err(e) => return Err(e),
    };
    Ok(one.and_then(|o| o.name).filter(|n| !n.trim().is_empty()))
}

async fn outpost_name(ctx: &Ctx, flag: Option<&str>, devin: Option<&DevinClient>) -> OutpostName {
    if let Some(f) = flag.map(str::trim).filter(|f| !f.is_empty()) {
        // An outpost id where a name belongs: Slack wants the name.
        if f.starts_with("outpost_env-")
            && let Some(client) = devin
            && let Ok(Some(name)) = lookup_name(client, f).await
        {
            return OutpostName {
                name: Some(name),
                source: NameSource::DevinApi,
                note: Some(format!("{f} is an outpost id; its name is used")),
            };
        }
        return OutpostName {
            name: Some(f.to_string()),
            source: NameSource::Flag,
            note: None,
        };
    }
    let placeholder = |note: String| OutpostName {
        name: None,
        source: NameSource::Placeholder,
        note: Some(note),
    };
    let id = ctx
        .config
        .value(&env::OUTPOST_ID)
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty());
    // OUTPOST_ID may hold the outpost's name itself (the v3 API's `platform` is one).
    if let Some(name) = id.as_ref().filter(|v| !v.starts_with("outpost_env-")) {
        return OutpostName {
            name: Some(name.clone()),
            source: NameSource::Env,
            note: None,
        };
    }
    let Some(client) = devin else {
        return placeholder("no --outpost given and no Devin token configured".into());
    };
    let Some(id) = id else {
        return placeholder("no --outpost given and OUTPOST_ID is not set".into());
    };
    match lookup_name(client, &id).await {
        Ok(Some(name)) => OutpostName {
            name: Some(name),
            source: NameSource::DevinApi,
            note: None,
        },
        Ok(None) => placeholder(format!("the Devin API knows no named outpost {id}")),
        Err(e) => placeholder(format!("cannot look up the name of outpost {id}: {e}")),
    }
}

/// Errors of finding or reading the sandbox, with the exit code each deserves.
fn resolve_error(e: ResolveError, kind: ProviderKind) -> anyhow::Error {
    match e {
        ResolveError::NoSession(s) => CliError::usage(
            format!(
                "no session {} on this outpost: it is not in the queue and no sandbox on the {kind} provider serves it",
                show(&s)
            ),
            Some("check the id against the outpost's queue: outposts queue list".to_string()),
        )
        .into(),
        ResolveError::NowhereFound { .. } => CliError::usage(
            e.to_string(),
            "check the id (or name): `outposts worker list` lists the fixed workers; for a session served by `orchestrator run`, pass --session instead",
        )
        .into(),
        ResolveError::NoSandbox(id) => CliError::usage(
            format!("no sandbox {} on the {kind} provider", show(&id)),
            Some(
                "check the id (or name) and --provider; for a session served by `orchestrator run`, pass --session instead".to_string(),
            ),
        )
        .into(),
        // Keep the provider's error itself in the chain so credentials problems exit 4.
        ResolveError::Provider(p) => p.into(),
        other => other.into(),
    }
}

/// Human lines on stdout (task, Slack) with their labels on stderr; in JSON mode the task goes
/// to stderr only when the user still has to submit it.
fn announce(ctx: &Ctx, task: &str, slack: &str, name: &OutpostName, print_only: bool) {
    let p = &ctx.printer;
    let shown = name.shown();
    if p.json() {
        if !print_only {
            p.note(&format!(
                "submit this task to a Devin session on outpost {shown}:\n  {task}"
            ));
        }
    } else {
        p.note(&format!(
            "Submit this task to a Devin session on outpost {shown}:"
        ));
        p.line(task);
        p.note("or post it in Slack:");
        p.line(slack);
        p.note(&format!(
            "tip: in the Devin app, choose the outpost {shown} as the session's machine before you send the task (or make it your organization's default platform); in Slack, `!outpost {shown}` routes the message there."
        ));
    }
    match (&name.name, &name.note) {
        (None, Some(why)) => p.warn(&format!(
            "outpost name unknown ({why}): replace {PLACEHOLDER} in the Slack line, or pass --outpost NAME (set DEVIN_OUTPOSTS_TOKEN and OUTPOST_ID to look it up)"
        )),
        (Some(_), Some(note)) => p.note(note),
        _ => {}
    }
}

pub(super) fn sandbox_label(sb: &SandboxInfo) -> String {
    if sb.id == sb.name {
        sb.id.clone()
    } else {
        format!("{} ({})", sb.name, sb.id)
    }
}

/// `outposts session verify --json`: one document, whatever the outcome; fields that do not
/// apply are null.
#[derive(Debug, Serialize, JsonSchema)]
pub struct VerifyDoc {
    pub result: VerifyResult,
    /// The process's exit code, from the same [`ExitStatus`] the command returns.
    pub exit_code: u8,
    pub proof: String,
    pub path: String,
    pub task: String,
    pub slack: String,
    pub outpost_name: Option<String>,
    pub outpost_name_source: NameSource,
    #[schemars(with = "Option<String>")]
    pub provider: Option<ProviderKind>,
    pub session_id: Option<String>,
    /// The sandbox as its provider reports it (`id`, `name`, `state`, `raw_state`, `labels`, …).
    #[schemars(with = "Option<serde_json::Value>")]
    pub sandbox: Option<SandboxInfo>,
    pub waited_seconds: Option<f64>,
    pub trailing_newline: Option<bool>,
    pub expected: Option<String>,
    /// At most 4096 characters; `found_bytes` is the file's real size.
    pub found: Option<String>,
    pub found_bytes: Option<usize>,
    pub diagnosis: Option<Diagnosis>,
    /// The sandbox's network as its provider reports it (the session's policy in force).
    #[schemars(with = "Option<serde_json::Value>")]
    pub egress: Option<Egress>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum VerifyResult {
    Printed,
    Match,
    Mismatch,
    Timeout,
}

/// Where the outpost name of the Slack line came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum NameSource {
    Flag,
    // OUTPOST_ID, holding the outpost's name rather than its id.
    Env,
    DevinApi,
    Placeholder,
}

impl VerifyDoc {
    /// The task printed, nothing read yet.
    fn printed(proof: &str, path: &str, task: &str, slack: &str, name: &OutpostName) -> Self {
        VerifyDoc {
            result: VerifyResult::Printed,
            exit_code: ExitStatus::Success.code(),
            proof: proof.to_string(),
            path: path.to_string(),
            task: task.to_string(),
            slack: slack.to_string(),
            outpost_name: name.name.clone(),
            outpost_name_source: name.source,
            provider: None,
            session_id: None,
            sandbox: None,
            waited_seconds: None,
            trailing_newline: None,
            expected: None,
            found: None,
            found_bytes: None,
            diagnosis: None,
            egress: None,
        }
    }

    /// Set the outcome; the document's exit code is the status's.
    fn end(&mut self, result: VerifyResult, status: ExitStatus) -> ExitStatus {
        self.result = result;
        self.exit_code = status.code();
        status
    }
}

fn proof_arg(a: &VerifyArgs) -> Result<String> {
    let proof = match &a.proof {
        Some(p) => {
            check_proof(p)?;
            p.clone()
        }
        None => verify::new_proof(),
    };
    check_path(&a.path)?;
    if let Some(o) = &a.outpost
        && !printable(o)
    {
        return Err(usage(
            format!("--outpost {} has control characters", show(o)),
            "pass the outpost's name as Devin shows it",
        ));
    }
    Ok(proof)
}

pub(super) async fn run(ctx: &Ctx, a: VerifyArgs) -> Result<ExitStatus> {
    let proof = proof_arg(&a)?;
    let target = target(&a)?;
    let task = verify::task_text(&proof, &a.path);
    let devin = devin(ctx)?;
    let name = outpost_name(ctx, a.outpost.as_deref(), devin.as_ref()).await;
    let slack = verify::slack_line(name.shown(), &task);
    let mut doc = VerifyDoc::printed(&proof, &a.path, &task, &slack, &name);
    doc.session_id = target
        .as_ref()
        .and_then(Target::session)
        .map(str::to_string);

    let target = match (a.print_only, target) {
        (false, Some(t)) => t,
        // --print-only: no provider is built at all.
        _ => {
            announce(ctx, &task, &slack, &name, true);
            if ctx.printer.json() {
                ctx.printer.json_doc(&doc);
            }
            return Ok(ExitStatus::Success);
        }
    };

    let (kind, provider) = match (&target, a.provider) {
        // A sandbox id alone: found wherever it runs, as the worker commands find a worker.
        (Target::Sandbox(id), None) => {
            let candidates = crate::commands::worker::candidates(ctx, Some(id)).await?;
            // The kind only words errors of one provider; this one names every searched.
            verify::search(candidates, id)
                .await
                .map_err(|e| resolve_error(e, ProviderKind::Daytona))?
        }
        _ => {
            let kind = ctx.provider_kind(a.provider)?;
            (kind, ctx.provider(kind).await?)
        }
    };
    doc.provider = Some(kind);
    let found = verify::locate(provider.as_ref(), &target)
        .await
        .map_err(|e| resolve_error(e, kind))?;
    // A mistyped session id would otherwise wait the whole --wait for a sandbox never made.
    if found.is_none()
        && let (Target::Session(s), Some(client)) = (&target, devin.as_ref())
    {
        verify::check_session_known(client, s)
            .await
            .map_err(|e| resolve_error(e, kind))?;
    }
    announce(ctx, &task, &slack, &name, false);

    let waited = wait(ctx, &a, provider.as_ref(), &target, found, &proof, kind).await?;
    doc.waited_seconds = Some((waited.elapsed.as_secs_f64() * 10.0).round() / 10.0);
    doc.sandbox = waited.sandbox.clone();
    doc.egress = waited.sandbox.as_ref().map(|sb| sb.egress.clone());
    if doc.session_id.is_none() {
        doc.session_id = waited
            .sandbox
            .as_ref()
            .and_then(|sb| sb.labels.get(crate::orchestrator::LABEL_SESSION))
            .cloned();
    }

    match &waited.contents {
        Some(bytes) => Ok(verdict(ctx, &mut doc, &waited, bytes)),
        None => {
            let d = diagnose(&provider, &target, &waited, devin.as_ref(), LOG_LINES).await;
            let status = doc.end(VerifyResult::Timeout, ExitStatus::CheckFailed);
            if doc.sandbox.is_none() {
                doc.sandbox = d.sandbox.clone();
            }
            let human = super::verify_report::timeout_report(
                &ctx.printer.mark(false),
                &a.path,
                a.wait,
                kind,
                &d,
            );
            doc.diagnosis = Some(d);
            ctx.printer.result(&doc, || human);
            Ok(status)
        }
    }
}

/// Poll the sandbox for the proof file, narrating on the spinner.
async fn wait(
    ctx: &Ctx,
    a: &VerifyArgs,
    provider: &dyn provider::Provider,
    target: &Target,
    found: Option<SandboxInfo>,
    proof: &str,
    kind: ProviderKind,
) -> Result<Waited> {
    let waiting_for = match (&found, target) {
        (Some(sb), _) => format!("sandbox {}", sandbox_label(sb)),
        (None, Target::Session(s)) => format!("the sandbox of session {}", show(s)),
        (None, Target::Sandbox(id)) => format!("sandbox {}", show(id)),
    };
    // One clock, the spinner's: `(12s of 10m)`.
    let spinner = ctx.printer.countdown(
        &format!("waiting for {} in {waiting_for} on {kind}", a.path),
        a.wait,
    );
    let waited = verify::wait_for_proof(
        provider,
        target,
        found,
        &a.path,
        proof,
        a.wait,
        |_elapsed, w| spinner.set_message(&waiting_message(&a.path, w)),
    )
    .await;
    spinner.finish(None);
    waited.map_err(|e| resolve_error(e, kind))
}

fn waiting_message(path: &str, w: Waiting) -> String {
    match w {
        Waiting::NoSandbox { name } => {
            format!("waiting for the session's sandbox {name} to appear")
        }
        Waiting::NoFile { sandbox } => {
            format!("waiting for {path} in sandbox {}", sandbox.name)
        }
        Waiting::Other { sandbox, found } => format!(
            "waiting for the proof in {path} in sandbox {} (it holds {} for now, an earlier value?)",
            sandbox.name,
            show(found)
        ),
        Waiting::Retrying { sandbox, error } => format!(
            "waiting for {path} in sandbox {} (retrying after: {error})",
            sandbox.name
        ),
    }
}

fn verdict(ctx: &Ctx, doc: &mut VerifyDoc, waited: &Waited, bytes: &[u8]) -> ExitStatus {
    let p = &ctx.printer;
    let where_ = waited
        .sandbox
        .as_ref()
        .map(sandbox_label)
        .unwrap_or_default();
    let network = waited
        .sandbox
        .as_ref()
        .map(|sb| format!("\n  network:  {}", sb.egress.summary()))
        .unwrap_or_default();
    let (proof, path) = (doc.proof.clone(), doc.path.clone());
    match compare(&proof, bytes) {
        Comparison::Match { trailing_newline } => {
            let status = doc.end(VerifyResult::Match, ExitStatus::Success);
            doc.trailing_newline = Some(trailing_newline);
            let note = if trailing_newline {
                " (one trailing newline, tolerated)"
            } else {
                ""
            };
            p.result(doc, || {
                format!(
                    "{} verified: {path} in sandbox {where_} holds {}{note}{network}",
                    p.mark(true),
                    show(&proof)
                )
            });
            status
        }
        Comparison::Mismatch { expected, found } => {
            let status = doc.end(VerifyResult::Mismatch, ExitStatus::CheckFailed);
            doc.expected = Some(expected.clone());
            // A runaway file is cut in the JSON too; found_bytes tells its real size.
            doc.found = Some(found.chars().take(4096).collect());
            doc.found_bytes = Some(bytes.len());
            p.result(doc, || {
                format!(
                    "{} mismatch: {path} in sandbox {where_} still did not hold the proof after {}\n  expected: {}\n  found:    {}{network}",
                    p.mark(false),
                    humantime::format_duration(Duration::from_secs(waited.elapsed.as_secs())),
                    show(&expected),
                    show(&found)
                )
            });
            status
        }
    }
}
