//! `POST /process/code-run {code, language, argv?, envs?, timeout?}` → `{exitCode, result,
//! artifacts}`: the code runs in the language's interpreter inside the sandbox (`python3`,
//! `node`; TypeScript through `tsx` or `ts-node` when the sandbox has one). Charts are not
//! produced (`artifacts.charts` is empty).

use std::collections::BTreeMap;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;

use super::super::Authed;
use super::{ctx, parse, run, valid_env_key};
use crate::emulator::AppState;
use crate::provider::{Provider, ProviderError};

#[derive(Deserialize)]
struct CodeRunBody {
    code: String,
    language: String,
    #[serde(default)]
    argv: Option<Vec<String>>,
    #[serde(default)]
    envs: Option<BTreeMap<String, String>>,
    #[serde(default)]
    timeout: Option<u64>,
}

/// The shell command that runs `file` in `language`, or `None` for an unknown language.
fn interpreter(language: &str) -> Option<(&'static str, &'static str)> {
    match language {
        "python" => Some(("py", "python3")),
        "javascript" => Some(("js", "node")),
        "typescript" => Some((
            "ts",
            "if command -v tsx >/dev/null; then tsx; elif command -v ts-node >/dev/null; then \
             ts-node; else echo 'typescript: neither tsx nor ts-node is installed in this \
             sandbox' >&2; exit 1; fi",
        )),
        _ => None,
    }
}

fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

pub(super) async fn code_run(
    _: Authed,
    State(s): State<AppState>,
    Path(sid): Path<String>,
    uri: Uri,
    method: Method,
    body: Bytes,
) -> Response {
    let c = ctx_or_return!(s, sid, uri, method);
    let req: CodeRunBody = match parse(&c, &body) {
        Ok(r) => r,
        Err(r) => return r,
    };
    let Some((ext, runner)) = interpreter(&req.language) else {
        return c.bad(format!(
            "unsupported language `{}` (python, javascript, typescript)",
            req.language
        ));
    };
    let envs = req.envs.unwrap_or_default();
    if let Some(k) = envs.keys().find(|k| !valid_env_key(k)) {
        return c.bad(format!("invalid environment variable name: {k}"));
    }
    let file = format!(
        "/tmp/.daytona-code-run/{}.{ext}",
        uuid::Uuid::new_v4().simple()
    );
    if let Err(e) = s
        .sandboxes
        .provider()
        .write_file(&c.sid, &file, req.code.as_bytes())
        .await
    {
        return c.provider_err(e);
    }
    let args: Vec<String> = std::iter::once(file.clone())
        .chain(req.argv.unwrap_or_default())
        .map(|a| quote(&a))
        .collect();
    let command = if req.language == "typescript" {
        // The runner is chosen in the sandbox; the arguments follow whichever it is.
        format!(
            "r=$(command -v tsx || command -v ts-node); if [ -z \"$r\" ]; then {runner}; fi; \
             \"$r\" {}; s=$?; rm -f {}; exit $s",
            args.join(" "),
            quote(&file)
        )
    } else {
        format!(
            "{runner} {}; s=$?; rm -f {}; exit $s",
            args.join(" "),
            quote(&file)
        )
    };
    match run(&s, &c, &command, None, envs, req.timeout).await {
        Ok(o) => axum::Json(json!({
            "exitCode": o.exit_code,
            "result": format!("{}{}", o.stdout, o.stderr),
            "artifacts": {"charts": []},
        }))
        .into_response(),
        Err(ProviderError::Timeout(_)) => c.err(
            StatusCode::REQUEST_TIMEOUT,
            "command execution timeout",
            "REQUEST_TIMEOUT",
        ),
        Err(e) => c.provider_err(e),
    }
}
