//! Checks that call a service: one cheap authenticated read per configured token, then the
//! outpost, the snapshot and the clock (from the Devin server's `Date` header). The Devin checks
//! are here, the Daytona and CoreWeave ones in `providers.rs`.

use std::time::{Duration, SystemTime};

use super::providers::{coreweave_key, daytona_key, snapshot};
use super::{Check, Options, ProviderChoice, bounded, where_from};
use crate::api::devin::{DevinClient, Outpost, Platform, Probe};
use crate::api::outpost_lookup::{OutpostLookupError, resolve_outpost};
use crate::api::{ApiError, HttpClient};
use crate::config::Resolved;
use crate::env::{self, EnvVar};
use crate::secrets::Secret;
use crate::settings::{DevinSettings, DoctorSettings, advice};

/// Larger skews are a failure: claim deadlines and renewals are computed from this clock.
pub const MAX_SKEW: Duration = Duration::from_secs(30);

const NEEDS_DEVIN: &str = "skipped: needs an accepted Devin token (see above)";

/// A setting and where it came from, for messages ("OUTPOST_ID from /home/me/work/.env").
pub(super) fn from(r: &Resolved) -> String {
    format!("{} from {}", r.var.name, where_from(&r.source))
}

pub(super) fn origin(settings: &DoctorSettings, var: &'static EnvVar) -> String {
    settings
        .get(var)
        .map(|r| from(&r))
        .unwrap_or_else(|| var.name.to_string())
}

/// A client for doctor: few retries, every request bounded by the check timeout.
fn http(settings: &DoctorSettings, opts: &Options) -> anyhow::Result<HttpClient> {
    let mut o = (settings.http.as_ref())
        .map_err(|e| anyhow::anyhow!("{e}"))?
        .clone();
    o.retry.attempts = o.retry.attempts.min(2);
    o.connect_timeout = o.connect_timeout.min(opts.timeout);
    o.read_timeout = o.read_timeout.min(opts.timeout);
    o.request_timeout = opts.timeout;
    HttpClient::new(o)
}

/// Why a call failed, and what to do, for a service whose credentials are `var`.
pub(super) fn api_failure(
    id: &'static str,
    title: &'static str,
    e: &ApiError,
    settings: &DoctorSettings,
    key: &'static EnvVar,
    url: &'static EnvVar,
) -> Check {
    if e.is_auth() {
        let hint = advice::api(e).unwrap_or_default();
        return Check::fail(
            id,
            title,
            format!("rejected: {e}"),
            format!("{hint} (the rejected value is {})", origin(settings, key)),
        );
    }
    let fix = match e {
        ApiError::Transport { .. } | ApiError::Decode { .. } => format!(
            "check {} and the network{}",
            origin(settings, url),
            advice::api(e)
                .map(|h| format!(" ({h})"))
                .unwrap_or_default()
        ),
        _ => advice::api(e)
            .unwrap_or_else(|| "retry; if it persists, check the service's status page".into()),
    };
    Check::fail(id, title, e.to_string(), fix)
}

/// Every remote check, in report order.
pub async fn run(
    settings: &DoctorSettings,
    opts: &Options,
    provider: ProviderChoice,
) -> Vec<Check> {
    let http = match http(settings, opts) {
        Ok(h) => h,
        Err(e) => {
            return vec![Check::fail(
                "http",
                "HTTP client",
                format!("{e:#}"),
                "fix the OUTPOSTS_* connection settings",
            )];
        }
    };
    let t = opts.timeout;
    let ((token, probe), orch, api_key, (daytona_key, daytona), coreweave) = tokio::join!(
        devin_token(settings, &http, t),
        orchestrator_token(settings, &http, t),
        super::v3::api_key(settings, &http, t),
        daytona_key(settings, &http, t, provider),
        coreweave_key(settings, t, provider),
    );
    let (outpost, platform) = match &probe {
        Some(_) => outpost(settings, &http, t).await,
        None => (Check::skip("outpost", "outpost", NEEDS_DEVIN), None),
    };
    let clock = clock(probe.as_ref(), settings);
    let snapshot = snapshot(settings, daytona.as_ref(), provider, platform, t).await;
    let warm = super::warm_pool::check(settings, daytona.as_ref(), provider, platform, t).await;
    vec![
        token,
        outpost,
        clock,
        orch,
        api_key,
        daytona_key,
        snapshot,
        warm,
        coreweave,
    ]
}

