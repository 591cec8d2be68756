//! Small helpers every section runner shares: typed access to case fields with precise
//! "malformed" verdicts, and the expected-versus-derived comparison.

use serde_json::Value;

use super::outcome::{FixtureSource, Mismatch, Verdict};
use bqsuite_core::ids::{CaseRef, escape_token};

/// Result type of a section runner's inner steps: `Err` carries the final verdict (a malformed
/// case or a mismatch), so runners can use `?` and stop at the first problem.
pub type Step<T> = Result<T, Verdict>;

/// Access to one case's fields, producing precise verdicts when a field is missing or mistyped.
pub struct Case<'a> {
    pub case: &'a CaseRef<'a>,
}

impl<'a> Case<'a> {
    pub fn new(case: &'a CaseRef<'a>) -> Self {
        Case { case }
    }

    /// Pointer of `field` inside manifest.json.
    pub fn ptr(&self, field: &str) -> String {
        format!("{}/{}", self.case.pointer, escape_token(field))
    }

    pub fn malformed(&self, field: &str, message: impl Into<String>) -> Verdict {
        Verdict::Malformed {
            pointer: self.ptr(field),
            message: message.into(),
        }
    }

    pub fn get(&self, field: &str) -> Option<&'a Value> {
        self.case.case.get(field)
    }

    pub fn require(&self, field: &str) -> Step<&'a Value> {
        self.get(field)
            .ok_or_else(|| self.malformed(field, format!("missing required field `{field}`")))
    }

    pub fn str(&self, field: &str) -> Step<&'a str> {
        self.require(field)?
            .as_str()
            .ok_or_else(|| self.malformed(field, format!("`{field}` must be a string")))
    }

    pub fn int(&self, field: &str) -> Step<i64> {
        self.require(field)?
            .as_i64()
            .ok_or_else(|| self.malformed(field, format!("`{field}` must be an integer")))
    }

    pub fn bool(&self, field: &str) -> Step<bool> {
        self.require(field)?
            .as_bool()
            .ok_or_else(|| self.malformed(field, format!("`{field}` must be a boolean")))
    }

    pub fn object(&self, field: &str) -> Step<&'a serde_json::Map<String, Value>> {
        self.require(field)?
            .as_object()
            .ok_or_else(|| self.malformed(field, format!("`{field}` must be an object")))
    }

    /// A field of the case, or else of the object that owns the case (shared parameters such as
    /// `envelope_file`), or else of `section_block` (section-wide parameters).
    pub fn inherited(&self, field: &str, section_block: &'a Value) -> Option<&'a Value> {
        self.get(field)
            .or_else(|| self.case.parent.get(field))
            .or_else(|| section_block.get(field))
    }

    /// Reads the text of a fixture the case names.
    pub fn fixture<'f>(
        &self,
        field: &str,
        rel_path: &str,
        fixtures: &'f dyn FixtureSource,
    ) -> Step<&'f str> {
        fixtures.text(rel_path).ok_or_else(|| {
            self.malformed(field, format!("fixture `{rel_path}` is not in the suite"))
        })
    }

    /// `Ok(())` when `expected == derived`, else a mismatch verdict at `field`.
    pub fn expect_eq(&self, field: &str, expected: &Value, derived: &Value) -> Step<()> {
        if expected == derived {
            Ok(())
        } else {
            Err(Verdict::Mismatch(Mismatch {
                pointer: self.ptr(field),
                expected: compact(expected),
                derived: compact(derived),
            }))
        }
    }

    /// A mismatch at `field` with free-text sides (for verdict words such as "accepted").
    pub fn mismatch(
        &self,
        field: &str,
        expected: impl Into<String>,
        derived: impl Into<String>,
    ) -> Verdict {
        Verdict::Mismatch(Mismatch {
            pointer: self.ptr(field),
            expected: expected.into(),
            derived: derived.into(),
        })
    }
}

/// Compact one-line JSON for messages.
pub fn compact(value: &Value) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "<unprintable>".to_string())
}

/// Collapses a runner's `Step<()>` into the final verdict.
pub fn finish(step: Step<()>) -> Verdict {
    match step {
        Ok(()) => Verdict::Pass,
        Err(verdict) => verdict,
    }
}
