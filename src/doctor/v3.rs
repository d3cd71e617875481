//! The v3 API key check: when `DEVIN_API_KEY` is set, probe each permission the v3 commands
//! need, without changing anything, and name the one that is missing.
//!
//! Probes (specs/devin-sessions-api.md §1, each answered 401 for a refused key, 403 for a
//! missing permission):
//! - ViewOrgSessions: a one-item session list.
//! - ManageOrgSessions: `DELETE` of a session id that can never exist (real ids are `devin-`
//!   and hex; ours has letters beyond `f`): a holder of the permission gets 404 "not found", a
//!   key without it 403 — nothing is ended either way. A server that looked the id up before
//!   the permission would answer 404 to both; the probe then over-reports, it never ends a
//!   session.
//! - ManageOrgSettings: a read of the organisation's default platform.
//!
//! `auth status` and `auth set-key` use the same probe, so the three never disagree.

use std::time::Duration;

use serde::Serialize;

use super::remote::from;
use super::{Check, bounded};
use crate::api::HttpClient;
use crate::api::devin_v3::{DevinV3Client, Permission, V3Error};
use crate::env;
use crate::settings::DoctorSettings;

/// A session id no server can hold (not hex after `devin-`), so ending it ends nothing.
const PROBE_SESSION: &str = "devin-outposts-permission-probe";

/// Whether the key was accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum KeyVerdict {
    /// The API took the key as one of the organisation's (some permissions may still be missing).
    Accepted,
    /// 401 (not a v3 key) or 404 (not a key of this organisation).
    Refused,
    /// Not asked, or no usable answer (network, server error).
    Unchecked,
}

/// What the probe found.
#[derive(Debug, Clone)]
pub struct KeyCheck {
    pub verdict: KeyVerdict,
    /// `(permission, held)`: `None` when the answer did not tell.
    pub permissions: Vec<(Permission, Option<bool>)>,
    /// Why it was refused or unchecked.
    pub reason: Option<String>,
}

impl KeyCheck {
    pub fn unchecked(reason: impl Into<String>) -> KeyCheck {
        KeyCheck {
            verdict: KeyVerdict::Unchecked,
            permissions: Vec::new(),
            reason: Some(reason.into()),
        }
    }

    fn stop(verdict: KeyVerdict, e: &V3Error) -> KeyCheck {
        KeyCheck {
            verdict,
            permissions: Vec::new(),
            reason: Some(e.to_string()),
        }
    }

    pub fn missing(&self) -> Vec<Permission> {
        self.permissions
            .iter()
            .filter(|(_, h)| *h == Some(false))
            .map(|(p, _)| *p)
            .collect()
    }
}

/// One probe's outcome: held, missing, or the whole check ends here.
enum Probe {
    Held(Option<bool>),
    Stop(KeyCheck),
}

fn read<T>(r: Result<T, V3Error>, not_found_means_held: bool) -> Probe {
    match r {
        Ok(_) => Probe::Held(Some(true)),
        Err(V3Error::PermissionMissing { .. }) => Probe::Held(Some(false)),
        Err(e @ V3Error::KeyRefused { .. }) => Probe::Stop(KeyCheck::stop(KeyVerdict::Refused, &e)),
        Err(V3Error::NotFound { .. }) if not_found_means_held => Probe::Held(Some(true)),
        Err(e @ V3Error::NotFound { .. }) => Probe::Stop(KeyCheck::stop(KeyVerdict::Refused, &e)),
        Err(V3Error::Invalid { .. } | V3Error::Rejected { .. }) => Probe::Held(None),
        Err(e) => Probe::Stop(KeyCheck::stop(KeyVerdict::Unchecked, &e)),
    }
}

/// Probe the key's permissions on its organisation; nothing is created or changed.
pub async fn probe(client: &DevinV3Client) -> KeyCheck {
    let mut permissions = Vec::new();
    // The list first: a 404 there is the organisation (not a session), so the key is refused.
    for p in [
        Permission::ViewOrgSessions,
        Permission::ManageOrgSessions,
        Permission::ManageOrgSettings,
    ] {
        let outcome = match p {
            Permission::ViewOrgSessions => read(client.list_sessions(1, None, &[]).await, false),
            Permission::ManageOrgSessions => {
                read(client.end_session(PROBE_SESSION, false).await, true)
            }
            Permission::ManageOrgSettings => read(client.default_platform().await, false),
        };
        match outcome {
            Probe::Held(h) => permissions.push((p, h)),
            Probe::Stop(c) => return c,
        }
    }
    KeyCheck {
        verdict: KeyVerdict::Accepted,
        permissions,
        reason: None,
    }
}

/// What each permission is for, in the words of the commands that need it.
fn used_by(p: Permission) -> &'static str {
    match p {
        Permission::ManageOrgSessions => {
            "`session create`, `session verify --create` and `session end` will be refused"
        }
        Permission::ViewOrgSessions => {
            "`session show` and `session verify --create` (which follows the session) will be refused"
        }
        Permission::ManageOrgSettings => "`outpost default` will be refused",
    }
}

