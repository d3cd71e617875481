//! What this instance remembers about one session, and the one place that memory changes:
//! [`Track::apply`] folds the typed outcome of an observation or an action into it.
//!
//! Rules kept here (tests in `tests.rs`):
//! - A claim won (or renewed) makes the session held; a claim that errored backs further claims
//!   of it off; a 409 on a claim leaves it alone until the next relist.
//! - Another acceptor holding it (a sighting, or a 409 on renewal) ends our hold at once: we
//!   touch nothing of it any more.
//! - `suspended`/absent sightings are strikes, at most one per `reread_every`; `running`/`pending`
//!   forgive them; `terminated` is final.
//! - A failed provisioning attempt or a crashed remote counts a failure and backs off
//!   ([`backoff`]); a provisioning failure also ends the hold (release, sandbox stopped — left
//!   alone when it is not ours); after [`MAX_FAILURES`], for a foreign sandbox, or for a network
//!   policy that cannot be enforced, the session cools off for [`COOL_OFF`].
//! - Ending retries with backoff; a release that failed is retried after [`RELEASE_RETRY`].

use crate::api::devin_types::SessionStatus;

use super::Limits;
use super::schedule::{EARLY_WINDOW, GiveUpReason};

/// Consecutive `suspended`/absent reads before a session is treated as asleep.
pub const SUSPEND_STRIKES: u8 = 3;
/// Status re-reads after the remote exits 0 before it is treated as a crash.
pub const EXIT_REREADS: u8 = 5;
/// Failed provisioning/launch attempts (or failed ends) before giving up.
pub const MAX_FAILURES: u32 = 5;
/// How long a given-up session, or one whose sandbox is not ours, is left alone.
pub const COOL_OFF: f64 = 600.0;
/// How long an unheld session's failures are remembered after its last backoff ended: forgotten
/// at once, every attempt would start again at the first backoff step and the give-up after
/// [`MAX_FAILURES`] would never come.
pub const FAILURE_MEMORY: f64 = 900.0;
/// Pause before a failed release is tried again.
pub const RELEASE_RETRY: f64 = 5.0;

/// Backoff after `failures` failures: 5 s, 10 s, … capped at 5 minutes.
pub fn backoff(failures: u32) -> f64 {
    (5.0 * 2f64.powi(failures.saturating_sub(1).min(10) as i32)).min(300.0)
}

/// The remote (`devin-remote serve` or the CLI) of a held session.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum RemoteState {
    /// Not checked since we (re)gained the claim.
    #[default]
    Unknown,
    /// Checked: not running (never launched, or gone without an exit code).
    NotRunning,
    /// Running; `checked_at` is when liveness was last confirmed.
    Running { checked_at: f64 },
    /// Exited with this code at this time.
    Exited { code: i32, at: f64 },
}

/// Why a session ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EndKind {
    /// Suspended, absent or DELETED: stop the sandbox (disk kept), release.
    Sleep,
    /// `terminated` observed: delete the sandbox, release.
    Terminate,
    /// Provisioning failed: stop the sandbox (disk kept), release, back off.
    Failed,
    /// The sandbox under the session's name is not ours: leave it, release, cool off.
    Foreign,
    /// Too many failures: stop the sandbox (disk kept), release, cool off.
    GiveUp,
}

/// Who holds a session's claim, according to one sighting of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Holder {
    Me,
    Other,
    Nobody,
}

/// The session as one list row, watch event or exact read showed it.
#[derive(Debug, Clone, PartialEq)]
pub struct Sighting {
    /// `None`: absent (from a complete listing, a 404, or DELETED).
    pub status: Option<SessionStatus>,
    pub holder: Holder,
    /// The claim deadline the sighting reports (only trusted from a listing or a claim).
    pub deadline: Option<f64>,
}

impl Sighting {
    pub fn absent() -> Sighting {
        Sighting {
            status: None,
            holder: Holder::Nobody,
            deadline: None,
        }
    }
}

/// How a claim (or renewal) call ended.
#[derive(Debug, Clone, PartialEq)]
pub enum ClaimResult {
    Won {
        deadline: Option<f64>,
        /// The answer carried a connect token (kept by the executor, never here).
        token: bool,
    },
    /// 409: another acceptor holds it.
    Conflict,
    /// The session is not in the queue.
    Gone,
    /// No answer, or an error: the outcome is unknown (the claim may have committed).
    Failed,
}

