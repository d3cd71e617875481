//! The v3 half of the Devin emulator (specs/devin-sessions-api.md) as plain functions of the
//! queue: the organisation, its service-user keys and their permissions, v3 sessions routed by
//! `platform`, and the organisation's default platform.
//!
//! A v3 session on an outpost *is* a fleet session: creating one enqueues it in that outpost's
//! queue exactly like the admin API does, and its v3 status is read from the fleet row and the
//! fake remote's tasks (spec §3 "How the two surfaces meet"):
//! `new` (queued) → `claimed` → `running`/`working` → `running`/`finished` (every task done)
//! → `suspended` (reason `user_request`) / `exit` (terminated). A session on a hosted label or
//! on no platform is in no queue: the emulator has no hosted machines, so it stays `new`.
//! The default platform's rules are in `v3_default.rs`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::lifecycle::NewSession;
use super::state::{Micros, Queue, Refusal, RowPhase, Status, new_api_token, random_hex, secs};
use super::tasks::{Plan, TaskStatus, plan_task};

/// The hosted machine labels the emulated organisation offers.
pub const HOSTED: &[&str] = &["linux", "windows", "macos"];

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Permission {
    ManageOrgSessions,
    ViewOrgSessions,
    ManageOrgSettings,
    ImpersonateOrgSessions,
}

