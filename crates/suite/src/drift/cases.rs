//! The cases of a vendored copy against the expected suite ([`CaseCounter`]): how many it lacks,
//! how many differ, how many it has that the suite does not, which sections it lacks, and which
//! of its cases read a file that differs (a fixture edited or missing). The manifests are compared
//! by `bqsuite diff`'s engine ([`crate::classify::compare`]), so `sync --check`, `fetch --check`
//! and `diff` never disagree about what a case is or when it changed.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io::Read;
use std::path::Path;

use serde_json::{Value, json};

use super::Change;
use crate::Suite;
use crate::classify;
use crate::classify::Code as ChangeCode;
use crate::load::{MANIFEST, MAX_FILE_BYTES};
use bqsuite_core::index::CaseIndex;
use bqsuite_core::shell;

/// The cases of one copy against the expected suite.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseDrift {
    /// Cases of the expected suite the copy lacks.
    pub missing: usize,
    /// Cases on both sides whose content differs (their own fields or the parameters of their
    /// block; a description alone is not a difference).
    pub changed: usize,
    /// Cases the copy has that the expected suite does not.
    pub extra: usize,
    /// How many cases the expected suite has.
    pub expected: usize,
    /// How many sections the expected suite has.
    pub expected_sections: usize,
    /// Sections of the expected suite the copy lacks, in the suite's order.
    pub missing_sections: Vec<String>,
    /// Cases the copy has that read a file of the copy that differs (`(section, case id)`, in
    /// manifest order): the file is named in the case, or in the parameters of its block.
    pub affected: Vec<(String, String)>,
}

impl CaseDrift {
    /// The manifests agree: the same cases, none changed (files they read may still differ).
    pub fn is_clean(&self) -> bool {
        self.missing == 0 && self.changed == 0 && self.extra == 0
    }
}

/// What the cases of a copy are against the expected suite.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CaseCount {
    Counted(CaseDrift),
    /// The copy's manifest.json is not JSON (where and why): its cases cannot be read.
    NotJson(String),
    /// The copy's manifest is JSON but cannot be read as a suite (why).
    NotASuite(String),
}

/// Section names, or cases, shown in a line before `and N more`.
const SHOWN_SECTIONS: usize = 5;

/// `a, b, c and 2 more`: the first [`SHOWN_SECTIONS`] of `names`, then how many are left.
fn bounded(names: &[String]) -> String {
    let more = names.len().saturating_sub(SHOWN_SECTIONS);
    let shown = names[..names.len() - more].join(", ");
    if more > 0 {
        format!("{shown} and {more} more")
    } else {
        shown
    }
}

/// `; 2 read a differing file: order-created (cases), ...` (nothing when no case does).
fn affected_text(affected: &[(String, String)]) -> String {
    if affected.is_empty() {
        return String::new();
    }
    let names: Vec<String> = affected
        .iter()
        .map(|(section, id)| format!("{} ({})", shell::escape(id), shell::escape(section)))
        .collect();
    let verb = if affected.len() == 1 { "reads" } else { "read" };
    format!(
        "{} {verb} a differing file: {}",
        affected.len(),
        bounded(&names)
    )
}

impl CaseCount {
    /// The one line after `cases: `: `87 of 93 missing, 1 changed, 0 extra; 9 of 12 sections
    /// missing (roundtrip, ...); 2 read a differing file: ...`, `all 710 match`, `all 710 match
    /// in manifest.json, but 1 reads a differing file: order-created (cases)`, or why they were
    /// not counted.
    pub fn line(&self) -> String {
        match self {
            CaseCount::Counted(c) if c.is_clean() && c.expected == 0 => {
                "none on either side".to_string()
            }
            CaseCount::Counted(c) if c.is_clean() && c.affected.is_empty() => {
                format!("all {} match", c.expected)
            }
            CaseCount::Counted(c) if c.is_clean() => format!(
                "all {} match in manifest.json, but {}",
                c.expected,
                affected_text(&c.affected)
            ),
            CaseCount::Counted(c) => {
                let mut text = format!(
                    "{} of {} missing, {} changed, {} extra",
                    c.missing, c.expected, c.changed, c.extra
                );
                if !c.missing_sections.is_empty() {
                    let names: Vec<String> = c
                        .missing_sections
                        .iter()
                        .map(|s| shell::escape(s))
                        .collect();
                    text.push_str(&format!(
                        "; {} of {} sections missing ({})",
                        c.missing_sections.len(),
                        c.expected_sections,
                        bounded(&names)
                    ));
                }
                if !c.affected.is_empty() {
                    text.push_str(&format!("; {}", affected_text(&c.affected)));
                }
                text
            }
            CaseCount::NotJson(why) => format!("not counted: manifest.json is not JSON ({why})"),
            CaseCount::NotASuite(why) => format!("not counted: {why}"),
        }
    }

