//! JavaScript-habit mutants: truthiness (`if (!value)`, `x || fallback`), `String(value)`,
//! `parseInt`, a `Date` held for `meta.created_at`, and the default `Array.prototype.sort`,
//! which compares numbers as strings.

use super::info::MutantInfo;
use crate::switch::Mutant;

pub const MUTANTS: &[MutantInfo] = &[
    MutantInfo {
        mutant: Mutant::JsGateStringCoerced,
        id: "js-gate-string-coerced",
        family: "javascript",
        rule: "a null property is treated like an absent one, and an ASB float 1.0 is not integral 1",
        habit: "String(props['bq-schema-version']) === '1', which turns null into \"null\" and 1.0 into \"1\"",
        sections: &["asb", "kafka", "artemis"],
    },
    MutantInfo {
        mutant: Mutant::JsGateFalsyAbsent,
        id: "js-gate-falsy-absent",
        family: "javascript",
        rule: "ASB: a number 0 is a version other than 1 and rejects; only absent, null or blank carries no version",
        habit: "if (!value) { /* no version */ }, which is also true for the number 0",
        sections: &["asb"],
    },
    // SURVIVES the real 1.8.0 suite (its garbage counts have no leading digits): killed by the
    // proposal/manifest.json cases `sqs/attempts_reconciliation/count-with-trailing-letters-ignored`
    // and `pulsar_exhaustion/reconciliation-bq-attempts-with-trailing-letters-keeps-body`.
    MutantInfo {
        mutant: Mutant::JsParseIntCounter,
        id: "js-parseint-counter",
        family: "javascript",
        rule: "a counter that is not a run of ASCII digits is garbage and ignored: \"5abc\" is not 5",
        habit: "parseInt(count, 10), which reads the leading digits of \"5abc\" (and 1 from \"1e3\")",
        sections: &["sqs", "pulsar_exhaustion"],
    },
    // Killed by the real 1.8.0 suite (dead-letter-roundtrip); the proposal/manifest.json case
    // `roundtrip/created-at-epoch-zero-roundtrip` tells it from copied-reemit-created-at-now,
    // whose stamp of the model's clock (0) happens to equal that case's created_at.
    MutantInfo {
        mutant: Mutant::JsCreatedAtAsDate,
        id: "js-created-at-as-date",
        family: "javascript",
        rule: "re-emit keeps meta.created_at as it was: an integer of Unix milliseconds",
        habit: "createdAt: new Date(meta.created_at) on decode, so JSON.stringify writes \"2025-06-05T14:12:07.000Z\"",
        sections: &["roundtrip"],
    },
    MutantInfo {
        mutant: Mutant::JsMetaValuesStringified,
        id: "js-meta-values-stringified",
        family: "javascript",
        rule: "a meta write-API entry keeps its JSON type: true, 3, [..] and {} are not strings",
        habit: "meta[key] = String(value) (a Record<string, string> meta), giving \"true\", \"3\", \"a,b\" and \"[object Object]\"",
        sections: &["extension_write"],
    },
    MutantInfo {
        mutant: Mutant::JsReleaseZeroDelayDefaulted,
        id: "js-release-zero-delay-defaulted",
        family: "javascript",
        rule: "a release with delay 0 sends VisibilityTimeout 0 (redeliver now)",
        habit: "VisibilityTimeout: Number(delay) || this.visibilityTimeout, which replaces 0 with the 30 s default",
        sections: &["delay"],
    },
    MutantInfo {
        mutant: Mutant::JsTiersDefaultSort,
        id: "js-tiers-default-sort",
        family: "javascript",
        rule: "the requested delay goes to the smallest tier at least that delay, in numeric order",
        habit: "tiers.sort() before tiers.find(t => t >= delay), which orders 1800000 before 5000 (string order)",
        sections: &["backoff"],
    },
];

#[cfg(test)]
mod tests {
    use super::MUTANTS;
    use crate::mutants::kit::{Family, family_tests};
    use crate::switch::Mutant;

    const FAMILY: Family = Family {
        name: "javascript",
        mutants: MUTANTS,
        proposal_kills: &[
            (
                Mutant::JsParseIntCounter,
                "sqs",
                "attempts_reconciliation/count-with-trailing-letters-ignored",
            ),
            (
                Mutant::JsParseIntCounter,
                "pulsar_exhaustion",
                "reconciliation-bq-attempts-with-trailing-letters-keeps-body",
            ),
        ],
        separates: &[
            // The string-coerced gate is told from gate-null-stringified by ASB's float 1.0.
            (
                Mutant::JsGateStringCoerced,
                Mutant::GateNullStringified,
                "asb",
                "schema_version_gate/22",
            ),
            // A Date is told from a constructor's clock stamp by a created_at equal to the
            // model's clock (0).
            (
                Mutant::JsCreatedAtAsDate,
                Mutant::CopiedReemitCreatedAtNow,
                "roundtrip",
                "created-at-epoch-zero-roundtrip",
            ),
        ],
    };

    family_tests!(FAMILY);
}
