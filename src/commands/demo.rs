//! `outposts demo`: the whole job on the built-in emulator, narrated — one session claimed,
//! served in a local sandbox, put to sleep (sandbox stopped, disk kept), woken (the same
//! sandbox), terminated (sandbox deleted), and its proof file checked along the way.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use schemars::JsonSchema;
use serde::Serialize;
use tokio::sync::broadcast::Receiver;

use super::Ctx;
use crate::api::devin::DevinClient;
use crate::api::devin_v3::{CreateSession, DevinV3Client};
use crate::api::outpost_lookup::resolve_outpost;
use crate::emulator::client::EmulatorClient;
use crate::emulator::{Emulator, EmulatorOptions};
use crate::error::ExitStatus;
use crate::orchestrator::plan::Limits;
use crate::orchestrator::run::{OrchEvent, Orchestrator, RunOptions};
use crate::orchestrator::sandbox_name;
use crate::orchestrator::state::StateDir;
use crate::poll::{Backoff, Poll, poll_until};
use crate::provider::Provider;
use crate::provider::local::{LocalOptions, LocalProvider};
use crate::secrets::Secret;
use crate::settings::{DevinSettings, V3Settings};
use crate::verify;

const AFTER_HELP: &str = "\
Examples:
  outposts demo                  # a few seconds; isolated with bubblewrap when it is installed
  outposts demo --json           # NDJSON: one object per step, then a summary
  outposts demo --keep ./demo    # keep the emulator data and sandboxes for inspection

Everything runs on this machine: the emulator serves the Devin, Daytona and CoreWeave APIs on
a free loopback port, and the session's sandbox is a local bubblewrap sandbox. Without
bubblewrap the sandbox runs unisolated in a temporary directory, and the demo says so.
Scripting: --json prints NDJSON, one {step, at_seconds, message} per step, then
{summary: [...], ok: true, seconds}. A step that fails exits 1 with the error on stderr.";

#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// Keep the emulator's data and the sandboxes in this directory instead of a temporary one.
    #[arg(long, value_name = "DIR")]
    pub keep: Option<PathBuf>,
    /// Longest wait for each step.
    #[arg(long, default_value = "60s", value_parser = crate::config::parse_duration)]
    pub step_timeout: Duration,
}

/// Narration: one line (or one NDJSON object) per step.
struct Narrator<'a> {
    ctx: &'a Ctx,
    started: Instant,
    steps: Vec<DemoStep>,
}

/// One NDJSON line of `outposts demo --json` per step.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DemoStep {
    pub step: String,
    pub at_seconds: f64,
    pub message: String,
}

/// The last NDJSON line of `outposts demo --json` when every check passed.
#[derive(Debug, Serialize, JsonSchema)]
pub struct DemoSummary {
    pub summary: Vec<String>,
    pub ok: bool,
    pub seconds: f64,
}

impl Narrator<'_> {
    fn say(&mut self, step: &str, text: &str) {
        let at = self.started.elapsed().as_secs_f64();
        let doc = DemoStep {
            step: step.to_string(),
            at_seconds: (at * 10.0).round() / 10.0,
            message: text.to_string(),
        };
        if self.ctx.printer.json() {
            self.ctx.printer.json_doc(&doc);
        } else {
            self.ctx.printer.line(&format!("{at:>5.1}s  {text}"));
        }
        self.steps.push(doc);
    }
}

pub async fn run(ctx: &Ctx, args: Args) -> Result<ExitStatus> {
    let (root, _temp) = match &args.keep {
        Some(dir) => {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
            (dir.clone(), None)
        }
        None => {
            let t = tempfile::Builder::new()
                .prefix("outposts-demo-")
                .tempdir()?;
            (t.path().to_path_buf(), Some(t))
        }
    };
    let mut n = Narrator {
        ctx,
        started: Instant::now(),
        steps: Vec::new(),
    };
    // Without usable bubblewrap the demo still runs: its sandbox runs only the emulator's fake
    // remote, in a temporary directory, with paths kept relative to that directory.
    let unisolated = crate::provider::local::usable(None, false).await.err();
    if let Some(u) = &unisolated {
        tracing::info!("local isolation: {}", u.problem);
        n.say(
            "isolation",
            "bubblewrap is not usable here, so this demo's sandbox runs WITHOUT isolation in a \
             temporary directory (it runs only the emulator's fake remote); \
             `apt-get install -y bubblewrap` isolates it",
        );
    }
    let provider = Arc::new(LocalProvider::new(
        root.join("sandboxes"),
        LocalOptions {
            force_unisolated: unisolated.is_some(),
            ..LocalOptions::default()
        },
    )?);
    let emulator = Emulator::start(EmulatorOptions {
        data_dir: Some(root.join("emulator")),
        sweep_delay: Duration::from_secs(1),
        ..EmulatorOptions::default()
    })
    .await?;
    let paths = Paths::for_sandbox(unisolated.is_none());
    let result = scenario(
        ctx,
        &mut n,
        &emulator,
        provider.clone(),
        &root,
        &paths,
        args.step_timeout,
    )
    .await;
    emulator.stop().await;
    // Whatever happened, leave no sandbox process behind.
    provider.stop_all().await;
    match result {
        Ok(summary) => {
            print_summary(ctx, &summary, n.started, args.keep.as_deref());
            Ok(ExitStatus::Success)
        }
        Err(e) => Err(e.context("the demo stopped")),
    }
}

