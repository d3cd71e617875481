//! A state dir whose sessions live on another provider. The state dir records which provider and
//! endpoint hold the outpost's claims and sleepers ([`Site`], `provider.json`); a start on
//! another site either refuses or hands the sessions over first, so a session never has two
//! remotes (one left running on the old site, one launched on the new).
//!
//! [`decide`] is pure (table-tested below); [`hand_over`] carries a hand-over out.

use std::collections::BTreeMap;
use std::fmt;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use super::plan::retention::Sleeper;
use crate::provider::{Provider, ProviderKind, SandboxState};

/// Where an outpost's sessions live: the provider and its endpoint (the Daytona API URL, the
/// CoreWeave base URL, or the local sandbox root). The same provider at another endpoint is
/// another site: its sandboxes are out of reach from here.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Site {
    #[serde(with = "kind_serde")]
    pub provider: ProviderKind,
    pub endpoint: String,
}

impl fmt::Display for Site {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.provider, self.endpoint)
    }
}

mod kind_serde {
    use super::ProviderKind;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(k: &ProviderKind, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(k.as_str())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<ProviderKind, D::Error> {
        let s = String::deserialize(d)?;
        ProviderKind::parse(&s).map_err(serde::de::Error::custom)
    }
}

/// What a start does about the sessions the state dir holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Start {
    /// Serve on the configured site (and record it): nothing is held elsewhere.
    Serve,
    /// Refuse (exit 2): sessions are held on `on`, or on an unknown site (`None`: a state dir
    /// written before sites were recorded, whose sessions have no sandbox here).
    Refuse { on: Option<Site> },
    /// Stop the held sessions' sandboxes on `from` (disks kept), then serve here.
    HandOver { from: Site },
}

/// What a start finds, for [`decide`].
#[derive(Debug, Clone)]
pub struct Found<'a> {
    /// The site the state dir records (`None`: none recorded yet).
    pub recorded: Option<&'a Site>,
    /// The site configured now.
    pub current: &'a Site,
    /// `--adopt-from`: the provider the user says holds the sessions, at the recorded endpoint
    /// when the record names that provider, else at its configured one.
    pub adopt_from: Option<&'a Site>,
    /// The state dir holds claims or sleepers for the outpost.
    pub holds: bool,
    /// No site recorded: at least one held session has a sandbox on the current site.
    pub found_here: bool,
}

/// Decide. A state dir without a record was written before sites were recorded: it is taken to
/// be the current site's when it holds nothing or when its sessions have sandboxes here (an
/// upgrade keeps its configuration, and its restarts must not interrupt sessions); otherwise
/// nobody can tell where its sessions run, so the start refuses until `--adopt-from` says.
pub fn decide(f: &Found<'_>) -> Start {
    if f.recorded == Some(f.current) || !f.holds {
        return Start::Serve;
    }
    match (f.recorded, f.adopt_from) {
        (Some(r), Some(a)) if a == r => Start::HandOver { from: r.clone() },
        (Some(r), _) => Start::Refuse {
            on: Some(r.clone()),
        },
        (None, _) if f.found_here => Start::Serve,
        (None, Some(a)) if a == f.current => Start::Serve,
        (None, Some(a)) => Start::HandOver { from: a.clone() },
        (None, None) => Start::Refuse { on: None },
    }
}

/// What a hand-over did: the held sessions' sandboxes it stopped, and the sleepers whose
/// sandboxes (and disks) stay on the old site.
#[derive(Debug, Default)]
pub struct HandedOver {
    /// (session, sandbox id) stopped, disk kept.
    pub stopped: Vec<(String, String)>,
    /// (session, sandbox name or id) left as it was: a sleeping session's workspace is data.
    pub kept: Vec<(String, String)>,
}

