#!/usr/bin/env bash
# Runs every benchmark script of bench/ at a small size, so that none of them rots: each must
# still install what it uses, build, generate its data, pass its own checks and time its
# commands. The figures of such a run mean nothing; the run fails when any script fails.
# Builds the release-profile binary once; runs no test. CI runs it on every push.
#
#   bash bench/ci.sh
set -uo pipefail
cd "$(dirname "$0")/.."
# The release profile builds in a fraction of the dist profile's time, and a smoke run's figures
# are not compared with anything.
export BENCH_CI=1 RUNS=1 BENCH_PROFILE=release
# script and SIZE_MB: the release and fetch suites are 2 MB, the amplification fixtures 0.5 MB.
scripts=(
    "validate.sh -"
    "mutants.sh -"
    "run.sh -"
    "sync.sh -"
    "release.sh 2"
    "fetch.sh 2"
    "amplification.sh 0.5"
)
cargo build --release --locked --quiet || exit 2
failed=()
log=$(mktemp -d "${TMPDIR:-/tmp}/bqsuite-bench-ci.XXXXXX")
trap 'rm -rf "$log"' EXIT
for entry in "${scripts[@]}"; do
    read -r script size <<<"$entry"
    start=$(date +%s%N)
    if [ "$size" = - ]; then
        env BENCH_DIR="$log/work-$script" bash "bench/$script" >"$log/$script.log" 2>&1
    else
        env SIZE_MB="$size" BENCH_DIR="$log/work-$script" bash "bench/$script" >"$log/$script.log" 2>&1
    fi
    status=$?
    secs=$(awk -v ns=$(($(date +%s%N) - start)) 'BEGIN { printf "%.1f", ns / 1e9 }')
    if [ "$status" = 0 ]; then
        printf 'ok     bench/%s (%s s)\n' "$script" "$secs"
        grep '^bench: ' "$log/$script.log" | sed 's/^/         /'
    else
        printf 'FAILED bench/%s (exit %s, %s s):\n' "$script" "$status" "$secs"
        tail -n 30 "$log/$script.log" | sed 's/^/  | /'
        failed+=("$script")
    fi
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "bench/ci.sh: ${#failed[@]} of ${#scripts[@]} benchmark scripts failed: ${failed[*]}"
    exit 1
fi
echo "bench/ci.sh: all ${#scripts[@]} benchmark scripts run"
