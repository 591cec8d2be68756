//! PHP-habit mutants: loose comparison (`==`, `in_array`), `empty()` and `?:` treating `"0"` as
//! missing, the `(int)` / `(string)` casts, `strtolower`, and `json_decode($text, true)`, which
//! cannot tell `{}` from `[]`.

use super::info::MutantInfo;
use crate::switch::Mutant;

/// Every binding section that carries a schema_version_gate table.
const GATE_SECTIONS: &[&str] = &["sqs", "asb", "pulsar", "kafka", "artemis"];

pub const MUTANTS: &[MutantInfo] = &[
    // SURVIVES the real 1.8.0 suite outside ASB (no string "0" property): killed by the
    // proposal/manifest.json case `<binding>/schema_version_gate` `zero-text-is-not-blank` of
    // sqs, pulsar, kafka and artemis; on ASB 1.8.0's number 0 kills it.
    MutantInfo {
        mutant: Mutant::PhpGateEmptyIsAbsent,
        id: "php-gate-empty-is-absent",
        family: "php",
        rule: "only an absent, null or ASCII-blank property carries no version: \"0\" (and an ASB number 0) rejects",
        habit: "if (empty($props['bq-schema-version'])), which is also true for \"0\" and 0",
        sections: GATE_SECTIONS,
    },
    MutantInfo {
        mutant: Mutant::PhpGateLooseEquals,
        id: "php-gate-loose-equals",
        family: "php",
        rule: "only the exact text \"1\" decodes: \"01\", \" 1\", \"1.0\" and \"1e0\" reject",
        habit: "$value == '1', which PHP 8 compares numerically when both sides are numeric strings",
        sections: GATE_SECTIONS,
    },
    MutantInfo {
        mutant: Mutant::PhpGateStringCast,
        id: "php-gate-string-cast",
        family: "php",
        rule: "ASB: a float 1.0 and a boolean true are not integral 1 and reject",
        habit: "(string) $value === '1', which turns a float 1.0 and true into \"1\"",
        sections: &["asb"],
    },
    // SURVIVES the real 1.8.0 suite (no job, urn or trace_id of "0"): killed by the
    // proposal/manifest.json cases `job_type/zero-text-job-is-the-identity`,
    // `trim/accepts-zero-trace-id-is-true`, and `job zero text` of kafka_poison and
    // identity_verdict.
    MutantInfo {
        mutant: Mutant::PhpZeroStringIsAbsent,
        id: "php-zero-text-is-absent",
        family: "php",
        rule: "a string is blank only when empty or ASCII whitespace: a job or trace_id of \"0\" is a value",
        habit: "$job = $body['job'] ?: $body['urn'] (and if (!$traceId)), which skips the falsy string \"0\"",
        sections: &["job_type", "trim", "kafka_poison", "identity_verdict"],
    },
    // Killed by the real 1.8.0 suite (an empty data object); the proposal/manifest.json case
    // `roundtrip/numeric-text-keys-stay-an-object` tells it from encode-empty-data-as-list.
    MutantInfo {
        mutant: Mutant::PhpAssocArrayReencode,
        id: "php-assoc-array-reencode",
        family: "php",
        rule: "re-emit keeps every object an object: {} and {\"0\": .., \"1\": ..} never become arrays",
        habit: "json_encode(json_decode($text, true)): an associative array that is empty or keyed 0..n-1 encodes as a list",
        sections: &["roundtrip", "data_shape"],
    },
    // SURVIVES the real 1.8.0 suite (its garbage counts have no leading digits): killed by the
    // proposal/manifest.json cases `sqs/attempts_reconciliation/count-with-trailing-letters-ignored`
    // and `pulsar_exhaustion/reconciliation-bq-attempts-with-trailing-letters-keeps-body`.
    MutantInfo {
        mutant: Mutant::PhpIntCastCounter,
        id: "php-int-cast-counter",
        family: "php",
        rule: "a counter that is not a run of ASCII digits is garbage and ignored: \"5abc\" is not 5",
        habit: "(int) $attributes['ApproximateReceiveCount'], which reads the leading number of \"5abc\" and 0 for words",
        sections: &["sqs", "pulsar_exhaustion"],
    },
    // SURVIVES the real 1.8.0 suite (no ids differing in case): killed by the
    // proposal/manifest.json case `idempotency/sequences/ids-differing-in-letter-case-are-distinct`.
    MutantInfo {
        mutant: Mutant::PhpSeenSetStrtolower,
        id: "php-seen-set-strtolower",
        family: "php",
        rule: "the dedupe key is meta.id verbatim: ids differing in letter case are different messages",
        habit: "$key = strtolower($message->meta['id']) before the seen-set lookup",
        sections: &["idempotency"],
    },
    // SURVIVES the real 1.8.0 suite (no numeric-looking ids): killed by the
    // proposal/manifest.json case `idempotency/sequences/numeric-looking-ids-compare-as-text`.
    MutantInfo {
        mutant: Mutant::PhpSeenSetLooseInArray,
        id: "php-seen-set-loose-in-array",
        family: "php",
        rule: "the dedupe key is compared as text: \"1\", \"01\" and \"1e0\" are different ids",
        habit: "in_array($id, $seen) without strict = true, which compares numeric strings as numbers",
        sections: &["idempotency"],
    },
    // SURVIVES the real 1.8.0 suite (every meta.schema_version in it is an integer): killed by the
    // proposal/manifest.json case `cases/invalid-string-schema-version`.
    MutantInfo {
        mutant: Mutant::PhpSchemaVersionLooseEquals,
        id: "php-schema-version-loose-equals",
        family: "php",
        rule: "meta.schema_version is the integer 1, type included: \"1\", \"01\", 1.0 and true are not versions",
        habit: "$meta['schema_version'] == 1, which PHP 8 also holds for numeric strings worth 1, the float 1.0 and true",
        sections: &["cases"],
    },
];

