use super::*;
use crate::eval::realkit::{self, assert_flips_caught, assert_section_passes, release};
use crate::suite::ids::section_cases;
use serde_json::json;

const VERSIONS: [&str; 4] = ["1.5.0", "1.6.0", "1.7.0", "1.8.0"];

#[test]
fn every_real_case_passes() {
    for v in VERSIONS {
        assert_section_passes(v, "redis_layout");
    }
}

#[test]
fn the_key_name_flips_are_caught() {
    for v in VERSIONS {
        assert!(assert_flips_caught(v, "redis_layout") > 0, "{v}");
    }
}

/// Every leaf of `value` with its pointer suffix.
fn leaves(value: &Value, at: String, out: &mut Vec<(String, Value)>) {
    match value {
        Value::Array(items) if !items.is_empty() => {
            for (i, v) in items.iter().enumerate() {
                leaves(v, format!("{at}/{i}"), out);
            }
        }
        Value::Object(members) if !members.is_empty() => {
            for (k, v) in members {
                leaves(
                    v,
                    format!("{at}/{}", crate::suite::ids::escape_token(k)),
                    out,
                );
            }
        }
        _ => out.push((at, value.clone())),
    }
}

/// Another plausible value for an expectation leaf.
fn flipped(leaf: &Value) -> Value {
    match leaf {
        Value::Bool(b) => Value::Bool(!b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => Value::from(i + 1),
            None => Value::from(n.as_f64().unwrap_or(0.0) + 1.0),
        },
        Value::String(s) => Value::String(format!("{s}-flipped")),
        Value::Null => Value::Bool(false),
        Value::Array(_) => json!(["/flipped"]),
        Value::Object(_) => json!({"flipped": true}),
    }
}

/// Flips every leaf of every step expectation of every behavioural case (one at a time) and
/// requires a mismatch inside that case. Returns the flips made.
fn assert_step_flips_caught(version: &str) -> usize {
    let (manifest, files) = release(version);
    let cases: Vec<(String, Vec<(String, Value)>)> =
        section_cases("redis_layout", &manifest["redis_layout"])
            .iter()
            .map(|c| {
                let mut out = Vec::new();
                if let Some(Value::Array(steps)) = c.case.get("steps") {
                    for (i, step) in steps.iter().enumerate() {
                        if let Some(e) = step.get("expect") {
                            leaves(e, format!("{}/steps/{i}/expect", c.pointer), &mut out);
                        }
                    }
                }
                (c.pointer.clone(), out)
            })
            .collect();
    let mut problems = Vec::new();
    let mut flips = 0;
    for (case_ptr, leaves) in &cases {
        for (ptr, leaf) in leaves {
            let mut changed = manifest.clone();
            *changed.pointer_mut(ptr).expect("leaf") = flipped(leaf);
            flips += 1;
            let block = &changed["redis_layout"];
            let case = section_cases("redis_layout", block)
                .into_iter()
                .find(|c| &c.pointer == case_ptr)
                .expect("case");
            match realkit::run_case("redis_layout", &case, block, &files) {
                Verdict::Mismatch(m) if m.pointer.starts_with(case_ptr.as_str()) => {}
                other => problems.push(format!("{ptr}: {other:?}")),
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{version}: {} step flips not caught:\n{}",
        problems.len(),
        problems.join("\n")
    );
    flips
}

#[test]
fn every_step_expectation_flip_is_caught() {
    for v in ["1.6.0", "1.7.0", "1.8.0"] {
        assert!(assert_step_flips_caught(v) > 200, "{v}");
    }
}
