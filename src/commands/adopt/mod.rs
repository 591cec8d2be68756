//! `bqsuite adopt VERSION [SUITE] --proposal DIR`: the proposal becomes the suite's next release.
//!
//! The proposal is merged into the suite by the merge `validate --proposal` and `mutants
//! --proposal` use ([`crate::commands::proposal::merge`]); each proposed fixture takes its final
//! name (`names.rs`); VERSION goes into CONFORMANCE_VERSION and the manifest. Before anything is
//! written, the result must be a release: VERSION is SemVer, greater than the suite's version and
//! makes the bump the change needs (the classifier and version rules of `diff`), the proposal
//! adds something, and the adopted suite validates. Any refusal is a finding (exit 1) and
//! nothing is written. Then the adopted suite and the emptied proposal (`manifest.json` `{}`, an
//! empty `fixtures/`) are each written beside the directory they replace and swapped in by
//! renames (`swap.rs`): a failure leaves both as they were.

mod codes;
mod findings;
mod names;
mod print;
mod report;
mod swap;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use semver::Version;
use serde_json::json;

use crate::commands::proposal::{self, Merged, Sources};
use crate::commands::validate;
use bqsuite_core::diag::{Diagnostic, Report, joined};
use bqsuite_core::error::{Error, Result};
use bqsuite_core::shell::{arg, quote};
use bqsuite_suite::classify::version::Bump;
use bqsuite_suite::classify::{self, Change, Effect};
use bqsuite_suite::load::{self, MANIFEST, Suite, VERSION_FILE};
use bqsuite_suite::overlay::Origin;

pub use codes::Code;

/// `adopt VERSION SUITE --proposal DIR`.
#[derive(Debug, Clone)]
pub struct Options {
    /// The version of the release the suite becomes, as given.
    pub version: String,
    pub suite: PathBuf,
    pub proposal: PathBuf,
}

/// What `adopt` reports: the findings and facts, and the commands to run next (empty unless the
/// proposal was adopted).
pub struct Adoption {
    pub report: Report,
    pub next: Vec<String>,
}

/// The proposal merged into the suite, checked, and (when nothing refuses it) written in place.
/// Fails (exit 2) when a directory cannot be read or written, or the suite's own version is not
/// SemVer.
pub fn adopt(options: &Options) -> Result<Adoption> {
    let run = Run::new(options)?;
    let mut report = Report::new(options.suite.display().to_string());
    report.root = None;
    let requested = Version::parse(&options.version);
    let merged = match proposal::merge(&options.suite, &options.proposal)? {
        Ok(merged) => merged,
        Err(refused) => {
            report.diagnostics.extend(run.base_problems());
            report.diagnostics.extend(refused.problems);
            report
                .diagnostics
                .extend(run.check_version(&requested, Bump::Minor, &[], None));
            return Ok(run.refused(report, None));
        }
    };
    let Some(candidate) = run.candidate(&merged, &requested, &mut report)? else {
        return Ok(run.refused(report, None));
    };
    report.diagnostics.extend(run.base_problems());
    let needed = classify::needed_bump(&candidate.changes);
    if candidate
        .changes
        .iter()
        .all(|c| c.code.effect() == Effect::Cosmetic)
    {
        let file = merged.sources.proposal_manifest.shown.clone();
        report.push(findings::nothing_proposed(file, &run.check_proposal()));
    }
    let placed = Placing {
        sources: &merged.sources,
        renames: &candidate.renames,
    };
    report.diagnostics.extend(run.check_version(
        &requested,
        needed,
        &candidate.changes,
        Some(&placed),
    ));
    let validation = validate::validate_suite(&candidate.suite, &run.subject)?;
    report.summary.extend(validation.summary.iter().cloned());
    report.data = json!({ "suite": validation.data });
    for mut d in validation.diagnostics {
        placed.place(&mut d);
        report.push(d);
    }
    report.sort();
    if !report.is_clean() {
        return Ok(run.refused(report, Some(&candidate)));
    }
    let written = run.write(&candidate, &merged)?;
    Ok(run.adopted(report, &candidate, written))
}

