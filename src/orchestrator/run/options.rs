//! What `orchestrator run` was told.

use std::time::Duration;

use crate::env;
use crate::orchestrator::plan::Limits;
use crate::orchestrator::remote::LaunchMode;
use crate::provider::{Resources, Source};
use crate::secrets::Secret;

/// Everything `orchestrator run` was told.
#[derive(Debug, Clone)]
pub struct RunOptions {
    pub outpost_id: String,
    pub acceptor_id: String,
    pub limits: Limits,
    pub reconcile_interval: Duration,
    pub janitor_interval: Duration,
    /// Sandboxes younger than this are never touched by the janitor.
    pub janitor_grace: Duration,
    pub launch: LaunchMode,
    pub source: Source,
    /// Source for Windows sessions (`None`: the same as Linux).
    pub windows_source: Option<Source>,
    pub resources: Resources,
    pub workdir: String,
    pub windows_workdir: String,
    pub repos: Vec<String>,
    pub git_username: String,
    pub git_token: Option<Secret>,
    pub chrome_path: Option<String>,
    pub windows_chrome_path: Option<String>,
    pub static_base: String,
    /// Used when a claim response carries no gateway URL.
    pub gateway_fallback: Option<String>,
    /// Longest wait for a sandbox to reach `started`.
    pub ready_timeout: Duration,
    /// Stopped sandboxes may be archived after this long (Daytona).
    pub archive_after: Option<Duration>,
    /// Delete the sandbox of a session absent from the queue this long (off: `None`).
    pub sleep_retention: Option<Duration>,
    /// The sleep-integrity proof's bounds (`INTEGRITY_*`).
    pub integrity: crate::orchestrator::integrity::Bounds,
    /// A failed sandbox is kept this long, then reaped (`FAILED_KEEP`).
    pub failed_keep: Duration,
    /// When a snapshot is quarantined (`QUARANTINE_AFTER`, `QUARANTINE_COOL_OFF`).
    pub placement: crate::orchestrator::plan::placement::Policy,
    /// Snapshots to place new sandboxes on while `source`'s is quarantined, in order.
    pub snapshot_fallback: Vec<String>,
    /// Daytona targets new sandboxes are placed on, in order (`DAYTONA_TARGET`, then
    /// `DAYTONA_TARGET_FALLBACK`); empty: the provider's default, not scored.
    pub targets: Vec<String>,
    /// The provider's price table (the cost ledger's rates).
    pub prices: crate::cost::prices::Prices,
    /// `COST_ALERT_HOURLY`: the spend rate the alert compares with.
    pub cost_alert_hourly: Option<f64>,
    /// Warm capacity (`WARM_*`).
    pub warm: crate::orchestrator::warm::WarmSettings,
    /// Where Devin's usage of each session is read (`DEVIN_API_KEY`, `DEVIN_ORG_ID`); `None`:
    /// no v3 key, usage unknown.
    pub devin_usage: Option<crate::settings::V3Settings>,
}

impl RunOptions {
    /// The defaults of `orchestrator run` for one outpost (from `env.rs`); callers override
    /// what they need.
    pub fn new(
        outpost_id: impl Into<String>,
        acceptor_id: impl Into<String>,
        static_base: impl Into<String>,
    ) -> Self {
        RunOptions {
            outpost_id: outpost_id.into(),
            acceptor_id: acceptor_id.into(),
            limits: Limits::default(),
            reconcile_interval: env::RECONCILE_INTERVAL.default_duration(),
            janitor_interval: env::JANITOR_INTERVAL.default_duration(),
            janitor_grace: Duration::from_secs(300),
            launch: LaunchMode::Remote,
            source: Source::Default,
            windows_source: None,
            resources: Resources::default(),
            workdir: env::WORKDIR.default_str().into(),
            windows_workdir: env::WINDOWS_WORKDIR.default_str().into(),
            repos: Vec::new(),
            git_username: env::GIT_USERNAME.default_str().into(),
            git_token: None,
            chrome_path: None,
            windows_chrome_path: Some(env::DEVIN_WINDOWS_CHROME_PATH.default_str().into()),
            static_base: static_base.into(),
            gateway_fallback: None,
            ready_timeout: Duration::from_secs(300),
            archive_after: Some(env::ARCHIVE_AFTER.default_duration()),
            sleep_retention: None,
            integrity: crate::orchestrator::integrity::Bounds::default(),
            failed_keep: env::FAILED_KEEP.default_duration(),
            placement: Default::default(),
            snapshot_fallback: Vec::new(),
            targets: Vec::new(),
            prices: crate::cost::prices::Prices::default(),
            cost_alert_hourly: None,
            warm: Default::default(),
            devin_usage: None,
        }
    }
}
