//! One provider's price table: what a vCPU-second, a GiB-second of memory and a GiB-hour of disk
//! cost while a sandbox is running, stopped or archived.
//!
//! Built-in defaults, read from each provider's public price page on 2026-12-04 (USD, on-demand,
//! no commitment discounts, no free allowances); override any entry in `outposts.toml` or the
//! environment (`DAYTONA_PRICES`, `COREWEAVE_PRICES`, `LOCAL_PRICES`, see [`Prices::apply`]).
//!
//! - Daytona (<https://www.daytona.io/pricing>): $0.000014 per vCPU-second and $0.0000045 per
//!   GiB-second of memory while running; storage $0.000108 per GiB-hour while running or
//!   stopped (the page's first 5 GiB free per organisation is not subtracted: it is per
//!   organisation, not per sandbox). Archived sandboxes live in object storage, which the page
//!   does not price separately: 0 by default.
//! - CoreWeave (<https://www.coreweave.com/pricing>): sandboxes are not priced on their own;
//!   they run on CPU nodes, and the general-purpose Intel Ice Lake node lists $3.36 per hour
//!   for 96 vCPUs and 384 GB, so a vCPU-hour is $0.035 with its 4 GiB of memory included
//!   (memory 0). The workspace volume is Distributed File Storage, $0.070 per GB-month
//!   (÷ 730 h = $0.0000959 per GiB-hour) while running or stopped; a slept (archived)
//!   workspace is kept in AI Object Storage (hot), $0.06 per GB-month ($0.0000822 per GiB-hour).
//! - Local: the machine is yours; everything is 0 unless you set `LOCAL_PRICES`.

use std::fmt;

/// What one sandbox holds: vCPUs, memory and disk.
#[derive(Debug, Clone, Copy, PartialEq, Default, serde::Serialize, serde::Deserialize)]
pub struct Resources {
    pub cpu: f64,
    pub memory_gib: f64,
    pub disk_gib: f64,
}

/// The billed states of a sandbox.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum CostState {
    /// Started: compute, memory and disk.
    Running,
    /// Stopped: the disk is kept on the provider's storage.
    Stopped,
    /// Archived (or snapshotted and deleted): the disk is kept in cheaper storage.
    Archived,
}

impl CostState {
    pub const ALL: [CostState; 3] = [CostState::Running, CostState::Stopped, CostState::Archived];

    pub fn as_str(self) -> &'static str {
        match self {
            CostState::Running => "running",
            CostState::Stopped => "stopped",
            CostState::Archived => "archived",
        }
    }
}

impl fmt::Display for CostState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The rates of one state, in USD.
#[derive(Debug, Clone, Copy, PartialEq, Default, serde::Serialize)]
pub struct Rates {
    pub vcpu_second: f64,
    pub memory_gib_second: f64,
    pub disk_gib_hour: f64,
}

/// One provider's resolved price table.
#[derive(Debug, Clone, Copy, PartialEq, Default, serde::Serialize)]
pub struct Prices {
    pub running: Rates,
    pub stopped: Rates,
    pub archived: Rates,
}

const DISK_ONLY: fn(f64) -> Rates = |disk_gib_hour| Rates {
    vcpu_second: 0.0,
    memory_gib_second: 0.0,
    disk_gib_hour,
};

impl Prices {
    /// Daytona's published prices (see the module doc).
    pub const fn daytona() -> Prices {
        Prices {
            running: Rates {
                vcpu_second: 0.000014,
                memory_gib_second: 0.0000045,
                disk_gib_hour: 0.000108,
            },
            stopped: Rates {
                vcpu_second: 0.0,
                memory_gib_second: 0.0,
                disk_gib_hour: 0.000108,
            },
            archived: Rates {
                vcpu_second: 0.0,
                memory_gib_second: 0.0,
                disk_gib_hour: 0.0,
            },
        }
    }

    /// CoreWeave's published node and storage prices, per sandbox (see the module doc).
    pub fn coreweave() -> Prices {
        let file_gib_hour = 0.070 / 730.0;
        Prices {
            running: Rates {
                vcpu_second: 3.36 / 96.0 / 3600.0,
                memory_gib_second: 0.0,
                disk_gib_hour: file_gib_hour,
            },
            stopped: DISK_ONLY(file_gib_hour),
            archived: DISK_ONLY(0.06 / 730.0),
        }
    }

    /// The local machine: free unless configured.
    pub const fn local() -> Prices {
        Prices {
            running: Rates {
                vcpu_second: 0.0,
                memory_gib_second: 0.0,
                disk_gib_hour: 0.0,
            },
            stopped: Rates {
                vcpu_second: 0.0,
                memory_gib_second: 0.0,
                disk_gib_hour: 0.0,
            },
            archived: Rates {
                vcpu_second: 0.0,
                memory_gib_second: 0.0,
                disk_gib_hour: 0.0,
            },
        }
    }

