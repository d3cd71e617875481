//! Every environment variable `outposts` reads, declared once.
//!
//! The same names work in the process environment, in a `.env` file and (lower-cased or not) as
//! keys of `outposts.toml`. Help text, the man page and the README's configuration table are all
//! generated from [`ALL`], and a test checks that the README matches it.

/// Which part of the tool a variable belongs to; used to group the generated docs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    Devin,
    Daytona,
    CoreWeave,
    Orchestrator,
    General,
}

impl Group {
    pub fn title(self) -> &'static str {
        match self {
            Group::Devin => "Devin",
            Group::Daytona => "Daytona",
            Group::CoreWeave => "CoreWeave",
            Group::Orchestrator => "Orchestrator",
            Group::General => "General",
        }
    }
}

/// One declared variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EnvVar {
    pub name: &'static str,
    /// Older names still accepted (the first non-empty one found wins, after `name`).
    pub aliases: &'static [&'static str],
    pub default: Option<&'static str>,
    pub doc: &'static str,
    /// Secrets are redacted everywhere and never written to state files.
    pub secret: bool,
    pub group: Group,
}

impl EnvVar {
    /// The declared default (empty when there is none). Code that needs a default reads it
    /// here, so no other place spells it.
    pub fn default_str(&self) -> &'static str {
        self.default.unwrap_or("")
    }

    /// The declared default as a count (zero when there is none or it is not one).
    pub fn default_count(&self) -> usize {
        self.default_str().parse().unwrap_or_default()
    }

    /// The declared default as a duration (zero when there is none or it is not one; a test
    /// checks every declared duration default parses).
    pub fn default_duration(&self) -> std::time::Duration {
        crate::config::parse_duration(self.default_str()).unwrap_or_default()
    }
}

/// `WORKDIR`'s default on CoreWeave, where its guide works and proves: `/workspace`, the
/// volume snapshotted across sleep (the declared default is Daytona's, also the local one).
pub const WORKDIR_COREWEAVE: &str = "/workspace";

