//! Data-plane RPCs of the emulated SandboxService: Exec, StreamExec, StreamLogs, ReadFile,
//! WriteFile — all carried out in the local sandbox behind the CoreWeave one.

use std::collections::BTreeMap;
use std::time::{Duration, SystemTime};

use bytes::Bytes;
use futures::StreamExt;
use tonic::{Request, Status, Streaming};

use super::lifecycle::{Phase, local, not_found, ts};
use super::service::invalid;
use crate::api::coreweave::error::{
    REASON_FILE_NOT_FOUND, REASON_FILE_TOO_LARGE, status_with_reason,
};
use crate::api::coreweave::{MAX_FILE, pb};
use crate::emulator::AppState;
use crate::provider::{Cmd, ExecOutput, ExecRequest, LogOptions, Provider, ProviderError};
use crate::secrets::Secret;

use pb::exec_stream_output::Stream as OutStream;
use pb::exec_stream_request::Message as In;
use pb::exec_stream_response::Message as Out;

/// Output chunk size on StreamExec.
const CHUNK: usize = 64 * 1024;

/// The local sandbox of a RUNNING sandbox, or the error the service gives.
fn running(shared: &AppState, id: &str) -> Result<String, Status> {
    if id.is_empty() {
        return Err(invalid("sandbox_id", "is required"));
    }
    let st = shared.coreweave.lock();
    let e = st.sandboxes.get(id).ok_or_else(|| not_found(id))?;
    match (&e.phase, &e.local_id) {
        (Phase::Running, Some(local_id)) => Ok(local_id.clone()),
        (phase, _) => Err(Status::failed_precondition(format!(
            "sandbox {id} is not running (state {})",
            phase.state().as_str_name()
        ))),
    }
}

/// The `grpc-timeout` a client sent (`<digits><H|M|S|m|u|n>`).
fn grpc_timeout(md: &tonic::metadata::MetadataMap) -> Option<Duration> {
    let v = md.get("grpc-timeout")?.to_str().ok()?;
    if v.len() < 2 {
        return None;
    }
    let (digits, unit) = v.split_at(v.len() - 1);
    let n: u64 = digits.parse().ok()?;
    Some(match unit {
        "H" => Duration::from_secs(n.saturating_mul(3600)),
        "M" => Duration::from_secs(n.saturating_mul(60)),
        "S" => Duration::from_secs(n),
        "m" => Duration::from_millis(n),
        "u" => Duration::from_micros(n),
        "n" => Duration::from_nanos(n),
        _ => return None,
    })
}

fn provider_status(e: ProviderError) -> Status {
    match e {
        ProviderError::NotFound(m) => Status::not_found(m),
        ProviderError::Invalid(m) => Status::invalid_argument(m),
        ProviderError::Timeout(d) => status_with_reason(
            tonic::Code::DeadlineExceeded,
            format!("the command did not finish within {}s", d.as_secs_f64()),
            crate::api::coreweave::error::REASON_COMMAND_TIMEOUT,
            BTreeMap::new(),
            None,
        ),
        ProviderError::Busy { message, .. } => Status::unavailable(message),
        other => Status::internal(other.to_string()),
    }
}

fn env_of(map: &std::collections::HashMap<String, String>) -> BTreeMap<String, Secret> {
    map.iter()
        .map(|(k, v)| (k.clone(), Secret::new(v.clone())))
        .collect()
}

async fn run(
    shared: &AppState,
    local_id: &str,
    argv: Vec<String>,
    env: BTreeMap<String, Secret>,
    timeout: Option<Duration>,
) -> Result<ExecOutput, Status> {
    if argv.is_empty() || argv[0].is_empty() {
        return Err(invalid("command", "must not be empty"));
    }
    if let Some(sim) = shared.sandboxes.sim() {
        let env = env
            .iter()
            .map(|(k, v)| (k.clone(), v.expose().to_string()))
            .collect();
        return Ok(sim.exec(shared, local_id, &argv.join(" "), &env).await);
    }
    let req = ExecRequest {
        cmd: Cmd::Argv(argv),
        cwd: None,
        env,
        timeout,
    };
    local(shared)
        .exec(local_id, &req)
        .await
        .map_err(provider_status)
}

