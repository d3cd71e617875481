//! The OS keyring (Keychain, Windows Credential Manager, Secret Service), bounded and optional.
//!
//! - Every call runs on its own thread and is abandoned after a timeout (3 s by default):
//!   Secret Service can block on an unlock prompt or a missing D-Bus forever.
//! - `OUTPOSTS_NO_KEYRING=1` turns every call into "disabled" without touching the store, so
//!   tests and CI never read or write a real keyring. Unit tests of this crate never use the
//!   native store either.
//! - Only the Devin credentials in [`STORED`] (`DEVIN_OUTPOSTS_TOKEN`, `DEVIN_API_KEY`) are kept
//!   here, one entry per variable and Devin API URL ([`account`]), so an emulator token never
//!   shadows the real one.
//! - Debug builds honour `OUTPOSTS_TEST_KEYRING`: a 0600 JSON file that stands in for the OS
//!   store, so integration tests exercise the keyring path end to end across processes.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use crate::env::{self, EnvVar};
use crate::secrets::Secret;
use crate::settings::KeyringSettings;

/// Service name of every entry we create.
pub const SERVICE: &str = "outposts";
/// How long one keyring call may take before we give up on it.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(3);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeyringError {
    #[error("the OS keyring is turned off ({0})")]
    Disabled(String),
    #[error("no OS keyring is available: {0}")]
    Unavailable(String),
    #[error("the OS keyring did not answer within {0} s (locked, or waiting for an unlock prompt)")]
    Timeout(u64),
    #[error("the OS keyring failed: {0}")]
    Failed(String),
}

#[derive(Clone)]
enum Backend {
    Disabled(String),
    Native,
    Store(Arc<keyring_core::CredentialStore>),
    /// The test stand-in (`OUTPOSTS_TEST_KEYRING`, debug builds only).
    File(PathBuf),
}

/// A handle on the keyring. Cheap to clone.
#[derive(Clone)]
pub struct Keyring {
    backend: Backend,
    timeout: Duration,
}

impl std::fmt::Debug for Keyring {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let backend = match &self.backend {
            Backend::Disabled(_) => "disabled",
            Backend::Native => "native",
            Backend::Store(_) => "store",
            Backend::File(_) => "file",
        };
        f.debug_struct("Keyring")
            .field("backend", &backend)
            .finish()
    }
}

/// The variables the keyring may hold, in the order `auth status` and `auth logout` show them.
pub const STORED: [&EnvVar; 2] = [&env::DEVIN_OUTPOSTS_TOKEN, &env::DEVIN_API_KEY];

/// The keyring account of `var` for one API URL.
pub fn account(var: &EnvVar, api_url: &str) -> String {
    format!("{}@{}", var.name, api_url.trim_end_matches('/'))
}

/// The keyring account of the outpost token for one API URL.
pub fn token_account(api_url: &str) -> String {
    account(&env::DEVIN_OUTPOSTS_TOKEN, api_url)
}

/// `1`, `true`, `yes`, `on` (any case).
pub fn truthy(value: &str) -> bool {
    matches!(
        value.trim().to_ascii_lowercase().as_str(),
        "1" | "true" | "yes" | "on"
    )
}

impl Keyring {
    /// The platform's store.
    pub fn native() -> Self {
        Keyring {
            backend: Backend::Native,
            timeout: DEFAULT_TIMEOUT,
        }
    }

    /// A keyring that answers every call with [`KeyringError::Disabled`].
    pub fn disabled(why: impl Into<String>) -> Self {
        Keyring {
            backend: Backend::Disabled(why.into()),
            timeout: DEFAULT_TIMEOUT,
        }
    }

    /// A specific credential store (tests use `keyring_core::mock::Store`).
    pub fn with_store(store: Arc<keyring_core::CredentialStore>) -> Self {
        Keyring {
            backend: Backend::Store(store),
            timeout: DEFAULT_TIMEOUT,
        }
    }

