//! Where `connect` keeps what it got: `.env` (0600, atomic) or the OS keyring plus the
//! non-secret keys in `.env`, and a 0600 recovery file when neither can be written, so a freshly
//! minted token is never lost and never printed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::api::connection_token::ConnectionGrant;
use crate::env::{self, EnvVar};
use crate::secrets::Secret;
use crate::secrets::dotenv::{self, EnvChange, EnvUpdate};
use crate::secrets::keyring::{Keyring, account};

/// Where the token goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Default, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum StoreChoice {
    /// `.env` (mode 0600), with DEVIN_API_URL and OUTPOST_ID.
    #[default]
    Env,
    /// The OS keyring; only DEVIN_API_URL and OUTPOST_ID go to `.env`.
    Keyring,
}

/// A value someone left to be filled in (`cog_...`, `<your token>`, `changeme`, empty), as
/// opposed to a real credential.
pub fn is_placeholder(value: &str) -> bool {
    let v = value.trim();
    if v.is_empty() {
        return true;
    }
    let core = ["cog_", "outpost_env-", "outpost_", "pool_"]
        .iter()
        .find_map(|p| v.strip_prefix(p))
        .unwrap_or(v);
    // Real tokens and ids are long runs of letters and digits: never placeholders.
    if core.len() >= 16
        && core.chars().all(|c| c.is_ascii_alphanumeric())
        && !core.chars().all(|c| c == 'x' || c == 'X')
    {
        return false;
    }
    if v.contains(['<', '>', '*', ' ', '\t']) || v.contains("...") || v.contains('…') {
        return true;
    }
    let lower = v.to_ascii_lowercase();
    if [
        "your",
        "placeholder",
        "changeme",
        "change_me",
        "change-me",
        "replace",
        "example",
        "redacted",
        "todo",
    ]
    .iter()
    .any(|w| lower.contains(w))
    {
        return true;
    }
    core.is_empty()
        || core
            .chars()
            .all(|c| matches!(c, 'x' | 'X' | '0' | '.' | '-' | '_'))
}

/// The credential keys in a `.env`'s values that hold real (non-placeholder) values.
pub fn configured_keys(values: &BTreeMap<String, String>) -> Vec<String> {
    let mut keys = Vec::new();
    for name in [env::DEVIN_OUTPOSTS_TOKEN.name, env::OUTPOST_ID.name]
        .into_iter()
        .chain(env::OUTPOST_ID.aliases.iter().copied())
    {
        if values.get(name).is_some_and(|v| !is_placeholder(v)) {
            keys.push(name.to_string());
        }
    }
    keys
}

/// What was saved where (never a value).
#[derive(Debug, Clone, serde::Serialize)]
pub struct Saved {
    pub env_file: PathBuf,
    pub change: EnvChange,
    /// `env` or `keyring`: where the token went in the end.
    pub token_store: StoreChoice,
    pub keyring_account: Option<String>,
    /// Things the user should know (a keyring fallback).
    pub warnings: Vec<String>,
}

/// Saving failed; `recovery` holds the token when it was not stored anywhere else.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct SaveError {
    pub message: String,
    pub hint: String,
    pub recovery: Option<PathBuf>,
}

/// All three keys, for the recovery file.
fn env_update(grant: &ConnectionGrant) -> EnvUpdate {
    let u = EnvUpdate::new().set(env::DEVIN_OUTPOSTS_TOKEN.name, grant.access_token.expose());
    with_outpost(u, grant)
}

fn with_outpost(u: EnvUpdate, grant: &ConnectionGrant) -> EnvUpdate {
    u.set(env::DEVIN_API_URL.name, &grant.api_base_url)
        .set_with_aliases(
            env::OUTPOST_ID.name,
            env::OUTPOST_ID.aliases,
            &grant.outpost_id,
        )
}

/// Where [`store_secret`] put a value (never the value).
#[derive(Debug, Clone)]
pub struct Stored {
    pub change: EnvChange,
    pub store: StoreChoice,
    pub keyring_account: Option<String>,
    /// Things the user should know (a keyring fallback).
    pub warnings: Vec<String>,
}

/// [`store_secret`] could not write the `.env` file.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The secret is safe in the keyring; only the other (non-secret) keys are missing.
    #[error("the secret is in the OS keyring, but {0}")]
    AfterKeyring(dotenv::DotEnvError),
    /// Nothing secret was stored.
    #[error("{0}")]
    Env(dotenv::DotEnvError),
}

