//! Devin half of the emulator (fleet API, connect, remote distribution, gateway).

use axum::Router;

use super::{AppState, EmulatorOptions};

pub struct DevinEmu {
    token: String,
    outpost_id: String,
}

impl DevinEmu {
    pub fn new(_opts: &EmulatorOptions, _base_url: &str) -> anyhow::Result<Self> {
        Ok(DevinEmu {
            token: format!("cog_emu{}", uuid::Uuid::new_v4().simple()),
            outpost_id: format!("outpost_env-{}", uuid::Uuid::new_v4().simple()),
        })
    }

    pub fn env_pairs(&self, base_url: &str) -> Vec<(String, String)> {
        vec![
            ("DEVIN_API_URL".into(), base_url.to_string()),
            ("DEVIN_APP_URL".into(), base_url.to_string()),
            (
                "DEVIN_WORKER_STATIC_BASE_URL".into(),
                format!("{base_url}/static/devin-rs/remote/"),
            ),
            ("DEVIN_OUTPOSTS_TOKEN".into(), self.token.clone()),
            ("OUTPOST_ID".into(), self.outpost_id.clone()),
        ]
    }

    pub fn persist(&self) {}
}

pub fn router() -> Router<AppState> {
    Router::new()
}