/// What provisioning achieved.
#[derive(Debug, Clone, PartialEq)]
pub enum ProvisionResult {
    /// The remote runs: found running, or launched now.
    Served,
    /// The sandbox is up but the remote is not running, and launching needs a connect token,
    /// which only a claim answer carries.
    NeedToken,
    Failed(ProvisionFailure),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProvisionFailure {
    /// A sandbox under the session's name does not carry its labels.
    Foreign,
    /// The session's network policy cannot be enforced (unreadable, not expressible by the
    /// provider, or not in force after create): it will not be next time either.
    Policy,
    /// Anything else (the reason is in the log and the event).
    Other,
}

/// What a liveness check saw.
#[derive(Debug, Clone, PartialEq)]
pub enum CheckResult {
    /// This instance knows no sandbox for the session.
    NoSandbox,
    /// The sandbox is not started any more (stopped or removed under a live session).
    SandboxLost,
    /// The sandbox could not be read: assume nothing changed.
    SandboxUnreadable,
    Running,
    Exited(i32),
    /// Neither running nor an exit code.
    Absent,
    /// The check itself failed.
    Failed,
}

/// The outcome of an observation or an action, as [`Track::apply`] takes it.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// A list row or watch event.
    Seen(Sighting),
    /// A full relist begun at `began` happened (claims that lost a race may be tried again; a
    /// claim left unanswered before `began` is settled by what the listing showed).
    Relisted {
        began: f64,
    },
    /// At start-up the server listed this claim as ours.
    Reattached {
        deadline: Option<f64>,
    },
    Claimed(ClaimResult),
    Renewed(ClaimResult),
    /// The exact read confirming an adoption: ours (`Some`) or not.
    Adopted(Option<Sighting>),
    /// An exact re-read of the status; `None` when the read failed.
    Reread(Option<Sighting>),
    Provisioned(ProvisionResult),
    Checked(CheckResult),
    /// The end's sandbox side (stop/delete, or nothing to do) succeeded or not, and the
    /// release went through or not (`None`: not tried, because the sandbox side failed).
    Ended {
        kind: EndKind,
        sandbox_done: bool,
        released: Option<bool>,
    },
}

/// What we remember about one session. Rebuilt from the server and the provider after a
/// restart; never persisted (it would hold a connect token).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Track {
    /// We hold (or believe we hold) its claim.
    pub held: bool,
    pub claim_deadline: Option<f64>,
    /// A connect token from a claim response is in memory.
    pub has_token: bool,
    pub remote: RemoteState,
    /// Consecutive suspended/absent observations, at most one per `Limits::reread_every`.
    pub strikes: u8,
    /// When the last strike was counted.
    pub last_strike: Option<f64>,
    /// Status re-reads done since the remote exited 0.
    pub rereads: u8,
    pub failures: u32,
    /// No new attempt before this time (backoff after a failure, or cooling off).
    pub retry_at: Option<f64>,
    /// `terminated` has been observed.
    pub terminated: bool,
    /// A claim attempt lost (409) since the last relist: leave it alone until the server view
    /// changes.
    pub lost_race: bool,
    /// A claim sent then got no answer (an error or a timeout) at this time: it may have
    /// committed, so it counts against the cap until a relist begun after it shows the truth.
    pub claim_unsure_since: Option<f64>,
    /// A list row or watch event said another acceptor holds it. Views lag (a replayed event,
    /// a listing read before our claim's answer), so an exact read decides before we let go:
    /// letting go on a stale row freed a place under the cap the server still counted.
    pub holder_doubt: bool,
    /// When this instance last re-read the status (rate-limits re-reads).
    pub last_reread: Option<f64>,
    /// Provisioning failed: the session is to be ended this way.
    pub failed: Option<EndKind>,
    /// Ending failed (the sandbox side or the release): try again after this time.
    pub end_retry_at: Option<f64>,
    /// Failed attempts at the sandbox side of ending so far.
    pub end_failures: u32,
    /// Consecutive claim attempts that ended in an error (not a 409): backs further claims off.
    pub claim_errors: u32,
    /// The claim lifetime the server granted at the last claim or renewal (deadline − now).
    pub ttl: Option<f64>,
    /// When the last claim or renewal answer (or failure) arrived: renewals are spaced.
    pub last_renew: Option<f64>,
    /// When provisioning last reported the remote served: the early checks count from here.
    pub launched_at: Option<f64>,
    /// Consecutive remote ends (non-zero or vanished) within `EARLY_WINDOW` of their launch.
    pub early_exits: u32,
    /// Why the session was last given up (kept through the cool-off, for the status).
    pub gave_up: Option<GiveUpReason>,
}

