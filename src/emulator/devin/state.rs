//! The Devin emulator's data and queue semantics, as plain functions of `(state, now)`.
//!
//! Mirrors the semantics the spec attributes to Cognition's mock of the real router
//! (specs/devin-outposts-api.md §5, §7):
//! - Every change gives its row a fresh *stamp*: a microsecond timestamp, strictly increasing
//!   across the whole queue, so stamps are unique. `metadata.updated_at` is the stamp in whole
//!   seconds; cursors are `base64("v1:<seconds>.<micros>")` of a stamp.
//! - Lists are keyset-ordered by stamp and return rows at or after the cursor. A page's cursor
//!   points just past its last row, so an unchanged queue pages without duplicates; a row that
//!   changes between pages moves behind the cursor and shows up again (later pages win). The
//!   last page's cursor marks "now": a watch started there sees only later changes.
//! - A watch event's cursor points just past the event's stamp. Resuming from a saved event
//!   cursor replays only rows that changed after that event — the boundary event itself is not
//!   repeated — and nothing is lost, because any later change has a larger stamp.
//! - Lazy claim expiry on every read, except for `running` sessions; CAS claims; renewal by the
//!   same acceptor with a fresh connect token; release only by the holder.
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

pub enum ClaimResult {
    Won(Value),
    Conflict(String),
    NotFound,
}

pub enum ReleaseResult {
    Released(Value),
    NotHeld,
    NotFound,
}

/// Filters of a list request.
#[derive(Debug, Clone, Default)]
pub struct ListFilter {
    pub outpost: Option<String>,
    pub phase: Option<RowPhase>,
    pub acceptor_id: Option<String>,
}

pub struct ListResult {
    pub items: Vec<Value>,
    pub cursor: Micros,
    pub has_next_page: bool,
    pub total: usize,
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
    pub history: Vec<HistoryRecord>,
    pub last_stamp: Micros,
    pub next_row: u64,
    pub next_outpost_seq: u64,
    pub next_task: u64,
    /// Bumped by every mutation (rows, tasks, outposts): wakes watchers and long polls.
    #[serde(skip)]
    pub mutations: u64,
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

fn secs(us: Micros) -> i64 {
    us.div_euclid(1_000_000)
}

fn ms(us: Micros) -> u64 {
    (us / 1000).max(0) as u64
}

fn random_hex(n: usize) -> String {
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
            history: Vec::new(),
            last_stamp: 0,
            next_row: 1,
            next_outpost_seq: 1,
            next_task: 1,
            mutations: 0,
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
        self.rows
            .iter()
            .rposition(|r| r.session_id == session_id && !r.tombstoned)
    }

    pub fn latest_index(&self, session_id: &str) -> Option<usize> {
        self.rows.iter().rposition(|r| r.session_id == session_id)
    }