impl Permission {
    pub const ALL: [Permission; 4] = [
        Permission::ManageOrgSessions,
        Permission::ViewOrgSessions,
        Permission::ManageOrgSettings,
        Permission::ImpersonateOrgSessions,
    ];
    pub fn parse(s: &str) -> Option<Permission> {
        Permission::ALL
            .into_iter()
            .find(|p| format!("{p:?}").eq_ignore_ascii_case(s.trim()))
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct V3Key {
    pub key: String,
    pub permissions: Vec<Permission>,
    pub label: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct V3Session {
    pub session_id: String,
    pub title: Option<String>,
    pub tags: Vec<String>,
    /// The outpost whose queue holds it; `None` for a hosted label or no platform.
    pub outpost_id: Option<String>,
    pub created_us: Micros,
    pub updated_us: Micros,
    pub ended: bool,
    pub archived: bool,
    pub service_user_id: String,
    /// Made by a member in the web app (`emulator session new`), not through the v3 API.
    #[serde(default)]
    pub from_web_app: bool,
    /// `acus_consumed` as a test set it (`v3_usage.rs`); `None`: derived from its life.
    #[serde(default)]
    pub acus: Option<f64>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct DefaultSetting {
    pub platform: Option<String>,
    pub outpost_pool_id: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct V3State {
    pub org_id: String,
    pub keys: Vec<V3Key>,
    pub sessions: BTreeMap<String, V3Session>,
    pub default: DefaultSetting,
    /// An "Outposts-only" enterprise refuses hosted labels as the default.
    pub outposts_only: bool,
    /// A misbehaving Devin: write this text instead of the one a proof prompt asks for.
    pub proof_override: Option<String>,
}

impl Default for V3State {
    fn default() -> Self {
        V3State {
            org_id: format!("org-{}", random_hex(32)),
            keys: vec![V3Key {
                key: new_api_token(),
                permissions: vec![
                    Permission::ManageOrgSessions,
                    Permission::ViewOrgSessions,
                    Permission::ManageOrgSettings,
                ],
                label: "service user (all session and settings permissions)".into(),
            }],
            sessions: BTreeMap::new(),
            default: DefaultSetting::default(),
            outposts_only: false,
            proof_override: None,
        }
    }
}

/// The body of a 400: the message and what the organisation accepts.
pub(super) fn refused_platform(q: &Queue, message: String) -> (Refusal, Value) {
    let shared: Vec<Value> = q
        .outposts
        .iter()
        .filter(|o| !o.personal)
        .map(|o| json!({"id": o.outpost_id, "name": o.name}))
        .collect();
    let hosted: Vec<&str> = if q.v3.outposts_only {
        Vec::new()
    } else {
        HOSTED.to_vec()
    };
    let body = json!({
        "detail": message,
        "available_platforms": hosted,
        "available_outposts": shared,
    });
    (Refusal::new(400, message), body)
}

pub type Refused = (Refusal, Value);

pub(super) fn plain(status: u16, detail: impl Into<String>) -> Refused {
    let d = detail.into();
    (Refusal::new(status, d.clone()), json!({"detail": d}))
}

impl Queue {
    /// The permissions of a v3 key; `None` for anything else (fleet tokens included).
    pub fn v3_permissions(&self, key: &str) -> Option<&[Permission]> {
        self.v3
            .keys
            .iter()
            .find(|k| k.key == key)
            .map(|k| k.permissions.as_slice())
    }

    /// An outpost by name, case-insensitively: `Ok(None)` when none matches.
    pub(super) fn outpost_by_name(&self, name: &str) -> Result<Option<usize>, Refused> {
        let hits: Vec<usize> = (0..self.outposts.len())
            .filter(|&i| self.outposts[i].name.eq_ignore_ascii_case(name.trim()))
            .collect();
        match hits.len() {
            0 => Ok(None),
            1 => Ok(Some(hits[0])),
            _ => Err(refused_platform(
                self,
                format!("{name:?} matches several outposts; use its outpost_pool_id"),
            )),
        }
    }

    /// Where a created session goes: `Some(outpost)` or a hosted/no platform (`None`).
    fn route(&self, platform: Option<&str>) -> Result<Option<String>, Refused> {
        let p = platform.map(str::trim).filter(|p| !p.is_empty());
        match p {
            None => return Ok(self.v3.default.outpost_pool_id.clone()),
            Some(p) if p.eq_ignore_ascii_case("inherit") || p.eq_ignore_ascii_case("default") => {
                return Ok(self.v3.default.outpost_pool_id.clone());
            }
            // A platform label wins over an outpost of the same name.
            Some(p) if HOSTED.iter().any(|h| h.eq_ignore_ascii_case(p)) => return Ok(None),
            _ => {}
        }
        let p = p.unwrap_or_default();
        match self.outpost_by_name(p)? {
            Some(i) if !self.outposts[i].personal => Ok(Some(self.outposts[i].outpost_id.clone())),
            _ => Err(refused_platform(
                self,
                format!(
                    "Invalid platform {p:?}: not a platform or shared outpost of this organization"
                ),
            )),
        }
    }

    /// `POST …/sessions`.
    pub fn v3_create(&mut self, body: &Value, key: &str, now: Micros) -> Result<Value, Refused> {
        let Some(prompt) = body.get("prompt").and_then(Value::as_str) else {
            return Err(plain(422, "prompt: field required (a string)"));
        };
        if prompt.trim().is_empty() {
            return Err(plain(422, "prompt: must not be empty"));
        }
        let title = match body.get("title") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(_) => return Err(plain(422, "title: must be a string")),
        };
        let tags = match body.get("tags") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(a)) if a.iter().all(Value::is_string) => a
                .iter()
                .filter_map(|t| t.as_str().map(str::to_string))
                .collect(),
            Some(_) => return Err(plain(422, "tags: must be a list of strings")),
        };
        let platform = match body.get("platform") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.as_str()),
            Some(_) => return Err(plain(422, "platform: must be a string")),
        };
        let outpost_id = self.route(platform)?;
        let id = format!("devin-{}", uuid::Uuid::new_v4().simple());
        if let Some(o) = &outpost_id {
            let os = self
                .outposts
                .iter()
                .find(|x| &x.outpost_id == o)
                .and_then(|x| x.platform.clone());
            self.enqueue(
                &NewSession {
                    session_id: Some(id.clone()),
                    outpost: Some(o.clone()),
                    platform: os,
                    ..Default::default()
                },
                now,
            )
            .map_err(|r| plain(r.status, r.detail))?;
            // The emulated Devin takes the prompt as its task (a misbehaving one changes the text).
            let text = match (plan_task(prompt), &self.v3.proof_override) {
                (Plan::WriteFile { path, .. }, Some(other)) => format!(
                    "Write the exact text {other} to {path} and read the file back. Report its contents."
                ),
                _ => prompt.to_string(),
            };
            self.add_task(&id, &text, now)
                .map_err(|r| plain(r.status, r.detail))?;
        }
        let service_user_id = format!("service-user-{}", &key.get(4..16).unwrap_or("0"));
        self.v3.sessions.insert(
            id.clone(),
            V3Session {
                session_id: id.clone(),
                title,
                tags,
                outpost_id,
                created_us: now,
                updated_us: now,
                ended: false,
                archived: false,
                service_user_id,
                from_web_app: false,
                acus: None,
            },
        );
        self.mutations += 1;
        Ok(self.v3_json(&id, false).unwrap_or(Value::Null))
    }

