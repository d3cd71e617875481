//! Provider checks: the Daytona API key and snapshot, the CoreWeave credentials.

use std::time::Duration;

use super::remote::{api_failure, from, origin};
use super::{Check, ProviderChoice, bounded};
use crate::api::HttpClient;
use crate::api::coreweave::{ClientOptions, CoreweaveClient, pb};
use crate::api::daytona::DaytonaClient;
use crate::api::daytona_types::SnapshotState;
use crate::api::devin::Platform;
use crate::env;
use crate::provider::ProviderKind;
use crate::provider::daytona::snapshot as snap;
use crate::settings::{DoctorSettings, advice};

pub(super) async fn daytona_key(
    settings: &DoctorSettings,
    http: &HttpClient,
    t: Duration,
    provider: ProviderChoice,
) -> (Check, Option<DaytonaClient>) {
    const ID: &str = "daytona_key";
    const TITLE: &str = "Daytona API key";
    let key = settings.get(&env::DAYTONA_API_KEY);
    let chosen = provider.kind == ProviderKind::Daytona && provider.explicit;
    if key.is_none() {
        let check = if chosen {
            Check::fail(
                ID,
                TITLE,
                format!(
                    "{} selects Daytona, but DAYTONA_API_KEY is not set",
                    origin(settings, &env::OUTPOSTS_PROVIDER)
                ),
                "create an API key in the Daytona dashboard and set DAYTONA_API_KEY",
            )
        } else if provider.kind == ProviderKind::Daytona {
            Check::skip(
                ID,
                TITLE,
                "not configured: DAYTONA_API_KEY is unset (OUTPOSTS_PROVIDER defaults to \
                 daytona; set the key to use Daytona, or choose local or coreweave)",
            )
        } else {
            Check::skip(ID, TITLE, "not configured: DAYTONA_API_KEY is unset")
        };
        return (check, None);
    }
    let client = match &settings.daytona {
        Ok(s) => crate::provider::daytona::client(s.clone(), http.clone()),
        Err(e) => return (Check::fail(ID, TITLE, e.to_string(), e.hint()), None),
    };
    let mut ok = false;
    let check = bounded(
        ID,
        TITLE,
        t,
        &format!(
            "check {} and the network",
            origin(settings, &env::DAYTONA_API_URL)
        ),
        async {
            match client.list_snapshots_page(1, 1, None).await {
                Ok(_) => {
                    ok = true;
                    Check::pass(
                        ID,
                        TITLE,
                        format!(
                            "{} accepted by {}",
                            origin(settings, &env::DAYTONA_API_KEY),
                            client.api_url()
                        ),
                    )
                }
                Err(e) => api_failure(
                    ID,
                    TITLE,
                    &e,
                    settings,
                    &env::DAYTONA_API_KEY,
                    &env::DAYTONA_API_URL,
                ),
            }
        },
    )
    .await;
    (check, ok.then_some(client))
}

/// A CoreWeave client for one quick question: at most two attempts, connecting within `t`.
fn coreweave_client(settings: &DoctorSettings, t: Duration) -> anyhow::Result<CoreweaveClient> {
    let s = (settings.coreweave.as_ref())
        .map_err(|e| anyhow::anyhow!("{e}"))?
        .clone();
    let mut retry = s.http.retry;
    retry.attempts = retry.attempts.min(2);
    CoreweaveClient::new(
        s.base,
        s.auth,
        ClientOptions {
            connect_timeout: s.http.connect_timeout.min(t),
            retry,
        },
    )
}

/// The snapshot sessions would boot from: its name, where the name came from, and the
/// command that builds it.
pub(super) fn expected_snapshot(
    settings: &DoctorSettings,
    windows: bool,
) -> (String, String, &'static str) {
    if windows {
        return (
            snap::derived_name(snap::Platform::Windows, snap::WINDOWS_PROVISIONER),
            "the content-hashed Windows default".to_string(),
            "outposts snapshot build --platform windows",
        );
    }
    match settings.get(&env::SNAPSHOT_NAME) {
        Some(r) => (r.value.clone(), from(&r), "outposts snapshot build"),
        None => (
            snap::derived_name(snap::Platform::Linux, snap::DEFAULT_DOCKERFILE),
            "the content-hashed default".to_string(),
            "outposts snapshot build",
        ),
    }
}

