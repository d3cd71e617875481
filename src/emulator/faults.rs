//! Scripted faults: per endpoint and per call index, deterministic for a given script and seed.
//!
//! A rule matches requests by method, path prefix and (optionally) a query substring; the `nth`
//! matching call (1-based) and the `times - 1` calls after it get the rule's action. A `rate`
//! below 1 makes each of those calls fault with that probability, drawn from an RNG seeded by
//! `--seed`: the same script, seed and call order give the same faults. Scripts come from
//! `--faults` (a JSON file or inline JSON) or `POST /_emulator/faults`.

use std::collections::BTreeMap;
use std::sync::Mutex;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

/// What `POST /_emulator/daytona/error` and `/_emulator/coreweave/failed` take: the sandbox (an
/// id, name or label value) or the next one created, and an optional reason.
#[derive(Deserialize)]
pub struct BrokenSandbox {
    #[serde(default)]
    pub sandbox: Option<String>,
    #[serde(default)]
    pub next: bool,
    #[serde(default)]
    reason: Option<String>,
}

impl BrokenSandbox {
    /// The reason the provider will give, or the default one.
    pub fn reason(&self) -> String {
        (self.reason.clone())
            .unwrap_or_else(|| "emulated fault: the sandbox's runner failed".into())
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct FaultRule {
    /// HTTP method to match; any when absent.
    #[serde(default)]
    pub method: Option<String>,
    /// Path prefix to match, e.g. `/opbeta/outposts/devins`. A trailing `$` asks for an exact
    /// match; `*` matches any run of characters (`/opbeta/outposts/devins/*/release$`).
    pub path: String,
    /// First matching call (1-based) that gets the fault.
    #[serde(default = "one")]
    pub nth: u64,
    /// How many consecutive matching calls get it; 0 = every call from `nth` on.
    #[serde(default = "one")]
    pub times: u64,
    /// Substring the query string must contain, e.g. `watch=true` (watch streams only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
    /// Only requests whose JSON body names this snapshot (`"snapshot"`): a Daytona create from
    /// it, e.g. `{"method":"POST","path":"/daytona/api/sandbox$","snapshot":"S","times":0,…}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snapshot: Option<String>,
    /// Only requests whose JSON body names this target (`"target"`): a Daytona create there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// Probability (0–1) that a call in the window faults; seeded, so runs repeat. Default 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate: Option<f64>,
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
    /// Serve normally (the server commits), then answer with this status instead of the real
    /// answer — e.g. a 504 from a proxy after the backend did the work.
    CommitThenStatus {
        status: u16,
        #[serde(default)]
        headers: BTreeMap<String, String>,
    },
    /// Serve normally (the server commits), then hold the answer for `ms` before sending it, so
    /// a client with a shorter timeout gives up on a request that succeeded.
    CommitThenDelay { ms: u64 },
    /// Stream the body for `bytes` bytes, then send nothing for `ms` (0: until the client
    /// hangs up), then break the connection: a stalled stream.
    Stall {
        #[serde(default)]
        bytes: usize,
        #[serde(default)]
        ms: u64,
    },
    /// Answer 200 `text/event-stream` with one `data:` line of `bytes` bytes (e.g. 16 MiB), then
    /// end the stream.
    HugeLine { bytes: usize },
    /// Serve normally, then replace every `[from, to]` pair's `from` with its `to` in the
    /// (buffered) body: one poisoned item in an otherwise good answer. Not for streams.
    Rewrite { pairs: Vec<(String, String)> },
}

fn ok() -> u16 {
    200
}

fn json_type() -> String {
    "application/json".into()
}

/// A loaded script with its per-rule call counters and the seeded RNG for `rate`.
#[derive(Debug)]
pub struct Faults {
    inner: Mutex<Vec<(FaultRule, u64)>>,
    rng: Mutex<StdRng>,
}

impl Default for Faults {
    fn default() -> Self {
        Faults::new(Vec::new())
    }
}

impl Faults {
    pub fn new(rules: Vec<FaultRule>) -> Self {
        Self::seeded(rules, 0)
    }

    /// A script whose `rate` draws come from `seed`.
    pub fn seeded(rules: Vec<FaultRule>, seed: u64) -> Self {
        Faults {
            inner: Mutex::new(rules.into_iter().map(|r| (r, 0)).collect()),
            rng: Mutex::new(StdRng::seed_from_u64(seed)),
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
    #[cfg(test)]
    pub fn check(&self, method: &str, path: &str) -> Option<FaultAction> {
        self.check_query(method, path, None)
    }

    /// [`Faults::check`] for a request with this query string.
    pub fn check_query(
        &self,
        method: &str,
        path: &str,
        query: Option<&str>,
    ) -> Option<FaultAction> {
        self.check_request(method, path, query, None)
    }

    /// [`Faults::check_query`] for a request with this body (rules naming a `snapshot` or
    /// `target` match only bodies that name it).
    pub fn check_request(
        &self,
        method: &str,
        path: &str,
        query: Option<&str>,
        body: Option<&[u8]>,
    ) -> Option<FaultAction> {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let mut fired = None;
        let mut json = None;
        for (rule, count) in inner.iter_mut() {
            if !rule_matches(rule, method, path, query) || !body_matches(rule, body, &mut json) {
                continue;
            }
            *count += 1;
            let n = *count;
            let active =
                n >= rule.nth && (rule.times == 0 || n < rule.nth.saturating_add(rule.times));
            if !active || fired.is_some() {
                continue;
            }
            // Draw only for calls in the window, so the sequence depends on the script alone.
            let hit = match rule.rate {
                Some(p) if p < 1.0 => {
                    let mut rng = self.rng.lock().unwrap_or_else(|e| e.into_inner());
                    rng.gen_bool(p.clamp(0.0, 1.0))
                }
                _ => true,
            };
            if hit {
                fired = Some(rule.action.clone());
            }
        }
        fired
    }
}

fn rule_matches(rule: &FaultRule, method: &str, path: &str, query: Option<&str>) -> bool {
    if let Some(m) = &rule.method
        && !m.eq_ignore_ascii_case(method)
    {
        return false;
    }
    if let Some(q) = &rule.query
        && !query.unwrap_or_default().contains(q.as_str())
    {
        return false;
    }
    path_matches(&rule.path, path)
}

/// Whether the body names the rule's snapshot and target (parsed once, on first need).
fn body_matches(
    rule: &FaultRule,
    body: Option<&[u8]>,
    json: &mut Option<serde_json::Value>,
) -> bool {
    let wanted = [("snapshot", &rule.snapshot), ("target", &rule.target)];
    if wanted.iter().all(|(_, w)| w.is_none()) {
        return true;
    }
    let v = json.get_or_insert_with(|| {
        body.and_then(|b| serde_json::from_slice(b).ok())
            .unwrap_or(serde_json::Value::Null)
    });
    wanted.iter().all(|(field, w)| match w {
        Some(w) => v.get(field).and_then(|f| f.as_str()) == Some(w.as_str()),
        None => true,
    })
}

/// A prefix, `$` for "ends here", `*` for any run of characters:
/// `/opbeta/outposts/devins/*/release$`.
fn path_matches(pattern: &str, path: &str) -> bool {
    let (pat, exact) = match pattern.strip_suffix('$') {
        Some(p) => (p, true),
        None => (pattern, false),
    };
    let parts: Vec<&str> = pat.split('*').collect();
    let Some(mut rest) = path.strip_prefix(parts[0]) else {
        return false;
    };
    for (i, part) in parts.iter().enumerate().skip(1) {
        if exact && i == parts.len() - 1 {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(j) => rest = &rest[j + part.len()..],
            None => return false,
        }
    }
    !exact || rest.is_empty()
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
            query: None,
            snapshot: None,
            target: None,
            rate: None,
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

    #[test]
    fn path_patterns() {
        assert!(path_matches("/a", "/a/b"));
        assert!(path_matches("/a$", "/a"));
        assert!(!path_matches("/a$", "/a/b"));
        assert!(path_matches("/d/*/release$", "/d/x%2Fy/release"));
        assert!(!path_matches("/d/*/release$", "/d/x/claim"));
        assert!(!path_matches("/d/*/release$", "/d/x/release/more"));
        assert!(path_matches("/d/*/claim", "/d/x/claim"));
        assert!(!path_matches("/e/*", "/d/x"));
    }

    #[test]
    fn rates_are_seeded_and_queries_filter() {
        let script = r#"[{"path":"/w","query":"watch=true","times":0,"rate":0.5,"action":{"kind":"reset"}}]"#;
        let run = |seed| {
            let f = Faults::seeded(parse_spec(script).unwrap(), seed);
            (0..64)
                .map(|_| {
                    f.check_query("GET", "/w", Some("outpost=o&watch=true"))
                        .is_some()
                })
                .collect::<Vec<_>>()
        };
        let a = run(7);
        assert_eq!(a, run(7), "same seed, same faults");
        assert_ne!(a, run(8));
        let hits = a.iter().filter(|h| **h).count();
        assert!((16..=48).contains(&hits), "{hits}");
        let f = Faults::seeded(parse_spec(script).unwrap(), 7);
        assert!(f.check_query("GET", "/w", Some("outpost=o")).is_none());
        assert!(f.check("GET", "/w").is_none());
    }

    #[test]
    fn creates_from_a_named_snapshot_or_target() {
        let f = Faults::new(
            parse_spec(
                r#"[{"method":"POST","path":"/daytona/api/sandbox$","snapshot":"bad","times":0,"action":{"kind":"status","status":400}},
                    {"method":"POST","path":"/daytona/api/sandbox$","target":"eu","times":0,"action":{"kind":"delay","ms":5}}]"#,
            )
            .unwrap(),
        );
        let create = |body: &str| {
            f.check_request("POST", "/daytona/api/sandbox", None, Some(body.as_bytes()))
        };
        assert!(matches!(
            create(r#"{"snapshot":"bad","target":"us"}"#),
            Some(FaultAction::Status { status: 400, .. })
        ));
        assert!(create(r#"{"snapshot":"good","target":"us"}"#).is_none());
        assert!(create(r#"{"snapshot":"bad-2"}"#).is_none());
        assert!(matches!(
            create(r#"{"snapshot":"good","target":"eu"}"#),
            Some(FaultAction::Delay { ms: 5 })
        ));
        assert!(create("not json").is_none());
        assert!(
            f.check_query("POST", "/daytona/api/sandbox", None)
                .is_none()
        );
    }
}
