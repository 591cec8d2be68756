#!/usr/bin/env bash
# Benchmark: `bqsuite release` against the shell pipeline it replaces,
#   tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -c | gzip -n -6
# on a large synthetic suite: the bundled suite plus BENCH_FIXTURES (default 20,000) generated,
# schema-valid roundtrip fixtures of about BENCH_FIXTURE_BYTES (default 10,000) bytes each
# (~200 MB), every one referenced by a generated manifest case, so `bqsuite release` runs its full
# validation first, as it always does: the figure is end to end.
#
# The report has three figures: `bqsuite release` end to end, the tar | gzip pipeline, and
# `bqsuite validate` alone; then the packaging step alone (tar + gzip of the loaded suite, timed
# by the ignored test `bench_packaging_only` in tests/release.rs).
#
# Both sides pack the same tree (the synthetic suite, whose directory is named like the asset's
# root and holds LICENSE) at the same deflate level (6, `bqsuite`'s release::COMPRESSION_LEVEL).
#
#   bench/release.sh              # generate (if needed), build, check, time with hyperfine
#   BENCH_DIR=/tmp/x bench/release.sh   # keep the synthetic suite there (reused when present)
#   BENCH_RUNS=10 bench/release.sh
#
# Installs what it uses when missing (Debian/Ubuntu, as root or with sudo): hyperfine, python3,
# GNU tar, gzip.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

N=${BENCH_FIXTURES:-20000}
SIZE=${BENCH_FIXTURE_BYTES:-10000}
RUNS=${BENCH_RUNS:-5}
LEVEL=6
WORK=${BENCH_DIR:-${TMPDIR:-/tmp}/bqsuite-release-bench}

