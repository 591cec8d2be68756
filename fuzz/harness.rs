//! What each fuzz target does with one input. The same functions run under libFuzzer
//! (`fuzz/fuzz_targets/*.rs`, `cargo +nightly fuzz run TARGET`) and on stable, where
//! `tests/cli/fuzz_regressions.rs` replays every seed and every input that ever crashed or hung.
//!
//! A target fails only by panicking (or by running away, which libFuzzer reports as a timeout or
//! out-of-memory): every input, however hostile, must end in a verdict.

use std::collections::BTreeMap;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use bqsuite::commands::results::check::SuiteRules;
use bqsuite_suite::Suite;
use bqsuite_suite::archive::verify::{self, Fault, Limits, Sink};

/// The version whose release asset the archive and sums targets look for: the bundled suite's
/// `CONFORMANCE_VERSION` (the real published 1.8.0 today), read once, as `fuzz/seed.sh` names the
/// asset it seeds.
pub fn version() -> &'static str {
    static VERSION: OnceLock<String> = OnceLock::new();
    VERSION.get_or_init(|| {
        std::fs::read_to_string(suite_dir().join("CONFORMANCE_VERSION"))
            .expect("the bundled suite's CONFORMANCE_VERSION")
            .trim()
            .to_string()
    })
}

/// The bundled suite directory (`suite/` beside `fuzz/`).
pub fn suite_dir() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    [here.join("suite"), here.join("../suite")]
        .into_iter()
        .find(|p| p.join("manifest.json").is_file())
        .expect("the bundled suite beside fuzz/")
}

/// The bundled suite's released files, read once.
pub fn base_files() -> &'static BTreeMap<String, Vec<u8>> {
    static FILES: OnceLock<BTreeMap<String, Vec<u8>>> = OnceLock::new();
    FILES.get_or_init(|| {
        let suite = bqsuite_suite::load::load_bytes(&suite_dir()).expect("bundled suite");
        suite
            .files
            .into_iter()
            .map(|(rel, file)| (rel, file.bytes))
            .collect()
    })
}

/// Edits to a suite, as the suite and diff targets read them: chunks that each start with a line
/// `@@ PATH` (replace or add PATH with the rest of the chunk) or `@@ !PATH` (remove PATH).
/// Bytes before the first chunk are ignored.
pub fn apply_edits(files: &mut BTreeMap<String, Vec<u8>>, data: &[u8]) {
    let mut chunks = split(data, b"@@ ");
    chunks.next(); // before the first marker
    for chunk in chunks {
        let (head, body) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], &chunk[i + 1..]),
            None => (chunk, &[][..]),
        };
        let Ok(head) = std::str::from_utf8(head) else {
            continue;
        };
        match head.strip_prefix('!') {
            Some(path) => {
                files.remove(path);
            }
            None => {
                files.insert(head.to_string(), body.to_vec());
            }
        }
    }
}

fn split<'a>(data: &'a [u8], marker: &'a [u8]) -> impl Iterator<Item = &'a [u8]> + 'a {
    let mut rest = Some(data);
    std::iter::from_fn(move || {
        let text = rest?;
        match text.windows(marker.len()).position(|w| w == marker) {
            Some(i) => {
                rest = Some(&text[i + marker.len()..]);
                Some(&text[..i])
            }
            None => {
                rest = None;
                Some(text)
            }
        }
    })
}

/// A suite in memory, as `bqsuite_suite::load` would read it from `root`.
pub fn suite_of(root: &str, files: BTreeMap<String, Vec<u8>>) -> Suite {
    Suite::from_files(Path::new(root), files)
}

