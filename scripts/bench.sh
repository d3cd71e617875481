#!/usr/bin/env bash
# Every benchmark in one command, then a summary:
#   binary size and `outposts --version` start-up time (release build),
#   the orchestrator as its own process against `outposts emulator` (emulated Daytona, bubblewrap
#   sandboxes) at 20 and 200 sessions — execs and calls per launch, claim→served, suspend→stopped,
#   resume→served, API calls per session per minute over STEADY seconds, CPU, RSS — and 1,000
#   sessions held for the RSS figure,
#   snapshot-name hashing throughput.
#
#   scripts/bench.sh                      # the full run (about 35 minutes after the build)
#   STEADY=60 BIG=200 scripts/bench.sh    # a quick one
#
# Needs bubblewrap (apt-get install bubblewrap). Start-up uses hyperfine when installed
# (apt-get install hyperfine), else a timed loop. STEADY defaults to 600 s because steady-state
# traffic is periodic: each remote's liveness check runs every 120 s and each claim is renewed
# about every 4 minutes; a shorter window under- or over-counts.
set -euo pipefail
cd "$(dirname "$0")/.."
STEADY=${STEADY:-600}
BIG=${BIG:-1000}
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

for n in 20 200; do
  echo "== $n sessions on emulated Daytona, ${STEADY}s steady window" >&2
  cargo bench --locked --bench orchestrator -- --sessions "$n" --steady "$STEADY" --sleepers 20 \
    | tee "$out/n$n.txt" >&2
done
echo "== $BIG sessions held (RSS)" >&2
cargo bench --locked --bench orchestrator -- --sessions "$BIG" --steady 60 --sleepers 0 \
  | tee "$out/big.txt" >&2

echo "== snapshot name hashing" >&2
cargo bench --locked --bench hashing | tee "$out/hashing.txt" >&2

# The value after a label printed by the benches.
pick() { grep -m1 -F "$2" "$out/$1" | sed "s|^.*$2 *||"; }
cat <<EOF

Summary ($(uname -m), $(nproc) CPUs, $(rustc --version | cut -d' ' -f1-2))
  binary size                         $size bytes ($(awk '{ printf "%.1f MiB", $1 / 1048576 }' <<<"$size"))
  outposts --version start-up         $startup
  toolbox execs per launch            $(pick n200.txt 'toolbox execs per launch')
  API calls per launch                $(pick n200.txt 'API calls per launch')
  claimed→served p50 / p95, 20        $(pick n20.txt 'claimed→served p50 / p95')
  claimed→served p50 / p95, 200       $(pick n200.txt 'claimed→served p50 / p95')
  suspend→stopped p50 / p95, 20       $(pick n20.txt 'suspend→stopped p50 / p95')
  resume→served p50 / p95, 20         $(pick n20.txt 'resume→served p50 / p95')
  calls/session/min, 20               $(pick n20.txt 'API calls per session per minute') (${STEADY}s window)
  calls/session/min, 200              $(pick n200.txt 'API calls per session per minute') (${STEADY}s window)
  CPU seconds in the window, 200      $(pick n200.txt 'CPU seconds in the steady window')
  orchestrator peak RSS, 20 / 200     $(pick n20.txt 'orchestrator peak RSS') / $(pick n200.txt 'orchestrator peak RSS')
  orchestrator peak RSS, $BIG held    $(pick big.txt 'orchestrator peak RSS')
  snapshot name, embedded Dockerfile  $(grep -m1 'embedded Dockerfile' "$out/hashing.txt" | awk '{ print $(NF-3), "names/s" }')
  snapshot name, 16 MiB definition    $(grep -m1 '16 MiB' "$out/hashing.txt" | awk '{ print $(NF-1), "MiB/s" }')
  sandbox names                       $(grep -m1 'sandbox names' "$out/hashing.txt" | awk '{ print $(NF-1), "names/s" }')
EOF
