//! How a vendored copy differs from the suite it should be, in the words `sync --check` and
//! `fetch --check` share:
//!
//! - its differing files ([`Change`]), most important first ([`sort_files`]: manifest.json, the
//!   version file, the schemas, then the fixtures);
//! - its cases ([`CaseCounter`], in `cases.rs`): how many of the expected suite's cases it lacks,
//!   how many differ, how many it has that the suite does not, which sections it lacks, and which
//!   cases read a file that differs;
//! - the group a copy falls in ([`fingerprint`]): copies whose vendored files are the same bytes
//!   have the same drift, and are reported once.
//!
//! Nothing here prints: the callers lay the lines out.

use serde_json::{Map, Value, json};

use crate::load::{MANIFEST, VERSION_FILE};
use crate::releases::{Digests, Identity};
use bqsuite_core::diag::Diagnostic;
use bqsuite_core::shell;

mod cases;
pub use cases::{CaseCount, CaseCounter, CaseDrift, read_manifest};

bqsuite_core::finding_codes! {
    /// A vendored copy that differs from its release: the copy as a whole, and each file.
    pub enum Code {
        /// The one finding that sums up a copy, or a group of copies that drifted the same way
        /// (its counts, its most important files, the fix). The per-file findings stay in the
        /// report; annotations show this one instead of them.
        CopyDrift = "copy-drift",
        DriftChanged = "drift-changed",
        DriftMissing = "drift-missing",
        DriftExtra = "drift-extra",
        DriftType = "drift-type",
        UnmanagedFile = "unmanaged-file",
    }
}

/// How one file of a drifted copy differs. The words are stable (JSON `change`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Change {
    Missing,
    Changed,
    Extra,
}

impl Change {
    pub fn word(self) -> &'static str {
        match self {
            Change::Missing => "missing",
            Change::Changed => "changed",
            Change::Extra => "extra",
        }
    }

    /// The change a per-file drift finding reports (`drift-type`: a file where a directory
    /// should be, or the reverse, is a changed entry); none for a finding that is not one.
    pub fn of(code: bqsuite_core::diag::Code) -> Option<Change> {
        match Code::of(code)? {
            Code::DriftMissing => Some(Change::Missing),
            Code::DriftChanged | Code::DriftType => Some(Change::Changed),
            Code::DriftExtra => Some(Change::Extra),
            Code::CopyDrift | Code::UnmanagedFile => None,
        }
    }
}

/// Every change, in the order counts are shown.
pub const CHANGES: [Change; 3] = [Change::Missing, Change::Changed, Change::Extra];

/// How important a differing file is: the manifest (it holds every case), the version file (it
/// says what the copy is), the schemas, then the fixtures and anything else.
fn rank(path: &str) -> u8 {
    if path == MANIFEST {
        0
    } else if path == VERSION_FILE {
        1
    } else if path == "schema" || path.starts_with("schema/") {
        2
    } else {
        3
    }
}

/// Within a rank: an edited file says more than an extra one, an extra one more than a missing
/// one (an old copy lacks many files for one reason).
fn change_rank(change: Change) -> u8 {
    match change {
        Change::Changed => 0,
        Change::Extra => 1,
        Change::Missing => 2,
    }
}

/// Sorts differing files most important first (then by path).
pub fn sort_files(files: &mut [(String, Change)]) {
    files.sort_by(|(a, x), (b, y)| {
        (rank(a), change_rank(*x), a.as_str()).cmp(&(rank(b), change_rank(*y), b.as_str()))
    });
}

/// How many of `files` differ in the given way.
pub fn count_of(files: &[(String, Change)], change: Change) -> usize {
    files.iter().filter(|(_, c)| *c == change).count()
}

