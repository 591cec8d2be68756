//! The compatibility check of one results file against a suite (ADR-0032, "Sections, scopes and
//! exceptions" and "Results format" of the spec).
//!
//! A file is **Compatible** when it has no error finding. Every reason it is not is one error:
//!
//! | code | what |
//! |---|---|
//! | `results-too-large` | the file is larger than [`MAX_RESULTS_BYTES`](super::read::MAX_RESULTS_BYTES) (16 MiB), or a name in it is longer than 256 bytes, a text longer than 4 KiB, or it has more than 1,000 sections or 100,000 cases ([`super::read`]) |
//! | `results-json-syntax` | the file is not UTF-8 JSON |
//! | `results-duplicate-key` | a key repeats in one object (a case reported twice is ambiguous) |
//! | `results-schema` | the file does not conform to `schema/results.schema.json` (draft 2020-12, `format` asserted) |
//! | `results-version` | `conformance_version` is not the suite's version |
//! | `results-binding-unknown` | `bindings` names something that is not a binding |
//! | `results-binding-excepted` | `bindings` names a binding the manifest excepts for the SDK's family |
//! | `results-section-missing` | a required section is absent |
//! | `results-section-unknown` | a section the manifest does not have |
//! | `results-section-out-of-scope` | a section whose scope is not carried (not in `bindings`, or excepted) |
//! | `results-case-unknown` | a case id the manifest's section does not have |
//! | `results-case-missing` | a case of a present in-scope section is absent |
//! | `results-case-failed` | a case has `status: fail` |
//! | `results-skip-without-adr` | a skip whose `reason` does not cite `ADR-NNNN` |
//!
//! A section out of scope is an error because the spec has such a section absent from results:
//! reporting it means either `bindings` is incomplete (which the spec forbids: it MUST list every
//! binding the package carries, and then all of that binding's sections are required) or the
//! binding is excepted for the family and must not be claimed.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::family::family_of;
use super::findings;
use super::read::{self, Loaded, Reason, SectionEntry, Status, cites_adr};
use crate::commands::schema::{self, DRAFT_2020_12, Validator};
use crate::commands::suites;
use bqsuite_core::diag::{Diagnostic, Severity, plural};
use bqsuite_core::error::{Error, Result};
use bqsuite_core::index::CaseIndex;
use bqsuite_core::json::{self, Kind, Node, Pos};
use bqsuite_suite::kind::{CORE_SCOPE, Kind as SuiteKind};
use bqsuite_suite::load::{self, RESULTS_SCHEMA};

/// At most this many findings of one file are listed; the verdict still counts them all.
pub const MAX_FINDINGS_PER_FILE: usize = 1000;
/// At most this many schema violations are collected per file.
const MAX_SCHEMA_VIOLATIONS: usize = 1000;

/// The findings of one file: every error is counted, the first [`MAX_FINDINGS_PER_FILE`] kept.
#[derive(Default)]
struct Findings {
    kept: Vec<Diagnostic>,
    errors: usize,
    dropped: usize,
}

impl Findings {
    fn push(&mut self, d: Diagnostic) {
        if d.severity == Severity::Error {
            self.errors += 1;
        }
        if self.kept.len() < MAX_FINDINGS_PER_FILE {
            self.kept.push(d);
        } else {
            self.dropped += 1;
        }
    }
}

/// One manifest section: its scope and its case ids (the spec's id rule).
#[derive(Debug, Clone)]
pub struct SectionRule {
    pub name: String,
    pub scope: String,
    pub ids: Vec<String>,
    id_set: HashSet<String>,
}

impl SectionRule {
    pub fn has(&self, id: &str) -> bool {
        self.id_set.contains(id)
    }
}

/// One `exceptions` entry of the manifest.
#[derive(Debug, Clone)]
pub struct Exception {
    pub family: String,
    pub binding: String,
    pub adr: Option<String>,
    pub description: Option<String>,
}

