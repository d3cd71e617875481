//! The failure records of one outpost, in `failures.json` of its state dir: the latest failure
//! of each session, at most [`MAX_RECORDS`] of them (closed ones go first), each bounded by
//! [`super::record`]. Written temp+fsync+rename on every change; read again at start, so a
//! record and its `FAILED_KEEP` clock survive a restart.
//!
//! Beside the records, in memory only: each session's last events in words (what a record
//! copies when a failure happens).

use crate::orchestrator::SessionId;
use std::collections::{BTreeMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use super::record::{EVENTS, EventLine, FailureRecord};

/// Most records kept; beyond it the oldest closed ones (served again, or reaped) go first, then
/// the oldest open ones.
pub const MAX_RECORDS: usize = 200;
/// Most sessions whose events are remembered in memory.
const EVENT_SESSIONS: usize = 1000;
const FILE: &str = "failures.json";

#[derive(Debug, Default, Serialize, Deserialize)]
struct FileDoc {
    records: Vec<FailureRecord>,
}

/// Read the records of an outpost's state dir (for `orchestrator failures`), newest first. A
/// missing file is no records; an unreadable one is an error naming it.
pub fn read(dir: &Path) -> anyhow::Result<Vec<FailureRecord>> {
    let path = dir.join(FILE);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => anyhow::bail!("cannot read {}: {e}", path.display()),
    };
    let doc: FileDoc = serde_json::from_str(&text)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
    let mut records: Vec<FailureRecord> = doc.records.into_iter().map(|r| r.bounded()).collect();
    records.sort_by(|a, b| b.at.total_cmp(&a.at));
    Ok(records)
}

pub struct FailureStore {
    path: PathBuf,
    records: Mutex<BTreeMap<String, FailureRecord>>,
    events: Mutex<BTreeMap<String, VecDeque<EventLine>>>,
}

impl FailureStore {
    /// The store of an outpost's state dir, with what it holds; an unreadable file starts an
    /// empty record with a warning (a lost record keeps a sandbox longer, never shorter).
    pub fn open(dir: &Path) -> FailureStore {
        let records = read(dir).unwrap_or_else(|e| {
            tracing::warn!("ignoring the failure records: {e:#}");
            Vec::new()
        });
        FailureStore {
            path: dir.join(FILE),
            records: Mutex::new(
                records
                    .into_iter()
                    .map(|r| (r.session_id.clone(), r))
                    .collect(),
            ),
            events: Mutex::new(BTreeMap::new()),
        }
    }

    /// A store that remembers but never writes (unit tests).
    #[cfg(test)]
    pub fn in_memory() -> FailureStore {
        FailureStore {
            path: PathBuf::new(),
            records: Mutex::new(BTreeMap::new()),
            events: Mutex::new(BTreeMap::new()),
        }
    }

    /// One of the session's events, in words.
    pub fn note_event(&self, session: &SessionId, text: String, at: f64) {
        let mut map = self.events.lock().unwrap_or_else(|e| e.into_inner());
        if !map.contains_key(session.as_str()) && map.len() >= EVENT_SESSIONS {
            // The session whose last event is oldest makes room.
            let oldest = map
                .iter()
                .min_by(|a, b| {
                    let at = |q: &VecDeque<EventLine>| q.back().map(|e| e.at).unwrap_or(0.0);
                    at(a.1).total_cmp(&at(b.1))
                })
                .map(|(k, _)| k.clone());
            if let Some(k) = oldest {
                map.remove(&k);
            }
        }
        let q = map.entry(session.to_string()).or_default();
        q.push_back(EventLine { at, text });
        while q.len() > EVENTS {
            q.pop_front();
        }
    }

    pub fn events(&self, session: &SessionId) -> Vec<EventLine> {
        self.events
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(session.as_str())
            .map(|q| q.iter().cloned().collect())
            .unwrap_or_default()
    }

    /// A new failure of the session's sandbox: it replaces the session's earlier record. While
    /// the session was not served since, the streak (and its `FAILED_KEEP` clock) goes on.
    pub fn failed(&self, mut record: FailureRecord) {
        self.change(|m| {
            if let Some(prev) = m.get(&record.session_id).filter(|p| p.open()) {
                record.failing_since = prev.failing_since.min(record.at);
                record.woke |= prev.woke;
            }
            m.insert(record.session_id.clone(), record.bounded());
        });
    }

