//! The SBP conformance suite's runners: [`Sbp`], the model as the [`Evaluator`] the commands run
//! over `sbp-suite/`. Pure: the manifest and a [`FixtureSource`] are all it reads.
//!
//! A case names its `op` (`decode`, `encode`, `vector`, `roundtrip`, `sequence`, `handshake`,
//! `fuzz`); the runner is chosen by the op, never by the section (sections group cases for
//! people, and any op may sit in any section). `docs/suites/sbp.md` describes each op's inputs
//! and `expect`.
//!
//! - `case`: reading a case's fields, bytes, fixtures and limits (malformed verdicts);
//! - `frame_json`: the JSON form of a frame and of a handshake, both ways;
//! - `compare`: the expectation against the derived outcome, at the first differing field;
//! - `codec`: what the runners ask of the codec they judge (the model, or an adapter);
//! - `ops`: the runners.

mod case;
pub mod codec;
mod compare;
mod frame_json;
mod ops;

use serde_json::Value;

use bqsuite_core::evaluator::{CaseOutcome, Evaluator, FixtureSource, MutantInfo, Verdict};
use bqsuite_core::ids::escape_token;
use bqsuite_core::index::{CaseIndex, IndexedCase};
use bqsuite_core::show;

use crate::mistakes::{Mistake, Mistakes};
use case::{Case, malformed};
use codec::{Codec, Model};

/// The parts of the conformance plan, one section of the suite each, in manifest order.
pub const SECTIONS: [&str; 8] = [
    "frame_vectors",
    "handshake",
    "decode_errors",
    "subjects",
    "roundtrip",
    "limits",
    "unicode",
    "negative_fuzzing",
];

/// The SBP v1 model, as the [`Evaluator`] a suite whose description names `sbp-v1` runs.
pub struct Sbp;

/// The name a suite's description gives this model.
pub const MODEL: &str = "sbp-v1";

impl Evaluator for Sbp {
    fn model(&self) -> &'static str {
        MODEL
    }

    fn evaluate_some(
        &self,
        manifest: &Value,
        index: &CaseIndex<'_>,
        which: &[usize],
        fixtures: &dyn FixtureSource,
        parsed: Option<(&str, Value)>,
        mutant: Option<usize>,
    ) -> Vec<CaseOutcome> {
        let m = match mutant.and_then(|at| Mistake::ALL.get(at)) {
            Some(&mistake) => Mistakes::only(mistake),
            None => Mistakes::NONE,
        };
        let parsed = parsed.as_ref().map(|(path, value)| (*path, value));
        which
            .iter()
            .map(|&i| outcome(manifest, &index.cases[i], fixtures, parsed, &mut Model(m)))
            .collect()
    }

    /// Every mistake of [`Mistake::ALL`], in that order.
    fn mutants(&self) -> Vec<MutantInfo> {
        Mistake::ALL
            .iter()
            .map(|&m| {
                let info = m.info();
                MutantInfo {
                    id: info.id,
                    family: info.family,
                    rule: info.rule,
                    habit: info.habit,
                    sections: sections_pinning(m),
                }
            })
            .collect()
    }
}

/// Evaluates every case of `manifest` with the model run under the mistakes `m` (any set, such
/// as [`Mistakes::REFERENCE`]; [`Evaluator::evaluate`] runs one mistake at a time).
pub fn evaluate_with(
    manifest: &Value,
    fixtures: &dyn FixtureSource,
    m: Mistakes,
) -> Vec<CaseOutcome> {
    let index = CaseIndex::new(manifest);
    index
        .cases
        .iter()
        .map(|c| outcome(manifest, c, fixtures, None, &mut Model(m)))
        .collect()
}

/// The outcome of case `c` of `manifest` with `codec`'s answers: how `bqsuite run` grades an
/// implementation, by the rules the model is held to.
pub fn judge(
    manifest: &Value,
    c: &IndexedCase<'_>,
    fixtures: &dyn FixtureSource,
    codec: &mut dyn Codec,
) -> CaseOutcome {
    outcome(manifest, c, fixtures, None, codec)
}

/// The sections whose cases pin the rule `m` breaks: each holds a case that kills it.
fn sections_pinning(m: Mistake) -> &'static [&'static str] {
    use Mistake::*;
    match m {
        LengthsBigEndian
        | LengthFitOffByOne
        | TimestampFlagIgnored
        | FrameId8Bytes
        | FrameId32Bytes
        | UnknownErrorCodeRefused => &["frame_vectors"],
        LengthsSigned | MinimumOneShort | ReservedFlagsIgnored | TrailingBytesAccepted => {
            &["decode_errors"]
        }
        Utf8Lenient | BomStripped | CloseReasonUtf8 => &["unicode"],
        SubjectCaseInsensitive | SubjectCode1000 | SnapshotSubjectModel | StreamPrefixReserved => {
            &["subjects"]
        }
        HandshakeValuesBeforeTypes => &["handshake"],
        HandshakeSizeIgnored => &["handshake", "limits"],
        FrameCapIgnored
        | FrameCapExclusive
        | ErrorMessageUnbounded
        | ErrorDetailsUnbounded
        | TimestampThroughDouble => &["limits"],
    }
}

fn outcome(
    manifest: &Value,
    c: &IndexedCase<'_>,
    fixtures: &dyn FixtureSource,
    parsed: Option<(&str, &Value)>,
    codec: &mut dyn Codec,
) -> CaseOutcome {
    CaseOutcome {
        section: c.section.clone(),
        id: c.id.clone(),
        pointer: c.pointer.clone(),
        verdict: run(manifest, c, fixtures, parsed, codec),
    }
}

/// The verdict on one case: its op's runner, or why the case has none.
fn run(
    manifest: &Value,
    c: &IndexedCase<'_>,
    fixtures: &dyn FixtureSource,
    parsed: Option<(&str, &Value)>,
    codec: &mut dyn Codec,
) -> Verdict {
    if c.pointer == format!("/{}/limits", escape_token(&c.section)) {
        return malformed(
            &c.pointer,
            "a section's `limits` apply to its cases, but the case-id rule counts this object as \
             a case of its own (only `description` and `schema` are not cases): give each case \
             its own `limits`",
        );
    }
    let Some(fields) = c.case.case.as_object() else {
        return malformed(
            &c.pointer,
            "a case is an object with `name`, `op` and `expect`",
        );
    };
    let case = Case {
        pointer: &c.pointer,
        fields,
        block: &manifest[c.section.as_str()],
        fixtures,
        parsed,
    };
    let ops = || {
        let names: Vec<&str> = ops::OPS.iter().map(|(name, _)| *name).collect();
        names.join(", ")
    };
    let op = match fields.get("op") {
        Some(Value::String(op)) => op,
        Some(_) => return malformed(case.at("op"), format!("`op` must be a string: {}", ops())),
        None => return malformed(case.at("op"), format!("missing field `op`: {}", ops())),
    };
    match ops::OPS.iter().find(|(name, _)| name == op) {
        Some((_, runner)) => runner(&case, codec).unwrap_or_else(|verdict| verdict),
        None => malformed(
            case.at("op"),
            format!("unknown op `{}`: the ops are {}", show::text(op), ops()),
        ),
    }
}