    /// The JSON fields `cases` (`{missing, changed, extra, expected}` or null),
    /// `missing_sections` (a list, or null), `affected_cases` (`[{section, case}]`, or null) and
    /// `cases_not_counted` (why, or null).
    pub fn json_fields(count: Option<&CaseCount>) -> [(&'static str, Value); 4] {
        let not_counted = |why: Value| {
            [
                ("cases", Value::Null),
                ("missing_sections", Value::Null),
                ("affected_cases", Value::Null),
                ("cases_not_counted", why),
            ]
        };
        match count {
            Some(CaseCount::Counted(c)) => [
                (
                    "cases",
                    json!({
                        "missing": c.missing,
                        "changed": c.changed,
                        "extra": c.extra,
                        "expected": c.expected,
                    }),
                ),
                ("missing_sections", json!(c.missing_sections)),
                (
                    "affected_cases",
                    c.affected
                        .iter()
                        .map(|(section, case)| json!({"section": section, "case": case}))
                        .collect(),
                ),
                ("cases_not_counted", Value::Null),
            ],
            Some(CaseCount::NotJson(why)) => {
                not_counted(format!("manifest.json is not JSON ({why})").into())
            }
            Some(CaseCount::NotASuite(why)) => not_counted(why.clone().into()),
            None => not_counted(Value::Null),
        }
    }
}

/// The manifest.json bytes of the copy in `dir` (a regular file, never through a link, at most
/// [`MAX_FILE_BYTES`]); `Ok(None)` when it has none; `Err` says why they cannot be read.
pub fn read_manifest(dir: &Path) -> Result<Option<Vec<u8>>, String> {
    let path = dir.join(MANIFEST);
    let unreadable = |e: std::io::Error| {
        format!(
            "manifest.json cannot be read ({})",
            bqsuite_core::error::describe_io(&e)
        )
    };
    let meta = match fs::symlink_metadata(&path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(unreadable(e)),
    };
    if !meta.is_file() {
        return Err("manifest.json is not a regular file".into());
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(format!(
            "manifest.json is larger than {MAX_FILE_BYTES} bytes"
        ));
    }
    let mut bytes = Vec::new();
    fs::File::open(&path)
        .and_then(|f| f.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes))
        .map_err(unreadable)?;
    Ok(Some(bytes))
}

/// Counts the cases of copies against one expected manifest (parsed once).
pub struct CaseCounter {
    expected: Result<Suite, String>,
}

/// A suite made of one manifest's bytes, as `diff` reads it.
fn manifest_only(label: &str, bytes: &[u8]) -> Suite {
    let files = BTreeMap::from([(MANIFEST.to_string(), bytes.to_vec())]);
    Suite::from_files(Path::new(label), files)
}

impl CaseCounter {
    /// A counter against the expected suite's manifest.json bytes.
    pub fn new(expected_manifest: &[u8]) -> Self {
        let suite = manifest_only("expected", expected_manifest);
        let expected = match classify::manifest_of(&suite) {
            Ok(_) => Ok(suite),
            Err(why) => Err(format!("the expected suite's {}", why.0)),
        };
        CaseCounter { expected }
    }

    /// The cases of a copy whose manifest.json holds `copy_manifest` (`None`: it has none, so
    /// it lacks every case).
    pub fn count(&self, copy_manifest: Option<&[u8]>) -> CaseCount {
        self.tally(copy_manifest, &[])
    }

    /// [`CaseCounter::count`], with the cases that read one of `files` (the copy's differing
    /// files) among those the copy has.
    fn tally(&self, copy_manifest: Option<&[u8]>, files: &[(String, Change)]) -> CaseCount {
        let expected = match &self.expected {
            Ok(suite) => suite,
            Err(why) => return CaseCount::NotASuite(why.clone()),
        };
        let copy = manifest_only("copy", copy_manifest.unwrap_or(b"{}"));
        if let Some(Some(Err(e))) = copy.file(MANIFEST).map(|f| f.json.as_ref()) {
            return CaseCount::NotJson(format!(
                "line {}, column {}: {}",
                e.pos.line,
                e.pos.column,
                shell::escape(&e.message)
            ));
        }
        let changes = match classify::compare(&copy, expected) {
            Ok(changes) => changes,
            Err((_, why)) => return CaseCount::NotASuite(why.0),
        };
        let (mut missing, mut changed, mut extra) = (0, 0, 0);
        let mut missing_sections = Vec::new();
        // The cases of the expected suite the copy lacks.
        let mut lacked = BTreeSet::new();
        for c in &changes {
            match c.code {
                ChangeCode::CaseAdded => {
                    missing += 1;
                    lacked.insert((c.section.clone(), c.case.clone()));
                }
                ChangeCode::CaseRemoved => extra += 1,
                ChangeCode::CaseChanged | ChangeCode::CaseExtended => changed += 1,
                ChangeCode::SectionAdded => missing_sections.extend(c.section.clone()),
                _ => {}
            }
        }
        let mut drift = self.drift_of(expected, files, |section, id| {
            missing_sections.iter().any(|s| s == section)
                || lacked.contains(&(Some(section.to_string()), Some(id.to_string())))
        });
        drift.missing = missing;
        drift.changed = changed;
        drift.extra = extra;
        drift.missing_sections = missing_sections;
        CaseCount::Counted(drift)
    }

