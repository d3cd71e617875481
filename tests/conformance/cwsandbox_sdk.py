#!/usr/bin/env python3
"""Conformance: drive the official `cwsandbox` Python SDK (1.22.0) against a CoreWeave Sandbox
API endpoint — in CI, `outposts emulator` via CWSANDBOX_BASE_URL.

Runs the Devin-guide call sequence: Sandbox.run, wait, from_id, get_status, container_statuses,
exec (argv, cwd, stdin, exit codes), stream_logs(tail_lines=…), list(tags), stop, and
from_id of a missing id. Prints one JSON line per step on stdout; on the first failure prints
`FAIL <step>: <why>` on stderr and exits 1. Exits 3 when the SDK is not installed.

Auth: CWSANDBOX_API_KEY (bearer), or with CONFORMANCE_AUTH=wandb the W&B strategy
(WANDB_API_KEY, WANDB_ENTITY). Credentials are never printed.
"""

import json
import os
import sys
import time
import uuid

os.environ.setdefault("CWSANDBOX_DISABLE_SIGNAL_HANDLERS", "1")

try:
    import cwsandbox
    from cwsandbox import AuthStrategy, Sandbox, SandboxStatus
    from cwsandbox.exceptions import SandboxNotFoundError
except ImportError as e:  # pragma: no cover - exercised when the SDK is missing
    sys.stderr.write(
        f"the cwsandbox SDK is not installed ({e}); install it with:\n"
        "  python3 -m pip install -r tests/conformance/requirements-coreweave.txt\n"
    )
    sys.exit(3)

EXPECTED_SDK = "1.22.0"
IMAGE = "public.ecr.aws/e0h8a4b6/devin-cli:stable"


class Failure(Exception):
    pass


def step(step_name, **facts):
    print(json.dumps({"step": step_name, "ok": True, **facts}), flush=True)


def check(cond, what):
    if not cond:
        raise Failure(what)


