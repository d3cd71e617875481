//! `outposts orchestrator run`: look the outpost up, check the provider, start the reconcile
//! loop and report it (NDJSON with --json, a line per session event otherwise) until a signal.

use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::{Context, Result};
use schemars::JsonSchema;
use serde::Serialize;

use super::{RunArgs, narrator, outpost_id, run_options, switch};
use crate::api::devin::DevinClient;
use crate::commands::Ctx;
use crate::env;
use crate::error::{CliError, ExitStatus};
use crate::orchestrator::run::{Orchestrator, RunOptions};
use crate::orchestrator::state::StateDir;
use crate::provider::{self, ProviderKind};

/// The outpost to serve, looked up first: one that does not exist would be watched forever in
/// silence. A name is served under its id; when the outposts cannot be read at all, the value is
/// used as given (`None`) and the first listing shows what is wrong.
async fn served_outpost(
    ctx: &Ctx,
    devin: &DevinClient,
    wanted: &str,
) -> Result<Option<crate::api::devin::Outpost>> {
    match crate::commands::lookup_outpost(devin, wanted).await {
        Ok(o) => Ok(Some(o)),
        Err(e) if e.downcast_ref::<CliError>().is_some() => {
            Err(e.context("the orchestrator did not start; no session was claimed"))
        }
        Err(e) => {
            ctx.printer.warn(&format!(
                "cannot check that outpost {wanted} exists ({e:#}); serving it as given"
            ));
            Ok(None)
        }
    }
}

/// `outposts orchestrator run --json` prints NDJSON: `started`, one line per orchestrator event
/// (`OrchEvent`), `lagged` when the printer fell behind, `stopped`. These are its own lines.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum RunLine {
    Started {
        outpost_id: String,
        acceptor_id: String,
        #[schemars(with = "String")]
        provider: ProviderKind,
        state_dir: PathBuf,
        metrics_url: Option<String>,
        pid: u32,
    },
    Lagged {
        missed: u64,
    },
    Stopped {
        outpost_id: String,
    },
}

/// With --json: print `started`, then each orchestrator event as it comes.
fn forward_events(
    ctx: &Ctx,
    orch: &Orchestrator,
    started: RunLine,
) -> Option<tokio::task::JoinHandle<()>> {
    ctx.printer.json().then(|| {
        ctx.printer.json_doc(&started);
        let mut rx = orch.subscribe();
        let printer = ctx.printer.clone();
        tokio::spawn(async move {
            use tokio::sync::broadcast::error::RecvError;
            loop {
                match rx.recv().await {
                    Ok(ev) => printer.json_doc(&ev),
                    Err(RecvError::Lagged(n)) => printer.json_doc(&RunLine::Lagged { missed: n }),
                    Err(RecvError::Closed) => break,
                }
            }
        })
    })
}

/// The outpost served, by name and id, on stderr.
fn announce(ctx: &Ctx, name: Option<&str>, outpost: &str, kind: ProviderKind, acceptor: &str) {
    let shown = match name {
        Some(name) if name != outpost => format!("{name} ({outpost})"),
        _ => outpost.to_string(),
    };
    ctx.printer.note(&format!(
        "orchestrator for outpost {shown} on {kind} (acceptor {acceptor}); Ctrl-C to stop"
    ));
}

/// Let the last events out (the channel closes when the orchestrator is gone), then `stopped`.
async fn flush_events(ctx: &Ctx, task: tokio::task::JoinHandle<()>, outpost: &str) {
    let abort = task.abort_handle();
    if tokio::time::timeout(std::time::Duration::from_millis(500), task)
        .await
        .is_err()
    {
        abort.abort();
    }
    ctx.printer.json_doc(&RunLine::Stopped {
        outpost_id: outpost.to_string(),
    });
}

/// `--metrics-addr`: serve `/metrics`; its URL.
async fn serve_metrics(
    ctx: &Ctx,
    addr: Option<SocketAddr>,
    orch: &Orchestrator,
) -> Result<Option<String>> {
    let Some(addr) = addr else {
        return Ok(None);
    };
    let bound = crate::orchestrator::metrics::serve(addr, orch.metrics.clone()).await?;
    ctx.printer
        .note(&format!("metrics on http://{bound}/metrics"));
    Ok(Some(format!("http://{bound}/metrics")))
}

/// The provider must be able to run the outpost's sandboxes: the Windows source for a Windows
/// outpost, else the Linux one.
async fn preflight(
    provider: &dyn provider::Provider,
    platform: Option<crate::api::devin_types::Platform>,
    opts: &RunOptions,
    kind: ProviderKind,
) -> Result<()> {
    let source = match (platform, &opts.windows_source) {
        (Some(crate::api::devin_types::Platform::Windows), Some(w)) => w,
        _ => &opts.source,
    };
    provider.preflight(source).await.with_context(|| {
        format!("the {kind} provider cannot run a sandbox, so no session was claimed")
    })
}

