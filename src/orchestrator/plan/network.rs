//! Network-policy decisions (fail closed): which egress a session's sandbox must have, and what
//! to do when the sandbox has something else. Tests in `tests.rs`.
//!
//! - No policy, or `enabled: false`: no restriction.
//! - Enabled: only the allow list, plus what the session itself needs (its gateway, the remote
//!   distribution, the git hosts of `REPOS`), derived from configuration by the caller.
//! - A policy that cannot be read, or that allows something this client does not understand, is
//!   not served: guessing would widen or break it.
//! - A sandbox whose egress differs is brought in line once where the provider can change it;
//!   otherwise (or if it still differs) the session is refused, saying why. A provider that does
//!   not report egress is trusted only for an unrestricted session.

use crate::api::devin_types::QueueEntry;
use crate::api::network_policy::{Allow, Egress, NetworkPolicy};

/// The egress the session's sandbox must have, or why it cannot be served.
pub fn wanted(entry: Option<&QueueEntry>, needed: &[Allow]) -> Result<Egress, String> {
    let Some(policy) = entry.and_then(|e| e.network_policy.as_ref()) else {
        return Ok(Egress::Open);
    };
    match policy {
        Err(e) => Err(format!("the session's network_policy cannot be read: {e}")),
        Ok(NetworkPolicy { enabled: false, .. }) => Ok(Egress::Open),
        Ok(NetworkPolicy { allow, .. }) => {
            if let Some(bad) = allow.iter().find(|a| matches!(a, Allow::Unknown(_))) {
                return Err(format!(
                    "the session's network_policy has an {bad}, which cannot be enforced"
                ));
            }
            Ok(Egress::Only(
                allow.iter().chain(needed.iter()).cloned().collect(),
            ))
        }
    }
}

/// What to do about a started sandbox's egress before anything runs in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EgressStep {
    /// It is what the session needs.
    Keep,
    /// Set it (the provider can change a running sandbox's egress).
    Apply,
    /// Do not serve the session.
    Refuse(String),
}

/// `applied`: this attempt already set it once; `can_apply`: the provider changes egress of an
/// existing sandbox.
pub fn egress_step(want: &Egress, has: &Egress, applied: bool, can_apply: bool) -> EgressStep {
    let matches = match (want, has) {
        // Nothing to enforce: a provider that does not report egress is fine.
        (Egress::Open, Egress::Open | Egress::Unknown) => true,
        (Egress::Only(w), Egress::Only(h)) => w == h,
        _ => false,
    };
    if matches {
        return EgressStep::Keep;
    }
    if can_apply && !applied {
        return EgressStep::Apply;
    }
    EgressStep::Refuse(format!(
        "the network policy is not in force: the sandbox's egress is {}, the session needs {}{}",
        has.summary(),
        want.summary(),
        if can_apply {
            " (setting it did not take)"
        } else {
            " and the provider cannot change an existing sandbox's egress"
        }
    ))
}