macro_rules! env_vars {
    ($( $(#[doc = $doc:literal])+ $name:ident : $group:ident $(= $default:literal)? $(( $($alias:literal),* ))? $([$secret:ident])? ; )*) => {
        $(
            $(#[doc = $doc])+
            pub const $name: EnvVar = EnvVar {
                name: stringify!($name),
                aliases: &[$($($alias),*)?],
                default: env_vars!(@default $($default)?),
                doc: concat!($($doc, "\n"),+),
                secret: env_vars!(@secret $($secret)?),
                group: Group::$group,
            };
        )*
        /// Every declared variable, in documentation order.
        pub const ALL: &[EnvVar] = &[$($name),*];
    };
    (@default $d:literal) => { Some($d) };
    (@default) => { None };
    (@secret secret) => { true };
    (@secret) => { false };
}

env_vars! {
    /// Outpost machine token (`cog_…`) used for the session queue. Written by `outposts connect`.
    DEVIN_OUTPOSTS_TOKEN: Devin [secret];
    /// Devin API origin. A trailing `/` or `/opbeta` is removed.
    DEVIN_API_URL: Devin = "https://api.devin.ai";
    /// Devin web app origin; the connect page is `{DEVIN_APP_URL}/outposts/connect`.
    DEVIN_APP_URL: Devin = "https://app.devin.ai";
    /// Base URL of the `devin-remote` binaries (`latest_<suffix>`, `devin-remote_<sha>_<suffix>`).
    DEVIN_WORKER_STATIC_BASE_URL: Devin = "https://static.devin.ai/devin-rs/remote/";
    /// Outpost id (`outpost_env-…`) whose queue this tool serves. `POOL_ID` is the legacy name.
    OUTPOST_ID: Devin ("POOL_ID");
    /// Orchestrator-scope token for `outposts outpost create|delete` (never a flag value).
    DEVIN_OUTPOST_CREATE_TOKEN: Devin [secret];
    /// Service-user key (`cog_…`) for Devin's public v3 API: `session create|show|end|verify --create`
    /// and `outpost default`. Needs ManageOrgSessions and ViewOrgSessions (ManageOrgSettings for
    /// `outpost default`) on DEVIN_ORG_ID. Not DEVIN_OUTPOSTS_TOKEN; never sent to a sandbox.
    /// `orchestrator run` uses it (ViewOrgSessions) to record each session's ACUs in the ledger.
    DEVIN_API_KEY: Devin [secret];
    /// Organisation id (`org-…`) of the v3 API calls; `--org` overrides it.
    DEVIN_ORG_ID: Devin;
    /// Gateway URL used when a claim response carries none.
    DEVIN_OUTPOST_GATEWAY_URL: Devin;
    /// Daytona API key (`dtn_…`).
    DAYTONA_API_KEY: Daytona [secret];
    /// Daytona API base URL.
    DAYTONA_API_URL: Daytona = "https://app.daytona.io/api";
    /// Daytona region for new sandboxes and snapshots (organization default when unset).
    DAYTONA_TARGET: Daytona;
    /// Snapshot sandboxes start from; defaults to the content-hashed name `snapshot name` prints.
    SNAPSHOT_NAME: Daytona;
    /// Snapshots new sandboxes fall back to, in order, while the one above (`SNAPSHOT_NAME` or
    /// the built default) is quarantined (comma- or space-separated names). Each must be active.
    SNAPSHOT_FALLBACK: Daytona;
    /// Daytona targets (regions) new sandboxes fall back to, in order, while `DAYTONA_TARGET`
    /// is quarantined (comma- or space-separated; needs `DAYTONA_TARGET`).
    DAYTONA_TARGET_FALLBACK: Daytona;
    /// How long to wait for a Daytona sandbox to reach `started` (create, start) or `stopped`
    /// (stop); a duration (e.g. 90s, 10m; bare numbers are seconds).
    DAYTONA_START_TIMEOUT: Daytona = "5m";
    /// Daytona price overrides, e.g. `running.vcpu_second=0.000014,stopped.disk_gib_hour=0.000108`
    /// (USD; states running, stopped, archived; rates vcpu_second, memory_gib_second,
    /// disk_gib_hour). Unnamed entries keep the built-in defaults from daytona.io/pricing.
    DAYTONA_PRICES: Daytona;
    /// CoreWeave Sandbox API key, sent as a bearer token.
    CWSANDBOX_API_KEY: CoreWeave [secret];
    /// CoreWeave Sandbox API base URL (scheme and host only).
    CWSANDBOX_BASE_URL: CoreWeave = "https://api.cwsandbox.com";
    /// W&B API key, used for CoreWeave when `CWSANDBOX_API_KEY` is unset.
    WANDB_API_KEY: CoreWeave [secret];
    /// W&B entity sent with W&B authentication.
    WANDB_ENTITY: CoreWeave;
    /// W&B project sent with W&B authentication.
    WANDB_PROJECT: CoreWeave;
    /// W&B base URL; a non-W&B host is sent as `x-wandb-host`.
    WANDB_BASE_URL: CoreWeave;
    /// CoreWeave price overrides, same form as `DAYTONA_PRICES`; defaults derive from
    /// coreweave.com/pricing (CPU node per vCPU, file storage per GiB).
    COREWEAVE_PRICES: CoreWeave;
    /// Sandbox provider the orchestrator, workers and verify use: `daytona`, `coreweave` or `local`.
    OUTPOSTS_PROVIDER: Orchestrator = "daytona";
    /// Most sessions one orchestrator holds at once.
    MAX_CONCURRENT_SESSIONS: Orchestrator = "5";
    /// Most sandbox launches (create or start, then the remote) one orchestrator runs at once;
    /// the rest wait their turn, still claimed and renewed. Bounds the burst a provider sees, and
    /// how far claims run ahead: no new claim while twice this many are waiting to launch.
    MAX_PARALLEL_LAUNCHES: Orchestrator = "32";
    /// Failed creates in a row (refused, timed out, never ready, or ready far slower than usual)
    /// after which a snapshot is quarantined: new sandboxes go to `SNAPSHOT_FALLBACK`, or, with
    /// none usable, no new session is claimed until a probe after the cool-off succeeds.
    QUARANTINE_AFTER: Orchestrator = "3";
    /// The first cool-off of a quarantined snapshot; it doubles with each failed probe, up to 32
    /// times this. A duration (e.g. 1m; bare numbers are seconds).
    QUARANTINE_COOL_OFF: Orchestrator = "1m";
    /// Fixed acceptor id; by default one is generated and kept in the state dir per outpost.
    ACCEPTOR_ID: Orchestrator;
    /// Orchestrator state: acceptor ids, watch cursors, the lock. Created 0700.
    STATE_DIR: Orchestrator = "~/.devin-outposts-orchestrator";
    /// Directory inside Linux sandboxes that holds the session's repositories (on CoreWeave the
    /// default is `/workspace`, the snapshotted volume).
    WORKDIR: Orchestrator = "/home/daytona/workspace";
    /// Repositories cloned into `WORKDIR` before the remote starts (comma- or space-separated URLs).
    REPOS: Orchestrator;
    /// Username for cloning `REPOS` over HTTPS.
    GIT_USERNAME: Orchestrator = "x-access-token";
    /// Password or token for cloning `REPOS`; passed to the provider, never put in a URL.
    GIT_TOKEN: Orchestrator [secret];
    /// Chrome or Chromium path handed to `devin-remote` on Linux.
    DEVIN_CHROME_PATH: Orchestrator;
    /// Working directory inside Windows sandboxes.
    WINDOWS_WORKDIR: Orchestrator = "C:\\repos";
    /// Chrome path handed to `devin-remote` on Windows (default: where the Windows snapshot's
    /// provisioner installs Chrome for Testing).
    DEVIN_WINDOWS_CHROME_PATH: Orchestrator =
        "C:\\ProgramData\\devin-outposts\\chrome\\chrome-win64\\chrome.exe";
    /// Time between full relists of the queue; a duration (e.g. 30s; bare numbers are seconds).
    RECONCILE_INTERVAL: Orchestrator = "30s";
    /// Time between janitor sweeps; a duration (e.g. 1m; bare numbers are seconds).
    JANITOR_INTERVAL: Orchestrator = "1m";
    /// How long a sleeping session's stopped Daytona sandbox stays on the stopped tier before
    /// Daytona archives it to cheaper storage (a wake then restores it first, which takes
    /// longer than a start). Whole minutes; `0` = Daytona's maximum. Default: a day.
    ARCHIVE_AFTER: Orchestrator = "1d";
    /// Delete the stopped (or archived, or snapshotted) sandbox of a session that has been
    /// absent from the queue this long — an abandoned sleeper. Off when unset: a sleeping
    /// session's workspace is its data, and only `terminated` deletes it otherwise.
    SLEEP_RETENTION: Orchestrator;
    /// Sleep-integrity proof: `on` records a manifest of each sleeping session's working tree
    /// and home before its sandbox stops, and checks it after the wake, before the remote
    /// launches (WARN, metric and status on a difference); `off` skips both.
    INTEGRITY_CHECK: Orchestrator = "on";
    /// Most files a sleep's manifest lists (the first ones its walk finds; the rest of a larger
    /// tree is unchecked, and the status says the manifest was cut).
    INTEGRITY_MAX_FILES: Orchestrator = "50000";
    /// Most MiB of file content a sleep's manifest hashes (files up to 8 MiB each); beyond it,
    /// files are compared by size, mode and mtime only.
    INTEGRITY_HASH_MIB: Orchestrator = "256";
    /// Longest the manifest's walk, and again its hashing, may take at a sleep (each is cut
    /// there and the manifest keeps what was done); a duration (e.g. 20s).
    INTEGRITY_TIMEOUT: Orchestrator = "20s";
    /// How long a sandbox whose provisioning or remote failed (or that the provider put into
    /// `error`) is kept, stopped, for forensics before the janitor deletes it; its failure
    /// record (`outposts orchestrator failures`) stays. Never applies to a sleeping session's
    /// sandbox. A duration (e.g. 1d; bare numbers are seconds).
    FAILED_KEEP: Orchestrator = "1d";
    /// Spend ceiling in USD per hour for the alert `OutpostsSpendOverCeiling`: it fires while the
    /// outpost's sandboxes (running, stopped, archived, at the price table's rates) cost more
    /// per hour than this for 15 minutes. Unset: no alert. Exported as
    /// `outposts_spend_ceiling_usd_per_hour` (+Inf when unset).
    COST_ALERT_HOURLY: Orchestrator;
    /// Warm capacity: ready sandboxes kept above the active ones, each handed to the next new
    /// session (given to it) so serving it needs no create. A whole number, `auto` (sized
    /// from the observed arrival rate and create time, recomputed every minute), or `0` (off).
    /// Served on every provider (on CoreWeave by a receipt); see README "Warm capacity".
    WARM_IDLE: Orchestrator = "0";
    /// Most warm sandboxes kept idle at once, whatever `WARM_IDLE` asks.
    WARM_MAX: Orchestrator = "20";
    /// Spend ceiling of the warm capacity, in dollars per hour: at most this divided by one
    /// warm sandbox's hourly cost (`WARM_SANDBOX_HOURLY_COST`) are kept. Unset: no ceiling.
    WARM_MAX_HOURLY_COST: Orchestrator;
    /// What one idle warm sandbox costs per hour, in dollars (its running price); the spend
    /// ceiling divides by it. Unset: the price table's running rate for the sessions' sandbox
    /// size (`DAYTONA_PRICES`, `COREWEAVE_PRICES`, `LOCAL_PRICES`; 0 on the local provider, so
    /// there the ceiling binds only with this set).
    WARM_SANDBOX_HOURLY_COST: Orchestrator;
    /// What `orchestrator run` does with its warm sandboxes when it stops (Ctrl-C, SIGTERM):
    /// `delete` them (no idle spend while it is down) or `keep` them for the next start to adopt.
    WARM_ON_EXIT: Orchestrator = "delete";
    /// How long before `claim_deadline` a held claim is renewed (but no sooner than half the TTL
    /// the server granted, never twice within 2 s; a TTL too short for the margin is logged
    /// once); a duration (e.g. 1m; bare numbers are seconds).
    CLAIM_RENEW_MARGIN: Orchestrator = "1m";
    /// Time between liveness checks of a running remote (one toolbox exec each): how soon a
    /// remote that died is noticed and relaunched. The default costs 0.5 API calls per session
    /// per minute; 4m halves that. A duration (e.g. 2m; bare numbers are seconds).
    LIVENESS_INTERVAL: Orchestrator = "2m";
    /// Path of `outposts.toml`; default `$XDG_CONFIG_HOME/outposts/outposts.toml`.
    OUTPOSTS_CONFIG: General;
    /// Most attempts for one HTTP request (1 turns retries off).
    OUTPOSTS_HTTP_ATTEMPTS: General = "5";
    /// How long to wait for a TCP/TLS connection; a duration (e.g. 10s; bare numbers are seconds).
    OUTPOSTS_CONNECT_TIMEOUT: General = "10s";
    /// How long without a byte from the server before a request fails (streams included); a
    /// duration (e.g. 30s; bare numbers are seconds).
    OUTPOSTS_READ_TIMEOUT: General = "30s";
    /// Set to `1` to never touch the OS keyring (headless hosts, CI, tests).
    OUTPOSTS_NO_KEYRING: General;
    /// Local port `outposts connect` listens on for Devin's redirect
    /// (`http://localhost:<port>/callback`). Devin's allowlist expects 8765.
    OUTPOSTS_CONNECT_PORT: General = "8765";
    /// Command that opens the connect page (the URL is appended, or replaces `%s`); it is used
    /// even on a host that looks headless. Unset: the system's default browser.
    BROWSER: General;
    /// Port of the local emulator for `outposts emulator …` commands.
    OUTPOSTS_EMULATOR_PORT: General = "8790";
    /// Where the local provider keeps its sandboxes (one directory each); default
    /// `$XDG_DATA_HOME/outposts/sandboxes` (`~/.local/share/outposts/sandboxes`).
    OUTPOSTS_LOCAL_ROOT: General;
    /// Set to `1` to let the local provider run sandboxes WITHOUT isolation when bubblewrap
    /// (`bwrap`) is missing: commands then run as host processes and absolute paths are host paths.
    OUTPOSTS_LOCAL_UNISOLATED: General;
    /// Local provider prices, same form as `DAYTONA_PRICES` (all 0 by default: the machine is yours).
    LOCAL_PRICES: General;
    /// Set by the local provider (never read from your environment) in every process of an
    /// unisolated sandbox: the host directory that sandbox sees as `/`. Its commands' paths are
    /// mapped there; a program handed sandbox paths some other way can place them with it.
    OUTPOSTS_SANDBOX_ROOT: General;
    /// Host directory holding a `devin` executable that local sandboxes running the Devin CLI
    /// (`worker launch --provider local`) see at `/opt/devin/bin/devin` (read-only, first on
    /// `PATH`); a symlinked `devin` has its target bound too. `outposts emulator env` points it
    /// at the emulator's fake CLI.
    OUTPOSTS_DEVIN_CLI_DIR: General;
    /// Longest `Retry-After` wait honoured; longer requests are clamped to it. A duration (e.g.
    /// 2m; bare numbers are seconds).
    OUTPOSTS_RETRY_AFTER_CAP: General = "2m";
    /// Debug builds only (ignored by release builds): failpoints that crash or pause the
    /// orchestrator at named steps for reliability tests, e.g. `claim.after=kill`
    /// (see `src/failpoint.rs`).
    OUTPOSTS_FAILPOINTS: General;
    /// Debug builds only (ignored by release builds): a JSON file that stands in for the OS
    /// keyring, so integration tests can store and read keyring entries without a real one.
    OUTPOSTS_TEST_KEYRING: General;
}

/// The declared name closest to a key nobody reads (`DEVIN_APIURL` → `DEVIN_API_URL`), when it
/// is close enough to be a typo of it: a few edits, case ignored.
pub fn closest(key: &str) -> Option<&'static str> {
    let key = key.to_ascii_uppercase();
    let limit = (key.len() / 5).clamp(1, 3);
    ALL.iter()
        .flat_map(|v| std::iter::once(v.name).chain(v.aliases.iter().copied()))
        .map(|n| (edit_distance(&key, n), n))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, n)| find(n).map_or(n, |v| v.name))
}

