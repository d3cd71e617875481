//! Scratch volumes of emulated CoreWeave sandboxes.
//!
//! A scratch volume (`spec.volumes[] {name, scratch}`) is a directory of the sandbox at the
//! mount path of its `volume_mounts` entry: ephemeral, it goes with the sandbox. A mount with a
//! `sub_path` shows that sub-directory of the volume, so the volume's own root is not in the
//! sandbox; its snapshot then holds the files under `<sub_path>/`, and a restore into a mount
//! with a `sub_path` takes that sub-tree of the snapshot.
//!
//! `restore_from_snapshot_id` copies a READY snapshot into the mount path before the main
//! command starts: the main command waits behind a gate (a marker file the emulator writes
//! once the volumes are in place; see [`gate`]). Persistent volumes (`volume_id`, the
//! VolumeService) are not emulated, nor are `size` (no quota) and `read_only` (the sandbox's
//! user owns its whole tree).

use std::path::Path;

use tonic::Status;

use super::service::invalid;
use super::tree;
use crate::api::coreweave::pb;

/// Top-level directories the local runtime binds from the host (read-only) or mounts itself:
/// a volume there would be invisible inside or would shadow the host's userland.
const HOST_TOPS: &[&str] = &[
    "usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32", "etc", "proc", "dev", "sys",
];

/// The marker that opens the gate of a sandbox's main command (in the sandbox's private `/run`).
pub const GATE_MARKER: &str = "/run/.cwsandbox-volumes-ready";

/// One scratch volume as laid out in the local sandbox.
#[derive(Debug, Clone, PartialEq)]
pub struct Scratch {
    pub name: String,
    /// Snapshot to restore from (empty: a fresh, empty volume).
    pub restore_from: String,
    /// Components of the mount path; `None` when no container mounts the volume.
    pub mount: Option<Vec<String>>,
    /// Components of the mount's `sub_path`.
    pub sub_path: Vec<String>,
}

/// DNS-label-like: 1-63 lowercase letters, digits and '-', starting and ending alphanumeric.
fn is_label(name: &str) -> bool {
    let ok = |c: u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    let b = name.as_bytes();
    !b.is_empty()
        && b.len() <= 63
        && b.iter().all(|&c| ok(c) || c == b'-')
        && ok(b[0])
        && ok(b[b.len() - 1])
}

/// A Kubernetes-style quantity (`10Gi`, `512Mi`, `1G`, `1000`).
fn is_quantity(s: &str) -> bool {
    let digits = s.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let suffix = &s[digits.len()..];
    let number = !digits.is_empty()
        && digits.chars().all(|c| c.is_ascii_digit() || c == '.')
        && digits.chars().filter(|&c| c == '.').count() <= 1
        && digits.chars().any(|c| c.is_ascii_digit());
    number
        && [
            "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "k", "K", "M", "G", "T", "P", "E",
        ]
        .contains(&suffix)
}

/// Components of a path, `..` refused (a mount path may not climb anywhere).
fn components(path: &str) -> Option<Vec<String>> {
    let mut out = Vec::new();
    for c in path.split('/') {
        match c {
            "" | "." => {}
            ".." => return None,
            c => out.push(c.to_string()),
        }
    }
    Some(out)
}

fn mount_path(field: &str, path: &str) -> Result<Vec<String>, Status> {
    if !path.starts_with('/') {
        return Err(invalid(field, "must be an absolute path"));
    }
    let comps = components(path).ok_or_else(|| invalid(field, "must not contain `..`"))?;
    let top = comps.first().map(String::as_str).unwrap_or("");
    if top.is_empty() {
        return Err(invalid(field, "must not be `/`"));
    }
    if HOST_TOPS.contains(&top) || path.starts_with(crate::provider::local::HOST_BIN_DIR) {
        return Err(invalid(
            field,
            format!("{path} is a system directory of the sandbox image, not a place for a volume"),
        ));
    }
    Ok(comps)
}

