//! Toolbox sessions on Linux sandboxes, like the daemon: one long-lived `bash` per session,
//! and every command sourced in it, so `cd`, `export` and functions carry over to the next
//! command and `exit N` ends the session's shell.
//!
//! Inside the sandbox, under the session's directory (`/tmp/.daytona-sessions/<id>`):
//! - `ctl`: a FIFO the shell reads its commands from (held open read-write by the shell, so a
//!   writer never blocks and the shell never sees end-of-file);
//! - per command `<cmd>.cmd` (the script), `<cmd>.in` (a FIFO on its stdin, kept open so input
//!   can be sent while it runs), `<cmd>.out` / `<cmd>.err` (appended to), `<cmd>.exit`.
//!
//! The shell runs the commands in order (an async command that never ends blocks the ones
//! after it, as in the daemon). Output is kept per stream, so the combined `output` is stdout
//! then stderr, not interleaved by time.

use std::collections::BTreeMap;
use std::time::Duration;

use axum::extract::ws::{Message, WebSocket};

use super::process::spool_dir;
use super::{Ctx, run, sandbox_argv};
use crate::emulator::AppState;
use crate::poll::{Backoff, Poll, poll_until};
use crate::provider::{ExecRequest, Provider};
use crate::secrets::Secret;

/// How often the emulator looks at a command's files (exit code, new output).
const LOOK: Duration = Duration::from_millis(40);
/// How long a new session's shell may take to come up.
const SHELL_START: Duration = Duration::from_secs(20);

/// The stream markers of the daemon's log framing (followed logs, WebSocket binary frames).
pub(super) const STDOUT_PREFIX: [u8; 3] = [1, 1, 1];
pub(super) const STDERR_PREFIX: [u8; 3] = [2, 2, 2];

pub(super) fn paths(session: &str, cid: &str) -> CmdPaths {
    let dir = spool_dir(session);
    CmdPaths {
        script: format!("{dir}/{cid}.cmd"),
        input: format!("{dir}/{cid}.in"),
        out: format!("{dir}/{cid}.out"),
        err: format!("{dir}/{cid}.err"),
        exit: format!("{dir}/{cid}.exit"),
        dir,
    }
}

pub(super) struct CmdPaths {
    pub dir: String,
    pub script: String,
    pub input: String,
    pub out: String,
    pub err: String,
    pub exit: String,
}

/// Start the session's shell and wait until it reads its control FIFO. The shell's end (its
/// exit code) is recorded on the session.
pub(super) async fn start(s: &AppState, c: &Ctx, session: &str) -> Result<(), String> {
    let dir = spool_dir(session);
    let prepare = vec![
        "sh".to_string(),
        "-c".into(),
        r#"rm -rf "$1" && mkdir -p "$1" && mkfifo "$1/ctl""#.into(),
        "sh".into(),
        dir.clone(),
    ];
    match sandbox_argv(s, c, prepare).await {
        Ok(o) if o.exit_code == 0 => {}
        Ok(o) => return Err(format!("cannot prepare the session: {}", o.stderr.trim())),
        Err(e) => return Err(e.to_string()),
    }
    // The FIFO is opened before `ready` exists: nothing written after that is lost. The shell
    // leads its own process group (`setsid`), so deleting the session ends all it started.
    let script = format!(
        "exec 0<>'{dir}/ctl'; exec setsid -w bash --noprofile --norc -c \
         'echo $$ > {dir}/pid; : > {dir}/ready; exec bash --noprofile --norc' > '{dir}/shell.log' 2>&1"
    );
    let (s2, c2, key) = (s.clone(), c.clone(), (c.sid.clone(), session.to_string()));
    tokio::spawn(async move {
        let code = match run(&s2, &c2, &script, None, BTreeMap::new(), None).await {
            Ok(o) => o.exit_code,
            Err(_) => -1,
        };
        let mut org = s2.daytona.org();
        if let Some(rec) = org.sessions.get_mut(&key) {
            rec.shell_exit = Some(code);
        }
    });
    let p = s.sandboxes.provider();
    let ready = format!("{dir}/ready");
    let deadline = std::time::Instant::now() + SHELL_START;
    let (p, ready) = (&p, &ready);
    let waited = poll_until(deadline, Backoff::fixed(LOOK), || async move {
        if matches!(p.read_file(&c.sid, ready).await, Ok(Some(_))) {
            return Ok(Poll::Ready(()));
        }
        if shell_exit(s, &c.sid, session).is_some() {
            return Err("the session's shell exited at start".to_string());
        }
        Ok(Poll::Pending(()))
    })
    .await?;
    waited.or_else(|_| "the session's shell did not start".to_string())
}

