//! A sandbox's egress on Daytona: `networkBlockAll` plus `networkAllowList` (CIDRs) and
//! `domainAllowList` (domains), comma-separated (specs/daytona-api.md §3.2; the OpenAPI example
//! `example.com,*.daytona.io` is the only wildcard form documented, so that is the only one sent).

use std::collections::BTreeSet;

use crate::api::daytona_types::{NetworkSettings, Sandbox};
use crate::api::network_policy::{Allow, Egress};

/// The create-body fields for `egress`: none at all when it is open.
pub fn create_fields(egress: &Egress) -> Result<NetworkSettings, String> {
    match egress {
        Egress::Only(allow) => restricted(allow),
        Egress::Open | Egress::Unknown => Ok(NetworkSettings::default()),
    }
}

/// The `network-settings` body that makes a running sandbox's egress `egress`.
pub fn update_fields(egress: &Egress) -> Result<NetworkSettings, String> {
    match egress {
        Egress::Only(allow) => restricted(allow),
        Egress::Open | Egress::Unknown => Ok(NetworkSettings {
            network_block_all: Some(false),
            network_allow_list: Some(String::new()),
            domain_allow_list: Some(String::new()),
        }),
    }
}

fn restricted(allow: &BTreeSet<Allow>) -> Result<NetworkSettings, String> {
    let mut cidrs = Vec::new();
    let mut domains = Vec::new();
    for a in allow {
        match a {
            Allow::Hostname(h) => domains.push(domain(h)?),
            Allow::Ipv4(c) => cidrs.push(c.to_string()),
            Allow::Ipv6(c) => cidrs.push(c.to_string()),
            Allow::Unknown(_) => return Err(format!("Daytona cannot express an {a}")),
        }
    }
    let list = |v: Vec<String>| (!v.is_empty()).then(|| v.join(","));
    Ok(NetworkSettings {
        network_block_all: Some(true),
        network_allow_list: list(cidrs),
        domain_allow_list: list(domains),
    })
}

/// An exact domain, or `*.` before one; any other glob would have to be widened or guessed.
fn domain(h: &str) -> Result<String, String> {
    let rest = h.strip_prefix("*.").unwrap_or(h);
    if rest.is_empty() || rest.contains('*') || !rest.contains('.') && h.starts_with("*.") {
        return Err(format!(
            "the hostname glob `{h}` cannot be expressed in Daytona's domainAllowList, which \
             takes exact domains and `*.domain` wildcards"
        ));
    }
    Ok(h.to_string())
}

/// What a sandbox reports. `networkBlockAll` is required in the spec: without it we do not know.
pub fn effective(sb: &Sandbox) -> Egress {
    let lists = [&sb.network_allow_list, &sb.domain_allow_list];
    let listed = lists
        .iter()
        .any(|l| l.as_deref().is_some_and(|s| !s.trim().is_empty()));
    match sb.network_block_all {
        None => Egress::Unknown,
        Some(false) if !listed => Egress::Open,
        Some(_) => {
            let mut allow = BTreeSet::new();
            for item in sb
                .network_allow_list
                .iter()
                .flat_map(|s| s.split(','))
                .filter(|s| !s.trim().is_empty())
            {
                allow.insert(
                    Allow::parse_cidr(item)
                        .unwrap_or_else(|| Allow::Unknown(item.trim().to_string())),
                );
            }
            for item in sb
                .domain_allow_list
                .iter()
                .flat_map(|s| s.split(','))
                .filter(|s| !s.trim().is_empty())
            {
                allow.insert(Allow::Hostname(item.trim().to_ascii_lowercase()));
            }
            Egress::Only(allow)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn only(items: &[&str]) -> Egress {
        Egress::Only(
            items
                .iter()
                .map(|i| Allow::parse_cidr(i).unwrap_or_else(|| Allow::host(i)))
                .collect(),
        )
    }

    #[test]
    fn restricted_egress_becomes_block_all_and_lists() {
        let f = create_fields(&only(&[
            "allowed.test",
            "*.github.com",
            "127.0.0.1",
            "10.0.0.0/8",
        ]))
        .unwrap();
        assert_eq!(f.network_block_all, Some(true));
        assert_eq!(
            f.network_allow_list.as_deref(),
            Some("10.0.0.0/8,127.0.0.1/32")
        );
        assert_eq!(
            f.domain_allow_list.as_deref(),
            Some("*.github.com,allowed.test")
        );
        assert_eq!(
            create_fields(&Egress::Open).unwrap(),
            NetworkSettings::default()
        );
    }

    #[test]
    fn globs_daytona_cannot_express_are_errors() {
        for g in [
            "api-*.example.com",
            "*",
            "*.*.example.com",
            "ex*ample.com",
            "*.com",
        ] {
            let e = create_fields(&only(&[g])).unwrap_err();
            assert!(e.contains(g), "{e}");
        }
    }
}