    /// The session was given up: its record says why.
    pub fn gave_up(&self, session: &SessionId, reason: &str) {
        self.change(|m| {
            if let Some(r) = m.get_mut(session.as_str()) {
                r.given_up = Some(super::record::clean(reason, super::record::LINE_CHARS));
            }
        });
    }

    /// The session was served again: its sandbox is no failed one any more.
    pub fn resolved(&self, session: &SessionId, at: f64) {
        if !self.get(session).is_some_and(|r| r.open()) {
            return;
        }
        self.change(|m| {
            if let Some(r) = m.get_mut(session.as_str()) {
                r.resolved_at = Some(at);
            }
        });
    }

    /// The janitor deleted the kept sandbox.
    pub fn reaped(&self, session: &SessionId, at: f64) {
        self.change(|m| {
            if let Some(r) = m.get_mut(session.as_str()) {
                r.reaped_at = Some(at);
            }
        });
    }

    pub fn get(&self, session: &SessionId) -> Option<FailureRecord> {
        self.records
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(session.as_str())
            .cloned()
    }

    /// Every record, newest first.
    pub fn all(&self) -> Vec<FailureRecord> {
        let mut v: Vec<FailureRecord> = self
            .records
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .cloned()
            .collect();
        v.sort_by(|a, b| b.at.total_cmp(&a.at));
        v
    }

    fn change(&self, f: impl FnOnce(&mut BTreeMap<String, FailureRecord>)) {
        let mut map = self.records.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut map);
        prune(&mut map);
        if self.path.as_os_str().is_empty() {
            return;
        }
        let doc = FileDoc {
            records: map.values().cloned().collect(),
        };
        let written = serde_json::to_vec_pretty(&doc)
            .map_err(anyhow::Error::from)
            .and_then(|bytes| crate::orchestrator::state::write_atomic(&self.path, &bytes));
        if let Err(e) = written {
            tracing::warn!("cannot save the failure records: {e:#}");
        }
    }
}

/// At most [`MAX_RECORDS`]: closed records go before open ones, older before newer.
fn prune(map: &mut BTreeMap<String, FailureRecord>) {
    if map.len() <= MAX_RECORDS {
        return;
    }
    let mut order: Vec<(bool, f64, String)> = map
        .values()
        .map(|r| (r.open(), r.at, r.session_id.clone()))
        .collect();
    order.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let extra = map.len() - MAX_RECORDS;
    for (_, _, id) in order.into_iter().take(extra) {
        map.remove(&id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::orchestrator::failures::record::Step;

    fn rec(id: &str, at: f64) -> FailureRecord {
        FailureRecord::new(id, "n", Step::Sandbox, "boom", at)
    }

    #[test]
    fn bounded_in_count_closed_first_and_survives_a_reopen() {
        let dir = tempfile::tempdir().unwrap();
        let store = FailureStore::open(dir.path());
        for i in 0..MAX_RECORDS + 20 {
            store.failed(rec(&format!("s{i:04}"), i as f64));
        }
        // The oldest record is closed (served again): it goes before any open one.
        store.resolved(&"s0100".into(), 1000.0);
        store.failed(rec("last", 10_000.0));
        let again = FailureStore::open(dir.path());
        let all = again.all();
        assert_eq!(all.len(), MAX_RECORDS);
        assert_eq!(all[0].session_id, "last");
        assert!(
            again.get(&"s0100".into()).is_none(),
            "the closed one went first"
        );
        assert!(again.get(&"s0000".into()).is_none(), "then the oldest");
        assert!(
            again
                .get(&format!("s{:04}", MAX_RECORDS + 19).into())
                .is_some()
        );
    }

    #[test]
    fn a_retry_failing_again_keeps_the_streak_clock() {
        let store = FailureStore::in_memory();
        store.failed(rec("s", 10.0));
        store.failed(rec("s", 20.0));
        let r = store.get(&"s".into()).unwrap();
        assert_eq!((r.at, r.failing_since), (20.0, 10.0));
        // Served in between: a new streak.
        store.resolved(&"s".into(), 25.0);
        store.failed(rec("s", 30.0));
        assert_eq!(store.get(&"s".into()).unwrap().failing_since, 30.0);
    }

    #[test]
    fn events_are_bounded_per_session() {
        let store = FailureStore::in_memory();
        for i in 0..50 {
            store.note_event(&"s".into(), format!("e{i}"), i as f64);
        }
        let ev = store.events(&"s".into());
        assert_eq!(ev.len(), EVENTS);
        assert_eq!(ev.last().unwrap().text, "e49");
    }
}