/// Verifies an archive. The first byte picks the form of the rest: even, a gzip stream as
/// downloaded; odd, a tar stream that is compressed here first (so that mutations reach the tar
/// headers instead of dying on the gzip CRC).
pub fn archive(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let gz;
    let input = if mode % 2 == 0 {
        rest
    } else {
        // Compressed, so that the fuzzer can shape the tar stream itself (a raw input mostly fails
        // at the gzip magic).
        let mut enc = bqsuite_suite::release::gzip::GzipWriter::new(
            Vec::new(),
            bqsuite_suite::release::COMPRESSION_LEVEL,
        )
        .expect("in memory");
        enc.write_all(rest).expect("in memory");
        gz = enc.finish().expect("in memory");
        &gz
    };
    let mut sink = Collect::default();
    let verdict = verify::verify(
        input,
        &verify::Expected::babelqueue(),
        version(),
        &Limits::default(),
        &mut sink,
    );
    if verdict.is_ok() {
        // What the verifier accepts is a suite that the layout rule allows, and nothing else.
        for rel in sink.files.keys().chain(&sink.dirs) {
            assert!(
                bqsuite_suite::layout::release_path(rel).is_ok(),
                "accepted a path outside the layout: {rel:?}"
            );
        }
    }
}

/// A sink that reads every file to its end, as unpacking does.
#[derive(Default)]
struct Collect {
    files: BTreeMap<String, u64>,
    dirs: Vec<String>,
}

impl Sink for Collect {
    fn directory(&mut self, rel: &str) -> Result<(), Fault> {
        self.dirs.push(rel.to_string());
        Ok(())
    }
    fn file(&mut self, rel: &str, size: u64, content: &mut dyn Read) -> Result<(), Fault> {
        let read = io::copy(content, &mut io::sink()).map_err(|e| {
            Fault::from_io(e, |e| {
                Fault::Failed(bqsuite_core::Error::io("read", "the archive", e))
            })
        })?;
        assert_eq!(
            read, size,
            "the verifier handed over a file of another size"
        );
        self.files.insert(rel.to_string(), size);
        Ok(())
    }
}

/// The JSON readers. The exact-size value builder (`json::parse_value`, `check_syntax`) agrees
/// with serde_json on every input, verdict, value and key order alike. The position-aware parser:
/// every verdict is a tree or an error with a place inside the text, and every accepted document
/// is one serde_json accepts too (up to its nesting limit).
pub fn json(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // The exact-size builder accepts, refuses and builds exactly what serde_json does.
    let theirs = serde_json::from_str::<serde_json::Value>(text);
    match (bqsuite_core::json::parse_value(text), &theirs) {
        (Ok(ours), Ok(theirs)) => {
            assert_eq!(&ours, theirs, "parse_value built another value");
            assert_eq!(ours.to_string(), theirs.to_string(), "another key order");
        }
        (Err(ours), Err(theirs)) => assert_eq!(ours.to_string(), theirs.to_string()),
        (ours, theirs) => panic!("parse_value {ours:?}, serde_json {theirs:?}"),
    }
    assert_eq!(
        bqsuite_core::json::check_syntax(text).is_ok(),
        theirs.is_ok()
    );
    match bqsuite_core::json::parse(text) {
        Ok(tree) => {
            let value = tree.to_value();
            let _ = tree.duplicate_keys();
            if let serde_json::Value::Object(map) = &value {
                for key in map.keys() {
                    let pointer = bqsuite_core::json::join("", key);
                    assert!(tree.at(&pointer).is_some(), "pointer {pointer:?} not found");
                }
            }
            if let Ok(reparsed) = &theirs {
                assert_eq!(reparsed, &value, "the two parsers read different values");
            }
        }
        Err(e) => {
            // Lines end at LF, CRLF or a lone CR, as editors count them.
            let lines = text.replace("\r\n", "\n").split(['\n', '\r']).count() as u32;
            assert!(e.pos.line >= 1 && e.pos.line <= lines.max(1), "{e:?}");
            assert!(e.pos.column >= 1, "{e:?}");
        }
    }
}

/// Loads an edited copy of the bundled suite in memory and validates it.
pub fn suite(data: &[u8]) {
    let mut files = base_files().clone();
    apply_edits(&mut files, data);
    let suite = suite_of("suite", files);
    let _ = bqsuite::commands::validate::validate_suite(&suite, "suite");
}

/// The rules of the bundled suite, read once.
fn rules() -> &'static SuiteRules {
    static RULES: OnceLock<SuiteRules> = OnceLock::new();
    RULES.get_or_init(|| SuiteRules::load(&suite_dir()).expect("bundled suite rules"))
}

