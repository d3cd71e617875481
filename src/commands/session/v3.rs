//! `outposts session create|show|end`: Devin sessions through the public v3 API
//! (specs/devin-sessions-api.md), on an outpost chosen by name (`platform`). `session verify
//! --create` is in `session_verify_create.rs`. Domain logic: `api::devin_v3` (the client).

use std::time::{Duration, Instant};

use anyhow::Result;
use schemars::JsonSchema;
use serde::Serialize;

use super::Ctx;
use super::{devin, signal_name, stopped_by};
use crate::api::devin::{DevinClient, Phase, QueueEntry, SessionStatus};
use crate::api::devin_v3::{
    CreateSession, DevinV3Client, StatusDetail, V3Error, V3Session, V3Status,
};
use crate::commands::emulator::{Signal, Signals};
use crate::env;
use crate::error::{CliError, ExitStatus, HasHint, InSession};
use crate::output::Progress;
use crate::poll::{Backoff, Poll, Waited, poll_until};
use crate::provider::{ProviderKind, SandboxInfo};
use crate::settings::{V3Settings, advice};
use crate::verify;
use crate::verify::outpost::{self, Choice, ChoiceError, NoneGiven};

/// How often a followed session is read.
pub(super) const POLL: Duration = Duration::from_secs(1);

const CREATE_HELP: &str = "\
Examples:
  outposts session create --prompt \"Run the test suite\" --outpost gpu-h200
  ID=$(outposts session create --prompt \"$TASK\" --until finished --wait 30m)
  outposts session create --prompt hi --tag nightly --json | jq -r .session_id

The outpost defaults to OUTPOST_ID (its name is the session's `platform`); without either the
organisation's default platform applies. Needs DEVIN_API_KEY (ManageOrgSessions, and
ViewOrgSessions for --until) and DEVIN_ORG_ID (or --org).

With --until, a clock shows the wait on a terminal (a line per change otherwise). SIGINT or
SIGTERM during --until ends the session (--keep-session leaves it), prints its id and exits
130 or 143.

Scripting: stdout is the session id alone, whatever the outcome (JSON: the session —
session_id, url, status, status_detail, tags, org_id, created_at, updated_at, title,
is_archived — with result created|served|finished|error|timeout|interrupted, exit_code and
session_ended); progress on stderr. Exit codes: 0 created (and reached --until) · 1 the session
ended in `error`, or the API is unreachable · 2 bad input, DEVIN_API_KEY/DEVIN_ORG_ID unset,
DEVIN_ORG_ID not the key's organisation, or an outpost the organisation does not offer (with
the server's list of accepted platforms and outposts) · 3 --until not reached in --wait (the
session is left running; the hint names it and its queue) · 4 DEVIN_API_KEY refused or lacking
a permission (named) · 130/143 interrupted.";

const SHOW_HELP: &str = "\
Examples:
  outposts session show devin-0a1b2c3d
  outposts session show devin-0a1b2c3d --provider local --json | jq .fleet.phase

Shows the v3 status and detail; the fleet queue row (phase, holder, claim deadline as `in 3m`)
when DEVIN_OUTPOSTS_TOKEN is set (an ended session: `ended`); the session's sandbox when
--provider (or OUTPOSTS_PROVIDER) is given.

Scripting: --json prints {\"session\": {session_id, status, status_detail, …}, \"fleet\": {phase,
session_status, acceptor_id, claim_deadline (Unix seconds), outpost_id}|null, \"sandbox\": {id,
name, state, …}|null}. Exit 1 for an unknown session (HTTP 404) or an unreachable API, 2 when
DEVIN_API_KEY/DEVIN_ORG_ID are unset or DEVIN_ORG_ID is not the key's organisation, 4 when
DEVIN_API_KEY is refused or lacks ViewOrgSessions.";

const END_HELP: &str = "\
Examples:
  outposts session end devin-0a1b2c3d
  outposts session end devin-0a1b2c3d --archive --json

Terminates the session (its orchestrated sandbox is deleted by `orchestrator run`); a session
that had already ended is reported as `already ended` and left as it is (exit 0).

