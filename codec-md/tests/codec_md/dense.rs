//! The dense profile read by two GFM parsers (comrak and pulldown-cmark):
//! every rendering, of the datasets and of random values with hostile
//! strings and keys, has exactly the blocks, header cells, cell texts, list
//! items and fence literals the profile's rules give its value, computed
//! independently of the renderer (`support/dense.rs`). Where the renderer chose a fenced
//! `json` block, the block's literal must be the subtree's exact JSON.

use crate::common;
use crate::support;

use codec_core::{Value, from_slice, from_str};
use proptest::prelude::*;

use common::dataset;
use support::dense::{check_dense, json_equal};
use support::{Block, parse, parse_pulldown};

#[test]
fn datasets_keep_their_structure() {
    for (name, json) in [
        ("github", dataset("github")),
        ("nested-config", dataset("nested-config")),
        ("keyed", dataset("keyed")),
        ("nested", dataset("nested")),
        ("event-logs", include_bytes!("../data/event-logs-40.json")),
    ] {
        let value = from_slice(json).unwrap_or_else(|e| panic!("{name}: {e}"));
        check_dense(&value);
    }
}

/// A string with more line breaks than a cell holds makes its array no
/// table, in whichever row it is: rows of scalars are taken without a
/// look at their strings' line breaks, which are counted as the table is
/// written, and the table is then taken back.
#[test]
fn too_many_breaks_in_a_row_of_scalars_make_no_table() {
    let fits = "line\n".repeat(8) + "end";
    let too_many = "line\n".repeat(9) + "end";
    for at in [0, 17, 39] {
        for (text, table) in [(&fits, true), (&too_many, false)] {
            let rows: Vec<String> = (0..40)
                .map(|i| {
                    let note = if i == at {
                        text.replace('\n', "\\n")
                    } else {
                        format!("note {i}")
                    };
                    format!(r#"{{"id": {i}, "name": "row{i}", "note": "{note}"}}"#)
                })
                .collect();
            let value = from_str(&format!(r#"{{"rows": [{}]}}"#, rows.join(","))).unwrap();
            let markdown = check_dense(&value);
            assert_eq!(
                markdown.contains("|-|"),
                table,
                "row {at}, table {table}:\n{markdown}"
            );
        }
    }
}

/// The dense examples of SPEC.md: each `json dense` input renders to
/// exactly the `markdown dense` output that follows it.
#[test]
fn spec_examples_render_as_written() {
    let fences = support::fences(include_str!("../../SPEC.md"));
    let mut checked = 0;
    for pair in fences.windows(2) {
        let [input, output] = pair else { continue };
        if input.info != "json dense" {
            continue;
        }
        assert_eq!(output.info, "markdown dense", "SPEC.md line {}", input.line);
        let rendered = check_dense(&from_str(&input.content).unwrap());
        assert_eq!(rendered, output.content, "SPEC.md line {}", input.line);
        checked += 1;
    }
    assert!(checked >= 3, "only {checked} dense examples");
}

#[test]
fn decided_cases_keep_their_structure() {
    let cases = [
        r#"[{"a": "x\ny"}, {"a": "z"}]"#,
        r#"[{"a": "1\n2\n3\n4\n5\n6\n7\n8\n9"}]"#,
        r#"[{"": 1, "a": 2}, {"": 3}]"#,
        r#"{"a": {"": 1}, "b": {"": 2}}"#,
        r#"[{"a": null, "b": 1}, {"a": "", "b": 2}]"#,
        r#"[{"a": {"b.c": 1, "d": {"e": [1, "x"]}}}]"#,
        r#"[{"a": [{"b": "`|\u0000\u202e"}], "c": {}}]"#,
        r#"[{"a": "[x]", "b": "`y`", "c": "[z"}]"#,
        r##"[{"a": "# h"}, {"a": "- i"}, {"a": "1. j"}, {"a": "> k"}, {"a": "    l"}]"##,
        r#"[{"a": ["x", null]}, {"a": [null]}, {"a": []}]"#,
        r#"{"x": {"a": 1}, "y": {"b": 2}, "z": {"a": 3, "b": 4}}"#,
        "[[1, 2], [3]]",
        r#"{"k": [{"a": 1}], "m": {"x": {"a": 1}, "y": {"a": 2}}}"#,
    ];
    for case in cases {
        check_dense(&from_str(case).unwrap());
    }
    // Very long strings are written whole.
    let long = "`a` _b_ | ***c*** <d> http://e.f \\".repeat(2_000);
    let row = Value::Object(
        [("s".to_owned(), Value::String(long))]
            .into_iter()
            .collect(),
    );
    check_dense(&Value::Array(vec![row.clone(), row]));
}

/// Strings that try every trick, mixed with ordinary text.
fn hostile_string() -> impl Strategy<Value = String> {
    let atoms = prop_oneof![
        Just("|".to_owned()),
        Just("\\".to_owned()),
        Just("\\|".to_owned()),
        Just("`".to_owned()),
        Just("```".to_owned()),
        Just("[".to_owned()),
        Just("]".to_owned()),
        Just(".".to_owned()),
        Just("- **x**: ".to_owned()),
        Just("<b>".to_owned()),
        Just("&amp;".to_owned()),
        Just("&#10;".to_owned()),
        Just("http://".to_owned()),
        Just("www.".to_owned()),
        Just("[x](y)".to_owned()),
        Just("\n".to_owned()),
        Just("\r".to_owned()),
        Just("\t".to_owned()),
        Just("\0".to_owned()),
        Just(" ".to_owned()),
        Just("\u{202e}".to_owned()),
        Just("# ".to_owned()),
        Just("1. ".to_owned()),
        Just("> ".to_owned()),
        Just("---".to_owned()),
        Just(", ".to_owned()),
        Just("]: ".to_owned()),
        Just("\\\"".to_owned()),
        "[!-/:-@\\[-`{-~]{1,3}",
        "[\x00-\x1f\x7f-\u{9f}]",
        "`{1,8}",
        "[a-z_*~]{1,4}",
        "[a-zA-Z0-9 ]{0,6}",
        any::<char>().prop_map(String::from),
    ];
    prop::collection::vec(atoms, 0..6).prop_map(|parts| parts.concat())
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[a-c]{1,2}",
        1 => Just("a.b".to_owned()),
        1 => Just(String::new()),
        2 => hostile_string(),
    ]
}

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        1 => Just(Value::Null),
        1 => any::<bool>().prop_map(Value::Bool),
        1 => any::<i64>().prop_map(Value::from),
        4 => hostile_string().prop_map(Value::String),
    ]
}