    pub fn rates(&self, state: CostState) -> &Rates {
        match state {
            CostState::Running => &self.running,
            CostState::Stopped => &self.stopped,
            CostState::Archived => &self.archived,
        }
    }

    /// USD per hour of a sandbox holding `res` in `state`.
    pub fn hourly(&self, res: &Resources, state: CostState) -> f64 {
        let r = self.rates(state);
        (res.cpu * r.vcpu_second + res.memory_gib * r.memory_gib_second) * 3600.0
            + res.disk_gib * r.disk_gib_hour
    }

    /// USD for `seconds` in `state`.
    pub fn cost(&self, res: &Resources, state: CostState, seconds: f64) -> f64 {
        self.hourly(res, state) * seconds / 3600.0
    }

    /// Override entries from a list such as
    /// `running.vcpu_second=0.00002,stopped.disk_gib_hour=0.0001` (commas or whitespace between
    /// entries; `outposts.toml` may give a list of strings). Entries not named keep their value.
    /// The error names the bad entry and what is expected.
    pub fn apply(&mut self, spec: &str) -> Result<(), String> {
        for entry in spec
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|e| !e.is_empty())
        {
            let (key, value) = entry
                .split_once('=')
                .ok_or_else(|| format!("`{entry}` is not STATE.RATE=NUMBER"))?;
            let (state, rate) = key
                .split_once('.')
                .ok_or_else(|| format!("`{key}` is not STATE.RATE (e.g. running.vcpu_second)"))?;
            let state = CostState::ALL
                .into_iter()
                .find(|s| s.as_str() == state.trim().to_ascii_lowercase())
                .ok_or_else(|| {
                    format!("`{state}` in `{entry}` is not running, stopped or archived")
                })?;
            let value: f64 = value
                .trim()
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite() && *v >= 0.0)
                .ok_or_else(|| format!("`{value}` in `{entry}` is not a price of 0 or more"))?;
            let rates = match state {
                CostState::Running => &mut self.running,
                CostState::Stopped => &mut self.stopped,
                CostState::Archived => &mut self.archived,
            };
            let slot = match rate.trim().to_ascii_lowercase().as_str() {
                "vcpu_second" => &mut rates.vcpu_second,
                "memory_gib_second" => &mut rates.memory_gib_second,
                "disk_gib_hour" => &mut rates.disk_gib_hour,
                other => {
                    return Err(format!(
                        "`{other}` in `{entry}` is not vcpu_second, memory_gib_second or \
                         disk_gib_hour"
                    ));
                }
            };
            *slot = value;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: Resources = Resources {
        cpu: 2.0,
        memory_gib: 4.0,
        disk_gib: 10.0,
    };

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn daytona_hourly_per_state() {
        let p = Prices::daytona();
        // 2 × 0.0504 + 4 × 0.0162 + 10 × 0.000108
        assert!(close(
            p.hourly(&SMALL, CostState::Running),
            0.1008 + 0.0648 + 0.00108
        ));
        assert!(close(p.hourly(&SMALL, CostState::Stopped), 0.00108));
        assert!(close(p.hourly(&SMALL, CostState::Archived), 0.0));
        assert!(close(p.cost(&SMALL, CostState::Stopped, 1800.0), 0.00054));
    }

    #[test]
    fn coreweave_and_local() {
        let p = Prices::coreweave();
        assert!(close(
            p.hourly(&SMALL, CostState::Running),
            2.0 * 0.035 + 10.0 * 0.070 / 730.0
        ));
        assert!(p.hourly(&SMALL, CostState::Archived) > 0.0);
        for s in CostState::ALL {
            assert_eq!(Prices::local().hourly(&SMALL, s), 0.0);
        }
    }

    #[test]
    fn apply_overrides_named_entries_only() {
        let mut p = Prices::daytona();
        p.apply("running.vcpu_second=0.001, archived.disk_gib_hour=0.5\nstopped.DISK_GIB_HOUR=0")
            .unwrap();
        assert_eq!(p.running.vcpu_second, 0.001);
        assert_eq!(p.running.memory_gib_second, 0.0000045);
        assert_eq!(p.archived.disk_gib_hour, 0.5);
        assert_eq!(p.stopped.disk_gib_hour, 0.0);
    }

    #[test]
    fn apply_rejects_bad_entries_naming_them() {
        let cases = [
            ("running", "STATE.RATE=NUMBER"),
            ("running=1", "STATE.RATE"),
            ("sleeping.vcpu_second=1", "`sleeping`"),
            ("running.gpu_second=1", "`gpu_second`"),
            ("running.vcpu_second=-1", "`-1`"),
            ("running.vcpu_second=abc", "`abc`"),
        ];
        for (spec, expect) in cases {
            let err = Prices::daytona().apply(spec).unwrap_err();
            assert!(err.contains(expect), "{spec}: {err}");
        }
    }
}
