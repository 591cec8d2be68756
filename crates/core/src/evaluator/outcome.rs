//! What the reference evaluator says about one case.

use std::fmt;

/// The evaluator's verdict on one manifest case.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// The manifest's expectation equals what the reference model derives.
    Pass,
    /// The manifest's expectation disagrees with the model.
    Mismatch(Mismatch),
    /// The case cannot be run by design; `reason` cites the ADR that makes it inapplicable.
    Skip { reason: String },
    /// The case is not shaped as its section requires (missing or mistyped field, unreadable
    /// fixture), so nothing could be derived.
    Malformed { pointer: String, message: String },
    /// The evaluator has no rule for this case's section (a section newer than this bqsuite).
    NoRule,
    /// An implementation under test answered otherwise than the case expects, or gave no usable
    /// answer, at `pointer`; only grading an implementation (`bqsuite run`) gives it, never
    /// the reference model.
    Failed { pointer: String, message: String },
}

/// An expectation that the reference model contradicts.
#[derive(Debug, Clone, PartialEq)]
pub struct Mismatch {
    /// Pointer, inside manifest.json, of the field that holds the wrong expectation.
    pub pointer: String,
    /// The value the manifest states (compact JSON or a short phrase).
    pub expected: String,
    /// The value the reference model derives.
    pub derived: String,
}

/// One evaluated case.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseOutcome {
    pub section: String,
    pub id: String,
    /// Pointer of the case object inside manifest.json.
    pub pointer: String,
    pub verdict: Verdict,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "expected {} but the reference model derives {}",
            self.expected, self.derived
        )
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Pass => f.write_str("pass"),
            Verdict::Mismatch(m) => write!(f, "{}: {m}", m.pointer),
            Verdict::Skip { reason } => write!(f, "skip ({reason})"),
            Verdict::Malformed { pointer, message } | Verdict::Failed { pointer, message } => {
                write!(f, "{pointer}: {message}")
            }
            Verdict::NoRule => f.write_str("no reference rule for this section"),
        }
    }
}

pub use crate::fixtures::FixtureSource;
