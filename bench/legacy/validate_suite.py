#!/usr/bin/env python3
"""Re-creation of the checks the suite's old CI ran (shell + Python jsonschema), used only as the
baseline in bench/validate.sh. It does less than `bqsuite validate`: no evaluator, no line:column,
no ids, no sections map; it stops at the first failing group."""
import json, os, re, sys
import jsonschema

root = sys.argv[1] if len(sys.argv) > 1 else "suite"
def load(rel):
    with open(os.path.join(root, rel), encoding="utf-8") as f:
        return json.load(f)

for d in ("fixtures", "schema"):
    for name in sorted(os.listdir(os.path.join(root, d))):
        load(f"{d}/{name}")
manifest = load("manifest.json")
assert manifest["schema_version"] == 1, "schema_version"
version = open(os.path.join(root, "CONFORMANCE_VERSION")).read().strip()
assert re.fullmatch(r"\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?", version), "CONFORMANCE_VERSION"
for case in manifest["cases"]:
    assert os.path.exists(os.path.join(root, case["file"])), case["file"]
    assert ("expect" in case) if case["valid"] else ("reason" in case), case["name"]
envelope = jsonschema.Draft7Validator(load("schema/message-envelope.schema.json"))
def resolve(doc, ptr):
    for tok in ptr.split("/")[1:]:
        tok = tok.replace("~1", "/").replace("~0", "~")
        doc = doc[int(tok)] if isinstance(doc, list) else doc[tok]
    return doc
for block in ("roundtrip", "forbidden_keys"):
    for case in manifest.get(block, {}).get("cases", []):
        fixture = load(case["file"])
        if case.get("producer_schema_valid", True):
            envelope.validate(fixture)
        if "forbidden_key" in case:
            resolve(fixture, case["forbidden_key"])
for case in manifest.get("data_shape", {}).get("cases", []):
    if case["name"] == "data-array-rejected":
        assert not envelope.is_valid(load(case["file"])), "data-array-rejected"
for block in ("payload_schema", "payload_schema_unicode"):
    v = jsonschema.Draft7Validator(manifest[block]["schema"])
    for case in manifest[block]["cases"]:
        assert v.is_valid(case["data"]) == case["valid"], case["name"]
jsonschema.Draft202012Validator(load("schema/results.schema.json")).validate(load("schema/results.example.json"))
print("ok")
