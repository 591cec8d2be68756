#!/usr/bin/env bash
# Runs the real BabelQueue Python SDK (the `babelqueue` package on PyPI, with its own conformance
# runner) over the released suite and over the suite with the proposal adopted, and checks each
# results.json with `bqsuite results check`. A maintainer runs it before adopting the proposal: a
# case the real SDK fails is either a bug of that SDK the proposal rightly catches, or a case
# that takes a side the contract leaves open (docs/guide/suite-maintainer.md#a-real-sdk-over-the-proposal).
#
# Usage: scripts/python-sdk.sh [SDK_VERSION]     (default 1.24.0; needs the network for PyPI)
# Environment: KEEP=1 keeps the work directory (the SDK, both suites, both results files).
#
# Installs what it uses: python3 with venv and redis-server (apt-get, as root or through sudo),
# and, in target/python-sdk-venv, pytest, redis, lupa, fakeredis and opentelemetry-api. The Redis
# server it starts listens on 127.0.0.1 only, on a free port, and is stopped at the end.
# Sections the proposal adds are left out of the second run and named: the released SDK has no
# runner for them. Exit status: that of `results check` over the suite with the proposal (0 every
# case passes, 1 some case fails); 2 when it could not run.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SDK_VERSION=${1:-1.24.0}
BQ=$ROOT/target/release/bqsuite
VENV=$ROOT/target/python-sdk-venv

say() { printf 'python-sdk: %s\n' "$*" >&2; }
fail() {
    say "$*"
    exit 2
}
have() { command -v "$1" >/dev/null 2>&1; }

install() {
    local sudo=
    if [ "$(id -u)" -ne 0 ]; then
        have sudo || return 1
        sudo="sudo -n"
    fi
    have apt-get || return 1
    say "installing $*"
    $sudo apt-get update -qq >/dev/null 2>&1 || true
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null 2>&1
}

need() {
    have "$1" || install "$2" || fail "$1 is needed: install the $2 package and run again"
}

need python3 python3
python3 -c 'import venv, ensurepip' 2>/dev/null || install python3-venv ||
    fail "python3's venv is needed: install the python3-venv package and run again"
need redis-server redis-server

say "building bqsuite"
(cd "$ROOT" && cargo build --release --locked --quiet) || fail "cargo build failed"

if ! "$VENV/bin/python" -c 'import pytest, redis, lupa, fakeredis, opentelemetry' 2>/dev/null; then
    say "making $VENV"
    python3 -m venv "$VENV" || fail "could not make $VENV"
    "$VENV/bin/pip" install -q pytest redis lupa fakeredis opentelemetry-api ||
        fail "could not install the runner's packages from PyPI into $VENV"
fi

WORK=$(mktemp -d)
REDIS_PID=
cleanup() {
    if [ -n "$REDIS_PID" ]; then kill "$REDIS_PID" 2>/dev/null || true; fi
    if [ "${KEEP:-0}" = 1 ]; then say "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

say "downloading babelqueue $SDK_VERSION"
"$VENV/bin/pip" download -q --no-deps --no-binary babelqueue -d "$WORK/download" \
    "babelqueue==$SDK_VERSION" || fail "could not download babelqueue $SDK_VERSION from PyPI"
tar -xzf "$WORK/download/babelqueue-$SDK_VERSION.tar.gz" -C "$WORK"
SDK=$WORK/babelqueue-$SDK_VERSION
[ -f "$SDK/tests/test_conformance.py" ] || fail "babelqueue $SDK_VERSION has no tests/test_conformance.py"

# The suite with the proposal adopted, under the next minor version, in the work directory.
released=$(cat "$ROOT/suite/CONFORMANCE_VERSION")
IFS=. read -r major minor _ <<<"$released"
next="$major.$((minor + 1)).0"
cp -R "$ROOT/suite" "$WORK/suite-$released"
cp -R "$ROOT/suite" "$WORK/suite-$next"
cp -R "$ROOT/proposal" "$WORK/proposal"
"$BQ" adopt "$next" "$WORK/suite-$next" --proposal "$WORK/proposal" >"$WORK/adopt.log" 2>&1 ||
    { cat "$WORK/adopt.log" >&2; fail "the proposal could not be adopted as $next"; }

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
redis-server --bind 127.0.0.1 --port "$port" --save '' --appendonly no --dir "$WORK" \
    >"$WORK/redis.log" 2>&1 &
REDIS_PID=$!
for _ in $(seq 50); do
    python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 0.2)" 2>/dev/null && break
    sleep 0.1
done

# run VERSION: the SDK's conformance runner over suite-VERSION, then `results check` on it.
run() {
    local version=$1 results=$WORK/results-$1.json
    rm -rf "$SDK/tests/conformance"
    cp -R "$WORK/suite-$version" "$SDK/tests/conformance"
    (cd "$SDK" && env -u http_proxy -u https_proxy -u HTTP_PROXY -u HTTPS_PROXY \
        BABELQUEUE_TEST_REDIS="redis://127.0.0.1:$port/0" BQ_REQUIRE_REDIS=1 \
        BQ_CONFORMANCE_RESULTS="$results" PYTHONPATH=src \
        "$VENV/bin/python" -m pytest -q -p no:logging -p no:cacheprovider tests/test_conformance.py \
        >"$WORK/pytest-$version.log" 2>&1) || true
    [ -f "$results" ] || { tail -n 20 "$WORK/pytest-$version.log" >&2; fail "the runner wrote no results.json over $version"; }
    echo "== babelqueue-python $SDK_VERSION over suite $version"
    "$BQ" results check "$results" --suite "$WORK/suite-$version"
}

run "$released" || true

# A section the released suite does not have needs a runner of its own, which the released SDK
# cannot have (its runner refuses such a suite and writes no results). Those sections are left out
# of the run, and named.
new_sections=$(python3 - "$WORK/suite-$released/manifest.json" "$WORK/suite-$next/manifest.json" <<'PY'
import json, sys
old, new = (json.load(open(p, encoding="utf-8")) for p in sys.argv[1:3])
print(" ".join(s for s in new.get("sections", {}) if s not in old.get("sections", {})))
PY
)
read -r -a new_list <<<"$new_sections"
if [ ${#new_list[@]} -gt 0 ]; then
    cp -R "$WORK/suite-$next" "$WORK/suite-$next-runnable"
    python3 - "$WORK/suite-$next-runnable/manifest.json" "${new_list[@]}" <<'PY'
import json, sys
path, drop = sys.argv[1], sys.argv[2:]
manifest = json.load(open(path, encoding="utf-8"))
for name in drop:
    manifest.pop(name, None)
    manifest["sections"].pop(name, None)
with open(path, "w", encoding="utf-8") as out:
    json.dump(manifest, out, indent=2, ensure_ascii=False)
    out.write("\n")
PY
    say "new sections, left out (the SDK needs a runner for each): $new_sections"
    run "$next-runnable"
else
    run "$next"
fi
