//! The round-trip contracts, over every shared dataset and random values
//! with hostile strings:
//!
//! - default rendering: `parse(render(v)) == normalize(v)`;
//! - lossless rendering: `parse_lossless(render_lossless(v))` is `v`
//!   exactly (key order and numbers' text too: `Value::identical`), and the
//!   lossless markdown is still read by comrak and pulldown-cmark as the
//!   schema's blocks (no emphasis, link, HTML or stray block).

use crate::support;

use codec_core::{CodecExt, Map, Value, from_slice};
use codec_md::{MarkdownCodec, Profile, normalize, parse, parse_lossless, render};
use proptest::prelude::*;

const DATASETS: [(&str, &[u8]); 11] = [
    ("github", include_bytes!("../data/github.json")),
    ("analytics", include_bytes!("../data/analytics.json")),
    ("tabular", include_bytes!("../data/tabular.json")),
    ("keyed", include_bytes!("../data/keyed.json")),
    (
        "nested-config",
        include_bytes!("../data/nested-config.json"),
    ),
    ("nested", include_bytes!("../data/nested.json")),
    ("nested-group", include_bytes!("../data/nested-group.json")),
    ("event-logs", include_bytes!("../data/event-logs.json")),
    (
        "event-logs-40",
        include_bytes!("../data/event-logs-40.json"),
    ),
    (
        "escape-vectors",
        include_bytes!("../data/escape-vectors.json"),
    ),
    ("shapes", SHAPES.as_bytes()),
];

/// The decided cases of SPEC.md in one value.
const SHAPES: &str = r#"{"": 1, "a": {"": {"b": 2}}, "tags": ["rust", "llm", 3, true, null],
 "empty": [], "meta": {}, "odd": ["a, b", "c"],
 "users": [{"id": 1, "name": "Ada", "admin": true}, {"id": 2, "name": "Bob", "email": "b@x"}],
 "events": [{"id": 1, "tags": ["a"]}, "note", [1, 2], [[3]]],
 "code": {"file": "lib.rs", "lang": "rust", "code": "fn main() {}", "patch": "-a\n+b",
          "log": "one\n```\ntwo", "note": "a\r\nb"},
 "deep": {"a": {"b": {"c": {"d": {"e": {"f": {"g": {"h": 1}, "i": 2}, "j": {"k": 3}}}}}}},
 "nul": "x\u0000y", "crlf": "1\r\n2", "tab": "\tx"}"#;

fn lossless() -> MarkdownCodec {
    MarkdownCodec::builder().profile(Profile::Lossless).build()
}

fn render_lossless(value: &Value) -> String {
    String::from_utf8(lossless().to_vec(value).unwrap()).unwrap()
}

fn check_default(label: &str, value: &Value) {
    let markdown = render(value).unwrap();
    let parsed = parse(&markdown).unwrap_or_else(|e| panic!("{label}: {e}\n{markdown}"));
    let normal = normalize(value);
    assert!(
        parsed == normal,
        "{label}: parse(render(v)) != normalize(v)\n--- markdown\n{markdown}\n--- parsed\n{parsed:?}\n--- normalized\n{normal:?}"
    );
}

fn check_lossless(label: &str, value: &Value) -> String {
    let markdown = render_lossless(value);
    let parsed = parse_lossless(&markdown).unwrap_or_else(|e| panic!("{label}: {e}\n{markdown}"));
    assert!(
        parsed.identical(value),
        "{label}: parse_lossless(render_lossless(v)) != v (key order and numbers' text included)\n--- markdown\n{markdown}\n--- parsed\n{parsed:?}\n--- value\n{value:?}"
    );
    // Still the schema's blocks to both GFM parsers (each panics on
    // emphasis, links, HTML, code spans or unexpected blocks).
    let comrak = support::parse(&markdown);
    let pulldown = support::parse_pulldown(&markdown);
    assert_eq!(
        comrak, pulldown,
        "{label}: the GFM parsers disagree\n{markdown}"
    );
    markdown
}

