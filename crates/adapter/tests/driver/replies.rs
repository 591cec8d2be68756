//! The protocol's messages on bytes alone: requests as written, replies as read, and the words
//! of every fault.

use std::time::Duration;

use serde_json::{Value, json};

use bqsuite_adapter::{
    Answer, Exit, Fault, Implementation, OpRequest, STOP_LINE, Shape, StartError, Stream,
    parse_reply, parse_start_reply,
};

fn errored(line: &str) -> Fault {
    match parse_reply(line.as_bytes(), 7) {
        Answer::Errored(fault) => fault,
        other => panic!("{line}: expected a fault, got {other:?}"),
    }
}

#[test]
fn an_op_request_is_one_json_line() {
    let input = json!({"hex": "0a", "note": "line\nbreak \u{1b}"});
    let mut line = Vec::new();
    OpRequest {
        seq: 7,
        case: "frame_vectors/\"odd\"",
        op: "decode",
        input: &input,
    }
    .write_line(&mut line);
    let (body, newline) = line.split_at(line.len() - 1);
    assert_eq!(newline, b"\n");
    assert!(!body.contains(&b'\n'));
    let parsed: Value = serde_json::from_slice(body).unwrap();
    assert_eq!(
        parsed,
        json!({"cmd": "op", "seq": 7, "case": "frame_vectors/\"odd\"", "op": "decode",
               "input": input})
    );
    assert_eq!(STOP_LINE, b"{\"cmd\":\"stop\"}\n");
}

