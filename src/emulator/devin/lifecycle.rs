//! Session lifecycle driven by the admin API (the emulated "brain"): enqueue, suspend, resume,
//! terminate, status changes and transient `suspended` blips; and the admin view of sessions.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::state::{
    Blip, Micros, Queue, Refusal, Row, RowPhase, Status, now_us, valid_session_id, valid_sha,
};
use super::tasks::TaskInfo;

/// Body of `POST /_emulator/sessions`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct NewSession {
    /// Explicit id (any printable text, for hostile-id tests); default `devin-<32 hex>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// Outpost id; default the emulator's first outpost.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outpost: Option<String>,
    /// `linux` (default), `windows` or `macos`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform: Option<String>,
    /// `new` (default) or `resume`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// Pinned `remote_binary_sha` (7–64 hex); default the published build
    /// ([`super::remote::CURRENT_SHA`]), `none` for no pin.
    #[serde(default, alias = "sha", skip_serializing_if = "Option::is_none")]
    pub remote_binary_sha: Option<String>,
    /// Initial `session_status` (default `pending`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// A task for the remote (see the task grammar in `tasks.rs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub network_policy: Option<Value>,
    /// How many sessions to create (1–1000, default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u32>,
}

/// The admin view of one session (its newest row plus tasks and remote liveness).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
pub struct SessionInfo {
    pub session_id: String,
    pub outpost_id: String,
    pub generation: u32,
    pub kind: String,
    pub platform: String,
    pub remote_binary_sha: Option<String>,
    /// Whether a (non-tombstoned) queue entry exists.
    pub in_queue: bool,
    pub phase: String,
    /// As reads show it (a blip shows `suspended`).
    pub session_status: String,
    /// Whether `session_status` is a transient blip.
    pub blip: bool,
    pub acceptor_id: Option<String>,
    pub claim_deadline: Option<i64>,
    pub created_at: i64,
    pub updated_at: i64,
    /// The fake remote polled the gateway in the last 30 s.
    pub remote_connected: bool,
    pub remote_connects: u32,
    pub tasks: Vec<TaskInfo>,
}

/// The queue's view of one session at an instant (for the provider mutation journal).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SessionView {
    /// Whether a (non-tombstoned) queue entry exists.
    pub in_queue: bool,
    pub generation: u32,
    /// `pending`, `claimed`, or `removed` (tombstoned).
    pub phase: String,
    pub acceptor_id: Option<String>,
    /// As reads show it (a blip shows `suspended`).
    pub status: String,
    /// What the brain really thinks (behind a blip).
    pub real_status: String,
}

struct NewRow<'a> {
    session_id: &'a str,
    outpost_id: &'a str,
    kind: &'a str,
    platform: &'a str,
    sha: Option<&'a str>,
    network_policy: Option<Value>,
    status: Status,
    now: Micros,
}

fn parse_status(s: &str) -> Result<Status, Refusal> {
    Status::parse(s).ok_or_else(|| {
        Refusal::new(
            422,
            format!("status must be pending, running, suspended or terminated (got {s:?})"),
        )
    })
}

/// `value`, lower-cased (the first of `allowed` when absent), when it is one of `allowed`.
fn one_of(
    field: &str,
    value: Option<&str>,
    allowed: &[&str],
    listed: &str,
) -> Result<String, Refusal> {
    let v = value.unwrap_or(allowed[0]).trim().to_ascii_lowercase();
    if !allowed.contains(&v.as_str()) {
        return Err(Refusal::new(
            422,
            format!("{field} must be {listed} (got {v:?})"),
        ));
    }
    Ok(v)
}