pub(super) async fn run_cmd(ctx: &Ctx, a: RunArgs) -> Result<ExitStatus> {
    // Every setting is read and checked before the first request: a bad value exits 2 naming
    // its variable with nothing sent anywhere (the outpost and acceptor ids are filled in below).
    let kind = ctx.provider_kind(a.provider)?;
    let wanted = outpost_id(ctx, a.outpost.clone())?;
    let http = ctx.http()?;
    let devin = DevinClient::new(ctx.devin_settings()?, http.clone());
    let provider = provider::build(ctx.provider_settings(kind)?, http.clone()).await?;
    let site = switch::site(kind, &ctx.config)?;
    let state_root = ctx.config.state_dir()?;
    let configured_acceptor = ctx.config.value(&env::ACCEPTOR_ID);
    if let Some(id) = &configured_acceptor {
        crate::orchestrator::state::check_acceptor(id)?;
    }
    let mut opts = run_options(ctx, &a, kind, wanted.clone(), String::new())?;
    // An outpost that does not exist would be watched forever in silence. A name is served
    // under its id; when the outposts cannot be read at all, the value is used as given and the
    // first listing shows what is wrong.
    let found = served_outpost(ctx, &devin, &wanted).await?;
    let outpost = found
        .as_ref()
        .map_or_else(|| wanted.clone(), |o| o.outpost_id.clone());
    // Registered before anything can announce readiness: an early signal is a graceful stop.
    let mut signals = crate::commands::emulator::Signals::new()?;
    let state_dir = StateDir::open(&state_root)?;
    let _lock = state_dir.lock()?;
    let outpost_state = state_dir.outpost(&outpost)?;
    // We hold the lock: temp files here are leftovers of a crash mid-write.
    match outpost_state.sweep_temp_files() {
        0 => {}
        n => tracing::info!("removed {n} temp file(s) left by an interrupted state write"),
    }
    let acceptor = outpost_state.acceptor_id(configured_acceptor.as_deref())?;
    opts.outpost_id = outpost.clone();
    opts.acceptor_id = acceptor.clone();
    // Before the first claim: a session claimed for a sandbox that cannot exist would only be
    // released again. The outpost's platform picks the source its sessions boot from (when the
    // outpost cannot be read, the Linux one; that failure shows at the first list anyway).
    let platform = found.as_ref().and_then(|o| o.platform);
    preflight(provider.as_ref(), platform, &opts, kind).await?;
    // A fallback that cannot be used would only show when it is needed: say so now.
    for f in &opts.snapshot_fallback {
        let source = provider::Source::Snapshot(f.clone());
        if let Err(e) = provider.preflight(&source).await {
            ctx.printer
                .warn(&format!("SNAPSHOT_FALLBACK {f} cannot be used: {e:#}"));
        }
    }
    // Before reattaching: sessions this state dir holds on another provider (or endpoint) are
    // refused or handed over, never served a second time.
    switch::Switch {
        ctx,
        args: &a,
        current: site,
        provider: provider.as_ref(),
        devin: &devin,
        http: &http,
        outpost: &outpost,
        acceptor: &acceptor,
        state: &outpost_state,
    }
    .settle()
    .await?;
    let orch = Orchestrator::new(devin, provider, http, opts, outpost_state);
    // Every API exchange of this process is timed into the orchestrator's metrics.
    crate::api::telemetry::set_observer(orch.metrics.clone());
    let metrics_url = serve_metrics(ctx, a.metrics_addr, &orch).await?;
    let name = found.as_ref().and_then(|o| o.name.as_deref());
    announce(ctx, name, &outpost, kind, &acceptor);
    // --json: NDJSON on stdout — `started`, one line per orchestrator event, `stopped`.
    let started = RunLine::Started {
        outpost_id: outpost.clone(),
        acceptor_id: acceptor.clone(),
        provider: kind,
        state_dir: state_dir.root().to_path_buf(),
        metrics_url: metrics_url.clone(),
        pid: std::process::id(),
    };
    let events = forward_events(ctx, &orch, started);
    // Without --json: one readable line per session event on stderr (with -v the log lines say
    // the same; -q silences; JSON logs stay JSON).
    let narrate = !ctx.printer.json() && !ctx.printer.quiet() && ctx.printer.verbose() == 0;
    let _narrator = (narrate && ctx.global.log_format == crate::cli::LogFormat::Text)
        .then(|| narrator(orch.subscribe(), ctx.printer.clone()));
    let (tx, rx) = tokio::sync::watch::channel(false);
    let run = orch.run(rx);
    tokio::pin!(run);
    let mut stopped_by = None;
    loop {
        tokio::select! {
            r = &mut run => { r?; break; }
            signal = signals.recv() => {
                if stopped_by.is_some() {
                    // A second signal: exit now (in-flight work is abandoned, nothing persisted
                    // is lost — state files are written atomically).
                    return Err(CliError::Interrupted.into());
                }
                ctx.printer.note("stopping: no new claims; sandboxes and remotes keep running (send the signal again to exit now)");
                stopped_by = Some(signal);
                let _ = tx.send(true);
            }
        }
    }
    if let Some(task) = events {
        flush_events(ctx, task, &outpost).await;
    }
    ctx.printer.note("orchestrator stopped");
    Ok(stopped_by.map_or(ExitStatus::Success, |s| s.exit_status()))
}