fn capped(data: &[u8], max: usize) -> (Bytes, bool) {
    if max > 0 && data.len() > max {
        (Bytes::copy_from_slice(&data[..max]), true)
    } else {
        (Bytes::copy_from_slice(data), false)
    }
}

pub(super) async fn exec(
    shared: &AppState,
    request: Request<pb::ExecRequest>,
) -> Result<pb::ExecResponse, Status> {
    let timeout = grpc_timeout(request.metadata());
    let req = request.into_inner();
    let local_id = running(shared, &req.sandbox_id)?;
    let out = run(shared, &local_id, req.command, env_of(&req.env), timeout).await?;
    let max = req.max_output_bytes.max(0) as usize;
    let (stdout, stdout_truncated) = capped(out.stdout.as_bytes(), max);
    let (stderr, stderr_truncated) = capped(out.stderr.as_bytes(), max);
    Ok(pb::ExecResponse {
        stdout,
        stderr,
        exit_code: out.exit_code,
        stdout_truncated,
        stderr_truncated,
        stdout_bytes_produced: out.stdout.len() as i64,
        stderr_bytes_produced: out.stderr.len() as i64,
    })
}

fn frame(m: Out) -> Result<pb::ExecStreamResponse, Status> {
    Ok(pb::ExecStreamResponse { message: Some(m) })
}

type ExecTx = tokio::sync::mpsc::Sender<Result<pb::ExecStreamResponse, Status>>;

/// Collect stdin chunks until `close` or half-close; `None` when the client cancelled or broke
/// the protocol (told on `tx`).
async fn read_stdin(
    inbound: &mut Streaming<pb::ExecStreamRequest>,
    tx: &ExecTx,
) -> Option<Vec<u8>> {
    let mut stdin = Vec::new();
    loop {
        match inbound.message().await {
            Ok(Some(pb::ExecStreamRequest { message })) => match message {
                Some(In::Stdin(b)) => stdin.extend_from_slice(&b),
                Some(In::Close(_)) => return Some(stdin),
                Some(In::Init(_)) => {
                    let _ = tx.send(Err(invalid("init", "may only be sent once"))).await;
                    return None;
                }
                Some(In::Resize(_)) | None => {}
            },
            Ok(None) => return Some(stdin),
            // The client cancelled: nothing to run.
            Err(_) => return None,
        }
    }
}

/// Send the command's output in chunks, stdout first; false when the client went away.
async fn send_output(tx: &ExecTx, stdout: &str, stderr: &str) -> bool {
    for (stream, data) in [
        (OutStream::Stdout, stdout.as_bytes()),
        (OutStream::Stderr, stderr.as_bytes()),
    ] {
        for chunk in data.chunks(CHUNK) {
            let msg = Out::Output(pb::ExecStreamOutput {
                stream: stream as i32,
                data: Bytes::copy_from_slice(chunk),
            });
            if tx.send(frame(msg)).await.is_err() {
                return false;
            }
        }
    }
    true
}

