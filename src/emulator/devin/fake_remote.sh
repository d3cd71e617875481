#!/bin/sh
# devin-remote — the fake served by `outposts emulator`. It is NOT Devin's remote: it speaks the
# emulator's plain-HTTP gateway protocol (src/emulator/devin/tasks.rs), marks its session
# running, carries out scripted tasks and exits 0 when the session ends.
# Needs only sh, curl, base64 and coreutils. Never prints the connect token.
DEVIN_REMOTE_SHA='@SHA@'
DEVIN_REMOTE_TARGET='@SUFFIX@'

usage() {
  cat <<'EOF'
usage: devin-remote serve [--port N]
       devin-remote --version | --help

serve needs DEVIN_OUTPOST_GATEWAY_URL, DEVIN_OUTPOST_CONNECT_TOKEN and DEVIN_OUTPOST_SESSION_ID.
Optional: DEVIN_REMOTE_STATE_DIR (created if set), DEVIN_REMOTE_FS_ROOT (absolute task paths
are written under this directory instead of /).
EOF
}

case "${1:-}" in
  --version | -V | version)
    echo "devin-remote ${DEVIN_REMOTE_SHA} (outposts emulator fake, ${DEVIN_REMOTE_TARGET})"
    exit 0 ;;
  --help | -h | help) usage; exit 0 ;;
  serve) shift ;;
  '') usage >&2; exit 2 ;;
  *) echo "devin-remote: unknown command: $1" >&2; usage >&2; exit 2 ;;
esac
while [ $# -gt 0 ]; do
  case "$1" in
    --port) shift; [ $# -gt 0 ] && shift ;;
    --port=*) shift ;;
    *) echo "devin-remote: unknown option for serve: $1" >&2; exit 2 ;;
  esac
done

for var in DEVIN_OUTPOST_GATEWAY_URL DEVIN_OUTPOST_CONNECT_TOKEN DEVIN_OUTPOST_SESSION_ID; do
  eval "val=\${$var:-}"
  if [ -z "$val" ]; then
    echo "devin-remote: $var is not set; serve needs DEVIN_OUTPOST_GATEWAY_URL, DEVIN_OUTPOST_CONNECT_TOKEN and DEVIN_OUTPOST_SESSION_ID together" >&2
    exit 2
  fi
done
if ! command -v curl >/dev/null 2>&1; then
  echo "devin-remote: curl is required" >&2
  exit 1
fi

case "$DEVIN_OUTPOST_GATEWAY_URL" in
  wss://*) base="https://${DEVIN_OUTPOST_GATEWAY_URL#wss://}" ;;
  ws://*) base="http://${DEVIN_OUTPOST_GATEWAY_URL#ws://}" ;;
  https://* | http://*) base="$DEVIN_OUTPOST_GATEWAY_URL" ;;
  *) echo "devin-remote: DEVIN_OUTPOST_GATEWAY_URL must be a ws:// or wss:// URL" >&2; exit 2 ;;
esac
base="${base%/}"

if [ -n "${DEVIN_REMOTE_STATE_DIR:-}" ]; then
  mkdir -p "$DEVIN_REMOTE_STATE_DIR" 2>/dev/null || true
fi
home_dir="$(pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/devin-remote.XXXXXX")" || exit 1
child=''
cleanup() { rm -rf "$work"; }
trap cleanup EXIT
trap '[ -n "$child" ] && kill "$child" 2>/dev/null; exit 143' TERM
trap '[ -n "$child" ] && kill "$child" 2>/dev/null; exit 130' INT
session_b64="$(printf %s "$DEVIN_OUTPOST_SESSION_ID" | base64 | tr -d '\n')"