/// The remote build a new session is pinned to.
fn pinned_sha(sha: Option<&str>) -> Result<Option<&str>, Refusal> {
    // Pinned to the published build by default, like Devin's own sessions; `none` leaves
    // the pin out (the spec allows a null pin: the client then asks for `latest_*`).
    let sha = match sha.map(str::trim) {
        None | Some("") => Some(super::remote::CURRENT_SHA),
        Some(s) if s.eq_ignore_ascii_case("none") || s.eq_ignore_ascii_case("null") => None,
        Some(s) => Some(s),
    };
    if let Some(s) = sha
        && !valid_sha(s)
    {
        return Err(Refusal::new(
            422,
            format!("remote_binary_sha must be 7-64 hex digits (got {s:?})"),
        ));
    }
    Ok(sha)
}

impl Queue {
    /// The outpost a new session goes to: the named one (id or name), else the first.
    fn outpost_for(&self, outpost: Option<&str>) -> Result<String, Refusal> {
        match outpost {
            Some(o) => {
                let o = o.trim();
                self.outposts
                    .iter()
                    .find(|x| x.outpost_id == o || x.name == o)
                    .map(|x| x.outpost_id.clone())
                    .ok_or_else(|| Refusal::new(404, format!("no outpost {o:?}")))
            }
            None => self
                .outposts
                .first()
                .map(|o| o.outpost_id.clone())
                .ok_or_else(|| Refusal::new(404, "the emulator has no outposts left")),
        }
    }

    pub fn enqueue(&mut self, spec: &NewSession, now: Micros) -> Result<Vec<String>, Refusal> {
        let count = spec.count.unwrap_or(1);
        if !(1..=1000).contains(&count) {
            return Err(Refusal::new(422, "count must be between 1 and 1000"));
        }
        if spec.session_id.is_some() && count > 1 {
            return Err(Refusal::new(
                422,
                "session_id and count > 1 exclude each other",
            ));
        }
        let outpost_id = self.outpost_for(spec.outpost.as_deref())?;
        let platform = one_of(
            "platform",
            spec.platform.as_deref(),
            &["linux", "windows", "macos"],
            "linux, windows or macos",
        )?;
        let kind = one_of(
            "kind",
            spec.kind.as_deref(),
            &["new", "resume"],
            "new or resume",
        )?;
        let sha = pinned_sha(spec.remote_binary_sha.as_deref())?;
        let status = match &spec.status {
            Some(s) => parse_status(s)?,
            None => Status::Pending,
        };
        if let Some(id) = &spec.session_id {
            if !valid_session_id(id) {
                return Err(Refusal::new(
                    422,
                    "session_id must be 1-256 printable characters and not `.` or `..`",
                ));
            }
            if self.live_index(id).is_some() {
                return Err(Refusal::new(
                    409,
                    format!("session {id:?} is already queued"),
                ));
            }
        }
        let mut ids = Vec::new();
        for _ in 0..count {
            let id = spec
                .session_id
                .clone()
                .unwrap_or_else(|| format!("devin-{}", uuid::Uuid::new_v4().simple()));
            self.push_row(NewRow {
                session_id: &id,
                outpost_id: &outpost_id,
                kind: &kind,
                platform: &platform,
                sha,
                network_policy: spec.network_policy.clone(),
                status,
                now,
            });
            if let Some(text) = &spec.task {
                self.add_task(&id, text, now)?;
            }
            ids.push(id);
        }
        Ok(ids)
    }

    fn push_row(&mut self, n: NewRow<'_>) {
        let generation = {
            let meta = self.meta(n.session_id);
            meta.generation += 1;
            meta.generation
        };
        let stamp = self.stamp(n.now);
        self.rows.push(Row {
            row_id: self.next_row,
            session_id: n.session_id.to_string(),
            outpost_id: n.outpost_id.to_string(),
            generation,
            created_us: n.now,
            stamp,
            kind: n.kind.to_string(),
            platform: n.platform.to_string(),
            remote_binary_sha: n.sha.map(str::to_string),
            network_policy: n.network_policy,
            phase: RowPhase::Pending,
            acceptor_id: None,
            claim_deadline_us: None,
            status: n.status,
            blip: None,
            ended_us: n.status.ended().then_some(n.now),
            released_us: None,
            tombstoned: false,
        });
        self.next_row += 1;
        if n.status.ended() {
            self.index.watch(self.rows.len() - 1);
        }
        self.record(
            n.now,
            "enqueue",
            n.session_id,
            None,
            generation,
            Some(format!("kind={} status={}", n.kind, n.status.as_str())),
        );
    }