/// Bidi exec: `init` → `ready`; stdin chunks are collected until `close` or half-close and fed
/// to the command; then its output and exactly one `exit` (or `error`). A client that goes
/// away cancels the command.
pub(super) async fn stream_exec(
    shared: &AppState,
    request: Request<Streaming<pb::ExecStreamRequest>>,
) -> Result<tonic::codegen::BoxStream<pb::ExecStreamResponse>, Status> {
    let timeout = grpc_timeout(request.metadata());
    let mut inbound = request.into_inner();
    let init = match inbound.message().await? {
        Some(pb::ExecStreamRequest {
            message: Some(In::Init(init)),
        }) => init,
        _ => return Err(invalid("init", "the first message must be init")),
    };
    if init.command.is_empty() {
        return Err(invalid("init.command", "must not be empty"));
    }
    let local_id = running(shared, &init.sandbox_id)?;
    let (tx, rx) = tokio::sync::mpsc::channel::<Result<pb::ExecStreamResponse, Status>>(16);
    let _ = tx
        .send(frame(Out::Ready(pb::ExecStreamReady {
            ready_time: Some(ts(SystemTime::now())),
        })))
        .await;
    let shared = shared.clone();
    tokio::spawn(async move {
        let Some(stdin) = read_stdin(&mut inbound, &tx).await else {
            return;
        };
        let mut argv = init.command.clone();
        let mut stdin_path = None;
        if !stdin.is_empty() {
            let path = format!("/tmp/.cw-stdin-{}", uuid::Uuid::new_v4().simple());
            if let Err(e) = local(&shared).write_file(&local_id, &path, &stdin).await {
                let _ = tx.send(Err(provider_status(e))).await;
                return;
            }
            let mut wrapped = vec![
                "/bin/sh".to_string(),
                "-c".into(),
                "f=$0; exec \"$@\" < \"$f\"".into(),
                path.clone(),
            ];
            wrapped.append(&mut argv);
            argv = wrapped;
            stdin_path = Some(path);
        }
        let outcome = tokio::select! {
            r = run(&shared, &local_id, argv, env_of(&init.env), timeout) => Some(r),
            _ = tx.closed() => None,
        };
        if let Some(path) = stdin_path {
            let cleanup = ExecRequest::argv(["rm", "-f", path.as_str()]);
            let _ = local(&shared).exec(&local_id, &cleanup).await;
        }
        let out = match outcome {
            None => return,
            Some(Err(status)) => {
                let _ = tx.send(Err(status)).await;
                return;
            }
            Some(Ok(out)) => out,
        };
        if !send_output(&tx, &out.stdout, &out.stderr).await {
            return;
        }
        let _ = tx
            .send(frame(Out::Exit(pb::ExecStreamExit {
                exit_code: out.exit_code,
                completed_time: Some(ts(SystemTime::now())),
            })))
            .await;
    });
    Ok(tokio_stream::wrappers::ReceiverStream::new(rx).boxed())
}

/// The local sandbox behind `id`, waiting for one still being created so a follower sees its
/// first lines; `None` when it never got one.
async fn created(shared: &AppState, id: &str) -> Result<Option<String>, Status> {
    let (ops, local_id) = {
        let st = shared.coreweave.lock();
        let e = st.sandboxes.get(id).ok_or_else(|| not_found(id))?;
        (e.ops.clone(), e.local_id.clone())
    };
    if local_id.is_some() {
        return Ok(local_id);
    }
    drop(ops.lock().await);
    let st = shared.coreweave.lock();
    Ok(st.sandboxes.get(id).and_then(|e| e.local_id.clone()))
}

/// The main process's output (not exec output). Not following: what is there, then the end.
/// Following: new lines until the sandbox stops. `since_time` is taken as "from now on";
/// resuming a session is refused with `SESSION_NOT_FOUND`, after which clients start afresh.
pub(super) async fn stream_logs(
    shared: &AppState,
    req: pb::StreamLogsRequest,
) -> Result<tonic::codegen::BoxStream<pb::LogEntry>, Status> {
    if req.sandbox_id.is_empty() {
        return Err(invalid("sandbox_id", "is required"));
    }
    if req.tail_lines < 0 {
        return Err(invalid("tail_lines", "must not be negative"));
    }
    let session = format!("ls-{}", uuid::Uuid::new_v4().simple());
    if !req.resume_log_session_id.is_empty() {
        let entry = pb::LogEntry {
            log_session_id: req.resume_log_session_id.clone(),
            error: Some(pb::LogStreamError {
                message: "log sessions cannot be resumed here; start a new stream".into(),
                code: "SESSION_NOT_FOUND".into(),
            }),
            ..Default::default()
        };
        return Ok(futures::stream::iter([Ok(entry)]).boxed());
    }
    let Some(local_id) = created(shared, &req.sandbox_id).await? else {
        return Ok(futures::stream::empty().boxed());
    };
    let tail = if req.since_time.is_some() {
        Some(0)
    } else if req.tail_lines > 0 {
        Some(req.tail_lines as u32)
    } else {
        None
    };
    let lines = local(shared)
        .logs(
            &local_id,
            &LogOptions {
                tail,
                follow: req.follow,
            },
        )
        .await
        .map_err(provider_status)?;
    let mut offset: u64 = 0;
    let timestamps = req.timestamps;
    let stream = lines.map(move |line| match line {
        Ok(line) => {
            let now = SystemTime::now();
            let mut data = if timestamps {
                format!("{} ", humantime::format_rfc3339_millis(now))
            } else {
                String::new()
            };
            data.push_str(&line);
            data.push('\n');
            offset += data.len() as u64;
            Ok(pb::LogEntry {
                data: Bytes::from(data),
                timestamp: Some(ts(now)),
                log_session_id: session.clone(),
                next_log_offset: offset,
                error: None,
            })
        }
        Err(e) => Ok(pb::LogEntry {
            log_session_id: session.clone(),
            next_log_offset: offset,
            error: Some(pb::LogStreamError {
                message: e.to_string(),
                code: "STREAM_INTERRUPTED".into(),
            }),
            ..Default::default()
        }),
    });
    Ok(stream.boxed())
}

