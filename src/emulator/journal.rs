//! The provider mutation journal: every sandbox create, start, stop and delete the emulated
//! providers commit, with who asked (which API key) and what the Devin queue said about the
//! sandbox's session at that instant. Reliability tests check their invariants against it
//! (`GET /_emulator/mutations`): no delete unless the session was terminated, no stop of a
//! running session, no mutation by a replica while another one holds the claim.

use std::collections::BTreeMap;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use super::devin::SessionView;

/// One committed sandbox mutation.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Mutation {
    pub seq: u64,
    /// Unix time in milliseconds (the same clock as the Devin history).
    pub at_ms: u64,
    /// `daytona`.
    pub provider: String,
    /// `create`, `start`, `stop` or `delete`.
    pub op: String,
    pub sandbox_id: String,
    pub name: String,
    pub labels: BTreeMap<String, String>,
    /// Label of the API key that asked (`default` for the emulator's own key).
    pub caller: Option<String>,
    /// The queue's view of the session named by the `devin.session_id` label, taken when the
    /// mutation was committed; `None` when the label is missing or names no known session.
    pub session: Option<SessionView>,
}

#[derive(Debug, Default)]
pub struct Journal {
    entries: Mutex<Vec<Mutation>>,
}

impl Journal {
    pub fn push(&self, mut m: Mutation) {
        let mut e = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        m.seq = e.len() as u64 + 1;
        e.push(m);
    }

    pub fn all(&self) -> Vec<Mutation> {
        self.entries
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}
