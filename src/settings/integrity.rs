//! The sleep-integrity check's bounds (`INTEGRITY_*`), resolved for `orchestrator run`.

use crate::config::{Config, ConfigError};
use crate::env;
use crate::orchestrator::integrity::{Bounds, MIB};

/// `INTEGRITY_CHECK`, `INTEGRITY_MAX_FILES`, `INTEGRITY_HASH_MIB`, `INTEGRITY_TIMEOUT`; each
/// unset one keeps [`Bounds::default`] (`env.rs`'s defaults).
pub fn integrity_bounds(config: &Config) -> Result<Bounds, ConfigError> {
    let d = Bounds::default();
    Ok(Bounds {
        enabled: config
            .parse(&env::INTEGRITY_CHECK, |s| match s {
                "on" | "1" | "true" | "yes" => Ok(true),
                "off" | "0" | "false" | "no" => Ok(false),
                _ => Err(format!("`{s}` is neither `on` nor `off`")),
            })?
            .unwrap_or(d.enabled),
        max_files: config
            .positive(&env::INTEGRITY_MAX_FILES)?
            .map_or(d.max_files, u64::from),
        hash_bytes: config
            .positive(&env::INTEGRITY_HASH_MIB)?
            .map_or(d.hash_bytes, |m| u64::from(m) * MIB),
        time: config.duration(&env::INTEGRITY_TIMEOUT)?.unwrap_or(d.time),
    })
}
