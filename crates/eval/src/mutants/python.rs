//! Python-habit mutants: `re.match` with `$` (which also matches before a final newline),
//! `str.strip()` and `str.isspace()` with their Unicode defaults, `isinstance(True, int)`,
//! `str()` of a float, and `uuid4().hex`. `int()` on a counter text (`" 3 "`, `"1_0"`) is not
//! one: whether such a text is a count is an open decision (docs/suites/babelqueue-proposal.md).

use super::info::MutantInfo;
use crate::switch::Mutant;

/// Every binding section that carries a schema_version_gate table.
const GATE_SECTIONS: &[&str] = &["sqs", "asb", "pulsar", "kafka", "artemis"];

pub const MUTANTS: &[MutantInfo] = &[
    // SURVIVES the real 1.8.0 suite (no "1\n" property): killed by the proposal/manifest.json
    // case `<binding>/schema_version_gate` `one-with-trailing-newline` of every gate binding.
    MutantInfo {
        mutant: Mutant::PyGateRegexDollar,
        id: "python-gate-regex-dollar",
        family: "python",
        rule: "only the exact text \"1\" decodes: \"1\\n\" is padded with whitespace and rejects",
        habit: "re.match(r\"^1$\", value), whose $ also matches before a trailing newline",
        sections: GATE_SECTIONS,
    },
    MutantInfo {
        mutant: Mutant::PyStripDefault,
        id: "python-strip-default",
        family: "python",
        rule: "blank and trim use the six ASCII whitespace characters only: U+00A0, U+0085, U+3000 and U+001F are values",
        habit: "value.strip() and not value.strip(), whose default set is every str.isspace() character",
        sections: &["trim", "sqs", "asb", "pulsar", "kafka", "artemis"],
    },
    // Killed by the real 1.8.0 kafka_poison (a boolean meta.schema_version); identity_verdict maps
    // that case's no_identity to poison, where the proposal/manifest.json case
    // `identity_verdict/identity with boolean attempts` kills it; decode's attempts check, which
    // no real case hands a boolean, is killed by the proposal case `cases/invalid-boolean-attempts`.
    MutantInfo {
        mutant: Mutant::PyBoolIsInt,
        id: "python-bool-is-int",
        family: "python",
        rule: "an integer-typed member holding true or false is the wrong type: the body is poison, and a boolean attempts rejects",
        habit: "isinstance(value, int) as the integer check, which holds for True and False (and True == 1)",
        sections: &["kafka_poison", "identity_verdict", "cases"],
    },
    MutantInfo {
        mutant: Mutant::PyFloatDelayHeader,
        id: "python-float-delay-header",
        family: "python",
        rule: "bq-delay is a decimal integer string of milliseconds (\"20000\")",
        habit: "str(delay_seconds * 1000) with the delay held as a float, which writes \"20000.0\"",
        sections: &["backoff"],
    },
    // SURVIVES the real 1.8.0 suite (no case looks at the form of a generated meta.id): killed
    // by the proposal/manifest.json case `producer_stamps/ids-are-uuid-text`.
    MutantInfo {
        mutant: Mutant::PyMessageIdUuidHex,
        id: "python-message-id-uuid-hex",
        family: "python",
        rule: "make writes meta.id as a UUID in its text form: 8-4-4-4-12 hex digits with hyphens (format uuid)",
        habit: "\"id\": uuid.uuid4().hex, the same 32 hex digits without their hyphens",
        sections: &["producer_stamps"],
    },
];

#[cfg(test)]
mod tests {
    use super::MUTANTS;
    use crate::mutants::kit::{Family, family_tests};
    use crate::switch::Mutant;

    const NEWLINE: &str = "schema_version_gate/one-with-trailing-newline";

    const FAMILY: Family = Family {
        name: "python",
        mutants: MUTANTS,
        proposal_kills: &[
            (Mutant::PyGateRegexDollar, "sqs", NEWLINE),
            (Mutant::PyGateRegexDollar, "asb", NEWLINE),
            (Mutant::PyGateRegexDollar, "pulsar", NEWLINE),
            (Mutant::PyGateRegexDollar, "kafka", NEWLINE),
            (Mutant::PyGateRegexDollar, "artemis", NEWLINE),
            (
                Mutant::PyBoolIsInt,
                "identity_verdict",
                "identity with boolean attempts",
            ),
            (Mutant::PyBoolIsInt, "cases", "invalid-boolean-attempts"),
            (
                Mutant::PyMessageIdUuidHex,
                "producer_stamps",
                "ids-are-uuid-text",
            ),
        ],
        separates: &[
            // python-strip-default is told from trim-unicode-whitespace by U+001F.
            (
                Mutant::PyStripDefault,
                Mutant::TrimUnicode,
                "trim",
                "make-keeps-control-char-padding",
            ),
        ],
    };

    family_tests!(FAMILY);
}
