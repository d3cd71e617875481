//! A CoreWeave sandbox's workspace across its deletion: a scratch volume at
//! [`Workspace::mount_path`], snapshotted before the sandbox is deleted on stop, and restored
//! (`restore_from_snapshot_id`) when a sandbox of the same name is created again.
//!
//! The volume is named after the sandbox (`ws-<sha256(name)[..20]>`), and a snapshot records
//! its source volume's name, so the snapshots of a name are found again by any replica, after
//! any restart, without state of our own. A stop that cannot snapshot does not delete: the
//! sandbox keeps running (it costs compute, but no workspace is ever lost).
//!
//! The session's home lives on the same volume ([`home_path`], `HOME` in the container's
//! environment), so one snapshot keeps both what the session wrote in its working directory and
//! what it installed under `$HOME` (Devin's tools go to `~/.local/bin`). A fresh volume would
//! hide the image's dotfiles and preinstalled tools, so the first create copies the image's own
//! home (its user's `passwd` entry) into it ([`SEED_HOME`]); a wake restores it with the rest.
//! Nothing else survives a sleep: `/tmp`, system packages and the rest of the root file system
//! go with the deleted sandbox.

use std::time::Duration;

use sha2::{Digest, Sha256};

use crate::api::coreweave::error::ErrorKind;
use crate::api::coreweave::{CoreweaveClient, pb};
use crate::provider::{ProviderError, Result, Workspace};

use super::handover::{is_receipt, receipt_id};
use super::mapping::err;

/// Longest wait for a snapshot to be READY (the SDK's budget).
const SNAPSHOT_WAIT: Duration = Duration::from_secs(600);
/// Size asked for the scratch volume.
const VOLUME_SIZE: &str = "20Gi";

/// Where the session's home lives on the workspace volume mounted at `mount`.
pub fn home_path(mount: &str) -> String {
    format!("{}/.home", mount.trim_end_matches('/'))
}

/// Run once in a new sandbox (no snapshot restored): fill the empty home on the volume from the
/// image's own home, so the image's dotfiles and tools are not hidden by it. Never overwrites
/// a home that has files (an earlier seed, or a restore).
pub const SEED_HOME: &str = r#"set -eu
image_home=$(getent passwd "$(id -u)" 2>/dev/null | cut -d: -f6 || true)
[ -n "$image_home" ] || image_home=/root
mkdir -p "$HOME"
if [ "$image_home" != "$HOME" ] && [ -d "$image_home" ] && [ -z "$(ls -A "$HOME" 2>/dev/null)" ]; then
  cp -a "$image_home/." "$HOME/"
  echo "seeded $HOME from $image_home"
fi
"#;

/// The workspace volume of the sandbox named `name`.
pub fn volume_name(name: &str) -> String {
    format!("ws-{}", &hex::encode(Sha256::digest(name.as_bytes()))[..20])
}

fn state(s: &pb::FileSystemSnapshot) -> pb::SnapshotState {
    pb::SnapshotState::try_from(s.state).unwrap_or(pb::SnapshotState::Unspecified)
}

fn created(s: &pb::FileSystemSnapshot) -> (i64, i32) {
    s.create_time
        .as_ref()
        .map(|t| (t.seconds, t.nanos))
        .unwrap_or_default()
}

/// Every file-system snapshot the account keeps (one being deleted is no longer kept).
pub async fn all_snapshots(client: &CoreweaveClient) -> Result<Vec<pb::FileSystemSnapshot>> {
    match client.list_snapshots(None).await {
        Ok(mut l) => {
            l.retain(|s| state(s) != pb::SnapshotState::Deleting);
            Ok(l)
        }
        // An endpoint without file-system snapshots can hold none to restore or delete; any
        // other failure must not pass for "no snapshot" (a wake would start empty).
        Err(e) if e.kind == ErrorKind::Unimplemented => {
            tracing::warn!("this CoreWeave endpoint keeps no file-system snapshots: {e}");
            Ok(Vec::new())
        }
        Err(e) => Err(err(e)),
    }
}

/// The sandboxes handed over to `name` (`handover.rs`), by their receipts, oldest first.
pub async fn receipt_sources(client: &CoreweaveClient, name: &str) -> Result<Vec<String>> {
    Ok(sources(&all_snapshots(client).await?, name))
}

