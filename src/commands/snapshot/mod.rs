//! `outposts snapshot build|name|dockerfile|list|delete|warm-pool`: the Daytona snapshot sandboxes boot from.

pub(crate) mod bake;
pub(crate) mod build;
pub(crate) mod warm_pool;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Subcommand;
use schemars::JsonSchema;
use serde::Serialize;

use super::Ctx;
use crate::api::daytona::DaytonaClient;
use crate::config::parse_duration;
use crate::env;
use crate::error::{CliError, ExitStatus};
use crate::provider::daytona::snapshot::{
    self as snap, DEFAULT_DOCKERFILE, Platform, WINDOWS_PROVISIONER,
};

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
pub(super) struct Following {
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
                r = build::build(ctx, a, &following) => r,
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
pub(super) fn definition(dockerfile: Option<&Path>, platform: Platform) -> Result<Vec<u8>> {
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
pub(super) fn resolve_name(
    ctx: &Ctx,
    flag: Option<&str>,
    derived: &str,
) -> Result<(String, &'static str)> {
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

pub(super) fn client(ctx: &Ctx) -> Result<DaytonaClient> {
    ctx.daytona()
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
