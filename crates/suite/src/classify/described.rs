//! What only a described suite has: its decisions table (the manifest's `decisions`) and its
//! description (`suite.json`).
//!
//! A decision row documents why a case expects what it does; the case carries the expectation,
//! so adding, rewording or dropping a row is wording (patch). The description names the suite's
//! asset, release location, model and scopes, which fetch and the checks of every copy read: a
//! change of any of them needs major; a new title is wording.

use std::collections::BTreeMap;

use serde_json::Value;

use super::change::Change;
use super::codes::Code;
use super::show::show;
use crate::Suite;
use crate::kind::{DESCRIPTION, Kind};
use crate::load::MANIFEST;

/// The decisions table's rows by case id, or `None` when the table is not a list of rows that
/// each name a case (validate reports such a table; here it is compared as a whole).
fn rows(manifest: &Value) -> Option<BTreeMap<&str, (usize, &Value)>> {
    let Some(table) = manifest.get("decisions") else {
        return Some(BTreeMap::new());
    };
    let mut out = BTreeMap::new();
    for (at, row) in table.as_array()?.iter().enumerate() {
        let case = row.get("case")?.as_str()?;
        out.insert(case, (at, row));
    }
    Some(out)
}

pub(super) fn compare_decisions(old: &Value, new: &Value, out: &mut Vec<Change>) {
    let (Some(old_rows), Some(new_rows)) = (rows(old), rows(new)) else {
        if old.get("decisions") != new.get("decisions") {
            out.push(
                Change::new(
                    Code::DecisionChanged,
                    MANIFEST,
                    "the decisions table changed (it is not a list of rows naming cases)"
                        .to_string(),
                )
                .at("/decisions"),
            );
        }
        return;
    };
    for (case, (at, row)) in &new_rows {
        let pointer = format!("/decisions/{at}");
        match old_rows.get(case) {
            None => out.push(
                Change::new(
                    Code::DecisionChanged,
                    MANIFEST,
                    format!("a decision for case `{case}` was added"),
                )
                .at(pointer),
            ),
            Some((_, old_row)) if old_row != row => out.push(
                Change::new(
                    Code::DecisionChanged,
                    MANIFEST,
                    format!("the decision for case `{case}` was reworded"),
                )
                .at(pointer),
            ),
            Some(_) => {}
        }
    }
    for case in old_rows.keys().filter(|c| !new_rows.contains_key(*c)) {
        out.push(Change::new(
            Code::DecisionChanged,
            MANIFEST,
            format!("the decision for case `{case}` was removed"),
        ));
    }
}

pub(super) fn compare_description(old: &Suite, new: &Suite, out: &mut Vec<Change>) {
    // An unreadable description stops diff before it compares (the two sides must be one suite).
    let (Ok(o), Ok(n)) = (Kind::of(old), Kind::of(new)) else {
        return;
    };
    let changed = Code::SuiteDescriptionChanged;
    let fields: [(&str, Code, Value, Value); 5] = [
        (
            "title",
            Code::SuiteTitleChanged,
            o.title.into(),
            n.title.into(),
        ),
        ("model", changed, o.model.into(), n.model.into()),
        ("asset", changed, o.asset.into(), n.asset.into()),
        (
            "release_url",
            changed,
            o.release_url.into(),
            n.release_url.into(),
        ),
        ("scopes", changed, o.scopes.into(), n.scopes.into()),
    ];
    for (key, code, old_value, new_value) in fields {
        if old_value != new_value {
            let message = format!(
                "the suite's `{key}` changed from {} to {}",
                show(&old_value),
                show(&new_value)
            );
            out.push(Change::new(code, DESCRIPTION, message).at(format!("/{key}")));
        }
    }
}
