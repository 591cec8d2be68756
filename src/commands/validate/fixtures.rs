//! The fixtures' checks, one fixture at a time, on several threads.
//!
//! Everything validation asks of a fixture depends on that fixture alone (and on the manifest and
//! schemas, read before it starts): it is JSON, the pointers of the cases that name it exist in
//! it, it satisfies (or fails) the envelope schema as they say, and the reference evaluator's
//! verdict on each case that reads it and no other fixture. So a fixture's bytes are parsed once,
//! checked, evaluated and dropped: the bytes a feed sends (from memory, or read from disk one
//! at a time, or the very bytes `release` is packaging) are held only while their checks run.
//!
//! The few cases that read more than one fixture (or none) are evaluated at the end, with the
//! fixtures they read kept for them. Whatever the order fixtures arrive in or the number of
//! threads, the findings and verdicts are those of checking the suite whole.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Mutex;
use std::sync::mpsc::{SyncSender, sync_channel};

use serde_json::Value;

use super::schemas::{self, Compiled};
use super::{findings, pointers};
use bqsuite_core::diag::Diagnostic;
use bqsuite_core::evaluator::{self as eval, CaseOutcome, Evaluator, FixtureSource};
use bqsuite_core::index::{CaseIndex, IndexedCase};
use bqsuite_core::json;
use bqsuite_suite::Suite;
use bqsuite_suite::load;

/// What the checks of the fixtures found: findings, and each evaluated case's outcome by its
/// position in the index.
#[derive(Default)]
pub struct Checked {
    pub findings: Vec<Diagnostic>,
    pub outcomes: Vec<(usize, CaseOutcome)>,
}

impl Checked {
    fn add(&mut self, other: Checked) {
        self.findings.extend(other.findings);
        self.outcomes.extend(other.outcomes);
    }
}

/// Who checks what: the suite's fixtures, the cases each one's checks need, and the cases left
/// for the end.
pub struct Plan<'p> {
    suite: &'p Suite,
    /// The model that re-derives the cases.
    model: &'p dyn Evaluator,
    manifest: &'p Value,
    index: &'p CaseIndex<'p>,
    compiled: &'p Compiled,
    /// The fixtures (`fixtures/...`), sorted: what a feed sends.
    fixtures: Vec<&'p str>,
    /// The cases whose `file` names each fixture (their pointers and schema expectations).
    named_by: HashMap<&'p str, Vec<&'p IndexedCase<'p>>>,
    /// The cases that read one fixture and no other, by that fixture: evaluated with it.
    local: HashMap<&'p str, Vec<usize>>,
    /// The other cases (reading no fixture, or several): evaluated at the end.
    rest: Vec<usize>,
    /// The fixtures those read, kept until then.
    kept: HashSet<&'p str>,
}

impl<'p> Plan<'p> {
    pub fn new(
        suite: &'p Suite,
        model: &'p dyn Evaluator,
        manifest: &'p Value,
        index: &'p CaseIndex<'p>,
        compiled: &'p Compiled,
        by_file: &BTreeMap<Option<&'p str>, Vec<&'p IndexedCase<'p>>>,
    ) -> Self {
        let fixtures: Vec<&'p str> = suite.files_under("fixtures").collect();
        let fed: HashSet<&str> = fixtures.iter().copied().collect();
        let named_by = by_file
            .iter()
            .filter_map(|(path, cases)| Some((path.filter(|p| fed.contains(p))?, cases.clone())))
            .collect();
        let mut local: HashMap<&'p str, Vec<usize>> = HashMap::new();
        let mut rest = Vec::new();
        let mut kept = HashSet::new();
        for (i, c) in index.cases.iter().enumerate() {
            // Files outside fixtures/ are in memory for every case; only fixtures are fed.
            let read = eval::fixtures_named(manifest, c, |s| fed.contains(s));
            match read.as_slice() {
                [one] => local.entry(*one).or_default().push(i),
                _ => {
                    rest.push(i);
                    kept.extend(read);
                }
            }
        }
        Plan {
            suite,
            model,
            manifest,
            index,
            compiled,
            fixtures,
            named_by,
            local,
            rest,
            kept,
        }
    }

    /// Whether `path` is a fixture this pass checks (the cases naming any other path are checked
    /// without it).
    pub fn covers(&self, path: &str) -> bool {
        self.position(path).is_some()
    }

