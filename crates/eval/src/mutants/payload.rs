//! Payload-schema mutants (ADR-0024): how a validator measures a string for `minLength`, and a
//! validator that lets unlisted properties through.

use super::info::MutantInfo;
use crate::switch::Mutant;

pub const MUTANTS: &[MutantInfo] = &[
    MutantInfo {
        mutant: Mutant::PayloadAdditionalPropertiesIgnored,
        id: "payload-additional-properties-ignored",
        family: "payload",
        rule: "additionalProperties: false makes a property the schema does not list invalid",
        habit: "a hand-rolled validator that checks the listed properties and skips the rest",
        sections: &["payload_schema"],
    },
    MutantInfo {
        mutant: Mutant::PayloadLengthUtf8Bytes,
        id: "payload-length-utf8-bytes",
        family: "payload",
        rule: "minLength counts Unicode code points, not UTF-8 bytes",
        habit: "PHP strlen() / Go len(s) / a byte-length check on the encoded string",
        sections: &["payload_schema_unicode"],
    },
    MutantInfo {
        mutant: Mutant::PayloadLengthUtf16Units,
        id: "payload-length-utf16-units",
        family: "payload",
        rule: "minLength counts Unicode code points, not UTF-16 code units",
        habit: "JavaScript / Java / C# string.length, which counts an emoji twice",
        sections: &["payload_schema_unicode"],
    },
    MutantInfo {
        mutant: Mutant::PayloadLengthGraphemes,
        id: "payload-length-graphemes",
        family: "payload",
        rule: "minLength counts Unicode code points, not user-perceived characters",
        habit: "a grapheme-aware length (Swift String.count, grapheme_strlen) that folds a combining mark into its base",
        sections: &["payload_schema_unicode"],
    },
];

#[cfg(test)]
mod tests {
    use super::MUTANTS;
    use crate::mutants::kit::{Family, family_tests};

    const FAMILY: Family = Family {
        name: "payload",
        mutants: MUTANTS,
        proposal_kills: &[],
        separates: &[],
    };

    family_tests!(FAMILY);
}