    /// Expire claims, end blips, sweep ended rows. Run before every read.
    pub fn maintain(&mut self, now: Micros, sweep_delay_us: Micros) {
        for i in 0..self.rows.len() {
            let r = &self.rows[i];
            if r.tombstoned {
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
            if r.phase == RowPhase::Claimed
                && r.claim_deadline_us.is_some_and(|d| d <= now)
                && r.real_status() != Status::Running
            {
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
            let r = &self.rows[i];
            if r.phase == RowPhase::Pending
                && r.blip.is_none()
                && r.status.ended()
                && r.ended_us.unwrap_or(now).max(r.released_us.unwrap_or(0)) + sweep_delay_us <= now
            {
                self.tombstone(i, now, "swept");
            }
        }
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

    pub fn list(
        &mut self,
        f: &ListFilter,
        first: usize,
        from: Option<Micros>,
        now: Micros,
    ) -> ListResult {
        let mut rows: Vec<&Row> = self
            .rows
            .iter()
            .filter(|r| !r.tombstoned)
            .filter(|r| f.outpost.as_ref().is_none_or(|o| &r.outpost_id == o))
            .filter(|r| f.phase.is_none_or(|p| r.phase == p))
            .filter(|r| {
                f.acceptor_id
                    .as_ref()
                    .is_none_or(|a| r.acceptor_id.as_ref() == Some(a))
            })
            .collect();
        rows.sort_by_key(|r| (r.stamp, r.row_id));
        let total = rows.len();
        let candidates: Vec<&Row> = rows
            .into_iter()
            .filter(|r| from.is_none_or(|c| r.stamp >= c))
            .collect();
        let has_next_page = candidates.len() > first;
        let page = &candidates[..candidates.len().min(first)];
        let items = page.iter().map(|r| Self::entry_json(r, None)).collect();
        let last = page.last().map(|r| r.stamp);
        let cursor = match (has_next_page, last) {
            (true, Some(s)) => s + 1,
            _ => self.now_cursor(now),
        };
        ListResult {
            items,
            cursor,
            has_next_page,
            total,
        }
    }

    /// Rows (tombstones included) of `outpost` changed at or after `from`, oldest first, as
    /// watch events with their stamps.
    pub fn watch_scan(&self, outpost: Option<&str>, from: Micros) -> Vec<(Micros, Value)> {
        let mut rows: Vec<&Row> = self
            .rows
            .iter()
            .filter(|r| r.stamp >= from)
            .filter(|r| outpost.is_none_or(|o| r.outpost_id == o))
            .collect();
        rows.sort_by_key(|r| (r.stamp, r.row_id));
        rows.into_iter()
            .map(|r| {
                let kind = if r.tombstoned { "DELETED" } else { "MODIFIED" };
                (
                    r.stamp,
                    json!({"type": kind, "object": Self::entry_json(r, None), "cursor": encode_cursor(r.stamp + 1)}),
                )
            })
            .collect()
    }

    pub fn claim(
        &mut self,
        session_id: &str,
        acceptor: &str,
        now: Micros,
        ttl_us: Micros,
        gateway_url: &str,
    ) -> ClaimResult {
        let Some(i) = self.live_index(session_id) else {
            self.record(now, "claim_missing", session_id, Some(acceptor), 0, None);
            return ClaimResult::NotFound;
        };
        let (phase, holder, status, generation) = {
            let r = &self.rows[i];
            (r.phase, r.acceptor_id.clone(), r.status, r.generation)
        };
        let renewal = phase == RowPhase::Claimed && holder.as_deref() == Some(acceptor);
        if !renewal {
            if phase == RowPhase::Claimed {
                self.record(
                    now,
                    "claim_conflict",
                    session_id,
                    Some(acceptor),
                    generation,
                    holder.map(|h| format!("held by {h}")),
                );
                return ClaimResult::Conflict("Session is already claimed".into());
            }
            // Documented choice: a suspended or terminated row (including a transient
            // `suspended` blip) is refused with 409, which clients already read as "not yours,
            // touch nothing".
            if status.ended() {
                self.record(
                    now,
                    "claim_refused",
                    session_id,
                    Some(acceptor),
                    generation,
                    Some(status.as_str().to_string()),
                );
                return ClaimResult::Conflict(format!("Session is {}", status.as_str()));
            }
        }
        let token = format!("ct_{}", random_hex(48));
        let stamp = self.stamp(now);
        let r = &mut self.rows[i];
        r.phase = RowPhase::Claimed;
        r.acceptor_id = Some(acceptor.to_string());
        r.claim_deadline_us = Some(now + ttl_us);
        r.released_us = None;
        r.stamp = stamp;
        let row_id = r.row_id;
        let body = Self::entry_json(r, Some((&token, gateway_url)));
        self.grants.insert(
            token,
            Grant {
                session_id: session_id.to_string(),
                row_id,
                acceptor_id: acceptor.to_string(),
            },
        );
        let event = if renewal { "renew" } else { "claim" };
        self.record(now, event, session_id, Some(acceptor), generation, None);
        ClaimResult::Won(body)
    }

    pub fn release(&mut self, session_id: &str, acceptor: &str, now: Micros) -> ReleaseResult {
        let Some(i) = self.live_index(session_id) else {
            return ReleaseResult::NotFound;
        };
        let r = &self.rows[i];
        let generation = r.generation;
        if r.phase != RowPhase::Claimed || r.acceptor_id.as_deref() != Some(acceptor) {
            let holder = r.acceptor_id.clone();
            self.record(
                now,
                "release_conflict",
                session_id,
                Some(acceptor),
                generation,
                Some(match holder {
                    Some(h) => format!("held by {h}"),
                    None => "not claimed".into(),
                }),
            );
            return ReleaseResult::NotHeld;
        }
        let stamp = self.stamp(now);
        let r = &mut self.rows[i];
        r.phase = RowPhase::Pending;
        r.acceptor_id = None;
        r.claim_deadline_us = None;
        r.released_us = Some(now);
        r.stamp = stamp;
        let body = Self::entry_json(r, None);
        self.record(now, "release", session_id, Some(acceptor), generation, None);
        ReleaseResult::Released(body)
    }

    /// Queue depth and active claims of one outpost.
    pub fn outpost_counts(&self, outpost_id: &str) -> (usize, usize) {
        let live = self
            .rows
            .iter()
            .filter(|r| !r.tombstoned && r.outpost_id == outpost_id);
        let (mut pending, mut claimed) = (0, 0);
        for r in live {
            match r.phase {
                RowPhase::Pending => pending += 1,
                RowPhase::Claimed => claimed += 1,
            }
        }
        (pending, claimed)
    }

    pub fn outpost_json(&self, o: &OutpostRow) -> Value {
        let (depth, claims) = self.outpost_counts(&o.outpost_id);
        json!({
            "metadata": {"outpost_id": o.outpost_id, "account_id": o.account_id, "created_at": o.created_at},
            "spec": {"name": o.name, "platform": o.platform, "description": o.description},
            "status": {"queue_depth": depth, "active_claims": claims},
        })
    }

    pub fn create_outpost(
        &mut self,
        name: &str,
        platform: Option<&str>,
        description: Option<&str>,
        now: Micros,
    ) -> Result<Value, Refusal> {
        let name = name.trim();
        if name.is_empty() || name.len() > 100 || name.chars().any(char::is_control) {
            return Err(Refusal::new(422, "name must be 1-100 printable characters"));
        }
        let platform = match platform.map(|p| p.trim().to_ascii_lowercase()) {
            None => None,
            Some(p) if p.is_empty() => None,
            Some(p) if matches!(p.as_str(), "linux" | "macos" | "windows") => Some(p),
            Some(p) => {
                return Err(Refusal::new(
                    422,
                    format!("platform must be one of linux, macos, windows (got {p:?})"),
                ));
            }
        };
        // Documented choice: a duplicate name (case-insensitive, per account) is 409.
        if self
            .outposts
            .iter()
            .any(|o| o.name.eq_ignore_ascii_case(name))
        {
            return Err(Refusal::new(
                409,
                format!("An outpost named {name:?} already exists"),
            ));
        }
        let row = OutpostRow {
            outpost_id: format!("outpost_env-{}", random_hex(32)),
            account_id: self.account_id.clone(),
            name: name.to_string(),
            platform,
            description: description.map(str::to_string),
            created_at: secs(now),
            seq: self.next_outpost_seq,
        };
        self.next_outpost_seq += 1;
        self.mutations += 1;
        let v = self.outpost_json(&row);
        self.outposts.push(row);
        Ok(v)
    }

    /// Queued sessions of a deleted outpost stay where they are (the real behaviour is
    /// unknown); they simply cannot be enqueued for it any more.
    pub fn delete_outpost(&mut self, id: &str) -> bool {
        let before = self.outposts.len();
        self.outposts.retain(|o| o.outpost_id != id);
        let gone = self.outposts.len() != before;
        if gone {
            self.mutations += 1;
        }
        gone
    }

    pub fn outposts_page(&self, first: usize, after: Option<u64>) -> Value {
        let mut all: Vec<&OutpostRow> = self.outposts.iter().collect();
        all.sort_by_key(|o| o.seq);
        let total = all.len();
        let rest: Vec<&OutpostRow> = all
            .into_iter()
            .filter(|o| after.is_none_or(|a| o.seq > a))
            .collect();
        let has_next = rest.len() > first;
        let page = &rest[..rest.len().min(first)];
        let end_cursor = page.last().map(|o| encode_outpost_cursor(o.seq));
        json!({
            "items": page.iter().map(|o| self.outpost_json(o)).collect::<Vec<_>>(),
            "end_cursor": end_cursor,
            "has_next_page": has_next,
            "total": total,
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

pub fn encode_outpost_cursor(seq: u64) -> String {
    base64::engine::general_purpose::STANDARD.encode(format!("o1:{seq}"))
}

pub fn decode_outpost_cursor(raw: &str) -> Option<u64> {
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(raw.trim())
        .ok()?;
    String::from_utf8(bytes)
        .ok()?
        .strip_prefix("o1:")?
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    const TTL: Micros = 300_000_000;

    fn queue_with(n: usize, now: Micros) -> (Queue, Vec<String>) {
        let mut q = Queue::fresh(now);
        let mut ids = Vec::new();
        for _ in 0..n {
            let id = q
                .enqueue(&Default::default(), now)
                .expect("enqueue")
                .remove(0);
            ids.push(id);
        }
        (q, ids)
    }

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

    #[test]
    fn pages_cover_everything_once_and_the_last_cursor_marks_now() {
        let now = 1_700_000_000_000_000;
        let (mut q, ids) = queue_with(7, now);
        let mut seen = Vec::new();
        let mut from = None;
        loop {
            let page = q.list(&ListFilter::default(), 3, from, now);
            assert_eq!(page.total, 7);
            for item in &page.items {
                seen.push(item["metadata"]["session_id"].as_str().unwrap().to_string());
            }
            from = Some(page.cursor);
            if !page.has_next_page {
                break;
            }
        }
        assert_eq!(seen, ids);
        // Nothing changed since: a watch from the final cursor replays nothing.
        assert!(q.watch_scan(None, from.unwrap()).is_empty());
        q.claim(&ids[0], "a", now + 1, TTL, "ws://g");
        let events = q.watch_scan(None, from.unwrap());
        assert_eq!(events.len(), 1);
        // Resuming from that event's cursor replays nothing more.
        let cursor = decode_cursor(events[0].1["cursor"].as_str().unwrap()).unwrap();
        assert!(q.watch_scan(None, cursor).is_empty());
    }

    #[test]
    fn claim_is_cas_renewal_refreshes_token_release_needs_holder() {
        let now = 1_700_000_000_000_000;
        let (mut q, ids) = queue_with(1, now);
        let id = &ids[0];
        let ClaimResult::Won(first) = q.claim(id, "a", now, TTL, "ws://g") else {
            panic!("first claim")
        };
        assert!(matches!(
            q.claim(id, "b", now, TTL, "ws://g"),
            ClaimResult::Conflict(_)
        ));
        let ClaimResult::Won(again) = q.claim(id, "a", now + 10_000_000, TTL, "ws://g") else {
            panic!("renewal")
        };
        assert_ne!(
            first["status"]["connect_token"],
            again["status"]["connect_token"]
        );
        assert!(
            again["status"]["claim_deadline"].as_i64() > first["status"]["claim_deadline"].as_i64()
        );
        assert!(matches!(q.release(id, "b", now), ReleaseResult::NotHeld));
        assert!(matches!(
            q.release(id, "a", now),
            ReleaseResult::Released(_)
        ));
        assert!(matches!(q.release(id, "a", now), ReleaseResult::NotHeld));
        assert!(matches!(
            q.claim("devin-nope", "a", now, TTL, "ws://g"),
            ClaimResult::NotFound
        ));
        let events: Vec<&str> = q.history.iter().map(|h| h.event.as_str()).collect();
        assert_eq!(
            events,
            vec![
                "enqueue",
                "claim",
                "claim_conflict",
                "renew",
                "release_conflict",
                "release",
                "release_conflict",
                "claim_missing"
            ]
        );
    }

    #[test]
    fn expiry_spares_running_sessions() {
        let now = 1_700_000_000_000_000;
        let (mut q, ids) = queue_with(2, now);
        q.claim(&ids[0], "a", now, 1_000_000, "ws://g");
        q.claim(&ids[1], "a", now, 1_000_000, "ws://g");
        let i = q.live_index(&ids[1]).unwrap();
        q.rows[i].status = Status::Running;
        q.maintain(now + 2_000_000, 10_000_000);
        assert_eq!(
            q.rows[q.live_index(&ids[0]).unwrap()].phase,
            RowPhase::Pending
        );
        assert_eq!(q.rows[i].phase, RowPhase::Claimed);
        // Another acceptor takes over the expired one, not the running one.
        assert!(matches!(
            q.claim(&ids[0], "b", now + 2_000_000, TTL, "ws://g"),
            ClaimResult::Won(_)
        ));
        assert!(matches!(
            q.claim(&ids[1], "b", now + 2_000_000, TTL, "ws://g"),
            ClaimResult::Conflict(_)
        ));
    }

    #[test]
    fn ended_rows_are_refused_linger_and_get_swept() {
        let now = 1_700_000_000_000_000;
        let (mut q, ids) = queue_with(1, now);
        let id = &ids[0];
        q.claim(id, "a", now, TTL, "ws://g");
        q.suspend(id, now).unwrap();
        // The holder may still renew (it is about to release); nobody else may claim.
        assert!(
            matches!(q.claim(id, "b", now, TTL, "ws://g"), ClaimResult::Conflict(m) if m.contains("already claimed"))
        );
        q.release(id, "a", now);
        assert!(
            matches!(q.claim(id, "b", now, TTL, "ws://g"), ClaimResult::Conflict(m) if m == "Session is suspended")
        );
        q.maintain(now + 500_000, 1_000_000);
        assert!(q.live_index(id).is_some(), "lingers until the sweep delay");
        q.maintain(now + 1_500_000, 1_000_000);
        assert!(q.live_index(id).is_none());
        let list = q.list(&ListFilter::default(), 100, None, now + 2_000_000);
        assert!(list.items.is_empty());
        let events = q.watch_scan(None, 0);
        assert_eq!(events.last().unwrap().1["type"], "DELETED");
        // Resume: a new generation with kind=resume.
        q.resume(id, now + 3_000_000).unwrap();
        let r = &q.rows[q.live_index(id).unwrap()];
        assert_eq!(
            (r.kind.as_str(), r.generation, r.status),
            ("resume", 2, Status::Pending)
        );
    }

    #[test]
    fn blips_read_suspended_then_restore_without_ending_the_session() {
        let now = 1_700_000_000_000_000;
        let (mut q, ids) = queue_with(1, now);
        let id = &ids[0];
        q.set_status(id, Status::Running, now).unwrap();
        q.blip(id, 1_000_000, now).unwrap();
        let i = q.live_index(id).unwrap();
        assert_eq!(q.rows[i].status, Status::Suspended);
        q.maintain(now + 500_000, 0);
        assert!(q.live_index(id).is_some(), "a blip is never swept");
        q.maintain(now + 1_000_000, 0);
        assert_eq!(q.rows[i].status, Status::Running);
    }

    #[test]
    fn outposts_page_and_refuse_duplicates() {
        let now = 1_700_000_000_000_000;
        let mut q = Queue::fresh(now);
        for i in 0..4 {
            q.create_outpost(&format!("o{i}"), None, None, now).unwrap();
        }
        assert_eq!(
            q.create_outpost("O1", None, None, now).unwrap_err().status,
            409
        );
        assert_eq!(
            q.create_outpost("x", Some("beos"), None, now)
                .unwrap_err()
                .status,
            422
        );
        let p1 = q.outposts_page(3, None);
        assert_eq!(p1["items"].as_array().unwrap().len(), 3);
        assert_eq!(p1["has_next_page"], true);
        assert_eq!(p1["total"], 5);
        let after = decode_outpost_cursor(p1["end_cursor"].as_str().unwrap());
        let p2 = q.outposts_page(3, after);
        assert_eq!(p2["items"].as_array().unwrap().len(), 2);
        assert_eq!(p2["has_next_page"], false);
    }
}
