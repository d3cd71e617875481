//! `outposts session verify`: prove that a Devin session runs on compute we own.

pub(crate) mod v3;
pub(crate) mod verify_create;

use std::time::Duration;

use anyhow::Result;
use clap::Subcommand;
use serde_json::{Value, json};

use super::Ctx;
use crate::api::ApiError;
use crate::api::devin::DevinClient;
use crate::env;
use crate::error::{CliError, ExitStatus};
use crate::provider::{self, ProviderKind, SandboxInfo};
use crate::verify::diagnose::{Diagnosis, LogSource, diagnose};
use crate::verify::{
    self, Comparison, DEFAULT_PATH, ResolveError, Target, Waited, Waiting, compare, show,
};

const AFTER_HELP: &str = "\
Examples:
  outposts session verify --session devin-0a1b2c   # a session served by `orchestrator run`
  outposts session verify --sandbox 4f9c…          # a fixed worker's sandbox

Exit codes: 0 the proof matched · 1 it did not appear in time · 2 no such sandbox or session ·
3 another value was still there when the wait ran out.";

#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    #[command(subcommand)]
    pub command: SessionCommand,
}

#[derive(Debug, Subcommand)]
pub enum SessionCommand {
    /// Prove a session runs in your sandbox: print a task with a fresh proof value, then wait
    /// for Devin to write it and read it back from that sandbox.
    #[command(long_about = VERIFY_ABOUT, after_help = VERIFY_HELP)]
    Verify(VerifyArgs),
    /// Create a Devin session through the v3 API on an outpost (DEVIN_API_KEY, DEVIN_ORG_ID).
    Create(v3::CreateArgs),
    /// Show a session: v3 status and detail, fleet queue row, sandbox.
    Show(v3::ShowArgs),
    /// End (terminate) a session through the v3 API.
    End(v3::EndArgs),
}

const VERIFY_ABOUT: &str = "\
Prove that a Devin session runs in a sandbox you own.

