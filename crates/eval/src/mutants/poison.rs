//! Poison mutants: how a consumer classifies a raw body (`kafka_poison`, `identity_verdict`)
//! and how it writes the DLQ record of a poison body (`poison_dlq`).
//!
//! Survivors of the real 1.8.0 suite (`proposal/manifest.json` holds the cases that kill them):
//! - `poison-type-check-last-only` and `dlq-nested-dead-letter-wrapped`: no real case kills them;
//! - `poison-integral-float-accepted`, `poison-int64-unbounded`, `poison-data-numbers-unchecked`:
//!   killed in `kafka_poison` but not in `identity_verdict`, whose only wrongly typed bodies
//!   with a valid identity are a string `attempts` and an array `data` (without an identity
//!   the body is poison either way), so an SDK outside Kafka with these habits passes.

use super::info::MutantInfo;
use crate::switch::Mutant;

const BOTH: &[&str] = &["kafka_poison", "identity_verdict"];

pub const MUTANTS: &[MutantInfo] = &[
    MutantInfo {
        mutant: Mutant::PoisonBomSkipped,
        id: "poison-bom-skipped",
        family: "poison",
        rule: "a body that starts with a byte order mark is not JSON: it is poison",
        habit: "a reader that decodes bytes with utf-8-sig / a BOM-sniffing stream reader",
        sections: BOTH,
    },
    MutantInfo {
        mutant: Mutant::PoisonNullRootRejected,
        id: "poison-null-root-rejected",
        family: "poison",
        rule: "a bare null decodes to an empty envelope: no identity, not a decode error",
        habit: "if (!(root is object)) throw: null treated like any non-object root",
        sections: &["kafka_poison"],
    },
    MutantInfo {
        mutant: Mutant::PoisonKeysCaseInsensitive,
        id: "poison-keys-case-insensitive",
        family: "poison",
        rule: "member names are case-sensitive: JOB and Meta are unknown members",
        habit: "a case-insensitive binder (.NET PropertyNameCaseInsensitive, Go encoding/json field matching)",
        sections: BOTH,
    },
    MutantInfo {
        mutant: Mutant::PoisonNullMemberRejected,
        id: "poison-null-member-rejected",
        family: "poison",
        rule: "every known member may be null: meta: null or attempts: null is not a type error",
        habit: "a non-nullable typed field (Kotlin Int, Rust u32 without Option)",
        sections: BOTH,
    },
    MutantInfo {
        mutant: Mutant::PoisonIntegralFloatAccepted,
        id: "poison-integral-float-accepted",
        family: "poison",
        rule: "an integer member is written without fraction or exponent: 1.0 and 1e3 are poison",
        habit: "Number.isInteger(value) / value == int(value) on a parsed double",
        // SURVIVOR in identity_verdict on the real 1.8.0 (killed in kafka_poison).
        sections: BOTH,
    },
    MutantInfo {
        mutant: Mutant::PoisonInt64Unbounded,
        id: "poison-int64-unbounded",
        family: "poison",
        rule: "an integer member must fit 64 signed bits: 9223372036854775808 is poison",
        habit: "an arbitrary-precision integer (Python int, BigInteger) taken as is",
        // SURVIVOR in identity_verdict on the real 1.8.0 (killed in kafka_poison).
        sections: BOTH,
    },
    MutantInfo {
        mutant: Mutant::PoisonDataNumbersUnchecked,
        id: "poison-data-numbers-unchecked",
        family: "poison",
        rule: "a number inside data must be a finite double: 1e400 is poison",
        habit: "json.loads reads 1e400 as inf and nothing checks it",
        // SURVIVOR in identity_verdict on the real 1.8.0 (killed in kafka_poison).
        sections: BOTH,
    },
    MutantInfo {
        mutant: Mutant::PoisonTypeCheckLastOnly,
        id: "poison-type-check-last-only",
        family: "poison",
        rule: "every occurrence of a repeated known member is type-checked, not only the last",
        habit: "parse to a map first (last duplicate wins), then type-check the map",
        // SURVIVOR of the real 1.8.0 suite: killed only by the proposal/manifest.json cases.
        sections: BOTH,
    },
    MutantInfo {
        mutant: Mutant::PoisonNonStringJobFatal,
        id: "poison-non-string-job-fatal",
        family: "poison",
        rule: "a job that is not a string is ignored (ADR-0032 section 6), never a type error",
        habit: "a typed decoder with job: string (the pre-1.6.0 table made {\"job\":5} poison)",
        sections: BOTH,
    },
    MutantInfo {
        mutant: Mutant::PoisonUrnNonStringFatal,
        id: "poison-urn-non-string-fatal",
        family: "poison",
        rule: "a urn that is not a string is ignored, never a type error",
        habit: "a typed decoder with urn: string",
        sections: BOTH,
    },
    MutantInfo {
        mutant: Mutant::PoisonDuplicateFirstWins,
        id: "poison-duplicate-first-wins",
        family: "poison",
        rule: "the last of a repeated top-level key wins before the identity rule applies",
        habit: "a streaming reader that keeps the first value it meets",
        sections: BOTH,
    },
    MutantInfo {
        mutant: Mutant::PoisonBlankNoFallback,
        id: "poison-blank-job-no-fallback",
        family: "poison",
        rule: "a blank string job falls back to urn",
        habit: "job is a string, so it is the identity; blank means none, without looking at urn",
        sections: BOTH,
    },
    MutantInfo {
        mutant: Mutant::PoisonBlankSpacesOnly,
        id: "poison-blank-spaces-only",
        family: "poison",
        rule: "blank is empty or ASCII whitespace only: \" \\t\" is blank",
        habit: "job.strip(' ') / trim(' ') that only removes spaces",
        sections: &["identity_verdict"],
    },
    MutantInfo {
        mutant: Mutant::PoisonSchemaVersionGated,
        id: "poison-schema-version-gated",
        family: "poison",
        rule: "the decoder does not gate on meta.schema_version: 2 decodes (the gate is separate)",
        habit: "folding the schema-version check into the body decoder",
        sections: &["kafka_poison"],
    },
    MutantInfo {
        mutant: Mutant::DlqWrapsEverything,
        id: "dlq-wraps-everything",
        family: "poison",
        rule: "a strict object body is spliced (the body plus dead_letter), not wrapped",
        habit: "always {\"raw\": body}: simplest writer, loses the object shape",
        sections: &["poison_dlq"],
    },
    MutantInfo {
        mutant: Mutant::DlqRawEncodingUtf8,
        id: "dlq-raw-encoding-utf8",
        family: "poison",
        rule: "raw_encoding is omitted for a text raw, never written as utf8",
        habit: "always writing the encoding field, with its default value",
        sections: &["poison_dlq"],
    },
    MutantInfo {
        mutant: Mutant::DlqReplacementChar,
        id: "dlq-replacement-char",
        family: "poison",
        rule: "bytes that are not UTF-8 are base64 with raw_encoding, never U+FFFD-substituted",
        habit: "bytes.decode('utf-8', 'replace') / new String(bytes, UTF_8)",
        sections: &["poison_dlq"],
    },
    MutantInfo {
        mutant: Mutant::DlqBase64Unpadded,
        id: "dlq-base64-unpadded",
        family: "poison",
        rule: "raw base64 is the standard padded alphabet (RFC 4648 section 4)",
        habit: "base64.RawStdEncoding / a no-padding encoder",
        sections: &["poison_dlq"],
    },
    MutantInfo {
        mutant: Mutant::DlqReencodedSplice,
        id: "dlq-reencoded-splice",
        family: "poison",
        rule: "a splice is byte-level: 1e400 and both of two repeated members stay verbatim",
        habit: "parse the body, add dead_letter, serialize again",
        sections: &["poison_dlq"],
    },
    MutantInfo {
        mutant: Mutant::DlqNanAccepted,
        id: "dlq-nan-accepted",
        family: "poison",
        rule: "an object with NaN / Infinity literals is not strict JSON: it is wrapped",
        habit: "Python json.loads, which reads NaN and Infinity by default",
        sections: &["poison_dlq"],
    },
    MutantInfo {
        mutant: Mutant::DlqLoneSurrogateAccepted,
        id: "dlq-lone-surrogate-accepted",
        family: "poison",
        rule: "an object with an unpaired surrogate escape is wrapped",
        habit: "a parser that keeps lone surrogates (Python json, JavaScript JSON.parse)",
        sections: &["poison_dlq"],
    },
    MutantInfo {
        mutant: Mutant::DlqBomSkipped,
        id: "dlq-bom-skipped",
        family: "poison",
        rule: "a body with a leading BOM is wrapped as it is",
        habit: "a reader that drops the BOM before parsing (utf-8-sig)",
        sections: &["poison_dlq"],
    },
    MutantInfo {
        mutant: Mutant::DlqExistingDeadLetterSpliced,
        id: "dlq-existing-dead-letter-spliced",
        family: "poison",
        rule: "an object that already has a top-level dead_letter is wrapped, not spliced",
        habit: "splice anyway (two dead_letter members, or the old one overwritten)",
        sections: &["poison_dlq"],
    },
    MutantInfo {
        mutant: Mutant::DlqWhitespaceWrapped,
        id: "dlq-whitespace-wrapped",
        family: "poison",
        rule: "JSON whitespace around the object does not stop the splice",
        habit: "body.startsWith(\"{\") && body.endsWith(\"}\") as the object test",
        sections: &["poison_dlq"],
    },
    MutantInfo {
        mutant: Mutant::DlqKeySurrogateUnchecked,
        id: "dlq-key-surrogate-unchecked",
        family: "poison",
        rule: "an unpaired surrogate escape in a member name also forces the wrapper",
        habit: "walking the parsed values for lone surrogates, never the keys",
        sections: &["poison_dlq"],
    },
    MutantInfo {
        mutant: Mutant::DlqNestedDeadLetterWrapped,
        id: "dlq-nested-dead-letter-wrapped",
        family: "poison",
        rule: "only a TOP-LEVEL dead_letter member forces the wrapper; a nested one is spliced",
        habit: "text.contains(\"\\\"dead_letter\\\"\") / a recursive key search",
        // SURVIVOR of the real 1.8.0 suite: killed only by the proposal/manifest.json case.
        sections: &["poison_dlq"],
    },
];

