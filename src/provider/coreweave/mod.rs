//! CoreWeave sandboxes (`coreweave.sandbox.v1`, gRPC) behind the [`Provider`] trait.
//!
//! How the trait maps onto CoreWeave:
//!
//! - **Labels → tags.** CoreWeave has string tags, not labels. Each label `key=value` becomes
//!   the tag `key=value` (split at the first `=`, so keys may not contain `=`; values may).
//!   Tags without `=` are not labels and are ignored when reading back. Listing by labels is a
//!   ListSandboxes with those tags (the server ANDs them).
//! - **Names.** CoreWeave ids are server-assigned; the name travels as the reserved tag
//!   `outposts.name=<name>` (and as `display_name`). `get` tries the id first, then the name
//!   tag. `create` refuses a name that an active sandbox already has.
//! - **States.** CREATING/PENDING/PREPARING → creating, RUNNING → started, PAUSED → stopped,
//!   TERMINATING → deleting, COMPLETED/TERMINATED → deleted (finished for good), FAILED →
//!   error. Per-container state, exit code and restart count go into `containers`.
//! - **Stop deletes; the workspace survives.** CoreWeave cannot stop a sandbox and start it
//!   again, so `stop` is DeleteSandbox with a 10 s grace period (then a wait for a terminal
//!   state; the sandbox stays readable, COMPLETED with its exit code). A sandbox created with a
//!   [`SandboxSpec::workspace`] has it on a scratch volume, which `stop` first snapshots (and
//!   waits for READY — no snapshot, no delete); the next `create` under the same name restores
//!   the newest snapshot ([`workspace`]). `discard` removes a name's snapshots. `start` and
//!   `set_labels` (tags are immutable) are [`ProviderError::Unsupported`]. `delete` is
//!   DeleteSandbox without grace; gone = done.
//! - **list** returns active and FAILED sandboxes, not finished (COMPLETED/TERMINATED) ones.
//! - **exec** is unary `Exec` (argv; a shell line runs as `/bin/sh -c`; `cwd` is applied as
//!   the SDK does, `cd <cwd> && exec <argv>`; env in the request's env field).
//! - **Resources**: requests = limits (cpu cores, memory GiB, GPU count/type); `disk_gib` has
//!   no CoreWeave equivalent and is ignored. `max_lifetime` → `max_lifetime_seconds` (none =
//!   platform default; CoreWeave cannot switch the cap off). A numeric `user` becomes
//!   `security_context.run_as_user`.

use std::collections::BTreeMap;
use std::time::Duration;

use async_trait::async_trait;
use futures::StreamExt;
use futures::stream::BoxStream;

use super::{
    ExecOutput, ExecRequest, GitClone, LogOptions, Provider, ProviderError, ProviderKind, Result,
    SandboxInfo, SandboxSpec, Sink, feed,
};
use crate::api::coreweave::{CoreweaveClient, CoreweaveError, ErrorKind, pb};
use crate::poll::{Backoff, Poll, Waited, poll_until};
use crate::settings::CoreweaveSettings;

mod handover;
mod mapping;
mod network;
mod workspace;

pub use mapping::{
    build_sandbox, err, exec_argv, git_clone_request, labels_to_tags, map_state, tags_to_labels,
    to_info,
};
use mapping::{is_coming_up, is_terminal, lines, short_state, state_of};

/// The image fixed workers run when the spec names none (the Devin CLI image of the guide).
pub const DEFAULT_IMAGE: &str = "public.ecr.aws/e0h8a4b6/devin-cli:stable";
/// Reserved tag key that carries the sandbox name.
pub const NAME_TAG: &str = "outposts.name";
/// Name of the one container we create.
pub const MAIN_CONTAINER: &str = "main";
/// The SDK's idle main command, used when the spec has none.
pub const IDLE_COMMAND: [&str; 3] = [
    "/bin/sh",
    "-c",
    "trap \"exit 0\" TERM INT; sleep infinity & wait",
];
/// Grace period `stop` gives the main process (the SDK default).
pub const STOP_GRACE: Duration = Duration::from_secs(10);
/// How long `create` waits for a sandbox to leave CREATING/PENDING/PREPARING.
/// Waiting for a sandbox's state: the SDK's 0.2 s growing by half to 2 s, no sleep over 0.5 s
/// in the first 15 s.
const SANDBOX_POLL: Backoff = Backoff::growing(Duration::from_millis(200), Duration::from_secs(2))
    .capped_early(Duration::from_secs(15), Duration::from_millis(500));

