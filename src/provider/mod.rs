//! Sandbox providers: one trait for everything above it (orchestrator, workers, verify).
//!
//! Implementations: [`daytona`] (REST + toolbox), [`coreweave`] (gRPC), [`local`] (directories on
//! this machine, isolated with bubblewrap). The orchestrator never knows which one it drives.

use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

use async_trait::async_trait;
use futures::stream::BoxStream;
use serde::Serialize;

pub use crate::api::network_policy::Egress;
use crate::secrets::Secret;
use crate::settings::ProviderSettings;

pub mod coreweave;
pub mod local;

/// Which provider.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, clap::ValueEnum, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum ProviderKind {
    Daytona,
    Coreweave,
    Local,
}

impl ProviderKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ProviderKind::Daytona => "daytona",
            ProviderKind::Coreweave => "coreweave",
            ProviderKind::Local => "local",
        }
    }

    /// What a sleeping session keeps on this provider (README "Sleeping sessions").
    pub fn sleep_keeps(self) -> &'static str {
        match self {
            ProviderKind::Coreweave => {
                "the session's home directory and working directory (one snapshotted volume); \
                 never /tmp or system packages"
            }
            ProviderKind::Daytona | ProviderKind::Local => {
                "the whole disk: every file the session wrote"
            }
        }
    }

    pub fn parse(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "daytona" => Ok(ProviderKind::Daytona),
            "coreweave" | "cwsandbox" => Ok(ProviderKind::Coreweave),
            "local" => Ok(ProviderKind::Local),
            other => Err(format!(
                "`{other}` is not a provider (use daytona, coreweave or local)"
            )),
        }
    }
}

impl fmt::Display for ProviderKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The small state machine every provider maps onto. Provider-specific states are kept raw in
/// [`SandboxInfo::raw_state`] for display only; where the disk is lives in [`Disk`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SandboxState {
    /// Being created, built or pulled.
    Creating,
    Starting,
    Started,
    Stopping,
    /// Stopped (or archived/paused): disk kept, nothing running.
    Stopped,
    Deleting,
    /// Gone, or finished for good (CoreWeave completed/terminated).
    Deleted,
    Error,
    Unknown,
}

impl SandboxState {
    pub fn as_str(self) -> &'static str {
        match self {
            SandboxState::Creating => "creating",
            SandboxState::Starting => "starting",
            SandboxState::Started => "started",
            SandboxState::Stopping => "stopping",
            SandboxState::Stopped => "stopped",
            SandboxState::Deleting => "deleting",
            SandboxState::Deleted => "deleted",
            SandboxState::Error => "error",
            SandboxState::Unknown => "unknown",
        }
    }

    /// Will become `Started` without help.
    pub fn is_coming_up(self) -> bool {
        matches!(self, SandboxState::Creating | SandboxState::Starting)
    }
}

impl fmt::Display for SandboxState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where a sandbox's disk is. Providers that move a stopped sandbox's disk to cheaper storage
/// (Daytona's archive) say so here, so that nothing above them compares their state names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Disk {
    /// With the sandbox (every provider and state but the ones below).
    #[default]
    Attached,
    /// Being moved to the archive (the sandbox reads `Stopping`).
    Archiving,
    /// In the archive (the sandbox reads `Stopped`): a start restores it first, which is slower.
    Archived,
    /// Coming back from the archive (the sandbox reads `Starting`).
    Restoring,
}

impl Disk {
    /// In the archive, or on its way there.
    pub fn is_archived(self) -> bool {
        matches!(self, Disk::Archiving | Disk::Archived)
    }
}

/// What to boot from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A provider snapshot (Daytona snapshot name).
    Snapshot(String),
    /// A container image reference.
    Image(String),
    /// The provider's default.
    Default,
}

/// Requested resources. Units: CPU cores, GiB.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Resources {
    pub cpu: Option<f64>,
    pub memory_gib: Option<f64>,
    pub disk_gib: Option<u32>,
    pub gpu: Option<u32>,
    pub gpu_type: Option<String>,
}

/// A reference to a value in the provider's secret store, exposed to the sandbox as `env_var`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SecretRef {
    pub store: String,
    pub name: String,
    pub env_var: String,
}

