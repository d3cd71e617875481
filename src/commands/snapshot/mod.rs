//! `outposts snapshot build|name|dockerfile|list|delete|warm-pool`: the Daytona snapshot sandboxes boot from.

pub(crate) mod bake;
pub(crate) mod warm_pool;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Subcommand;
use schemars::JsonSchema;
use serde::Serialize;

use super::Ctx;
use crate::api::ApiError;
use crate::api::daytona::{self as dapi, DaytonaClient};
use crate::api::daytona_types::{CreateBuildInfo, CreateSnapshot, Snapshot, SnapshotState};
use crate::config::parse_duration;
use crate::env;
use crate::error::{CliError, ExitStatus};
use crate::provider::daytona::client_from_config;
use crate::provider::daytona::snapshot::{
    self as snap, BuildEvent, BuildOutcome, DEFAULT_DOCKERFILE, FollowError, Platform,
    WINDOWS_PROVISIONER,
};
use crate::provider::daytona::windows_build::build_windows;

const AFTER_HELP: &str = "\
Examples:
  outposts snapshot build --write-env           # build (or reuse) and record SNAPSHOT_NAME in .env
  outposts snapshot name                        # the content-hashed name, no network
  outposts snapshot dockerfile > Dockerfile     # start a custom image from the default
  outposts snapshot build --dockerfile Dockerfile --cpu 4 --memory 16Gi
  outposts snapshot list --json
  outposts snapshot delete devin-outposts-default-1a2b3c4d --yes

Names: devin-outposts-default-<first 8 hex of sha256(Dockerfile)> (Windows:
devin-outposts-windows-<sha8(provisioner)>), so a changed image gets a new name and an unchanged
one is reused. --name or SNAPSHOT_NAME overrides the derived name; with an explicit --dockerfile
a SNAPSHOT_NAME that is not that file's name is an error (pass --name to build under it).";

const BUILD_HELP: &str = "\
Examples:
  outposts snapshot build                       # the embedded default image
  outposts snapshot build --dockerfile ./Dockerfile --cpu 4 --memory 16Gi --disk 20Gi
  outposts snapshot build --platform windows    # provisions a windows-medium sandbox
  outposts snapshot build --json --write-env    # CI: one JSON document on stdout
  outposts snapshot build --bake-remote --write-env   # latest devin-remote in the image
  outposts snapshot build --bake-remote --remote-sha 5eed0f1ce0

Scripting: stdout is `SNAPSHOT_NAME=<name>` (or JSON with --json), progress and the build log go
to stderr. An existing snapshot is reused without any create call (exit 0). A failed build exits
1 and prints the last log lines. Dockerfiles that COPY/ADD local files are refused (build-context
upload is not supported); bake such files into a base image or fetch them in a RUN step.

--bake-remote appends RUN steps that download the devin-remote Linux builds from
DEVIN_WORKER_STATIC_BASE_URL into /home/daytona/.devin/remote/cache and check them with
`sha256sum -c` against the checksums fetched now; the bake is part of the hashed name.";

#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    #[command(subcommand)]
    pub command: SnapshotCommand,
}

