//! JSON Schema engine mutants: a payload validator that is not the draft-07 the payload schema
//! declares (booleans as integers, coerced numeric strings, draft-04's integer, exclusive or
//! truncating bounds, a type check that misses integers, draft-03's `required`). The
//! variations are in [`crate::switch::schema_engine`].
//!
//! String length in UTF-16 units or graphemes is the `payload` family's. The suite's payload
//! schemas use no keyword whose meaning differs between draft-07 and 2020-12, so no case can
//! separate the two (an open decision in `docs/suites/babelqueue-proposal.md`).

use super::info::MutantInfo;
use crate::switch::Mutant;

const PAYLOAD: &[&str] = &["payload_schema"];
const TYPES: &[&str] = &["payload_schema_types"];

pub const MUTANTS: &[MutantInfo] = &[
    // SURVIVES the real 1.8.0 suite: killed by the proposal/manifest.json case
    // `payload_schema/boolean-is-not-an-integer`.
    MutantInfo {
        mutant: Mutant::SchemaBooleanAsInteger,
        id: "schema-boolean-as-integer",
        family: "schema-engine",
        rule: "a boolean is not an integer: {\"order_id\": true} is invalid",
        habit: "a type check that reads true as 1 (isinstance(v, int) in Python, a loose numeric cast)",
        sections: PAYLOAD,
    },
    // SURVIVES the real 1.8.0 suite (its wrong-type case is not numeric): killed by the
    // proposal/manifest.json case `payload_schema/numeric-string-is-not-an-integer`.
    MutantInfo {
        mutant: Mutant::SchemaNumericStringCoerced,
        id: "schema-numeric-string-coerced",
        family: "schema-engine",
        rule: "a string of digits is a string: {\"order_id\": \"1042\"} is invalid",
        habit: "a validator that coerces types before checking (Ajv coerceTypes: true, PHP is_numeric)",
        sections: PAYLOAD,
    },
    // SURVIVES the real 1.8.0 suite: killed by the proposal/manifest.json case
    // `payload_schema/integral-float-is-an-integer`.
    MutantInfo {
        mutant: Mutant::SchemaIntegralFloatNotInteger,
        id: "schema-integral-float-not-integer",
        family: "schema-engine",
        rule: "in draft-07 an integer is any number with a zero fractional part: 1042.0 is an integer",
        habit: "a draft-04 engine, or asking the JSON library how the number was written (Jackson isIntegralNumber, PHP is_int)",
        sections: PAYLOAD,
    },
    // SURVIVES the real 1.8.0 suite (its cases at the bound are invalid for another reason):
    // killed by the proposal/manifest.json case `payload_schema/minimum-is-inclusive`.
    MutantInfo {
        mutant: Mutant::SchemaMinimumExclusive,
        id: "schema-minimum-exclusive",
        family: "schema-engine",
        rule: "minimum is inclusive: order_id 1 meets minimum 1",
        habit: "value > minimum, as if draft-04's exclusiveMinimum flag were always on",
        sections: PAYLOAD,
    },
    // SURVIVES the real 1.8.0 suite: killed by the proposal/manifest.json case
    // `payload_schema/fraction-below-minimum-zero`.
    MutantInfo {
        mutant: Mutant::SchemaMinimumTruncatesFraction,
        id: "schema-minimum-truncates-fraction",
        family: "schema-engine",
        rule: "minimum compares the number as it is: amount -0.5 is below minimum 0",
        habit: "comparing through a whole-number conversion ((long) value, node.asLong(), intValue()), which reads -0.5 as 0",
        sections: PAYLOAD,
    },
    // SURVIVES the real 1.8.0 suite (its only integer amount is in an invalid case): killed by the
    // proposal/manifest.json case `payload_schema/integer-amount-is-a-number`.
    MutantInfo {
        mutant: Mutant::SchemaNumberRejectsIntegers,
        id: "schema-number-rejects-integers",
        family: "schema-engine",
        rule: "every integer is a number: amount 10 has type number",
        habit: "checking type number as a floating-point type (Jackson isDouble(), a type switch on float64 only)",
        sections: PAYLOAD,
    },
    MutantInfo {
        mutant: Mutant::SchemaDraft3RequiredIgnored,
        id: "schema-draft3-required-ignored",
        family: "schema-engine",
        rule: "required is an array of property names that must be present",
        habit: "a draft-03 engine, where required is a boolean inside each property and the array form means nothing",
        sections: PAYLOAD,
    },
    // SURVIVES the real 1.8.0 suite (its only enum holds strings): killed by the
    // proposal/manifest.json cases `payload_schema_types/boolean-true-is-not-enum-1`,
    // `boolean-false-is-not-enum-0` and `boolean-true-is-not-const-1`.
    MutantInfo {
        mutant: Mutant::SchemaEnumPythonEquality,
        id: "schema-enum-python-equality",
        family: "schema-engine",
        rule: "enum and const compare as JSON: true is not 1 and false is not 0",
        habit: "value in schema[\"enum\"] or value == schema[\"const\"] in Python, where True == 1",
        sections: TYPES,
    },
    // SURVIVES the real 1.8.0 suite: killed by the proposal/manifest.json cases of
    // `payload_schema_types` that give a boolean or the text "1" for a number.
    MutantInfo {
        mutant: Mutant::SchemaEnumPhpLoose,
        id: "schema-enum-php-loose",
        family: "schema-engine",
        rule: "enum and const compare as JSON: neither \"1\" nor true is 1",
        habit: "in_array($value, $enum) without strict, or $value == $const, in PHP",
        sections: TYPES,
    },
    // SURVIVES the real 1.8.0 suite (its required order_id rejects every empty value anyway):
    // killed by the proposal/manifest.json cases `payload_schema_types/zero-and-empty-text-are-present`
    // and `null-is-present`, and in payload_schema by `null-amount-is-not-a-number` (a null amount
    // read as absent is no longer of the wrong type).
    MutantInfo {
        mutant: Mutant::SchemaRequiredPhpEmpty,
        id: "schema-required-php-empty",
        family: "schema-engine",
        rule: "required asks only whether a member is present: 0, \"\" and null are present",
        habit: "!empty($data[$name]) (or JavaScript's !data[name]) as the presence test",
        sections: &["payload_schema", "payload_schema_types"],
    },
];

