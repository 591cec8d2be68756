#!/usr/bin/env bash
# Benchmarks `bqsuite fetch --check` from a file:// mirror against the shell pipeline it replaces
# (curl + sha256sum -c + tar -xzf + diff -r), on a generated release of SIZE_MB megabytes, and
# reports the peak RSS of bqsuite for --check and for an unpack.
#
# The release is a real one: a copy of the bundled suite plus SIZE_MB fixtures of 1 MB of random
# base64 (bench/release/make_suite.py, so the compressed asset is about as large as the suite),
# each read by a copy of a real case, packed the way the suite's published assets were: GNU tar
# (sorted, mtime 0, owner 0) then `gzip -n`, with its SHA256SUMS.
#
#   bench/fetch.sh                     # 200 MB, 5 runs each
#   SIZE_MB=50 RUNS=3 bench/fetch.sh   # smaller
#
# Installs what it uses when missing: hyperfine, curl, python3, GNU time.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$BENCH_ROOT"

SIZE_MB=${SIZE_MB:-200}
RUNS=${RUNS:-5}
VERSION=$(tr -d '[:space:]' <suite/CONFORMANCE_VERSION)
ROOT=babelqueue-conformance-$VERSION

bench_need hyperfine hyperfine || true
bench_need curl curl
bench_need python3 python3
bench_need sha256sum coreutils
bench_need /usr/bin/time time
bench_build

WORK=$(mktemp -d "${TMPDIR:-/tmp}/bqsuite-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
bench_note "generating a ${SIZE_MB} MB release in $WORK"

TREE=$WORK/src/$ROOT
python3 bench/release/make_suite.py suite "$TREE" "$SIZE_MB" 1000000 random
cp LICENSE "$TREE/LICENSE"
MIRROR=$WORK/mirror
mkdir -p "$MIRROR"
ASSET=$MIRROR/$ROOT.tar.gz
tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -C "$WORK/src" -cf - "$ROOT" |
    gzip -n >"$ASSET"
(cd "$MIRROR" && sha256sum "$ROOT.tar.gz" >SHA256SUMS)

# The vendored copy to check (no LICENSE, as sync vendors).
VENDORED=$WORK/vendored
cp -r "$TREE" "$VENDORED"
rm "$VENDORED/LICENSE"

# The shell pipeline doing the same job as fetch --check.
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
"$BQ" fetch --check "$VERSION" "$VENDORED" >/dev/null
"$WORK/shell-check.sh"

echo
echo "== machine"
bench_machine
echo "asset: $(stat -c %s "$ASSET") bytes compressed, $(du -sb "$TREE" | cut -f1) bytes unpacked, $(find "$TREE" -type f | wc -l) files"
echo "tools: $(curl --version | head -1 | cut -d' ' -f1-2), $(tar --version | head -1), $(gzip --version | head -1)$(command -v hyperfine >/dev/null && echo ", $(hyperfine --version)")"

echo
echo "== fetch --check vs curl + sha256sum -c + tar -xzf + diff -r (file:// mirror)"
bench_compare "$WORK/bench.md" "$RUNS" \
    "bqsuite fetch --check" "$BQ fetch --check $VERSION $VENDORED" \
    "curl+sha256sum+tar+diff" "$WORK/shell-check.sh"
cat "$WORK/bench.md"

echo
echo "== peak RSS"
echo "bqsuite fetch --check: $(bench_rss "$BQ" fetch --check "$VERSION" "$VENDORED") KiB"
echo "bqsuite fetch (unpack): $(bench_rss "$BQ" fetch "$VERSION" "$WORK/unpacked") KiB"
rm -rf "$WORK/unpacked"
echo "bqsuite --version (baseline): $(bench_rss "$BQ" --version) KiB"
