#!/usr/bin/env bash
# Benchmark: `bqsuite release` against the shell pipeline it replaces,
#   tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -c | gzip -n -6
# on a large synthetic suite: the bundled suite plus SIZE_MB x 100 generated fixtures of about
# 10 KB each (200 MB by default; bench/release/make_suite.py), flat in fixtures/, every one read
# by a copy of a real case of the bundled suite (its section, keys and expectations), so
# `bqsuite release` runs its full validation first, as it always does: the figure is end to end.
#
# It checks first that the suite is valid (release packages it), that both sides pack the same
# entries, and that the asset is byte for byte the same on 1 thread and on as many as there are
# cores (BQSUITE_THREADS: the threads that check fixtures and those that compress). Then it times,
# with hyperfine:
#   * `bqsuite release` (by default one thread of each kind per core), and with
#     BQSUITE_THREADS=1;
#   * the tar | gzip pipeline, at the same deflate level (6, release::COMPRESSION_LEVEL);
#   * `bqsuite validate` alone: the validation every release runs;
# and measures the peak RSS of each (GNU time). Then it runs release and the pipeline in turn,
# RUNS rounds, and prints the median of the rounds' ratios: the figure to read on a shared
# machine. Both sides pack the same tree (the synthetic suite, whose directory is named like the
# asset's root and holds LICENSE). The binary is the dist profile's, what releases ship
# (BENCH_PROFILE in bench/lib.sh).
#
#   bench/release.sh                      # 200 MB, 5 runs each
#   SIZE_MB=20 RUNS=3 bench/release.sh    # smaller
#   BENCH_DIR=/tmp/x bench/release.sh     # keep the synthetic suite there (reused when present)
#
# Installs what it uses when missing (Debian/Ubuntu, as root or with sudo): hyperfine, python3,
# GNU tar, gzip, GNU time.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$BENCH_ROOT"

SIZE_MB=${SIZE_MB:-200}
RUNS=${RUNS:-5}
LEVEL=6
WORK=${BENCH_DIR:-${TMPDIR:-/tmp}/bqsuite-release-bench}
FIXTURES=$((SIZE_MB * 100))
FIXTURE_BYTES=10000

bench_need python3 python3
bench_need gzip gzip
tar --version 2>/dev/null | grep -q 'GNU tar' || bench_need tar tar
bench_need /usr/bin/time time
bench_need hyperfine hyperfine || true
bench_build

VERSION=$(tr -d '[:space:]' <suite/CONFORMANCE_VERSION)
NAME=babelqueue-conformance-$VERSION
SUITE=$WORK/$NAME
# Regenerate when the size, the bundled suite or the generator change.
SUM=$( (find suite -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum
    sha256sum bench/release/make_suite.py) | sha256sum | cut -c1-16)
STAMP=$WORK/.generated-$FIXTURES-$FIXTURE_BYTES-$SUM

if [ ! -f "$STAMP" ]; then
    bench_note "generating $FIXTURES fixtures of ~$FIXTURE_BYTES bytes in $SUITE"
    rm -rf "$WORK"
    mkdir -p "$WORK"
    python3 bench/release/make_suite.py suite "$SUITE" "$FIXTURES" "$FIXTURE_BYTES"
    cp LICENSE "$SUITE/LICENSE"
    touch "$STAMP"
fi

files=$(find "$SUITE" -type f | wc -l)
bytes=$(du -sb --apparent-size "$SUITE" | cut -f1)
CORES=$(nproc)
echo "synthetic suite: $SUITE ($files files, $bytes bytes)"
bench_machine

DEFAULT=$CORES
OUT=$WORK/dist
PIPE=$WORK/pipeline.tar.gz
rm -rf "$OUT" "$WORK"/dist-*

# Sanity: the suite is valid (so release packages it); 1 thread, the default and every core write
# the same bytes; SHA256SUMS checks; both sides hold the same entries.
"$BQ" release "$SUITE" --out "$OUT" >/dev/null
ASSET=$OUT/$NAME.tar.gz
for threads in 1 "$CORES"; do
    BQSUITE_THREADS=$threads "$BQ" release "$SUITE" --out "$WORK/dist-$threads" >/dev/null
    cmp -s "$ASSET" "$WORK/dist-$threads/$NAME.tar.gz" || {
        echo "bench/release.sh: the asset on $threads thread(s) differs from the default's" >&2
        exit 1
    }
