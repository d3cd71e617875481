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

use crate::api::network_policy::{Allow, Egress, NetworkPolicy};

/// The session's policy as the wire had it: absent, or parsed (an error when unreadable).
pub type PolicyField = Option<Result<NetworkPolicy, String>>;

/// The policy to enforce: the claim answer's when it carried one (a list row may simply not
/// carry the field), else the queue entry's.
pub fn policy_of<'a>(
    claimed: Option<&'a PolicyField>,
    listed: Option<&'a PolicyField>,
) -> Option<&'a Result<NetworkPolicy, String>> {
    claimed
        .and_then(Option::as_ref)
        .or_else(|| listed.and_then(Option::as_ref))
}

/// The egress the session's sandbox must have, or why it cannot be served.
pub fn wanted(
    policy: Option<&Result<NetworkPolicy, String>>,
    needed: &[Allow],
) -> Result<Egress, String> {
    let Some(policy) = policy else {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::devin_types::QueueEntry;
    use serde_json::json;

    fn entry(policy: Option<serde_json::Value>) -> QueueEntry {
        let mut v = json!({"metadata": {"session_id": "s"}, "spec": {}});
        if let Some(p) = policy {
            v["spec"]["network_policy"] = p;
        }
        QueueEntry::from_value(&v).unwrap()
    }

    fn only(items: &[&str]) -> Egress {
        Egress::Only(items.iter().map(|h| Allow::host(h)).collect())
    }

    #[test]
    fn the_egress_a_session_needs() {
        let needed = [Allow::host("127.0.0.1"), Allow::host("github.com")];
        let cases: Vec<(Option<serde_json::Value>, Result<Egress, &str>)> = vec![
            (None, Ok(Egress::Open)),
            (
                Some(json!({"enabled": false, "allow": [{"port": 1}]})),
                Ok(Egress::Open),
            ),
            (
                Some(json!({"enabled": true, "allow": [{"hostname": "allowed.test"}]})),
                Ok(only(&["allowed.test", "127.0.0.1", "github.com"])),
            ),
            (
                Some(json!({"enabled": true})),
                Ok(only(&["127.0.0.1", "github.com"])),
            ),
            (Some(json!({"enabled": "true"})), Err("cannot be read")),
            (Some(json!([])), Err("cannot be read")),
            (
                Some(json!({"enabled": true, "allow": [{"ipv4": "nope"}]})),
                Err("cannot be enforced"),
            ),
        ];
        for (policy, want) in cases {
            let e = entry(policy.clone());
            let got = wanted(policy_of(None, Some(&e.network_policy)), &needed);
            match (got, want) {
                (Ok(g), Ok(w)) => assert_eq!(g, w, "{policy:?}"),
                (Err(g), Err(w)) => assert!(g.contains(w), "{policy:?}: {g}"),
                (g, w) => panic!("{policy:?}: got {g:?}, want {w:?}"),
            }
        }
        assert_eq!(wanted(None, &needed), Ok(Egress::Open));
    }

    #[test]
    fn the_claim_answers_policy_wins_over_a_list_row_without_one() {
        let claimed = entry(Some(json!({"enabled": true}))).network_policy;
        let listed = entry(None).network_policy;
        let got = wanted(policy_of(Some(&claimed), Some(&listed)), &[]);
        assert_eq!(got, Ok(Egress::Only(Default::default())));
        // No claim policy: the list row's; neither: open.
        let got = wanted(policy_of(Some(&None), Some(&claimed)), &[]);
        assert_eq!(got, Ok(Egress::Only(Default::default())));
        assert_eq!(wanted(policy_of(None, None), &[]), Ok(Egress::Open));
    }

    #[test]
    fn a_sandbox_whose_egress_differs_is_fixed_once_or_refused() {
        use EgressStep::*;
        let a = only(&["a.test"]);
        let b = only(&["b.test"]);
        let refuse = Refuse(String::new());
        // (want, has, applied, can_apply) → step
        let cases = [
            (&a, &a, false, false, Keep),
            (&Egress::Open, &Egress::Open, false, false, Keep),
            (&Egress::Open, &Egress::Unknown, false, false, Keep),
            (&a, &b, false, true, Apply),
            (&a, &Egress::Open, false, true, Apply),
            (&Egress::Open, &a, false, true, Apply),
            (&a, &b, true, true, refuse.clone()),
            (&a, &b, false, false, refuse.clone()),
            // Not reported: never trusted for a restricted session.
            (&a, &Egress::Unknown, false, false, refuse.clone()),
            (&Egress::Open, &a, false, false, refuse.clone()),
        ];
        for (want, has, applied, can, expect) in cases {
            let got = egress_step(want, has, applied, can);
            match (&got, &expect) {
                (Refuse(why), Refuse(_)) => {
                    assert!(why.contains("not in force"), "{why}")
                }
                _ => assert_eq!(got, expect, "{want:?} {has:?} {applied} {can}"),
            }
        }
    }
}
