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
        let problem = if entry.starts_with('/') || entry.contains('\\') || entry.contains(':') {
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
                    format!("`{entry}` {problem}"),
                )
                .line_col(line, 1)
                .help("write e.g. babelqueue-go/testdata/conformance"),
            );
            continue;
        }
        if let Some(first) = targets.iter().find(|t| t.path == entry) {
            problems.push(
                Diagnostic::warning(
                    "sync-duplicate-target",
                    file_label,
                    format!("`{entry}` is listed twice (first on line {})", first.line),
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
    fn duplicate_is_a_warning() {
        let (targets, problems) = parse("a/b\na/b\n", "t");
        assert_eq!(targets.len(), 1);
        assert_eq!(problems[0].code, "sync-duplicate-target");
    }
}