const START_WAIT: Duration = Duration::from_secs(300);
/// The service's lifetime ceiling (30 days).
const MAX_LIFETIME_SECS: u64 = 30 * 24 * 3600;

/// The CoreWeave provider.
#[derive(Debug, Clone)]
pub struct CoreweaveProvider {
    client: CoreweaveClient,
    /// Hand-overs of warm sandboxes (`handover.rs`), shared by clones.
    receipts: std::sync::Arc<handover::Receipts>,
}

impl CoreweaveProvider {
    pub fn new(client: CoreweaveClient) -> Self {
        CoreweaveProvider {
            client,
            receipts: Default::default(),
        }
    }

    /// The provider of resolved [`CoreweaveSettings`].
    pub fn from_settings(s: CoreweaveSettings) -> anyhow::Result<Self> {
        Ok(Self::new(CoreweaveClient::from_settings(s)?))
    }

    pub fn client(&self) -> &CoreweaveClient {
        &self.client
    }

    /// Find a sandbox by its name tag; an active one wins over finished ones, newest first.
    async fn find_by_name(&self, name: &str) -> Result<Option<pb::Sandbox>> {
        let tag = format!("{NAME_TAG}={name}");
        let mut found = self
            .client
            .list_sandboxes(std::slice::from_ref(&tag), true)
            .await
            .map_err(err)?;
        found.retain(|s| s.spec.as_ref().is_some_and(|spec| spec.tags.contains(&tag)));
        found.sort_by_key(|s| {
            let active = !is_terminal(state_of(s));
            let created = s
                .status
                .as_ref()
                .and_then(|st| st.create_time.as_ref())
                .map(|t| (t.seconds, t.nanos))
                .unwrap_or_default();
            std::cmp::Reverse((active, created))
        });
        Ok(found.into_iter().next())
    }

    /// Poll GetSandbox until `done(state)` or `budget` passes (the SDK's 0.2 s → ×1.5 → 2 s).
    async fn wait_for(
        &self,
        id: &str,
        budget: Duration,
        done: impl Fn(pb::State) -> bool,
    ) -> Result<Option<pb::Sandbox>> {
        let deadline = std::time::Instant::now() + budget;
        let waited = poll_until(deadline, SANDBOX_POLL, || async {
            match self.client.get_sandbox(id).await {
                Ok(sb) if done(state_of(&sb)) => Ok(Poll::Ready(Some(sb))),
                Ok(sb) => Ok(Poll::Pending(sb)),
                Err(e) if e.is_sandbox_not_found() => Ok(Poll::Ready(None)),
                Err(e) => Err(err(e)),
            }
        })
        .await?;
        // Out of time: the last state seen, for the caller to judge.
        Ok(match waited {
            Waited::Ready(sb) => sb,
            Waited::TimedOut(sb) => sb,
        })
    }
}

impl CoreweaveProvider {
    /// DeleteSandbox with the stop grace period, then wait for the exit to be recorded.
    async fn delete_gracefully(&self, id: &str) -> Result<()> {
        let deleted = self
            .client
            .delete_sandbox(id, STOP_GRACE, true)
            .await
            .map_err(err)?;
        if deleted.as_ref().is_none_or(|sb| is_terminal(state_of(sb))) {
            return Ok(());
        }
        // The backend keeps terminal sandboxes readable; wait for the exit to be recorded.
        match self
            .wait_for(id, STOP_GRACE + Duration::from_secs(50), is_terminal)
            .await?
        {
            Some(sb) if !is_terminal(state_of(&sb)) => Err(ProviderError::Busy {
                id: id.to_string(),
                message: format!(
                    "still {} after the {}s grace period",
                    short_state(sb.status.as_ref().map(|s| s.state).unwrap_or(0)),
                    STOP_GRACE.as_secs()
                ),
            }),
            _ => Ok(()),
        }
    }
}