Scripting: --json prints the session as the server answers it (status `exit`) with
already_ended. Exit 1 for an unknown session or an unreachable API, 2 when
DEVIN_API_KEY/DEVIN_ORG_ID are unset or DEVIN_ORG_ID is not the key's organisation, 4 when
DEVIN_API_KEY is refused or lacks ManageOrgSessions.";

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Until {
    /// The session runs on a machine.
    Served,
    /// Devin reports the task finished, or the session exits.
    Finished,
}

#[derive(Debug, clap::Args)]
#[command(after_help = CREATE_HELP)]
pub struct CreateArgs {
    /// The task for Devin.
    #[arg(long, value_name = "TEXT")]
    pub prompt: String,
    /// Outpost name or id to run on [default: OUTPOST_ID; none: the organisation default].
    #[arg(long, value_name = "NAME_OR_ID")]
    pub outpost: Option<String>,
    /// The session's title in the Devin app [default: Devin names it from the prompt].
    #[arg(long, value_name = "T")]
    pub title: Option<String>,
    /// A tag (repeatable).
    #[arg(long = "tag", value_name = "T")]
    pub tags: Vec<String>,
    /// Wait until the session is served or finished.
    #[arg(long, value_enum)]
    pub until: Option<Until>,
    /// How long --until waits (e.g. 90s, 10m).
    #[arg(long, value_name = "DURATION", default_value = "10m",
          value_parser = crate::config::parse_duration)]
    pub wait: Duration,
    /// With --until: on SIGINT/SIGTERM leave the session running (it is ended otherwise).
    #[arg(long, requires = "until")]
    pub keep_session: bool,
    /// The organisation to create it in (`org-…`) [default: DEVIN_ORG_ID].
    #[arg(long, value_name = "ORG")]
    pub org: Option<String>,
}

#[derive(Debug, clap::Args)]
#[command(after_help = SHOW_HELP)]
pub struct ShowArgs {
    /// Session id (`devin-…`).
    pub id: String,
    /// Look for the session's sandbox on this provider.
    #[arg(long, value_enum)]
    pub provider: Option<ProviderKind>,
    /// The organisation the session belongs to (`org-…`) [default: DEVIN_ORG_ID].
    #[arg(long, value_name = "ORG")]
    pub org: Option<String>,
}

#[derive(Debug, clap::Args)]
#[command(after_help = END_HELP)]
pub struct EndArgs {
    /// Session id (`devin-…`).
    pub id: String,
    /// Archive it as well.
    #[arg(long)]
    pub archive: bool,
    /// The organisation the session belongs to (`org-…`) [default: DEVIN_ORG_ID].
    #[arg(long, value_name = "ORG")]
    pub org: Option<String>,
}

pub(super) fn client(ctx: &Ctx, org: Option<&str>) -> Result<DevinV3Client> {
    Ok(DevinV3Client::new(
        V3Settings::resolve(&ctx.config, org)?,
        ctx.http()?,
    ))
}

pub(super) fn usage(message: String, hint: &str) -> anyhow::Error {
    CliError::usage(message, hint).into()
}

/// The outpost a v3 session goes to: `--outpost` (a name or an id), else OUTPOST_ID, resolved
/// by the one resolver `session create` and `session verify --create` share
/// ([`outpost::choose`]); its errors become the exit codes both document.
pub(super) async fn choose_outpost(
    ctx: &Ctx,
    v3: &DevinV3Client,
    fleet: Option<&DevinClient>,
    flag: Option<&str>,
    none: NoneGiven,
) -> Result<Choice> {
    let given = outpost::given(flag, ctx.config.value(&env::OUTPOST_ID).as_deref());
    outpost::choose(v3, fleet, given, none)
        .await
        .map_err(|e| choice_error(v3, e))
}

