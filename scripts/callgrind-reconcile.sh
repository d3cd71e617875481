#!/usr/bin/env bash
# Instructions per reconcile pass at N held sessions (issue 35), counted by valgrind's callgrind
# (instruction counts are stable on a noisy machine, unlike times). Runs the test-only probe
# `orchestrator::run::probe::one_reconcile_pass` (debug build of the library's unit tests) with
# collection on only inside its one pass: plan, one change applied, the status rows.
#
#   scripts/callgrind-reconcile.sh 1000 10000    # one line per N; the last line is the last N
#   SKIP_BUILD=1 TEST_BIN=target/debug/deps/outposts-HASH scripts/callgrind-reconcile.sh 1000
#
# Needs valgrind. Run it under the shared build lock (it builds, then takes a core for ~a minute
# at 10,000).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "valgrind not found: install it (apt-get install valgrind)" >&2; exit 2; }
[ "$#" -gt 0 ] || set -- 1000 10000
bin=${TEST_BIN:-}
if [ -z "$bin" ]; then
  # Cargo names the unit-test binary it built: "Executable unittests src/lib.rs (target/…)".
  bin=$(cargo test --lib --locked --no-run 2>&1 |
    sed -n 's/.*Executable unittests src\/lib\.rs (\(.*\))$/\1/p' | tail -1) || true
fi
[ -x "$bin" ] || { echo "no unit-test binary: \`cargo test --lib --locked --no-run\` failed here (or pass TEST_BIN)" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for n in "$@"; do
  PROBE_SESSIONS=$n valgrind --tool=callgrind --collect-atstart=no \
    --toggle-collect='*probe*one_pass*' --callgrind-out-file="$out/cg.$n" \
    "$bin" --ignored --exact orchestrator::run::probe::one_reconcile_pass >/dev/null 2>"$out/log.$n" ||
    { echo "valgrind failed at N=$n:" >&2; tail -5 "$out/log.$n" >&2; exit 1; }
  ir=$(awk '/^summary:/ { print $2 }' "$out/cg.$n")
  printf '%s sessions: %s instructions per reconcile (%.1f k per session)\n' \
    "$n" "$(printf "%'d" "$ir" 2>/dev/null || echo "$ir")" "$(awk -v i="$ir" -v n="$n" 'BEGIN { print i / n / 1000 }')"
done
