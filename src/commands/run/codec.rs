//! The implementation under test as the SBP runners' codec: each operation a case needs becomes
//! one request to the adapter, and each reply the runner's answer in the suite's vocabulary.

use serde_json::{Value, json};

use bqsuite_adapter::{Adapter, Answer};
use bqsuite_core::evaluator::Verdict;
use bqsuite_sbp::Limits;
use bqsuite_sbp::hex::to_hex;
use bqsuite_sbp::suite::codec::{Codec, answer_member, limits_json};

/// The adapter, with the case whose operations it is answering.
pub struct AdapterCodec {
    pub adapter: Adapter,
    /// `section/name` of the case being graded, sent with each request.
    case: String,
    /// Pointer of that case in manifest.json, where a fault is reported.
    pointer: String,
    /// Requests that got no usable answer, in all.
    pub faults: usize,
}

impl AdapterCodec {
    pub fn new(adapter: Adapter) -> Self {
        AdapterCodec {
            adapter,
            case: String::new(),
            pointer: String::new(),
            faults: 0,
        }
    }

    /// The next requests are for case `case` (`section/name`), at `pointer`.
    pub fn begin(&mut self, case: &str, pointer: &str) {
        self.case = case.to_string();
        self.pointer = pointer.to_string();
    }

    fn call(&mut self, op: &'static str, input: Value) -> Result<Value, Verdict> {
        let answer = self.adapter.call(&self.case, op, &input);
        self.taken(op, answer)
    }

    /// The runner's answer for the adapter's `answer` to an `op` request, or the verdict that
    /// ends the case.
    fn taken(&mut self, op: &'static str, answer: Answer) -> Result<Value, Verdict> {
        let member = answer_member(op).unwrap_or(op);
        match answer {
            Answer::Value(value) => Ok(json!({ member: value })),
            Answer::Refused { code, .. } => Ok(json!({ "error": { "code": code } })),
            Answer::Skip(reason) => Err(Verdict::Skip {
                reason: format!("the adapter skips `{op}`: {reason}"),
            }),
            Answer::Errored(fault) => {
                self.faults += 1;
                Err(Verdict::Failed {
                    pointer: self.pointer.clone(),
                    message: format!("`{op}`: {fault}"),
                })
            }
        }
    }
}

impl Codec for AdapterCodec {
    fn decode(&mut self, bytes: &[u8], limits: &Limits) -> Result<Value, Verdict> {
        self.call(
            "decode",
            json!({ "hex": to_hex(bytes), "limits": limits_json(limits) }),
        )
    }

    fn encode(&mut self, frame: &Value, limits: &Limits) -> Result<Value, Verdict> {
        self.call(
            "encode",
            json!({ "frame": frame, "limits": limits_json(limits) }),
        )
    }

    fn handshake(&mut self, bytes: &[u8], limits: &Limits) -> Result<Value, Verdict> {
        self.call(
            "handshake",
            json!({ "hex": to_hex(bytes), "limits": limits_json(limits) }),
        )
    }

    /// The requests go out together, a window at a time ([`Adapter::call_many`]).
    fn decode_all(&mut self, messages: &[Vec<u8>], limits: &Limits) -> Result<Vec<Value>, Verdict> {
        let limits = limits_json(limits);
        let inputs: Vec<Value> = messages
            .iter()
            .map(|m| json!({ "hex": to_hex(m), "limits": limits }))
            .collect();
        let answers = self.adapter.call_many(&self.case, "decode", &inputs);
        answers
            .into_iter()
            .map(|answer| self.taken("decode", answer))
            .collect()
    }
}
