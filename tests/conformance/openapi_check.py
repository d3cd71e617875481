#!/usr/bin/env python3
"""Validate the Daytona traffic of an `outposts emulator` request log against the official
OpenAPI files beside this script.

Usage: openapi_check.py LOG.json   (the JSON array of `GET /_emulator/requests`; `-` = stdin)

Every record whose `api` is `daytona` and that carries an `exchange` is checked:
- `/daytona/api/...`      → daytona-api-openapi.json (request and response)
- `/daytona/toolbox/{id}/...` → daytona-toolbox-openapi3.yaml (request and response)
- `/daytona/proxy/...`    → not in either spec (build-log streams): skipped, counted.
- `/daytona/api/socket.io/` → the Socket.IO event stream (daytona-api.md §3.6), not in the
  OpenAPI spec: skipped, counted.

Policy where the specs are silent:
- A response status the operation does not declare (the API spec declares almost no error
  responses) is checked against the documented error envelope instead: NestJS
  `{statusCode, message, error}` for the API, `ErrorResponse` `{statusCode, message, path,
  timestamp}` for the toolbox, plus the exact 401 body for auth failures.
- Bodies that are not JSON (multipart, octet-stream, text streams) are checked for status and
  content type only; an error body is checked against the spec's schema only when the spec
  declares its media type for that status (the toolbox's OpenAPI 3 conversion lists some error
  responses under `application/octet-stream`), and always against the envelope.
- Requests with a scripted fault are skipped (the fault, not the emulator, answered).
- A WebSocket upgrade (101) is accepted where the operation documents its streaming mode as
  "WebSocket only" (the toolbox's `follow` query parameter of the log routes) and the request
  asked for it: the request is validated; the stream itself is outside OpenAPI.

Prints one line per violation and a summary; exits 1 when there is any violation.
"""

import json
import sys
import urllib.parse
from pathlib import Path

import yaml
from openapi_core import OpenAPI
from openapi_core.testing import MockRequest, MockResponse

HERE = Path(__file__).resolve().parent
HOST = "http://emulator"


def load_spec(name):
    path = HERE / name
    with open(path, encoding="utf-8") as f:
        spec = json.load(f) if name.endswith(".json") else yaml.safe_load(f)
    spec["servers"] = [{"url": HOST}]
    return spec


API_SPEC = load_spec("daytona-api-openapi.json")
TB_SPEC = load_spec("daytona-toolbox-openapi3.yaml")
# Conversion defect: the OpenAPI 3 file gives `ErrorResponse.code` both `type: object` and an
# `allOf` of the string enum `DaemonErrorCode`, which no value satisfies. The Swagger 2.0
# original (daytona-toolbox-openapi.json in specs/) has no `type` there; restore that.
TB_SPEC["components"]["schemas"]["ErrorResponse"]["properties"]["code"].pop("type", None)
API = OpenAPI.from_dict(API_SPEC)
TB = OpenAPI.from_dict(TB_SPEC)


def split_path(path):
    """(which spec, path inside that spec) or (None, reason)."""
    if path.startswith("/daytona/api/socket.io"):
        return None, path
    if path.startswith("/daytona/api/") or path == "/daytona/api":
        return "api", path[len("/daytona/api"):] or "/"
    if path.startswith("/daytona/toolbox/"):
        rest = path[len("/daytona/toolbox/"):]
        _sid, _, inner = rest.partition("/")
        return "toolbox", "/" + inner
    return None, path


def template_match(paths, path):
    """The spec path template matching `path`, preferring literal segments."""
    segs = path.strip("/").split("/")
    best = None
    for tmpl in paths:
        t = tmpl.strip("/").split("/")
        if len(t) != len(segs):
            continue
        score = 0
        ok = True
        for a, b in zip(t, segs):
            if a.startswith("{") and a.endswith("}"):
                continue
            if a != urllib.parse.unquote(b):
                ok = False
                break
            score += 1
        if ok and (best is None or score > best[0]):
            best = (score, tmpl)
    return best[1] if best else None


def declared_statuses(spec, tmpl, method):
    op = spec["paths"].get(tmpl, {}).get(method.lower(), {})
    return set(op.get("responses", {}).keys())


def check_envelope(kind, status, body):
    try:
        doc = json.loads(body or "")
    except ValueError:
        return [f"error body is not JSON: {body[:120]!r}"]
    if not isinstance(doc, dict):
        return ["error body is not an object"]
    problems = []
    if status == 401 and kind == "api":
        want = {"statusCode": 401, "error": "Unauthorized", "message": "Invalid credentials"}
        for k, v in want.items():
            if doc.get(k) != v:
                problems.append(f"401 body field {k}={doc.get(k)!r}, expected {v!r}")
        return problems
    required = ["statusCode", "message", "error"] if kind == "api" else ["statusCode", "message", "path", "timestamp"]
    if status == 401:
        required = ["statusCode", "message"]
    for k in required:
        if k not in doc:
            problems.append(f"error body lacks `{k}`")
    if doc.get("statusCode") not in (None, status):
        problems.append(f"error body statusCode {doc.get('statusCode')} != HTTP {status}")
    if "message" in doc and not isinstance(doc["message"], (str, list)):
        problems.append("error body `message` is not a string")
    return problems


