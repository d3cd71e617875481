//! `outposts queue list|watch`: read the outpost's session queue.

use anyhow::Result;
use clap::{Subcommand, ValueEnum};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use super::Ctx;
use crate::api::devin::{DevinClient, ListQuery, Phase, QueueEntry, WatchEvent};
use crate::api::http::DEVIN;
use crate::api::sse::{GapReason, WatchItem};
use crate::env;
use crate::error::{CliError, ExitStatus};
use crate::output::table::{Rendered, Table};

const AFTER_HELP: &str = "\
Examples:
  outposts queue list                          # the outpost's queue as a table
  outposts queue list --phase pending --json   # one JSON array, for scripts
  outposts queue watch                         # changes from now on, until Ctrl-C
  outposts queue watch --json --limit 5        # NDJSON: the next 5 events, then exit 0

The outpost defaults to OUTPOST_ID; the token is DEVIN_OUTPOSTS_TOKEN (from `outposts connect`).
A missing or rejected token exits 4.";

#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    #[command(subcommand)]
    pub command: QueueCommand,
}

#[derive(Debug, Subcommand)]
pub enum QueueCommand {
    /// List every queued session of the outpost (all pages).
    #[command(after_help = LIST_HELP)]
    List(ListArgs),
    /// Follow queue changes as they happen (reconnects by itself; Ctrl-C to stop).
    #[command(after_help = WATCH_HELP)]
    Watch(WatchArgs),
}

const LIST_HELP: &str = "\
Examples:
  outposts queue list
  outposts queue list --phase claimed --acceptor devin-outposts-1f2e
  outposts queue list --json | jq -r '.[].metadata.session_id'

Scripting: --json prints one JSON array of entries ({metadata, spec, status}); connect tokens
are never printed. The count and page total go to stderr.";

const WATCH_HELP: &str = "\
Examples:
  outposts queue watch
  outposts queue watch --json --limit 1        # wait for the next change
  outposts queue watch --cursor \"$SAVED\"       # resume after a saved event cursor
  outposts queue watch --from-start --json     # replay the whole queue, then follow

