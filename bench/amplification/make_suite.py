#!/usr/bin/env python3
"""Writes a sound copy of the bundled suite built to make validation do too much work.

usage: make_suite.py shared|wide OUT_DIR [SIZE_MB]

shared: 1,000 roundtrip cases that all read one ~2 MB fixture (a validator that decodes and
        re-encodes the fixture once per case does 1,000 times the work it needs).
wide:   one roundtrip case whose fixture is ~12 MB: a data object of 1,000,000 keys.

SIZE_MB (default 12) scales both: the wide fixture is about SIZE_MB megabytes, the shared one a
sixth of that (the cases stay 1,000).
"""
import json
import pathlib
import shutil
import sys

kind, out = sys.argv[1], pathlib.Path(sys.argv[2])
scale = float(sys.argv[3]) / 12 if len(sys.argv) > 3 else 1.0
suite = pathlib.Path(__file__).resolve().parents[2] / "suite"
if out.exists():
    shutil.rmtree(out)
shutil.copytree(suite, out)
manifest = json.loads((out / "manifest.json").read_text())
envelope = json.loads((out / "fixtures/empty-data-roundtrip.json").read_text())

if kind == "shared":
    envelope["data"] = {
        "lines": [
            {"sku": f"SKU-{i:06d}", "qty": i % 7, "note": "x" * 40, "tags": ["a", "b"]}
            for i in range(max(1, int(14_000 * scale)))
        ]
    }
    name = "fixtures/amplify-shared.json"
    cases = [
        {
            "name": f"shared-fixture-{i:04d}",
            "file": name,
            "description": "One of a thousand cases over the same large fixture.",
            "expect_attempts": 1,
            "expect_preserved": {"/data/lines/0/sku": "SKU-000000"},
        }
        for i in range(1000)
    ]
elif kind == "wide":
    envelope["data"] = {f"k{i:06d}": 0 for i in range(max(1, int(1_000_000 * scale)))}
    name = "fixtures/amplify-wide.json"
    cases = [
        {
            "name": "wide-fixture",
            "file": name,
            "description": "A data object of a million keys.",
            "expect_attempts": 1,
            "expect_preserved": {"/data/k000000": 0},
        }
    ]
else:
    sys.exit(f"unknown kind {kind!r}: shared or wide")

compact = kind == "wide"
text = json.dumps(envelope, separators=(",", ":")) if compact else json.dumps(envelope, indent=1)
(out / name).write_text(text + "\n")
manifest["roundtrip"]["cases"].extend(cases)
(out / "manifest.json").write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
size = (out / name).stat().st_size
print(f"{out}: {len(cases)} case(s) over {name} ({size / 1e6:.1f} MB)")
