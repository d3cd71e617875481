//! Which provider each launched worker lives on, remembered so that every later command — and
//! every hint printed with a bare `outposts worker … ID` — finds it without `--provider`.
//!
//! A small JSON file `workers.json` in the state dir (0600, written atomically): sandbox id →
//! provider, name, outpost. No secrets. A lost or unreadable file only means a search across the
//! configured providers (see `commands/worker.rs`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{WorkerError, Workers};
use crate::provider::{ProviderKind, SandboxInfo};

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

/// The providers to look on without `--provider`: the remembered one (for `id`), those workers
/// were launched on from here, `default`, then the rest; only those configured here are built
/// (a provider without its settings holds no worker of ours).
pub async fn candidates(
    settings: impl Fn(ProviderKind) -> anyhow::Result<crate::settings::ProviderSettings>,
    http: crate::api::HttpClient,
    default: ProviderKind,
    registry: &Registry,
    id: Option<&str>,
) -> Vec<Workers> {
    let mut order: Vec<ProviderKind> = id
        .and_then(|i| registry.provider_of(i))
        .into_iter()
        .collect();
    order.extend(registry.providers());
    order.push(default);
    order.extend([
        ProviderKind::Daytona,
        ProviderKind::Coreweave,
        ProviderKind::Local,
    ]);
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for k in order {
        if seen.contains(&k) {
            continue;
        }
        seen.push(k);
        let built = match settings(k) {
            Ok(s) => Workers::build(s, http.clone()).await,
            Err(e) => Err(e),
        };
        match built {
            Ok(w) => out.push(w),
            Err(e) => tracing::debug!("not looking on {k}: {e:#}"),
        }
    }
    out
}

/// The worker `id` (or name) on the first of `providers` that has it.
pub async fn find(providers: Vec<Workers>, id: &str) -> anyhow::Result<(Workers, SandboxInfo)> {
    let mut searched = Vec::new();
    let mut errors = Vec::new();
    for w in providers {
        searched.push(w.kind().to_string());
        match w.provider().get(id).await {
            Ok(Some(_)) => {
                let info = w.find(id).await?;
                return Ok((w, info));
            }
            Ok(None) => {}
            Err(e) => errors.push(format!("{}: {e}", w.kind())),
        }
    }
    Err(WorkerError::new(
        format!(
            "no worker {id} on {}{}",
            if searched.is_empty() {
                "any provider (none is configured)".to_string()
            } else {
                searched.join(", ")
            },
            if errors.is_empty() {
                String::new()
            } else {
                format!(" ({})", errors.join("; "))
            }
        ),
        "list workers with `outposts worker list`",
    )
    .into())
}