#[derive(Debug, Subcommand)]
pub enum SnapshotCommand {
    /// Build the snapshot on Daytona, or reuse it when it already exists.
    Build(BuildArgs),
    /// Print the snapshot name (SNAPSHOT_NAME, or derived from the image definition). No network.
    #[command(
        after_help = "Examples:\n  outposts snapshot name\n  outposts snapshot name --dockerfile ./Dockerfile\n  outposts snapshot name --platform windows --json\n\nScripting: stdout is the name alone; --json prints {name, source: --name|SNAPSHOT_NAME|derived,\nderived, platform}."
    )]
    Name(NameArgs),
    /// Print the embedded default Dockerfile (or, with --platform windows, the provisioner).
    #[command(
        after_help = "Examples:\n  outposts snapshot dockerfile > Dockerfile.default\n  outposts snapshot dockerfile --platform windows > provision_windows.ps1\n  outposts snapshot dockerfile --json | jq -r .name\n\nScripting: stdout is the file itself; --json prints {platform, name, content} (name is the\ncontent-hashed snapshot name of this definition)."
    )]
    Dockerfile(PlatformArgs),
    /// List the organization's snapshots.
    #[command(
        after_help = "Examples:\n  outposts snapshot list\n  outposts snapshot list --name devin-outposts --json\n\nScripting: --json prints the array of Daytona snapshot objects as the API returns them (id,\nname, state, cpu, mem, disk, createdAt, errorReason, …)."
    )]
    List(ListArgs),
    /// Delete a snapshot by name (asks first on a terminal; --yes otherwise).
    #[command(
        after_help = "Examples:\n  outposts snapshot delete devin-outposts-default-1a2b3c4d\n  outposts snapshot delete devin-outposts-default-1a2b3c4d --yes --json\n\nScripting: without a terminal --yes is required; --json prints {deleted, name, id}. An unknown\nname exits 2."
    )]
    Delete(DeleteArgs),
    /// Show, set or delete the Daytona warm pool of the snapshot in use.
    WarmPool(warm_pool::WarmPoolArgs),
}

#[derive(Debug, clap::Args)]
pub struct PlatformArgs {
    /// Which image: Linux (Dockerfile) or Windows (provisioner script).
    #[arg(long, value_enum, default_value_t = Platform::Linux)]
    pub platform: Platform,
}

#[derive(Debug, clap::Args)]
pub struct NameArgs {
    /// Dockerfile to hash instead of the embedded default (Linux only).
    #[arg(long, value_name = "FILE")]
    pub dockerfile: Option<PathBuf>,
    #[command(flatten)]
    pub platform: PlatformArgs,
    /// Use this name (wins over SNAPSHOT_NAME and the derived name).
    #[arg(long)]
    pub name: Option<String>,
}

#[derive(Debug, clap::Args)]
#[command(after_help = BUILD_HELP)]
pub struct BuildArgs {
    /// Dockerfile to build instead of the embedded default (Linux only).
    #[arg(long, value_name = "FILE")]
    pub dockerfile: Option<PathBuf>,
    /// Directory COPY/ADD sources would come from (default: the Dockerfile's directory). Local
    /// sources are refused: build-context upload is not supported.
    #[arg(long, value_name = "DIR")]
    pub context: Option<PathBuf>,
    #[command(flatten)]
    pub platform: PlatformArgs,
    /// vCPUs of sandboxes created from the snapshot.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..))]
    pub cpu: u32,
    /// Memory of sandboxes created from the snapshot, whole GiB (e.g. 16Gi, or 16).
    #[arg(long, value_name = "SIZE", default_value = "8Gi", value_parser = crate::units::parse_whole_gib)]
    pub memory: u32,
    /// Disk of sandboxes created from the snapshot, whole GiB (e.g. 20Gi, or 20).
    #[arg(long, value_name = "SIZE", default_value = "10Gi", value_parser = crate::units::parse_whole_gib)]
    pub disk: u32,
    /// Snapshot name (wins over SNAPSHOT_NAME and the derived name).
    #[arg(long)]
    pub name: Option<String>,
    /// Daytona region [default: DAYTONA_TARGET, else the organization's default].
    #[arg(long)]
    pub region: Option<String>,
    /// Record SNAPSHOT_NAME in the .env file (kept atomically; other lines untouched).
    #[arg(long)]
    pub write_env: bool,
    /// Give up following the build after this long (the build continues on Daytona).
    #[arg(long, value_parser = parse_duration, default_value = "1h")]
    pub timeout: Duration,
    /// Bake the published devin-remote Linux builds (latest, or --remote-sha) into the image's
    /// launch cache, verified by sha256 at build time: sessions on that build skip the download.
    #[arg(long)]
    pub bake_remote: bool,
    /// The devin-remote build (git sha) to bake [default: the distribution's latest].
    #[arg(long, value_name = "SHA", requires = "bake_remote", value_parser = bake::parse_remote_sha)]
    pub remote_sha: Option<String>,
}