/// Stop, through the old provider, every sandbox of the sessions whose claims we hold (their
/// remotes end; `stop_keeping` keeps each disk, on CoreWeave as a snapshot), so that the new
/// site's remote is the only one. Sleepers are not touched (no claim of ours covers them, and
/// their disks are the user's data): they are only reported. Only sandboxes labelled with the
/// session and the outpost are touched. Any failure stops the hand-over before the record
/// changes, so the same command can simply be run again.
pub async fn hand_over(
    old: &dyn Provider,
    outpost: &str,
    claims: &[String],
    sleepers: &BTreeMap<String, Sleeper>,
) -> Result<HandedOver> {
    let mut done = HandedOver::default();
    for session in claims {
        let labels = super::sandbox_labels(session, outpost);
        let sandboxes = old.list(&labels).await.with_context(|| {
            format!(
                "cannot list session {session}'s sandboxes on {}",
                old.kind()
            )
        })?;
        for sb in sandboxes {
            if sb.state == SandboxState::Deleted {
                continue;
            }
            old.stop_keeping(&sb.id, true).await.with_context(|| {
                format!(
                    "cannot stop sandbox {} of session {session} on {}",
                    sb.id,
                    old.kind()
                )
            })?;
            done.stopped.push((session.clone(), sb.id));
        }
    }
    for (session, s) in sleepers {
        let sandbox = s.sandbox_id.clone().unwrap_or_else(|| s.sandbox.clone());
        done.kept.push((session.clone(), sandbox));
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(p: ProviderKind, e: &str) -> Site {
        Site {
            provider: p,
            endpoint: e.into(),
        }
    }

    #[test]
    fn the_start_decision_table() {
        use ProviderKind::*;
        let local = site(Local, "/home/me/.local/share/outposts/sandboxes");
        let daytona = site(Daytona, "https://app.daytona.io/api");
        let daytona_eu = site(Daytona, "https://eu.daytona.example/api");
        let cw = site(Coreweave, "https://api.cwsandbox.com");
        let refuse = |s: &Site| Start::Refuse {
            on: Some(s.clone()),
        };
        let over = |s: &Site| Start::HandOver { from: s.clone() };
        // (recorded, current, adopt_from, holds, found_here) → decision
        type Row<'a> = (
            Option<&'a Site>,
            &'a Site,
            Option<&'a Site>,
            bool,
            bool,
            Start,
        );
        let rows: Vec<Row> = vec![
            // Same site: serve, whatever is held.
            (Some(&local), &local, None, true, false, Start::Serve),
            (
                Some(&daytona),
                &daytona,
                Some(&local),
                true,
                false,
                Start::Serve,
            ),
            // Another site that holds nothing: serve (and the record moves).
            (Some(&local), &daytona, None, false, false, Start::Serve),
            // Another site holding sessions: refuse, unless --adopt-from names it.
            (Some(&local), &daytona, None, true, false, refuse(&local)),
            (
                Some(&local),
                &daytona,
                Some(&local),
                true,
                false,
                over(&local),
            ),
            (
                Some(&local),
                &daytona,
                Some(&cw),
                true,
                false,
                refuse(&local),
            ),
            // The same provider at another endpoint is another site.
            (
                Some(&daytona),
                &daytona_eu,
                None,
                true,
                false,
                refuse(&daytona),
            ),
            (
                Some(&daytona),
                &daytona_eu,
                Some(&daytona),
                true,
                false,
                over(&daytona),
            ),
            // No record (a state dir from before): nothing held, or found here → serve.
            (None, &daytona, None, false, false, Start::Serve),
            (None, &daytona, None, true, true, Start::Serve),
            // No record, held sessions with no sandbox here: unknown → refuse until told.
            (
                None,
                &daytona,
                None,
                true,
                false,
                Start::Refuse { on: None },
            ),
            (None, &daytona, Some(&local), true, false, over(&local)),
            (None, &daytona, Some(&daytona), true, false, Start::Serve),
        ];
        for (i, (recorded, current, adopt_from, holds, found_here, want)) in
            rows.into_iter().enumerate()
        {
            let got = decide(&Found {
                recorded,
                current,
                adopt_from,
                holds,
                found_here,
            });
            assert_eq!(got, want, "row {i}");
        }
    }

    #[test]
    fn a_site_round_trips_and_names_its_provider() {
        let s = site(ProviderKind::Local, "/srv/sandboxes");
        let text = serde_json::to_string(&s).unwrap();
        assert_eq!(text, r#"{"provider":"local","endpoint":"/srv/sandboxes"}"#);
        assert_eq!(serde_json::from_str::<Site>(&text).unwrap(), s);
        assert!(serde_json::from_str::<Site>(r#"{"provider":"nope","endpoint":""}"#).is_err());
        assert_eq!(s.to_string(), "local (/srv/sandboxes)");
    }
}
