//! Daytona provider: sandboxes through the Daytona REST API, commands and files through each
//! sandbox's toolbox.
//!
//! - Create: from a snapshot (resources come from the snapshot; Daytona rejects them with one)
//!   or an image (`buildInfo` `FROM <image>`), auto-stop off (`0`), auto-archive at the maximum
//!   (`0`, Daytona has no "never"), auto-delete off (`-1`). Waits for `started`, bounded by
//!   `DAYTONA_START_TIMEOUT`. A 409 on create is [`ProviderError::AlreadyExists`].
//! - start/stop/delete are idempotent; "state change in progress" (409) and "not in valid state"
//!   (400) are waited out (bounded), then reported as [`ProviderError::Busy`].
//! - exec: Daytona takes a command *string*, so an argv is POSIX-quoted and a shell line runs
//!   under `sh -c`; the environment travels in `envs`. Windows sandboxes run commands through
//!   `cmd.exe /C`: see [`render`].
//! - logs: the output of the sandbox's main command when `SandboxSpec::command` started one
//!   (toolbox session `outposts-main`), else the sandbox entrypoint's log
//!   (`/process/session/entrypoint/logs`). Daytona keeps no other per-sandbox log we can read
//!   with an API key alone.

mod network;
pub mod snapshot;
pub mod warm_pool;
pub mod windows_build;

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use async_trait::async_trait;
use futures::stream::{self, BoxStream, StreamExt};

use super::{
    Cmd, Egress, ExecOutput, ExecRequest, GitClone, LogOptions, Provider, ProviderError,
    ProviderKind, Result, SandboxInfo, SandboxSpec, SandboxState, Sink, Source,
};
use crate::api::daytona::{self as dapi, DaytonaClient, Toolbox};
use crate::api::daytona_types::{
    self as t, CreateBuildInfo, CreateSandbox, ExecuteRequest, GitCloneRequest,
};
use crate::api::{ApiError, HttpClient};
use crate::poll::{Backoff, Poll, Waited, poll_until};
use crate::secrets::{Secret, redact};
use crate::settings::{DaytonaApiSettings, DaytonaSettings, not_ready};

/// How sandbox state is polled while waiting for a transition.
/// Retrying a request Daytona refused because the sandbox is mid-transition.
const BUSY_POLL: Backoff = Backoff::growing(Duration::from_millis(200), Duration::from_secs(2));
/// Retrying a stop or delete that met a transition.
const TRANSITION_POLL: Backoff = Backoff::fixed(Duration::from_millis(500));
const STATE_POLL: Backoff = Backoff::growing(Duration::from_millis(100), Duration::from_secs(2));

/// Toolbox session that runs `SandboxSpec::command`.
pub const MAIN_SESSION: &str = "outposts-main";
/// Longest an exec without its own timeout may hold the HTTP call.
const DEFAULT_EXEC_WAIT: Duration = Duration::from_secs(3600);
/// Extra HTTP time on top of a command's own timeout (the daemon answers 408 itself).
const EXEC_GRACE: Duration = Duration::from_secs(30);

/// Where one sandbox's toolbox lives.
#[derive(Clone)]
struct Target {
    id: String,
    toolbox: Toolbox,
    windows: bool,
}

/// What the cache keeps of a [`Target`]: a client per sandbox was most of 580 bytes each at
/// 10,000 sandboxes, and the proxy address is one of a few (one per region), shared.
struct Place {
    id: String,
    url: std::sync::Arc<str>,
    windows: bool,
}

#[derive(Default)]
struct Places {
    by_key: HashMap<String, Place>,
    urls: Vec<std::sync::Arc<str>>,
}

impl Places {
    fn insert(&mut self, key: String, id: &str, url: &str, windows: bool) {
        let url = match self.urls.iter().find(|u| &***u == url) {
            Some(u) => u.clone(),
            None => {
                let u: std::sync::Arc<str> = url.into();
                self.urls.push(u.clone());
                u
            }
        };
        let id = id.to_string();
        self.by_key.insert(key, Place { id, url, windows });
    }
}

pub struct DaytonaProvider {
    client: DaytonaClient,
    target: Option<String>,
    wait: Duration,
    targets: Mutex<Places>,
}

impl DaytonaProvider {
    pub fn new(client: DaytonaClient, target: Option<String>, wait: Duration) -> Self {
        DaytonaProvider {
            client,
            target,
            wait,
            targets: Mutex::new(Places::default()),
        }
    }

    /// The provider of resolved [`DaytonaSettings`].
    pub fn from_settings(s: DaytonaSettings, http: HttpClient) -> Self {
        Self::new(client(s.api, http), s.target, s.start_timeout)
    }