done
(cd "$OUT" && sha256sum -c --quiet SHA256SUMS)
tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -C "$WORK" -c "$NAME" |
    gzip -n -$LEVEL >"$PIPE"
diff <(tar -tzf "$ASSET") <(tar -tzf "$PIPE") >/dev/null || {
    echo "bench/release.sh: the two archives list different entries" >&2
    exit 1
}
echo "asset: $(stat -c %s "$ASSET") bytes, sha256 $(sha256sum "$ASSET" | cut -c1-64) on 1, $DEFAULT (the default) and $CORES thread(s)"
echo "tar | gzip -n -$LEVEL: $(stat -c %s "$PIPE") bytes"

PIPELINE="tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -C '$WORK' -c '$NAME' | gzip -n -$LEVEL > '$PIPE'"
MD=$WORK/bench.md
echo
echo "== wall time ($RUNS runs each)"
releases=("bqsuite release (default: $DEFAULT thread(s))" "'$BQ' release '$SUITE' --out '$OUT'")
for threads in 1 "$CORES"; do
    [ "$threads" = "$DEFAULT" ] && continue
    releases+=("bqsuite release (BQSUITE_THREADS=$threads)"
        "BQSUITE_THREADS=$threads '$BQ' release '$SUITE' --out '$WORK/dist-$threads'")
done
# The pipeline leaves 20 MB for the kernel to write back, which release (whose asset is synced
# before it is renamed into place) would otherwise pay for in the next run: every timed run starts
# with the disk flushed.
BENCH_PREPARE=sync bench_compare "$MD" "$RUNS" "${releases[@]}" \
    "tar | gzip -n -$LEVEL" "$PIPELINE" \
    "bqsuite validate (part of release)" "'$BQ' validate '$SUITE'"
cat "$MD"

# hyperfine runs every run of one command before the next command's, so on a shared machine a
# slow minute can fall on one side only. Here each round runs both, one after the other: the
# ratio of a round compares two runs taken a few seconds apart.
echo
echo "== release against the pipeline, interleaved ($RUNS rounds of one run each)"
rounds=$WORK/rounds.txt
: >"$rounds"
for _ in $(seq "$RUNS"); do
    sync
    start=$(date +%s%N)
    "$BQ" release "$SUITE" --out "$OUT" >/dev/null
    end=$(date +%s%N)
    released=$((end - start))
    sync
    start=$(date +%s%N)
    bash -c "$PIPELINE"
    end=$(date +%s%N)
    echo "$released $((end - start))" >>"$rounds"
done
awk '
    function median(v, n,    i, j, t) {
        for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
            t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
        }
        return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
    }
    { n++; r[n] = $1 / 1e9; p[n] = $2 / 1e9; x[n] = $2 / $1; lo = (n == 1 || x[n] < lo) ? x[n] : lo
      hi = (n == 1 || x[n] > hi) ? x[n] : hi }
    END {
        printf "bqsuite release: median %.3f s; tar | gzip: median %.3f s\n", median(r, n), median(p, n)
        printf "speed-up of release over the pipeline: %.2fx (median of the rounds; %.2fx to %.2fx)\n", median(x, n), lo, hi
    }' "$rounds"

echo
echo "== peak RSS (GNU time)"
printf '| command | peak RSS |\n|---|---:|\n'
row() {
    local kb
    kb=$(bench_rss "${@:2}")
    printf '| %s | %d MB |\n' "$1" "$((kb / 1024))"
}
row "bqsuite release (default: $DEFAULT thread(s))" "$BQ" release "$SUITE" --out "$OUT"
for threads in 1 "$CORES"; do
    [ "$threads" = "$DEFAULT" ] && continue
    row "bqsuite release (BQSUITE_THREADS=$threads)" \
        env BQSUITE_THREADS="$threads" "$BQ" release "$SUITE" --out "$WORK/dist-$threads"
done
row "tar | gzip -n -$LEVEL" bash -c "$PIPELINE"
row "bqsuite validate" "$BQ" validate "$SUITE"
echo "(the suite: $((bytes / 1000000)) MB)"
