//! `spec.network_policy` of a queue entry (specs/devin-outposts-api.md §4.1), typed, and the
//! egress a sandbox has as a provider reports it.
//!
//! Wire shape: `{ "enabled": bool, "allow": [ {"hostname": glob} | {"ipv4": addr/CIDR} |
//! {"ipv6": addr/CIDR} ] }`. A policy whose shape is wrong is an error for its session (it cannot
//! be enforced, so the session is not served); an allow entry of an unknown kind is kept as
//! [`Allow::Unknown`] so the error can name it.

use std::collections::BTreeSet;
use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use serde::Serialize;
use serde_json::{Value, json};

/// A session's network policy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetworkPolicy {
    pub enabled: bool,
    pub allow: Vec<Allow>,
}

/// One allowed destination. Ordered so that sets of them compare as sets.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Allow {
    /// Lower-cased; may be a glob (`*.example.com`).
    Hostname(String),
    Ipv4(Cidr<Ipv4Addr>),
    Ipv6(Cidr<Ipv6Addr>),
    /// An entry this client does not understand (its JSON text).
    Unknown(String),
}

/// An address block, normalised (host bits cleared).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cidr<A> {
    pub addr: A,
    pub prefix: u8,
}

impl fmt::Display for Cidr<Ipv4Addr> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.addr, self.prefix)
    }
}

impl fmt::Display for Cidr<Ipv6Addr> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.addr, self.prefix)
    }
}

impl fmt::Display for Allow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Allow::Hostname(h) => f.write_str(h),
            Allow::Ipv4(c) => c.fmt(f),
            Allow::Ipv6(c) => c.fmt(f),
            Allow::Unknown(raw) => write!(f, "unknown entry {raw}"),
        }
    }
}

impl Serialize for Allow {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(s)
    }
}

impl Allow {
    /// The wire form (`{"hostname": …}`, `{"ipv4": …}`, `{"ipv6": …}`).
    pub fn to_json(&self) -> Value {
        match self {
            Allow::Hostname(h) => json!({"hostname": h}),
            Allow::Ipv4(c) => json!({"ipv4": c.to_string()}),
            Allow::Ipv6(c) => json!({"ipv6": c.to_string()}),
            Allow::Unknown(raw) => json!({"unknown": raw}),
        }
    }

    /// A host as it appears in a URL: an IP literal becomes a one-address block.
    pub fn host(host: &str) -> Allow {
        let h = host.trim().trim_start_matches('[').trim_end_matches(']');
        match h.parse::<IpAddr>() {
            Ok(IpAddr::V4(a)) => Allow::Ipv4(Cidr {
                addr: a,
                prefix: 32,
            }),
            Ok(IpAddr::V6(a)) => Allow::Ipv6(Cidr {
                addr: a,
                prefix: 128,
            }),
            Err(_) => Allow::Hostname(h.trim_end_matches('.').to_ascii_lowercase()),
        }
    }

    /// `10.0.0.0/8`, `10.1.2.3` (one address), `fd00::/8`…, as either family.
    pub fn parse_cidr(text: &str) -> Option<Allow> {
        let (addr, prefix) = match text.trim().split_once('/') {
            Some((a, p)) => (a, Some(p.parse::<u8>().ok()?)),
            None => (text.trim(), None),
        };
        match addr.parse::<IpAddr>().ok()? {
            IpAddr::V4(a) => {
                let prefix = prefix.unwrap_or(32);
                (prefix <= 32).then(|| {
                    let mask = u32::MAX.checked_shl(32 - u32::from(prefix)).unwrap_or(0);
                    Allow::Ipv4(Cidr {
                        addr: Ipv4Addr::from(u32::from(a) & mask),
                        prefix,
                    })
                })
            }
            IpAddr::V6(a) => {
                let prefix = prefix.unwrap_or(128);
                (prefix <= 128).then(|| {
                    let mask = u128::MAX.checked_shl(128 - u32::from(prefix)).unwrap_or(0);
                    Allow::Ipv6(Cidr {
                        addr: Ipv6Addr::from(u128::from(a) & mask),
                        prefix,
                    })
                })
            }
        }
    }

    fn from_value(v: &Value) -> Allow {
        let unknown = || Allow::Unknown(v.to_string());
        let Some(obj) = v.as_object().filter(|o| o.len() == 1) else {
            return unknown();
        };
        let Some((key, Value::String(text))) = obj.iter().next() else {
            return unknown();
        };
        match key.as_str() {
            "hostname" => {
                let h = text.trim().trim_end_matches('.').to_ascii_lowercase();
                let ok = !h.is_empty()
                    && h.len() <= 253
                    && h.chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '*' | '_'));
                if ok { Allow::Hostname(h) } else { unknown() }
            }
            "ipv4" => match Allow::parse_cidr(text) {
                Some(a @ Allow::Ipv4(_)) => a,
                _ => unknown(),
            },
            "ipv6" => match Allow::parse_cidr(text) {
                Some(a @ Allow::Ipv6(_)) => a,
                _ => unknown(),
            },
            _ => unknown(),
        }
    }
}