/// The scratch volumes `spec.volumes` declares, each checked.
fn declared(spec: &pb::SandboxSpec) -> Result<Vec<Scratch>, Status> {
    let mut out: Vec<Scratch> = Vec::new();
    for (i, v) in spec.volumes.iter().enumerate() {
        let field = format!("sandbox.spec.volumes[{i}]");
        if !is_label(&v.name) {
            return Err(invalid(
                &format!("{field}.name"),
                "must be 1-63 lowercase letters, digits or '-', starting and ending with a \
                 letter or digit",
            ));
        }
        if out.iter().any(|s| s.name == v.name) {
            return Err(invalid(
                &format!("{field}.name"),
                format!("volume {} is declared twice", v.name),
            ));
        }
        let scratch = match &v.source {
            Some(pb::sandbox_volume::Source::Scratch(s)) => s,
            Some(pb::sandbox_volume::Source::VolumeId(_)) => {
                return Err(invalid(
                    &format!("{field}.volume_id"),
                    "persistent volumes are not emulated; use a scratch volume",
                ));
            }
            None => {
                return Err(invalid(
                    &field,
                    "needs a source: scratch (or volume_id, which the emulator does not have)",
                ));
            }
        };
        if !scratch.size.is_empty() && !is_quantity(&scratch.size) {
            return Err(invalid(
                &format!("{field}.scratch.size"),
                format!("{:?} is not a quantity such as 10Gi", scratch.size),
            ));
        }
        if pb::StorageMedium::try_from(scratch.medium).is_err() {
            return Err(invalid(
                &format!("{field}.scratch.medium"),
                format!("{} is not a StorageMedium", scratch.medium),
            ));
        }
        out.push(Scratch {
            name: v.name.clone(),
            restore_from: scratch.restore_from_snapshot_id.clone(),
            mount: None,
            sub_path: Vec::new(),
        });
    }
    Ok(out)
}

/// Where the container's `volume_mounts` put each volume: once each, never nested.
fn mount(out: &mut [Scratch], container: &pb::Container) -> Result<(), Status> {
    let mut paths: Vec<Vec<String>> = Vec::new();
    for (i, m) in container.volume_mounts.iter().enumerate() {
        let field = format!("sandbox.spec.containers[0].volume_mounts[{i}]");
        let Some(vol) = out.iter_mut().find(|s| s.name == m.volume) else {
            return Err(invalid(
                &format!("{field}.volume"),
                format!(
                    "{:?} is not a volume declared in sandbox.spec.volumes",
                    m.volume
                ),
            ));
        };
        if vol.mount.is_some() {
            return Err(invalid(
                &format!("{field}.volume"),
                format!(
                    "volume {} is already mounted; the emulator mounts a volume once",
                    m.volume
                ),
            ));
        }
        let comps = mount_path(&format!("{field}.mount_path"), &m.mount_path)?;
        // Nested mounts would put one volume's files into the other's snapshots.
        if let Some(other) = paths
            .iter()
            .find(|p| p.starts_with(&comps) || comps.starts_with(p))
        {
            return Err(invalid(
                &format!("{field}.mount_path"),
                format!(
                    "{} overlaps the mount at /{}",
                    m.mount_path,
                    other.join("/")
                ),
            ));
        }
        if m.sub_path.starts_with('/') {
            return Err(invalid(
                &format!("{field}.sub_path"),
                "must be a relative path",
            ));
        }
        let sub = components(&m.sub_path)
            .ok_or_else(|| invalid(&format!("{field}.sub_path"), "must not contain `..`"))?;
        paths.push(comps.clone());
        vol.mount = Some(comps);
        vol.sub_path = sub;
    }
    Ok(())
}

/// Check `spec.volumes` and the container's `volume_mounts`; the volumes' layout.
pub fn plan(spec: &pb::SandboxSpec, container: &pb::Container) -> Result<Vec<Scratch>, Status> {
    let mut out = declared(spec)?;
    mount(&mut out, container)?;
    Ok(out)
}

/// The main command behind the gate: it starts once [`GATE_MARKER`] exists (the volumes are in
/// place). `exec` keeps the main command the process it always was; the marker stays, so a
/// restart after a failure passes straight through.
pub fn gate(argv: Vec<String>) -> Vec<String> {
    let mut out = vec![
        "/bin/sh".to_string(),
        "-c".into(),
        "while [ ! -e \"$0\" ]; do sleep 0.05; done; exec \"$@\"".into(),
        GATE_MARKER.into(),
    ];
    out.extend(argv);
    out
}