verify makes a unique, non-secret proof value (or takes --proof) and prints the exact task to
give Devin, and the same task as a Slack line for the outpost. It then finds the sandbox — by
--sandbox, or the orchestrator's sandbox of --session (hashed name, checked label) — and reads
the file through the provider (polling with backoff) until it exists or --wait runs out. The
contents must equal the proof exactly; one trailing newline is tolerated and reported. Other
contents (an earlier verification's proof) mean `not yet`: verify keeps reading until the proof
appears or --wait runs out. A --session that has no sandbox and is not in the outpost's queue
fails at once.";

const VERIFY_HELP: &str = "\
Examples:
  outposts session verify --session devin-0a1b2c3d --provider daytona
  outposts session verify --sandbox 4f9c2e1a --provider coreweave --outpost gpu-h200
  outposts session verify --print-only --outpost rhel9     # just the task text; no provider call
  outposts session verify --print-only --proof P | head -1 # the task line alone
  P=$(openssl rand -hex 6)
  outposts session verify --print-only --proof \"$P\" --json | jq -r .task   # submit this
  outposts session verify --session \"$ID\" --proof \"$P\" --wait 5m --json

Output: the task text (line 1) and the Slack line (line 2) go to stdout, then the verdict;
labels, tips and progress go to stderr. Submit the task in a session on the outpost: in the
Devin app choose the outpost as the session's machine; in Slack the line's `!outpost NAME`
routes it.

The outpost NAME comes from --outpost, else from the Devin API (the name of OUTPOST_ID) when
DEVIN_OUTPOSTS_TOKEN is set, else a placeholder <OUTPOST-NAME> to replace.

Exit codes: 0 match · 1 timed out (the diagnosis says why: the sandbox's state, the last remote
or worker log lines, and the session's queue state when a Devin token is configured) · 2 bad
input, or no such sandbox or session · 3 mismatch: the file still held another value when
--wait ran out (both values shown) · 4 credentials rejected.

Unattended (CI): --create makes the session itself through Devin's v3 API on the outpost
(DEVIN_API_KEY with ManageOrgSessions and ViewOrgSessions, DEVIN_ORG_ID or --org), shows each
stage on stderr (queued, claimed, running, proof file found), reads the file from that session's
sandbox and ends the session whatever the outcome (--keep-session leaves it). Exit 0 match ·
3 mismatch, session ended before the file, or --wait ran out (naming the stage it stalled at:
never claimed / claimed but never running / running but no proof file) · 2 DEVIN_API_KEY or
DEVIN_ORG_ID unset (before any request) · 4 DEVIN_API_KEY refused or lacking a permission.
  outposts session verify --create --provider daytona --wait 15m

Scripting: --json prints one object on stdout at the end:
  {\"result\": \"match\"|\"mismatch\"|\"timeout\"|\"printed\", \"exit_code\", \"proof\", \"path\",
   \"task\", \"slack\", \"outpost_name\", \"outpost_name_source\": \"flag\"|\"devin_api\"|\"placeholder\",
   \"provider\", \"session_id\", \"sandbox\": {\"id\", \"name\", \"state\", \"raw_state\", \"labels\", …}|null,
   \"waited_seconds\", \"trailing_newline\", \"expected\", \"found\", \"found_bytes\",
   \"diagnosis\": {\"sandbox\", \"sandbox_looked_for\", \"sandbox_error\", \"last_read_error\",
     \"session_id\", \"log_source\": \"remote\"|\"worker\"|\"sandbox\"|null, \"log_tail\": [..],
     \"queue\": {\"in_queue\", \"phase\", \"session_status\", \"acceptor_id\", \"outpost_id\",
     \"claim_deadline\"}|null, \"queue_note\", \"hints\": [..]}|null,
   \"egress\": {\"mode\": \"open\"|\"restricted\"|\"unknown\", \"allow\": [{\"hostname\"}|{\"ipv4\"}|{\"ipv6\"}]}|null}
The sandbox's network is shown as its provider reports it (the session's policy in force).
Fields that do not apply are null. Pass --proof to know the value before the run ends.";

#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// Sandbox id or name to read (a fixed worker's, or any sandbox).
    #[arg(long, value_name = "ID", conflicts_with = "session")]
    pub sandbox: Option<String>,
    /// Devin session id; its sandbox is the orchestrator's (`devin-<id>-<hash>`, labelled).
    #[arg(long, value_name = "ID")]
    pub session: Option<String>,
    /// Where the sandbox runs [default: OUTPOSTS_PROVIDER or daytona].
    #[arg(long, value_enum)]
    pub provider: Option<ProviderKind>,
    /// Outpost name for the Slack line [default: the name of OUTPOST_ID, from the Devin API].
    #[arg(long, value_name = "NAME")]
    pub outpost: Option<String>,
    /// The value to expect [default: a fresh `outpost-proof-<12 hex>`].
    #[arg(long, value_name = "VALUE")]
    pub proof: Option<String>,
    /// Absolute path of the proof file inside the sandbox.
    #[arg(long, value_name = "PATH", default_value = DEFAULT_PATH)]
    pub path: String,
    /// How long to wait for the file (e.g. 90s, 10m, 1h).
    #[arg(long, value_name = "DURATION", default_value = "10m",
          value_parser = crate::config::parse_duration)]
    pub wait: Duration,
    /// Print the task and the Slack line, then exit 0; no provider is contacted.
    #[arg(long)]
    pub print_only: bool,
    /// Create the proof session yourself through Devin's v3 API on the outpost, follow it,
    /// read the file back and end the session (DEVIN_API_KEY, DEVIN_ORG_ID). Unattended.
    #[arg(long)]
    pub create: bool,
    /// With --create: leave the proof session running afterwards.
    #[arg(long, requires = "create")]
    pub keep_session: bool,
    /// With --create: the organisation [default: DEVIN_ORG_ID].
    #[arg(long, value_name = "ORG", requires = "create")]
    pub org: Option<String>,
}

pub async fn run(ctx: &Ctx, args: Args) -> Result<ExitStatus> {
    match args.command {
        SessionCommand::Verify(a) if a.create => verify_create::run(ctx, a).await,
        SessionCommand::Verify(a) => run_verify(ctx, a).await,
        SessionCommand::Create(a) => v3::run_create(ctx, a).await,
        SessionCommand::Show(a) => v3::run_show(ctx, a).await,
        SessionCommand::End(a) => v3::run_end(ctx, a).await,
    }
}

