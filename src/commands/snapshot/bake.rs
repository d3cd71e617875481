//! `snapshot build --bake-remote`: which devin-remote build goes into the image, appended to its
//! Dockerfile (the fragment itself is `orchestrator::remote::bake`).

use anyhow::{Context, Result};

use super::BuildArgs;
use super::Ctx;
use crate::env;
use crate::error::CliError;
use crate::orchestrator::remote::bake;
use crate::provider::daytona::snapshot::Platform;

/// `--remote-sha`: a git sha, as the distribution names builds.
pub fn parse_remote_sha(s: &str) -> Result<String, String> {
    if crate::orchestrator::remote::valid_sha(s) {
        Ok(s.to_ascii_lowercase())
    } else {
        Err("a devin-remote build is a git sha (7 to 64 hex digits)".into())
    }
}

/// Append the bake to `bytes` when asked; the baked build's sha.
pub async fn bake(ctx: &Ctx, a: &BuildArgs, bytes: &mut Vec<u8>) -> Result<Option<String>> {
    match (a.bake_remote, a.platform.platform) {
        (false, _) => Ok(None),
        (true, Platform::Windows) => Err(CliError::usage(
            "--bake-remote applies to Linux snapshots only",
            Some("drop --bake-remote for --platform windows".to_string()),
        )
        .into()),
        (true, Platform::Linux) => {
            let base = ctx
                .config
                .url(&env::DEVIN_WORKER_STATIC_BASE_URL)?
                .unwrap_or_default();
            let b = bake::resolve(ctx.http()?, &base, a.remote_sha.as_deref())
                .await
                .context("cannot resolve the devin-remote build to bake")?;
            ctx.printer.note(&format!(
                "baking devin-remote {} ({}) into the image",
                b.sha,
                b.sha256.keys().copied().collect::<Vec<_>>().join(", ")
            ));
            *bytes = bake::baked_dockerfile(bytes, &b);
            Ok(Some(b.sha))
        }
    }
}
