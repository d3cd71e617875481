//! Finding, inspecting and stopping workers: list, status, logs, exec, stop.

use std::collections::BTreeMap;
use std::time::Duration;

use futures::StreamExt;
use futures::stream::BoxStream;
use serde::Serialize;

use super::{
    LABEL_OUTPOST, LABEL_ROLE, Mode, RESTART_LOOP, ROLE_WORKER, Workers, detached, markers,
};
use crate::provider::{
    ContainerStatus, ExecOutput, ExecRequest, LogOptions, ProviderError, ProviderKind, SandboxInfo,
    SandboxState,
};

/// One worker as `worker list` shows it.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct WorkerView {
    pub id: String,
    pub name: String,
    pub provider: ProviderKind,
    pub outpost: Option<String>,
    pub mode: Mode,
    pub state: SandboxState,
    pub raw_state: String,
    pub restart_count: u32,
    pub created_at: Option<f64>,
    pub labels: BTreeMap<String, String>,
}

/// `worker status`.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct WorkerStatus {
    #[serde(flatten)]
    pub view: WorkerView,
    pub error_reason: Option<String>,
    pub containers: Vec<ContainerStatus>,
    /// The worker process: `running`, `waiting` (to be restarted), `completed`, `stopped`…
    pub worker_state: Option<String>,
    /// Last exit code of the worker process, when known.
    pub exit_code: Option<i32>,
    /// The last decisive log marker says it reached the queue.
    pub serving: bool,
    /// The log line showing that the Devin API rejected the token (when that is the latest
    /// marker).
    pub auth_failure: Option<String>,
    pub restart_loop: bool,
    pub warnings: Vec<String>,
    pub last_log_lines: Vec<String>,
}

impl WorkerStatus {
    /// One word for `worker list`: whether the worker serves, and if not, the likeliest why.
    pub fn health(&self) -> String {
        if self.serving {
            "serving".into()
        } else if self.auth_failure.is_some() {
            "auth failed".into()
        } else if self.restart_loop {
            format!("restarting ({})", self.view.restart_count)
        } else if matches!(
            self.view.state,
            SandboxState::Stopped | SandboxState::Deleted
        ) {
            "stopped".into()
        } else {
            "not serving".into()
        }
    }
}

/// One line of `worker logs --json`.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct LogLine {
    pub sandbox_id: String,
    pub line: String,
}

fn is_worker(info: &SandboxInfo) -> bool {
    info.labels.get(LABEL_ROLE).map(String::as_str) == Some(ROLE_WORKER)
}

impl Workers {
    fn view(&self, info: &SandboxInfo) -> WorkerView {
        WorkerView {
            id: info.id.clone(),
            name: info.name.clone(),
            provider: self.kind(),
            outpost: info.labels.get(LABEL_OUTPOST).cloned(),
            mode: Mode::of(info, self.kind()),
            state: info.state,
            raw_state: info.raw_state.clone(),
            restart_count: info
                .containers
                .first()
                .map(|c| c.restart_count)
                .unwrap_or(0),
            created_at: info.created_at,
            labels: info.labels.clone(),
        }
    }

    /// Every worker sandbox (of `outpost`, when given), oldest first.
    pub async fn list(&self, outpost: Option<&str>) -> Result<Vec<WorkerView>, ProviderError> {
        let mut labels = BTreeMap::from([(LABEL_ROLE.to_string(), ROLE_WORKER.to_string())]);
        if let Some(o) = outpost {
            labels.insert(LABEL_OUTPOST.into(), o.to_string());
        }
        let mut all: Vec<WorkerView> = self
            .provider
            .list(&labels)
            .await?
            .iter()
            .filter(|i| is_worker(i))
            .map(|i| self.view(i))
            .collect();
        all.sort_by(|a, b| {
            a.created_at
                .partial_cmp(&b.created_at)
                .unwrap_or(std::cmp::Ordering::Equal)
                .then_with(|| a.name.cmp(&b.name))
        });
        Ok(all)
    }

    /// The worker sandbox `id` (or name); refuses sandboxes that are not workers.
    pub async fn find(&self, id: &str) -> anyhow::Result<SandboxInfo> {
        let info = self.provider.get(id).await?.ok_or_else(|| {
            super::WorkerError::new(
                format!("no sandbox {id} on {}", self.kind()),
                "list workers with `outposts worker list`",
            )
        })?;
        if !is_worker(&info) {
            return Err(super::WorkerError::new(
                format!(
                    "sandbox {} ({}) is not an outposts worker (it has no {LABEL_ROLE}={ROLE_WORKER} label)",
                    info.id, info.name
                ),
                "worker commands only act on sandboxes made by `outposts worker launch`",
            )
            .into());
        }
        Ok(info)
    }