/// A row member: a scalar, a nested object (a dotted column), a scalar
/// list, or something that is a JSON cell.
fn member() -> impl Strategy<Value = Value> {
    let object = |inner| {
        prop::collection::vec((key(), inner), 0..3)
            .prop_map(|m| Value::Object(m.into_iter().collect()))
    };
    prop_oneof![
        4 => scalar(),
        1 => object(scalar().boxed()),
        1 => object(object(scalar().boxed()).boxed()),
        1 => prop::collection::vec(scalar(), 0..4).prop_map(Value::Array),
        1 => prop::collection::vec(object(scalar().boxed()), 0..3).prop_map(Value::Array),
    ]
}

fn row() -> impl Strategy<Value = Value> {
    prop::collection::vec((key(), member()), 1..4)
        .prop_map(|m| Value::Object(m.into_iter().collect()))
}

fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        2 => scalar(),
        3 => prop::collection::vec(row(), 1..5).prop_map(Value::Array),
        2 => prop::collection::vec((key(), row()), 1..5)
            .prop_map(|m| Value::Object(m.into_iter().collect())),
    ];
    leaf.prop_recursive(3, 32, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((key(), inner), 0..4)
                .prop_map(|members| Value::Object(members.into_iter().collect())),
        ]
    })
}

/// Renders `value` densely and checks it (`check_dense`); when the
/// document is JSON, also that both parsers read exactly one fenced `json`
/// block whose literal is the exact JSON of `value` (same members in the
/// same order, same number texts): a code block holds no inline markdown,
/// so no link, image or HTML comes from the data. Returns whether the
/// document was JSON.
#[track_caller]
fn check_json_document(value: &Value) -> bool {
    let markdown = check_dense(value);
    if !markdown.starts_with("```") {
        return false;
    }
    for (parser, parsed) in [
        ("comrak", parse(&markdown)),
        ("pulldown-cmark", parse_pulldown(&markdown)),
    ] {
        match parsed.as_slice() {
            [Block::Code { info, literal }] if info == "json" => assert!(
                json_equal(literal, value),
                "{parser} reads {literal}\nfrom {markdown}for {value:?}"
            ),
            other => panic!("{parser} reads {other:?}\nfrom {markdown}"),
        }
    }
    let back = codec_md::parse_dense(&markdown).unwrap_or_else(|e| panic!("{e}\n{markdown}"));
    assert!(
        back == *value && format!("{back:?}") == format!("{value:?}"),
        "{markdown}reads back as {back:?}"
    );
    true
}

