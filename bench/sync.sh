#!/usr/bin/env bash
# Benchmarks `bqsuite sync --check` over a workspace shaped like the real one (the 25 targets of
# sync-targets.txt, every copy vendored and in sync: the every-commit case), side by side with a
# re-creation of the old sync script's `diff -q` / `diff -qr` loop over the same workspace.
# Generates its data; installs hyperfine when missing.
#
#   bench/sync.sh               # 50 runs each
#   RUNS=3 bench/sync.sh
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$BENCH_ROOT"

RUNS=${RUNS:-50}
TARGETS=sync-targets.txt
bench_need hyperfine hyperfine || true
bench_build

WORK=$(mktemp -d "${TMPDIR:-/tmp}/bqsuite-bench-sync.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
grep -v '^[[:space:]]*#' "$TARGETS" | sed 's/#.*//' | while read -r target; do
    [ -n "$target" ] || continue
    mkdir -p "$WORK/$target"
    cp -R suite/CONFORMANCE_VERSION suite/manifest.json suite/schema suite/fixtures "$WORK/$target/"
done
bench_note "$(grep -cv '^[[:space:]]*\(#\|$\)' "$TARGETS") targets in $WORK"
# Both must find the workspace in sync before they are timed.
"$BQ" sync --check --suite suite --workspace "$WORK" --targets "$TARGETS" >/dev/null
bash bench/legacy/sync_check.sh suite "$WORK" "$TARGETS" >/dev/null

bench_machine
bench_compare target/bench-sync.md "$RUNS" \
    "bqsuite sync --check" "$BQ sync --check --suite suite --workspace $WORK --targets $TARGETS" \
    "old sync.sh --check loop" "bash bench/legacy/sync_check.sh suite $WORK $TARGETS"
cat target/bench-sync.md
