//! `outposts queue list|watch`.

use anyhow::Result;

use super::Ctx;
use crate::error::ExitStatus;

#[derive(Debug, clap::Args)]
pub struct Args {}

pub async fn run(_ctx: &Ctx, _args: Args) -> Result<ExitStatus> {
    Ok(ExitStatus::Success)
}
