#!/usr/bin/env python3
"""The steps of daytona_sdk.mjs (the TypeScript SDK run) that the official Python SDK
(daytona==0.226.1) has, against the emulator: labels, exec, files, git, sessions with state
and input, followed logs, code-run, stop/start, archive/restore, delete, and the event stream.

Environment (set by tests/it/daytona_ts_conformance.rs):
  DAYTONA_API_URL, DAYTONA_API_KEY   the emulator
  DAYTONA_USE_DEPRECATED_POLLING     "true": the SDK polls instead of using the event stream
  OUTPOSTS_BARE_REPO                 a bare git repository on this host whose README is known
  OUTPOSTS_REPO_README               the README's expected first line

Each step prints `ok <step>`; the first failure prints `FAIL <step>: <why>` and exits 1.
"""

import asyncio
import os
import sys
import time
import traceback

from daytona import (
    CreateSandboxFromSnapshotParams,
    Daytona,
    DaytonaNotFoundError,
    SessionExecuteRequest,
)

CURRENT = ["start"]


def run(name):
    def wrap(fn):
        CURRENT[0] = name
        fn()
        print(f"ok {name}", flush=True)
        return fn

    return wrap


def until(what, check, seconds=30):
    end = time.time() + seconds
    while time.time() < end:
        if check():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def rejects(fn):
    try:
        fn()
    except Exception:  # noqa: BLE001 - any SDK error is the refusal we expect
        return
    raise AssertionError("the call was not refused")


def main():
    repo = os.environ["OUTPOSTS_BARE_REPO"]
    readme = os.environ["OUTPOSTS_REPO_README"]
    mode = "poll" if os.environ.get("DAYTONA_USE_DEPRECATED_POLLING") == "true" else "event"
    suffix = f"{mode}-{os.getpid()}"
    daytona = Daytona()
    box = {}

    @run("create with labels and env")
    def _():
        sb = daytona.create(
            CreateSandboxFromSnapshotParams(
                name=f"py-sdk-{suffix}", labels={"job": "42"}, env_vars={"A": "1"}, auto_stop_interval=0
            ),
            timeout=60,
        )
        assert sb.state == "started", sb.state
        box["sb"] = sb

    sb = box["sb"]

    @run("set labels")
    def _():
        assert sb.set_labels({"job": "43"})["job"] == "43"
        assert daytona.get(sb.id).labels["job"] == "43"

    @run("exec with env and cwd")
    def _():
        r = sb.process.exec("echo $A-$B-$(pwd)", cwd="/tmp", env={"B": "2"})
        assert (r.exit_code, r.result.strip()) == (0, "1-2-/tmp"), (r.exit_code, r.result)

    d = "/home/daytona/work"

    @run("fs upload, find, search, replace, move, permissions")
    def _():
        sb.fs.create_folder(d, "755")
        sb.fs.upload_file(b"alpha needle\nbeta\n", f"{d}/a.txt")
        sb.fs.upload_file(b"gamma needle\n", f"{d}/b.md")
        got = sorted((m.file, m.line, m.content) for m in sb.fs.find_files(d, "needle"))
        assert got == [(f"{d}/a.txt", 1, "alpha needle"), (f"{d}/b.md", 1, "gamma needle")], got
        assert sb.fs.search_files(d, "*.md").files == [f"{d}/b.md"]
        res = sb.fs.replace_in_files([f"{d}/a.txt"], "needle", "pin")
        assert res[0].success, res
        assert sb.fs.download_file(f"{d}/a.txt") == b"alpha pin\nbeta\n"
        sb.fs.move_files(f"{d}/b.md", f"{d}/c.md")
        assert sorted(f.name for f in sb.fs.list_files(d)) == ["a.txt", "c.md"]
        sb.fs.set_file_permissions(f"{d}/a.txt", mode="600")
        assert sb.fs.get_file_info(f"{d}/a.txt").permissions == "0600"

    @run("git clone, status, branches")
    def _():
        sb.git.clone(url=repo, path="workspace/repo")
        assert sb.process.exec("head -n1 workspace/repo/README").result.strip() == readme
        sb.process.exec("echo changed >> workspace/repo/README")
        st = sb.git.status("workspace/repo")
        assert st.current_branch == "main", st
        assert {f.name: f.worktree for f in st.file_status}["README"] == "Modified", st
        assert "main" in sb.git.branches("workspace/repo").branches

    @run("session keeps shell state")
    def _():
        sb.process.create_session("state")
        sb.process.execute_session_command("state", SessionExecuteRequest(command="export X=7; cd /tmp"))
        r = sb.process.execute_session_command("state", SessionExecuteRequest(command='echo "X=$X pwd=$(pwd)"'))
        assert (r.exit_code, r.stdout) == (0, "X=7 pwd=/tmp\n"), (r.exit_code, r.stdout)

    @run("exit N ends the session shell")
    def _():
        sb.process.create_session("ending")
        r = sb.process.execute_session_command("ending", SessionExecuteRequest(command="exit 6"))
        assert r.exit_code == 6, r.exit_code
        rejects(lambda: sb.process.execute_session_command("ending", SessionExecuteRequest(command="true")))

    @run("async command, input and followed logs")
    def _():
        sb.process.create_session("io")
        r = sb.process.execute_session_command(
            "io", SessionExecuteRequest(command='read a; echo "hello $a"; read b; echo "then $b" >&2', run_async=True)
        )
        cid = r.cmd_id
        sb.process.send_session_command_input("io", cid, "world")
        out, err = [], []

        async def follow():
            task = asyncio.ensure_future(
                sb.process.get_session_command_logs_async("io", cid, out.append, err.append)
            )
            end = time.time() + 30
            while "hello world" not in "".join(out) and time.time() < end:
                await asyncio.sleep(0.1)
            sb.process.send_session_command_input("io", cid, "more")
            await asyncio.wait_for(task, 30)

        asyncio.run(follow())
        assert "hello world\n" in "".join(out), out
        assert "".join(err) == "then more\n", err
        assert sb.process.get_session_command("io", cid).exit_code == 0
        logs = sb.process.get_session_command_logs("io", cid)
        assert logs.stderr == "then more\n", logs
        rejects(lambda: sb.process.send_session_command_input("io", cid, "late"))
        sb.process.delete_session("io")

    @run("code_run")
    def _():
        r = sb.process.code_run('print("sum", 2 + 3)')
        assert (r.exit_code, r.result.strip()) == (0, "sum 5"), (r.exit_code, r.result)

    @run("stop, start, archive, restore")
    def _():
        sb.stop(timeout=60)
        assert sb.state == "stopped", sb.state
        sb.start(timeout=60)
        assert sb.state == "started", sb.state
        sb.stop(timeout=60)
        sb.archive()

        def archived():
            sb.refresh_data()
            return sb.state == "archived"

        until("archived", archived)
        sb.start(timeout=60)
        assert sb.state == "started", sb.state
        assert sb.process.exec(f"cat {d}/a.txt").result == "alpha pin\nbeta\n"

    @run("delete")
    def _():
        sb.delete(timeout=60)

        def gone():
            try:
                daytona.get(sb.id)
                return False
            except DaytonaNotFoundError:
                return True

        until("gone", gone)

    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception:  # noqa: BLE001 - report the step and the trace, exit 1
        print(f"FAIL {CURRENT[0]}: {traceback.format_exc()}", file=sys.stderr)
        sys.exit(1)
