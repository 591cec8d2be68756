#!/usr/bin/env python3
"""Writes a large synthetic suite for bench/release.sh: the bundled suite plus generated fixtures
and cases of the real shapes.

usage: make_suite.py SUITE_DIR OUT_DIR FIXTURES FIXTURE_BYTES [items|random]

Every generated case is a copy of a real case of the bundled suite that reads a fixture (the
sections `cases`, `roundtrip`, `forbidden_keys`, `job_type`, `trim` and `data_shape`), taken in
turn: same section, same keys, same expectations. Its fixture is a copy of the real one with a
`bench` object added until it is FIXTURE_BYTES long (`items`, the default: line items of an
order, which compress about as well as a real suite; `random`: one string of random base64,
which does not compress, for a compressed asset about as large as the suite): under `data`, or
under `meta` when the case's expectations spell out the whole `data` object (so the manifest
stays the size of a real one). The fixtures sit flat in fixtures/ as `bench-NNNNN.json`, as the
suite layout requires. A real fixture that cannot be copied faithfully (a repeated key, which
parsing would merge, or no object to add to) is not used as a template.

Seeded: the same arguments write the same bytes.
"""
import base64
import copy
import json
import pathlib
import random
import shutil
import sys

SECTIONS = ("cases", "roundtrip", "forbidden_keys", "job_type", "trim", "data_shape")
WORDS = (
    "order invoice customer shipment parcel warehouse refund payment item sku price quantity "
    "discount tax region eu-west-1 us-east-2 express standard pending confirmed cancelled "
    "returned gift note coupon loyalty tier gold silver"
).split()


def section_cases(manifest, section):
    return manifest[section] if section == "cases" else manifest[section]["cases"]


def no_repeats(pairs):
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)):
        raise ValueError("repeated key")
    return dict(pairs)


def pad_target(case, doc):
    """Where the padding goes in a copy of `doc` for `case`: `data` or `meta`, or None."""
    expect = case.get("expect")
    preserved = case.get("expect_preserved")
    whole = lambda key: (isinstance(expect, dict) and key[1:] in expect) or (
        isinstance(preserved, dict) and key in preserved
    )
    for key in ("data", "meta"):
        if isinstance(doc.get(key), dict) and not whole("/" + key):
            return key
    return None


def templates(src, manifest):
    """(section, case, fixture value, padded key) for every real case whose fixture can be
    enlarged."""
    out = []
    for section in SECTIONS:
        for case in section_cases(manifest, section):
            rel = case.get("file")
            if not rel:
                continue
            try:
                doc = json.loads((src / rel).read_text(encoding="utf-8"), object_pairs_hook=no_repeats)
            except ValueError:
                continue
            target = pad_target(case, doc) if isinstance(doc, dict) else None
            if target:
                out.append((section, case, doc, target))
    return out


def dump(doc):
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def main():
    src, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    n, size = int(sys.argv[3]), int(sys.argv[4])
    payload = sys.argv[5] if len(sys.argv) > 5 else "items"
    if payload not in ("items", "random"):
        sys.exit(f"make_suite.py: unknown payload {payload!r}: items or random")
    rng = random.Random(20250605)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for name in ("CONFORMANCE_VERSION", "manifest.json"):
        shutil.copyfile(src / name, out / name)
    for name in ("fixtures", "schema"):
        shutil.copytree(src / name, out / name)
    manifest = json.loads((src / "manifest.json").read_text(encoding="utf-8"))
    shapes = templates(src, manifest)
    if not shapes:
        sys.exit("make_suite.py: no real case to copy")

    def uuid():
        h = "%032x" % rng.getrandbits(128)
        return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-8{h[17:20]}-{h[20:32]}"

    def line_item(i):
        return {
            "line": i,
            "sku": "SKU-%06d" % rng.randrange(1_000_000),
            "name": " ".join(rng.choice(WORDS) for _ in range(rng.randrange(2, 6))),
            "quantity": rng.randrange(1, 50),
            "unit_price_cents": rng.randrange(100, 100_000),
            "tags": [rng.choice(WORDS) for _ in range(rng.randrange(0, 4))],
            "fulfilled": rng.random() < 0.5,
        }

    for k in range(n):
        section, template, fixture, target = shapes[k % len(shapes)]
        name = "bench-%05d" % k
        doc = copy.deepcopy(fixture)
        bench = {"order_id": k, "customer": uuid(), "items": []}
        doc[target]["bench"] = bench
        text = dump(doc)
        if payload == "random":
            # The string fills what the rest leaves (its key and quotes take a few bytes more).
            missing = max(size - len(text.encode("utf-8")), 0)
            raw = rng.getrandbits(8 * (missing + 3)).to_bytes(missing + 3, "little")
            bench["blob"] = base64.b64encode(raw).decode("ascii")[:missing]
            text = dump(doc)
        # Items are added by estimate (an item's indented text, four levels deeper), then one at
        # a time until the size is reached: a few dumps per fixture, not one per item.
        missing = size - len(text.encode("utf-8"))
        while missing > 0:
            item = line_item(len(bench["items"]))
            bench["items"].append(item)
            piece = json.dumps(item, indent=2, ensure_ascii=False)
            missing -= len(piece.encode("utf-8")) + 8 * (piece.count("\n") + 1) + 2
            if missing <= 0:
                text = dump(doc)
                missing = size - len(text.encode("utf-8"))
        rel = f"fixtures/{name}.json"
        (out / rel).write_text(text, encoding="utf-8")
        case = copy.deepcopy(template)
        case["name"] = f"{name}-{template['name']}"[:100]
        case["file"] = rel
        section_cases(manifest, section).append(case)
    (out / "manifest.json").write_text(
        json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    used = sorted({t["name"] for _, t, _, _ in shapes})
    print(f"{out}: {n} fixtures of ~{size} bytes, cases copied from {len(used)} real cases", file=sys.stderr)


main()
