//! `devin worker start`: the queue loop, single-session claim mode and direct-serve mode.

use std::time::Duration;

use tokio::sync::watch;

use super::cli::{Settings, StartArgs};
use super::serve::{self, Exit, Remote, RunSpec, log_error, log_info, log_warn};
use super::{AUTH_LINE, READY_LINE};
use crate::api::devin::{
    ClaimOutcome, DevinClient, ListQuery, Phase, QueueEntry, ReleaseOutcome, SessionStatus,
};
use crate::api::devin_types::Platform;
use crate::api::{ApiError, HttpClient, HttpOptions};
use crate::secrets::Secret;
use crate::settings::DevinSettings;

/// Everything a running worker shares.
struct Worker {
    devin: DevinClient,
    http: HttpClient,
    s: Settings,
    acceptor: String,
    shutdown: watch::Receiver<bool>,
}

/// Why serving stopped.
#[derive(Debug, PartialEq, Eq)]
enum Served {
    Done,
    Shutdown,
    Auth,
}

fn auth_failed(e: &ApiError) -> u8 {
    log_error(&format!(
        "{AUTH_LINE}: the Devin API rejected the outpost token ({e}); check DEVIN_OUTPOSTS_TOKEN"
    ));
    1
}

fn shutdown_channel() -> watch::Receiver<bool> {
    let (tx, rx) = watch::channel(false);
    tokio::spawn(async move {
        use tokio::signal::unix::{SignalKind, signal};
        let (Ok(mut term), Ok(mut int)) = (
            signal(SignalKind::terminate()),
            signal(SignalKind::interrupt()),
        ) else {
            return;
        };
        tokio::select! {
            _ = term.recv() => {}
            _ = int.recv() => {}
        }
        log_info("Stopping: releasing held sessions");
        let _ = tx.send(true);
    });
    rx
}

pub async fn start(a: StartArgs, s: Settings) -> u8 {
    let shutdown = shutdown_channel();
    let http = match HttpClient::new(HttpOptions::default()) {
        Ok(h) => h,
        Err(e) => {
            log_error(&format!("Error: cannot build the HTTP client: {e}"));
            return 1;
        }
    };
    log_info(&format!(
        "devin {} (outposts emulator fake CLI)",
        super::VERSION
    ));
    let session_token = std::env::var("DEVIN_REMOTE_SESSION_TOKEN")
        .ok()
        .filter(|t| !t.trim().is_empty())
        .map(|t| Secret::new(t.trim()));
    let Some(token) = s.token.clone() else {
        log_error(
            "Error: no outpost token: set DEVIN_OUTPOSTS_TOKEN (the CLI needs one in every mode)",
        );
        return 1;
    };
    if let (Some(session), Some(ct)) = (&a.session, &session_token) {
        return direct_serve(session, ct, &s, &http, shutdown).await;
    }
    let w = Worker {
        devin: DevinClient::new(DevinSettings::new(&s.api_url, token), http.clone()),
        acceptor: match acceptor_id(&a, &s) {
            Ok(id) => id,
            Err(e) => {
                log_error(&format!("Error: {e}"));
                return 1;
            }
        },
        http,
        s,
        shutdown,
    };
    match (&a.session, &a.outpost) {
        (Some(session), _) => w.one_session(session).await,
        (None, Some(outpost)) => w.queue_loop(outpost, a.once).await,
        (None, None) => {
            log_error("Error: --outpost is required (an outpost name or id)");
            2
        }
    }
}

