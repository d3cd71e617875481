//! The proof carried out: record before a sleep's stop, check after a wake's start (before the
//! remote launches), report (event → WARN + metric; the status file's rows). Nothing here
//! decides: the verdict is [`super::judge`]'s.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Summary, Verdict, WakeResult, script, store};
use crate::api::devin_types::Platform;
use crate::orchestrator::plan::janitor;
use crate::orchestrator::run::{Book, OrchEvent, Orchestrator, SessionView};
use crate::orchestrator::{SessionId, sandbox_name};
use crate::provider::{ExecRequest, SandboxState};
use crate::secrets::Secret;
use crate::time::now;

/// The last wake check of each session, for `orchestrator status` (in memory: the status file
/// is where it outlives the process).
#[derive(Debug, Default)]
pub struct WakeChecks(Mutex<BTreeMap<String, IntegrityRow>>);

/// A session's last wake check, as `orchestrator status` shows it.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct IntegrityRow {
    pub session_id: String,
    /// `intact`, `changed`, `lost` or `unchecked`.
    pub result: String,
    /// When the wake was checked (Unix seconds).
    pub checked_at: f64,
    /// Files the sleep's manifest lists.
    pub files: u64,
    pub lost: u64,
    pub changed: u64,
    /// The first paths lost, then changed.
    pub paths: Vec<String>,
    /// Why unchecked, or a note (a partial manifest).
    pub detail: Option<String>,
    /// How long the check took.
    pub seconds: f64,
}

/// Rows kept at most (the oldest checks go first), so a long-lived fleet's status stays small.
const ROWS_KEPT: usize = 1000;