#[derive(Debug, clap::Args)]
pub struct ListArgs {
    /// Only snapshots whose name contains this.
    #[arg(long)]
    pub name: Option<String>,
}

#[derive(Debug, clap::Args)]
pub struct DeleteArgs {
    /// Snapshot name (or id).
    pub name: String,
}

impl Args {
    /// `snapshot build` handles Ctrl-C itself (see [`interrupted`]).
    pub fn is_build(&self) -> bool {
        matches!(self.command, SnapshotCommand::Build(_))
    }
}

/// What a Ctrl-C leaves behind: the snapshot Daytona is building, and the spinner to clear.
#[derive(Default)]
struct Following {
    name: std::sync::Mutex<Option<String>>,
    progress: std::sync::Mutex<Option<crate::output::Progress>>,
}

impl Following {
    fn start(&self, name: &str, progress: &crate::output::Progress) {
        if let Ok(mut n) = self.name.lock() {
            *n = Some(name.to_string());
        }
        if let Ok(mut p) = self.progress.lock() {
            *p = Some(progress.clone());
        }
    }
}

/// Ctrl-C stops following, never the build: say so, and how to look at it.
fn interrupted(ctx: &Ctx, following: &Following) -> Result<ExitStatus> {
    if let Some(p) = following.progress.lock().ok().and_then(|mut p| p.take()) {
        p.finish(None);
    }
    match following.name.lock().ok().and_then(|n| n.clone()) {
        Some(name) => ctx.printer.warn(&format!(
            "stopped following; the build of snapshot {name} goes on on Daytona (Ctrl-C does \
             not cancel it). See its state: outposts snapshot list --name {name}"
        )),
        None => ctx
            .printer
            .warn("stopped before Daytona was following any build of ours"),
    }
    Err(CliError::Interrupted.into())
}

pub async fn run(ctx: &Ctx, args: Args) -> Result<ExitStatus> {
    match args.command {
        SnapshotCommand::Build(a) => {
            let following = Following::default();
            tokio::select! {
                r = build(ctx, a, &following) => r,
                _ = tokio::signal::ctrl_c() => interrupted(ctx, &following),
            }
        }
        SnapshotCommand::Name(a) => name_cmd(ctx, a),
        SnapshotCommand::Dockerfile(a) => {
            let bytes = definition_default(a.platform);
            if ctx.printer.json() {
                ctx.printer.json_doc(&DockerfileDoc {
                    platform: a.platform,
                    name: snap::derived_name(a.platform, bytes),
                    content: String::from_utf8_lossy(bytes).into_owned(),
                });
            } else {
                std::io::stdout()
                    .write_all(bytes)
                    .context("cannot write to stdout")?;
            }
            Ok(ExitStatus::Success)
        }
        SnapshotCommand::List(a) => list(ctx, a).await,
        SnapshotCommand::Delete(a) => delete(ctx, a).await,
        SnapshotCommand::WarmPool(a) => {
            let derived = snap::derived_name(Platform::Linux, definition_default(Platform::Linux));
            let (name, _) = resolve_name(ctx, a.snapshot.as_deref(), &derived)?;
            warm_pool::run(ctx, a, name).await
        }
    }
}

fn definition_default(platform: Platform) -> &'static [u8] {
    match platform {
        Platform::Linux => DEFAULT_DOCKERFILE,
        Platform::Windows => WINDOWS_PROVISIONER,
    }
}