    /// The keyring the settings chose ([`KeyringSettings::resolve`]); none in unit tests.
    pub fn from_settings(settings: KeyringSettings) -> Self {
        if cfg!(test) {
            return Self::disabled("unit tests never touch the OS keyring");
        }
        match settings {
            KeyringSettings::Disabled(why) => Self::disabled(why),
            KeyringSettings::File(path) => Keyring {
                backend: Backend::File(path),
                timeout: DEFAULT_TIMEOUT,
            },
            KeyringSettings::Native => Self::native(),
        }
    }

    pub fn timeout(mut self, t: Duration) -> Self {
        self.timeout = t;
        self
    }

    pub fn is_disabled(&self) -> bool {
        matches!(self.backend, Backend::Disabled(_))
    }

    /// Whether a store can be opened at all (no entry is read).
    pub fn probe(&self) -> Result<(), KeyringError> {
        self.bounded(|backend| match backend {
            Backend::Native => match ::keyring::Entry::store_status() {
                Ok(()) => Ok(()),
                Err(e) => Err(map_error(e)),
            },
            _ => Ok(()),
        })
    }

    /// The stored value; `None` when there is no entry.
    pub fn get(&self, account: &str) -> Result<Option<Secret>, KeyringError> {
        let account = account.to_string();
        self.bounded(move |backend| match backend {
            Backend::File(path) => Ok(file_read(path)?.remove(&account).map(Secret::new)),
            _ => match entry(backend, &account)?.get_password() {
                Ok(v) => Ok(Some(Secret::new(v))),
                Err(keyring_core::Error::NoEntry) => Ok(None),
                Err(e) => Err(map_error(&e)),
            },
        })
    }

    /// Store `value` (replacing an existing entry).
    pub fn set(&self, account: &str, value: &Secret) -> Result<(), KeyringError> {
        let account = account.to_string();
        let value = value.clone();
        self.bounded(move |backend| match backend {
            Backend::File(path) => {
                let mut all = file_read(path)?;
                all.insert(account, value.expose().to_string());
                file_write(path, &all)
            }
            _ => entry(backend, &account)?
                .set_password(value.expose())
                .map_err(|e| map_error(&e)),
        })
    }

    /// Delete the entry; `false` when there was none.
    pub fn delete(&self, account: &str) -> Result<bool, KeyringError> {
        let account = account.to_string();
        self.bounded(move |backend| match backend {
            Backend::File(path) => {
                let mut all = file_read(path)?;
                let found = all.remove(&account).is_some();
                if found {
                    file_write(path, &all)?;
                }
                Ok(found)
            }
            _ => match entry(backend, &account)?.delete_credential() {
                Ok(()) => Ok(true),
                Err(keyring_core::Error::NoEntry) => Ok(false),
                Err(e) => Err(map_error(&e)),
            },
        })
    }

    /// [`Keyring::get`] off the async runtime's worker threads.
    pub async fn get_async(&self, account: &str) -> Result<Option<Secret>, KeyringError> {
        let (me, account) = (self.clone(), account.to_string());
        join(tokio::task::spawn_blocking(move || me.get(&account)).await)
    }

    /// [`Keyring::set`] off the async runtime's worker threads.
    pub async fn set_async(&self, account: &str, value: &Secret) -> Result<(), KeyringError> {
        let (me, account, value) = (self.clone(), account.to_string(), value.clone());
        join(tokio::task::spawn_blocking(move || me.set(&account, &value)).await)
    }

    /// [`Keyring::delete`] off the async runtime's worker threads.
    pub async fn delete_async(&self, account: &str) -> Result<bool, KeyringError> {
        let (me, account) = (self.clone(), account.to_string());
        join(tokio::task::spawn_blocking(move || me.delete(&account)).await)
    }

