//! Section `identity_verdict`: the core decoder's verdict outside Kafka. The body is
//! classified exactly as in `kafka_poison`; a body without a valid identity is `poison` here,
//! so `expect` is `ok` or `poison`.

use serde_json::Value;

use super::kafka_poison::check_verdict;
use crate::case::{Case, finish};
use crate::outcome::{FixtureSource, Verdict};
use bqsuite_core::ids::CaseRef;

pub fn run(case: &CaseRef<'_>, _section_block: &Value, _fixtures: &dyn FixtureSource) -> Verdict {
    finish(check_verdict(&Case::new(case), true))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::outcome::Verdict;
    use crate::sections::kafka_poison::tests::verdict;

    #[test]
    fn no_identity_is_poison_here() {
        let case = |body: &str, expect: &str| json!({"name": "c", "body": body, "expect": expect});
        let run = |body, expect| verdict("identity_verdict", case(body, expect));
        assert_eq!(run("{\"job\":5}", "poison"), Verdict::Pass);
        assert!(matches!(
            run("{\"job\":5}", "no_identity"),
            Verdict::Mismatch(_)
        ));
        assert_eq!(run("{\"job\":5,\"urn\":\"urn:x\"}", "ok"), Verdict::Pass);
        assert!(matches!(
            run("{\"job\":\"urn:x\",\"data\":[]}", "ok"),
            Verdict::Mismatch(_)
        ));
    }
}