#[cfg(test)]
mod tests {
    use super::MUTANTS;
    use crate::mutants::kit::{Family, family_tests};
    use crate::switch::Mutant;

    const FAMILY: Family = Family {
        name: "schema-engine",
        mutants: MUTANTS,
        // The mutants of this family no real 1.8.0 case kills, with the proposal case that does.
        proposal_kills: &[
            (
                Mutant::SchemaBooleanAsInteger,
                "payload_schema",
                "boolean-is-not-an-integer",
            ),
            (
                Mutant::SchemaNumericStringCoerced,
                "payload_schema",
                "numeric-string-is-not-an-integer",
            ),
            (
                Mutant::SchemaIntegralFloatNotInteger,
                "payload_schema",
                "integral-float-is-an-integer",
            ),
            (
                Mutant::SchemaMinimumExclusive,
                "payload_schema",
                "minimum-is-inclusive",
            ),
            (
                Mutant::SchemaMinimumTruncatesFraction,
                "payload_schema",
                "fraction-below-minimum-zero",
            ),
            (
                Mutant::SchemaNumberRejectsIntegers,
                "payload_schema",
                "integer-amount-is-a-number",
            ),
            (
                Mutant::SchemaEnumPythonEquality,
                "payload_schema_types",
                "boolean-true-is-not-enum-1",
            ),
            (
                Mutant::SchemaEnumPhpLoose,
                "payload_schema_types",
                "text-one-is-not-enum-1",
            ),
            (
                Mutant::SchemaRequiredPhpEmpty,
                "payload_schema_types",
                "zero-and-empty-text-are-present",
            ),
            (
                Mutant::SchemaRequiredPhpEmpty,
                "payload_schema",
                "null-amount-is-not-a-number",
            ),
        ],
        separates: &[],
    };

    family_tests!(FAMILY);
}
