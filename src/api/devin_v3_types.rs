//! Wire types of Devin's public v3 API (specs/devin-sessions-api.md), parsed tolerantly: every
//! field but the session id may be missing, timestamps may be integer or float seconds, and an
//! enum value nobody documented becomes `Unknown(text)`, never an error.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

macro_rules! open_enum {
    ($(#[$m:meta])* $name:ident { $($variant:ident = $text:literal),* $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub enum $name { $($variant,)* Unknown(String) }

        impl $name {
            /// Case-insensitive; anything else is kept as `Unknown`.
            pub fn parse(s: &str) -> Self {
                let t = s.trim();
                $(if t.eq_ignore_ascii_case($text) { return $name::$variant; })*
                $name::Unknown(t.to_string())
            }
            pub fn as_str(&self) -> &str {
                match self { $($name::$variant => $text,)* $name::Unknown(s) => s }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { f.write_str(self.as_str()) }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> { s.serialize_str(self.as_str()) }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let v = Value::deserialize(d)?;
                Ok(match v {
                    Value::String(s) => $name::parse(&s),
                    other => $name::Unknown(other.to_string()),
                })
            }
        }
    };
}

open_enum!(
    /// `status` of a session. `creating` appears in one translated copy of the docs only.
    V3Status {
        New = "new", Creating = "creating", Claimed = "claimed", Running = "running",
        Exit = "exit", Error = "error", Suspended = "suspended", Resuming = "resuming",
    }
);

open_enum!(
    /// `status_detail`: what a running session does, or why a suspended one sleeps.
    StatusDetail {
        Working = "working", WaitingForUser = "waiting_for_user",
        WaitingForApproval = "waiting_for_approval", Finished = "finished",
        Inactivity = "inactivity", UserRequest = "user_request",
        UsageLimitExceeded = "usage_limit_exceeded", OutOfCredits = "out_of_credits",
        OutOfQuota = "out_of_quota", NoQuotaAllocation = "no_quota_allocation",
        PaymentDeclined = "payment_declined", OrgUsageLimitExceeded = "org_usage_limit_exceeded",
        TotalSessionLimitExceeded = "total_session_limit_exceeded", Error = "error",
    }
);

impl V3Status {
    /// The session is over: it will never serve the task again.
    pub fn ended(&self) -> bool {
        matches!(self, V3Status::Exit | V3Status::Error)
    }
}

/// Integer or float seconds (or a numeric string); anything else is `None`.
fn lenient_secs<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    Ok(match Option::<Value>::deserialize(d)? {
        Some(Value::Number(n)) => n.as_f64(),
        Some(Value::String(s)) => s.trim().parse().ok(),
        _ => None,
    })
}

fn lenient_strings<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    Ok(match Option::<Value>::deserialize(d)? {
        Some(Value::Array(items)) => items
            .into_iter()
            .filter_map(|i| i.as_str().map(str::to_string))
            .collect(),
        _ => Vec::new(),
    })
}

/// `SessionResponse`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct V3Session {
    pub session_id: String,
    #[serde(default)]
    pub url: Option<String>,
    #[serde(default = "unknown_status")]
    #[schemars(with = "String")]
    pub status: V3Status,
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub status_detail: Option<StatusDetail>,
    #[serde(default, deserialize_with = "lenient_strings")]
    pub tags: Vec<String>,
    #[serde(default)]
    pub org_id: Option<String>,
    #[serde(default, deserialize_with = "lenient_secs")]
    pub created_at: Option<f64>,
    #[serde(default, deserialize_with = "lenient_secs")]
    pub updated_at: Option<f64>,
    #[serde(default, deserialize_with = "lenient_secs")]
    pub acus_consumed: Option<f64>,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub is_archived: Option<bool>,
    #[serde(default)]
    pub pull_requests: Option<Value>,
}

fn unknown_status() -> V3Status {
    V3Status::Unknown(String::new())
}

/// One page of `GET …/sessions`.
#[derive(Debug, Clone, Deserialize)]
pub struct V3SessionPage {
    #[serde(default)]
    pub items: Vec<V3Session>,
    #[serde(default)]
    pub end_cursor: Option<String>,
    #[serde(default)]
    pub has_next_page: bool,
    #[serde(default)]
    pub total: Option<u64>,
}

/// Body of `POST …/sessions` (the fields an admin CLI sends).
#[derive(Debug, Clone, Default, Serialize)]
pub struct CreateSession {
    pub prompt: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// A hosted label or the name of a shared outpost.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub platform: Option<String>,
}

/// `GET|PUT …/default-platform`. All `None` when unset.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct DefaultPlatform {
    #[serde(default)]
    pub platform: Option<String>,
    #[serde(default)]
    pub outpost_pool_id: Option<String>,
    #[serde(default)]
    pub outpost_pool_name: Option<String>,
}

impl DefaultPlatform {
    pub fn is_unset(&self) -> bool {
        self.platform.is_none() && self.outpost_pool_id.is_none()
    }
}

/// What `PUT …/default-platform` should set: at most one of the two.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlatformChoice {
    /// A hosted label or an outpost's name.
    Platform(String),
    /// An outpost id (`outpost_env-…`).
    OutpostId(String),
    Clear,
}

