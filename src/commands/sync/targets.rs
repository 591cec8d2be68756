//! The sync targets file: one workspace-relative vendored path per line; blank lines and `#`
//! comments ignored. It comes from the repository (a pull request can change it), so it is read
//! bounded (a regular file, at most [`MAX_TARGETS_BYTES`] and [`MAX_TARGETS_LINES`]), a UTF-8 BOM
//! is skipped, and a line with control, invisible or bidirectional characters, or one that names
//! a directory inside the canonical suite, is refused.

use std::fs;
use std::io::Read;
use std::path::{Component, Path, PathBuf};

use super::findings;
use bqsuite_core::diag::Diagnostic;
use bqsuite_core::error::{Error, Result};

/// Largest targets file read: a real one is a few lines.
pub const MAX_TARGETS_BYTES: u64 = 1024 * 1024;
/// Most lines in a targets file.
pub const MAX_TARGETS_LINES: usize = 10_000;

/// Reads the targets file: a regular file (never a FIFO or a device, which would hang or never
/// end), of at most [`MAX_TARGETS_BYTES`] and [`MAX_TARGETS_LINES`], UTF-8. Anything else cannot
/// be checked (exit 2).
pub fn read(path: &Path) -> Result<String> {
    let what = "read the targets file";
    let meta = fs::metadata(path).map_err(|e| Error::io(what, path, e))?;
    if !meta.is_file() {
        return Err(not_regular(path, &meta));
    }
    let mut options = fs::OpenOptions::new();
    options.read(true);
    // A FIFO swapped in after the check above must not block the open.
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    let file = options.open(path).map_err(|e| Error::io(what, path, e))?;
    let meta = file.metadata().map_err(|e| Error::io(what, path, e))?;
    if !meta.is_file() {
        return Err(not_regular(path, &meta));
    }
    let mut bytes = Vec::new();
    file.take(MAX_TARGETS_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(what, path, e))?;
    if bytes.len() as u64 > MAX_TARGETS_BYTES {
        return Err(Error::bad_path(
            path,
            format!(
                "is larger than {MAX_TARGETS_BYTES} bytes; a targets file lists one vendored \
                 directory per line (give the right file with --targets)"
            ),
        ));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        let line = e.as_bytes()[..e.utf8_error().valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1;
        Error::bad_path(
            path,
            format!("line {line} is not UTF-8 text; save the targets file as UTF-8"),
        )
    })?;
    if text.lines().count() > MAX_TARGETS_LINES {
        return Err(Error::bad_path(
            path,
            format!(
                "has more than {MAX_TARGETS_LINES} lines; a targets file lists one vendored \
                 directory per line (give the right file with --targets)"
            ),
        ));
    }
    Ok(text)
}

fn not_regular(path: &Path, meta: &fs::Metadata) -> Error {
    let what = if meta.is_dir() {
        "a directory"
    } else {
        "a FIFO, socket or device"
    };
    Error::bad_path(
        path,
        format!(
            "is {what}, not a regular file; the targets file is a text file with one vendored \
             directory per line (give it with --targets FILE)"
        ),
    )
}

/// `text` as shown in a message: controls escaped ([`bqsuite_core::shell::escape`]) and so is every other
/// [`invisible`] character.
fn shown(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if invisible(c) && !bqsuite_core::shell::unsafe_to_show(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    bqsuite_core::shell::escape(&out)
}

/// A character that is invisible or changes how the text around it reads: controls, bidi
/// controls and marks, zero-width and other format characters, line/paragraph separators, tags.
fn invisible(c: char) -> bool {
    bqsuite_core::shell::unsafe_to_show(c)
        || matches!(
            c,
            '\u{ad}'
                | '\u{34f}'
                | '\u{61c}'
                | '\u{115f}'
                | '\u{1160}'
                | '\u{17b4}'
                | '\u{17b5}'
                | '\u{180b}'..='\u{180f}'
                | '\u{200b}'..='\u{200f}'
                | '\u{2028}'..='\u{202e}'
                | '\u{2060}'..='\u{206f}'
                | '\u{3164}'
                | '\u{fe00}'..='\u{fe0f}'
                | '\u{feff}'
                | '\u{ffa0}'
                | '\u{fff0}'..='\u{fffb}'
                | '\u{1d173}'..='\u{1d17a}'
                | '\u{e0000}'..='\u{e0fff}'
        )
}

/// One vendored copy: `babelqueue-go/testdata/conformance`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// The path as written, `/`-separated, relative to the workspace.
    pub path: String,
    /// The SDK repository: the first path component.
    pub repo: String,
    /// 1-based line in the targets file.
    pub line: u32,
}

