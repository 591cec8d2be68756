//! `bqsuite adapter MODEL [--mistake ID]`: a reference model speaking the adapter protocol
//! (docs/reference/adapter-protocol.md) on standard input and output, so that `bqsuite run`
//! grades it as it grades any implementation. It is the project's own adapter (the tests and the
//! bench run it), and with `--mistake` an implementation with one known bug from the model's
//! catalogue, which must fail exactly the cases that bug breaks.

use std::io::{BufRead, BufReader, Read, Write};

use serde_json::{Value, json};

use bqsuite_core::error::{Error, Result};
use bqsuite_core::show;
use bqsuite_sbp::suite::codec::{self, Model};
use bqsuite_sbp::{Mistake, Mistakes};

/// The protocol version this adapter speaks.
pub const PROTOCOL: u64 = 1;

/// The models that speak the protocol, by the names suites' descriptions give them.
pub const MODELS: [&str; 1] = [bqsuite_sbp::suite::MODEL];

/// A model answering requests, one line at a time.
pub struct Server {
    model: Model,
    name: String,
}

impl Server {
    /// The model `model` (one of [`MODELS`]), run under the mistake named `mistake`, if any.
    pub fn new(model: &str, mistake: Option<&str>) -> Result<Server> {
        if !MODELS.contains(&model) {
            return Err(Error::Usage(format!(
                "no model `{}` speaks the adapter protocol; the models that do: {}",
                show::text(model),
                MODELS.join(", ")
            )));
        }
        let (mistakes, name) = match mistake {
            None => (Mistakes::NONE, format!("bqsuite-{model}")),
            Some(id) => {
                let m = Mistake::from_id(id).ok_or_else(|| unknown_mistake(id))?;
                (Mistakes::only(m), format!("bqsuite-{model}+{}", m.id()))
            }
        };
        Ok(Server {
            model: Model(mistakes),
            name,
        })
    }

    /// The reply to one request line, or `None` for `stop` (the adapter then exits).
    pub fn respond(&mut self, line: &str) -> Option<Value> {
        let request: Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(e) => return Some(json!({ "skip": format!("the request is not JSON: {e}") })),
        };
        match request.get("cmd").and_then(Value::as_str) {
            Some("start") => Some(json!({
                "protocol": PROTOCOL,
                "implementation": {
                    "name": self.name,
                    "version": env!("CARGO_PKG_VERSION"),
                    "language": "rust",
                },
            })),
            Some("stop") => None,
            _ => Some(self.operation(&request)),
        }
    }

    fn operation(&mut self, request: &Value) -> Value {
        let seq = request.get("seq").cloned().unwrap_or(Value::Null);
        let op = request
            .get("op")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let input = request.get("input").unwrap_or(&Value::Null);
        let answer = match codec::answer(&mut self.model, op, input) {
            Ok(answer) => answer,
            Err(why) => return json!({ "seq": seq, "skip": why }),
        };
        match (answer.get("error"), codec::answer_member(op)) {
            (Some(error), _) => json!({ "seq": seq, "error": error }),
            (None, Some(member)) => json!({ "seq": seq, "value": answer[member] }),
            (None, None) => json!({ "seq": seq, "skip": "no such operation" }),
        }
    }
}

/// Serves requests from `input` until `stop` or the end of input. Replies are flushed whenever
/// no further request is already waiting in `input`'s buffer, so a burst of pipelined requests
/// is answered with few writes, and a lone request is answered at once.
pub fn serve<R: Read>(
    server: &mut Server,
    mut input: BufReader<R>,
    mut output: impl Write,
) -> Result<()> {
    let broken = |e: std::io::Error| Error::Usage(format!("cannot answer on standard output: {e}"));
    let mut line = String::new();
    loop {
        line.clear();
        let read = input
            .read_line(&mut line)
            .map_err(|e| Error::Usage(format!("cannot read a request line: {e}")))?;
        if read == 0 {
            break;
        }
        let Some(reply) = server.respond(line.trim_end_matches(['\n', '\r'])) else {
            break;
        };
        writeln!(output, "{reply}").map_err(broken)?;
        if input.buffer().is_empty() {
            output.flush().map_err(broken)?;
        }
    }
    output.flush().map_err(broken)
}

fn unknown_mistake(id: &str) -> Error {
    let ids: Vec<&str> = Mistake::ALL.iter().map(|m| m.id()).collect();
    Error::Usage(format!(
        "no mistake `{}` in the model's catalogue; the mistakes: {}",
        show::text(id),
        ids.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(server: &mut Server, request: Value) -> Value {
        server.respond(&request.to_string()).unwrap()
    }

    #[test]
    fn answers_start_each_operation_and_stop() {
        let mut server = Server::new("sbp-v1", None).unwrap();
        let start = reply(&mut server, json!({"cmd": "start", "protocol": 1}));
        assert_eq!(start["protocol"], 1);
        assert_eq!(start["implementation"]["name"], "bqsuite-sbp-v1");
        // A Ping (kind 0, op 1) with frame id 00..0f.
        let ping = "0000010102030405060708090a0b0c0d0e0f00";
        let input = json!({"hex": &ping[..34], "limits": {"max_frame": 64}});
        let decoded = reply(
            &mut server,
            json!({"cmd": "op", "seq": 1, "case": "a/b", "op": "decode", "input": input}),
        );
        assert_eq!(decoded["seq"], 1);
        assert!(
            decoded.get("value").is_some() || decoded.get("error").is_some(),
            "{decoded}"
        );
        let refused = reply(
            &mut server,
            json!({"cmd": "op", "seq": 2, "op": "decode", "input": {"hex": "00"}}),
        );
        assert_eq!(refused["seq"], 2);
        assert!(refused["error"]["code"].is_u64(), "{refused}");
        let unknown = reply(
            &mut server,
            json!({"cmd": "op", "seq": 3, "op": "teleport", "input": {}}),
        );
        assert!(unknown["skip"].is_string(), "{unknown}");
        assert!(server.respond(r#"{"cmd": "stop"}"#).is_none());
    }

    #[test]
    fn unknown_models_and_mistakes_are_refused_by_name() {
        assert!(Server::new("babelqueue", None).is_err());
        assert!(Server::new("sbp-v1", Some("no-such-mistake")).is_err());
        let server = Server::new("sbp-v1", Some("lengths-big-endian")).unwrap();
        assert_eq!(server.name, "bqsuite-sbp-v1+lengths-big-endian");
    }
}
