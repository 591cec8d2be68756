//! What a suite is: its description (name, title, asset, release location, the model that
//! judges it, the scopes of its sections, the rules of its format).
//!
//! A suite says what it is in `suite.json` beside its manifest. The real BabelQueue releases
//! (1.0.0 to 1.8.0) carry no description, and `suite/` holds their bytes, so a suite without one
//! is BabelQueue's, whose description lives here ([`Kind::babelqueue`]).
//!
//! ```json
//! {"description_version": 1, "name": "sbp", "title": "Sideband SBP v1", "model": "sbp-v1",
//!  "asset": "sbp-conformance",
//!  "release_url": "https://example.org/releases/download/v{version}"}
//! ```
//!
//! `scopes` (default `["core"]`) is optional. Which models exist is the package's business (its
//! registry); this module only reads the description.

use std::fmt;
use std::fs;
use std::io::{self, Read};
use std::path::Path;

use serde_json::Value;

use crate::load::Suite;

/// The description's file name, beside `manifest.json`.
pub use crate::layout::DESCRIPTION;

/// The description format this bqsuite reads.
pub const DESCRIPTION_VERSION: u64 = 1;

/// BabelQueue's scopes: `core` and its bindings.
const BABELQUEUE_SCOPES: [&str; 9] = [
    "core", "redis", "amqp", "sqs", "asb", "pulsar", "kafka", "artemis", "otel",
];

/// BabelQueue's bindings (every scope but `core`): what its results files' `bindings` list. The
/// broker bindings are all but the last, `otel`.
pub const BABELQUEUE_BINDINGS: [&str; 8] = [
    "redis", "amqp", "sqs", "asb", "pulsar", "kafka", "artemis", "otel",
];

/// The scope every suite has: the cases every implementation runs.
pub const CORE_SCOPE: &str = "core";

/// A suite's description.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kind {
    /// Short lowercase name (`babelqueue`, `sbp`).
    pub name: String,
    /// What people call it (`BabelQueue`, `Sideband SBP v1`).
    pub title: String,
    /// The reference model that judges it, by the name the package's registry knows.
    pub model: String,
    /// The release asset's stem: the asset is `<asset>-<version>.tar.gz` with one root
    /// directory `<asset>-<version>/`.
    pub asset: String,
    /// Where releases are published; `{version}` is replaced.
    pub release_url: String,
    /// The scopes a section may have; `core` first, the others are bindings.
    pub scopes: Vec<String>,
    /// Format rules that only BabelQueue's history has (see [`Format`]).
    pub format: Format,
}

/// The parts of a suite's format that are BabelQueue's: a described suite has none of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Format {
    /// The draft-07 envelope schema is required and fixtures are checked against it.
    pub envelope_schema: bool,
    /// The manifest lists the SDKs' accepted gaps in `exceptions`.
    pub exceptions: bool,
    /// Rules are required from the release that brought them (see [`crate::rules`]); without a
    /// history, every rule holds from the first release.
    pub history: bool,
    /// A core case is never a known gap: BabelQueue's contract requires the core envelope of
    /// every SDK. A described suite's implementations may list any failing case as a gap.
    pub core_never_gap: bool,
}

impl Kind {
    /// The BabelQueue suite's description: the suite of every real release, which carries none.
    pub fn babelqueue() -> Kind {
        Kind {
            name: "babelqueue".into(),
            title: "BabelQueue".into(),
            model: "babelqueue".into(),
            asset: "babelqueue-conformance".into(),
            release_url: "https://github.com/BabelQueue/conformance/releases/download/v{version}"
                .into(),
            scopes: BABELQUEUE_SCOPES.iter().map(|s| s.to_string()).collect(),
            format: Format {
                envelope_schema: true,
                exceptions: true,
                history: true,
                core_never_gap: true,
            },
        }
    }

    /// The description of `suite`: its `suite.json`, else BabelQueue's. `Err` says what is wrong
    /// with the file (the caller names it).
    pub fn of(suite: &Suite) -> Result<Kind, DescriptionError> {
        match suite.file(DESCRIPTION) {
            None => Ok(Kind::babelqueue()),
            Some(file) => Kind::parse(&file.bytes),
        }
    }

