//! Lookups the queue answers on every request, kept off full scans of its rows: at 30,000
//! sessions a scan per claim, per gateway call and per read (lazy maintenance, lazy expiry)
//! made the emulator — not the orchestrators — what a fleet run waited on.
//!
//! Derived data only (never saved with `--state`): rebuilt lazily from the rows after a load.
//! Rows are only ever appended, so a row's index never changes.
//! - rows by session id (every generation, oldest first), caught up with appended rows on use;
//! - the rows lazy maintenance must look at: a blip, or an ended real status (swept later);
//! - a floor under every claim deadline: no claim can have expired before it.

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};

use super::state::{Micros, Row};

#[derive(Debug, Default)]
struct BySession {
    /// How many rows (from the front) are in `rows`.
    indexed: usize,
    rows: HashMap<String, Vec<usize>>,
}

#[derive(Debug, Default)]
pub struct Index {
    by_session: RefCell<BySession>,
    /// Rows maintenance looks at; `None` until a full scan primed it.
    watched: Option<BTreeSet<usize>>,
    /// No claim expires before this; 0 (unknown) until a full expiry scan computed it.
    expiry_floor: Micros,
}

/// Derived data: a clone starts empty and is rebuilt on use.
impl Clone for Index {
    fn clone(&self) -> Index {
        Index::default()
    }
}

impl Index {
    /// The newest row of `session_id` that passes `keep`.
    pub fn find_last(
        &self,
        rows: &[Row],
        session_id: &str,
        keep: impl Fn(&Row) -> bool,
    ) -> Option<usize> {
        let mut ix = self.by_session.borrow_mut();
        while ix.indexed < rows.len() {
            let i = ix.indexed;
            ix.rows
                .entry(rows[i].session_id.clone())
                .or_default()
                .push(i);
            ix.indexed += 1;
        }
        ix.rows
            .get(session_id)?
            .iter()
            .rev()
            .copied()
            .find(|&i| keep(&rows[i]))
    }

    /// Row `i` now has a blip or an ended status: maintenance must look at it.
    pub fn watch(&mut self, i: usize) {
        if let Some(w) = &mut self.watched {
            w.insert(i);
        }
    }

    /// The rows maintenance must look at (all of them before the first call primes the set
    /// with `wants`), and rows appended since.
    pub fn watched(&mut self, rows: &[Row], wants: impl Fn(&Row) -> bool) -> Vec<usize> {
        let w = self.watched.get_or_insert_with(|| {
            (0..rows.len())
                .filter(|&i| wants(&rows[i]))
                .collect::<BTreeSet<usize>>()
        });
        w.iter().copied().collect()
    }

    /// Row `i` needs no more maintenance (no blip, not ended, or tombstoned).
    pub fn unwatch(&mut self, i: usize) {
        if let Some(w) = &mut self.watched {
            w.remove(&i);
        }
    }

    /// Whether an expiry scan at `now` could expire anything.
    pub fn expiry_due(&self, now: Micros) -> bool {
        now >= self.expiry_floor
    }

    /// After a full expiry scan: the earliest deadline left (`None`: no claim).
    pub fn set_expiry_floor(&mut self, earliest: Option<Micros>) {
        self.expiry_floor = earliest.unwrap_or(Micros::MAX);
    }

    /// A claim was granted or renewed with this deadline.
    pub fn claimed_until(&mut self, deadline: Micros) {
        self.expiry_floor = self.expiry_floor.min(deadline);
    }
}