impl CoreweaveProvider {
    /// Copy the image's home into the new, empty home on the volume ([`workspace::SEED_HOME`]).
    /// A failure leaves a working but empty home: logged, not fatal.
    async fn seed_home(&self, id: &str) {
        let req = super::ExecRequest {
            cmd: super::Cmd::Shell(workspace::SEED_HOME.into()),
            cwd: None,
            env: Default::default(),
            timeout: Some(Duration::from_secs(120)),
        };
        match self.exec(id, &req).await {
            Ok(out) if out.exit_code == 0 => {
                tracing::debug!(sandbox = %id, "home: {}", out.stdout.trim())
            }
            Ok(out) => tracing::warn!(
                sandbox = %id,
                "cannot seed the home from the image's (exit {}): {}",
                out.exit_code,
                crate::secrets::redact(out.stderr.trim())
            ),
            Err(e) => tracing::warn!(sandbox = %id, "cannot seed the home from the image's: {e}"),
        }
    }
}

#[async_trait]
impl Provider for CoreweaveProvider {
    fn kind(&self) -> ProviderKind {
        ProviderKind::Coreweave
    }

    async fn preflight(&self, _source: &super::Source) -> Result<()> {
        // Credentials accepted. Images are pulled by the cluster at create; the API offers no
        // way to ask whether one exists, so a bad image shows as a failed sandbox.
        let req = pb::ListSandboxesRequest {
            page_size: 1,
            ..Default::default()
        };
        self.client
            .list_page(req, Duration::from_secs(30))
            .await
            .map_err(err)?;
        Ok(())
    }

    async fn create(&self, spec: &SandboxSpec) -> Result<SandboxInfo> {
        let mut sandbox = build_sandbox(spec)?;
        // A brand-new home on the volume is seeded from the image's once the sandbox runs.
        let mut seed_home = false;
        if let Some(ws) = &spec.workspace {
            let restored = workspace::attach(&self.client, &mut sandbox, &spec.name, ws).await?;
            match restored {
                Some(id) => {
                    tracing::info!(name = %spec.name, snapshot = %id, "restoring the workspace")
                }
                None => seed_home = ws.keep_home,
            }
        }
        if let Some(existing) = self.find_by_name(&spec.name).await?
            && !is_terminal(state_of(&existing))
        {
            return Err(ProviderError::AlreadyExists(format!(
                "{} (id {})",
                spec.name, existing.sandbox_id
            )));
        }
        // One idempotency token per creation, reused by the client's retries.
        let request_id = uuid::Uuid::new_v4().to_string();
        let created = self
            .client
            .create_sandbox(sandbox, &request_id)
            .await
            .map_err(err)?;
        if created.sandbox_id.is_empty() {
            return Err(ProviderError::Other(
                "CreateSandbox answered without a sandbox id".into(),
            ));
        }
        tracing::info!(id = %created.sandbox_id, name = %spec.name, "created CoreWeave sandbox");
        if !is_coming_up(state_of(&created)) {
            return Ok(to_info(&created));
        }
        match self
            .wait_for(&created.sandbox_id, START_WAIT, |s| !is_coming_up(s))
            .await?
        {
            Some(sb) => {
                let info = to_info(&sb);
                if seed_home && info.state == super::SandboxState::Started {
                    self.seed_home(&info.id).await;
                }
                Ok(info)
            }
            None => Err(ProviderError::NotFound(created.sandbox_id)),
        }
    }

    fn check_egress(&self, egress: &super::Egress) -> std::result::Result<(), String> {
        network::options(egress).map(|_| ())
    }