    fn live_or_refuse(&self, session_id: &str) -> Result<usize, Refusal> {
        if let Some(i) = self.live_index(session_id) {
            return Ok(i);
        }
        match self.latest_index(session_id) {
            Some(i) => Err(Refusal::new(
                409,
                format!(
                    "session {session_id:?} has no queue entry (it is {})",
                    self.rows[i].status.as_str()
                ),
            )),
            None => Err(Refusal::new(404, format!("no session {session_id:?}"))),
        }
    }

    /// Change the real status of the live row (ends any blip).
    fn change_status(&mut self, i: usize, to: Status, now: Micros) {
        let stamp = self.stamp(now);
        let r = &mut self.rows[i];
        let from = r.real_status();
        r.status = to;
        r.blip = None;
        r.stamp = stamp;
        if to.ended() && !from.ended() {
            r.ended_us = Some(now);
        }
        if !to.ended() {
            r.ended_us = None;
        }
        if to.ended() {
            self.index.watch(i);
        }
        let (sid, generation) = (r.session_id.clone(), r.generation);
        self.record(
            now,
            "status",
            &sid,
            None,
            generation,
            Some(format!("{}→{}", from.as_str(), to.as_str())),
        );
    }

    /// The session goes to sleep: the remote is told to exit; the row lingers until released
    /// (or its claim expires) and swept.
    pub fn suspend(&mut self, session_id: &str, now: Micros) -> Result<(), Refusal> {
        let i = self.live_or_refuse(session_id)?;
        let real = self.rows[i].real_status();
        if real.ended() {
            return Err(Refusal::new(
                409,
                format!("session {session_id:?} is already {}", real.as_str()),
            ));
        }
        self.change_status(i, Status::Suspended, now);
        Ok(())
    }

    /// The session ends for good. Works on a live row, and on a suspended session whose row was
    /// already swept: its tombstone is re-stamped, so watchers see a `DELETED` event that says
    /// `terminated`.
    pub fn terminate(&mut self, session_id: &str, now: Micros) -> Result<(), Refusal> {
        let i = match self.live_index(session_id) {
            Some(i) => i,
            None => self
                .latest_index(session_id)
                .ok_or_else(|| Refusal::new(404, format!("no session {session_id:?}")))?,
        };
        if self.rows[i].real_status() == Status::Terminated {
            return Err(Refusal::new(
                409,
                format!("session {session_id:?} is already terminated"),
            ));
        }
        self.change_status(i, Status::Terminated, now);
        Ok(())
    }

    /// Wake a suspended session: a new pending row with the same id, `kind=resume`, and the
    /// next generation. A suspended row still in the queue is tombstoned first (the brain has
    /// moved on); its holder's next release answers 409.
    pub fn resume(&mut self, session_id: &str, now: Micros) -> Result<(), Refusal> {
        let i = self
            .latest_index(session_id)
            .ok_or_else(|| Refusal::new(404, format!("no session {session_id:?}")))?;
        let real = self.rows[i].real_status();
        if real != Status::Suspended {
            return Err(Refusal::new(
                409,
                format!("session {session_id:?} is {}, not suspended", real.as_str()),
            ));
        }
        if !self.rows[i].tombstoned {
            self.tombstone(i, now, "replaced by resume");
        }
        // The outpost may have been deleted since; the session stays on it regardless.
        let old = self.rows[i].clone();
        self.push_row(NewRow {
            session_id,
            outpost_id: &old.outpost_id,
            kind: "resume",
            platform: &old.platform,
            sha: old.remote_binary_sha.as_deref(),
            network_policy: old.network_policy.clone(),
            status: Status::Pending,
            now,
        });
        Ok(())
    }