/// Reads a results file and checks it against the bundled suite.
pub fn results(data: &[u8]) {
    use bqsuite::commands::results::read::{Loaded, parse_bytes};
    if let Loaded::Parsed(parsed) = parse_bytes("results.json", data) {
        let check =
            bqsuite::commands::results::check::check_tree(rules(), "results.json", &parsed.tree);
        let _ = (check.compatible(), check.label(), check.verdict());
    }
}

/// Looks the bundled asset up in a SHA256SUMS text: a hash found is always one the text gives.
pub fn sums(data: &[u8]) {
    use bqsuite_suite::archive::{SumsEntry, sums_lookup};
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let name = bqsuite_suite::kind::Kind::babelqueue().asset_name(version());
    match sums_lookup(text, &name) {
        SumsEntry::Missing => {}
        SumsEntry::Hash(h) => {
            assert_eq!(h.len(), 64);
            assert!(text.to_ascii_lowercase().contains(&h));
        }
        SumsEntry::Ambiguous(hs) => assert!(hs.len() >= 2),
    }
}

/// Parses a sync targets file: every target accepted is a safe relative path.
pub fn targets(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (targets, problems) = bqsuite::commands::sync::targets::parse(text, "sync-targets.txt");
    for t in &targets {
        assert!(!t.path.starts_with('/'), "{t:?}");
        assert!(
            !t.path
                .split('/')
                .any(|c| c.is_empty() || c == "." || c == ".."),
            "{t:?}"
        );
        assert!(!t.path.chars().any(char::is_control), "{t:?}");
        assert!(t.path.starts_with(&t.repo), "{t:?}");
    }
    for p in &problems {
        assert!(!p.message.chars().any(char::is_control), "{p:?}");
    }
}

/// Compares two edited copies of the bundled suite: the input is OLD's edits, a line `@@@@`, then
/// NEW's edits.
pub fn diff(data: &[u8]) {
    let mut parts = split(data, b"\n@@@@\n");
    let old_edits = parts.next().unwrap_or_default();
    let new_edits = parts.next().unwrap_or_default();
    let mut old_files = base_files().clone();
    apply_edits(&mut old_files, old_edits);
    let mut new_files = base_files().clone();
    apply_edits(&mut new_files, new_edits);
    let old = suite_of("old", old_files);
    let new = suite_of("new", new_files);
    if let Ok(outcome) = bqsuite::commands::diff::classify(&old, &new) {
        let _ = bqsuite::commands::diff::report(&outcome, &old, &new);
        let _ = (outcome.sufficient(), outcome.bump_line());
    }
}

/// The SBP model's invariants on any input, under the default limits and under small ones that
/// inputs of a few KiB can exceed (`bqsuite_sbp::fuzzing::check`).
pub fn sbp_decode(data: &[u8]) {
    use bqsuite_sbp::{Limits, fuzzing};
    for limits in [&Limits::DEFAULT, &fuzzing::FUZZ_LIMITS] {
        if let Err(broken) = fuzzing::check(data, limits) {
            panic!("{broken}");
        }
    }
}

/// The adapter protocol on any bytes, from both ends: the first byte is the seq the driver
/// expects, the rest one line read as an op reply and as a start reply; and that line, as a
/// request, answered by the bundled adapter (`bqsuite adapter sbp-v1`). None may panic: a reply
/// is an answer or a fault, a request a reply.
pub fn adapter(data: &[u8]) {
    use bqsuite_adapter::{Answer, parse_reply, parse_start_reply};
    let (seq, line) = match data.split_first() {
        Some((first, rest)) => (u64::from(*first), rest),
        None => (0, data),
    };
    if let Answer::Errored(fault) = parse_reply(line, seq) {
        let _ = fault.to_string();
    }
    if let Err(e) = parse_start_reply(line) {
        let _ = e.to_string();
    }
    let mut server = bqsuite::commands::adapter::Server::new("sbp-v1", None)
        .expect("the bundled adapter serves sbp-v1");
    if let Some(reply) = server.respond(&String::from_utf8_lossy(line)) {
        let _ = reply.to_string();
    }
}
