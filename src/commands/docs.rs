//! The `--json` documents' contract: every document is a typed struct (`Serialize` +
//! `JsonSchema`), listed here once. `outposts generate` renders their schemas into
//! `docs/json.md`; the `generated` test fails when a struct's shape drifts from that file.

use schemars::JsonSchema;
use serde::Serialize;

use crate::error::Hint;

/// `{"error": {...}}`: what every command prints on stderr when it fails under `--json`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ErrorDoc {
    pub error: ErrorBody,
    /// The session the failure happened to (a `session` command that knows one, e.g. the
    /// session `session verify --create` made); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct ErrorBody {
    /// `usage`, `auth`, `check_failed`, `failure`, `interrupted` or `terminated`.
    pub code: &'static str,
    /// The process's exit code.
    pub exit_code: u8,
    pub message: String,
    pub hint: Option<Hint>,
}

impl ErrorDoc {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| {
            format!("{{\"error\":{{\"message\":\"cannot encode the error: {e}\"}}}}")
        })
    }
}

/// Where [`render_markdown`] is committed (relative to the repository root).
pub const JSON_DOCS_PATH: &str = "docs/json.md";

/// One documented document: the command that prints it and its schema.
pub struct Documented {
    pub command: &'static str,
    pub about: &'static str,
    schema: fn() -> schemars::Schema,
}

fn doc<T: JsonSchema>(command: &'static str, about: &'static str) -> Documented {
    Documented {
        command,
        about,
        schema: || schemars::SchemaGenerator::default().into_root_schema_for::<T>(),
    }
}

/// Every `--json` document.
pub fn all() -> Vec<Documented> {
    let mut all = general();
    all.extend(setup_and_orchestrator());
    all.extend(machines_and_sessions());
    all
}

/// Errors, the tool itself, outposts, the queue and the emulator.
fn general() -> Vec<Documented> {
    use super::{demo, emulator, generate, outpost, queue};
    vec![
        doc::<ErrorDoc>(
            "(any command, on failure)",
            "On stderr (its last line), instead of the human error; `session` commands also print it on stdout, which then holds exactly this one document.",
        ),
        doc::<EnvDoc>("help-env", "Every environment variable the tool reads."),
        doc::<outpost::CreatedDoc>(
            "outpost create",
            "The new outpost, and the .env that names it.",
        ),
        doc::<outpost::DeletedDoc>("outpost delete", "Whether it was deleted or already gone."),
        doc::<crate::api::devin::Outpost>("outpost get", "The outpost."),
        doc::<Vec<crate::api::devin::Outpost>>("outpost list", "Every outpost the token sees."),
        doc::<crate::api::devin_v3::DefaultPlatform>(
            "outpost default",
            "The organisation's default platform (also what `set` and `clear` print: the new setting).",
        ),
        doc::<Vec<queue::QueueRow>>("queue list", "Every entry of the queue read."),
        doc::<queue::WatchLine>("queue watch", "NDJSON: one line per watch event."),
        doc::<demo::DemoStep>("demo", "NDJSON: one line per step."),
        doc::<demo::DemoSummary>("demo (last line)", "When every check passed."),
        doc::<emulator::ReadyLine>("emulator start", "Once the emulator listens."),
        doc::<emulator::session::EmulatorStatusDoc>("emulator status", "What the emulator holds."),
        doc::<emulator::EmulatorEnvDoc>(
            "emulator env",
            "The variables that point the tool at the emulator, by name.",
        ),
        doc::<Vec<crate::emulator::devin::SessionInfo>>(
            "emulator session new",
            "The sessions queued (also `emulator session list`: every session).",
        ),
        doc::<crate::emulator::devin::SessionInfo>(
            "emulator session suspend",
            "The session after the change (also `resume` and `terminate`).",
        ),
        doc::<crate::emulator::devin::TaskInfo>("emulator session task", "The task added."),
        doc::<generate::CompletionsDoc>("completions", "The completion script."),
        doc::<generate::GenerateDoc>("generate", "The generated files that drifted."),
        doc::<crate::doctor::Report>("doctor", "Every check's verdict and the settings in force."),
    ]
}

/// Connecting, and the orchestrator's documents.
fn setup_and_orchestrator() -> Vec<Documented> {
    use super::{auth, connect, orchestrator};
    vec![
        doc::<connect::ConnectDoc>("connect", "The connected outpost and where its token went."),
        doc::<auth::status::StatusDoc>(
            "auth status",
            "Which token and key are in force, and where they came from.",
        ),
        doc::<auth::key::SetKeyDoc>("auth set-key", "Where DEVIN_API_KEY was stored."),
        doc::<auth::logout::LogoutDoc>(
            "auth logout",
            "What was removed, and what still provides a credential.",
        ),
        doc::<orchestrator::run::RunLine>(
            "orchestrator run",
            "NDJSON: its own lines (between them, one line per orchestrator event).",
        ),
        doc::<orchestrator::status::OrchStatusDoc>(
            "orchestrator status",
            "The state dir's view of one outpost.",
        ),
        doc::<orchestrator::failures::OrchFailuresDoc>(
            "orchestrator failures",
            "The failure records kept in the state dir, newest first.",
        ),
        doc::<crate::cost::report::CostDoc>(
            "cost",
            "What sandboxes cost per session, outpost or day, from the cost ledger (`--csv` prints the same rows as CSV).",
        ),
        doc::<orchestrator::watch::WatchDoc>(
            "orchestrator status --watch",
            "NDJSON: one status document per refresh, with the rows the table shows.",
        ),
    ]
}