    /// Set `session_status` directly (e.g. `running` without a remote).
    pub fn set_status(&mut self, session_id: &str, to: Status, now: Micros) -> Result<(), Refusal> {
        let i = self.live_or_refuse(session_id)?;
        if self.rows[i].real_status() == to && self.rows[i].blip.is_none() {
            return Ok(());
        }
        self.change_status(i, to, now);
        Ok(())
    }

    /// Read `suspended` for `dur_us`, then go back: the "transient suspended" peers report.
    pub fn blip(&mut self, session_id: &str, dur_us: Micros, now: Micros) -> Result<(), Refusal> {
        let i = self.live_or_refuse(session_id)?;
        let real = self.rows[i].real_status();
        if real.ended() {
            return Err(Refusal::new(
                409,
                format!("session {session_id:?} is really {}", real.as_str()),
            ));
        }
        let stamp = self.stamp(now);
        let r = &mut self.rows[i];
        r.blip = Some(Blip {
            until_us: now + dur_us.max(1),
            restore: real,
        });
        r.status = Status::Suspended;
        r.stamp = stamp;
        self.index.watch(i);
        let (sid, generation) = (r.session_id.clone(), r.generation);
        self.record(
            now,
            "status",
            &sid,
            None,
            generation,
            Some(format!(
                "{}→suspended (blip {} ms)",
                real.as_str(),
                dur_us / 1000
            )),
        );
        Ok(())
    }

    pub fn session_view(&self, session_id: &str) -> Option<SessionView> {
        let i = self.latest_index(session_id)?;
        let r = &self.rows[i];
        Some(SessionView {
            in_queue: !r.tombstoned,
            generation: r.generation,
            phase: if r.tombstoned {
                "removed".into()
            } else {
                r.phase.as_str().into()
            },
            acceptor_id: r.acceptor_id.clone(),
            status: r.status.as_str().into(),
            real_status: r.real_status().as_str().into(),
        })
    }

    pub fn session_info(&self, session_id: &str) -> Option<SessionInfo> {
        let i = self.latest_index(session_id)?;
        let r = &self.rows[i];
        let meta = self.sessions.get(session_id);
        let now = now_us();
        Some(SessionInfo {
            session_id: r.session_id.clone(),
            outpost_id: r.outpost_id.clone(),
            generation: r.generation,
            kind: r.kind.clone(),
            platform: r.platform.clone(),
            remote_binary_sha: r.remote_binary_sha.clone(),
            in_queue: !r.tombstoned,
            phase: if r.tombstoned {
                "removed".into()
            } else {
                r.phase.as_str().into()
            },
            session_status: r.status.as_str().into(),
            blip: r.blip.is_some(),
            acceptor_id: r.acceptor_id.clone(),
            claim_deadline: r.claim_deadline_us.map(|d| d.div_euclid(1_000_000)),
            created_at: r.created_us.div_euclid(1_000_000),
            updated_at: r.stamp.div_euclid(1_000_000),
            remote_connected: meta
                .and_then(|m| m.remote_seen_us)
                .is_some_and(|t| now - t < 30_000_000),
            remote_connects: meta.map(|m| m.remote_connects).unwrap_or(0),
            tasks: meta
                .map(|m| m.tasks.iter().map(|t| t.info()).collect())
                .unwrap_or_default(),
        })
    }

    /// Every session, oldest first.
    pub fn session_infos(&self) -> Vec<SessionInfo> {
        let mut ids: Vec<(u64, &str)> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for r in &self.rows {
            if seen.insert(r.session_id.as_str()) {
                ids.push((r.row_id, r.session_id.as_str()));
            }
        }
        ids.iter()
            .filter_map(|(_, id)| self.session_info(id))
            .collect()
    }
}
