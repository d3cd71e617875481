//! Tasks for the fake remote, and the gateway's side of the fake-remote protocol.
//!
//! Task grammar (what a Devin user would type; case-insensitive prefixes):
//! - `Write the exact text <PROOF> to <PATH> and read the file back. Report its contents.` →
//!   write PROOF (no trailing newline) to PATH, read it back; done when the contents match.
//!   PROOF and PATH may be wrapped in quotes or backticks.
//! - `sh: <command>` → run the command with `sh` in the remote's working directory; done on exit
//!   status 0. The output (stdout and stderr, capped at 64 KiB) is recorded.
//!
//! Anything else is recorded as failed at once ("not understood"), never sent.
//!
//! Gateway protocol (plain HTTP, because the real one is proprietary): the remote turns the
//! claim's `ws(s)://…/gateway` into `http(s)://…/gateway` and sends its connect token as a
//! bearer token.
//! - `POST /gateway/connect` → `ok` (marks a pending session `running`) or `exit <reason>`.
//! - `GET /gateway/next` (long poll, ≤ 15 s) → one line: `wait`, `exit <reason>`,
//!   `write <task> <base64 path> <base64 content or ->`, or `run <task> <base64 command>`.
//! - `POST /gateway/result?task=<id>&status=ok|error&code=<exit code>` with the output as body.
//!
//! A wrong token gets 401; so does a token whose claim was released or taken over while the
//! session is live. A token of a session that ended (suspended, terminated, swept or replaced
//! by a resume) gets `exit <reason>`, so the remote exits 0.

use base64::Engine;
use serde::{Deserialize, Serialize};

use super::state::{Micros, Queue, Refusal, RowPhase, Status};

const B64: base64::engine::general_purpose::GeneralPurpose =
    base64::engine::general_purpose::STANDARD;
const MAX_OUTPUT: usize = 64 * 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TaskStatus {
    Queued,
    Sent,
    Done,
    Failed,
}

impl TaskStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            TaskStatus::Queued => "queued",
            TaskStatus::Sent => "sent",
            TaskStatus::Done => "done",
            TaskStatus::Failed => "failed",
        }
    }
}

/// What a task asks the remote to do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Plan {
    WriteFile { path: String, content: String },
    Shell { command: String },
    Unsupported { reason: String },
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Task {
    pub id: String,
    pub text: String,
    pub plan: Plan,
    pub status: TaskStatus,
    pub output: Option<String>,
    pub exit_code: Option<i32>,
    pub detail: Option<String>,
    pub created_ms: u64,
    pub finished_ms: Option<u64>,
}

/// A task as `GET /_emulator/sessions` shows it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
pub struct TaskInfo {
    pub id: String,
    pub text: String,
    /// `write_file`, `shell` or `unsupported`.
    pub action: String,
    pub path: Option<String>,
    /// `queued`, `sent`, `done` or `failed`.
    pub status: String,
    pub output: Option<String>,
    pub exit_code: Option<i32>,
    pub detail: Option<String>,
}

impl Task {
    pub fn info(&self) -> TaskInfo {
        let (action, path) = match &self.plan {
            Plan::WriteFile { path, .. } => ("write_file", Some(path.clone())),
            Plan::Shell { .. } => ("shell", None),
            Plan::Unsupported { .. } => ("unsupported", None),
        };
        TaskInfo {
            id: self.id.clone(),
            text: self.text.clone(),
            action: action.into(),
            path,
            status: self.status.as_str().into(),
            output: self.output.clone(),
            exit_code: self.exit_code,
            detail: self.detail.clone(),
        }
    }

    fn instruction(&self) -> Option<String> {
        match &self.plan {
            Plan::WriteFile { path, content } => {
                let body = if content.is_empty() {
                    "-".to_string()
                } else {
                    B64.encode(content)
                };
                Some(format!("write {} {} {body}", self.id, B64.encode(path)))
            }
            Plan::Shell { command } => Some(format!("run {} {}", self.id, B64.encode(command))),
            Plan::Unsupported { .. } => None,
        }
    }
}

fn unquote(s: &str) -> &str {
    let s = s.trim();
    for q in ['"', '\'', '`'] {
        if s.len() >= 2 && s.starts_with(q) && s.ends_with(q) {
            return &s[1..s.len() - 1];
        }
    }
    s
}

