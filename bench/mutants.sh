#!/usr/bin/env bash
# Benchmarks `bqsuite mutants` (every mutant of the catalogue over every case) on the bundled
# suite with the proposal merged in (every mutant killed: exit 0) and on the bundled suite alone
# (the real release lets some survive: exit 1, which is what it reports, not a failed run),
# beside `bqsuite validate` for scale. Installs hyperfine if missing.
# Usage: bench/mutants.sh
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v hyperfine >/dev/null; then
    apt-get update -qq && apt-get install -y -qq hyperfine >/dev/null
fi
cargo build --release -q

hyperfine --warmup 3 --min-runs 20 --export-markdown target/bench-mutants.md \
    -n "bqsuite mutants --proposal" "target/release/bqsuite mutants suite --proposal proposal" \
    -n "bqsuite mutants (survivors: exit 1)" -i "target/release/bqsuite mutants suite" \
    -n "bqsuite validate" "target/release/bqsuite validate suite"
cat target/bench-mutants.md
