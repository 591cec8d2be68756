//! Trim mutants: which characters make strips from the URN and trace_id, the blank check of
//! make, and trimming where it does not belong (re-emit).

use super::info::MutantInfo;
use crate::switch::Mutant;

pub const MUTANTS: &[MutantInfo] = &[
    MutantInfo {
        mutant: Mutant::TrimUnicode,
        id: "trim-unicode-whitespace",
        family: "trim",
        rule: "make trims only the six ASCII whitespace characters; U+00A0, U+2003, U+3000 stay",
        habit: "a Unicode-aware trim: Python str.strip(), JavaScript trim(), Go strings.TrimSpace, Java strip()",
        sections: &["trim"],
    },
    // Survives the real 1.8.0 suite (no make case has a control character outside the ASCII
    // set): see proposal/manifest.json, trim `make-keeps-control-char-padding`.
    MutantInfo {
        mutant: Mutant::TrimJavaTrim,
        id: "trim-java-string-trim",
        family: "trim",
        rule: "make trims only the six ASCII whitespace characters; other control characters stay",
        habit: "Java String.trim(): strips every character up to U+0020, NUL and U+001C-U+001F included",
        sections: &["trim"],
    },
    MutantInfo {
        mutant: Mutant::TrimPhpDefault,
        id: "trim-php-default-set",
        family: "trim",
        rule: "make trims exactly space, \\t, \\n, \\v, \\f and \\r",
        habit: "PHP trim() with its default list: strips NUL, keeps the form feed",
        sections: &["trim"],
    },
    MutantInfo {
        mutant: Mutant::TrimWithoutVerticalTab,
        id: "trim-without-vertical-tab",
        family: "trim",
        rule: "the vertical tab (U+000B) is ASCII whitespace and is trimmed",
        habit: "the WHATWG / Rust is_ascii_whitespace set, which has no vertical tab",
        sections: &["trim"],
    },
    MutantInfo {
        mutant: Mutant::TrimUrnOnly,
        id: "trim-urn-only",
        family: "trim",
        rule: "make trims the supplied trace_id as it trims the URN",
        habit: "trimming the one field that was reported in a bug and passing the trace id through",
        sections: &["trim"],
    },
    MutantInfo {
        mutant: Mutant::TrimOnReencode,
        id: "trim-on-reencode",
        family: "trim",
        rule: "re-emit never trims: job and trace_id are written back as received (GR-4)",
        habit: "normalising every envelope on encode, not only on make",
        sections: &["trim"],
    },
    MutantInfo {
        mutant: Mutant::MakeBlankCheckBeforeTrim,
        id: "make-blank-check-before-trim",
        family: "trim",
        rule: "a URN that is empty after the ASCII trim makes make fail",
        habit: "validating the raw argument (urn == \"\") and trimming afterwards",
        sections: &["trim"],
    },
];

#[cfg(test)]
mod tests {
    use super::MUTANTS;
    use crate::mutants::kit::{Family, family_tests};
    use crate::switch::Mutant;

    const FAMILY: Family = Family {
        name: "trim",
        mutants: MUTANTS,
        proposal_kills: &[(
            Mutant::TrimJavaTrim,
            "trim",
            "make-keeps-control-char-padding",
        )],
        separates: &[],
    };

    family_tests!(FAMILY);
}
