//! Which outpost a v3 session runs on, resolved with the credentials at hand: the one resolver
//! of `session create` and `session verify --create`, so both name an outpost the same way.
//!
//! The v3 API takes an outpost's *name* as a session's `platform`. A name (from `--outpost` or
//! `OUTPOST_ID`) goes as it is. An `outpost_env-…` id is turned into its name through the fleet
//! API when `DEVIN_OUTPOSTS_TOKEN` is set; without it, through what the v3 key itself can read:
//! the organisation's default platform (`{platform, outpost_pool_id, outpost_pool_name}`), then
//! the 400 a create with an unknown platform answers, which lists the outposts the organisation
//! accepts (specs/devin-sessions-api.md §2, §4). With no outpost given, [`NoneGiven`] says
//! what the caller wants: the organisation's default read first (with none set, nothing is
//! created), or left to the server unread.

use crate::api::devin::DevinClient;
use crate::api::devin_v3::{CreateSession, DefaultPlatform, DevinV3Client, V3Error, V3Session};
use crate::api::outpost_lookup::{OutpostLookupError, resolve_outpost};

const ID_PREFIX: &str = "outpost_env-";

/// Where the outpost came from (for messages that name the input to fix).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    Flag,
    Env,
}

impl Source {
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Flag => "--outpost",
            Source::Env => "OUTPOST_ID",
        }
    }
}

/// The outpost the proof session is created on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Choice {
    /// This `platform` (an outpost's name, or a hosted label).
    Named {
        platform: String,
        /// How an id became this name, when it was one.
        resolved: Option<String>,
    },
    /// An id nothing could name yet: the create itself tries it, and its 400 names it.
    Id { id: String, source: Source },
    /// No outpost given: the organisation's default platform, `shown` as its name (or label).
    Default { shown: String },
    /// No outpost given and the default could not be read (`why`): the server applies it.
    DefaultUnread { why: String },
    /// No outpost given and the caller did not ask to read the default: the server applies it.
    ServerDefault,
}

/// What [`choose`] does when no outpost is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoneGiven {
    /// Read the organisation's default platform; with none set, refuse ([`ChoiceError::NoOutpost`]).
    ReadDefault,
    /// Leave it to the server, which applies the organisation's default (if any).
    ServerDefault,
}

