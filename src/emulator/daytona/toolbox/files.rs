//! Toolbox file endpoints: download, bulk download/upload, single upload, info, list, delete,
//! folder.

use std::collections::BTreeMap;

use axum::body::Bytes;
use axum::extract::{FromRequest, Multipart, Path, Query, State};
use axum::http::{Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;

use super::super::Authed;
use super::super::model;
use super::{Ctx, ctx, sandbox_argv};
use crate::emulator::AppState;
use crate::provider::{Provider, ProviderError};

#[derive(Deserialize)]
pub(super) struct PathQuery {
    #[serde(default)]
    path: Option<String>,
    #[serde(default)]
    mode: Option<String>,
    #[serde(default)]
    recursive: Option<String>,
}

pub(super) fn need_path(c: &Ctx, q: &PathQuery) -> Result<String, Response> {
    match q.path.as_deref().map(str::trim) {
        Some(p) if !p.is_empty() => Ok(p.to_string()),
        _ => Err(c.bad("path is required")),
    }
}

pub(super) fn file_name(path: &str) -> String {
    path.rsplit('/').next().unwrap_or(path).to_string()
}

pub(super) async fn download(
    _: Authed,
    State(s): State<AppState>,
    Path(sid): Path<String>,
    Query(q): Query<PathQuery>,
    uri: Uri,
    method: Method,
) -> Response {
    let c = ctx_or_return!(s, sid, uri, method);
    let path = match need_path(&c, &q) {
        Ok(p) => p,
        Err(r) => return r,
    };
    match s.sandboxes.provider().read_file(&c.sid, &path).await {
        Ok(Some(bytes)) => {
            let name = file_name(&path);
            let disposition = format!(
                "attachment; filename=\"{}\"; filename*=utf-8''{}",
                name.replace('"', ""),
                percent_encoding::utf8_percent_encode(&name, percent_encoding::NON_ALPHANUMERIC)
            );
            (
                [
                    (header::CONTENT_TYPE, "application/octet-stream".to_string()),
                    (header::CONTENT_DISPOSITION, disposition),
                ],
                bytes,
            )
                .into_response()
        }
        Ok(None) => c.err(
            StatusCode::NOT_FOUND,
            format!("file not found: {path}"),
            "FILE_NOT_FOUND",
        ),
        Err(ProviderError::Invalid(m)) => c.err(
            StatusCode::BAD_REQUEST,
            format!("path must be a file: {m}"),
            "BAD_REQUEST",
        ),
        Err(e) => c.provider_err(e),
    }
}

pub(super) const BOUNDARY: &str = "DAYTONA-FILE-BOUNDARY";

pub(super) async fn bulk_download(
    _: Authed,
    State(s): State<AppState>,
    Path(sid): Path<String>,
    uri: Uri,
    method: Method,
    body: Bytes,
) -> Response {
    let c = ctx_or_return!(s, sid, uri, method);
    let paths: Vec<String> = serde_json::from_slice::<serde_json::Value>(&body)
        .ok()
        .and_then(|v| serde_json::from_value(v.get("paths")?.clone()).ok())
        .unwrap_or_default();
    if paths.is_empty() {
        return c.bad("request body must be {\"paths\": [ ... ]} and non-empty");
    }
    let mut out: Vec<u8> = Vec::new();
    for p in &paths {
        let enc = percent_encoding::utf8_percent_encode(p, percent_encoding::NON_ALPHANUMERIC);
        match s.sandboxes.provider().read_file(&c.sid, p).await {
            Ok(Some(bytes)) => {
                out.extend_from_slice(
                    format!(
                        "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{}\"; filename*=utf-8''{enc}\r\nContent-Type: application/octet-stream\r\nContent-Length: {}\r\n\r\n",
                        p.replace('"', ""),
                        bytes.len()
                    )
                    .as_bytes(),
                );
                out.extend_from_slice(&bytes);
                out.extend_from_slice(b"\r\n");
            }
            other => {
                let (code, msg) = match other {
                    Ok(None) => ("FILE_NOT_FOUND", format!("file not found: {p}")),
                    Err(e) => ("INVALID_FILE_PATH", e.to_string()),
                    Ok(Some(_)) => ("INTERNAL_SERVER_ERROR", String::new()),
                };
                let err = json!({
                    "statusCode": 404, "message": msg, "code": code, "path": p,
                    "timestamp": model::iso(model::now_ms()),
                });
                out.extend_from_slice(
                    format!(
                        "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"error\"; filename=\"{}\"\r\nContent-Type: application/json\r\n\r\n{err}\r\n",
                        p.replace('"', "")
                    )
                    .as_bytes(),
                );
            }
        }
    }
    out.extend_from_slice(format!("--{BOUNDARY}--\r\n").as_bytes());
    (
        [(
            header::CONTENT_TYPE,
            format!("multipart/form-data; boundary={BOUNDARY}"),
        )],
        out,
    )
        .into_response()
}

pub(super) async fn bulk_upload(
    _: Authed,
    State(s): State<AppState>,
    Path(sid): Path<String>,
    uri: Uri,
    method: Method,
    mut form: Multipart,
) -> Response {
    let c = ctx_or_return!(s, sid, uri, method);
    let mut targets: BTreeMap<String, String> = BTreeMap::new();
    let mut done = Vec::new();
    let mut errors = Vec::new();
    loop {
        let field = match form.next_field().await {
            Ok(Some(f)) => f,
            Ok(None) => break,
            Err(e) => return c.bad(format!("malformed multipart body: {e}")),
        };
        let name = field.name().unwrap_or_default().to_string();
        let filename = field.file_name().map(str::to_string);
        let data = match field.bytes().await {
            Ok(b) => b,
            Err(e) => return c.bad(format!("malformed multipart body: {e}")),
        };
        let Some(index) = name
            .strip_prefix("files[")
            .and_then(|r| r.split_once(']'))
            .map(|(i, rest)| (i.to_string(), rest.to_string()))
        else {
            continue;
        };
        match index.1.as_str() {
            ".path" => {
                targets.insert(index.0, String::from_utf8_lossy(&data).into_owned());
            }
            ".file" => {
                let Some(dest) = targets.get(&index.0).cloned().or(filename) else {
                    errors.push(format!("files[{}].file has no path", index.0));
                    continue;
                };
                match s
                    .sandboxes
                    .provider()
                    .write_file(&c.sid, &dest, &data)
                    .await
                {
                    Ok(()) => done.push(json!({"path": dest, "bytes": data.len()})),
                    Err(e) => errors.push(format!("{dest}: {e}")),
                }
            }
            _ => {}
        }
    }
    if !errors.is_empty() {
        return (
            StatusCode::BAD_REQUEST,
            axum::Json(json!({"errors": errors, "files": done})),
        )
            .into_response();
    }
    // The spec declares a 200 without a body (the v0.190 daemon sent `{"files": […]}`).
    let _ = done;
    StatusCode::OK.into_response()
}

pub(super) async fn upload_single(
    _: Authed,
    State(s): State<AppState>,
    Path(sid): Path<String>,
    Query(q): Query<PathQuery>,
    uri: Uri,
    method: Method,
    req: axum::extract::Request,
) -> Response {
    let c = ctx_or_return!(s, sid, uri, method);
    let path = match need_path(&c, &q) {
        Ok(p) => p,
        Err(r) => return r,
    };
    let multipart = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("multipart/form-data"));
    let data = if multipart {
        let mut form = match Multipart::from_request(req, &s).await {
            Ok(f) => f,
            Err(e) => return c.bad(format!("malformed multipart body: {e}")),
        };
        let mut found = None;
        while let Ok(Some(field)) = form.next_field().await {
            if field.name() == Some("file") {
                found = field.bytes().await.ok();
                break;
            }
        }
        match found {
            Some(b) => b,
            None => return c.bad("the multipart body has no `file` part"),
        }
    } else {
        match axum::body::to_bytes(req.into_body(), 1024 * 1024 * 1024).await {
            Ok(b) => b,
            Err(e) => return c.bad(format!("cannot read the body: {e}")),
        }
    };
    match s
        .sandboxes
        .provider()
        .write_file(&c.sid, &path, &data)
        .await
    {
        Ok(()) => axum::Json(json!({"name": file_name(&path), "path": path, "type": "file"}))
            .into_response(),
        Err(e) => c.provider_err(e),
    }
}

