//! A well-behaved adapter: the start exchange, each kind of answer, the stop, the drop.

use serde_json::{Value, json};

use bqsuite_adapter::{Answer, Bounds, Exit, Implementation, Stop};

use crate::kit::*;

#[test]
fn the_start_exchange_sends_the_suite_and_reads_the_implementation() {
    let script = python(VERSATILE);
    let adapter = start(&script, &Bounds::DEFAULT).unwrap();
    let Implementation {
        name,
        version,
        language,
        extra,
    } = adapter.implementation().clone();
    assert_eq!((name.as_str(), version.as_str()), ("versatile", "1.0.0"));
    assert_eq!(language, "python");
    assert_eq!(
        extra[0],
        ("homepage".into(), "https://example.org/adapter".into())
    );
    // The adapter says what start request it got.
    assert_eq!(extra[1].0, "start");
    let request: Value = serde_json::from_str(&extra[1].1).unwrap();
    assert_eq!(
        request,
        json!({"cmd": "start", "protocol": 1,
               "suite": {"name": "sbp", "title": "Sideband SBP v1", "version": "0.1.0"}})
    );
    assert_eq!(adapter.stop(), Some(Stop::Exited(Exit::Code(0))));
}

#[test]
fn each_request_gets_its_answer_and_seqs_count_from_one() {
    let script = python(VERSATILE);
    let mut adapter = start(&script, &Bounds::DEFAULT).unwrap();
    let input = json!({"hex": "00ff", "limits": {"max_frame": 1048576}});
    for n in 1..=3u64 {
        let Answer::Value(value) = adapter.call("frame_vectors/handshake", "decode", &input) else {
            panic!("expected a value");
        };
        assert_eq!(
            value["request"],
            json!({"cmd": "op", "seq": n, "case": "frame_vectors/handshake", "op": "decode",
                   "input": input})
        );
        assert_eq!(value["count"], json!(n));
    }
    assert_eq!(
        adapter.call("c", "refuse", &Value::Null),
        Answer::Refused {
            code: 1002,
            message: Some("frame too big".into())
        }
    );
    assert_eq!(
        adapter.call("c", "refuse-bare", &Value::Null),
        Answer::Refused {
            code: 7,
            message: None
        }
    );
    assert_eq!(
        adapter.call("c", "skip", &Value::Null),
        Answer::Skip("no encoder".into())
    );
    assert_eq!(adapter.seq(), 6);
    assert!(adapter.history().is_empty() && !adapter.restarted() && !adapter.is_stopped());
    assert_eq!(adapter.stop(), Some(Stop::Exited(Exit::Code(0))));
}

#[test]
fn an_adapter_that_ignores_the_stop_request_is_killed() {
    let script = python("hello()\ntime.sleep(3600)\n");
    let adapter = start(&script, &short()).unwrap();
    let pid = adapter.id().unwrap();
    let stop = within(move || adapter.stop());
    assert_eq!(stop, Some(Stop::Killed));
    assert!(gone(pid), "the adapter {pid} is still there");
}

#[test]
fn dropping_a_session_kills_and_reaps_the_adapter() {
    let script = python("hello()\ntime.sleep(3600)\n");
    let adapter = start(&script, &short()).unwrap();
    let pid = adapter.id().unwrap();
    assert!(!gone(pid));
    within(move || drop(adapter));
    assert!(gone(pid), "the adapter {pid} is still there");
}

#[test]
fn escape_sequences_and_workflow_commands_come_back_as_data() {
    // Escaping is the caller's job: the driver passes the adapter's text on exactly.
    let text = "\u{1b}[31m::error file=x::owned\u{202e}\r\n::warning::x";
    let script = python(VERSATILE);
    let mut adapter = start(&script, &Bounds::DEFAULT).unwrap();
    let input = json!({"text": text});
    assert_eq!(
        adapter.call("c", "escapes", &input),
        Answer::Value(json!(text))
    );
    assert_eq!(
        adapter.call("c", "refuse-escapes", &input),
        Answer::Refused {
            code: 1,
            message: Some(text.into())
        }
    );
    assert!(adapter.stderr_tail().contains(text));
    // And in the tail of a crash.
    let crash = json!({"stderr": text});
    let Answer::Errored(bqsuite_adapter::Fault::Exited { stderr_tail, .. }) =
        adapter.call("c", "crash", &crash)
    else {
        panic!("expected the crash");
    };
    assert!(stderr_tail.ends_with(text));
}

#[test]
fn only_the_tail_of_stderr_is_kept() {
    let script = python(VERSATILE);
    let bounds = Bounds {
        stderr_tail: 1024,
        ..Bounds::DEFAULT
    };
    let mut adapter = start(&script, &bounds).unwrap();
    let noise = format!("{}THE END", "a".repeat(100_000));
    let Answer::Errored(bqsuite_adapter::Fault::Exited { stderr_tail, .. }) =
        adapter.call("c", "crash", &json!({"stderr": noise}))
    else {
        panic!("expected the crash");
    };
    assert_eq!(stderr_tail.len(), 1024);
    assert!(stderr_tail.ends_with("aTHE END"));
}