#[test]
fn the_three_replies_are_read() {
    assert_eq!(
        parse_reply(br#"{"seq": 7, "value": {"a": [1]}}"#, 7),
        Answer::Value(json!({"a": [1]}))
    );
    assert_eq!(
        parse_reply(br#"{"value": null, "seq": 7}"#, 7),
        Answer::Value(Value::Null)
    );
    assert_eq!(
        parse_reply(br#"{"seq": 7, "error": {"code": 1002, "message": "m"}}"#, 7),
        Answer::Refused {
            code: 1002,
            message: Some("m".into())
        }
    );
    assert_eq!(
        parse_reply(br#"{"seq": 7, "skip": "why"}"#, 7),
        Answer::Skip("why".into())
    );
}

#[test]
fn every_other_reply_is_a_fault_that_says_what_is_wrong() {
    let cases: [(&str, Fault); 14] = [
        (
            "",
            Fault::NotJson {
                detail: "EOF while parsing a value at line 1 column 0".into(),
            },
        ),
        (
            "{\"seq\": 7, \"value\": 1} x",
            Fault::NotJson {
                detail: "trailing characters at line 1 column 24".into(),
            },
        ),
        ("\"seq\"", Fault::NotAnObject),
        (
            "{\"value\": 1}",
            Fault::BadShape(Shape::Missing("seq".into())),
        ),
        (
            "{\"seq\": \"7\", \"value\": 1}",
            Fault::BadShape(Shape::NotCount("seq".into())),
        ),
        (
            "{\"seq\": 7.5, \"value\": 1}",
            Fault::BadShape(Shape::NotCount("seq".into())),
        ),
        (
            "{\"seq\": 6, \"value\": 1}",
            Fault::WrongSeq {
                expected: 7,
                got: 6,
            },
        ),
        ("{\"seq\": 7}", Fault::BadShape(Shape::NoOutcome)),
        (
            "{\"seq\": 7, \"skip\": \"a\", \"value\": 1}",
            Fault::BadShape(Shape::SeveralOutcomes),
        ),
        (
            "{\"seq\": 7, \"value\": 1, \"vaule\": 2}",
            Fault::BadShape(Shape::Unknown("vaule".into())),
        ),
        (
            "{\"seq\": 7, \"skip\": 1}",
            Fault::BadShape(Shape::NotString("skip".into())),
        ),
        (
            "{\"seq\": 7, \"error\": 1002}",
            Fault::BadShape(Shape::NotObject("error".into())),
        ),
        (
            "{\"seq\": 7, \"error\": {\"code\": -1}}",
            Fault::BadShape(Shape::NotCount("error.code".into())),
        ),
        (
            "{\"seq\": 7, \"error\": {\"code\": 1, \"message\": 2}}",
            Fault::BadShape(Shape::NotString("error.message".into())),
        ),
    ];
    for (line, fault) in cases {
        assert_eq!(errored(line), fault, "{line}");
    }
    assert_eq!(
        errored("{\"seq\": 7, \"error\": {\"code\": 1, \"why\": 2}}"),
        Fault::BadShape(Shape::Unknown("error.why".into()))
    );
    assert_eq!(
        errored("{\"seq\": 7, \"error\": {}}"),
        Fault::BadShape(Shape::Missing("error.code".into()))
    );
    // A name from the adapter is cut before it reaches a message.
    let long = format!(
        "{{\"seq\": 7, \"value\": 1, \"{}\": 0}}",
        "n".repeat(10_000)
    );
    assert_eq!(
        errored(&long),
        Fault::BadShape(Shape::Unknown(format!("{}...", "n".repeat(64))))
    );
    assert_eq!(
        parse_reply(b"{\"seq\": 7, \"value\": \"\xff\"}", 7),
        Answer::Errored(Fault::NotUtf8)
    );
}

#[test]
fn a_start_reply_is_checked_version_first() {
    let reply = br#"{"protocol": 1, "implementation": {"name": "sbp-py", "version": "0.1.0", "language": "python", "homepage": "h", "docs": "d"}}"#;
    assert_eq!(
        parse_start_reply(reply),
        Ok(Implementation {
            name: "sbp-py".into(),
            version: "0.1.0".into(),
            language: "python".into(),
            extra: vec![("homepage".into(), "h".into()), ("docs".into(), "d".into())],
        })
    );
    let refused: [(&[u8], StartError); 7] = [
        (br#"{"protocol": 2, "x": 1}"#, StartError::UnknownProtocol(2)),
        (br#"{"implementation": {}}"#, StartError::BadShape(Shape::Missing("protocol".into()))),
        (br#"{"protocol": "1"}"#, StartError::BadShape(Shape::NotCount("protocol".into()))),
        (br#"{"protocol": 1, "implementation": []}"#, StartError::BadShape(Shape::NotObject("implementation".into()))),
        (br#"{"protocol": 1, "implementation": {"name": "a", "version": "1"}}"#, StartError::BadShape(Shape::Missing("implementation.language".into()))),
        (br#"{"protocol": 1, "implementation": {"name": "a", "version": "1", "language": "c", "stars": 5}}"#, StartError::BadShape(Shape::NotString("implementation.stars".into()))),
        (br#"[1]"#, StartError::BadReply(Fault::NotAnObject)),
    ];
    for (line, error) in refused {
        assert_eq!(parse_start_reply(line), Err(error));
    }
}

/// One of each fault and start error, with the words that must be in its message.
fn every_message() -> Vec<(String, &'static str)> {
    let tail = String::from("stderr text");
    let faults = [
        (
            Fault::Timeout {
                after: Duration::from_secs(10),
            },
            "within 10 s, so bqsuite killed it",
        ),
        (
            Fault::Exited {
                status: Exit::Code(3),
                stderr_tail: tail.clone(),
            },
            "exited with status 3 before answering",
        ),
        (
            Fault::Exited {
                status: Exit::Signal(11),
                stderr_tail: tail.clone(),
            },
            "was ended by signal 11 (SIGSEGV)",
        ),
        (
            Fault::Closed {
                stream: Stream::Output,
                stderr_tail: tail.clone(),
            },
            "closed its standard output",
        ),
        (
            Fault::Closed {
                stream: Stream::Input,
                stderr_tail: tail,
            },
            "closed its standard input",
        ),
        (Fault::NotUtf8, "not UTF-8"),
        (
            Fault::NotJson {
                detail: "expected value at line 1 column 1".into(),
            },
            "not JSON (expected value at line 1 column 1)",
        ),
        (Fault::NotAnObject, "not an object"),
        (
            Fault::WrongSeq {
                expected: 7,
                got: 6,
            },
            "carries seq 6, but the request had seq 7",
        ),
        (
            Fault::BadShape(Shape::Unknown("vaule".into())),
            "has a member `vaule` that protocol 1 does not define",
        ),
        (Fault::TooLong { limit: 4 << 20 }, "longer than 4 MiB"),
        (
            Fault::Flood { limit: 64 << 20 },
            "more than 64 MiB without a newline",
        ),
        (
            Fault::Io {
                what: "broken pipe".into(),
            },
            "(broken pipe)",
        ),
        (Fault::Stopped, "the adapter stopped answering"),
    ];
    let starts = [
        (
            StartError::NotFound {
                program: "sbp-adapter".into(),
            },
            "no program `sbp-adapter`",
        ),
        (
            StartError::NotExecutable {
                program: "a.py".into(),
            },
            "`python3 a.py`",
        ),
        (
            StartError::Spawn {
                program: "a".into(),
                what: "out of memory".into(),
            },
            "`a`: out of memory",
        ),
        (
            StartError::Exited {
                status: Exit::Code(4),
                stderr_tail: String::new(),
            },
            "exited with status 4 before answering the start request",
        ),
        (
            StartError::Timeout {
                after: Duration::from_millis(500),
            },
            "within 500 ms",
        ),
        (
            StartError::UnknownProtocol(3),
            "speaks protocol 3; this bqsuite speaks 1",
        ),
        (
            StartError::BadShape(Shape::Missing("protocol".into())),
            "has no `protocol` member",
        ),
        (
            StartError::BadReply(Fault::NotAnObject),
            "reply to the start request is not usable: the reply is JSON but not an object",
        ),
    ];
    let mut out: Vec<(String, &'static str)> = faults
        .into_iter()
        .map(|(f, w)| (f.to_string(), w))
        .collect();
    out.extend(starts.into_iter().map(|(e, w)| (e.to_string(), w)));
    out
}

#[test]
fn every_message_is_plain_words_on_one_line() {
    for (message, words) in every_message() {
        assert!(message.contains(words), "{message:?} lacks {words:?}");
        assert!(!message.contains("os error"), "{message}");
        // No Rust debug output: no struct or variant syntax.
        for debug in ["{ ", "Some(", "Code(", "\\n"] {
            assert!(!message.contains(debug), "{message}");
        }
        assert!(!message.contains('\n'), "one line: {message:?}");
    }
}