    fn position(&self, rel: &str) -> Option<usize> {
        self.fixtures.binary_search(&rel).ok()
    }

    /// Checks one fixture from its bytes.
    fn check(&self, rel: &'p str, bytes: &[u8]) -> Checked {
        let mut findings = Vec::new();
        let text = std::str::from_utf8(bytes).ok();
        let parsed = match text {
            Some(text) => load::parse_text(text),
            None => load::parse_json(bytes),
        };
        let value = match parsed {
            Ok(value) => Some(value),
            Err(e) => {
                findings.push(findings::syntax_error(rel, &e));
                None
            }
        };
        if let Some(cases) = self.named_by.get(rel) {
            pointers::check(cases, Some(rel), value.as_ref(), &mut findings);
            if let Some(value) = &value {
                schemas::check_fixture(self.compiled, rel, value, cases, &mut findings);
            }
        }
        locate_in(rel, text, &mut findings);
        let outcomes = match self.local.get(rel) {
            Some(which) => {
                let source = Layered {
                    fed: BTreeMap::from([(rel, text)]),
                    suite: self.suite,
                };
                // The value just checked is the one the evaluator decodes: parsed once.
                let parsed = value.map(|v| (rel, v));
                let outcomes = self.model.evaluate_some(
                    self.manifest,
                    self.index,
                    which,
                    &source,
                    parsed,
                    None,
                );
                which.iter().copied().zip(outcomes).collect()
            }
            None => Vec::new(),
        };
        Checked { findings, outcomes }
    }

    /// Evaluates the cases left for the end, with the fixtures kept for them.
    fn finish(&self, kept: &BTreeMap<&'p str, Cow<'_, [u8]>>) -> Checked {
        let source = Layered {
            fed: kept
                .iter()
                .map(|(rel, bytes)| (*rel, std::str::from_utf8(bytes).ok()))
                .collect(),
            suite: self.suite,
        };
        let outcomes =
            self.model
                .evaluate_some(self.manifest, self.index, &self.rest, &source, None, None);
        Checked {
            findings: Vec::new(),
            outcomes: self.rest.iter().copied().zip(outcomes).collect(),
        }
    }
}

/// Places the findings in `rel` that name a pointer at its line:column in `text`.
fn locate_in(rel: &str, text: Option<&str>, findings: &mut [Diagnostic]) {
    let mut pending = findings
        .iter_mut()
        .filter(|d| d.file == rel && d.pointer.is_some() && d.line_col.is_none())
        .peekable();
    if pending.peek().is_none() {
        return;
    }
    let Some(tree) = text.and_then(|t| json::parse(t).ok()) else {
        return;
    };
    for d in pending {
        pointers::locate_one(&tree, d);
    }
}

/// The fixtures fed so far (by name, their text when UTF-8) over the suite in memory: what the
/// evaluator reads a case's fixtures from.
struct Layered<'a> {
    fed: BTreeMap<&'a str, Option<&'a str>>,
    suite: &'a Suite,
}

impl FixtureSource for Layered<'_> {
    fn text(&self, rel_path: &str) -> Option<&str> {
        match self.fed.get(rel_path) {
            Some(text) => *text,
            None => self.suite.text(rel_path),
        }
    }
}

/// Sends fixtures' bytes to the checks: given to a feed, which calls [`Feeder::send`] with every
/// file it has (anything not a fixture of the plan is ignored).
pub struct Feeder<'p, 's> {
    plan: &'p Plan<'p>,
    to: Route<'p, 's>,
    fed: Mutex<Vec<bool>>,
    kept: Mutex<BTreeMap<&'p str, Cow<'s, [u8]>>>,
}

/// Fixtures handed to a checking thread together.
type Batch<'p, 's> = Vec<(&'p str, Cow<'s, [u8]>)>;

/// A batch is handed over once it holds this many bytes (or [`BATCH_FILES`] fixtures): one
/// hand-over per small fixture would cost more in waking threads than checking it does.
const BATCH_BYTES: usize = 256 * 1024;
const BATCH_FILES: usize = 64;