#[cfg(test)]
mod tests {
    use super::MUTANTS;
    use crate::mutants::kit::{Family, family_tests};
    use crate::switch::Mutant;

    /// The proposal's case, in `kafka_poison` and `identity_verdict` alike, whose `attempts` is
    /// repeated with a string first and an integer last.
    const REPEATED_ATTEMPTS: &str = "identity with repeated attempts, the first wrongly typed";

    const FAMILY: Family = Family {
        name: "poison",
        mutants: MUTANTS,
        // Where no real 1.8.0 case kills a mutant of this family, the proposal case that does.
        proposal_kills: &[
            (
                Mutant::PoisonTypeCheckLastOnly,
                "kafka_poison",
                REPEATED_ATTEMPTS,
            ),
            (
                Mutant::PoisonTypeCheckLastOnly,
                "identity_verdict",
                REPEATED_ATTEMPTS,
            ),
            (
                Mutant::PoisonIntegralFloatAccepted,
                "identity_verdict",
                "identity with decimal-zero meta.created_at",
            ),
            (
                Mutant::PoisonInt64Unbounded,
                "identity_verdict",
                "identity with attempts beyond int64",
            ),
            (
                Mutant::PoisonDataNumbersUnchecked,
                "identity_verdict",
                "identity with huge number in data",
            ),
            (
                Mutant::DlqNestedDeadLetterWrapped,
                "poison_dlq",
                "object-nested-dead-letter",
            ),
        ],
        separates: &[],
    };

    family_tests!(FAMILY);
}