#[test]
fn datasets_round_trip() {
    for (name, json) in DATASETS {
        let value = from_slice(json).unwrap_or_else(|e| panic!("{name}: {e}"));
        check_default(name, &value);
        check_lossless(name, &value);
    }
}

/// The default rendering loses exactly what `normalize` says.
#[test]
fn normalize_applies_the_documented_reading() {
    let cases: &[(&str, &str)] = &[
        (
            r#"{"a": "42", "b": "true", "c": "", "d": null}"#,
            r#"{"a": 42, "b": true, "c": null, "d": null}"#,
        ),
        (
            r#"{"a": "x, y", "b": ["1"], "c": "[]", "d": " p , q", "e": " p ,q"}"#,
            r#"{"a": ["x", "y"], "b": 1, "c": [], "d": [" p", "q"], "e": " p ,q"}"#,
        ),
        (r#"{"s": {"x": 1}, "t": 2}"#, r#"{"t": 2, "s": {"x": 1}}"#),
        (
            r#"[{"a": 1}, {"b": "2", "a": null}]"#,
            r#"[{"a": 1, "b": null}, {"a": null, "b": 2}]"#,
        ),
        (r#"["x"]"#, r#""x""#),
        (r#"[1, "a, b"]"#, r#"[1, ["a", "b"]]"#),
        (r#""a\nb""#, r#""a\nb""#),
        (r#"[[], {}, [[]]]"#, r#"[[], {}, [[]]]"#),
        (
            r#"{"a":{"b":{"c":{"d":{"e":{"f":{"x": 1, "g": {"h": 1}}}}}}}}"#,
            r#"{"a":{"b":{"c":{"d":{"e":{"f":{"x": 1}, "g": {"h": 1}}}}}}}"#,
        ),
        (
            r#"{"a":{"b":{"c":{"d":{"e":{"f":{"g":{"h":1}, "k": {"m": 2}}}}}}}}"#,
            r#"{"a":{"b":{"c":{"d":{"e":{"f":{"g":{"h":1}, "k": {"m": 2}}}}}}}}"#,
        ),
    ];
    for (input, expected) in cases {
        let value = codec_core::from_str(input).unwrap();
        let expected = codec_core::from_str(expected).unwrap();
        assert_eq!(normalize(&value), expected, "{input}");
        check_default(input, &value);
        check_lossless(input, &value);
    }
}

/// Strings that try every trick, mixed with ordinary text and with what
/// the reading gives a meaning (numbers, bools, commas, quotes, markers).
fn hostile_string() -> impl Strategy<Value = String> {
    let atoms = prop_oneof![
        Just("|".to_owned()),
        Just("\\".to_owned()),
        Just("\\|".to_owned()),
        Just("`".to_owned()),
        Just("```".to_owned()),
        Just("- **x**: ".to_owned()),
        Just("<b>".to_owned()),
        Just("&amp;".to_owned()),
        Just("&#124;".to_owned()),
        Just("http://".to_owned()),
        Just("[x](y)".to_owned()),
        Just("](".to_owned()),
        Just("[".to_owned()),
        Just("]".to_owned()),
        Just("[]".to_owned()),
        Just("{}".to_owned()),
        Just("\"".to_owned()),
        Just("\n".to_owned()),
        Just("\r".to_owned()),
        Just("\t".to_owned()),
        Just("\0".to_owned()),
        Just(" ".to_owned()),
        Just("\u{a0}".to_owned()),
        Just("\u{202e}".to_owned()),
        Just("# ".to_owned()),
        Just("#".to_owned()),
        Just("1. ".to_owned()),
        Just("-".to_owned()),
        Just(", ".to_owned()),
        Just(",".to_owned()),
        Just("42".to_owned()),
        Just("-1.5e3".to_owned()),
        Just("true".to_owned()),
        Just("null".to_owned()),
        "[!-/:-@\\[-`{-~]{1,3}",
        "[a-z_*~]{1,4}",
        "[a-zA-Z0-9 ]{0,6}",
        any::<char>().prop_map(String::from),
    ];
    prop_oneof![
        1 => prop::collection::vec(atoms, 0..8).prop_map(|parts| parts.concat()),
        1 => prop_oneof![
            Just(String::new()),
            Just("42".to_owned()),
            Just("1.10".to_owned()),
            Just("false".to_owned()),
            Just("\"\"".to_owned()),
            Just("\"x\"".to_owned()),
            Just("-".to_owned()),
            Just("#".to_owned()),
            Just("[]".to_owned()),
            Just("[x]".to_owned()),
            Just("a, b".to_owned()),
        ],
    ]
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => "[a-z]{1,6}",
        1 => Just("code".to_owned()),
        1 => Just("lang".to_owned()),
        1 => Just("[0]".to_owned()),
        1 => Just(String::new()),
        2 => hostile_string(),
    ]
}

fn number() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        prop_oneof![
            Just("1e400"),
            Just("-0.0"),
            Just("-0"),
            Just("1.10"),
            Just("123456789012345678901234567890"),
            Just("1E+2"),
        ]
        .prop_map(|t| Value::Number(t.parse().unwrap())),
    ]
}

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        1 => Just(Value::Null),
        1 => any::<bool>().prop_map(Value::Bool),
        1 => number(),
        4 => hostile_string().prop_map(Value::String),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    scalar().prop_recursive(8, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((key(), inner), 0..6)
                .prop_map(|members| Value::Object(members.into_iter().collect::<Map>())),
            // Arrays of flat objects over a few shared keys: tables.
            prop::collection::vec(
                prop::collection::vec(
                    (
                        prop_oneof![Just("a".to_owned()), Just("b".to_owned()), key()],
                        scalar()
                    ),
                    1..4
                )
                .prop_map(|m| Value::Object(m.into_iter().collect::<Map>())),
                1..5
            )
            .prop_map(Value::Array),
        ]
    })
}

