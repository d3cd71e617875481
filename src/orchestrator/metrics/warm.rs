//! The warm capacity's gauges.

use super::{Metrics, labels};

impl Metrics {
    /// Idle (started, waiting), being created, and the planner's target.
    pub(in crate::orchestrator) fn warm_capacity(
        &self,
        idle: usize,
        creating: usize,
        target: usize,
    ) {
        for (state, n) in [("idle", idle), ("creating", creating), ("target", target)] {
            self.warm
                .get_or_create(&labels(&[("state", state)]))
                .set(n as i64);
        }
    }
}
