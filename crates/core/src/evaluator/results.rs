//! Turns evaluator outcomes into a results file (spec: "Results format").

use serde_json::{Map, Value, json};

use super::outcome::{CaseOutcome, Verdict};

/// Who produced the results.
pub struct Producer<'a> {
    pub sdk: &'a str,
    pub version: &'a str,
    pub generated_at: String,
}

/// The results document for `outcomes` of a suite whose manifest states `conformance_version`.
/// A reference model carries every binding of its suite (`bindings`), so every section is in
/// scope.
pub fn results_document(
    conformance_version: &str,
    producer: &Producer,
    outcomes: &[CaseOutcome],
    bindings: &[&str],
) -> Value {
    let mut sections: Map<String, Value> = Map::new();
    for o in outcomes {
        let entry = match &o.verdict {
            Verdict::Pass => json!({ "status": "pass" }),
            Verdict::Skip { reason } => json!({ "status": "skip", "reason": reason }),
            Verdict::Mismatch(m) => {
                json!({ "status": "fail", "reason": format!("{}: {m}", m.pointer) })
            }
            Verdict::Malformed { pointer, message } | Verdict::Failed { pointer, message } => {
                json!({ "status": "fail", "reason": format!("{pointer}: {message}") })
            }
            Verdict::NoRule => {
                json!({ "status": "fail", "reason": "no reference rule for this section" })
            }
        };
        sections
            .entry(o.section.clone())
            .or_insert_with(|| Value::Object(Map::new()))
            .as_object_mut()
            .map(|cases| cases.insert(o.id.clone(), entry));
    }
    json!({
        "sdk": producer.sdk,
        "version": producer.version,
        "conformance_version": conformance_version,
        "generated_at": producer.generated_at,
        "bindings": bindings,
        "sections": sections,
    })
}
