#!/usr/bin/env bash
# The long chaos run (issue 21): the chaos scenario with the script remote at 10 consecutive
# seeds, more kills and longer gaps than CI. Every seed must end with 0 double remotes and no
# invariant violation. Knobs (environment): SEEDS (10), FIRST_SEED (1), KILLS (40), GAP_MS (1500).
# Usage: scripts/chaos-long.sh
set -euo pipefail
cd "$(dirname "$0")/.."

SEEDS="${SEEDS:-10}"
FIRST_SEED="${FIRST_SEED:-1}"
KILLS="${KILLS:-40}"
GAP_MS="${GAP_MS:-1500}"
FIGURES="$(mktemp -t outposts-chaos-XXXXXX.jsonl)"
LOG="${CHAOS_LOG:-target/chaos-long.log}"
mkdir -p "$(dirname "$LOG")"
: > "$LOG"
echo "figures: $FIGURES   log: $LOG"
cargo test --locked --test it --no-run >>"$LOG" 2>&1

failed=0
for i in $(seq 0 $((SEEDS - 1))); do
  seed=$((FIRST_SEED + i))
  t0=$SECONDS
  if OUTPOSTS_REL_SEED="$seed" OUTPOSTS_REL_CHAOS_KILLS="$KILLS" OUTPOSTS_REL_CHAOS_GAP_MS="$GAP_MS" \
      OUTPOSTS_REL_FIGURES="$FIGURES" OUTPOSTS_TEST_STRICT=1 \
      cargo test --locked --test it rel_chaos:: -- --nocapture >>"$LOG" 2>&1; then
    echo "seed $seed: ok ($((SECONDS - t0)) s)"
  else
    echo "seed $seed: FAILED ($((SECONDS - t0)) s) — see $LOG"
    failed=1
  fi
done
echo "== figures"
grep -h '"test": *"CHAOS"\|"test":"CHAOS"' "$FIGURES" || cat "$FIGURES"
exit "$failed"
