//! Validation of inputs, secret classification and configuration of the local provider.

use std::collections::BTreeMap;
use std::path::Path;

use crate::provider::{GitClone, ProviderError, ProviderKind, Result, SandboxSpec};
use crate::secrets::Secret;

use super::{MARKER, paths};

pub(super) fn current_user() -> String {
    // SAFETY: getuid cannot fail.
    if unsafe { libc::getuid() } == 0 {
        return "root".into();
    }
    std::env::var("USER")
        .ok()
        .filter(|u| is_simple_name(u))
        .unwrap_or_else(|| "sandbox".into())
}

pub(super) fn is_simple_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 32
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && !s.starts_with('-')
}

pub(super) fn home_for(user: Option<&str>) -> Result<String> {
    match user {
        Some(u) if is_simple_name(u) => Ok(if u == "root" {
            "/root".into()
        } else {
            format!("/home/{u}")
        }),
        Some(u) => Err(ProviderError::Invalid(format!(
            "{u:?} is not a valid user name (letters, digits, `_` and `-`)"
        ))),
        None => {
            let u = current_user();
            Ok(if u == "root" {
                "/root".into()
            } else {
                format!("/home/{u}")
            })
        }
    }
}

/// Whether an env value must stay off disk: declared secret, secret-sounding name, or a token shape.
pub(super) fn is_secret_env(key: &str, value: &str) -> bool {
    if crate::secrets::is_declared_secret(key) {
        return true;
    }
    let k = key.to_ascii_uppercase();
    const NAMES: &[&str] = &[
        "TOKEN",
        "SECRET",
        "PASSWORD",
        "PASSWD",
        "PASS",
        "KEY",
        "CREDENTIAL",
        "AUTH",
        "COOKIE",
        "PRIVATE",
        "SIGNATURE",
        "SESSION_ID_TOKEN",
    ];
    if NAMES.iter().any(|n| k.contains(n)) {
        return true;
    }
    const SHAPES: &[&str] = &[
        "cog_",
        "dtn_",
        "ghp_",
        "gho_",
        "ghs_",
        "ghu_",
        "github_pat_",
        "glpat-",
        "sk-",
        "xox",
        "eyJ",
    ];
    SHAPES.iter().any(|s| value.starts_with(s)) || value.contains("Bearer ")
}

pub(super) fn split_env(
    env: &BTreeMap<String, Secret>,
) -> (BTreeMap<String, String>, BTreeMap<String, Secret>) {
    let mut public = BTreeMap::new();
    let mut secret = BTreeMap::new();
    for (k, v) in env {
        if is_secret_env(k, v.expose()) {
            secret.insert(k.clone(), v.clone());
        } else {
            public.insert(k.clone(), v.expose().to_string());
        }
    }
    (public, secret)
}

pub(super) fn validate_env_key(k: &str) -> Result<()> {
    if k.is_empty() || k.contains('=') || k.contains('\0') {
        return Err(ProviderError::Invalid(format!(
            "{k:?} is not a valid environment variable name"
        )));
    }
    if k == MARKER {
        return Err(ProviderError::Invalid(format!("{MARKER} is reserved")));
    }
    Ok(())
}

pub(super) fn validate_labels(labels: &BTreeMap<String, String>) -> Result<()> {
    for k in labels.keys() {
        if k.trim().is_empty() {
            return Err(ProviderError::Invalid("a label key is empty".into()));
        }
    }
    Ok(())
}

pub(super) fn validate_abs(p: &str, what: &str) -> Result<()> {
    if !p.starts_with('/') || p.contains('\0') || p.split('/').any(|c| c == "..") {
        return Err(ProviderError::Invalid(format!(
            "{what} {p:?} must be an absolute sandbox path without `..`"
        )));
    }
    Ok(())
}

pub(super) fn validate_bind(host: &Path, inside: &str) -> Result<()> {
    validate_abs(inside, "bind target")?;
    let top = inside
        .trim_start_matches('/')
        .split('/')
        .next()
        .unwrap_or("");
    if top.is_empty() || paths::HOST_TOPS.contains(&top) {
        return Err(ProviderError::Invalid(format!(
            "bind target {inside} must be outside the host's system directories"
        )));
    }
    if !host.exists() {
        return Err(ProviderError::Invalid(format!(
            "bind source {} does not exist",
            host.display()
        )));
    }
    Ok(())
}

pub(super) fn validate_spec(spec: &SandboxSpec) -> Result<()> {
    if spec.name.trim().is_empty()
        || spec.name.len() > 255
        || spec.name.chars().any(char::is_control)
    {
        return Err(ProviderError::Invalid(format!(
            "{:?} is not a usable sandbox name (1-255 printable characters)",
            spec.name
        )));
    }
    if let Some(cmd) = &spec.command
        && cmd.first().is_none_or(|p| p.is_empty())
    {
        return Err(ProviderError::Invalid("the main command is empty".into()));
    }
    if !spec.secret_refs.is_empty() {
        return Err(ProviderError::Unsupported {
            provider: ProviderKind::Local,
            operation: "secret references (pass the values in env)",
        });
    }
    for k in spec.env.keys() {
        validate_env_key(k)?;
    }
    validate_labels(&spec.labels)
}

pub(super) fn validate_clone(req: &GitClone) -> Result<()> {
    if req.url.trim().is_empty() || req.url.starts_with('-') {
        return Err(ProviderError::Invalid(
            "the repository URL is empty or starts with `-`".into(),
        ));
    }
    if let Ok(u) = url::Url::parse(&req.url)
        && u.password().is_some()
    {
        return Err(ProviderError::Invalid(
            "the repository URL carries a password; pass credentials as username and password \
             instead (they are then never put in a URL or on a command line)"
                .into(),
        ));
    }
    if req.path.trim().is_empty() || req.path.starts_with('-') {
        return Err(ProviderError::Invalid(
            "the clone path is empty or starts with `-`".into(),
        ));
    }
    if req
        .branch
        .as_deref()
        .is_some_and(|b| b.is_empty() || b.starts_with('-'))
    {
        return Err(ProviderError::Invalid(
            "the branch is empty or starts with `-`".into(),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secret_env_detection() {
        assert!(is_secret_env("DEVIN_OUTPOSTS_TOKEN", "x"));
        assert!(is_secret_env("MY_API_KEY", "x"));
        assert!(is_secret_env("ANYTHING", "cog_abcdefgh1234"));
        assert!(is_secret_env("GIT_PASSWORD", "x"));
        assert!(!is_secret_env("DEVIN_SESSION_ID", "devin-123"));
        assert!(!is_secret_env("WORKDIR", "/home/daytona/workspace"));
    }

    #[test]
    fn clone_requests_are_checked() {
        let ok = GitClone {
            url: "https://example.com/r.git".into(),
            path: "/workspace/r".into(),
            branch: None,
            username: None,
            password: None,
        };
        assert!(validate_clone(&ok).is_ok());
        let bad = GitClone {
            url: "https://u:hunter2hunter2@example.com/r.git".into(),
            ..ok.clone()
        };
        let e = validate_clone(&bad).unwrap_err().to_string();
        assert!(!e.contains("hunter2"), "{e}");
        assert!(
            validate_clone(&GitClone {
                url: "--upload-pack=x".into(),
                ..ok.clone()
            })
            .is_err()
        );
        assert!(
            validate_clone(&GitClone {
                branch: Some("-x".into()),
                ..ok
            })
            .is_err()
        );
    }

    #[test]
    fn homes_and_hostnames() {
        assert_eq!(home_for(Some("daytona")).unwrap(), "/home/daytona");
        assert!(home_for(Some("../x")).is_err());
    }
}
