//! Handing a ready (warm) CoreWeave sandbox to a session.
//!
//! CoreWeave fixes a sandbox's name and tags at create and has no update, so a warm sandbox
//! keeps its own. What marks it as the session's instead is a **receipt**: a file-system
//! snapshot of its workspace volume made at the hand-over with a `request_id` of our own, a
//! version-8 UUID that starts with [`MARKER`] and carries a hash of the session's sandbox name
//! ([`receipt_id`]). The service keeps both the request id and `source_sandbox_id` with the
//! snapshot, so any replica, after any restart, finds the session's sandbox from its name
//! alone, and never mistakes a handed-over sandbox for ready capacity. A second hand-over to
//! the same name reuses the request id and so is refused by the service (or answered with the
//! first one's snapshot, whose source then differs): no name gets two sandboxes.
//!
//! The labels the session's sandbox carries elsewhere are written into it before the receipt
//! ([`HANDOVER_FILE`] in the home on the workspace volume) and read back once per process; while the receipt
//! exists, listings show the sandbox under the session's name and labels.
//!
//! The workspace follows the session: its snapshots are found by the receipt
//! (`workspace::snapshots_of`), so the first wake restores the warm sandbox's last snapshot into
//! a sandbox under the session's own name, and from then on it is an ordinary one.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::mapping::{err, is_terminal, state_of, to_info};
use super::{CoreweaveProvider, workspace};
use crate::api::coreweave::{ErrorKind, pb};
use crate::provider::{ProviderError, Result, SandboxInfo};

/// Tag (no `=`, so never read as a label) on sandboxes created [`crate::provider::SandboxSpec::handable`]:
/// only these are looked up among the receipts.
pub const HANDABLE_TAG: &str = "outposts.handable";
/// The first six bytes of every receipt's request id ("outpst").
const MARKER: [u8; 6] = *b"outpst";
/// The session's name and labels, written into the sandbox at the hand-over.
const HANDOVER_FILE: &str = ".outposts-handover.json";
/// How long the receipts read from the service stand for listings by other replicas.
const REFRESH: Duration = Duration::from_secs(60);
/// A receipt this process made stands in its own cache this long even if a listing lags.
const OWN_GRACE: Duration = Duration::from_secs(600);

/// The request id of the receipt that gives a sandbox to `name`.
pub fn receipt_id(name: &str) -> String {
    let digest = Sha256::digest(name.as_bytes());
    let mut b = [0u8; 16];
    b[..6].copy_from_slice(&MARKER);
    b[6..].copy_from_slice(&digest[..10]);
    uuid::Builder::from_custom_bytes(b).into_uuid().to_string()
}

