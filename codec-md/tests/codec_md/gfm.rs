//! Our output read by a real GFM parser (comrak, a port of GitHub's
//! cmark-gfm): the shared escape vectors, the benchmark datasets and random
//! values with hostile strings all come back with exactly the structure and
//! text the schema promises.

use crate::support;

use codec_core::{CodecExt, Map, Value, from_slice, from_str};
use codec_md::{MarkdownCodec, Profile};
use proptest::prelude::*;

use support::{Block, Item, check_structure, key, parse, scalar, value};

fn object(members: Vec<(&str, Value)>) -> Value {
    Value::Object(members.into_iter().collect::<Map>())
}

/// Each vector rendered in its context through the public API: the
/// structure is checked whole, and the vector's element must come back
/// with exactly its expected text.
#[track_caller]
fn check_vectors(json: &[u8]) -> usize {
    let data = from_slice(json).unwrap();
    let vectors = data["vectors"].as_array().unwrap();
    for vector in vectors {
        let context = vector["context"].as_str().unwrap();
        let input = vector["input"].as_str().unwrap();
        let expected = vector["expected_text"].as_str().unwrap();
        let label = format!("{context} {input:?}");
        // Our oracle's reading of a string agrees with the vector's.
        assert_eq!(support::text(&vector["input"]), expected, "{label}");

        let value = in_context(context, input);
        let markdown = check_structure(&value);
        let blocks = parse(&markdown);
        let found = match (context, &blocks[..]) {
            ("cell", [Block::Table { rows, .. }]) => rows[0][0].clone(),
            ("value", [Block::List(items)]) => match &items[0].1 {
                Item::Text(text) => text.clone(),
                Item::Code { literal, .. } => literal.clone(),
            },
            ("key", [Block::List(items)]) => items[0].0.clone(),
            ("heading", [Block::Heading { text, .. }, ..]) => text.clone(),
            // A multi-line cell makes the array a list of sections.
            ("cell", [Block::Heading { .. }, Block::List(items)]) => match &items[0].1 {
                Item::Text(text) => text.clone(),
                Item::Code { literal, .. } => literal.clone(),
            },
            _ => panic!("{label}: unexpected layout\n{markdown}"),
        };
        assert_eq!(found, expected, "{label}\n{markdown}");
    }
    vectors.len()
}

/// A value that puts `input` in `context`: a table cell, the value after
/// a key, a key, or a heading.
fn in_context(context: &str, input: &str) -> Value {
    match context {
        "cell" => Value::Array(vec![object(vec![("c", input.into())])]),
        "value" => object(vec![("k", input.into())]),
        "key" => object(vec![(input, "v".into())]),
        "heading" => object(vec![(input, object(vec![("a", 1.into())]))]),
        other => panic!("unknown context {other}"),
    }
}

#[test]
fn escape_vectors_pass() {
    assert!(check_vectors(include_bytes!("../data/escape-vectors.json")) >= 60);
}

/// Link injection through nested brackets (issue 17): a `]` run before
/// `(` closes a link whose text holds brackets.
#[test]
fn nested_bracket_vectors_pass() {
    assert!(check_vectors(include_bytes!("../data/nested-brackets.json")) >= 10);
}

/// The issue's value in the lossless rendering, read by both parsers:
/// their walks accept text and autolinks only, so a link fails them.
#[test]
fn nested_brackets_add_no_link_to_the_lossless_rendering() {
    let value = from_str(
        r#"{"k": "[[a]](https://evil.example)", "t": [{"c": "[a[b]](url)"}, {"c": "x"}], "u": "U[[]]()"}"#,
    )
    .unwrap();
    let codec = MarkdownCodec::builder().profile(Profile::Lossless).build();
    let markdown = String::from_utf8(codec.to_vec(&value).unwrap()).unwrap();
    let comrak = parse(&markdown);
    assert_eq!(comrak, support::parse_pulldown(&markdown), "{markdown}");
    assert!(
        comrak.contains(&Block::List(vec![
            // Quoted: a leading `[` is a lossless marker.
            (
                "k".into(),
                Item::Text("\"[[a]](https://evil.example)\"".into())
            ),
            ("t".into(), Item::Text("#".into())),
            ("u".into(), Item::Text("U[[]]()".into())),
        ])),
        "{markdown}"
    );
}

/// The fenced-code vectors, in a list item through the public API (the
/// top-level placement is a unit test of the fence writer).
#[test]
fn code_block_vectors_pass() {
    let data = from_slice(include_bytes!("../data/escape-vectors.json")).unwrap();
    let vectors = data["code_blocks"]["vectors"].as_array().unwrap();
    assert!(vectors.len() >= 10);
    for vector in vectors {
        let input = vector["input"].as_str().unwrap();
        let expected = vector["expected_literal"].as_str().unwrap();
        let markdown = check_structure(&object(vec![("code", input.into())]));
        let [Block::List(items)] = &parse(&markdown)[..] else {
            panic!("{input:?}: not one list\n{markdown}")
        };
        let Item::Code { literal, .. } = &items[0].1 else {
            panic!("{input:?}: not fenced\n{markdown}")
        };
        assert_eq!(format!("{literal}\n"), expected, "{input:?}\n{markdown}");
        if input.contains('\n') {
            let markdown = check_structure(&Value::String(input.into()));
            let [Block::Code { literal, .. }] = &parse(&markdown)[..] else {
                panic!("{input:?}: not fenced at the top level\n{markdown}")
            };
            assert_eq!(format!("{literal}\n"), expected, "{input:?}\n{markdown}");
        }
    }
}