const PLACEHOLDER: &str = "<OUTPOST-NAME>";
const LOG_LINES: u32 = 20;

/// The outpost name for the Slack line and where it came from.
struct OutpostName {
    name: Option<String>,
    source: &'static str,
    /// Why the name is unknown (placeholder) or not the flag's value.
    note: Option<String>,
}

impl OutpostName {
    fn shown(&self) -> &str {
        self.name.as_deref().unwrap_or(PLACEHOLDER)
    }
}

fn usage(message: String, hint: &str) -> anyhow::Error {
    CliError::usage(message, Some(hint.to_string())).into()
}

fn printable(s: &str) -> bool {
    !s.chars().any(char::is_control)
}

/// A proof must survive being typed into a chat box and compared byte for byte.
pub(super) fn check_proof(p: &str) -> Result<()> {
    if p.is_empty() || p.len() > 128 || p.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(usage(
            format!("--proof {} is not usable", show(p)),
            "use 1-128 printable characters without spaces, or omit --proof for a fresh value",
        ));
    }
    Ok(())
}

pub(super) fn check_path(p: &str) -> Result<()> {
    let b = p.as_bytes();
    let windows_abs = b.len() > 2 && b[0].is_ascii_alphabetic() && b[1] == b':';
    if !(p.starts_with('/') || windows_abs) || p.len() > 1024 || !printable(p) {
        return Err(usage(
            format!("--path {} must be an absolute path", show(p)),
            "the remote resolves relative paths against its own working directory, which verify cannot see; use e.g. /workspace/outpost-proof.txt",
        ));
    }
    Ok(())
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

/// A fleet client when a token is configured (the name lookup and the queue state need one).
pub(super) fn devin(ctx: &Ctx) -> Result<Option<DevinClient>> {
    if ctx.config.get(&env::DEVIN_OUTPOSTS_TOKEN).is_none() {
        return Ok(None);
    }
    Ok(Some(DevinClient::from_config(&ctx.config, ctx.http()?)?))
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
                source: "devin_api",
                note: Some(format!("{f} is an outpost id; its name is used")),
            };
        }
        return OutpostName {
            name: Some(f.to_string()),
            source: "flag",
            note: None,
        };
    }
    let placeholder = |note: String| OutpostName {
        name: None,
        source: "placeholder",
        note: Some(note),
    };
    let Some(client) = devin else {
        return placeholder("no --outpost given and no Devin token configured".into());
    };
    let Some(id) = ctx.config.value(&env::OUTPOST_ID) else {
        return placeholder("no --outpost given and OUTPOST_ID is not set".into());
    };
    match lookup_name(client, &id).await {
        Ok(Some(name)) => OutpostName {
            name: Some(name),
            source: "devin_api",
            note: None,
        },
        Ok(None) => placeholder(format!("the Devin API knows no named outpost {id}")),
        Err(e) => placeholder(format!("cannot look up the name of outpost {id}: {e}")),
    }
}