proptest! {
    // 256 cases keep CI fast; PROPTEST_CASES=100000 searches harder.
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(256)
    ))]

    #[test]
    fn random_values_round_trip_by_default(value in value()) {
        check_default("random", &value);
    }

    #[test]
    fn random_values_round_trip_losslessly(value in value()) {
        check_lossless("random", &value);
    }
}

/// Every default example of SPEC.md reads back as its normal form; every
/// lossless example renders as written and reads back exactly.
#[test]
fn spec_examples_read_back() {
    let fences = support::fences(include_str!("../../SPEC.md"));
    let mut lossless_examples = 0;
    for pair in fences.windows(2) {
        let [input, output] = pair else { continue };
        let line = input.line;
        let value = || {
            codec_core::from_str(&input.content)
                .unwrap_or_else(|e| panic!("SPEC.md line {line}: {e}"))
        };
        match (input.info.as_str(), output.info.as_str()) {
            ("json", "markdown") => {
                let value = value();
                let parsed =
                    parse(&output.content).unwrap_or_else(|e| panic!("SPEC.md line {line}: {e}"));
                assert_eq!(parsed, normalize(&value), "SPEC.md line {line}");
            }
            ("json lossless", "markdown lossless") => {
                let value = value();
                let markdown = check_lossless(&format!("SPEC.md line {line}"), &value);
                assert_eq!(markdown, output.content, "SPEC.md line {line}");
                lossless_examples += 1;
            }
            _ => {}
        }
    }
    assert!(lossless_examples >= 1);
}

/// The deepest values the renderer accepts come back, in both renderings
/// (below h6 the lossless headings count their depth in closing `#`s).
#[test]
fn deepest_values_round_trip() {
    for objects in [false, true] {
        let value = codec_core::testkit::nested(codec_core::value::DEFAULT_MAX_DEPTH, objects);
        check_default("deepest", &value);
        check_lossless("deepest", &value);
    }
}
