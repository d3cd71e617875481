//! The Devin emulator's data and queue semantics, as plain functions of `(state, now)`.
//!
//! Mirrors the semantics the spec attributes to Cognition's mock of the real router
//! (specs/devin-outposts-api.md §5, §7):
//! - Every change gives its row a fresh *stamp*: a microsecond timestamp, strictly increasing
//!   across the whole queue, so stamps are unique. `metadata.updated_at` is the stamp in whole
//!   seconds; cursors are `base64("v1:<seconds>.<micros>")` of a stamp.
//! - Lists are keyset-ordered by stamp and return rows at or after the cursor (`>=`). A full
//!   page says `has_next_page` and its cursor is its last row's stamp, so the next page starts
//!   with that row again (pages overlap; clients dedup by session id, later pages win). A page
//!   that is not full ends the listing; its cursor marks "now". The server may serve fewer rows
//!   than `first` asks (`emulator start --page-size`).
//! - A watch event's cursor is the event's stamp. A watch replays rows at or after its cursor
//!   minus the replay window (`--watch-replay`, 50 ms by default, as in the model), so a resumed
//!   watch repeats its boundary event and anything just before it: delivery is at-least-once
//!   and nothing is lost, because any later change has a larger stamp.
//! - Lazy claim expiry when rows are read or claimed (no ticker), except for `running`
//!   sessions; CAS claims, granted for any `pending` row whatever its session status; renewal by
//!   the same acceptor with a fresh connect token; release only by the holder.
//! - Suspended/terminated rows linger as `phase=pending` after release until a sweeper
//!   tombstones them (`DELETED` on watch); tombstones never appear in lists.

use std::collections::BTreeMap;

use base64::Engine;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::tasks::{Task, TaskStatus};

/// Microseconds since the Unix epoch.
pub type Micros = i64;

pub fn now_us() -> Micros {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_micros() as i64)
        .unwrap_or(0)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RowPhase {
    Pending,
    Claimed,
}

impl RowPhase {
    pub fn as_str(self) -> &'static str {
        match self {
            RowPhase::Pending => "pending",
            RowPhase::Claimed => "claimed",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Pending,
    Running,
    Suspended,
    Terminated,
}

impl Status {
    pub fn parse(s: &str) -> Option<Status> {
        match s.trim().to_ascii_lowercase().as_str() {
            "pending" => Some(Status::Pending),
            "running" => Some(Status::Running),
            "suspended" => Some(Status::Suspended),
            "terminated" => Some(Status::Terminated),
            _ => None,
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pending => "pending",
            Status::Running => "running",
            Status::Suspended => "suspended",
            Status::Terminated => "terminated",
        }
    }
    /// The session is over (for now): its remote must exit and its row will be swept.
    pub fn ended(self) -> bool {
        matches!(self, Status::Suspended | Status::Terminated)
    }
}

/// A transient `suspended` read: the row shows `suspended` until `until_us`, then `restore`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Blip {
    pub until_us: Micros,
    pub restore: Status,
}

/// One queue row. A session has one row per generation; only the newest can be live.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Row {
    pub row_id: u64,
    pub session_id: String,
    pub outpost_id: String,
    pub generation: u32,
    pub created_us: Micros,
    pub stamp: Micros,
    pub kind: String,
    pub platform: String,
    pub remote_binary_sha: Option<String>,
    pub network_policy: Option<Value>,
    pub phase: RowPhase,
    pub acceptor_id: Option<String>,
    pub claim_deadline_us: Option<Micros>,
    /// What reads show (a blip shows `suspended`).
    pub status: Status,
    pub blip: Option<Blip>,
    pub ended_us: Option<Micros>,
    pub released_us: Option<Micros>,
    pub tombstoned: bool,
}

