//! Daytona targets as placements: with `DAYTONA_TARGET_FALLBACK`, each target new sandboxes may
//! go to is scored and quarantined on its own, like a snapshot (`plan/placement.rs`).
//!
//! A failed create cannot say whether its snapshot or its target is to blame, so with one
//! snapshot the target is the placement (`target us`), and with snapshot fallbacks too each
//! pair is (`target us/<snapshot>`), targets first: a bad target is left for the next target
//! with the same snapshot before another snapshot is tried.

use super::plan::placement::Key;
use crate::provider::Source;

/// `sources` (snapshots or an image, in order) placed on `targets` (in order; none: the
/// provider's own target, not scored).
pub(super) fn with_targets(
    sources: Vec<(Key, Source)>,
    targets: &[String],
) -> Vec<(Key, Source, Option<String>)> {
    if targets.is_empty() {
        return sources.into_iter().map(|(k, s)| (k, s, None)).collect();
    }
    let single = sources.len() == 1;
    sources
        .into_iter()
        .flat_map(|(k, s)| {
            targets.iter().map(move |t| {
                let key = match single {
                    true => Key::target(t.clone()),
                    false => Key::target(format!("{t}/{}", k.name)),
                };
                (key, s.clone(), Some(t.clone()))
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snap(n: &str) -> (Key, Source) {
        (Key::snapshot(n), Source::Snapshot(n.into()))
    }

    fn keys(v: &[(Key, Source, Option<String>)]) -> Vec<String> {
        v.iter().map(|(k, _, _)| k.to_string()).collect()
    }

    #[test]
    fn targets_become_the_placements_in_order() {
        let t = ["us".to_string(), "eu".to_string()];
        // No targets: the snapshots as they are, no target sent.
        let none = with_targets(vec![snap("a"), snap("b")], &[]);
        assert_eq!(keys(&none), ["snapshot a", "snapshot b"]);
        assert!(none.iter().all(|(_, _, t)| t.is_none()));
        // One snapshot: one placement per target, each create sent there.
        let one = with_targets(vec![snap("a")], &t);
        assert_eq!(keys(&one), ["target us", "target eu"]);
        assert_eq!(one[1].2.as_deref(), Some("eu"));
        assert_eq!(one[1].1, Source::Snapshot("a".into()));
        // Snapshot fallbacks too: every pair, targets first.
        let both = with_targets(vec![snap("a"), snap("b")], &t);
        assert_eq!(
            keys(&both),
            ["target us/a", "target eu/a", "target us/b", "target eu/b"]
        );
        assert_eq!(both[2].1, Source::Snapshot("b".into()));
    }
}
