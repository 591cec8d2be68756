//! `bqsuite adopt VERSION [SUITE] --proposal DIR`: the proposal becomes the suite's next release.
//!
//! The proposal is merged into the suite by the merge `validate --proposal` and `mutants
//! --proposal` use ([`crate::commands::proposal::merge`]); each proposed fixture takes its final
//! name ([`names`]); VERSION goes into CONFORMANCE_VERSION and the manifest. Before anything is
//! written, the result must be a release: VERSION is SemVer, greater than the suite's version and
//! makes the bump the change needs (the classifier and version rules of `diff`), the proposal
//! adds something, and the adopted suite validates. Any refusal is a finding (exit 1) and
//! nothing is written. Then the adopted suite and the emptied proposal (`manifest.json` `{}`, an
//! empty `fixtures/`) are each written beside the directory they replace and swapped in by
//! renames ([`swap`]): a failure leaves both as they were.

mod codes;
mod findings;
mod names;
mod swap;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use semver::Version;
use serde_json::{Value, json};

use crate::commands::proposal::{self, Additions, Merged, Sources};
use crate::commands::validate;
use bqsuite_core::diag::{Diagnostic, Report, joined, plural};
use bqsuite_core::error::{Error, Result};
use bqsuite_core::index::CaseIndex;
use bqsuite_core::shell::{arg, quote};
use bqsuite_suite::classify::version::{self, Bump, Step};
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
    let validation = validate::validate_suite(&candidate.suite, &run.subject);
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
        let files = names::finalise(files, manifest, &renames, &stamp);
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

    /// VERSION's refusals: not SemVer, not greater than the suite's version, or short of the
    /// bump `needed` by `changes` (each change that needs a major release named where the
    /// proposal makes it, when `placing` says where).
    fn check_version(
        &self,
        requested: &std::result::Result<Version, semver::Error>,
        needed: Bump,
        changes: &[Change],
        placing: Option<&Placing>,
    ) -> Vec<Diagnostic> {
        let base = &self.base_version;
        let file = joined(&self.options.suite, VERSION_FILE);
        let retry = |bump: Bump| self.retry(&version::next_version(base, bump.max(Bump::Minor)));
        let requested = match requested {
            Ok(v) => v,
            Err(e) => {
                let shown = classify::shorten(&self.options.version, 40);
                let finding =
                    findings::version_invalid(file, &shown, &e.to_string(), &retry(needed));
                return vec![finding];
            }
        };
        let step = version::step(base, requested);
        let described = version::describe(base, requested, step);
        if matches!(step, Step::Backwards | Step::Same) {
            let (v, b) = (requested.to_string(), base.to_string());
            return vec![findings::version_not_greater(
                file,
                &v,
                &b,
                &described,
                &retry(needed),
            )];
        }
        if version::judge(base, requested, needed).sufficient {
            return Vec::new();
        }
        if needed < Bump::Major {
            let finding = findings::version_insufficient(
                file,
                needed.as_str(),
                needed.reason(),
                &described,
                &retry(needed),
            );
            return vec![finding];
        }
        changes
            .iter()
            .filter(|c| c.bump == Bump::Major)
            .map(|c| {
                let mut d =
                    findings::not_additive(c.file.clone(), &c.message, &described, &retry(needed));
                d.pointer = c.pointer.clone();
                if let (Some(s), Some(id)) = (&c.section, &c.case) {
                    d = d.case(s, id);
                }
                if let Some(placing) = placing {
                    placing.place_change(&mut d);
                }
                d
            })
            .collect()
    }

    /// The report of a refused adoption: nothing was written.
    fn refused(&self, mut report: Report, candidate: Option<&Candidate>) -> Adoption {
        report.sort();
        let errors = report.errors();
        report.summary.push(format!(
            "{}: not adopted as {} ({errors} error{}); nothing written",
            self.subject,
            classify::shorten(&self.options.version, 40),
            plural(errors)
        ));
        let suite = report.data.get("suite").cloned().unwrap_or(Value::Null);
        report.data = self.data(candidate, None, &[], suite);
        Adoption {
            report,
            next: Vec::new(),
        }
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

// Reporting.
impl Run<'_> {
    /// The report of the adoption written: what it adds, the files written and deleted, and
    /// the commands to run next.
    fn adopted(&self, mut report: Report, candidate: &Candidate, written: Written) -> Adoption {
        let needed = classify::needed_bump(&candidate.changes);
        let added = Additions::of(&candidate.changes);
        let total = candidate
            .suite
            .manifest()
            .map_or(0, |m| CaseIndex::new(m).len());
        let step = Version::parse(&self.options.version)
            .map(|v| {
                version::describe(
                    &self.base_version,
                    &v,
                    version::step(&self.base_version, &v),
                )
            })
            .unwrap_or_default();
        report.summary.push(format!(
            "adopted {} into {} as {}: {} case{} added in {} section{}, {} fixture{}, {total} cases \
             in all; the change needs a {needed} bump ({}), and {step}",
            self.options.proposal.display(),
            self.options.suite.display(),
            self.options.version,
            added.cases,
            plural(added.cases),
            added.sections,
            plural(added.sections),
            added.fixtures,
            plural(added.fixtures),
            needed.reason(),
        ));
        let was: BTreeMap<String, String> = candidate
            .renames
            .iter()
            .map(|(from, to)| {
                let shown = joined(&self.options.proposal, from);
                (joined(&self.options.suite, to), shown)
            })
            .collect();
        for path in written.suite.iter().chain(&written.proposal) {
            report.summary.push(match was.get(path) {
                Some(from) => format!("wrote {path} (was {from})"),
                None => format!("wrote {path}"),
            });
        }
        for path in &written.deleted {
            report.summary.push(format!("deleted {path}"));
        }
        for left in &written.leftovers {
            let path = left.path.display().to_string();
            let remove = format!("rm -rf -- {}", quote(&path));
            report.push(findings::leftover(path, &left.why, &remove));
        }
        let next = self.next();
        let suite = std::mem::take(&mut report.data["suite"]);
        report.data = self.data(Some(candidate), Some(&written), &next, suite);
        Adoption { report, next }
    }

    /// The commands after an adoption: validate, release, compare with the release before.
    fn next(&self) -> Vec<String> {
        let suite = quote(&arg(&self.options.suite));
        let pre = Version::parse(&self.options.version).is_ok_and(|v| !v.pre.is_empty());
        let release = if pre {
            format!("bqsuite release {suite} --out dist --allow-pre")
        } else {
            let tag = format!("v{}", self.options.version);
            format!("bqsuite release {suite} --out dist --tag {}", quote(&tag))
        };
        let previous = bqsuite_suite::archive::asset_name(&self.base_version.to_string());
        vec![
            format!("bqsuite validate {suite}"),
            release,
            format!("bqsuite diff {} {suite}", quote(&previous)),
        ]
    }

    /// `data` of the JSON document, the same members whether the proposal was adopted or not.
    fn data(
        &self,
        candidate: Option<&Candidate>,
        written: Option<&Written>,
        next: &[String],
        suite: Value,
    ) -> Value {
        let added = candidate.map(|c| Additions::of(&c.changes));
        let renamed: Vec<Value> = candidate.map_or(Vec::new(), |c| {
            c.renames
                .iter()
                .map(|(from, to)| {
                    json!({
                        "from": joined(&self.options.proposal, from),
                        "to": joined(&self.options.suite, to),
                    })
                })
                .collect()
        });
        let (files, deleted): (Vec<&String>, Vec<&String>) = written.map_or_else(
            || (Vec::new(), Vec::new()),
            |w| {
                (
                    w.suite.iter().chain(&w.proposal).collect(),
                    w.deleted.iter().collect(),
                )
            },
        );
        json!({
            "adopted": written.is_some(),
            "version": self.options.version,
            "base_version": self.base_version.to_string(),
            "required_bump": candidate.map(|c| classify::needed_bump(&c.changes).as_str()),
            "cases_added": added.as_ref().map(|a| a.cases),
            "sections_added_to": added.as_ref().map(|a| a.sections),
            "fixtures_added": added.as_ref().map(|a| a.fixtures),
            "renamed": renamed,
            "written": files,
            "deleted": deleted,
            "next": next,
            "suite": suite,
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
