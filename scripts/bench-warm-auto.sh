#!/usr/bin/env bash
# Issue 34's warm-capacity benchmark on the emulator: sessions arrive as a Poisson stream
# (`emulator session new --rate`), each ends LIFE seconds after it was enqueued, and the
# orchestrator serves them cold (WARM_IDLE=0), with WARM_IDLE=auto, and from a static warm
# capacity sized for the peak (WARM_IDLE=$STATIC). Sized for the peak, by default
# (STATIC=peak): the 99th percentile of a Poisson count of mean rate × create seconds — the
# arrivals during one create — where the create seconds are those the auto run measured on
# that provider (`orchestrator status --json` .warm.create_seconds: request to ready, remote
# pre-installed), or CREATE when auto did not run. Emulated Daytona sandboxes take CREATE to
# start (`emulator start --daytona-create-delay`), emulated CoreWeave ones stay CREATING for
# CREATE (`create_ms` in `/_emulator/coreweave/settings`); local ones take what they take on
# this host.
# One Markdown table row per run: claim→served p50/p95 (the emulator's claim and connect
# records), the share of new sessions served warm and the idle warm sandbox-seconds (the warm
# capacity's cost), both from `orchestrator status --json` as the stream ends. THEN=RATE:FOR
# appends a second phase to the stream (demand that falls after the peak, where auto is meant
# to follow it down); the static capacity stays sized for the first phase, the peak.
#
#   scripts/bench-warm-auto.sh                              # 1/s for 5 min, 3 s creates
#   FOR=2m PROVIDERS=daytona scripts/bench-warm-auto.sh     # shorter, one provider
#   FOR=2m PROVIDERS=coreweave scripts/bench-warm-auto.sh   # CoreWeave (receipt hand-over)
#   FOR=2m THEN=6/m:8m scripts/bench-warm-auto.sh            # the peak, then a lull
#   BIN=target/release/outposts OUT=/tmp/w scripts/bench-warm-auto.sh
#
# Needs bubblewrap (sandboxes), curl, jq and python3; builds nothing (BIN defaults to the
# debug binary, `cargo build` first).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=$(realpath "${BIN:-target/debug/outposts}")
RATE=${RATE:-1/s}
FOR=${FOR:-5m}
THEN=${THEN:-}
LIFE=${LIFE:-10}
CREATE=${CREATE:-3s}
STATIC=${STATIC:-peak}
MODES=${MODES:-"cold auto static"}
PROVIDERS=${PROVIDERS:-"daytona local"}
if [ -n "${OUT:-}" ]; then
  out=$OUT
  mkdir -p "$out"
else
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
fi

# The smallest pool holding the 99th percentile of Poisson(rate × create seconds).
peak_pool() {
  python3 - "$RATE" "$1" <<'PY'
import math, sys
n, per = sys.argv[1].split("/")
rate = float(n) / {"s": 1, "m": 60, "h": 3600}[per.strip()[-1]]
m = rate * float(sys.argv[2])
k, p = 0, math.exp(-m)
cdf = p
while cdf < 0.99:
    k += 1
    p *= m / k
    cdf += p
print(k)
PY
}

# Create seconds the auto run measured on $1, else CREATE.
measured_create() {
  local f=$out/$1-auto/status.json c=""
  [ -f "$f" ] && c=$(jq -r '.warm.create_seconds // empty' "$f")
  echo "${c:-${CREATE%s}}"
}

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# p50 and p95 of claim→connect (seconds) of each session's first claim.
latency() {
  curl -fsS "http://127.0.0.1:$1/_emulator/history" | jq -r '
    (if type == "array" then . else .history end)
    | map(select(.generation == 1 and (.event == "claim" or .event == "connect")))
    | group_by(.session_id)
    | map({c: (map(select(.event == "claim")) | .[0].at_ms), s: (map(select(.event == "connect")) | .[0].at_ms)})
    | map(select(.c != null and .s != null) | (.s - .c) / 1000) | sort
    | if length == 0 then "- / -" else
        "\(.[(length * 0.5 | floor)] * 100 | round / 100) s / \(.[(length * 0.95 | floor)] * 100 | round / 100) s (n=\(length))"
      end'
}

