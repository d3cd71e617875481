//! `outposts worker list`: every worker on every configured provider (or one), with health.

use anyhow::Result;
use schemars::JsonSchema;
use serde::Serialize;

use super::{ListArgs, age, candidates, workers};
use crate::commands::Ctx;
use crate::error::ExitStatus;
use crate::output::table::Table;
use crate::provider::{ProviderKind, SandboxState};
use crate::worker::WorkerView;

/// One row of `worker list --json`: the worker and its health.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ListRow {
    pub id: String,
    pub name: String,
    #[schemars(with = "String")]
    pub provider: ProviderKind,
    pub outpost: Option<String>,
    /// `main` or `exec`.
    #[schemars(with = "String")]
    pub mode: crate::worker::Mode,
    #[schemars(with = "String")]
    pub state: SandboxState,
    pub raw_state: String,
    pub restart_count: u32,
    pub created_at: Option<f64>,
    pub labels: std::collections::BTreeMap<String, String>,
    /// `healthy`, `restarting`, … or `unknown`.
    pub health: String,
}

impl From<&(WorkerView, String)> for ListRow {
    fn from((v, health): &(WorkerView, String)) -> Self {
        ListRow {
            id: v.id.clone(),
            name: v.name.clone(),
            provider: v.provider,
            outpost: v.outpost.clone(),
            mode: v.mode,
            state: v.state,
            raw_state: v.raw_state.clone(),
            restart_count: v.restart_count,
            created_at: v.created_at,
            labels: v.labels.clone(),
            health: health.clone(),
        }
    }
}

fn list_table(
    all: &[(WorkerView, String)],
    width: Option<usize>,
) -> crate::output::table::Rendered {
    if all.is_empty() {
        return Default::default();
    }
    // Name and outpost give way first on a narrow terminal; every field is in --json.
    let mut t = Table::new(&[
        "ID", "PROVIDER", "STATE", "HEALTH", "AGE", "NAME", "OUTPOST",
    ])
    .optional("NAME")
    .optional("OUTPOST");
    for (w, h) in all {
        t.row(vec![
            w.id.clone(),
            w.provider.to_string(),
            w.state.as_str().to_string(),
            h.clone(),
            age(w.created_at),
            w.name.clone(),
            w.outpost.as_deref().unwrap_or("-").to_string(),
        ]);
    }
    t.render(width)
}

/// The labels that mean `--outpost VALUE`: the outpost resolved once (name or id; unknown is an
/// error listing the outposts) gives its id — what `worker launch` labels with — and its name
/// (workers launched before it resolved). When the Devin API cannot be asked, the value as typed.
async fn outpost_labels(ctx: &Ctx, typed: &str) -> Result<Vec<String>> {
    let found = match ctx.devin() {
        Ok(devin) => match crate::commands::lookup_outpost(&devin, typed).await {
            Ok(o) => Some(o),
            Err(e) if e.downcast_ref::<crate::error::CliError>().is_some() => return Err(e),
            Err(e) => {
                ctx.printer.warn(&format!(
                    "cannot look up outpost {typed} ({e:#}); matching workers labelled {typed}"
                ));
                None
            }
        },
        Err(e) => {
            ctx.printer.warn(&format!(
                "cannot look up outpost {typed} ({e:#}); matching workers labelled {typed}"
            ));
            None
        }
    };
    let mut labels = vec![typed.to_string()];
    if let Some(o) = found {
        labels.push(o.outpost_id);
        labels.extend(o.name);
    }
    Ok(labels)
}

pub(super) async fn list(ctx: &Ctx, a: ListArgs) -> Result<ExitStatus> {
    // Without --provider, every configured provider: a worker is listed wherever it runs.
    let providers = if a.provider.provider.is_some() {
        vec![workers(ctx, &a.provider).await?]
    } else {
        candidates(ctx, None).await?
    };
    let outposts = match &a.outpost {
        Some(o) => Some(outpost_labels(ctx, o).await?),
        None => None,
    };
    let mut all: Vec<(WorkerView, String)> = Vec::new();
    let mut kinds = Vec::new();
    for w in &providers {
        kinds.push(w.kind().to_string());
        let views = match w.list(None).await {
            Ok(mut v) => {
                if let Some(wanted) = &outposts {
                    v.retain(|w| w.outpost.as_ref().is_some_and(|o| wanted.contains(o)));
                }
                v
            }
            Err(e) if a.provider.provider.is_none() => {
                ctx.printer
                    .warn(&format!("cannot list workers on {}: {e}", w.kind()));
                continue;
            }
            Err(e) => return Err(e.into()),
        };
        let health = futures::future::join_all(views.iter().map(|v| w.status(&v.id))).await;
        for (v, h) in views.into_iter().zip(health) {
            let h = h.map(|s| s.health()).unwrap_or_else(|_| "unknown".into());
            all.push((v, h));
        }
    }
    let doc: Vec<ListRow> = all.iter().map(ListRow::from).collect();
    let mut hidden = String::new();
    ctx.printer.result(&doc, || {
        let r = list_table(&all, ctx.printer.width());
        if !r.dropped.is_empty() {
            hidden = r.dropped.join(", ");
        }
        r.text
    });
    if !hidden.is_empty() {
        // The same selection, so the command runs as printed.
        let mut again = "outposts worker list --json".to_string();
        if let Some(p) = a.provider.provider {
            again.push_str(&format!(" --provider {p}"));
        }
        if let Some(o) = &a.outpost {
            again.push_str(&format!(" --outpost {}", crate::shell::posix_quote(o)));
        }
        ctx.printer.note(&format!(
            "{hidden} left out to fit the terminal; every field: {again}"
        ));
    }
    if all.is_empty() {
        ctx.printer.note(&format!(
            "no workers on {}{}",
            if kinds.is_empty() {
                "any configured provider".to_string()
            } else {
                kinds.join(", ")
            },
            a.outpost
                .map(|o| format!(" for outpost {o}"))
                .unwrap_or_default()
        ));
    }
    Ok(ExitStatus::Success)
}