impl Track {
    /// Fold one outcome in. `now` is when it happened.
    pub fn apply(&mut self, outcome: Outcome, now: f64, limits: &Limits) {
        let spacing = limits.reread_every;
        match outcome {
            Outcome::Seen(s) => {
                if !self.held {
                    return;
                }
                if s.holder == Holder::Other {
                    self.holder_doubt = true;
                    return;
                }
                self.observe(s.status, now, spacing);
                if s.holder == Holder::Me {
                    self.claim_deadline = s.deadline.or(self.claim_deadline);
                }
            }
            Outcome::Relisted { began } => {
                self.lost_race = false;
                if self.claim_unsure_since.is_some_and(|t| t < began) {
                    self.claim_unsure_since = None;
                }
            }
            Outcome::Reattached { deadline } => {
                self.held = true;
                self.claim_unsure_since = None;
                self.claim_deadline = deadline;
            }
            Outcome::Claimed(r) => self.claimed(r, now),
            Outcome::Renewed(r) => {
                // Whatever the answer, the next renewal is spaced from this one.
                self.last_renew = Some(now);
                self.renewed(r, now, spacing);
            }
            Outcome::Adopted(Some(s)) => {
                self.held = true;
                self.forgive_claim_errors();
                self.claim_deadline = s.deadline;
                self.observe(s.status, now, spacing);
            }
            Outcome::Adopted(None) => {}
            Outcome::Reread(read) => {
                self.last_reread = Some(now);
                let Some(s) = read else { return };
                self.holder_doubt = false;
                if matches!(self.remote, RemoteState::Exited { code: 0, .. }) {
                    self.rereads = self.rereads.saturating_add(1);
                }
                if s.holder == Holder::Other {
                    self.held = false;
                } else {
                    self.observe(s.status, now, spacing);
                }
            }
            Outcome::Provisioned(r) => match r {
                ProvisionResult::Served => self.running(now),
                ProvisionResult::NeedToken => self.remote = RemoteState::NotRunning,
                ProvisionResult::Failed(why) => self.provision_failed(why, now),
            },
            Outcome::Checked(r) => self.checked(r, now),
            Outcome::Ended {
                kind,
                sandbox_done,
                released,
            } => self.ended(kind, sandbox_done, released, now),
        }
    }

    /// A claim call's answer.
    fn claimed(&mut self, r: ClaimResult, now: f64) {
        match r {
            ClaimResult::Won { deadline, token } => self.won(deadline, token, now),
            ClaimResult::Conflict => self.lost_race = true,
            ClaimResult::Gone => {}
            ClaimResult::Failed => {
                // The claim may have committed: the next relist shows it as ours (→
                // adopt) or not. A session whose claims keep failing backs off.
                self.lost_race = true;
                self.claim_unsure_since = Some(now);
                self.claim_errors = self.claim_errors.saturating_add(1);
                self.retry_at = Some(now + backoff(self.claim_errors));
            }
        }
    }

    /// What a liveness check saw.
    fn checked(&mut self, r: CheckResult, now: f64) {
        match r {
            CheckResult::NoSandbox => self.remote = RemoteState::Unknown,
            CheckResult::SandboxLost => self.remote = RemoteState::NotRunning,
            CheckResult::SandboxUnreadable => {
                self.remote = RemoteState::Running { checked_at: now }
            }
            CheckResult::Running => {
                self.remote = RemoteState::Running { checked_at: now };
                // Up a moment after its launch proves little: a remote that dies within
                // the early window keeps its count until it outlives the window.
                if self.launched_at.is_none_or(|l| now - l >= EARLY_WINDOW) {
                    self.failures = 0;
                    self.early_exits = 0;
                }
            }
            CheckResult::Exited(code) => {
                self.remote = RemoteState::Exited { code, at: now };
                self.rereads = 0;
                if code != 0 {
                    self.ended_early(now);
                    self.fail(now);
                }
            }
            CheckResult::Absent => {
                self.remote = RemoteState::NotRunning;
                self.ended_early(now);
                self.fail(now);
            }
            // Unknown: try again at the next liveness round, not in a tight loop.
            CheckResult::Failed => self.remote = RemoteState::Running { checked_at: now },
        }
    }

    /// How an end went: the sandbox side, then the release.
    fn ended(&mut self, kind: EndKind, sandbox_done: bool, released: Option<bool>, now: f64) {
        if !sandbox_done {
            // Retried with backoff; after MAX_FAILURES the planner releases the session
            // without finishing its sandbox (the janitor takes the sandbox over).
            self.end_failures += 1;
            if self.end_failures < MAX_FAILURES {
                self.end_retry_at = Some(now + backoff(self.end_failures));
            }
            return;
        }
        if released != Some(true) {
            self.end_retry_at = Some(now + RELEASE_RETRY);
            return;
        }
        // Released: what is worth remembering of a session we no longer hold.
        *self = match kind {
            EndKind::GiveUp => Track {
                failures: self.failures,
                retry_at: Some(now + COOL_OFF),
                gave_up: Some(self.give_up_reason()),
                ..Track::default()
            },
            EndKind::Failed | EndKind::Foreign => Track {
                failures: self.failures,
                retry_at: self.retry_at,
                ..Track::default()
            },
            EndKind::Sleep | EndKind::Terminate => Track::default(),
        };
    }