    /// The v3 status and detail, read from the fleet row and the tasks.
    fn v3_status(&self, s: &V3Session) -> (&'static str, Option<&'static str>) {
        let row = self.latest_index(&s.session_id).map(|i| &self.rows[i]);
        let Some(r) = row.filter(|_| s.outpost_id.is_some()) else {
            return if s.ended {
                ("exit", None)
            } else {
                ("new", None)
            };
        };
        match r.status {
            Status::Terminated => ("exit", None),
            _ if s.ended => ("exit", None),
            Status::Suspended => ("suspended", Some("user_request")),
            Status::Pending if r.phase == RowPhase::Claimed && !r.tombstoned => ("claimed", None),
            Status::Pending => ("new", None),
            Status::Running => {
                let tasks = self
                    .sessions
                    .get(&s.session_id)
                    .map(|m| m.tasks.as_slice())
                    .unwrap_or_default();
                let busy = tasks
                    .iter()
                    .any(|t| matches!(t.status, TaskStatus::Queued | TaskStatus::Sent));
                let detail = if busy {
                    "working"
                } else if tasks.is_empty() {
                    "waiting_for_user"
                } else {
                    "finished"
                };
                ("running", Some(detail))
            }
        }
    }

    /// The SessionResponse; `detail` adds `status_detail` (get and list only, spec §3).
    pub fn v3_json(&self, id: &str, detail: bool) -> Option<Value> {
        let s = self.v3.sessions.get(id)?;
        let (status, status_detail) = self.v3_status(s);
        let updated = self
            .latest_index(id)
            .map(|i| self.rows[i].stamp)
            .unwrap_or(0)
            .max(s.updated_us);
        let mut v = json!({
            "session_id": s.session_id,
            "url": format!("https://app.devin.ai/sessions/{}", s.session_id.trim_start_matches("devin-")),
            "status": status,
            "tags": s.tags,
            "org_id": self.v3.org_id,
            "created_at": secs(s.created_us),
            "updated_at": secs(updated),
            "acus_consumed": super::v3_usage::acus(s, updated),
            "pull_requests": [],
            "title": s.title,
            "is_archived": s.archived,
        });
        if s.from_web_app {
            v["user_id"] = json!("user-emulator-member");
            v["origin"] = json!("webapp");
        } else {
            v["service_user_id"] = json!(s.service_user_id);
            v["origin"] = json!("api");
        }
        if detail {
            v["status_detail"] = json!(status_detail);
        }
        Some(v)
    }

    /// `DELETE …/sessions/{id}`: terminate the fleet session too.
    pub fn v3_end(&mut self, id: &str, archive: bool, now: Micros) -> Result<Value, Refused> {
        let Some(s) = self.v3.sessions.get(id) else {
            return Err(plain(404, format!("Session {id} not found")));
        };
        let queued = s.outpost_id.is_some();
        if queued
            && let Some(i) = self.latest_index(id)
            && self.rows[i].real_status() != Status::Terminated
        {
            self.terminate(id, now)
                .map_err(|r| plain(r.status, r.detail))?;
        }
        if let Some(s) = self.v3.sessions.get_mut(id) {
            s.ended = true;
            s.archived |= archive;
            s.updated_us = now;
        }
        self.mutations += 1;
        Ok(self.v3_json(id, false).unwrap_or(Value::Null))
    }

    /// `POST …/sessions/{id}/messages`: the emulated Devin takes it as another task.
    pub fn v3_message(&mut self, id: &str, body: &Value, now: Micros) -> Result<Value, Refused> {
        let Some(text) = body.get("message").and_then(Value::as_str) else {
            return Err(plain(422, "message: field required (a string)"));
        };
        let Some(s) = self.v3.sessions.get(id) else {
            return Err(plain(404, format!("Session {id} not found")));
        };
        if s.outpost_id.is_some() {
            self.add_task(id, text, now)
                .map_err(|r| plain(r.status, r.detail))?;
        }
        Ok(json!({"session_id": id, "message": text, "created_at": secs(now)}))
    }