#[test]
fn datasets_keep_their_structure() {
    for (name, json) in [
        ("github", &include_bytes!("../data/github.json")[..]),
        (
            "nested-config",
            include_bytes!("../data/nested-config.json"),
        ),
        (
            "event-logs-40",
            include_bytes!("../data/event-logs-40.json"),
        ),
    ] {
        let value = from_slice(json).unwrap_or_else(|e| panic!("{name}: {e}"));
        let markdown = check_structure(&value);
        assert!(
            markdown.len() < json.len(),
            "{name}: markdown longer than JSON"
        );
    }
}

/// The GitHub dataset is one table of 100 rows under its key.
#[test]
fn github_dataset_is_a_table() {
    let value = from_slice(include_bytes!("../data/github.json")).unwrap();
    let markdown = check_structure(&value);
    let blocks = parse(&markdown);
    let [Block::Heading { text, .. }, Block::Table { rows, .. }] = &blocks[..] else {
        panic!("unexpected layout:\n{markdown}")
    };
    assert_eq!(text, "repositories");
    assert_eq!(rows.len(), 100);
}

#[test]
fn decided_cases_keep_their_structure() {
    let cases = [
        r#"{"": "", "a": {"": []}}"#,
        r#"[[], {}, [[]], [{}], [{"a": 1}], 1, "x", null]"#,
        r#"[{"a": "x\ny"}, {"a": "z"}]"#,
        r#"[{}, {}]"#,
        r#"[{"": 1}]"#,
        r#"[{"": 1, " ": 2}, {"": ""}]"#,
        r#"[{"a": 1}, {"b": 2}, {"c": 3}]"#,
        r#"{"a": {"b": {"c": {"d": {"e": {"f": {"g": {"h": 1}}}}}}}}"#,
        r#"{"stdout": "", "code": "\u0000", "diff": "a\r\nb", "lang": "not valid!"}"#,
        r#"["a\r\nb", "c\u0000d", "e\nf"]"#,
        r#"[null, ""]"#,
        r#"{"a": ["x", " "], "b": ["x", ""]}"#,
        r#"[""]"#,
        r#""""#,
        "null",
        "-0.0",
        r#""\u0000""#,
        r#""1) x""#,
        r#""````- **x**: ```""#,
        r#""    indented""#,
    ];
    for case in cases {
        check_structure(&from_str(case).unwrap());
    }
    // Very long strings are written whole.
    let long = "`a` _b_ | ***c*** <d> http://e.f \\".repeat(5_000);
    for value in [
        Value::Array(vec![object(vec![("s", long.as_str().into())])]),
        object(vec![("s", long.as_str().into())]),
        object(vec![("code", long.replace(' ', "\n").into())]),
    ] {
        check_structure(&value);
    }
}

proptest! {
    // 256 cases keep CI fast; PROPTEST_CASES=100000 searches harder.
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(256)
    ))]

    #[test]
    fn random_values_keep_their_structure(value in value()) {
        check_structure(&value);
    }

    /// No string adds a link (issue 17: nested brackets did), in a value,
    /// a cell, a key or a heading: both parsers read exactly the schema's
    /// blocks and text, and accept no link but a bare URL's autolink
    /// (pulldown-cmark, which has none, accepts no link at all). The
    /// lossless rendering too.
    #[test]
    fn strings_add_no_link(s in support::link_string()) {
        for context in ["value", "cell", "key", "heading"] {
            check_structure(&in_context(context, &s));
        }
        let lossless = MarkdownCodec::builder().profile(Profile::Lossless).build();
        for context in ["value", "cell"] {
            let markdown = String::from_utf8(lossless.to_vec(&in_context(context, &s)).unwrap()).unwrap();
            parse(&markdown);
            support::parse_pulldown(&markdown);
        }
    }

    #[test]
    fn random_tables_round_trip(
        columns in prop::collection::vec(key(), 1..5),
        rows in prop::collection::vec(prop::collection::vec(scalar(), 4), 1..6),
    ) {
        let items: Vec<Value> = rows
            .iter()
            .map(|row| Value::Object(columns.iter().cloned().zip(row.iter().cloned()).collect()))
            .collect();
        let value = Value::Array(items.clone());
        let markdown = check_structure(&value);
        if let Some(Block::Table { .. }) = support::expected(&value).first() {
            let table = codec_md::parse_table(&markdown).unwrap();
            let mut keys: Vec<&String> = Vec::new();
            for column in &columns {
                if !keys.contains(&column) {
                    keys.push(column);
                }
            }
            prop_assert_eq!(&table.columns, &keys.iter().map(|k| k.to_string()).collect::<Vec<_>>());
            for (row, item) in table.rows.iter().zip(&items) {
                for (cell, key) in row.iter().zip(&keys) {
                    let exact = match &item[key.as_str()] {
                        Value::String(s) => s.clone(),
                        other => support::text(other),
                    };
                    prop_assert_eq!(cell, &exact);
                }
            }
        }
    }
}