/// The image definition bytes: the given Dockerfile or the embedded one.
fn definition(dockerfile: Option<&Path>, platform: Platform) -> Result<Vec<u8>> {
    match (dockerfile, platform) {
        (Some(_), Platform::Windows) => Err(CliError::usage(
            "--dockerfile applies to Linux snapshots only",
            Some(
                "Windows snapshots are provisioned by the embedded script; drop --dockerfile"
                    .to_string(),
            ),
        )
        .into()),
        (Some(path), Platform::Linux) => std::fs::read(path).map_err(|e| {
            CliError::usage(
                format!("cannot read the Dockerfile {}: {e}", path.display()),
                Some("pass an existing file to --dockerfile".to_string()),
            )
            .into()
        }),
        (None, p) => Ok(definition_default(p).to_vec()),
    }
}

/// `--name` > `SNAPSHOT_NAME` > derived, with where it came from.
fn resolve_name(ctx: &Ctx, flag: Option<&str>, derived: &str) -> Result<(String, &'static str)> {
    let (name, origin) = match (flag, ctx.config.get(&env::SNAPSHOT_NAME)) {
        (Some(n), _) => (n.to_string(), "--name"),
        (None, Some(r)) => (r.value, "SNAPSHOT_NAME"),
        (None, None) => (derived.to_string(), "derived"),
    };
    snap::check_name(&name).map_err(|e| {
        CliError::usage(e, Some("pick another --name or SNAPSHOT_NAME".to_string()))
    })?;
    Ok((name, origin))
}

/// `outposts snapshot name --json`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct NameDoc {
    pub name: String,
    /// `--name`, `SNAPSHOT_NAME` or `derived`.
    pub source: &'static str,
    /// The content-hashed name of the image definition.
    pub derived: String,
    #[schemars(with = "String")]
    pub platform: snap::Platform,
}

/// `outposts snapshot dockerfile --json`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct DockerfileDoc {
    #[schemars(with = "String")]
    pub platform: snap::Platform,
    pub name: String,
    pub content: String,
}

/// `outposts snapshot build --json`: the snapshot, found or built.
#[derive(Debug, Serialize, JsonSchema)]
pub struct BuildDoc {
    pub name: String,
    pub id: String,
    #[schemars(with = "String")]
    pub state: SnapshotState,
    /// Built now (false: it existed already).
    pub created: bool,
    #[schemars(with = "String")]
    pub platform: snap::Platform,
    /// Where SNAPSHOT_NAME was written (--write-env).
    pub env_file: Option<PathBuf>,
    pub baked_remote: Option<String>,
}

/// `outposts snapshot build --json` when the build failed (stdout; the error follows on stderr).
#[derive(Debug, Serialize, JsonSchema)]
pub struct BuildFailedDoc {
    pub name: String,
    pub state: String,
    pub error_reason: String,
    pub log_tail: Vec<String>,
}

/// `outposts snapshot delete --json`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct DeleteDoc {
    pub deleted: bool,
    pub name: String,
    pub id: String,
}

fn name_cmd(ctx: &Ctx, a: NameArgs) -> Result<ExitStatus> {
    let bytes = definition(a.dockerfile.as_deref(), a.platform.platform)?;
    let derived = snap::derived_name(a.platform.platform, &bytes);
    let (name, origin) = resolve_name(ctx, a.name.as_deref(), &derived)?;
    ctx.printer.result(
        &NameDoc {
            name: name.clone(),
            source: origin,
            derived: derived.clone(),
            platform: a.platform.platform,
        },
        || name.clone(),
    );
    Ok(ExitStatus::Success)
}

fn client(ctx: &Ctx) -> Result<DaytonaClient> {
    Ok(client_from_config(&ctx.config, ctx.http()?)?)
}

