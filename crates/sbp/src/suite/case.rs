//! Reading one case's inputs: its fields, its bytes (inline hex or a fixture), its limits and the
//! shape of its `expect`, each refusal a `Malformed` verdict at the pointer of the field at fault.

use serde_json::{Map, Value};

use bqsuite_core::evaluator::{FixtureSource, Verdict};
use bqsuite_core::json::pointer::join;
use bqsuite_core::show;

use crate::Limits;
use crate::hex::parse_hex;

/// A step of a runner: `Err` holds the verdict that ends the case (malformed or mismatch).
pub(crate) type Step<T> = Result<T, Verdict>;

/// Fields every case may carry, whatever its op.
const COMMON_KEYS: [&str; 4] = ["name", "op", "description", "expect"];

/// The `limits` keys, in the order they are documented.
const LIMIT_KEYS: [&str; 4] = [
    "max_frame",
    "max_handshake",
    "max_error_message",
    "max_error_details",
];

/// One case with what it may read: its section's object and the suite's fixtures.
pub(crate) struct Case<'a> {
    /// Pointer of the case object inside manifest.json.
    pub pointer: &'a str,
    pub fields: &'a Map<String, Value>,
    /// The section's object (holds inherited `limits`), `Value::Null` when there is none.
    pub block: &'a Value,
    pub fixtures: &'a dyn FixtureSource,
    /// A fixture the caller already parsed: its path and value.
    pub parsed: Option<(&'a str, &'a Value)>,
}

/// A malformed verdict at `pointer`.
pub(crate) fn malformed(pointer: impl Into<String>, message: impl Into<String>) -> Verdict {
    Verdict::Malformed {
        pointer: pointer.into(),
        message: message.into(),
    }
}

/// The bytes `text` spells in lowercase hex; a refusal names the byte offset in the text.
pub(crate) fn hex_at(text: &str, pointer: &str) -> Step<Vec<u8>> {
    parse_hex(text).map_err(|e| malformed(pointer, format!("not lowercase hex: {e}")))
}

impl<'a> Case<'a> {
    /// Pointer of the case's field `key`.
    pub fn at(&self, key: &str) -> String {
        join(self.pointer, key)
    }

    /// Refuses any field that is neither common to every case nor one of `inputs`.
    pub fn only_keys(&self, inputs: &[&str]) -> Step<()> {
        match self
            .fields
            .keys()
            .find(|k| !COMMON_KEYS.contains(&k.as_str()) && !inputs.contains(&k.as_str()))
        {
            None => Ok(()),
            Some(k) => Err(malformed(
                self.at(k),
                format!(
                    "unknown field `{}` for this op: it takes {}",
                    show::text(k),
                    list(inputs)
                ),
            )),
        }
    }

