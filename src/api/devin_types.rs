//! Wire types of the Devin fleet API, parsed tolerantly.
//!
//! The service speaks Kubernetes-style `metadata`/`spec`/`status` objects. Peers have seen (and
//! older servers sent) the same fields at the top level and in camelCase, timestamps as integer
//! or float seconds, milliseconds or ISO strings, and enum values nobody documented. We accept all
//! of these; an unknown enum value becomes `Unknown`, never an error.

use serde::Serialize;
use serde_json::{Map, Value, json};

use super::network_policy::NetworkPolicy;
use crate::secrets::Secret;

macro_rules! wire_enum {
    ($(#[$m:meta])* $name:ident { $($variant:ident = $text:literal),* $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
        #[serde(rename_all = "snake_case")]
        pub enum $name { $($variant,)* Unknown }

        impl $name {
            /// Case-insensitive; anything else is `Unknown`.
            pub fn parse(s: &str) -> Self {
                let s = s.trim();
                $(if s.eq_ignore_ascii_case($text) { return $name::$variant; })*
                $name::Unknown
            }
            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text,)* $name::Unknown => "unknown" }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { f.write_str(self.as_str()) }
        }
    };
}

wire_enum!(
    /// `status.phase` of a queue entry.
    Phase { Pending = "pending", Claimed = "claimed" }
);
wire_enum!(
    /// `status.session_status`: the coarse state of the Devin session.
    SessionStatus { Pending = "pending", Running = "running", Suspended = "suspended", Terminated = "terminated" }
);
wire_enum!(
    /// `spec.kind`: a fresh session or a woken one.
    Kind { New = "new", Resume = "resume" }
);
wire_enum!(
    /// Platform of a session or outpost.
    Platform { Linux = "linux", Windows = "windows", Macos = "macos" }
);
wire_enum!(
    /// Watch event type.
    EventType { Modified = "MODIFIED", Deleted = "DELETED", Added = "ADDED" }
);

/// One queue entry ("devin").
#[derive(Debug, Clone, PartialEq)]
pub struct QueueEntry {
    pub session_id: String,
    pub outpost_id: Option<String>,
    /// Unix seconds.
    pub created_at: Option<f64>,
    /// Unix seconds.
    pub updated_at: Option<f64>,
    pub kind: Kind,
    /// A missing platform means Linux (as the reference implementation does).
    pub platform: Platform,
    pub remote_binary_sha: Option<String>,
    /// `None` when absent; an error (for this session only) when its shape is wrong.
    pub network_policy: Option<Result<NetworkPolicy, String>>,
    pub phase: Phase,
    pub acceptor_id: Option<String>,
    /// Unix seconds.
    pub claim_deadline: Option<f64>,
    pub session_status: SessionStatus,
    /// Present only in a successful claim response.
    pub connect_token: Option<Secret>,
    pub gateway_url: Option<String>,
}

impl QueueEntry {
    /// Parse one entry. Only `session_id` is required.
    pub fn from_value(v: &Value) -> Result<QueueEntry, String> {
        let session_id = string(v, "metadata", "session_id")
            .ok_or_else(|| "a queue entry has no session_id".to_string())?;
        if session_id.is_empty()
            || session_id.len() > 512
            || session_id.chars().any(char::is_control)
        {
            return Err(format!(
                "a queue entry has an unusable session_id ({} characters)",
                session_id.chars().count()
            ));
        }
        let platform = string(v, "spec", "platform")
            .map(|p| Platform::parse(&p))
            .unwrap_or(Platform::Linux);
        Ok(QueueEntry {
            session_id,
            outpost_id: string(v, "metadata", "outpost_id")
                .or_else(|| string(v, "metadata", "pool_id")),
            created_at: field(v, "metadata", "created_at").and_then(timestamp),
            updated_at: field(v, "metadata", "updated_at").and_then(timestamp),
            kind: string(v, "spec", "kind")
                .map(|k| Kind::parse(&k))
                .unwrap_or(Kind::New),
            platform,
            remote_binary_sha: string(v, "spec", "remote_binary_sha").filter(|s| !s.is_empty()),
            network_policy: field(v, "spec", "network_policy")
                .filter(|p| !p.is_null())
                .map(NetworkPolicy::from_value),
            phase: string(v, "status", "phase")
                .map(|p| Phase::parse(&p))
                .unwrap_or(Phase::Unknown),
            acceptor_id: string(v, "status", "acceptor_id").filter(|s| !s.is_empty()),
            claim_deadline: field(v, "status", "claim_deadline").and_then(timestamp),
            session_status: string(v, "status", "session_status")
                .map(|s| SessionStatus::parse(&s))
                .unwrap_or(SessionStatus::Unknown),
            connect_token: string(v, "status", "connect_token")
                .filter(|s| !s.is_empty())
                .map(Secret::lease),
            gateway_url: string(v, "status", "gateway_url").filter(|s| !s.is_empty()),
        })
    }