pub async fn api_key(settings: &DoctorSettings, http: &HttpClient, t: Duration) -> Check {
    const ID: &str = "api_key";
    const TITLE: &str = "v3 API key";
    let Some(key) = settings.get(&env::DEVIN_API_KEY) else {
        return Check::skip(
            ID,
            TITLE,
            "not configured: DEVIN_API_KEY is unset (only `session create|show|end`, `session verify --create` and `outpost default` need it)",
        );
    };
    let client = match &settings.v3 {
        Ok(s) => DevinV3Client::new(s.clone(), http.clone()),
        Err(e) => return Check::fail(ID, TITLE, format!("{e}"), e.hint().to_string()),
    };
    // Without an outpost, `session create` and `verify --create` go to the organisation's
    // default platform, which only a ManageOrgSettings key can read.
    let settings_needed = settings
        .get(&env::OUTPOST_ID)
        .is_none_or(|o| o.value.trim().is_empty());
    bounded(ID, TITLE, t, "check DEVIN_API_URL and the network", async {
        let c = probe(&client).await;
        verdict(&c, &from(&key), client.org(), settings_needed)
    })
    .await
}

fn verdict(c: &KeyCheck, from: &str, org: &str, settings_needed: bool) -> Check {
    const ID: &str = "api_key";
    const TITLE: &str = "v3 API key";
    let reason = c.reason.clone().unwrap_or_default();
    match c.verdict {
        KeyVerdict::Refused => {
            return Check::fail(
                ID,
                TITLE,
                format!("{reason} ({from})"),
                "DEVIN_API_KEY is a service-user key (cog_…) of the organisation in DEVIN_ORG_ID; it is not DEVIN_OUTPOSTS_TOKEN",
            );
        }
        KeyVerdict::Unchecked => {
            return Check::fail(ID, TITLE, reason, "check DEVIN_API_URL and the network");
        }
        KeyVerdict::Accepted => {}
    }
    let required = |p: Permission| p != Permission::ManageOrgSettings || settings_needed;
    let missing = c.missing();
    let (blocking, optional): (Vec<Permission>, Vec<Permission>) =
        missing.iter().partition(|p| required(**p));
    let held: Vec<&str> = c
        .permissions
        .iter()
        .filter(|(_, h)| *h == Some(true))
        .map(|(p, _)| p.as_str())
        .collect();
    let unknown: Vec<&str> = c
        .permissions
        .iter()
        .filter(|(_, h)| h.is_none())
        .map(|(p, _)| p.as_str())
        .collect();
    let mut notes: Vec<String> = optional
        .iter()
        .map(|p| format!("lacks {p}: {}", used_by(*p)))
        .collect();
    if !unknown.is_empty() {
        notes.push(format!("could not tell: {}", unknown.join(", ")));
    }
    if let Some(first) = blocking.first() {
        let names: Vec<&str> = blocking.iter().map(|p| p.as_str()).collect();
        let why: Vec<String> = blocking.iter().map(|p| used_by(*p).to_string()).collect();
        let why = if *first == Permission::ManageOrgSettings {
            format!(
                "{}; and with no OUTPOST_ID set, `session create` and `session verify --create` need the organisation's default platform",
                why.join("; ")
            )
        } else {
            why.join("; ")
        };
        return Check::fail(
            ID,
            TITLE,
            format!(
                "{from} is accepted for organisation {org} but lacks {} (HTTP 403): {why}",
                names.join(" and ")
            ),
            format!(
                "give the service user behind DEVIN_API_KEY the {} permission on organisation {org}, or use a key that has it",
                names.join(" and ")
            ),
        );
    }
    let mut msg = format!(
        "{from} accepted for organisation {org} ({})",
        if held.is_empty() {
            "no permission confirmed".to_string()
        } else {
            held.join(", ")
        }
    );
    if !notes.is_empty() {
        msg.push_str(&format!("; {}", notes.join("; ")));
    }
    Check::pass(ID, TITLE, msg)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn accepted(p: &[(Permission, Option<bool>)]) -> KeyCheck {
        KeyCheck {
            verdict: KeyVerdict::Accepted,
            permissions: p.to_vec(),
            reason: None,
        }
    }

    #[test]
    fn a_view_only_key_fails_naming_manage_and_settings_matter_only_without_an_outpost() {
        use super::super::Status;
        use Permission::*;
        let view_only = accepted(&[
            (ViewOrgSessions, Some(true)),
            (ManageOrgSessions, Some(false)),
            (ManageOrgSettings, Some(false)),
        ]);
        let c = verdict(&view_only, "DEVIN_API_KEY from env", "org-1", false);
        assert_eq!(c.status, Status::Fail);
        assert!(
            c.message.contains("lacks ManageOrgSessions"),
            "{}",
            c.message
        );
        assert!(
            !c.message.contains("and ManageOrgSettings"),
            "{}",
            c.message
        );

        let no_settings = accepted(&[
            (ViewOrgSessions, Some(true)),
            (ManageOrgSessions, Some(true)),
            (ManageOrgSettings, Some(false)),
        ]);
        let c = verdict(&no_settings, "k", "org-1", false);
        assert_eq!(c.status, Status::Pass, "{}", c.message);
        assert!(
            c.message.contains("lacks ManageOrgSettings"),
            "{}",
            c.message
        );
        let c = verdict(&no_settings, "k", "org-1", true);
        assert_eq!(c.status, Status::Fail, "{}", c.message);
        assert!(c.message.contains("default platform"), "{}", c.message);
    }
}
