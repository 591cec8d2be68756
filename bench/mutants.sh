#!/usr/bin/env bash
# Benchmarks `bqsuite mutants` (every mutant of the catalogue over every case of the bundled
# suite), beside `bqsuite validate` for scale. Installs hyperfine if missing.
# Usage: bench/mutants.sh
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v hyperfine >/dev/null; then
    apt-get update -qq && apt-get install -y -qq hyperfine >/dev/null
fi
cargo build --release -q

hyperfine --warmup 5 --min-runs 30 --export-markdown target/bench-mutants.md \
    -n "bqsuite mutants" "target/release/bqsuite mutants suite" \
    -n "bqsuite validate" "target/release/bqsuite validate suite"
cat target/bench-mutants.md