    /// The canonical nested shape, without the connect token (for `--json` output).
    pub fn to_json(&self) -> Value {
        json!({
            "metadata": {"session_id": self.session_id, "outpost_id": self.outpost_id, "created_at": seconds_json(self.created_at), "updated_at": seconds_json(self.updated_at)},
            "spec": {"kind": self.kind, "platform": self.platform, "remote_binary_sha": self.remote_binary_sha, "network_policy": self.network_policy.as_ref().map(|p| match p {
                Ok(p) => p.to_json(),
                Err(e) => json!({"error": e}),
            })},
            "status": {"phase": self.phase, "acceptor_id": self.acceptor_id, "claim_deadline": seconds_json(self.claim_deadline), "session_status": self.session_status, "gateway_url": self.gateway_url},
        })
    }

    /// Sort key for "oldest first": enqueue time, then id.
    pub fn age_key(&self) -> (i64, &str) {
        let t = self
            .created_at
            .or(self.updated_at)
            .unwrap_or(f64::MAX / 4.0);
        ((t * 1000.0) as i64, self.session_id.as_str())
    }
}

/// An outpost.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Outpost {
    pub outpost_id: String,
    pub account_id: Option<String>,
    #[serde(serialize_with = "serialize_seconds")]
    pub created_at: Option<f64>,
    pub name: Option<String>,
    #[schemars(with = "Option<String>")]
    pub platform: Option<Platform>,
    pub description: Option<String>,
    pub queue_depth: Option<u64>,
    pub active_claims: Option<u64>,
}

impl Outpost {
    pub fn from_value(v: &Value) -> Result<Outpost, String> {
        let outpost_id = string(v, "metadata", "outpost_id")
            .or_else(|| string(v, "metadata", "id"))
            .or_else(|| string(v, "metadata", "pool_id"))
            .ok_or_else(|| "an outpost has no outpost_id".to_string())?;
        Ok(Outpost {
            outpost_id,
            account_id: string(v, "metadata", "account_id"),
            created_at: field(v, "metadata", "created_at").and_then(timestamp),
            name: string(v, "spec", "name"),
            platform: string(v, "spec", "platform").map(|p| Platform::parse(&p)),
            description: string(v, "spec", "description"),
            queue_depth: field(v, "status", "queue_depth").and_then(Value::as_u64),
            active_claims: field(v, "status", "active_claims").and_then(Value::as_u64),
        })
    }
}

/// One watch event.
#[derive(Debug, Clone)]
pub struct WatchEvent {
    pub kind: EventType,
    /// The raw type string (kept for unknown types).
    pub kind_raw: String,
    pub object: Option<QueueEntry>,
    pub cursor: Option<String>,
}

