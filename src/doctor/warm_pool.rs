//! The warm-pool check: whether the snapshot sessions start from has a Daytona warm pool, and
//! whether the orchestrator's creates would be served from it — and why not, when they would not.

use std::time::Duration;

use super::remote::api_failure;
use super::{Check, ProviderChoice, bounded};
use crate::api::daytona::DaytonaClient;
use crate::api::daytona_types::WarmPool;
use crate::api::devin::Platform;
use crate::env;
use crate::provider::ProviderKind;
use crate::provider::daytona::warm_pool;
use crate::settings::DoctorSettings;

const ID: &str = "warm_pool";
const TITLE: &str = "warm pool";

pub(super) async fn check(
    settings: &DoctorSettings,
    client: Option<&DaytonaClient>,
    provider: ProviderChoice,
    platform: Option<Platform>,
    t: Duration,
) -> Check {
    if provider.kind != ProviderKind::Daytona {
        return Check::skip(ID, TITLE, "not used: warm pools are Daytona's");
    }
    let Some(client) = client else {
        return Check::skip(ID, TITLE, "skipped: needs an accepted Daytona API key");
    };
    if matches!(platform, Some(Platform::Windows | Platform::Macos)) {
        return Check::skip(ID, TITLE, "not used: Linux sessions only");
    }
    let (name, origin, _) = super::providers::expected_snapshot(settings, false);
    let target = settings.value(&env::DAYTONA_TARGET);
    bounded(
        ID,
        TITLE,
        t,
        "check DAYTONA_API_URL and the network",
        async {
            let pool = match warm_pool::find(client, &name, None).await {
                Ok(p) => p,
                Err(e) => {
                    return api_failure(
                        ID,
                        TITLE,
                        &e,
                        settings,
                        &env::DAYTONA_API_KEY,
                        &env::DAYTONA_API_URL,
                    );
                }
            };
            judge(pool, &name, &origin, target.as_deref())
        },
    )
    .await
}

/// What the pool found for the snapshot `name` says about warm starts.
fn judge(pool: Option<WarmPool>, name: &str, origin: &str, target: Option<&str>) -> Check {
    // Optional: without a pool every create is cold, which works.
    let Some(p) = pool else {
        return Check::pass(
            ID,
            TITLE,
            format!(
                "none for {name} ({origin}), optional: sessions start cold \
                 (`outposts snapshot warm-pool set N` keeps N sandboxes started)"
            ),
        );
    };
    if let Some(t) = target.filter(|t| *t != p.target) {
        return Check::fail(
            ID,
            TITLE,
            format!(
                "the pool of {name} is in region {}, but creates go to {t} (DAYTONA_TARGET): \
                 none would be served warm",
                p.target
            ),
            "delete the pool and set it again with the same DAYTONA_TARGET",
        );
    }
    if let Some(reason) = p.error_reason.as_deref().filter(|r| !r.is_empty()) {
        return Check::fail(
            ID,
            TITLE,
            format!("the pool of {name} cannot fill: {reason}"),
            "check the organization's quota and that warm pools are enabled for it",
        );
    }
    Check::pass(
        ID,
        TITLE,
        format!(
            "{} of {} ready for {name}; the orchestrator's creates are eligible (the \
             snapshot's resources and user, no env, volumes or secrets)",
            p.current_size as u64, p.pool as u64
        ),
    )
}
