#!/usr/bin/env bash
# Fleet benchmark (not a test): the orchestrator at internet scale against
# `outposts emulator start --sandboxes simulated` (Daytona sandboxes as records, remotes
# simulated inside the emulator, no process per sandbox), so the orchestrator's own costs show:
#   N = 1,000 and 10,000 held sessions in one orchestrator, and 30,000 across three replicas
#   sharing one outpost's queue. Per run it prints: time until all served, claims/s, idle / peak
#   / held RSS per replica, API calls per session-minute in all and by endpoint (Devin and
#   Daytona, counted by the emulator over STEADY seconds), CPU seconds per session-minute,
#   double claims and double serves, the split between replicas, and log bytes per session;
#   and the emulator's side: its CPU seconds from first session to all served, and the time it
#   took to answer by route over that burst (where a slow run waits), the time one SIGTERM takes
#   to stop each replica, and instructions per reconcile (scripts/callgrind-reconcile.sh, with
#   valgrind; without it, the command that measures them).
#
#   scripts/bench-fleet.sh                          # 1000:1 10000:1 30000:3, 240 s windows
#   RUNS="2000:1" STEADY=120 scripts/bench-fleet.sh  # a quick one
#   SKIP_BUILD=1 scripts/bench-fleet.sh              # reuse target/release/outposts
#   LAUNCHES=128 scripts/bench-fleet.sh               # MAX_PARALLEL_LAUNCHES per replica
#   CALLGRIND=0 RUNS="30000:3" scripts/bench-fleet.sh  # without instructions per reconcile
#
# The steady window defaults to 240 s, one full period of the periodic traffic: each claim is
# renewed once per 240 s (300 s TTL, 60 s margin) and each remote checked every 120 s; a window
# that is not a multiple of that period under- or over-counts. The window starts 30 s after the
# last session was served, when the launch-time checks (1, 5 and 15 s) are over.
# Needs python3 (for reading the emulator's JSON). Instructions per reconcile: see
# scripts/callgrind-reconcile.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
STEADY=${STEADY:-240}
RUNS=${RUNS:-"1000:1 10000:1 30000:3"}
SETTLE=${SETTLE:-30}
root=$(pwd)
bin=${BIN:-$root/target/release/outposts}
if [ "${SKIP_BUILD:-}" != 1 ]; then
  echo "== release build" >&2
  cargo build --release --locked >&2
fi
# The unit-test binary callgrind counts in, found now: each run below moves HOME, where cargo
# and rustup would no longer find their toolchain.
test_bin=""
if [ "${CALLGRIND:-1}" != 0 ] && command -v valgrind >/dev/null; then
  test_bin=$(cargo test --lib --locked --no-run 2>&1 |
    sed -n 's/.*Executable unittests src\/lib\.rs (\(.*\))$/\1/p' | tail -1) || true
fi
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  [ -n "${KEEP:-}" ] && echo "kept $work" >&2 || rm -rf "$work"
}
trap cleanup EXIT

# cpu_seconds peak_kib rss_kib of a pid
usage() {
  local tick
  tick=$(getconf CLK_TCK)
  awk -v t="$tick" '{ sub(/^.*\) /, ""); printf "%.2f ", ($12 + $13) / t }' "/proc/$1/stat"
  awk '/^VmHWM:/ { h = $2 } /^VmRSS:/ { r = $2 } END { print h, r }' "/proc/$1/status"
}

# Running: neither ended nor a zombie waiting to be reaped (`kill -0` succeeds on those).
alive() {
  local st
  st=$(awk '{ sub(/^.*\) /, ""); print $1 }' "/proc/$1/stat" 2>/dev/null) || return 1
  [ -n "$st" ] && [ "$st" != Z ]
}

fleet() { curl -sf "http://127.0.0.1:$port/_emulator/fleet?since=${1:-0}"; }
field() { python3 -c "import json,sys; print(json.load(sys.stdin)$1)"; }

