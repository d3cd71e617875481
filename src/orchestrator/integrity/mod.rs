//! Sleep-integrity proof: before a session's sandbox is stopped (snapshotted on CoreWeave) a
//! manifest of its working tree and home is recorded inside the sandbox ([`script`]); after the
//! wake, before the remote launches, the same files are described again and compared. This file
//! is the pure part — bounds, the scripts' answers parsed, the verdict — table-tested below;
//! `hooks.rs` runs the scripts and reports, `store.rs` keeps the small per-session summary.

mod hooks;
mod script;
mod store;

use std::time::Duration;

use schemars::JsonSchema;

use crate::env;
use serde::{Deserialize, Serialize};

pub use hooks::IntegrityRow;
pub(super) use hooks::WakeChecks;

/// How many differing paths a WARN, an event and the status name.
pub const FIRST_PATHS: usize = 5;

/// The manifest's bounds (`INTEGRITY_*` in `env.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// Off: nothing recorded, nothing checked (the benchmark's baseline).
    pub enabled: bool,
    pub max_files: u64,
    pub hash_bytes: u64,
    /// Each of the walk and the hashing is cut at this.
    pub time: Duration,
}

pub(crate) const MIB: u64 = 1024 * 1024;

impl Default for Bounds {
    /// `env.rs`'s defaults.
    fn default() -> Self {
        Bounds {
            enabled: env::INTEGRITY_CHECK.default_str() == "on",
            max_files: env::INTEGRITY_MAX_FILES.default_count() as u64,
            hash_bytes: env::INTEGRITY_HASH_MIB.default_count() as u64 * MIB,
            time: env::INTEGRITY_TIMEOUT.default_duration(),
        }
    }
}

/// Differing manifest lines a wake check sends back (the first ones; the count is exact).
pub const DIFF_LINES: usize = 200;

/// What a wake found.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, PartialOrd, Ord,
)]
#[serde(rename_all = "snake_case")]
pub enum WakeResult {
    /// Every recorded file came back as it was.
    Intact,
    /// Some came back different (content, size, mode or mtime), none missing.
    Changed,
    /// Some recorded files (or the whole manifest) did not come back.
    Lost,
    /// Nothing to compare: the sleep recorded no manifest (Windows, tools missing, an error), or
    /// the check itself failed. Unknown, not intact.
    Unchecked,
}

impl WakeResult {
    pub const ALL: [WakeResult; 4] = [
        WakeResult::Intact,
        WakeResult::Changed,
        WakeResult::Lost,
        WakeResult::Unchecked,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            WakeResult::Intact => "intact",
            WakeResult::Changed => "changed",
            WakeResult::Lost => "lost",
            WakeResult::Unchecked => "unchecked",
        }
    }
}

/// What the state dir keeps of one sleep (small, whatever the tree's size).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Summary {
    /// Unix seconds.
    pub recorded_at: f64,
    pub files: u64,
    pub hashed: u64,
    pub hashed_bytes: u64,
    /// sha256 of the in-sandbox manifest: a manifest altered while asleep is caught too.
    pub digest: String,
    /// `count` or `time` when the manifest lists only part of the tree.
    pub truncated: Option<String>,
    /// Why nothing was recorded (the wake then reports `unchecked`).
    pub unchecked: Option<String>,
}

impl Summary {
    pub fn unchecked(why: impl Into<String>, at: f64) -> Self {
        Summary {
            recorded_at: at,
            unchecked: Some(why.into()),
            ..Summary::default()
        }
    }
}

/// The verdict of one wake check.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Verdict {
    pub result: WakeResult,
    /// Files the manifest lists.
    pub files: u64,
    /// Recorded files missing (at least this many when `at_least` is set).
    pub lost: u64,
    /// Recorded files that differ.
    pub changed: u64,
    /// The first paths lost, then the first changed ([`FIRST_PATHS`] at most).
    pub paths: Vec<String>,
    /// More differences than were named.
    pub more: bool,
    /// `lost` and `changed` count only the differences the check sent back (there were more
    /// than [`DIFF_LINES`] lines): lower bounds.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub at_least: bool,
    /// Why it is `unchecked`, or a note (a partial manifest, an altered manifest).
    pub detail: Option<String>,
}

