//! Work shared between the cases of one evaluation: a fixture that a thousand cases name is
//! decoded (and re-encoded) once, not a thousand times, so evaluating costs time linear in the
//! suite's bytes plus its cases.
//!
//! The memo lives for one [`scope`] (one [`super::evaluate`] call) on one thread. Everything
//! memoised is a pure function of its key (a fixture and what was done with it) and of the active
//! mutant, which is fixed for the whole scope, so a cached result is exactly what computing it
//! again would give. Outside a scope (a section runner called on its own, as unit tests do)
//! nothing is cached.
//!
//! The evaluator [`release`]s a fixture's entries after the last case that can read it, so a
//! suite of many large fixtures holds the work of one at a time (of more only where their cases
//! interleave), not of all of them until the evaluation ends.

use std::any::Any;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// Fixture path -> what was done with it -> the result.
type Memo = HashMap<String, HashMap<String, Rc<dyn Any>>>;

thread_local! {
    static MEMO: RefCell<Option<Memo>> = const { RefCell::new(None) };
}

/// Runs `f` with an empty memo, dropped when `f` returns (or unwinds).
pub fn scope<R>(f: impl FnOnce() -> R) -> R {
    struct Restore(Option<Memo>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            MEMO.with(|memo| *memo.borrow_mut() = previous);
        }
    }
    let _restore = Restore(MEMO.with(|memo| memo.borrow_mut().replace(Memo::new())));
    f()
}

/// The value memoised for `fixture` under `what`, computing it with `compute` the first time.
/// `what` must name everything else the value depends on besides the active mutant (a kind, plus
/// any case parameter), and one key always holds one type.
pub fn get_or_compute<T: 'static>(fixture: &str, what: &str, compute: impl FnOnce() -> T) -> Rc<T> {
    let cached = MEMO.with(|memo| {
        memo.borrow()
            .as_ref()
            .and_then(|m| m.get(fixture)?.get(what).cloned())
            .and_then(|v| v.downcast::<T>().ok())
    });
    if let Some(value) = cached {
        return value;
    }
    // Computed without holding the borrow: `compute` may itself use the memo.
    let value = Rc::new(compute());
    MEMO.with(|memo| {
        if let Some(m) = memo.borrow_mut().as_mut() {
            m.entry(fixture.to_string())
                .or_default()
                .insert(what.to_string(), value.clone() as Rc<dyn Any>);
        }
    });
    value
}

/// Memoises `value` for `fixture` under `what` ahead of its use, for [`take`] to have: work the
/// caller already did (the fixture's parsed value) that the evaluation would otherwise redo.
pub fn offer<T: 'static>(fixture: &str, what: &str, value: T) {
    MEMO.with(|memo| {
        if let Some(m) = memo.borrow_mut().as_mut() {
            m.entry(fixture.to_string())
                .or_default()
                .insert(what.to_string(), Rc::new(value) as Rc<dyn Any>);
        }
    });
}

/// The value [`offer`]ed for `fixture` under `what`, removed from the memo (`None` when none was
/// offered in this scope, or it is shared).
pub fn take<T: 'static>(fixture: &str, what: &str) -> Option<T> {
    let value = MEMO.with(|memo| memo.borrow_mut().as_mut()?.get_mut(fixture)?.remove(what))?;
    Rc::try_unwrap(value.downcast::<T>().ok()?).ok()
}

/// Forgets everything memoised for `fixture` (a later use computes it again).
pub fn release(fixture: &str) {
    MEMO.with(|memo| {
        if let Some(m) = memo.borrow_mut().as_mut() {
            m.remove(fixture);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn computes_once_per_key_inside_a_scope_only() {
        let calls = Cell::new(0);
        let count = || {
            calls.set(calls.get() + 1);
            calls.get()
        };
        scope(|| {
            assert_eq!(*get_or_compute("f", "a", count), 1);
            assert_eq!(*get_or_compute("f", "a", count), 1);
            assert_eq!(*get_or_compute("f", "b", count), 2);
            assert_eq!(*get_or_compute("g", "a", count), 3);
            // Released: computed again; other fixtures are kept.
            release("f");
            assert_eq!(*get_or_compute("f", "a", count), 4);
            assert_eq!(*get_or_compute("g", "a", count), 3);
        });
        // Outside a scope (and in a new one) nothing is remembered.
        assert_eq!(*get_or_compute("f", "a", count), 5);
        assert_eq!(*get_or_compute("f", "a", count), 6);
        scope(|| assert_eq!(*get_or_compute("f", "a", count), 7));
    }
}
