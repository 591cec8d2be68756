//! Running a behavioural case: each step's operation on the queue model, then the step's
//! expectations against the model's keyspace (see [`super::expect`]).

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::expect::{self, Observed};
use super::state::{self, at};
use crate::bindings::harness::malformed_at;
use crate::bindings::redis_queue::{Delivery, Handle, Layout, Now, OpError, Transport};
use crate::case::Step;
use crate::outcome::{Mismatch, Verdict};
use bqsuite_core::ids::CaseRef;

/// The most steps a case may hold (bounded work).
pub const MAX_STEPS: usize = 10_000;

/// Runs the scenario of `case` and checks every step's expectations in order.
pub fn run(case: &CaseRef<'_>) -> Step<()> {
    let mut t = state::transport(case)?;
    let steps = match case.case.get("steps") {
        Some(Value::Array(steps)) if steps.len() <= MAX_STEPS => steps,
        _ => {
            return Err(malformed_at(
                at(case, "steps"),
                format!("`steps` must be an array of at most {MAX_STEPS} steps"),
            ));
        }
    };
    let mut held: BTreeMap<String, Option<Delivery>> = BTreeMap::new();
    for (i, step) in steps.iter().enumerate() {
        let path = format!("steps/{i}");
        let Value::Object(step) = step else {
            return Err(malformed_at(at(case, &path), "a step must be an object"));
        };
        let observed = run_step(case, &path, step, &mut t, &mut held)?;
        match step.get("expect") {
            None => {}
            Some(Value::Object(want)) => {
                expect::check(case, &format!("{path}/expect"), want, &observed, &t)?
            }
            Some(_) => {
                return Err(malformed_at(
                    at(case, &format!("{path}/expect")),
                    "`expect` must be an object",
                ));
            }
        }
    }
    Ok(())
}

fn run_step(
    case: &CaseRef<'_>,
    path: &str,
    step: &Map<String, Value>,
    t: &mut Transport,
    held: &mut BTreeMap<String, Option<Delivery>>,
) -> Step<Observed> {
    let field = |name: &str| format!("{path}/{}", state::token(name));
    let now = match step.get("now") {
        Some(Value::Number(n)) => Now {
            value: n.as_f64().unwrap_or(f64::NAN),
            integer: n.as_i64().map(i128::from),
        },
        _ => {
            return Err(malformed_at(
                at(case, &field("now")),
                "`now` must be a number",
            ));
        }
    };
    let op = step.get("op").and_then(Value::as_str).unwrap_or("");
    let failed = |e: OpError| {
        Verdict::Mismatch(Mismatch {
            pointer: at(case, &field("op")),
            expected: format!("the `{op}` step runs"),
            derived: e.0,
        })
    };
    let mut observed = Observed { delivery: None };
    match op {
        "reserve" => {
            let delivery = t.reserve(now).map_err(failed)?;
            if let Some(name) = step.get("as") {
                let name = name
                    .as_str()
                    .ok_or_else(|| malformed_at(at(case, &field("as")), "`as` must be a string"))?;
                held.insert(name.to_owned(), delivery.clone());
            }
            observed.delivery = delivery;
        }
        "push_delayed" => {
            let (delay, exact) = delay(case, &field("delay"), step)?;
            let body = step
                .get("body")
                .and_then(Value::as_str)
                .ok_or_else(|| malformed_at(at(case, &field("body")), "`body` must be a string"))?;
            t.push_delayed(now, body, delay, exact).map_err(failed)?;
        }
        "migrate" => t.migrate(now).map_err(failed)?,
        "sweep" => t.sweep(now).map_err(failed)?,
        "release" | "ack" | "dead_letter" => {
            let d = reservation(case, &field("reservation"), step, t, held)?;
            match op {
                "release" => {
                    let (delay, exact) = delay(case, &field("delay"), step)?;
                    t.release(&d, now, delay, exact).map_err(failed)?;
                }
                "ack" => t.ack(&d.handle).map_err(failed)?,
                _ => t.dead_letter(&d).map_err(failed)?,
            }
        }
        _ => {
            return Err(malformed_at(
                at(case, &field("op")),
                "`op` must be one of push_delayed, migrate, reserve, release, ack, sweep, dead_letter",
            ));
        }
    }
    Ok(observed)
}

/// A step's `delay`: its value and its exact integer value when it has one.
fn delay(case: &CaseRef<'_>, path: &str, step: &Map<String, Value>) -> Step<(f64, Option<i128>)> {
    match step.get("delay") {
        Some(Value::Number(n)) => Ok((n.as_f64().unwrap_or(f64::NAN), n.as_i64().map(i128::from))),
        _ => Err(malformed_at(at(case, path), "`delay` must be a number")),
    }
}

/// The reservation a step settles: an earlier reserve's `as` name, or an explicit legacy
/// `{token, raw}` (delivered body = raw).
fn reservation(
    case: &CaseRef<'_>,
    path: &str,
    step: &Map<String, Value>,
    t: &Transport,
    held: &BTreeMap<String, Option<Delivery>>,
) -> Step<Delivery> {
    match step.get("reservation") {
        Some(Value::String(name)) => match held.get(name) {
            Some(Some(d)) => Ok(d.clone()),
            Some(None) => Err(Verdict::Mismatch(Mismatch {
                pointer: at(case, path),
                expected: format!("a reservation held as `{name}`"),
                derived: "none: that reserve found the queue empty".into(),
            })),
            None => Err(malformed_at(
                at(case, path),
                format!("no earlier reserve step stores a reservation as `{name}`"),
            )),
        },
        Some(Value::Object(r)) => {
            let token = r.get("token").and_then(Value::as_str);
            let raw = r.get("raw").and_then(Value::as_str);
            let (Some(token), Some(raw)) = (token, raw) else {
                return Err(malformed_at(
                    at(case, path),
                    "an explicit reservation is {token, raw} with two strings",
                ));
            };
            if t.config.layout == Layout::Zset {
                return Err(Verdict::Mismatch(Mismatch {
                    pointer: at(case, path),
                    expected: "a reservation the zset layout can settle".into(),
                    derived: "an explicit {token, raw} is a legacy-layout handle".into(),
                }));
            }
            Ok(Delivery {
                body: raw.to_owned(),
                handle: Handle::Legacy {
                    raw: raw.to_owned(),
                    token: token.to_owned(),
                },
                poison: false,
            })
        }
        _ => Err(malformed_at(
            at(case, path),
            "`reservation` must be a name or {token, raw}",
        )),
    }
}
