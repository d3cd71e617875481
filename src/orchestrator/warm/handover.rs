//! The hand-over: a new session takes a warm sandbox (given to it by `Provider::hand_over`
//! before anything else happens in it), and a session's sandbox is found by its labels where
//! it kept a warm name (CoreWeave finds it by the session's name: `coreweave/handover.rs`).

use crate::cost::tally::Mark;
use crate::orchestrator::run::{OrchEvent, Orchestrator, SessionView};
use crate::orchestrator::{LABEL_SESSION, SessionId, sandbox_labels};
use crate::provider::{Egress, ProviderError, SandboxInfo, SandboxState};

impl Orchestrator {
    /// A new session needs a sandbox: hand it a warm one if the plan offers one. The sandbox is
    /// relabelled to the session before anything else happens in it; `None` means create cold.
    pub(in crate::orchestrator) async fn take_warm(
        &self,
        view: &SessionView,
        egress: &Egress,
    ) -> Option<SandboxInfo> {
        let session = &view.id;
        let name = crate::orchestrator::sandbox_name(session);
        // A session whose workspace is kept apart (CoreWeave, asleep) wakes by a create that
        // restores it: not an arrival for warm capacity.
        if !self.warm.settings.idle.is_off() {
            match self.provider.keeps_workspace(&name).await {
                Ok(false) => {}
                Ok(true) => return None,
                Err(e) => {
                    tracing::warn!(
                        session = session.as_str(),
                        "cannot tell whether the session kept a workspace ({e}); creating its sandbox"
                    );
                    return None;
                }
            }
        }
        let usable = view.platform != crate::api::devin_types::Platform::Windows
            // A warm sandbox starts with open egress: only where it can be restricted after.
            && (*egress == Egress::Open || self.provider.can_set_egress())
            // Not from quarantined capacity (`placing.rs`).
            && self.warm_placeable();
        let picked = self.warm.pick(usable);
        // Wake the warm loop on a miss too: auto's miss bonus raises the target at once.
        self.notify.notify_one();
        let id = picked?;
        self.cost_warm(&[(id.clone(), Mark::Gone)]);
        let labels = sandbox_labels(session, &self.opts.outpost_id);
        let handed = async {
            self.provider.hand_over(&id, &name, &labels).await?;
            self.provider.get(&id).await
        }
        .await;
        match handed {
            Ok(Some(sb)) => {
                tracing::info!(session = session.as_str(), sandbox = %id, "served from warm capacity");
                self.emit(OrchEvent::SandboxCreated {
                    session: session.into(),
                    sandbox: id,
                    warm: true,
                });
                Some(sb)
            }
            other => {
                tracing::warn!(
                    session = session.as_str(),
                    sandbox = %id,
                    "cannot hand the warm sandbox over ({}); creating one instead",
                    match other {
                        Err(e) => e.to_string(),
                        _ => "it is gone".into(),
                    }
                );
                self.warm_discard(session, &id).await;
                None
            }
        }
    }

    /// A warm sandbox whose hand-over failed goes, unless it already carries the session's
    /// labels (then it is the session's, found by them).
    async fn warm_discard(&self, session: &SessionId, id: &str) {
        if let Ok(Some(sb)) = self.provider.get(id).await
            && sb.labels.get(LABEL_SESSION).map(String::as_str) == Some(session.as_str())
        {
            return;
        }
        let _ = self.provider.delete(id).await;
    }

    /// The session's sandbox found by its labels rather than its name: one handed over from
    /// warm capacity keeps its own name. `None` when there is none.
    pub(in crate::orchestrator) async fn labelled_sandbox(
        &self,
        session: &SessionId,
    ) -> Result<Option<SandboxInfo>, ProviderError> {
        let labels = sandbox_labels(session, &self.opts.outpost_id);
        let found = self.provider.list(&labels).await?;
        Ok(found.into_iter().find(|sb| {
            !matches!(sb.state, SandboxState::Deleted | SandboxState::Deleting)
                && sb.labels.get(LABEL_SESSION) == labels.get(LABEL_SESSION)
        }))
    }

    /// The session's sandbox: under its name, else (served from warm capacity) by its labels.
    pub(in crate::orchestrator) async fn session_sandbox(
        &self,
        session: &SessionId,
    ) -> Result<Option<SandboxInfo>, ProviderError> {
        match self
            .provider
            .get(&crate::orchestrator::sandbox_name(session))
            .await?
        {
            Some(sb) => Ok(Some(sb)),
            None => self.labelled_sandbox(session).await,
        }
    }
}