/// `--acceptor-id`, `DEVIN_WORKER_ACCEPTOR_ID`, else one generated once and kept in the data dir.
fn acceptor_id(a: &StartArgs, s: &Settings) -> Result<String, String> {
    if let Some(id) = a
        .acceptor_id
        .clone()
        .or_else(|| std::env::var("DEVIN_WORKER_ACCEPTOR_ID").ok())
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
    {
        return Ok(id);
    }
    let path = s.data_dir.join("acceptor_id");
    if let Ok(id) = std::fs::read_to_string(&path)
        && !id.trim().is_empty()
    {
        return Ok(id.trim().to_string());
    }
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .unwrap_or_default();
    let host: String = host
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .take(40)
        .collect();
    let id = format!(
        "devin-worker-{}{}",
        if host.is_empty() {
            String::new()
        } else {
            format!("{host}-")
        },
        &uuid::Uuid::new_v4().simple().to_string()[..12]
    );
    std::fs::create_dir_all(&s.data_dir)
        .and_then(|_| std::fs::write(&path, format!("{id}\n")))
        .map_err(|e| format!("cannot keep the acceptor id in {}: {e}", path.display()))?;
    Ok(id)
}

async fn direct_serve(
    session: &str,
    connect_token: &Secret,
    s: &Settings,
    http: &HttpClient,
    shutdown: watch::Receiver<bool>,
) -> u8 {
    let Some(gateway) = s.gateway_fallback.clone() else {
        log_error("Error: direct-serve needs DEVIN_OUTPOST_GATEWAY_URL");
        return 2;
    };
    log_info(&format!(
        "Direct-serve: session {session} (the queue is not contacted)"
    ));
    let remote = match serve::install(http, s, None, &gateway, Platform::Linux).await {
        Ok(r) => r,
        Err(e) => {
            log_error(&format!("Error: {e}"));
            return 1;
        }
    };
    log_info(&format!(
        "Serving session {session} with devin-remote {}",
        remote.sha
    ));
    let state_dir = std::env::var("DEVIN_REMOTE_STATE_DIR")
        .ok()
        .filter(|d| !d.trim().is_empty())
        .map(Into::into)
        .unwrap_or_else(|| s.data_dir.join("sessions").join(session_dir(session)));
    let spec = RunSpec {
        session_id: session,
        gateway: &gateway,
        connect_token,
        state_dir,
        chrome_path: s.chrome_path.as_deref(),
    };
    let (_stop_tx, stop) = watch::channel(false);
    match serve::run(&remote, &spec, shutdown, stop).await {
        Ok(Exit::Code(0)) => {
            log_info(&format!("Session {session} ended; exiting"));
            0
        }
        Ok(Exit::Code(c)) => {
            log_error(&format!("devin-remote exited with code {c}"));
            c.clamp(1, 255) as u8
        }
        Ok(_) => 143,
        Err(e) => {
            log_error(&format!("Error: {e}"));
            1
        }
    }
}

impl Worker {
    fn stopping(&self) -> bool {
        *self.shutdown.borrow()
    }

    async fn pause(&self, d: Duration) {
        let mut rx = self.shutdown.clone();
        let _ = tokio::time::timeout(d, rx.wait_for(|v| *v)).await;
    }

    /// The outpost's id from its name or id.
    async fn resolve_outpost(&self, wanted: &str) -> Result<(String, String), u8> {
        match self.devin.list_outposts().await {
            Ok(all) => {
                let hits: Vec<_> = all
                    .iter()
                    .filter(|o| o.outpost_id == wanted || o.name.as_deref() == Some(wanted))
                    .collect();
                match hits.as_slice() {
                    [o] => Ok((
                        o.outpost_id.clone(),
                        o.name.clone().unwrap_or_else(|| o.outpost_id.clone()),
                    )),
                    [] => {
                        log_error(&format!(
                            "Error: no outpost named {wanted:?} on this account ({} outposts)",
                            all.len()
                        ));
                        Err(1)
                    }
                    _ => {
                        log_error(&format!(
                            "Error: {} outposts are named {wanted:?}; pass the outpost id",
                            hits.len()
                        ));
                        Err(1)
                    }
                }
            }
            Err(e) if e.is_auth() => Err(auth_failed(&e)),
            Err(e) => {
                log_warn(&format!(
                    "cannot list outposts ({e}); using {wanted:?} as the outpost id"
                ));
                Ok((wanted.to_string(), wanted.to_string()))
            }
        }
    }

