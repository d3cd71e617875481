#!/usr/bin/env python3
"""Drive a Devin public v3 API (sessions, default platform) from the spec alone.

Written from ../../shared/specs/devin-sessions-api.md (the public API reference pages), not
from this project's client. Python standard library only. Environment:

  DEVIN_API_URL   API origin (the emulator's base URL)
  DEVIN_API_KEY   a service-user key with ManageOrgSessions, ViewOrgSessions, ManageOrgSettings
  DEVIN_ORG_ID    the organisation (org-...)
  DEVIN_LIMITED_KEY  optional: a key of the same organisation lacking ManageOrgSessions
  OUTPOST_NAME    optional: the name of a shared outpost of the organisation

Prints "ok <step>" per passed step; exits 1 at the first failure.
"""

import json
import os
import sys
import urllib.error
import urllib.request

BASE = os.environ["DEVIN_API_URL"].rstrip("/")
KEY = os.environ["DEVIN_API_KEY"]
ORG = os.environ["DEVIN_ORG_ID"]
LIMITED = os.environ.get("DEVIN_LIMITED_KEY")
OUTPOST = os.environ.get("OUTPOST_NAME")

STATUSES = {"new", "creating", "claimed", "running", "exit", "error", "suspended", "resuming"}
DETAILS = {
    "working", "waiting_for_user", "waiting_for_approval", "finished",
    "inactivity", "user_request", "usage_limit_exceeded", "out_of_credits", "out_of_quota",
    "no_quota_allocation", "payment_declined", "org_usage_limit_exceeded",
    "total_session_limit_exceeded", "error",
}


def fail(msg):
    print("FAIL " + msg)
    sys.exit(1)


def call(method, path, body=None, key=KEY):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(BASE + path, data=data, method=method)
    if key is not None:
        req.add_header("Authorization", "Bearer " + key)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=20) as resp:
            raw = resp.read()
            return resp.status, json.loads(raw) if raw else None
    except urllib.error.HTTPError as e:
        raw = e.read()
        try:
            doc = json.loads(raw) if raw else None
        except ValueError:
            doc = raw.decode(errors="replace")
        return e.code, doc


def expect(status, doc, want, step):
    if status != want:
        fail("%s: expected HTTP %d, got %d: %r" % (step, want, status, doc))


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def check_session(s, step, detail_allowed):
    """SessionResponse (spec section 2): required fields and their types."""
    if not isinstance(s, dict):
        fail("%s: not an object: %r" % (step, s))
    for k, t in [("session_id", str), ("url", str), ("status", str), ("tags", list),
                 ("org_id", str), ("pull_requests", list)]:
        if not isinstance(s.get(k), t):
            fail("%s: %s should be %s: %r" % (step, k, t.__name__, s.get(k)))
    for k in ("created_at", "updated_at", "acus_consumed"):
        if not is_num(s.get(k)):
            fail("%s: %s should be a number: %r" % (step, k, s.get(k)))
    if not s["session_id"].startswith("devin-"):
        fail("%s: session ids start with devin-: %r" % (step, s["session_id"]))
    if s["org_id"] != ORG:
        fail("%s: org_id %r is not %r" % (step, s["org_id"], ORG))
    if s["status"] not in STATUSES:
        fail("%s: status %r is not in the documented vocabulary" % (step, s["status"]))
    for k, t in [("title", str), ("user_id", str), ("service_user_id", str), ("origin", str),
                 ("is_archived", bool), ("parent_session_id", str), ("playbook_id", str)]:
        if s.get(k) is not None and not isinstance(s[k], t):
            fail("%s: optional %s should be %s: %r" % (step, k, t.__name__, s[k]))
    for pr in s["pull_requests"]:
        if not isinstance(pr, dict) or "pr_url" not in pr or "pr_state" not in pr:
            fail("%s: pull_requests items are {pr_url, pr_state}: %r" % (step, pr))
    d = s.get("status_detail")
    if d is not None:
        if not detail_allowed:
            pass  # the docs list it on get/list only; extra fields are tolerated
        if d not in DETAILS:
            fail("%s: status_detail %r is not documented" % (step, d))


