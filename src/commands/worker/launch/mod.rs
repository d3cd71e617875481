//! `outposts worker launch`: create worker sandboxes and wait until each worker serves.

use std::collections::BTreeMap;
use std::time::Duration;

use anyhow::{Context, Result};
use schemars::JsonSchema;
use serde::Serialize;

mod readiness;

use self::readiness::{outcome, stop_failed, verdicts, wait_ready};
use super::{Ctx, ProviderArg, workers};
use crate::config::{Source as ConfigSource, parse_duration};
use crate::env;
use crate::error::{CliError, ExitStatus};
use crate::provider::{ProviderKind, Resources, SandboxInfo, SandboxState};
use crate::secrets::Secret;
use crate::worker::registry::Remembered;
use crate::worker::{self, Mode, Readiness, TokenSource, WorkerSpec, Workers};

pub const LAUNCH_HELP: &str = "\
Examples:
  outposts worker launch --provider coreweave --outpost my-outpost --count 2
  outposts worker launch --outpost my-outpost --secret wandb:DEVIN_TOKEN   # token in a store
  outposts worker launch --outpost gpu-outpost --gpu 1:H100 --memory 32Gi --tag team=ml
  outposts worker launch --provider local --outpost my-outpost --no-wait --json
  outposts worker launch --provider coreweave --outpost my-outpost --restore fss-1a2b…   # from `worker stop`

The outpost token comes from DEVIN_OUTPOSTS_TOKEN (environment, .env or `outposts connect`) and
reaches the worker in its environment, or from a provider secret store with --secret STORE:NAME
(mapped to DEVIN_OUTPOSTS_TOKEN); it is never printed and never on a command line.
The sandbox's main command installs git and CA certificates when the image lacks them, then
runs `devin worker start --outpost=NAME`. On Daytona (no main command) the worker runs detached
through an exec under a small restarting supervisor ($HOME/.outposts-worker/ in the sandbox).
Local sandboxes see the `devin` of OUTPOSTS_DEVIN_CLI_DIR at /opt/devin/bin. On CoreWeave the
worker's /workspace is a scratch volume that `worker stop` snapshots and --restore brings back.

Waits until each worker's log shows it reached the queue (spinner on a terminal, plain lines
otherwise), or reports the authentication or startup failure it saw; --no-wait returns at once.