    /// [`Keyring::probe`] off the async runtime's worker threads.
    pub async fn probe_async(&self) -> Result<(), KeyringError> {
        let me = self.clone();
        join(tokio::task::spawn_blocking(move || me.probe()).await)
    }

    /// Run `f` on a thread of its own and wait at most `self.timeout`. A call that hangs is
    /// abandoned (its thread does not keep the process alive).
    fn bounded<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Backend) -> Result<T, KeyringError> + Send + 'static,
    ) -> Result<T, KeyringError> {
        if let Backend::Disabled(why) = &self.backend {
            return Err(KeyringError::Disabled(why.clone()));
        }
        let backend = self.backend.clone();
        let (tx, rx) = std::sync::mpsc::channel();
        let spawned = std::thread::Builder::new()
            .name("outposts-keyring".into())
            .spawn(move || {
                let _ = tx.send(f(&backend));
            });
        if let Err(e) = spawned {
            return Err(KeyringError::Failed(format!("cannot start a thread: {e}")));
        }
        match rx.recv_timeout(self.timeout) {
            Ok(r) => r,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                Err(KeyringError::Timeout(self.timeout.as_secs().max(1)))
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                Err(KeyringError::Failed("the keyring call panicked".into()))
            }
        }
    }
}

fn join<T>(r: Result<Result<T, KeyringError>, tokio::task::JoinError>) -> Result<T, KeyringError> {
    r.unwrap_or_else(|e| {
        Err(KeyringError::Failed(format!(
            "the keyring task failed: {e}"
        )))
    })
}

/// An entry in the backend's store.
enum AnyEntry {
    Native(::keyring::Entry),
    Core(keyring_core::Entry),
}

impl AnyEntry {
    fn get_password(&self) -> keyring_core::Result<String> {
        match self {
            AnyEntry::Native(e) => e.get_password(),
            AnyEntry::Core(e) => e.get_password(),
        }
    }
    fn set_password(&self, v: &str) -> keyring_core::Result<()> {
        match self {
            AnyEntry::Native(e) => e.set_password(v),
            AnyEntry::Core(e) => e.set_password(v),
        }
    }
    fn delete_credential(&self) -> keyring_core::Result<()> {
        match self {
            AnyEntry::Native(e) => e.delete_credential(),
            AnyEntry::Core(e) => e.delete_credential(),
        }
    }
}

