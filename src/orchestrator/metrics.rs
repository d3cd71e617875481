//! Prometheus text metrics and `/healthz`, served on `--metrics-addr` (off by default).

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use axum::Router;
use axum::routing::get;

/// Counters and gauges of one orchestrator.
#[derive(Debug, Default)]
pub struct Metrics {
    pub claims: AtomicU64,
    pub claim_conflicts: AtomicU64,
    pub renewals: AtomicU64,
    pub releases: AtomicU64,
    pub sandboxes_created: AtomicU64,
    pub sandboxes_started: AtomicU64,
    pub sandboxes_stopped: AtomicU64,
    pub sandboxes_deleted: AtomicU64,
    pub remotes_launched: AtomicU64,
    pub provision_failures: AtomicU64,
    pub sandboxes_lost: AtomicU64,
    pub janitor_actions: AtomicU64,
    pub reconciles: AtomicU64,
    pub active_sessions: AtomicU64,
    /// Sum of reconcile durations in microseconds (with `reconciles`, the mean).
    pub reconcile_micros: AtomicU64,
    pub last_reconcile_micros: AtomicU64,
    api_errors: Mutex<BTreeMap<String, u64>>,
}

impl Metrics {
    /// One reconcile pass took `took`.
    pub fn reconciled(&self, took: std::time::Duration) {
        let micros = took.as_micros() as u64;
        Self::inc(&self.reconciles);
        self.reconcile_micros.fetch_add(micros, Ordering::Relaxed);
        self.last_reconcile_micros.store(micros, Ordering::Relaxed);
    }

    pub fn inc(counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
    }

    /// Count an API error by HTTP status (or `transport`).
    pub fn api_error(&self, status: Option<u16>) {
        let key = status
            .map(|s| s.to_string())
            .unwrap_or_else(|| "transport".into());
        *self
            .api_errors
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(key)
            .or_default() += 1;
    }

    pub fn render(&self) -> String {
        let mut out = String::new();
        let counter = |out: &mut String, name: &str, help: &str, v: &AtomicU64| {
            out.push_str(&format!("# HELP outposts_{name} {help}\n# TYPE outposts_{name} counter\noutposts_{name} {}\n", v.load(Ordering::Relaxed)));
        };
        counter(&mut out, "claims_total", "Claims won.", &self.claims);
        counter(
            &mut out,
            "claim_conflicts_total",
            "Claims lost to another acceptor (409).",
            &self.claim_conflicts,
        );
        counter(
            &mut out,
            "claim_renewals_total",
            "Claims renewed.",
            &self.renewals,
        );
        counter(
            &mut out,
            "releases_total",
            "Claims released.",
            &self.releases,
        );
        counter(
            &mut out,
            "sandboxes_created_total",
            "Sandboxes created.",
            &self.sandboxes_created,
        );
        counter(
            &mut out,
            "sandboxes_started_total",
            "Stopped sandboxes started (wake).",
            &self.sandboxes_started,
        );
        counter(
            &mut out,
            "sandboxes_stopped_total",
            "Sandboxes stopped (sleep; disk kept).",
            &self.sandboxes_stopped,
        );
        counter(
            &mut out,
            "sandboxes_deleted_total",
            "Sandboxes deleted (terminated sessions).",
            &self.sandboxes_deleted,
        );
        counter(
            &mut out,
            "remotes_launched_total",
            "Remotes launched.",
            &self.remotes_launched,
        );
        counter(
            &mut out,
            "provision_failures_total",
            "Provisioning or launch failures.",
            &self.provision_failures,
        );
        counter(
            &mut out,
            "sandboxes_lost_total",
            "Sandboxes that vanished under a live session.",
            &self.sandboxes_lost,
        );
        counter(
            &mut out,
            "janitor_actions_total",
            "Sandboxes stopped or deleted by the janitor.",
            &self.janitor_actions,
        );
        out.push_str("# HELP outposts_api_errors_total API errors by HTTP status.\n# TYPE outposts_api_errors_total counter\n");
        for (status, n) in self
            .api_errors
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
        {
            out.push_str(&format!(
                "outposts_api_errors_total{{status=\"{status}\"}} {n}\n"
            ));
        }
        out.push_str(&format!(
            "# HELP outposts_active_sessions Sessions this instance holds.\n# TYPE outposts_active_sessions gauge\noutposts_active_sessions {}\n",
            self.active_sessions.load(Ordering::Relaxed)
        ));
        let n = self.reconciles.load(Ordering::Relaxed);
        let sum = self.reconcile_micros.load(Ordering::Relaxed) as f64 / 1e6;
        out.push_str(&format!(
            "# HELP outposts_reconcile_duration_seconds Time spent planning and observing per pass.\n# TYPE outposts_reconcile_duration_seconds summary\noutposts_reconcile_duration_seconds_sum {sum}\noutposts_reconcile_duration_seconds_count {n}\n"
        ));
        out.push_str(&format!(
            "# HELP outposts_last_reconcile_duration_seconds Duration of the last pass.\n# TYPE outposts_last_reconcile_duration_seconds gauge\noutposts_last_reconcile_duration_seconds {}\n",
            self.last_reconcile_micros.load(Ordering::Relaxed) as f64 / 1e6
        ));
        out
    }
}

/// Serve `/metrics` and `/healthz` until the process exits.
pub async fn serve(
    addr: SocketAddr,
    metrics: std::sync::Arc<Metrics>,
) -> anyhow::Result<SocketAddr> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| anyhow::anyhow!("cannot listen on {addr} for metrics: {e}"))?;
    let bound = listener.local_addr()?;
    let app = Router::new()
        .route(
            "/metrics",
            get(move || {
                let m = metrics.clone();
                async move { ([("content-type", "text/plain; version=0.0.4")], m.render()) }
            }),
        )
        .route("/healthz", get(|| async { "ok\n" }));
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
    fn renders_prometheus_text() {
        let m = Metrics::default();
        Metrics::inc(&m.claims);
        m.api_error(Some(503));
        m.api_error(None);
        let text = m.render();
        assert!(text.contains("outposts_claims_total 1\n"));
        assert!(text.contains("outposts_api_errors_total{status=\"503\"} 1\n"));
        assert!(text.contains("outposts_api_errors_total{status=\"transport\"} 1\n"));
        assert!(text.contains("# TYPE outposts_active_sessions gauge"));
    }
}
