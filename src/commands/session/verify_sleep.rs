//! `session verify --create --sleep-cycle`: the command's side of `verify::sleep_cycle` —
//! refusing a real Devin API before anything is created, narrating the cycle, the
//! `sleep_cycle` part of the `--json` document and its line in the verdict.

use std::time::{Duration, Instant};

use schemars::JsonSchema;
use serde::Serialize;

use crate::api::http::ApiError;
use crate::commands::emulator::{Signal, Signals};
use crate::emulator::client::EmulatorClient;
use crate::error::CliError;
use crate::orchestrator::integrity::IntegrityRow;
use crate::output::Printer;
use crate::poll::{Backoff, Poll, Waited, poll_until};
use crate::provider::{Provider, SandboxInfo};
use crate::verify::sleep_cycle::{CycleStep, Cycled, SessionControl, SleepCycle, wake_verdict};
use crate::verify::{Comparison, compare, show};

/// How long the wake's integrity verdict is looked for in the state dir once served again (the
/// orchestrator writes its status file every pass).
const VERDICT_WAIT: Duration = Duration::from_secs(10);

/// `sleep_cycle` in `session verify --create --sleep-cycle --json`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SleepCycleDoc {
    pub result: CycleResult,
    /// The steps reached, seconds after the session was created.
    pub steps: Vec<CycleStepAt>,
    /// Where the cycle stalled (`timeout`).
    pub stalled_at: Option<String>,
    /// What the file held after the wake (`mismatch`).
    pub found: Option<String>,
    /// The sandbox that served the woken session.
    #[schemars(with = "Option<serde_json::Value>")]
    pub sandbox: Option<SandboxInfo>,
    /// The orchestrator's check of the wake (`intact|changed|lost|unchecked`, the first paths),
    /// read from its state dir (STATE_DIR); null when that is not at hand here.
    pub wake_integrity: Option<IntegrityRow>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CycleResult {
    /// The proof was read again after the wake.
    Match,
    /// The file came back with other contents.
    Mismatch,
    /// The file is gone after the wake.
    Lost,
    /// The wait ran out (`stalled_at` says where).
    Timeout,
}

impl SleepCycleDoc {
    pub fn passed(&self) -> bool {
        self.result == CycleResult::Match
    }

    /// The verdict's line about the cycle.
    pub fn line(&self, path: &str) -> String {
        let integrity = match &self.wake_integrity {
            Some(r) if r.paths.is_empty() => format!("; wake integrity {}", r.result),
            Some(r) => format!("; wake integrity {} ({})", r.result, r.paths.join(", ")),
            None => String::new(),
        };
        match self.result {
            CycleResult::Match => format!("and again after a sleep cycle{integrity}"),
            CycleResult::Mismatch => format!(
                "but after a sleep cycle {path} holds {}{integrity}",
                show(self.found.as_deref().unwrap_or_default())
            ),
            CycleResult::Lost => format!("but after a sleep cycle {path} is gone{integrity}"),
            CycleResult::Timeout => format!(
                "but the sleep cycle timed out: {}",
                self.stalled_at.as_deref().unwrap_or("stalled")
            ),
        }
    }
}

/// A step reached, seconds after the session was created.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CycleStepAt {
    pub step: CycleStep,
    pub at_seconds: f64,
}

/// The emulator's admin client, or the usage error (exit 2) that says why not, before any
/// session is created: only a loopback URL that answers `/_emulator/info` is the emulator, and
/// nothing else is sent to a real API.
pub async fn admin(
    http: crate::api::http::HttpClient,
    api_url: &str,
) -> anyhow::Result<EmulatorClient> {
    let refuse = |why: String| -> anyhow::Error {
        CliError::usage(
            format!(
                "--sleep-cycle needs a way to suspend and resume the proof session, and Devin's v3 sessions API has none; DEVIN_API_URL ({api_url}) is not the emulator ({why})"
            ),
            "drop --sleep-cycle to verify against this Devin API; the cycle runs against the emulator (`outposts emulator start`, then the DEVIN_API_URL `outposts emulator env` prints)",
        )
        .into()
    };
    let loopback = url::Url::parse(api_url)
        .ok()
        .is_some_and(|u| match u.host() {
            Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
            Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
            Some(url::Host::Domain(d)) => d == "localhost",
            None => false,
        });
    if !loopback {
        return Err(refuse("not a loopback address".into()));
    }
    let admin = EmulatorClient::new(http, api_url);
    match tokio::time::timeout(Duration::from_secs(10), admin.info()).await {
        Ok(Ok(_)) => Ok(admin),
        Ok(Err(e)) => Err(refuse(format!("/_emulator/info: {e}"))),
        Err(_) => Err(refuse("/_emulator/info did not answer in 10s".into())),
    }
}