/// One run: the directories as given and as resolved, the suite as it is, its version.
struct Run<'o> {
    options: &'o Options,
    /// `suite + proposal`, as `validate --proposal` names the merged suite.
    subject: String,
    suite_dir: PathBuf,
    proposal_dir: PathBuf,
    base: Suite,
    base_version: Version,
}

/// The suite the proposal would become: its files, loaded, and how it differs from the suite.
struct Candidate {
    suite: Suite,
    files: BTreeMap<String, Vec<u8>>,
    /// Proposal's name → adopted name, of every fixture renamed.
    renames: BTreeMap<String, String>,
    changes: Vec<Change>,
}

/// What was written: the suite's files and the proposal's, as the user names them.
struct Written {
    suite: Vec<String>,
    proposal: Vec<String>,
    deleted: Vec<String>,
    leftovers: Vec<swap::Leftover>,
}

impl<'o> Run<'o> {
    fn new(options: &'o Options) -> Result<Self> {
        let resolve =
            |path: &Path, what| std::fs::canonicalize(path).map_err(|e| Error::io(what, path, e));
        let suite_dir = resolve(&options.suite, "read the suite directory")?;
        let proposal_dir = resolve(&options.proposal, "read the proposal directory")?;
        if suite_dir.starts_with(&proposal_dir) || proposal_dir.starts_with(&suite_dir) {
            return Err(Error::bad_path(
                &options.proposal,
                format!(
                    "is {} the suite directory {}; the proposal is adopted by replacing each \
                     directory whole, so keep them apart (side by side, as suite/ and proposal/)",
                    if suite_dir == proposal_dir {
                        "the same directory as"
                    } else {
                        "nested with"
                    },
                    options.suite.display()
                ),
            ));
        }
        let base = load::load(&options.suite)?;
        let version_file = options.suite.join(VERSION_FILE);
        let base_version = base
            .version_text()
            .and_then(|t| Version::parse(t).ok())
            .ok_or_else(|| {
                Error::bad_path(
                    &version_file,
                    format!(
                        "is missing or not SemVer, so the bump of the adoption cannot be judged; \
                         fix it, then check the suite with `bqsuite validate {}`",
                        quote(&arg(&options.suite))
                    ),
                )
            })?;
        Ok(Run {
            options,
            subject: format!(
                "{} + {}",
                options.suite.display(),
                options.proposal.display()
            ),
            suite_dir,
            proposal_dir,
            base,
            base_version,
        })
    }

    /// `SUITE --proposal DIR`, quoted for a shell.
    fn dirs(&self) -> String {
        format!(
            "{} --proposal {}",
            quote(&arg(&self.options.suite)),
            quote(&arg(&self.options.proposal))
        )
    }

    /// `bqsuite adopt VERSION SUITE --proposal DIR`.
    fn retry(&self, version: &str) -> String {
        format!("bqsuite adopt {} {}", quote(version), self.dirs())
    }

    /// `bqsuite validate SUITE --proposal DIR`.
    fn check_proposal(&self) -> String {
        format!("bqsuite validate {}", self.dirs())
    }

    /// The suite's reading problems (links, names outside the layout): a suite that has them
    /// cannot be carried over whole.
    fn base_problems(&self) -> Vec<Diagnostic> {
        self.base
            .problems
            .iter()
            .cloned()
            .map(|mut d| {
                d.file = joined(&self.options.suite, &d.file);
                d
            })
            .collect()
    }