    pub fn client(&self) -> &DaytonaClient {
        &self.client
    }

    async fn resolve(&self, id: &str) -> Result<Target> {
        if let Some(t) = self.cached(id) {
            return Ok(t);
        }
        let sb = self
            .client
            .get_sandbox(id)
            .await
            .map_err(|e| map_err(e, id))?
            .ok_or_else(|| ProviderError::NotFound(id.to_string()))?;
        let url = match sb.toolbox_proxy_url.as_deref().filter(|u| !u.is_empty()) {
            Some(u) => u.to_string(),
            None => (self.client.toolbox_proxy_url(&sb.id).await).map_err(|e| map_err(e, id))?,
        };
        Ok(self.keep(&[id, &sb.id], &sb.id, &url, sb.is_windows()))
    }

    fn cached(&self, key: &str) -> Option<Target> {
        let cache = self.cache();
        let p = cache.by_key.get(key)?;
        Some(self.target(&p.id, &p.url, p.windows))
    }

    /// Keep the toolbox address a sandbox read carries, so the exec that follows a create or a
    /// get costs no extra read.
    fn remember(&self, sb: &t::Sandbox) -> Option<Target> {
        let url = sb.toolbox_proxy_url.as_deref().filter(|u| !u.is_empty())?;
        Some(self.keep(&[&sb.id], &sb.id, url, sb.is_windows()))
    }

    /// Cache where sandbox `id`'s toolbox lives under each of `keys`, and hand it out.
    fn keep(&self, keys: &[&str], id: &str, url: &str, windows: bool) -> Target {
        let mut cache = self.cache();
        for key in keys {
            cache.insert(key.to_string(), id, url, windows);
        }
        self.target(id, url, windows)
    }

    fn target(&self, id: &str, url: &str, windows: bool) -> Target {
        Target {
            toolbox: self.client.toolbox(url, id),
            windows,
            id: id.to_string(),
        }
    }

    fn cache(&self) -> std::sync::MutexGuard<'_, Places> {
        self.targets.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn forget(&self, id: &str) {
        (self.cache().by_key).retain(|k, v| k != id && v.id != id);
    }

    /// Poll `GET /sandbox/{id}` until `done` (bounded by the start timeout). `missing_ok`:
    /// a 404 counts as done (stop of an ephemeral sandbox ends destroyed).
    async fn wait_until(
        &self,
        id: &str,
        what: &str,
        missing_ok: bool,
        done: impl Fn(&t::Sandbox) -> bool,
    ) -> Result<Option<t::Sandbox>> {
        let deadline = Instant::now() + self.wait;
        let waited = poll_until(deadline, STATE_POLL, || async {
            match self
                .client
                .get_sandbox(id)
                .await
                .map_err(|e| map_err(e, id))?
            {
                None if missing_ok => Ok(Poll::Ready(None)),
                None => Err(ProviderError::NotFound(id.to_string())),
                Some(sb) if done(&sb) => Ok(Poll::Ready(Some(sb))),
                Some(sb) if sb.state().is_error() => Err(ProviderError::Other(format!(
                    "Daytona sandbox {} entered state {}: {}",
                    sb.name,
                    sb.state(),
                    sb.error_reason.as_deref().unwrap_or("no reason given")
                ))),
                Some(sb) => Ok(Poll::Pending(sb)),
            }
        })
        .await?;
        match waited {
            Waited::Ready(sb) => Ok(sb),
            Waited::TimedOut(sb) => Err(ProviderError::Other(format!(
                "Daytona sandbox {} did not become {what} within {} (state: {}); \
                 raise DAYTONA_START_TIMEOUT if Daytona is just slow",
                sb.as_ref().map_or(id, |s| s.name.as_str()),
                humantime::format_duration(self.wait),
                sb.as_ref()
                    .map_or("unknown".to_string(), |s| s.state().to_string())
            ))),
        }
    }

    /// Retry `op` while Daytona says the sandbox is mid-transition, up to the start timeout.
    async fn while_busy<T, F, Fut>(&self, id: &str, mut op: F) -> Result<T>
    where
        F: FnMut() -> Fut,
        Fut: std::future::Future<Output = std::result::Result<T, ApiError>>,
    {
        let deadline = Instant::now() + self.wait;
        poll_until(deadline, BUSY_POLL, || {
            let attempt = op();
            async move {
                match attempt.await {
                    Ok(v) => Ok(Poll::Ready(v)),
                    Err(e)
                        if dapi::is_state_change_in_progress(&e) || dapi::is_invalid_state(&e) =>
                    {
                        tracing::debug!("sandbox {id} is busy, retrying: {e}");
                        Ok(Poll::Pending(e))
                    }
                    Err(e) => Err(map_err(e, id)),
                }
            }
        })
        .await?
        .or_else(|e| busy_timeout(e, id))
    }

