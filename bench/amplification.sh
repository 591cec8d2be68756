#!/usr/bin/env bash
# Validation on the two amplification suites of issue #13, with wall time and peak memory:
#   shared: 1,000 roundtrip cases over one 2 MB fixture;
#   wide:   one fixture of 12 MB, a data object of 1,000,000 keys.
# validate side by side with the legacy Python check (which does less: schemas only, no
# evaluator); release and sync (which validate first) beside it.
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
# One row per command and tool; release and sync validate the suite first, so they pay the same.
measure() { # suite command tool argv...
    local kind=$1 what=$2 tool=$3
    shift 3
    /usr/bin/time -f '%e %M' -o "$work/time" "$@" >/dev/null 2>&1 || {
        echo "failed: $*" >&2
        exit 1
    }
    read -r secs kb <"$work/time"
    printf '| %s | %s | %s | %s s | %d MB |\n' "$kind" "$what" "$tool" "$secs" "$((kb / 1024))"
}
printf '| suite | command | tool | wall time | peak memory |\n|---|---|---|---|---|\n'
for kind in shared wide; do
    suite=$work/$kind
    python3 bench/amplification/make_suite.py "$kind" "$suite" >&2
    cp LICENSE "$suite/"
    measure "$kind" validate bqsuite target/release/bqsuite validate "$suite"
    measure "$kind" validate legacy "$venv/bin/python" bench/legacy/validate_suite.py "$suite"
    measure "$kind" release bqsuite target/release/bqsuite release "$suite" --out "$work/dist-$kind" --allow-pre
    mkdir -p "$work/ws-$kind/sdk"
    printf 'sdk/conformance\n' >"$work/ws-$kind/targets.txt"
    measure "$kind" sync bqsuite target/release/bqsuite sync --suite "$suite" \
        --workspace "$work/ws-$kind" --targets "$work/ws-$kind/targets.txt"
done