/// Parse a task text (grammar in the module docs).
pub fn plan_task(text: &str) -> Plan {
    let t = text.trim();
    let lower = t.to_ascii_lowercase();
    if lower.starts_with("sh:") {
        let command = t[3..].trim();
        if command.is_empty() {
            return Plan::Unsupported {
                reason: "`sh:` needs a command".into(),
            };
        }
        return Plan::Shell {
            command: command.to_string(),
        };
    }
    const PREFIX: &str = "write the exact text ";
    if let Some(rest_lower) = lower.strip_prefix(PREFIX) {
        // ASCII lowercasing keeps byte offsets, so indexes into `lower` work on `t`.
        let rest = &t[PREFIX.len()..];
        let end = rest_lower
            .find(" and read the file back")
            .unwrap_or_else(|| rest_lower.trim_end_matches('.').len());
        let head = &rest[..end];
        let head_lower = &rest_lower[..end];
        if let Some(split) = head_lower.rfind(" to ") {
            let content = unquote(&head[..split]);
            let path = unquote(&head[split + 4..]);
            if !content.is_empty() && !path.is_empty() {
                return Plan::WriteFile {
                    path: path.to_string(),
                    content: content.to_string(),
                };
            }
        }
        return Plan::Unsupported {
            reason: "expected `Write the exact text <TEXT> to <PATH> and read the file back.`"
                .into(),
        };
    }
    Plan::Unsupported {
        reason: "the emulator understands only `Write the exact text <TEXT> to <PATH> and read the file back. Report its contents.` and `sh: <command>`".into(),
    }
}

/// What the gateway answers.
pub enum Reply {
    /// 200 with this one-line body.
    Line(String),
    /// 401 with this message.
    Unauthorized(String),
}

enum Gate {
    Live(usize),
    Ended(String),
}

impl Queue {
    pub fn add_task(
        &mut self,
        session_id: &str,
        text: &str,
        now: Micros,
    ) -> Result<super::tasks::TaskInfo, Refusal> {
        if self.latest_index(session_id).is_none() {
            return Err(Refusal::new(404, format!("no session {session_id:?}")));
        }
        if text.trim().is_empty() || text.len() > 64 * 1024 {
            return Err(Refusal::new(422, "task must be 1 byte to 64 KiB of text"));
        }
        let id = self.next_task_id();
        let plan = plan_task(text);
        let (status, detail) = match &plan {
            Plan::Unsupported { reason } => (TaskStatus::Failed, Some(reason.clone())),
            _ => (TaskStatus::Queued, None),
        };
        let task = Task {
            id: id.clone(),
            text: text.to_string(),
            plan,
            status,
            output: None,
            exit_code: None,
            detail,
            created_ms: (now / 1000) as u64,
            finished_ms: (status == TaskStatus::Failed).then_some((now / 1000) as u64),
        };
        let info = task.info();
        self.meta(session_id).tasks.push(task);
        self.mutations += 1;
        let generation = self.meta(session_id).generation;
        self.record(
            now,
            "task",
            session_id,
            None,
            generation,
            Some(format!("{id} {}", status.as_str())),
        );
        Ok(info)
    }

    fn gate(&self, token: &str, session_hint: Option<&str>) -> Result<Gate, String> {
        let grant = self
            .grants
            .get(token)
            .ok_or_else(|| "invalid connect token".to_string())?;
        if session_hint.is_some_and(|h| h != grant.session_id) {
            return Err("this connect token belongs to another session".into());
        }
        let i = self
            .row_by_id(grant.row_id)
            .ok_or_else(|| "invalid connect token".to_string())?;
        let r = &self.rows[i];
        let real = r.real_status();
        if real.ended() {
            return Ok(Gate::Ended(real.as_str().into()));
        }
        if r.tombstoned {
            let newer = self.live_index(&r.session_id).is_some();
            return Ok(Gate::Ended(
                if newer { "replaced" } else { "removed" }.into(),
            ));
        }
        if r.phase != RowPhase::Claimed || r.acceptor_id.as_deref() != Some(&grant.acceptor_id) {
            return Err(
                "stale connect token: the claim it came with was released or taken over".into(),
            );
        }
        Ok(Gate::Live(i))
    }

    pub fn gateway_connect(
        &mut self,
        token: &str,
        session_hint: Option<&str>,
        now: Micros,
    ) -> Reply {
        match self.gate(token, session_hint) {
            Err(e) => Reply::Unauthorized(e),
            Ok(Gate::Ended(why)) => Reply::Line(format!("exit {why}")),
            Ok(Gate::Live(i)) => {
                if self.rows[i].real_status() == Status::Pending {
                    let stamp = self.stamp(now);
                    let r = &mut self.rows[i];
                    r.status = Status::Running;
                    r.blip = None;
                    r.stamp = stamp;
                    let (sid, generation) = (r.session_id.clone(), r.generation);
                    self.record(
                        now,
                        "status",
                        &sid,
                        None,
                        generation,
                        Some("pending→running (remote connected)".into()),
                    );
                }
                let (sid, generation, acceptor) = {
                    let r = &self.rows[i];
                    (r.session_id.clone(), r.generation, r.acceptor_id.clone())
                };
                let meta = self.meta(&sid);
                meta.remote_connects += 1;
                meta.remote_seen_us = Some(now);
                self.mutations += 1;
                self.record(now, "connect", &sid, acceptor.as_deref(), generation, None);
                Reply::Line("ok".into())
            }
        }
    }