/// Snapshots, workers and sessions.
fn machines_and_sessions() -> Vec<Documented> {
    use super::{session, snapshot, worker};
    vec![
        doc::<snapshot::NameDoc>(
            "snapshot name",
            "The snapshot name in force and where it came from.",
        ),
        doc::<snapshot::DockerfileDoc>("snapshot dockerfile", "The built-in image definition."),
        doc::<Vec<crate::api::daytona_types::Snapshot>>(
            "snapshot list",
            "The snapshots, as Daytona reports them.",
        ),
        doc::<snapshot::build::BuildDoc>("snapshot build", "The snapshot, found or built."),
        doc::<snapshot::build::BuildFailedDoc>(
            "snapshot build (failed)",
            "On stdout before the error.",
        ),
        doc::<snapshot::DeleteDoc>("snapshot delete", "The deleted snapshot."),
        doc::<snapshot::warm_pool::PoolDoc>(
            "snapshot warm-pool [show|set]",
            "The snapshot's warm pool.",
        ),
        doc::<snapshot::warm_pool::PoolDeleteDoc>(
            "snapshot warm-pool delete",
            "The deleted pool, if any.",
        ),
        doc::<worker::launch::LaunchDoc>(
            "worker launch",
            "The workers created and how far each got.",
        ),
        doc::<Vec<worker::list::ListRow>>("worker list", "Every worker, with its health."),
        doc::<crate::worker::WorkerStatus>(
            "worker status",
            "The worker, its containers, and whether it serves.",
        ),
        doc::<crate::worker::LogLine>("worker logs", "NDJSON: one line per log line."),
        doc::<worker::ExecDoc>("worker exec", "The command's exit code and output."),
        doc::<worker::StopDoc>(
            "worker stop",
            "The stopped worker and its workspace snapshot.",
        ),
        doc::<session::verify::VerifyDoc>(
            "session verify",
            "The verdict (also with --print-only, result `printed`).",
        ),
        doc::<session::v3::ShowDoc>(
            "session show",
            "The session from the v3 API, its queue row and its sandbox.",
        ),
        doc::<session::v3::CreateDoc>(
            "session create",
            "The session from the v3 API (with --until, as last read), how the command ended and its exit code; one document whatever the outcome.",
        ),
        doc::<session::v3::EndDoc>(
            "session end",
            "The ended session, and whether it had already ended.",
        ),
        doc::<session::verify_create::CreateVerifyDoc>(
            "session verify --create",
            "The unattended verdict: the session's stages and the proof read back.",
        ),
    ]
}

/// `docs/json.md`: each document's JSON Schema, generated from the structs.
pub fn render_markdown() -> String {
    let mut out = String::from(
        "# `--json` documents\n\n\
         Generated by `outposts generate` from the typed documents in `src/commands/`; a test\n\
         fails when they drift. Each command prints one document on stdout (NDJSON for streams);\n\
         fields marked required are always present, possibly `null` when their type allows it.\n",
    );
    for d in all() {
        let schema = serde_json::to_string_pretty(&(d.schema)())
            .unwrap_or_else(|e| format!("cannot render the schema: {e}"));
        out.push_str(&format!(
            "\n## `{}`\n\n{}\n\n```json\n{schema}\n```\n",
            d.command, d.about
        ));
    }
    out
}

/// One environment variable (`outposts help-env --json`, an array of these).
#[derive(Debug, Serialize, JsonSchema)]
pub struct EnvVarDoc {
    pub name: &'static str,
    pub aliases: &'static [&'static str],
    pub default: Option<&'static str>,
    pub doc: &'static str,
    pub secret: bool,
    pub group: &'static str,
}

/// `outposts help-env --json`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(transparent)]
pub struct EnvDoc(pub Vec<EnvVarDoc>);

/// What a `.env` rewrite did (key names only, never values).
#[derive(Debug, Serialize, JsonSchema)]
pub struct EnvChangeDoc {
    /// Keys replaced in place.
    pub replaced: Vec<String>,
    /// Keys appended.
    pub added: Vec<String>,
    /// Keys whose lines were removed.
    pub removed: Vec<String>,
    /// The file did not exist before.
    pub created: bool,
}

impl From<&crate::secrets::dotenv::EnvChange> for EnvChangeDoc {
    fn from(c: &crate::secrets::dotenv::EnvChange) -> Self {
        EnvChangeDoc {
            replaced: c.replaced.clone(),
            added: c.added.clone(),
            removed: c.removed.clone(),
            created: c.created,
        }
    }
}
