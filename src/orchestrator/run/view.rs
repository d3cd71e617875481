//! What a stage is handed at dispatch: its session as the book showed it then.

use super::book::Book;
use super::change::ClaimInfo;
use crate::api::devin_types::{Platform, QueueEntry};
use crate::orchestrator::SessionId;

/// A session as the book showed it when its action was dispatched. Stages act on this instead
/// of reading the book mid-action: only one action per session is in flight, so what they read
/// here (claim, sandbox, token) is changed by nobody else while they run.
#[derive(Debug, Clone)]
pub(in crate::orchestrator) struct SessionView {
    pub id: SessionId,
    /// Its queue row, if the view has one.
    pub row: Option<QueueEntry>,
    pub claim: Option<ClaimInfo>,
    /// Its sandbox's id, while held.
    pub sandbox: Option<String>,
    /// The platform its row asks for (Linux without a row).
    pub platform: Platform,
    /// The last claim answer carried a connect token.
    pub has_token: bool,
    /// An earlier provisioning attempt failed (a stopped sandbox is then a retry, not a wake).
    pub failed_before: bool,
}

impl SessionView {
    pub fn of(book: &Book, id: &SessionId) -> SessionView {
        let row = book.entry(id).cloned();
        let track = book.track(id);
        SessionView {
            id: id.clone(),
            platform: row.as_ref().map_or(Platform::Linux, |e| e.platform),
            row,
            claim: book.claim(id).cloned(),
            sandbox: book.sandbox(id).map(str::to_string),
            has_token: track.is_some_and(|t| t.has_token),
            failed_before: track.is_some_and(|t| t.failures > 0),
        }
    }
}