/// The platforms and outposts a 400 lists: every string in an array of the body, and the
/// `name` (else `id`) of every object in one — the field names are not documented, only that
/// the list is there.
pub fn accepted_labels(body: &Value) -> Vec<String> {
    fn walk(v: &Value, out: &mut Vec<String>, depth: u8) {
        if depth > 4 {
            return;
        }
        match v {
            Value::Array(items) => {
                for i in items {
                    match i {
                        Value::String(s) => out.push(s.clone()),
                        Value::Object(o) => {
                            if let Some(n) = ["name", "platform", "id", "outpost_pool_id"]
                                .iter()
                                .find_map(|k| o.get(*k).and_then(Value::as_str))
                            {
                                out.push(n.to_string());
                            } else {
                                walk(i, out, depth + 1);
                            }
                        }
                        other => walk(other, out, depth + 1),
                    }
                }
            }
            Value::Object(o) => {
                for (k, v) in o {
                    // FastAPI's validation details are not labels.
                    if k != "detail" || v.is_array() && v.get(0).is_some_and(Value::is_string) {
                        walk(v, out, depth + 1);
                    }
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(body, &mut out, 0);
    let mut seen = std::collections::HashSet::new();
    out.retain(|s| !s.trim().is_empty() && seen.insert(s.to_ascii_lowercase()));
    out
}

/// An outpost a 400 lists with both its id and its name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AcceptedOutpost {
    pub id: String,
    pub name: String,
}

/// The outposts a 400 lists as objects carrying an id (`id`, `outpost_id` or `outpost_pool_id`)
/// and a name (`name` or `outpost_pool_name`), in any list of the body: the field names are not
/// documented, so every spelling seen in the neighbouring documents is read.
pub fn accepted_outposts(body: &Value) -> Vec<AcceptedOutpost> {
    fn text<'a>(o: &'a serde_json::Map<String, Value>, keys: &[&str]) -> Option<&'a str> {
        keys.iter()
            .find_map(|k| o.get(*k).and_then(Value::as_str))
            .filter(|v| !v.trim().is_empty())
    }
    fn walk(v: &Value, out: &mut Vec<AcceptedOutpost>, depth: u8) {
        if depth > 4 {
            return;
        }
        match v {
            Value::Array(items) => items.iter().for_each(|i| walk(i, out, depth + 1)),
            Value::Object(o) => {
                let id = text(o, &["id", "outpost_id", "outpost_pool_id"]);
                let name = text(o, &["name", "outpost_pool_name"]);
                if let (Some(id), Some(name)) = (id, name) {
                    out.push(AcceptedOutpost {
                        id: id.trim().to_string(),
                        name: name.trim().to_string(),
                    });
                } else {
                    o.values().for_each(|v| walk(v, out, depth + 1));
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(body, &mut out, 0);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn sessions_parse_tolerantly_and_keep_unknown_statuses() {
        let s: V3Session = serde_json::from_value(json!({
            "session_id": "devin-1", "status": "hibernating", "status_detail": "finished",
            "created_at": 1.5, "updated_at": "7", "tags": ["a", 3], "acus_consumed": 0
        }))
        .unwrap();
        assert_eq!(s.status, V3Status::Unknown("hibernating".into()));
        assert_eq!(s.status_detail, Some(StatusDetail::Finished));
        assert_eq!(s.created_at, Some(1.5));
        assert_eq!(s.updated_at, Some(7.0));
        assert_eq!(s.tags, vec!["a".to_string()]);
        assert_eq!(
            serde_json::to_value(&s.status).unwrap(),
            json!("hibernating")
        );
        let bare: V3Session = serde_json::from_value(json!({"session_id": "devin-2"})).unwrap();
        assert!(matches!(bare.status, V3Status::Unknown(_)));
        assert_eq!(V3Status::parse("RUNNING"), V3Status::Running);
        assert!(V3Status::Exit.ended() && !V3Status::Suspended.ended());
    }

    #[test]
    fn accepted_labels_come_from_any_list_in_the_body() {
        let body = json!({
            "detail": "Invalid platform 'nosuch'",
            "accepted_platforms": ["linux", "windows"],
            "outposts": [{"id": "outpost_env-1", "name": "gpu"}, {"id": "outpost_env-2"}],
        });
        assert_eq!(
            accepted_labels(&body),
            vec!["linux", "windows", "gpu", "outpost_env-2"]
        );
        let fastapi = json!({"detail": [{"loc": ["body", "prompt"], "msg": "field required"}]});
        assert!(accepted_labels(&fastapi).is_empty());
        assert_eq!(
            accepted_outposts(&body),
            vec![AcceptedOutpost {
                id: "outpost_env-1".into(),
                name: "gpu".into()
            }]
        );
        let pool = json!({"available_outposts": [{"outpost_pool_id": "outpost_env-3", "outpost_pool_name": "rhel"}]});
        assert_eq!(accepted_outposts(&pool)[0].name, "rhel");
        assert!(accepted_outposts(&fastapi).is_empty());
    }
}
