#!/usr/bin/env bash
# Builds a workspace shaped like the real one and prints the `sync --check` and
# `fetch --check` / `fetch --update` reports that the README shows:
# - the 25 targets of sync-targets.txt, with the SDK repositories babelqueue-java,
#   babelqueue-java-redis and babelqueue-dotnet-redis not cloned;
# - php-sdk and babelqueue-go still on the unversioned upstream copy (tests/data/upstream-suite);
# - a hand-edited fixture in babelqueue-python; the node-adapters rabbitmq package not vendored.
# Usage: docs/sync-demo.sh  (builds the release binary first)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q
BIN=$PWD/target/release/bqsuite
OLD=$PWD/tests/data/upstream-suite
WORK=$(mktemp -d "${TMPDIR:-/tmp}/bqsuite-demo.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
ws=$WORK/ws
mkdir -p "$ws/conformance"
cp -R suite "$ws/conformance/suite"
cp sync-targets.txt "$ws/conformance/"
grep -v "^[[:space:]]*#" sync-targets.txt | sed 's/#.*//' | while read -r t; do
    [ -n "$t" ] || continue
    case ${t%%/*} in babelqueue-java | babelqueue-java-redis | babelqueue-dotnet-redis) continue ;; esac
    if [ "$t" = babelqueue-node-adapters/packages/rabbitmq/test/conformance ]; then
        mkdir -p "$ws/${t%/test/conformance}"
        continue
    fi
    mkdir -p "$ws/$t"
    case $t in
    # As the real fleet holds them: the unversioned upstream copy (the test data's copy carries a
    # CONFORMANCE_VERSION of its own, which the real copies do not have).
    php-sdk/* | babelqueue-go/*) cp -R "$OLD"/. "$ws/$t/" && rm -f "$ws/$t/CONFORMANCE_VERSION" ;;
    *) cp -R suite/CONFORMANCE_VERSION suite/manifest.json suite/fixtures suite/schema "$ws/$t/" ;;
    esac
done
printf '{"job": "x"}\n' >"$ws/babelqueue-python/tests/conformance/fixtures/order-created.json"

echo "\$ cd ~/src/conformance && bqsuite sync --check --workspace .."
(cd "$ws/conformance" && "$BIN" sync --check --workspace ..) || true

# fetch --check / --update from a file:// mirror of this tree's release.
"$BIN" release suite --out "$WORK/mirror" >/dev/null
mkdir -p "$WORK/sdk/tests"
cp -R "$OLD" "$WORK/sdk/tests/conformance"
rm -f "$WORK/sdk/tests/conformance/CONFORMANCE_VERSION"
printf '<?php // the SDK runner\n' >"$WORK/sdk/tests/conformance/ConformanceTest.php"
version=$(cat suite/CONFORMANCE_VERSION)
export BQ_CONFORMANCE_BASE_URL=file://$WORK/mirror
echo
echo "\$ bqsuite fetch --check $version tests/conformance"
(cd "$WORK/sdk" && "$BIN" fetch --check "$version" tests/conformance | tail -7) || true
echo "\$ bqsuite fetch --update $version tests/conformance"
(cd "$WORK/sdk" && "$BIN" fetch --update "$version" tests/conformance)
