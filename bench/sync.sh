#!/usr/bin/env bash
# Benchmarks `bqsuite sync --check` over a workspace shaped like the real one (the 25 targets of
# sync-targets.txt, every copy vendored and in sync: the every-commit case), side by side with
# reading every byte of the workspace once (`find | xargs cat`, the floor: a check must read each
# byte at least once, and should cost no more) and with a re-creation of the old sync script's
# `diff -q` / `diff -qr` loop over the same workspace.
# Generates its data; installs hyperfine (and findutils) when missing.
#
#   bench/sync.sh               # 50 runs each
#   RUNS=3 bench/sync.sh
#   BEFORE=/path/to/old/bqsuite bench/sync.sh   # also times an earlier build, for a before/after
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$BENCH_ROOT"

RUNS=${RUNS:-50}
TARGETS=sync-targets.txt
bench_need hyperfine hyperfine || true
floor=1
bench_need xargs findutils || floor=0
bench_build

WORK=$(mktemp -d "${TMPDIR:-/tmp}/bqsuite-bench-sync.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
grep -v '^[[:space:]]*#' "$TARGETS" | sed 's/#.*//' | while read -r target; do
    [ -n "$target" ] || continue
    mkdir -p "$WORK/$target"
    cp -R suite/CONFORMANCE_VERSION suite/manifest.json suite/schema suite/fixtures "$WORK/$target/"
done
bench_note "$(grep -cv '^[[:space:]]*\(#\|$\)' "$TARGETS") targets in $WORK"
# bqsuite and the old loop must find the workspace in sync before they are timed.
"$BQ" sync --check --suite suite --workspace "$WORK" --targets "$TARGETS" >/dev/null
bash bench/legacy/sync_check.sh suite "$WORK" "$TARGETS" >/dev/null

CHECK="sync --check --suite suite --workspace $WORK --targets $TARGETS"
timed=("bqsuite sync --check" "$BQ $CHECK")
if [ -n "${BEFORE:-}" ]; then
    "$BEFORE" $CHECK >/dev/null
    bench_note "before: $BEFORE"
    timed+=("bqsuite sync --check, before" "$BEFORE $CHECK")
fi
[ "$floor" = 0 ] ||
    timed+=("read every byte once (find | xargs cat)" "find $WORK -type f | xargs cat >/dev/null")
timed+=("old sync.sh --check loop" "bash bench/legacy/sync_check.sh suite $WORK $TARGETS")

bench_machine
bench_compare target/bench-sync.md "$RUNS" "${timed[@]}"
cat target/bench-sync.md