    async fn start_main(&self, sb: &t::Sandbox, argv: &[String]) -> Result<()> {
        let target = self.resolve(&sb.id).await?;
        let command = render(&Cmd::Argv(argv.to_vec()), target.windows)?;
        match target.toolbox.create_session(MAIN_SESSION).await {
            Ok(()) => {}
            Err(ApiError::Conflict { .. }) => {}
            Err(e) => return Err(map_err(e, &sb.id)),
        }
        target
            .toolbox
            .session_exec(MAIN_SESSION, &command, true, Duration::from_secs(60))
            .await
            .map_err(|e| map_err(e, &sb.id))?;
        Ok(())
    }

    /// The best log text Daytona has for this sandbox (see the module docs).
    async fn log_text(target: &Target) -> Result<String> {
        let tb = &target.toolbox;
        if let Ok(Some(session)) = tb.get_session(MAIN_SESSION).await
            && let Some(cmd) = session.commands.last()
        {
            let logs = tb
                .session_command_logs(MAIN_SESSION, &cmd.id)
                .await
                .map_err(|e| map_err(e, &target.id))?;
            return Ok(combined(logs));
        }
        match tb.entrypoint_logs().await {
            Ok(logs) => Ok(combined(logs)),
            Err(ApiError::NotFound { .. }) => Ok(String::new()),
            Err(e) => Err(map_err(e, &target.id)),
        }
    }
}

/// The API client alone (for `snapshot` commands), from the same settings.
pub fn client(s: DaytonaApiSettings, http: HttpClient) -> DaytonaClient {
    DaytonaClient::new(http, &s.api_url, s.api_key)
}

fn combined(logs: t::CommandLogs) -> String {
    if !logs.output.is_empty() {
        logs.output
    } else {
        format!("{}{}", logs.stdout, logs.stderr)
    }
}

/// Daytona's state → the provider state machine.
pub fn map_state(s: t::SandboxState) -> SandboxState {
    use t::SandboxState as D;
    match s {
        D::Creating | D::PendingBuild | D::BuildingSnapshot | D::PullingSnapshot => {
            SandboxState::Creating
        }
        D::Starting | D::Restoring | D::Resuming => SandboxState::Starting,
        D::Started | D::Snapshotting | D::Forking => SandboxState::Started,
        D::Stopping | D::Archiving | D::Pausing => SandboxState::Stopping,
        D::Stopped | D::Archived | D::Paused => SandboxState::Stopped,
        D::Destroying => SandboxState::Deleting,
        D::Destroyed => SandboxState::Deleted,
        D::Error | D::BuildFailed => SandboxState::Error,
        D::Resizing | D::Unknown => SandboxState::Unknown,
    }
}

/// Where Daytona keeps the disk in this state (its archive moves a stopped disk to object storage).
pub fn map_disk(s: t::SandboxState) -> crate::provider::Disk {
    use crate::provider::Disk;
    use t::SandboxState as D;
    match s {
        D::Archiving => Disk::Archiving,
        D::Archived => Disk::Archived,
        D::Restoring => Disk::Restoring,
        _ => Disk::Attached,
    }
}

pub fn info(sb: &t::Sandbox) -> SandboxInfo {
    SandboxInfo {
        id: sb.id.clone(),
        name: sb.name.clone(),
        state: map_state(sb.state()),
        raw_state: sb.state().as_str().to_string(),
        disk: map_disk(sb.state()),
        labels: sb.labels.clone(),
        created_at: sb
            .created_at
            .as_deref()
            .and_then(|s| humantime::parse_rfc3339_weak(s.trim_end_matches('Z')).ok())
            .and_then(crate::time::unix_seconds),
        error_reason: sb.error_reason.clone(),
        containers: Vec::new(),
        egress: network::effective(sb),
    }
}

fn map_err(e: ApiError, id: &str) -> ProviderError {
    if dapi::is_quota(&e) {
        let msg = match &e {
            ApiError::Status { message, .. } | ApiError::Unauthorized { message, .. } => {
                message.clone()
            }
            other => other.to_string(),
        };
        return ProviderError::Quota(format!(
            "Daytona quota reached: {msg} (lower MAX_CONCURRENT_SESSIONS, or ask Daytona for a \
             higher limit)"
        ));
    }
    if dapi::is_state_change_in_progress(&e) {
        let message = match &e {
            ApiError::Conflict { message, .. } => message.clone(),
            other => other.to_string(),
        };
        return ProviderError::Busy {
            id: id.to_string(),
            message,
        };
    }
    match e {
        ApiError::NotFound { .. } => ProviderError::NotFound(id.to_string()),
        ApiError::Status {
            status: 400 | 422,
            message,
            ..
        } => ProviderError::Invalid(message),
        other => ProviderError::Api(other),
    }
}

