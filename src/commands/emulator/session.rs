//! `outposts emulator session …` and `outposts emulator status`: drive the emulated Devin
//! sessions through the emulator's admin API.

use anyhow::Result;
use clap::Subcommand;
use schemars::JsonSchema;
use serde::Serialize;

use super::Ctx;
use super::{PortArgs, admin};
use crate::api::devin::Outpost;
use crate::commands::queue::{now_secs, relative, table};
use crate::emulator::devin::{NewSession, SessionInfo};
use crate::error::{CliError, ExitStatus};

const AFTER_HELP: &str = "\
Examples:
  outposts emulator session new                              # one pending Linux session
  outposts emulator session new --count 250 --json           # many, as a JSON array
  outposts emulator session new --task \"Write the exact text proof-1 to /workspace/outpost-proof.txt and read the file back. Report its contents.\"
  outposts emulator session list
  outposts emulator session suspend devin-0a1b…              # the remote is told to exit
  outposts emulator session resume devin-0a1b…               # back as kind=resume
  outposts emulator session terminate devin-0a1b…
  outposts emulator session task devin-0a1b… \"sh: ls -la\"

Every command takes --port [default: OUTPOSTS_EMULATOR_PORT or 8790].
Scripting: `new` prints one session id per line (or a JSON array of sessions with --json).";

#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct SessionArgs {
    #[command(subcommand)]
    pub command: SessionCommand,
}

#[derive(Debug, Subcommand)]
pub enum SessionCommand {
    /// Enqueue new sessions (what Devin does when a user starts one on the outpost).
    #[command(after_help = NEW_HELP)]
    New(NewArgs),
    /// Every session the emulator knows.
    #[command(after_help = LIST_HELP)]
    List(PortArgs),
    /// Put a session to sleep: its remote exits; the row leaves the queue once released.
    #[command(after_help = SUSPEND_HELP)]
    Suspend(IdArgs),
    /// Wake a suspended session: it comes back as a pending `kind=resume` entry.
    #[command(after_help = RESUME_HELP)]
    Resume(ResumeArgs),
    /// End a session for good.
    #[command(after_help = TERMINATE_HELP)]
    Terminate(IdArgs),
    /// Give a session's remote a task (proof-file text or `sh: <command>`).
    #[command(after_help = TASK_HELP)]
    Task(TaskArgs),
}

const NEW_HELP: &str = "\
Examples:
  outposts emulator session new
  outposts emulator session new --count 3 --platform windows --sha 412f0e9b19
  outposts emulator session new --status running          # brain-side running, not yet claimed
  outposts emulator session new --task \"sh: uname -a\"
  outposts emulator session new --network-policy '{\"enabled\": true, \"allow\": [{\"hostname\": \"allowed.test\"}]}'
  id=$(outposts emulator session new)                      # one id per line on stdout
  outposts emulator session new --rate 1/s --for 5m        # Poisson arrivals, ids as they come

Scripting: --json prints a JSON array of the created sessions.";

const LIST_HELP: &str = "\
Examples:
  outposts emulator session list
  outposts emulator session list --json | jq '.[] | select(.session_status == \"running\")'

Scripting: --json prints an array of sessions: {session_id, outpost_id, generation, kind,
platform, phase, session_status, acceptor_id, claim_deadline, in_queue, remote_connected,
tasks: [{id, text, action, status, output, exit_code}], created_at, updated_at}.";

const SUSPEND_HELP: &str = "\
Examples:
  outposts emulator session suspend devin-0a1b…

The remote is told to exit (0). The entry stays as pending+suspended until it is released (or its
claim expires), then is swept after --sweep-delay and watchers see DELETED.
Scripting: --json prints the session object (as in `session list --json`).";

const RESUME_HELP: &str = "\
Examples:
  outposts emulator session resume devin-0a1b…
  outposts emulator session resume devin-0a1b… --network-policy '{\"enabled\": false}'

--network-policy sets the woken entry's spec.network_policy (`null`: none); without it the
entry keeps the policy it had. Only a suspended session can be resumed; it is enqueued again with kind=resume and the next
generation number. Scripting: --json prints the session object (as in `session list --json`).";

const TERMINATE_HELP: &str = "\
Examples:
  outposts emulator session terminate devin-0a1b…

