#!/usr/bin/env bash
# Times what the README's two set-up commands cost on a fresh machine: a cold
# `cargo build --release --locked` (the main command's build) and the README's test command,
# each into a target directory of its own that starts empty, with wall-clock and CPU time
# (GNU time). The crates must already be downloaded (`cargo fetch --locked`): network time is not
# build time. Prints a markdown table with the date and the machine.
#
#   bash bench/build.sh
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$BENCH_ROOT"

bench_need /usr/bin/time time
cargo fetch --locked --quiet
bash tests/tools.sh

WORK=$(mktemp -d "${TMPDIR:-/tmp}/bqsuite-bench-build.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# time_cmd NAME COMMAND...: wall seconds and user+system CPU seconds of COMMAND.
time_cmd() {
    local name=$1
    shift
    /usr/bin/time -f "%e %U %S" -o "$WORK/$name.time" "$@" >"$WORK/$name.log" 2>&1 || {
        bench_note "failed: $* (log: $WORK/$name.log)"
        tail -20 "$WORK/$name.log" >&2
        exit 1
    }
    read -r wall user sys <"$WORK/$name.time"
    printf '| %s | %s | %s |\n' "$name" \
        "$(awk -v s="$wall" 'BEGIN { printf "%d min %02d s", s / 60, s % 60 }')" \
        "$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%d s", u + s }')"
}

echo "== $(date -u +%Y-%m-%d), $(bench_machine)"
echo
echo "| command (cold: empty target directory) | wall clock | CPU (user + system) |"
echo "| --- | ---: | ---: |"
CARGO_TARGET_DIR=$WORK/build time_cmd "cargo build --release --locked" \
    cargo build --release --locked
CARGO_TARGET_DIR=$WORK/test time_cmd "cargo test --release --locked" \
    env -u GITHUB_ACTIONS -u GITHUB_STEP_SUMMARY -u GITHUB_WORKSPACE cargo test --release --locked
