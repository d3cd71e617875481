//! Devin's own usage of each session in the cost ledger: when a session is put to sleep or
//! ended, one `GET /v3/organizations/{org}/sessions/{id}` reads its `acus_consumed`
//! (specs/devin-sessions-api.md §2) and the ledger gets a `usage` line. Only with a v3 key
//! (`DEVIN_API_KEY` and `DEVIN_ORG_ID`): without one the usage is unknown, never 0.
//!
//! Off the hot path: each read is its own task, at most [`CONCURRENT`] at once, so a burst of
//! sessions going to sleep never holds up serving. A read that fails is logged once per
//! session (the key is a `Secret` and registered for redaction; errors name the session and
//! the status, never the key) and the usage stays unknown.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use tokio::sync::Semaphore;

use super::SessionId;
use crate::api::devin_v3::DevinV3Client;
use crate::cost::ledger::Ledger;
use crate::time::now;

/// Usage reads in flight at most.
const CONCURRENT: usize = 4;
/// Sessions remembered as already warned about; past this the memory is cleared (a repeated
/// warning is better than a set that grows with every session of a long-failing key).
const WARNED_MAX: usize = 4096;

#[derive(Debug)]
pub(super) struct UsageReader {
    client: DevinV3Client,
    slots: Arc<Semaphore>,
    warned: Mutex<HashSet<SessionId>>,
}

impl UsageReader {
    pub(super) fn new(client: DevinV3Client) -> Arc<UsageReader> {
        Arc::new(UsageReader {
            client,
            slots: Arc::new(Semaphore::new(CONCURRENT)),
            warned: Mutex::new(HashSet::new()),
        })
    }

    /// Read `session`'s usage in the background and append it to `ledger`.
    pub(super) fn read(self: &Arc<Self>, session: SessionId, ledger: Arc<Mutex<Ledger>>) {
        let Ok(rt) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let me = self.clone();
        rt.spawn(async move {
            let Ok(_slot) = me.slots.clone().acquire_owned().await else {
                return;
            };
            match me.client.get_session(&session).await {
                Ok(s) => {
                    // Not reported: unknown, and nothing is written.
                    let Some(acus) = s.acus_consumed.filter(|a| a.is_finite()) else {
                        return;
                    };
                    let mut l = ledger.lock().unwrap_or_else(|e| e.into_inner());
                    if let Err(e) = l.usage(&session, acus, now()) {
                        tracing::warn!(
                            session = session.as_str(),
                            "cannot record Devin's usage: {e:#}"
                        );
                    }
                }
                Err(e) => me.warn_once(&session, &e),
            }
        });
    }

    fn warn_once(&self, session: &SessionId, e: &crate::api::devin_v3::V3Error) {
        let mut warned = self.warned.lock().unwrap_or_else(|e| e.into_inner());
        if warned.len() >= WARNED_MAX {
            warned.clear();
        }
        if warned.insert(session.clone()) {
            tracing::warn!(
                session = session.as_str(),
                "Devin's usage (ACUs) of this session is unknown: {e}"
            );
        }
    }
}