/// Make the mount directories in a new sandbox's tree and restore snapshots into them:
/// `(volume, snapshot directory)` pairs name the restores. Runs before the gate opens.
pub fn prepare(
    tree_root: &Path,
    volumes: &[Scratch],
    restores: &[(String, std::path::PathBuf)],
) -> Result<(), String> {
    for v in volumes {
        let Some(mount) = &v.mount else { continue };
        let shown = format!("/{}", mount.join("/"));
        let dst = tree::descend(tree_root, mount, true)
            .map_err(|e| {
                format!(
                    "cannot create the mount path {shown} of volume {}: {e}",
                    v.name
                )
            })?
            .ok_or_else(|| format!("cannot create the mount path {shown}"))?;
        let Some((_, snap_dir)) = restores.iter().find(|(n, _)| n == &v.name) else {
            continue;
        };
        // A snapshot without the mount's sub-path restores nothing there.
        let src = tree::descend(snap_dir, &v.sub_path, false)
            .map_err(|e| format!("cannot read snapshot of volume {}: {e}", v.name))?;
        if let Some(src) = src {
            tree::copy_dir(&src, &dst)
                .map_err(|e| format!("cannot restore volume {} into {shown}: {e}", v.name))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(volumes: Vec<pb::SandboxVolume>, mounts: Vec<pb::VolumeMount>) -> pb::SandboxSpec {
        pb::SandboxSpec {
            containers: vec![pb::Container {
                volume_mounts: mounts,
                ..Default::default()
            }],
            volumes,
            ..Default::default()
        }
    }

    fn scratch(name: &str) -> pb::SandboxVolume {
        pb::SandboxVolume {
            name: name.into(),
            source: Some(pb::sandbox_volume::Source::Scratch(pb::ScratchVolume {
                size: "10Gi".into(),
                ..Default::default()
            })),
        }
    }

    fn mount(volume: &str, path: &str) -> pb::VolumeMount {
        pb::VolumeMount {
            volume: volume.into(),
            mount_path: path.into(),
            ..Default::default()
        }
    }

    fn check(s: &pb::SandboxSpec) -> Result<Vec<Scratch>, String> {
        plan(s, &s.containers[0]).map_err(|e| e.message().to_string())
    }

    #[test]
    fn volumes_and_mounts_are_checked() {
        let ok = spec(
            vec![scratch("workspace")],
            vec![mount("workspace", "/workspace/")],
        );
        let plan = check(&ok).unwrap();
        assert_eq!(plan[0].mount, Some(vec!["workspace".to_string()]));
        for (s, needle) in [
            (spec(vec![scratch("Work")], vec![]), "lowercase"),
            (
                spec(vec![scratch("a"), scratch("a")], vec![]),
                "declared twice",
            ),
            (
                spec(vec![scratch("a")], vec![mount("b", "/b")]),
                "not a volume declared",
            ),
            (
                spec(vec![scratch("a")], vec![mount("a", "work")]),
                "absolute",
            ),
            (
                spec(vec![scratch("a")], vec![mount("a", "/usr/x")]),
                "system directory",
            ),
            (spec(vec![scratch("a")], vec![mount("a", "/x/../y")]), ".."),
            (
                spec(
                    vec![scratch("a"), scratch("b")],
                    vec![mount("a", "/w"), mount("b", "/w/b")],
                ),
                "overlaps",
            ),
            (
                spec(vec![scratch("a")], vec![mount("a", "/w"), mount("a", "/v")]),
                "once",
            ),
        ] {
            let err = check(&s).unwrap_err();
            assert!(err.contains(needle), "{err} lacks {needle}");
        }
        let persistent = pb::SandboxVolume {
            name: "data".into(),
            source: Some(pb::sandbox_volume::Source::VolumeId("vol-1".into())),
        };
        let err = check(&spec(vec![persistent], vec![])).unwrap_err();
        assert!(err.contains("not emulated"), "{err}");
    }

    #[test]
    fn names_and_sizes() {
        assert!(is_label("workspace-1") && is_label("a") && !is_label("-a") && !is_label(""));
        assert!(!is_label(&"a".repeat(64)) && !is_label("a_b"));
        assert!(is_quantity("10Gi") && is_quantity("1.5G") && is_quantity("1000"));
        assert!(!is_quantity("Gi") && !is_quantity("10 Gi") && !is_quantity("ten"));
    }
}