    /// Reads a description from the bytes of a `suite.json`.
    pub fn parse(bytes: &[u8]) -> Result<Kind, DescriptionError> {
        let value =
            crate::load::parse_json(bytes).map_err(|e| DescriptionError::Syntax(e.to_string()))?;
        let Some(map) = value.as_object() else {
            return Err(DescriptionError::NotObject);
        };
        match map.get("description_version").and_then(Value::as_u64) {
            Some(DESCRIPTION_VERSION) => {}
            _ => return Err(DescriptionError::Version),
        }
        for key in map.keys() {
            if !KEYS.contains(&key.as_str()) {
                return Err(DescriptionError::UnknownKey(key.clone()));
            }
        }
        let text = |key: &'static str| -> Result<String, DescriptionError> {
            map.get(key)
                .and_then(Value::as_str)
                .filter(|s| !s.trim().is_empty())
                .map(str::to_string)
                .ok_or(DescriptionError::Field(key))
        };
        let name = text("name")?;
        if !is_token(&name) {
            return Err(DescriptionError::Token("name"));
        }
        let asset = text("asset")?;
        if !is_token(&asset) {
            return Err(DescriptionError::Token("asset"));
        }
        let release_url = text("release_url")?;
        if !release_url.contains("{version}") {
            return Err(DescriptionError::UrlWithoutVersion);
        }
        Ok(Kind {
            name,
            title: text("title")?,
            model: text("model")?,
            asset,
            release_url,
            scopes: scopes(map.get("scopes"))?,
            format: Format {
                envelope_schema: false,
                exceptions: false,
                history: false,
                core_never_gap: false,
            },
        })
    }

    /// `<asset>-<version>`: the release asset's single root directory.
    pub fn root_dir(&self, version: &str) -> String {
        format!("{}-{version}", self.asset)
    }

    /// `<asset>-<version>.tar.gz`: the release asset's file name.
    pub fn asset_name(&self, version: &str) -> String {
        format!("{}.tar.gz", self.root_dir(version))
    }

    /// The tag a release of `version` is published under: the segment of `release_url` that
    /// holds `{version}` (`v1.8.0` for BabelQueue's, `sbp-v0.1.0` for SBP's).
    pub fn tag(&self, version: &str) -> String {
        let segment = self
            .release_url
            .rsplit('/')
            .find(|s| s.contains("{version}"))
            .unwrap_or("v{version}");
        segment.replace("{version}", version)
    }

    /// The scopes that are bindings (every scope but `core`).
    pub fn bindings(&self) -> impl Iterator<Item = &str> {
        self.scopes
            .iter()
            .map(String::as_str)
            .filter(|s| *s != CORE_SCOPE)
    }
}

/// The keys a description may have.
const KEYS: [&str; 7] = [
    "description_version",
    "name",
    "title",
    "model",
    "asset",
    "release_url",
    "scopes",
];

/// Lowercase ASCII letters, digits and `-`, starting with a letter: safe in a file name and a
/// URL.
fn is_token(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_lowercase())
        && s.len() <= 64
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

fn scopes(value: Option<&Value>) -> Result<Vec<String>, DescriptionError> {
    let Some(value) = value else {
        return Ok(vec![CORE_SCOPE.to_string()]);
    };
    let list: Option<Vec<String>> = value.as_array().and_then(|items| {
        items
            .iter()
            .map(|v| v.as_str().filter(|s| is_token(s)).map(str::to_string))
            .collect()
    });
    match list {
        Some(list) if list.first().map(String::as_str) == Some(CORE_SCOPE) => Ok(list),
        _ => Err(DescriptionError::Scopes),
    }
}

/// What is wrong with a description: each says what to write instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DescriptionError {
    Syntax(String),
    NotObject,
    Version,
    UnknownKey(String),
    Field(&'static str),
    Token(&'static str),
    UrlWithoutVersion,
    Scopes,
}

impl fmt::Display for DescriptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DescriptionError::Syntax(e) => write!(f, "is not JSON ({e})"),
            DescriptionError::NotObject => f.write_str("must be a JSON object"),
            DescriptionError::Version => write!(
                f,
                "must say `\"description_version\": {DESCRIPTION_VERSION}`, the format this bqsuite reads"
            ),
            DescriptionError::UnknownKey(k) => write!(
                f,
                "has the unknown key `{}`; a description holds only {}",
                bqsuite_core::shell::escape(k),
                KEYS.join(", ")
            ),
            DescriptionError::Field(k) => {
                write!(f, "must give `{k}` as a non-empty string")
            }
            DescriptionError::Token(k) => write!(
                f,
                "must give `{k}` in lowercase ASCII letters, digits and `-`, starting with a letter"
            ),
            DescriptionError::UrlWithoutVersion => f.write_str(
                "must give `release_url` with `{version}` where the release's version goes",
            ),
            DescriptionError::Scopes => f.write_str(
                "must give `scopes` as an array of lowercase names starting with \"core\"",
            ),
        }
    }
}

/// Largest `suite.json` read from a vendored copy to learn its suite.
pub const MAX_DESCRIPTION_BYTES: u64 = 64 * 1024;