/// `stat` inside the sandbox: `size|mode|owner|group|mtime|type|name`.
pub(super) const STAT_FORMAT: &str = "%s|%a|%U|%G|%Y|%F|%n";

pub(super) fn file_info_json(line: &str) -> Option<serde_json::Value> {
    let parts: Vec<&str> = line.splitn(7, '|').collect();
    if parts.len() != 7 {
        return None;
    }
    let mtime: u64 = parts[4].parse().unwrap_or(0);
    let is_dir = parts[5] == "directory";
    let mode = u32::from_str_radix(parts[1], 8).unwrap_or(0);
    Some(json!({
        "name": file_name(parts[6]),
        "path": parts[6],
        "isDir": is_dir,
        "size": parts[0].parse::<i64>().unwrap_or(0),
        "mode": mode_string(is_dir, mode),
        "permissions": format!("{:04o}", mode),
        "owner": parts[2],
        "group": parts[3],
        "modifiedAt": model::iso(mtime * 1000),
        "modTime": model::iso(mtime * 1000),
    }))
}

/// `drwxr-xr-x`, like Go's `FileMode.String()`.
pub(super) fn mode_string(is_dir: bool, mode: u32) -> String {
    let mut out = String::from(if is_dir { "d" } else { "-" });
    for shift in [6, 3, 0] {
        let bits = (mode >> shift) & 7;
        out.push(if bits & 4 != 0 { 'r' } else { '-' });
        out.push(if bits & 2 != 0 { 'w' } else { '-' });
        out.push(if bits & 1 != 0 { 'x' } else { '-' });
    }
    out
}

