//! Version-gate mutants: how the consumer reads the native bq-schema-version property.

use super::{Mutant, MutantInfo, on};
use crate::eval::model::{ascii_trim, is_ascii_blank};

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
    MutantInfo {
        mutant: Mutant::GateNullStringified,
        id: "gate-null-stringified",
        family: "gate",
        rule: "a present-but-null property is treated exactly like an absent one",
        habit: "String(value) / str(value) on the property, turning null into the text \"null\"",
        sections: &["asb", "kafka", "artemis"],
    },
];

/// The decode/reject decision for a string property under the active mutant, as `Some(true)`
/// for decode (`None`: the rule applies).
pub fn string_decodes(text: &str) -> Option<bool> {
    if on(Mutant::GateTrimsValue) {
        let trimmed = ascii_trim(text);
        Some(trimmed == "1" || trimmed.is_empty())
    } else if on(Mutant::GateUnicodeBlank) {
        Some(text == "1" || text.chars().all(char::is_whitespace))
    } else if on(Mutant::GateParsesInteger) {
        Some(text.parse::<i64>() == Ok(1) || is_ascii_blank(text))
    } else {
        None
    }
}

/// True when the active mutant reads a float 1.0 as integral 1.
pub fn float_one_decodes(value: Option<f64>) -> bool {
    on(Mutant::GateFloatOneAccepted) && value == Some(1.0)
}

/// True when the active mutant turns a null property into the text "null".
pub fn null_is_text() -> bool {
    on(Mutant::GateNullStringified)
}
