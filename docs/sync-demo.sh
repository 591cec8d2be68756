#!/usr/bin/env bash
# Builds a workspace shaped like the real BabelQueue fleet and runs `bqsuite sync --check` on it,
# as the SDK developer's guide shows it (docs/guide/sdk-developer.md, "The whole fleet"):
#
#   - the 25 targets of sync-targets.txt;
#   - babelqueue-java, babelqueue-java-redis and babelqueue-dotnet-redis not cloned;
#   - babelqueue-node on the real release 1.7.0, babelqueue-dotnet on 1.5.0
#     (tests/data/real-releases);
#   - babelqueue-python on the canonical suite with fixtures/order-created.json edited by hand;
#   - every other copy the unversioned upstream copy (tests/data/upstream-suite without its
#     CONFORMANCE_VERSION), as the real SDK repositories vendor it.
#
# The suite repository sits in the workspace as `conformance/` (the canonical suite/ and
# sync-targets.txt), and the check runs there with `--workspace ..`, like the guide's example.
#
#   docs/sync-demo.sh                          # in a temporary directory, removed afterwards
#   docs/sync-demo.sh DIR                      # in DIR (created; must not exist), kept
#   docs/sync-demo.sh DIR --format json        # extra arguments go to `bqsuite sync --check`
#
# The binary: $BQSUITE if set, else target/release/bqsuite of this repository (under
# $CARGO_TARGET_DIR if set), else `bqsuite` on PATH. The exit code is bqsuite's (1: drift).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

bq=${BQSUITE:-}
if [ -z "$bq" ]; then
    built=${CARGO_TARGET_DIR:-$repo/target}/release/bqsuite
    if [ -x "$built" ]; then
        bq=$built
    elif command -v bqsuite >/dev/null 2>&1; then
        bq=$(command -v bqsuite)
    else
        echo "sync-demo: no bqsuite binary: run \`cargo build --release\` in $repo, or set BQSUITE" >&2
        exit 2
    fi
fi

if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then
    ws=$1
    shift
    if [ -e "$ws" ]; then
        echo "sync-demo: $ws already exists; name a new directory" >&2
        exit 2
    fi
    mkdir -p "$ws"
else
    ws=$(mktemp -d "${TMPDIR:-/tmp}/bqsuite-sync-demo.XXXXXX")
    trap 'rm -rf "$ws"' EXIT
fi

data=$repo/tests/data
not_cloned=" babelqueue-java babelqueue-java-redis babelqueue-dotnet-redis "

# The vendored set of a suite directory (everything a copy holds but LICENSE).
vendor_release() {
    mkdir -p "$2"
    cp "$1/CONFORMANCE_VERSION" "$1/manifest.json" "$2/"
    cp -R "$1/fixtures" "$1/schema" "$2/"
}

# The upstream copy as the SDK repositories hold it: no CONFORMANCE_VERSION.
vendor_upstream() {
    mkdir -p "$1"
    cp -R "$data/upstream-suite/." "$1/"
    rm "$1/CONFORMANCE_VERSION"
}

mkdir -p "$ws/conformance"
cp -R "$repo/suite" "$ws/conformance/suite"
cp "$repo/sync-targets.txt" "$ws/conformance/"

sed 's/#.*//' "$repo/sync-targets.txt" | while read -r target; do
    [ -n "$target" ] || continue
    case $not_cloned in *" ${target%%/*} "*) continue ;; esac
    dest=$ws/$target
    case $target in
        babelqueue-node/test/conformance)
            vendor_release "$data/real-releases/1.7.0" "$dest" ;;
        babelqueue-dotnet/tests/BabelQueue.Core.Tests/conformance)
            vendor_release "$data/real-releases/1.5.0" "$dest" ;;
        babelqueue-python/tests/conformance)
            vendor_release "$repo/suite" "$dest"
            printf '{"job": "x"}\n' >"$dest/fixtures/order-created.json" ;;
        *)
            vendor_upstream "$dest" ;;
    esac
done

cd "$ws/conformance"
status=0
"$bq" sync --check --workspace .. "$@" || status=$?
exit "$status"