    /// `GET …/sessions`: newest first, cursor = the index after the page.
    pub fn v3_list(
        &self,
        first: usize,
        after: Option<&str>,
        tags: &[String],
    ) -> Result<Value, Refused> {
        let mut all: Vec<&V3Session> = self
            .v3
            .sessions
            .values()
            .filter(|s| tags.iter().all(|t| s.tags.contains(t)))
            .collect();
        all.sort_by_key(|s| std::cmp::Reverse((s.created_us, s.session_id.clone())));
        let start = match after {
            None => 0,
            Some(c) => c
                .strip_prefix("c")
                .and_then(|n| n.parse::<usize>().ok())
                .ok_or_else(|| plain(422, "after: not a cursor this server issued"))?,
        };
        let page: Vec<Value> = all
            .iter()
            .skip(start)
            .take(first)
            .filter_map(|s| self.v3_json(&s.session_id, true))
            .collect();
        let end = start + page.len();
        Ok(json!({
            "items": page,
            "end_cursor": (!page.is_empty()).then(|| format!("c{end}")),
            "has_next_page": end < all.len(),
            "total": all.len(),
        }))
    }

    /// A session a member started in the web app (the admin API's `enqueue`): every session of
    /// the organisation is visible to its v3 API, whoever made it (spec §3 lists the org's
    /// sessions), so it can be shown and ended like one created there.
    pub fn v3_register_web_session(&mut self, id: &str, now: Micros) {
        let Some(outpost_id) = self
            .latest_index(id)
            .map(|i| self.rows[i].outpost_id.clone())
        else {
            return;
        };
        self.v3
            .sessions
            .entry(id.to_string())
            .or_insert_with(|| V3Session {
                session_id: id.to_string(),
                title: None,
                tags: Vec::new(),
                outpost_id: Some(outpost_id),
                created_us: now,
                updated_us: now,
                ended: false,
                archived: false,
                service_user_id: String::new(),
                from_web_app: true,
                acus: None,
            });
    }

    /// Admin: mint a key with exactly these permissions.
    pub fn v3_mint_key(&mut self, permissions: Vec<Permission>, label: &str) -> String {
        let key = new_api_token();
        self.v3.keys.push(V3Key {
            key: key.clone(),
            permissions,
            label: label.to_string(),
        });
        self.mutations += 1;
        key
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sessions_route_by_platform_and_follow_the_fleet() {
        let now = 1_700_000_000_000_000;
        let mut q = Queue::fresh(now);
        let key = q.v3.keys[0].key.clone();
        let body = json!({"prompt": "Write the exact text P to /tmp/p and read the file back.", "platform": "EMULATOR"});
        let s = q.v3_create(&body, &key, now).unwrap();
        let id = s["session_id"].as_str().unwrap().to_string();
        assert_eq!(s["status"], "new");
        assert!(q.live_index(&id).is_some(), "queued in the outpost");
        let hosted = q
            .v3_create(&json!({"prompt": "x", "platform": "linux"}), &key, now)
            .unwrap();
        assert!(
            q.live_index(hosted["session_id"].as_str().unwrap())
                .is_none()
        );
        let (r, b) = q
            .v3_create(&json!({"prompt": "x", "platform": "nosuch"}), &key, now)
            .unwrap_err();
        assert_eq!(r.status, 400);
        assert_eq!(b["available_outposts"][0]["name"], "emulator");
        assert_eq!(
            q.v3_create(&json!({}), &key, now).unwrap_err().0.status,
            422
        );
        let ended = q.v3_end(&id, true, now).unwrap();
        assert_eq!(ended["status"], "exit");
        assert_eq!(ended["is_archived"], true);
    }

    #[test]
    fn default_platform_refuses_personal_ambiguous_and_both() {
        let now = 1_700_000_000_000_000;
        let mut q = Queue::fresh(now);
        q.create_outpost("mine", None, None, now).unwrap();
        q.outposts[1].personal = true;
        assert_eq!(
            q.v3_set_default(&json!({"platform": "mine"}))
                .unwrap_err()
                .0
                .status,
            400
        );
        assert_eq!(
            q.v3_set_default(&json!({"platform": "linux", "outpost_pool_id": "x"}))
                .unwrap_err()
                .0
                .status,
            400
        );
        let set = q.v3_set_default(&json!({"platform": "Emulator"})).unwrap();
        assert_eq!(set["outpost_pool_name"], "emulator");
        q.v3.outposts_only = true;
        assert_eq!(
            q.v3_set_default(&json!({"platform": "linux"}))
                .unwrap_err()
                .0
                .status,
            400
        );
        let cleared = q.v3_set_default(&json!({})).unwrap();
        assert_eq!(
            cleared,
            json!({"platform": null, "outpost_pool_id": null, "outpost_pool_name": null})
        );
    }
}