def main():
    sessions = "/v3/organizations/%s/sessions" % ORG

    # 401: no key, and a key that is not one.
    st, doc = call("GET", sessions, key=None)
    expect(st, doc, 401, "no key")
    st, doc = call("GET", sessions, key="cog_" + "x" * 52)
    expect(st, doc, 401, "unknown key")
    print("ok 401 without a valid key")

    # 403: a key lacking ManageOrgSessions may read but not create.
    if LIMITED:
        st, doc = call("POST", sessions, {"prompt": "hi"}, key=LIMITED)
        expect(st, doc, 403, "create without ManageOrgSessions")
        st, doc = call("GET", sessions, key=LIMITED)
        expect(st, doc, 200, "list with ViewOrgSessions")
        print("ok 403 for a missing permission")

    # 422: a body without the required prompt.
    st, doc = call("POST", sessions, {"title": "no prompt"})
    expect(st, doc, 422, "create without prompt")
    print("ok 422 without prompt")

    # 400: an unknown platform, listing the accepted labels.
    st, doc = call("POST", sessions, {"prompt": "hi", "platform": "no-such-platform-zz"})
    expect(st, doc, 400, "unknown platform")
    text = json.dumps(doc)
    if "linux" not in text:
        fail("the 400 should list the accepted labels: %s" % text)
    if OUTPOST and OUTPOST not in text:
        fail("the 400 should list the shared outposts: %s" % text)
    print("ok 400 lists the accepted platforms")

    # Create on a hosted label and (when given) on the outpost by name, case-insensitively.
    st, s = call("POST", sessions, {"prompt": "hello", "title": "conformance", "tags": ["c1"],
                                    "platform": "linux"})
    expect(st, s, 200, "create")
    check_session(s, "create", False)
    if s.get("tags") != ["c1"]:
        fail("tags should round-trip: %r" % s.get("tags"))
    first = s["session_id"]
    print("ok create answers a SessionResponse")
    if OUTPOST:
        st, o = call("POST", sessions, {"prompt": "sh: true", "platform": OUTPOST.upper()})
        expect(st, o, 200, "create on the outpost")
        check_session(o, "create on the outpost", False)
        if o["status"] not in ("new", "creating", "claimed"):
            fail("a fresh session on an unserved outpost reads new/claimed: %r" % o["status"])
        print("ok create on an outpost by name")

    # Get, list with cursor paging, 404.
    st, g = call("GET", "%s/%s" % (sessions, first))
    expect(st, g, 200, "get")
    check_session(g, "get", True)
    st, page = call("GET", sessions + "?first=1")
    expect(st, page, 200, "list")
    for k, t in [("items", list), ("has_next_page", bool)]:
        if not isinstance(page.get(k), t):
            fail("list: %s should be %s: %r" % (k, t.__name__, page))
    if len(page["items"]) != 1:
        fail("list: first=1 should give one item: %r" % page)
    for it in page["items"]:
        check_session(it, "list item", True)
    if page["has_next_page"]:
        if not isinstance(page.get("end_cursor"), str):
            fail("list: a next page needs an end_cursor: %r" % page)
        st, page2 = call("GET", sessions + "?first=1&after=" + page["end_cursor"])
        expect(st, page2, 200, "list page 2")
        if page2["items"] and page2["items"][0]["session_id"] == page["items"][0]["session_id"]:
            fail("list: page 2 repeats page 1")
    print("ok get and list")
    st, doc = call("GET", sessions + "/devin-doesnotexist0000")
    expect(st, doc, 404, "get unknown")
    st, doc = call("DELETE", sessions + "/devin-doesnotexist0000")
    expect(st, doc, 404, "delete unknown")
    print("ok 404 for an unknown session")

    # Delete terminates (and archives) and answers the SessionResponse.
    st, d = call("DELETE", "%s/%s?archive=true" % (sessions, first))
    expect(st, d, 200, "delete")
    check_session(d, "delete", False)
    st, g = call("GET", "%s/%s" % (sessions, first))
    expect(st, g, 200, "get after delete")
    if g["status"] not in ("exit", "error"):
        fail("a terminated session reads exit: %r" % g["status"])
    if g.get("is_archived") is False:
        fail("archive=true should archive it: %r" % g)
    print("ok delete terminates")

    # Default platform (v3beta1): shape, set, clear, the 400 cases.
    dp = "/v3beta1/organizations/%s/default-platform" % ORG
    st, d = call("GET", dp)
    expect(st, d, 200, "default get")
    for k in ("platform", "outpost_pool_id", "outpost_pool_name"):
        if k not in d:
            fail("default-platform lacks %s: %r" % (k, d))
    st, d = call("PUT", dp, {"platform": "linux", "outpost_pool_id": "outpost_env-x"})
    expect(st, d, 400, "default with both")
    st, d = call("PUT", dp, {"platform": "no-such-platform-zz"})
    expect(st, d, 400, "default unknown")
    if OUTPOST:
        st, d = call("PUT", dp, {"platform": OUTPOST})
        expect(st, d, 200, "default set outpost")
        st, d = call("GET", dp)
        if not (d.get("outpost_pool_id") or "").startswith("outpost_env-"):
            fail("an outpost default reads its outpost_pool_id: %r" % d)
    st, d = call("PUT", dp, {})
    expect(st, d, 200, "default clear")
    st, d = call("GET", dp)
    if any(d.get(k) is not None for k in ("platform", "outpost_pool_id", "outpost_pool_name")):
        fail("a cleared default reads all null: %r" % d)
    if LIMITED:
        st, d = call("PUT", dp, {}, key=LIMITED)
        expect(st, d, 403, "default without ManageOrgSettings")
    print("ok default platform")


if __name__ == "__main__":
    main()