    /// The next instruction, or `None` for "nothing yet" (the caller long-polls).
    pub fn gateway_next(
        &mut self,
        token: &str,
        session_hint: Option<&str>,
        now: Micros,
    ) -> Option<Reply> {
        match self.gate(token, session_hint) {
            Err(e) => Some(Reply::Unauthorized(e)),
            Ok(Gate::Ended(why)) => Some(Reply::Line(format!("exit {why}"))),
            Ok(Gate::Live(i)) => {
                let sid = self.rows[i].session_id.clone();
                self.meta(&sid).remote_seen_us = Some(now);
                let task = self.queued_task(&sid)?;
                task.status = TaskStatus::Sent;
                let line = task.instruction();
                self.mutations += 1;
                line.map(Reply::Line)
            }
        }
    }

    pub fn gateway_result(
        &mut self,
        token: &str,
        task_id: &str,
        ok: bool,
        code: Option<i32>,
        output: &[u8],
        now: Micros,
    ) -> Result<TaskInfo, Refusal> {
        let grant = self
            .grants
            .get(token)
            .cloned()
            .ok_or_else(|| Refusal::new(401, "invalid connect token"))?;
        let generation = self.meta(&grant.session_id).generation;
        let task = self
            .sessions
            .get_mut(&grant.session_id)
            .and_then(|m| m.tasks.iter_mut().find(|t| t.id == task_id))
            .ok_or_else(|| Refusal::new(404, format!("no task {task_id:?} for this session")))?;
        if task.status != TaskStatus::Sent {
            return Err(Refusal::new(
                409,
                format!("task {task_id} is {}", task.status.as_str()),
            ));
        }
        let mut text =
            String::from_utf8_lossy(&output[..output.len().min(MAX_OUTPUT)]).into_owned();
        if output.len() > MAX_OUTPUT {
            text.push_str("\n[output truncated]");
        }
        let done = match &task.plan {
            Plan::WriteFile { content, .. } => {
                if !ok {
                    task.detail = Some("the remote could not write the file".into());
                    false
                } else if text == *content {
                    true
                } else {
                    task.detail = Some("the file read back differs from the text written".into());
                    false
                }
            }
            Plan::Shell { .. } => ok && code == Some(0),
            Plan::Unsupported { .. } => false,
        };
        task.status = if done {
            TaskStatus::Done
        } else {
            TaskStatus::Failed
        };
        task.output = Some(text);
        task.exit_code = code;
        task.finished_ms = Some((now / 1000) as u64);
        let info = task.info();
        self.mutations += 1;
        self.record(
            now,
            "task",
            &grant.session_id,
            None,
            generation,
            Some(format!("{task_id} {}", info.status)),
        );
        Ok(info)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proof_task_is_parsed_exactly() {
        let p = plan_task(
            "Write the exact text outpost-proof-1f2e3d to /workspace/outpost-proof.txt and read the file back. Report its contents.",
        );
        assert_eq!(
            p,
            Plan::WriteFile {
                path: "/workspace/outpost-proof.txt".into(),
                content: "outpost-proof-1f2e3d".into()
            }
        );
        let p =
            plan_task("write the exact text `a to b` to 'out dir/ü.txt' and read the file back");
        assert_eq!(
            p,
            Plan::WriteFile {
                path: "out dir/ü.txt".into(),
                content: "a to b".into()
            }
        );
        assert!(matches!(
            plan_task("Write the exact text to and read the file back."),
            Plan::Unsupported { .. }
        ));
    }

    #[test]
    fn shell_and_unknown_tasks() {
        assert_eq!(
            plan_task("sh: echo hi"),
            Plan::Shell {
                command: "echo hi".into()
            }
        );
        assert!(matches!(plan_task("sh:   "), Plan::Unsupported { .. }));
        assert!(matches!(
            plan_task("Refactor the billing service"),
            Plan::Unsupported { .. }
        ));
    }

    #[test]
    fn instructions_are_one_line_of_base64_fields() {
        let t = Task {
            id: "t1".into(),
            text: String::new(),
            plan: Plan::WriteFile {
                path: "a b".into(),
                content: "x\ny".into(),
            },
            status: TaskStatus::Queued,
            output: None,
            exit_code: None,
            detail: None,
            created_ms: 0,
            finished_ms: None,
        };
        let line = t.instruction().unwrap();
        assert_eq!(
            line,
            format!("write t1 {} {}", B64.encode("a b"), B64.encode("x\ny"))
        );
        assert_eq!(line.split(' ').count(), 4);
    }
}
