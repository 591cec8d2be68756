//! The `data` of `results check` and `results matrix` with `--format json`: per results file, what
//! it says about itself, its verdict, and its pass / fail / skip / missing counts per section of
//! the suite (the matrix's cells, as numbers).

use serde_json::{Value, json};

use super::grid::{Cell, Matrix};

/// One entry per results file (a matrix column), in the order given.
pub fn files(matrix: &Matrix) -> Vec<Value> {
    matrix
        .columns
        .iter()
        .enumerate()
        .map(|(i, column)| {
            let fc = &column.check;
            let sections: Vec<Value> = matrix
                .rows
                .iter()
                .map(|row| section(&row.section, &row.scope, row.cases, &row.cells[i]))
                .collect();
            let mut totals = json!({"pass": 0, "fail": 0, "skip": 0, "missing": 0, "invalid": 0});
            for s in &sections {
                for key in ["pass", "fail", "skip", "missing", "invalid"] {
                    let sum = totals[key].as_u64().unwrap_or(0) + s[key].as_u64().unwrap_or(0);
                    totals[key] = sum.into();
                }
            }
            let accepted = super::accepted_gaps(fc);
            json!({
                "file": fc.file,
                "sdk": fc.sdk,
                "version": fc.version,
                "conformance_version": fc.conformance_version,
                "family": fc.family,
                "readable": fc.readable,
                "compatible": fc.compatible(),
                "reasons": fc.reasons,
                "known_gaps_accepted": accepted,
                "scopes": fc.scopes,
                "totals": totals,
                "sections": sections,
            })
        })
        .collect()
}

/// One section of one file: `state` says what the cell is (`reported`, `missing` (the whole
/// section, in scope: every case counts as missing), `not-applicable` (out of scope and absent;
/// `exception` names the ADR when a manifest exception is why), `unreadable` (the file)).
fn section(name: &str, scope: &str, cases: usize, cell: &Cell) -> Value {
    let mut out = json!({
        "section": name,
        "scope": scope,
        "cases": cases,
        "state": "reported",
        "pass": 0,
        "fail": 0,
        "skip": 0,
        "missing": 0,
        "invalid": 0,
        "out_of_scope": false,
        "malformed": false,
        "exception": Value::Null,
    });
    match cell {
        Cell::Counts(c) => {
            out["pass"] = c.pass.into();
            out["fail"] = c.fail.into();
            out["skip"] = c.skip.into();
            out["missing"] = c.missing.into();
            out["invalid"] = c.other.into();
            out["out_of_scope"] = c.out_of_scope.into();
            out["malformed"] = c.malformed.into();
        }
        Cell::Missing => {
            out["state"] = "missing".into();
            out["missing"] = cases.into();
        }
        Cell::NotApplicable(exception) => {
            out["state"] = "not-applicable".into();
            out["exception"] = json!(exception);
        }
        Cell::Unreadable => out["state"] = "unreadable".into(),
    }
    out
}
