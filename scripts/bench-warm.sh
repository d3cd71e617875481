#!/usr/bin/env bash
# Issue 27's matrix on the emulator (emulated Daytona, bubblewrap sandboxes, release build):
# remote downloads per launch, claimed→served and the share of creates a warm pool served, with
# and without a Daytona warm pool (POOL started sandboxes, filled before the burst) and with and
# without the remote baked into the snapshot, at N = 20 and N = 200 sessions enqueued at once.
# Prints one Markdown table row per run; the four cells of a round run back to back, so a load
# change on a shared host spreads over all of them.
#
#   scripts/bench-warm.sh                              # N=20 three rounds, N=200 one, pool 20
#   RUNS20=1 RUNS200=0 scripts/bench-warm.sh           # a quick one
#   OUT=/tmp/warm scripts/bench-warm.sh                # keep every run's full output there
#
# Needs bubblewrap. One run is `cargo bench --bench orchestrator -- --sessions N --steady 0
# --sleepers 0 [--warm-pool POOL] [--bake]`; its full report has more figures than the table.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS20=${RUNS20:-3}
RUNS200=${RUNS200:-1}
POOL=${POOL:-20}
if [ -n "${OUT:-}" ]; then
  out=$OUT
  mkdir -p "$out"
else
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
fi

echo "== building the benchmark (release profile)" >&2
cargo bench --locked --bench orchestrator --no-run >&2

# The value after a label the benchmark printed.
pick() { grep -m1 -F "$2" "$1" | sed "s|^.*$2 *||"; }

echo "Host: $(uname -m), $(nproc) CPUs, $(rustc --version | cut -d' ' -f1-2), release build"
echo
echo "| N | warm pool | baked remote | round | load avg (1 min) | all served | claimed→served p50 / p95 | remote downloads per launch | creates per launch | served warm (emulator) | counted warm (orchestrator) |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for n in 20 200; do
  runs=RUNS$n
  for round in $(seq "${!runs}"); do
    for bake in no yes; do
      for pool in 0 "$POOL"; do
        args=(--sessions "$n" --steady 0 --sleepers 0)
        [ "$pool" -gt 0 ] && args+=(--warm-pool "$pool")
        [ "$bake" = yes ] && args+=(--bake)
        f=$out/n$n-pool$pool-bake$bake-$round.txt
        load=$(cut -d' ' -f1 /proc/loadavg)
        echo "== ${args[*]} (round $round, load $load)" >&2
        if ! cargo bench --locked --bench orchestrator -- "${args[@]}" >"$f" 2>"$f.err"; then
          echo "run failed: ${args[*]}" >&2
          tail -5 "$f.err" >&2
          echo "| $n | $pool | $bake | $round | $load | failed | | | | | |"
          continue
        fi
        echo "| $n | $pool | $bake | $round | $load | $(pick "$f" 'all served after')" \
          "| $(pick "$f" 'claimed→served p50 / p95') | $(pick "$f" 'remote downloads per launch' | cut -d' ' -f1)" \
          "| $(pick "$f" 'sandbox creates per launch') | $(pick "$f" 'creates served warm (emulator)' | sed 's/;.*/)/')" \
          "| $(pick "$f" 'creates counted warm (orchestrator)') |"
      done
    done
  done
done