    /// The last lines of the worker's log for `status` (a warning when unreadable).
    async fn status_lines(
        &self,
        id: &str,
        mode: Mode,
        live: bool,
        warnings: &mut Vec<String>,
    ) -> Vec<String> {
        // An exec-mode log lives inside the sandbox: unreadable while it is stopped.
        if mode == Mode::Exec && !live {
            return Vec::new();
        }
        self.tail(id, mode, 200).await.unwrap_or_else(|e| {
            warnings.push(format!("cannot read the worker's log: {e}"));
            Vec::new()
        })
    }

    pub async fn status(&self, id: &str) -> anyhow::Result<WorkerStatus> {
        let info = self.find(id).await?;
        let mut view = self.view(&info);
        let mut warnings = Vec::new();
        let (mut worker_state, mut exit_code) = match info.containers.first() {
            Some(c) => (Some(c.state.clone()), c.exit_code),
            None => (None, None),
        };
        let live = !matches!(info.state, SandboxState::Deleted | SandboxState::Stopped);
        if view.mode == Mode::Exec && live {
            match detached::check(self.provider.as_ref(), &info.id).await {
                Ok(s) if s.present => {
                    view.restart_count = s.restarts;
                    exit_code = s.exit_code;
                    worker_state = Some(if s.alive || s.state == "completed" {
                        s.state
                    } else {
                        "gone".into()
                    });
                }
                Ok(_) => warnings.push(
                    "the sandbox has no worker: it was never launched here (or its files were removed)"
                        .into(),
                ),
                Err(e) => warnings.push(format!("cannot read the worker's state: {e}")),
            }
        }
        if view.mode == Mode::Exec && !live {
            worker_state = Some("stopped".into());
        }
        let lines = self
            .status_lines(&info.id, view.mode, live, &mut warnings)
            .await;
        let last = markers::last(&lines);
        let serving = matches!(last, Some((true, _)))
            && worker_state.as_deref().is_none_or(|s| s == "running");
        let auth_failure = match last {
            Some((false, line)) => Some(line.trim().to_string()),
            _ => None,
        };
        if let Some(line) = &auth_failure {
            warnings.push(format!(
                "authentication failed: the Devin API rejects the worker's outpost token ({line}). \
                 Check the token (DEVIN_OUTPOSTS_TOKEN, or the secret-store entry given with \
                 --secret), then stop this worker and launch a new one"
            ));
        }
        let restart_loop = view.restart_count >= RESTART_LOOP && !serving;
        if restart_loop {
            warnings.push(format!(
                "restart loop: the worker has restarted {} times{}",
                view.restart_count,
                exit_code
                    .filter(|c| *c != 0)
                    .map(|c| format!(" (last exit code {c})"))
                    .unwrap_or_default()
            ));
        }
        if let Some(r) = &info.error_reason {
            warnings.push(format!("the sandbox reports: {r}"));
        }
        let last_log_lines = lines.iter().rev().take(5).rev().cloned().collect();
        Ok(WorkerStatus {
            view,
            error_reason: info.error_reason.clone(),
            containers: info.containers.clone(),
            worker_state,
            exit_code,
            serving,
            auth_failure,
            restart_loop,
            warnings,
            last_log_lines,
        })
    }

