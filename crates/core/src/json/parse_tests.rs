use super::*;
use serde_json::Value;
use serde_json::json;

fn p(line: u32, column: u32) -> Pos {
    Pos { line, column }
}

fn err(text: &str) -> (Pos, String) {
    let e = parse(text).expect_err(text);
    (e.pos, e.message)
}

fn assert_err(text: &str, pos: Pos, message: &str) {
    assert_eq!(err(text), (pos, message.to_string()), "input {text:?}");
}

#[test]
fn scalars() {
    assert_eq!(parse("null").unwrap().kind, Kind::Null);
    assert_eq!(parse(" true ").unwrap().kind, Kind::Bool(true));
    assert_eq!(parse("\nfalse").unwrap().pos, p(2, 1));
    for n in [
        "0", "-0", "1", "-12", "1.5", "1e5", "1E+5", "-1.25e-3", "0.0",
    ] {
        assert_eq!(parse(n).unwrap().kind, Kind::Number(n.to_string()), "{n}");
    }
    assert_eq!(parse("\"\"").unwrap().kind, Kind::String(String::new()));
    let s = parse(r#""a\"\\\/\b\f\n\r\t\u0041\u00e9\ud83d\ude00\u2028""#).unwrap();
    assert_eq!(
        s.kind,
        Kind::String("a\"\\/\u{8}\u{c}\n\r\t\u{41}é😀\u{2028}".to_string())
    );
    // Raw non-ASCII and DEL are fine.
    assert_eq!(
        parse("\"é😀\u{7f}\"").unwrap().kind,
        Kind::String("é😀\u{7f}".into())
    );
}

#[test]
fn containers_and_positions() {
    let text = "{\n  \"a\": [1, {\"b\": null}],\n  \"é\": \"x\", \"c\": {}\n}";
    let root = parse(text).unwrap();
    assert_eq!(root.pos, p(1, 1));
    let Kind::Object(members) = &root.kind else {
        panic!()
    };
    assert_eq!(members.len(), 3);
    assert_eq!(members[0].key, "a");
    assert_eq!(members[0].key_pos, p(2, 3));
    assert_eq!(members[0].value.pos, p(2, 8));
    assert_eq!(root.at("/a/0").unwrap().pos, p(2, 9));
    assert_eq!(root.at("/a/1").unwrap().pos, p(2, 12));
    assert_eq!(root.at("/a/1/b").unwrap().pos, p(2, 18));
    assert_eq!(members[1].key_pos, p(3, 3));
    // "é" is one column wide although it is two bytes.
    assert_eq!(root.at("/é").unwrap().pos, p(3, 8));
    assert_eq!(members[2].key_pos, p(3, 13));
    assert_eq!(root.at("/c").unwrap().pos, p(3, 18));
    assert_eq!(root.at("/c").unwrap().kind, Kind::Object(vec![]));
    assert_eq!(
        root.to_value(),
        json!({"a": [1, {"b": null}], "é": "x", "c": {}})
    );
    assert_eq!(parse("[]").unwrap().kind, Kind::Array(vec![]));
    assert_eq!(parse(" [ ] ").unwrap().pos, p(1, 2));
}

#[test]
fn line_breaks_crlf_and_cr() {
    let root = parse("[\r\n1,\r2,\n\t3]").unwrap();
    assert_eq!(root.at("/0").unwrap().pos, p(2, 1));
    assert_eq!(root.at("/1").unwrap().pos, p(3, 1));
    assert_eq!(root.at("/2").unwrap().pos, p(4, 2));
}

#[test]
fn error_messages_and_positions() {
    assert_err("\u{FEFF}{}", p(1, 1), "byte order mark before JSON text");
    assert_err(
        "{\"a\": 1 \"b\": 2}",
        p(1, 9),
        "expected ',' or '}' after object member",
    );
    assert_err("[1 2]", p(1, 4), "expected ',' or ']' after array element");
    assert_err("[\"abc", p(1, 2), "unterminated string");
    assert_err("\"ab\\", p(1, 1), "unterminated string");
    assert_err("\"\\u12", p(1, 1), "unterminated string");
    assert_err("[\"a\\xb\"]", p(1, 4), "invalid escape \\x");
    assert_err(
        "\"\\u12G4\"",
        p(1, 2),
        "invalid unicode escape: expected 4 hex digits after \\u",
    );
    assert_err("{} x", p(1, 4), "trailing characters after the JSON value");
    assert_err("1 2", p(1, 3), "trailing characters after the JSON value");
    assert_err("truex", p(1, 5), "trailing characters after the JSON value");
    assert_err("\"\\ud800\"", p(1, 2), "lone surrogate \\ud800");
    assert_err("\"x\\uD800x\"", p(1, 3), "lone surrogate \\uD800");
    assert_err("\"\\ud800\\u0041\"", p(1, 2), "lone surrogate \\ud800");
    assert_err("\"\\udc00\"", p(1, 2), "lone surrogate \\udc00");
    assert_err(
        "[\n \"ab\ncd\"]",
        p(2, 5),
        "control character U+000A in string",
    );
    assert_err("\"\t\"", p(1, 2), "control character U+0009 in string");
    assert_err("[01]", p(1, 2), "leading zeros are not allowed");
    assert_err("-00", p(1, 2), "leading zeros are not allowed");
    assert_err(
        "-",
        p(1, 2),
        "expected a digit after '-', found end of input",
    );
    assert_err("-a", p(1, 2), "expected a digit after '-', found 'a'");
    assert_err(
        "1.",
        p(1, 3),
        "expected a digit after '.', found end of input",
    );
    assert_err("1.e3", p(1, 3), "expected a digit after '.', found 'e'");
    assert_err(
        "1e+",
        p(1, 4),
        "expected a digit in the exponent, found end of input",
    );
    assert_err("[1e400]", p(1, 2), "number out of range");
    assert_err(
        "",
        p(1, 1),
        "unexpected end of input: expected a JSON value",
    );
    assert_err(
        " \n ",
        p(2, 2),
        "unexpected end of input: expected a JSON value",
    );
    assert_err("[1,]", p(1, 3), "trailing comma before ']' is not allowed");
    assert_err(
        "{\"a\":1,\n}",
        p(1, 7),
        "trailing comma before '}' is not allowed",
    );
    assert_err("[,1]", p(1, 2), "expected a JSON value, found ','");
    assert_err("{\"a\": }", p(1, 7), "expected a JSON value, found '}'");
    assert_err("{'a': 1}", p(1, 2), "expected string key or '}', found '''");
    assert_err(
        "{\"a\":1, b}",
        p(1, 9),
        "expected string key after ',', found 'b'",
    );
    assert_err("{\"a\" 1}", p(1, 6), "expected ':' after object key");
    assert_err("tru", p(1, 1), "invalid literal, expected 'true'");
    assert_err("[nul]", p(1, 2), "invalid literal, expected 'null'");
    assert_err("True", p(1, 1), "expected a JSON value, found 'T'");
    assert_err("\u{a0}1", p(1, 1), "expected a JSON value, found U+00A0");
    assert_err("[é]", p(1, 2), "expected a JSON value, found 'é' (U+00E9)");
    assert_err(
        "[1,\n [2",
        p(2, 4),
        "unexpected end of input: expected ',' or ']' after array element (array opened at 2:2)",
    );
    assert_err(
        "{\"a\": 1",
        p(1, 8),
        "unexpected end of input: expected ',' or '}' after object member (object opened at 1:1)",
    );
    assert_err(
        "{",
        p(1, 2),
        "unexpected end of input: expected string key or '}' (object opened at 1:1)",
    );
    assert_err(
        "{\"a\"",
        p(1, 5),
        "unexpected end of input: expected ':' after object key",
    );
    // Columns count scalar values, not bytes.
    assert_err("[\"é😀\", x]", p(1, 8), "expected a JSON value, found 'x'");
    // A BOM later on is just an unexpected character.
    assert_err(
        "[\u{FEFF}]",
        p(1, 2),
        "expected a JSON value, found '\u{feff}' (U+FEFF)",
    );
}

#[test]
fn depth_limit() {
    let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
    assert!(parse(&ok).is_ok());
    let too_deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
    assert_err(&too_deep, p(1, 257), "nesting deeper than 256 levels");
    let objects = "{\"a\":".repeat(300);
    assert_err(
        &objects,
        p(1, 1 + 256 * 5),
        "nesting deeper than 256 levels",
    );
}

#[test]
fn very_deep_input_does_not_overflow_the_stack() {
    let deep = "[".repeat(100_000);
    assert_err(&deep, p(1, 257), "nesting deeper than 256 levels");
    let deep_closed = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert_err(&deep_closed, p(1, 257), "nesting deeper than 256 levels");
}

#[test]
fn large_flat_input() {
    // One long line: positions must stay cheap (linear overall).
    let n = 200_000;
    let text = format!("[{}0]", "0,".repeat(n));
    let root = parse(&text).unwrap();
    assert_eq!(
        root.at(&format!("/{n}")).unwrap().pos,
        p(1, 2 + 2 * n as u32)
    );
}

#[test]
fn duplicate_keys_everywhere() {
    let text = r#"{
  "a": 1,
  "list": [{"x": 1, "y": 2, "x": 3}, {"z": {"q": 1, "q": 2, "q": 3}}],
  "a/b~": {"k": 0, "k": 1},
  "a": 2
}"#;
    let root = parse(text).unwrap();
    let d = root.duplicate_keys();
    let expected = vec![
        Duplicate {
            pointer: String::new(),
            key: "a".into(),
            first: p(2, 3),
            repeated: p(5, 3),
        },
        Duplicate {
            pointer: "/list/0".into(),
            key: "x".into(),
            first: p(3, 13),
            repeated: p(3, 29),
        },
        Duplicate {
            pointer: "/list/1/z".into(),
            key: "q".into(),
            first: p(3, 45),
            repeated: p(3, 53),
        },
        Duplicate {
            pointer: "/list/1/z".into(),
            key: "q".into(),
            first: p(3, 45),
            repeated: p(3, 61),
        },
        Duplicate {
            pointer: "/a~1b~0".into(),
            key: "k".into(),
            first: p(4, 12),
            repeated: p(4, 20),
        },
    ];
    assert_eq!(d, expected);
    assert!(
        parse("[{\"a\":1},{\"a\":2}]")
            .unwrap()
            .duplicate_keys()
            .is_empty()
    );
    // Keys compare after unescaping.
    let d = parse(r#"{"a": 1, "\u0061": 2}"#).unwrap().duplicate_keys();
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].repeated, p(1, 10));
}