install() {
    local sudo=
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    if command -v apt-get >/dev/null 2>&1; then
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
    else
        echo "bench/release.sh: please install: $*" >&2
        exit 2
    fi
}
missing=()
command -v hyperfine >/dev/null 2>&1 || missing+=(hyperfine)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
command -v gzip >/dev/null 2>&1 || missing+=(gzip)
tar --version 2>/dev/null | grep -q 'GNU tar' || missing+=(tar)
[ ${#missing[@]} -eq 0 ] || install "${missing[@]}"

cargo build --release --quiet
BQ=$ROOT/target/release/bqsuite

VERSION=$(tr -d '[:space:]' < suite/CONFORMANCE_VERSION)
NAME=babelqueue-conformance-$VERSION
SUITE=$WORK/$NAME
# Regenerate when the parameters, the bundled suite or this script change.
SUITE_SUM=$( (find suite -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum; sha256sum bench/release.sh) \
    | sha256sum | cut -c1-16)
STAMP=$WORK/.generated-$N-$SIZE-$SUITE_SUM

if [ ! -f "$STAMP" ]; then
    echo "generating $N fixtures of ~$SIZE bytes in $SUITE ..."
    rm -rf "$WORK"
    mkdir -p "$WORK"
    # Only the vendored set (what a release carries), so both sides pack the same files.
    mkdir -p "$SUITE"
    cp -R suite/CONFORMANCE_VERSION suite/manifest.json suite/schema suite/fixtures "$SUITE/"
    cp LICENSE "$SUITE/LICENSE"
    python3 - "$SUITE" "$N" "$SIZE" <<'PY'
import json, os, random, sys

suite, n, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(20250605)
words = ("order invoice customer shipment parcel warehouse refund payment item sku price "
         "quantity discount tax region eu-west-1 us-east-2 express standard pending "
         "confirmed cancelled returned gift note coupon loyalty tier gold silver").split()

def uuid():
    h = "%032x" % rng.getrandbits(128)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-8{h[17:20]}-{h[20:32]}"

def line_item(i):
    return {
        "line": i,
        "sku": "SKU-%06d" % rng.randrange(1_000_000),
        "name": " ".join(rng.choice(words) for _ in range(rng.randrange(2, 6))),
        "quantity": rng.randrange(1, 50),
        "unit_price_cents": rng.randrange(100, 100_000),
        "tags": [rng.choice(words) for _ in range(rng.randrange(0, 4))],
        "fulfilled": rng.random() < 0.5,
    }

os.makedirs(os.path.join(suite, "fixtures", "bench"), exist_ok=True)
manifest_path = os.path.join(suite, "manifest.json")
with open(manifest_path, encoding="utf-8") as f:
    manifest = json.load(f)
cases = manifest["roundtrip"]["cases"]
for k in range(n):
    name = "bench-%05d" % k
    items, doc = [], None
    while True:
        doc = {
            "job": "urn:babel:bench:synthetic",
            "trace_id": uuid(),
            "data": {"order_id": k, "customer": uuid(), "items": items},
            "meta": {
                "id": uuid(),
                "queue": "bench",
                "lang": "python",
                "schema_version": 1,
                "created_at": 1749132727000 + k,
            },
            "attempts": 0,
        }
        text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
        if len(text) >= size:
            break
        items.append(line_item(len(items)))
    with open(os.path.join(suite, "fixtures", "bench", name + ".json"), "w", encoding="utf-8") as f:
        f.write(text)
    cases.append({
        "name": name,
        "file": f"fixtures/bench/{name}.json",
        "description": "Synthetic benchmark fixture.",
        "expect_attempts": 1,
        "expect_preserved": {"/meta/queue": "bench", "/data/order_id": k},
    })
with open(manifest_path, "w", encoding="utf-8") as f:
    f.write(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
PY
    touch "$STAMP"
fi

files=$(find "$SUITE" -type f | wc -l)
bytes=$(du -sb --apparent-size "$SUITE" | cut -f1)
echo "synthetic suite: $SUITE ($files files, $bytes bytes)"

OUT_BQ=$WORK/dist
OUT_TAR=$WORK/pipeline.tar.gz
rm -rf "$OUT_BQ"
mkdir -p "$OUT_BQ"

# Sanity: the suite is valid (so release packages it), and both sides hold the same tree.
"$BQ" release "$SUITE" --out "$OUT_BQ" >/dev/null
tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -C "$WORK" -c "$NAME" \
    | gzip -n -$LEVEL > "$OUT_TAR"
(cd "$OUT_BQ" && sha256sum -c --quiet SHA256SUMS)
diff <(tar -tzf "$OUT_BQ/$NAME.tar.gz") <(tar -tzf "$OUT_TAR") >/dev/null || {
    echo "bench/release.sh: the two archives list different entries" >&2
    exit 1
}
echo "bqsuite asset:  $(stat -c %s "$OUT_BQ/$NAME.tar.gz") bytes"
echo "tar|gzip asset: $(stat -c %s "$OUT_TAR") bytes"
echo "machine: $(nproc) CPU(s), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(free -g | awk '/^Mem:/{print $2}') GiB RAM"

# 1. End to end: `bqsuite release` (load + validate + package + write), the pipeline, and
#    `bqsuite validate` alone (the floor that the validation every release runs puts under it).
hyperfine --warmup 1 --runs "$RUNS" \
    --export-markdown "$WORK/bench.md" \
    -n 'bqsuite release' "'$BQ' release '$SUITE' --out '$OUT_BQ'" \
    -n "tar | gzip -n -$LEVEL" \
    "tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -C '$WORK' -c '$NAME' | gzip -n -$LEVEL > '$OUT_TAR'" \
    -n 'bqsuite validate (part of release)' "'$BQ' validate '$SUITE'"

# 2. The packaging step alone (walk + tar + gzip of the already loaded suite), the part of
#    `bqsuite release` that does what the pipeline does. Runs the ignored timing test.
BQ_BENCH_SUITE=$SUITE cargo test --release --quiet --test release -- \
    --ignored --exact bench_packaging_only --nocapture 2>/dev/null | grep 'packaging only' \
    | tee -a "$WORK/bench.md"
echo "results: $WORK/bench.md"