pub(super) fn choice_error(v3: &DevinV3Client, e: ChoiceError) -> anyhow::Error {
    match e {
        ChoiceError::NoOutpost { .. } | ChoiceError::UnknownId { .. } => {
            let hint = HasHint::hint(&e).map(|h| h.as_str().to_string());
            CliError::usage(e.to_string(), hint).into()
        }
        // Unwrapped, so main.rs sees the typed error itself.
        ChoiceError::V3(v) => org_error(v3, v),
        // A name or id the account lacks is a configuration error (exit 2), like everywhere.
        ChoiceError::Lookup(l) if l.is_bad_input() => {
            CliError::usage(l.to_string(), advice::outpost_lookup(&l)).into()
        }
        ChoiceError::Lookup(l) => l.into(),
    }
}

/// A 404 on an organisation-level route (create, list) means DEVIN_ORG_ID is not an
/// organisation the key belongs to: a configuration error (exit 2), not a failure.
pub(super) fn org_error(v3: &DevinV3Client, e: V3Error) -> anyhow::Error {
    match e {
        V3Error::NotFound { message, .. } => CliError::usage(
            format!(
                "the Devin API knows no organisation {} for DEVIN_API_KEY (HTTP 404): {message}",
                v3.org()
            ),
            "set DEVIN_ORG_ID (or --org) to the organisation of the key's service user (`org-…`, in the Devin app's settings)",
        )
        .into(),
        other => other.into(),
    }
}

/// The v3 API answers 404 both for an unknown session and an unknown organisation: one
/// organisation-level read tells a wrong DEVIN_ORG_ID (exit 2) from an unknown id (exit 1).
async fn session_error(v3: &DevinV3Client, e: V3Error) -> anyhow::Error {
    if !matches!(e, V3Error::NotFound { .. }) {
        return e.into();
    }
    match v3.list_sessions(1, None, &[]).await {
        Err(org @ V3Error::NotFound { .. }) => org_error(v3, org),
        _ => e.into(),
    }
}

pub(super) fn session_line(s: &V3Session) -> String {
    match &s.status_detail {
        Some(d) => format!("{}/{d}", s.status),
        None => s.status.to_string(),
    }
}

