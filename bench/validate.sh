#!/usr/bin/env bash
# Benchmarks `bqsuite validate` (full validation including the reference evaluator) on the bundled
# suite, side by side with a re-creation of the old CI check (Python + jsonschema, which does
# less). Installs what it uses (hyperfine; jsonschema into target/bench-venv).
#
#   bench/validate.sh           # 30 runs each
#   RUNS=3 bench/validate.sh
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$BENCH_ROOT"

RUNS=${RUNS:-30}
bench_need hyperfine hyperfine || true
bench_build
commands=("bqsuite validate" "$BQ validate suite")
if python=$(bench_legacy_python); then
    commands+=("legacy python check" "$python bench/legacy/validate_suite.py suite")
fi
bench_machine
bench_compare target/bench-validate.md "$RUNS" "${commands[@]}"
cat target/bench-validate.md
