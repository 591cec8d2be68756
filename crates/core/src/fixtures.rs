//! How a model reads a suite's files without doing I/O itself.

/// Gives the evaluator the text of the suite's files without doing I/O itself.
pub trait FixtureSource {
    /// The UTF-8 text of the file at `rel_path` (relative to the suite root, `/`-separated), or
    /// `None` when the suite has no such file.
    fn text(&self, rel_path: &str) -> Option<&str>;
}

impl FixtureSource for std::collections::BTreeMap<String, String> {
    fn text(&self, rel_path: &str) -> Option<&str> {
        self.get(rel_path).map(String::as_str)
    }
}
