#!/usr/bin/env bash
# Benchmarks `bqsuite validate` (full validation including the reference evaluator) on the bundled
# suite, side by side with a re-creation of the old CI check (Python + jsonschema, which does
# less). Installs what it uses. Usage: bench/validate.sh
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v hyperfine >/dev/null; then
    apt-get update -qq && apt-get install -y -qq hyperfine >/dev/null
fi
venv=target/bench-venv
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q jsonschema
fi
cargo build --release -q

hyperfine --warmup 5 --min-runs 30 --export-markdown target/bench-validate.md \
    -n "bqsuite validate" "target/release/bqsuite validate suite" \
    -n "legacy python check" "$venv/bin/python bench/legacy/validate_suite.py suite"
cat target/bench-validate.md
