#!/usr/bin/env python3
"""An "outsider" Devin Outposts orchestrator: a conformance test of `outposts emulator`.

Written only from the public protocol notes (specs/devin-outposts-api.md, specs/daytona-api.md)
and the official Daytona Python SDK (daytona==0.226.1, with its python-socketio dependency),
not from this repository's Rust code. It does what a careful third-party orchestrator does for
one session, and fails where the emulator does not behave like the real services:

  1. poll the fleet API (§5.1) for a pending session of OUTPOST_ID and claim it (§5.4); the
     session must be pinned (spec.remote_binary_sha); the claim is renewed before its deadline
  2. create a Daytona sandbox with the SDK, labelled devin.session_id / devin.outpost_id and
     named after the session
  3. download the pinned devin-remote inside the sandbox (§8), verify its sha256 there, and
     launch `devin-remote serve` detached with only the §9 environment (token never on a
     command line)
  4. liveness: readlink /proc/<pid>/exe is the downloaded binary; `id -u` is 1000
  5. serve SERVE_SECONDS (default 60): liveness every ~10 s, the session reads `running`
  6. sleep: the session is suspended (§7); write a marker, stop the sandbox, release (§5.5)
  7. wake: claim the kind=resume entry, start the same sandbox, marker intact, new remote
  8. terminate: delete the sandbox, release, the sandbox is gone
  9. its own python-socketio client on Daytona's event stream (daytona-api.md §3.6) sees
     `sandbox.state.updated` for the sandbox during the stop and during the start

Hand-off: at 6, 7 and 8 it prints {"step": "wait_for_<x>", "waiting_for": "<x>"} and polls the
fleet API until it observes the change; the caller (the Rust harness) issues the admin command.
With --drive it runs `$OUTPOSTS_BIN emulator session suspend|resume|terminate ID` itself
(OUTPOSTS_BIN defaults to `outposts` on PATH) and takes the oldest eligible pending session.

Environment: what `outposts emulator env --port P --json` prints (DEVIN_API_URL,
DEVIN_OUTPOSTS_TOKEN, OUTPOST_ID, DEVIN_WORKER_STATIC_BASE_URL, DAYTONA_API_URL,
DAYTONA_API_KEY, OUTPOSTS_EMULATOR_PORT), plus optional SERVE_SECONDS, SNAPSHOT_NAME,
SESSION_ID (claim this one), WAIT_SECONDS (each hand-off wait, default 120), OUTPOSTS_BIN.

Output: one JSON line per step on stdout, {"step": name, "ok": true|false, ...}; the last line
is {"done": true, ...}. Exit 0 when every check passed, 1 on the first failure (with
`FAIL <step>: <why>` on stderr; the sandbox is deleted and the claim released where possible),
3 when the SDK cannot be imported. --lenient turns four checks (session pinned, /proc/<pid>/exe
is the binary, uid 1000, Socket.IO handshake and auth) into warnings (ok:false, "lenient":
true) so the later steps can be exercised against an emulator that fails them. The connect
token and the API keys are never printed.
"""

import argparse
import hashlib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid

try:
    import importlib.metadata as _md

    import socketio
    from daytona import (
        CreateSandboxFromSnapshotParams,
        Daytona,
        DaytonaConflictError,
        DaytonaNotFoundError,
    )

    SDK_VERSION = _md.version("daytona")
except Exception as e:  # pragma: no cover - exercised when the SDK is missing
    sys.stderr.write(
        f"the Daytona SDK could not be imported ({type(e).__name__}: {e}); install it with: "
        "python3 -m pip install -r tests/conformance/requirements.txt\n"
    )
    sys.exit(3)

EXPECTED_SDK = "0.226.1"
SUFFIXES = {"x86_64": "linux_x64", "amd64": "linux_x64", "aarch64": "linux_arm64", "arm64": "linux_arm64"}
CLAIMABLE = ("pending", "running")  # §7: never claim pending rows that are suspended/terminated
SUSPEND_STRIKES = 3  # §7: tolerate transient `suspended` blips (VER, MOD use 3 reads)
LIVENESS_EVERY = 10.0
POLL = 1.0
# §9: the documented environment of `devin-remote serve`, nothing else.
REMOTE_ENV = {
    "DEVIN_OUTPOST_GATEWAY_URL", "DEVIN_OUTPOST_CONNECT_TOKEN", "DEVIN_OUTPOST_SESSION_ID",
    "DEVIN_REMOTE_STATE_DIR", "PATH", "HOME", "USER", "LOGNAME", "TMPDIR", "LANG", "TZ",
}
REMOTE_ENV_REQUIRED = {
    "DEVIN_OUTPOST_GATEWAY_URL", "DEVIN_OUTPOST_CONNECT_TOKEN", "DEVIN_OUTPOST_SESSION_ID",
    "DEVIN_REMOTE_STATE_DIR",
}

T0 = time.monotonic()
SECRETS = set()  # every token / key we hold; scrubbed from everything we print
LENIENT_WARNINGS = []


class Failure(Exception):
    def __init__(self, step_name, why, /, **facts):
        super().__init__(why)
        self.step_name, self.why, self.facts = step_name, why, facts


def elapsed():
    return round(time.monotonic() - T0, 1)


def scrub(text):
    for s in sorted(SECRETS, key=len, reverse=True):
        if s:
            text = text.replace(s, "<redacted>")
    return text


def emit(obj):
    print(scrub(json.dumps(obj, default=str)), flush=True)


def step(step_name, /, **facts):
    emit({"step": step_name, "ok": True, "t": elapsed(), **facts})


def warn(msg):
    sys.stderr.write(scrub(f"WARN {msg}\n"))
    sys.stderr.flush()


def check(cond, step_name, why, /, **facts):
    if not cond:
        raise Failure(step_name, why, **facts)


def strict(cond, name, why, lenient, /, **facts):
    """One of the four checks --lenient downgrades to a warning."""
    if cond:
        return True
    if not lenient:
        raise Failure(name, why, **facts)
    LENIENT_WARNINGS.append(name)
    emit({"step": name, "ok": False, "lenient": True, "t": elapsed(), "error": why, **facts})
    warn(f"{name}: {why} (continuing because of --lenient)")
    return False