run() {
  local provider=$1 mode=$2 dir port idle emu orch
  dir=$out/$provider-$mode
  rm -rf "$dir" && mkdir -p "$dir/home"
  port=$(free_port)
  case $mode in
    cold) idle=0 ;;
    auto) idle=auto ;;
    static)
      idle=$STATIC
      if [ "$STATIC" = peak ]; then
        idle=$(peak_pool "$(measured_create "$provider")")
        echo "static $provider: the 99th percentile of Poisson($RATE × $(measured_create "$provider") s) = $idle" >&2
      fi
      ;;
  esac
  (
    export HOME=$dir/home XDG_CONFIG_HOME=$dir/home/.config XDG_DATA_HOME=$dir/home/.local/share
    export STATE_DIR=$dir/state OUTPOSTS_NO_KEYRING=1 OUTPOSTS_LOCAL_ROOT=$dir/sandboxes
    export OUTPOSTS_EMULATOR_PORT=$port
    "$BIN" emulator start --port "$port" --data-dir "$dir/emu" --sweep-delay 1s \
      --daytona-create-delay "$CREATE" >"$dir/emulator.out" 2>"$dir/emulator.err" &
    emu=$!
    for _ in $(seq 100); do "$BIN" emulator env >/dev/null 2>&1 && break; sleep 0.2; done
    eval "$("$BIN" emulator env)"
    [ "$provider" = daytona ] && "$BIN" snapshot build >/dev/null 2>&1
    source_args=()
    if [ "$provider" = coreweave ]; then
      curl -fsS -X PUT -H 'content-type: application/json' \
        -d "{\"create_ms\": $(python3 -c "print(round(float('${CREATE%s}') * 1000))")}" \
        "http://127.0.0.1:$port/_emulator/coreweave/settings" >/dev/null
      source_args=(--image public.ecr.aws/e0h8a4b6/devin-cli:stable)
    fi
    WARM_IDLE=$idle MAX_CONCURRENT_SESSIONS=60 RECONCILE_INTERVAL=5 JANITOR_INTERVAL=30 \
      "$BIN" -v orchestrator run --provider "$provider" "${source_args[@]}" >/dev/null \
      2>"$dir/orchestrator.log" &
    orch=$!
    # Let a warm capacity fill before the stream (auto starts from nothing either way).
    sleep 8
    {
      "$BIN" emulator session new --rate "$RATE" --for "$FOR" --seed 34 2>/dev/null
      if [ -n "$THEN" ]; then
        "$BIN" emulator session new --rate "${THEN%%:*}" --for "${THEN#*:}" --seed 35 2>/dev/null
      fi
    } |
      while read -r id; do
        (sleep "$LIFE"; "$BIN" emulator session terminate "$id" >/dev/null 2>&1 || true) &
      done
    "$BIN" --json orchestrator status >"$dir/status.json" 2>/dev/null || true
    sleep "$((LIFE + 3))"
    lat=$(latency "$port")
    kill -INT "$orch"; wait "$orch" || true
    kill -INT "$emu"; wait "$emu" || true
    jq -r --arg p "$provider" --arg m "$mode ($idle)" --arg lat "$lat" '
      .warm as $w
      | ($w.hits // 0) as $h | ($w.misses // 0) as $x
      | "| \($p) | \($m) | \($lat) | \(if ($h + $x) > 0 then ($h * 100 / ($h + $x) | round) else 0 end) % (\($h) of \($h + $x)) | \(($w.idle_seconds // 0) | round) | \(($w.create_seconds // 0) * 100 | round / 100) s |"' \
      "$dir/status.json"
  )
}

echo "Host: $(uname -m), $(nproc) CPUs, $(basename "$BIN") $("$BIN" --version | cut -d' ' -f2); Poisson $RATE for $FOR${THEN:+ then ${THEN%%:*} for ${THEN#*:}}, sessions live ${LIFE}s, Daytona/CoreWeave create ${CREATE}"
echo
echo "| provider | WARM_IDLE | claim→served p50 / p95 | served warm | idle warm sandbox-seconds | last warm create |"
echo "|---|---|---|---|---|---|"
for provider in $PROVIDERS; do
  for mode in $MODES; do
    echo "== $provider $mode" >&2
    run "$provider" "$mode" || echo "| $provider | $mode | failed | | | |"
  done
done
