//! `bqsuite diff`: classify a suite change and enforce the SemVer bump.
//!
//! Both sides must be versions of one suite: each side's description (`suite.json`, in the
//! directory or carried by the asset; none for BabelQueue's) names it, and two different suites
//! are not compared (exit 2, [`same_suite`]).
//!
//! The suite's promise (spec, "Suite version history"): a minor release is additive — no existing
//! case, fixture or schema changed — so an SDK can take it without fear; anything else is a major
//! release. [`diff`] compares two suites (directories or release tarballs), lists every change
//! with a stable code ([`classify::Code`]), states the smallest bump that covers them
//! ([`Bump`]) and checks NEW's CONFORMANCE_VERSION against OLD's ([`version`]).
//!
//! - [`classify`](mod@classify): what is compared and how each difference is classified;
//! - [`normalize`](classify::normalize): what counts as a description and what is cosmetic;
//! - [`version`]: the bump rule (pre-releases, 0.y.z, "no change at all");
//! - [`source`]: reading a side (a directory, or a tarball through the release verifier);
//! - [`markdown`]: the release-notes draft.

mod codes;
mod findings;
pub mod markdown;
mod outcome;
pub mod source;

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use bqsuite_core::diag::{Diagnostic, Report};
use bqsuite_core::error::{Error, Result};
use bqsuite_core::fsutil;
use bqsuite_suite::Suite;
use bqsuite_suite::kind::Kind;
use bqsuite_suite::load::{self, VERSION_FILE};

use crate::commands::{suites, validate};
use bqsuite_suite::classify::{self, version};

pub use bqsuite_suite::classify::version::Bump;
pub use bqsuite_suite::classify::{Change, Effect};
pub use outcome::{Outcome, is_change_note};

pub use codes::Code;

/// `diff OLD NEW`.
#[derive(Debug, Clone)]
pub struct Options {
    pub old: PathBuf,
    pub new: PathBuf,
    /// Write a release-notes draft (Markdown) here.
    pub markdown: Option<PathBuf>,
}

impl Outcome {
    /// True when NEW's version makes the needed bump.
    pub fn sufficient(&self) -> bool {
        self.version_findings.is_empty()
    }

    /// The changes as findings (one note each).
    pub fn notes(&self) -> Vec<Diagnostic> {
        self.changes.iter().map(findings::change_note).collect()
    }

    /// Counts for the summary: added, removed, changed, description edits, cosmetic.
    pub fn counts(&self) -> [usize; 5] {
        let mut counts = [0; 5];
        for c in &self.changes {
            let slot = match c.code.effect() {
                Effect::Added => 0,
                Effect::Removed => 1,
                Effect::Changed => 2,
                Effect::Description => 3,
                Effect::Cosmetic => 4,
            };
            counts[slot] += 1;
        }
        counts
    }

    /// `bump: minor (only additions)`.
    pub fn bump_line(&self) -> String {
        format!("bump: {} ({})", self.needed, self.needed.reason())
    }

    /// The facts of the diff as JSON (`diff`'s `data`, and `validate --since`'s `data.since`):
    /// both sides' paths and versions, the bump the change needs and the one the versions make,
    /// whether that is sufficient, and the changes counted by kind and by code.
    pub fn json(&self, old: &Path, new: &Path) -> Value {
        let [added, removed, changed, descriptions, cosmetic] = self.counts();
        let mut by_code = serde_json::Map::new();
        for change in &self.changes {
            let n = by_code
                .get(change.code.as_str())
                .and_then(Value::as_u64)
                .unwrap_or(0);
            by_code.insert(change.code.as_str().to_string(), json!(n + 1));
        }
        let declared = self.verdict.as_ref().map(|v| match v.step {
            version::Step::Backwards => "backwards",
            version::Step::Same => "none",
            version::Step::FromPreRelease => "from-pre-release",
            version::Step::Bumped(bump) => bump.as_str(),
        });
        json!({
            "old": { "path": old.display().to_string(), "version": self.old_version },
            "new": { "path": new.display().to_string(), "version": self.new_version },
            "required_bump": self.needed.as_str(),
            "declared_bump": declared,
            "sufficient": self.sufficient(),
            "suggested_version": self.verdict.as_ref().and_then(|v| v.suggestion.clone()),
            "changes": self.changes.len(),
            "counts": {
                "added": added,
                "removed": removed,
                "changed": changed,
                "descriptions": descriptions,
                "cosmetic": cosmetic,
            },
            "by_code": by_code,
        })
    }
}

