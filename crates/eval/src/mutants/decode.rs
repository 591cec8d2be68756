//! Decode mutants: key matching, repeated keys, the identity rules and forbidden keys.

use super::info::MutantInfo;
use crate::switch::Mutant;

pub const MUTANTS: &[MutantInfo] = &[
    MutantInfo {
        mutant: Mutant::DecodeKeysCaseInsensitive,
        id: "decode-keys-case-insensitive",
        family: "decode",
        rule: "envelope keys are matched case-sensitively: JOB is an unknown key, not job",
        habit: "a case-insensitive JSON binder (.NET PropertyNameCaseInsensitive, Jackson ACCEPT_CASE_INSENSITIVE_PROPERTIES)",
        sections: &["cases"],
    },
    // Killed by the real 1.8.0 suite (duplicate-keys-last-wins); the proposal/manifest.json case
    // `cases/duplicate-job-key-last-wins` (a repeated job, no repeated object) tells it from
    // decode-duplicate-objects-merged.
    MutantInfo {
        mutant: Mutant::DecodeDuplicateFirstWins,
        id: "decode-duplicate-first-wins",
        family: "decode",
        rule: "a repeated key follows last wins",
        habit: "a streaming reader that keeps the first value it meets and skips later ones",
        sections: &["cases"],
    },
    MutantInfo {
        mutant: Mutant::DecodeDuplicateObjectsMerged,
        id: "decode-duplicate-objects-merged",
        family: "decode",
        rule: "a repeated key is never merged: the last object replaces the first",
        habit: "a config-style loader that deep-merges repeated objects",
        sections: &["cases"],
    },
    // Survives the real 1.8.0 suite: see proposal/manifest.json, job_type `array-job-other-urn-falls-back` (the real array job holds
    // the same URN as `urn`).
    MutantInfo {
        mutant: Mutant::DecodeJobArrayCoerced,
        id: "decode-job-array-coerced",
        family: "decode",
        rule: "a non-string job is ignored (with a warning); the URN comes from urn",
        habit: "JavaScript String(job): [\"urn:a\"] becomes \"urn:a\" and is used as the identity",
        sections: &["job_type"],
    },
    MutantInfo {
        mutant: Mutant::DecodeJobObjectUnwrapped,
        id: "decode-job-object-unwrapped",
        family: "decode",
        rule: "a non-string job is ignored (with a warning); the URN comes from urn",
        habit: "a decoder that unwraps an object job and takes its first string member as the URN",
        sections: &["job_type"],
    },
    // Survives the real 1.8.0 suite: see proposal/manifest.json, job_type `string-job-number-urn-decodes` (no real case pairs a
    // valid job with a non-string urn).
    MutantInfo {
        mutant: Mutant::DecodeUrnNonStringFatal,
        id: "decode-urn-non-string-fatal",
        family: "decode",
        rule: "a non-string urn is ignored; beside a valid string job the message decodes",
        habit: "a typed decoder (Go struct field urn string, serde) that fails on \"urn\": 7",
        sections: &["job_type"],
    },
    MutantInfo {
        mutant: Mutant::DecodeBlankEmptyOnly,
        id: "decode-blank-is-empty-only",
        family: "decode",
        rule: "a job or urn of only ASCII whitespace is blank and counts as absent",
        habit: "an emptiness test (job == \"\", if (job)) instead of a blank test",
        sections: &["trim"],
    },
    MutantInfo {
        mutant: Mutant::DecodeBlankUnicode,
        id: "decode-blank-unicode-whitespace",
        family: "decode",
        rule: "only the six ASCII whitespace characters are blank; U+00A0 is an identity",
        habit: "a Unicode-aware blank test (str.isspace(), string.IsNullOrWhiteSpace, isBlank())",
        sections: &["trim"],
    },
    // Survives the real 1.8.0 suite: see proposal/manifest.json, trim `decode-control-char-job-is-not-blank` (no real case has a
    // control character outside the ASCII set).
    MutantInfo {
        mutant: Mutant::DecodeBlankJavaTrim,
        id: "decode-blank-java-trim",
        family: "decode",
        rule: "only the six ASCII whitespace characters are blank; a control character is an identity",
        habit: "Java job.trim().isEmpty(): every character up to U+0020 counts as blank",
        sections: &["trim"],
    },
    MutantInfo {
        mutant: Mutant::DecodeForbiddenKeysKept,
        id: "decode-forbidden-keys-kept",
        family: "decode",
        rule: "a forbidden key is dropped with a warning, never preserved",
        habit: "preserve-everything decoding that treats timestamp or meta.ts like any unknown key",
        sections: &["forbidden_keys"],
    },
    MutantInfo {
        mutant: Mutant::DecodeListDataAccepted,
        id: "decode-list-data-accepted",
        family: "decode",
        rule: "data must be a JSON object: an array is rejected",
        habit: "PHP is_array($data) after json_decode(..., true), true for a list as for a map",
        sections: &["data_shape"],
    },
    MutantInfo {
        mutant: Mutant::AcceptsTraceIdEmptyOnly,
        id: "accepts-trace-id-empty-only",
        family: "decode",
        rule: "accepts() is false for a trace_id that is blank under the ASCII set, not only empty",
        habit: "a truthiness test on trace_id (if (!traceId), trace_id == \"\")",
        sections: &["trim"],
    },
    // Survives the real 1.8.0 suite (no accepts case has a Unicode-space trace_id): see
    // proposal/manifest.json, trim `accepts-unicode-space-trace-id-is-true`.
    MutantInfo {
        mutant: Mutant::AcceptsTraceIdBlankUnicode,
        id: "accepts-trace-id-blank-unicode",
        family: "decode",
        rule: "only the six ASCII whitespace characters make a trace_id blank; U+00A0 is a value",
        habit: "a Unicode-aware blank test on trace_id (str.isspace(), IsNullOrWhiteSpace, isBlank())",
        sections: &["trim"],
    },
];

#[cfg(test)]
mod tests {
    use super::MUTANTS;
    use crate::mutants::kit::{Family, family_tests};
    use crate::switch::Mutant;

    const FAMILY: Family = Family {
        name: "decode",
        mutants: MUTANTS,
        proposal_kills: &[
            (
                Mutant::DecodeJobArrayCoerced,
                "job_type",
                "array-job-other-urn-falls-back",
            ),
            (
                Mutant::DecodeUrnNonStringFatal,
                "job_type",
                "string-job-number-urn-decodes",
            ),
            (
                Mutant::DecodeBlankJavaTrim,
                "trim",
                "decode-control-char-job-is-not-blank",
            ),
            (
                Mutant::AcceptsTraceIdBlankUnicode,
                "trim",
                "accepts-unicode-space-trace-id-is-true",
            ),
        ],
        separates: &[
            // A repeated job beside no repeated object: last wins, and nothing is merged.
            (
                Mutant::DecodeDuplicateFirstWins,
                Mutant::DecodeDuplicateObjectsMerged,
                "cases",
                "duplicate-job-key-last-wins",
            ),
        ],
    };

    family_tests!(FAMILY);
}
