//! The messages of protocol 1: writing requests, reading replies. Pure: no process here, so
//! every rule of a reply's shape is testable on bytes.

use serde_json::{Map, Value};

use crate::fault::{Fault, Shape, StartError};

/// The protocol version this driver speaks.
pub const PROTOCOL: u64 = 1;

/// The stop request, the last line an adapter is sent (it gets no reply).
pub const STOP_LINE: &[u8] = b"{\"cmd\":\"stop\"}\n";

/// The longest member name (in characters) kept from an adapter's reply in a [`Shape`].
const NAME_CHARS: usize = 64;

/// The suite a session runs, sent in the start request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartInfo {
    /// The suite's short name (`sbp`).
    pub name: String,
    /// Its title (`Sideband SBP v1`).
    pub title: String,
    /// Its version (`0.1.0`).
    pub version: String,
}

impl StartInfo {
    /// The start request as one line, with its newline.
    pub fn request_line(&self) -> Vec<u8> {
        let request = serde_json::json!({
            "cmd": "start",
            "protocol": PROTOCOL,
            "suite": {"name": self.name, "title": self.title, "version": self.version},
        });
        let mut line = request.to_string().into_bytes();
        line.push(b'\n');
        line
    }
}

/// What the adapter says it is, from its start reply. Every string is the adapter's own text,
/// passed on as it came: escape it before showing it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Implementation {
    pub name: String,
    pub version: String,
    pub language: String,
    /// The other members of `implementation` (all strings: `homepage`, ...), in reply order.
    pub extra: Vec<(String, String)>,
}

/// One op request: the `seq`-th operation of a session, for case `case`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OpRequest<'a> {
    pub seq: u64,
    pub case: &'a str,
    pub op: &'a str,
    pub input: &'a Value,
}

impl OpRequest<'_> {
    /// Appends the request as one line, with its newline, to `out`.
    pub fn write_line(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(b"{\"cmd\":\"op\",\"seq\":");
        out.extend_from_slice(self.seq.to_string().as_bytes());
        out.extend_from_slice(b",\"case\":");
        // Writing JSON into a Vec cannot fail (a str and a Value have only string keys).
        let _ = serde_json::to_writer(&mut *out, self.case);
        out.extend_from_slice(b",\"op\":");
        let _ = serde_json::to_writer(&mut *out, self.op);
        out.extend_from_slice(b",\"input\":");
        let _ = serde_json::to_writer(&mut *out, self.input);
        out.extend_from_slice(b"}\n");
    }
}

/// The answer to one op request.
///
/// Strings in it (a value's strings, a refusal's message, a skip's reason, a fault's stderr
/// tail) are the adapter's text exactly as it wrote them: escape sequences, bidirectional
/// controls and lines such as `::error::` come through as data. Escaping them before display is
/// the caller's job.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// `{"seq": N, "value": V}`: the operation's result.
    Value(Value),
    /// `{"seq": N, "error": {"code": C, "message": M}}`: the implementation refuses with that
    /// protocol error code (the message, when present, is for people, never compared).
    Refused { code: u64, message: Option<String> },
    /// `{"seq": N, "skip": "why"}`: the implementation does not do this operation.
    Skip(String),
    /// No usable reply.
    Errored(Fault),
}

/// Reads one reply line (without its newline) to the op request with seq `expected`.
pub fn parse_reply(line: &[u8], expected: u64) -> Answer {
    match reply(line, expected) {
        Ok(answer) => answer,
        Err(fault) => Answer::Errored(fault),
    }
}

fn reply(line: &[u8], expected: u64) -> Result<Answer, Fault> {
    let mut object = parse_object(line)?;
    let seq = count(&object, "seq", "seq")?;
    if seq != expected {
        return Err(Fault::WrongSeq { expected, got: seq });
    }
    only_members(&object, &["seq", "value", "error", "skip"], "")?;
    let outcomes = ["value", "error", "skip"]
        .iter()
        .filter(|k| object.contains_key(**k))
        .count();
    match outcomes {
        0 => return Err(Fault::BadShape(Shape::NoOutcome)),
        1 => {}
        _ => return Err(Fault::BadShape(Shape::SeveralOutcomes)),
    }
    if let Some(value) = object.remove("value") {
        return Ok(Answer::Value(value));
    }
    if let Some(skip) = object.remove("skip") {
        return match skip {
            Value::String(why) => Ok(Answer::Skip(why)),
            _ => Err(Fault::BadShape(Shape::NotString("skip".into()))),
        };
    }
    let Some(Value::Object(error)) = object.remove("error") else {
        return Err(Fault::BadShape(Shape::NotObject("error".into())));
    };
    refusal(error)
}