def errors_of(exc):
    """Flatten openapi-core's nested validation errors into readable lines."""
    out = []
    inner = getattr(exc, "schema_errors", None) or []
    for e in inner:
        loc = "/".join(str(p) for p in getattr(e, "absolute_path", []) or [])
        out.append(f"{getattr(e, 'message', e)}" + (f" at {loc}" if loc else ""))
    cause = exc.__cause__
    if not out and cause is not None:
        for e in getattr(cause, "schema_errors", None) or []:
            loc = "/".join(str(p) for p in getattr(e, "absolute_path", []) or [])
            out.append(f"{getattr(e, 'message', e)}" + (f" at {loc}" if loc else ""))
        if not out:
            out.append(f"{type(exc).__name__}: {exc} ({type(cause).__name__}: {cause})")
    if not out:
        out.append(f"{type(exc).__name__}: {exc}")
    return out


def websocket_only(spec, tmpl, method, args):
    """Does the operation document a query parameter that is "WebSocket only", set here?"""
    op = spec["paths"][tmpl].get(method.lower()) or {}
    for p in op.get("parameters", []):
        if (
            p.get("in") == "query"
            and "websocket only" in (p.get("description") or "").lower()
            and str(args.get(p.get("name"), "")).lower() == "true"
        ):
            return True
    return False


def check(rec):
    """A list of violations for one record, or None when it was skipped."""
    x = rec.get("exchange")
    if rec.get("api") != "daytona" or x is None or rec.get("fault"):
        return None
    kind, inner = split_path(rec["path"])
    if kind is None:
        return None
    spec, api = (API_SPEC, API) if kind == "api" else (TB_SPEC, TB)
    method = rec["method"]
    status = rec["status"]
    headers = {k: v for k, v in (x.get("request_headers") or {}).items()}
    ctype = headers.get("content-type", "application/json")
    query = urllib.parse.parse_qs(rec.get("query") or "", keep_blank_values=True)
    args = {k: (v if len(v) > 1 else v[0]) for k, v in query.items()}
    body = (x.get("request_body") or "").encode()
    tmpl = template_match(spec["paths"], inner)
    problems = []
    if tmpl is None or method.lower() not in spec["paths"][tmpl]:
        # Unknown routes must answer the NestJS 404.
        if status != 404:
            problems.append(f"route not in the spec but answered {status}")
        else:
            problems += check_envelope(kind, status, x.get("response_body"))
        return problems
    # Path parameters by position (openapi-core matches templates itself; give it the raw path).
    req = MockRequest(
        HOST,
        method,
        inner,
        args=args,
        headers=headers,
        data=body if body else None,
        content_type=ctype.split(";")[0] if body else "application/json",
    )
    request_is_multipart = ctype.startswith("multipart/")
    if status != 401:
        try:
            api.validate_request(req)
        except Exception as e:  # noqa: BLE001 - report every kind of violation
            lines = errors_of(e)
            if request_is_multipart:
                # Multipart bodies were logged as lossy text; only parameters are judged.
                lines = [l for l in lines if "body" not in l.lower() and "media" not in l.lower()]
            problems += [f"request: {l}" for l in lines]
    rctype = (x.get("response_content_type") or "").split(";")[0]
    rbody = x.get("response_body")
    declared = declared_statuses(spec, tmpl, method)
    if status == 101 and websocket_only(spec, tmpl, method, args):
        return problems
    if str(status) not in declared and "default" not in declared:
        if status >= 400:
            problems += check_envelope(kind, status, rbody)
        else:
            problems.append(f"status {status} is not declared for {method} {tmpl} (declares {sorted(declared)})")
        return problems
    if status >= 400:
        # Errors must carry the envelope; the schema applies when the spec declares JSON for
        # this status (the toolbox conversion lists some errors under octet-stream only).
        problems += check_envelope(kind, status, rbody)
        op = spec["paths"][tmpl][method.lower()]
        content = (op.get("responses", {}).get(str(status)) or {}).get("content") or {}
        if rctype not in content:
            return problems
    if rctype == "application/json" and rbody is not None:
        resp = MockResponse(rbody.encode(), status_code=status, content_type="application/json")
        try:
            api.validate_response(req, resp)
        except Exception as e:  # noqa: BLE001
            problems += [f"response: {l}" for l in errors_of(e)]
    return problems


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else "-"
    text = sys.stdin.read() if src == "-" else Path(src).read_text(encoding="utf-8")
    records = json.loads(text)
    checked = skipped = bad = 0
    for rec in records:
        problems = check(rec)
        if problems is None:
            if rec.get("api") == "daytona":
                skipped += 1
            continue
        checked += 1
        if problems:
            bad += 1
            q = f"?{rec['query']}" if rec.get("query") else ""
            for p in problems:
                print(f"VIOLATION #{rec.get('seq')} {rec['method']} {rec['path']}{q} -> {rec['status']}: {p}")
    print(f"openapi: checked {checked} Daytona exchanges, skipped {skipped}, {bad} with violations")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