/// The command string Daytona runs. A Linux daemon runs it as is (so a shell line goes through
/// `sh -c`); the Windows daemon runs it as `cmd.exe /C <command>`, so a Windows shell line is a
/// cmd.exe line already (our Windows steps send `powershell.exe -EncodedCommand …`) and an argv
/// becomes a Windows PowerShell call in that form ([`crate::shell::powershell_call`]). Nothing
/// longer than cmd.exe's 8,191 characters is sent to a Windows sandbox.
pub fn render(cmd: &Cmd, windows: bool) -> Result<String> {
    let line = match cmd {
        Cmd::Shell(line) if windows => line.clone(),
        Cmd::Shell(line) => return Ok(format!("sh -c {}", crate::shell::posix_quote(line))),
        Cmd::Argv(argv) if argv.is_empty() => {
            return Err(ProviderError::Invalid(
                "empty command (argv has no program)".into(),
            ));
        }
        Cmd::Argv(argv) if windows => crate::shell::powershell_command(
            &crate::shell::powershell_call(argv).map_err(ProviderError::Invalid)?,
        ),
        Cmd::Argv(argv) => {
            return Ok(argv
                .iter()
                .map(|a| crate::shell::posix_quote(a))
                .collect::<Vec<_>>()
                .join(" "));
        }
    };
    if line.len() > crate::shell::WINDOWS_COMMAND_BUDGET {
        return Err(ProviderError::Invalid(format!(
            "the command is {} characters long; a Windows sandbox runs commands through \
             cmd.exe, whose limit is {} ({} once the daemon's `cmd.exe /S /C` wrapper is in)",
            line.len(),
            crate::shell::CMD_EXE_LIMIT,
            crate::shell::WINDOWS_COMMAND_BUDGET
        )));
    }
    Ok(line)
}

/// Why an exec with an environment is refused on a Windows sandbox (names only, never values).
fn windows_envs_refused(env: &BTreeMap<String, Secret>) -> String {
    format!(
        "a Windows sandbox's exec takes no environment ({} given): Daytona's older Windows \
         daemon drops it and the newer applies it, so a value would arrive on one and not the \
         other; write it into the script or hand it over in a file",
        env.keys().cloned().collect::<Vec<_>>().join(", ")
    )
}

fn valid_env_key(k: &str) -> bool {
    let mut chars = k.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A URL fit for a message: no userinfo, no query.
fn safe_url(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut u) => {
            let _ = u.set_username("");
            let _ = u.set_password(None);
            u.set_query(None);
            u.to_string()
        }
        Err(_) => redact(url).into_owned(),
    }
}

fn exposed(env: &BTreeMap<String, Secret>) -> BTreeMap<String, String> {
    env.iter()
        .map(|(k, v)| (k.clone(), v.expose().to_string()))
        .collect()
}

/// The create request for `spec`, or why Daytona would refuse it.
fn create_body(spec: &SandboxSpec, target: Option<String>) -> Result<CreateSandbox> {
    if spec.name.trim().is_empty() {
        return Err(ProviderError::Invalid("a sandbox name is required".into()));
    }
    if let Some(k) = spec.env.keys().find(|k| !valid_env_key(k)) {
        return Err(ProviderError::Invalid(format!(
            "`{k}` is not a valid environment variable name"
        )));
    }
    let r = &spec.resources;
    let has_resources = r.cpu.is_some()
        || r.memory_gib.is_some()
        || r.disk_gib.is_some()
        || r.gpu.is_some()
        || r.gpu_type.is_some();
    let network = network::create_fields(&spec.egress).map_err(ProviderError::Invalid)?;
    let mut body = CreateSandbox {
        name: Some(spec.name.clone()),
        network,
        user: spec.user.clone(),
        env: Some(exposed(&spec.env)),
        labels: Some(spec.labels.clone()),
        public: Some(false),
        target,
        auto_stop_interval: Some(0),
        // 0 is Daytona's "longest interval" (there is no "never").
        auto_archive_interval: Some(
            spec.archive_after
                .filter(|d| !d.is_zero())
                .map(|d| d.as_secs().div_ceil(60).max(1) as i64)
                .unwrap_or(0),
        ),
        auto_delete_interval: Some(-1),
        ttl_minutes: spec
            .max_lifetime
            .map(|d| d.as_secs().div_ceil(60).max(1) as i64),
        secrets: (!spec.secret_refs.is_empty()).then(|| {
            spec.secret_refs
                .iter()
                .map(|s| BTreeMap::from([(s.env_var.clone(), s.name.clone())]))
                .collect()
        }),
        ..Default::default()
    };
    match &spec.source {
        Source::Snapshot(_) | Source::Default if has_resources => {
            return Err(ProviderError::Invalid(
                "Daytona takes CPU, memory and disk from the snapshot; resources can only be \
                 set when creating from an image (build the snapshot with `outposts snapshot \
                 build --cpu N --memory GiB --disk GiB` instead)"
                    .into(),
            ));
        }
        Source::Snapshot(s) => body.snapshot = Some(s.clone()),
        Source::Default => {}
        Source::Image(image) => {
            body.build_info = Some(CreateBuildInfo {
                dockerfile_content: format!("FROM {image}\n"),
                context_hashes: Vec::new(),
            });
            body.cpu = r.cpu.map(|c| c.ceil().max(1.0) as u32);
            body.memory = r.memory_gib.map(|m| m.ceil().max(1.0) as u32);
            body.disk = r.disk_gib;
            body.gpu = r.gpu;
            body.gpu_type = r.gpu_type.clone().map(|g| vec![g]);
        }
    }
    Ok(body)
}

