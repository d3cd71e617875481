//! Claims: claiming a session, renewing our claim (a fresh deadline and connect token), and
//! adopting a claim the server says is ours. The connect token stays here, in memory; the
//! planner only learns whether one came.

use super::plan::{self, ClaimResult, Outcome};
use super::run::{
    Change, ClaimInfo, LoopChange, OrchEvent, Orchestrator, RecordChange, ViewChange,
};
use crate::api::devin::ClaimOutcome;
use crate::api::devin_types::QueueEntry;
use crate::orchestrator::SessionId;

impl Orchestrator {
    pub(super) async fn claim(&self, session: &SessionId) -> Option<Outcome> {
        crate::failpoint!("claim.before_post");
        let outcome = self.devin.claim(session, &self.opts.acceptor_id).await;
        crate::failpoint!("claim.after_response");
        let result = match outcome {
            Ok(ClaimOutcome::Won(entry)) => {
                let r = self.take_claim(session, &entry);
                self.emit(OrchEvent::Claimed {
                    session: session.into(),
                });
                r
            }
            Ok(ClaimOutcome::Conflict { .. }) => {
                self.emit(OrchEvent::ClaimConflict {
                    session: session.into(),
                });
                ClaimResult::Conflict
            }
            Ok(ClaimOutcome::Gone) => {
                self.record([Change::View(ViewChange::RowGone(session.to_string()))]);
                ClaimResult::Gone
            }
            Err(e) => {
                self.metrics.api_error(e.status());
                tracing::warn!(session = session.as_str(), "claim failed: {e}");
                // It may have committed: a fresh listing settles it, so the place it holds
                // under the cap is not held for long.
                self.record([Change::Loop(LoopChange::RelistDue(true))]);
                ClaimResult::Failed
            }
        };
        Some(Outcome::Claimed(result))
    }

    pub(super) async fn renew(&self, session: &SessionId) -> Option<Outcome> {
        let result = match self.devin.claim(session, &self.opts.acceptor_id).await {
            Ok(ClaimOutcome::Won(entry)) => self.take_claim(session, &entry),
            Ok(ClaimOutcome::Conflict { message }) => {
                tracing::warn!(
                    session = session.as_str(),
                    "lost the claim while renewing: {message}"
                );
                ClaimResult::Conflict
            }
            Ok(ClaimOutcome::Gone) => ClaimResult::Gone,
            Err(e) => {
                self.metrics.api_error(e.status());
                tracing::warn!(session = session.as_str(), "renewing the claim failed: {e}");
                ClaimResult::Failed
            }
        };
        Some(Outcome::Renewed(result))
    }

    /// Keep the claim material of a won claim; the entry joins the view.
    fn take_claim(&self, session: &SessionId, entry: &QueueEntry) -> ClaimResult {
        let mut changes = Vec::new();
        if let Some(token) = &entry.connect_token {
            changes.push(Change::Record(RecordChange::Claim {
                session: session.clone(),
                claim: ClaimInfo {
                    token: token.clone(),
                    gateway: entry.gateway_url.clone(),
                    sha: entry.remote_binary_sha.clone(),
                    network_policy: entry.network_policy.clone(),
                },
            }));
        }
        changes.push(Change::View(ViewChange::Row(entry.clone().into())));
        // The planner paces renewals to the TTL; the operator hears once when that TTL is too
        // short for the configured margin.
        let short = entry
            .claim_deadline
            .and_then(|d| plan::short_ttl(d - crate::time::now(), &self.opts.limits));
        let warn = self.update(|book| {
            let warn = short.filter(|_| !book.ttl_warned());
            if warn.is_some() {
                changes.push(Change::Loop(LoopChange::TtlWarned));
            }
            (warn, changes)
        });
        if let Some(short) = warn {
            tracing::warn!(session = session.as_str(), "{short}");
        }
        ClaimResult::Won {
            deadline: entry.claim_deadline,
            token: entry.connect_token.is_some(),
        }
    }

    /// The view says we hold a claim we do not track (a restart, or a claim whose answer was
    /// lost). Views lag — a release may not have reached it yet — so confirm with an exact read
    /// before taking the session on.
    pub(super) async fn adopt(&self, session: &SessionId) -> Option<Outcome> {
        let entry = match self.devin.get(session).await {
            Ok(e) => e,
            Err(e) => {
                self.metrics.api_error(e.status());
                tracing::warn!(
                    session = session.as_str(),
                    "cannot confirm a claim to adopt: {e}"
                );
                return None;
            }
        };
        let me = &self.opts.acceptor_id;
        let Some(e) = entry else {
            self.record([Change::View(ViewChange::RowGone(session.to_string()))]);
            return Some(Outcome::Adopted(None));
        };
        let sighting = plan::sighting(&e, me, true);
        self.record([Change::View(ViewChange::Row(e.into()))]);
        if sighting.holder != plan::Holder::Me {
            return Some(Outcome::Adopted(None));
        }
        self.emit(OrchEvent::Adopted {
            session: session.into(),
        });
        Some(Outcome::Adopted(Some(sighting)))
    }
}
