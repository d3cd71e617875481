//! `outposts snapshot build`: find the content-hashed snapshot, else create it (Linux: from the
//! Dockerfile; Windows: provisioned) and follow the build to `active`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Result;
use schemars::JsonSchema;
use serde::Serialize;

use super::{BuildArgs, Following, bake, client, definition, resolve_name};
use crate::api::ApiError;
use crate::api::daytona::{self as dapi, DaytonaClient};
use crate::api::daytona_types::{CreateBuildInfo, CreateSnapshot, Snapshot, SnapshotState};
use crate::commands::Ctx;
use crate::env;
use crate::error::{CliError, ExitStatus};
use crate::provider::daytona::snapshot::{
    self as snap, BuildEvent, BuildOutcome, FollowError, Platform,
};
use crate::provider::daytona::windows_build::build_windows;

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

pub(super) async fn build(ctx: &Ctx, a: BuildArgs, following: &Following) -> Result<ExitStatus> {
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
    check_pin(ctx, &a, &name, origin, &derived, baked.is_some())?;
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
            Platform::Linux => (
                create_linux(ctx, &client, &a, &name, &bytes, region, following).await?,
                true,
            ),
            Platform::Windows => (
                windows(ctx, &client, &name, &bytes, region, a.timeout).await?,
                true,
            ),
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

/// A pinned SNAPSHOT_NAME that is not this image definition's name: refuse to build the pin
/// for a Dockerfile (or a bake) it is not, warn otherwise.
fn check_pin(
    ctx: &Ctx,
    a: &BuildArgs,
    name: &str,
    origin: &str,
    derived: &str,
    baked: bool,
) -> Result<()> {
    if origin == "SNAPSHOT_NAME" && name != derived && (a.dockerfile.is_some() || baked) {
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
        if baked {
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
    Ok(())
}

/// Create the Linux snapshot from the Dockerfile and follow its build.
async fn create_linux(
    ctx: &Ctx,
    client: &DaytonaClient,
    a: &BuildArgs,
    name: &str,
    bytes: &[u8],
    region: Option<String>,
    following: &Following,
) -> Result<BuildOutcome> {
    let body = CreateSnapshot {
        name: name.to_string(),
        cpu: Some(a.cpu),
        memory: Some(a.memory),
        disk: Some(a.disk),
        build_info: Some(CreateBuildInfo {
            dockerfile_content: String::from_utf8_lossy(bytes).into_owned(),
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
        Err(ApiError::Conflict { .. }) => client.get_snapshot(name).await?.ok_or_else(|| {
            anyhow::anyhow!("snapshot {name} was reported to exist but cannot be read")
        })?,
        Err(e) => return Err(quota_hint(e)),
    };
    follow(ctx, client, s, a.timeout, following).await
}

/// Provision the Windows snapshot (Daytona cannot build one from a Dockerfile).
async fn windows(
    ctx: &Ctx,
    client: &DaytonaClient,
    name: &str,
    bytes: &[u8],
    region: Option<String>,
    timeout: Duration,
) -> Result<BuildOutcome> {
    let progress = ctx
        .printer
        .spinner(&format!("building Windows snapshot {name}"));
    let p2 = progress.clone();
    let result = build_windows(
        client,
        name,
        bytes,
        region,
        timeout,
        |e| render_event(&progress, &e),
        |m| p2.println(m),
    )
    .await;
    progress.finish(None);
    result.map_err(follow_error)
}