impl WatchEvent {
    pub fn from_value(v: &Value) -> Result<WatchEvent, String> {
        let kind_raw = v
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let object = match v.get("object") {
            Some(o) if !o.is_null() => Some(QueueEntry::from_value(o)?),
            _ => None,
        };
        Ok(WatchEvent {
            kind: EventType::parse(&kind_raw),
            kind_raw,
            object,
            cursor: v.get("cursor").and_then(Value::as_str).map(str::to_string),
        })
    }
}

/// `snake_case` → `camelCase`.
pub fn camel(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper = false;
    for c in name.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

fn get_any<'a>(obj: &'a Map<String, Value>, name: &str) -> Option<&'a Value> {
    obj.get(name)
        .or_else(|| obj.get(&camel(name)))
        .filter(|v| !v.is_null())
}

/// `v.section.name`, else `v.name`, each in snake_case or camelCase.
pub fn field<'a>(v: &'a Value, section: &str, name: &str) -> Option<&'a Value> {
    let obj = v.as_object()?;
    if let Some(Value::Object(inner)) = obj.get(section)
        && let Some(found) = get_any(inner, name)
    {
        return Some(found);
    }
    get_any(obj, name)
}

/// A string field; numbers are accepted and rendered.
pub fn string(v: &Value, section: &str, name: &str) -> Option<String> {
    match field(v, section, name)? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// Unix seconds from integer/float seconds, milliseconds, or an ISO-8601 string.
/// A time in Unix seconds as JSON: a whole number stays an integer (`1796197406`, as the wire
/// sent it), a fraction stays a float.
pub fn seconds_json(t: Option<f64>) -> Value {
    match t {
        Some(t) if t.fract() == 0.0 && t.abs() < 9.0e15 => Value::from(t as i64),
        Some(t) => Value::from(t),
        None => Value::Null,
    }
}

fn serialize_seconds<S: serde::Serializer>(t: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    serde::Serialize::serialize(&seconds_json(*t), s)
}

pub fn timestamp(v: &Value) -> Option<f64> {
    let secs = match v {
        Value::Number(n) => n.as_f64()?,
        Value::String(s) => match s.trim().parse::<f64>() {
            Ok(n) => n,
            Err(_) => return iso8601(s),
        },
        _ => return None,
    };
    if !secs.is_finite() {
        return None;
    }
    // Anything past the year 5000 in seconds is really milliseconds.
    Some(if secs > 1e11 { secs / 1000.0 } else { secs })
}

fn iso8601(s: &str) -> Option<f64> {
    let s = s.trim();
    // humantime accepts `Z` or no zone; fold explicit offsets into UTC ourselves.
    let (base, offset_secs) = match s.rfind(['+', '-']).filter(|&i| i > 10) {
        Some(i) => {
            let (b, off) = s.split_at(i);
            let sign = if off.starts_with('-') { -1 } else { 1 };
            let digits: Vec<i64> = off[1..].split(':').filter_map(|p| p.parse().ok()).collect();
            let secs = match digits.as_slice() {
                [h, m] => h * 3600 + m * 60,
                [hm] if off.len() == 5 => (hm / 100) * 3600 + (hm % 100) * 60,
                [h] => h * 3600,
                _ => return None,
            };
            (b.to_string(), sign * secs)
        }
        None => (s.trim_end_matches('Z').to_string(), 0),
    };
    let t = humantime::parse_rfc3339_weak(&base).ok()?;
    let secs = crate::time::unix_seconds(t)?;
    Some(secs - offset_secs as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_and_flat_camel_and_snake() {
        let nested = json!({"metadata": {"session_id": "devin-1", "outpost_id": "o", "created_at": 100},
            "spec": {"kind": "resume", "platform": "windows", "remote_binary_sha": "412f0e9b19"},
            "status": {"phase": "claimed", "acceptor_id": "a", "claim_deadline": 400, "session_status": "running",
                       "connect_token": "tok-123456", "gateway_url": "wss://g"}});
        let flat = json!({"sessionId": "devin-1", "outpostId": "o", "createdAt": "100", "kind": "RESUME", "platform": "Windows",
            "remoteBinarySha": "412f0e9b19", "phase": "claimed", "acceptorId": "a", "claimDeadline": 400,
            "sessionStatus": "running", "connectToken": "tok-123456", "gatewayUrl": "wss://g"});
        let a = QueueEntry::from_value(&nested).unwrap();
        let b = QueueEntry::from_value(&flat).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.kind, Kind::Resume);
        assert_eq!(a.platform, Platform::Windows);
        assert_eq!(a.claim_deadline, Some(400.0));
        assert_eq!(
            a.connect_token.as_ref().map(Secret::expose),
            Some("tok-123456")
        );
        assert!(!a.to_json().to_string().contains("tok-123456"));
    }

    #[test]
    fn unknown_values_degrade() {
        let e = QueueEntry::from_value(&json!({"metadata": {"session_id": "devin-2"}, "status": {"phase": "weird", "session_status": "exit"}})).unwrap();
        assert_eq!(e.phase, Phase::Unknown);
        assert_eq!(e.session_status, SessionStatus::Unknown);
        assert_eq!(e.platform, Platform::Linux);
        assert_eq!(e.kind, Kind::New);
        assert!(QueueEntry::from_value(&json!({"status": {}})).is_err());
        assert!(QueueEntry::from_value(&json!({"session_id": "bad\u{0}id"})).is_err());
        assert!(QueueEntry::from_value(&json!([1, 2])).is_err());
        let ev = WatchEvent::from_value(&json!({"type": "BOOKMARK", "cursor": "c"})).unwrap();
        assert_eq!(ev.kind, EventType::Unknown);
        assert_eq!(ev.kind_raw, "BOOKMARK");
    }

    #[test]
    fn whole_seconds_print_as_integers() {
        assert_eq!(seconds_json(Some(1796197406.0)).to_string(), "1796197406");
        assert_eq!(seconds_json(Some(1796197406.5)).to_string(), "1796197406.5");
        assert_eq!(seconds_json(None), Value::Null);
        let e = QueueEntry::from_value(&json!({"metadata": {"session_id": "s", "created_at": 1796197406, "updated_at": 1796197407},
            "status": {"claim_deadline": 1796197706}})).unwrap();
        let text = e.to_json().to_string();
        assert!(text.contains("\"created_at\":1796197406,"), "{text}");
        assert!(text.contains("\"claim_deadline\":1796197706"), "{text}");
        let o = Outpost::from_value(
            &json!({"metadata": {"outpost_id": "o", "created_at": 1796197406}}),
        )
        .unwrap();
        assert!(
            serde_json::to_string(&o)
                .unwrap()
                .contains("\"created_at\":1796197406,")
        );
    }

    #[test]
    fn timestamps() {
        assert_eq!(timestamp(&json!(1781050000)), Some(1781050000.0));
        assert_eq!(timestamp(&json!(1781050000.5)), Some(1781050000.5));
        assert_eq!(timestamp(&json!(1781050000123u64)), Some(1781050000.123));
        assert_eq!(timestamp(&json!("1970-01-01T00:01:40Z")), Some(100.0));
        assert_eq!(timestamp(&json!("1970-01-01T01:01:40+01:00")), Some(100.0));
        assert_eq!(timestamp(&json!("1970-01-01T00:01:40.500Z")), Some(100.5));
        assert_eq!(timestamp(&json!("yesterday")), None);
        assert_eq!(timestamp(&json!(null)), None);
    }

    #[test]
    fn outposts_parse() {
        let o = Outpost::from_value(&json!({"metadata": {"outpost_id": "outpost_env-1", "account_id": "acc"},
            "spec": {"name": "rhel", "platform": null}, "status": {"queue_depth": 3, "active_claims": 1}})).unwrap();
        assert_eq!(o.name.as_deref(), Some("rhel"));
        assert_eq!(o.platform, None);
        assert_eq!(o.queue_depth, Some(3));
    }
}