    /// CoreWeave fixes a sandbox's network options at create.
    fn can_set_egress(&self) -> bool {
        false
    }

    async fn set_egress(&self, _id: &str, _egress: &super::Egress) -> Result<()> {
        Err(super::egress_unchangeable(ProviderKind::Coreweave))
    }

    async fn get(&self, id_or_name: &str) -> Result<Option<SandboxInfo>> {
        if id_or_name.is_empty() {
            return Ok(None);
        }
        let found = match self.client.get_sandbox(id_or_name).await {
            Ok(sb) => Some(sb),
            // Not an id (or not ours): try it as a name.
            Err(e) if e.is_not_found() || e.kind == ErrorKind::Invalid => {
                self.find_by_name(id_or_name).await?
            }
            Err(e) => return Err(err(e)),
        };
        match found {
            Some(sb) => Ok(self.overlay(std::slice::from_ref(&sb)).await?.pop()),
            // A warm sandbox given to this name keeps its own.
            None => self.handed_to(id_or_name).await,
        }
    }

    async fn list_each(
        &self,
        labels: &BTreeMap<String, String>,
        sink: &mut Sink<'_>,
    ) -> Result<()> {
        feed(self.list(labels).await, sink)
    }

    async fn list(&self, labels: &BTreeMap<String, String>) -> Result<Vec<SandboxInfo>> {
        let tags = labels_to_tags(labels)?;
        let mut all = self.client.list_sandboxes(&tags, true).await.map_err(err)?;
        all.retain(|sb| !matches!(state_of(sb), pb::State::Completed | pb::State::Terminated));
        // Against the labels as seen (a handed-over sandbox carries its session's), which
        // also defends against a server that ignores the filter.
        Ok(self
            .overlay(&all)
            .await?
            .into_iter()
            .filter(|sb| labels.iter().all(|(k, v)| sb.labels.get(k) == Some(v)))
            .collect())
    }

    async fn start(&self, _id: &str) -> Result<()> {
        Err(ProviderError::Unsupported {
            provider: ProviderKind::Coreweave,
            operation: "start (a stopped CoreWeave sandbox cannot be started again; create a new one)",
        })
    }

    async fn stop(&self, id: &str) -> Result<()> {
        self.stop_keeping(id, true).await.map(|_| ())
    }

    async fn stop_keeping(&self, id: &str, snapshot: bool) -> Result<Option<String>> {
        // The workspace first: a sandbox is deleted only once its files are safe.
        let kept = match self.client.get_sandbox(id).await {
            Ok(sb) if snapshot && !is_terminal(state_of(&sb)) => match workspace::volume_of(&sb) {
                Some(vol) => {
                    let snap = workspace::snapshot(&self.client, id, &vol).await?;
                    let name = sb
                        .spec
                        .as_ref()
                        .and_then(|s| mapping::name_from_tags(&s.tags));
                    Some((snap, name))
                }
                None => None,
            },
            Ok(_) => None,
            Err(e) if e.is_sandbox_not_found() => return Ok(None),
            Err(e) => return Err(err(e)),
        };
        self.delete_gracefully(id).await?;
        // Only the newest snapshot is needed to wake from; older ones would only cost storage.
        if let Some((snap, Some(name))) = &kept {
            workspace::prune(&self.client, name, Some(snap)).await?;
        }
        Ok(kept.map(|(snap, _)| snap))
    }

    async fn discard(&self, name: &str) -> Result<()> {
        workspace::prune(&self.client, name, None).await
    }

    async fn delete(&self, id: &str) -> Result<()> {
        self.client
            .delete_sandbox(id, Duration::ZERO, true)
            .await
            .map_err(err)?;
        Ok(())
    }
    async fn set_labels(&self, _id: &str, _labels: &BTreeMap<String, String>) -> Result<()> {
        Err(ProviderError::Unsupported {
            provider: ProviderKind::Coreweave,
            operation: "set_labels (CoreWeave tags are fixed at creation)",
        })
    }