impl NetworkPolicy {
    /// Parse the wire value. `enabled` must be a boolean and `allow` (if present) a list:
    /// anything else is an error naming what is wrong.
    pub fn from_value(v: &Value) -> Result<NetworkPolicy, String> {
        let obj = v
            .as_object()
            .ok_or_else(|| format!("network_policy is not an object: {}", short(v)))?;
        let enabled = match obj.get("enabled") {
            Some(Value::Bool(b)) => *b,
            other => {
                return Err(format!(
                    "network_policy.enabled is not a boolean: {}",
                    other.map(short).unwrap_or_else(|| "missing".into())
                ));
            }
        };
        let allow = match obj.get("allow") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(items)) => items.iter().map(Allow::from_value).collect(),
            Some(other) => {
                return Err(format!(
                    "network_policy.allow is not a list: {}",
                    short(other)
                ));
            }
        };
        Ok(NetworkPolicy { enabled, allow })
    }

    pub fn to_json(&self) -> Value {
        json!({"enabled": self.enabled, "allow": self.allow.iter().map(Allow::to_json).collect::<Vec<_>>()})
    }
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 80 {
        format!("{}…", s.chars().take(80).collect::<String>())
    } else {
        s
    }
}

/// A sandbox's egress: what is asked of a provider, and what a provider reports.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Egress {
    /// No restriction.
    Open,
    /// Only these destinations (plus DNS where the provider needs it for hostnames).
    Only(BTreeSet<Allow>),
    /// The provider does not say.
    #[default]
    Unknown,
}

impl Egress {
    pub fn is_restricted(&self) -> bool {
        matches!(self, Egress::Only(_))
    }

    /// `open`, `unknown`, or `only: a, b, c`.
    pub fn summary(&self) -> String {
        match self {
            Egress::Open => "open (no restriction)".into(),
            Egress::Unknown => "unknown (the provider does not report it)".into(),
            Egress::Only(allow) if allow.is_empty() => "blocked (nothing allowed)".into(),
            Egress::Only(allow) => format!(
                "restricted to {}",
                allow
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }

    /// `{"mode": "open"|"restricted"|"unknown", "allow": [...]}` for `--json`.
    pub fn to_json(&self) -> Value {
        match self {
            Egress::Open => json!({"mode": "open"}),
            Egress::Unknown => json!({"mode": "unknown"}),
            Egress::Only(allow) => json!({"mode": "restricted", "allow": allow}),
        }
    }
}

impl Serialize for Egress {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_documented_shape() {
        let p = NetworkPolicy::from_value(&json!({"enabled": true, "allow": [
            {"hostname": "Allowed.Test."}, {"ipv4": "10.1.2.3/8"}, {"ipv6": "fd00::1/8"},
            {"ipv4": "10.0.0.1"}, {"hostname": "*.github.com"}, {"port": 22}, {"ipv4": "::1"}
        ]}))
        .unwrap();
        assert!(p.enabled);
        let text: Vec<String> = p.allow.iter().map(ToString::to_string).collect();
        assert_eq!(
            text,
            [
                "allowed.test",
                "10.0.0.0/8",
                "fd00::/8",
                "10.0.0.1/32",
                "*.github.com",
                "unknown entry {\"port\":22}",
                "unknown entry {\"ipv4\":\"::1\"}"
            ]
        );
    }

    #[test]
    fn a_wrong_shape_is_an_error_not_a_panic() {
        for v in [
            json!("open"),
            json!({"allow": []}),
            json!({"enabled": "yes"}),
            json!({"enabled": true, "allow": {"hostname": "x"}}),
        ] {
            assert!(NetworkPolicy::from_value(&v).is_err(), "{v}");
        }
        assert_eq!(
            NetworkPolicy::from_value(&json!({"enabled": false})).unwrap(),
            NetworkPolicy {
                enabled: false,
                allow: vec![]
            }
        );
    }

    #[test]
    fn hosts_from_urls() {
        assert_eq!(Allow::host("127.0.0.1").to_string(), "127.0.0.1/32");
        assert_eq!(Allow::host("[::1]").to_string(), "::1/128");
        assert_eq!(Allow::host("API.Devin.ai").to_string(), "api.devin.ai");
        assert_eq!(Allow::parse_cidr("10.0.0.0/33"), None);
        assert_eq!(
            Allow::parse_cidr("0.0.0.0/0").unwrap().to_string(),
            "0.0.0.0/0"
        );
    }
}
