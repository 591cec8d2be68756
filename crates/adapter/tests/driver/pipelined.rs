//! `call_many`: many requests in flight, answered in order; a fault in the middle of a batch.

use serde_json::{Value, json};

use bqsuite_adapter::{Answer, Bounds, Fault, WINDOW};

use crate::kit::*;

fn inputs(n: usize, odd: Option<(usize, &str)>) -> Vec<Value> {
    (0..n)
        .map(|i| match odd {
            Some((at, what)) if at == i => json!({"i": i, "do": what}),
            _ => json!({"i": i}),
        })
        .collect()
}

#[test]
fn a_batch_larger_than_the_window_is_answered_in_order() {
    let script = python(VERSATILE);
    let mut adapter = start(&script, &Bounds::DEFAULT).unwrap();
    let n = WINDOW * 4 + 3;
    let answers = adapter.call_many("negative_fuzzing/seed-1", "batch", &inputs(n, None));
    assert_eq!(answers.len(), n);
    for (i, answer) in answers.iter().enumerate() {
        assert_eq!(answer, &Answer::Value(json!({"i": i})), "answer {i}");
    }
    // The seqs went on from the batch: the next request is the n+1-th.
    assert_eq!(adapter.seq(), n as u64);
    assert!(matches!(
        adapter.call("c", "echo", &Value::Null),
        Answer::Value(_)
    ));
}

/// The batch was answered before `at`, errored there as `fault` says, and stopped after it.
fn stopped_at(answers: &[Answer], at: usize, fault: impl Fn(&Fault) -> bool) {
    assert!(answers[..at].iter().all(|a| matches!(a, Answer::Value(_))));
    assert!(
        matches!(&answers[at], Answer::Errored(f) if fault(f)),
        "{:?}",
        answers[at]
    );
    assert!(
        answers[at + 1..]
            .iter()
            .all(|a| *a == Answer::Errored(Fault::Stopped))
    );
}

/// A reply not taken in the middle of a batch errors that answer; the replies still in flight
/// are read and dropped, so the adapter goes on, unrestarted, in step with its requests.
#[test]
fn a_wrong_reply_in_a_batch_errors_from_there_and_the_adapter_goes_on() {
    let script = python(VERSATILE);
    let mut adapter = start(&script, &Bounds::DEFAULT).unwrap();
    let answers = adapter.call_many("c", "batch", &inputs(150, Some((70, "wrong-seq"))));
    stopped_at(&answers, 70, |f| matches!(f, Fault::WrongSeq { .. }));
    let next = adapter.call("c", "batch", &json!({"i": "after"}));
    assert_eq!(next, Answer::Value(json!({"i": "after"})));
    assert!(!adapter.restarted());
}

/// An adapter that dies in the middle of a batch is dead: the rest of the batch is not
/// answered, and the next request starts it again (once).
#[test]
fn a_death_in_a_batch_ends_it_and_the_next_call_restarts() {
    let script = python(VERSATILE);
    let mut adapter = start(&script, &short()).unwrap();
    let answers = adapter.call_many("c", "batch", &inputs(150, Some((70, "crash"))));
    stopped_at(&answers, 70, |f| matches!(f, Fault::Exited { .. }));
    assert!(matches!(
        adapter.call("c", "echo", &Value::Null),
        Answer::Value(_)
    ));
    assert!(adapter.restarted());
}
