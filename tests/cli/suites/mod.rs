//! Suites that say what they are: a suite's `suite.json` names the model that judges it, every
//! command that reads a suite finds its model there, and a suite without one is BabelQueue's.

use serde_json::Value;

use crate::kit::*;

/// A description of the bundled suite's cases under another name, judged by `model`.
fn description(model: &str) -> String {
    format!(
        r#"{{"description_version": 1, "name": "renamed", "title": "Renamed", "model": "{model}",
  "asset": "renamed-conformance", "release_url": "https://example.org/v{{version}}",
  "scopes": ["core", "redis", "amqp", "sqs", "asb", "pulsar", "kafka", "artemis", "otel"]}}"#
    )
}

/// The commands that judge a suite with its model.
const JUDGES: [&str; 3] = ["validate", "eval", "mutants"];

#[test]
fn a_description_naming_an_unknown_model_stops_every_command_that_judges() {
    let copy = SuiteCopy::new();
    copy.write("suite.json", &description("no-such-model"));
    for command in JUDGES {
        let out = bqsuite(&[command, s(&copy.path())]);
        assert_eq!(code(&out), 2, "{command}: {}{}", stdout(&out), stderr(&out));
        let err = stderr(&out);
        assert!(err.contains("suite.json"), "{command}: {err}");
        assert!(err.contains("`no-such-model`"), "{command}: {err}");
        assert!(
            err.contains("babelqueue"),
            "{command} names the models: {err}"
        );
        let doc = json(&bqsuite(&[command, s(&copy.path()), "--format", "json"]));
        assert_eq!(doc["error"]["kind"], "bad-path", "{command}: {doc}");
    }
}

#[test]
fn a_malformed_description_says_what_to_write() {
    let copy = SuiteCopy::new();
    for (text, says) in [
        ("{", "is not JSON"),
        ("[]", "must be a JSON object"),
        (r#"{"description_version": 1}"#, "must give `name`"),
        (
            &description("babelqueue").replace("\"title\"", "\"titel\""),
            "unknown key `titel`",
        ),
    ] {
        copy.write("suite.json", text);
        for command in JUDGES {
            let out = bqsuite(&[command, s(&copy.path())]);
            assert_eq!(code(&out), 2, "{command} {text}: {}", stderr(&out));
            let err = stderr(&out);
            assert!(
                err.contains("suite.json") && err.contains(says),
                "{command}: {err}"
            );
        }
    }
}

/// The description, not the suite's looks, picks the model: the bundled cases described as
/// judged by the BabelQueue model validate as they do without a description.
#[test]
fn the_model_a_description_names_judges_the_suite() {
    let copy = SuiteCopy::new();
    copy.write("suite.json", &description("babelqueue"));
    let described = json(&bqsuite(&["validate", s(&copy.path()), "--format", "json"]));
    let plain = json(&bqsuite(&["validate", "--format", "json"]));
    assert_eq!(described["data"]["evaluator"], plain["data"]["evaluator"]);
    assert_ne!(described["data"]["evaluator"]["pass"], Value::from(0));
    let eval = json(&bqsuite(&["eval", s(&copy.path()), "--format", "json"]));
    assert_eq!(
        eval["data"]["results"]["bindings"]
            .as_array()
            .unwrap()
            .len(),
        8,
        "{eval}"
    );
}

/// A row of the decisions table as a suite writes it.
fn decision(case: &str) -> Value {
    serde_json::json!({
        "case": case, "plan": "p", "spec": "s", "ref": "r", "decision": "d"
    })
}

#[test]
fn each_decision_names_one_existing_case() {
    let copy = SuiteCopy::new();
    let manifest = copy.read_json("manifest.json");
    let first = manifest["cases"][0]["name"].as_str().unwrap().to_string();
    let existing = format!("cases/{first}");
    copy.edit_manifest(|m| m["decisions"] = serde_json::json!([decision(&existing)]));
    let (exit, diags) = validate_json(&copy.path());
    assert_eq!(exit, 0, "{diags:#?}");

    copy.edit_manifest(|m| {
        m["decisions"] = serde_json::json!([
            decision(&existing),
            decision("cases/no-such-case"),
            decision(&existing),
            {"case": existing, "plan": "p"}
        ])
    });
    let (exit, diags) = validate_json(&copy.path());
    assert_eq!(exit, 1);
    let at: Vec<&str> = diags
        .iter()
        .filter(|d| d["code"] == "decision-invalid")
        .map(|d| d["pointer"].as_str().unwrap())
        .collect();
    assert_eq!(
        at,
        ["/decisions/1/case", "/decisions/2/case", "/decisions/3"]
    );
}

mod sbp;