/// The session shell's exit code once it has ended.
pub(super) fn shell_exit(s: &AppState, sid: &str, session: &str) -> Option<i32> {
    s.daytona
        .org()
        .sessions
        .get(&(sid.to_string(), session.to_string()))
        .and_then(|r| r.shell_exit)
}

/// Hand a command to the session's shell.
pub(super) async fn submit(
    s: &AppState,
    c: &Ctx,
    session: &str,
    cid: &str,
    command: &str,
) -> Result<(), String> {
    let p = paths(session, cid);
    s.sandboxes
        .provider()
        .write_file(&c.sid, &p.script, command.as_bytes())
        .await
        .map_err(|e| format!("failed to write command: {e}"))?;
    // One line, well under PIPE_BUF: the write into the FIFO is atomic.
    let line = format!(
        "{{ . '{script}'; }} 0<>'{input}' >>'{out}' 2>>'{err}'; echo $? > '{exit}.tmp'; mv '{exit}.tmp' '{exit}'",
        script = p.script,
        input = p.input,
        out = p.out,
        err = p.err,
        exit = p.exit,
    );
    let argv = vec![
        "sh".to_string(),
        "-c".into(),
        r#"mkfifo "$1" && : > "$2" && : > "$3" && printf '%s\n' "$5" >> "$4""#.into(),
        "sh".into(),
        p.input,
        p.out,
        p.err,
        format!("{}/ctl", p.dir),
        line,
    ];
    match sandbox_argv(s, c, argv).await {
        Ok(o) if o.exit_code == 0 => Ok(()),
        Ok(o) => Err(format!("failed to write command: {}", o.stderr.trim())),
        Err(e) => Err(format!("failed to write command: {e}")),
    }
}

/// The command's exit code: from its exit file, or the shell's when the shell ended first.
pub(super) async fn exit_code(s: &AppState, sid: &str, session: &str, cid: &str) -> Option<i32> {
    let p = paths(session, cid);
    if let Ok(Some(b)) = s.sandboxes.provider().read_file(sid, &p.exit).await
        && let Ok(code) = String::from_utf8_lossy(&b).trim().parse()
    {
        return Some(code);
    }
    let shell = shell_exit(s, sid, session)?;
    // The shell may have written the file just before it ended.
    match s.sandboxes.provider().read_file(sid, &p.exit).await {
        Ok(Some(b)) => String::from_utf8_lossy(&b)
            .trim()
            .parse()
            .ok()
            .or(Some(shell)),
        _ => Some(shell),
    }
}

/// End the session's shell and everything it started (its process group).
pub(super) async fn kill(s: &AppState, c: &Ctx, session: &str) {
    let dir = spool_dir(session);
    let argv = vec![
        "sh".to_string(),
        "-c".into(),
        r#"p=$(cat "$1/pid" 2>/dev/null) && [ -n "$p" ] && kill -TERM -- "-$p" 2>/dev/null; true"#
            .into(),
        "sh".into(),
        dir,
    ];
    let _ = sandbox_argv(s, c, argv).await;
}