fn sources(all: &[pb::FileSystemSnapshot], name: &str) -> Vec<String> {
    let rid = receipt_id(name);
    let mut receipts: Vec<_> = all.iter().filter(|s| s.request_id == rid).collect();
    receipts.sort_by_key(|s| created(s));
    receipts
        .into_iter()
        .map(|s| s.source_sandbox_id.clone())
        .collect()
}

/// The snapshots kept for `name`'s workspace, oldest first: those of its own volume, and
/// those of a sandbox handed over to it (the receipts among them).
pub async fn snapshots_of(
    client: &CoreweaveClient,
    name: &str,
) -> Result<Vec<pb::FileSystemSnapshot>> {
    Ok(kept_for(all_snapshots(client).await?, name))
}

fn kept_for(all: Vec<pb::FileSystemSnapshot>, name: &str) -> Vec<pb::FileSystemSnapshot> {
    let vol = volume_name(name);
    let handed = sources(&all, name);
    let mut kept: Vec<_> = all
        .into_iter()
        .filter(|s| s.source_volume_name == vol || handed.contains(&s.source_sandbox_id))
        .collect();
    kept.sort_by_key(created);
    kept
}

/// Add the workspace volume, restoring `ws.restore` or else the newest READY snapshot of
/// `name`, to a sandbox about to be created.
pub async fn attach(
    client: &CoreweaveClient,
    sandbox: &mut pb::Sandbox,
    name: &str,
    ws: &Workspace,
) -> Result<Option<String>> {
    let restore = match &ws.restore {
        Some(id) => Some(id.clone()),
        None => snapshots_of(client, name)
            .await?
            .into_iter()
            .rev()
            .find(|s| state(s) == pb::SnapshotState::Ready)
            .map(|s| s.file_system_snapshot_id),
    };
    let vol = volume_name(name);
    let spec = sandbox.spec.get_or_insert_with(Default::default);
    spec.volumes.push(pb::SandboxVolume {
        name: vol.clone(),
        source: Some(pb::sandbox_volume::Source::Scratch(pb::ScratchVolume {
            size: VOLUME_SIZE.into(),
            restore_from_snapshot_id: restore.clone().unwrap_or_default(),
            ..Default::default()
        })),
    });
    for c in &mut spec.containers {
        c.volume_mounts.push(pb::VolumeMount {
            volume: vol.clone(),
            mount_path: ws.mount_path.clone(),
            ..Default::default()
        });
        if ws.keep_home {
            c.environment_variables
                .insert("HOME".into(), home_path(&ws.mount_path));
        }
    }
    Ok(restore)
}

/// The workspace volume a sandbox was created with, if any.
pub fn volume_of(sb: &pb::Sandbox) -> Option<String> {
    sb.spec
        .as_ref()?
        .volumes
        .iter()
        .map(|v| v.name.clone())
        .find(|n| n.starts_with("ws-"))
}

/// Snapshot the workspace volume and wait until the snapshot is READY. Fails (and so stops
/// the delete that follows) when the snapshot cannot be made.
pub async fn snapshot(client: &CoreweaveClient, sandbox_id: &str, vol: &str) -> Result<String> {
    let request_id = uuid::Uuid::new_v4().to_string();
    let s = client
        .create_snapshot(sandbox_id, vol, &request_id)
        .await
        .map_err(err)?;
    let done = client
        .wait_snapshot(&s.file_system_snapshot_id, SNAPSHOT_WAIT)
        .await
        .map_err(err)?;
    match state(&done) {
        pb::SnapshotState::Ready => Ok(done.file_system_snapshot_id),
        other => Err(ProviderError::Other(format!(
            "the workspace snapshot {} of sandbox {sandbox_id} is {other:?}{}; the sandbox is \
             kept running so its files are not lost",
            done.file_system_snapshot_id,
            if done.state_reason.is_empty() {
                String::new()
            } else {
                format!(" ({})", done.state_reason)
            }
        ))),
    }
}

