//! Toolbox git reads: `GET /git/status` and `GET /git/branches`, from the sandbox's own `git`.

use axum::extract::{Path, Query, State};
use axum::http::{Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};

use super::super::Authed;
use super::{Ctx, ctx, sandbox_argv};
use crate::emulator::AppState;

#[derive(Deserialize)]
pub(super) struct RepoQuery {
    #[serde(default)]
    path: Option<String>,
}

/// `git -C <path> <args…>` in the sandbox: stdout, or the answer to send (404 when `path` is
/// not a repository).
async fn git(s: &AppState, c: &Ctx, path: &str, args: &[&str]) -> Result<String, Response> {
    let mut argv = vec!["git".to_string(), "-C".into(), path.to_string()];
    argv.extend(args.iter().map(|a| a.to_string()));
    match sandbox_argv(s, c, argv).await {
        Ok(o) if o.exit_code == 0 => Ok(o.stdout),
        // git's "not a git repository" (and a missing directory) both exit 128.
        Ok(o) if o.exit_code == 128 => Err(c.err(
            StatusCode::NOT_FOUND,
            format!("repository does not exist: {path}"),
            "NOT_FOUND",
        )),
        Ok(o) => Err(c.err(
            StatusCode::INTERNAL_SERVER_ERROR,
            o.stderr.trim().to_string(),
            "INTERNAL_SERVER_ERROR",
        )),
        Err(e) => Err(c.provider_err(e)),
    }
}

fn need_path(c: &Ctx, q: &RepoQuery) -> Result<String, Response> {
    match q.path.as_deref() {
        Some(p) if !p.is_empty() => Ok(p.to_string()),
        _ => Err(c.bad("path is required")),
    }
}

pub(super) async fn branches(
    _: Authed,
    State(s): State<AppState>,
    Path(sid): Path<String>,
    Query(q): Query<RepoQuery>,
    uri: Uri,
    method: Method,
) -> Response {
    let c = ctx_or_return!(s, sid, uri, method);
    let path = match need_path(&c, &q) {
        Ok(p) => p,
        Err(r) => return r,
    };
    let list = match git(&s, &c, &path, &["branch", "--format=%(refname:short)"]).await {
        Ok(o) => o,
        Err(r) => return r,
    };
    let current = match git(&s, &c, &path, &["branch", "--show-current"]).await {
        Ok(o) => o.trim().to_string(),
        Err(r) => return r,
    };
    let branches: Vec<&str> = list
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('('))
        .collect();
    axum::Json(json!({"branches": branches, "current": current})).into_response()
}

pub(super) async fn status(
    _: Authed,
    State(s): State<AppState>,
    Path(sid): Path<String>,
    Query(q): Query<RepoQuery>,
    uri: Uri,
    method: Method,
) -> Response {
    let c = ctx_or_return!(s, sid, uri, method);
    let path = match need_path(&c, &q) {
        Ok(p) => p,
        Err(r) => return r,
    };
    match git(&s, &c, &path, &["status", "--porcelain=v1", "--branch"]).await {
        Ok(out) => axum::Json(parse_status(&out)).into_response(),
        Err(r) => r,
    }
}

/// `git status --porcelain=v1 --branch` → the daemon's `GitStatus`.
fn parse_status(out: &str) -> Value {
    let mut current = String::new();
    let mut upstream = String::new();
    let (mut ahead, mut behind, mut detached) = (0u64, 0u64, false);
    let mut files = Vec::new();
    for line in out.lines() {
        if let Some(head) = line.strip_prefix("## ") {
            let (names, counts) = match head.split_once(" [") {
                Some((n, c)) => (n, c.trim_end_matches(']')),
                None => (head, ""),
            };
            if names.starts_with("HEAD (no branch)") {
                detached = true;
            } else if let Some(b) = names.strip_prefix("No commits yet on ") {
                current = b.to_string();
            } else if let Some((b, u)) = names.split_once("...") {
                current = b.to_string();
                upstream = u.to_string();
            } else {
                current = names.to_string();
            }
            for part in counts.split(", ") {
                if let Some(n) = part.strip_prefix("ahead ") {
                    ahead = n.parse().unwrap_or(0);
                } else if let Some(n) = part.strip_prefix("behind ") {
                    behind = n.parse().unwrap_or(0);
                }
            }
            continue;
        }
        let mut chars = line.chars();
        let (Some(x), Some(y)) = (chars.next(), chars.next()) else {
            continue;
        };
        let rest = line.get(3..).unwrap_or("");
        let (name, extra) = match rest.split_once(" -> ") {
            Some((from, to)) => (to, from),
            None => (rest, ""),
        };
        files.push(json!({
            "name": name,
            "staging": status_name(x),
            "worktree": status_name(y),
            "extra": extra,
        }));
    }
    json!({
        "currentBranch": current,
        "fileStatus": files,
        "ahead": ahead,
        "behind": behind,
        "branchPublished": !upstream.is_empty(),
        "upstream": upstream,
        "detached": detached,
    })
}

fn status_name(c: char) -> &'static str {
    match c {
        '?' => "Untracked",
        'M' | 'T' => "Modified",
        'A' => "Added",
        'D' => "Deleted",
        'R' => "Renamed",
        'C' => "Copied",
        'U' => "Updated but unmerged",
        _ => "Unmodified",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn porcelain_status_maps_to_the_daemon_shape() {
        let v = parse_status(
            "## main...origin/main [ahead 2, behind 1]\n M README\n?? new.txt\nR  old -> new\n",
        );
        assert_eq!(v["currentBranch"], "main");
        assert_eq!(v["upstream"], "origin/main");
        assert_eq!(
            (v["ahead"].as_u64(), v["behind"].as_u64()),
            (Some(2), Some(1))
        );
        assert_eq!(v["branchPublished"], true);
        let f = v["fileStatus"].as_array().expect("files");
        assert_eq!(f[0]["name"], "README");
        assert_eq!(
            (&f[0]["staging"], &f[0]["worktree"]),
            (&json!("Unmodified"), &json!("Modified"))
        );
        assert_eq!(
            (&f[1]["staging"], &f[1]["worktree"]),
            (&json!("Untracked"), &json!("Untracked"))
        );
        assert_eq!(
            (&f[2]["name"], &f[2]["extra"]),
            (&json!("new"), &json!("old"))
        );
        let d = parse_status("## HEAD (no branch)\n");
        assert_eq!(
            (d["detached"].as_bool(), d["currentBranch"].as_str()),
            (Some(true), Some(""))
        );
    }
}
