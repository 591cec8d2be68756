//! The sync targets file: one workspace-relative vendored path per line; blank lines and `#`
//! comments ignored.

use crate::diag::Diagnostic;

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
    for (i, raw) in text.lines().enumerate() {
        let line = (i + 1) as u32;
        let entry = raw.split('#').next().unwrap_or("").trim();
        if entry.is_empty() {
            continue;
        }
        let entry = entry.trim_end_matches('/');
        let problem = if entry.chars().any(char::is_control) {
            Some("must not contain control characters")
        } else if entry.starts_with('/') || entry.contains('\\') || entry.contains(':') {
            Some("must be a path relative to the workspace, with `/` separators")
        } else if entry
            .split('/')
            .any(|c| c.is_empty() || c == "." || c == "..")
        {
            Some("must not contain empty, `.` or `..` components")
        } else if !entry.contains('/') {
            Some(
                "must name a directory inside an SDK repository (`<repo>/<path>`), not the repository itself",
            )
        } else {
            None
        };
        if let Some(problem) = problem {
            problems.push(
                Diagnostic::error(
                    "sync-bad-target",
                    file_label,
                    format!("`{}` {problem}", crate::shell::escape(entry)),
                )
                .line_col(line, 1)
                .help("write e.g. babelqueue-go/testdata/conformance"),
            );
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
                Diagnostic::error(
                    "sync-overlapping-targets",
                    file_label,
                    format!(
                        "`{}` (line {line}) and `{}` (line {}) overlap: one vendored copy would \
                         sit inside the other",
                        crate::shell::escape(entry),
                        crate::shell::escape(&other.path),
                        other.line
                    ),
                )
                .line_col(line, 1)
                .help("keep one of the two lines"),
            );
            continue;
        }
        if let Some(first) = targets.iter().find(|t| t.path == entry) {
            problems.push(
                Diagnostic::warning(
                    "sync-duplicate-target",
                    file_label,
                    format!(
                        "`{}` is listed twice (first on line {})",
                        crate::shell::escape(entry),
                        first.line
                    ),
                )
                .line_col(line, 1),
            );
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
            assert_eq!(problems[0].code, "sync-bad-target", "{bad}");
        }
    }

    #[test]
    fn overlapping_targets_are_refused_with_both_lines() {
        let (targets, problems) = parse("sdk/conf\nother/x\nsdk/conf/fixtures/nested\n", "t");
        assert_eq!(targets.len(), 2);
        assert_eq!(problems[0].code, "sync-overlapping-targets");
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
            assert_eq!(problems[0].code, "sync-bad-target");
            assert!(!problems[0].message.chars().any(char::is_control));
        }
    }

    #[test]
    fn duplicate_is_a_warning() {
        let (targets, problems) = parse("a/b\na/b\n", "t");
        assert_eq!(targets.len(), 1);
        assert_eq!(problems[0].code, "sync-duplicate-target");
    }
}
