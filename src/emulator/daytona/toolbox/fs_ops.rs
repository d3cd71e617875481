//! Toolbox file operations past plain transfer: `find` (content search), `search` (name glob),
//! `replace`, `move` and `permissions`, carried out with the sandbox's own tools.

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;

use super::super::Authed;
use super::{Ctx, ctx, parse, sandbox_argv};
use crate::emulator::AppState;
use crate::provider::Provider;

#[derive(Deserialize)]
pub(super) struct FsQuery {
    #[serde(default)]
    path: Option<String>,
    #[serde(default)]
    pattern: Option<String>,
    #[serde(default)]
    source: Option<String>,
    #[serde(default)]
    destination: Option<String>,
    #[serde(default)]
    owner: Option<String>,
    #[serde(default)]
    group: Option<String>,
    #[serde(default)]
    mode: Option<String>,
}

fn required(c: &Ctx, v: &Option<String>, name: &str) -> Result<String, Response> {
    match v.as_deref() {
        Some(x) if !x.is_empty() => Ok(x.to_string()),
        _ => Err(c.bad(format!("{name} is required"))),
    }
}

macro_rules! need {
    ($c:expr, $v:expr, $name:expr) => {
        match required(&$c, &$v, $name) {
            Ok(x) => x,
            Err(r) => return r,
        }
    };
}

/// Does `path` exist in the sandbox (file or directory)?
async fn exists(s: &AppState, c: &Ctx, path: &str) -> bool {
    let argv = vec!["test".into(), "-e".into(), path.to_string()];
    matches!(sandbox_argv(s, c, argv).await, Ok(o) if o.exit_code == 0)
}

fn not_found(c: &Ctx, path: &str) -> Response {
    c.err(
        StatusCode::NOT_FOUND,
        format!("file not found: {path}"),
        "FILE_NOT_FOUND",
    )
}

/// `GET /files/find?path&pattern` → `[{file, line, content}]`: lines matching the pattern
/// (a grep regular expression) in the text files under `path`.
pub(super) async fn find_in_files(
    _: Authed,
    State(s): State<AppState>,
    Path(sid): Path<String>,
    Query(q): Query<FsQuery>,
    uri: Uri,
    method: Method,
) -> Response {
    let c = ctx_or_return!(s, sid, uri, method);
    let path = need!(c, q.path, "path");
    let pattern = need!(c, q.pattern, "pattern");
    if !exists(&s, &c, &path).await {
        return c.bad(format!("path does not exist: {path}"));
    }
    let argv = vec!["grep".into(), "-rnIH".into(), "--".into(), pattern, path];
    match sandbox_argv(&s, &c, argv).await {
        // grep: 0 found, 1 nothing found; 2 is an error (a bad pattern).
        Ok(o) if o.exit_code <= 1 => {
            let matches: Vec<serde_json::Value> = o.stdout.lines().filter_map(grep_match).collect();
            axum::Json(matches).into_response()
        }
        Ok(o) => c.bad(format!("search failed: {}", o.stderr.trim())),
        Err(e) => c.provider_err(e),
    }
}

/// `file:line:content` → a `Match`.
fn grep_match(line: &str) -> Option<serde_json::Value> {
    let (file, rest) = line.split_once(':')?;
    let (n, content) = rest.split_once(':')?;
    let n: u64 = n.parse().ok()?;
    Some(json!({"file": file, "line": n, "content": content}))
}