pub(super) async fn snapshot(
    settings: &DoctorSettings,
    client: Option<&DaytonaClient>,
    provider: ProviderChoice,
    platform: Option<Platform>,
    t: Duration,
) -> Check {
    const ID: &str = "snapshot";
    const TITLE: &str = "snapshot";
    if provider.kind != ProviderKind::Daytona {
        return Check::skip(
            ID,
            TITLE,
            format!(
                "not used: sessions run on the {} provider, not from a Daytona snapshot",
                provider.kind
            ),
        );
    }
    let Some(client) = client else {
        return Check::skip(ID, TITLE, "skipped: needs an accepted Daytona API key");
    };
    let (name, origin_text, build) = match platform {
        Some(Platform::Macos) => {
            return Check::skip(ID, TITLE, "not used: Daytona has no macOS sandboxes");
        }
        _ => expected_snapshot(settings, matches!(platform, Some(Platform::Windows))),
    };
    bounded(
        ID,
        TITLE,
        t,
        "check DAYTONA_API_URL and the network",
        async {
            match client.get_snapshot(&name).await {
                Ok(Some(s)) if s.state() == SnapshotState::Active => {
                    Check::pass(ID, TITLE, format!("{name} ({origin_text}) is active"))
                }
                Ok(Some(s)) if s.state().is_failed() => Check::fail(
                    ID,
                    TITLE,
                    format!(
                        "{name} ({origin_text}) failed to build ({}): {}",
                        s.state(),
                        s.error_reason.as_deref().unwrap_or("no reason recorded")
                    ),
                    format!("`outposts snapshot delete {name}`, then `{build}`"),
                ),
                Ok(Some(s)) => Check::fail(
                    ID,
                    TITLE,
                    format!("{name} ({origin_text}) is {}, not active", s.state()),
                    format!("`{build}` activates it or follows its build until it is active"),
                ),
                Ok(None) => Check::fail(
                    ID,
                    TITLE,
                    format!("{name} ({origin_text}) does not exist on Daytona"),
                    format!("`{build}` (content-hashed: it reuses a snapshot that already exists)"),
                ),
                Err(e) => api_failure(
                    ID,
                    TITLE,
                    &e,
                    settings,
                    &env::DAYTONA_API_KEY,
                    &env::DAYTONA_API_URL,
                ),
            }
        },
    )
    .await
}

/// No CoreWeave key: a failure when CoreWeave is the provider, else nothing to check.
fn no_coreweave_key(settings: &DoctorSettings, provider: ProviderChoice) -> Check {
    const ID: &str = "coreweave_key";
    const TITLE: &str = "CoreWeave credentials";
    if provider.kind != ProviderKind::Coreweave {
        return Check::skip(
            ID,
            TITLE,
            "not configured: neither CWSANDBOX_API_KEY nor WANDB_API_KEY is set",
        );
    }
    Check::fail(
        ID,
        TITLE,
        format!(
            "{} selects CoreWeave, but neither CWSANDBOX_API_KEY nor WANDB_API_KEY is set",
            origin(settings, &env::OUTPOSTS_PROVIDER)
        ),
        "set CWSANDBOX_API_KEY to a CoreWeave Sandbox API key (or WANDB_API_KEY and \
         WANDB_ENTITY)",
    )
}

pub(super) async fn coreweave_key(
    settings: &DoctorSettings,
    t: Duration,
    provider: ProviderChoice,
) -> Check {
    const ID: &str = "coreweave_key";
    const TITLE: &str = "CoreWeave credentials";
    let has_key = settings.get(&env::CWSANDBOX_API_KEY).is_some()
        || settings.get(&env::WANDB_API_KEY).is_some();
    if !has_key {
        return no_coreweave_key(settings, provider);
    }
    let key_origin = if settings.get(&env::CWSANDBOX_API_KEY).is_some() {
        origin(settings, &env::CWSANDBOX_API_KEY)
    } else {
        origin(settings, &env::WANDB_API_KEY)
    };
    let client = match coreweave_client(settings, t) {
        Ok(c) => c,
        Err(e) => {
            return Check::fail(
                ID,
                TITLE,
                format!("{e:#}"),
                "fix CWSANDBOX_BASE_URL / the W&B settings",
            );
        }
    };
    let base = client.base_url().to_string();
    bounded(
        ID,
        TITLE,
        t,
        &format!(
            "check {} and the network",
            origin(settings, &env::CWSANDBOX_BASE_URL)
        ),
        async {
            let req = pb::ListSandboxesRequest {
                page_size: 1,
                ..Default::default()
            };
            match client.list_page(req, t).await {
                Ok(_) => Check::pass(ID, TITLE, format!("{key_origin} accepted by {base}")),
                Err(e) if e.is_auth() => Check::fail(
                    ID,
                    TITLE,
                    format!("rejected: {e}"),
                    format!(
                        "{} (the rejected value is {key_origin})",
                        advice::coreweave(&e).unwrap_or_default()
                    ),
                ),
                Err(e) => Check::fail(
                    ID,
                    TITLE,
                    e.to_string(),
                    advice::coreweave(&e).unwrap_or_else(|| {
                        format!(
                            "check {} and the network",
                            origin(settings, &env::CWSANDBOX_BASE_URL)
                        )
                    }),
                ),
            }
        },
    )
    .await
}
