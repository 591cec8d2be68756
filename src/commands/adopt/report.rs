//! What `adopt` reports: the refusals of VERSION, the report of a refused or a written
//! adoption, and the commands to run next.

use std::collections::BTreeMap;

use semver::Version;
use serde_json::{Value, json};

use super::{Adoption, Candidate, Placing, Run, Written, findings};
use crate::commands::proposal::Additions;
use bqsuite_core::diag::{Diagnostic, Report, joined, plural};
use bqsuite_core::index::CaseIndex;
use bqsuite_core::shell::{arg, quote};
use bqsuite_suite::classify::version::{self, Bump, Step};
use bqsuite_suite::classify::{self, Change, Code as ChangeCode};
use bqsuite_suite::kind::Kind;
use bqsuite_suite::load::VERSION_FILE;

impl Run<'_> {
    /// VERSION's refusals: not SemVer, not greater than the suite's version, or short of the
    /// bump `needed` by `changes` (each change that needs a major release named where the
    /// proposal makes it, when `placing` says where).
    pub(super) fn check_version(
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
                let write = match c.code {
                    ChangeCode::CaseLacksMember => findings::lacks_member,
                    _ => findings::not_additive,
                };
                let mut d = write(c.file.clone(), &c.message, &described, &retry(needed));
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
    pub(super) fn refused(&self, mut report: Report, candidate: Option<&Candidate>) -> Adoption {
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

    /// The report of the adoption written: what it adds, the files written and deleted, and
    /// the commands to run next.
    pub(super) fn adopted(
        &self,
        mut report: Report,
        candidate: &Candidate,
        written: Written,
    ) -> Adoption {
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
        // A description validation refuses leaves no release to name: BabelQueue's, as before.
        let kind = Kind::of(&self.base).unwrap_or_else(|_| Kind::babelqueue());
        let previous = kind.asset_name(&self.base_version.to_string());
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
