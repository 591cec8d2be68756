//! The program's own Rust source read as text: the environment variables a part of it reads, for
//! the tests that check the help and the manual name every one.

use std::collections::BTreeSet;
use std::fs;

use super::root;

/// The Rust files under `dir` (a directory of the repository, or one file), each without its unit
/// tests and without any file under a `tests` directory (they read variables of their own, such
/// as BQSUITE_BLESS, which the program does not): (path relative to the repository, text).
pub fn program_files(dir: &str) -> Vec<(String, String)> {
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(root().join(dir)).sort_by_file_name() {
        let entry = entry.unwrap();
        let path = entry.path();
        // A crate's integration tests (`crates/*/tests/`) and test modules are not the program.
        let test_code = path
            .strip_prefix(root())
            .unwrap_or(path)
            .components()
            .any(|c| c.as_os_str() == "tests");
        if entry.file_type().is_file() && path.extension().is_some_and(|e| e == "rs") && !test_code
        {
            let text = fs::read_to_string(path).unwrap();
            let program = text.split("#[cfg(test)]").next().unwrap().to_string();
            let rel = path.strip_prefix(root()).unwrap().display().to_string();
            files.push((rel, program));
        }
    }
    assert!(!files.is_empty(), "no Rust file under {dir}");
    files
}

/// The `(name, value)` of every `const NAME: &str = "value";` of the program (src/ and crates/).
fn string_constants() -> Vec<(String, String)> {
    ["src", "crates"]
        .iter()
        .flat_map(|dir| program_files(dir))
        .flat_map(|(_, text)| {
            text.lines()
                .filter_map(|l| {
                    let rest = l.trim().trim_start_matches("pub ").strip_prefix("const ")?;
                    let (name, value) = rest.split_once(": &str = \"")?;
                    Some((name.to_string(), value.trim_end_matches("\";").to_string()))
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The environment variables `texts` read: `var("NAME")`, `var_os("NAME")` (`std::env`'s, or a
/// helper of the same name), and the same with a constant of the program holding the name.
pub fn variables_read<'a>(texts: impl IntoIterator<Item = &'a str>) -> BTreeSet<String> {
    let constants = string_constants();
    let mut found = BTreeSet::new();
    for text in texts {
        for opener in ["var(", "var_os("] {
            for (at, _) in text.match_indices(opener) {
                let arg = &text[at + opener.len()..];
                let arg = &arg[..arg.find(')').unwrap_or(0)];
                let name = if let Some(literal) = arg.strip_prefix('"') {
                    literal.trim_end_matches('"').to_string()
                } else {
                    let last = arg.rsplit("::").next().unwrap_or(arg).trim();
                    match constants.iter().find(|(n, _)| n == last) {
                        Some((_, value)) => value.clone(),
                        None => continue,
                    }
                };
                if !name.is_empty() && name.chars().all(|c| c.is_ascii_uppercase() || c == '_') {
                    found.insert(name);
                }
            }
        }
    }
    found
}

/// The words of `text` made of capitals and underscores (a variable named in a help text or a
/// page: CI is not found inside CLICOLOR).
pub fn capital_words(text: &str) -> BTreeSet<&str> {
    text.split(|c: char| !(c.is_ascii_uppercase() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect()
}
