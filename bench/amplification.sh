#!/usr/bin/env bash
# Validation on the two amplification suites of issue #13, with wall time and peak memory:
#   shared: 1,000 roundtrip cases over one 2 MB fixture;
#   wide:   one fixture of 12 MB, a data object of 1,000,000 keys.
# validate side by side with the legacy Python check (which does less: schemas only, no
# evaluator); release and sync (which validate first) beside it.
# Installs what it uses (GNU time; jsonschema into target/bench-venv).
#
#   bench/amplification.sh              # the sizes above
#   SIZE_MB=1 bench/amplification.sh    # a 1 MB wide fixture, a shared one of a sixth of that
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$BENCH_ROOT"

SIZE_MB=${SIZE_MB:-12}
bench_need python3 python3
bench_need /usr/bin/time time
python=$(bench_legacy_python) || python=
bench_build

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
bench_machine
printf '| suite | command | tool | wall time | peak memory |\n|---|---|---|---|---|\n'
for kind in shared wide; do
    suite=$work/$kind
    python3 bench/amplification/make_suite.py "$kind" "$suite" "$SIZE_MB" >&2
    cp LICENSE "$suite/"
    measure "$kind" validate bqsuite "$BQ" validate "$suite"
    if [ -n "$python" ]; then
        measure "$kind" validate legacy "$python" bench/legacy/validate_suite.py "$suite"
    fi
    measure "$kind" release bqsuite "$BQ" release "$suite" --out "$work/dist-$kind" --allow-pre
    mkdir -p "$work/ws-$kind/sdk"
    printf 'sdk/conformance\n' >"$work/ws-$kind/targets.txt"
    measure "$kind" sync bqsuite "$BQ" sync --suite "$suite" \
        --workspace "$work/ws-$kind" --targets "$work/ws-$kind/targets.txt"
done
