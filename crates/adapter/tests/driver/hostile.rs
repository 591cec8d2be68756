//! Adapters that misbehave once the session runs: each errors its request, none blocks the
//! driver or makes it hold unbounded memory, and the restart-once policy holds.

use serde_json::{Value, json};

use bqsuite_adapter::{Adapter, Answer, Bounds, Exit, Fault, Lifecycle, Shape, Stream};

use crate::kit::*;

/// The pid of the process that answered an `echo` request.
fn echo_pid(adapter: &mut Adapter, case: &str) -> u64 {
    match adapter.call(case, "echo", &Value::Null) {
        Answer::Value(v) => v["pid"].as_u64().unwrap(),
        other => panic!("expected an echo, got {other:?}"),
    }
}

/// The answer to a request whose reply line is `bytes` (each char one byte).
fn reply_with(bytes: &str) -> Answer {
    let script = python(VERSATILE);
    let mut adapter = start(&script, &Bounds::DEFAULT).unwrap();
    let answer = adapter.call("c", "text", &json!({ "bytes": bytes }));
    // The adapter lives on: the next request is answered by the same process.
    assert!(matches!(
        adapter.call("c", "echo", &Value::Null),
        Answer::Value(_)
    ));
    assert!(adapter.history().is_empty(), "{:?}", adapter.history());
    answer
}

#[test]
fn a_crash_errors_its_case_and_the_adapter_is_restarted_once_then_stopped() {
    let script = python(VERSATILE);
    let mut adapter = start(&script, &Bounds::DEFAULT).unwrap();
    let first = echo_pid(&mut adapter, "a");
    let crash = json!({"stderr": "decoder panicked\n"});
    let died = adapter.call("b", "crash", &crash);
    assert_eq!(
        died,
        Answer::Errored(Fault::Exited {
            status: Exit::Code(3),
            stderr_tail: "decoder panicked\n".into()
        })
    );
    assert!(gone(first as u32));
    // The next case starts a new process, which gets that case's request first: the one that
    // crashed is not sent again.
    let Answer::Value(value) = adapter.call("c", "echo", &Value::Null) else {
        panic!("expected the restarted adapter to answer");
    };
    assert_eq!(value["count"], json!(1));
    assert_eq!(value["request"]["case"], json!("c"));
    assert_eq!(value["request"]["seq"], json!(3));
    assert_ne!(value["pid"].as_u64(), Some(first));
    assert!(adapter.restarted() && !adapter.is_stopped());
    // The second death stops the session.
    assert!(matches!(
        adapter.call("d", "crash", &crash),
        Answer::Errored(Fault::Exited { .. })
    ));
    assert!(adapter.is_stopped());
    assert_eq!(adapter.id(), None);
    for case in ["e", "f"] {
        assert_eq!(
            adapter.call(case, "echo", &Value::Null),
            Answer::Errored(Fault::Stopped)
        );
    }
    let history = adapter.history();
    assert_eq!(history.len(), 3, "{history:?}");
    assert!(matches!(&history[0], Lifecycle::Died { case, seq: 2, .. } if case == "b"));
    assert!(
        matches!(&history[1], Lifecycle::Restarted { case, implementation } if case == "c" && implementation.name == "versatile")
    );
    assert!(matches!(&history[2], Lifecycle::Died { case, seq: 4, .. } if case == "d"));
    assert_eq!(adapter.stop(), None);
}

#[test]
fn a_restart_that_fails_stops_the_session() {
    // The first process crashes on its first request; the second never answers the start.
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("started-once");
    let body = format!(
        "marker = {marker:?}\nif os.path.exists(marker):\n    time.sleep(3600)\n\
         open(marker, 'w').close()\nhello()\nos._exit(5)\n"
    );
    let script = python(&body);
    let mut adapter = start(&script, &short()).unwrap();
    let answers = within(move || {
        let a = adapter.call("a", "echo", &Value::Null);
        let b = adapter.call("b", "echo", &Value::Null);
        (a, b, adapter.history().to_vec(), adapter.is_stopped())
    });
    assert!(matches!(answers.0, Answer::Errored(Fault::Exited { .. })));
    assert_eq!(answers.1, Answer::Errored(Fault::Stopped));
    assert!(matches!(
        &answers.2[..],
        [Lifecycle::Died { .. }, Lifecycle::RestartFailed { case, error: bqsuite_adapter::StartError::Timeout { .. } }] if case == "b"
    ));
    assert!(answers.3);
}

#[test]
fn a_hang_times_out_kills_the_adapter_and_the_next_case_restarts_it() {
    let script = python(VERSATILE);
    let mut adapter = start(&script, &short()).unwrap();
    let pid = adapter.id().unwrap();
    let (hung, mut adapter) = within(move || (adapter.call("a", "hang", &Value::Null), adapter));
    assert_eq!(hung, Answer::Errored(Fault::Timeout { after: SHORT }));
    assert!(gone(pid), "the hung adapter {pid} is still there");
    let next = within(move || (adapter.call("b", "echo", &Value::Null), adapter));
    assert!(matches!(next.0, Answer::Value(_)));
    let adapter = next.1;
    assert!(adapter.restarted());
}

