//! Encode mutants: what re-emit keeps, the attempts bump, the meta write API and the
//! dead-letter move.

use super::info::MutantInfo;
use crate::switch::Mutant;

pub const MUTANTS: &[MutantInfo] = &[
    MutantInfo {
        mutant: Mutant::EncodeDropsUnknownKeys,
        id: "encode-drops-unknown-keys",
        family: "encode",
        rule: "unknown keys (top level and meta) are re-emitted with their value and type",
        habit: "decoding into a typed struct and serialising the struct back",
        sections: &["roundtrip", "extension_write"],
    },
    MutantInfo {
        mutant: Mutant::EncodeEmptyDataAsList,
        id: "encode-empty-data-as-list",
        family: "encode",
        rule: "an empty data map is written as {}, never []",
        habit: "PHP json_encode([]) without JSON_FORCE_OBJECT",
        sections: &["data_shape", "roundtrip"],
    },
    MutantInfo {
        mutant: Mutant::EncodeAttemptsNotIncremented,
        id: "retry-attempts-not-incremented",
        family: "encode",
        rule: "a retry hop writes attempts + 1",
        habit: "re-publishing the received envelope as it came",
        sections: &["roundtrip", "extension_write"],
    },
    MutantInfo {
        mutant: Mutant::EncodeForbiddenExtrasEmitted,
        id: "encode-forbidden-extras-emitted",
        family: "encode",
        rule: "encode refuses a forbidden or colliding key among the preserved extras",
        habit: "writing the extras container out without looking at its keys",
        sections: &["encode_reject"],
    },
    MutantInfo {
        mutant: Mutant::EncodeKeepsUrnAlias,
        id: "encode-keeps-urn-alias",
        family: "encode",
        rule: "re-emit writes the identity as job, never as the inbound urn alias",
        habit: "echoing the field name the identity was read from",
        sections: &["roundtrip"],
    },
    MutantInfo {
        mutant: Mutant::MakeForbiddenMetaDropped,
        id: "make-forbidden-meta-dropped",
        family: "encode",
        rule: "the meta write API refuses a forbidden key (an error, never a silent drop)",
        habit: "sanitising the caller's meta map instead of raising",
        sections: &["encode_reject"],
    },
    MutantInfo {
        mutant: Mutant::DeadLetterDropsUnknownKeys,
        id: "dead-letter-drops-unknown-keys",
        family: "encode",
        rule: "the dead-letter move keeps every unknown key",
        habit: "building the DLQ copy from the known fields only",
        sections: &["roundtrip"],
    },
];

#[cfg(test)]
mod tests {
    use super::MUTANTS;
    use crate::mutants::kit::{Family, family_tests};

    const FAMILY: Family = Family {
        name: "encode",
        mutants: MUTANTS,
        proposal_kills: &[],
        separates: &[],
    };

    family_tests!(FAMILY);
}
