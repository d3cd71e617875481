//! `WARM_*` resolved from the configuration (a bad value is an error naming the variable), and
//! the warm capacity line of `orchestrator status`.

use crate::config::{Config, ConfigError};
use crate::env;
use crate::orchestrator::warm::plan::Cap;
use crate::orchestrator::warm::{WarmIdle, WarmSettings, WarmStatus};

/// Dollars per hour: a number ≥ 0.
fn dollars(s: &str) -> Result<f64, String> {
    match s.trim_start_matches('$').parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!(
            "`{s}` is not an amount of dollars per hour (e.g. 2.50)"
        )),
    }
}

pub(super) fn warm_settings(config: &Config) -> Result<WarmSettings, ConfigError> {
    let idle = config
        .parse(&env::WARM_IDLE, WarmIdle::parse)?
        .unwrap_or(WarmIdle::Fixed(0));
    let max = config
        .parse(&env::WARM_MAX, |s| {
            s.parse::<usize>()
                .map_err(|_| format!("`{s}` is not a whole number"))
        })?
        .unwrap_or_else(|| env::WARM_MAX.default_count());
    let delete_on_exit = config
        .parse(&env::WARM_ON_EXIT, |s| {
            match s.to_ascii_lowercase().as_str() {
                "delete" => Ok(true),
                "keep" => Ok(false),
                _ => Err(format!("`{s}` is neither `delete` nor `keep`")),
            }
        })?
        .unwrap_or(true);
    Ok(WarmSettings {
        idle,
        max,
        max_hourly_cost: config.parse(&env::WARM_MAX_HOURLY_COST, dollars)?,
        sandbox_hourly_cost: config.parse(&env::WARM_SANDBOX_HOURLY_COST, dollars)?,
        delete_on_exit,
    })
}

/// `warm  2 idle of 3 (WARM_IDLE=auto), 1 creating; served 12 warm, 1 cold; idle 340 sandbox-s`
pub(super) fn warm_line(w: &WarmStatus) -> String {
    let capped = match w.capped_by {
        Some(Cap::Max) => ", capped by WARM_MAX",
        Some(Cap::Spend) => ", capped by WARM_MAX_HOURLY_COST",
        None => "",
    };
    format!(
        "warm         {} idle of {} (WARM_IDLE={}{capped}), {} creating; served {} warm, {} cold; idle {:.0} sandbox-seconds\n",
        w.idle, w.target, w.setting, w.creating, w.hits, w.misses, w.idle_seconds
    )
}