/// `outposts session create --json`: the session as the v3 API last returned it, and how the
/// command ended (one document whatever the outcome, so `jq -r .session_id` always works).
#[derive(Debug, Serialize, JsonSchema)]
pub struct CreateDoc {
    #[serde(flatten)]
    pub session: V3Session,
    pub result: CreateOutcome,
    /// The process's exit code, from the same [`ExitStatus`] the command returns.
    pub exit_code: u8,
    /// Whether this command ended the session (after SIGINT/SIGTERM, without --keep-session).
    pub session_ended: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CreateOutcome {
    /// Created (no --until).
    Created,
    /// --until served: it runs on a machine.
    Served,
    /// --until finished: Devin finished the task, or the session exited.
    Finished,
    /// The session ended in `error`.
    Error,
    /// --until was not reached within --wait (exit 3); the session is left as it is.
    Timeout,
    /// SIGINT or SIGTERM during --until (exit 130 or 143).
    Interrupted,
}

impl CreateDoc {
    fn new(session: V3Session, result: CreateOutcome, status: ExitStatus) -> Self {
        CreateDoc {
            session,
            result,
            exit_code: status.code(),
            session_ended: false,
        }
    }
}

pub async fn run_create(ctx: &Ctx, a: CreateArgs) -> Result<ExitStatus> {
    if a.prompt.trim().is_empty() {
        return Err(usage("--prompt is empty".into(), "pass the task for Devin"));
    }
    // Held from now on (with --until): a stop signal ends the session once it exists.
    let mut signals = match a.until {
        Some(_) => Some(Signals::new()?),
        None => None,
    };
    let v3 = client(ctx, a.org.as_deref())?;
    let fleet = devin(ctx)?;
    let choice = choose_outpost(
        ctx,
        &v3,
        fleet.as_ref(),
        a.outpost.as_deref(),
        NoneGiven::ServerDefault,
    )
    .await?;
    if let Choice::Named {
        platform,
        resolved: Some(how),
    } = &choice
    {
        ctx.printer.note(&format!("outpost {platform}: {how}"));
    }
    let body = CreateSession {
        prompt: a.prompt.clone(),
        title: a.title.clone(),
        tags: a.tags.clone(),
        platform: None,
    };
    if let Some(sig) = signals
        .as_mut()
        .and_then(|s| futures::FutureExt::now_or_never(s.recv()))
    {
        return Err(match sig {
            Signal::Interrupt => CliError::Interrupted,
            Signal::Terminate => CliError::Terminated,
        }
        .into());
    }
    let (created, platform) = outpost::create(&v3, body, &choice)
        .await
        .map_err(|e| choice_error(&v3, e))?;
    let id = created.session_id.clone();
    ctx.printer.note(&format!(
        "created session {id} on {} ({})",
        platform
            .as_deref()
            .unwrap_or("the organisation's default platform"),
        created.status
    ));
    let (Some(until), Some(signals)) = (a.until, signals.as_mut()) else {
        let doc = CreateDoc::new(created, CreateOutcome::Created, ExitStatus::Success);
        ctx.printer.result(&doc, || id.clone());
        return Ok(ExitStatus::Success);
    };
    let waiting = ctx.printer.countdown(
        &format!(
            "waiting for session {id} to be {} ({})",
            until.word(),
            session_line(&created)
        ),
        a.wait,
    );
    let followed = tokio::select! {
        r = follow(&v3, created, until, a.wait, &waiting) => Ok(r),
        sig = signals.recv() => Err(sig),
    };
    waiting.finish(None);
    let (last, reached) = match followed {
        Ok(r) => r.map_err(|e| anyhow::Error::from(e).context(InSession(id.clone())))?,
        Err(sig) => return interrupted(ctx, &v3, &id, sig, a.keep_session).await,
    };
    let p = &ctx.printer;
    if !reached {
        let status = ExitStatus::CheckFailed;
        p.warn(&format!(
            "session {id} did not become {} within {} (it reads {}); it was left as it is",
            until.word(),
            humantime::format_duration(a.wait),
            session_line(&last)
        ));
        p.note(&format!(
            "hint: {}",
            wait_hint(&id, until, platform.as_deref(), &last)
        ));
        let doc = CreateDoc::new(last, CreateOutcome::Timeout, status);
        p.result(&doc, || id.clone());
        return Ok(status);
    }
    let (outcome, status) = match (last.status == V3Status::Error, until) {
        (true, _) => (CreateOutcome::Error, ExitStatus::Failure),
        (false, Until::Served) => (CreateOutcome::Served, ExitStatus::Success),
        (false, Until::Finished) => (CreateOutcome::Finished, ExitStatus::Success),
    };
    let doc = CreateDoc::new(last, outcome, status);
    p.result(&doc, || id.clone());
    Ok(status)
}

impl Until {
    fn word(self) -> &'static str {
        match self {
            Until::Served => "served",
            Until::Finished => "finished",
        }
    }
}

/// Read the session until `until` holds or `wait` runs out; the last read, and whether it held.
async fn follow(
    v3: &DevinV3Client,
    created: V3Session,
    until: Until,
    wait: Duration,
    waiting: &Progress,
) -> Result<(V3Session, bool), V3Error> {
    let last = std::cell::RefCell::new(created);
    let first = std::cell::Cell::new(true);
    let (last_ref, first) = (&last, &first);
    let waited = poll_until(Instant::now() + wait, Backoff::fixed(POLL), || async move {
        // The first look is at the session as created; each later one reads it anew.
        if !first.replace(false) {
            let id = last_ref.borrow().session_id.clone();
            let next = v3.get_session(&id).await?;
            let changed = {
                let prev = last_ref.borrow();
                next.status != prev.status || next.status_detail != prev.status_detail
            };
            if changed {
                waiting.println(&format!(
                    "session {}: {}",
                    next.session_id,
                    session_line(&next)
                ));
            }
            waiting.set_message(&format!(
                "waiting for session {} to be {} ({})",
                next.session_id,
                until.word(),
                session_line(&next)
            ));
            *last_ref.borrow_mut() = next;
        }
        let last = last_ref.borrow();
        let done = match until {
            Until::Served => last.status == V3Status::Running || last.status.ended(),
            Until::Finished => {
                last.status_detail == Some(StatusDetail::Finished) || last.status.ended()
            }
        };
        Ok::<_, V3Error>(if done {
            Poll::Ready(())
        } else {
            Poll::Pending(())
        })
    })
    .await?;
    Ok((last.into_inner(), matches!(waited, Waited::Ready(()))))
}

