#!/usr/bin/env bash
# Every benchmark in one command, then a summary:
#   binary size and `outposts --version` start-up time (release build),
#   claim latency p50/p99 of lone sessions after enqueue (emulator),
#   SESSIONS concurrent sessions: peak RSS, CPU, API calls per session per minute (emulator),
#   snapshot-name hashing throughput.
#
#   scripts/bench.sh                      # the full run (about 10 minutes after the build)
#   SESSIONS=200 STEADY=10 scripts/bench.sh
#
# Start-up uses hyperfine when installed (apt-get install hyperfine), else a timed loop.
# STEADY defaults to 300 s because steady-state traffic is periodic: each remote's liveness check
# runs every 120 s and each claim is renewed about every 4 minutes; a shorter window under-counts.
set -euo pipefail
cd "$(dirname "$0")/.."
SESSIONS=${SESSIONS:-1000}
STEADY=${STEADY:-300}
LATENCY_SESSIONS=${LATENCY_SESSIONS:-100}
RUNS=${RUNS:-200}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "== release build (LTO, one codegen unit, stripped)" >&2
cargo build --release --locked >&2
bin=target/release/outposts
size=$(stat -c %s "$bin")

echo "== start-up: $bin --version ($RUNS runs)" >&2
if command -v hyperfine >/dev/null; then
  hyperfine -N --warmup 10 --runs "$RUNS" --export-csv "$out/startup.csv" "$bin --version" >&2
  # command,mean,stddev,median,user,system,min,max (seconds)
  startup=$(awk -F, 'NR == 2 { printf "mean %.2f ms, median %.2f ms, min %.2f ms (hyperfine, %d runs)",
    $2 * 1000, $4 * 1000, $7 * 1000, runs }' runs="$RUNS" "$out/startup.csv")
else
  for _ in 1 2 3 4 5 6 7 8 9 10; do "$bin" --version >/dev/null; done
  start=$(date +%s%N)
  for _ in $(seq "$RUNS"); do "$bin" --version >/dev/null; done
  end=$(date +%s%N)
  startup=$(awk '{ printf "mean %.2f ms (shell loop, %d runs; includes fork/exec)", ($2 - $1) / $3 / 1e6, $3 }' \
    <<<"$start $end $RUNS")
fi

echo "== claim latency: $LATENCY_SESSIONS sessions, one every 100 ms" >&2
cargo bench --locked --bench orchestrator -- --sessions "$LATENCY_SESSIONS" --interval-ms 100 \
  --steady 5 | tee "$out/latency.txt" >&2

echo "== $SESSIONS concurrent sessions, ${STEADY}s steady state" >&2
cargo bench --locked --bench orchestrator -- --sessions "$SESSIONS" --steady "$STEADY" \
  | tee "$out/scale.txt" >&2

echo "== snapshot name hashing" >&2
cargo bench --locked --bench hashing | tee "$out/hashing.txt" >&2

# The value after a label printed by the benches.
pick() { grep -m1 -F "$2" "$out/$1" | sed "s|^.*$2 *||"; }
cat <<EOF

Summary ($(uname -m), $(nproc) CPUs, $(rustc --version | cut -d' ' -f1-2))
  binary size                         $size bytes ($(awk '{ printf "%.1f MiB", $1 / 1048576 }' <<<"$size"))
  outposts --version start-up         $startup
  claim latency p50 / p99, lone       $(pick latency.txt 'claim latency p50 / p99')
  $SESSIONS sessions: all claimed after    $(pick scale.txt 'all claimed after')
  $SESSIONS sessions: claim p50 / p99      $(pick scale.txt 'claim latency p50 / p99') (burst)
  API calls per session per minute    $(pick scale.txt 'API calls per session per minute')
  CPU seconds in ${STEADY}s steady state     $(pick scale.txt 'CPU seconds in the steady window')
  peak RSS (incl. emulator)           $(pick scale.txt 'peak RSS (process, incl. emulator)')
  snapshot name, embedded Dockerfile  $(grep -m1 'embedded Dockerfile' "$out/hashing.txt" | awk '{ print $(NF-3), "names/s" }')
  snapshot name, 16 MiB definition    $(grep -m1 '16 MiB' "$out/hashing.txt" | awk '{ print $(NF-1), "MiB/s" }')
  sandbox names                       $(grep -m1 'sandbox names' "$out/hashing.txt" | awk '{ print $(NF-1), "names/s" }')
EOF