/// Which suite a directory holds a copy of, as its files say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CopyOf {
    /// Neither `suite.json` nor `manifest.json`: nothing says (a new or empty directory).
    Unknown,
    /// The copy's `suite.json` describes this suite.
    Described(Kind),
    /// A `manifest.json` and no `suite.json`: BabelQueue's.
    Undescribed,
    /// The copy's `suite.json` is no description this bqsuite reads: why, in words that follow
    /// the file's name.
    Unreadable(String),
}

impl CopyOf {
    /// The suite the copy is, when its files say.
    pub fn kind(&self) -> Option<Kind> {
        match self {
            CopyOf::Described(kind) => Some(kind.clone()),
            CopyOf::Undescribed => Some(Kind::babelqueue()),
            CopyOf::Unknown | CopyOf::Unreadable(_) => None,
        }
    }
}

/// Reads which suite `dir` holds a copy of, never through a link: its `suite.json` (at most
/// [`MAX_DESCRIPTION_BYTES`]), else BabelQueue's when it has a `manifest.json`. `Err` when the
/// files cannot be read.
pub fn copy_of(dir: &Path) -> bqsuite_core::error::Result<CopyOf> {
    use bqsuite_core::error::Error;
    let file = dir.join(DESCRIPTION);
    let meta = match fs::symlink_metadata(&file) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let manifest = dir.join(crate::load::MANIFEST);
            let vendored = fs::symlink_metadata(manifest).is_ok_and(|m| m.is_file());
            return Ok(if vendored {
                CopyOf::Undescribed
            } else {
                CopyOf::Unknown
            });
        }
        Err(e) => return Err(Error::io("read", &file, e)),
    };
    if !meta.is_file() {
        return Ok(CopyOf::Unreadable("is not a regular file".into()));
    }
    let mut bytes = Vec::new();
    fs::File::open(&file)
        .and_then(|f| f.take(MAX_DESCRIPTION_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| Error::io("read", &file, e))?;
    if bytes.len() as u64 > MAX_DESCRIPTION_BYTES {
        return Ok(CopyOf::Unreadable(format!(
            "is larger than {MAX_DESCRIPTION_BYTES} bytes"
        )));
    }
    Ok(match Kind::parse(&bytes) {
        Ok(kind) => CopyOf::Described(kind),
        Err(e) => CopyOf::Unreadable(e.to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SBP: &str = r#"{"description_version": 1, "name": "sbp", "title": "Sideband SBP v1",
        "model": "sbp-v1", "asset": "sbp-conformance",
        "release_url": "https://example.org/v{version}"}"#;

    #[test]
    fn a_description_names_its_asset_and_model() {
        let kind = Kind::parse(SBP.as_bytes()).unwrap();
        assert_eq!(kind.model, "sbp-v1");
        assert_eq!(kind.asset_name("0.1.0"), "sbp-conformance-0.1.0.tar.gz");
        assert_eq!(kind.scopes, ["core"]);
        assert_eq!(kind.bindings().count(), 0);
        assert!(!kind.format.history);
    }

    #[test]
    fn babelqueue_is_the_suite_of_the_real_releases() {
        let kind = Kind::babelqueue();
        assert_eq!(
            kind.asset_name("1.8.0"),
            "babelqueue-conformance-1.8.0.tar.gz"
        );
        assert_eq!(kind.bindings().count(), 8);
    }

    #[test]
    fn a_malformed_description_says_what_to_write() {
        let bad = |text: &str| Kind::parse(text.as_bytes()).unwrap_err();
        assert!(matches!(bad("{"), DescriptionError::Syntax(_)));
        assert_eq!(bad("[]"), DescriptionError::NotObject);
        assert_eq!(
            bad(&SBP.replace("\"description_version\": 1", "\"description_version\": 2")),
            DescriptionError::Version
        );
        assert_eq!(
            bad(&SBP.replace("\"title\"", "\"titel\"")),
            DescriptionError::UnknownKey("titel".into())
        );
        assert_eq!(
            bad(&SBP.replace("\"sbp-v1\"", "\"\"")),
            DescriptionError::Field("model")
        );
        assert_eq!(
            bad(&SBP.replace("\"sbp-conformance\"", "\"../x\"")),
            DescriptionError::Token("asset")
        );
        assert_eq!(
            bad(&SBP.replace("{version}", "")),
            DescriptionError::UrlWithoutVersion
        );
        let with_scopes = format!("{}, \"scopes\": [\"redis\"]}}", SBP.trim_end_matches('}'));
        assert_eq!(bad(&with_scopes), DescriptionError::Scopes);
    }
}