/// Everything `create` needs.
#[derive(Debug, Clone)]
pub struct SandboxSpec {
    /// Unique per provider account; the idempotency handle.
    pub name: String,
    pub source: Source,
    pub labels: BTreeMap<String, String>,
    /// Environment of the sandbox's main process. Secret values only where the spec says the
    /// sandbox needs them.
    pub env: BTreeMap<String, Secret>,
    pub secret_refs: Vec<SecretRef>,
    pub resources: Resources,
    /// Main command (argv) for providers whose sandboxes run one (CoreWeave, fixed workers).
    pub command: Option<Vec<String>>,
    /// Hard lifetime cap where the provider has one; `None` = none/platform default.
    pub max_lifetime: Option<Duration>,
    /// OS user, where the provider lets us choose.
    pub user: Option<String>,
    /// A directory whose files must survive a stop: Daytona and local sandboxes keep their whole
    /// disk anyway; CoreWeave, whose stop deletes the sandbox, keeps it on a scratch volume that
    /// is snapshotted on stop and restored on the next create under the same name.
    pub workspace: Option<Workspace>,
    /// Once stopped, may move to cheaper storage after this long (Daytona's archive; `None`:
    /// the provider's longest interval).
    pub archive_after: Option<Duration>,
    /// Outbound network: `Open` sends nothing (the provider's default); `Only` restricts egress
    /// from the start. Checked with [`Provider::check_egress`] first.
    pub egress: Egress,
    /// Where this one sandbox goes, where the provider lets a create choose (Daytona's
    /// `target`); `None`: the provider's own setting (`DAYTONA_TARGET`) or default.
    pub target: Option<String>,
    /// Ready capacity that [`Provider::hand_over`] may later give to a session (warm
    /// sandboxes): CoreWeave looks for hand-over receipts only for these.
    pub handable: bool,
}

/// See [`SandboxSpec::workspace`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Workspace {
    pub mount_path: String,
    /// Keep the session's home directory with it (where a sleep drops the sandbox's disk:
    /// CoreWeave puts `HOME` on the same volume, seeded from the image's own home at the first
    /// create). The other providers keep the whole disk anyway.
    pub keep_home: bool,
    /// Restore this snapshot (instead of the newest one kept for the sandbox's name).
    pub restore: Option<String>,
}

impl SandboxSpec {
    pub fn new(name: impl Into<String>, source: Source) -> Self {
        SandboxSpec {
            name: name.into(),
            source,
            labels: BTreeMap::new(),
            env: BTreeMap::new(),
            secret_refs: Vec::new(),
            resources: Resources::default(),
            command: None,
            max_lifetime: None,
            user: None,
            workspace: None,
            archive_after: None,
            egress: Egress::Open,
            target: None,
            handable: false,
        }
    }
}

/// Per-container status (CoreWeave reports several; others report one or none).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ContainerStatus {
    pub name: String,
    pub state: String,
    pub exit_code: Option<i32>,
    pub restart_count: u32,
}

/// A sandbox as the provider reports it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SandboxInfo {
    pub id: String,
    pub name: String,
    pub state: SandboxState,
    /// The provider's own state name (e.g. `pulling_snapshot`, `STATE_RUNNING`), for display
    /// only: decisions read `state` and `disk`.
    pub raw_state: String,
    /// Where its disk is (`Attached` unless the provider archives stopped disks).
    #[serde(skip)]
    pub disk: Disk,
    pub labels: BTreeMap<String, String>,
    /// Unix seconds, when known.
    pub created_at: Option<f64>,
    pub error_reason: Option<String>,
    pub containers: Vec<ContainerStatus>,
    /// The outbound network the provider reports for it.
    pub egress: Egress,
}

/// Was `sb`, just returned by a create sent at `sent`, served from a warm pool? A pool hands
/// over a sandbox it started earlier, so one created well before the request (by more than
/// the clock skew we allow between us and the provider, 2 s) was waiting there; a cold create
/// makes its sandbox after the request arrives.
pub fn served_warm(sb: &SandboxInfo, sent: std::time::SystemTime) -> bool {
    let Ok(sent) = sent.duration_since(std::time::UNIX_EPOCH) else {
        return false;
    };
    sb.created_at
        .is_some_and(|created| created + 2.0 < sent.as_secs_f64())
}

/// A command to run in a sandbox.
#[derive(Debug, Clone, PartialEq)]
pub enum Cmd {
    /// A shell command line, run by `sh -c` (PowerShell on Windows sandboxes).
    Shell(String),
    /// An argv, run without a shell.
    Argv(Vec<String>),
}

#[derive(Debug, Clone)]
pub struct ExecRequest {
    pub cmd: Cmd,
    pub cwd: Option<String>,
    /// Passed out of band (provider env fields), never spliced into the command text.
    pub env: BTreeMap<String, Secret>,
    pub timeout: Option<Duration>,
}