/// The value of issue 40's examples: strings beside a small nested
/// object, which the dense profile writes as JSON.
fn beside_nested(a: &str, b: &str) -> Value {
    let mut map = codec_core::Map::new();
    map.insert("a".to_owned(), Value::String(a.to_owned()));
    map.insert("b".to_owned(), Value::String(b.to_owned()));
    map.insert(
        "c".to_owned(),
        from_str(r#"{"d": {"e": [1, {"f": 2}]}}"#).unwrap(),
    );
    Value::Object(map)
}

/// Issue 40: the JSON was a paragraph, where cmark-gfm made a link of
/// `http://google.com` + `@evil.com/x` (host `evil.com`) and a mailto of
/// the `n` of `\n` + `evil@attacker.com`; and its markdown escapes
/// (`\*\*bold\*\*`) made it no JSON. A fence reads back exactly.
#[test]
fn json_documents_are_exact_json() {
    let cases = [
        beside_nested("see http://google.com", "@evil.com/x"),
        beside_nested("x\nevil@attacker.com", ""),
        beside_nested("**bold** _x_ ~y~", "println!(\"hi\")"),
        beside_nested(
            "[x](https://evil.example) <b>hi</b> <http://a.b>",
            "![i](j)",
        ),
        beside_nested("&amp; &#10; &#x41; &nbsp; AT&T", "C:\\dir\\ \\*"),
        beside_nested("`code` | pipe", "\u{0}\u{202e}\t\r\n"),
        beside_nested("www.example.com/a*b*", "a_b@example.com"),
        beside_nested("[[a]](https://evil.example)", "U[[]]()"),
    ];
    // The issue's two are JSON; the others are checked as whichever
    // they are.
    for (i, case) in cases.iter().enumerate() {
        assert!(check_json_document(case) || i > 1, "not JSON: {case:?}");
    }
    // Backtick runs in the JSON: the fence is longer.
    let ticks = from_str(r#"{"a": {"b": {"c": {"d": [1, {"e": "````", "f": 2}]}}}}"#).unwrap();
    assert!(check_json_document(&ticks));
    assert!(check_dense(&ticks).starts_with("`````json\n"));
    let config =
        from_str(r##"{"# h": "- item", "1. x": "> q", "---": "===", "n": {"m": {"k": [1]}}}"##)
            .unwrap();
    check_json_document(&config);
    let array = from_str(r#"[{"a": "x]: /url"}, [2, [3, {"b": "[y](z)"}]], "x]: /url"]"#).unwrap();
    check_json_document(&array);
}

proptest! {
    // 256 cases keep CI fast; PROPTEST_CASES=100000 searches harder.
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(256)
    ))]

    #[test]
    fn random_values_keep_their_structure(value in value()) {
        check_dense(&value);
    }

    /// Hostile strings (the default profile's classes) and keys beside a
    /// small nested object, the issue's shape: the document is JSON, read
    /// back exactly by both parsers, or markdown that the model checks.
    #[test]
    fn hostile_strings_in_json_documents(
        a in support::hostile_string(),
        b in support::hostile_string(),
        key in support::key(),
    ) {
        let mut value = beside_nested(&a, &b);
        if let Value::Object(map) = &mut value {
            map.insert(key, Value::String(a.clone()));
        }
        check_json_document(&value);
    }

    /// No string adds a link (issue 17: nested brackets did; issue 40: the
    /// JSON paragraph did), in a JSON document or in a cell of a table.
    #[test]
    fn strings_add_no_link(s in support::link_string()) {
        check_json_document(&beside_nested(&s, &s));
        let rows = (0..8)
            .map(|i| Value::Object([("n".to_owned(), Value::from(i)), ("c".to_owned(), Value::String(s.clone()))].into_iter().collect()))
            .collect();
        check_dense(&Value::Array(rows));
    }

    /// Tables of many rows, where markdown wins: every rule's cells.
    #[test]
    fn random_tables_keep_their_structure(
        rows in prop::collection::vec(row(), 6..12),
        keyed in any::<bool>(),
    ) {
        let value = if keyed {
            Value::Object(rows.into_iter().enumerate().map(|(i, r)| (format!("k{i}"), r)).collect())
        } else {
            Value::Array(rows)
        };
        check_dense(&value);
    }
}
