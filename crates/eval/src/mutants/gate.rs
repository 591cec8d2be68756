//! Version-gate mutants: how the consumer reads the native bq-schema-version property.

use super::info::MutantInfo;
use crate::switch::Mutant;

/// Every binding section that carries a schema_version_gate table.
const GATE_SECTIONS: &[&str] = &["sqs", "asb", "pulsar", "kafka", "artemis"];

pub const MUTANTS: &[MutantInfo] = &[
    MutantInfo {
        mutant: Mutant::GateTrimsValue,
        id: "gate-trims-value",
        family: "gate",
        rule: "the gate compares the property as it is, never trimmed: \" 1\" rejects",
        habit: "value.strip() == \"1\" (trim before comparing)",
        sections: GATE_SECTIONS,
    },
    MutantInfo {
        mutant: Mutant::GateUnicodeBlank,
        id: "gate-unicode-blank",
        family: "gate",
        rule: "only ASCII whitespace is blank; a U+00A0 or U+3000 property rejects",
        habit: "a Unicode-aware blank test (str.isspace(), char.IsWhiteSpace, Character.isWhitespace)",
        sections: GATE_SECTIONS,
    },
    MutantInfo {
        mutant: Mutant::GateParsesInteger,
        id: "gate-parses-integer",
        family: "gate",
        rule: "only the exact text \"1\" decodes: \"01\" rejects",
        habit: "int(value) == 1 / Integer.parseInt, which reads \"01\" and \"+1\" as 1",
        sections: GATE_SECTIONS,
    },
    MutantInfo {
        mutant: Mutant::GateFloatOneAccepted,
        id: "gate-float-one-accepted",
        family: "gate",
        rule: "ASB: a floating-point 1.0 is not integral 1 and rejects",
        habit: "comparing the AMQP number numerically (Convert.ToInt64(value) == 1)",
        sections: &["asb"],
    },
    // SURVIVES the real 1.8.0 suite (no ASB integer beyond int32): killed by the proposal/manifest.json
    // case `asb/schema_version_gate` {value: 4294967297, expect: reject}.
    MutantInfo {
        mutant: Mutant::GateAsbNarrowsToInt32,
        id: "gate-asb-narrows-to-int32",
        family: "gate",
        rule: "ASB: only an integral value equal to 1 decodes; an int64 4294967297 is not 1",
        habit: "casting the AMQP long to a 32-bit int before comparing ((int)value == 1), which wraps 2^32 + 1 to 1",
        sections: &["asb"],
    },
    // SURVIVES the real 1.8.0 suite (no ASB boolean case): killed by the proposal/manifest.json case
    // `asb/schema_version_gate` {value: true, expect: reject}.
    MutantInfo {
        mutant: Mutant::GateAsbBooleanTrueIsOne,
        id: "gate-asb-boolean-true-is-one",
        family: "gate",
        rule: "ASB: a property of any type other than string or integral number rejects (a boolean true is not 1)",
        habit: "a loose equality (JavaScript value == 1, PHP value == 1) that holds for true",
        sections: &["asb"],
    },
    MutantInfo {
        mutant: Mutant::GateNullStringified,
        id: "gate-null-stringified",
        family: "gate",
        rule: "a present-but-null property is treated exactly like an absent one",
        habit: "String(value) / str(value) on the property, turning null into the text \"null\"",
        sections: &["asb", "kafka", "artemis"],
    },
];

#[cfg(test)]
mod tests {
    use super::MUTANTS;
    use crate::mutants::kit::{Family, family_tests};
    use crate::switch::Mutant;

    const FAMILY: Family = Family {
        name: "gate",
        mutants: MUTANTS,
        // The mutants of this family no real 1.8.0 case kills, with the proposal case that does.
        proposal_kills: &[
            (
                Mutant::GateAsbNarrowsToInt32,
                "asb",
                "schema_version_gate/number-int64-beyond-int32-wraps-to-1",
            ),
            (
                Mutant::GateAsbBooleanTrueIsOne,
                "asb",
                "schema_version_gate/boolean-true-is-not-1",
            ),
        ],
        separates: &[],
    };

    family_tests!(FAMILY);
}
