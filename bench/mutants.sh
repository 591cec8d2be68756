#!/usr/bin/env bash
# Benchmarks `bqsuite mutants` (every mutant of the catalogue over every case) on the bundled
# suite with the proposal merged in (every mutant killed: exit 0) and on the bundled suite alone
# (the real release lets some survive: exit 1, which is what it reports, not a failed run),
# beside `bqsuite validate` for scale. Installs hyperfine if missing.
#
#   bench/mutants.sh            # 20 runs each
#   RUNS=2 bench/mutants.sh
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$BENCH_ROOT"

RUNS=${RUNS:-20}
bench_need hyperfine hyperfine || true
bench_build
# The bundled suite alone lets mutants survive: exit 1 is its answer, so it is checked here and
# timed through `|| [ $? = 1 ]`; any other exit fails the run.
code=0
"$BQ" mutants suite >/dev/null || code=$?
[ "$code" = 1 ] || {
    bench_note "bqsuite mutants suite exited $code, not 1 (survivors)"
    exit 1
}
bench_machine
bench_compare target/bench-mutants.md "$RUNS" \
    "bqsuite mutants --proposal" "$BQ mutants suite --proposal proposal" \
    "bqsuite mutants (survivors: exit 1)" "$BQ mutants suite || [ \$? = 1 ]" \
    "bqsuite validate" "$BQ validate suite"
cat target/bench-mutants.md
