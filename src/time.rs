//! Wall-clock time as Unix seconds, the unit state files, queue entries and the planner use.

use std::time::{SystemTime, UNIX_EPOCH};

/// Now, in Unix seconds (0 if the clock is before 1970).
pub fn now() -> f64 {
    unix_seconds(SystemTime::now()).unwrap_or(0.0)
}

/// `t` in Unix seconds; `None` before 1970.
pub fn unix_seconds(t: SystemTime) -> Option<f64> {
    t.duration_since(UNIX_EPOCH).ok().map(|d| d.as_secs_f64())
}