# --------------------------------------------------------------------------------------------
# Devin fleet API (devin-outposts-api.md §5)


class Fleet:
    def __init__(self, api_url, token, outpost_id):
        api = api_url.rstrip("/")
        if api.endswith("/opbeta"):  # §2: the prefix does not belong in DEVIN_API_URL
            api = api[: -len("/opbeta")]
        self.base = api + "/opbeta/outposts"
        self.token = token
        self.outpost_id = outpost_id

    def _call(self, method, path, body=None, query=None, retries=3):
        url = self.base + path
        if query:
            url += "?" + urllib.parse.urlencode(query)
        data = None if body is None else json.dumps(body).encode()
        last = None
        for attempt in range(retries):
            req = urllib.request.Request(url, data=data, method=method)
            req.add_header("Authorization", f"Bearer {self.token}")
            req.add_header("Accept", "application/json")
            if data is not None:
                req.add_header("Content-Type", "application/json")
            try:
                with urllib.request.urlopen(req, timeout=30) as r:
                    raw = r.read()
                    return r.status, (json.loads(raw) if raw.strip() else None)
            except urllib.error.HTTPError as e:
                raw = e.read()
                try:
                    parsed = json.loads(raw) if raw.strip() else None
                except ValueError:
                    parsed = {"raw": raw[:200].decode(errors="replace")}
                if e.code >= 500 and attempt + 1 < retries:
                    last = (e.code, parsed)
                    time.sleep(1 + attempt)
                    continue
                return e.code, parsed
            except (urllib.error.URLError, OSError) as e:
                last = (0, {"error": str(e)})
                time.sleep(1 + attempt)
        return last

    def list_all(self, **filters):
        """§5.1 list with pagination; upsert by session_id (later pages win)."""
        rows, cursor = {}, None
        for _ in range(100):
            q = {"outpost": self.outpost_id, "first": 200, **filters}
            if cursor:
                q["cursor"] = cursor
            status, body = self._call("GET", "/devins", query=q)
            if status != 200 or not isinstance(body, dict):
                raise Failure("fleet_list", f"GET /opbeta/outposts/devins answered {status}: {body}")
            for item in body.get("items") or []:
                sid = ((item.get("metadata") or {}).get("session_id"))
                if sid:
                    rows[sid] = item
            if not body.get("has_next_page"):
                break
            if body.get("cursor") == cursor:  # a cursor that does not advance (§5.1 peers guard it)
                break
            cursor = body.get("cursor")
        return list(rows.values())

    def get(self, session_id):
        """§5.3; None when the entry is gone (404)."""
        status, body = self._call("GET", "/devins/" + urllib.parse.quote(session_id, safe=""))
        if status == 404:
            return None
        if status != 200 or not isinstance(body, dict):
            raise Failure("fleet_get", f"GET /opbeta/outposts/devins/{session_id} answered {status}: {body}")
        return body

    def claim(self, session_id, acceptor_id):
        return self._call("POST", f"/devins/{urllib.parse.quote(session_id, safe='')}/claim",
                          body={"acceptor_id": acceptor_id}, retries=2)

    def release(self, session_id, acceptor_id):
        return self._call("POST", f"/devins/{urllib.parse.quote(session_id, safe='')}/release",
                          body={"acceptor_id": acceptor_id}, retries=2)


def meta(e):
    return e.get("metadata") or {}


def spec_(e):
    return e.get("spec") or {}


def status_(e):
    return e.get("status") or {}


class ClaimKeeper:
    """Holds one claim and renews it (§5.4: re-claim with the same acceptor_id) before the
    deadline: at min(60 s, TTL/3) before it, like the K8S operator's 60 s margin."""

    def __init__(self, fleet, session_id, acceptor_id, entry):
        self.fleet, self.session_id, self.acceptor_id = fleet, session_id, acceptor_id
        self.lock = threading.Lock()
        self.deadline = int(status_(entry)["claim_deadline"])
        self.ttl = max(1, self.deadline - int(time.time()))
        self.renewals = []
        self.lost = None  # why the claim was lost, if it was
        self.ending = False  # after the session ended: renewal failures are expected
        self.token_hashes = {hashlib.sha256(status_(entry)["connect_token"].encode()).hexdigest()}
        self.stop_ev = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def margin(self):
        return min(60.0, self.ttl / 3.0)

    def _run(self):
        while not self.stop_ev.wait(0.5):
            with self.lock:
                due = time.time() >= self.deadline - self.margin()
            if due:
                self.renew()

    def renew(self):
        status, body = self.fleet.claim(self.session_id, self.acceptor_id)
        with self.lock:
            before = self.deadline
            if status in (200, 201) and isinstance(body, dict):
                st = status_(body)
                tok = st.get("connect_token")
                if tok:
                    SECRETS.add(tok)
                rec = {"t": elapsed(), "status": status, "old_deadline": before,
                       "new_deadline": st.get("claim_deadline"),
                       "acceptor_ok": st.get("acceptor_id") == self.acceptor_id,
                       "phase": st.get("phase"),
                       "fresh_token": bool(tok) and hashlib.sha256(tok.encode()).hexdigest() not in self.token_hashes}
                if tok:
                    self.token_hashes.add(hashlib.sha256(tok.encode()).hexdigest())
                self.renewals.append(rec)
                if isinstance(st.get("claim_deadline"), int) and st["claim_deadline"] > before \
                        and rec["acceptor_ok"] and st.get("phase") == "claimed":
                    self.deadline = st["claim_deadline"]
                elif not self.ending:
                    self.lost = f"renewal answered 200 but did not extend our claim: {rec}"
            else:
                self.renewals.append({"t": elapsed(), "status": status, "detail": body})
                if self.ending:
                    self.stop_ev.set()
                elif status in (404, 409):
                    self.lost = f"renewal answered {status}: {body}"
                    self.stop_ev.set()
                else:
                    # transient: retry in a moment, but not in a tight loop
                    self.deadline = max(self.deadline, int(time.time() + self.margin() + 2))

    def stop(self):
        self.stop_ev.set()
        self.thread.join(timeout=35)

    def check(self, where):
        with self.lock:
            check(self.lost is None, where, f"lost the claim of {self.session_id}: {self.lost}")