pub(super) async fn file_info(
    _: Authed,
    State(s): State<AppState>,
    Path(sid): Path<String>,
    Query(q): Query<PathQuery>,
    uri: Uri,
    method: Method,
) -> Response {
    let c = ctx_or_return!(s, sid, uri, method);
    let path = match need_path(&c, &q) {
        Ok(p) => p,
        Err(r) => return r,
    };
    let argv = vec![
        "stat".into(),
        "-c".into(),
        STAT_FORMAT.into(),
        "--".into(),
        path.clone(),
    ];
    match sandbox_argv(&s, &c, argv).await {
        Ok(out) if out.exit_code == 0 => match file_info_json(out.stdout.trim_end()) {
            Some(v) => axum::Json(v).into_response(),
            None => c.err(
                StatusCode::INTERNAL_SERVER_ERROR,
                "cannot read file info",
                "INTERNAL_SERVER_ERROR",
            ),
        },
        Ok(_) => c.err(
            StatusCode::NOT_FOUND,
            format!("file not found: {path}"),
            "FILE_NOT_FOUND",
        ),
        Err(e) => c.provider_err(e),
    }
}

pub(super) async fn list_files(
    _: Authed,
    State(s): State<AppState>,
    Path(sid): Path<String>,
    Query(q): Query<PathQuery>,
    uri: Uri,
    method: Method,
) -> Response {
    let c = ctx_or_return!(s, sid, uri, method);
    let path = q
        .path
        .clone()
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| c.home());
    let argv = vec![
        "find".into(),
        path.clone(),
        "-mindepth".into(),
        "1".into(),
        "-maxdepth".into(),
        "1".into(),
        "-exec".into(),
        "stat".into(),
        "-c".into(),
        STAT_FORMAT.into(),
        "{}".into(),
        "+".into(),
    ];
    match sandbox_argv(&s, &c, argv).await {
        Ok(out) if out.exit_code == 0 => {
            let items: Vec<serde_json::Value> =
                out.stdout.lines().filter_map(file_info_json).collect();
            axum::Json(items).into_response()
        }
        Ok(_) => c.err(
            StatusCode::NOT_FOUND,
            format!("directory not found: {path}"),
            "FILE_NOT_FOUND",
        ),
        Err(e) => c.provider_err(e),
    }
}

pub(super) async fn delete_file(
    _: Authed,
    State(s): State<AppState>,
    Path(sid): Path<String>,
    Query(q): Query<PathQuery>,
    uri: Uri,
    method: Method,
) -> Response {
    let c = ctx_or_return!(s, sid, uri, method);
    let path = match need_path(&c, &q) {
        Ok(p) => p,
        Err(r) => return r,
    };
    let recursive = q.recursive.as_deref() == Some("true");
    let mut argv = vec!["rm".to_string()];
    if recursive {
        argv.push("-rf".into());
    } else {
        argv.push("-f".into());
    }
    argv.extend(["--".to_string(), path.clone()]);
    // Without `recursive`, a directory is refused like the daemon does.
    if !recursive {
        let test = vec!["test".into(), "-d".into(), path.clone()];
        if matches!(sandbox_argv(&s, &c, test).await, Ok(o) if o.exit_code == 0) {
            return c.bad(format!("{path} is a directory; pass recursive=true"));
        }
    }
    match sandbox_argv(&s, &c, argv).await {
        Ok(out) if out.exit_code == 0 => StatusCode::NO_CONTENT.into_response(),
        Ok(out) => c.bad(out.stderr.trim().to_string()),
        Err(e) => c.provider_err(e),
    }
}

pub(super) async fn create_folder(
    _: Authed,
    State(s): State<AppState>,
    Path(sid): Path<String>,
    Query(q): Query<PathQuery>,
    uri: Uri,
    method: Method,
) -> Response {
    let c = ctx_or_return!(s, sid, uri, method);
    let path = match need_path(&c, &q) {
        Ok(p) => p,
        Err(r) => return r,
    };
    let mode = q.mode.clone().unwrap_or_else(|| "0755".into());
    if mode.is_empty() || !mode.chars().all(|ch| ('0'..='7').contains(&ch)) || mode.len() > 4 {
        return c.bad(format!("invalid mode `{mode}` (octal, e.g. 0755)"));
    }
    let argv = vec![
        "mkdir".into(),
        "-p".into(),
        "-m".into(),
        mode,
        "--".into(),
        path,
    ];
    match sandbox_argv(&s, &c, argv).await {
        Ok(out) if out.exit_code == 0 => StatusCode::CREATED.into_response(),
        Ok(out) => c.bad(out.stderr.trim().to_string()),
        Err(e) => c.provider_err(e),
    }
}