/// Is this snapshot request id a receipt (of any name)?
pub fn is_receipt(request_id: &str) -> bool {
    uuid::Uuid::parse_str(request_id)
        .is_ok_and(|u| u.get_version_num() == 8 && u.as_bytes()[..6] == MARKER)
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
struct Handed {
    name: String,
    labels: BTreeMap<String, String>,
}

/// What this process knows of hand-overs.
#[derive(Debug, Default)]
pub struct Receipts(Mutex<Known>);

#[derive(Debug, Default)]
struct Known {
    /// Handed-over sandbox id → receipt request id.
    by_source: HashMap<String, String>,
    /// Receipts this process made, and when (kept through a lagging listing).
    own: HashMap<String, Instant>,
    /// Handed-over sandbox id → its session's name and labels, once read.
    handed: HashMap<String, Handed>,
    /// Handed-over sandboxes whose labels could not be read: tried again at the next timed read
    /// of the receipts, not at every listing.
    unreadable: HashSet<String>,
    /// Handable sandbox ids known at the last read of the receipts.
    seen: HashSet<String>,
    read_at: Option<Instant>,
}

impl Receipts {
    fn lock(&self) -> std::sync::MutexGuard<'_, Known> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}

fn handable(sb: &pb::Sandbox) -> bool {
    sb.spec
        .as_ref()
        .is_some_and(|s| s.tags.iter().any(|t| t == HANDABLE_TAG))
}

/// Where the workspace volume is mounted in `sb`, and its name.
fn workspace_mount(sb: &pb::Sandbox) -> Option<(String, String)> {
    let vol = workspace::volume_of(sb)?;
    let spec = sb.spec.as_ref()?;
    spec.containers
        .iter()
        .flat_map(|c| &c.volume_mounts)
        .find(|m| m.volume == vol)
        .map(|m| (vol.clone(), m.mount_path.clone()))
}

/// In the session's home on the workspace volume (`workspace::home_path`), out of the way of
/// the working directory's files.
fn handover_path(mount: &str) -> String {
    format!("{}/{HANDOVER_FILE}", workspace::home_path(mount))
}

impl CoreweaveProvider {
    /// Give the running handable sandbox `id` to `name` (see the module doc).
    pub(super) async fn give(
        &self,
        id: &str,
        name: &str,
        labels: &BTreeMap<String, String>,
    ) -> Result<()> {
        let sb = self.client.get_sandbox(id).await.map_err(err)?;
        if !handable(&sb) || is_terminal(state_of(&sb)) {
            return Err(ProviderError::Invalid(format!(
                "sandbox {id} is not ready capacity that can be handed over"
            )));
        }
        let Some((vol, mount)) = workspace_mount(&sb) else {
            return Err(ProviderError::Invalid(format!(
                "sandbox {id} has no workspace volume to hand over"
            )));
        };
        let handed = Handed {
            name: name.to_string(),
            labels: labels.clone(),
        };
        let body = serde_json::to_vec(&handed).map_err(|e| ProviderError::Other(e.to_string()))?;
        // The labels first: once the receipt exists, they must be readable.
        self.client
            .write_file(id, &handover_path(&mount), bytes::Bytes::from(body))
            .await
            .map_err(err)?;
        let rid = receipt_id(name);
        let receipt = match self.client.create_snapshot(id, &vol, &rid).await {
            Ok(r) => r,
            // The request id is the name's: used already, by the hand-over of another sandbox.
            Err(e) if e.kind == ErrorKind::AlreadyExists => {
                return Err(ProviderError::AlreadyExists(format!(
                    "{name} was handed another sandbox already ({e})"
                )));
            }
            Err(e) => return Err(err(e)),
        };
        if receipt.source_sandbox_id != id {
            return Err(ProviderError::AlreadyExists(format!(
                "{name} was handed sandbox {} already",
                receipt.source_sandbox_id
            )));
        }
        let mut k = self.receipts.lock();
        k.by_source.insert(id.to_string(), rid);
        k.own.insert(id.to_string(), Instant::now());
        k.handed.insert(id.to_string(), handed);
        Ok(())
    }

    /// Read the receipts again when a handable sandbox is new to us or the last read is old.
    async fn refresh(&self, ids: &[&str]) -> Result<()> {
        let fresh = {
            let k = self.receipts.lock();
            let fresh = k.read_at.is_some_and(|t| t.elapsed() < REFRESH);
            if fresh && ids.iter().all(|id| k.seen.contains(*id)) {
                return Ok(());
            }
            fresh
        };
        let listed = workspace::all_snapshots(&self.client).await?;
        let mut k = self.receipts.lock();
        let mut by_source: HashMap<String, String> = listed
            .into_iter()
            .filter(|s| is_receipt(&s.request_id))
            .map(|s| (s.source_sandbox_id, s.request_id))
            .collect();
        k.own.retain(|_, t| t.elapsed() < OWN_GRACE);
        for id in k.own.keys() {
            if let Some(rid) = k.by_source.get(id) {
                by_source.entry(id.clone()).or_insert_with(|| rid.clone());
            }
        }
        k.handed.retain(|id, _| by_source.contains_key(id));
        k.by_source = by_source;
        // Known ones stay known until the next timed read (which forgets the gone).
        if !fresh {
            k.seen.clear();
            k.unreadable.clear();
            k.read_at = Some(Instant::now());
        }
        k.seen.extend(ids.iter().map(|s| s.to_string()));
        Ok(())
    }

    /// `sb` as callers see it: a handed-over sandbox under its session's name and labels.
    async fn seen_as(&self, sb: &pb::Sandbox) -> SandboxInfo {
        let mut info = to_info(sb);
        let (cached, unreadable) = {
            let k = self.receipts.lock();
            if !k.by_source.contains_key(&sb.sandbox_id) {
                return info;
            }
            let id = &sb.sandbox_id;
            (k.handed.get(id).cloned(), k.unreadable.contains(id))
        };
        let handed = match cached {
            Some(h) => Some(h),
            None if unreadable => None,
            None => self.read_handed(sb).await,
        };
        match handed {
            Some(h) => {
                info.name = h.name;
                info.labels = h.labels;
            }
            // Handed over, to whom unreadable: no longer ready capacity, and nobody's to act on.
            None => info.labels.clear(),
        }
        info
    }

    async fn read_handed(&self, sb: &pb::Sandbox) -> Option<Handed> {
        if is_terminal(state_of(sb)) {
            return None;
        }
        let (_, mount) = workspace_mount(sb)?;
        let read = self
            .client
            .read_file(&sb.sandbox_id, &handover_path(&mount))
            .await;
        let parsed = match read {
            Ok(body) => serde_json::from_slice::<Handed>(&body).map_err(|e| e.to_string()),
            Err(e) => Err(e.to_string()),
        };
        match parsed {
            Ok(h) => {
                self.receipts
                    .lock()
                    .handed
                    .insert(sb.sandbox_id.clone(), h.clone());
                Some(h)
            }
            Err(e) => {
                tracing::warn!(
                    sandbox = %sb.sandbox_id,
                    "a handed-over sandbox's labels cannot be read ({e}); it is left alone"
                );
                self.receipts
                    .lock()
                    .unreadable
                    .insert(sb.sandbox_id.clone());
                None
            }
        }
    }

    /// Sandboxes as callers see them (see [`Self::seen_as`]).
    pub(super) async fn overlay(&self, sbs: &[pb::Sandbox]) -> Result<Vec<SandboxInfo>> {
        let ids: Vec<&str> = sbs
            .iter()
            .filter(|s| handable(s))
            .map(|s| s.sandbox_id.as_str())
            .collect();
        if !ids.is_empty() {
            self.refresh(&ids).await?;
        }
        let mut out = Vec::with_capacity(sbs.len());
        for sb in sbs {
            out.push(self.seen_as(sb).await);
        }
        Ok(out)
    }

    /// The sandbox handed over to `name`, by its newest receipt; `None` when there is none.
    pub(super) async fn handed_to(&self, name: &str) -> Result<Option<SandboxInfo>> {
        let Some(source) = workspace::receipt_sources(&self.client, name).await?.pop() else {
            return Ok(None);
        };
        let sb = match self.client.get_sandbox(&source).await {
            Ok(sb) => sb,
            Err(e) if e.is_sandbox_not_found() => return Ok(None),
            Err(e) => return Err(err(e)),
        };
        self.receipts
            .lock()
            .by_source
            .insert(source.clone(), receipt_id(name));
        let mut info = self.seen_as(&sb).await;
        info.name = name.to_string();
        Ok(Some(info))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn receipt_ids_are_uuids_per_name_and_recognised() {
        let a = receipt_id("devin-devin-1-abc");
        let u = uuid::Uuid::parse_str(&a).expect("a UUID");
        assert_eq!(u.get_version_num(), 8);
        assert_eq!(u.get_variant(), uuid::Variant::RFC4122);
        assert_eq!(a, receipt_id("devin-devin-1-abc"));
        assert_ne!(a, receipt_id("devin-devin-2-abc"));
        assert!(is_receipt(&a));
        // A plain idempotency token, or anything else a request id may hold, is not one.
        for other in [
            uuid::Uuid::new_v4().to_string(),
            String::new(),
            "outpst".into(),
            "not a uuid".into(),
        ] {
            assert!(!is_receipt(&other), "{other}");
        }
    }
}
