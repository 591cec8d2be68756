//! How long 50,000 requests take against a trivial echo adapter. Measured, never asserted:
//! `cargo test --release -p bqsuite-adapter --test driver speed -- --ignored --nocapture`.
//! With `ECHO_ADAPTER=PROGRAM` set, it runs that program instead of the Python echo below (a
//! compiled echo shows the driver's own cost better than Python does).

use std::time::Instant;

use serde_json::{Value, json};

use bqsuite_adapter::{Adapter, Answer, Bounds};

use crate::kit::*;

/// Echoes each seq without parsing the request, so that the time is the driver's and the pipes'.
const ECHO: &str = r#"
sys.stdin.readline()
send({"protocol": 1, "implementation": {"name": "echo", "version": "0", "language": "python"}})
out = sys.stdout.buffer
for line in sys.stdin.buffer:
    if line.startswith(b'{"cmd":"stop"'):
        break
    seq = line[18:line.index(b",", 18)]
    out.write(b'{"seq":' + seq + b',"value":null}\n')
    out.flush()
"#;

#[test]
#[ignore = "a measurement: run it by name with --ignored --nocapture"]
fn fifty_thousand_calls() {
    let script = python(ECHO);
    let mut adapter = match std::env::var_os("ECHO_ADAPTER") {
        Some(program) => Adapter::start(program, [] as [&str; 0], &info(), &Bounds::DEFAULT),
        None => start(&script, &Bounds::DEFAULT),
    }
    .unwrap();
    let input = json!({"hex": "00", "limits": {"max_frame": 1048576}});
    let began = Instant::now();
    for _ in 0..50_000 {
        assert_eq!(
            adapter.call("c", "decode", &input),
            Answer::Value(Value::Null)
        );
    }
    let took = began.elapsed();
    adapter.stop();
    println!("50000 calls: {took:?} ({:?} per call)", took / 50_000);
}
