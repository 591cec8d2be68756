//! The `data` of `fetch --format json`: the facts every mode shares (the release, the asset as it
//! was read, where its expected sha256 came from), to which `--check` adds its comparison
//! (`compare::report::settle`).

use serde_json::{Value, json};

use super::Run;
use bqsuite_suite::archive::verify::Summary;
use bqsuite_suite::vendor::Applied;

impl Run<'_> {
    /// The `data` of a fetch, `--update` or `--check`: the mode, the version, DEST, the asset with
    /// the sha256 it was read with and where the expected one came from, and what was unpacked
    /// and written (`null` for `--check`, which writes nothing). Parts not reached (a refusal)
    /// are `null`.
    pub(super) fn data(&self, unpacked: Option<&Summary>, applied: Option<&Applied>) -> Value {
        let (sha256, size) = match &self.seen {
            Some((digest, bytes)) => (Some(digest.as_str()), Some(*bytes)),
            None => (None, None),
        };
        let checksum = self.checked.as_ref().map(|c| {
            json!({
                "expected": c.expected,
                "source": c.source,
                "url": c.url,
                "matched": sha256 == Some(c.expected.as_str()),
            })
        });
        let update = self.options.update;
        let mode = if self.options.check {
            "check"
        } else if update {
            "update"
        } else {
            "fetch"
        };
        let mut data = json!({
            "mode": mode,
            "version": self.version,
            "dest": self.options.dest.display().to_string(),
            "asset": {
                "name": self.name,
                "url": self.asset.shown(),
                "size": size,
                "sha256": sha256,
            },
            "checksum": checksum,
            "files": unpacked.map(|s| s.files),
            "bytes": unpacked.map(|s| s.bytes),
            "written": applied.map(|a| &a.written).filter(|_| update),
            "added": applied.map(|a| &a.added).filter(|_| update),
            "changed": applied.map(Applied::changed).filter(|_| update),
            "deleted": applied.map(|a| &a.deleted).filter(|_| update),
        });
        if self.options.check {
            // What the comparison adds; `null` until the copy is compared.
            for key in ["status", "fix", "copy"] {
                data[key] = Value::Null;
            }
        }
        data
    }
}
