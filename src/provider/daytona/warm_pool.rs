//! Daytona warm pools for the snapshot sessions start from: N started sandboxes Daytona keeps
//! ready and hands to an eligible create (one pool per snapshot and region). A create is
//! eligible when it uses the pool's snapshot and region, the snapshot's resources and default
//! user, and no custom env, volumes or secrets — which is how the orchestrator creates.

use crate::api::ApiError;
use crate::api::daytona::DaytonaClient;
use crate::api::daytona_types::WarmPool;

/// Does `p` keep sandboxes of `snapshot` (in `target`, when one is set)?
fn serves(p: &WarmPool, snapshot: &str, target: Option<&str>) -> bool {
    p.snapshot == snapshot && target.is_none_or(|t| p.target == t)
}

/// The pool of `snapshot` (in `target`), if it has one.
pub async fn find(
    client: &DaytonaClient,
    snapshot: &str,
    target: Option<&str>,
) -> Result<Option<WarmPool>, ApiError> {
    let pools = client.list_warm_pools().await?;
    Ok(pools.into_iter().find(|p| serves(p, snapshot, target)))
}

/// Keep `size` warm sandboxes of `snapshot`: resize its pool, or create one. A create that
/// answers 409 lost a race with another writer: resize the pool that won.
pub async fn set(
    client: &DaytonaClient,
    snapshot: &str,
    target: Option<&str>,
    size: u32,
) -> Result<WarmPool, ApiError> {
    if let Some(p) = find(client, snapshot, target).await? {
        return client.resize_warm_pool(&p.id, size).await;
    }
    match client.create_warm_pool(snapshot, size, target).await {
        Err(ApiError::Conflict { .. }) => match find(client, snapshot, target).await? {
            Some(p) => client.resize_warm_pool(&p.id, size).await,
            None => client.create_warm_pool(snapshot, size, target).await,
        },
        other => other,
    }
}

/// Delete the pool of `snapshot`: the pool deleted, or `None` when there was none.
pub async fn delete(
    client: &DaytonaClient,
    snapshot: &str,
    target: Option<&str>,
) -> Result<Option<WarmPool>, ApiError> {
    let Some(p) = find(client, snapshot, target).await? else {
        return Ok(None);
    };
    client.delete_warm_pool(&p.id).await?;
    Ok(Some(p))
}