#[cfg(test)]
mod tests {
    use super::MUTANTS;
    use crate::mutants::kit::{Family, family_tests};
    use crate::switch::Mutant;

    const FAMILY: Family = Family {
        name: "php",
        mutants: MUTANTS,
        proposal_kills: &[
            (
                Mutant::PhpGateEmptyIsAbsent,
                "sqs",
                "schema_version_gate/zero-text-is-not-blank",
            ),
            (
                Mutant::PhpGateEmptyIsAbsent,
                "pulsar",
                "schema_version_gate/zero-text-is-not-blank",
            ),
            (
                Mutant::PhpGateEmptyIsAbsent,
                "kafka",
                "schema_version_gate/zero-text-is-not-blank",
            ),
            (
                Mutant::PhpGateEmptyIsAbsent,
                "artemis",
                "schema_version_gate/zero-text-is-not-blank",
            ),
            (
                Mutant::PhpZeroStringIsAbsent,
                "job_type",
                "zero-text-job-is-the-identity",
            ),
            (
                Mutant::PhpZeroStringIsAbsent,
                "trim",
                "accepts-zero-trace-id-is-true",
            ),
            (
                Mutant::PhpZeroStringIsAbsent,
                "kafka_poison",
                "job zero text",
            ),
            (
                Mutant::PhpZeroStringIsAbsent,
                "identity_verdict",
                "job zero text",
            ),
            (
                Mutant::PhpIntCastCounter,
                "sqs",
                "attempts_reconciliation/count-with-trailing-letters-ignored",
            ),
            (
                Mutant::PhpIntCastCounter,
                "pulsar_exhaustion",
                "reconciliation-bq-attempts-with-trailing-letters-keeps-body",
            ),
            (
                Mutant::PhpSeenSetStrtolower,
                "idempotency",
                "sequences/ids-differing-in-letter-case-are-distinct",
            ),
            (
                Mutant::PhpSeenSetLooseInArray,
                "idempotency",
                "sequences/numeric-looking-ids-compare-as-text",
            ),
            (
                Mutant::PhpSchemaVersionLooseEquals,
                "cases",
                "invalid-string-schema-version",
            ),
        ],
        separates: &[(
            Mutant::PhpAssocArrayReencode,
            Mutant::EncodeEmptyDataAsList,
            "roundtrip",
            "numeric-text-keys-stay-an-object",
        )],
    };

    family_tests!(FAMILY);
}
