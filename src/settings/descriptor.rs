//! One descriptor per provider: the variables it reads, how its settings resolve, the arm that
//! builds it, the `doctor` checks that judge it, and the advice when it is "not ready" (a host
//! tool missing, a snapshot not built). Adding a provider is a descriptor here, its settings in
//! `provider.rs` and the provider under `provider/` (README, "How to add a provider").
//!
//! The advice texts live here, not in `provider/`: they name settings and commands
//! (`OUTPOSTS_LOCAL_UNISOLATED=1`, `outposts snapshot build`), which is this module's business;
//! the providers decide *that* they are not ready and ask here *what to do about it*.

use crate::config::{Config, ConfigError};
use crate::cost::prices::Prices;
use crate::env::{self, EnvVar};
use crate::provider::ProviderKind;

use super::{CoreweaveSettings, DaytonaSettings, LocalSettings, ProviderSettings};

/// Everything the rest of the program knows about one provider, in one place.
#[derive(Debug)]
pub struct Descriptor {
    pub kind: ProviderKind,
    /// The variables its settings read (beyond the shared `OUTPOSTS_*` connection settings).
    pub settings: &'static [&'static EnvVar],
    /// Resolve its settings ([`ProviderSettings::of`] asks here).
    pub resolve: fn(&Config) -> Result<ProviderSettings, ConfigError>,
    /// Where its settings meet its constructor: the arm of `crate::provider::build`.
    pub builder: &'static str,
    /// Ids of the `doctor` checks that judge it (each appears in `doctor --json`'s `checks`).
    pub doctor_checks: &'static [&'static str],
    /// What usually makes it "not ready", and the fix, in one line (README, `doctor`).
    pub not_ready: &'static str,
    /// How it enforces a session's `spec.network_policy` (`doctor`'s network policy check).
    pub network_policy: &'static str,
    /// The variable that sets where its sandboxes are (`orchestrator switch`'s site).
    pub endpoint_var: &'static EnvVar,
    /// That place, resolved (`orchestrator switch` compares it across a hand-over).
    pub endpoint: fn(&Config) -> Result<String, ConfigError>,
    /// The APIs whose rejections the orchestrator's metrics count, besides none.
    pub apis: &'static [&'static str],
    /// A sandbox's CPU cores, memory GiB and disk GiB when the session asks for none (the cost
    /// ledger's figures).
    pub default_resources: (f64, f64, f64),
    /// Its sandboxes run the worker as their main command (else through an exec).
    pub worker_is_main: bool,
    /// The variable that overrides its price table, and the built-in table (`outposts cost`).
    pub prices: (&'static EnvVar, fn() -> Prices),
}

