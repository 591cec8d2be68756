#!/usr/bin/env bash
# binary-size.sh PATH [MAX_BYTES]: prints the size of the bqsuite binary at PATH and its budget,
# and fails when the binary is larger. The default budget, 9961472 bytes (9.5 MiB), is the Linux
# budget of the binaries a release ships (`cargo build --profile dist --locked`; what keeps them
# within it: [profile.dist] in Cargo.toml). ci.yml checks it on every push, release.yml on every
# Linux binary it publishes.
#
# Exit status: 0 within the budget; 1 over it; 2 the check could not run (usage, no such file).
set -euo pipefail

default_budget=9961472
me=.github/scripts/binary-size.sh

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: $me PATH [MAX_BYTES] (the budget defaults to $default_budget bytes, 9.5 MiB)" >&2
    exit 2
fi
path=$1
budget=${2:-$default_budget}
case $budget in
    '' | *[!0-9]*)
        echo "$me: error: the budget \`$budget\` is not a number of bytes; give one, e.g. \`$me $path $default_budget\`" >&2
        exit 2
        ;;
esac
if [ ! -f "$path" ]; then
    echo "$me: error: $path: there is no such file; build it first: \`cargo build --profile dist --locked\`" >&2
    exit 2
fi

# In MiB with two decimals.
mib() {
    awk -v bytes="$1" 'BEGIN { printf "%.2f MiB", bytes / 1048576 }'
}

size=$(wc -c <"$path" | tr -d '[:space:]')
echo "$path: $size bytes ($(mib "$size")); budget: $budget bytes ($(mib "$budget"))"
if [ "$size" -gt "$budget" ]; then
    over=$((size - budget))
    message="$path is $size bytes ($(mib "$size")), $over bytes over its budget of $budget bytes ($(mib "$budget")); find what grew (a new crate or feature, a crate at opt-level 3) and bring it back under, see [profile.dist] in Cargo.toml"
    if [ "${GITHUB_ACTIONS:-}" = true ]; then
        echo "::error title=binary size::$message"
    fi
    echo "$me: error: $message" >&2
    exit 1
fi
echo "within the budget, $((budget - size)) bytes to spare"