/// The closing lines: every check that passed (NDJSON: the summary line).
fn print_summary(ctx: &Ctx, summary: &[String], started: Instant, keep: Option<&std::path::Path>) {
    let secs = started.elapsed().as_secs_f64();
    if ctx.printer.json() {
        ctx.printer.json_doc(&DemoSummary {
            summary: summary.to_vec(),
            ok: true,
            seconds: secs,
        });
    } else {
        ctx.printer.line(&format!(
            "\nAll {} checks passed in {secs:.1}s:",
            summary.len()
        ));
        for s in summary {
            ctx.printer.line(&format!("  ✔ {s}"));
        }
        if let Some(dir) = keep {
            ctx.printer.line(&format!(
                "\nEmulator data and sandboxes kept in {}",
                dir.display()
            ));
        }
    }
}

/// Where the session works and writes its proof.
struct Paths {
    workdir: String,
    /// As the task names it to the remote.
    task_path: String,
    /// As the provider reads it back.
    read_path: String,
}

impl Paths {
    fn for_sandbox(isolated: bool) -> Paths {
        if !isolated {
            // Relative to the sandbox's home (mapped into the temporary directory): an absolute
            // path would be the host's own.
            Paths {
                workdir: "workspace".into(),
                task_path: "outpost-proof.txt".into(),
                read_path: "workspace/outpost-proof.txt".into(),
            }
        } else {
            Paths {
                workdir: RunOptions::new("", "", "").workdir,
                task_path: verify::DEFAULT_PATH.into(),
                read_path: verify::DEFAULT_PATH.into(),
            }
        }
    }
}

/// A small, quick orchestrator: two sessions at most, short intervals.
fn demo_options(
    outpost: String,
    acceptor: String,
    static_base: String,
    paths: &Paths,
    step: Duration,
) -> RunOptions {
    RunOptions {
        limits: Limits {
            cap: 2,
            reread_every: 0.5,
            ..Limits::default()
        },
        reconcile_interval: Duration::from_secs(2),
        janitor_interval: Duration::from_secs(30),
        ready_timeout: step,
        workdir: paths.workdir.clone(),
        ..RunOptions::new(outpost, acceptor, static_base)
    }
}

/// Who plays in the demo: the emulator's clients and a running orchestrator.
struct Cast {
    admin: EmulatorClient,
    v3: DevinV3Client,
    outpost_name: String,
    events: Receiver<OrchEvent>,
    stop_tx: tokio::sync::watch::Sender<bool>,
    runner: tokio::task::JoinHandle<Result<()>>,
}

