//! When to renew a claim and when to check a remote: pure functions of what a session's
//! [`Track`] remembers, so the executor never picks a time itself.
//!
//! Renewal is bounded by what the server grants (issue: with a 20 s TTL and a 60 s margin, a
//! deadline always inside the margin made every pass renew — 2,300 claims a second, and
//! provisioning never ran). A claim is renewed at the later of
//! - `renew_margin` before its deadline (the K8S operator's rule, specs §7), and
//! - half of the observed TTL after it was granted (the margin cannot exceed half the TTL),
//!
//! and never sooner than [`MIN_RENEW_GAP`] after the last renewal, whatever the TTL. Between
//! renewals the planner returns the session's other actions, so provisioning proceeds.
//!
//! A freshly launched remote is checked soon ([`EARLY_CHECKS`]) and then every
//! `liveness_every`: a remote that dies at once is noticed in a second, not two minutes.
//! [`EARLY_EXIT_LIMIT`] exits inside [`EARLY_WINDOW`] of their launch give the session up.

use super::{Limits, Track};

/// Fewest seconds between two renewals of one session, whatever the TTL.
pub const MIN_RENEW_GAP: f64 = 2.0;
/// Seconds after a launch at which the remote is checked, before the normal interval.
pub const EARLY_CHECKS: [f64; 3] = [1.0, 5.0, 15.0];
/// A remote that ends (non-zero, or gone) within this many seconds of its launch exited early.
pub const EARLY_WINDOW: f64 = 30.0;
/// Consecutive early exits before the session is given up (released, cooled off).
pub const EARLY_EXIT_LIMIT: u32 = 3;

/// When the claim (deadline `deadline`) should be renewed.
pub fn renew_at(t: &Track, deadline: f64, limits: &Limits) -> f64 {
    let mut at = deadline - limits.renew_margin;
    if let Some(ttl) = t.ttl.filter(|ttl| *ttl > 0.0) {
        at = at.max(deadline - ttl / 2.0);
    }
    if let Some(last) = t.last_renew {
        at = at.max(last + MIN_RENEW_GAP);
    }
    at
}

/// May a renewal be sent now (spacing only; the deadline rule is [`renew_at`])?
pub fn renew_allowed(t: &Track, now: f64) -> bool {
    t.last_renew.is_none_or(|last| now - last >= MIN_RENEW_GAP)
}

/// When a running remote (last confirmed at `checked_at`) is next checked.
pub fn next_check(t: &Track, checked_at: f64, limits: &Limits) -> f64 {
    if let Some(launched) = t.launched_at
        && let Some(at) = EARLY_CHECKS
            .iter()
            .map(|off| launched + off)
            .find(|at| *at > checked_at)
    {
        return at;
    }
    checked_at + limits.liveness_every
}

/// A claim TTL too short for the configured margin, with the numbers to log.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ShortTtl {
    /// Seconds the server granted.
    pub ttl: f64,
    /// The configured margin (`CLAIM_RENEW_MARGIN`).
    pub margin: f64,
    /// Seconds between renewals actually used.
    pub every: f64,
    /// Seconds left on the claim when it is renewed.
    pub spare: f64,
}

impl std::fmt::Display for ShortTtl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the server grants claims of {:.0} s, too short for CLAIM_RENEW_MARGIN={:.0} s: \
             renewing every {:.1} s instead, with {:.1} s to spare",
            self.ttl, self.margin, self.every, self.spare
        )
    }
}

/// `Some` when a TTL of `ttl` seconds cannot honour the margin: renewals then follow half the
/// TTL (or [`MIN_RENEW_GAP`]), and the operator should know.
pub fn short_ttl(ttl: f64, limits: &Limits) -> Option<ShortTtl> {
    if ttl <= 0.0 || limits.renew_margin <= ttl / 2.0 {
        return None;
    }
    let every = (ttl / 2.0).max(MIN_RENEW_GAP);
    Some(ShortTtl {
        ttl,
        margin: limits.renew_margin,
        every,
        spare: ttl - every,
    })
}

/// Why a session was given up (kept, with the cool-off, for `orchestrator status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GiveUpReason {
    /// The remote ended this many times in a row within [`EARLY_WINDOW`] of its launch; `code`
    /// is the last exit code (`None`: it vanished without one).
    EarlyExits { count: u32, code: Option<i32> },
    /// Provisioning or the remote failed this many times.
    Failures { count: u32 },
}

impl std::fmt::Display for GiveUpReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GiveUpReason::EarlyExits { count, code } => {
                let how = code.map_or("vanished".to_string(), |c| format!("exited {c}"));
                write!(
                    f,
                    "the remote ended {count} times within {EARLY_WINDOW:.0} s of its launch \
                     (last: {how})"
                )
            }
            GiveUpReason::Failures { count } => write!(f, "{count} failed attempts to serve it"),
        }
    }
}
