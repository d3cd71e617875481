//! The shared HTTP client's knobs.

use crate::config::{Config, ConfigError};
use crate::env;

/// Timeouts and retries of the one HTTP client (the CoreWeave gRPC channel takes its connect
/// timeout and retries from here too). The type is the client's own options: nothing to convert.
pub type HttpSettings = crate::api::HttpOptions;

impl HttpSettings {
    /// The defaults, with the `OUTPOSTS_HTTP_*` / `OUTPOSTS_*_TIMEOUT` settings applied.
    pub fn resolve(config: &Config) -> Result<Self, ConfigError> {
        let mut opts = HttpSettings::default();
        if let Some(n) = config.positive(&env::OUTPOSTS_HTTP_ATTEMPTS)? {
            opts.retry.attempts = n;
        }
        if let Some(d) = config.duration(&env::OUTPOSTS_CONNECT_TIMEOUT)? {
            opts.connect_timeout = d;
        }
        if let Some(d) = config.duration(&env::OUTPOSTS_READ_TIMEOUT)? {
            opts.read_timeout = d;
        }
        if let Some(d) = config.duration(&env::OUTPOSTS_RETRY_AFTER_CAP)? {
            opts.retry.retry_after_cap = d;
        }
        Ok(opts)
    }
}