    /// The drift of a copy with every case of the expected suite but those `lacks` names, and
    /// whose differing files are `files`: no counts yet, the cases that read one of the files.
    fn drift_of(
        &self,
        expected: &Suite,
        files: &[(String, Change)],
        lacks: impl Fn(&str, &str) -> bool,
    ) -> CaseDrift {
        let manifest = classify::manifest_of(expected).ok();
        let index = manifest.map(CaseIndex::new).unwrap_or_default();
        let mut reading = BTreeSet::new();
        if let Some(manifest) = manifest {
            for (path, _) in files.iter().filter(|(p, _)| p != MANIFEST) {
                for place in classify::mentions(manifest, path) {
                    reading.extend(index.readers_of(&place).iter().map(|c| c.pointer.clone()));
                }
            }
        }
        let affected = index
            .cases
            .iter()
            .filter(|c| reading.contains(&c.pointer) && !lacks(&c.section, &c.id))
            .map(|c| (c.section.clone(), c.id.clone()))
            .collect();
        CaseDrift {
            missing: 0,
            changed: 0,
            extra: 0,
            expected: index.len(),
            expected_sections: index.sections(),
            missing_sections: Vec::new(),
            affected,
        }
    }

    /// The cases of the copy in `dir` whose differing files are `files`: read from its
    /// manifest.json only when that differs (identical bytes have identical cases), with the
    /// cases that read one of the other differing files.
    pub fn count_copy(&self, dir: &Path, files: &[(String, Change)]) -> CaseCount {
        match files.iter().find(|(p, _)| p == MANIFEST).map(|(_, c)| *c) {
            None => self.none_missing(files),
            Some(Change::Missing) => self.count(None),
            Some(_) => match read_manifest(dir) {
                Ok(bytes) => self.tally(bytes.as_deref(), files),
                Err(why) => CaseCount::NotASuite(why),
            },
        }
    }

    /// The cases of a copy whose manifest matches the expected one byte for byte, and whose
    /// differing files are `files`.
    fn none_missing(&self, files: &[(String, Change)]) -> CaseCount {
        match &self.expected {
            Ok(suite) => CaseCount::Counted(self.drift_of(suite, files, |_, _| false)),
            Err(why) => CaseCount::NotASuite(why.clone()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manifest_that_is_not_json_or_not_a_suite_is_not_counted() {
        let counter = CaseCounter::new(br#"{"schema_version": 1, "cases": [{"name": "a"}]}"#);
        assert!(matches!(
            counter.count(Some(b"not json{")),
            CaseCount::NotJson(_)
        ));
        assert!(matches!(
            counter.count(Some(b"[1]")),
            CaseCount::NotASuite(_)
        ));
        let CaseCount::Counted(none) = counter.count(None) else {
            panic!("a copy without a manifest lacks every case");
        };
        assert_eq!((none.missing, none.expected), (1, 1));
        assert_eq!(none.missing_sections, ["cases"]);
    }

    #[test]
    fn the_cases_that_read_a_differing_file_are_named_those_the_copy_lacks_aside() {
        let manifest = br#"{"schema_version": 1,
            "cases": [{"name": "a", "file": "fixtures/f.json"}, {"name": "b", "file": "fixtures/g.json"}],
            "sqs": {"rec": {"fixture": "fixtures/f.json", "cases": [{"name": "c"}]}}}"#;
        let counter = CaseCounter::new(manifest);
        let edited = [("fixtures/f.json".to_string(), Change::Changed)];
        let CaseCount::Counted(same) = counter.none_missing(&edited) else {
            panic!("counted");
        };
        let ids: Vec<&str> = same.affected.iter().map(|(_, id)| id.as_str()).collect();
        assert_eq!(ids, ["a", "rec/c"]);
        assert_eq!(
            CaseCount::Counted(same).line(),
            "all 3 match in manifest.json, but 2 read a differing file: a (cases), rec/c (sqs)"
        );
        // A copy without the sqs section: its cases are missing, not affected.
        let older = br#"{"schema_version": 1,
            "cases": [{"name": "a", "file": "fixtures/f.json"}, {"name": "b", "file": "fixtures/g.json"}]}"#;
        let CaseCount::Counted(old) = counter.tally(Some(older), &edited) else {
            panic!("counted");
        };
        assert_eq!(old.affected, [("cases".to_string(), "a".to_string())]);
        assert_eq!(old.missing_sections, ["sqs"]);
    }
}
