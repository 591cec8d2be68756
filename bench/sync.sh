#!/usr/bin/env bash
# Benchmarks `bqsuite sync --check` over a workspace shaped like the real one (the 25 targets of
# suite/sync-targets.txt, every copy vendored and in sync: the every-commit case), side by side
# with a re-creation of the old sync script's `diff -q` / `diff -qr` loop over the same
# workspace. Generates its data; installs hyperfine when missing. Usage: bench/sync.sh
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v hyperfine >/dev/null; then
    apt-get update -qq && apt-get install -y -qq hyperfine >/dev/null
fi
cargo build --release -q

WORK=$(mktemp -d "${TMPDIR:-/tmp}/bqsuite-bench-sync.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
grep -v '^[[:space:]]*#' suite/sync-targets.txt | sed 's/#.*//' | while read -r target; do
    [ -n "$target" ] || continue
    mkdir -p "$WORK/$target"
    cp -R suite/CONFORMANCE_VERSION suite/manifest.json suite/schema suite/fixtures "$WORK/$target/"
done
echo "bench: $(grep -cv '^[[:space:]]*\(#\|$\)' suite/sync-targets.txt) targets in $WORK" >&2

hyperfine -N --warmup 10 --min-runs 50 --export-markdown target/bench-sync.md \
    -n "bqsuite sync --check" "target/release/bqsuite sync --check --suite suite --workspace $WORK" \
    -n "old sync.sh --check loop" "bash bench/legacy/sync_check.sh suite $WORK suite/sync-targets.txt"
cat target/bench-sync.md