/// Every provider, in `ProviderKind` order.
pub const ALL: [Descriptor; 3] = [
    Descriptor {
        kind: ProviderKind::Daytona,
        settings: &[
            &env::DAYTONA_API_KEY,
            &env::DAYTONA_API_URL,
            &env::DAYTONA_TARGET,
            &env::DAYTONA_START_TIMEOUT,
        ],
        resolve: |c| DaytonaSettings::resolve(c).map(ProviderSettings::Daytona),
        builder: "provider::daytona::DaytonaProvider::from_settings",
        doctor_checks: &["daytona_key", "snapshot", "warm_pool"],
        not_ready: "the snapshot sessions boot from is missing, building or failed: run \
                    `outposts snapshot build`",
        network_policy: "enforced on daytona: networkBlockAll with networkAllowList (CIDRs) and \
                         domainAllowList (hostnames); reapplied on wake",
        endpoint_var: &env::DAYTONA_API_URL,
        endpoint: |c| {
            Ok(c.url(&env::DAYTONA_API_URL)?
                .unwrap_or_else(|| env::DAYTONA_API_URL.default_str().into()))
        },
        apis: &["devin", "daytona"],
        // Daytona documents 1 vCPU, 1 GiB, 3 GiB.
        default_resources: (1.0, 1.0, 3.0),
        worker_is_main: false,
        prices: (&env::DAYTONA_PRICES, Prices::daytona),
    },
    Descriptor {
        kind: ProviderKind::Coreweave,
        settings: &[
            &env::CWSANDBOX_BASE_URL,
            &env::CWSANDBOX_API_KEY,
            &env::WANDB_API_KEY,
            &env::WANDB_ENTITY,
            &env::WANDB_PROJECT,
            &env::WANDB_BASE_URL,
        ],
        resolve: |c| CoreweaveSettings::resolve(c).map(ProviderSettings::Coreweave),
        builder: "provider::coreweave::CoreweaveProvider::from_settings",
        doctor_checks: &["coreweave_key"],
        not_ready: "no CoreWeave credentials: set CWSANDBOX_API_KEY, or WANDB_API_KEY and \
                    WANDB_ENTITY",
        network_policy: "enforced on coreweave: deny_egress with cidr / https_hostname egress \
                         rules, checked against effective_egress before the remote starts",
        endpoint_var: &env::CWSANDBOX_BASE_URL,
        endpoint: |c| Ok(CoreweaveSettings::base_url(c)?.url),
        apis: &["devin", "coreweave"],
        // The profile's default is assumed: 1 vCPU with the node's 4 GiB per vCPU and a 10 GiB
        // workspace.
        default_resources: (1.0, 4.0, 10.0),
        worker_is_main: true,
        prices: (&env::COREWEAVE_PRICES, Prices::coreweave),
    },
    Descriptor {
        kind: ProviderKind::Local,
        settings: &[
            &env::OUTPOSTS_LOCAL_ROOT,
            &env::OUTPOSTS_LOCAL_UNISOLATED,
            &env::OUTPOSTS_DEVIN_CLI_DIR,
        ],
        resolve: |c| LocalSettings::resolve(c).map(ProviderSettings::Local),
        builder: "provider::local::LocalProvider::from_settings",
        doctor_checks: &["local_sandboxes"],
        not_ready: "bubblewrap is missing or user namespaces are blocked: install bubblewrap, \
                    or set OUTPOSTS_LOCAL_UNISOLATED=1",
        network_policy: "not enforced on local sandboxes (they share the host network): \
                         sessions with an enabled policy are refused",
        endpoint_var: &env::OUTPOSTS_LOCAL_ROOT,
        endpoint: |c| Ok(LocalSettings::root(c)?.display().to_string()),
        apis: &["devin"],
        // The local machine's figures only matter with `LOCAL_PRICES`.
        default_resources: (1.0, 1.0, 3.0),
        worker_is_main: true,
        prices: (&env::LOCAL_PRICES, Prices::local),
    },
];

/// The descriptor of `kind`: the one match arm a new provider adds.
pub fn descriptor(kind: ProviderKind) -> &'static Descriptor {
    match kind {
        ProviderKind::Daytona => &ALL[0],
        ProviderKind::Coreweave => &ALL[1],
        ProviderKind::Local => &ALL[2],
    }
}

/// "Not ready" advice: what the providers' `preflight` hands the user as the fix.
pub mod not_ready {
    /// How to run without bubblewrap, for every local fix that names it.
    const UNISOLATED_FIX: &str = "or set OUTPOSTS_LOCAL_UNISOLATED=1 to run sandbox commands \
                                  directly on this host (absolute paths in commands then reach \
                                  the host's files)";

    /// Local: a host tool (`bwrap`, `nsenter`) is missing; `package` provides it.
    pub fn local_tool_missing(package: &str) -> String {
        format!("install it (`apt-get install -y {package}`), {UNISOLATED_FIX}")
    }

    /// Local: bubblewrap is there but cannot create a sandbox.
    pub fn local_userns_blocked() -> String {
        format!(
            "unprivileged user namespaces may be disabled: check `sysctl \
             kernel.unprivileged_userns_clone` and, on Ubuntu 24.04+, \
             `kernel.apparmor_restrict_unprivileged_userns`; {UNISOLATED_FIX}"
        )
    }

    /// Daytona: how a snapshot gets built.
    const BUILD: &str = "`outposts snapshot build` (content-hashed: it reuses a snapshot that \
                         already exists), or point SNAPSHOT_NAME / --snapshot at an active one";

    /// Daytona: the snapshot `name` does not exist.
    pub fn daytona_snapshot_missing() -> String {
        BUILD.to_string()
    }

    /// Daytona: the snapshot `name` failed to build.
    pub fn daytona_snapshot_failed(name: &str) -> String {
        format!("`outposts snapshot delete {name}`, then {BUILD}")
    }

    /// Daytona: the snapshot is still building (or in another not-yet-active state).
    pub fn daytona_snapshot_pending() -> String {
        format!("wait for it, or run {BUILD}; it follows the build to active")
    }
}
