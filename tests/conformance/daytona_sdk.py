#!/usr/bin/env python3
"""Drive the Daytona emulator with the official Python SDK (daytona==0.226.1).

Environment (set by tests/it/daytona_conformance.rs):
  DAYTONA_API_URL, DAYTONA_API_KEY   the emulator (the SDK reads the URL from the process env only)
  DAYTONA_USE_DEPRECATED_POLLING     "true": poll instead of the Socket.IO event stream
  OUTPOSTS_BARE_REPO                 a bare git repository on this host whose README is known
  OUTPOSTS_REPO_README               the README's expected first line

Each step prints `ok <step>`; any failure raises (exit 1 with a traceback).
"""

import os
import sys

from daytona import (
    CreateSandboxFromSnapshotParams,
    CreateSnapshotParams,
    Daytona,
    DaytonaNotFoundError,
    ListSandboxesQuery,
)


def step(name):
    print(f"ok {name}", flush=True)


def main():
    repo = os.environ["OUTPOSTS_BARE_REPO"]
    readme = os.environ["OUTPOSTS_REPO_README"]
    daytona = Daytona()

    snap = daytona.snapshot.create(CreateSnapshotParams(name="sdk-snap:1", image="debian:12.9"))
    assert snap.state == "active", snap.state
    assert daytona.snapshot.get("sdk-snap:1").id == snap.id
    step("snapshot create (imageName) and get by name")

    sb = daytona.create(
        CreateSandboxFromSnapshotParams(
            snapshot="sdk-snap:1",
            name="sdk-sandbox",
            labels={"job": "42", "suite": "conformance"},
            env_vars={"A": "1"},
            auto_stop_interval=0,
            auto_delete_interval=-1,
        ),
        timeout=60,
    )
    assert sb.state == "started", sb.state
    assert sb.labels["job"] == "42"
    step("create from snapshot with labels")

    got = daytona.get("sdk-sandbox")
    assert got.id == sb.id and got.name == "sdk-sandbox"
    step("get by name")

    found = list(daytona.list(ListSandboxesQuery(labels={"job": "42"})))
    assert [s.id for s in found] == [sb.id], [s.id for s in found]
    assert list(daytona.list(ListSandboxesQuery(labels={"job": "nope"}))) == []
    step("list by labels")

    r = sb.process.exec("echo $A-$B", env={"B": "2"})
    assert r.exit_code == 0 and r.result.strip() == "1-2", (r.exit_code, r.result)
    r = sb.process.exec("exit 3")
    assert r.exit_code == 3, r.exit_code
    step("process.exec with env")

    sb.git.clone(url=repo, path="workspace/repo")
    r = sb.process.exec("head -n1 workspace/repo/README")
    assert r.result.strip() == readme, r.result
    step("git.clone of a local bare repository")

    sb.fs.upload_file(b"payload \x00\x01 bytes", "/home/daytona/data/upload.bin")
    assert sb.fs.download_file("/home/daytona/data/upload.bin") == b"payload \x00\x01 bytes"
    sb.process.exec("printf made-inside > /home/daytona/inside.txt")
    assert sb.fs.download_file("/home/daytona/inside.txt") == b"made-inside"
    step("file upload and download")

    sb.stop(timeout=60)
    assert sb.state == "stopped", sb.state
    assert daytona.get(sb.id).state == "stopped"
    step("stop")

    sb.start(timeout=60)
    assert sb.state == "started", sb.state
    r = sb.process.exec("cat /home/daytona/inside.txt")
    assert r.result == "made-inside", r.result
    step("start (files survive the stop)")

    sb.delete(timeout=60)
    try:
        daytona.get("sdk-sandbox")
        raise AssertionError("the deleted sandbox is still visible")
    except DaytonaNotFoundError:
        pass
    step("delete")

    daytona.snapshot.delete(snap)
    step("snapshot delete")
    print("SDK conformance: all steps passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
