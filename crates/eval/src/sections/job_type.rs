//! Section `job_type`: a non-string `job` (null, number, boolean, object, array) is ignored and
//! decode warns; a blank-string `job` falls back to `urn` silently; a non-string or blank `urn`
//! is ignored; with no identity decode refuses. Decode `file`: `valid: true` means it is
//! accepted with `expect.urn` as the resolved identity and a warning iff `expect_warning`;
//! `valid: false` (with a `reason`) means it is refused for lack of identity.

use serde_json::Value;

use crate::case::{Case, Step, finish};
use crate::model::expect::{check_identity_expectations, decode_fixture};
use crate::outcome::{FixtureSource, Verdict};
use bqsuite_core::ids::CaseRef;

pub fn run(case: &CaseRef<'_>, _section_block: &Value, fixtures: &dyn FixtureSource) -> Verdict {
    finish(run_case(&Case::new(case), fixtures))
}

fn run_case(c: &Case<'_>, fixtures: &dyn FixtureSource) -> Step<()> {
    let result = decode_fixture(c, fixtures)?;
    check_identity_expectations(c, &result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::testkit::{fixtures, order_created_with, run_all, verdict_pointer};
    use serde_json::json;

    const URN: &str = "urn:babel:orders:created";

    fn files() -> std::collections::BTreeMap<String, String> {
        let with_urn = |job: Value| order_created_with(&[("job", job), ("urn", json!(URN))]);
        fixtures(&[
            ("fixtures/null.json", &with_urn(Value::Null)),
            ("fixtures/number.json", &with_urn(json!(42))),
            ("fixtures/bool.json", &with_urn(json!(true))),
            ("fixtures/object.json", &with_urn(json!({"urn": URN}))),
            ("fixtures/array.json", &with_urn(json!([URN]))),
            ("fixtures/blank.json", &with_urn(json!(""))),
            (
                "fixtures/number-no-urn.json",
                &order_created_with(&[("job", json!(42))]),
            ),
            (
                "fixtures/urn-number.json",
                &order_created_with(&[("-job", Value::Null), ("urn", json!(7))]),
            ),
            (
                "fixtures/both-null.json",
                &order_created_with(&[("job", Value::Null), ("urn", Value::Null)]),
            ),
            (
                "fixtures/bad-data.json",
                &order_created_with(&[
                    ("job", json!(42)),
                    ("urn", json!(URN)),
                    ("data", json!([])),
                ]),
            ),
        ])
    }

    fn valid(name: &str, file: &str, warn: bool) -> Value {
        json!({"name": name, "file": file, "valid": true, "expect_warning": warn,
               "expect": {"urn": URN}})
    }

    fn invalid(name: &str, file: &str) -> Value {
        json!({"name": name, "file": file, "valid": false, "reason": "no identity"})
    }

    #[test]
    fn passes_and_flips() {
        let good = json!({"description": "d", "cases": [
            valid("job-null-urn-fallback", "fixtures/null.json", true),
            valid("job-number-urn-fallback", "fixtures/number.json", true),
            valid("job-boolean-urn-fallback", "fixtures/bool.json", true),
            valid("job-object-urn-fallback", "fixtures/object.json", true),
            valid("job-array-urn-fallback", "fixtures/array.json", true),
            valid("blank-job-urn-fallback-silent", "fixtures/blank.json", false),
            invalid("job-number-no-urn-rejected", "fixtures/number-no-urn.json"),
            invalid("urn-number-no-job-rejected", "fixtures/urn-number.json"),
            invalid("job-null-urn-null-rejected", "fixtures/both-null.json")
        ]});
        let verdicts = run_all(run, "job_type", &good, &files());
        assert!(verdicts.iter().all(|v| *v == Verdict::Pass), "{verdicts:?}");

        let mut wrong_urn = valid("e", "fixtures/number.json", true);
        if let Some(e) = wrong_urn.get_mut("expect").and_then(Value::as_object_mut) {
            e.insert("urn".into(), json!("42"));
        }
        let flipped = json!({"description": "d", "cases": [
            valid("a", "fixtures/number.json", false),
            valid("b", "fixtures/blank.json", true),
            valid("c", "fixtures/number-no-urn.json", true),
            invalid("d", "fixtures/null.json"),
            wrong_urn,
            invalid("f", "fixtures/bad-data.json")
        ]});
        let got: Vec<String> = run_all(run, "job_type", &flipped, &files())
            .iter()
            .map(verdict_pointer)
            .collect();
        assert_eq!(
            got,
            [
                "mismatch /job_type/cases/0/expect_warning",
                "mismatch /job_type/cases/1/expect_warning",
                "mismatch /job_type/cases/2/valid",
                "mismatch /job_type/cases/3/valid",
                "mismatch /job_type/cases/4/expect/urn",
                "mismatch /job_type/cases/5/reason",
            ]
        );
    }

    #[test]
    fn malformed_cases() {
        let block = json!({"cases": [
            {"name": "a", "file": "fixtures/null.json", "valid": true, "expect": {"urn": URN}},
            {"name": "b", "file": "fixtures/null.json", "valid": "yes"},
            {"name": "c", "file": "fixtures/null.json", "valid": true, "expect_warning": true},
            {"name": "d", "file": "fixtures/null.json", "valid": true, "expect_warning": true,
             "expect": {"data": {}}},
            {"name": "e", "file": "fixtures/number-no-urn.json", "valid": false}
        ]});
        let got: Vec<String> = run_all(run, "job_type", &block, &files())
            .iter()
            .map(verdict_pointer)
            .collect();
        assert_eq!(
            got,
            [
                "malformed /job_type/cases/0/expect_warning",
                "malformed /job_type/cases/1/valid",
                "malformed /job_type/cases/2/expect",
                "malformed /job_type/cases/3/expect/urn",
                "malformed /job_type/cases/4/reason",
            ]
        );
    }
}