/// What a results file is checked against, read once from the suite.
pub struct SuiteRules {
    /// The suite's description: its bindings, and whether its manifest lists SDK `exceptions`
    /// (BabelQueue's format: only then do SDK families matter).
    pub kind: SuiteKind,
    /// The suite's version (CONFORMANCE_VERSION, else the manifest's `conformance_version`).
    pub version: String,
    /// Sections in manifest order.
    pub sections: Vec<SectionRule>,
    by_name: HashMap<String, usize>,
    pub exceptions: Vec<Exception>,
    validator: Validator,
}

impl SuiteRules {
    /// Reads the suite at `root`. Fails (exit 2) when it has no readable manifest, version,
    /// description or results schema (a BabelQueue suite older than 1.5.0 has no results format).
    pub fn load(root: &Path) -> Result<Self> {
        let suite = load::load(root)?;
        let kind = suites::describe(&suite)?;
        let manifest = suite.require_manifest()?;
        let version = suite
            .version_text()
            .filter(|v| !v.is_empty())
            .map(str::to_string)
            .or_else(|| {
                manifest
                    .get("conformance_version")
                    .and_then(Value::as_str)
                    .map(str::to_string)
            })
            .ok_or_else(|| Error::bad_path(root, "has no CONFORMANCE_VERSION"))?;
        let schema = suite.json(RESULTS_SCHEMA).ok_or_else(|| {
            Error::bad_path(
                root.join(RESULTS_SCHEMA),
                "is missing or is not valid JSON (results files need a 1.5.0 or later suite)",
            )
        })?;
        // `format` (generated_at: date-time, RFC 3339) is asserted, as the spec requires it.
        let validator = schema::compile_for_draft(schema, DRAFT_2020_12, true).map_err(|why| {
            Error::bad_path(
                root.join(RESULTS_SCHEMA),
                format!("the schema {}", why.message()),
            )
        })?;
        Ok(Self::from_manifest(kind, manifest, version, validator))
    }

    pub(crate) fn from_manifest(
        kind: SuiteKind,
        manifest: &Value,
        version: String,
        validator: Validator,
    ) -> Self {
        let index = CaseIndex::new(manifest);
        let scopes = manifest.get("sections").and_then(Value::as_object);
        let mut sections: Vec<SectionRule> = index
            .section_names
            .iter()
            .map(|name| SectionRule {
                name: name.clone(),
                // A section the scope map does not name is treated as core (required of every
                // SDK); `bqsuite validate` reports the gap in the suite.
                scope: scopes
                    .and_then(|m| m.get(name))
                    .and_then(bqsuite_suite::rules::scope_in)
                    .unwrap_or(CORE_SCOPE)
                    .to_string(),
                ids: Vec::new(),
                id_set: HashSet::new(),
            })
            .collect();
        let by_name: HashMap<String, usize> = sections
            .iter()
            .enumerate()
            .map(|(i, s)| (s.name.clone(), i))
            .collect();
        for case in &index.cases {
            if let Some(&i) = by_name.get(&case.section) {
                let rule = &mut sections[i];
                if rule.id_set.insert(case.id.clone()) {
                    rule.ids.push(case.id.clone());
                }
            }
        }
        let text = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
        let exceptions = manifest
            .get("exceptions")
            .and_then(Value::as_array)
            .map(|items| {
                items
                    .iter()
                    .filter_map(|e| {
                        Some(Exception {
                            family: text(e, "family")?,
                            binding: text(e, "binding")?,
                            adr: text(e, "adr"),
                            description: text(e, "description"),
                        })
                    })
                    .collect()
            })
            .unwrap_or_default();
        SuiteRules {
            kind,
            version,
            sections,
            by_name,
            exceptions,
            validator,
        }
    }

    pub fn section(&self, name: &str) -> Option<&SectionRule> {
        self.by_name.get(name).map(|&i| &self.sections[i])
    }

    /// The family of the SDK named `sdk` ([`family_of`]), when the suite's manifest lists SDK
    /// exceptions (BabelQueue's format); `None` for any other suite, where families mean nothing.
    pub fn family_of(&self, sdk: &str) -> Option<&'static str> {
        self.kind
            .format
            .exceptions
            .then(|| family_of(sdk))
            .flatten()
    }

    /// The exception that excludes `binding` for `family`, if any.
    pub fn exception(&self, family: Option<&str>, binding: &str) -> Option<&Exception> {
        let family = family?;
        self.exceptions
            .iter()
            .find(|e| e.family.eq_ignore_ascii_case(family) && e.binding == binding)
    }
}