/// The next step after --until ran out: the session by id, and the queue it waits in.
fn wait_hint(id: &str, until: Until, platform: Option<&str>, last: &V3Session) -> String {
    let show = format!("`outposts session show {id}`");
    match (until, &last.status) {
        (_, V3Status::New | V3Status::Claimed) | (Until::Served, _) => match platform {
            Some(name) => format!(
                "is `outposts orchestrator run` (or a worker) serving outpost {name}? `outposts queue list --outpost {name}` shows its queue; {show} shows the session; raise --wait to wait longer"
            ),
            None => format!(
                "the session went to the organisation's default platform; {show} shows where it waits; raise --wait to wait longer"
            ),
        },
        _ => format!("{show} shows what it does; raise --wait to wait longer"),
    }
}

/// A stop signal during --until: end the session (unless --keep-session), print its id (the
/// one document with --json), exit 130 or 143.
async fn interrupted(
    ctx: &Ctx,
    v3: &DevinV3Client,
    id: &str,
    sig: Signal,
    keep: bool,
) -> Result<ExitStatus> {
    let p = &ctx.printer;
    let status = stopped_by(sig);
    let (session, ended) = if keep {
        p.warn(&format!(
            "{}: session {id} left running (--keep-session); end it with `outposts session end {id}`",
            signal_name(sig)
        ));
        (v3.get_session(id).await, false)
    } else {
        p.warn(&format!("{}: ending session {id}", signal_name(sig)));
        match v3.end_session(id, false).await {
            Ok(s) => (Ok(s), true),
            Err(e) => {
                p.warn(&format!(
                    "could not end session {id}: {e}; end it with `outposts session end {id}`"
                ));
                (v3.get_session(id).await, false)
            }
        }
    };
    let session = session.unwrap_or_else(|_| V3Session {
        session_id: id.to_string(),
        url: None,
        status: V3Status::Unknown(String::new()),
        status_detail: None,
        tags: Vec::new(),
        org_id: None,
        created_at: None,
        updated_at: None,
        acus_consumed: None,
        title: None,
        is_archived: None,
        pull_requests: None,
    });
    let mut doc = CreateDoc::new(session, CreateOutcome::Interrupted, status);
    doc.session_ended = ended;
    p.result(&doc, || id.to_string());
    Ok(status)
}

/// `outposts session show --json`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ShowDoc {
    /// The v3 API's session object, as it returned it.
    #[schemars(with = "serde_json::Value")]
    pub session: V3Session,
    /// The session's row in the outpost queue; null without DEVIN_OUTPOSTS_TOKEN or when absent.
    pub fleet: Option<FleetRow>,
    /// The session's sandbox (with --provider or OUTPOSTS_PROVIDER).
    #[schemars(with = "Option<serde_json::Value>")]
    pub sandbox: Option<SandboxInfo>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct FleetRow {
    #[schemars(with = "String")]
    pub phase: Phase,
    #[schemars(with = "String")]
    pub session_status: SessionStatus,
    pub acceptor_id: Option<String>,
    /// Unix seconds.
    pub claim_deadline: Option<f64>,
    pub outpost_id: Option<String>,
}

impl From<QueueEntry> for FleetRow {
    fn from(e: QueueEntry) -> Self {
        FleetRow {
            phase: e.phase,
            session_status: e.session_status,
            acceptor_id: e.acceptor_id,
            claim_deadline: e.claim_deadline,
            outpost_id: e.outpost_id,
        }
    }
}