/// `53 missing, 1 changed` (only the non-zero counts).
pub fn file_counts(files: &[(String, Change)]) -> String {
    CHANGES
        .iter()
        .map(|c| (count_of(files, *c), c.word()))
        .filter(|(n, _)| *n > 0)
        .map(|(n, word)| format!("{n} {word}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What makes two copies' drift the same: the digest of every vendored file they hold (as
/// [`crate::releases::digests_of`] makes them) and the list of differing files. `None`
/// when the copy is too large to hash (it is then never grouped).
pub fn fingerprint(digests: Option<&Digests>, files: &[(String, Change)]) -> Option<String> {
    let digests = digests?;
    let mut text = String::new();
    for (path, digest) in digests {
        text.push_str(&format!("{path}\0{digest}\n"));
    }
    for (path, change) in files {
        text.push_str(&format!("{path}\0{}\n", change.word()));
    }
    Some(crate::archive::sha256_hex(text.as_bytes()))
}

/// The drift object of one copy: what it is (the [`Identity`] fields), its file counts
/// (`missing`, `changed`, `extra`) and files (`[{path, change}]`, most important first), and its
/// cases (`cases`, `missing_sections`, `cases_not_counted`). `sync --check` puts these fields in
/// each target's row, `fetch --check` in `data.copy`. Without an identity (a copy that was not
/// compared) its fields are null.
pub fn drift_json(
    identity: Option<&Identity>,
    files: &[(String, Change)],
    cases: Option<&CaseCount>,
) -> Map<String, Value> {
    let mut out = Map::new();
    // An unchecked copy has the same keys, null: one shape for every row.
    let known = identity.map_or_else(|| Identity::default().json(), Identity::json);
    if let Value::Object(fields) = known {
        for (k, v) in fields {
            let v = if identity.is_some() { v } else { Value::Null };
            out.insert(k, v);
        }
    }
    for change in CHANGES {
        out.insert(change.word().into(), count_of(files, change).into());
    }
    out.insert(
        "files".into(),
        files
            .iter()
            .map(|(path, change)| json!({"path": path, "change": change.word()}))
            .collect(),
    );
    for (key, value) in CaseCount::json_fields(cases) {
        out.insert(key.into(), value);
    }
    out
}

/// What a copy is, for the `copy:` line: [`Identity::describe`], and for an interrupted copy
/// what to do about it.
pub fn what_copy(id: &Identity) -> String {
    let again = if id.interrupted {
        "; sync or update it again"
    } else {
        ""
    };
    format!("{}{again}", id.describe())
}

/// The head lines of a drift block, without indentation: `copy: ...` (what the copy is),
/// `cases: ...` and `files: ...` (the counts; `matched`: how many files match).
pub fn head_lines(
    identity: Option<&Identity>,
    files: &[(String, Change)],
    cases: Option<&CaseCount>,
    matched: Option<usize>,
) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some(id) = identity {
        lines.push(format!("copy:  {}", what_copy(id)));
    }
    if let Some(cases) = cases {
        lines.push(format!("cases: {}", cases.line()));
    }
    let mut counts = file_counts(files);
    if let Some(matched) = matched {
        if counts.is_empty() {
            counts = format!("all {matched} match");
        } else {
            counts.push_str(&format!(", {matched} match"));
        }
    }
    if !counts.is_empty() {
        lines.push(format!("files: {counts}"));
    }
    lines
}

/// The differing files (`(path, change word)`, most important first), at most `listed`, each
/// followed by its unified diff (`detail`) if any, then the hint of how to see the rest.
/// Lines are unindented but for the diff's own.
pub fn file_lines<'a>(
    files: impl ExactSizeIterator<Item = (&'a str, &'a str)>,
    listed: usize,
    more_hint: &str,
    detail: &dyn Fn(&str) -> Option<String>,
) -> Vec<String> {
    let total = files.len();
    let mut lines = Vec::new();
    for (path, change) in files.take(listed) {
        lines.push(format!("{change:<8} {}", shell::escape(path)));
        if let Some(diff) = detail(path) {
            for line in diff.lines() {
                lines.push(format!("    {line}"));
            }
        }
    }
    if total > listed && listed > 0 {
        lines.push(format!("... and {} more ({more_hint})", total - listed));
    }
    lines
}

/// The finding that sums up the drift of `copies` (one copy, or several that drifted the same
/// way): `verdict` says how they differ (`differ from release 1.8.0`, `are not vendored yet`),
/// then come the counts and the most important files; `fix` is the command that re-vendors them.
/// Its file is the most important differing file of the first copy (where an annotation lands).
pub fn summary_finding(
    copies: &[String],
    verdict: &str,
    identity: Option<&Identity>,
    files: &[(String, Change)],
    cases: Option<&CaseCount>,
    fix: Option<&str>,
) -> Diagnostic {
    const NAMED: usize = 10;
    let first = copies.first().map(String::as_str).unwrap_or_default();
    let who = match copies {
        [one] => format!("`{}`", shell::escape(one)),
        many => format!("{} copies", many.len()),
    };
    let what = identity.map_or(String::new(), |id| format!(" ({})", id.short()));
    let mut message = format!("{who}{what} {verdict}: files: {}", file_counts(files));
    if copies.len() > 1 {
        message.push_str(" (the same bytes in every copy)");
    }
    if let Some(cases) = cases {
        message.push_str(&format!("; cases: {}", cases.line()));
    }
    let important: Vec<String> = files
        .iter()
        .take(4)
        .map(|(p, c)| format!("{} {}", shell::escape(p), c.word()))
        .collect();
    if !important.is_empty() {
        message.push_str(&format!(
            "; first: {}{}",
            important.join(", "),
            more(files.len() - important.len())
        ));
    }
    if copies.len() > 1 {
        let named: Vec<String> = copies
            .iter()
            .take(NAMED)
            .map(|c| shell::escape(c))
            .collect();
        message.push_str(&format!(
            "; copies: {}{}",
            named.join(", "),
            more(copies.len().saturating_sub(NAMED))
        ));
    }
    let file = match files.first() {
        Some((path, _)) if !first.is_empty() => format!("{first}/{path}"),
        Some((path, _)) => path.clone(),
        None => first.to_string(),
    };
    let mut d = Diagnostic::error(Code::CopyDrift, file, message).summarising();
    if let Some(fix) = fix {
        let them = if copies.len() > 1 { "them" } else { "it" };
        d = d.help(format!("`{fix}` re-vendors {them}"));
    }
    d
}

/// `, and N more` (nothing for zero).
fn more(n: usize) -> String {
    if n > 0 {
        format!(", and {n} more")
    } else {
        String::new()
    }
}

// Findings: one constructor per finding about one file of a drifted copy, owning its words. Each
// is summed up: the copy's summary finding ([`summary_finding`]) stands for it.

fn file_drift(code: Code, file: impl Into<String>, message: impl Into<String>) -> Diagnostic {
    Diagnostic::error(code, file, message).summed_up()
}

/// `ancestor`, a directory of the expected tree above an expected file, is `described` here.
pub(crate) fn ancestor_wrong_type(ancestor: &str, described: &str, label: &str) -> Diagnostic {
    file_drift(
        Code::DriftType,
        ancestor,
        format!("`{ancestor}` is {described} here but a directory in {label}"),
    )
    .help("replace it with the directory from the release")
}

/// `rel`, an expected directory that holds no expected file, is `described` here.
pub(crate) fn directory_wrong_type(rel: &str, described: &str, label: &str) -> Diagnostic {
    file_drift(
        Code::DriftType,
        rel,
        format!("`{rel}` is {described} here but a directory in {label}"),
    )
}

pub(crate) fn file_wrong_type(rel: &str, described: &str, label: &str) -> Diagnostic {
    file_drift(
        Code::DriftType,
        rel,
        format!("`{rel}` is {described} here but a regular file in {label}"),
    )
    .help("replace it with the file from the release")
}

pub(crate) fn file_changed(rel: &str, label: &str, local_size: u64, size: u64) -> Diagnostic {
    file_drift(
        Code::DriftChanged,
        rel,
        format!(
            "`{rel}` differs from {label} ({} here, {size} in {label})",
            bqsuite_core::diag::count(local_size as usize, "byte", "bytes")
        ),
    )
    .help("re-vendor the file from the release")
}

pub(crate) fn file_missing(rel: &str, label: &str) -> Diagnostic {
    file_drift(
        Code::DriftMissing,
        rel,
        format!("`{rel}` is in {label} but missing here"),
    )
    .help("re-vendor the file from the release")
}

pub(crate) fn directory_missing(rel: &str, label: &str) -> Diagnostic {
    file_drift(
        Code::DriftMissing,
        rel,
        format!("directory `{rel}` is in {label} but missing here"),
    )
}

pub(crate) fn extra(rel: &str, is_dir: bool, label: &str) -> Diagnostic {
    let what = if is_dir { "directory" } else { "file" };
    file_drift(
        Code::DriftExtra,
        rel,
        format!("{what} `{rel}` is here but not in {label}"),
    )
    .help("remove it, or move an SDK's own file out of the vendored directories")
}

/// A top-level entry that is not part of the vendored set (a note, not drift).
pub(crate) fn unmanaged(name: &str) -> Diagnostic {
    Diagnostic::note(
        Code::UnmanagedFile,
        name,
        format!(
            "`{name}` is not part of the vendored set; it is left alone (an SDK's own \
             file)"
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn most_important_files_first() {
        let mut files = vec![
            ("fixtures/a.json".to_string(), Change::Missing),
            ("fixtures/b.json".to_string(), Change::Changed),
            ("schema/results.schema.json".to_string(), Change::Missing),
            ("CONFORMANCE_VERSION".to_string(), Change::Missing),
            ("manifest.json".to_string(), Change::Changed),
        ];
        sort_files(&mut files);
        let order: Vec<&str> = files.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(
            order,
            [
                "manifest.json",
                "CONFORMANCE_VERSION",
                "schema/results.schema.json",
                "fixtures/b.json",
                "fixtures/a.json"
            ]
        );
    }
}