def main():
    if cwsandbox.__version__ != EXPECTED_SDK:
        raise Failure(f"expected cwsandbox {EXPECTED_SDK}, found {cwsandbox.__version__}")
    if not os.environ.get("CWSANDBOX_BASE_URL"):
        raise Failure("CWSANDBOX_BASE_URL is not set")
    auth = AuthStrategy.WANDB if os.environ.get("CONFORMANCE_AUTH") == "wandb" else None

    tag = f"conformance-{uuid.uuid4().hex[:8]}"
    main_cmd = (
        "for i in 1 2 3 4 5; do echo line-$i; done; "
        'echo "env=$CONF_VAR"; echo to-stderr >&2; exec sleep 300'
    )
    sb = Sandbox.run(
        "sh",
        "-c",
        main_cmd,
        container_image=IMAGE,
        tags=[tag, "suite=conformance"],
        environment_variables={"CONF_VAR": "conf-value"},
        max_lifetime_seconds=900,
        resources={"cpu": "1", "memory": "1Gi"},
        auth=auth,
    )
    sid = sb.sandbox_id
    check(bool(sid), "Sandbox.run returned no sandbox id")
    step("run", sandbox_id=sid)

    sb.wait(timeout=120)
    status = sb.get_status()
    check(status == SandboxStatus.RUNNING, f"after wait the status is {status}, not running")
    step("wait", status=str(status))

    again = Sandbox.from_id(sid, auth=auth).result()
    check(again.sandbox_id == sid, "from_id returned another sandbox")
    status = again.get_status()
    check(status == SandboxStatus.RUNNING, f"from_id sees {status}, not running")
    step("from_id+get_status", status=str(status))

    cs = again.container_statuses
    check(len(cs) >= 1, "no container_statuses")
    main_c = cs[0]
    check(main_c.name == "main", f"container is named {main_c.name!r}, not 'main'")
    check(main_c.state == SandboxStatus.RUNNING, f"main container is {main_c.state}")
    check(main_c.restart_count == 0, f"restart_count is {main_c.restart_count}")
    check(main_c.exit_code is None, f"a running container has exit code {main_c.exit_code}")
    step("container_statuses", name=main_c.name, state=str(main_c.state))

    r = sb.exec(["sh", "-c", "printf 'proof-42\\n' > /tmp/conformance.txt"], check=True).result()
    check(r.returncode == 0, f"writing the file exited {r.returncode}")
    r = sb.exec(["cat", "/tmp/conformance.txt"]).result()
    check(r.stdout == "proof-42\n", f"cat printed {r.stdout!r}")
    check(r.returncode == 0, f"cat exited {r.returncode}")
    step("exec_cat", stdout=r.stdout)

    r = sb.exec(["sh", "-c", "echo out; echo err >&2; exit 3"]).result()
    check((r.stdout, r.stderr, r.returncode) == ("out\n", "err\n", 3),
          f"got {(r.stdout, r.stderr, r.returncode)!r}")
    step("exec_exit_code", returncode=r.returncode)

    r = sb.exec(["pwd"], cwd="/tmp").result()
    check(r.stdout.strip() == "/tmp", f"cwd=/tmp printed {r.stdout!r}")
    step("exec_cwd", stdout=r.stdout.strip())

    p = sb.exec(["cat"], stdin=True)
    p.stdin.write(b"from-stdin\n").result()
    p.stdin.close().result()
    r = p.result()
    check(r.stdout == "from-stdin\n", f"stdin round trip printed {r.stdout!r}")
    step("exec_stdin", stdout=r.stdout)

    data = sb.read_file("/tmp/conformance.txt").result()
    check(data == b"proof-42\n", f"read_file returned {data!r}")
    sb.write_file("/tmp/written.txt", b"written-by-sdk").result()
    r = sb.exec(["cat", "/tmp/written.txt"]).result()
    check(r.stdout == "written-by-sdk", f"write_file then cat printed {r.stdout!r}")
    step("files")

    lines = []
    deadline = time.time() + 30
    while time.time() < deadline:
        lines = [l.rstrip("\n") for l in sb.stream_logs(tail_lines=3)]
        if "env=conf-value" in lines:
            break
        time.sleep(0.3)
    check(len(lines) == 3, f"tail_lines=3 gave {lines!r}")
    check("env=conf-value" in lines and "line-5" in lines, f"tail_lines=3 gave {lines!r}")
    check("line-1" not in lines, f"tail_lines=3 gave {lines!r}")
    step("stream_logs_tail", lines=lines)

    everything = [l.rstrip("\n") for l in sb.stream_logs()]
    check(everything[:5] == [f"line-{i}" for i in range(1, 6)], f"full log is {everything!r}")
    step("stream_logs_all", count=len(everything))

    listed = Sandbox.list(tags=[tag], auth=auth).result()
    ids = [s.sandbox_id for s in listed]
    check(ids == [sid], f"list(tags=[{tag}]) gave {ids!r}")
    listed = Sandbox.list(tags=[tag, "no-such-tag"], auth=auth).result()
    check(listed == [] or len(listed) == 0, "tags are not ANDed")
    step("list", ids=ids)

    sb.stop().result()
    status = sb.get_status()
    check(status == SandboxStatus.COMPLETED, f"after stop the status is {status}")
    check(sb.returncode == 143, f"after stop the return code is {sb.returncode}, not 143")
    after = Sandbox.from_id(sid, auth=auth).result()
    check(after.get_status() == SandboxStatus.COMPLETED, "a stopped sandbox is not readable")
    ended = after.container_statuses
    check(ended and ended[0].exit_code == 143, f"stopped container statuses: {ended!r}")
    active = Sandbox.list(tags=[tag], auth=auth).result()
    check(len(active) == 0, "a stopped sandbox is still listed as active")
    with_done = Sandbox.list(tags=[tag], show_terminated=True, auth=auth).result()
    check([s.sandbox_id for s in with_done] == [sid], "show_terminated does not show it")
    step("stop", status=str(status), returncode=sb.returncode)

    missing = "sb-" + uuid.uuid4().hex[:12]
    try:
        Sandbox.from_id(missing, auth=auth).result()
    except SandboxNotFoundError as e:
        reason = getattr(e, "reason", None)
        step("from_id_missing", reason=reason)
    else:
        raise Failure(f"from_id({missing}) did not raise SandboxNotFoundError")

    print(json.dumps({"done": True, "sdk": cwsandbox.__version__}), flush=True)


if __name__ == "__main__":
    try:
        main()
    except Failure as f:
        sys.stderr.write(f"FAIL: {f}\n")
        sys.exit(1)
    except Exception as e:  # an SDK error is a conformance failure too
        sys.stderr.write(f"FAIL: {type(e).__name__}: {e}\n")
        sys.exit(1)