    /// What to try to serve, in order: claims this acceptor still holds (a restarted worker),
    /// then the pending sessions that may be claimed, oldest first.
    fn candidates(&self, held: Vec<QueueEntry>, queue: Vec<QueueEntry>) -> Vec<QueueEntry> {
        let mut candidates: Vec<QueueEntry> = held
            .into_iter()
            .filter(|e| e.acceptor_id.as_deref() == Some(self.acceptor.as_str()))
            .collect();
        let mut fresh: Vec<QueueEntry> = queue
            .into_iter()
            .filter(|e| e.phase == Phase::Pending)
            .filter(|e| {
                matches!(
                    e.session_status,
                    SessionStatus::Pending | SessionStatus::Running
                )
            })
            .collect();
        fresh.sort_by(|a, b| a.age_key().cmp(&b.age_key()));
        candidates.extend(fresh);
        candidates
    }

    /// Claim and serve the first candidate that can be had: whether one was served, or the
    /// exit code when the worker must stop.
    async fn serve_first(&self, candidates: Vec<QueueEntry>) -> Result<bool, u8> {
        for entry in candidates {
            if self.stopping() {
                break;
            }
            let reattach = entry.phase == Phase::Claimed;
            if reattach
                && matches!(
                    entry.session_status,
                    SessionStatus::Suspended | SessionStatus::Terminated
                )
            {
                self.release(&entry.session_id, entry.session_status.as_str())
                    .await;
                continue;
            }
            match self.devin.claim(&entry.session_id, &self.acceptor).await {
                Ok(ClaimOutcome::Won(claimed)) => {
                    if reattach {
                        log_info(&format!(
                            "Reattaching to session {} (still claimed by this worker)",
                            claimed.session_id
                        ));
                    }
                    return match self.serve(claimed).await {
                        Served::Done => Ok(true),
                        Served::Shutdown => Err(143),
                        Served::Auth => Err(1),
                    };
                }
                Ok(ClaimOutcome::Conflict { .. } | ClaimOutcome::Gone) => continue,
                Err(e) if e.is_auth() => return Err(auth_failed(&e)),
                Err(e) => {
                    log_warn(&format!("claiming {} failed: {e}", entry.session_id));
                    break;
                }
            }
        }
        Ok(false)
    }

    async fn queue_loop(self, wanted: &str, once: bool) -> u8 {
        let (outpost, name) = match self.resolve_outpost(wanted).await {
            Ok(o) => o,
            Err(code) => return code,
        };
        let pending = ListQuery {
            outpost: Some(outpost.clone()),
            phase: Some(Phase::Pending),
            ..ListQuery::default()
        };
        let held = ListQuery {
            outpost: Some(outpost.clone()),
            phase: Some(Phase::Claimed),
            acceptor_id: Some(self.acceptor.clone()),
            ..ListQuery::default()
        };
        let mut ready = false;
        let mut failures = 0u32;
        while !self.stopping() {
            // Claims this acceptor still holds (a restarted worker) come first.
            let listed = match self.devin.list(&held).await {
                Ok(h) => self.devin.list(&pending).await.map(|p| (h, p)),
                Err(e) => Err(e),
            };
            let (held_now, queue) = match listed {
                Ok(x) => x,
                Err(e) if e.is_auth() => return auth_failed(&e),
                Err(e) => {
                    failures += 1;
                    log_warn(&format!("cannot read the queue ({e}); retrying"));
                    self.pause(
                        // Back off a little more with every failure in a row.
                        self.s
                            .poll
                            .max(Duration::from_secs(u64::from(failures.min(6)) * 2)),
                    )
                    .await;
                    continue;
                }
            };
            failures = 0;
            if !ready {
                log_info(&format!(
                    "{READY_LINE} on outpost {name} ({outpost}) as acceptor {}",
                    self.acceptor
                ));
                ready = true;
            }
            let candidates = self.candidates(held_now.entries, queue.entries);
            let served = match self.serve_first(candidates).await {
                Ok(served) => served,
                Err(code) => return code,
            };
            if served && once {
                return 0;
            }
            if !served {
                self.pause(self.s.poll).await;
            }
        }
        143
    }