# --------------------------------------------------------------------------------------------
# Daytona sandbox helpers (SDK only)


def sh(sb, script, *args, env=None, timeout=120):
    """Run a POSIX sh script in the sandbox (process.exec); secrets only through `env`."""
    cmd = "sh -c " + shlex.quote(script) + " sh " + " ".join(shlex.quote(str(a)) for a in args)
    for s in SECRETS:
        assert s not in cmd, "refusing to put a secret on a command line"
    r = sb.process.exec(cmd, env=env, timeout=timeout)
    return r.exit_code, (r.result or "")


def sandbox_name(session_id):
    """Deterministic, DNS-label-like (≤ 63 chars, [a-z0-9-]) name from the session id."""
    slug = re.sub(r"[^a-z0-9-]+", "-", session_id.lower()).strip("-")
    name = f"outsider-{slug}"
    if len(name) > 63:
        h = hashlib.sha256(session_id.encode()).hexdigest()[:8]
        name = name[: 63 - 9].rstrip("-") + "-" + h
    return name


def safe_id(session_id):
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", session_id)[:100]


DOWNLOAD_SH = r"""
set -eu
url=$1 bin=$2 want=$3
mkdir -p "$(dirname "$bin")"
if [ -x "$bin" ] && [ "$(sha256sum "$bin" | cut -d' ' -f1)" = "$want" ]; then echo "result=cached"; exit 0; fi
rm -f "$bin.partial"
if command -v curl >/dev/null 2>&1; then curl -fsSL --retry 3 -o "$bin.partial" "$url"
elif command -v wget >/dev/null 2>&1; then wget -q -O "$bin.partial" "$url"
else echo "neither curl nor wget in the sandbox" >&2; exit 127; fi
got=$(sha256sum "$bin.partial" | cut -d' ' -f1)
if [ "$got" != "$want" ]; then rm -f "$bin.partial"; echo "result=mismatch"; echo "got=$got"; exit 9; fi
mv -f "$bin.partial" "$bin"
chmod +x "$bin"
echo "result=downloaded"
echo "bytes=$(wc -c < "$bin")"
"""

# The token reaches the remote through the exec's env (envs in the request body) and a pipe:
# printf is a shell builtin, so it is on no process's argv; `env -i` wipes everything else.
# The inner sh records its own pid ($$), which exec turns into the remote's pid.
LAUNCH_SH = r"""
set -eu
bin=$1 state=$2 rundir=$3 sid=$4 gw=$5 workdir=$6
u=$(id -un); h=${HOME:-/home/$u}
mkdir -p "$state" "$rundir" "$workdir"
pidf="$rundir/remote.pid"; log="$rundir/remote.log"
rm -f "$pidf"
detach=""; if command -v setsid >/dev/null 2>&1; then detach=setsid; fi
printf '%s\n' "$DEVIN_OUTPOST_CONNECT_TOKEN" | env -i \
  PATH="$h/.local/bin:/usr/local/bin:/usr/bin:/bin" HOME="$h" USER="$u" LOGNAME="$u" \
  TMPDIR=/tmp LANG=C.UTF-8 TZ=UTC \
  DEVIN_OUTPOST_GATEWAY_URL="$gw" DEVIN_OUTPOST_SESSION_ID="$sid" DEVIN_REMOTE_STATE_DIR="$state" \
  $detach nohup /bin/sh -c 'IFS= read -r DEVIN_OUTPOST_CONNECT_TOKEN; export DEVIN_OUTPOST_CONNECT_TOKEN
    echo $$ > "$1"; cd "$2"; unset PWD OLDPWD SHLVL _ 2>/dev/null || true
    exec "$0" serve </dev/null' "$bin" "$pidf" "$workdir" >>"$log" 2>&1 &
i=0
while [ ! -s "$pidf" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
echo "pid=$(cat "$pidf" 2>/dev/null || echo none)"
echo "canon=$(readlink -f "$bin")"
"""

PROBE_SH = r"""
p=$1
st=$(sed 's/.*) //' "/proc/$p/stat" 2>/dev/null | cut -d' ' -f1)
if kill -0 "$p" 2>/dev/null && [ "$st" != Z ]; then echo "alive=1"; else echo "alive=0"; fi
echo "exe=$(readlink "/proc/$p/exe" 2>/dev/null || true)"
"""

PROC_SH = r"""
p=$1
echo "envnames=$(tr '\0' '\n' < "/proc/$p/environ" 2>/dev/null | sed -n 's/^\([A-Za-z_][A-Za-z0-9_]*\)=.*/\1/p' | tr '\n' ' ')"
echo "argv=$(tr '\0' ' ' < "/proc/$p/cmdline" 2>/dev/null)"
"""


def sv(state):
    """A SandboxState (str enum) as its wire value."""
    return getattr(state, "value", state)


def kv(text):
    out = {}
    for line in text.splitlines():
        if "=" in line:
            k, _, v = line.partition("=")
            out[k.strip()] = v.strip()
    return out


def probe(sb, pid):
    code, out = sh(sb, PROBE_SH, pid, timeout=30)
    d = kv(out)
    return d.get("alive") == "1", d.get("exe", "")


# --------------------------------------------------------------------------------------------
# Daytona event stream (daytona-api.md §3.6), our own client