Scripting: stdout has one sandbox id per line; --json prints {\"provider\", \"outpost\",
\"workers\": [{\"id\", \"name\", \"state\", \"readiness\"}]}. Exit 4 when a worker's token is
rejected, 1 when a worker fails to start or does not reach the queue in --wait-timeout; such
workers are stopped (so they do not restart in a loop). With the token in DEVIN_OUTPOSTS_TOKEN,
the token and the outpost are checked before anything is created.";

#[derive(Debug, clap::Args)]
pub struct LaunchArgs {
    /// Outpost (name or id) the workers serve [default: OUTPOST_ID].
    #[arg(long, value_name = "NAME")]
    pub outpost: Option<String>,
    #[command(flatten)]
    pub provider: ProviderArg,
    /// How many workers (one sandbox each).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub count: u32,
    /// Container image [default: public.ecr.aws/e0h8a4b6/devin-cli:stable].
    #[arg(long, value_name = "IMG")]
    pub image: Option<String>,
    /// CPU cores per worker (CoreWeave, Daytona).
    #[arg(long, default_value = "2", value_parser = worker::parse_cpu)]
    pub cpu: f64,
    /// Memory per worker, e.g. 4Gi or 512Mi (CoreWeave, Daytona).
    #[arg(long, default_value = "4Gi", value_parser = worker::parse_memory_gib)]
    pub memory: f64,
    /// GPUs per worker: COUNT or COUNT:TYPE (e.g. 1:H100).
    #[arg(long, value_name = "COUNT[:TYPE]", value_parser = worker::parse_gpu)]
    pub gpu: Option<(u32, Option<String>)>,
    /// Hard lifetime cap of each sandbox [default: 8h on CoreWeave; none elsewhere].
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub max_lifetime: Option<Duration>,
    /// Take the outpost token from this provider secret-store entry (mapped to
    /// DEVIN_OUTPOSTS_TOKEN) instead of DEVIN_OUTPOSTS_TOKEN.
    #[arg(long, value_name = "STORE:NAME", value_parser = worker::parse_secret_ref)]
    pub secret: Option<(String, String)>,
    /// Label the sandboxes: NAME or KEY=VALUE (repeatable).
    #[arg(long = "tag", value_name = "T", value_parser = worker::parse_tag)]
    pub tags: Vec<(String, String)>,
    /// Extra environment of the worker (repeatable; not for secrets).
    #[arg(long = "env", value_name = "KEY=VALUE", value_parser = worker::parse_env)]
    pub env: Vec<(String, String)>,
    /// Return once the sandboxes exist, without waiting for the workers.
    #[arg(long)]
    pub no_wait: bool,
    /// Longest wait for each worker to reach the queue (e.g. 90s, 3m; bare numbers are seconds).
    #[arg(long, value_name = "DURATION", default_value = "3m", value_parser = parse_duration)]
    pub wait_timeout: Duration,
    /// Start the worker's /workspace from this file-system snapshot (the one `worker stop`
    /// printed; CoreWeave only: elsewhere a stopped worker keeps its disk).
    #[arg(long, value_name = "SNAPSHOT")]
    pub restore: Option<String>,
}

/// The worker's environment from configuration: where Devin is, and the optional extras.
fn worker_env(ctx: &Ctx, extra: &[(String, String)]) -> Result<BTreeMap<String, Secret>> {
    let c = &ctx.config;
    let mut env = BTreeMap::new();
    env.insert(
        env::DEVIN_API_URL.name.to_string(),
        Secret::plain(c.devin_api_url()?),
    );
    // The CLI has its own default; pass the distribution only when it was set on purpose.
    if let Some(r) = c.get(&env::DEVIN_WORKER_STATIC_BASE_URL)
        && r.source != ConfigSource::Default
    {
        env.insert(r.var.name.to_string(), Secret::plain(r.value));
    }
    for var in [&env::DEVIN_OUTPOST_GATEWAY_URL, &env::DEVIN_CHROME_PATH] {
        if let Some(v) = c.value(var) {
            env.insert(var.name.to_string(), Secret::plain(v));
        }
    }
    for (k, v) in extra {
        env.insert(k.clone(), Secret::plain(v.clone()));
    }
    Ok(env)
}

/// `outposts worker launch --json`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct LaunchDoc {
    #[schemars(with = "String")]
    pub provider: ProviderKind,
    pub outpost: String,
    /// `main` or `exec`.
    #[schemars(with = "String")]
    pub mode: Mode,
    pub workers: Vec<LaunchedWorker>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct LaunchedWorker {
    pub id: String,
    pub name: String,
    #[schemars(with = "String")]
    pub state: SandboxState,
    pub raw_state: String,
    /// Null with --no-wait; else `{"result": "ready"|"auth_failed"|"failed"|"timeout", …}` as
    /// the worker's log showed it.
    #[schemars(with = "Option<serde_json::Value>")]
    pub readiness: Option<Readiness>,
}

pub async fn launch(ctx: &Ctx, a: LaunchArgs) -> Result<ExitStatus> {
    let mut config = ctx.config.clone();
    config.set_flag(&env::OUTPOST_ID, a.outpost.clone());
    let mut outpost = config
        .require(
            &env::OUTPOST_ID,
            "pass --outpost NAME (the outpost's name or id), or set OUTPOST_ID",
        )?
        .value;
    let token = token_source(ctx, &a)?;
    // Resolved once: the workers are started with (and labelled by) the outpost's id, whether
    // the user typed its name or its id; their sandboxes are named after its name.
    let mut outpost_name = None;
    if a.secret.is_none()
        && let Some(found) = check_token_and_outpost(ctx, &outpost).await?
    {
        outpost = found.outpost_id;
        outpost_name = found.name;
    }
    let workers = workers(ctx, &a.provider).await?;
    let kind = workers.kind();
    workers.preflight()?;
    let mut spec = worker_spec(ctx, &a, &outpost, token, kind)?;
    spec.outpost_name = outpost_name;
    let mode = Mode::for_provider(kind);
    // Nothing is created for a worker the provider cannot run.
    let source = crate::worker::sandbox_spec(&spec, "preflight", mode).source;
    workers
        .provider()
        .preflight(&source)
        .await
        .with_context(|| format!("the {kind} provider cannot run a worker sandbox"))?;
    ctx.printer.note(&format!(
        "launching {} worker{} for outpost {outpost} on {kind} ({})",
        a.count,
        if a.count == 1 { "" } else { "s" },
        match mode {
            Mode::Main => "main command",
            Mode::Exec => "detached via exec",
        }
    ));
    let (created, failure) = create_all(ctx, &workers, &spec, a.count).await;
    remember(ctx, kind, &outpost, &created);
    let readiness = if a.no_wait {
        vec![None; created.len()]
    } else {
        wait_ready(ctx, &workers, &created, a.wait_timeout).await
    };
    let verdicts = verdicts(ctx, &created, &readiness, a.wait_timeout);
    // A worker that cannot serve would restart (and bill) forever: stop it now.
    let cleanup = stop_failed(ctx, &workers, &verdicts.failed_ids).await;
    let doc = LaunchDoc {
        provider: kind,
        outpost: outpost.clone(),
        mode,
        workers: created
            .iter()
            .zip(&readiness)
            .map(|(i, r)| LaunchedWorker {
                id: i.id.clone(),
                name: i.name.clone(),
                state: i.state,
                raw_state: i.raw_state.clone(),
                readiness: r.clone(),
            })
            .collect(),
    };
    // stdout lists the workers that are up; one stopped for failing is no result, and its
    // failure (with its id) is on stderr.
    ctx.printer.result(&doc, || {
        created
            .iter()
            .filter(|i| !verdicts.failed_ids.contains(&i.id))
            .map(|i| format!("{}\n", i.id))
            .collect::<String>()
    });
    outcome(&a, failure, &created, &verdicts, &cleanup)
}

/// What every worker of this launch runs.
fn worker_spec(
    ctx: &Ctx,
    a: &LaunchArgs,
    outpost: &str,
    token: TokenSource,
    kind: ProviderKind,
) -> Result<WorkerSpec> {
    let spec = WorkerSpec {
        outpost: outpost.to_string(),
        image: a.image.clone(),
        resources: Resources {
            cpu: Some(a.cpu),
            memory_gib: Some(a.memory),
            disk_gib: None,
            gpu: a.gpu.as_ref().map(|g| g.0),
            gpu_type: a.gpu.as_ref().and_then(|g| g.1.clone()),
        },
        // CoreWeave always caps a sandbox's life; elsewhere only when asked to.
        max_lifetime: a
            .max_lifetime
            .or_else(|| (kind == ProviderKind::Coreweave).then(|| Duration::from_secs(8 * 3600))),
        token,
        env: worker_env(ctx, &a.env)?,
        tags: a.tags.iter().cloned().collect(),
        restore: a.restore.clone(),
        outpost_name: None,
    };
    if a.restore.is_some() && kind != ProviderKind::Coreweave {
        return Err(CliError::usage(
            format!(
                "--restore takes a CoreWeave file-system snapshot; the {kind} provider has none"
            ),
            Some(
                "on Daytona and locally a stopped worker keeps its disk: start a new worker, or \
                 pass --provider coreweave"
                    .to_string(),
            ),
        )
        .into());
    }
    Ok(spec)
}

/// Where the workers' outpost token comes from: a provider secret store, or ours.
fn token_source(ctx: &Ctx, a: &LaunchArgs) -> Result<TokenSource> {
    Ok(match &a.secret {
        Some((store, name)) => TokenSource::SecretStore {
            store: store.clone(),
            name: name.clone(),
        },
        None => TokenSource::Env(Secret::new(
            ctx.config
                .get(&env::DEVIN_OUTPOSTS_TOKEN)
                .ok_or_else(|| {
                    CliError::auth(
                        "DEVIN_OUTPOSTS_TOKEN is not set: the workers need the outpost token",
                        Some(
                            "run `outposts connect`, set DEVIN_OUTPOSTS_TOKEN, or pass --secret STORE:NAME to use a provider secret store"
                                .to_string(),
                        ),
                    )
                })?
                .value
                .trim(),
        )),
    })
}

/// Create `count` workers one by one; stop at the first failure (the ones made are kept).
async fn create_all(
    ctx: &Ctx,
    workers: &Workers,
    spec: &WorkerSpec,
    count: u32,
) -> (Vec<SandboxInfo>, Option<anyhow::Error>) {
    let mut created = Vec::new();
    let mut failure = None;
    for i in 0..count {
        let progress = ctx
            .printer
            .spinner(&format!("creating worker {}/{}", i + 1, count));
        match workers.launch_one(spec).await {
            Ok(info) => {
                progress.finish(Some(&format!("created {} ({})", info.name, info.id)));
                created.push(info);
            }
            Err(e) => {
                progress.finish(None);
                failure = Some(anyhow::Error::new(e).context(format!(
                    "creating worker {}/{} failed{}",
                    i + 1,
                    count,
                    if created.is_empty() {
                        String::new()
                    } else {
                        format!(
                            " ({} already created: {})",
                            created.len(),
                            created
                                .iter()
                                .map(|c| c.id.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        )
                    }
                )));
                break;
            }
        }
    }
    (created, failure)
}

/// Remembered at once, so `outposts worker … ID` finds them without --provider.
fn remember(ctx: &Ctx, kind: ProviderKind, outpost: &str, created: &[SandboxInfo]) {
    let remembered: Vec<(String, Remembered)> = created
        .iter()
        .map(|i| {
            (
                i.id.clone(),
                Remembered {
                    provider: kind.to_string(),
                    name: i.name.clone(),
                    outpost: outpost.to_string(),
                },
            )
        })
        .collect();
    if let Err(e) = super::registry(ctx).and_then(|r| r.remember(&remembered)) {
        ctx.printer.warn(&format!(
            "cannot remember the workers' provider ({e:#}); pass --provider {kind} to later worker commands"
        ));
    }
}

/// Before anything is created: the outpost must exist, and the token in DEVIN_OUTPOSTS_TOKEN
/// must be accepted (both are read through the one outpost lookup). The outpost found, or
/// `None` when it could not be asked: other failures to ask are only a warning (the workers' own
/// log will tell).
async fn check_token_and_outpost(
    ctx: &Ctx,
    outpost: &str,
) -> Result<Option<crate::api::devin::Outpost>> {
    use crate::api::outpost_lookup::OutpostLookupError;
    let devin = ctx.devin()?;
    match crate::commands::lookup_outpost(&devin, outpost).await {
        Ok(found) => Ok(Some(found)),
        Err(e) if e.downcast_ref::<CliError>().is_some() => Err(e.context("no worker was created")),
        Err(e) => {
            let rejected = e.chain().any(|c| {
                matches!(c.downcast_ref::<OutpostLookupError>(), Some(OutpostLookupError::Api(api)) if api.is_auth())
            });
            if rejected {
                return Err(CliError::auth(
                    format!(
                        "the Devin API rejects DEVIN_OUTPOSTS_TOKEN ({e:#}); no worker was created"
                    ),
                    Some(
                        "run `outposts connect` for a new token, or set DEVIN_OUTPOSTS_TOKEN"
                            .to_string(),
                    ),
                )
                .into());
            }
            ctx.printer.warn(&format!(
                "cannot check the outpost token and outpost {outpost} ({e:#}); launching anyway"
            ));
            Ok(None)
        }
    }
}