enum Route<'p, 's> {
    /// Checked on the feeding thread (one thread, or few fixtures).
    Here(Mutex<Checked>),
    /// Gathered into a batch, then queued for the checking threads.
    Queue {
        queue: SyncSender<Batch<'p, 's>>,
        batch: Mutex<(Batch<'p, 's>, usize)>,
    },
}

impl<'s> Feeder<'_, 's> {
    /// Checks the bytes of the suite file `rel` (on this thread or another), if it is a fixture.
    pub fn send(&self, rel: &str, bytes: Cow<'s, [u8]>) {
        let Some(at) = self.plan.position(rel) else {
            return;
        };
        let rel = self.plan.fixtures[at];
        self.fed.lock().expect("feed lock")[at] = true;
        if self.plan.kept.contains(rel) {
            self.kept
                .lock()
                .expect("kept lock")
                .insert(rel, bytes.clone());
        }
        match &self.to {
            Route::Here(checked) => {
                let found = self.plan.check(rel, &bytes);
                checked.lock().expect("checked lock").add(found);
            }
            Route::Queue { queue, batch } => {
                let mut batch = batch.lock().expect("batch lock");
                batch.1 += bytes.len();
                batch.0.push((rel, bytes));
                if batch.1 >= BATCH_BYTES || batch.0.len() >= BATCH_FILES {
                    let full = std::mem::take(&mut batch.0);
                    batch.1 = 0;
                    // The receivers live until every sender is gone.
                    let _ = queue.send(full);
                }
            }
        }
    }

    /// Hands over the last batch.
    fn flush(&self) {
        if let Route::Queue { queue, batch } = &self.to {
            let last = std::mem::take(&mut batch.lock().expect("batch lock").0);
            if !last.is_empty() {
                let _ = queue.send(last);
            }
        }
    }
}

/// Checks every fixture `feed` sends on up to `threads` threads, while `feed` runs on this one;
/// then evaluates the cases left for the end. Returns what was found, what `feed` returned, and
/// whether every fixture of the plan was sent (when not, the fixtures not sent were not checked
/// and the validation is incomplete).
pub fn run<'p, 's, T>(
    plan: &'p Plan<'p>,
    threads: usize,
    feed: impl FnOnce(&Feeder<'p, 's>) -> T,
) -> (Checked, T, bool) {
    // A few fixtures are checked faster than threads start.
    let threads = threads.min(plan.fixtures.len() / 16).max(1);
    let fed = Mutex::new(vec![false; plan.fixtures.len()]);
    let kept = Mutex::new(BTreeMap::new());
    let (mut checked, result, fed, kept) = if threads == 1 {
        let feeder = Feeder {
            plan,
            to: Route::Here(Mutex::new(Checked::default())),
            fed,
            kept,
        };
        let result = feed(&feeder);
        let Route::Here(checked) = feeder.to else {
            unreachable!("a feeder checking here")
        };
        let checked = checked.into_inner().expect("checked lock");
        (checked, result, feeder.fed, feeder.kept)
    } else {
        // Each thread may have one batch queued beside the one it checks: memory stays a few
        // batches, whatever the suite's size.
        let (queue, queued) = sync_channel::<Batch<'p, 's>>(threads);
        let queued = Mutex::new(queued);
        std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads)
                .map(|_| {
                    scope.spawn(|| {
                        let mut checked = Checked::default();
                        loop {
                            let next = queued.lock().expect("queue lock").recv();
                            let Ok(batch) = next else { break };
                            for (rel, bytes) in batch {
                                checked.add(plan.check(rel, &bytes));
                            }
                        }
                        checked
                    })
                })
                .collect();
            let feeder = Feeder {
                plan,
                to: Route::Queue {
                    queue,
                    batch: Mutex::new((Vec::new(), 0)),
                },
                fed,
                kept,
            };
            let result = feed(&feeder);
            feeder.flush();
            let Feeder { fed, kept, to, .. } = feeder;
            drop(to);
            let mut checked = Checked::default();
            for worker in workers {
                checked.add(worker.join().expect("a checking thread panicked"));
            }
            (checked, result, fed, kept)
        })
    };
    let all_fed = fed.into_inner().expect("feed lock").iter().all(|f| *f);
    checked.add(plan.finish(&kept.into_inner().expect("kept lock")));
    checked.outcomes.sort_by_key(|(i, _)| *i);
    (checked, result, all_fed)
}