/// The outcome of checking one results file.
#[derive(Debug, Clone)]
pub struct FileCheck {
    /// The path as given.
    pub file: String,
    pub sdk: Option<String>,
    pub version: Option<String>,
    pub conformance_version: Option<String>,
    pub family: Option<&'static str>,
    /// False when the file could not be parsed (too large, not UTF-8, not JSON).
    pub readable: bool,
    /// The scopes the SDK carries: `core` plus each known binding it lists that is not excepted
    /// for its family.
    pub scopes: BTreeSet<String>,
    /// The sections present in the file (last-wins).
    pub sections: Vec<SectionEntry>,
    /// The findings, sorted: the first [`MAX_FINDINGS_PER_FILE`] found (plus a truncation note).
    pub findings: Vec<Diagnostic>,
    /// How many error findings there were in all: the reasons the file is not Compatible.
    pub reasons: usize,
}

impl FileCheck {
    pub fn compatible(&self) -> bool {
        self.reasons == 0
    }

    /// `sdk version`, or the file name when the file does not say.
    pub fn label(&self) -> String {
        match (&self.sdk, &self.version) {
            (Some(sdk), Some(version)) => format!("{sdk} {version}"),
            (Some(sdk), None) => sdk.clone(),
            _ => self.file.clone(),
        }
    }

    /// `Compatible` or `NOT Compatible (N reasons)`.
    pub fn verdict(&self) -> String {
        if self.compatible() {
            "Compatible".to_string()
        } else {
            format!(
                "NOT Compatible ({} reason{})",
                self.reasons,
                plural(self.reasons)
            )
        }
    }

    pub fn section(&self, name: &str) -> Option<&SectionEntry> {
        self.sections.iter().find(|s| s.name == name)
    }
}

/// Checks the results file at `path`. Fails (exit 2) only when it cannot be read at all.
pub fn check_file(rules: &SuiteRules, path: &Path) -> Result<FileCheck> {
    let name = read::shown(path);
    Ok(match read::load(path)? {
        Loaded::Unreadable(d) => FileCheck {
            file: name,
            sdk: None,
            version: None,
            conformance_version: None,
            family: None,
            readable: false,
            scopes: BTreeSet::new(),
            sections: Vec::new(),
            findings: vec![d],
            reasons: 1,
        },
        Loaded::Parsed(parsed) => check_tree(rules, &name, &parsed.tree),
    })
}

fn section_pointer(section: &str) -> String {
    json::join("/sections", section)
}

/// Places a finding at a position of the file.
fn at(d: Diagnostic, pos: Pos) -> Diagnostic {
    d.line_col(pos.line, pos.column)
}

/// Checks a parsed results file named `file`.
pub fn check_tree(rules: &SuiteRules, file: &str, tree: &Node) -> FileCheck {
    let mut out = Findings::default();
    for dup in tree.duplicate_keys() {
        out.push(at(
            findings::duplicate_key(file, &dup.key, &dup.first.to_string())
                .at(json::join(&dup.pointer, &dup.key)),
            dup.repeated,
        ));
    }

    let sdk = read::top_string(tree, "sdk");
    let version = read::top_string(tree, "version");
    let conformance_version = read::top_string(tree, "conformance_version");
    let family = sdk.as_deref().and_then(|sdk| rules.family_of(sdk));

    if let Some(cv) = &conformance_version
        && *cv != rules.version
    {
        let pos = tree
            .member("conformance_version")
            .map_or(tree.pos, |m| m.value.pos);
        out.push(at(
            findings::version_differs(file, &cv.to_string(), &rules.version)
                .at("/conformance_version"),
            pos,
        ));
    }

    let claimed = check_bindings(rules, file, tree, family, &mut out);
    let (present, value) = check_sections(rules, file, tree, &claimed, family, &mut out);
    // The schema, last: its findings about what the checks above already name are left out.
    for error in rules
        .validator
        .iter_errors(&value)
        .take(MAX_SCHEMA_VIOLATIONS)
    {
        let pointer = error.instance_path().as_str().to_string();
        if claimed.covered.contains(&pointer) {
            continue;
        }
        let pos = tree.at(&pointer).map_or(tree.pos, |n| n.pos);
        out.push(at(
            findings::schema(file, RESULTS_SCHEMA, &error.to_string()).at(pointer),
            pos,
        ));
    }

    let reasons = out.errors;
    let mut findings = out.kept;
    findings.sort_by(|a, b| {
        (a.line_col, &a.pointer, a.code, &a.message)
            .cmp(&(b.line_col, &b.pointer, b.code, &b.message))
    });
    if out.dropped > 0 {
        findings.push(findings::findings_truncated(
            file,
            out.dropped,
            MAX_FINDINGS_PER_FILE,
        ));
    }
    FileCheck {
        file: file.to_string(),
        sdk,
        version,
        conformance_version,
        family,
        readable: true,
        scopes: claimed.scopes,
        sections: present.map(|(_, e)| e).unwrap_or_default(),
        findings,
        reasons,
    }
}