impl Verdict {
    fn unchecked(files: u64, why: impl Into<String>) -> Self {
        Verdict {
            result: WakeResult::Unchecked,
            files,
            lost: 0,
            changed: 0,
            paths: Vec::new(),
            more: false,
            at_least: false,
            detail: Some(why.into()),
        }
    }

    /// One line for a log or a table: `lost 2 of 1000 files: a, b`.
    pub fn words(&self) -> String {
        let mut s = match self.result {
            WakeResult::Intact => format!("intact ({} files)", self.files),
            WakeResult::Unchecked => "unchecked".to_string(),
            WakeResult::Lost | WakeResult::Changed => {
                let mut parts = Vec::new();
                if self.lost > 0 {
                    parts.push(format!("{} lost", self.lost));
                }
                if self.changed > 0 {
                    parts.push(format!("{} changed", self.changed));
                }
                format!(
                    "{}{} of {} files: {}{}",
                    parts.join(", "),
                    if self.at_least { " (at least)" } else { "" },
                    self.files,
                    self.paths.join(", "),
                    if self.more { ", …" } else { "" }
                )
            }
        };
        if let Some(d) = &self.detail {
            s.push_str(&format!(" ({d})"));
        }
        s
    }
}

/// `outposts-integrity key=value …` from a script's output (its last such line).
fn status_line(stdout: &str) -> Option<Vec<(&str, &str)>> {
    let line = stdout
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("outposts-integrity "))?;
    Some(
        line.split_whitespace()
            .filter_map(|kv| kv.split_once('='))
            .collect(),
    )
}

fn field<'a>(pairs: &[(&str, &'a str)], key: &str) -> Option<&'a str> {
    pairs.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
}

fn number(pairs: &[(&str, &str)], key: &str) -> u64 {
    field(pairs, key).and_then(|v| v.parse().ok()).unwrap_or(0)
}

/// The summary a sleep's [`script::RECORD`] run leaves, from its output and exit code.
pub fn parse_record(stdout: &str, exit_code: i32, at: f64) -> Summary {
    let Some(pairs) = status_line(stdout) else {
        return Summary::unchecked(
            format!("the manifest script said nothing (exit {exit_code})"),
            at,
        );
    };
    match field(&pairs, "result") {
        Some("recorded") if field(&pairs, "digest").is_some_and(|d| d.len() == 64) => Summary {
            recorded_at: at,
            files: number(&pairs, "files"),
            hashed: number(&pairs, "hashed"),
            hashed_bytes: number(&pairs, "bytes"),
            digest: field(&pairs, "digest").unwrap_or_default().to_string(),
            truncated: field(&pairs, "truncated")
                .filter(|t| *t != "no")
                .map(str::to_string),
            unchecked: None,
        },
        _ => Summary::unchecked(
            match field(&pairs, "reason") {
                Some(r) => tool_reason(r),
                None => format!("the manifest script failed (exit {exit_code})"),
            },
            at,
        ),
    }
}

fn tool_reason(r: &str) -> String {
    match r.strip_prefix("no-") {
        Some("home") => "the sandbox's home is not writable".to_string(),
        Some(tool) => format!("`{tool}` is missing in the sandbox"),
        None => r.to_string(),
    }
}