/// Still refused when the start timeout ran out: the last refusal, as any other.
fn busy_timeout(last: Option<ApiError>, id: &str) -> ProviderError {
    match last {
        Some(e) => map_err(e, id),
        None => ProviderError::Busy {
            id: id.to_string(),
            message: "still changing state".into(),
        },
    }
}

/// A refused create: the name taken, the sandbox failing to boot, or the general mapping.
fn create_err(e: ApiError, name: &str) -> ProviderError {
    match e {
        ApiError::Conflict { message, .. }
            if message.to_ascii_lowercase().contains("already exists") =>
        {
            ProviderError::AlreadyExists(name.to_string())
        }
        ApiError::Status {
            status: 400,
            message,
            ..
        } if message.starts_with("Sandbox failed to start") => {
            ProviderError::Other(format!("Daytona sandbox {name}: {message}"))
        }
        e => map_err(e, name),
    }
}

#[async_trait]
impl Provider for DaytonaProvider {
    fn kind(&self) -> ProviderKind {
        ProviderKind::Daytona
    }

    async fn preflight(&self, source: &Source) -> Result<()> {
        let Source::Snapshot(name) = source else {
            // An image is built or pulled at create: only the key can be proven now.
            self.client.list_snapshots_page(1, 1, None).await?;
            return Ok(());
        };
        match self.client.get_snapshot(name).await? {
            Some(s) if s.state() == t::SnapshotState::Active => Ok(()),
            Some(s) if s.state().is_failed() => Err(ProviderError::NotReady {
                problem: format!(
                    "Daytona snapshot {name} failed to build ({}): {}",
                    s.state(),
                    s.error_reason.as_deref().unwrap_or("no reason recorded")
                ),
                fix: not_ready::daytona_snapshot_failed(name),
            }),
            Some(s) => Err(ProviderError::NotReady {
                problem: format!("Daytona snapshot {name} is {}, not active", s.state()),
                fix: not_ready::daytona_snapshot_pending(),
            }),
            None => Err(ProviderError::NotReady {
                problem: format!("Daytona snapshot {name} does not exist"),
                fix: not_ready::daytona_snapshot_missing(),
            }),
        }
    }

    async fn create(&self, spec: &SandboxSpec) -> Result<SandboxInfo> {
        let body = create_body(spec, spec.target.clone().or_else(|| self.target.clone()))?;
        let created = match self.client.create_sandbox(&body).await {
            Ok(sb) => sb,
            Err(e) => return Err(create_err(e, &spec.name)),
        };
        let sb = if created.state() == t::SandboxState::Started {
            created
        } else {
            self.wait_until(&created.id, "started", false, |s| {
                s.state() == t::SandboxState::Started
            })
            .await?
            .unwrap_or(created)
        };
        self.remember(&sb);
        if let Some(argv) = &spec.command {
            self.start_main(&sb, argv).await?;
        }
        Ok(info(&sb))
    }

    fn check_egress(&self, egress: &Egress) -> std::result::Result<(), String> {
        network::create_fields(egress).map(|_| ())
    }

    fn can_set_egress(&self) -> bool {
        true
    }

    async fn set_egress(&self, id: &str, egress: &Egress) -> Result<()> {
        let body = network::update_fields(egress).map_err(ProviderError::Invalid)?;
        self.client
            .update_network_settings(id, &body)
            .await
            .map_err(|e| map_err(e, id))?;
        Ok(())
    }