    async fn one_session(self, session: &str) -> u8 {
        match self.devin.claim(session, &self.acceptor).await {
            Ok(ClaimOutcome::Won(entry)) => match self.serve(entry).await {
                Served::Done => 0,
                Served::Shutdown => 143,
                Served::Auth => 1,
            },
            Ok(ClaimOutcome::Conflict { message }) => {
                log_error(&format!(
                    "Error: session {session} is not claimable: {message}"
                ));
                1
            }
            Ok(ClaimOutcome::Gone) => {
                log_error(&format!("Error: session {session} is not in the queue"));
                1
            }
            Err(e) if e.is_auth() => auth_failed(&e),
            Err(e) => {
                log_error(&format!("Error: claiming session {session} failed: {e}"));
                1
            }
        }
    }

    async fn release(&self, session: &str, why: &str) {
        match self.devin.release(session, &self.acceptor).await {
            Ok(ReleaseOutcome::Released(_)) => {
                log_info(&format!("Session {session} ended ({why}); released"));
            }
            Ok(ReleaseOutcome::AlreadyReleased { .. }) => {
                log_info(&format!("Session {session} ended ({why}); no longer held"));
            }
            Err(e) => log_warn(&format!("releasing session {session} failed: {e}")),
        }
    }

    /// The session's status now: `None` when its entry is gone.
    async fn status(&self, session: &str) -> Result<Option<SessionStatus>, ApiError> {
        Ok(self.devin.get(session).await?.map(|e| e.session_status))
    }

    /// The session's status once the remote exited (it can lag by seconds: up to five reads,
    /// a second apart, until it ended); `None` when the token was rejected.
    async fn settled_status(&self, sid: &str) -> Option<String> {
        let mut last = "unknown".to_string();
        for i in 0..5 {
            match self.status(sid).await {
                Ok(None) => return Some("gone".into()),
                Ok(Some(st @ (SessionStatus::Suspended | SessionStatus::Terminated))) => {
                    return Some(st.as_str().into());
                }
                Ok(Some(st)) => last = st.as_str().into(),
                Err(e) if e.is_auth() => {
                    auth_failed(&e);
                    return None;
                }
                Err(_) => {}
            }
            if i < 4 {
                self.pause(Duration::from_secs(1)).await;
            }
        }
        Some(last)
    }

    /// What serving a claim needs: its connect token, a gateway URL and the remote installed.
    /// A claim lacking one is released (`None`).
    async fn prepare(&self, entry: &QueueEntry) -> Option<(Secret, String, Remote)> {
        let sid = &entry.session_id;
        let Some(token) = entry.connect_token.clone() else {
            log_error(&format!("the claim of {sid} carries no connect token"));
            self.release(sid, "unusable claim").await;
            return None;
        };
        let Some(gateway) = entry
            .gateway_url
            .clone()
            .or_else(|| self.s.gateway_fallback.clone())
        else {
            log_error(&format!(
                "the claim of {sid} carries no gateway URL and DEVIN_OUTPOST_GATEWAY_URL is unset"
            ));
            self.release(sid, "no gateway").await;
            return None;
        };
        let remote: Remote = match serve::install(
            &self.http,
            &self.s,
            entry.remote_binary_sha.as_deref(),
            &gateway,
            entry.platform,
        )
        .await
        {
            Ok(r) => r,
            Err(e) => {
                log_error(&format!("cannot serve session {sid}: {e}"));
                self.release(sid, "remote unavailable").await;
                return None;
            }
        };
        Some((token, gateway, remote))
    }

