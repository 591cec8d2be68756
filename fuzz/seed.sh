#!/usr/bin/env bash
# Regenerates the seed corpora in fuzz/seeds/ from the bundled suite and the release it makes.
# Usage: fuzz/seed.sh   (needs a built `target/release/bqsuite`, python3 for the tar slices)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
bq="$repo/target/release/bqsuite"
[ -x "$bq" ] || (cd "$repo" && cargo build --release --locked)
seeds="$here/seeds"
version=$(tr -d '[:space:]' <"$repo/suite/CONFORMANCE_VERSION")
rm -rf "$seeds"
mkdir -p "$seeds"/{archive,json,suite,results,sums,targets,diff,sbp_decode,adapter}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# archive: the real asset (first byte 0: gzip as downloaded), its tar stream (first byte 1: the
# harness compresses it), and short canonical prefixes of that stream.
"$bq" release "$repo/suite" --out "$work/rel" >/dev/null
asset="$work/rel/babelqueue-conformance-$version.tar.gz"
{ printf '\0'; cat "$asset"; } >"$seeds/archive/asset.gz"
gunzip -c "$asset" >"$work/asset.tar"
{ printf '\1'; cat "$work/asset.tar"; } >"$seeds/archive/asset.tar"
# The same release as GNU tar writes it in its own (gnu) and posix (pax) formats: the shapes the
# suite's published assets and other writers use.
mkdir -p "$work/tree"
tar -xzf "$asset" -C "$work/tree"
for format in gnu posix; do
    { printf '\1'; tar --format=$format --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner \
        -C "$work/tree" -cf - "babelqueue-conformance-$version"; } >"$seeds/archive/$format.tar"
done
python3 - "$work/asset.tar" "$seeds/archive" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
blocks = [data[i:i + 512] for i in range(0, len(data), 512)]
# Entry boundaries: a header block, then ceil(size / 512) data blocks.
starts, i = [], 0
while i < len(blocks) and any(blocks[i]):
    starts.append(i)
    size = int(blocks[i][124:136].strip(b"\0 ") or b"0", 8)
    i += 1 + (size + 511) // 512
for n in (1, 3, 6):
    end = starts[n] if n < len(starts) else i
    open(f"{sys.argv[2]}/first-{n}.tar", "wb").write(b"\1" + b"".join(blocks[:end]) + b"\0" * 1024)
PY

# json: every JSON document of the suite.
for f in "$repo"/suite/manifest.json "$repo"/suite/schema/*.json "$repo"/suite/fixtures/*.json; do
  cp "$f" "$seeds/json/$(basename "$f")"
done

# results: the schema's example, and the reference evaluator's own results.
cp "$repo/suite/schema/results.example.json" "$seeds/results/example.json"
"$bq" eval "$repo/suite" --out "$work/results.json" >/dev/null
cp "$work/results.json" "$seeds/results/reference.json"

# sums: the release's SHA256SUMS, a binary-mode line, two disagreeing lines.
cp "$work/rel/SHA256SUMS" "$seeds/sums/release"
sed 's/  / */' "$work/rel/SHA256SUMS" >"$seeds/sums/binary-mode"
{ cat "$work/rel/SHA256SUMS"; sed 's/^./0/' "$work/rel/SHA256SUMS"; } >"$seeds/sums/ambiguous"

# targets: the real workspace list (at the repository root, beside suite/), and one with
# comments, a nested pair and a bad line.
cp "$repo/sync-targets.txt" "$seeds/targets/real"
printf '# SDK copies\nsdk/conf  # trailing comment\nsdk/conf/fixtures/x\n/abs\nother/a/../b\n' \
  >"$seeds/targets/mixed"