/// Every entry of the file stand-in (account → value); a missing file holds none.
fn file_read(path: &Path) -> Result<BTreeMap<String, String>, KeyringError> {
    match std::fs::read(path) {
        Ok(bytes) => serde_json::from_slice(&bytes).map_err(|e| {
            KeyringError::Failed(format!("{} is not a keyring file: {e}", path.display()))
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(BTreeMap::new()),
        Err(e) => Err(KeyringError::Unavailable(format!(
            "{}: {e}",
            path.display()
        ))),
    }
}

fn file_write(path: &Path, all: &BTreeMap<String, String>) -> Result<(), KeyringError> {
    let bytes = serde_json::to_vec(all).map_err(|e| KeyringError::Failed(e.to_string()))?;
    crate::secrets::dotenv::write_private(path, &bytes)
        .map_err(|e| KeyringError::Failed(format!("{}: {e}", path.display())))
}

fn entry(backend: &Backend, account: &str) -> Result<AnyEntry, KeyringError> {
    match backend {
        Backend::Disabled(why) => Err(KeyringError::Disabled(why.clone())),
        Backend::File(_) => Err(KeyringError::Failed(
            "the file stand-in has no entry objects".into(),
        )),
        Backend::Native => {
            if let Err(e) = ::keyring::Entry::store_status() {
                return Err(map_error(e));
            }
            ::keyring::Entry::new(SERVICE, account)
                .map(AnyEntry::Native)
                .map_err(|e| map_error(&e))
        }
        Backend::Store(store) => keyring_core::Entry::new_in_store(store, SERVICE, account)
            .map(AnyEntry::Core)
            .map_err(|e| map_error(&e)),
    }
}

fn map_error(e: &keyring_core::Error) -> KeyringError {
    // Platform messages name D-Bus services and paths, never secret values.
    let text = crate::secrets::redact(&e.to_string()).into_owned();
    match e {
        keyring_core::Error::NoDefaultStore
        | keyring_core::Error::NoStorageAccess(_)
        | keyring_core::Error::PlatformFailure(_)
        | keyring_core::Error::NotSupportedByStore(_) => KeyringError::Unavailable(text),
        _ => KeyringError::Failed(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;

    fn mock() -> Keyring {
        let store: Arc<keyring_core::CredentialStore> =
            keyring_core::mock::Store::new().expect("mock store");
        Keyring::with_store(store)
    }

    #[test]
    fn round_trip_in_a_mock_store() {
        let k = mock();
        let account = token_account("http://127.0.0.1:1/");
        assert_eq!(account, "DEVIN_OUTPOSTS_TOKEN@http://127.0.0.1:1");
        assert_eq!(
            super::account(&env::DEVIN_API_KEY, "http://127.0.0.1:1"),
            "DEVIN_API_KEY@http://127.0.0.1:1"
        );
        assert_eq!(k.get(&account).unwrap(), None);
        k.set(&account, &Secret::new("cog_keyringvalue1234"))
            .unwrap();
        assert_eq!(
            k.get(&account).unwrap().unwrap().expose(),
            "cog_keyringvalue1234"
        );
        assert!(k.delete(&account).unwrap());
        assert!(!k.delete(&account).unwrap());
        assert_eq!(k.get(&account).unwrap(), None);
        assert!(k.probe().is_ok());
    }

    #[test]
    fn the_file_stand_in_round_trips_with_mode_0600() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("keyring.json");
        let k = Keyring {
            backend: Backend::File(path.clone()),
            timeout: DEFAULT_TIMEOUT,
        };
        let account = account(&env::DEVIN_API_KEY, "http://127.0.0.1:1");
        assert_eq!(k.get(&account).unwrap(), None);
        assert!(!k.delete(&account).unwrap());
        k.set(&account, &Secret::new("cog_filestandin123456"))
            .unwrap();
        assert_eq!(
            k.get(&account).unwrap().unwrap().expose(),
            "cog_filestandin123456"
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600);
        }
        assert!(k.delete(&account).unwrap());
        assert_eq!(k.get(&account).unwrap(), None);
        std::fs::write(&path, "not json").unwrap();
        assert!(matches!(k.get(&account), Err(KeyringError::Failed(_))));
    }

    #[test]
    fn disabled_never_reaches_a_store() {
        let k = Keyring::disabled("OUTPOSTS_NO_KEYRING is set");
        assert!(k.is_disabled());
        for r in [k.probe().err(), k.get("a").err(), k.delete("a").err()] {
            assert!(matches!(r, Some(KeyringError::Disabled(_))), "{r:?}");
        }
        let cfg = Config::load_with_env(
            [("OUTPOSTS_NO_KEYRING".to_string(), "1".to_string())].into(),
            &Default::default(),
            std::path::Path::new("/nonexistent-outposts-test"),
        )
        .unwrap();
        assert!(Keyring::from_settings(KeyringSettings::resolve(&cfg)).is_disabled());
    }

    #[test]
    fn a_hanging_store_times_out() {
        let k = mock().timeout(Duration::from_millis(50));
        let r = k.bounded(|_| {
            std::thread::sleep(Duration::from_secs(2));
            Ok(())
        });
        assert_eq!(r, Err(KeyringError::Timeout(1)));
    }

    #[test]
    fn truthy_values() {
        for v in ["1", "true", "YES", " on "] {
            assert!(truthy(v), "{v}");
        }
        for v in ["", "0", "false", "no"] {
            assert!(!truthy(v), "{v}");
        }
    }
}