async fn build(ctx: &Ctx, a: BuildArgs, following: &Following) -> Result<ExitStatus> {
    let platform = a.platform.platform;
    let mut bytes = definition(a.dockerfile.as_deref(), platform)?;
    let baked = bake::bake(ctx, &a, &mut bytes).await?;
    if platform == Platform::Linux {
        let text = String::from_utf8(bytes.clone()).map_err(|_| {
            CliError::usage(
                "the Dockerfile is not UTF-8 text",
                Some("save it as UTF-8".to_string()),
            )
        })?;
        check_context(&text, a.dockerfile.as_deref(), a.context.as_deref())?;
    }
    let derived = snap::derived_name(platform, &bytes);
    let (name, origin) = resolve_name(ctx, a.name.as_deref(), &derived)?;
    if origin == "SNAPSHOT_NAME" && name != derived && (a.dockerfile.is_some() || baked.is_some()) {
        // Building the pin would reuse an image that is not this Dockerfile (or this bake): in
        // CI the job would pass with the old image.
        let file = match &a.dockerfile {
            Some(f) => crate::shell::posix_quote(&f.display().to_string()),
            None => "the baked default image".to_string(),
        };
        // The same build under its own name, runnable exactly as printed.
        let mut again = "outposts snapshot build".to_string();
        if a.dockerfile.is_some() {
            again.push_str(&format!(" --dockerfile {file}"));
        }
        if baked.is_some() {
            again.push_str(" --bake-remote");
        }
        if let Some(sha) = &a.remote_sha {
            again.push_str(&format!(" --remote-sha {sha}"));
        }
        return Err(CliError::usage(
            format!(
                "SNAPSHOT_NAME={name} is pinned, but {file} builds {derived}; building the pin \
                 would not build this Dockerfile"
            ),
            Some(format!(
                "build it under its own name and move the pin to it: {again} --name {derived} \
                 --write-env"
            )),
        )
        .into());
    }
    if origin == "SNAPSHOT_NAME" && name != derived {
        ctx.printer.warn(&format!(
            "SNAPSHOT_NAME={name} overrides the content-hashed name {derived}; unset it (or pass \
             --name {derived}) to build the current image definition"
        ));
    }
    let region = a
        .region
        .clone()
        .or_else(|| ctx.config.value(&env::DAYTONA_TARGET));
    let client = client(ctx)?;

    let existing = client.get_snapshot(&name).await?;
    let (outcome, created) = match existing {
        Some(s) if s.state() == SnapshotState::Active => {
            ctx.printer.note(&format!(
                "snapshot {name} already exists and is active; nothing to build"
            ));
            return finish(ctx, &a, &name, &s, false, baked.as_deref());
        }
        Some(s) if s.state() == SnapshotState::Inactive => {
            ctx.printer.note(&format!(
                "snapshot {name} exists but is inactive; activating it"
            ));
            let s = client.activate_snapshot(&s.id).await?;
            (follow(ctx, &client, s, a.timeout, following).await?, false)
        }
        Some(s) if s.state().is_failed() => {
            let reason = s
                .error_reason
                .clone()
                .unwrap_or_else(|| "no reason recorded".into());
            return Err(anyhow::anyhow!(
                "snapshot {name} exists but its build failed ({}): {reason}",
                s.state()
            )
            .context(format!(
                "delete it with `outposts snapshot delete {name}` and build again"
            )));
        }
        Some(s) => {
            ctx.printer.note(&format!(
                "snapshot {name} is already {}; following it",
                s.state()
            ));
            (follow(ctx, &client, s, a.timeout, following).await?, false)
        }
        None => match platform {
            Platform::Linux => {
                let body = CreateSnapshot {
                    name: name.clone(),
                    cpu: Some(a.cpu),
                    memory: Some(a.memory),
                    disk: Some(a.disk),
                    build_info: Some(CreateBuildInfo {
                        dockerfile_content: String::from_utf8_lossy(&bytes).into_owned(),
                        context_hashes: Vec::new(),
                    }),
                    region_id: region,
                    ..Default::default()
                };
                ctx.printer.note(&format!(
                    "creating snapshot {name} ({} vCPU, {} GiB memory, {} GiB disk)",
                    a.cpu, a.memory, a.disk
                ));
                let s = match client.create_snapshot(&body).await {
                    Ok(s) => s,
                    // Someone created it between our check and our create: follow theirs.
                    Err(ApiError::Conflict { .. }) => {
                        client.get_snapshot(&name).await?.ok_or_else(|| {
                            anyhow::anyhow!(
                                "snapshot {name} was reported to exist but cannot be read"
                            )
                        })?
                    }
                    Err(e) => return Err(quota_hint(e)),
                };
                (follow(ctx, &client, s, a.timeout, following).await?, true)
            }
            Platform::Windows => {
                let progress = ctx
                    .printer
                    .spinner(&format!("building Windows snapshot {name}"));
                let p2 = progress.clone();
                let result = build_windows(
                    &client,
                    &name,
                    &bytes,
                    region,
                    a.timeout,
                    |e| render_event(&progress, &e),
                    |m| p2.println(m),
                )
                .await;
                progress.finish(None);
                (result.map_err(follow_error)?, true)
            }
        },
    };
    if outcome.failed() {
        return report_failure(ctx, &name, &outcome);
    }
    let snapshot = outcome
        .snapshot
        .ok_or_else(|| anyhow::anyhow!("the build of {name} ended without a snapshot"))?;
    if created {
        ctx.printer.note(&format!("snapshot {name} is active"));
    }
    finish(ctx, &a, &name, &snapshot, created, baked.as_deref())
}

