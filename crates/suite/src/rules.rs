//! Which release introduced each rule of the suite's format, so that every release is checked
//! against the rules of its own version: what 1.0.0 lacked (the scope map, the exceptions list,
//! the results format) is required only from the release that brought it.

use semver::Version;

/// The newest real release of the suite this bqsuite knows: its evaluator has a rule for every
/// section up to it. A suite newer than this may carry sections bqsuite cannot re-derive.
pub const KNOWN_SUITE: &str = "1.8.0";

/// A requirement of the suite format that did not exist from the start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Feature {
    /// `conformance_version` in manifest.json, equal to CONFORMANCE_VERSION.
    ConformanceVersionField,
    /// The top-level `sections` map (section → `{"scope": ...}`).
    SectionsMap,
    /// The top-level `exceptions` list.
    Exceptions,
    /// `schema/results.schema.json` and `schema/results.example.json`.
    ResultsFormat,
}

impl Feature {
    /// The release that introduced the requirement (ADR-0032 brought all four in 1.5.0).
    pub fn since(self) -> Version {
        match self {
            Feature::ConformanceVersionField
            | Feature::SectionsMap
            | Feature::Exceptions
            | Feature::ResultsFormat => Version::new(1, 5, 0),
        }
    }

    /// Whether a suite of `version` must have it. A suite whose version is missing or not SemVer
    /// is held to every rule (that problem is reported on its own).
    pub fn required(self, version: Option<&Version>) -> bool {
        version.is_none_or(|v| base(v) >= self.since())
    }

    /// Whether a suite of `kind` and `version` must have it: a suite without BabelQueue's
    /// history is held to every rule from its first release.
    pub fn required_of(self, kind: &crate::kind::Kind, version: Option<&Version>) -> bool {
        !kind.format.history || self.required(version)
    }
}

/// `version` without its pre-release and build parts: a `1.5.0-pre` revision already follows the
/// rules of 1.5.0.
fn base(version: &Version) -> Version {
    Version::new(version.major, version.minor, version.patch)
}

/// The parsed version of a suite from its CONFORMANCE_VERSION text.
pub fn parse_version(text: Option<&str>) -> Option<Version> {
    text.and_then(|t| Version::parse(t.trim()).ok())
}

/// Whether a suite of `version` is newer than the newest release this bqsuite knows.
pub fn newer_than_known(version: Option<&Version>) -> bool {
    let known = Version::parse(KNOWN_SUITE).expect("a SemVer constant");
    version.is_some_and(|v| base(v) > known)
}

/// The scope the manifest's `sections` map gives `section`: `{"scope": "<scope>"}` as every
/// release since 1.5.0 writes it.
pub fn scope_of<'v>(manifest: &'v serde_json::Value, section: &str) -> Option<&'v str> {
    scope_in(manifest.get("sections")?.get(section)?)
}

/// The scope of one entry of the `sections` map.
pub fn scope_in(entry: &serde_json::Value) -> Option<&str> {
    entry.get("scope")?.as_str()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn requirements_start_at_the_release_that_brought_them() {
        let v = |s: &str| Version::parse(s).unwrap();
        assert!(!Feature::SectionsMap.required(Some(&v("1.4.0"))));
        assert!(Feature::SectionsMap.required(Some(&v("1.5.0"))));
        assert!(Feature::ResultsFormat.required(Some(&v("1.5.0-pre"))));
        assert!(Feature::Exceptions.required(None));
        assert!(newer_than_known(Some(&v("1.9.0"))));
        assert!(!newer_than_known(Some(&v("1.8.0"))));
    }

    #[test]
    fn the_scope_is_read_from_the_real_entry_shape() {
        let m = json!({"sections": {"sqs": {"scope": "sqs"}, "odd": "core"}});
        assert_eq!(scope_of(&m, "sqs"), Some("sqs"));
        assert_eq!(scope_of(&m, "odd"), None);
        assert_eq!(scope_of(&m, "none"), None);
    }
}