    /// Worth remembering once unheld: its failures still back it off (or will, for a while).
    pub fn worth_keeping(&self, now: f64) -> bool {
        self.held || self.retry_at.is_some_and(|r| r + FAILURE_MEMORY > now)
    }

    /// A status sighting made at `now` (`None` = absent/DELETED). A suspended/absent sighting
    /// is a strike only if the last strike is at least `spacing` seconds old: a list, a watch
    /// event and a read arriving together are one sighting, so "three consecutive suspended
    /// reads" always spans `2 × spacing` and a brief `suspended` blip is tolerated however many
    /// sources report it.
    fn observe(&mut self, status: Option<SessionStatus>, now: f64, spacing: f64) {
        match status {
            Some(SessionStatus::Terminated) => self.terminated = true,
            Some(SessionStatus::Suspended) | None => {
                if self.last_strike.is_none_or(|t| now - t >= spacing) {
                    self.strikes = self.strikes.saturating_add(1);
                    self.last_strike = Some(now);
                }
            }
            Some(SessionStatus::Running) | Some(SessionStatus::Pending) => {
                self.strikes = 0;
                self.last_strike = None;
            }
            // Unknown values tell us nothing: neither a strike nor a reset.
            Some(SessionStatus::Unknown) => {}
        }
    }

    fn renewed(&mut self, r: ClaimResult, now: f64, spacing: f64) {
        match r {
            // Renewed for a connect token to launch with, and none came: that launch
            // cannot happen, which is a provisioning failure like any other.
            ClaimResult::Won { token: false, .. }
                if self.remote == RemoteState::NotRunning && !self.has_token =>
            {
                self.provision_failed(ProvisionFailure::Other, now)
            }
            ClaimResult::Won { deadline, token } => self.won(deadline, token, now),
            ClaimResult::Conflict => self.held = false,
            ClaimResult::Gone => self.observe(None, now, spacing),
            ClaimResult::Failed => {}
        }
    }

    fn won(&mut self, deadline: Option<f64>, token: bool, now: f64) {
        self.held = true;
        self.holder_doubt = false;
        self.last_renew = Some(now);
        // The window the server grants as this clock sees it (the deadline is the server's):
        // renewal times derived from it compare with the same clock, so a skew cancels out.
        self.ttl = deadline.map(|d| d - now).filter(|t| *t > 0.0).or(self.ttl);
        self.lost_race = false;
        self.forgive_claim_errors();
        self.claim_deadline = deadline;
        self.has_token = token;
    }

    /// The backoff was for claiming; the claim is ours now (so no longer in doubt).
    fn forgive_claim_errors(&mut self) {
        self.claim_unsure_since = None;
        if self.claim_errors > 0 {
            self.claim_errors = 0;
            self.retry_at = None;
        }
    }

    /// Why the planner gives this session up now.
    pub fn give_up_reason(&self) -> GiveUpReason {
        if self.early_exits >= super::schedule::EARLY_EXIT_LIMIT {
            GiveUpReason::EarlyExits {
                count: self.early_exits,
                code: match self.remote {
                    RemoteState::Exited { code, .. } => Some(code),
                    _ => None,
                },
            }
        } else {
            GiveUpReason::Failures {
                count: self.failures,
            }
        }
    }

    /// The remote ended badly: early when within `EARLY_WINDOW` of its launch.
    fn ended_early(&mut self, now: f64) {
        if self.launched_at.is_some_and(|l| now - l < EARLY_WINDOW) {
            self.early_exits += 1;
        } else {
            self.early_exits = 0;
        }
    }

    fn running(&mut self, now: f64) {
        if !matches!(self.remote, RemoteState::Running { .. }) {
            self.rereads = 0;
            self.launched_at = Some(now);
        }
        self.remote = RemoteState::Running { checked_at: now };
    }

    fn provision_failed(&mut self, why: ProvisionFailure, now: f64) {
        self.failures += 1;
        self.remote = RemoteState::Unknown;
        let cool = matches!(why, ProvisionFailure::Foreign | ProvisionFailure::Policy)
            || self.failures >= MAX_FAILURES;
        self.retry_at = Some(
            now + if cool {
                COOL_OFF
            } else {
                backoff(self.failures)
            },
        );
        self.failed = Some(match why {
            ProvisionFailure::Foreign => EndKind::Foreign,
            ProvisionFailure::Other | ProvisionFailure::Policy => EndKind::Failed,
        });
    }

    fn fail(&mut self, now: f64) {
        self.failures += 1;
        self.retry_at = Some(now + backoff(self.failures));
    }
}