    /// The worker's log lines: the last `tail` (all when `None`), then new ones with `follow`.
    pub async fn logs(
        &self,
        id: &str,
        tail: Option<u32>,
        follow: bool,
    ) -> anyhow::Result<BoxStream<'static, Result<String, ProviderError>>> {
        let info = self.find(id).await?;
        let mode = Mode::of(&info, self.kind());
        if mode == Mode::Exec && matches!(info.state, SandboxState::Stopped | SandboxState::Deleted)
        {
            return Err(super::WorkerError::new(
                format!(
                    "worker {} is {}: its log is a file inside the sandbox, readable only while it runs",
                    info.id, info.state
                ),
                format!(
                    "start the sandbox with the {} tools to read $HOME/.outposts-worker/worker.log",
                    self.kind()
                ),
            )
            .into());
        }
        match mode {
            Mode::Main => Ok(self
                .provider
                .logs(&info.id, &LogOptions { tail, follow })
                .await?),
            Mode::Exec => Ok(exec_logs(self.provider.clone(), info.id, tail, follow)),
        }
    }

    /// Run `argv` in the worker's sandbox.
    pub async fn exec(
        &self,
        id: &str,
        argv: &[String],
        timeout: Option<Duration>,
    ) -> anyhow::Result<ExecOutput> {
        let info = self.find(id).await?;
        let mut req = ExecRequest::argv(argv.to_vec());
        req.timeout = timeout;
        Ok(self.provider.exec(&info.id, &req).await?)
    }

    /// Stop the worker (its process first in exec mode) and its sandbox; the sandbox afterwards.
    /// Stop the worker (its session is released and picked up elsewhere), snapshotting its
    /// workspace first where the provider keeps one apart (CoreWeave) unless `snapshot` is
    /// false. Returns the sandbox after the stop and the snapshot's id, if one was taken.
    pub async fn stop(
        &self,
        id: &str,
        snapshot: bool,
    ) -> anyhow::Result<(SandboxInfo, Option<String>)> {
        let info = self.find(id).await?;
        if Mode::of(&info, self.kind()) == Mode::Exec
            && !matches!(info.state, SandboxState::Stopped | SandboxState::Deleted)
        {
            detached::stop(self.provider.as_ref(), &info.id).await?;
        }
        let snap = self.provider.stop_keeping(&info.id, snapshot).await?;
        let after = self.provider.get(&info.id).await?.unwrap_or(SandboxInfo {
            state: SandboxState::Deleted,
            raw_state: "gone".into(),
            ..info
        });
        Ok((after, snap))
    }
}

/// Exec-mode logs: the tail, then (following) whatever the file grows by, polled every second.
fn exec_logs(
    provider: std::sync::Arc<dyn crate::provider::Provider>,
    id: String,
    tail: Option<u32>,
    follow: bool,
) -> BoxStream<'static, Result<String, ProviderError>> {
    let st = ExecLog {
        provider,
        id,
        offset: None,
        partial: String::new(),
        ready: Default::default(),
        tail,
        follow,
        done: false,
    };
    futures::stream::unfold(st, |mut st| async move {
        // Not poll_until: a log follow, not a wait: it ends when the worker does.
        loop {
            if let Some(item) = st.ready.pop_front() {
                return Some((item, st));
            }
            if st.done {
                return None;
            }
            match st.offset {
                None => st.start().await,
                Some(off) => {
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    st.read_from(off).await;
                }
            }
        }
    })
    .boxed()
}

/// Reading an exec-mode worker's log file: where the next read starts, the lines ready to hand
/// out, and whether the stream ends once they are out.
struct ExecLog {
    provider: std::sync::Arc<dyn crate::provider::Provider>,
    id: String,
    offset: Option<u64>,
    partial: String,
    ready: std::collections::VecDeque<Result<String, ProviderError>>,
    tail: Option<u32>,
    follow: bool,
    done: bool,
}

impl ExecLog {
    /// The tail first, and the file's size so following starts after it.
    async fn start(&mut self) {
        let size = detached::read_from(self.provider.as_ref(), &self.id, u64::MAX / 4)
            .await
            .map(|(size, _)| size);
        let text = detached::tail(
            self.provider.as_ref(),
            &self.id,
            self.tail.unwrap_or(u32::MAX / 2),
        )
        .await;
        match (size, text) {
            (Ok(size), Ok(text)) => {
                if self.tail != Some(0) {
                    self.ready.extend(text.lines().map(|l| Ok(l.to_string())));
                }
                self.offset = Some(size);
                self.done = !self.follow;
            }
            (Err(e), _) | (_, Err(e)) => {
                self.ready.push_back(Err(e));
                self.done = true;
            }
        }
    }

    /// What was appended since `off`, as whole lines (a partial last line waits).
    async fn read_from(&mut self, off: u64) {
        match detached::read_from(self.provider.as_ref(), &self.id, off).await {
            // Truncated or replaced: start over at its beginning.
            Ok((size, _)) if size < off => self.offset = Some(0),
            Ok((_, bytes)) => {
                self.offset = Some(off + bytes.len() as u64);
                self.partial.push_str(&bytes);
                while let Some(pos) = self.partial.find('\n') {
                    let line: String = self.partial.drain(..=pos).collect();
                    self.ready
                        .push_back(Ok(line.trim_end_matches(['\n', '\r']).to_string()));
                }
            }
            Err(e) => {
                self.ready.push_back(Err(e));
                self.done = true;
            }
        }
    }
}