/// Parses a targets file. Lines that are not safe relative paths become findings.
pub fn parse(text: &str, file_label: &str) -> (Vec<Target>, Vec<Diagnostic>) {
    let mut targets: Vec<Target> = Vec::new();
    let mut problems = Vec::new();
    // A UTF-8 byte order mark (as some editors save) is not part of the first target.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (i, raw) in text.lines().enumerate() {
        let line = (i + 1) as u32;
        let entry = raw.split('#').next().unwrap_or("").trim();
        if entry.is_empty() {
            continue;
        }
        let entry = entry.trim_end_matches('/');
        let problem: Option<fn(&str, &str) -> Diagnostic> = if entry.chars().any(char::is_control) {
            Some(findings::target_control_characters)
        } else if entry.chars().any(invisible) {
            Some(findings::target_invisible_characters)
        } else if entry.starts_with('/') || entry.contains('\\') || entry.contains(':') {
            Some(findings::target_not_relative)
        } else if entry
            .split('/')
            .any(|c| c.is_empty() || c == "." || c == "..")
        {
            Some(findings::target_bad_components)
        } else if !entry.contains('/') {
            Some(findings::target_is_repository)
        } else {
            None
        };
        if let Some(problem) = problem {
            problems.push(problem(file_label, &shown(entry)).line_col(line, 1));
            continue;
        }
        // One copy inside another would never settle: each sync of one rewrites the other.
        let inside = |outer: &str, inner: &str| {
            inner
                .strip_prefix(outer)
                .is_some_and(|rest| rest.starts_with('/'))
        };
        if let Some(other) = targets
            .iter()
            .find(|t| inside(&t.path, entry) || inside(entry, &t.path))
        {
            problems.push(
                findings::overlapping_targets(file_label, entry, line, &other.path, other.line)
                    .line_col(line, 1),
            );
            continue;
        }
        if let Some(first) = targets.iter().find(|t| t.path == entry) {
            problems
                .push(findings::duplicate_target(file_label, entry, first.line).line_col(line, 1));
            continue;
        }
        let repo = entry.split('/').next().unwrap_or_default().to_string();
        targets.push(Target {
            path: entry.to_string(),
            repo,
            line,
        });
    }
    (targets, problems)
}

/// Refuses (as `sync-bad-target`) the targets that lie inside the canonical suite `suite`, or
/// hold it: syncing one would write into the suite itself, or delete its files as extras.
/// `workspace/<target>` is resolved through its nearest existing ancestor; a target that cannot be
/// resolved is kept (its own checks report why).
pub fn refuse_in_suite(
    targets: Vec<Target>,
    workspace: &Path,
    suite: &Path,
    file_label: &str,
    problems: &mut Vec<Diagnostic>,
) -> Vec<Target> {
    let Ok(suite) = fs::canonicalize(suite) else {
        return targets;
    };
    targets
        .into_iter()
        .filter(|t| {
            let Some(dir) = resolve(&workspace.join(&t.path)) else {
                return true;
            };
            let finding: fn(&str, &str, &str) -> Diagnostic = if dir.starts_with(&suite) {
                findings::target_inside_suite
            } else if suite.starts_with(&dir) {
                findings::target_holds_suite
            } else {
                return true;
            };
            problems.push(
                finding(file_label, &shown(&t.path), &suite.display().to_string())
                    .line_col(t.line, 1),
            );
            false
        })
        .collect()
}