/// `GET /files/search?path&pattern` → `{files}`: paths under `path` whose name matches the
/// glob.
pub(super) async fn search_files(
    _: Authed,
    State(s): State<AppState>,
    Path(sid): Path<String>,
    Query(q): Query<FsQuery>,
    uri: Uri,
    method: Method,
) -> Response {
    let c = ctx_or_return!(s, sid, uri, method);
    let path = need!(c, q.path, "path");
    let pattern = need!(c, q.pattern, "pattern");
    if !exists(&s, &c, &path).await {
        return c.bad(format!("path does not exist: {path}"));
    }
    let argv = vec![
        "find".into(),
        path,
        "-mindepth".into(),
        "1".into(),
        "-name".into(),
        pattern,
    ];
    match sandbox_argv(&s, &c, argv).await {
        Ok(o) => {
            let files: Vec<&str> = o.stdout.lines().filter(|l| !l.is_empty()).collect();
            axum::Json(json!({ "files": files })).into_response()
        }
        Err(e) => c.provider_err(e),
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ReplaceBody {
    files: Vec<String>,
    pattern: String,
    new_value: String,
}

/// `POST /files/replace {files, pattern, newValue}` → one `{file, success, error?}` per file:
/// every occurrence of the text `pattern` replaced.
pub(super) async fn replace_in_files(
    _: Authed,
    State(s): State<AppState>,
    Path(sid): Path<String>,
    uri: Uri,
    method: Method,
    body: Bytes,
) -> Response {
    let c = ctx_or_return!(s, sid, uri, method);
    let req: ReplaceBody = match parse(&c, &body) {
        Ok(r) => r,
        Err(r) => return r,
    };
    if req.pattern.is_empty() {
        return c.bad("pattern is required");
    }
    let p = s.sandboxes.provider();
    let mut results = Vec::new();
    for file in &req.files {
        let outcome = match p.read_file(&c.sid, file).await {
            Ok(Some(bytes)) => {
                let text = String::from_utf8_lossy(&bytes);
                let new = text.replace(&req.pattern, &req.new_value);
                match p.write_file(&c.sid, file, new.as_bytes()).await {
                    Ok(()) => Ok(()),
                    Err(e) => Err(e.to_string()),
                }
            }
            Ok(None) => Err(format!("file not found: {file}")),
            Err(e) => Err(e.to_string()),
        };
        results.push(match outcome {
            Ok(()) => json!({"file": file, "success": true}),
            Err(e) => json!({"file": file, "success": false, "error": e}),
        });
    }
    axum::Json(results).into_response()
}

/// `POST /files/move?source&destination`: 404 without the source, 409 when the destination
/// exists.
pub(super) async fn move_file(
    _: Authed,
    State(s): State<AppState>,
    Path(sid): Path<String>,
    Query(q): Query<FsQuery>,
    uri: Uri,
    method: Method,
) -> Response {
    let c = ctx_or_return!(s, sid, uri, method);
    let source = need!(c, q.source, "source");
    let destination = need!(c, q.destination, "destination");
    if !exists(&s, &c, &source).await {
        return not_found(&c, &source);
    }
    if exists(&s, &c, &destination).await {
        return c.err(
            StatusCode::CONFLICT,
            format!("destination already exists: {destination}"),
            "CONFLICT",
        );
    }
    let argv = vec!["mv".into(), "-T".into(), "--".into(), source, destination];
    match sandbox_argv(&s, &c, argv).await {
        Ok(o) if o.exit_code == 0 => StatusCode::OK.into_response(),
        Ok(o) => c.bad(o.stderr.trim().to_string()),
        Err(e) => c.provider_err(e),
    }
}

/// `POST /files/permissions?path&owner&group&mode`.
pub(super) async fn set_permissions(
    _: Authed,
    State(s): State<AppState>,
    Path(sid): Path<String>,
    Query(q): Query<FsQuery>,
    uri: Uri,
    method: Method,
) -> Response {
    let c = ctx_or_return!(s, sid, uri, method);
    let path = need!(c, q.path, "path");
    if !exists(&s, &c, &path).await {
        return not_found(&c, &path);
    }
    let mut steps: Vec<Vec<String>> = Vec::new();
    if let Some(mode) = q.mode.filter(|m| !m.is_empty()) {
        if mode.len() > 4 || !mode.chars().all(|ch| ('0'..='7').contains(&ch)) {
            return c.bad(format!("invalid mode `{mode}` (octal, e.g. 0755)"));
        }
        steps.push(vec!["chmod".into(), mode, "--".into(), path.clone()]);
    }
    let owner = q.owner.filter(|o| !o.is_empty());
    let group = q.group.filter(|g| !g.is_empty());
    let spec = match (owner, group) {
        (Some(o), Some(g)) => Some(format!("{o}:{g}")),
        (Some(o), None) => Some(o),
        (None, Some(g)) => Some(format!(":{g}")),
        (None, None) => None,
    };
    if let Some(spec) = spec {
        steps.push(vec!["chown".into(), spec, "--".into(), path.clone()]);
    }
    for argv in steps {
        match sandbox_argv(&s, &c, argv).await {
            Ok(o) if o.exit_code == 0 => {}
            Ok(o) => return c.bad(o.stderr.trim().to_string()),
            Err(e) => return c.provider_err(e),
        }
    }
    StatusCode::OK.into_response()
}