/// What a file's `bindings` claim.
struct Claimed {
    /// The scopes the SDK carries: core, and every known binding it lists that is not excepted.
    scopes: BTreeSet<String>,
    /// Every known binding it lists, excepted or not.
    listed: BTreeSet<String>,
    /// Pointers already reported, which the schema's findings leave out.
    covered: HashSet<String>,
}

/// Reads `bindings` into the scopes the SDK carries, reporting unknown and excepted bindings.
fn check_bindings(
    rules: &SuiteRules,
    file: &str,
    tree: &Node,
    family: Option<&str>,
    out: &mut Findings,
) -> Claimed {
    let bindings: Vec<&str> = rules.kind.bindings().collect();
    let mut claimed = Claimed {
        scopes: BTreeSet::from([CORE_SCOPE.to_string()]),
        listed: BTreeSet::new(),
        covered: HashSet::new(),
    };
    let Some(Kind::Array(items)) = tree.member("bindings").map(|m| &m.value.kind) else {
        return claimed;
    };
    for (i, item) in items.iter().enumerate() {
        let Kind::String(binding) = &item.kind else {
            continue;
        };
        let pointer = format!("/bindings/{i}");
        if !bindings.contains(&binding.as_str()) {
            out.push(at(
                findings::binding_unknown(file, binding, &bindings).at(&pointer),
                item.pos,
            ));
            claimed.covered.insert(pointer);
        } else if let Some(e) = rules.exception(family, binding) {
            let adr = e.adr.as_deref().unwrap_or("an ADR");
            out.push(at(
                findings::binding_excepted(file, binding, &e.family, adr, e.description.as_deref())
                    .at(&pointer),
                item.pos,
            ));
            claimed.listed.insert(binding.clone());
        } else {
            claimed.listed.insert(binding.clone());
            claimed.scopes.insert(binding.clone());
        }
    }
    claimed
}

/// The sections present and the ones required but missing. Returns the sections read and the
/// file as the schema is to see it: an ADR-less skip, already reported as
/// results-skip-without-adr (or as an unknown case or section), is given a placeholder reason
/// so the schema does not report it again.
fn check_sections(
    rules: &SuiteRules,
    file: &str,
    tree: &Node,
    claimed: &Claimed,
    family: Option<&str>,
    out: &mut Findings,
) -> (Option<(Pos, Vec<SectionEntry>)>, Value) {
    let mut value = tree.to_value();
    let present = read::sections(tree);
    let Some((sections_pos, entries)) = &present else {
        return (present, value);
    };
    let names: HashSet<&str> = entries.iter().map(|e| e.name.as_str()).collect();
    for entry in entries {
        check_section(
            rules,
            file,
            entry,
            &claimed.scopes,
            &claimed.listed,
            family,
            out,
        );
        for case in entry.cases.iter().flatten() {
            if !needs_adr(case.status, &case.reason) {
                continue;
            }
            if let Some(obj) = value
                .get_mut("sections")
                .and_then(|s| s.get_mut(&entry.name))
                .and_then(|s| s.get_mut(&case.id))
                .and_then(Value::as_object_mut)
            {
                obj.insert("reason".into(), Value::String("ADR-0000".into()));
            }
        }
    }
    for rule in &rules.sections {
        if claimed.scopes.contains(&rule.scope) && !names.contains(rule.name.as_str()) {
            let missing = if rule.scope == CORE_SCOPE {
                findings::core_section_missing
            } else {
                findings::binding_section_missing
            };
            out.push(at(
                missing(file, &rule.name, &rule.scope, rule.ids.len())
                    .at(section_pointer(&rule.name)),
                *sections_pos,
            ));
        }
    }
    (present, value)
}