async fn devin_token(
    settings: &DoctorSettings,
    http: &HttpClient,
    t: Duration,
) -> (Check, Option<Probe>) {
    const ID: &str = "devin_token";
    const TITLE: &str = "Devin token";
    let Some(token) = settings.get(&env::DEVIN_OUTPOSTS_TOKEN) else {
        return (
            Check::fail(
                ID,
                TITLE,
                "DEVIN_OUTPOSTS_TOKEN is not set (environment, .env, outposts.toml or keyring)",
                "run `outposts connect` (it stores the token), or set DEVIN_OUTPOSTS_TOKEN",
            ),
            None,
        );
    };
    let base = match &settings.devin_api_url {
        Ok(b) => b,
        Err(e) => return (Check::fail(ID, TITLE, e.to_string(), e.hint()), None),
    };
    let client = DevinClient::new(
        DevinSettings::new(base, Secret::new(token.value.trim())),
        http.clone(),
    );
    let mut probe = None;
    let check = bounded(
        ID,
        TITLE,
        t,
        &format!(
            "check {} and the network",
            origin(settings, &env::DEVIN_API_URL)
        ),
        async {
            match client.probe(None).await {
                Ok(p) => {
                    let queue = p
                        .queue_total
                        .map(|n| format!("; {n} session(s) queued account-wide"))
                        .unwrap_or_default();
                    probe = Some(p);
                    Check::pass(
                        ID,
                        TITLE,
                        format!("{} accepted by {base}{queue}", from(&token)),
                    )
                }
                Err(e) => api_failure(
                    ID,
                    TITLE,
                    &e,
                    settings,
                    &env::DEVIN_OUTPOSTS_TOKEN,
                    &env::DEVIN_API_URL,
                ),
            }
        },
    )
    .await;
    (check, probe)
}

/// The outpost `id` (an id or a name) resolved to: name, id, platform, queue and claims.
fn found(o: &Outpost, id: &Resolved) -> String {
    format!(
        "{} ({}) exists{}: platform {}, {} queued, {} claimed",
        o.name.as_deref().unwrap_or("unnamed"),
        o.outpost_id,
        if o.outpost_id == id.value.trim() {
            String::new()
        } else {
            format!(" ({} holds its name)", id.var.name)
        },
        o.platform
            .map(|p| p.to_string())
            .unwrap_or_else(|| "not reported".into()),
        o.queue_depth.unwrap_or(0),
        o.active_claims.unwrap_or(0),
    )
}

async fn outpost(
    settings: &DoctorSettings,
    http: &HttpClient,
    t: Duration,
) -> (Check, Option<Platform>) {
    const ID: &str = "outpost";
    const TITLE: &str = "outpost";
    let Some(id) = settings.get(&env::OUTPOST_ID) else {
        return (
            Check::fail(
                ID,
                TITLE,
                "OUTPOST_ID is not set",
                "run `outposts connect` (it writes OUTPOST_ID), or set OUTPOST_ID to an id from \
                 `outposts outpost list`",
            ),
            None,
        );
    };
    let client = match &settings.devin {
        Ok(s) => DevinClient::new(s.clone(), http.clone()),
        Err(e) => {
            return (
                Check::fail(ID, TITLE, format!("{e:#}"), "see the Devin token check"),
                None,
            );
        }
    };
    let mut platform = None;
    let check = bounded(ID, TITLE, t, "check DEVIN_API_URL and the network", async {
        match resolve_outpost(&client, &id.value).await {
            Ok(o) => {
                platform = o.platform;
                Check::pass(ID, TITLE, found(&o, &id))
            }
            Err(
                e @ (OutpostLookupError::NotFound { .. } | OutpostLookupError::Ambiguous { .. }),
            ) => Check::fail(
                ID,
                TITLE,
                format!(
                    "{}={}: {e} (at {})",
                    id.var.name,
                    id.value,
                    client.base_url()
                ),
                format!(
                    "fix {}: pick an id from `outposts outpost list`, or run `outposts connect`",
                    from(&id)
                ),
            ),
            Err(OutpostLookupError::Empty) => Check::fail(
                ID,
                TITLE,
                format!("{} is empty", id.var.name),
                "run `outposts connect` (it writes OUTPOST_ID), or set OUTPOST_ID to an id from \
                 `outposts outpost list`",
            ),
            Err(OutpostLookupError::Api(e)) => api_failure(
                ID,
                TITLE,
                &e,
                settings,
                &env::DEVIN_OUTPOSTS_TOKEN,
                &env::DEVIN_API_URL,
            ),
        }
    })
    .await;
    (check, platform)
}