impl Orchestrator {
    fn integrity_env(&self) -> BTreeMap<String, Secret> {
        let b = &self.opts.integrity;
        [
            ("OUTPOSTS_INTEGRITY_WORKDIR", self.opts.workdir.clone()),
            ("OUTPOSTS_INTEGRITY_MAX_FILES", b.max_files.to_string()),
            ("OUTPOSTS_INTEGRITY_HASH_BYTES", b.hash_bytes.to_string()),
            (
                "OUTPOSTS_INTEGRITY_SECONDS",
                b.time.as_secs().max(1).to_string(),
            ),
            (
                "OUTPOSTS_INTEGRITY_DIFF_LINES",
                super::DIFF_LINES.to_string(),
            ),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), Secret::plain(v)))
        .collect()
    }

    fn integrity_exec(&self, script: &str) -> ExecRequest {
        let mut req = ExecRequest::shell(script);
        req.env = self.integrity_env();
        // Walk and hashing are each cut by `timeout`; this is the backstop around both.
        req.timeout = Some(self.opts.integrity.time * 2 + Duration::from_secs(30));
        req
    }

    /// Before the sleep's stop: record the manifest inside the sandbox, keep its summary. Never
    /// holds the sleep up on failure: the wake then says `unchecked`.
    pub(in crate::orchestrator) async fn record_before_sleep(&self, view: &SessionView) {
        if !self.opts.integrity.enabled {
            return;
        }
        let session = &view.id;
        let dir = self.state.dir();
        let t = now();
        if view.platform == Platform::Windows {
            let why = "Windows sandboxes are not checked (no manifest script for them yet)";
            self.save_summary(session, &Summary::unchecked(why, t));
            return;
        }
        let key = view
            .sandbox
            .clone()
            .unwrap_or_else(|| sandbox_name(session));
        let sandbox = match self.provider.get(&key).await {
            Ok(Some(sb))
                if janitor::owner(&sb, &self.opts.outpost_id) == Some(session)
                    && sb.state == SandboxState::Started =>
            {
                sb.id
            }
            // Stopped already (a retried end): what the first attempt recorded stands.
            _ if store::load(dir, session).is_some() => return,
            other => {
                let why = match other {
                    Err(e) => format!("the sandbox could not be read: {e}"),
                    _ => "the sandbox was not running when the session slept".into(),
                };
                self.save_summary(session, &Summary::unchecked(why, t));
                return;
            }
        };
        let started = Instant::now();
        let summary = match self
            .provider
            .exec(&sandbox, &self.integrity_exec(script::RECORD))
            .await
        {
            Ok(out) => super::parse_record(&out.stdout, out.exit_code, t),
            Err(e) => Summary::unchecked(format!("the manifest could not be recorded: {e}"), t),
        };
        tracing::info!(
            session = session.as_str(),
            files = summary.files,
            hashed = summary.hashed,
            seconds = started.elapsed().as_secs_f64(),
            "sleep manifest: {}",
            match (&summary.unchecked, &summary.truncated) {
                (Some(why), _) => format!("not recorded ({why})"),
                (None, Some(t)) => format!("{} files (cut by {t})", summary.files),
                (None, None) => format!("{} files", summary.files),
            }
        );
        self.save_summary(session, &summary);
    }

    fn save_summary(&self, session: &SessionId, summary: &Summary) {
        if let Err(e) = store::save(self.state.dir(), session, summary) {
            tracing::warn!(
                session = session.as_str(),
                "cannot keep the sleep manifest's summary: {e:#}"
            );
        }
    }

    /// After a wake's start, before the remote launches: compare with what the sleep recorded
    /// (nothing to do for a session that never slept here). Reports; never fails the wake.
    pub(in crate::orchestrator) async fn check_after_wake(
        &self,
        view: &SessionView,
        sandbox: &str,
    ) {
        let session = &view.id;
        let dir = self.state.dir();
        let Some(recorded) = store::load(dir, session) else {
            return;
        };
        let started = Instant::now();
        let verdict = if recorded.unchecked.is_some() {
            super::judge(&recorded, "", 0)
        } else {
            match self
                .provider
                .exec(sandbox, &self.integrity_exec(script::CHECK))
                .await
            {
                Ok(out) => super::judge(&recorded, &out.stdout, out.exit_code),
                Err(e) => Verdict::unchecked(recorded.files, format!("the check failed: {e}")),
            }
        };
        let seconds = started.elapsed().as_secs_f64();
        store::remove(dir, session);
        self.note_verdict(session, &verdict, seconds);
        self.emit(OrchEvent::WakeIntegrity {
            session: session.clone(),
            verdict,
            seconds,
        });
    }

    fn note_verdict(&self, session: &SessionId, v: &Verdict, seconds: f64) {
        let mut rows = self.wake_checks.0.lock().unwrap_or_else(|e| e.into_inner());
        rows.insert(
            session.to_string(),
            IntegrityRow {
                session_id: session.to_string(),
                result: v.result.as_str().to_string(),
                checked_at: now(),
                files: v.files,
                lost: v.lost,
                changed: v.changed,
                paths: v.paths.clone(),
                detail: v.detail.clone(),
                seconds,
            },
        );
        while rows.len() > ROWS_KEPT {
            let oldest = rows
                .iter()
                .min_by(|a, b| a.1.checked_at.total_cmp(&b.1.checked_at))
                .map(|(k, _)| k.clone());
            match oldest {
                Some(k) => rows.remove(&k),
                None => break,
            };
        }
    }

    /// The session is gone for good (terminated, its workspace deleted): nothing left to prove.
    pub(in crate::orchestrator) fn forget_integrity(&self, session: &SessionId) {
        store::remove(self.state.dir(), session);
        self.wake_checks
            .0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(session.as_str());
    }

    /// The status file's rows: the last wake check of each session still held or asleep.
    pub(in crate::orchestrator) fn integrity_rows(&self, book: &Book) -> Vec<IntegrityRow> {
        let rows = self.wake_checks.0.lock().unwrap_or_else(|e| e.into_inner());
        rows.values()
            .filter(|r| {
                book.track(&r.session_id).is_some_and(|t| t.held)
                    || book.sleeper(&r.session_id).is_some()
            })
            .cloned()
            .collect()
    }
}

impl WakeResult {
    /// A wake that did not bring back what slept.
    pub fn is_problem(self) -> bool {
        matches!(self, WakeResult::Lost | WakeResult::Changed)
    }
}
