//! Which provider each launched worker lives on, remembered so that every later command — and
//! every hint printed with a bare `outposts worker … ID` — finds it without `--provider`.
//!
//! A small JSON file `workers.json` in the state dir (0600, written atomically): sandbox id →
//! provider, name, outpost. No secrets. A lost or unreadable file only means a search across the
//! configured providers (see `commands/worker.rs`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::provider::ProviderKind;

/// One remembered worker.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Remembered {
    pub provider: String,
    pub name: String,
    pub outpost: String,
}

/// The remembered workers of one state dir.
pub struct Registry {
    path: PathBuf,
}

impl Registry {
    pub fn new(state_dir: &Path) -> Self {
        Registry {
            path: state_dir.join("workers.json"),
        }
    }

    fn read(&self) -> BTreeMap<String, Remembered> {
        std::fs::read(&self.path)
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default()
    }

    /// The provider of the worker with this id or name, when it was launched from here.
    pub fn provider_of(&self, id_or_name: &str) -> Option<ProviderKind> {
        self.read()
            .iter()
            .find(|(id, w)| id.as_str() == id_or_name || w.name == id_or_name)
            .and_then(|(_, w)| ProviderKind::parse(&w.provider).ok())
    }

    /// The providers workers were launched on from here.
    pub fn providers(&self) -> Vec<ProviderKind> {
        let mut kinds: Vec<ProviderKind> = self
            .read()
            .values()
            .filter_map(|w| ProviderKind::parse(&w.provider).ok())
            .collect();
        kinds.sort_by_key(|k| k.to_string());
        kinds.dedup();
        kinds
    }

    /// Remember launched workers.
    pub fn remember(&self, workers: &[(String, Remembered)]) -> anyhow::Result<()> {
        let mut all = self.read();
        for (id, w) in workers {
            all.insert(id.clone(), w.clone());
        }
        if let Some(dir) = self.path.parent() {
            crate::orchestrator::state::StateDir::open(dir)?;
        }
        crate::orchestrator::state::write_atomic(&self.path, &serde_json::to_vec_pretty(&all)?)
    }
}