Scripting: --json prints one JSON object per event: {\"type\", \"object\", \"cursor\"}. Save the
cursor of the last event you handled and pass it to --cursor to resume. Reconnects and gaps are
reported on stderr; after a gap, relist (`outposts queue list`) to catch up.";

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PhaseArg {
    Pending,
    Claimed,
}

#[derive(Debug, clap::Args)]
pub struct ListArgs {
    /// Only entries in this phase.
    #[arg(long, value_enum)]
    pub phase: Option<PhaseArg>,
    /// Only entries claimed by this acceptor id.
    #[arg(long, value_name = "ID")]
    pub acceptor: Option<String>,
    /// Outpost (name or id) whose queue to read [default: OUTPOST_ID; every outpost when unset].
    #[arg(long, value_name = "OUTPOST")]
    pub outpost: Option<String>,
}

#[derive(Debug, clap::Args)]
pub struct WatchArgs {
    /// Outpost (name or id) to watch [default: OUTPOST_ID; every outpost when unset].
    #[arg(long, value_name = "OUTPOST")]
    pub outpost: Option<String>,
    /// Resume after this cursor (from a previous event or `queue list`).
    #[arg(long, value_name = "CURSOR", conflicts_with = "from_start")]
    pub cursor: Option<String>,
    /// Replay the whole queue first instead of starting from now.
    #[arg(long)]
    pub from_start: bool,
    /// Exit 0 after this many events.
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,
}

pub async fn run(ctx: &Ctx, args: Args) -> Result<ExitStatus> {
    match args.command {
        QueueCommand::List(a) => list(ctx, a).await,
        QueueCommand::Watch(a) => watch(ctx, a).await,
    }
}

/// The outpost to read (flag, else OUTPOST_ID), resolved from a name or an id: an unknown one
/// is an error, never an empty queue.
async fn outpost(ctx: &Ctx, client: &DevinClient, flag: Option<String>) -> Result<Option<String>> {
    let Some(wanted) = flag
        .filter(|o| !o.trim().is_empty())
        .or_else(|| ctx.config.value(&env::OUTPOST_ID))
    else {
        return Ok(None);
    };
    match super::lookup_outpost(client, &wanted).await {
        Ok(o) => Ok(Some(o.outpost_id)),
        Err(e) if e.downcast_ref::<CliError>().is_some() => Err(e),
        // The outposts cannot be read (a token that may only read the queue): read it as given.
        Err(e) => {
            ctx.printer.warn(&format!(
                "cannot check that outpost {wanted} exists ({e:#}); reading its queue as given"
            ));
            Ok(Some(wanted))
        }
    }
}

async fn list(ctx: &Ctx, a: ListArgs) -> Result<ExitStatus> {
    let client = ctx.devin()?;
    let outpost = outpost(ctx, &client, a.outpost).await?;
    let q = ListQuery {
        outpost: outpost.clone(),
        phase: a.phase.map(|p| match p {
            PhaseArg::Pending => Phase::Pending,
            PhaseArg::Claimed => Phase::Claimed,
        }),
        acceptor_id: a.acceptor,
        page_size: None,
    };
    let listing = client.list(&q).await?;
    let entries = &listing.entries;
    let doc: Vec<QueueRow> = entries.iter().map(QueueRow::from).collect();
    let mut dropped = Vec::new();
    ctx.printer.result(&doc, || {
        let r = render_entries(entries, ctx.printer.width());
        dropped = r.dropped;
        r.text
    });
    if !dropped.is_empty() {
        ctx.printer.note(&format!(
            "{} left out to fit the terminal; every field: outposts queue list --json",
            dropped.join(", ")
        ));
    }
    let scope = match &outpost {
        Some(o) => format!("outpost {o}"),
        None => "every outpost (OUTPOST_ID is not set)".into(),
    };
    let pages = if listing.pages == 1 {
        "1 page".to_string()
    } else {
        format!("{} pages", listing.pages)
    };
    ctx.printer.note(&format!(
        "{} session{} on {scope} ({pages})",
        entries.len(),
        if entries.len() == 1 { "" } else { "s" }
    ));
    if listing.skipped > 0 {
        ctx.printer.warn(&format!(
            "skipped {} entr{} the server sent in a shape we cannot read",
            listing.skipped,
            if listing.skipped == 1 { "y" } else { "ies" }
        ));
    }
    Ok(ExitStatus::Success)
}

/// The table on a terminal fits its width (KIND, PLATFORM, ACCEPTOR, UPDATED give way, in that
/// order); in a pipe or a file every column of every row is printed whole.
fn render_entries(entries: &[QueueEntry], width: Option<usize>) -> Rendered {
    if entries.is_empty() {
        return Rendered::default();
    }
    let now = now_secs();
    let mut t = Table::new(&[
        "SESSION", "PHASE", "STATUS", "KIND", "PLATFORM", "ACCEPTOR", "DEADLINE", "UPDATED",
    ])
    .optional("KIND")
    .optional("PLATFORM")
    .optional("ACCEPTOR")
    .optional("UPDATED");
    for e in entries {
        t.row(vec![
            e.session_id.clone(),
            e.phase.to_string(),
            e.session_status.to_string(),
            e.kind.to_string(),
            e.platform.to_string(),
            e.acceptor_id.clone().unwrap_or_else(|| "-".into()),
            e.claim_deadline
                .map(|d| relative(d - now))
                .unwrap_or_else(|| "-".into()),
            e.updated_at
                .map(|u| relative(u - now))
                .unwrap_or_else(|| "-".into()),
        ]);
    }
    t.render(width)
}

/// One entry of `outposts queue list --json`, in the API's `metadata`/`spec`/`status` shape
/// (never with the connect token).
#[derive(Debug, Serialize, JsonSchema)]
pub struct QueueRow {
    pub metadata: QueueRowMetadata,
    pub spec: QueueRowSpec,
    pub status: QueueRowStatus,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct QueueRowMetadata {
    pub session_id: String,
    pub outpost_id: Option<String>,
    /// Unix seconds.
    #[schemars(with = "Option<f64>")]
    pub created_at: Value,
    /// Unix seconds.
    #[schemars(with = "Option<f64>")]
    pub updated_at: Value,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct QueueRowSpec {
    /// `new` or `resume`.
    #[schemars(with = "String")]
    pub kind: Value,
    /// `linux`, `windows` or `macos`.
    #[schemars(with = "String")]
    pub platform: Value,
    pub remote_binary_sha: Option<String>,
    /// The session's network policy as sent (`{"error": …}` when it could not be read).
    pub network_policy: Option<Value>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct QueueRowStatus {
    /// `pending` or `claimed`.
    #[schemars(with = "String")]
    pub phase: Value,
    pub acceptor_id: Option<String>,
    /// Unix seconds.
    #[schemars(with = "Option<f64>")]
    pub claim_deadline: Value,
    /// `pending`, `running`, `suspended` or `terminated`.
    #[schemars(with = "String")]
    pub session_status: Value,
    pub gateway_url: Option<String>,
}

impl From<&QueueEntry> for QueueRow {
    // Field by field from the one canonical shape, so the list and the watch never differ.
    fn from(e: &QueueEntry) -> Self {
        let v = e.to_json();
        let s = |section: &str, key: &str| v[section][key].as_str().map(str::to_string);
        QueueRow {
            metadata: QueueRowMetadata {
                session_id: e.session_id.clone(),
                outpost_id: s("metadata", "outpost_id"),
                created_at: v["metadata"]["created_at"].clone(),
                updated_at: v["metadata"]["updated_at"].clone(),
            },
            spec: QueueRowSpec {
                kind: v["spec"]["kind"].clone(),
                platform: v["spec"]["platform"].clone(),
                remote_binary_sha: s("spec", "remote_binary_sha"),
                network_policy: Some(v["spec"]["network_policy"].clone()).filter(|p| !p.is_null()),
            },
            status: QueueRowStatus {
                phase: v["status"]["phase"].clone(),
                acceptor_id: s("status", "acceptor_id"),
                claim_deadline: v["status"]["claim_deadline"].clone(),
                session_status: v["status"]["session_status"].clone(),
                gateway_url: s("status", "gateway_url"),
            },
        }
    }
}

pub(crate) use crate::time::now as now_secs;

/// `in 4m` / `12s ago`.
pub(crate) fn relative(delta: f64) -> String {
    let s = delta.abs().round() as u64;
    let text = if s < 120 {
        format!("{s}s")
    } else if s < 7200 {
        format!("{}m", s / 60)
    } else if s < 172_800 {
        format!("{}h", s / 3600)
    } else {
        format!("{}d", s / 86_400)
    };
    if delta >= 0.0 {
        format!("in {text}")
    } else {
        format!("{text} ago")
    }
}

/// A plain, left-aligned table (no colour, so it reads the same in a pipe and on a TTY).
pub(crate) fn table(headers: &[&str], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = headers.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (i, cell) in row.iter().enumerate() {
            if let Some(w) = widths.get_mut(i) {
                *w = (*w).max(cell.chars().count());
            }
        }
    }
    let line = |cells: Vec<&str>| {
        let mut out = String::new();
        for (i, c) in cells.iter().enumerate() {
            if i + 1 == cells.len() {
                out.push_str(c);
            } else {
                out.push_str(c);
                let pad = widths[i].saturating_sub(c.chars().count()) + 2;
                out.extend(std::iter::repeat_n(' ', pad));
            }
        }
        out.trim_end().to_string()
    };
    let mut out = line(headers.to_vec());
    out.push('\n');
    for row in rows {
        out.push_str(&line(row.iter().map(String::as_str).collect()));
        out.push('\n');
    }
    out
}

/// One NDJSON line of `outposts queue watch --json`: the watch event as the API sent it.
#[derive(Debug, Serialize, JsonSchema)]
pub struct WatchLine {
    /// `ADDED`, `MODIFIED` or `DELETED` (as sent).
    #[serde(rename = "type")]
    pub kind: String,
    /// The queue entry, in the API's `metadata`/`spec`/`status` shape.
    pub object: Option<Value>,
    pub cursor: Option<String>,
}

fn event_json(ev: &WatchEvent) -> WatchLine {
    WatchLine {
        kind: ev.kind_raw.clone(),
        object: ev.object.as_ref().map(QueueEntry::to_json),
        cursor: ev.cursor.clone(),
    }
}

fn event_line(ev: &WatchEvent) -> String {
    let kind = if ev.kind_raw.is_empty() {
        "?"
    } else {
        ev.kind_raw.as_str()
    };
    let body = match &ev.object {
        Some(e) => format!(
            "{}  {}/{}  kind={} platform={} acceptor={}",
            e.session_id,
            e.phase,
            e.session_status,
            e.kind,
            e.platform,
            e.acceptor_id.as_deref().unwrap_or("-")
        ),
        None => "(no object)".into(),
    };
    format!(
        "{kind:<8} {body}  cursor={}",
        ev.cursor.as_deref().unwrap_or("-")
    )
}

async fn watch(ctx: &Ctx, a: WatchArgs) -> Result<ExitStatus> {
    if a.limit == Some(0) {
        return Ok(ExitStatus::Success);
    }
    let client = ctx.devin()?;
    let outpost = outpost(ctx, &client, a.outpost).await?;
    let cursor = if let Some(c) = a.cursor {
        Some(c)
    } else if a.from_start {
        None
    } else {
        // "From now": the last page's cursor marks the present.
        let q = ListQuery {
            outpost: outpost.clone(),
            ..Default::default()
        };
        client.list(&q).await?.cursor
    };
    match &outpost {
        Some(o) => ctx.printer.note(&format!("watching the queue of {o}")),
        None => ctx
            .printer
            .note("watching every outpost's queue (OUTPOST_ID is not set)"),
    }
    let mut w = client.watch(outpost.as_deref(), cursor);
    let mut seen = 0u64;
    loop {
        match w.next().await {
            WatchItem::Event(ev) => {
                if ctx.printer.json() {
                    ctx.printer.json_doc(&event_json(&ev));
                } else {
                    ctx.printer.line(&event_line(&ev));
                }
                seen += 1;
                if a.limit.is_some_and(|l| seen >= l) {
                    return Ok(ExitStatus::Success);
                }
            }
            WatchItem::Gap(gap) => match gap.reason {
                GapReason::Unauthorized => {
                    return Err(
                        CliError::auth(gap.detail, crate::settings::advice::auth(DEVIN)).into(),
                    );
                }
                GapReason::NotAStream => {
                    return Err(anyhow::anyhow!(gap.detail).context(
                        "DEVIN_API_URL may point at a proxy or web page instead of the Devin API",
                    ));
                }
                _ => ctx.printer.note(&format!(
                    "{}; reconnecting in {:.1}s",
                    gap.detail,
                    gap.retry_in.as_secs_f64()
                )),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_align_and_relative_times_read_naturally() {
        let t = table(
            &["A", "LONGER"],
            &[vec!["xyz".into(), "1".into()], vec!["q".into(), "-".into()]],
        );
        assert_eq!(t, "A    LONGER\nxyz  1\nq    -\n");
        assert_eq!(relative(-12.2), "12s ago");
        assert_eq!(relative(240.0), "in 4m");
        assert_eq!(relative(-7300.0), "2h ago");
    }
}