/// Local clock minus the server's (positive: ours is ahead).
pub fn skew(now: SystemTime, server: SystemTime) -> f64 {
    match now.duration_since(server) {
        Ok(d) => d.as_secs_f64(),
        Err(e) => -e.duration().as_secs_f64(),
    }
}

/// Judge a skew; `Date` has one-second resolution, so ±1 s is noise.
pub fn judge_skew(skew: f64, server: &str) -> Check {
    const ID: &str = "clock";
    const TITLE: &str = "clock";
    let dir = if skew >= 0.0 { "ahead of" } else { "behind" };
    if skew.abs() <= MAX_SKEW.as_secs_f64() {
        Check::pass(
            ID,
            TITLE,
            format!(
                "within {:.0} s of {server}'s Date header",
                skew.abs().max(1.0)
            ),
        )
    } else {
        Check::fail(
            ID,
            TITLE,
            format!("this machine's clock is {:.0} s {dir} {server}", skew.abs()),
            "sync the clock (e.g. `timedatectl set-ntp true`, or run chrony/ntpd): claim \
             deadlines and renewals are computed from it",
        )
    }
}

fn clock(probe: Option<&Probe>, settings: &DoctorSettings) -> Check {
    let Some(p) = probe else {
        return Check::skip("clock", "clock", NEEDS_DEVIN);
    };
    let server = settings.devin_api_url.as_ref().cloned().unwrap_or_default();
    match p.server_date {
        Some(date) => judge_skew(skew(SystemTime::now(), date), &server),
        None => Check::skip(
            "clock",
            "clock",
            format!("skipped: {server} sent no Date header"),
        ),
    }
}

async fn orchestrator_token(settings: &DoctorSettings, http: &HttpClient, t: Duration) -> Check {
    const ID: &str = "orchestrator_token";
    const TITLE: &str = "orchestrator token";
    let Some(token) = settings.get(&env::DEVIN_OUTPOST_CREATE_TOKEN) else {
        return Check::skip(
            ID,
            TITLE,
            "not configured: DEVIN_OUTPOST_CREATE_TOKEN is unset (only `outposts outpost \
             create|delete` need it)",
        );
    };
    let client = match &settings.orchestrator {
        Ok(s) => DevinClient::new(s.clone(), http.clone()),
        Err(e) => return Check::fail(ID, TITLE, format!("{e:#}"), "fix DEVIN_API_URL"),
    };
    bounded(ID, TITLE, t, "check DEVIN_API_URL and the network", async {
        match client.list_outposts().await {
            Ok(all) => Check::pass(
                ID,
                TITLE,
                format!(
                    "{} accepted; {} outpost(s) visible",
                    from(&token),
                    all.len()
                ),
            ),
            Err(e) if e.is_auth() => Check::fail(
                ID,
                TITLE,
                format!("rejected: {e}"),
                format!(
                    "set DEVIN_OUTPOST_CREATE_TOKEN to a service-user token with the Manage \
                     outposts (orchestrator) permission (the rejected value is {})",
                    from(&token)
                ),
            ),
            Err(e) => api_failure(
                ID,
                TITLE,
                &e,
                settings,
                &env::DEVIN_OUTPOST_CREATE_TOKEN,
                &env::DEVIN_API_URL,
            ),
        }
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skew_sign_and_threshold() {
        let t0 = SystemTime::UNIX_EPOCH + Duration::from_secs(1_800_000_000);
        assert_eq!(skew(t0 + Duration::from_secs(5), t0), 5.0);
        assert_eq!(skew(t0, t0 + Duration::from_secs(5)), -5.0);
        assert_eq!(
            judge_skew(0.4, "https://api.devin.ai").status,
            super::super::Status::Pass
        );
        assert_eq!(judge_skew(-30.0, "x").status, super::super::Status::Pass);
        let behind = judge_skew(-95.0, "https://api.devin.ai");
        assert_eq!(behind.status, super::super::Status::Fail);
        assert!(behind.message.contains("95 s behind"), "{}", behind.message);
        assert!(behind.fix.unwrap().contains("timedatectl"));
        let ahead = judge_skew(31.0, "x");
        assert!(ahead.message.contains("ahead of"), "{}", ahead.message);
    }
}
