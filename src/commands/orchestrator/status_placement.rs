//! The placement lines of `orchestrator status`: quarantined snapshots, and whether new
//! sessions are claimed.

use crate::commands::queue::relative;
use crate::orchestrator::PlacementReport;

/// One line per quarantined snapshot, and a line when claiming stopped; nothing when all is well.
pub(super) fn lines(p: &PlacementReport, now: f64) -> String {
    let mut out = String::new();
    for r in p.placements.iter().filter(|r| r.quarantined) {
        let when = r
            .quarantined_until
            .map(|u| format!("next probe {}", relative(u - now)))
            .unwrap_or_default();
        out.push_str(&format!(
            "quarantined  {} {}: {} failed creates in a row ({}); {when}\n",
            r.kind,
            r.name,
            r.failures,
            r.reason.as_deref().unwrap_or("no reason recorded"),
        ));
    }
    if !p.claiming {
        let when = p
            .claiming_resumes_at
            .map(|u| format!(" until a probe succeeds (the first {})", relative(u - now)))
            .unwrap_or_default();
        out.push_str(&format!(
            "claiming     STOPPED: every snapshot is quarantined{when}; set SNAPSHOT_FALLBACK to \
             place sessions elsewhere\n"
        ));
    }
    out
}