impl Choice {
    /// The name the session runs on, for the verdict (`None`: the default, unread).
    pub fn shown(&self) -> Option<String> {
        match self {
            Choice::Named { platform, .. } => Some(platform.clone()),
            Choice::Id { id, .. } => Some(id.clone()),
            Choice::Default { shown } => Some(shown.clone()),
            Choice::DefaultUnread { .. } | Choice::ServerDefault => None,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ChoiceError {
    /// Neither `--outpost`/`OUTPOST_ID` nor an organisation default: nothing to create on.
    #[error(
        "no outpost given (--outpost, OUTPOST_ID) and organisation {org} has no default platform"
    )]
    NoOutpost { org: String },
    /// An id that neither the default platform nor the organisation's accepted list names.
    #[error(
        "cannot find the name of outpost {id} ({}): DEVIN_OUTPOSTS_TOKEN is not set, and organisation {org} does not list it among the outposts it accepts{}",
        given_as.as_str(),
        accepted_suffix(accepted)
    )]
    UnknownId {
        id: String,
        given_as: Source,
        org: String,
        accepted: Vec<String>,
    },
    #[error(transparent)]
    V3(#[from] V3Error),
    #[error(transparent)]
    Lookup(#[from] OutpostLookupError),
}

fn accepted_suffix(accepted: &[String]) -> String {
    if accepted.is_empty() {
        String::new()
    } else {
        format!(" (it accepts: {})", accepted.join(", "))
    }
}

/// The outpost given: `--outpost`, else `OUTPOST_ID`; blanks count as none.
pub fn given(flag: Option<&str>, env: Option<&str>) -> Option<(String, Source)> {
    let clean = |v: Option<&str>| v.map(str::trim).filter(|v| !v.is_empty()).map(String::from);
    clean(flag)
        .map(|f| (f, Source::Flag))
        .or_else(|| clean(env).map(|e| (e, Source::Env)))
}

/// The default platform's name (or label, or id), when one is set.
fn default_shown(d: &DefaultPlatform) -> Option<String> {
    let named = |v: &Option<String>| v.clone().filter(|s| !s.trim().is_empty());
    named(&d.outpost_pool_name)
        .or_else(|| named(&d.platform))
        .or_else(|| named(&d.outpost_pool_id))
}

/// Decide the outpost before anything is created.
pub async fn choose(
    v3: &DevinV3Client,
    fleet: Option<&DevinClient>,
    given: Option<(String, Source)>,
    none: NoneGiven,
) -> Result<Choice, ChoiceError> {
    let Some((value, source)) = given else {
        if none == NoneGiven::ServerDefault {
            return Ok(Choice::ServerDefault);
        }
        return match v3.default_platform().await {
            Ok(d) => match default_shown(&d) {
                Some(shown) => Ok(Choice::Default { shown }),
                None => Err(ChoiceError::NoOutpost {
                    org: v3.org().to_string(),
                }),
            },
            // A key without ManageOrgSettings cannot read it: the server still applies it.
            Err(e) if e.is_auth() => Ok(Choice::DefaultUnread { why: e.to_string() }),
            Err(e) => Err(e.into()),
        };
    };
    if !value.starts_with(ID_PREFIX) {
        return Ok(Choice::Named {
            platform: value,
            resolved: None,
        });
    }
    if let Some(fleet) = fleet {
        let outpost = resolve_outpost(fleet, &value).await?;
        if let Some(name) = outpost.name.filter(|n| !n.trim().is_empty()) {
            return Ok(Choice::Named {
                platform: name,
                resolved: Some(format!("{value} named through the fleet API")),
            });
        }
    }
    // The organisation default may be this very outpost, and it carries its name.
    if let Ok(d) = v3.default_platform().await
        && d.outpost_pool_id.as_deref() == Some(value.as_str())
        && let Some(name) = d.outpost_pool_name.filter(|n| !n.trim().is_empty())
    {
        return Ok(Choice::Named {
            platform: name,
            resolved: Some(format!(
                "{value} named by the organisation's default platform"
            )),
        });
    }
    Ok(Choice::Id { id: value, source })
}

/// Create the session on the chosen outpost; answers it and the `platform` it was created on
/// (`None`: the organisation default). An id goes as the platform first: a server that takes
/// ids creates the session; one that does not answers 400 with the outposts it accepts, and
/// the one with this id gives its name for a second, final create.
pub async fn create(
    v3: &DevinV3Client,
    mut body: CreateSession,
    choice: &Choice,
) -> Result<(V3Session, Option<String>), ChoiceError> {
    let (id, source) = match choice {
        Choice::Named { platform, .. } => {
            body.platform = Some(platform.clone());
            return Ok((v3.create_session(&body).await?, body.platform));
        }
        Choice::Default { .. } | Choice::DefaultUnread { .. } | Choice::ServerDefault => {
            body.platform = None;
            return Ok((v3.create_session(&body).await?, None));
        }
        Choice::Id { id, source } => (id, *source),
    };
    body.platform = Some(id.clone());
    match v3.create_session(&body).await {
        Ok(s) => Ok((s, body.platform)),
        Err(V3Error::Rejected {
            outposts, accepted, ..
        }) => match outposts.into_iter().find(|o| &o.id == id) {
            Some(o) => {
                body.platform = Some(o.name);
                Ok((v3.create_session(&body).await?, body.platform))
            }
            None => Err(ChoiceError::UnknownId {
                id: id.clone(),
                given_as: source,
                org: v3.org().to_string(),
                accepted,
            }),
        },
        Err(e) => Err(e.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flag_wins_and_blanks_are_none() {
        assert_eq!(
            given(Some(" gpu "), Some("outpost_env-1")),
            Some(("gpu".into(), Source::Flag))
        );
        assert_eq!(
            given(Some("  "), Some("outpost_env-1")),
            Some(("outpost_env-1".into(), Source::Env))
        );
        assert_eq!(given(None, Some("")), None);
    }

    #[test]
    fn the_default_is_shown_by_name_then_label_then_id() {
        let d = |p: Option<&str>, id: Option<&str>, n: Option<&str>| DefaultPlatform {
            platform: p.map(String::from),
            outpost_pool_id: id.map(String::from),
            outpost_pool_name: n.map(String::from),
        };
        assert_eq!(
            default_shown(&d(None, Some("outpost_env-1"), Some("gpu"))),
            Some("gpu".into())
        );
        assert_eq!(
            default_shown(&d(Some("linux"), None, None)),
            Some("linux".into())
        );
        assert_eq!(
            default_shown(&d(None, Some("outpost_env-1"), None)),
            Some("outpost_env-1".into())
        );
        assert_eq!(default_shown(&d(None, None, None)), None);
    }
}
