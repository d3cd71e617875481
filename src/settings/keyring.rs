//! Which store `connect --store keyring`, `auth` and the token lookup use.

use std::path::PathBuf;

use crate::config::Config;
use crate::env;
use crate::secrets::keyring::truthy;

/// The keyring the settings choose ([`crate::secrets::keyring::Keyring::from_settings`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyringSettings {
    /// The platform's store.
    Native,
    /// No store (`OUTPOSTS_NO_KEYRING`): every call answers with this reason.
    Disabled(String),
    /// A file standing in for the store (`OUTPOSTS_TEST_KEYRING`, debug builds only).
    File(PathBuf),
}

impl KeyringSettings {
    /// Native unless `OUTPOSTS_NO_KEYRING` is set; in debug builds, `OUTPOSTS_TEST_KEYRING`
    /// selects the file stand-in.
    pub fn resolve(config: &Config) -> Self {
        match config.get(&env::OUTPOSTS_NO_KEYRING) {
            Some(r) if truthy(&r.value) => {
                KeyringSettings::Disabled(format!("OUTPOSTS_NO_KEYRING is set in {}", r.source))
            }
            _ => match config.get(&env::OUTPOSTS_TEST_KEYRING) {
                // Release builds never swap the user's keyring for a file.
                Some(r) if cfg!(debug_assertions) => KeyringSettings::File(PathBuf::from(r.value)),
                _ => KeyringSettings::Native,
            },
        }
    }
}
