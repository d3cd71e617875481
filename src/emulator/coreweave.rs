//! Coreweave half of the emulator.

use axum::Router;

use super::{AppState, EmulatorOptions};

pub struct CoreweaveEmu {}

impl CoreweaveEmu {
    pub fn new(_opts: &EmulatorOptions, _base_url: &str) -> anyhow::Result<Self> {
        Ok(CoreweaveEmu {})
    }

    pub fn env_pairs(&self, _base_url: &str) -> Vec<(String, String)> {
        Vec::new()
    }
}

pub fn router() -> Router<AppState> {
    Router::new()
}