/// `path` made absolute with links resolved: its nearest existing ancestor canonicalized, the
/// rest (normal components only) appended.
fn resolve(path: &Path) -> Option<PathBuf> {
    let mut rest = Vec::new();
    let mut at = path;
    loop {
        if let Ok(real) = fs::canonicalize(at) {
            let mut out = real;
            for c in rest.iter().rev() {
                out.push(c);
            }
            return Some(out);
        }
        match at.components().next_back() {
            Some(Component::Normal(name)) => rest.push(name.to_os_string()),
            _ => return None,
        }
        at = at.parent()?;
        if at.as_os_str().is_empty() {
            at = Path::new(".");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_paths_comments_and_blank_lines() {
        let (targets, problems) = parse(
            "# core\n\nbabelqueue-go/testdata/conformance  # go\n  php-sdk/tests/conformance/\n",
            "t",
        );
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(targets.len(), 2);
        assert_eq!(targets[0].repo, "babelqueue-go");
        assert_eq!(targets[0].line, 3);
        assert_eq!(targets[1].path, "php-sdk/tests/conformance");
    }

    #[test]
    fn refuses_unsafe_paths() {
        for bad in [
            "/etc/x", "a/../b", "../x/y", "repo", "a//b", "C:/x/y", "a\\b",
        ] {
            let (targets, problems) = parse(bad, "t");
            assert!(targets.is_empty(), "{bad}");
            assert_eq!(problems[0].code.as_str(), "sync-bad-target", "{bad}");
        }
    }

    #[test]
    fn overlapping_targets_are_refused_with_both_lines() {
        let (targets, problems) = parse("sdk/conf\nother/x\nsdk/conf/fixtures/nested\n", "t");
        assert_eq!(targets.len(), 2);
        assert_eq!(problems[0].code.as_str(), "sync-overlapping-targets");
        assert_eq!(problems[0].line_col, Some((3, 1)));
        assert!(
            problems[0].message.contains("(line 3)"),
            "{}",
            problems[0].message
        );
        assert!(
            problems[0].message.contains("(line 1)"),
            "{}",
            problems[0].message
        );
        // A sibling with a shared prefix is not inside.
        let (targets, problems) = parse("sdk/conf\nsdk/conf2\n", "t");
        assert_eq!((targets.len(), problems.len()), (2, 0));
    }

    #[test]
    fn control_characters_are_escaped() {
        let (_, problems) = parse("/abs/\u{1b}[31mred\n", "t");
        assert!(
            !problems[0].message.contains('\u{1b}'),
            "{}",
            problems[0].message
        );
        // A relative path with control characters inside is refused too (found by fuzzing: a
        // NUL cannot be part of any path the OS opens).
        for bad in ["sdk/a\0b", "sdk/\u{1b}[2Jx", "sdk/x\u{85}y"] {
            let (targets, problems) = parse(bad, "t");
            assert!(targets.is_empty(), "{bad:?}");
            assert_eq!(problems[0].code.as_str(), "sync-bad-target");
            assert!(!problems[0].message.chars().any(char::is_control));
        }
    }

    #[test]
    fn a_byte_order_mark_does_not_hide_the_first_target() {
        let (targets, problems) = parse("\u{feff}sdk/conf\nother/x\n", "t");
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(targets[0].path, "sdk/conf");
        assert_eq!(targets[0].line, 1);
        // Anywhere else it is an invisible character, refused.
        let (targets, problems) = parse("sdk/conf\n\u{feff}other/x\n", "t");
        assert_eq!(targets.len(), 1);
        assert_eq!(problems[0].line_col, Some((2, 1)));
    }

    #[test]
    fn invisible_and_bidirectional_characters_are_refused() {
        for bad in [
            "sdk/con\u{202e}f",
            "sdk/\u{2066}x\u{2069}",
            "sdk/a\u{200b}b",
            "sdk/a\u{200d}b",
            "sdk/x\u{2028}y",
            "sdk/x\u{e0041}",
            "sdk/x\u{61c}",
        ] {
            let (targets, problems) = parse(bad, "t");
            assert!(targets.is_empty(), "{bad:?}");
            assert_eq!(problems[0].code.as_str(), "sync-bad-target", "{bad:?}");
            assert!(
                problems[0].message.contains("bidirectional"),
                "{}",
                problems[0].message
            );
            assert!(
                !problems[0].message.chars().any(invisible),
                "{:?}",
                problems[0].message
            );
        }
        let (targets, _) = parse("sdk/café/conformance-测试", "t");
        assert_eq!(targets.len(), 1);
    }

    #[test]
    fn targets_inside_or_holding_the_suite_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let w = dir.path();
        fs::create_dir_all(w.join("conformance/suite/fixtures")).unwrap();
        fs::create_dir_all(w.join("sdk/tests")).unwrap();
        let suite = w.join("conformance/suite");
        let (targets, _) = parse(
            "conformance/suite/fixtures\nconformance/suite/new/deeper\nsdk/tests/conformance\n\
             conformance/other\n",
            "t",
        );
        let mut problems = Vec::new();
        let kept = refuse_in_suite(targets, w, &suite, "t", &mut problems);
        let kept: Vec<&str> = kept.iter().map(|t| t.path.as_str()).collect();
        assert_eq!(kept, ["sdk/tests/conformance", "conformance/other"]);
        assert_eq!(problems.len(), 2);
        assert!(
            problems
                .iter()
                .all(|d| d.code.as_str() == "sync-bad-target")
        );
        assert!(problems[0].message.contains("inside the canonical suite"));
        assert_eq!(problems[1].line_col, Some((2, 1)));
        // A target that holds the suite.
        let (targets, _) = parse("conformance/suite\n", "t");
        let mut problems = Vec::new();
        let nested = w.join("conformance/suite/fixtures");
        assert!(refuse_in_suite(targets, w, &nested, "t", &mut problems).is_empty());
        assert!(problems[0].message.contains("holds the canonical suite"));
        // Through a link in the workspace, too.
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(w.join("conformance"), w.join("alias")).unwrap();
            let (targets, _) = parse("alias/suite/fixtures\n", "t");
            let mut problems = Vec::new();
            assert!(refuse_in_suite(targets, w, &suite, "t", &mut problems).is_empty());
        }
    }

    #[cfg(unix)]
    #[test]
    fn only_a_bounded_regular_file_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let err = read(d).unwrap_err().to_string();
        assert!(err.contains("a directory, not a regular file"), "{err}");
        let err = read(Path::new("/dev/zero")).unwrap_err().to_string();
        assert!(err.contains("device"), "{err}");
        let fifo = d.join("fifo");
        assert!(
            std::process::Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success()
        );
        let err = read(&fifo).unwrap_err().to_string();
        assert!(err.contains("FIFO"), "{err}");
        let big = d.join("big");
        fs::write(&big, vec![b'#'; MAX_TARGETS_BYTES as usize + 1]).unwrap();
        let err = read(&big).unwrap_err().to_string();
        assert!(err.contains("larger than"), "{err}");
        let many = d.join("many");
        fs::write(&many, "\n".repeat(MAX_TARGETS_LINES + 1)).unwrap();
        let err = read(&many).unwrap_err().to_string();
        assert!(err.contains("more than"), "{err}");
        let latin1 = d.join("latin1");
        fs::write(&latin1, b"sdk/a\nsdk/caf\xe9\n").unwrap();
        let err = read(&latin1).unwrap_err().to_string();
        assert!(err.contains("line 2 is not UTF-8"), "{err}");
        let ok = d.join("ok");
        fs::write(&ok, "sdk/conf\n").unwrap();
        assert_eq!(read(&ok).unwrap(), "sdk/conf\n");
    }

    #[test]
    fn duplicate_is_a_warning() {
        let (targets, problems) = parse("a/b\na/b\n", "t");
        assert_eq!(targets.len(), 1);
        assert_eq!(problems[0].code.as_str(), "sync-duplicate-target");
    }
}
