//! A copy of the bundled suite grown past several deflate chunks with fixtures and cases of the
//! real shapes (as bench/release.sh grows it, smaller), for the release's parallel compression,
//! streamed validation and the memory bounds. Also compiled into the memory binary
//! (tests/memory), so everything here is used by both.

use serde_json::{Value, json};

use super::SuiteCopy;

/// A deterministic generator of pseudo-random numbers (xorshift).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const WORDS: [&str; 16] = [
    "order",
    "invoice",
    "customer",
    "parcel",
    "refund",
    "payment",
    "express",
    "standard",
    "pending",
    "confirmed",
    "returned",
    "gift",
    "coupon",
    "tier",
    "gold",
    "silver",
];

/// The real roundtrip cases whose fixture can grow under `data` without changing what the case
/// expects (none of their expectations spells out the whole `data` object).
fn templates(suite: &SuiteCopy) -> Vec<(Value, Value)> {
    let manifest = suite.read_json("manifest.json");
    manifest["roundtrip"]["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|case| case["expect_preserved"].get("/data").is_none())
        .filter_map(|case| {
            let fixture = suite.read_json(case["file"].as_str()?);
            fixture["data"].is_object().then(|| (case.clone(), fixture))
        })
        .collect()
}

/// A copy of the bundled suite with `count` more fixtures of about `bytes` bytes each, flat in
/// fixtures/, each read by a copy of a real roundtrip case (taken in turn) and holding a copy of
/// that case's real fixture with line items of an order added under `data`. It validates clean.
pub fn grown_suite(count: usize, bytes: usize) -> SuiteCopy {
    let suite = SuiteCopy::new();
    let shapes = templates(&suite);
    assert!(!shapes.is_empty());
    let mut rng = Rng::new(0x5eed_1234_abcd_0042);
    let mut cases = Vec::new();
    for k in 0..count {
        let (case, fixture) = &shapes[k % shapes.len()];
        let name = format!("bench-{k:05}");
        let mut doc = fixture.clone();
        let mut items = Vec::new();
        let mut text = String::new();
        while text.len() < bytes {
            let words = (0..2 + rng.below(4))
                .map(|_| WORDS[rng.below(WORDS.len() as u64) as usize])
                .collect::<Vec<_>>()
                .join(" ");
            items.push(json!({
                "line": items.len(),
                "sku": format!("SKU-{:06}", rng.below(1_000_000)),
                "digest": format!(
                    "{:016x}{:016x}{:016x}{:016x}",
                    rng.next(),
                    rng.next(),
                    rng.next(),
                    rng.next()
                ),
                "name": words,
                "quantity": 1 + rng.below(49),
                "unit_price_cents": 100 + rng.below(99_900),
                "fulfilled": rng.below(2) == 1,
            }));
            doc["data"]["bench"] = json!({ "order_id": k, "items": items });
            if items.len() % 8 == 0 || text.is_empty() {
                text = serde_json::to_string_pretty(&doc).unwrap();
            }
        }
        let text = serde_json::to_string_pretty(&doc).unwrap() + "\n";
        let rel = format!("fixtures/{name}.json");
        suite.write(&rel, &text);
        let mut case = case.clone();
        case["name"] = json!(format!("{name}-{}", case["name"].as_str().unwrap()));
        case["file"] = json!(rel);
        cases.push(case);
    }
    suite.edit_manifest(|m| {
        m["roundtrip"]["cases"]
            .as_array_mut()
            .unwrap()
            .extend(cases)
    });
    suite
}