#[test]
fn an_adapter_that_stops_reading_cannot_block_the_write() {
    let script = python(VERSATILE);
    let mut adapter = start(&script, &short()).unwrap();
    assert_eq!(
        adapter.call("a", "deaf", &Value::Null),
        Answer::Value(Value::Null)
    );
    // Far more than a pipe holds: the write blocks until the time bound kills the adapter.
    let big = json!("x".repeat(8 << 20));
    let answer = within(move || adapter.call("b", "echo", &big));
    assert!(
        matches!(answer, Answer::Errored(Fault::Timeout { .. })),
        "{answer:?}"
    );
}

#[test]
fn a_reply_that_is_not_json_errors_its_case_only() {
    match reply_with("this is not json\n") {
        Answer::Errored(Fault::NotJson { detail }) => {
            assert!(detail.contains("at line 1 column"), "{detail}")
        }
        other => panic!("expected NotJson, got {other:?}"),
    }
}

#[test]
fn a_reply_that_is_not_an_object_errors_its_case_only() {
    assert_eq!(reply_with("[1, 2]\n"), Answer::Errored(Fault::NotAnObject));
}

#[test]
fn a_reply_that_is_not_utf8_errors_its_case_only() {
    assert_eq!(
        reply_with("{\"seq\": 1, \"value\": \"\u{ff}\"}\n"),
        Answer::Errored(Fault::NotUtf8)
    );
}

#[test]
fn a_reply_with_another_seq_errors_its_case_only() {
    assert_eq!(
        reply_with("{\"seq\": 99, \"value\": 1}\n"),
        Answer::Errored(Fault::WrongSeq {
            expected: 1,
            got: 99
        })
    );
}

#[test]
fn a_reply_with_both_value_and_error_errors_its_case_only() {
    assert_eq!(
        reply_with("{\"seq\": 1, \"value\": 1, \"error\": {\"code\": 1}}\n"),
        Answer::Errored(Fault::BadShape(Shape::SeveralOutcomes))
    );
}

#[test]
fn a_reply_longer_than_the_bound_is_dropped_and_the_adapter_lives_on() {
    let script = python(VERSATILE);
    let bounds = Bounds {
        max_line: 1 << 20,
        ..Bounds::DEFAULT
    };
    let mut adapter = start(&script, &bounds).unwrap();
    let pid = adapter.id();
    let at_bound = adapter.call("a", "long", &json!({"size": 1 << 20}));
    assert!(
        matches!(at_bound, Answer::Errored(Fault::NotJson { .. })),
        "a line of exactly the bound is read: {at_bound:?}"
    );
    assert_eq!(
        adapter.call("b", "long", &json!({"size": (1 << 20) + 1})),
        Answer::Errored(Fault::TooLong { limit: 1 << 20 })
    );
    assert!(matches!(
        adapter.call("c", "echo", &Value::Null),
        Answer::Value(_)
    ));
    assert_eq!(adapter.id(), pid);
    assert!(adapter.history().is_empty());
}

#[test]
fn output_without_newlines_is_a_flood_and_the_adapter_is_killed() {
    let script = python(VERSATILE);
    let bounds = Bounds {
        max_line: 64 << 10,
        max_drain: 1 << 20,
        ..Bounds::DEFAULT
    };
    let mut adapter = start(&script, &bounds).unwrap();
    let pid = adapter.id().unwrap();
    let (flood, adapter) = within(move || (adapter.call("a", "flood", &Value::Null), adapter));
    assert_eq!(flood, Answer::Errored(Fault::Flood { limit: 1 << 20 }));
    assert!(gone(pid));
    assert!(matches!(
        adapter.history(),
        [Lifecycle::Died {
            fault: Fault::Flood { .. },
            ..
        }]
    ));
}

#[test]
fn a_gigabyte_line_is_cut_off_at_the_drain_bound() {
    // The adapter writes 1 GiB and then a newline; the driver stops reading after 16 MiB.
    let script = python(VERSATILE);
    let bounds = Bounds {
        max_line: 1 << 20,
        max_drain: 16 << 20,
        ..Bounds::DEFAULT
    };
    let mut adapter = start(&script, &bounds).unwrap();
    let answer = within(move || adapter.call("a", "gigabyte", &Value::Null));
    assert_eq!(answer, Answer::Errored(Fault::Flood { limit: 16 << 20 }));
}

#[test]
fn an_adapter_that_closes_its_output_but_runs_on_is_killed() {
    let script = python(VERSATILE);
    let mut adapter = start(&script, &short()).unwrap();
    let pid = adapter.id().unwrap();
    let answer = within(move || adapter.call("a", "close-output", &Value::Null));
    assert!(
        matches!(
            answer,
            Answer::Errored(Fault::Closed {
                stream: Stream::Output,
                ..
            })
        ),
        "{answer:?}"
    );
    assert!(gone(pid));
}
