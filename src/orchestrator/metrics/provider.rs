//! The provider as the orchestrator sees it, timed: every call forwarded unchanged to the real
//! provider, its duration observed by operation and result. Every trait method is forwarded
//! explicitly (defaults included), so the wrapper never changes what a provider does.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

use async_trait::async_trait;
use futures::stream::BoxStream;

use super::{Metrics, labels};
use crate::provider::{
    Egress, ExecOutput, ExecRequest, GitClone, LogOptions, Provider, ProviderKind, Result,
    SandboxInfo, SandboxSpec, Sink, Source,
};

/// `provider`, timed into `metrics`.
pub fn instrument(provider: Arc<dyn Provider>, metrics: Arc<Metrics>) -> Arc<dyn Provider> {
    Arc::new(Timed {
        inner: provider,
        metrics,
    })
}

struct Timed {
    inner: Arc<dyn Provider>,
    metrics: Arc<Metrics>,
}

impl Metrics {
    pub(super) fn provider_call(
        &self,
        provider: ProviderKind,
        operation: &'static str,
        ok: bool,
        took: f64,
    ) {
        self.provider_duration
            .get_or_create(&labels(&[
                ("provider", provider.as_str()),
                ("operation", operation),
                ("result", if ok { "ok" } else { "error" }),
            ]))
            .observe(took);
    }
}

impl Timed {
    fn done<T>(&self, op: &'static str, started: Instant, r: Result<T>) -> Result<T> {
        self.metrics.provider_call(
            self.inner.kind(),
            op,
            r.is_ok(),
            started.elapsed().as_secs_f64(),
        );
        r
    }
}

#[async_trait]
impl Provider for Timed {
    fn kind(&self) -> ProviderKind {
        self.inner.kind()
    }
    async fn preflight(&self, source: &Source) -> Result<()> {
        let t = Instant::now();
        self.done("preflight", t, self.inner.preflight(source).await)
    }
    async fn create(&self, spec: &SandboxSpec) -> Result<SandboxInfo> {
        let t = Instant::now();
        self.done("create", t, self.inner.create(spec).await)
    }
    async fn get(&self, id_or_name: &str) -> Result<Option<SandboxInfo>> {
        let t = Instant::now();
        self.done("get", t, self.inner.get(id_or_name).await)
    }
    async fn list(&self, labels: &BTreeMap<String, String>) -> Result<Vec<SandboxInfo>> {
        let t = Instant::now();
        self.done("list", t, self.inner.list(labels).await)
    }
    async fn list_each(
        &self,
        labels: &BTreeMap<String, String>,
        sink: &mut Sink<'_>,
    ) -> Result<()> {
        let t = Instant::now();
        self.done("list", t, self.inner.list_each(labels, sink).await)
    }
    async fn start(&self, id: &str) -> Result<()> {
        let t = Instant::now();
        self.done("start", t, self.inner.start(id).await)
    }
    async fn stop(&self, id: &str) -> Result<()> {
        let t = Instant::now();
        self.done("stop", t, self.inner.stop(id).await)
    }
    async fn delete(&self, id: &str) -> Result<()> {
        let t = Instant::now();
        self.done("delete", t, self.inner.delete(id).await)
    }
    async fn set_labels(&self, id: &str, labels: &BTreeMap<String, String>) -> Result<()> {
        let t = Instant::now();
        self.done("set_labels", t, self.inner.set_labels(id, labels).await)
    }
    async fn hand_over(
        &self,
        id: &str,
        name: &str,
        labels: &BTreeMap<String, String>,
    ) -> Result<()> {
        let t = Instant::now();
        self.done("hand_over", t, self.inner.hand_over(id, name, labels).await)
    }
    async fn keeps_workspace(&self, name: &str) -> Result<bool> {
        let t = Instant::now();
        self.done("keeps_workspace", t, self.inner.keeps_workspace(name).await)
    }
    async fn exec(&self, id: &str, req: &ExecRequest) -> Result<ExecOutput> {
        let t = Instant::now();
        self.done("exec", t, self.inner.exec(id, req).await)
    }
    async fn read_file(&self, id: &str, path: &str) -> Result<Option<Vec<u8>>> {
        let t = Instant::now();
        self.done("read_file", t, self.inner.read_file(id, path).await)
    }
    async fn write_file(&self, id: &str, path: &str, data: &[u8]) -> Result<()> {
        let t = Instant::now();
        self.done("write_file", t, self.inner.write_file(id, path, data).await)
    }
    async fn git_clone(&self, id: &str, req: &GitClone) -> Result<()> {
        let t = Instant::now();
        self.done("git_clone", t, self.inner.git_clone(id, req).await)
    }
    async fn stop_keeping(&self, id: &str, snapshot: bool) -> Result<Option<String>> {
        let t = Instant::now();
        self.done(
            "stop_keeping",
            t,
            self.inner.stop_keeping(id, snapshot).await,
        )
    }
    async fn discard(&self, name: &str) -> Result<()> {
        let t = Instant::now();
        self.done("discard", t, self.inner.discard(name).await)
    }
    fn check_egress(&self, egress: &Egress) -> std::result::Result<(), String> {
        self.inner.check_egress(egress)
    }
    fn can_set_egress(&self) -> bool {
        self.inner.can_set_egress()
    }
    async fn set_egress(&self, id: &str, egress: &Egress) -> Result<()> {
        let t = Instant::now();
        self.done("set_egress", t, self.inner.set_egress(id, egress).await)
    }
    async fn logs(
        &self,
        id: &str,
        opts: &LogOptions,
    ) -> Result<BoxStream<'static, Result<String>>> {
        let t = Instant::now();
        self.done("logs", t, self.inner.logs(id, opts).await)
    }
}