/// Levenshtein distance over bytes (the names are ASCII).
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// Look a variable up by its name or one of its aliases.
pub fn find(name: &str) -> Option<&'static EnvVar> {
    ALL.iter().find(|v| {
        v.name.eq_ignore_ascii_case(name) || v.aliases.iter().any(|a| a.eq_ignore_ascii_case(name))
    })
}

/// Markdown table of every variable, for the README (checked by a test).
pub fn markdown_table() -> String {
    let mut out = String::from("| Variable | Default | Meaning |\n|---|---|---|\n");
    for v in ALL {
        let mut name = format!("`{}`", v.name);
        for a in v.aliases {
            name.push_str(&format!(" (legacy `{a}`)"));
        }
        let default = v
            .default
            .map(|d| format!("`{d}`"))
            .unwrap_or_else(|| "—".into());
        // A `|` would end the table cell, even inside backticks (GFM).
        let mut doc = v.doc.trim().replace('\n', " ").replace('|', "\\|");
        if v.secret {
            doc.push_str(" *Secret: redacted everywhere.*");
        }
        out.push_str(&format!("| {name} | {default} | {doc} |\n"));
    }
    out
}

/// Plain-text ENVIRONMENT section for `--help` and the man page.
pub fn help_text() -> String {
    let mut out = String::from(
        "Environment (flag > environment > .env > outposts.toml > keyring > default):\n",
    );
    for v in ALL {
        let default = v
            .default
            .map(|d| format!(" [default: {d}]"))
            .unwrap_or_default();
        out.push_str(&format!(
            "  {}{}\n      {}\n",
            v.name,
            default,
            v.doc.trim().replace('\n', " ")
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_documented() {
        let mut seen = std::collections::HashSet::new();
        for v in ALL {
            assert!(seen.insert(v.name), "duplicate {}", v.name);
            for a in v.aliases {
                assert!(seen.insert(a), "duplicate alias {a}");
            }
            assert!(!v.doc.trim().is_empty(), "{} has no doc", v.name);
        }
    }

    #[test]
    fn legacy_pool_id_resolves_to_outpost_id() {
        assert_eq!(find("POOL_ID").map(|v| v.name), Some("OUTPOST_ID"));
        assert!(find("NOPE").is_none());
    }
}