/// A version of one side, or the finding that explains why there is none.
fn read_version(
    suite: &Suite,
    side: &str,
) -> (Option<String>, Option<semver::Version>, Option<Diagnostic>) {
    let shown = suite.root.display();
    let Some(text) = suite.version_text() else {
        let why = if suite.file(VERSION_FILE).is_some() {
            "a CONFORMANCE_VERSION that is not UTF-8"
        } else {
            "no CONFORMANCE_VERSION"
        };
        return (
            None,
            None,
            Some(findings::version_missing(side, &shown.to_string(), why)),
        );
    };
    let text = text.to_string();
    match semver::Version::parse(&text) {
        Ok(v) => (Some(text), Some(v), None),
        Err(e) => {
            let finding =
                findings::version_invalid(side, &classify::shorten(&text, 40), &e.to_string());
            (Some(text), None, Some(finding))
        }
    }
}

/// Compares two loaded suites. Fails only when a side's manifest cannot be compared at all.
pub fn classify(old: &Suite, new: &Suite) -> Result<Outcome> {
    let changes = classify::compare(old, new).map_err(|(is_old, why)| {
        let (side, suite) = if is_old { ("OLD", old) } else { ("NEW", new) };
        Error::bad_path(&suite.root, format!("cannot compare {side}: {}", why.0))
    })?;
    let needed = classify::needed_bump(&changes);
    let (old_version, old_semver, old_problem) = read_version(old, "OLD");
    let (new_version, new_semver, new_problem) = read_version(new, "NEW");
    let mut version_findings: Vec<Diagnostic> =
        old_problem.into_iter().chain(new_problem).collect();
    let mut verdict = None;
    let mut verdict_text = None;
    if let (Some(o), Some(n)) = (&old_semver, &new_semver) {
        let v = version::judge(o, n, needed);
        let described = version::describe(o, n, v.step);
        let word = if v.sufficient {
            "sufficient"
        } else {
            "insufficient"
        };
        verdict_text = Some(format!("{described}: {word}"));
        if !v.sufficient {
            version_findings.push(findings::version_bump_insufficient(
                o,
                n,
                needed,
                &described,
                v.suggestion.as_deref(),
            ));
        }
        verdict = Some(v);
    }
    Ok(Outcome {
        old_version,
        new_version,
        changes,
        needed,
        verdict,
        verdict_text,
        version_findings,
    })
}

/// Reading problems of one side, not compared: a name outside the suite layout is an error (no
/// release can hold it), anything else (links, special or oversized files) a warning.
fn side_problems(suite: &Suite, side: &str) -> Vec<Diagnostic> {
    suite
        .problems
        .iter()
        .map(|p| {
            let outside = bqsuite_suite::layout::Code::of(p.code).is_some();
            findings::side_problem(p, side, &suite.root.display().to_string(), outside)
        })
        .collect()
}

/// The report of a diff: one note per change, the version errors, the summary lines.
pub fn report(outcome: &Outcome, old: &Suite, new: &Suite) -> Report {
    let mut report = Report::new(format!("{} → {}", old.root.display(), new.root.display()));
    report.diagnostics.extend(side_problems(old, "OLD"));
    report.diagnostics.extend(side_problems(new, "NEW"));
    report.diagnostics.extend(outcome.notes());
    report
        .diagnostics
        .extend(outcome.version_findings.iter().cloned());
    let unknown = "(no version)";
    report.summary.push(format!(
        "OLD {} → NEW {}",
        outcome.old_version.as_deref().unwrap_or(unknown),
        outcome.new_version.as_deref().unwrap_or(unknown)
    ));
    let [added, removed, changed, descriptions, cosmetic] = outcome.counts();
    report.summary.push(format!(
        "changes: {added} added, {removed} removed, {changed} changed, {descriptions} description \
         edit{}, {cosmetic} cosmetic",
        bqsuite_core::diag::plural(descriptions)
    ));
    report.summary.push(outcome.bump_line());
    if let Some(text) = &outcome.verdict_text {
        report.summary.push(format!("version: {text}"));
    }
    report.data = outcome.json(&old.root, &new.root);
    report.data["release_notes"] = Value::Null;
    report
}

/// The suite both sides are versions of: each side's description (its `suite.json`, else
/// BabelQueue's). A malformed description, or two sides that describe different suites, is an
/// `Err` (exit 2) naming both.
pub fn same_suite(old: &Suite, new: &Suite) -> Result<Kind> {
    let (old_kind, new_kind) = (suites::describe(old)?, suites::describe(new)?);
    if old_kind.name != new_kind.name {
        return Err(Error::bad_path(
            &new.root,
            format!(
                "is a version of {} (`{}`) but OLD ({}) is a version of {} (`{}`); diff \
                 compares two versions of one suite: give OLD and NEW of the same suite",
                new_kind.title,
                new_kind.name,
                old.root.display(),
                old_kind.title,
                old_kind.name
            ),
        ));
    }
    Ok(new_kind)
}