/// The emulator's admin API suspends and resumes sessions for the cycle.
#[async_trait::async_trait]
impl SessionControl for EmulatorClient {
    async fn state(&self, session: &str) -> Result<Option<(u32, String)>, ApiError> {
        Ok(self
            .session(session)
            .await?
            .map(|s| (s.generation, s.session_status)))
    }

    async fn suspend(&self, session: &str) -> Result<(), ApiError> {
        EmulatorClient::suspend(self, session).await.map(drop)
    }

    async fn resume(&self, session: &str) -> Result<(), ApiError> {
        EmulatorClient::resume(self, session).await.map(drop)
    }
}

/// What `run` needs besides the proof session.
pub struct Cycle<'a> {
    pub p: &'a Printer,
    pub admin: &'a EmulatorClient,
    pub provider: &'a dyn Provider,
    pub session_id: &'a str,
    pub proof: &'a str,
    pub path: &'a str,
    pub wait: Duration,
    /// When the session was created (the steps' clock).
    pub start: Instant,
    /// The state dir, when configured here.
    pub state_root: Option<std::path::PathBuf>,
}

impl Cycle<'_> {
    /// Run the cycle on the sandbox the proof was read from; a stop signal ends it.
    pub async fn run(
        &self,
        sandbox: &SandboxInfo,
        signals: &mut Signals,
    ) -> Result<anyhow::Result<SleepCycleDoc>, Signal> {
        let suspended_at = crate::time::now();
        let mut steps = Vec::new();
        let cycle = SleepCycle {
            admin: self.admin,
            provider: self.provider,
            session_id: self.session_id,
            sandbox,
            path: self.path,
            wait: self.wait,
        };
        let (p, start) = (self.p, self.start);
        let ran = cycle.run(|step| {
            let at = start.elapsed().as_secs_f64();
            p.note(&format!("[{at:>5.1}s] sleep cycle: {}", step.label()));
            steps.push(CycleStepAt {
                step,
                at_seconds: (at * 10.0).round() / 10.0,
            });
        });
        let cycled = tokio::select! {
            c = ran => c,
            sig = signals.recv() => return Err(sig),
        };
        let cycled = match cycled {
            Ok(c) => c,
            Err(e) => return Ok(Err(e.into())),
        };
        let mut doc = SleepCycleDoc {
            result: CycleResult::Timeout,
            steps,
            stalled_at: None,
            found: None,
            sandbox: None,
            wake_integrity: None,
        };
        match cycled {
            Cycled::Stalled { reached, sandbox } => {
                doc.stalled_at = Some(reached.stall().to_string());
                doc.sandbox = sandbox;
                return Ok(Ok(doc));
            }
            Cycled::Read { sandbox, bytes } => {
                doc.result = match bytes.as_deref().map(|b| compare(self.proof, b)) {
                    None => CycleResult::Lost,
                    Some(Comparison::Match { .. }) => CycleResult::Match,
                    Some(Comparison::Mismatch { found, .. }) => {
                        doc.found = Some(found.chars().take(4096).collect());
                        CycleResult::Mismatch
                    }
                };
                doc.sandbox = Some(sandbox);
            }
        }
        doc.wake_integrity = self.verdict(suspended_at).await;
        Ok(Ok(doc))
    }

    /// The wake's integrity verdict from the orchestrator's status file, once it is written.
    async fn verdict(&self, since: f64) -> Option<IntegrityRow> {
        let root = self.state_root.as_deref()?;
        root.join("outposts").is_dir().then_some(())?;
        let look = || async {
            Ok::<_, std::convert::Infallible>(match wake_verdict(root, self.session_id, since) {
                Some(row) => Poll::Ready(row),
                None => Poll::Pending(()),
            })
        };
        let step = Backoff::fixed(Duration::from_millis(250));
        match poll_until(Instant::now() + VERDICT_WAIT, step, look).await {
            Ok(Waited::Ready(row)) => Some(row),
            _ => {
                self.p.note(
                    "no wake integrity check of this session in the state dir (STATE_DIR): not known",
                );
                None
            }
        }
    }
}