fn file_status(id: &str, path: &str, e: ProviderError) -> Status {
    match e {
        ProviderError::NotFound(_) => not_found(id),
        ProviderError::Invalid(m) => invalid("path", m),
        other => status_with_reason(
            tonic::Code::Internal,
            format!("{path}: {other}"),
            "CWSANDBOX_FILE_IO_FAILED",
            BTreeMap::from([("path".to_string(), path.to_string())]),
            None,
        ),
    }
}

pub(super) async fn read_file(
    shared: &AppState,
    req: pb::ReadFileRequest,
) -> Result<Bytes, Status> {
    let local_id = running(shared, &req.sandbox_id)?;
    if req.path.is_empty() {
        return Err(invalid("path", "is required"));
    }
    match local(shared).read_file(&local_id, &req.path).await {
        Ok(Some(data)) if data.len() > MAX_FILE => Err(status_with_reason(
            tonic::Code::FailedPrecondition,
            format!(
                "{} is larger than the {} MiB unary limit",
                req.path,
                MAX_FILE / (1024 * 1024)
            ),
            REASON_FILE_TOO_LARGE,
            BTreeMap::from([("max_bytes".to_string(), MAX_FILE.to_string())]),
            None,
        )),
        Ok(Some(data)) => Ok(Bytes::from(data)),
        Ok(None) => Err(status_with_reason(
            tonic::Code::NotFound,
            format!("{}: no such file", req.path),
            REASON_FILE_NOT_FOUND,
            BTreeMap::from([("path".to_string(), req.path.clone())]),
            None,
        )),
        Err(e) => Err(file_status(&req.sandbox_id, &req.path, e)),
    }
}

pub(super) async fn write_file(shared: &AppState, req: pb::WriteFileRequest) -> Result<(), Status> {
    let local_id = running(shared, &req.sandbox_id)?;
    if req.path.is_empty() {
        return Err(invalid("path", "is required"));
    }
    if req.content.len() > MAX_FILE {
        return Err(status_with_reason(
            tonic::Code::FailedPrecondition,
            format!(
                "the content is larger than the {} MiB unary limit",
                MAX_FILE / (1024 * 1024)
            ),
            REASON_FILE_TOO_LARGE,
            BTreeMap::from([("max_bytes".to_string(), MAX_FILE.to_string())]),
            None,
        ));
    }
    local(shared)
        .write_file(&local_id, &req.path, &req.content)
        .await
        .map_err(|e| file_status(&req.sandbox_id, &req.path, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grpc_timeouts() {
        let mut md = tonic::metadata::MetadataMap::new();
        assert_eq!(grpc_timeout(&md), None);
        md.insert("grpc-timeout", "300S".parse().unwrap());
        assert_eq!(grpc_timeout(&md), Some(Duration::from_secs(300)));
        md.insert("grpc-timeout", "1500m".parse().unwrap());
        assert_eq!(grpc_timeout(&md), Some(Duration::from_millis(1500)));
        md.insert("grpc-timeout", "2H".parse().unwrap());
        assert_eq!(grpc_timeout(&md), Some(Duration::from_secs(7200)));
        md.insert("grpc-timeout", "xS".parse().unwrap());
        assert_eq!(grpc_timeout(&md), None);
    }
}
