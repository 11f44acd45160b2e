//! The dense profile read by two GFM parsers (comrak and pulldown-cmark):
//! every rendering, of the datasets and of random values with hostile
//! strings and keys, has exactly the blocks, header cells, cell texts, list
//! items and fence literals the profile's rules give its value, computed
//! independently of the renderer (`support/dense.rs`). Where the renderer chose a fenced
//! `json` block, the block's literal must be the subtree's exact JSON; where
//! it wrote the document as a JSON paragraph, the paragraph's text (as the
//! parser decodes it) must be the document's exact JSON.

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
                markdown.contains("|---|"),
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

/// The document's JSON paragraph, forced on `value` whatever it costs:
/// both parsers read one paragraph whose text is the exact JSON (no
/// emphasis, link, HTML or code span: the walk accepts text and autolinks
/// only), and `parse_dense` gives back exactly `value`. An array whose
/// first `[` would need a backslash (its JSON holds `](` or `]:`) has no
/// paragraph: it keeps its fence.
#[track_caller]
fn check_json_paragraph(value: &Value) {
    support::allow_code_spans(false);
    let Some(markdown) = codec_md::dense_json_paragraph(value) else {
        assert!(
            matches!(value, Value::Array(_))
                && ["]:", "]("]
                    .iter()
                    .any(|s| format!("{value:?}").contains(s)),
            "no paragraph for {value:?}"
        );
        return;
    };
    assert!(markdown.ends_with('\n') && !markdown[..markdown.len() - 1].contains('\n'));
    for (parser, parsed) in [
        ("comrak", parse(&markdown)),
        ("pulldown-cmark", parse_pulldown(&markdown)),
    ] {
        match parsed.as_slice() {
            [Block::Paragraph(text)] => assert!(
                json_equal(text, value),
                "{parser} reads {text}\nfrom {markdown}for {value:?}"
            ),
            other => panic!("{parser} reads {other:?}\nfrom {markdown}"),
        }
    }
    let back = codec_md::parse_dense(&markdown).unwrap_or_else(|e| panic!("{e}\n{markdown}"));
    assert!(
        back == *value && format!("{back:?}") == format!("{value:?}"),
        "{markdown}reads back as {back:?}"
    );
}

#[test]
fn json_paragraphs_keep_their_structure() {
    let cases = [
        r#"{"a": "*x* _y_ ~z~ **w**"}"#,
        r#"{"a": "[x](https://evil.example) <b>hi</b> <http://a.b>"}"#,
        r#"{"a": "&amp; &#10; &#x41; &nbsp;", "b": "AT&T"}"#,
        r#"{"a": "C:\\dir\\", "b": "\"quoted\"", "c": "\\*"}"#,
        r#"{"u": "https://a.example/x_y", "v": "*a* http://b.example www.c.example"}"#,
        r#"{"a": "`code` | pipe", "b": "\u0000\u202e\t\r\n"}"#,
        r##"{"# h": "- item", "1. x": "> q", "---": "==="}"##,
        r##"["# h", "- i", {"a": "[x]: /url"}]"##,
        r#"["x]: /url"]"#,
        r#"[{"a": 1}, [2, [3]], "[y](z)"]"#,
        r#"{"mail": "a_b@example.com", "w": "www.example.com/a*b*"}"#,
        // Nested brackets (issue 17): a `]` run before `(` closes a link.
        r#"{"k": "[[a]](https://evil.example)", "t": [{"c": "[a[b]](url)"}], "u": "U[[]]()"}"#,
    ];
    for case in cases {
        check_json_paragraph(&from_str(case).unwrap());
    }
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

    /// Any container, hostile strings and keys inside, forced into the
    /// document's JSON paragraph (the renderer takes it only where its
    /// escapes are cheap).
    #[test]
    fn random_json_paragraphs_keep_their_structure(value in value()) {
        let value = match value {
            Value::Array(_) | Value::Object(_) => value,
            scalar => Value::Object([("k".to_owned(), scalar)].into_iter().collect()),
        };
        check_json_paragraph(&value);
    }

    /// No string adds a link (issue 17: nested brackets did), in the
    /// document's JSON paragraph or in a cell of a table.
    #[test]
    fn strings_add_no_link(s in support::link_string()) {
        check_json_paragraph(&Value::Object([("k".to_owned(), Value::String(s.clone()))].into_iter().collect()));
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