impl Row {
    /// The status behind a blip: what the brain really thinks.
    pub fn real_status(&self) -> Status {
        self.blip.as_ref().map(|b| b.restore).unwrap_or(self.status)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// `account.outposts.machine`: queue access, outpost reads.
    Machine,
    /// `account.outposts.orchestrator`: also create/delete outposts.
    Orchestrator,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ApiToken {
    pub token: String,
    pub scope: Scope,
    pub label: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct OutpostRow {
    pub outpost_id: String,
    pub account_id: String,
    pub name: String,
    pub platform: Option<String>,
    pub description: Option<String>,
    pub created_at: i64,
    pub seq: u64,
    /// Only its owner can start sessions on it: never an organisation default (v3 spec §4).
    #[serde(default)]
    pub personal: bool,
}

/// What a connect token was issued for.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Grant {
    pub session_id: String,
    pub row_id: u64,
    pub acceptor_id: String,
}

/// Per session (across generations): tasks and remote liveness.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct SessionMeta {
    pub generation: u32,
    pub tasks: Vec<Task>,
    pub remote_seen_us: Option<Micros>,
    pub remote_connects: u32,
}

/// One line of `GET /_emulator/history`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct HistoryRecord {
    pub seq: u64,
    pub at_ms: u64,
    /// `enqueue`, `claim`, `renew`, `claim_conflict`, `claim_refused`, `claim_missing`,
    /// `release`, `release_conflict`, `expire`, `status`, `remove`, `connect`, `task`.
    pub event: String,
    pub session_id: String,
    pub acceptor_id: Option<String>,
    /// Bumped on every resume: "one successful claim per session generation".
    pub generation: u32,
    pub detail: Option<String>,
}

/// An admin or API error: HTTP status and FastAPI-style `detail`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub status: u16,
    pub detail: String,
}

impl Refusal {
    pub fn new(status: u16, detail: impl Into<String>) -> Self {
        Refusal {
            status,
            detail: detail.into(),
        }
    }
}

/// Everything the Devin half keeps; serialised whole for `--state`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Queue {
    pub version: u32,
    pub account_id: String,
    pub tokens: Vec<ApiToken>,
    pub outposts: Vec<OutpostRow>,
    pub rows: Vec<Row>,
    pub sessions: BTreeMap<String, SessionMeta>,
    pub grants: BTreeMap<String, Grant>,
    /// Approved connects by SHA-256 of their one-time code (`connect.rs`).
    #[serde(default)]
    pub connect_codes: BTreeMap<String, super::connect::ConnectCode>,
    pub history: Vec<HistoryRecord>,
    pub last_stamp: Micros,
    pub next_row: u64,
    pub next_outpost_seq: u64,
    pub next_task: u64,
    /// The public v3 API's organisation, keys, sessions and default platform (`v3_state.rs`).
    #[serde(default)]
    pub v3: super::v3_state::V3State,
    /// Bumped by every mutation (rows, tasks, outposts): wakes watchers and long polls.
    #[serde(skip)]
    pub mutations: u64,
    /// Lookups kept off full scans of `rows` (derived; rebuilt after a load).
    #[serde(skip)]
    pub index: super::index::Index,
}

pub fn encode_cursor(us: Micros) -> String {
    let secs = us.div_euclid(1_000_000);
    let frac = us.rem_euclid(1_000_000);
    base64::engine::general_purpose::STANDARD.encode(format!("v1:{secs}.{frac:06}"))
}

/// Accepts our base64 form (standard or URL-safe, padded or not) and the raw `v1:<ts>` form.
pub fn decode_cursor(raw: &str) -> Option<Micros> {
    let raw = raw.trim();
    let text = if raw.starts_with("v1:") {
        raw.to_string()
    } else {
        use base64::engine::general_purpose::{
            STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD,
        };
        let bytes = [STANDARD, URL_SAFE, STANDARD_NO_PAD, URL_SAFE_NO_PAD]
            .iter()
            .find_map(|e| e.decode(raw).ok())?;
        String::from_utf8(bytes).ok()?
    };
    let ts = text.strip_prefix("v1:")?;
    let (secs, frac) = match ts.split_once('.') {
        Some((s, f)) => (s, f),
        None => (ts, ""),
    };
    if secs.is_empty()
        || !secs.bytes().all(|b| b.is_ascii_digit())
        || !frac.bytes().all(|b| b.is_ascii_digit())
        || secs.len() > 12
    {
        return None;
    }
    let mut micros: String = frac.chars().take(6).collect();
    while micros.len() < 6 {
        micros.push('0');
    }
    Some(secs.parse::<i64>().ok()? * 1_000_000 + micros.parse::<i64>().ok()?)
}

pub(super) fn secs(us: Micros) -> i64 {
    us.div_euclid(1_000_000)
}

fn ms(us: Micros) -> u64 {
    (us / 1000).max(0) as u64
}

pub(super) fn random_hex(n: usize) -> String {
    let mut s = String::new();
    while s.len() < n {
        s.push_str(&uuid::Uuid::new_v4().simple().to_string());
    }
    s.truncate(n);
    s
}

/// A machine-looking API token (`cog_` + 52 characters, like the real ones).
pub fn new_api_token() -> String {
    format!("cog_{}", random_hex(52))
}