    /// A stopped Daytona sandbox keeps its whole disk: nothing to snapshot apart.
    async fn stop_keeping(&self, id: &str, _snapshot: bool) -> Result<Option<String>> {
        self.stop(id).await.map(|()| None)
    }

    /// Daytona keeps nothing for a sandbox outside the sandbox itself.
    async fn discard(&self, _name: &str) -> Result<()> {
        Ok(())
    }

    async fn get(&self, id_or_name: &str) -> Result<Option<SandboxInfo>> {
        Ok(self
            .client
            .get_sandbox(id_or_name)
            .await
            .map_err(|e| map_err(e, id_or_name))?
            .map(|sb| {
                self.remember(&sb);
                info(&sb)
            }))
    }

    async fn list(&self, labels: &BTreeMap<String, String>) -> Result<Vec<SandboxInfo>> {
        let mut all = Vec::new();
        self.list_each(labels, &mut |sb| all.push(sb)).await?;
        Ok(all)
    }

    async fn list_each(
        &self,
        labels: &BTreeMap<String, String>,
        sink: &mut Sink<'_>,
    ) -> Result<()> {
        self.client
            .list_sandboxes_map(labels, |sb| {
                // The server filters already; keep the contract even against a sloppy one.
                if labels.iter().all(|(k, v)| sb.labels.get(k) == Some(v)) {
                    sink(info(&sb));
                }
                None::<()>
            })
            .await
            .map(drop)
            .map_err(|e| map_err(e, "(list)"))
    }

    async fn start(&self, id: &str) -> Result<()> {
        let sb = self
            .while_busy(id, || self.client.start_sandbox(id))
            .await?;
        if sb.state() != t::SandboxState::Started {
            self.wait_until(id, "started", false, |s| {
                s.state() == t::SandboxState::Started
            })
            .await?;
        }
        Ok(())
    }

    async fn stop(&self, id: &str) -> Result<()> {
        let deadline = Instant::now() + self.wait;
        let stopped = poll_until(deadline, TRANSITION_POLL, || async {
            match self.client.stop_sandbox(id, false).await {
                Ok(_) => Ok(Poll::Ready(false)),
                Err(e) if dapi::is_not_stoppable(&e) => {
                    // Already stopped (success), or mid-transition (wait), or errored (fail).
                    let sb = self
                        .client
                        .get_sandbox(id)
                        .await
                        .map_err(|e| map_err(e, id))?
                        .ok_or_else(|| ProviderError::NotFound(id.to_string()))?;
                    let state = sb.state();
                    if state.is_stopped() || state == t::SandboxState::Destroyed {
                        return Ok(Poll::Ready(true));
                    }
                    if state == t::SandboxState::Stopping {
                        return Ok(Poll::Ready(false));
                    }
                    if state.is_error() {
                        return Err(map_err(e, id));
                    }
                    Ok(Poll::Pending(e))
                }
                Err(e) if dapi::is_state_change_in_progress(&e) => Ok(Poll::Pending(e)),
                Err(e) => Err(map_err(e, id)),
            }
        })
        .await?
        .or_else(|e| busy_timeout(e, id))?;
        if !stopped {
            self.wait_until(id, "stopped", true, |s| {
                s.state().is_stopped() || s.state() == t::SandboxState::Destroyed
            })
            .await?;
        }
        Ok(())
    }

    async fn delete(&self, id: &str) -> Result<()> {
        self.forget(id);
        let deadline = Instant::now() + self.wait;
        poll_until(deadline, TRANSITION_POLL, || async {
            let e = match self.client.delete_sandbox(id).await {
                Ok(_) | Err(ApiError::NotFound { .. }) => return Ok(Poll::Ready(())),
                Err(e @ ApiError::Conflict { .. }) => e,
                Err(e) => return Err(map_err(e, id)),
            };
            // A second delete while destroying is 409: that is done, too.
            match self
                .client
                .get_sandbox(id)
                .await
                .map_err(|e| map_err(e, id))?
            {
                None => Ok(Poll::Ready(())),
                Some(sb)
                    if matches!(
                        sb.state(),
                        t::SandboxState::Destroying | t::SandboxState::Destroyed
                    ) || sb.desired_state == Some(t::SandboxDesiredState::Destroyed) =>
                {
                    Ok(Poll::Ready(()))
                }
                Some(_) => Ok(Poll::Pending(e)),
            }
        })
        .await?
        .or_else(|e| busy_timeout(e, id))
    }

    async fn set_labels(&self, id: &str, labels: &BTreeMap<String, String>) -> Result<()> {
        self.client
            .replace_labels(id, labels)
            .await
            .map_err(|e| map_err(e, id))
    }

