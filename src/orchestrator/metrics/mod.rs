//! The orchestrator's metrics (`prometheus-client`, OpenMetrics text) and its probes
//! (`/readyz`, `/livez`, `/healthz`: see `health.rs`), served on `--metrics-addr` (off by default). Names, types and help come from [`catalog`]; the executor
//! reports through the hooks in `hooks.rs`, the API layer through [`telemetry::Observer`], the
//! provider through the wrapper in `provider.rs`. Labels are bounded: never a session or
//! sandbox id.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Mutex;
use std::sync::atomic::AtomicU64;
use std::time::Duration;

use axum::Router;
use axum::routing::get;
use prometheus_client::encoding::prometheus_text;
use prometheus_client::encoding::text::encode;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::{Metric, Registry};

use crate::api::telemetry;
use crate::provider::ProviderKind;

pub mod catalog;
mod health;
mod hooks;
mod provider;
mod warm;

pub use provider::instrument;

use catalog::Def;

/// Label sets: a few fixed names, values from small fixed sets (or API operation templates).
type Labels = Vec<(&'static str, String)>;
type HistogramFamily = Family<Labels, Histogram, fn() -> Histogram>;
type Seconds = Gauge<f64, AtomicU64>;

/// Session latencies: half a second to half an hour.
const LATENCY: [f64; 12] = [
    0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 30.0, 60.0, 120.0, 300.0, 600.0, 1800.0,
];
const API: [f64; 12] = [
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
];
const PROVIDER: [f64; 12] = [
    0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0,
];
const RECONCILE: [f64; 9] = [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1.0];

fn api_histogram() -> Histogram {
    Histogram::new(API)
}
fn provider_histogram() -> Histogram {
    Histogram::new(PROVIDER)
}

pub(super) fn labels(pairs: &[(&'static str, &str)]) -> Labels {
    pairs.iter().map(|(k, v)| (*k, v.to_string())).collect()
}

/// The metrics of one orchestrator.
pub struct Metrics {
    registry: Registry,
    claims: Family<Labels, Counter>,
    renewals: Family<Labels, Counter>,
    releases: Counter,
    sessions: Family<Labels, Gauge>,
    oldest_waiting: Seconds,
    sandboxes: Family<Labels, Gauge>,
    terminated_left: Gauge,
    warm: Family<Labels, Gauge>,
    claim_wait: Histogram,
    connect: Histogram,
    wake: Histogram,
    sleep: Histogram,
    api_duration: HistogramFamily,
    api_rejected: Family<Labels, Counter>,
    api_failures: Family<Labels, Counter>,
    provider_duration: HistogramFamily,
    launches: Counter,
    provision_failures: Family<Labels, Counter>,
    transitions: Family<Labels, Counter>,
    sandbox_creates: Family<Labels, Counter>,
    watch_reconnects: Counter,
    relists: Family<Labels, Counter>,
    placement_quarantined: Family<Labels, Gauge>,
    claiming_stopped: Gauge,
    janitor_runs: Family<Labels, Counter>,
    janitor_success: Seconds,
    janitor_verdicts: Family<Labels, Counter>,
    janitor_actions: Family<Labels, Counter>,
    wake_integrity: Family<Labels, Counter>,
    reconcile: Histogram,
    reconciled_at: Seconds,
    sandbox_cost: Family<Labels, Seconds>,
    warm_idle_cost: Family<Labels, Seconds>,
    spend_rate: Family<Labels, Seconds>,
    spend_ceiling: Seconds,
    /// What the probes answer from.
    health: health::Health,
    /// Per session in flight: when its latencies started (ids stay here, never in labels).
    timers: Mutex<HashMap<String, hooks::Timers>>,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Metrics")
    }
}

fn reg<M: Metric + Clone>(r: &mut Registry, d: &Def, m: M) -> M {
    // The encoder ends help with a full stop itself.
    r.register(d.name, d.help.trim_end_matches('.'), m.clone());
    m
}

/// Create every listed label set at 0, so that each series exists from the first scrape
/// (alerts on `increase(…)` then see a zero, not nothing).
fn init(f: &Family<Labels, Counter>, key: &'static str, values: &[&str]) {
    for v in values {
        let _ = f.get_or_create(&labels(&[(key, v)]));
    }
}

impl Metrics {
    /// `interval`: the loop's `RECONCILE_INTERVAL`, the unit of the probes' limits.
    pub fn new(provider: ProviderKind, interval: Duration) -> Self {
        use catalog as c;
        let mut r = Registry::with_prefix(c::PREFIX);
        let build: Family<Labels, Gauge> = reg(&mut r, &c::BUILD_INFO, Family::default());
        build
            .get_or_create(&labels(&[
                ("version", env!("CARGO_PKG_VERSION")),
                ("provider", provider.as_str()),
            ]))
            .set(1);
        let m = Metrics {
            claims: reg(&mut r, &c::CLAIMS, Family::default()),
            renewals: reg(&mut r, &c::RENEWALS, Family::default()),
            releases: reg(&mut r, &c::RELEASES, Counter::default()),
            sessions: reg(&mut r, &c::SESSIONS, Family::default()),
            oldest_waiting: reg(&mut r, &c::OLDEST_WAITING, Seconds::default()),
            sandboxes: reg(&mut r, &c::SANDBOXES, Family::default()),
            terminated_left: reg(&mut r, &c::TERMINATED_LEFT, Gauge::default()),
            claim_wait: reg(&mut r, &c::CLAIM_WAIT, Histogram::new(LATENCY)),
            connect: reg(&mut r, &c::CONNECT, Histogram::new(LATENCY)),
            wake: reg(&mut r, &c::WAKE, Histogram::new(LATENCY)),
            sleep: reg(&mut r, &c::SLEEP, Histogram::new(LATENCY)),
            api_duration: reg(
                &mut r,
                &c::API_DURATION,
                Family::new_with_constructor(api_histogram as fn() -> Histogram),
            ),
            api_rejected: reg(&mut r, &c::API_REJECTED, Family::default()),
            api_failures: reg(&mut r, &c::API_FAILURES, Family::default()),
            provider_duration: reg(
                &mut r,
                &c::PROVIDER_DURATION,
                Family::new_with_constructor(provider_histogram as fn() -> Histogram),
            ),
            launches: reg(&mut r, &c::LAUNCHES, Counter::default()),
            provision_failures: reg(&mut r, &c::PROVISION_FAILURES, Family::default()),
            transitions: reg(&mut r, &c::TRANSITIONS, Family::default()),
            sandbox_creates: reg(&mut r, &c::SANDBOX_CREATES, Family::default()),
            warm: reg(&mut r, &c::WARM_SANDBOXES, Family::default()),
            watch_reconnects: reg(&mut r, &c::WATCH_RECONNECTS, Counter::default()),
            relists: reg(&mut r, &c::RELISTS, Family::default()),
            placement_quarantined: reg(&mut r, &c::PLACEMENT_QUARANTINED, Family::default()),
            claiming_stopped: reg(&mut r, &c::CLAIMING_STOPPED, Gauge::default()),
            janitor_runs: reg(&mut r, &c::JANITOR_RUNS, Family::default()),
            janitor_success: reg(&mut r, &c::JANITOR_SUCCESS, Seconds::default()),
            janitor_verdicts: reg(&mut r, &c::JANITOR_VERDICTS, Family::default()),
            janitor_actions: reg(&mut r, &c::JANITOR_ACTIONS, Family::default()),
            wake_integrity: reg(&mut r, &c::WAKE_INTEGRITY, Family::default()),
            reconcile: reg(&mut r, &c::RECONCILE, Histogram::new(RECONCILE)),
            reconciled_at: reg(&mut r, &c::RECONCILED_AT, Seconds::default()),
            sandbox_cost: reg(&mut r, &c::SANDBOX_COST, Family::default()),
            warm_idle_cost: reg(&mut r, &c::WARM_IDLE_COST, Family::default()),
            spend_rate: reg(&mut r, &c::SPEND_RATE, Family::default()),
            spend_ceiling: reg(&mut r, &c::SPEND_CEILING, Seconds::default()),
            registry: r,
            health: health::Health::new(interval),
            timers: Mutex::new(HashMap::new()),
        };
        m.init_series(provider);
        m
    }

    /// Create every listed label set at 0 (see [`init`]).
    fn init_series(&self, provider: ProviderKind) {
        init(&self.claims, "result", &["won", "lost", "gone", "failed"]);
        init(&self.renewals, "result", &["ok", "lost", "failed"]);
        for phase in hooks::PHASES {
            let _ = self.sessions.get_or_create(&labels(&[("phase", phase)]));
        }
        for state in hooks::FLEET_STATES {
            let _ = self.sandboxes.get_or_create(&labels(&[("state", state)]));
        }
        let apis = crate::settings::descriptor(provider).apis;
        init(&self.api_rejected, "api", apis);
        init(
            &self.provision_failures,
            "reason",
            &["foreign", "policy", "other"],
        );
        init(
            &self.transitions,
            "transition",
            &["created", "started", "stopped", "deleted", "lost"],
        );
        init(&self.sandbox_creates, "served", &["warm", "cold"]);
        for state in crate::cost::prices::CostState::ALL {
            let l = labels(&[("provider", provider.as_str()), ("state", state.as_str())]);
            let _ = self.sandbox_cost.get_or_create(&l);
            let _ = self.spend_rate.get_or_create(&l);
        }
        let _ = self
            .warm_idle_cost
            .get_or_create(&labels(&[("provider", provider.as_str())]));
        init(&self.relists, "result", &["ok", "failed"]);
        let results = crate::orchestrator::integrity::WakeResult::ALL.map(|r| r.as_str());
        init(&self.wake_integrity, "result", &results);
        init(&self.janitor_runs, "result", &["ok", "failed"]);
        init(
            &self.janitor_verdicts,
            "verdict",
            &["skip", "stop", "delete"],
        );
        for action in crate::orchestrator::plan::janitor::JanitorAction::ALL {
            for result in ["ok", "failed"] {
                let _ = self
                    .janitor_actions
                    .get_or_create(&labels(&[("action", action.as_str()), ("result", result)]));
            }
        }
    }

    /// One reconcile pass took `took`.
    pub fn reconciled(&self, took: Duration) {
        self.reconcile.observe(took.as_secs_f64());
        self.reconciled_at.set(crate::time::now());
        self.health.passed();
    }

    /// Whether new sandboxes are kept off this placement.
    pub fn placement_quarantined(
        &self,
        key: &crate::orchestrator::plan::placement::Key,
        quarantined: bool,
    ) {
        self.placement_quarantined
            .get_or_create(&labels(&[("kind", key.kind.as_str()), ("name", &key.name)]))
            .set(i64::from(quarantined));
    }

    /// Whether new sessions are claimed (`false`: every placement is quarantined).
    pub fn claiming_stopped(&self, stopped: bool) {
        self.claiming_stopped.set(i64::from(stopped));
    }

    /// The cost ledger's sums (USD per provider and state) and spend rate now.
    pub fn set_cost(
        &self,
        sums: &std::collections::BTreeMap<
            String,
            (crate::cost::tally::PerState, crate::cost::tally::PerState),
        >,
        rate: &std::collections::BTreeMap<(String, crate::cost::prices::CostState), f64>,
        warm: &std::collections::BTreeMap<String, f64>,
    ) {
        use crate::cost::prices::CostState;
        for (provider, (_, usd)) in sums {
            for state in CostState::ALL {
                self.sandbox_cost
                    .get_or_create(&labels(&[
                        ("provider", provider),
                        ("state", state.as_str()),
                    ]))
                    .set(usd.get(state));
            }
        }
        for provider in sums.keys() {
            self.warm_idle_cost
                .get_or_create(&labels(&[("provider", provider)]))
                .set(warm.get(provider).copied().unwrap_or(0.0));
        }
        // Every known series is set, so a state nothing is in any more reads 0.
        for provider in sums.keys() {
            for state in CostState::ALL {
                let r = rate.get(&(provider.clone(), state)).copied().unwrap_or(0.0);
                self.spend_rate
                    .get_or_create(&labels(&[
                        ("provider", provider),
                        ("state", state.as_str()),
                    ]))
                    .set(r);
            }
        }
    }

    /// `COST_ALERT_HOURLY` (+Inf: unset, so the alert's ratio stays 0).
    pub fn set_spend_ceiling(&self, usd_per_hour: f64) {
        self.spend_ceiling.set(usd_per_hour);
    }

    /// An operation failed on an API error after retries (`None`: no HTTP status).
    pub fn api_error(&self, status: Option<u16>) {
        let class = status.map_or("transport", |s| telemetry::Answer::Http(s).class());
        self.api_failures
            .get_or_create(&labels(&[("status_class", class)]))
            .inc();
    }

    /// The exposition: OpenMetrics text (ending in `# EOF`), or with `openmetrics` false the
    /// Prometheus text format 0.0.4 (for `curl | promtool check metrics` and older scrapers).
    pub fn render(&self, openmetrics: bool) -> String {
        let mut out = String::new();
        let done = if openmetrics {
            encode(&mut out, &self.registry)
        } else {
            prometheus_text::encode(&mut out, &self.registry)
        };
        if let Err(e) = done {
            tracing::warn!("cannot encode the metrics: {e}");
        }
        out
    }
}

impl telemetry::Observer for Metrics {
    fn exchange(&self, e: &telemetry::Exchange<'_>) {
        self.health.answer(e.api, e.answer);
        self.api_duration
            .get_or_create(&labels(&[
                ("api", e.api),
                ("operation", e.operation),
                ("status_class", e.answer.class()),
            ]))
            .observe(e.took.as_secs_f64());
        if e.answer.rejected_credentials() {
            self.api_rejected
                .get_or_create(&labels(&[("api", e.api)]))
                .inc();
        }
    }
}

/// A probe's answer: 200 or 503, with the reason on one line.
fn probe(verdict: Result<String, String>) -> (axum::http::StatusCode, String) {
    match verdict {
        Ok(why) => (axum::http::StatusCode::OK, format!("{why}\n")),
        Err(why) => (
            axum::http::StatusCode::SERVICE_UNAVAILABLE,
            format!("{why}\n"),
        ),
    }
}

/// Serve `/metrics`, `/readyz`, `/livez` and `/healthz` (= `/livez`) until the process exits.
pub async fn serve(
    addr: SocketAddr,
    metrics: std::sync::Arc<Metrics>,
) -> anyhow::Result<SocketAddr> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| anyhow::anyhow!("cannot listen on {addr} for metrics: {e}"))?;
    let bound = listener.local_addr()?;
    let (ready_m, live_m) = (metrics.clone(), metrics.clone());
    let live = move || {
        let m = live_m.clone();
        async move { probe(health::live(&m.health.facts())) }
    };
    let app = Router::new()
        .route(
            "/metrics",
            get(move |headers: axum::http::HeaderMap| {
                let m = metrics.clone();
                async move {
                    // Content negotiation, as Prometheus's own clients do it.
                    let openmetrics = headers
                        .get_all(axum::http::header::ACCEPT)
                        .iter()
                        .filter_map(|v| v.to_str().ok())
                        .any(|v| v.contains("application/openmetrics-text"));
                    let ctype = if openmetrics {
                        "application/openmetrics-text; version=1.0.0; charset=utf-8"
                    } else {
                        prometheus_text::CONTENT_TYPE
                    };
                    ([("content-type", ctype)], m.render(openmetrics))
                }
            }),
        )
        .route(
            "/readyz",
            get(move || {
                let m = ready_m.clone();
                async move { probe(health::ready(&m.health.facts())) }
            }),
        )
        .route("/livez", get(live.clone()))
        .route("/healthz", get(live));
    tokio::spawn(async move {
        if let Err(e) = axum::serve(listener, app).await {
            tracing::warn!("metrics server stopped: {e}");
        }
    });
    Ok(bound)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_catalog_entry_is_exposed_once_and_nothing_else() {
        let m = Metrics::new(ProviderKind::Daytona, Duration::from_secs(30));
        use telemetry::Observer;
        m.exchange(&telemetry::Exchange {
            api: "devin",
            operation: "GET /opbeta/outposts/devins",
            answer: telemetry::Answer::Http(401),
            took: Duration::from_millis(3),
        });
        m.api_error(Some(503));
        m.provider_call(ProviderKind::Daytona, "get", true, 0.02);
        m.placement_quarantined(
            &crate::orchestrator::plan::placement::Key::snapshot("s"),
            false,
        );
        m.warm_capacity(1, 0, 1);
        let text = m.render(true);
        assert!(text.ends_with("# EOF\n"), "{text}");
        let helps: Vec<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix("# HELP "))
            .map(|l| l.split(' ').next().unwrap_or_default())
            .collect();
        let want: Vec<String> = catalog::ALL
            .iter()
            .map(|d| format!("{}_{}", catalog::PREFIX, d.name))
            .collect();
        assert_eq!(helps, want);
        for d in catalog::ALL {
            let series = match d.kind {
                catalog::Kind::Histogram => format!("{}_count", d.exposed()),
                _ => d.exposed(),
            };
            assert!(text.contains(&format!("\n{series}")), "{series}:\n{text}");
            // The catalog's label names are the ones on the series.
            for l in d.labels {
                let name = l.split(':').next().unwrap_or_default();
                assert!(
                    text.lines()
                        .any(|s| s.starts_with(&series) && s.contains(&format!("{name}=\""))),
                    "{series} has no {name} label:\n{text}"
                );
            }
        }
        assert!(text.contains("outposts_claims_total{result=\"won\"} 0\n"));
        assert!(text.contains("outposts_api_credentials_rejected_total{api=\"devin\"} 1\n"));
        assert!(text.contains("outposts_api_failures_total{status_class=\"5xx\"} 1\n"));
        assert!(text.contains("outposts_build_info{version=\""));
        let classic = m.render(false);
        assert!(
            classic.contains("# TYPE outposts_claims_total counter\n"),
            "{classic}"
        );
        assert!(!classic.contains("# EOF"));
        std::fs::write(
            std::env::temp_dir().join("outposts-metrics-sample.txt"),
            &classic,
        )
        .ok();
    }
}