The remote is told to exit (0); the entry is swept once released.
Scripting: --json prints the session object (as in `session list --json`).";

const TASK_HELP: &str = "\
Examples:
  outposts emulator session task devin-0a1b… \"Write the exact text proof-1 to /workspace/outpost-proof.txt and read the file back. Report its contents.\"
  outposts emulator session task devin-0a1b… \"sh: git status\"

Results (done/failed, output) show in `session list --json` under tasks.
Scripting: --json prints the task: {id, text, action, status, output, exit_code, detail}.";

#[derive(Debug, clap::Args)]
pub struct NewArgs {
    /// Outpost id or name [default: OUTPOST_ID, else the emulator's first outpost].
    #[arg(long, value_name = "ID")]
    pub outpost: Option<String>,
    /// linux, windows or macos.
    #[arg(long, value_name = "P", default_value = "linux")]
    pub platform: String,
    /// new or resume.
    #[arg(long, value_name = "K", default_value = "new")]
    pub kind: String,
    /// Pin `remote_binary_sha` (7–64 hex digits) [default: the published build `latest_*`
    /// points at, like a real session]; `none` leaves the pin out (clients then fetch latest).
    #[arg(long, value_name = "SHA")]
    pub sha: Option<String>,
    /// Initial session_status: pending, running, suspended or terminated.
    #[arg(long, value_name = "S", default_value = "pending")]
    pub status: String,
    /// A task for the session's remote.
    #[arg(long, value_name = "TEXT")]
    pub task: Option<String>,
    /// How many sessions (1–1000).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub count: u32,
    /// Use this session id instead of a generated `devin-…` one.
    #[arg(long, value_name = "ID", conflicts_with = "count")]
    pub id: Option<String>,
    /// The entry's `spec.network_policy`, as JSON: `{"enabled": bool, "allow": [{"hostname":
    /// glob} | {"ipv4": CIDR} | {"ipv6": CIDR}]}` (sent as given, so malformed ones can be
    /// tried too) [default: none].
    #[arg(long, value_name = "JSON")]
    pub network_policy: Option<String>,
    /// Enqueue one session at a time as a Poisson stream of this rate (`1/s`, `30/m`, `120/h`)
    /// for `--for`, printing each id as it is enqueued.
    #[arg(long, value_name = "R", value_parser = super::arrivals::parse_rate, requires = "span", conflicts_with_all = ["count", "id"])]
    pub rate: Option<f64>,
    /// How long `--rate` keeps enqueuing (e.g. 5m).
    #[arg(long = "for", id = "span", value_name = "D", value_parser = crate::config::parse_duration, requires = "rate")]
    pub span: Option<std::time::Duration>,
    /// Seed of `--rate`'s random gaps (the same seed, the same stream).
    #[arg(long, value_name = "N", requires = "rate")]
    pub seed: Option<u64>,
    #[command(flatten)]
    pub port: PortArgs,
}

#[derive(Debug, clap::Args)]
pub struct ResumeArgs {
    /// Session id.
    pub id: String,
    /// The woken entry's `spec.network_policy`, as JSON (`null`: none) [default: as before].
    #[arg(long, value_name = "JSON")]
    pub network_policy: Option<String>,
    #[command(flatten)]
    pub port: PortArgs,
}