# suite and diff: edits to the bundled suite (see fuzz/harness.rs for the format).
fixtures=("$repo"/suite/fixtures/*.json)
fixture=${fixtures[0]}
{ printf '@@ fixtures/added.json\n'; cat "$fixture"; } >"$seeds/suite/add-fixture"
printf '@@ !manifest.json\n' >"$seeds/suite/no-manifest"
printf '@@ CONFORMANCE_VERSION\n1.9.0\n' >"$seeds/suite/version"
{ printf '@@ manifest.json\n'; cat "$repo/suite/manifest.json"; } >"$seeds/suite/manifest"
printf '@@ fixtures/d/x.json\n{}\n@@ fixtures/.h.json\n{}\n' >"$seeds/suite/bad-names"
printf '\n@@@@\n@@ CONFORMANCE_VERSION\n1.9.0\n@@ !%s\n' "fixtures/$(basename "$fixture")" \
  >"$seeds/diff/remove-fixture"
{ printf '\n@@@@\n@@ CONFORMANCE_VERSION\n1.8.1\n@@ manifest.json\n'; cat "$repo/suite/manifest.json"; } \
  >"$seeds/diff/manifest"
# sbp_decode: the SBP v1 golden vectors V01-V19 (crates/sbp's tests check these bytes).
python3 - "$seeds/sbp_decode" <<'PY'
import sys
fid, aid, ts = "000102030405060708090a0b0c0d0e0f", "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff", "0068e5cf8b010000"
hs = b'{"protocol":"sideband","version":"1","peerId":"peer-a"}'.hex()
vectors = {
    "v01": "0000" + fid + "00" + hs, "v02": "0001" + fid + ts + "00" + hs,
    "v03": "0000" + fid + "01", "v04": "0001" + fid + ts + "01", "v05": "0000" + fid + "02",
    "v06": "0000" + fid + "03", "v07": "0000" + fid + "03" + b"bye".hex(),
    "v08": "0100" + fid + "0b000000" + b"rpc/getUser".hex() + b"hi".hex(),
    "v09": "0100" + fid + "11000000" + b"event/user.joined".hex(),
    "v10": "0101" + fid + ts + "05000000" + b"app/x".hex() + "00ff",
    "v11": "0200" + fid + aid, "v12": "0201" + fid + ts + aid,
    "v13": "0300" + fid + "ea03" + "03000000" + b"bad".hex(),
    "v14": "0300" + fid + "d007" + "03000000" + b"app{}".hex(),
    "v15": "0300" + fid + "e803" + "00000000", "v16": "0001" + fid + "ff" * 8 + "01",
    "v17": "0001" + fid + "00" * 8 + "01", "v18": "0300" + fid + "ffff" + "00000000",
    "v19": "0100" + fid + "08000000" + "app/".encode().hex() + "f09f8e89",
}
for name, hexed in vectors.items():
    with open(f"{sys.argv[1]}/{name}", "wb") as f:
        f.write(bytes.fromhex(hexed))
PY
# adapter: a seq byte, then one protocol line: each reply form, a start reply, a request per op.
lines=(
  'value:\005{"seq":5,"value":{"kind":"control"}}'
  'error:\007{"seq":7,"error":{"code":1002,"message":"x"}}'
  'skip:\001{"seq":1,"skip":"no"}'
  'start:\000{"protocol":1,"implementation":{"name":"a","version":"1","language":"rust"}}'
  'request-decode:\000{"cmd":"op","seq":1,"case":"a/b","op":"decode","input":{"hex":"0000000102030405060708090a0b0c0d0e0f01","limits":{"max_frame":64}}}'
  'request-encode:\000{"cmd":"op","seq":2,"op":"encode","input":{"frame":{"kind":"ack","frameId":"000102030405060708090a0b0c0d0e0f","ackId":"000102030405060708090a0b0c0d0e0f"}}}'
  'request-handshake:\000{"cmd":"op","seq":3,"op":"handshake","input":{"hex":"7b7d"}}'
)
for entry in "${lines[@]}"; do
  printf '%b' "${entry#*:}" >"$seeds/adapter/${entry%%:*}"
done
echo "seeds written to $seeds"
