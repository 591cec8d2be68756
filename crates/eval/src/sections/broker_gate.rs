//! The `schema_version_gate` sub-block of the sqs, asb, pulsar, kafka and artemis sections
//! (broker-bindings §3.7-§7.7, from conformance 1.2.0): from the native schema-version
//! property alone, a consumer decides whether the delivery goes on to the body decode or is
//! rejected unread.
//!
//! A case gives the property `value` (a string; on ASB also a JSON number standing for an AMQP
//! number, with `value_type: "float"` marking a real floating-point value; null where the
//! binding can carry a null property) or `absent: true`, and the `expect`ed verdict (`decode` /
//! `reject`). The table names the `property` and the body fixture (`fixture`, or
//! `envelope_file` in the older shape), which must be a valid envelope so that a reject can
//! only come from the gate.

use serde_json::Value;

use crate::bindings::broker_table::GateSpec;
use crate::bindings::gate::{self, GateInput};
use crate::bindings::harness::{inherited_ptr, inherited_str, load_envelope_at};
use crate::case::{Case, Step, compact, finish};
use crate::outcome::{FixtureSource, Mismatch, Verdict};
use bqsuite_core::ids::CaseRef;

/// Runs one gate case of binding `section`, whose gate is `spec`.
pub fn run(
    case: &CaseRef<'_>,
    section_block: &Value,
    fixtures: &dyn FixtureSource,
    section: &str,
    spec: &GateSpec,
) -> Verdict {
    finish(gate_case(case, section_block, fixtures, section, spec))
}

/// The property value the case describes.
fn input<'a>(c: &Case<'a>, section: &str, spec: &GateSpec) -> Step<GateInput<'a>> {
    let float_marker = match c.get("value_type") {
        None => false,
        Some(Value::String(s)) if s == "float" => true,
        Some(_) => return Err(c.malformed("value_type", "the only `value_type` is \"float\"")),
    };
    let absent = match c.get("absent") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(c.malformed("absent", "`absent` must be a boolean")),
    };
    let input = match (c.get("value"), absent) {
        (Some(_), true) => {
            return Err(c.malformed(
                "value",
                "a case has either `value` or `absent: true`, not both",
            ));
        }
        (None, false) => {
            return Err(c.malformed(
                "value",
                "missing required field `value` (or `absent: true`)",
            ));
        }
        (None, true) => GateInput::Absent,
        (Some(Value::Null), false) if spec.null_value => GateInput::Null,
        (Some(Value::Null), false) => {
            return Err(c.malformed(
                "value",
                format!("the {section} binding cannot carry a null property value"),
            ));
        }
        (Some(Value::String(s)), false) => GateInput::Str(s),
        (Some(Value::Number(n)), false) if spec.number_value => GateInput::Number {
            value: n,
            float_marker,
        },
        (Some(Value::Bool(b)), false) if spec.number_value => GateInput::Bool(*b),
        (Some(_), false) if spec.number_value => GateInput::Other,
        (Some(_), false) => {
            return Err(c.malformed(
                "value",
                format!(
                    "the {section} gate property is a string: only string values, null or `absent: true`"
                ),
            ));
        }
    };
    if float_marker && !matches!(input, GateInput::Number { .. }) {
        return Err(c.malformed(
            "value_type",
            "`value_type: \"float\"` only marks a number value",
        ));
    }
    Ok(input)
}

fn gate_case(
    case: &CaseRef<'_>,
    section_block: &Value,
    fixtures: &dyn FixtureSource,
    section: &str,
    spec: &GateSpec,
) -> Step<()> {
    let c = Case::new(case);
    let (property, property_ptr) = inherited_str(case, "property", section_block)?;
    // The body is always a valid envelope: it must at least be there and parse.
    let body_field = if inherited_ptr(case, "fixture", section_block).is_some() {
        "fixture"
    } else {
        "envelope_file"
    };
    load_envelope_at(case, body_field, section_block, fixtures)?;
    let expected = c.str("expect")?;
    let input = input(&c, section, spec)?;
    if let GateInput::Number {
        value,
        float_marker,
    } = input
    {
        // Every native width the value fits must give the expected verdict.
        for number in gate::asb_number_encodings(value, float_marker) {
            let derived = gate::gate_amqp_number(number).as_str();
            if derived != expected {
                return Err(c.mismatch(
                    "expect",
                    expected,
                    format!("{derived} (as {})", number.width()),
                ));
            }
        }
    } else {
        let derived = gate::gate(spec, input).as_str();
        if derived != expected {
            return Err(c.mismatch("expect", expected, derived));
        }
    }
    // The property name is the table's shared parameter; check it once the case itself holds.
    if property != spec.property {
        return Err(Verdict::Mismatch(Mismatch {
            pointer: property_ptr,
            expected: compact(&Value::String(property.to_owned())),
            derived: compact(&Value::String(spec.property.to_owned())),
        }));
    }
    Ok(())
}