/// Wait for the command to end; its exit code.
pub(super) async fn wait(s: &AppState, sid: &str, session: &str, cid: &str) -> i32 {
    loop {
        if let Some(code) = exit_code(s, sid, session, cid).await {
            return code;
        }
        if !s
            .daytona
            .org()
            .sessions
            .contains_key(&(sid.to_string(), session.to_string()))
        {
            // Deleted (or the sandbox stopped) under the command.
            return -1;
        }
        // Not poll_until: no deadline — a command runs as long as it runs; its end or its session's
        // deletion ends the wait.
        tokio::time::sleep(LOOK).await;
    }
}

/// What the command printed so far: (stdout, stderr).
pub(super) async fn output(
    s: &AppState,
    sid: &str,
    session: &str,
    cid: &str,
) -> (Vec<u8>, Vec<u8>) {
    let p = paths(session, cid);
    let prov = s.sandboxes.provider();
    let out = prov.read_file(sid, &p.out).await.ok().flatten();
    let err = prov.read_file(sid, &p.err).await.ok().flatten();
    (out.unwrap_or_default(), err.unwrap_or_default())
}

/// Write `data` to the running command's stdin (a newline is added when missing, like the
/// daemon) and, unless `echo` is off, into its stdout log.
pub(super) async fn send_input(
    s: &AppState,
    c: &Ctx,
    session: &str,
    cid: &str,
    data: &str,
    echo: bool,
) -> Result<(), String> {
    let p = paths(session, cid);
    let mut data = data.to_string();
    if !data.ends_with('\n') {
        data.push('\n');
    }
    // Opened read-write: never blocks, even if the command ended a moment ago.
    let script = if echo {
        r#"exec 3<>"$1" && printf '%s' "$DAYTONA_INPUT" >&3 && printf '%s' "$DAYTONA_INPUT" >> "$2""#
    } else {
        r#"exec 3<>"$1" && printf '%s' "$DAYTONA_INPUT" >&3"#
    };
    let mut req = ExecRequest::argv(vec![
        "sh".to_string(),
        "-c".into(),
        script.into(),
        "sh".into(),
        p.input,
        p.out,
    ]);
    req.cwd = Some(c.home());
    req.env.insert("DAYTONA_INPUT".into(), Secret::new(data));
    match s.sandboxes.provider().exec(&c.sid, &req).await {
        Ok(o) if o.exit_code == 0 => Ok(()),
        Ok(o) => Err(format!(
            "failed to write to input pipe: {}",
            o.stderr.trim()
        )),
        Err(e) => Err(format!("failed to write to input pipe: {e}")),
    }
}

/// Stream a command's logs over the WebSocket in the daemon's framing: binary frames, each
/// stdout chunk after `\x01\x01\x01` and each stderr chunk after `\x02\x02\x02`; with `follow`
/// until the command ends, then a normal close.
pub(super) async fn follow_logs(
    s: AppState,
    sid: String,
    session: String,
    cid: String,
    follow: bool,
    mut ws: WebSocket,
) {
    let (mut sent_out, mut sent_err) = (0usize, 0usize);
    loop {
        // Read the exit code first: output written before the end is then all on disk.
        let done = !follow || exit_code(&s, &sid, &session, &cid).await.is_some();
        let (out, err) = output(&s, &sid, &session, &cid).await;
        for (buf, sent, prefix) in [
            (&out, &mut sent_out, STDOUT_PREFIX),
            (&err, &mut sent_err, STDERR_PREFIX),
        ] {
            if buf.len() > *sent {
                let mut frame = prefix.to_vec();
                frame.extend_from_slice(&buf[*sent..]);
                *sent = buf.len();
                if ws.send(Message::Binary(frame)).await.is_err() {
                    return;
                }
            }
        }
        if done {
            break;
        }
        // Not poll_until: a stream that forwards output as it comes, until the command ends or the
        // client leaves.
        tokio::select! {
            msg = ws.recv() => match msg {
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => return,
                _ => {}
            },
            _ = tokio::time::sleep(LOOK) => {}
        }
    }
    let _ = ws
        .send(Message::Close(Some(axum::extract::ws::CloseFrame {
            code: 1000,
            reason: "".into(),
        })))
        .await;
}