/// Store `value` as `var`: in the keyring under [`account`]`(var, api_url)` when asked for and
/// available (falling back to `.env`, with a warning), else in `env_file`. `others` adds the
/// non-secret keys that go to `.env` either way. The one place `connect --store` and
/// `auth set-key --store` share.
pub async fn store_secret(
    var: &'static EnvVar,
    value: &Secret,
    api_url: &str,
    env_file: &Path,
    choice: StoreChoice,
    keyring: &Keyring,
    others: impl Fn(EnvUpdate) -> EnvUpdate,
) -> Result<Stored, StoreError> {
    let mut warnings = Vec::new();
    if choice == StoreChoice::Keyring {
        let account = account(var, api_url);
        match keyring.set_async(&account, value).await {
            Ok(()) => {
                // A stale line would shadow the keyring (.env wins over it).
                let update = others(EnvUpdate::new().remove(var.name));
                return match dotenv::apply(env_file, &update) {
                    Ok(change) => Ok(Stored {
                        change,
                        store: StoreChoice::Keyring,
                        keyring_account: Some(account),
                        warnings,
                    }),
                    Err(e) => Err(StoreError::AfterKeyring(e)),
                };
            }
            Err(e) => warnings.push(format!(
                "{e}; {} was written to {} (mode 0600) instead",
                var.name,
                env_file.display()
            )),
        }
    }
    let update = others(EnvUpdate::new().set(var.name, value.expose()));
    match dotenv::apply(env_file, &update) {
        Ok(change) => Ok(Stored {
            change,
            store: StoreChoice::Env,
            keyring_account: None,
            warnings,
        }),
        Err(e) => Err(StoreError::Env(e)),
    }
}

/// Save the grant: to `.env`, or to the keyring with a fallback to `.env`; on failure write a
/// recovery file in `recovery_dir` (or the temp dir).
pub async fn save(
    grant: &ConnectionGrant,
    env_file: &Path,
    choice: StoreChoice,
    keyring: &Keyring,
    recovery_dir: &Path,
) -> Result<Saved, SaveError> {
    let stored = store_secret(
        &env::DEVIN_OUTPOSTS_TOKEN,
        &grant.access_token,
        &grant.api_base_url,
        env_file,
        choice,
        keyring,
        |u| with_outpost(u, grant),
    )
    .await;
    match stored {
        Ok(s) => Ok(Saved {
            env_file: env_file.to_path_buf(),
            change: s.change,
            token_store: s.store,
            keyring_account: s.keyring_account,
            warnings: s.warnings,
        }),
        // The token is safe in the keyring; the rest is not secret.
        Err(StoreError::AfterKeyring(e)) => Err(SaveError {
            message: format!("the token is in the OS keyring, but {e}"),
            hint: format!(
                "add DEVIN_API_URL={} and OUTPOST_ID={} to your .env yourself",
                grant.api_base_url, grant.outpost_id
            ),
            recovery: None,
        }),
        Err(StoreError::Env(e)) => {
            let recovery = write_recovery(grant, env_file, &e.to_string(), recovery_dir);
            Err(match recovery {
                Some(path) => SaveError {
                    message: format!(
                        "{e}; the new token was saved to {} (mode 0600) instead",
                        path.display()
                    ),
                    hint: format!(
                        "move it into place (`mv {} .env`, or append its lines to your .env), then delete it",
                        path.display()
                    ),
                    recovery: Some(path),
                },
                None => SaveError {
                    message: format!("{e}, and no recovery file could be written either"),
                    hint: "fix the directory's permissions and run `outposts connect` again (the unsaved token cannot be recovered)".into(),
                    recovery: None,
                },
            })
        }
    }
}

/// Write the three keys to a fresh 0600 file; its path, or `None` when nothing could be
/// written.
fn write_recovery(
    grant: &ConnectionGrant,
    env_file: &Path,
    why: &str,
    recovery_dir: &Path,
) -> Option<PathBuf> {
    let header = format!(
        "# `outposts connect` could not write {} ({}).\n# These are its settings: move this file into place or copy its lines, then delete it.\n",
        env_file.display(),
        why.replace('\n', " ")
    );
    let (body, _) = dotenv::rewrite(&header, &env_update(grant)).ok()?;
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let safe_id: String = grant
        .outpost_id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(64)
        .collect();
    let name = format!("connect-{safe_id}-{stamp}.env");
    for dir in [recovery_dir.to_path_buf(), std::env::temp_dir()] {
        if create_private_dir(&dir).is_err() {
            continue;
        }
        let path = dir.join(&name);
        if dotenv::write_private(&path, body.as_bytes()).is_ok() {
            return Some(path);
        }
    }
    None
}

fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    std::fs::create_dir_all(dir)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rt() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
    }

    fn grant() -> ConnectionGrant {
        ConnectionGrant {
            outpost_id: "outpost_env-0123456789abcdef0123456789abcdef".into(),
            outpost_name: Some("daytona-linux".into()),
            account_id: None,
            service_user_id: None,
            api_base_url: "http://127.0.0.1:9".into(),
            access_token: Secret::new("cog_storetesttoken0123456789"),
            token_type: Some("bearer".into()),
            legacy_pool_field: false,
        }
    }

    #[test]
    fn placeholders_versus_real_values() {
        for p in [
            "",
            "cog_...",
            "cog_xxxxxxxx",
            "<your token>",
            "your-token-here",
            "changeme",
            "outpost_env-...",
            "outpost_env-xxxxxxxxxxxxxxxxxxxx",
            "REPLACE_ME",
            "cog_",
            "***",
        ] {
            assert!(is_placeholder(p), "{p:?} should be a placeholder");
        }
        for real in [
            "cog_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOP",
            "outpost_env-3a1abb1c2bb84512ad9aedb3ca0bf411",
            "cog_todoYourExampleabcdefghijklmnop",
            "my-outpost-id",
        ] {
            assert!(!is_placeholder(real), "{real:?} should be real");
        }
        let values: BTreeMap<String, String> = [
            ("DEVIN_OUTPOSTS_TOKEN", "cog_..."),
            ("POOL_ID", "outpost_env-3a1abb1c2bb84512ad9aedb3ca0bf411"),
            ("DEVIN_API_URL", "https://api.devin.ai"),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        assert_eq!(configured_keys(&values), vec!["POOL_ID"]);
    }

    #[test]
    fn keyring_unavailable_falls_back_to_env() {
        let dir = tempfile::tempdir().unwrap();
        let env_file = dir.path().join(".env");
        let kr = Keyring::disabled("OUTPOSTS_NO_KEYRING is set");
        let saved = rt().block_on(save(
            &grant(),
            &env_file,
            StoreChoice::Keyring,
            &kr,
            dir.path(),
        ));
        let saved = saved.unwrap();
        assert_eq!(saved.token_store, StoreChoice::Env);
        assert!(
            saved.warnings[0].contains("OUTPOSTS_NO_KEYRING"),
            "{:?}",
            saved.warnings
        );
        let text = std::fs::read_to_string(&env_file).unwrap();
        assert!(text.contains("DEVIN_OUTPOSTS_TOKEN=cog_storetesttoken0123456789"));
    }

    #[test]
    fn keyring_store_keeps_the_token_out_of_env() {
        let dir = tempfile::tempdir().unwrap();
        let env_file = dir.path().join(".env");
        std::fs::write(&env_file, "# mine\nDEVIN_OUTPOSTS_TOKEN=cog_...\n").unwrap();
        let store: std::sync::Arc<keyring_core::CredentialStore> =
            keyring_core::mock::Store::new().unwrap();
        let kr = Keyring::with_store(store);
        let saved = rt()
            .block_on(save(
                &grant(),
                &env_file,
                StoreChoice::Keyring,
                &kr,
                dir.path(),
            ))
            .unwrap();
        assert_eq!(saved.token_store, StoreChoice::Keyring);
        let text = std::fs::read_to_string(&env_file).unwrap();
        assert_eq!(
            text,
            "# mine\nDEVIN_API_URL=http://127.0.0.1:9\nOUTPOST_ID=outpost_env-0123456789abcdef0123456789abcdef\n"
        );
        let account = saved.keyring_account.unwrap();
        assert_eq!(
            kr.get(&account).unwrap().unwrap().expose(),
            "cog_storetesttoken0123456789"
        );
    }

    #[test]
    fn an_unwritable_env_file_leaves_a_recovery_file() {
        let dir = tempfile::tempdir().unwrap();
        let env_file = dir.path().join("gone/.env");
        let recovery_dir = dir.path().join("recovery");
        let err = rt()
            .block_on(save(
                &grant(),
                &env_file,
                StoreChoice::Env,
                &Keyring::disabled("test"),
                &recovery_dir,
            ))
            .unwrap_err();
        let path = err.recovery.clone().unwrap();
        assert!(path.starts_with(&recovery_dir));
        assert!(
            !err.message.contains("cog_storetesttoken"),
            "{}",
            err.message
        );
        let body = std::fs::read_to_string(&path).unwrap();
        assert!(body.contains("DEVIN_OUTPOSTS_TOKEN=cog_storetesttoken0123456789"));
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(
            std::fs::metadata(&path).unwrap().permissions().mode() & 0o777,
            0o600
        );
        let values = dotenv::read_values(&path).unwrap().unwrap();
        assert_eq!(values["OUTPOST_ID"], grant().outpost_id);
    }
}