    async fn hand_over(
        &self,
        id: &str,
        name: &str,
        labels: &BTreeMap<String, String>,
    ) -> Result<()> {
        self.give(id, name, labels).await
    }

    async fn keeps_workspace(&self, name: &str) -> Result<bool> {
        Ok(!workspace::snapshots_of(&self.client, name)
            .await?
            .is_empty())
    }

    async fn exec(&self, id: &str, req: &ExecRequest) -> Result<ExecOutput> {
        let command = exec_argv(req)?;
        let timeout = req
            .timeout
            .unwrap_or(crate::api::coreweave::REQUEST_DEADLINE);
        let msg = pb::ExecRequest {
            sandbox_id: id.to_string(),
            command,
            env: req
                .env
                .iter()
                .map(|(k, v)| (k.clone(), v.expose().to_string()))
                .collect(),
            max_output_bytes: 0,
            container: String::new(),
        };
        let resp = self.client.exec(msg, timeout).await.map_err(|e| {
            if e.kind == ErrorKind::DeadlineExceeded {
                ProviderError::Timeout(timeout)
            } else {
                err(e)
            }
        })?;
        if resp.stdout_truncated || resp.stderr_truncated {
            tracing::warn!(
                "CoreWeave truncated the output of an exec in {id} ({} stdout / {} stderr bytes produced)",
                resp.stdout_bytes_produced,
                resp.stderr_bytes_produced
            );
        }
        Ok(ExecOutput {
            exit_code: resp.exit_code,
            stdout: String::from_utf8_lossy(&resp.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&resp.stderr).into_owned(),
        })
    }

    async fn read_file(&self, id: &str, path: &str) -> Result<Option<Vec<u8>>> {
        match self.client.read_file(id, path).await {
            Ok(b) => Ok(Some(b.to_vec())),
            Err(e) if e.is_not_found() && !is_sandbox_missing(&e) => Ok(None),
            Err(e) => Err(err(e)),
        }
    }

    async fn write_file(&self, id: &str, path: &str, data: &[u8]) -> Result<()> {
        self.client
            .write_file(id, path, bytes::Bytes::copy_from_slice(data))
            .await
            .map_err(err)
    }

    async fn git_clone(&self, id: &str, req: &GitClone) -> Result<()> {
        let exec = git_clone_request(req);
        let out = self.exec(id, &exec).await?;
        if out.exit_code != 0 {
            let detail = if out.stderr.trim().is_empty() {
                out.stdout
            } else {
                out.stderr
            };
            return Err(ProviderError::Other(format!(
                "git clone of {} into {} failed (exit {}): {}",
                crate::secrets::redact(&req.url),
                req.path,
                out.exit_code,
                crate::secrets::redact(detail.trim())
            )));
        }
        Ok(())
    }

    async fn logs(
        &self,
        id: &str,
        opts: &LogOptions,
    ) -> Result<BoxStream<'static, Result<String>>> {
        let mut req = pb::StreamLogsRequest {
            sandbox_id: id.to_string(),
            follow: opts.follow,
            ..Default::default()
        };
        match opts.tail {
            // No history wanted: nothing when not following, only new output when following.
            Some(0) if !opts.follow => return Ok(futures::stream::empty().boxed()),
            Some(0) => {
                let now = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .unwrap_or_default();
                req.since_time = Some(prost_types::Timestamp {
                    seconds: now.as_secs() as i64,
                    nanos: now.subsec_nanos() as i32,
                });
            }
            Some(n) => req.tail_lines = n.min(i32::MAX as u32) as i32,
            None => {}
        }
        let chunks = self.client.stream_logs(req).await.map_err(err)?;
        Ok(lines(chunks))
    }
}

fn is_sandbox_missing(e: &CoreweaveError) -> bool {
    e.reason.as_deref() == Some(crate::api::coreweave::error::REASON_SANDBOX_NOT_FOUND)
}