async fn cast(
    ctx: &Ctx,
    n: &mut Narrator<'_>,
    emulator: &Emulator,
    provider: Arc<LocalProvider>,
    root: &std::path::Path,
    paths: &Paths,
    step: Duration,
) -> Result<Cast> {
    let info = emulator.info();
    let env = |k: &str| {
        info.env
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    n.say(
        "emulator",
        &format!(
            "emulator serving the Devin, Daytona and CoreWeave APIs at {}",
            info.base_url
        ),
    );
    let http = ctx.http()?;
    let admin = EmulatorClient::new(http.clone(), &info.base_url);
    let devin = DevinClient::new(
        DevinSettings::new(
            &env("DEVIN_API_URL"),
            Secret::new(env("DEVIN_OUTPOSTS_TOKEN")),
        ),
        http.clone(),
    );
    let outpost = env("OUTPOST_ID");
    // Sessions are created the way a user does: through Devin's v3 API, on the outpost's name.
    let v3 = DevinV3Client::new(
        V3Settings::new(
            &env("DEVIN_API_URL"),
            &env("DEVIN_ORG_ID"),
            Secret::new(env("DEVIN_API_KEY")),
        ),
        http.clone(),
    );
    let outpost_name = resolve_outpost(&devin, &outpost)
        .await?
        .name
        .context("the emulator's outpost has no name")?;
    let state = StateDir::open(&root.join("state"))?.outpost(&outpost)?;
    let acceptor = state.acceptor_id(None)?;
    let opts = demo_options(
        outpost.clone(),
        acceptor.clone(),
        env("DEVIN_WORKER_STATIC_BASE_URL"),
        paths,
        step,
    );
    let dyn_provider: Arc<dyn Provider> = provider.clone();
    let orch = Orchestrator::new(devin, dyn_provider, http, opts, state);
    let events = orch.subscribe();
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let runner = tokio::spawn(orch.clone().run(stop_rx));
    n.say(
        "orchestrator",
        &format!(
            "orchestrator started for outpost {outpost} (acceptor {acceptor}); sandboxes are local"
        ),
    );

    Ok(Cast {
        admin,
        v3,
        outpost_name,
        events,
        stop_tx,
        runner,
    })
}

async fn scenario(
    ctx: &Ctx,
    n: &mut Narrator<'_>,
    emulator: &Emulator,
    provider: Arc<LocalProvider>,
    root: &std::path::Path,
    paths: &Paths,
    step: Duration,
) -> Result<Vec<String>> {
    let Cast {
        admin,
        v3,
        outpost_name,
        mut events,
        stop_tx,
        runner,
    } = cast(ctx, n, emulator, provider.clone(), root, paths, step).await?;

    let result = async {
        let mut summary = Vec::new();
        let proof = verify::new_proof();
        let task = verify::task_text(&proof, &paths.task_path);
        let created = v3
            .create_session(&CreateSession {
                prompt: task.clone(),
                title: Some("outposts demo".into()),
                tags: vec!["outposts-demo".into()],
                platform: Some(outpost_name.clone()),
            })
            .await?;
        let session = created.session_id.clone();
        n.say("queued", &format!("session {session} created through Devin's v3 API on outpost {outpost_name} (status {}) with the task: {task}", created.status));

        wait_event(&mut events, step, "the claim", |e| matches!(e, OrchEvent::Claimed { session: s } if *s == session)).await?;
        n.say("claimed", &format!("claimed {session} (oldest first, under the cap)"));
        let sandbox = wait_event(&mut events, step, "the sandbox", |e| matches!(e, OrchEvent::SandboxCreated { session: s, .. } if *s == session))
            .await
            .map(|e| match e {
                OrchEvent::SandboxCreated { sandbox, .. } => sandbox,
                _ => String::new(),
            })?;
        n.say("sandbox", &format!("sandbox {} created (id {sandbox}), labelled with the session and outpost", sandbox_name(&session)));
        wait_event(&mut events, step, "the remote launch", |e| matches!(e, OrchEvent::RemoteLaunched { session: s, .. } if *s == session)).await?;
        n.say("remote", "devin-remote downloaded inside the sandbox, sha256 verified, launched detached with only its documented environment");
        summary.push("session claimed and served in its own sandbox".to_string());

        wait_task_done(&admin, &session, step).await?;
        check_file(provider.as_ref(), &sandbox, &paths.read_path, &proof).await?;
        n.say("task", &format!("remote connected, session running; the task wrote {} = \"{proof}\" in the sandbox", paths.task_path));
        summary.push("the task's file was read back from the very sandbox".to_string());

        admin.suspend(&session).await?;
        n.say("sleep", "Devin puts the session to sleep");
        wait_event(&mut events, step, "the sleep", |e| matches!(e, OrchEvent::SandboxStopped { session: s, .. } if *s == session)).await?;
        // The sandbox is finished before the claim is let go (no holder-less mutation).
        wait_event(&mut events, step, "the release", |e| matches!(e, OrchEvent::Released { session: s } if *s == session)).await?;
        let sb = provider.get(&sandbox).await?.context("the sandbox vanished on sleep")?;
        check_file(provider.as_ref(), &sandbox, &paths.read_path, &proof).await?;
        n.say("stopped", &format!("sandbox {} {}, its disk and file kept; claim released", sb.id, sb.state));
        summary.push("sleep stopped the sandbox and kept its disk".to_string());

        admin.resume(&session).await?;
        n.say("wake", "the user comes back: Devin resumes the session");
        wait_event(&mut events, step, "the wake", |e| matches!(e, OrchEvent::SandboxStarted { session: s, .. } if *s == session)).await?;
        wait_event(&mut events, step, "the new remote", |e| matches!(e, OrchEvent::RemoteLaunched { session: s, .. } if *s == session)).await?;
        check_file(provider.as_ref(), &sandbox, &paths.read_path, &proof).await?;
        n.say("woken", &format!("claimed again; the same sandbox {sandbox} started, a new remote launched, the file intact"));
        summary.push("wake started the same sandbox with the file intact".to_string());

        let ended = v3.end_session(&session, false).await?;
        n.say("terminate", &format!("the session is ended through Devin's v3 API (status {})", ended.status));
        wait_event(&mut events, step, "the delete", |e| matches!(e, OrchEvent::SandboxDeleted { session: s, .. } if *s == session)).await?;
        wait_event(&mut events, step, "the release", |e| matches!(e, OrchEvent::Released { session: s } if *s == session)).await?;
        if provider.get(&sandbox).await?.is_some() {
            bail!("sandbox {sandbox} still exists after terminate");
        }
        n.say("deleted", "sandbox deleted; claim released");
        summary.push("terminate deleted the sandbox".to_string());
        check_history(&admin, &session).await?;
        n.say("history", "emulator history: one claim and one release per session generation, never two holders");
        summary.push("one claim per session generation, each released".to_string());
        Ok::<_, anyhow::Error>(summary)
    }
    .await;
    let _ = stop_tx.send(true);
    let _ = tokio::time::timeout(Duration::from_secs(30), runner).await;
    result
}

/// The fake remote connected and finished its scripted task (writing the proof).
async fn wait_task_done(admin: &EmulatorClient, session: &str, step: Duration) -> Result<()> {
    let every = Backoff::fixed(Duration::from_millis(200));
    let waited = poll_until(Instant::now() + step, every, || async {
        let s = admin
            .session(session)
            .await?
            .context("the session vanished from the emulator")?;
        let finished = s
            .tasks
            .iter()
            .all(|t| t.status == "done" || t.status == "failed");
        if !(s.remote_connected && s.session_status == "running" && finished) {
            return Ok::<_, anyhow::Error>(Poll::Pending((s.remote_connected, s.session_status)));
        }
        if let Some(t) = s.tasks.iter().find(|t| t.status == "failed") {
            bail!(
                "the task failed in the sandbox: {}",
                t.detail.clone().unwrap_or_default()
            );
        }
        Ok(Poll::Ready(()))
    })
    .await?;
    waited.or_else(|seen| {
        let (connected, status) = seen.unwrap_or_default();
        anyhow::anyhow!(
            "the remote did not finish its task within {step:?} (connected: {connected}, status: {status})"
        )
    })
}

/// One claim and one release per session generation, never two holders.
async fn check_history(admin: &EmulatorClient, session: &str) -> Result<()> {
    let history = admin.history(Some(session)).await?;
    let claims: Vec<u32> = history
        .iter()
        .filter(|h| h.event == "claim")
        .map(|h| h.generation)
        .collect();
    let releases = history.iter().filter(|h| h.event == "release").count();
    let mut generations = claims.clone();
    generations.dedup();
    if claims.len() != 2 || generations.len() != 2 || releases != 2 {
        bail!(
            "the emulator's history shows {} claims over generations {generations:?} and {releases} releases; expected one claim and one release per generation",
            claims.len()
        );
    }
    Ok(())
}

async fn check_file(provider: &dyn Provider, sandbox: &str, path: &str, proof: &str) -> Result<()> {
    let bytes = provider
        .read_file(sandbox, path)
        .await?
        .with_context(|| format!("{path} is missing in sandbox {sandbox}"))?;
    match verify::compare(proof, &bytes) {
        verify::Comparison::Match { .. } => Ok(()),
        verify::Comparison::Mismatch { expected, found } => bail!(
            "{} holds {} instead of {}",
            path,
            verify::show(&found),
            verify::show(&expected)
        ),
    }
}

/// Wait for the first event that `want` accepts; fail on the orchestrator's own failure report.
async fn wait_event(
    events: &mut Receiver<OrchEvent>,
    timeout: Duration,
    what: &str,
    want: impl Fn(&OrchEvent) -> bool,
) -> Result<OrchEvent> {
    let deadline = tokio::time::Instant::now() + timeout;
    loop {
        let ev = match tokio::time::timeout_at(deadline, events.recv()).await {
            Err(_) => bail!("gave up waiting for {what} after {timeout:?}"),
            Ok(Err(tokio::sync::broadcast::error::RecvError::Lagged(_))) => continue,
            Ok(Err(_)) => bail!("the orchestrator stopped while waiting for {what}"),
            Ok(Ok(ev)) => ev,
        };
        if let OrchEvent::Failed { error, .. } = &ev {
            bail!("the orchestrator reported a failure while waiting for {what}: {error}");
        }
        if want(&ev) {
            return Ok(ev);
        }
    }
}
