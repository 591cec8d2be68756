#!/usr/bin/env bash
# Benchmarks `bqsuite run` on the SBP suite through the project's own adapter (the SBP model
# speaking the adapter protocol: every case, the fuzz cases' 50,000 decodes included, one JSON
# line each way), beside `bqsuite validate` of the same suite (the model alone, no protocol), and
# the example Python adapter for scale. Installs hyperfine if missing.
#
#   bench/run.sh            # 20 runs each
#   RUNS=2 bench/run.sh
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$BENCH_ROOT"

RUNS=${RUNS:-20}
bench_need hyperfine hyperfine || true
bench_need python3 python3
bench_build
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# Each run must pass every case, or its time means nothing.
"$BQ" run sbp-suite --out "$out/r.json" -- "$BQ" adapter sbp-v1 >/dev/null
"$BQ" run sbp-suite --out "$out/p.json" -- python3 examples/adapters/sbp_adapter.py >/dev/null
bench_machine
bench_compare target/bench-run.md "$RUNS" \
    "bqsuite run sbp-suite (bundled adapter)" "$BQ run sbp-suite --out $out/r.json -- $BQ adapter sbp-v1" \
    "bqsuite run sbp-suite (Python example adapter)" "$BQ run sbp-suite --out $out/p.json -- python3 examples/adapters/sbp_adapter.py" \
    "bqsuite validate sbp-suite" "$BQ validate sbp-suite"
cat target/bench-run.md