/// Compare a wake's [`script::CHECK`] output with what the sleep recorded.
pub fn judge(recorded: &Summary, stdout: &str, exit_code: i32) -> Verdict {
    if let Some(why) = &recorded.unchecked {
        return Verdict::unchecked(0, format!("nothing recorded at sleep: {why}"));
    }
    let files = recorded.files;
    let Some(pairs) = status_line(stdout) else {
        return Verdict::unchecked(
            files,
            format!("the check script said nothing (exit {exit_code})"),
        );
    };
    match field(&pairs, "result") {
        Some("missing") => {
            return Verdict {
                result: WakeResult::Lost,
                files,
                lost: files,
                changed: 0,
                paths: vec!["~/.outposts-integrity/manifest".into()],
                more: files > 0,
                at_least: false,
                detail: Some("the manifest recorded at sleep is gone: so is the home".into()),
            };
        }
        Some("checked") => {}
        Some(_) => {
            return Verdict::unchecked(
                files,
                match field(&pairs, "reason") {
                    Some(r) => tool_reason(r),
                    None => format!("the check script failed (exit {exit_code})"),
                },
            );
        }
        None => return Verdict::unchecked(files, "the check script's answer has no result"),
    }
    let differences = number(&pairs, "differences");
    let lines = stdout.lines().filter(|l| l.starts_with(['-', '+'])).count() as u64;
    let (lost, changed) = classify(stdout, differences > lines);
    let shown = (lost.len() + changed.len()) as u64;
    // Each changed path shows as two lines, a lost one as one.
    let listed_lines = lost.len() as u64 + 2 * changed.len() as u64;
    let more = differences > listed_lines;
    let mut detail = recorded
        .truncated
        .as_ref()
        .map(|t| format!("manifest cut by {t}: the first {files} files only"));
    if field(&pairs, "digest") != Some(recorded.digest.as_str()) {
        detail = Some("the manifest itself was altered while asleep".into());
        if shown == 0 {
            return Verdict {
                result: WakeResult::Changed,
                files,
                lost: 0,
                changed: 0,
                paths: vec!["~/.outposts-integrity/manifest".into()],
                more: false,
                at_least: false,
                detail,
            };
        }
    }
    let result = if !lost.is_empty() {
        WakeResult::Lost
    } else if !changed.is_empty() || differences > 0 {
        WakeResult::Changed
    } else {
        WakeResult::Intact
    };
    let paths = lost
        .iter()
        .chain(changed.iter())
        .take(FIRST_PATHS)
        .cloned()
        .collect::<Vec<_>>();
    Verdict {
        result,
        files,
        lost: lost.len() as u64,
        changed: changed.len() as u64,
        more: more || shown > paths.len() as u64,
        at_least: more,
        paths,
        detail,
    }
}

/// The check's `-line`/`+line` pairs: a path recorded and not found is lost; found with other
/// attributes, changed. A path found but not recorded cannot appear (only recorded paths are
/// described again). Both lists in the manifest's order. `cut`: the lines stop before the
/// differences do, so a last `-line` may have lost its `+line` to the cut: not called lost.
fn classify(stdout: &str, cut: bool) -> (Vec<String>, Vec<String>) {
    let mut recorded: Vec<&str> = Vec::new();
    let mut found = std::collections::BTreeSet::new();
    for line in stdout.lines() {
        let path = |l: &str| l.split('\t').next().unwrap_or_default().to_string();
        if let Some(l) = line.strip_prefix('-') {
            recorded.push(l);
        } else if let Some(l) = line.strip_prefix('+') {
            found.insert(path(l));
        }
    }
    let last_is_recorded = stdout
        .lines()
        .rev()
        .find(|l| l.starts_with(['-', '+']))
        .is_some_and(|l| l.starts_with('-'));
    if cut && last_is_recorded {
        recorded.pop();
    }
    let mut lost = Vec::new();
    let mut changed = Vec::new();
    for l in recorded {
        let p = l.split('\t').next().unwrap_or_default().to_string();
        if found.contains(&p) {
            changed.push(p);
        } else {
            lost.push(p);
        }
    }
    (lost, changed)
}

#[cfg(test)]
mod tests;
