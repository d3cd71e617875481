#!/usr/bin/env bash
# The long reliability runs (nightly size): T1 with 100 kills per failpoint, the janitor property
# test with 10,000 rounds, larger T2/T3/T11/T16 runs, and a soak (1 hour by default). Prints
# every measured figure at the end. Knobs (environment):
#   T1_KILLS (100)  T12_ROUNDS (10000)  SOAK_SECS (3600)  SCALE (4: multiplies session counts)
#   OUTPOSTS_REL_SEED to replay a failing seed.
# Usage: scripts/reliability-long.sh [--no-soak]
set -euo pipefail
cd "$(dirname "$0")/.."

T1_KILLS="${T1_KILLS:-100}"
T12_ROUNDS="${T12_ROUNDS:-10000}"
SOAK_SECS="${SOAK_SECS:-3600}"
SCALE="${SCALE:-4}"
SOAK=1
[ "${1:-}" = "--no-soak" ] && SOAK=0

FIGURES="$(mktemp -t outposts-reliability-XXXXXX.jsonl)"
export OUTPOSTS_REL_FIGURES="$FIGURES"
LOG="${RELIABILITY_LOG:-target/reliability-long.log}"
mkdir -p "$(dirname "$LOG")"
: > "$LOG"
echo "figures: $FIGURES   log: $LOG"

cargo test --test it --no-run >>"$LOG" 2>&1

run() {
  local name="$1"; shift
  local t0=$SECONDS
  echo "== $name" | tee -a "$LOG"
  if "$@" >>"$LOG" 2>&1; then
    echo "   ok ($((SECONDS - t0)) s)"
  else
    echo "   FAILED ($((SECONDS - t0)) s) — see $LOG (the failing seed and fault scripts are printed there)"
    FAILED=1
  fi
}
FAILED=0

run "T1: ${T1_KILLS} kills per failpoint" env OUTPOSTS_REL_T1_KILLS="$T1_KILLS" \
  cargo test --test it rel_crash::t1 -- --nocapture --test-threads 2
run "T12: ${T12_ROUNDS} janitor rounds" env OUTPOSTS_REL_T12_ROUNDS="$T12_ROUNDS" OUTPOSTS_REL_T12_REAL_ROUNDS=$((4 * SCALE)) \
  cargo test --test it rel_janitor -- --nocapture --test-threads 2
run "T2/T7/T11/T17 at ${SCALE}x" env OUTPOSTS_REL_T2_SESSIONS=$((40 * SCALE)) OUTPOSTS_REL_T11_SESSIONS=$((30 * SCALE)) \
  OUTPOSTS_REL_T7_SESSIONS=$((16 * SCALE)) OUTPOSTS_REL_T17_SESSIONS=$((20 * SCALE)) \
  cargo test --test it rel_faults -- --nocapture --test-threads 2
run "T3/T16 at ${SCALE}x" env OUTPOSTS_REL_T3_SESSIONS=$((200 * SCALE / 2)) OUTPOSTS_REL_T16_SESSIONS=$((40 * SCALE)) \
  OUTPOSTS_REL_T16_HOLE_SECS=90 cargo test --test it rel_scale -- --nocapture --test-threads 1
run "T5/T6/T15 at ${SCALE}x" env OUTPOSTS_REL_T5_RESTARTS=$((10 * SCALE)) OUTPOSTS_REL_T6_KILLS=$((20 * SCALE)) \
  OUTPOSTS_REL_T15_RUNS=$((3 * SCALE)) cargo test --test it rel_restart -- --nocapture --test-threads 2
if [ "$SOAK" = 1 ]; then
  run "soak: ${SOAK_SECS} s" env OUTPOSTS_REL_SOAK_SECS="$SOAK_SECS" \
    cargo test --test it rel_soak -- --ignored --nocapture
fi

echo
echo "Figures:"
python3 - "$FIGURES" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
width = max((len(r["test"]) + len(r["key"]) for r in rows), default=0) + 2
for r in rows:
    print(f'  {(r["test"] + " " + r["key"]).ljust(width)} {r["value"]}')
PY
exit "$FAILED"
