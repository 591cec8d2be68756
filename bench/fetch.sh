#!/usr/bin/env bash
# Benchmarks `bqsuite fetch --check` from a file:// mirror against the shell pipeline it replaces
# (curl + sha256sum -c + tar -xzf + diff -r), on a generated ~200 MB release, and reports the peak
# RSS of bqsuite for --check and for an unpack. Generates all its data; installs hyperfine (and
# GNU time) with apt-get when missing.
#
#   bench/fetch.sh            # 200 MB
#   SIZE_MB=50 bench/fetch.sh # smaller
set -euo pipefail
cd "$(dirname "$0")/.."

SIZE_MB=${SIZE_MB:-200}
RUNS=${RUNS:-5}
VERSION=9.9.9
ROOT=babelqueue-conformance-$VERSION

need() {
    if ! command -v "$1" >/dev/null 2>&1; then
        echo "bench: installing $2" >&2
        if [ "$(id -u)" = 0 ]; then
            apt-get update -qq >/dev/null && apt-get install -y -qq "$2" >/dev/null
        else
            sudo apt-get update -qq >/dev/null && sudo apt-get install -y -qq "$2" >/dev/null
        fi
    fi
}
need hyperfine hyperfine
need curl curl
need sha256sum coreutils
[ -x /usr/bin/time ] || need /usr/bin/time time

cargo build --release --quiet
BIN=$PWD/target/release/bqsuite

WORK=$(mktemp -d "${TMPDIR:-/tmp}/bqsuite-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
echo "bench: generating a ${SIZE_MB} MB release in $WORK" >&2

# A release-shaped tree: incompressible fixtures of 1 MiB each (under the 16 MiB per-file cap), so
# the compressed asset is ~SIZE_MB too.
TREE=$WORK/src/$ROOT
mkdir -p "$TREE/fixtures" "$TREE/schema"
printf '%s\n' "$VERSION" >"$TREE/CONFORMANCE_VERSION"
printf '{"conformance_version": "%s", "cases": []}\n' "$VERSION" >"$TREE/manifest.json"
printf '{"type": "object"}\n' >"$TREE/schema/message-envelope.schema.json"
printf 'MIT License\n' >"$TREE/LICENSE"
for i in $(seq -w 1 "$SIZE_MB"); do
    head -c 1048576 /dev/urandom >"$TREE/fixtures/blob-$i.json"
done

# The asset as release writes it: ustar, sorted, owner 0, fixed mtime, one gzip member.
MIRROR=$WORK/mirror
mkdir -p "$MIRROR"
ASSET=$MIRROR/$ROOT.tar.gz
(cd "$WORK/src" && tar --format=ustar --sort=name --owner=0 --group=0 --numeric-owner \
    --mtime=@0 -cf - "$ROOT" | gzip -n -6 >"$ASSET")
(cd "$MIRROR" && sha256sum "$ROOT.tar.gz" >SHA256SUMS)

# The vendored copy to check (no LICENSE, as sync.sh vendors).
VENDORED=$WORK/vendored
cp -r "$TREE" "$VENDORED"
rm "$VENDORED/LICENSE"

# The shell pipeline doing the same job as fetch.sh --check.
cat >"$WORK/shell-check.sh" <<EOF
#!/usr/bin/env bash
set -euo pipefail
tmp=\$(mktemp -d "$WORK/shell.XXXXXX")
trap 'rm -rf "\$tmp"' EXIT
curl -fsS "file://$MIRROR/SHA256SUMS" -o "\$tmp/SHA256SUMS"
curl -fsS "file://$ASSET" -o "\$tmp/$ROOT.tar.gz"
(cd "\$tmp" && sha256sum -c --status SHA256SUMS)
tar -xzf "\$tmp/$ROOT.tar.gz" -C "\$tmp"
diff -r -x LICENSE "\$tmp/$ROOT" "$VENDORED" >/dev/null
EOF
chmod +x "$WORK/shell-check.sh"

export BQ_CONFORMANCE_BASE_URL="file://$MIRROR"
# Both must agree that the copy matches before they are timed.
"$BIN" fetch --check "$VERSION" "$VENDORED" >/dev/null
"$WORK/shell-check.sh"

echo
echo "== machine"
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//') ($(nproc) cores)"
echo "memory: $(free -g | awk '/Mem:/ {print $2}') GiB; $(uname -sr)"
echo "asset: $(stat -c %s "$ASSET") bytes compressed, $(du -sb "$TREE" | cut -f1) bytes unpacked, $(find "$TREE" -type f | wc -l) files"
echo "tools: $(curl --version | head -1 | cut -d' ' -f1-2), $(tar --version | head -1), $(gzip --version | head -1), $(hyperfine --version)"

echo
echo "== fetch --check vs curl + sha256sum -c + tar -xzf + diff -r (file:// mirror)"
hyperfine --warmup 1 --runs "$RUNS" --export-markdown "$WORK/bench.md" \
    -n "bqsuite fetch --check" "$BIN fetch --check $VERSION $VENDORED" \
    -n "curl+sha256sum+tar+diff" "$WORK/shell-check.sh"
cat "$WORK/bench.md"

echo
echo "== peak RSS"
rss() {
    /usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F': ' '/Maximum resident set size/ {print $2}'
}
echo "bqsuite fetch --check: $(rss "$BIN" fetch --check "$VERSION" "$VENDORED") KiB"
echo "bqsuite fetch (unpack): $(rss "$BIN" fetch "$VERSION" "$WORK/unpacked") KiB"
rm -rf "$WORK/unpacked"
echo "bqsuite --version (baseline): $(rss "$BIN" --version) KiB"