/// Refuse Dockerfiles that need a build-context upload, naming the line.
fn check_context(text: &str, dockerfile: Option<&Path>, context: Option<&Path>) -> Result<()> {
    let Some(first) = snap::local_sources(text).into_iter().next() else {
        return Ok(());
    };
    let file = dockerfile
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| "the Dockerfile".into());
    let dir = context
        .map(|p| p.display().to_string())
        .or_else(|| {
            dockerfile
                .and_then(|p| p.parent())
                .map(|p| p.display().to_string())
        })
        .unwrap_or_else(|| ".".into());
    Err(CliError::usage(
        format!(
            "{file} line {}: `{}` copies local files from {dir}, which needs a build-context \
             upload that `outposts snapshot build` does not support",
            first.line, first.instruction
        ),
        Some(
            "bake those files into a base image (or fetch them with RUN curl/git) and build from \
             that; COPY --from=<stage> and ADD <url> are fine"
                .to_string(),
        ),
    )
    .into())
}

fn quota_hint(e: ApiError) -> anyhow::Error {
    if dapi::is_quota(&e) {
        let hint = "lower --cpu/--memory/--disk, or free quota: fewer concurrent sandboxes \
                    (MAX_CONCURRENT_SESSIONS) or delete unused snapshots and sandboxes";
        return anyhow::Error::new(e).context(format!("Daytona quota reached; {hint}"));
    }
    e.into()
}

fn follow_error(e: FollowError) -> anyhow::Error {
    match e {
        FollowError::Api(api) => quota_hint(api),
        other => other.into(),
    }
}

fn render_event(progress: &crate::output::Progress, e: &BuildEvent) {
    match e {
        BuildEvent::State(s) => progress.set_message(&format!("snapshot state: {s}")),
        BuildEvent::Log(line) => progress.println(&format!("  | {line}")),
    }
}

async fn follow(
    ctx: &Ctx,
    client: &DaytonaClient,
    s: Snapshot,
    timeout: Duration,
    following: &Following,
) -> Result<BuildOutcome> {
    let progress = ctx
        .printer
        .spinner(&format!("building snapshot {}", s.name));
    following.start(&s.name, &progress);
    let result = snap::follow_build(client, s, timeout, |e| render_event(&progress, &e)).await;
    progress.finish(None);
    result.map_err(follow_error)
}