/// Classifies the change from `old` to `new` (suite directories or release tarballs). The
/// report lists the changes; it has an error when NEW's version does not satisfy the bump.
pub fn diff(options: &Options) -> Result<Report> {
    let old = source::load_side(&options.old)?;
    let new = source::load_side(&options.new)?;
    let kind = same_suite(&old, &new)?;
    let outcome = classify(&old, &new)?;
    let mut report = report(&outcome, &old, &new);
    if let Some(path) = &options.markdown {
        let mut text = markdown::render(&outcome, &kind);
        text.push('\n');
        fsutil::write_atomic(path, text.as_bytes())?;
        report
            .summary
            .push(format!("release notes draft: {}", path.display()));
        report.data["release_notes"] = json!(path.display().to_string());
    }
    Ok(report)
}

/// `validate --since OLD` on the report of `validate NEW`: repoints each duplicate case id at the
/// case that was added since OLD ([`repoint_duplicates`]), then adds the version-rule findings
/// ([`since_findings`]) and the lines that sum the changes up ([`Outcome::since_lines`]).
pub fn since(report: &mut Report, old: &Path, new: &Path) -> Result<()> {
    let (findings, outcome) = since_outcome(old, new)?;
    if let (Ok(old_suite), Ok(new_suite)) = (source::load_side(old), load::load(new)) {
        repoint_duplicates(&mut report.diagnostics, &old_suite, &new_suite);
    }
    report.diagnostics.extend(findings);
    if let Some(o) = &outcome {
        report
            .summary
            .extend(o.since_lines(&old.display().to_string()));
    }
    if report.data.is_object() {
        // `null` when the version rules could not run (NEW's manifest is broken).
        report.data["since"] = outcome.map_or(Value::Null, |o| o.json(old, new));
    }
    Ok(())
}

/// A `duplicate-case-id` finding points at the second case of its id in manifest order. When one
/// of the two was already in OLD (same id and same content) and the other is new, the finding is
/// about the new one: point at it, and name the released one.
pub fn repoint_duplicates(findings: &mut [Diagnostic], old: &Suite, new: &Suite) {
    use bqsuite_core::index::CaseIndex;
    let (Some(old_manifest), Some(new_manifest)) = (old.manifest(), new.manifest()) else {
        return;
    };
    let old_index = CaseIndex::new(old_manifest);
    let new_index = CaseIndex::new(new_manifest);
    for d in findings
        .iter_mut()
        .filter(|d| d.code == validate::Code::DuplicateCaseId)
    {
        let Some((section, id)) = d.case.clone() else {
            continue;
        };
        let released: Vec<_> = old_index
            .cases
            .iter()
            .filter(|c| c.section == section && c.id == id)
            .collect();
        let twins: Vec<_> = new_index
            .cases
            .iter()
            .filter(|c| c.section == section && c.id == id)
            .collect();
        let [first, second] = twins.as_slice() else {
            continue;
        };
        let was_released = |c: &&bqsuite_core::index::IndexedCase| {
            released.iter().any(|r| r.case.case == c.case.case)
        };
        // Only a pair of one released and one added case is repointed.
        let (kept, added) = match (was_released(first), was_released(second)) {
            (true, false) => (first, second),
            (false, true) => (second, first),
            _ => continue,
        };
        d.pointer = Some(added.pointer.clone());
        d.line_col = new
            .tree(load::MANIFEST)
            .and_then(|tree| tree.at(&added.pointer))
            .map(|node| (node.pos.line, node.pos.column));
        *d = findings::duplicate_of_released(d.clone(), &id, &section, &kept.pointer);
    }
}

/// The version-rule findings of `validate --since OLD` for the suite at `new`: a note per change,
/// a `version-bump` note with the needed bump and the verdict, and the version errors (an
/// insufficient bump, a missing or invalid version). OLD may be a directory or a tarball.
pub fn since_findings(old: &Path, new: &Path) -> Result<Vec<Diagnostic>> {
    since_outcome(old, new).map(|(findings, _)| findings)
}

/// [`since_findings`], and the classified difference when the version rules could run.
fn since_outcome(old: &Path, new: &Path) -> Result<(Vec<Diagnostic>, Option<Outcome>)> {
    let old_suite = source::load_side(old)?;
    let new_suite = load::load(new)?;
    same_suite(&old_suite, &new_suite)?;
    if let Err(why) = classify::manifest_of(&new_suite) {
        // validate reports the broken manifest itself; the version rule cannot run.
        let skipped = vec![findings::since_skipped(&old.display().to_string(), &why.0)];
        return Ok((skipped, None));
    }
    let outcome = classify(&old_suite, &new_suite)?;
    let mut findings = side_problems(&old_suite, "OLD");
    findings.push(findings::version_bump(
        &old.display().to_string(),
        outcome.old_version.as_deref(),
        outcome.counts(),
        outcome.needed,
        outcome.verdict_text.as_deref(),
    ));
    findings.extend(outcome.notes());
    findings.extend(outcome.version_findings.iter().cloned());
    Ok((findings, Some(outcome)))
}