    async fn serve(&self, entry: QueueEntry) -> Served {
        let sid = entry.session_id.clone();
        log_info(&format!(
            "Claimed session {sid} (kind {}, status {})",
            entry.kind, entry.session_status
        ));
        let Some((token, gateway, remote)) = self.prepare(&entry).await else {
            return Served::Done;
        };
        log_info(&format!(
            "Serving session {sid} with devin-remote {}",
            remote.sha
        ));
        let (stop_tx, stop_rx) = watch::channel(false);
        let renew = tokio::spawn(renew_loop(
            self.devin.clone(),
            sid.clone(),
            self.acceptor.clone(),
            entry.claim_deadline,
        ));
        let watcher = tokio::spawn(watch_status(self.devin.clone(), sid.clone(), stop_tx));
        let spec = RunSpec {
            session_id: &sid,
            gateway: &gateway,
            connect_token: &token,
            state_dir: self.s.data_dir.join("sessions").join(session_dir(&sid)),
            chrome_path: self.s.chrome_path.as_deref(),
        };
        let exit = serve::run(&remote, &spec, self.shutdown.clone(), stop_rx).await;
        renew.abort();
        watcher.abort();
        match exit {
            Ok(Exit::Shutdown) => {
                self.release(&sid, "worker stopping").await;
                Served::Shutdown
            }
            Ok(Exit::Code(0) | Exit::Stopped) => {
                let Some(last) = self.settled_status(&sid).await else {
                    return Served::Auth;
                };
                self.release(&sid, &last).await;
                Served::Done
            }
            Ok(Exit::Code(c)) => {
                log_error(&format!(
                    "devin-remote for session {sid} exited with code {c}"
                ));
                self.release(&sid, &format!("remote failed with code {c}"))
                    .await;
                Served::Done
            }
            Err(e) => {
                log_error(&format!("cannot serve session {sid}: {e}"));
                self.release(&sid, "remote did not start").await;
                Served::Done
            }
        }
    }
}

/// Renew the claim a minute (or half its lifetime) before its deadline, for as long as it runs.
async fn renew_loop(devin: DevinClient, sid: String, acceptor: String, mut deadline: Option<f64>) {
    // Not poll_until: renews the claim on the claim's own clock until the task is aborted.
    loop {
        let now = crate::time::now();
        let left = deadline.map(|d| d - now).unwrap_or(120.0);
        let wait = (left - (left / 2.0).min(60.0)).clamp(1.0, 600.0);
        tokio::time::sleep(Duration::from_secs_f64(wait)).await;
        match devin.claim(&sid, &acceptor).await {
            Ok(ClaimOutcome::Won(e)) => deadline = e.claim_deadline,
            Ok(_) => return,
            Err(e) => log_warn(&format!("renewing the claim of {sid} failed: {e}")),
        }
    }
}

/// Fallback for a remote that misses the end of its session: stop it after three consecutive
/// reads (10 s apart) that say the session is over.
async fn watch_status(devin: DevinClient, sid: String, stop: watch::Sender<bool>) {
    let mut ended = 0;
    // Not poll_until: supervises the session until it ends; no deadline to give up at.
    loop {
        tokio::time::sleep(Duration::from_secs(10)).await;
        let over = match devin.get(&sid).await {
            Ok(None) => true,
            Ok(Some(e)) => matches!(
                e.session_status,
                SessionStatus::Suspended | SessionStatus::Terminated
            ),
            Err(_) => false,
        };
        ended = if over { ended + 1 } else { 0 };
        if ended >= 3 {
            log_warn(&format!(
                "session {sid} is over but its remote is still running; stopping it"
            ));
            let _ = stop.send(true);
            return;
        }
    }
}

/// A directory name for a session id: its safe characters and a hash, so hostile ids never
/// escape the data dir and distinct ids never share one.
fn session_dir(session: &str) -> String {
    use sha2::{Digest, Sha256};
    let safe: String = session
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .take(40)
        .collect();
    let hash = &hex::encode(Sha256::digest(session.as_bytes()))[..12];
    format!("{safe}-{hash}")
}