impl ExecRequest {
    pub fn shell(cmd: impl Into<String>) -> Self {
        ExecRequest {
            cmd: Cmd::Shell(cmd.into()),
            cwd: None,
            env: BTreeMap::new(),
            timeout: None,
        }
    }
    pub fn argv<I: IntoIterator<Item = S>, S: Into<String>>(argv: I) -> Self {
        ExecRequest {
            cmd: Cmd::Argv(argv.into_iter().map(Into::into).collect()),
            cwd: None,
            env: BTreeMap::new(),
            timeout: None,
        }
    }
    pub fn cwd(mut self, cwd: impl Into<String>) -> Self {
        self.cwd = Some(cwd.into());
        self
    }
    pub fn env(mut self, key: impl Into<String>, value: Secret) -> Self {
        self.env.insert(key.into(), value);
        self
    }
    pub fn timeout(mut self, t: Duration) -> Self {
        self.timeout = Some(t);
        self
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ExecOutput {
    pub exit_code: i32,
    /// stdout, or the combined output when the provider does not separate the streams.
    pub stdout: String,
    pub stderr: String,
}

/// Clone a repository inside a sandbox. Credentials travel in the provider's fields, never in
/// the URL or a log line.
#[derive(Debug, Clone)]
pub struct GitClone {
    pub url: String,
    pub path: String,
    pub branch: Option<String>,
    pub username: Option<String>,
    pub password: Option<Secret>,
}

/// The user name Git hosts take with a token as the password (GitHub, GitLab, Bitbucket), sent
/// when a password comes without one. Equal to `GIT_USERNAME`'s default (a test checks).
pub const TOKEN_USERNAME: &str = "x-access-token";

impl GitClone {
    /// The user name to send with the password.
    pub fn username_or_default(&self) -> String {
        self.username
            .clone()
            .unwrap_or_else(|| TOKEN_USERNAME.to_string())
    }
}

#[derive(Debug, Clone, Default)]
pub struct LogOptions {
    pub tail: Option<u32>,
    pub follow: bool,
}

/// Provider failures the layers above act on.
#[derive(Debug, thiserror::Error)]
pub enum ProviderError {
    #[error("a sandbox named {0} already exists")]
    AlreadyExists(String),
    #[error("no sandbox {0}")]
    NotFound(String),
    /// The sandbox is changing state; retry later (Daytona 409 "state change in progress").
    #[error("sandbox {id} is busy: {message}")]
    Busy { id: String, message: String },
    #[error("{0}")]
    Quota(String),
    #[error("the provider rejected the request: {0}")]
    Invalid(String),
    #[error("{operation} is not supported by the {provider} provider")]
    Unsupported {
        provider: ProviderKind,
        operation: &'static str,
    },
    #[error("command timed out after {0:?}")]
    Timeout(Duration),
    /// The provider cannot run a sandbox here at all (a host tool, a snapshot is missing):
    /// nothing should be claimed until `fix` is done.
    #[error("{problem}")]
    NotReady { problem: String, fix: String },
    #[error(transparent)]
    Api(#[from] crate::api::ApiError),
    #[error("{0}")]
    Other(String),
}

pub type Result<T, E = ProviderError> = std::result::Result<T, E>;

/// The answer of a provider that cannot change an existing sandbox's egress.
pub fn egress_unchangeable(provider: ProviderKind) -> ProviderError {
    ProviderError::Unsupported {
        provider,
        operation: "changing a sandbox's network policy",
    }
}

/// Build the provider of resolved settings (the one place a [`ProviderSettings`] variant meets
/// its provider).
pub async fn build(
    settings: ProviderSettings,
    http: crate::api::HttpClient,
) -> anyhow::Result<std::sync::Arc<dyn Provider>> {
    Ok(match settings {
        ProviderSettings::Local(s) => std::sync::Arc::new(local::LocalProvider::from_settings(s)?),
        ProviderSettings::Coreweave(s) => {
            std::sync::Arc::new(coreweave::CoreweaveProvider::from_settings(s)?)
        }
        ProviderSettings::Daytona(s) => {
            std::sync::Arc::new(daytona::DaytonaProvider::from_settings(s, http))
        }
    })
}

/// Where [`Provider::list_each`] hands each listed sandbox.
pub type Sink<'a> = dyn FnMut(SandboxInfo) + Send + 'a;

/// [`Provider::list_each`] for a provider whose listing arrives in one piece.
pub fn feed(listing: Result<Vec<SandboxInfo>>, sink: &mut Sink<'_>) -> Result<()> {
    listing?.into_iter().for_each(sink);
    Ok(())
}

/// One provider. Every method is idempotent where the provider allows it: `delete` of a gone
/// sandbox and `stop` of a stopped one succeed.
///
/// No method has a default body, on purpose: a decorator (the orchestrator's timing wrapper)
/// that forgot to forward one would silently run the default instead of the real provider's
/// (that once turned off every provider's network-policy support). Without defaults the
/// compiler refuses such a decorator.
#[async_trait]
pub trait Provider: Send + Sync {
    fn kind(&self) -> ProviderKind;

    /// Can a sandbox booting from `source` be created at all? Checked before the first claim
    /// (and by `doctor`), so no session is ever claimed for a sandbox that cannot exist:
    /// credentials accepted, snapshot present, isolation usable. Creates nothing.
    async fn preflight(&self, source: &Source) -> Result<()>;

    /// Create and boot. Auto-stop and auto-delete are explicitly off; a stopped sandbox moves to
    /// cheaper storage only after [`SandboxSpec::archive_after`] (Daytona archive), disk kept.
    async fn create(&self, spec: &SandboxSpec) -> Result<SandboxInfo>;
    /// By id or name; `None` when absent.
    async fn get(&self, id_or_name: &str) -> Result<Option<SandboxInfo>>;
    /// Every sandbox carrying all `labels` (all pages; errored ones included).
    async fn list(&self, labels: &BTreeMap<String, String>) -> Result<Vec<SandboxInfo>>;
    /// What [`Provider::list`] returns, handed to `sink` one sandbox at a time as each page
    /// arrives, so a caller that keeps little of a large listing never holds it whole (a
    /// provider that reads its listing in one piece hands it over at the end: [`feed`]). An
    /// error may come after part of the listing was handed over: act on none of it then.
    async fn list_each(&self, labels: &BTreeMap<String, String>, sink: &mut Sink<'_>)
    -> Result<()>;
    async fn start(&self, id: &str) -> Result<()>;
    async fn stop(&self, id: &str) -> Result<()>;
    async fn delete(&self, id: &str) -> Result<()>;
    /// Replace the label set.
    async fn set_labels(&self, id: &str, labels: &BTreeMap<String, String>) -> Result<()>;
    /// Make the ready sandbox `id` (created with [`SandboxSpec::handable`]) the one of `name`:
    /// from then on `get(name)` finds it, its labels read as `labels`, and its workspace is
    /// `name`'s. Daytona and local relabel it; CoreWeave, whose tags are fixed, leaves a
    /// receipt beside it (`coreweave/handover.rs`, which refuses a second sandbox for a name).
    async fn hand_over(
        &self,
        id: &str,
        name: &str,
        labels: &BTreeMap<String, String>,
    ) -> Result<()>;
    /// Does `name` keep a workspace outside any sandbox (CoreWeave: snapshots a sleep left)?
    /// Such a name is woken by a create that restores it, never served a ready sandbox.
    async fn keeps_workspace(&self, name: &str) -> Result<bool>;
    async fn exec(&self, id: &str, req: &ExecRequest) -> Result<ExecOutput>;
    /// `None` when the file does not exist.
    async fn read_file(&self, id: &str, path: &str) -> Result<Option<Vec<u8>>>;
    async fn write_file(&self, id: &str, path: &str, data: &[u8]) -> Result<()>;
    async fn git_clone(&self, id: &str, req: &GitClone) -> Result<()>;
    /// Stop, keeping the workspace where the provider keeps it apart (CoreWeave: a snapshot,
    /// whose id comes back) unless `snapshot` is false. Elsewhere the same as [`Self::stop`]:
    /// the disk stays with the stopped sandbox.
    async fn stop_keeping(&self, id: &str, snapshot: bool) -> Result<Option<String>>;
    /// Remove what stopped sandboxes left behind under `name` outside any sandbox (CoreWeave:
    /// the workspace snapshots kept for it). Idempotent; the other providers keep nothing.
    async fn discard(&self, name: &str) -> Result<()>;
    /// Can this provider enforce `egress` on a new sandbox? `Err` says why not. Open egress is
    /// always fine; restricting it is each provider's own business.
    fn check_egress(&self, egress: &Egress) -> std::result::Result<(), String>;
    /// Does [`Self::set_egress`] work on an existing sandbox?
    fn can_set_egress(&self) -> bool;
    /// Change a started sandbox's egress ([`egress_unchangeable`] where it cannot).
    async fn set_egress(&self, id: &str, egress: &Egress) -> Result<()>;
    /// Lines of the sandbox's main log (the main process for CoreWeave; the provider's
    /// sandbox log elsewhere).
    async fn logs(&self, id: &str, opts: &LogOptions)
    -> Result<BoxStream<'static, Result<String>>>;
}
pub mod daytona;
