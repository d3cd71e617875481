//! File-system snapshots of scratch volumes (spec §3.9; `CreateFileSystemSnapshot`,
//! `GetFileSystemSnapshot`, `ListFileSystemSnapshots`, `DeleteFileSystemSnapshot`): what keeps a
//! CoreWeave sandbox's workspace across a delete.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use super::error::{CoreweaveError, ErrorKind};
use super::{CREATE_DEADLINE, CoreweaveClient, GET_DEADLINE, LIST_PAGE_DEADLINE, LIST_TOTAL};
use super::{MAX_PAGES, Retry, pb};
use crate::poll::{Backoff, Poll, Waited, poll_until};

impl CoreweaveClient {
    /// Snapshot one scratch volume of a running sandbox. `request_id` makes retries of the same
    /// snapshot idempotent.
    pub async fn create_snapshot(
        &self,
        sandbox_id: &str,
        volume: &str,
        request_id: &str,
    ) -> Result<pb::FileSystemSnapshot, CoreweaveError> {
        let msg = pb::CreateFileSystemSnapshotRequest {
            sandbox_id: sandbox_id.to_string(),
            request_id: request_id.to_string(),
            scratch_volume_name: volume.to_string(),
        };
        self.unary(
            "CreateFileSystemSnapshot",
            msg,
            CREATE_DEADLINE,
            Retry::Idempotent,
            |mut c, r| async move { c.create_file_system_snapshot(r).await },
        )
        .await
    }

    pub async fn get_snapshot(&self, id: &str) -> Result<pb::FileSystemSnapshot, CoreweaveError> {
        let msg = pb::GetFileSystemSnapshotRequest {
            file_system_snapshot_id: id.to_string(),
        };
        self.unary(
            "GetFileSystemSnapshot",
            msg,
            GET_DEADLINE,
            Retry::Idempotent,
            |mut c, r| async move { c.get_file_system_snapshot(r).await },
        )
        .await
    }

    /// Every snapshot (of one source sandbox, when given), all pages.
    pub async fn list_snapshots(
        &self,
        source_sandbox_id: Option<&str>,
    ) -> Result<Vec<pb::FileSystemSnapshot>, CoreweaveError> {
        const METHOD: &str = "ListFileSystemSnapshots";
        let started = Instant::now();
        let mut out = Vec::new();
        let mut token = String::new();
        let mut seen = HashSet::new();
        for _ in 0..MAX_PAGES {
            let left = LIST_TOTAL.saturating_sub(started.elapsed());
            if left.is_zero() {
                return Err(CoreweaveError::local(
                    METHOD,
                    ErrorKind::DeadlineExceeded,
                    "listing every page took too long",
                ));
            }
            let msg = pb::ListFileSystemSnapshotsRequest {
                page_size: 0,
                page_token: token.clone(),
                source_sandbox_id: source_sandbox_id.unwrap_or_default().to_string(),
            };
            let page = self
                .unary(
                    METHOD,
                    msg,
                    LIST_PAGE_DEADLINE.min(left),
                    Retry::Idempotent,
                    |mut c, r| async move { c.list_file_system_snapshots(r).await },
                )
                .await?;
            out.extend(page.file_system_snapshots);
            if page.next_page_token.is_empty() {
                return Ok(out);
            }
            if !seen.insert(page.next_page_token.clone()) {
                return Err(CoreweaveError::local(
                    METHOD,
                    ErrorKind::Other,
                    "the server repeated a page token; stopping instead of looping",
                ));
            }
            token = page.next_page_token;
        }
        Err(CoreweaveError::local(
            METHOD,
            ErrorKind::Other,
            format!("more than {MAX_PAGES} pages of snapshots"),
        ))
    }

    /// Delete a snapshot; a missing one is fine when `allow_missing`.
    pub async fn delete_snapshot(
        &self,
        id: &str,
        allow_missing: bool,
    ) -> Result<(), CoreweaveError> {
        let msg = pb::DeleteFileSystemSnapshotRequest {
            file_system_snapshot_id: id.to_string(),
            allow_missing,
        };
        match self
            .unary(
                "DeleteFileSystemSnapshot",
                msg,
                GET_DEADLINE,
                Retry::Idempotent,
                |mut c, r| async move { c.delete_file_system_snapshot(r).await },
            )
            .await
        {
            Ok(_) => Ok(()),
            Err(e) if allow_missing && e.is_not_found() => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// Poll a snapshot until it is READY or FAILED, or `budget` passes (the SDK waits 600 s).
    pub async fn wait_snapshot(
        &self,
        id: &str,
        budget: Duration,
    ) -> Result<pb::FileSystemSnapshot, CoreweaveError> {
        let deadline = Instant::now() + budget;
        let waited = poll_until(
            deadline,
            Backoff::growing(Duration::from_millis(200), Duration::from_secs(2)),
            || async {
                let s = self.get_snapshot(id).await?;
                let done = matches!(
                    pb::SnapshotState::try_from(s.state),
                    Ok(pb::SnapshotState::Ready | pb::SnapshotState::Failed)
                );
                Ok(if done {
                    Poll::Ready(s)
                } else {
                    Poll::Pending(s)
                })
            },
        )
        .await?;
        // Out of time: the last answer, whatever its state (the caller reports it).
        match waited {
            Waited::Ready(s) | Waited::TimedOut(Some(s)) => Ok(s),
            Waited::TimedOut(None) => self.get_snapshot(id).await,
        }
    }
}