pub fn valid_sha(s: &str) -> bool {
    (7..=64).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// A session id the emulator accepts from the admin API (anything printable; not a dot
/// segment, which no URL can carry).
pub fn valid_session_id(s: &str) -> bool {
    !s.trim().is_empty()
        && s != "."
        && s != ".."
        && s.len() <= 256
        && !s.chars().any(char::is_control)
}

impl Queue {
    /// A fresh queue with one outpost, one machine token and one orchestrator token.
    pub fn fresh(now: Micros) -> Queue {
        let mut q = Queue {
            version: 1,
            account_id: format!("account-{}", random_hex(16)),
            tokens: vec![
                ApiToken {
                    token: new_api_token(),
                    scope: Scope::Machine,
                    label: "outpost machine token".into(),
                },
                ApiToken {
                    token: new_api_token(),
                    scope: Scope::Orchestrator,
                    label: "orchestrator token".into(),
                },
            ],
            outposts: Vec::new(),
            rows: Vec::new(),
            sessions: BTreeMap::new(),
            grants: BTreeMap::new(),
            connect_codes: BTreeMap::new(),
            history: Vec::new(),
            last_stamp: 0,
            next_row: 1,
            next_outpost_seq: 1,
            next_task: 1,
            v3: Default::default(),
            mutations: 0,
            index: Default::default(),
        };
        let _ = q.create_outpost(
            "emulator",
            Some("linux"),
            Some("Created by `outposts emulator start`"),
            now,
        );
        q
    }

    pub fn token_scope(&self, token: &str) -> Option<Scope> {
        self.tokens
            .iter()
            .find(|t| t.token == token)
            .map(|t| t.scope)
    }

    pub fn first_token(&self, scope: Scope) -> Option<&str> {
        self.tokens
            .iter()
            .find(|t| t.scope == scope)
            .map(|t| t.token.as_str())
    }

    /// A fresh, unique, increasing stamp.
    pub fn stamp(&mut self, now: Micros) -> Micros {
        let s = now.max(self.last_stamp + 1);
        self.last_stamp = s;
        self.mutations += 1;
        s
    }

    /// The "now" cursor: every later change gets a stamp at or after it.
    pub fn now_cursor(&mut self, now: Micros) -> Micros {
        let c = now.max(self.last_stamp + 1);
        self.last_stamp = self.last_stamp.max(c - 1);
        c
    }

    pub fn record(
        &mut self,
        now: Micros,
        event: &str,
        session_id: &str,
        acceptor_id: Option<&str>,
        generation: u32,
        detail: Option<String>,
    ) {
        let seq = self.history.len() as u64 + 1;
        self.history.push(HistoryRecord {
            seq,
            at_ms: ms(now),
            event: event.to_string(),
            session_id: session_id.to_string(),
            acceptor_id: acceptor_id.map(str::to_string),
            generation,
            detail,
        });
    }

    pub fn live_index(&self, session_id: &str) -> Option<usize> {
        self.index
            .find_last(&self.rows, session_id, |r| !r.tombstoned)
    }

    pub fn latest_index(&self, session_id: &str) -> Option<usize> {
        self.index.find_last(&self.rows, session_id, |_| true)
    }

    /// The row with id `row_id` (row ids count rows from 1 as they are appended).
    pub fn row_by_id(&self, row_id: u64) -> Option<usize> {
        let guess = usize::try_from(row_id).ok()?.checked_sub(1)?;
        if self.rows.get(guess).is_some_and(|r| r.row_id == row_id) {
            return Some(guess);
        }
        self.rows.iter().position(|r| r.row_id == row_id)
    }

    /// Whether maintenance has anything to do for this row, now or later.
    fn wants_maintenance(r: &Row) -> bool {
        !r.tombstoned && (r.blip.is_some() || r.status.ended())
    }

    /// Expire claims, end blips, sweep ended rows. Run before every read.
    pub fn maintain(&mut self, now: Micros, sweep_delay_us: Micros) {
        for i in self.index.watched(&self.rows, Self::wants_maintenance) {
            let r = &self.rows[i];
            if !Self::wants_maintenance(r) {
                self.index.unwatch(i);
                continue;
            }
            if let Some(b) = &r.blip
                && b.until_us <= now
            {
                let restore = b.restore;
                let stamp = self.stamp(now);
                let r = &mut self.rows[i];
                r.status = restore;
                r.blip = None;
                r.stamp = stamp;
                let (sid, generation) = (r.session_id.clone(), r.generation);
                self.record(
                    now,
                    "status",
                    &sid,
                    None,
                    generation,
                    Some(format!("suspended→{} (blip over)", restore.as_str())),
                );
            }
            let r = &self.rows[i];
            if r.phase == RowPhase::Pending
                && r.blip.is_none()
                && r.status.ended()
                && r.ended_us.unwrap_or(now).max(r.released_us.unwrap_or(0)) + sweep_delay_us <= now
            {
                self.tombstone(i, now, "swept");
                self.index.unwatch(i);
            }
        }
    }

    /// Lazy claim expiry, run by the reads and claims that could observe a stale claim (never
    /// by a ticker, as in the model): a claim past its deadline returns the row to `pending`,
    /// unless the session is `running` (a live session is not taken from its worker).
    pub fn expire_stale(&mut self, now: Micros) {
        if !self.index.expiry_due(now) {
            return;
        }
        // The earliest deadline of a claim left in place (a running session's counts, past or
        // not: conservative, the next read scans again).
        let mut earliest: Option<Micros> = None;
        for i in 0..self.rows.len() {
            let r = &self.rows[i];
            if r.tombstoned || r.phase != RowPhase::Claimed {
                continue;
            }
            if let Some(d) = r.claim_deadline_us
                && (d > now || r.real_status() == Status::Running)
            {
                earliest = Some(earliest.map_or(d, |e| e.min(d)));
                continue;
            }
            if r.claim_deadline_us.is_none() {
                continue;
            }
            let stamp = self.stamp(now);
            let r = &mut self.rows[i];
            let acceptor = r.acceptor_id.take();
            r.phase = RowPhase::Pending;
            r.claim_deadline_us = None;
            r.released_us = Some(now);
            r.stamp = stamp;
            let (sid, generation) = (r.session_id.clone(), r.generation);
            self.record(now, "expire", &sid, acceptor.as_deref(), generation, None);
        }
        self.index.set_expiry_floor(earliest);
    }

    pub(super) fn tombstone(&mut self, i: usize, now: Micros, why: &str) {
        let stamp = self.stamp(now);
        let r = &mut self.rows[i];
        r.tombstoned = true;
        r.stamp = stamp;
        let (sid, generation, status) = (r.session_id.clone(), r.generation, r.status);
        self.record(
            now,
            "remove",
            &sid,
            None,
            generation,
            Some(format!("{why} ({})", status.as_str())),
        );
    }

    /// The wire entry. `claim` adds the connect token and gateway URL of a claim response.
    pub fn entry_json(row: &Row, claim: Option<(&str, &str)>) -> Value {
        json!({
            "metadata": {
                "session_id": row.session_id,
                "outpost_id": row.outpost_id,
                "created_at": secs(row.created_us),
                "updated_at": secs(row.stamp),
            },
            "spec": {
                "kind": row.kind,
                "platform": row.platform,
                "remote_binary_sha": row.remote_binary_sha,
                "network_policy": row.network_policy,
            },
            "status": {
                "phase": row.phase.as_str(),
                "acceptor_id": row.acceptor_id,
                "claim_deadline": row.claim_deadline_us.map(secs),
                "session_status": row.status.as_str(),
                "connect_token": claim.map(|c| c.0),
                "gateway_url": claim.map(|c| c.1),
            }
        })
    }

    pub fn meta(&mut self, session_id: &str) -> &mut SessionMeta {
        self.sessions.entry(session_id.to_string()).or_default()
    }

    pub fn next_task_id(&mut self) -> String {
        let id = format!("t{}", self.next_task);
        self.next_task += 1;
        id
    }

    /// Tasks of a session waiting for the remote.
    pub fn queued_task(&mut self, session_id: &str) -> Option<&mut Task> {
        self.sessions
            .get_mut(session_id)?
            .tasks
            .iter_mut()
            .find(|t| t.status == TaskStatus::Queued)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip_and_reject_garbage() {
        let us = 1_781_050_000_123_456;
        assert_eq!(decode_cursor(&encode_cursor(us)), Some(us));
        assert_eq!(
            decode_cursor("djE6MTc4MTA1MDAwMC4w"),
            Some(1_781_050_000_000_000)
        );
        assert_eq!(decode_cursor("v1:12.5"), Some(12_500_000));
        for bad in ["", "garbage!", "djE6", "v1:-3", "v1:abc", "v1:1.2.3"] {
            assert_eq!(decode_cursor(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn stamps_are_unique_even_when_the_clock_stalls_or_goes_back() {
        let mut q = Queue::fresh(1_000);
        let a = q.stamp(5_000);
        let b = q.stamp(5_000);
        let c = q.stamp(4_000);
        assert!(a < b && b < c);
        let now = q.now_cursor(1);
        assert!(q.stamp(1) >= now);
    }
}