    async fn hand_over(
        &self,
        id: &str,
        _name: &str,
        labels: &BTreeMap<String, String>,
    ) -> Result<()> {
        self.set_labels(id, labels).await
    }

    /// A stopped Daytona sandbox keeps its disk: nothing is kept apart from it.
    async fn keeps_workspace(&self, _name: &str) -> Result<bool> {
        Ok(false)
    }

    async fn exec(&self, id: &str, req: &ExecRequest) -> Result<ExecOutput> {
        if let Some(k) = req.env.keys().find(|k| !valid_env_key(k)) {
            return Err(ProviderError::Invalid(format!(
                "`{k}` is not a valid environment variable name"
            )));
        }
        let target = self.resolve(id).await?;
        // One way on every Windows daemon: the older drops `envs`, the newer applies them.
        if target.windows && !req.env.is_empty() {
            return Err(ProviderError::Invalid(windows_envs_refused(&req.env)));
        }
        let body = ExecuteRequest {
            command: render(&req.cmd, target.windows)?,
            cwd: req.cwd.clone(),
            envs: (!req.env.is_empty()).then(|| exposed(&req.env)),
            timeout: req.timeout.map(|t| t.as_secs_f64().ceil().max(1.0) as u64),
        };
        let wait = req
            .timeout
            .map(|t| t + EXEC_GRACE)
            .unwrap_or(DEFAULT_EXEC_WAIT);
        match target.toolbox.execute(&body, wait).await {
            Ok(r) => Ok(ExecOutput {
                exit_code: r.exit(),
                stdout: r.result,
                stderr: String::new(),
            }),
            Err(ApiError::Status { status: 408, .. }) => {
                Err(ProviderError::Timeout(req.timeout.unwrap_or(wait)))
            }
            Err(e) => Err(map_err(e, id)),
        }
    }

    async fn read_file(&self, id: &str, path: &str) -> Result<Option<Vec<u8>>> {
        let target = self.resolve(id).await?;
        target
            .toolbox
            .download(path)
            .await
            .map_err(|e| map_err(e, id))
    }

    async fn write_file(&self, id: &str, path: &str, data: &[u8]) -> Result<()> {
        let target = self.resolve(id).await?;
        target
            .toolbox
            .upload(path, data)
            .await
            .map_err(|e| map_err(e, id))
    }

    async fn git_clone(&self, id: &str, req: &GitClone) -> Result<()> {
        let target = self.resolve(id).await?;
        // Daytona uses credentials only when both are set.
        let username = match (&req.username, &req.password) {
            (Some(u), _) => Some(u.clone()),
            (None, Some(_)) => Some(req.username_or_default()),
            (None, None) => None,
        };
        let body = GitCloneRequest {
            url: req.url.clone(),
            path: req.path.clone(),
            branch: req.branch.clone(),
            commit_id: None,
            username: req.password.as_ref().and(username),
            password: req.password.clone(),
            depth: None,
        };
        match target
            .toolbox
            .git_clone(&body, Duration::from_secs(1800))
            .await
        {
            Ok(()) => Ok(()),
            Err(ApiError::Unauthorized {
                status, message, ..
            }) => Err(ProviderError::Other(format!(
                "git clone of {} into {} was refused (HTTP {status}): {message}; if the git \
                 server refused, check GIT_USERNAME and GIT_TOKEN, otherwise DAYTONA_API_KEY",
                safe_url(&req.url),
                req.path
            ))),
            Err(ApiError::Status {
                status, message, ..
            }) => Err(ProviderError::Other(format!(
                "git clone of {} into {} failed (HTTP {status}): {message}",
                safe_url(&req.url),
                req.path
            ))),
            Err(e) => Err(map_err(e, id)),
        }
    }

