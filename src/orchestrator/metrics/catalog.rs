//! Every metric `orchestrator run` exports, declared once: the registry takes name, type and help
//! from here, and so does the README's metrics table ([`markdown_table`], drift-tested).

/// The prefix of every metric.
pub const PREFIX: &str = "outposts";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Counter,
    Gauge,
    Histogram,
}

/// One metric family.
#[derive(Debug, Clone, Copy)]
pub struct Def {
    /// Registered name, without the prefix (counters get `_total` when exposed).
    pub name: &'static str,
    pub kind: Kind,
    /// Label names, each with its values when they are a fixed set.
    pub labels: &'static [&'static str],
    pub help: &'static str,
}

impl Def {
    /// The name of its series: `outposts_claims_total`, `outposts_connect_seconds`.
    pub fn exposed(&self) -> String {
        match self.kind {
            Kind::Counter => format!("{PREFIX}_{}_total", self.name),
            _ => format!("{PREFIX}_{}", self.name),
        }
    }
}

const fn def(
    name: &'static str,
    kind: Kind,
    labels: &'static [&'static str],
    help: &'static str,
) -> Def {
    Def {
        name,
        kind,
        labels,
        help,
    }
}

use Kind::{Counter, Gauge, Histogram};

pub const BUILD_INFO: Def = def(
    "build_info",
    Gauge,
    &["version", "provider"],
    "Always 1; the labels say which build serves which provider.",
);
pub const CLAIMS: Def = def(
    "claims",
    Counter,
    &["result: won|lost|gone|failed"],
    "Claim attempts: won, lost to another acceptor (409), gone from the queue, failed (error or no answer).",
);
pub const RENEWALS: Def = def(
    "claim_renewals",
    Counter,
    &["result: ok|lost|failed"],
    "Renewals of held claims.",
);
pub const RELEASES: Def = def(
    "releases",
    Counter,
    &[],
    "Claims released (after the sandbox was stopped or deleted).",
);
pub const SESSIONS: Def = def(
    "sessions",
    Gauge,
    &["phase: waiting|provisioning|serving"],
    "Sessions by phase: waiting = claimable and held by nobody; provisioning and serving = held by this instance, remote not yet running or running.",
);
pub const OLDEST_WAITING: Def = def(
    "oldest_waiting_session_seconds",
    Gauge,
    &[],
    "Age of the longest-waiting claimable session nobody holds, since its queue row last changed (0 when none waits).",
);
pub const SANDBOXES: Def = def(
    "sandboxes",
    Gauge,
    &["state: running|stopped|archived|snapshot"],
    "The outpost's sandboxes by state, from the janitor's last listing (snapshot = a CoreWeave sleeper kept only as a workspace snapshot).",
);
pub const TERMINATED_LEFT: Def = def(
    "sandboxes_of_terminated_sessions",
    Gauge,
    &[],
    "Sandboxes in the janitor's last listing whose session this instance saw terminated (should drop to 0 within a janitor pass).",
);
pub const CLAIM_WAIT: Def = def(
    "claim_wait_seconds",
    Histogram,
    &[],
    "Enqueued (the queue row's last change) to claimed by this instance.",
);
pub const CONNECT: Def = def(
    "connect_seconds",
    Histogram,
    &[],
    "Claimed to remote connected (sandbox ready, remote running).",
);
pub const WAKE: Def = def(
    "wake_seconds",
    Histogram,
    &[],
    "Wake: claim of a sleeping session to served again (its sandbox started or restored).",
);
pub const SLEEP: Def = def(
    "sleep_seconds",
    Histogram,
    &[],
    "Sleep: the session seen suspended to its sandbox stopped.",
);
pub const API_DURATION: Def = def(
    "api_request_duration_seconds",
    Histogram,
    &[
        "api: devin|daytona|coreweave|remote_download",
        "operation",
        "status_class: 2xx|3xx|4xx|5xx|transport",
    ],
    "Every request attempt to a remote API (retries count), until the status line. `operation` is the method and path with ids as `{id}` (gRPC: the method).",
);
pub const API_REJECTED: Def = def(
    "api_credentials_rejected",
    Counter,
    &["api"],
    "Answers 401/403 (gRPC UNAUTHENTICATED/PERMISSION_DENIED): a revoked or wrong token.",
);
pub const API_FAILURES: Def = def(
    "api_failures",
    Counter,
    &["status_class"],
    "Orchestrator operations that failed on an API error after retries.",
);
pub const PROVIDER_DURATION: Def = def(
    "provider_operation_duration_seconds",
    Histogram,
    &[
        "provider: daytona|coreweave|local",
        "operation: create|get|list|start|stop|delete|exec|…",
        "result: ok|error",
    ],
    "Sandbox provider calls, from the orchestrator's side (retries included).",
);
pub const LAUNCHES: Def = def(
    "remote_launches",
    Counter,
    &[],
    "Remotes started in a sandbox (adopting a running one does not count).",
);
pub const PROVISION_FAILURES: Def = def(
    "provision_failures",
    Counter,
    &["reason: foreign|policy|other"],
    "Provisioning or launch attempts that failed (foreign = the sandbox under the session's name is not ours; policy = its network policy cannot be enforced).",
);
pub const TRANSITIONS: Def = def(
    "sandbox_transitions",
    Counter,
    &["transition: created|started|stopped|deleted|lost"],
    "Sandbox lifecycle steps the orchestrator took (lost = vanished under a live session).",
);
pub const SANDBOX_CREATES: Def = def(
    "sandbox_creates",
    Counter,
    &["served: warm|cold"],
    "Sandboxes the orchestrator created, by whether the provider served the create from a started warm-pool sandbox (Daytona warm pools) or created it cold.",
);
pub const WARM_SANDBOXES: Def = def(
    "warm_sandboxes",
    Gauge,
    &["state: idle|creating|target"],
    "Warm capacity (WARM_IDLE): started sandboxes waiting for a session, those being created, and the target the planner keeps (after WARM_MAX and WARM_MAX_HOURLY_COST). Hits and misses are sandbox_creates_total{served}.",
);
pub const WATCH_RECONNECTS: Def = def(
    "watch_reconnects",
    Counter,
    &[],
    "Gaps in the queue's watch stream (each is followed by a reconnect and a relist).",
);
pub const RELISTS: Def = def(
    "relists",
    Counter,
    &["result: ok|failed"],
    "Full listings of the queue.",
);
pub const PLACEMENT_QUARANTINED: Def = def(
    "placement_quarantined",
    Gauge,
    &["kind: snapshot|image|target|profile", "name"],
    "1 while new sandboxes are kept off this snapshot or image (failed creates in a row, or far slower than usual); 0 while it is used.",
);
pub const CLAIMING_STOPPED: Def = def(
    "claiming_stopped",
    Gauge,
    &[],
    "1 while no new session is claimed because every snapshot sessions could be placed on is quarantined; 0 otherwise.",
);
pub const JANITOR_RUNS: Def = def(
    "janitor_runs",
    Counter,
    &["result: ok|failed"],
    "Janitor passes (failed = the sandbox listing could not be read).",
);
pub const JANITOR_SUCCESS: Def = def(
    "janitor_last_success_timestamp_seconds",
    Gauge,
    &[],
    "When the last janitor pass listed the sandboxes (Unix time; 0 before the first).",
);
pub const JANITOR_VERDICTS: Def = def(
    "janitor_verdicts",
    Counter,
    &["verdict: skip|stop|delete|reap"],
    "The janitor's verdicts, one per sandbox per pass.",
);
pub const JANITOR_ACTIONS: Def = def(
    "janitor_actions",
    Counter,
    &[
        "action: stopped|deleted|retention_deleted|failed_reaped",
        "result: ok|failed",
    ],
    "What the janitor did to sandboxes (and sleepers' workspaces) after its verdict.",
);
pub const WAKE_INTEGRITY: Def = def(
    "wake_integrity",
    Counter,
    &["result: intact|changed|lost|unchecked"],
    "Wakes whose files were compared with the manifest recorded at their sleep: intact, changed, lost (a recorded file or the manifest itself is missing), or unchecked (nothing recorded, or the check failed).",
);
pub const RECONCILE: Def = def(
    "reconcile_duration_seconds",
    Histogram,
    &[],
    "Planning and dispatching time per reconcile pass.",
);
pub const SANDBOX_COST: Def = def(
    "sandbox_cost_usd",
    Gauge,
    &["provider", "state: running|stopped|archived"],
    "USD the outpost's sandboxes have cost, by state, summed from the cost ledger (every recorded session, open stretches up to now): what `outposts cost --json` sums.",
);
pub const WARM_IDLE_COST: Def = def(
    "warm_idle_cost_usd",
    Gauge,
    &["provider"],
    "USD the idle warm sandboxes have cost (ready, not yet handed to a session), summed from the cost ledger: the warm capacity's share of sandbox_cost_usd, the `warm` row of `outposts cost --by session`.",
);
pub const SPEND_RATE: Def = def(
    "sandbox_spend_usd_per_hour",
    Gauge,
    &["provider", "state: running|stopped|archived"],
    "What the sessions' sandboxes cost per hour as they are now, at the price table's rates.",
);
pub const SPEND_CEILING: Def = def(
    "spend_ceiling_usd_per_hour",
    Gauge,
    &[],
    "COST_ALERT_HOURLY (+Inf when unset): OutpostsSpendOverCeiling fires while the spend rate stays above it.",
);
pub const RECONCILED_AT: Def = def(
    "last_reconcile_timestamp_seconds",
    Gauge,
    &[],
    "When the last reconcile pass ran (Unix time).",
);

