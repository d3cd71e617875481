//! A reconcile pass at N held sessions, for instruction counts (issue 35): what the loop does
//! per pass (plan, one change applied, the status rows) on a book built with N served
//! sessions. Ignored by default; run under callgrind with the pass alone collected:
//!
//! ```text
//! PROBE_SESSIONS=10000 valgrind --tool=callgrind --collect-atstart=no \
//!   --toggle-collect='*probe*one_pass*' target/debug/deps/outposts-HASH \
//!   --ignored --exact orchestrator::run::probe::one_reconcile_pass
//! ```
#![cfg(test)]

use std::collections::BTreeMap;

use super::book::{Book, Persist};
use super::{Change, ClaimInfo, OrchEvent, RecordChange, ViewChange};
use crate::api::devin_types::QueueEntry;
use crate::orchestrator::plan::{self, ClaimResult, Limits, Observed, Outcome, ProvisionResult};
use crate::time::now;

const ME: &str = "devin-outposts-probe";

fn held_book(n: usize) -> (Book, Vec<(String, OrchEvent, f64)>) {
    let limits = Limits {
        cap: n,
        ..Limits::default()
    };
    let mut book = Book::new(limits, BTreeMap::new(), BTreeMap::new());
    let t = now();
    let mut events = Vec::with_capacity(n);
    for i in 0..n {
        let id = format!("devin-{i:08x}");
        let row = QueueEntry::from_value(&serde_json::json!({
            "metadata": {"session_id": id, "updated_at": t, "created_at": t},
            "status": {"phase": "claimed", "acceptor_id": ME, "claim_deadline": t + 300.0,
                       "session_status": "running"},
        }))
        .expect("a row");
        let changes = [
            Change::View(ViewChange::Row(row.into())),
            Change::View(ViewChange::Fold {
                session: id.as_str().into(),
                outcome: Outcome::Claimed(ClaimResult::Won {
                    deadline: Some(t + 300.0),
                    token: true,
                }),
            }),
            Change::Record(RecordChange::Claim {
                session: id.as_str().into(),
                claim: ClaimInfo {
                    token: crate::secrets::Secret::new("t"),
                    gateway: None,
                    sha: None,
                    network_policy: None,
                },
            }),
            Change::Record(RecordChange::Sandbox {
                session: id.as_str().into(),
                id: Some(format!("sb-{i}")),
            }),
            Change::View(ViewChange::Fold {
                session: id.as_str().into(),
                outcome: Outcome::Provisioned(ProvisionResult::Served),
            }),
        ];
        apply(&mut book, changes);
        events.push((
            id.clone(),
            OrchEvent::RemoteRunning {
                session: id.as_str().into(),
                sandbox: format!("sb-{i}"),
            },
            t,
        ));
    }
    (book, events)
}

fn apply(book: &mut Book, changes: impl IntoIterator<Item = Change>) {
    let mut persist = Persist::default();
    for c in changes {
        book.apply(c, &mut persist);
    }
    book.prune();
}

/// What one pass of the loop costs: the planner's inputs and plan, one change applied (a
/// renewal's answer), and the status rows serialized.
#[inline(never)]
fn one_pass(book: &mut Book, events: &[(String, OrchEvent, f64)], renewed: &str) -> usize {
    let tracks = book.tracks_map();
    let claiming = book.claiming();
    let busy = book.busy();
    let limits = Limits {
        cap: tracks.len(),
        ..Limits::default()
    };
    let actions = plan::plan(&Observed {
        now: now(),
        acceptor_id: ME,
        queue: book.queue(),
        pending_since: book.pending_since(),
        tracks: &tracks,
        claiming: &claiming,
        busy: &busy,
        launching: book.launching(),
        limits: &limits,
        draining: false,
    });
    apply(
        book,
        [Change::View(ViewChange::Fold {
            session: renewed.into(),
            outcome: Outcome::Renewed(ClaimResult::Won {
                deadline: Some(now() + 300.0),
                token: true,
            }),
        })],
    );
    let rows = crate::orchestrator::report::session_rows(book, events);
    let mut sink = std::io::sink();
    serde_json::to_writer(&mut sink, &rows).expect("rows serialize");
    actions.len() + rows.len()
}

#[test]
#[ignore = "a probe for callgrind (PROBE_SESSIONS=N), not a check"]
fn one_reconcile_pass() {
    let n = std::env::var("PROBE_SESSIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    let (mut book, events) = held_book(n);
    let out = one_pass(&mut book, &events, "devin-00000000");
    eprintln!("probe: {n} sessions, {out} actions + rows");
}

#[test]
fn a_pass_over_held_sessions_shows_every_one_of_them() {
    let (mut book, events) = held_book(50);
    assert_eq!(book.tracks().filter(|(_, t)| t.held).count(), 50);
    assert!(one_pass(&mut book, &events, "devin-00000000") >= 50);
}