fn refusal(mut error: Map<String, Value>) -> Result<Answer, Fault> {
    only_members(&error, &["code", "message"], "error.")?;
    let code = count(&error, "code", "error.code")?;
    let message = match error.remove("message") {
        None => None,
        Some(Value::String(m)) => Some(m),
        Some(_) => return Err(Fault::BadShape(Shape::NotString("error.message".into()))),
    };
    Ok(Answer::Refused { code, message })
}

/// Reads the start reply line (without its newline). The protocol version is checked first, so
/// an adapter of another version hears that, whatever the rest of its reply holds.
pub fn parse_start_reply(line: &[u8]) -> Result<Implementation, StartError> {
    let object = parse_object(line).map_err(StartError::from_fault)?;
    let protocol = count(&object, "protocol", "protocol").map_err(StartError::from_fault)?;
    if protocol != PROTOCOL {
        return Err(StartError::UnknownProtocol(protocol));
    }
    only_members(&object, &["protocol", "implementation"], "").map_err(StartError::from_fault)?;
    let implementation = match object.get("implementation") {
        None => Err(Shape::Missing("implementation".into())),
        Some(Value::Object(members)) => implementation(members),
        Some(_) => Err(Shape::NotObject("implementation".into())),
    };
    implementation.map_err(StartError::BadShape)
}

fn implementation(members: &Map<String, Value>) -> Result<Implementation, Shape> {
    let required = |key: &str| match members.get(key) {
        None => Err(Shape::Missing(format!("implementation.{key}"))),
        Some(Value::String(s)) => Ok(s.clone()),
        Some(_) => Err(Shape::NotString(format!("implementation.{key}"))),
    };
    let (name, version, language) = (
        required("name")?,
        required("version")?,
        required("language")?,
    );
    let mut extra = Vec::new();
    for (key, value) in members {
        if ["name", "version", "language"].contains(&key.as_str()) {
            continue;
        }
        match value {
            Value::String(s) => extra.push((key.clone(), s.clone())),
            _ => return Err(Shape::NotString(format!("implementation.{}", cut(key)))),
        }
    }
    Ok(Implementation {
        name,
        version,
        language,
        extra,
    })
}

/// The line as a JSON object.
fn parse_object(line: &[u8]) -> Result<Map<String, Value>, Fault> {
    let text = std::str::from_utf8(line).map_err(|_| Fault::NotUtf8)?;
    match serde_json::from_str(text) {
        Ok(Value::Object(object)) => Ok(object),
        Ok(_) => Err(Fault::NotAnObject),
        Err(e) => Err(Fault::NotJson {
            detail: e.to_string(),
        }),
    }
}

/// The member `key`, a whole number from 0 up (`path` names it in a fault).
fn count(object: &Map<String, Value>, key: &str, path: &str) -> Result<u64, Fault> {
    match object.get(key) {
        None => Err(Fault::BadShape(Shape::Missing(path.into()))),
        Some(v) => v
            .as_u64()
            .ok_or_else(|| Fault::BadShape(Shape::NotCount(path.into()))),
    }
}

/// Refuses a member not in `known` (`prefix` is the path of the object, `error.`).
fn only_members(object: &Map<String, Value>, known: &[&str], prefix: &str) -> Result<(), Fault> {
    match object.keys().find(|k| !known.contains(&k.as_str())) {
        Some(key) => Err(Fault::BadShape(Shape::Unknown(format!(
            "{prefix}{}",
            cut(key)
        )))),
        None => Ok(()),
    }
}

/// A name from the adapter, cut to [`NAME_CHARS`] characters (`...` marks a cut).
fn cut(name: &str) -> String {
    match name.char_indices().nth(NAME_CHARS) {
        Some((at, _)) => format!("{}...", &name[..at]),
        None => name.to_string(),
    }
}