/// Every metric, in README order.
pub const ALL: &[Def] = &[
    BUILD_INFO,
    CLAIMS,
    RENEWALS,
    RELEASES,
    SESSIONS,
    OLDEST_WAITING,
    SANDBOXES,
    TERMINATED_LEFT,
    CLAIM_WAIT,
    CONNECT,
    WAKE,
    SLEEP,
    API_DURATION,
    API_REJECTED,
    API_FAILURES,
    PROVIDER_DURATION,
    LAUNCHES,
    PROVISION_FAILURES,
    TRANSITIONS,
    SANDBOX_CREATES,
    WARM_SANDBOXES,
    WATCH_RECONNECTS,
    RELISTS,
    PLACEMENT_QUARANTINED,
    CLAIMING_STOPPED,
    JANITOR_RUNS,
    JANITOR_SUCCESS,
    JANITOR_VERDICTS,
    JANITOR_ACTIONS,
    WAKE_INTEGRITY,
    RECONCILE,
    RECONCILED_AT,
    SANDBOX_COST,
    WARM_IDLE_COST,
    SPEND_RATE,
    SPEND_CEILING,
];

/// The README's metrics table.
pub fn markdown_table() -> String {
    let mut out = String::from("| Metric | Type | Labels | Meaning |\n|---|---|---|---|\n");
    for d in ALL {
        let kind = match d.kind {
            Counter => "counter",
            Gauge => "gauge",
            Histogram => "histogram",
        };
        let labels = if d.labels.is_empty() {
            "–".to_string()
        } else {
            d.labels
                .iter()
                .map(|l| format!("`{l}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        out.push_str(&format!(
            "| `{}` | {kind} | {} | {} |\n",
            d.exposed(),
            labels.replace('|', "\\|"),
            d.help.replace('|', "\\|")
        ));
    }
    out
}