/// `--network-policy`: any JSON value (the emulator serves it as given).
fn policy_arg(text: Option<&str>) -> Result<Option<serde_json::Value>> {
    text.map(|t| {
        serde_json::from_str(t).map_err(|e| {
            CliError::usage(
                format!("--network-policy is not JSON: {e}"),
                Some(r#"e.g. --network-policy '{"enabled": true, "allow": [{"hostname": "example.com"}]}'"#.into()),
            )
            .into()
        })
    })
    .transpose()
}

#[derive(Debug, clap::Args)]
pub struct IdArgs {
    /// Session id.
    pub id: String,
    #[command(flatten)]
    pub port: PortArgs,
}

#[derive(Debug, clap::Args)]
pub struct TaskArgs {
    /// Session id.
    pub id: String,
    /// Task text.
    pub text: String,
    #[command(flatten)]
    pub port: PortArgs,
}

pub async fn run(ctx: &Ctx, args: SessionArgs) -> Result<ExitStatus> {
    match args.command {
        SessionCommand::New(a) => new(ctx, a).await,
        SessionCommand::List(a) => list(ctx, a).await,
        SessionCommand::Suspend(a) => change(ctx, a, "suspend").await,
        SessionCommand::Resume(a) => resume(ctx, a).await,
        SessionCommand::Terminate(a) => change(ctx, a, "terminate").await,
        SessionCommand::Task(a) => task(ctx, a).await,
    }
}

async fn new(ctx: &Ctx, a: NewArgs) -> Result<ExitStatus> {
    if !(1..=1000).contains(&a.count) {
        return Err(CliError::usage(
            format!("--count must be between 1 and 1000 (got {})", a.count),
            None,
        )
        .into());
    }
    let client = admin(ctx, a.port.port)?;
    // The configured outpost (the one `orchestrator run` serves), not the emulator's first.
    let outpost = a
        .outpost
        .filter(|o| !o.trim().is_empty())
        .or_else(|| ctx.config.value(&crate::env::OUTPOST_ID));
    let spec = NewSession {
        session_id: a.id,
        outpost,
        platform: Some(a.platform),
        kind: Some(a.kind),
        remote_binary_sha: a.sha,
        status: Some(a.status),
        task: a.task,
        network_policy: policy_arg(a.network_policy.as_deref())?,
        count: Some(a.count),
    };
    if let (Some(rate), Some(span)) = (a.rate, a.span) {
        return stream(ctx, &client, spec, rate, span, a.seed).await;
    }
    let created = client.new_sessions(&spec).await?;
    if let Some(first) = created.first() {
        // Say where they went: the name the user knows, and the id the orchestrator logs.
        let id = first.outpost_id.clone();
        let name = client
            .outposts()
            .await
            .unwrap_or_default()
            .iter()
            .filter_map(|v| Outpost::from_value(v).ok())
            .find(|o| o.outpost_id == id)
            .and_then(|o| o.name);
        ctx.printer.note(&format!(
            "{} session{} queued on {}",
            created.len(),
            if created.len() == 1 { "" } else { "s" },
            match name {
                Some(n) if n != id => format!("{n} ({id})"),
                _ => id,
            }
        ));
    }
    ctx.printer.result(&created, || {
        created
            .iter()
            .map(|s| format!("{}\n", s.session_id))
            .collect()
    });
    Ok(ExitStatus::Success)
}

/// `--rate R --for D`: one session at each arrival of a Poisson stream; each id is printed as
/// it is enqueued (one JSON document per line with --json), a summary goes to stderr.
async fn stream(
    ctx: &Ctx,
    client: &crate::emulator::client::EmulatorClient,
    spec: NewSession,
    rate: f64,
    span: std::time::Duration,
    seed: Option<u64>,
) -> Result<ExitStatus> {
    use super::arrivals;
    let seed = seed.unwrap_or_else(rand::random);
    let offsets = arrivals::arrival_offsets(rate, span, seed);
    ctx.printer.note(&format!(
        "enqueuing {} sessions over {} (Poisson, {rate:.3}/s, seed {seed})",
        offsets.len(),
        humantime::format_duration(span)
    ));
    let start = std::time::Instant::now();
    let spec = NewSession {
        count: Some(1),
        ..spec
    };
    for (k, offset) in offsets.iter().enumerate() {
        arrivals::wait_for(start, *offset).await;
        let created = client.new_sessions(&spec).await?;
        for s in &created {
            ctx.printer.result(s, || format!("{}\n", s.session_id));
        }
        if (k + 1) % 60 == 0 {
            ctx.printer
                .note(&format!("{} of {} enqueued", k + 1, offsets.len()));
        }
    }
    Ok(ExitStatus::Success)
}

fn render_sessions(sessions: &[SessionInfo]) -> String {
    if sessions.is_empty() {
        return String::new();
    }
    let now = now_secs();
    let rows: Vec<Vec<String>> = sessions
        .iter()
        .map(|s| {
            let done = s.tasks.iter().filter(|t| t.status == "done").count();
            let failed = s.tasks.iter().filter(|t| t.status == "failed").count();
            vec![
                s.session_id.clone(),
                s.generation.to_string(),
                s.phase.clone(),
                if s.blip {
                    format!("{} (blip)", s.session_status)
                } else {
                    s.session_status.clone()
                },
                s.kind.clone(),
                s.acceptor_id.clone().unwrap_or_else(|| "-".into()),
                if s.remote_connected { "connected" } else { "-" }.into(),
                if s.tasks.is_empty() {
                    "-".into()
                } else {
                    format!("{}/{} done, {failed} failed", done, s.tasks.len())
                },
                relative(s.updated_at as f64 - now),
            ]
        })
        .collect();
    table(
        &[
            "SESSION", "GEN", "PHASE", "STATUS", "KIND", "ACCEPTOR", "REMOTE", "TASKS", "UPDATED",
        ],
        &rows,
    )
}

async fn list(ctx: &Ctx, a: PortArgs) -> Result<ExitStatus> {
    let client = admin(ctx, a.port)?;
    let sessions = client.sessions().await?;
    ctx.printer.result(&sessions, || render_sessions(&sessions));
    if sessions.is_empty() {
        ctx.printer
            .note("no sessions yet; create one with `outposts emulator session new`");
    }
    Ok(ExitStatus::Success)
}

async fn resume(ctx: &Ctx, a: ResumeArgs) -> Result<ExitStatus> {
    let policy = policy_arg(a.network_policy.as_deref())?;
    let client = admin(ctx, a.port.port)?;
    let info = match policy {
        Some(p) => client.resume_with_policy(&a.id, &p).await?,
        None => client.resume(&a.id).await?,
    };
    show(ctx, &info);
    Ok(ExitStatus::Success)
}

async fn change(ctx: &Ctx, a: IdArgs, action: &str) -> Result<ExitStatus> {
    let client = admin(ctx, a.port.port)?;
    let info = match action {
        "suspend" => client.suspend(&a.id).await?,
        _ => client.terminate(&a.id).await?,
    };
    show(ctx, &info);
    Ok(ExitStatus::Success)
}

fn show(ctx: &Ctx, info: &SessionInfo) {
    ctx.printer.result(info, || {
        format!(
            "{}  {}/{}  generation {}",
            info.session_id, info.phase, info.session_status, info.generation
        )
    });
}

async fn task(ctx: &Ctx, a: TaskArgs) -> Result<ExitStatus> {
    let client = admin(ctx, a.port.port)?;
    let t = client.add_task(&a.id, &a.text).await?;
    ctx.printer
        .result(&t, || format!("{}  {}  {}", t.id, t.action, t.status));
    if let Some(d) = &t.detail {
        ctx.printer.warn(d);
    }
    Ok(ExitStatus::Success)
}

/// `outposts emulator status --json`: what the emulator holds.
#[derive(Debug, Serialize, JsonSchema)]
pub struct EmulatorStatusDoc {
    pub base_url: String,
    /// The outposts, as the fleet API serves them.
    pub outposts: Vec<serde_json::Value>,
    #[schemars(with = "Vec<serde_json::Value>")]
    pub sessions: Vec<SessionInfo>,
}

pub async fn status(ctx: &Ctx, a: PortArgs) -> Result<ExitStatus> {
    let client = admin(ctx, a.port)?;
    let outposts = client.outposts().await?;
    let sessions = client.sessions().await?;
    let doc = EmulatorStatusDoc {
        base_url: client.base_url().to_string(),
        outposts: outposts.clone(),
        sessions: sessions.clone(),
    };
    ctx.printer.result(&doc, || {
        let rows: Vec<Vec<String>> = outposts
            .iter()
            .filter_map(|v| Outpost::from_value(v).ok())
            .map(|o| {
                vec![
                    o.outpost_id,
                    o.name.unwrap_or_default(),
                    o.platform
                        .map(|p| p.to_string())
                        .unwrap_or_else(|| "-".into()),
                    o.queue_depth.unwrap_or(0).to_string(),
                    o.active_claims.unwrap_or(0).to_string(),
                ]
            })
            .collect();
        let mut out = format!("emulator at {}\n\n", client.base_url());
        out.push_str(&table(
            &["OUTPOST", "NAME", "PLATFORM", "QUEUED", "CLAIMED"],
            &rows,
        ));
        out.push('\n');
        if sessions.is_empty() {
            out.push_str("no sessions\n");
        } else {
            out.push_str(&render_sessions(&sessions));
        }
        out
    });
    Ok(ExitStatus::Success)
}