    /// The field `key`, which must be present.
    pub fn require(&self, key: &str) -> Step<&'a Value> {
        self.fields
            .get(key)
            .ok_or_else(|| malformed(self.at(key), format!("missing field `{key}`")))
    }

    /// The string field `key`.
    pub fn str(&self, key: &str) -> Step<&'a str> {
        self.require(key)?
            .as_str()
            .ok_or_else(|| malformed(self.at(key), format!("`{key}` must be a string")))
    }

    /// The non-negative integer field `key`, at most `max`.
    pub fn count(&self, key: &str, max: u64) -> Step<u64> {
        match self.require(key)?.as_u64() {
            Some(n) if n <= max => Ok(n),
            _ => Err(malformed(
                self.at(key),
                format!("`{key}` must be an integer from 0 to {max}"),
            )),
        }
    }

    /// The input bytes: `hex` inline, or `file` naming a fixture `{"description", "hex"}`.
    pub fn bytes(&self) -> Step<Vec<u8>> {
        match (self.fields.get("hex"), self.fields.get("file")) {
            (Some(_), Some(_)) => Err(malformed(
                self.at("file"),
                "give the bytes once: `hex` or `file`, not both",
            )),
            (Some(_), None) => hex_at(self.str("hex")?, &self.at("hex")),
            (None, Some(_)) => self.fixture_bytes(self.str("file")?),
            (None, None) => Err(malformed(
                self.at("hex"),
                "missing the input bytes: give `hex` or `file`",
            )),
        }
    }

    /// The bytes of the fixture at `path`.
    fn fixture_bytes(&self, path: &str) -> Step<Vec<u8>> {
        let pointer = self.at("file");
        let shown = show::text(path);
        let owned;
        let value = match self.parsed {
            Some((p, v)) if p == path => v,
            _ => {
                let text = self.fixtures.text(path).ok_or_else(|| {
                    malformed(&pointer, format!("`{shown}` is not a file of the suite"))
                })?;
                owned = serde_json::from_str::<Value>(text)
                    .map_err(|_| malformed(&pointer, format!("`{shown}` is not JSON")))?;
                &owned
            }
        };
        let shape = || {
            malformed(
                &pointer,
                format!(
                    "`{shown}` is not a fixture of the shape {{\"description\": \"...\", \"hex\": \"...\"}}"
                ),
            )
        };
        let fields = value.as_object().ok_or_else(shape)?;
        let keys_ok = fields.len() == 2
            && fields.get("description").is_some_and(Value::is_string)
            && fields.get("hex").is_some_and(Value::is_string);
        if !keys_ok {
            return Err(shape());
        }
        let text = fields["hex"].as_str().unwrap_or_default();
        parse_hex(text).map_err(|e| {
            malformed(
                &pointer,
                format!("`{shown}`: `hex` is not lowercase hex: {e}"),
            )
        })
    }

    /// The limits: the defaults, then the section's `limits`, then the case's.
    pub fn limits(&self) -> Step<Limits> {
        let mut limits = Limits::DEFAULT;
        let section = self.block.get("limits").map(|v| (v, None));
        let own = self
            .fields
            .get("limits")
            .map(|v| (v, Some(self.at("limits"))));
        for (value, pointer) in section.into_iter().chain(own) {
            let pointer = pointer.unwrap_or_else(|| section_pointer(self.pointer));
            apply_limits(value, &pointer, &mut limits)?;
        }
        Ok(limits)
    }

    /// The case's `expect`: an object with exactly one of the keys `shapes`, returned with its
    /// value.
    pub fn expect(&self, shapes: &[&str]) -> Step<(&'a str, &'a Value)> {
        let pointer = self.at("expect");
        let refuse = || {
            let one = shapes
                .iter()
                .map(|k| format!("{{\"{k}\": ...}}"))
                .collect::<Vec<_>>()
                .join(" or ");
            malformed(&pointer, format!("`expect` must be {one}"))
        };
        let fields = self.require("expect")?.as_object().ok_or_else(refuse)?;
        let mut members = fields.iter();
        match (members.next(), members.next()) {
            (Some((k, v)), None) if shapes.contains(&k.as_str()) => Ok((k.as_str(), v)),
            _ => Err(refuse()),
        }
    }
}

/// The pointer of the `limits` of the section that holds the case at `case_pointer`.
fn section_pointer(case_pointer: &str) -> String {
    let section = case_pointer.split('/').nth(1).unwrap_or_default();
    format!("/{section}/limits")
}

/// Applies the `limits` object `value` (at `pointer`) over `limits`.
pub(crate) fn apply_limits(value: &Value, pointer: &str, limits: &mut Limits) -> Step<()> {
    let fields = value.as_object().ok_or_else(|| {
        malformed(
            pointer,
            format!(
                "`limits` must be an object with any of {}",
                list(&LIMIT_KEYS)
            ),
        )
    })?;
    for (key, n) in fields {
        let at = join(pointer, key);
        let slot = match key.as_str() {
            "max_frame" => &mut limits.max_frame,
            "max_handshake" => &mut limits.max_handshake,
            "max_error_message" => &mut limits.max_error_message,
            "max_error_details" => &mut limits.max_error_details,
            _ => {
                return Err(malformed(
                    at,
                    format!(
                        "unknown limit `{}`: the limits are {}",
                        show::text(key),
                        list(&LIMIT_KEYS)
                    ),
                ));
            }
        };
        *slot = n
            .as_u64()
            .and_then(|n| usize::try_from(n).ok())
            .ok_or_else(|| malformed(at, format!("`{key}` must be a non-negative integer")))?;
    }
    Ok(())
}

/// `keys` as a list for a message: `a`, `b` and `c`.
fn list(keys: &[&str]) -> String {
    let quoted: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
    match quoted.split_last() {
        None => "nothing".to_owned(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}
