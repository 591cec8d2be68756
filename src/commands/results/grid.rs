//! The compatibility matrix as data: a row per section of the suite, a column per results file,
//! and in each cell the counts of one SDK in one section with the cases that did not pass.

use super::check::FileCheck;

/// Why a case shows in a cell's drill-down.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemKind {
    Fail,
    /// A skip that cites an ADR.
    Skip,
    /// A skip whose reason cites no ADR.
    SkipWithoutAdr,
    /// Not an object with a pass/fail/skip status.
    Invalid,
    /// A case of the manifest the file does not report.
    Missing,
    /// An id the manifest's section does not have.
    Unknown,
}

impl ItemKind {
    pub fn label(self) -> &'static str {
        match self {
            ItemKind::Fail => "fail",
            ItemKind::Skip => "skip",
            ItemKind::SkipWithoutAdr => "skip without ADR",
            ItemKind::Invalid => "invalid",
            ItemKind::Missing => "missing",
            ItemKind::Unknown => "unknown id",
        }
    }

    pub(super) fn class(self) -> &'static str {
        match self {
            ItemKind::Skip => "skip",
            _ => "fail",
        }
    }
}

/// One non-passing case of a cell.
#[derive(Debug, Clone)]
pub struct Item {
    pub id: String,
    pub kind: ItemKind,
    pub reason: Option<String>,
}

/// The counts of one SDK in one section.
#[derive(Debug, Clone, Default)]
pub struct Counts {
    pub pass: usize,
    pub fail: usize,
    pub skip: usize,
    pub missing: usize,
    /// Invalid entries and unknown ids.
    pub other: usize,
    /// The section is present although its scope is not one the SDK carries.
    pub out_of_scope: bool,
    /// The section's value is not an object.
    pub malformed: bool,
    /// Some skip cites no ADR.
    pub skip_without_adr: bool,
    /// The first [`MAX_ITEMS_PER_CELL`] cases that did not pass.
    pub items: Vec<Item>,
    /// How many more did not pass.
    pub more_items: usize,
}

/// At most this many non-passing cases are listed in one cell.
pub const MAX_ITEMS_PER_CELL: usize = 200;

/// How a cell is coloured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    /// Every case passed.
    Pass,
    /// Nothing failed, some cases are skipped with an ADR.
    Skip,
    /// Something failed, is missing, invalid or out of place.
    Fail,
    /// Not applicable, or the file could not be read.
    Neutral,
}

impl Tone {
    pub(super) fn class(self) -> &'static str {
        match self {
            Tone::Pass => "pass",
            Tone::Skip => "skip",
            Tone::Fail => "fail",
            Tone::Neutral => "na",
        }
    }

    pub(super) fn mark(self) -> &'static str {
        match self {
            Tone::Pass => "🟢",
            Tone::Skip => "🟡",
            Tone::Fail => "🔴",
            Tone::Neutral => "",
        }
    }
}

impl Counts {
    pub(super) fn add(&mut self, item: Item) {
        if self.items.len() < MAX_ITEMS_PER_CELL {
            self.items.push(item);
        } else {
            self.more_items += 1;
        }
    }

    pub fn tone(&self) -> Tone {
        let bad = self.fail + self.missing + self.other > 0
            || self.out_of_scope
            || self.malformed
            || self
                .items
                .iter()
                .any(|i| i.kind == ItemKind::SkipWithoutAdr);
        if bad {
            Tone::Fail
        } else if self.skip > 0 {
            Tone::Skip
        } else {
            Tone::Pass
        }
    }

    /// `8 pass`, `7 pass · 1 fail · 2 missing`...
    pub fn text(&self) -> String {
        if self.malformed {
            return "invalid (not an object)".to_string();
        }
        let mut parts = vec![format!("{} pass", self.pass)];
        for (n, what) in [
            (self.fail, "fail"),
            (self.skip, "skip"),
            (self.missing, "missing"),
            (self.other, "invalid"),
        ] {
            if n > 0 {
                parts.push(format!("{n} {what}"));
            }
        }
        let mut text = parts.join(" · ");
        if self.out_of_scope {
            text.push_str(" (out of scope)");
        }
        text
    }
}

/// One cell of the matrix.
#[derive(Debug, Clone)]
pub enum Cell {
    /// Out of the SDK's scope and absent; `Some(adr)` when a manifest exception is why.
    NotApplicable(Option<String>),
    /// In scope but absent.
    Missing,
    /// The file could not be read.
    Unreadable,
    Counts(Counts),
}

impl Cell {
    pub fn tone(&self) -> Tone {
        match self {
            Cell::NotApplicable(_) | Cell::Unreadable => Tone::Neutral,
            Cell::Missing => Tone::Fail,
            Cell::Counts(c) => c.tone(),
        }
    }

    pub fn text(&self) -> String {
        match self {
            Cell::NotApplicable(None) => "—".to_string(),
            Cell::NotApplicable(Some(adr)) => format!("— ({adr})"),
            Cell::Missing => "section missing".to_string(),
            Cell::Unreadable => "?".to_string(),
            Cell::Counts(c) => c.text(),
        }
    }

    pub(super) fn items(&self) -> (&[Item], usize) {
        match self {
            Cell::Counts(c) => (&c.items, c.more_items),
            _ => (&[], 0),
        }
    }
}

/// One SDK.
#[derive(Debug, Clone)]
pub struct Column {
    pub check: FileCheck,
    pub totals: Counts,
}

/// One section.
#[derive(Debug, Clone)]
pub struct Row {
    pub section: String,
    pub scope: String,
    pub cases: usize,
    pub cells: Vec<Cell>,
}

/// The whole matrix.
#[derive(Debug, Clone)]
pub struct Matrix {
    /// The suite's title (its description's: `BabelQueue`, `Sideband SBP v1`).
    pub suite_title: String,
    pub suite_version: String,
    pub columns: Vec<Column>,
    pub rows: Vec<Row>,
    /// Set when the files pin different suite versions: the warning to show.
    pub version_warning: Option<String>,
}