# call METHOD PATH [BODYFILE]: sets $code (HTTP status, 000 when unreachable); body in $work/resp.
# The token reaches curl as a config file on stdin: never in argv, never on screen.
call() {
  : > "$work/resp"
  if [ -n "${3:-}" ]; then
    printf 'header = "Authorization: Bearer %s"\nheader = "X-Devin-Outpost-Session-B64: %s"\n' \
      "$DEVIN_OUTPOST_CONNECT_TOKEN" "$session_b64" |
      curl -sS -K - -X "$1" --max-time 60 -o "$work/resp" -w '%{http_code}' \
        -H 'Content-Type: application/octet-stream' --data-binary "@$3" \
        "$base$2" >"$work/code" 2>"$work/err" &
  else
    printf 'header = "Authorization: Bearer %s"\nheader = "X-Devin-Outpost-Session-B64: %s"\n' \
      "$DEVIN_OUTPOST_CONNECT_TOKEN" "$session_b64" |
      curl -sS -K - -X "$1" --max-time 60 -o "$work/resp" -w '%{http_code}' \
        "$base$2" >"$work/code" 2>"$work/err" &
  fi
  child=$!
  wait "$child"
  child=''
  code="$(cat "$work/code" 2>/dev/null)"
  [ -n "$code" ] || code=000
}

auth_failed() {
  echo "devin-remote: the outpost gateway rejected the connect token (HTTP 401): $(head -c 300 "$work/resp")" >&2
  exit 1
}

ended() {
  echo "session ended ($1); exiting"
  exit 0
}

# Connect (a few tries: the gateway may still be starting).
tries=0
while :; do
  call POST /connect
  case "$code" in
    200) break ;;
    401 | 403) auth_failed ;;
  esac
  tries=$((tries + 1))
  if [ "$tries" -ge 10 ]; then
    echo "devin-remote: cannot reach the outpost gateway at $base (HTTP $code): $(head -c 300 "$work/err")" >&2
    exit 1
  fi
  sleep 1
done
read -r first reason <"$work/resp" || true
if [ "$first" = exit ]; then ended "$reason"; fi
echo "connected to outpost gateway"
echo "session $DEVIN_OUTPOST_SESSION_ID, remote ${DEVIN_REMOTE_SHA} (${DEVIN_REMOTE_TARGET}), cwd $home_dir"

resolve() {
  case "$1" in
    /*) printf '%s%s' "${DEVIN_REMOTE_FS_ROOT:-}" "$1" ;;
    *) printf '%s/%s' "$home_dir" "$1" ;;
  esac
}

report() { # task status exit-code
  call POST "/result?task=$1&status=$2&code=$3" "$work/out"
  if [ "$code" = 401 ]; then auth_failed; fi
}

failures=0
while :; do
  call GET /next
  case "$code" in
    200) failures=0 ;;
    401 | 403) auth_failed ;;
    *)
      failures=$((failures + 1))
      if [ "$failures" -ge 30 ]; then
        echo "devin-remote: lost the outpost gateway (HTTP $code): $(head -c 300 "$work/err")" >&2
        exit 1
      fi
      sleep 1
      continue ;;
  esac
  verb='' task='' a='' b=''
  read -r verb task a b <"$work/resp" || true
  case "$verb" in
    wait | '') ;;
    exit) ended "$task" ;;
    write)
      path="$(printf %s "$a" | base64 -d)"
      target="$(resolve "$path")"
      echo "execute_tool write_file $task $path"
      : > "$work/out"
      if mkdir -p "$(dirname "$target")" 2>"$work/out" &&
        { if [ "$b" = - ]; then : > "$target"; else printf %s "$b" | base64 -d > "$target"; fi; } 2>>"$work/out"; then
        cat "$target" > "$work/out"
        report "$task" ok 0
      else
        report "$task" error 1
      fi ;;
    run)
      printf %s "$a" | base64 -d > "$work/cmd.sh"
      echo "execute_tool shell $task"
      (cd "$home_dir" && sh "$work/cmd.sh") >"$work/full" 2>&1 </dev/null
      rc=$?
      head -c 65536 "$work/full" > "$work/out"
      if [ "$rc" -eq 0 ]; then report "$task" ok 0; else report "$task" error "$rc"; fi ;;
    *)
      printf 'unknown instruction: %s\n' "$verb" > "$work/out"
      report "${task:-none}" error 2 ;;
  esac
done
