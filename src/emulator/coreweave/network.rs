//! `SandboxSpec.network` (sandbox.proto `NetworkOptions`): checked on create, input-only (not
//! echoed in the spec), and reflected in `status.effective_egress` / `effective_dns_egress`.
//! With `deny_egress`, the effective egress is the rules asked for; without it, anything. The
//! emulator records the policy; its local-backed sandboxes are not restricted (README,
//! "Network policy").

use tonic::Status;

use super::service::invalid;
use crate::api::coreweave::pb;
use pb::egress_rule::Destination;

/// Refuse rules the service could not apply.
pub fn check(spec: &pb::SandboxSpec) -> Result<(), Status> {
    let Some(n) = &spec.network else {
        return Ok(());
    };
    for (i, rule) in n.egress.iter().enumerate() {
        let field = format!("sandbox.spec.network.egress[{i}]");
        match &rule.destination {
            None => return Err(invalid(&field, "needs a destination")),
            Some(Destination::Cidr(c)) => {
                let (addr, prefix) = c.cidr.split_once('/').unwrap_or((&c.cidr, "32"));
                if addr.parse::<std::net::IpAddr>().is_err() || prefix.parse::<u8>().is_err() {
                    return Err(invalid(
                        &format!("{field}.cidr.cidr"),
                        "is not a CIDR block",
                    ));
                }
            }
            Some(Destination::HttpsHostname(h)) if h.trim().is_empty() => {
                return Err(invalid(&format!("{field}.https_hostname"), "is empty"));
            }
            Some(_) => {}
        }
    }
    Ok(())
}

/// `NetworkOptions` as JSON, for the request log.
pub fn to_json(n: &pb::NetworkOptions) -> serde_json::Value {
    let egress: Vec<serde_json::Value> = n
        .egress
        .iter()
        .map(|r| match &r.destination {
            Some(Destination::Cidr(c)) => serde_json::json!({"cidr": c.cidr}),
            Some(Destination::HttpsHostname(h)) => serde_json::json!({"https_hostname": h}),
            Some(Destination::Any(a)) => serde_json::json!({"any": a}),
            other => serde_json::json!({"other": format!("{other:?}")}),
        })
        .collect();
    let dns = pb::DnsEgressMode::try_from(n.dns_egress)
        .map(|d| d.as_str_name())
        .unwrap_or("DNS_EGRESS_MODE_UNSPECIFIED");
    serde_json::json!({"deny_egress": n.deny_egress, "dns_egress": dns, "egress": egress})
}

/// The effective egress and DNS mode for a created spec (nothing when no network was given).
pub fn effective(network: Option<&pb::NetworkOptions>) -> (Vec<pb::EgressRule>, i32) {
    match network {
        None => (Vec::new(), pb::DnsEgressMode::Unspecified as i32),
        Some(n) if n.deny_egress == Some(true) => {
            let dns = if n.dns_egress == pb::DnsEgressMode::Unspecified as i32 {
                pb::DnsEgressMode::Allow as i32
            } else {
                n.dns_egress
            };
            (n.egress.clone(), dns)
        }
        Some(_) => (
            vec![pb::EgressRule {
                destination: Some(Destination::Any(true)),
                ..Default::default()
            }],
            pb::DnsEgressMode::Allow as i32,
        ),
    }
}