class EventWatch:
    """python-socketio client on {origin}{apiPath}/socket.io/, websocket transport, auth
    {"token": <API key>} in the CONNECT packet, query organizationId/source/sdkVersion."""

    def __init__(self, api_url, api_key, organization_id):
        parsed = urllib.parse.urlparse(api_url.rstrip("/"))
        self.origin = f"{parsed.scheme}://{parsed.netloc}"
        self.path = f"{parsed.path.rstrip('/')}/socket.io/"
        q = {"source": "outsider-orchestrator", "sdkVersion": SDK_VERSION}
        if organization_id:
            q = {"organizationId": organization_id, **q}
        self.url = self.origin + "?" + urllib.parse.urlencode(q)
        self.api_key = api_key
        self.events, self.window, self.connects, self.errors = [], "create", 0, []
        self.lock = threading.Lock()
        self.sio = None

    def _client(self, record):
        sio = socketio.Client(reconnection=record, reconnection_delay=1, logger=False,
                              engineio_logger=False)
        if record:
            @sio.event
            def connect():
                self.connects += 1

            @sio.event
            def connect_error(data):
                self.errors.append(str(data))

            @sio.on("*")
            def any_event(event, data=None):
                sid, state = None, None
                if isinstance(data, dict):
                    inner = data.get("sandbox")
                    if isinstance(inner, dict):
                        sid, state = inner.get("id"), inner.get("state")
                    sid = sid or data.get("id")
                    state = data.get("newState") or state or data.get("state")
                with self.lock:
                    self.events.append({"t": elapsed(), "event": event, "sandbox_id": sid,
                                        "state": state, "window": self.window})
        return sio

    def connect(self):
        sio = self._client(True)
        sio.connect(self.url, socketio_path=self.path, auth={"token": self.api_key},
                    transports=["websocket"], headers={}, wait=True, wait_timeout=10)
        self.sio = sio

    def wrong_token_rejected(self):
        sio = self._client(False)
        try:
            sio.connect(self.url, socketio_path=self.path, auth={"token": "dtn_not-a-valid-key"},
                        transports=["websocket"], headers={}, wait=True, wait_timeout=10)
        except socketio.exceptions.ConnectionError:
            return True
        try:
            sio.disconnect()
        except Exception:
            pass
        return False

    def handshake_status(self):
        """Diagnostic only: the HTTP status of the plain WebSocket upgrade (no credentials, as
        the SDK sends it) of GET {path}?EIO=4&transport=websocket; 101 is what works."""
        import base64
        import socket

        u = urllib.parse.urlparse(self.origin)
        port = u.port or (443 if u.scheme == "https" else 80)
        if u.scheme == "https":
            return "not probed (https)"
        try:
            with socket.create_connection((u.hostname, port), timeout=10) as c:
                key = base64.b64encode(os.urandom(16)).decode()
                c.sendall((f"GET {self.path}?EIO=4&transport=websocket HTTP/1.1\r\nHost: {u.netloc}\r\n"
                           "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                           f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
                line = c.recv(4096).split(b"\r\n", 1)[0].decode(errors="replace")
                parts = line.split()
                return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else line
        except Exception as e:
            return f"{type(e).__name__}: {e}"

    def set_window(self, w):
        with self.lock:
            self.window = w

    def for_sandbox(self, sandbox_id, window=None, event="sandbox.state.updated"):
        with self.lock:
            return [e for e in self.events if e["sandbox_id"] == sandbox_id and e["event"] == event
                    and (window is None or e["window"] == window)]

    def wait_for(self, sandbox_id, window, seconds=5.0):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if self.for_sandbox(sandbox_id, window):
                return True
            time.sleep(0.2)
        return bool(self.for_sandbox(sandbox_id, window))

    def close(self):
        if self.sio is not None:
            try:
                self.sio.disconnect()
            except Exception:
                pass


# --------------------------------------------------------------------------------------------


class Orchestrator:
    def __init__(self, args):
        self.args = args
        self.lenient = args.lenient
        env = os.environ
        missing = [k for k in ("DEVIN_API_URL", "DEVIN_OUTPOSTS_TOKEN", "OUTPOST_ID",
                               "DEVIN_WORKER_STATIC_BASE_URL", "DAYTONA_API_URL", "DAYTONA_API_KEY")
                   if not env.get(k)]
        if missing:
            raise Failure("config", f"missing environment: {', '.join(missing)}")
        SECRETS.update({env["DEVIN_OUTPOSTS_TOKEN"], env["DAYTONA_API_KEY"]})
        for k in ("DEVIN_OUTPOST_CREATE_TOKEN", "CWSANDBOX_API_KEY", "DAYTONA_JWT_TOKEN"):
            if env.get(k):
                SECRETS.add(env[k])
        self.outpost_id = env["OUTPOST_ID"]
        self.fleet = Fleet(env["DEVIN_API_URL"], env["DEVIN_OUTPOSTS_TOKEN"], self.outpost_id)
        self.static = env["DEVIN_WORKER_STATIC_BASE_URL"].rstrip("/") + "/"
        self.serve_seconds = float(env.get("SERVE_SECONDS") or 60)
        self.wait_seconds = float(env.get("WAIT_SECONDS") or 120)
        self.snapshot = env.get("SNAPSHOT_NAME") or None
        self.want_session = env.get("SESSION_ID") or None
        self.port = env.get("OUTPOSTS_EMULATOR_PORT")
        self.outposts_bin = env.get("OUTPOSTS_BIN") or "outposts"
        self.acceptor_id = f"outsider-{uuid.uuid4().hex}"
        self.session_id = None
        self.keeper = None
        self.daytona = None
        self.sb = None
        self.sandbox_id = None
        self.events = None
        self.pins = []
        self.connect_token = None
        self.gateway_url = None
        self.remote_log = None

    # ---------- 1. find and claim
    def find_session(self, resume=False):
        end = time.monotonic() + self.wait_seconds
        while True:
            rows = self.fleet.list_all(phase="pending")
            cands = [r for r in rows
                     if meta(r).get("outpost_id") == self.outpost_id
                     and status_(r).get("phase") == "pending"
                     and status_(r).get("session_status") in CLAIMABLE
                     and (not resume or meta(r).get("session_id") == self.session_id)
                     and (resume or not self.want_session or meta(r).get("session_id") == self.want_session)]
            if cands:
                cands.sort(key=lambda r: (meta(r).get("created_at") or 0, meta(r).get("session_id")))
                return cands[0]
            if time.monotonic() > end:
                what = f"session {self.session_id} back in the queue as pending" if resume else \
                    f"a pending session of outpost {self.outpost_id} with session_status pending/running"
                raise Failure("wake_claim" if resume else "session_found",
                              f"no {what} within {self.wait_seconds:.0f} s",
                              seen=[{"session_id": meta(r).get("session_id"), "phase": status_(r).get("phase"),
                                     "session_status": status_(r).get("session_status")} for r in rows])
            time.sleep(POLL)

    def claim(self, entry, name):
        sid = meta(entry)["session_id"]
        status, body = self.fleet.claim(sid, self.acceptor_id)
        check(status in (200, 201) and isinstance(body, dict), name,
              f"claim of {sid} answered {status}: {body}")
        st = status_(body)
        tok = st.get("connect_token")
        if tok:
            SECRETS.add(tok)
        check(meta(body).get("session_id") == sid, name, f"the claim response is for {meta(body).get('session_id')}, not {sid}")
        check(st.get("phase") == "claimed", name, f"claim response phase is {st.get('phase')!r}, not 'claimed'")
        check(st.get("acceptor_id") == self.acceptor_id, name,
              f"claim response acceptor_id is {st.get('acceptor_id')!r}, not ours")
        dl = st.get("claim_deadline")
        check(isinstance(dl, int) and not isinstance(dl, bool) and dl > time.time(), name,
              f"claim_deadline {dl!r} is not integer Unix seconds in the future (§4.3)")
        check(bool(tok), name, "the claim response carries no status.connect_token")
        check(bool(st.get("gateway_url")), name, "the claim response carries no status.gateway_url")
        self.session_id = sid
        self.connect_token = tok
        self.gateway_url = st["gateway_url"]
        self.keeper = ClaimKeeper(self.fleet, sid, self.acceptor_id, body)
        step(name, session_id=sid, acceptor_id=self.acceptor_id, kind=spec_(body).get("kind"),
             claim_deadline=dl, ttl_s=self.keeper.ttl, gateway_url=self.gateway_url,
             connect_token_present=True)
        sha = spec_(body).get("remote_binary_sha")
        pinned = isinstance(sha, str) and re.fullmatch(r"[0-9a-fA-F]{7,64}", sha or "") is not None
        if strict(pinned, "pin",
                  f"session {sid} has no valid spec.remote_binary_sha in the claim (got {sha!r}): "
                  "sessions are pinned by default, like real ones", self.lenient):
            step("pin", remote_binary_sha=sha)
        else:
            sha = None
        self.pins.append(sha)
        return body, sha

    # ---------- 2. sandbox
    def create_sandbox(self):
        self.daytona = Daytona()
        name = sandbox_name(self.session_id)
        labels = {"devin.session_id": self.session_id, "devin.outpost_id": self.outpost_id}
        reused = False
        try:
            sb = self.daytona.create(CreateSandboxFromSnapshotParams(
                snapshot=self.snapshot, name=name, labels=labels, auto_stop_interval=0), timeout=120)
        except DaytonaConflictError:
            sb = self.daytona.get(name)
            check(all(sb.labels.get(k) == v for k, v in labels.items()), "sandbox_create",
                  f"a sandbox named {name} exists with foreign labels {sb.labels}")
            reused = True
            if sb.state != "started":
                sb.start(timeout=120)
        self.sb, self.sandbox_id = sb, sb.id
        check(sb.state == "started", "sandbox_create", f"the new sandbox is {sb.state}, not started")
        check(sb.name == name, "sandbox_create", f"the sandbox is named {sb.name!r}, not {name!r}")
        check(all(sb.labels.get(k) == v for k, v in labels.items()), "sandbox_create",
              f"the sandbox's labels {sb.labels} lack {labels}")
        again = self.daytona.get(name)
        check(again.id == sb.id, "sandbox_create", f"get({name}) returned {again.id}, not {sb.id}")
        step("sandbox_create", name=name, id=sb.id, state=sv(sb.state), labels=labels,
             snapshot=self.snapshot or "(SDK default)", os_user=sb.user, reused=reused)

    def connect_events(self):
        self.events = EventWatch(os.environ["DAYTONA_API_URL"], os.environ["DAYTONA_API_KEY"],
                                 getattr(self.sb, "organization_id", None))
        try:
            self.events.connect()
            ok, why = True, None
        except Exception as e:
            ok, why = False, f"{type(e).__name__}: {e}"
        if not strict(ok, "event_stream_connect",
                      f"could not open the Socket.IO event stream at {self.events.origin}{self.events.path} "
                      f"(websocket transport, auth in CONNECT): {why}; errors={self.events.errors}; "
                      f"the WebSocket upgrade (which carries no credentials, §3.6) answers HTTP "
                      f"{self.events.handshake_status()}, not 101: auth belongs in the CONNECT packet",
                      self.lenient):
            self.events = None
            return
        rejected = self.events.wrong_token_rejected()
        strict(rejected, "event_stream_auth",
               "the Socket.IO endpoint accepted a CONNECT packet with a wrong token "
               "(§3.6: a bad token gets a CONNECT_ERROR)", self.lenient)
        step("event_stream_connect", url=self.events.origin + self.events.path,
             wrong_token_rejected=rejected)

    # ---------- 3./4. remote
    def paths(self):
        home = None
        try:
            home = self.sb.get_user_home_dir()
        except Exception:
            pass
        if not home:
            _, out = sh(self.sb, 'printf "%s" "$HOME"')
            home = out.strip() or "/home/daytona"
        try:
            work = self.sb.get_work_dir() or home
        except Exception:
            work = home
        return home, work

    def launch_remote(self, sha, label):
        sb = self.sb
        code, out = sh(sb, "uname -m", timeout=30)
        arch = out.strip()
        check(code == 0 and arch in SUFFIXES, f"remote_download{label}",
              f"uname -m in the sandbox gave {arch!r} (exit {code}); no devin-remote suffix for it (§8)")
        suffix = SUFFIXES[arch]
        if not sha:  # only with --lenient: the unpinned fallback of §8, latest_<suffix>
            with urllib.request.urlopen(f"{self.static}latest_{suffix}", timeout=30) as r:
                sha = r.read().decode().strip()
            warn(f"using latest_{suffix} = {sha} because the session is not pinned")
        artefact = f"devin-remote_{sha}_{suffix}"
        url = self.static + artefact
        try:
            with urllib.request.urlopen(url + ".sha256", timeout=30) as r:
                body = r.read().decode(errors="replace")
        except urllib.error.HTTPError as e:
            raise Failure(f"remote_download{label}", f"GET {url}.sha256 answered {e.code}")
        m = re.search(r"\b[0-9a-fA-F]{64}\b", body)
        check(m is not None, f"remote_download{label}", f"{url}.sha256 holds no 64-hex digest: {body[:100]!r}")
        want = m.group(0).lower()
        home, work = self.paths()
        binp = f"{home}/.devin/remote/cache/{artefact}"
        code, out = sh(sb, DOWNLOAD_SH, url, binp, want, timeout=300)
        res = kv(out)
        check(code == 0 and res.get("result") in ("downloaded", "cached"), f"remote_download{label}",
              f"downloading {url} into the sandbox failed (exit {code}): {out.strip()[-400:]}")
        step(f"remote_download{label}", arch=arch, suffix=suffix, sha=sha, url=url, path=binp,
             sha256=want, verified_in_sandbox=True, result=res.get("result"), bytes=res.get("bytes"))

        before = self.fleet.get(self.session_id)
        before = None if before is None else status_(before).get("session_status")
        sid = safe_id(self.session_id)
        state_dir = f"{home}/.devin/remote/sessions/{sid}"
        rundir = f"/tmp/devin-outposts/{sid}"
        code, out = sh(sb, LAUNCH_SH, binp, state_dir, rundir, self.session_id, self.gateway_url, work,
                       env={"DEVIN_OUTPOST_CONNECT_TOKEN": self.connect_token}, timeout=60)
        res = kv(out)
        pid = res.get("pid", "")
        check(code == 0 and pid.isdigit(), f"remote_launch{label}",
              f"launching devin-remote serve failed (exit {code}): {out.strip()[-400:]}")
        canon = res.get("canon") or binp
        self.remote_log = f"{rundir}/remote.log"
        time.sleep(0.5)
        _, out = sh(sb, PROC_SH, pid, timeout=30)
        proc = kv(out)
        names = set(proc.get("envnames", "").split())
        argv = proc.get("argv", "")
        check(self.connect_token not in argv, f"remote_launch{label}", "the connect token is on the remote's command line")
        extra, lacking = sorted(names - REMOTE_ENV), sorted(REMOTE_ENV_REQUIRED - names)
        check(not names or (not extra and not lacking), f"remote_launch{label}",
              f"the remote's environment is not the §9 one: extra {extra}, missing {lacking}")
        step(f"remote_launch{label}", pid=int(pid), argv=argv, env_names=sorted(names),
             state_dir=state_dir, log=f"{rundir}/remote.log", cwd=work,
             session_status_before_launch=before)
        self.liveness(int(pid), canon, label)
        return int(pid), canon, binp

    def liveness(self, pid, canon, label, quiet=False):
        end = time.monotonic() + 3.0  # the launcher's sh exec()s into the binary a moment later
        while True:
            alive, exe = probe(self.sb, pid)
            if (alive and exe == canon) or time.monotonic() > end:
                break
            time.sleep(0.2)
        if not alive:
            _, tail = sh(self.sb, 'tail -c 600 "$1" 2>/dev/null || true', self.remote_log, timeout=30)
            raise Failure(f"liveness_exe{label}", f"devin-remote (pid {pid}) is not running (kill -0 failed); "
                          f"the end of its log {self.remote_log}: {tail.strip()!r}")
        exe_ok = exe == canon
        if not quiet:
            strict(exe_ok, f"liveness_exe{label}",
                   f"readlink /proc/{pid}/exe is {exe!r}, not the downloaded binary {canon!r}: the "
                   "process is an interpreter running a script, so a PID-reuse guard cannot identify it",
                   self.lenient, pid=pid, exe=exe, expected=canon)
            if exe_ok:
                step(f"liveness_exe{label}", pid=pid, exe=exe)
            code, out = sh(self.sb, 'printf "uid=%s\\nuser=%s\\n" "$(id -u)" "$(id -un)"', timeout=30)
            ids = kv(out)
            uid = ids.get("uid")
            if self.snapshot is None:
                if strict(uid == "1000", f"sandbox_uid{label}",
                          f"id -u in the sandbox is {uid!r} (user {ids.get('user')!r}), not 1000: Daytona "
                          "runs commands as the image user `daytona` in the default snapshot",
                          self.lenient, uid=uid, user=ids.get("user")):
                    step(f"sandbox_uid{label}", uid=int(uid), user=ids.get("user"))
            else:
                step(f"sandbox_uid{label}", uid=uid, user=ids.get("user"),
                     note=f"snapshot {self.snapshot}: uid not checked")
        elif exe_ok is False and not self.lenient:
            raise Failure(f"liveness_exe{label}", f"readlink /proc/{pid}/exe is now {exe!r}, not {canon!r}")
        return exe

    # ---------- 5. serve
    def wait_running(self, seconds, pid, canon, name, serve=False):
        """Poll the entry; liveness every ~10 s. With serve=True keep going for `seconds`."""
        start = time.monotonic()
        end = start + seconds
        first_running, last_live, checks, blips, last = None, time.monotonic(), 0, 0, None
        while True:
            self.keeper.check(name)
            e = self.fleet.get(self.session_id)
            check(e is not None, name, f"the entry of {self.session_id} disappeared while serving")
            st = status_(e)
            last = st.get("session_status")
            check(st.get("phase") == "claimed" and st.get("acceptor_id") == self.acceptor_id, name,
                  f"while serving, the entry reads phase={st.get('phase')!r} acceptor={st.get('acceptor_id')!r}")
            check(last != "terminated", name, "the session was terminated while serving")
            if last == "running" and first_running is None:
                first_running = round(time.monotonic() - start, 1)
            if last == "suspended":
                blips += 1
            if time.monotonic() - last_live >= LIVENESS_EVERY:
                self.liveness(pid, canon, "", quiet=True)
                checks += 1
                last_live = time.monotonic()
            if (not serve and first_running is not None) or time.monotonic() >= end:
                break
            time.sleep(POLL)
        check(first_running is not None, name,
              f"session_status stayed {last!r} for {seconds:.0f} s after the remote was launched; "
              "it should read 'running' once the remote connected")
        return {"running_after_s": first_running, "liveness_checks": checks, "suspended_reads": blips}

    # ---------- hand-off
    def hand_off(self, what):
        emit({"step": f"wait_for_{what}", "ok": True, "t": elapsed(), "waiting_for": what,
              "session_id": self.session_id})
        if not self.args.drive:
            return
        exe = shutil.which(self.outposts_bin) or self.outposts_bin
        cmd = [exe, "emulator", "session", what, self.session_id, "--yes"]
        if self.port:
            cmd += ["--port", self.port]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired) as e:
            raise Failure(f"drive_{what}", f"could not run {' '.join(cmd)}: {e}")
        check(p.returncode == 0, f"drive_{what}",
              f"`{' '.join(cmd)}` exited {p.returncode}: {p.stderr.strip()[-300:]}")

    def wait_session_end(self, what, pid):
        """§7: suspended = `suspended` on SUSPEND_STRIKES consecutive reads, or the entry gone;
        terminated = an observed `terminated` (absence alone does not prove it)."""
        end = time.monotonic() + self.wait_seconds
        start = time.monotonic()
        strikes, seen = 0, []
        while True:
            e = self.fleet.get(self.session_id)
            ss = None if e is None else status_(e).get("session_status")
            if not seen or seen[-1] != (ss or "absent"):
                seen.append(ss or "absent")
            if what == "suspend":
                if e is None:
                    how = "absent"
                    break
                strikes = strikes + 1 if ss == "suspended" else 0
                check(ss != "terminated", "sleep_observed", "waiting for a suspend, the session read 'terminated'")
                if strikes >= SUSPEND_STRIKES:
                    how = "suspended"
                    break
            else:
                if ss == "terminated":
                    how = "terminated"
                    break
            if time.monotonic() > end:
                raise Failure(f"{'sleep' if what == 'suspend' else 'terminate'}_observed",
                              f"the session did not read {what}ed within {self.wait_seconds:.0f} s "
                              f"(statuses seen: {seen}; §7: an absent entry is not proof of termination)")
            time.sleep(POLL)
        after = round(time.monotonic() - start, 1)
        # §7: the remote exits 0 by itself at session end; fall back to killing it
        exited = False
        for _ in range(20):
            alive, _exe = probe(self.sb, pid)
            if not alive:
                exited = True
                break
            time.sleep(0.5)
        if not exited:
            sh(self.sb, 'kill "$1" 2>/dev/null || true', pid, timeout=30)
        return {"observed": how, "after_s": after, "statuses_seen": seen, "remote_exited_by_itself": exited}

    def release(self, name):
        if self.keeper:
            self.keeper.ending = True
            self.keeper.stop()
        status, body = self.fleet.release(self.session_id, self.acceptor_id)
        # §5.5: 200 with the entry back to pending; 404/409 mean "already released"
        check(status in (200, 204, 404, 409), name, f"release answered {status}: {body}")
        facts = {"status": status}
        if status == 200 and isinstance(body, dict):
            st = status_(body)
            check(st.get("acceptor_id") is None and st.get("claim_deadline") is None, name,
                  f"after release the entry still names acceptor {st.get('acceptor_id')!r} / deadline "
                  f"{st.get('claim_deadline')!r}")
            facts.update(phase=st.get("phase"), session_status=st.get("session_status"))
        facts["renewals"] = len(self.keeper.renewals) if self.keeper else 0
        self.keeper = None
        step(name, **facts)

    # ---------- the whole run
    def run(self):
        check(SDK_VERSION == EXPECTED_SDK, "config", f"expected daytona {EXPECTED_SDK}, found {SDK_VERSION}")
        # 1.
        entry = self.find_session()
        step("session_found", session_id=meta(entry)["session_id"], kind=spec_(entry).get("kind"),
             platform=spec_(entry).get("platform"), session_status=status_(entry).get("session_status"),
             mode="drive" if self.args.drive else "hand-off")
        check((spec_(entry).get("platform") or "linux") == "linux", "session_found",
              f"the session's platform is {spec_(entry).get('platform')!r}; this orchestrator serves linux")
        _, sha = self.claim(entry, "claim")
        # 2.
        self.create_sandbox()
        self.connect_events()
        # 3./4.
        self.keeper.check("remote_launch")
        pid, canon, _ = self.launch_remote(sha, "")
        # 5.
        facts = self.wait_running(self.serve_seconds, pid, canon, "serve", serve=True)
        self.keeper.check("serve")
        step("serve", seconds=self.serve_seconds, renewals=self.keeper.renewals, **facts)

        # 6. sleep
        self.hand_off("suspend")
        facts = self.wait_session_end("suspend", pid)
        self.keeper.ending = True
        step("sleep_observed", **facts)
        home, work = self.paths()
        marker = f"{work}/outsider-marker-{safe_id(self.session_id)}.txt"
        nonce = uuid.uuid4().hex
        code, out = sh(self.sb, 'printf "%s" "$2" > "$1" && cat "$1"', marker, nonce, timeout=30)
        check(code == 0 and out == nonce, "marker_write", f"writing {marker} failed (exit {code}): {out[-200:]}")
        step("marker_write", path=marker)
        if self.events:
            self.events.set_window("stop")
        self.sb.stop(timeout=120)
        check(self.sb.state == "stopped", "sandbox_stop", f"after stop the sandbox is {self.sb.state}")
        got = self.daytona.get(self.sandbox_id)
        check(got.state == "stopped", "sandbox_stop", f"get() after stop reads {got.state}")
        stop_events = self.events.wait_for(self.sandbox_id, "stop") if self.events else None
        step("sandbox_stop", state=sv(got.state), state_events=stop_events)
        self.release("sleep_release")

        # 7. wake
        self.hand_off("resume")
        entry = self.find_session(resume=True)
        check(spec_(entry).get("kind") == "resume", "wake_claim",
              f"the woken session came back with spec.kind={spec_(entry).get('kind')!r}, not 'resume' (§4.1, §7)")
        _, sha2 = self.claim(entry, "wake_claim")
        step("wake_pin", remote_binary_sha=sha2, same_as_before=(sha2 == self.pins[0]))
        if self.events:
            self.events.set_window("start")
        same = self.daytona.get(sandbox_name(self.session_id))
        check(same.id == self.sandbox_id, "sandbox_start",
              f"the sandbox named after the session is {same.id}, not the one created ({self.sandbox_id})")
        check(same.state == "stopped", "sandbox_start", f"before start the sandbox is {same.state}, not stopped")
        same.start(timeout=120)
        self.sb = same
        check(same.state == "started", "sandbox_start", f"after start the sandbox is {same.state}")
        start_events = self.events.wait_for(self.sandbox_id, "start") if self.events else None
        step("sandbox_start", id=same.id, state=sv(same.state), state_events=start_events)
        code, out = sh(same, 'cat "$1"', marker, timeout=30)
        check(code == 0 and out == nonce, "marker_intact",
              f"the marker {marker} did not survive the stop/start (exit {code}, content {out[:80]!r})")
        step("marker_intact", path=marker)
        if self.events:
            self.events.set_window("served-again")
        pid, canon, _ = self.launch_remote(sha2, "_wake")
        facts = self.wait_running(min(30.0, max(10.0, self.serve_seconds)), pid, canon, "running_again")
        step("running_again", **facts)

        # 8. terminate
        self.hand_off("terminate")
        facts = self.wait_session_end("terminate", pid)
        self.keeper.ending = True
        step("terminate_observed", **facts)
        if self.events:
            self.events.set_window("delete")
        self.sb.delete(timeout=120, wait=True)
        step("sandbox_delete", id=self.sandbox_id)
        self.release("terminate_release")
        gone_by = None
        end = time.monotonic() + 30
        while time.monotonic() < end:
            try:
                self.daytona.get(self.sandbox_id)
            except DaytonaNotFoundError:
                try:
                    self.daytona.get(sandbox_name(self.session_id))
                except DaytonaNotFoundError:
                    gone_by = elapsed()
                    break
            time.sleep(0.5)
        check(gone_by is not None, "sandbox_gone", f"sandbox {self.sandbox_id} is still visible 30 s after delete")
        self.sb = None
        step("sandbox_gone", id=self.sandbox_id)

        # 9. events
        if self.events:
            stop_ev = self.events.for_sandbox(self.sandbox_id, "stop")
            start_ev = self.events.for_sandbox(self.sandbox_id, "start")
            ours = [e for e in self.events.events if e["sandbox_id"] == self.sandbox_id]
            check(stop_ev and start_ev, "sandbox_events",
                  f"sandbox.state.updated events for {self.sandbox_id}: {len(stop_ev)} during the stop, "
                  f"{len(start_ev)} during the start (need at least one each)",
                  events=ours)
            step("sandbox_events", during_stop=[e["state"] for e in stop_ev],
                 during_start=[e["state"] for e in start_ev], connects=self.events.connects,
                 events=[{k: e[k] for k in ("t", "event", "state", "window")} for e in ours],
                 other_sandboxes=len(self.events.events) - len(ours))
        self.request_log()

    def request_log(self):
        """Self-check through the emulator's request log: no secret in any URL, no connect
        token in any exec command line."""
        if not self.port:
            return
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/_emulator/requests", timeout=30) as r:
                recs = json.load(r)
        except Exception as e:
            warn(f"could not read the emulator request log: {e}")
            return
        leaks, execs, claims, releases = [], 0, 0, 0
        sid_q = urllib.parse.quote(self.session_id, safe="")
        for rec in recs:
            url = f"{rec.get('path', '')}?{rec.get('query') or ''}"
            if any(s and s in url for s in SECRETS):
                leaks.append(f"{rec.get('method')} {rec.get('path')}")
            if rec.get("path", "").endswith("/process/execute") and self.sandbox_id in rec.get("path", ""):
                execs += 1
                body = (rec.get("exchange") or {}).get("request_body") or rec.get("body")
                if isinstance(body, str):
                    try:
                        body = json.loads(body)
                    except ValueError:
                        body = {"command": body}
                cmd = (body or {}).get("command", "") if isinstance(body, dict) else ""
                if any(s and s in cmd for s in SECRETS):
                    leaks.append(f"exec command #{rec.get('seq')}")
            if rec.get("method") == "POST" and sid_q in rec.get("path", "") \
                    and self.acceptor_id in str(rec.get("body") or ""):
                claims += rec["path"].endswith("/claim")
                releases += rec["path"].endswith("/release")
        check(not leaks, "request_log", f"secrets appear in URLs or exec command lines: {leaks}")
        check(releases >= 2 and claims >= 2, "request_log",
              f"the request log shows {claims} claims and {releases} releases by us (expected ≥ 2 each)")
        step("request_log", records=len(recs), our_exec_requests=execs, our_claims_and_renewals=claims,
             our_releases=releases)

    def cleanup(self):
        held = self.keeper is not None
        if held:
            self.keeper.ending = True
            self.keeper.stop()
        if self.sb is not None:
            try:
                self.sb.delete(timeout=60)
                warn(f"deleted sandbox {self.sandbox_id} after the failure")
            except Exception as e:
                warn(f"could not delete sandbox {self.sandbox_id}: {type(e).__name__}: {e}")
        if self.session_id and held:
            try:
                self.fleet.release(self.session_id, self.acceptor_id)
            except Exception:
                pass
        if self.events:
            self.events.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--drive", action="store_true",
                    help="issue `outposts emulator session suspend|resume|terminate` itself")
    ap.add_argument("--lenient", action="store_true",
                    help="turn the pin, /proc exe, uid and Socket.IO checks into warnings (trials only)")
    args = ap.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    orch = None
    try:
        orch = Orchestrator(args)
        orch.run()
        emit({"done": True, "ok": True, "t": elapsed(), "session_id": orch.session_id,
              "lenient_warnings": LENIENT_WARNINGS})
        if orch.events:
            orch.events.close()
        return 0
    except Failure as f:
        emit({"step": f.step_name, "ok": False, "t": elapsed(), "error": f.why, **f.facts})
        sys.stderr.write(scrub(f"FAIL {f.step_name}: {f.why}\n"))
    except KeyboardInterrupt:
        emit({"step": "interrupted", "ok": False, "t": elapsed(), "error": "SIGINT/SIGTERM"})
        sys.stderr.write("FAIL interrupted\n")
    except Exception as e:  # an SDK or protocol error is a conformance failure too
        emit({"step": "error", "ok": False, "t": elapsed(), "error": f"{type(e).__name__}: {e}"})
        sys.stderr.write(scrub(f"FAIL: {type(e).__name__}: {e}\n"))
    if orch is not None:
        orch.cleanup()
    return 1


if __name__ == "__main__":
    sys.exit(main())
