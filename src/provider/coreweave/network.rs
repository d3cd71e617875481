//! A sandbox's egress on CoreWeave: `NetworkOptions{deny_egress, egress: [EgressRule{cidr |
//! https_hostname}], dns_egress}` on create, and `status.effective_egress` /
//! `effective_dns_egress` read back (sandbox.proto). DNS is allowed only when a hostname rule
//! needs it. Hostname rules carry HTTPS only (that is what `https_hostname` says).

use std::collections::BTreeSet;

use crate::api::coreweave::pb;
use crate::api::network_policy::{Allow, Egress};
use pb::egress_rule::Destination;

/// The create field for `egress`: none at all when it is open.
pub fn options(egress: &Egress) -> Result<Option<pb::NetworkOptions>, String> {
    let Egress::Only(allow) = egress else {
        return Ok(None);
    };
    let mut rules = Vec::new();
    let mut hostnames = false;
    for a in allow {
        let destination = match a {
            Allow::Hostname(h) => {
                hostnames = true;
                Destination::HttpsHostname(hostname(h)?)
            }
            Allow::Ipv4(c) => cidr(c.to_string()),
            Allow::Ipv6(c) => cidr(c.to_string()),
            Allow::Unknown(_) => return Err(format!("CoreWeave cannot express an {a}")),
        };
        rules.push(pb::EgressRule {
            destination: Some(destination),
            ..Default::default()
        });
    }
    Ok(Some(pb::NetworkOptions {
        egress: rules,
        deny_egress: Some(true),
        dns_egress: if hostnames {
            pb::DnsEgressMode::Allow
        } else {
            pb::DnsEgressMode::Deny
        } as i32,
        ..Default::default()
    }))
}

fn cidr(c: String) -> Destination {
    Destination::Cidr(pb::CidrBlock {
        cidr: c,
        except: Vec::new(),
    })
}

/// An exact hostname, or `*.` before one (the form Kubernetes FQDN policies take); any other
/// glob would have to be widened or guessed.
fn hostname(h: &str) -> Result<String, String> {
    let rest = h.strip_prefix("*.").unwrap_or(h);
    if rest.is_empty() || rest.contains('*') || h.starts_with("*.") && !rest.contains('.') {
        return Err(format!(
            "the hostname glob `{h}` cannot be expressed as a CoreWeave https_hostname rule, \
             which takes exact hostnames and `*.domain` wildcards"
        ));
    }
    Ok(h.to_string())
}

/// What the sandbox's status reports. Nothing reported at all: unknown.
pub fn effective(status: &pb::SandboxStatus) -> Egress {
    let dns = pb::DnsEgressMode::try_from(status.effective_dns_egress)
        .unwrap_or(pb::DnsEgressMode::Unspecified);
    if status.effective_egress.is_empty() && dns == pb::DnsEgressMode::Unspecified {
        return Egress::Unknown;
    }
    let mut allow = BTreeSet::new();
    for rule in &status.effective_egress {
        let narrowed = !rule.ports.is_empty() || !rule.https_hostname_except.is_empty();
        let a = match &rule.destination {
            Some(Destination::Any(true)) if !narrowed => return Egress::Open,
            Some(Destination::Cidr(c)) if c.except.is_empty() && !narrowed => {
                Allow::parse_cidr(&c.cidr).unwrap_or_else(|| Allow::Unknown(c.cidr.clone()))
            }
            Some(Destination::HttpsHostname(h)) if !narrowed => Allow::host(h),
            other => Allow::Unknown(format!("{other:?}")),
        };
        allow.insert(a);
    }
    let hostnames = allow.iter().any(|a| matches!(a, Allow::Hostname(_)));
    if dns == pb::DnsEgressMode::Allow && !hostnames {
        // More than was asked for: say so, so the comparison with the request fails.
        allow.insert(Allow::Unknown("DNS egress allowed".into()));
    }
    Egress::Only(allow)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn restricted_egress_becomes_network_options_and_reads_back() {
        let want = Egress::Only(
            [Allow::host("allowed.test"), Allow::host("127.0.0.1")]
                .into_iter()
                .collect(),
        );
        let opts = options(&want).unwrap().unwrap();
        assert_eq!(opts.deny_egress, Some(true));
        assert_eq!(opts.dns_egress, pb::DnsEgressMode::Allow as i32);
        assert_eq!(opts.egress.len(), 2);
        let status = pb::SandboxStatus {
            effective_egress: opts.egress.clone(),
            effective_dns_egress: opts.dns_egress,
            ..Default::default()
        };
        assert_eq!(effective(&status), want);
        assert_eq!(options(&Egress::Open).unwrap(), None);
        assert_eq!(effective(&pb::SandboxStatus::default()), Egress::Unknown);
    }

    #[test]
    fn cidr_only_denies_dns_and_globs_are_checked() {
        let want = Egress::Only([Allow::host("10.0.0.1")].into_iter().collect());
        let opts = options(&want).unwrap().unwrap();
        assert_eq!(opts.dns_egress, pb::DnsEgressMode::Deny as i32);
        let status = pb::SandboxStatus {
            effective_egress: opts.egress,
            effective_dns_egress: pb::DnsEgressMode::Allow as i32,
            ..Default::default()
        };
        assert_ne!(effective(&status), want, "DNS allowed is more than asked");
        let bad = Egress::Only([Allow::Hostname("a*.x.com".into())].into_iter().collect());
        assert!(options(&bad).unwrap_err().contains("a*.x.com"));
    }
}
