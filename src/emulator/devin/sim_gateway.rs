//! The gateway's side of a *simulated* remote (`emulator start --sandboxes simulated`): the
//! same answers the fake remote gets over HTTP (`gateway.rs`, protocol in `tasks.rs`), given
//! in-process and for many remotes under one lock, so that ten thousand simulated remotes cost
//! one pass over the queue per tick instead of one long poll (and one queue scan) each.

use base64::Engine;

use super::DevinEmu;
use super::state::RowPhase;
use super::tasks::Reply;

/// What a simulated remote learns from the gateway.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SimPoll {
    /// Connected (or still connected): keep serving.
    Live,
    /// The session ended (`exit <reason>`): the remote exits 0.
    Ended(String),
    /// The gateway refused the token (401): the remote exits 1, as the fake remote does.
    Refused(String),
    /// A task to carry out: write `content` to `path`.
    Write {
        task: String,
        path: String,
        content: Vec<u8>,
    },
    /// A task to carry out: run a shell command (a simulated sandbox has no shell).
    Run { task: String },
}

fn from_reply(r: Reply) -> SimPoll {
    match r {
        Reply::Unauthorized(m) => SimPoll::Refused(m),
        Reply::Line(l) => {
            let mut words = l.split_whitespace();
            match words.next() {
                Some("ok") | Some("wait") => SimPoll::Live,
                Some("exit") => SimPoll::Ended(words.next().unwrap_or("").to_string()),
                Some("write") => {
                    let b64 = base64::engine::general_purpose::STANDARD;
                    let task = words.next().unwrap_or("").to_string();
                    let path = words
                        .next()
                        .and_then(|p| b64.decode(p).ok())
                        .map(|p| String::from_utf8_lossy(&p).into_owned())
                        .unwrap_or_default();
                    let content = match words.next() {
                        Some("-") | None => Vec::new(),
                        Some(c) => b64.decode(c).unwrap_or_default(),
                    };
                    SimPoll::Write {
                        task,
                        path,
                        content,
                    }
                }
                Some("run") => SimPoll::Run {
                    task: words.next().unwrap_or("").to_string(),
                },
                _ => SimPoll::Live,
            }
        }
    }
}

impl DevinEmu {
    /// `POST /gateway/connect` for a simulated remote.
    pub fn sim_connect(&self, token: &str, session_id: &str) -> SimPoll {
        from_reply(self.with(|q, now| q.gateway_connect(token, Some(session_id), now)))
    }

    /// `GET /gateway/next` for many simulated remotes at once (`(token, session id)` each), in
    /// one pass: a row index built once replaces the per-call scan of `gate`, whose rules this
    /// follows (unknown token or another session's → refused; an ended, replaced or removed
    /// session → ended; a released or taken-over claim → refused). Only a remote with a queued
    /// task goes through the full `gateway_next`, which hands the task over.
    pub fn sim_poll(&self, remotes: &[(String, String)]) -> Vec<SimPoll> {
        self.with(|q, now| {
            let mut out = Vec::with_capacity(remotes.len());
            for (token, session) in remotes {
                let Some(grant) = q.grants.get(token) else {
                    out.push(SimPoll::Refused("invalid connect token".into()));
                    continue;
                };
                if &grant.session_id != session {
                    out.push(SimPoll::Refused(
                        "this connect token belongs to another session".into(),
                    ));
                    continue;
                }
                let Some(i) = q.row_by_id(grant.row_id) else {
                    out.push(SimPoll::Refused("invalid connect token".into()));
                    continue;
                };
                let r = &q.rows[i];
                let real = r.real_status();
                if real.ended() {
                    out.push(SimPoll::Ended(real.as_str().into()));
                    continue;
                }
                if r.tombstoned {
                    out.push(SimPoll::Ended("removed".into()));
                    continue;
                }
                if r.phase != RowPhase::Claimed
                    || r.acceptor_id.as_deref() != Some(&grant.acceptor_id)
                {
                    out.push(SimPoll::Refused("stale connect token".into()));
                    continue;
                }
                let queued = q.sessions.get(session).is_some_and(|m| {
                    m.tasks
                        .iter()
                        .any(|t| t.status == super::tasks::TaskStatus::Queued)
                });
                if queued {
                    let token = token.clone();
                    out.push(
                        q.gateway_next(&token, Some(session), now)
                            .map(from_reply)
                            .unwrap_or(SimPoll::Live),
                    );
                } else {
                    if let Some(m) = q.sessions.get_mut(session) {
                        m.remote_seen_us = Some(now);
                    }
                    out.push(SimPoll::Live);
                }
            }
            out
        })
    }

    /// `POST /gateway/result` for a simulated remote.
    pub fn sim_result(&self, token: &str, task: &str, ok: bool, code: i32, output: &[u8]) {
        let _ = self.with(|q, now| q.gateway_result(token, task, ok, Some(code), output, now));
    }

    /// Woken on every queue change (the simulated remotes' long poll).
    pub fn sim_changes(&self) -> tokio::sync::watch::Receiver<u64> {
        self.subscribe()
    }
}