    async fn logs(
        &self,
        id: &str,
        opts: &LogOptions,
    ) -> Result<BoxStream<'static, Result<String>>> {
        let target = self.resolve(id).await?;
        let text = Self::log_text(&target).await?;
        let mut lines: VecDeque<String> = text.lines().map(str::to_string).collect();
        if let Some(n) = opts.tail {
            while lines.len() > n as usize {
                lines.pop_front();
            }
        }
        if !opts.follow {
            return Ok(stream::iter(lines.into_iter().map(Ok)).boxed());
        }
        // Follow: poll the log every second and emit what was appended; end when the sandbox
        // is no longer running.
        struct Follow {
            target: Target,
            client: DaytonaClient,
            seen: usize,
            pending: VecDeque<String>,
            polls: u32,
            done: bool,
        }
        let state = Follow {
            seen: text.len(),
            pending: lines,
            target,
            client: self.client.clone(),
            polls: 0,
            done: false,
        };
        Ok(stream::unfold(state, |mut st| async move {
            // Not poll_until: a log follow, not a wait: it ends when the sandbox stops.
            loop {
                if let Some(line) = st.pending.pop_front() {
                    return Some((Ok(line), st));
                }
                if st.done {
                    return None;
                }
                tokio::time::sleep(Duration::from_secs(1)).await;
                st.polls += 1;
                match Self::log_text(&st.target).await {
                    Ok(text) => {
                        // A restarted command starts a new log: take it whole.
                        let start = if text.len() >= st.seen { st.seen } else { 0 };
                        let new = text.get(start..).unwrap_or_default();
                        st.pending.extend(new.lines().map(str::to_string));
                        st.seen = text.len();
                    }
                    Err(e) => {
                        st.done = true;
                        return Some((Err(e), st));
                    }
                }
                if st.polls % 5 == 0 {
                    let running = matches!(
                        st.client.get_sandbox(&st.target.id).await,
                        Ok(Some(sb)) if sb.state() == t::SandboxState::Started
                    );
                    st.done = !running;
                }
            }
        })
        .boxed())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argv_is_quoted_for_posix_shells() {
        let cmd = Cmd::Argv(vec!["echo".into(), "it's $HOME".into(), "a b".into()]);
        assert_eq!(
            render(&cmd, false).unwrap(),
            r#"echo 'it'\''s $HOME' 'a b'"#
        );
        assert_eq!(
            render(&Cmd::Shell("echo $X | wc".into()), false).unwrap(),
            "sh -c 'echo $X | wc'"
        );
        assert!(render(&Cmd::Argv(vec![]), false).is_err());
    }

    /// What a Windows sandbox gets must be a valid `cmd.exe /C` line: an argv travels as an
    /// encoded Windows PowerShell call, never as bare PowerShell syntax.
    #[test]
    fn windows_commands_are_cmd_exe_lines() {
        use base64::Engine;
        let line = render(&Cmd::Argv(vec!["git".into(), "it's".into()]), true).unwrap();
        let b64 = line
            .strip_prefix(
                "powershell.exe -NoProfile -NonInteractive -ExecutionPolicy Bypass -EncodedCommand ",
            )
            .unwrap_or_else(|| panic!("not a powershell.exe line: {line}"));
        assert!(
            !line.contains(['"', '&', '|', '%', '^', '<', '>', '\'']),
            "{line}"
        );
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(b64)
            .unwrap();
        let units: Vec<u16> = bytes
            .chunks(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect();
        let script = String::from_utf16(&units).unwrap();
        assert!(script.starts_with("& 'git' 'it''s'\n"), "{script}");
        // A shell line for Windows is already a cmd.exe line.
        assert_eq!(
            render(&Cmd::Shell("echo hi".into()), true).unwrap(),
            "echo hi"
        );
        // Over cmd.exe's limit, or an argument PowerShell would change: refused, not sent.
        let long = Cmd::Argv(vec!["echo".into(), "x".repeat(3100)]);
        assert!(render(&long, false).is_ok());
        assert!(matches!(
            render(&long, true),
            Err(ProviderError::Invalid(_))
        ));
        assert!(render(&Cmd::Shell("x".repeat(8192)), true).is_err());
        assert!(render(&Cmd::Argv(vec!["git".into(), "".into()]), true).is_err());
    }

    #[test]
    fn states_map_onto_the_provider_machine() {
        use t::SandboxState as D;
        assert_eq!(map_state(D::PullingSnapshot), SandboxState::Creating);
        assert_eq!(map_state(D::Archived), SandboxState::Stopped);
        use crate::provider::Disk;
        assert_eq!(map_disk(D::Archived), Disk::Archived);
        assert_eq!(map_disk(D::Archiving), Disk::Archiving);
        assert_eq!(map_disk(D::Restoring), Disk::Restoring);
        assert_eq!(map_disk(D::Stopped), Disk::Attached);
        assert_eq!(map_disk(D::Started), Disk::Attached);
        assert_eq!(map_state(D::BuildFailed), SandboxState::Error);
        assert_eq!(map_state(D::Destroying), SandboxState::Deleting);
        assert_eq!(map_state(D::Unknown), SandboxState::Unknown);
    }

    #[test]
    fn env_keys_are_checked_and_urls_cleaned() {
        assert!(valid_env_key("_A1"));
        assert!(!valid_env_key("1A"));
        assert!(!valid_env_key("A-B"));
        assert_eq!(
            safe_url("https://user:tok@example.com/r.git?x=1"),
            "https://example.com/r.git"
        );
    }
}