    /// The suite the merged one becomes under VERSION (or, when VERSION is not SemVer, under the
    /// proposal's pre-release version, so that everything else is still checked); `None` when a
    /// proposed fixture's final name is taken (the findings are in `report`).
    fn candidate(
        &self,
        merged: &Merged,
        requested: &std::result::Result<Version, semver::Error>,
        report: &mut Report,
    ) -> Result<Option<Candidate>> {
        let files: BTreeMap<String, Vec<u8>> = merged
            .suite
            .files
            .iter()
            .map(|(k, f)| (k.clone(), f.bytes.clone()))
            .collect();
        let proposed: BTreeSet<String> = merged
            .sources
            .proposal_files()
            .filter(|rel| *rel != MANIFEST)
            .map(str::to_string)
            .collect();
        let renames = match names::plan(&proposed, &files) {
            Ok(renames) => renames,
            Err(clashes) => {
                for clash in clashes {
                    report.push(self.clash(&clash));
                }
                report
                    .diagnostics
                    .extend(self.check_version(requested, Bump::Minor, &[], None));
                return Ok(None);
            }
        };
        let stamp = match requested {
            Ok(v) => v.to_string(),
            Err(_) => bqsuite_suite::overlay::proposed_version(&self.base_version.to_string()),
        };
        let manifest = merged.suite.require_manifest()?;
        let original = self.base.file(MANIFEST).and_then(|f| f.text());
        let files = names::finalise(files, manifest, original, &renames, &stamp);
        let suite = Suite::from_files(&self.options.suite, files.clone());
        let changes = classify::compare(&self.base, &suite).map_err(|(_, why)| {
            Error::bad_path(
                self.options.suite.join(MANIFEST),
                format!("cannot be compared with the adopted suite: {}", why.0),
            )
        })?;
        Ok(Some(Candidate {
            suite,
            files,
            renames,
            changes,
        }))
    }

    fn clash(&self, clash: &names::Clash) -> Diagnostic {
        let file = joined(&self.options.proposal, &clash.proposed);
        let taken_by = if clash.by_proposal {
            joined(&self.options.proposal, &clash.adopted)
        } else {
            joined(&self.options.suite, &clash.adopted)
        };
        findings::fixture_name_taken(file, &clash.adopted, &taken_by, &self.check_proposal())
    }

    /// Stages the adopted suite and the emptied proposal, then swaps both in.
    fn write(&self, candidate: &Candidate, merged: &Merged) -> Result<Written> {
        let suite = swap::stage(&self.suite_dir, &candidate.files, &[], load::is_vendored)?;
        let empty: BTreeMap<String, Vec<u8>> = [(MANIFEST.to_string(), b"{}\n".to_vec())].into();
        let proposal =
            match swap::stage(&self.proposal_dir, &empty, &["fixtures"], load::is_vendored) {
                Ok(staged) => staged,
                Err(e) => {
                    swap::discard(vec![suite]);
                    return Err(e);
                }
            };
        let leftovers = swap::swap(vec![suite, proposal])?;
        let changed =
            |rel: &&String| self.base.file(rel).map(|f| &f.bytes) != candidate.files.get(*rel);
        Ok(Written {
            suite: candidate
                .files
                .keys()
                .filter(changed)
                .map(|rel| joined(&self.options.suite, rel))
                .collect(),
            proposal: vec![merged.sources.proposal_manifest.shown.clone()],
            deleted: merged
                .sources
                .proposal_files()
                .filter(|rel| *rel != MANIFEST)
                .map(|rel| joined(&self.options.proposal, rel))
                .collect(),
            leftovers,
        })
    }
}

/// Moves a finding about the adopted suite to the file its author wrote: a renamed fixture to
/// its name in the proposal, then the suite's or the proposal's file ([`Sources::place`]).
struct Placing<'a> {
    sources: &'a Sources,
    renames: &'a BTreeMap<String, String>,
}

impl Placing<'_> {
    /// [`Placing::place`] for a change the classifier found in a block the suite has: when the
    /// proposal added a member to that block, the finding points at that member, where the
    /// proposal makes the change.
    fn place_change(&self, d: &mut Diagnostic) {
        if let Some(pointer) = d.pointer.as_deref()
            && let Origin::Suite(_) = self.sources.origin(pointer)
            && let Some(inside) = self.sources.added_inside(pointer)
        {
            d.pointer = Some(inside.to_string());
        }
        self.place(d);
    }

    fn place(&self, d: &mut Diagnostic) {
        if let Some((from, _)) = self.renames.iter().find(|(_, to)| **to == d.file) {
            d.file = from.clone();
        }
        self.sources.place(d);
    }
}
