//! Scripted faults: per endpoint and per call index, deterministic for a given script and seed.
//!
//! A rule matches requests by method and path prefix; the `nth` matching call (1-based) and the
//! `times - 1` calls after it get the rule's action. Scripts come from `--faults` (a JSON file or
//! inline JSON) or `POST /_emulator/faults`.

use std::collections::BTreeMap;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct FaultRule {
    /// HTTP method to match; any when absent.
    #[serde(default)]
    pub method: Option<String>,
    /// Path prefix to match, e.g. `/opbeta/outposts/devins`. A trailing `$` asks for an exact
    /// match.
    pub path: String,
    /// First matching call (1-based) that gets the fault.
    #[serde(default = "one")]
    pub nth: u64,
    /// How many consecutive matching calls get it; 0 = every call from `nth` on.
    #[serde(default = "one")]
    pub times: u64,
    pub action: FaultAction,
}

fn one() -> u64 {
    1
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum FaultAction {
    /// Answer with this status, headers and body instead of the real handler.
    Status {
        status: u16,
        #[serde(default)]
        headers: BTreeMap<String, String>,
        #[serde(default)]
        body: Option<String>,
    },
    /// Answer 200 (or `status`) with a raw body: malformed JSON, an HTML page, …
    Body {
        #[serde(default = "ok")]
        status: u16,
        #[serde(default = "json_type")]
        content_type: String,
        body: String,
    },
    /// Wait, then serve normally.
    Delay { ms: u64 },
    /// Serve normally, then break the connection before the body completes: the server has
    /// committed, the client never learns the outcome.
    CommitThenDrop,
    /// Break the connection without serving.
    Reset,
    /// Serve normally but cut the body after `bytes` bytes.
    Truncate { bytes: usize },
    /// Stream the body as it is produced (SSE) and break the connection after `bytes` bytes,
    /// e.g. in the middle of a watch event.
    CutStream { bytes: usize },
}

fn ok() -> u16 {
    200
}

fn json_type() -> String {
    "application/json".into()
}

/// A loaded script with its per-rule call counters.
#[derive(Debug, Default)]
pub struct Faults {
    inner: Mutex<Vec<(FaultRule, u64)>>,
}

impl Faults {
    pub fn new(rules: Vec<FaultRule>) -> Self {
        Faults {
            inner: Mutex::new(rules.into_iter().map(|r| (r, 0)).collect()),
        }
    }

    pub fn add(&self, rules: Vec<FaultRule>) {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        inner.extend(rules.into_iter().map(|r| (r, 0)));
    }

    pub fn clear(&self) {
        self.inner.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }

    pub fn rules(&self) -> Vec<FaultRule> {
        self.inner
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .map(|(r, _)| r.clone())
            .collect()
    }

    /// Count this call against every matching rule; return the first action that fires.
    pub fn check(&self, method: &str, path: &str) -> Option<FaultAction> {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let mut fired = None;
        for (rule, count) in inner.iter_mut() {
            if !rule_matches(rule, method, path) {
                continue;
            }
            *count += 1;
            let n = *count;
            let active =
                n >= rule.nth && (rule.times == 0 || n < rule.nth.saturating_add(rule.times));
            if active && fired.is_none() {
                fired = Some(rule.action.clone());
            }
        }
        fired
    }
}

fn rule_matches(rule: &FaultRule, method: &str, path: &str) -> bool {
    if let Some(m) = &rule.method
        && !m.eq_ignore_ascii_case(method)
    {
        return false;
    }
    match rule.path.strip_suffix('$') {
        Some(exact) => path == exact,
        None => path.starts_with(&rule.path),
    }
}

/// Parse `--faults`: inline JSON (`[...]` or `{...}`) or a path to a JSON file.
pub fn parse_spec(spec: &str) -> anyhow::Result<Vec<FaultRule>> {
    let text = if spec.trim_start().starts_with('[') || spec.trim_start().starts_with('{') {
        spec.to_string()
    } else {
        std::fs::read_to_string(spec)
            .map_err(|e| anyhow::anyhow!("cannot read the fault script {spec}: {e}"))?
    };
    let value: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| anyhow::anyhow!("the fault script is not JSON: {e}"))?;
    let rules = match value {
        serde_json::Value::Array(_) => serde_json::from_value(value)?,
        other => vec![serde_json::from_value(other)?],
    };
    Ok(rules)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nth_and_times_select_calls() {
        let f = Faults::new(vec![FaultRule {
            method: Some("GET".into()),
            path: "/a".into(),
            nth: 2,
            times: 2,
            action: FaultAction::Reset,
        }]);
        let fired: Vec<bool> = (0..5).map(|_| f.check("GET", "/a/b").is_some()).collect();
        assert_eq!(fired, vec![false, true, true, false, false]);
        assert!(f.check("POST", "/a").is_none());
    }

    #[test]
    fn exact_paths_and_spec_parsing() {
        let rules = parse_spec(r#"{"path":"/x$","action":{"kind":"status","status":429,"headers":{"Retry-After":"2"}}}"#).unwrap();
        let f = Faults::new(rules);
        assert!(f.check("GET", "/x/y").is_none());
        assert!(matches!(
            f.check("GET", "/x"),
            Some(FaultAction::Status { status: 429, .. })
        ));
        assert!(parse_spec("[{\"path\": 3}]").is_err());
    }
}
