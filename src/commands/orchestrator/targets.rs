//! The Daytona targets (regions) new sandboxes are placed on: `DAYTONA_TARGET`, then
//! `DAYTONA_TARGET_FALLBACK` in order. Each is scored and quarantined on its own
//! (`plan/placement.rs`); with no fallback the provider's own `DAYTONA_TARGET` is left as it is.

use anyhow::Result;

use crate::config::Config;
use crate::env;
use crate::error::CliError;
use crate::provider::ProviderKind;

/// The targets to place on, in order; empty when there is no fallback to go to (nothing to
/// choose: the provider sends `DAYTONA_TARGET` itself) or the provider is not Daytona.
pub(super) fn targets(config: &Config, kind: ProviderKind) -> Result<Vec<String>> {
    let fallback = config.list(&env::DAYTONA_TARGET_FALLBACK);
    if fallback.is_empty() || kind != ProviderKind::Daytona {
        return Ok(Vec::new());
    }
    let Some(primary) = config
        .value(&env::DAYTONA_TARGET)
        .filter(|t| !t.trim().is_empty())
    else {
        return Err(CliError::usage(
            "DAYTONA_TARGET_FALLBACK is set but DAYTONA_TARGET is not: the fallback targets stand in for DAYTONA_TARGET while it is quarantined",
            "set DAYTONA_TARGET to the target sandboxes go to first (e.g. DAYTONA_TARGET=us), or unset DAYTONA_TARGET_FALLBACK",
        )
        .into());
    };
    let mut all = vec![primary.trim().to_string()];
    for t in fallback {
        if !all.contains(&t) {
            all.push(t);
        }
    }
    Ok(all)
}
