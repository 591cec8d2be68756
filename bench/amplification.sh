#!/usr/bin/env bash
# Validation on the two amplification suites of issue #13, with wall time and peak memory:
#   shared: 1,000 roundtrip cases over one 2 MB fixture;
#   wide:   one fixture of 12 MB, a data object of 1,000,000 keys.
# Side by side with the legacy Python check (which does less: schemas only, no evaluator).
# Installs what it uses. Usage: bench/amplification.sh
set -euo pipefail
cd "$(dirname "$0")/.."

venv=target/bench-venv
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q jsonschema
fi
[ -x /usr/bin/time ] || { apt-get update -qq && apt-get install -y -qq time >/dev/null; }
cargo build --release -q

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '| suite | tool | wall time | peak memory |\n|---|---|---|---|\n'
for kind in shared wide; do
    python3 bench/amplification/make_suite.py "$kind" "$work/$kind" >&2
    for tool in bqsuite legacy; do
        if [ "$tool" = bqsuite ]; then
            cmd=(target/release/bqsuite validate "$work/$kind")
        else
            cmd=("$venv/bin/python" bench/legacy/validate_suite.py "$work/$kind")
        fi
        /usr/bin/time -f '%e %M' -o "$work/time" "${cmd[@]}" >/dev/null 2>&1 || true
        read -r secs kb <"$work/time"
        printf '| %s | %s | %s s | %d MB |\n' "$kind" "$tool" "$secs" "$((kb / 1024))"
    done
done