pub(super) fn provider_kind(ctx: &Ctx, flag: Option<ProviderKind>) -> Result<ProviderKind> {
    Ok(match flag {
        Some(k) => k,
        None => ctx
            .config
            .parse(&env::OUTPOSTS_PROVIDER, ProviderKind::parse)?
            .unwrap_or(ProviderKind::Daytona),
    })
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

fn sandbox_label(sb: &SandboxInfo) -> String {
    if sb.id == sb.name {
        sb.id.clone()
    } else {
        format!("{} ({})", sb.name, sb.id)
    }
}

async fn run_verify(ctx: &Ctx, a: VerifyArgs) -> Result<ExitStatus> {
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
    let target = target(&a)?;
    let task = verify::task_text(&proof, &a.path);
    let devin = devin(ctx)?;
    let name = outpost_name(ctx, a.outpost.as_deref(), devin.as_ref()).await;
    let slack = verify::slack_line(name.shown(), &task);
    let mut doc = json!({
        "result": "printed", "exit_code": 0, "proof": proof, "path": a.path, "task": task,
        "slack": slack, "outpost_name": name.name, "outpost_name_source": name.source,
        "provider": null, "session_id": target.as_ref().and_then(Target::session),
        "sandbox": null, "waited_seconds": null, "trailing_newline": null, "expected": null,
        "found": null, "found_bytes": null, "diagnosis": null, "egress": null,
    });

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

    let kind = provider_kind(ctx, a.provider)?;
    doc["provider"] = json!(kind);
    let provider = provider::from_config(kind, &ctx.config, ctx.http()?).await?;
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

    let waiting_for = match (&found, &target) {
        (Some(sb), _) => format!("sandbox {}", sandbox_label(sb)),
        (None, Target::Session(s)) => format!("the sandbox of session {}", show(s)),
        (None, Target::Sandbox(id)) => format!("sandbox {}", show(id)),
    };
    let spinner = ctx.printer.spinner(&format!(
        "waiting for {} in {waiting_for} on {kind} (up to {})",
        a.path,
        humantime::format_duration(a.wait)
    ));
    let wait_limit = humantime::format_duration(a.wait).to_string();
    let waited = verify::wait_for_proof(
        provider.as_ref(),
        &target,
        found,
        &a.path,
        &proof,
        a.wait,
        |elapsed, w| {
            let at = format!("{}s of {wait_limit}", elapsed.as_secs());
            spinner.set_message(&match w {
                Waiting::NoSandbox { name } => {
                    format!("waiting for the session's sandbox {name} to appear ({at})")
                }
                Waiting::NoFile { sandbox } => {
                    format!("waiting for {} in sandbox {} ({at})", a.path, sandbox.name)
                }
                Waiting::Other { sandbox, found } => format!(
                    "waiting for the proof in {} in sandbox {} ({at}; it holds {} for now, an earlier value?)",
                    a.path,
                    sandbox.name,
                    show(found)
                ),
                Waiting::Retrying { sandbox, error } => format!(
                    "waiting for {} in sandbox {} ({at}; retrying after: {error})",
                    a.path, sandbox.name
                ),
            });
        },
    )
    .await;
    spinner.finish(None);
    let waited = waited.map_err(|e| resolve_error(e, kind))?;
    doc["waited_seconds"] = json!((waited.elapsed.as_secs_f64() * 10.0).round() / 10.0);
    doc["sandbox"] = json!(waited.sandbox);
    // The sandbox's network as its provider reports it (the session's policy in force).
    doc["egress"] = json!(waited.sandbox.as_ref().map(|sb| &sb.egress));
    if doc["session_id"].is_null()
        && let Some(s) = waited
            .sandbox
            .as_ref()
            .and_then(|sb| sb.labels.get(crate::orchestrator::LABEL_SESSION))
    {
        doc["session_id"] = json!(s);
    }

    match &waited.contents {
        Some(bytes) => Ok(verdict(ctx, &mut doc, &proof, &a.path, &waited, bytes)),
        None => {
            let d = diagnose(&provider, &target, &waited, devin.as_ref(), LOG_LINES).await;
            doc["result"] = json!("timeout");
            doc["exit_code"] = json!(1);
            doc["diagnosis"] = json!(d);
            if doc["sandbox"].is_null() {
                doc["sandbox"] = json!(d.sandbox);
            }
            let human = timeout_report(&ctx.printer.mark(false), &a.path, a.wait, kind, &d);
            ctx.printer.result(&doc, || human);
            Ok(ExitStatus::Failure)
        }
    }
}

fn verdict(
    ctx: &Ctx,
    doc: &mut Value,
    proof: &str,
    path: &str,
    waited: &Waited,
    bytes: &[u8],
) -> ExitStatus {
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
    match compare(proof, bytes) {
        Comparison::Match { trailing_newline } => {
            doc["result"] = json!("match");
            doc["trailing_newline"] = json!(trailing_newline);
            let note = if trailing_newline {
                " (one trailing newline, tolerated)"
            } else {
                ""
            };
            p.result(doc, || {
                format!(
                    "{} verified: {path} in sandbox {where_} holds {}{note}{network}",
                    p.mark(true),
                    show(proof)
                )
            });
            ExitStatus::Success
        }
        Comparison::Mismatch { expected, found } => {
            doc["result"] = json!("mismatch");
            doc["exit_code"] = json!(3);
            doc["expected"] = json!(expected);
            // A runaway file is cut in the JSON too; found_bytes tells its real size.
            doc["found"] = json!(found.chars().take(4096).collect::<String>());
            doc["found_bytes"] = json!(bytes.len());
            p.result(doc, || {
                format!(
                    "{} mismatch: {path} in sandbox {where_} still did not hold the proof after {}\n  expected: {}\n  found:    {}{network}",
                    p.mark(false),
                    humantime::format_duration(Duration::from_secs(waited.elapsed.as_secs())),
                    show(&expected),
                    show(&found)
                )
            });
            ExitStatus::CheckFailed
        }
    }
}

fn row(out: &mut String, k: &str, v: String) {
    out.push_str(&format!("  {k:<10}{v}\n"));
}

fn timeout_report(
    mark: &str,
    path: &str,
    wait: Duration,
    kind: ProviderKind,
    d: &Diagnosis,
) -> String {
    let mut out = format!(
        "{mark} timed out after {}: no {path} in {}\n",
        humantime::format_duration(wait),
        match &d.sandbox {
            Some(sb) => format!("sandbox {}", sandbox_label(sb)),
            None => format!("a sandbox ({} not found)", d.sandbox_looked_for),
        }
    );
    match &d.sandbox {
        Some(sb) => row(
            &mut out,
            "sandbox",
            format!(
                "{} on {kind}{}{}",
                sb.state,
                if sb.raw_state != sb.state.as_str() {
                    format!(" ({})", sb.raw_state)
                } else {
                    String::new()
                },
                sb.error_reason
                    .as_deref()
                    .map(|r| format!(": {r}"))
                    .unwrap_or_default()
            ),
        ),
        None => row(
            &mut out,
            "sandbox",
            format!("none named {} on {kind}", d.sandbox_looked_for),
        ),
    }
    if let Some(e) = &d.sandbox_error {
        row(&mut out, "", format!("(state not read: {e})"));
    }
    if let Some(e) = &d.last_read_error {
        row(&mut out, "read", format!("last error: {e}"));
    }
    if let Some(s) = &d.session_id {
        row(&mut out, "session", show(s));
    }
    match (&d.queue, &d.queue_note) {
        (Some(q), _) if !q.in_queue => row(
            &mut out,
            "queue",
            "not in the queue (ended or unknown)".into(),
        ),
        (Some(q), _) => row(
            &mut out,
            "queue",
            format!(
                "phase {}, session {}{}",
                q.phase.as_deref().unwrap_or("?"),
                q.session_status.as_deref().unwrap_or("?"),
                q.acceptor_id
                    .as_deref()
                    .map(|a| format!(", claimed by {a}"))
                    .unwrap_or_default()
            ),
        ),
        (None, Some(note)) => row(&mut out, "queue", note.clone()),
        (None, None) => {}
    }
    let source = match d.log_source {
        Some(LogSource::Remote) => "remote",
        Some(LogSource::Worker) => "worker",
        Some(LogSource::Sandbox) => "sandbox",
        None => "",
    };
    if d.log_tail.is_empty() {
        if d.sandbox.is_some() {
            out.push_str("  log       no log lines available\n");
        }
    } else {
        out.push_str(&format!("  last {source} log lines:\n"));
        for l in &d.log_tail {
            let clean: String = l
                .chars()
                .map(|c| if c.is_control() && c != '\t' { '?' } else { c })
                .collect();
            out.push_str(&format!("    | {clean}\n"));
        }
    }
    for h in &d.hints {
        out.push_str(&format!("  hint: {h}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proofs_and_paths_are_checked() {
        assert!(check_proof("outpost-proof-0123").is_ok());
        for bad in ["", "a b", "a\nb", &"x".repeat(129)] {
            assert!(check_proof(bad).is_err(), "{bad:?}");
        }
        assert!(check_path("/workspace/outpost-proof.txt").is_ok());
        assert!(check_path("C:\\repos\\proof.txt").is_ok());
        for bad in ["proof.txt", "./x", "", "/a\u{7}b"] {
            assert!(check_path(bad).is_err(), "{bad:?}");
        }
    }
}