pub async fn run_show(ctx: &Ctx, a: ShowArgs) -> Result<ExitStatus> {
    let v3 = client(ctx, a.org.as_deref())?;
    let s = match v3.get_session(&a.id).await {
        Ok(s) => s,
        Err(e) => return Err(session_error(&v3, e).await),
    };
    let fleet_row = match devin(ctx)? {
        Some(f) => match f.get(&s.session_id).await {
            Ok(row) => row.map(FleetRow::from),
            Err(e) => {
                ctx.printer
                    .warn(&format!("cannot read the fleet queue: {e}"));
                None
            }
        },
        None => None,
    };
    let kind = match a.provider {
        Some(k) => Some(k),
        // Only a provider someone chose: the built-in default would send every `show` to Daytona.
        None => match crate::settings::ProviderSettings::chosen(&ctx.config)? {
            (_, crate::config::Source::Default) => None,
            (k, _) => Some(k),
        },
    };
    let mut sandbox = None;
    if let Some(kind) = kind {
        let provider = ctx.provider(kind).await?;
        let target = verify::Target::Session(s.session_id.clone());
        match verify::locate(provider.as_ref(), &target).await {
            Ok(sb) => sandbox = sb,
            Err(e) => ctx
                .printer
                .warn(&format!("cannot find the session's sandbox: {e}")),
        }
    }
    let doc = ShowDoc {
        session: s,
        fleet: fleet_row,
        sandbox,
    };
    let s = &doc.session;
    ctx.printer.result(&doc, || {
        let mut out = format!(
            "session   {}\nstatus    {}\n",
            s.session_id,
            session_line(s)
        );
        if let Some(t) = &s.title {
            out.push_str(&format!("title     {t}\n"));
        }
        if let Some(u) = &s.url {
            out.push_str(&format!("url       {u}\n"));
        }
        match &doc.fleet {
            None => {
                out.push_str("fleet     not in the outpost queue (or DEVIN_OUTPOSTS_TOKEN unset)\n")
            }
            // An ended session's row stays `pending` in the queue; it is served by nobody.
            Some(f) if s.status.ended() || f.session_status == SessionStatus::Terminated => out
                .push_str(&format!(
                    "fleet     ended (session {}): no longer served\n",
                    f.session_status
                )),
            Some(f) => out.push_str(&format!(
                "fleet     phase {}, session {}, holder {}, claim deadline {}\n",
                f.phase,
                f.session_status,
                f.acceptor_id.as_deref().unwrap_or("none"),
                f.claim_deadline
                    .map(|d| crate::commands::queue::relative(d - crate::time::now()))
                    .unwrap_or_else(|| "none".into())
            )),
        }
        if let Some(sb) = &doc.sandbox {
            out.push_str(&format!("sandbox   {} ({})\n", sb.name, sb.state));
        }
        out
    });
    Ok(ExitStatus::Success)
}

/// `outposts session end --json`: the session as the server answers it, and whether it had
/// ended before.
#[derive(Debug, Serialize, JsonSchema)]
pub struct EndDoc {
    #[serde(flatten)]
    pub session: V3Session,
    /// It had already ended (`exit` or `error`) before this command; nothing was changed
    /// unless --archive was given.
    pub already_ended: bool,
}

pub async fn run_end(ctx: &Ctx, a: EndArgs) -> Result<ExitStatus> {
    let v3 = client(ctx, a.org.as_deref())?;
    // Read first (best effort: a key may lack ViewOrgSessions) to say "already ended".
    let before = v3.get_session(&a.id).await.ok();
    let already = before.as_ref().is_some_and(|b| b.status.ended());
    let s = match before {
        Some(b) if already && !a.archive => b,
        _ => match v3.end_session(&a.id, a.archive).await {
            Ok(s) => s,
            Err(e) => return Err(session_error(&v3, e).await),
        },
    };
    let doc = EndDoc {
        session: s,
        already_ended: already,
    };
    let s = &doc.session;
    ctx.printer.result(&doc, || {
        format!(
            "{} session {} ({}{})",
            if already { "already ended:" } else { "ended" },
            s.session_id,
            s.status,
            if a.archive { ", archived" } else { "" }
        )
    });
    Ok(ExitStatus::Success)
}
