//! The one way to find an outpost from what a user typed: a name or an id.
//!
//! Why one function: the get-one route `GET /opbeta/outposts/{id}` is documented only under the
//! doubled path and no peer calls it (specs/devin-outposts-api.md §5.6, §13.1); Cognition's own
//! model of the server has no such route. So the get-one answer is a shortcut, never the truth:
//! a 404 or 405 there (route missing, or a name rather than an id) falls back to the list, and
//! so does a 403 (a machine token may list outposts but not read one). Every command that takes
//! an outpost resolves it here, so `doctor`, `outpost get` and the orchestrator agree.

use crate::api::devin::{DevinClient, Outpost};
use crate::api::http::ApiError;

/// Why an outpost could not be resolved. `NotFound` and `Ambiguous` carry the account's
/// outposts so the message can show the user what to pass instead.
#[derive(Debug, thiserror::Error)]
pub enum OutpostLookupError {
    #[error(
        "no outpost has the id or name {wanted:?}; the account has {}",
        listing(known)
    )]
    NotFound { wanted: String, known: Vec<Outpost> },
    #[error("the name {wanted:?} belongs to {} outposts: {}", matches.len(), listing(matches))]
    Ambiguous {
        wanted: String,
        matches: Vec<Outpost>,
    },
    #[error("an outpost name or id cannot be empty")]
    Empty,
    #[error(transparent)]
    Api(#[from] ApiError),
}

impl OutpostLookupError {
    /// The user named an outpost that does not exist (or not uniquely): their input is wrong,
    /// not the service.
    pub fn is_bad_input(&self) -> bool {
        !matches!(self, OutpostLookupError::Api(_))
    }
}

/// `name (id), name (id), …`, at most 20 shown.
fn listing(all: &[Outpost]) -> String {
    if all.is_empty() {
        return "no outposts".into();
    }
    let mut parts: Vec<String> = all
        .iter()
        .take(20)
        .map(
            |o| match o.name.as_deref().filter(|n| !n.trim().is_empty()) {
                Some(n) => format!("{n} ({})", o.outpost_id),
                None => format!("unnamed ({})", o.outpost_id),
            },
        )
        .collect();
    if all.len() > 20 {
        parts.push(format!("… and {} more", all.len() - 20));
    }
    format!("{} outpost(s): {}", all.len(), parts.join(", "))
}

/// Resolve `name_or_id` to one outpost of the account.
///
/// Order: the get-one route with the value as an id (when it answers 200 that is the outpost);
/// on 404, 405, 403 or a value that cannot be a path segment, the full list: an id match
/// first, then an exact name match. No match → [`OutpostLookupError::NotFound`]; a name shared
/// by several outposts → [`OutpostLookupError::Ambiguous`]. Other API failures pass through as
/// [`OutpostLookupError::Api`].
pub async fn resolve_outpost(
    client: &DevinClient,
    name_or_id: &str,
) -> Result<Outpost, OutpostLookupError> {
    let wanted = name_or_id.trim();
    if wanted.is_empty() {
        return Err(OutpostLookupError::Empty);
    }
    match client.get_outpost(wanted).await {
        Ok(Some(o)) => return Ok(o),
        Ok(None) => {}
        Err(e) if falls_back(&e) => {
            tracing::debug!("the get-one outpost route did not answer ({e}); using the list");
        }
        Err(e) => return Err(e.into()),
    }
    let all = client.list_outposts().await?;
    pick(all, wanted)
}

/// Answers of the get-one route that say nothing about whether the outpost exists.
fn falls_back(e: &ApiError) -> bool {
    matches!(
        e,
        ApiError::Unauthorized { status: 403, .. } | ApiError::InvalidInput { .. }
    ) || e.status() == Some(405)
}

/// Choose from the list: an id match first, then an exact name.
pub fn pick(all: Vec<Outpost>, wanted: &str) -> Result<Outpost, OutpostLookupError> {
    if let Some(o) = all.iter().find(|o| o.outpost_id == wanted) {
        return Ok(o.clone());
    }
    let mut named: Vec<Outpost> = all
        .iter()
        .filter(|o| o.name.as_deref() == Some(wanted))
        .cloned()
        .collect();
    match named.pop() {
        Some(one) if named.is_empty() => Ok(one),
        None => Err(OutpostLookupError::NotFound {
            wanted: wanted.to_string(),
            known: all,
        }),
        Some(last) => {
            named.push(last);
            Err(OutpostLookupError::Ambiguous {
                wanted: wanted.to_string(),
                matches: named,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn o(id: &str, name: &str) -> Outpost {
        Outpost {
            outpost_id: id.into(),
            account_id: None,
            created_at: None,
            name: Some(name.into()),
            platform: None,
            description: None,
            queue_depth: None,
            active_claims: None,
        }
    }

    #[test]
    fn id_first_then_exact_name_then_errors_that_list() {
        let all = vec![
            o("outpost_env-a", "gpu"),
            o("outpost_env-b", "outpost_env-a"),
        ];
        // An id wins over a name equal to it.
        assert_eq!(
            pick(all.clone(), "outpost_env-a").unwrap().name.unwrap(),
            "gpu"
        );
        assert_eq!(
            pick(all.clone(), "gpu").unwrap().outpost_id,
            "outpost_env-a"
        );
        let e = pick(all.clone(), "GPU").unwrap_err();
        assert!(matches!(e, OutpostLookupError::NotFound { .. }));
        let msg = e.to_string();
        assert!(msg.contains("gpu (outpost_env-a)"), "{msg}");
        let twins = vec![o("outpost_env-x", "dup"), o("outpost_env-y", "dup")];
        let e = pick(twins, "dup").unwrap_err();
        assert!(matches!(e, OutpostLookupError::Ambiguous { .. }));
        assert!(e.to_string().contains("outpost_env-y"), "{e}");
        assert!(e.is_bad_input());
    }
}