#[test]
fn last_wins() {
    let root = parse(r#"{"a": 1, "b": {"c": true}, "a": [10, 20], "b": {"c": false}}"#).unwrap();
    assert_eq!(root.at("/a/1").unwrap().kind, Kind::Number("20".into()));
    assert_eq!(root.at("/b/c").unwrap().kind, Kind::Bool(false));
    assert_eq!(root.member("a").unwrap().key_pos, p(1, 28));
    let v = root.to_value();
    assert_eq!(v, json!({"a": [10, 20], "b": {"c": false}}));
    let expected: Value =
        serde_json::from_str(r#"{"a": 1, "b": {"c": true}, "a": [10, 20], "b": {"c": false}}"#)
            .unwrap();
    assert_eq!(v, expected);
    // Same key order as serde_json (first occurrence keeps its place).
    let keys: Vec<_> = v.as_object().unwrap().keys().cloned().collect();
    let expected_keys: Vec<_> = expected.as_object().unwrap().keys().cloned().collect();
    assert_eq!(keys, expected_keys);
}

#[test]
fn get_and_at() {
    let root = parse(r#"{"": 0, "a/b": 1, "m~n": 2, "arr": [5, 6]}"#).unwrap();
    assert_eq!(root.at("").unwrap(), &root);
    assert_eq!(root.at("/").unwrap().kind, Kind::Number("0".into()));
    assert_eq!(root.at("/a~1b").unwrap().kind, Kind::Number("1".into()));
    assert_eq!(root.at("/m~0n").unwrap().kind, Kind::Number("2".into()));
    assert_eq!(
        root.get(["arr", "1"]).unwrap().kind,
        Kind::Number("6".into())
    );
    assert_eq!(root.get(Vec::<String>::new()).unwrap(), &root);
    assert!(root.at("/arr/01").is_none());
    assert!(root.at("/arr/-").is_none());
    assert!(root.at("/arr/2").is_none());
    assert!(root.at("/arr/+1").is_none());
    assert!(root.at("/arr/99999999999999999999999").is_none());
    assert!(root.at("/arr/0/x").is_none());
    assert!(root.at("/missing").is_none());
    assert!(root.at("arr").is_none());
    assert!(root.at("/~2").is_none());
}

#[test]
fn numbers_keep_their_kind() {
    let root =
        parse("[1, 1.0, -0, 1e2, 18446744073709551615, -9223372036854775808, 1e-400]").unwrap();
    let v = root.to_value();
    assert!(v[0].is_u64());
    assert!(v[1].is_f64());
    assert!(v[2].is_f64());
    assert!(v[3].is_f64());
    assert!(v[4].is_u64());
    assert!(v[5].is_i64());
    assert_eq!(v[6].as_f64(), Some(0.0));
    let bad = Node {
        pos: p(1, 1),
        kind: Kind::Number("nope".into()),
    };
    assert_eq!(bad.to_value(), Value::Null);
}

#[test]
fn display() {
    let e = parse("[1,]").unwrap_err();
    assert_eq!(
        e.to_string(),
        "1:3: trailing comma before ']' is not allowed"
    );
    assert_eq!(Kind::Array(vec![]).type_name(), "array");
}

/// Deterministic pseudo-random generator (64-bit LCG, Knuth's MMIX
/// constants).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// Upper bound of the nesting depth, ignoring strings.
fn rough_depth(text: &str) -> usize {
    let (mut depth, mut max) = (0usize, 0usize);
    for b in text.bytes() {
        match b {
            b'[' | b'{' => {
                depth += 1;
                max = max.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

fn mutate(rng: &mut Lcg, doc: &[u8]) -> Vec<u8> {
    const INTERESTING: &[&[u8]] = &[
        b"{",
        b"}",
        b"[",
        b"]",
        b"\"",
        b",",
        b":",
        b"\\",
        b"\\u",
        b"\\ud83d",
        b"\\ude00",
        b"-",
        b"0",
        b"1",
        b"9",
        b".",
        b"e",
        b"E",
        b"+",
        b" ",
        b"\n",
        b"\t",
        b"\r",
        b"\x00",
        b"\x1f",
        b"\x7f",
        b"true",
        b"null",
        b"n",
        b"\xc3\xa9",
        b"\xff",
        b"\xef\xbb\xbf",
        b"1e400",
        b"00",
    ];
    let mut out = doc.to_vec();
    let len = out.len();
    match rng.below(6) {
        0 => out.truncate(rng.below(len + 1)),
        1 if len > 0 => {
            let i = rng.below(len);
            out[i] ^= 1 << rng.below(8);
        }
        2 => {
            let i = rng.below(len + 1);
            let ins = INTERESTING[rng.below(INTERESTING.len())];
            out.splice(i..i, ins.iter().copied());
        }
        3 if len > 0 => {
            let i = rng.below(len);
            let n = 1 + rng.below(3.min(len - i));
            out.drain(i..i + n);
        }
        4 if len > 0 => {
            let i = rng.below(len);
            out[i] = INTERESTING[rng.below(INTERESTING.len())][0];
        }
        _ => {
            // Duplicate a chunk elsewhere.
            let a = rng.below(len + 1);
            let b = a + rng.below(len - a + 1).min(16);
            let chunk = out[a..b].to_vec();
            let at = rng.below(len + 1);
            out.splice(at..at, chunk);
        }
    }
    out
}

#[test]
fn fuzz_against_serde_json() {
    let seeds: &[&str] = &[
        r#"{"name": "t1", "args": [1, -2.5e3, true, null, "x\"y"], "nested": {"a": {"b": []}}}"#,
        r#"[0, 1.0, "\u00e9\ud83d\ude00", {"k": "v", "k": 2}, [[], {}], false]"#,
        "{\n  \"é\": \"ü😀\",\n  \"n\": -0.0e-0\n}",
        r#""just a \\ string \/ with \b\f\n\r\t escapes""#,
        "123456789012345678901234567890",
        "[\"\\u0000\", 18446744073709551616, -9223372036854775809]",
    ];
    let mut rng = Lcg(0x5eed_1234_abcd_ef01);
    let (mut agreed_ok, mut agreed_err) = (0, 0);
    for round in 0..2000 {
        let seed = seeds[round % seeds.len()].as_bytes();
        let mut bytes = seed.to_vec();
        for _ in 0..1 + rng.below(4) {
            bytes = mutate(&mut rng, &bytes);
        }
        let text = match String::from_utf8(bytes) {
            Ok(s) => s,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        };
        let ours = parse(&text);
        if let Ok(node) = &ours {
            // Exercise the rest of the API on whatever parsed.
            let _ = node.duplicate_keys();
            let _ = node.at("/0/a");
        }
        if rough_depth(&text) >= 100 {
            continue;
        }
        let theirs = serde_json::from_str::<Value>(&text);
        match (ours, theirs) {
            (Ok(node), Ok(value)) => {
                assert_eq!(node.to_value(), value, "input {text:?}");
                agreed_ok += 1;
            }
            (Err(_), Err(_)) => agreed_err += 1,
            (ours, theirs) => {
                panic!("disagreement on {text:?}: ours {ours:?}, serde_json {theirs:?}")
            }
        }
    }
    // The mutations must produce a healthy mix of both outcomes.
    eprintln!("fuzz: {agreed_ok} ok, {agreed_err} err");
    assert!(agreed_ok > 100, "only {agreed_ok} valid inputs");
    assert!(agreed_err > 100, "only {agreed_err} invalid inputs");
}