/// A skip whose reason does not cite an ADR.
pub fn needs_adr(status: Status, reason: &Reason) -> bool {
    status == Status::Skip && !reason.text().is_some_and(cites_adr)
}

fn check_section(
    rules: &SuiteRules,
    file: &str,
    entry: &SectionEntry,
    scopes: &BTreeSet<String>,
    listed: &BTreeSet<String>,
    family: Option<&str>,
    out: &mut Findings,
) {
    let at = |d: Diagnostic, pos: Pos| d.line_col(pos.line, pos.column);
    let pointer = section_pointer(&entry.name);
    let Some(rule) = rules.section(&entry.name) else {
        out.push(at(
            findings::section_unknown(file, &entry.name, &rules.version).at(&pointer),
            entry.key_pos,
        ));
        return;
    };
    let in_scope = scopes.contains(&rule.scope);
    if !in_scope {
        let d = if let Some(e) = rules.exception(family, &rule.scope) {
            findings::section_excepted(
                file,
                &rule.name,
                &rule.scope,
                &e.family,
                e.adr.as_deref().unwrap_or("an ADR"),
            )
        } else if listed.contains(&rule.scope) {
            findings::section_scope_listed(file, &rule.name, &rule.scope)
        } else {
            findings::section_scope_unlisted(file, &rule.name, &rule.scope)
        };
        out.push(at(d.at(&pointer), entry.key_pos));
    }
    let Some(cases) = &entry.cases else {
        return; // not an object: the schema check reports it
    };
    let mut seen: HashSet<&str> = HashSet::with_capacity(cases.len());
    for case in cases {
        let case_pointer = json::join(&pointer, &case.id);
        if !rule.has(&case.id) {
            out.push(at(
                findings::case_unknown(file, &rule.name, &case.id)
                    .at(case_pointer)
                    .case(&rule.name, &case.id),
                case.key_pos,
            ));
            continue;
        }
        seen.insert(case.id.as_str());
        match case.status {
            Status::Fail => {
                out.push(at(
                    findings::case_failed(file, &case.id, &rule.name, case.reason.text())
                        .at(case_pointer)
                        .case(&rule.name, &case.id),
                    case.key_pos,
                ));
            }
            Status::Skip if needs_adr(case.status, &case.reason) => {
                let d = match &case.reason {
                    Reason::Absent => findings::skip_without_reason(file, &case.id, &rule.name),
                    Reason::NotText => findings::skip_reason_not_text(file, &case.id, &rule.name),
                    Reason::Text(r) => findings::skip_cites_no_adr(file, &case.id, &rule.name, r),
                };
                out.push(at(
                    d.at(case_pointer).case(&rule.name, &case.id),
                    case.key_pos,
                ));
            }
            _ => {}
        }
    }
    if in_scope {
        for id in rule.ids.iter().filter(|id| !seen.contains(id.as_str())) {
            out.push(at(
                findings::case_missing(file, id, &rule.name)
                    .at(json::join(&pointer, id))
                    .case(&rule.name, id),
                entry.value_pos,
            ));
        }
    }
}

/// Checks every file of `files` against the suite. Fails (exit 2) when the suite or a file cannot
/// be read at all.
pub fn check_all(files: &[PathBuf], rules: &SuiteRules) -> Result<Vec<FileCheck>> {
    if files.is_empty() {
        return Err(Error::Usage("no results files given".into()));
    }
    files.iter().map(|f| check_file(rules, f)).collect()
}

pub(crate) fn subject(files: &[PathBuf]) -> String {
    match files {
        [one] => one.display().to_string(),
        many => format!("{} results files", many.len()),
    }
}

#[cfg(test)]
#[path = "check_tests.rs"]
pub(crate) mod tests;