fn report_failure(ctx: &Ctx, name: &str, outcome: &BuildOutcome) -> Result<ExitStatus> {
    let reason = outcome.failure.clone().unwrap_or_default();
    let state = outcome
        .snapshot
        .as_ref()
        .map(|s| s.state().to_string())
        .unwrap_or_else(|| "build_failed".into());
    if ctx.printer.json() {
        ctx.printer.json_doc(&BuildFailedDoc {
            name: name.to_string(),
            state: state.clone(),
            error_reason: reason.clone(),
            log_tail: outcome.log_tail.clone(),
        });
    } else if !outcome.log_tail.is_empty() {
        eprintln!("last build log lines:");
        for line in &outcome.log_tail {
            eprintln!("  | {}", crate::secrets::redact(line));
        }
    }
    // main prints this (as JSON on stderr with --json) and exits 1.
    Err(CliError::failed(
        format!("the build of snapshot {name} failed ({state}): {reason}"),
        Some(format!(
            "fix the image definition and run `outposts snapshot build` again; delete the \
             failed snapshot first with `outposts snapshot delete {name}`"
        )),
    )
    .into())
}

fn finish(
    ctx: &Ctx,
    a: &BuildArgs,
    name: &str,
    s: &Snapshot,
    created: bool,
    baked_remote: Option<&str>,
) -> Result<ExitStatus> {
    let mut env_file = None;
    if a.write_env {
        let path = ctx
            .config
            .dotenv_path()
            .map(Path::to_path_buf)
            .or_else(|| ctx.global.env_file.clone())
            .unwrap_or_else(|| PathBuf::from(".env"));
        crate::secrets::dotenv::apply(
            &path,
            &crate::secrets::dotenv::EnvUpdate::new().set(env::SNAPSHOT_NAME.name, name),
        )?;
        ctx.printer
            .note(&format!("wrote SNAPSHOT_NAME to {}", path.display()));
        env_file = Some(path);
    }
    ctx.printer.result(
        &BuildDoc {
            name: name.to_string(),
            id: s.id.clone(),
            state: s.state(),
            created,
            platform: a.platform.platform,
            env_file,
            baked_remote: baked_remote.map(str::to_string),
        },
        || format!("SNAPSHOT_NAME={name}"),
    );
    Ok(ExitStatus::Success)
}

async fn list(ctx: &Ctx, a: ListArgs) -> Result<ExitStatus> {
    let client = client(ctx)?;
    let items = client.list_snapshots(a.name.as_deref()).await?;
    ctx.printer.result(&items, || {
        if items.is_empty() {
            return "no snapshots".into();
        }
        let width = items.iter().map(|s| s.name.len()).max().unwrap_or(4).max(4);
        let mut out = format!(
            "{:width$}  {:12}  {:>4}  {:>7}  {:>8}  CREATED\n",
            "NAME", "STATE", "CPU", "MEM GiB", "DISK GiB"
        );
        for s in &items {
            out.push_str(&format!(
                "{:width$}  {:12}  {:>4}  {:>7}  {:>8}  {}\n",
                s.name,
                s.state().as_str(),
                s.cpu.unwrap_or(0.0),
                s.mem.unwrap_or(0.0),
                s.disk.unwrap_or(0.0),
                s.created_at.as_deref().unwrap_or("-")
            ));
        }
        out
    });
    Ok(ExitStatus::Success)
}

async fn delete(ctx: &Ctx, a: DeleteArgs) -> Result<ExitStatus> {
    let client = client(ctx)?;
    // The API deletes by UUID only: resolve the name first, like the official SDK.
    let Some(s) = client.get_snapshot(&a.name).await? else {
        return Err(CliError::usage(
            format!("there is no snapshot named {}", a.name),
            Some("see `outposts snapshot list`".to_string()),
        )
        .into());
    };
    if !ctx.confirm(&format!("Delete Daytona snapshot {} ({})?", s.name, s.id))? {
        ctx.printer.note("nothing deleted");
        return Ok(ExitStatus::Failure);
    }
    client.delete_snapshot(&s.id).await?;
    ctx.printer.result(
        &DeleteDoc {
            deleted: true,
            name: s.name.clone(),
            id: s.id.clone(),
        },
        || format!("deleted snapshot {}", s.name),
    );
    Ok(ExitStatus::Success)
}