run() {
  local n=$1 r=$2 dir=$work/n$1
  mkdir -p "$dir"
  local cap=$(((n + r - 1) / r))
  # Several replicas: room for a quarter more than an even share, so a fast one cannot take all.
  [ "$r" -gt 1 ] && cap=$((cap + cap / 4))
  echo "== N=$n, $r replica(s), cap $cap each" >&2
  export HOME=$dir XDG_CONFIG_HOME=$dir/.config NO_COLOR=1 OUTPOSTS_NO_KEYRING=1
  "$bin" emulator start --port 0 --json --sandboxes simulated --data-dir "$dir/emu" \
    >"$dir/emu.out" 2>"$dir/emu.log" &
  pids+=($!)
  local emu=$!
  for _ in $(seq 600); do [ -s "$dir/emu.out" ] && break; sleep 0.1; done
  port=$(field "['port']" <"$dir/emu.out")
  eval "$("$bin" emulator env --port "$port")"
  "$bin" snapshot build >/dev/null 2>"$dir/snapshot.log"
  local orch=()
  for i in $(seq "$r"); do
    mkdir -p "$dir/r$i"
    STATE_DIR=$dir/r$i/state MAX_CONCURRENT_SESSIONS=$cap ${LAUNCHES:+MAX_PARALLEL_LAUNCHES=$LAUNCHES} \
      "$bin" orchestrator run --provider daytona >/dev/null 2>"$dir/r$i.log" &
    pids+=($!)
    orch+=($!)
  done
  for i in $(seq "$r"); do
    for _ in $(seq 300); do grep -q "Ctrl-C to stop" "$dir/r$i.log" && break; sleep 0.1; done
  done
  sleep 1
  local idle=() rcpu0=0 rcpu1=0
  for p in "${orch[@]}"; do idle+=("$(usage "$p" | awk '{ print $3 }')"); done
  for p in "${orch[@]}"; do rcpu0=$(awk -v a="$rcpu0" -v b="$(usage "$p" | awk '{ print $1 }')" 'BEGIN { print a + b }'); done
  local t0 left k seqb emucpu0
  seqb=$(fleet 999999999 | field "['last_seq']")
  emucpu0=$(usage "$emu" | awk '{ print $1 }')
  t0=$(date +%s.%N)
  left=$n
  while [ "$left" -gt 0 ]; do
    k=$((left < 500 ? left : 500))
    "$bin" emulator session new --port "$port" --count "$k" >/dev/null
    left=$((left - k))
  done
  local served=0 said=0
  while [ "$served" -lt "$n" ]; do
    sleep 2
    served=$(fleet 999999999 | field "['served']")
    if [ $(( $(date +%s) - said )) -ge 30 ]; then
      echo "  $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }') s: served $served of $n;" \
        "claims $(fleet 999999999 | field "['claims_by_acceptor']");" \
        "CPU s emulator $(usage "$emu" | awk '{ print $1 }')," \
        "replicas $(for p in "${orch[@]}"; do usage "$p" | awk '{ printf "%s ", $1 }'; done)" >&2
      said=$(date +%s)
    fi
  done
  local t1 all_served emucpu1
  t1=$(date +%s.%N)
  emucpu1=$(usage "$emu" | awk '{ print $1 }')
  for p in "${orch[@]}"; do rcpu1=$(awk -v a="$rcpu1" -v b="$(usage "$p" | awk '{ print $1 }')" 'BEGIN { print a + b }'); done
  fleet "$seqb" >"$dir/burst.json"
  all_served=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
  local peak=()
  for p in "${orch[@]}"; do peak+=("$(usage "$p" | awk '{ print $2 }')"); done
  sleep "$SETTLE"
  local seq0 cpu0=0 cpu1=0
  seq0=$(fleet 999999999 | field "['last_seq']")
  for p in "${orch[@]}"; do cpu0=$(awk -v a="$cpu0" -v b="$(usage "$p" | awk '{ print $1 }')" 'BEGIN { print a + b }'); done
  echo "  steady window ${STEADY}s" >&2
  sleep "$STEADY"
  for p in "${orch[@]}"; do cpu1=$(awk -v a="$cpu1" -v b="$(usage "$p" | awk '{ print $1 }')" 'BEGIN { print a + b }'); done
  local held=() hwm=()
  for p in "${orch[@]}"; do
    held+=("$(usage "$p" | awk '{ print $3 }')")
    hwm+=("$(usage "$p" | awk '{ print $2 }')")
  done
  fleet "$seq0" >"$dir/fleet.json"
  local logbytes
  logbytes=$(cat "$dir"/r*.log | wc -c)
  local emuhwm
  emuhwm=$(usage "$emu" | awk '{ print $2 }')
  python3 - "$dir/fleet.json" "$n" "$r" "$STEADY" "$all_served" "$cpu0" "$cpu1" "$logbytes" \
    "${idle[*]}" "${peak[*]}" "${held[*]}" "${hwm[*]}" "$dir/burst.json" \
    "$(awk -v a="$emucpu0" -v b="$emucpu1" 'BEGIN { print b - a }')" \
    "$(awk -v a="$rcpu0" -v b="$rcpu1" 'BEGIN { print b - a }')" "$emuhwm" <<'EOF'
import json, sys
f = json.load(open(sys.argv[1]))
n, r, steady = int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
served_s, cpu0, cpu1, logbytes = float(sys.argv[5]), float(sys.argv[6]), float(sys.argv[7]), int(sys.argv[8])
idle, peak, held, hwm = ([int(x) / 1024 for x in a.split()] for a in sys.argv[9:13])
minutes = n * steady / 60
calls = sum(f["calls_by_route"].values())
span = ((f["last_claim_ms"] or 0) - (f["first_claim_ms"] or 0)) / 1000 or float("nan")
mib = lambda xs: " / ".join(f"{x:.1f}" for x in xs)
print(f"N = {n:,} sessions, {r} replica(s) (simulated Daytona sandboxes)")
print(f"  all served after                {served_s:.1f} s ({f['served']:,} served)")
print(f"  claims/s                        {n / span:.0f} (first to last claim {span:.1f} s)")
print(f"  RSS idle / peak / held (MiB)    {mib(idle)} | {mib(peak)} | {mib(held)} (VmHWM at the end {mib(hwm)})")
print(f"  RSS per held session            {1024 * (max(hwm) - min(idle)) / (n / r):.1f} KiB (peak - idle, per replica share)")
print(f"  API calls per session-minute    {calls / minutes:.3f} ({calls:,} calls in {steady:.0f} s)")
for k, v in sorted(f["calls_by_route"].items(), key=lambda kv: -kv[1]):
    print(f"    {k:<58} {v / minutes:.3f}")
print(f"  CPU per session-minute          {1000 * (cpu1 - cpu0) / minutes:.3f} ms ({cpu1 - cpu0:.1f} CPU s in the window, all replicas)")
print(f"  log bytes per session           {logbytes / n:.0f}")
print(f"  double claims / double serves   {f['double_claims']} / {f['double_serves']} (handovers after a release: {f.get('handovers', 0)})")
if r > 1:
    split = sorted(f["claims_by_acceptor"].values())
    print(f"  claims per replica              {split} (max/min {split[-1] / max(split[0], 1):.2f})")
    lost = [f.get("conflicts_by_acceptor", {}).get(a, 0) for a, _ in sorted(f["claims_by_acceptor"].items(), key=lambda kv: kv[1])]
    print(f"  claim races lost (409), same order {lost} (over the whole run)")
b = json.load(open(sys.argv[13]))
emu_cpu, orch_cpu, emu_hwm = float(sys.argv[14]), float(sys.argv[15]), int(sys.argv[16]) / 1024
print(f"  burst CPU s (first session to all served): emulator {emu_cpu:.1f}, replicas {orch_cpu:.1f}; emulator peak RSS {emu_hwm:.0f} MiB")
ms = b.get("ms_by_route", {})
total = sum(ms.values()) or float("nan")
print("  emulator answer time in the burst, by route (calls, ms per call, share of all answer time):")
for k, v in sorted(ms.items(), key=lambda kv: -kv[1])[:10]:
    c = b["calls_by_route"].get(k, 0)
    print(f"    {k:<58} {c:>8,} {v / max(c, 1):8.2f} ms {100 * v / total:5.1f}%")
EOF
  # One SIGTERM per replica, the emulator still up: the graceful stop README promises (exit 0
  # within 30 s, sessions left running), timed.
  local t_term
  t_term=$(date +%s.%N)
  for p in "${orch[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  for p in "${orch[@]}"; do
    for _ in $(seq 600); do alive "$p" || break; sleep 0.1; done
    if alive "$p"; then
      echo "  one SIGTERM                     still running after 60 s (killed)"
      kill -KILL "$p" 2>/dev/null || true
    else
      local code=0
      wait "$p" || code=$?
      echo "  one SIGTERM                     exit $code after $(awk -v a="$t_term" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"
    fi
  done
  if [ "${CALLGRIND:-1}" = 0 ]; then
    echo "  instructions per reconcile      not measured (CALLGRIND=0): scripts/callgrind-reconcile.sh $n"
  elif command -v valgrind >/dev/null; then
    # Never an empty field: a failed count says why and how to run it again.
    local cg
    cg=$(TEST_BIN=$test_bin scripts/callgrind-reconcile.sh "$n" 2>&1 | grep -v '^[[:space:]]*$' | tail -1 || true)
    case "$cg" in
      *"instructions per reconcile"*) echo "  instructions per reconcile      ${cg#*: }" ;;
      *) echo "  instructions per reconcile      not measured (${cg:-no output}): scripts/callgrind-reconcile.sh $n" ;;
    esac
  else
    echo "  instructions per reconcile      not measured (no valgrind): scripts/callgrind-reconcile.sh $n"
  fi
  kill "$emu" 2>/dev/null || true
  wait 2>/dev/null || true
  pids=()
}

echo "machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo), load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
for spec in $RUNS; do
  run "${spec%%:*}" "${spec##*:}"
done