/// Delete the snapshots of `name`'s workspace except `keep`. A receipt that gave the sandbox
/// to another name is that name's, and stays (`handover.rs`).
pub async fn prune(client: &CoreweaveClient, name: &str, keep: Option<&str>) -> Result<()> {
    for s in prunable(all_snapshots(client).await?, name, keep) {
        client
            .delete_snapshot(&s.file_system_snapshot_id, true)
            .await
            .map_err(err)?;
    }
    Ok(())
}

fn prunable(
    all: Vec<pb::FileSystemSnapshot>,
    name: &str,
    keep: Option<&str>,
) -> Vec<pb::FileSystemSnapshot> {
    let own = receipt_id(name);
    let mut doomed: Vec<_> = kept_for(all, name)
        .into_iter()
        .filter(|s| Some(s.file_system_snapshot_id.as_str()) != keep)
        .filter(|s| !is_receipt(&s.request_id) || s.request_id == own)
        .collect();
    // The receipt last: until then it still links the rest to `name`.
    doomed.sort_by_key(|s| is_receipt(&s.request_id));
    doomed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snap(id: &str, vol: &str, sandbox: &str, request: &str, at: i64) -> pb::FileSystemSnapshot {
        pb::FileSystemSnapshot {
            file_system_snapshot_id: id.into(),
            source_volume_name: vol.into(),
            source_sandbox_id: sandbox.into(),
            request_id: request.into(),
            create_time: Some(prost_types::Timestamp {
                seconds: at,
                nanos: 0,
            }),
            ..Default::default()
        }
    }

    fn ids(v: Vec<pb::FileSystemSnapshot>) -> Vec<String> {
        v.into_iter().map(|s| s.file_system_snapshot_id).collect()
    }

    /// A warm sandbox `sb-w` (name `warm`) handed to `sess`, slept once, woken as `sess`'s own
    /// sandbox `sb-s`, slept again; an unrelated `other` beside it.
    fn account() -> Vec<pb::FileSystemSnapshot> {
        let (w, s, o) = (
            volume_name("warm"),
            volume_name("sess"),
            volume_name("other"),
        );
        let plain = uuid::Uuid::new_v4().to_string();
        vec![
            snap("sleep2", &s, "sb-s", &plain, 40),
            snap("receipt", &w, "sb-w", &receipt_id("sess"), 10),
            snap("sleep1", &w, "sb-w", &plain, 20),
            snap("theirs", &o, "sb-o", &plain, 30),
            snap("their-receipt", &o, "sb-o", &receipt_id("another"), 5),
        ]
    }

    #[test]
    fn a_names_snapshots_include_those_of_the_sandbox_handed_to_it() {
        assert_eq!(
            ids(kept_for(account(), "sess")),
            ["receipt", "sleep1", "sleep2"]
        );
        // The warm sandbox's own name keeps its volume's, the receipt among them.
        assert_eq!(ids(kept_for(account(), "warm")), ["receipt", "sleep1"]);
        assert_eq!(ids(kept_for(account(), "nobody")), Vec::<String>::new());
    }

    #[test]
    fn pruning_keeps_a_receipt_for_another_name_and_deletes_its_own_last() {
        // The warm sandbox's stop: its older snapshots go, the session's receipt stays.
        assert_eq!(
            ids(prunable(account(), "warm", Some("sleep1"))),
            Vec::<String>::new()
        );
        assert_eq!(
            ids(prunable(account(), "other", Some("theirs"))),
            Vec::<String>::new(),
            "a receipt naming another sandbox name is never that of its source's name"
        );
        // The session's own sandbox's stop: the warm one's snapshots and then the receipt go.
        assert_eq!(
            ids(prunable(account(), "sess", Some("sleep2"))),
            ["sleep1", "receipt"]
        );
        // A terminate: everything of the session, the receipt last.
        assert_eq!(
            ids(prunable(account(), "sess", None)),
            ["sleep1", "sleep2", "receipt"]
        );
    }

    #[test]
    fn volume_names_are_dns_labels_per_sandbox_name() {
        let a = volume_name("devin-devin-1-abc");
        assert!(a.starts_with("ws-") && a.len() == 23, "{a}");
        assert!(
            a.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        );
        assert_eq!(a, volume_name("devin-devin-1-abc"));
        assert_ne!(a, volume_name("devin-devin-2-abc"));
    }
}
