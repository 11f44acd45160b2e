//! Rows as they come (`SPEC.md`, *Streaming*): the examples of SPEC.md,
//! the datasets, and random rows with hostile strings, read back by comrak
//! and pulldown-cmark as the blocks the rule gives, and by `parse` and
//! `parse_lossless` as the rule says; uniform rows as the buffered
//! rendering, byte for byte.

use crate::common;
use crate::support;

use std::sync::Arc;

use codec_core::testkit::{CodecTester, uniform_rows};
use codec_core::{
    Codec, Map, Value, from_slice, from_str,
    rows::{RowWriter, RowsShape},
};
use codec_md::{MarkdownCodec, Profile};
use proptest::prelude::*;

use support::{Block, expected, key, parse, parse_pulldown, scalar, text, value};

/// `rows` streamed by `codec` as `shape`, the buffer sent and emptied
/// after every row, as a server does.
fn stream(codec: &MarkdownCodec, shape: &RowsShape, rows: &[Value]) -> String {
    let codec: Arc<dyn Codec> = Arc::new(codec.clone());
    let mut writer = RowWriter::new(codec, shape);
    assert!(writer.is_streaming());
    let mut sent = Vec::new();
    for row in rows {
        let mut out = Vec::new();
        writer.row(row, &mut out).unwrap();
        sent.extend_from_slice(&out);
    }
    let mut out = Vec::new();
    writer.finish(&mut out).unwrap();
    sent.extend_from_slice(&out);
    String::from_utf8(sent).unwrap()
}

fn lossless() -> MarkdownCodec {
    MarkdownCodec::builder().profile(Profile::Lossless).build()
}

/// The members of a row that can be a table row.
fn flat(row: &Value) -> Option<&Map> {
    let map = row.as_object()?;
    let flat = !map.is_empty()
        && map
            .values()
            .all(|v| v.is_scalar() && !v.as_str().is_some_and(|s| s.contains('\n')));
    flat.then_some(map)
}

/// Where each row goes by the rule: the columns of its table, or `None`
/// for a section. In the lossless layout a row fits a table only with
/// its keys in the columns' order.
fn placements(shape: &RowsShape, rows: &[Value], ordered: bool) -> Vec<Option<Vec<String>>> {
    let mut open: Option<Vec<String>> = None;
    rows.iter()
        .map(|row| {
            let Some(map) = flat(row) else {
                open = None;
                return None;
            };
            let fits = open.as_ref().is_some_and(|columns| {
                let mut rest = columns.iter();
                map.keys().all(|key| match ordered {
                    true => rest.any(|c| c == key),
                    false => columns.iter().any(|c| c == key),
                })
            });
            if !fits {
                let mut columns: Vec<String> = shape
                    .declared_columns()
                    .map(<[String]>::to_vec)
                    .unwrap_or_default();
                for key in map.keys() {
                    if !columns.iter().any(|c| c == key) {
                        columns.push(key.to_owned());
                    }
                }
                open = Some(columns);
            }
            open.clone()
        })
        .collect()
}

/// The blocks comrak reads from the default streamed rendering, computed
/// from the rule, not from the renderer.
fn stream_blocks(shape: &RowsShape, rows: &[Value]) -> Vec<Block> {
    if rows.is_empty() {
        return expected(&shape.document(Vec::new()));
    }
    let level = 1 + u8::from(shape.member_key().is_some());
    let mut blocks = Vec::new();
    if let Some(key) = shape.member_key() {
        blocks.push(Block::Heading {
            level: 1,
            text: key.replace('\0', "\u{fffd}"),
        });
    }
    let mut last: Option<&Vec<String>> = None;
    let placed = placements(shape, rows, false);
    for (i, (row, columns)) in rows.iter().zip(&placed).enumerate() {
        match columns {
            Some(columns) => {
                let cells: Vec<String> = columns
                    .iter()
                    .map(|c| row.get(c).map(text).unwrap_or_default())
                    .collect();
                if last != Some(columns) {
                    if i > 0 {
                        blocks.push(Block::Heading {
                            level: level.min(6),
                            text: format!("[{i}..]"),
                        });
                    }
                    blocks.push(Block::Table {
                        columns: columns
                            .iter()
                            .map(|c| c.replace('\0', "\u{fffd}"))
                            .collect(),
                        rows: Vec::new(),
                    });
                }
                if let Some(Block::Table { rows, .. }) = blocks.last_mut() {
                    rows.push(cells);
                }
                last = Some(columns);
            }
            None => {
                last = None;
                blocks.push(Block::Heading {
                    level: level.min(6),
                    text: format!("[{i}]"),
                });
                blocks.extend(expected(row).into_iter().map(|block| match block {
                    Block::Heading { level: l, text } => Block::Heading {
                        level: (l + level).min(6),
                        text,
                    },
                    other => other,
                }));
            }
        }
    }
    blocks
}

/// What `parse` reads from the default streamed rendering: each table row
/// as its table reads it (every column, a missing one null), each other
/// row as a document of it reads.
fn stream_reading(shape: &RowsShape, rows: &[Value]) -> Value {
    let placed = placements(shape, rows, false);
    let read = rows
        .iter()
        .zip(&placed)
        .map(|(row, columns)| match columns {
            Some(columns) => {
                let full: Map = columns
                    .iter()
                    .map(|c| (c.clone(), row.get(c).cloned().unwrap_or_default()))
                    .collect();
                let table = codec_md::normalize(&Value::Array(vec![Value::Object(full)]));
                table.as_array().unwrap()[0].clone()
            }
            None => codec_md::normalize(row),
        })
        .collect();
    shape.document(read)
}

/// Streams `rows` in the default and lossless layouts and checks
/// everything the rule promises. Returns the default rendering.
#[track_caller]
fn check(shape: &RowsShape, rows: &[Value]) -> String {
    let markdown = stream(&MarkdownCodec::new(), shape, rows);
    let blocks = stream_blocks(shape, rows);
    for (parser, parsed) in [
        ("comrak", parse(&markdown)),
        ("pulldown-cmark", parse_pulldown(&markdown)),
    ] {
        assert!(
            parsed == blocks,
            "{parser} reads other blocks\n--- markdown\n{markdown}\n--- parsed\n{parsed:#?}\n--- rule\n{blocks:#?}"
        );
    }
    let read = codec_md::parse(&markdown).unwrap_or_else(|e| panic!("{e}\n{markdown}"));
    assert_eq!(read, stream_reading(shape, rows), "parse\n{markdown}");

    let exact = stream(&lossless(), shape, rows);
    parse(&exact);
    parse_pulldown(&exact);
    let read = codec_md::parse_lossless(&exact).unwrap_or_else(|e| panic!("{e}\n{exact}"));
    assert_eq!(
        read,
        shape.document(rows.to_vec()),
        "parse_lossless\n{exact}"
    );

    if uniform_rows(rows) && shape.declared_columns().is_none() {
        let document = shape.document(rows.to_vec());
        assert_eq!(markdown, codec_md::render(&document).unwrap());
        let buffered = String::from_utf8(lossless().to_vec_value(&document)).unwrap();
        assert_eq!(exact, buffered);
    }
    // Twice the same, and through the test kit's every entry point.
    assert_eq!(markdown, stream(&MarkdownCodec::new(), shape, rows));
    for codec in [MarkdownCodec::new(), lossless()] {
        CodecTester::new(&codec).check_rows("rows", shape, rows);
    }
    markdown
}

trait ToVecValue {
    fn to_vec_value(&self, value: &Value) -> Vec<u8>;
}

impl ToVecValue for MarkdownCodec {
    fn to_vec_value(&self, value: &Value) -> Vec<u8> {
        let mut out = Vec::new();
        self.encode_value(value, &mut out).unwrap();
        out
    }
}

/// The document of a SPEC.md example: its rows and shape. `{"key":
/// [...]}` is a member's rows, an array the document's.
fn example(json: &str, info: &str) -> (RowsShape, Vec<Value>) {
    let value = from_str(json).unwrap();
    let (shape, rows) = match &value {
        Value::Object(map) => {
            let (key, rows) = map.iter().next().unwrap();
            (RowsShape::member(key), rows)
        }
        rows => (RowsShape::array(), rows),
    };
    let shape = match info.strip_prefix("json stream columns=") {
        Some(columns) => shape.columns(columns.split(',')),
        None => shape,
    };
    (shape, rows.as_array().unwrap().to_vec())
}

/// Every `json stream` example of SPEC.md streams to the `markdown
/// stream` block after it, and keeps every promise of the rule.
#[test]
fn spec_examples_stream_as_written() {
    use comrak::nodes::NodeValue;

    let spec = include_str!("../../SPEC.md");
    let arena = comrak::Arena::new();
    let root = comrak::parse_document(&arena, spec, &comrak::Options::default());
    let fences: Vec<(String, String)> = root
        .descendants()
        .filter_map(|node| match &node.data().value {
            NodeValue::CodeBlock(code) => Some((code.info.clone(), code.literal.clone())),
            _ => None,
        })
        .collect();
    let mut checked = 0;
    for pair in fences.windows(2) {
        let [(info, input), (output_info, output)] = pair else {
            continue;
        };
        if !info.starts_with("json stream") {
            continue;
        }
        assert_eq!(output_info, "markdown stream", "{input}");
        let (shape, rows) = example(input, info);
        let streamed = check(&shape, &rows);
        assert_eq!(&streamed, output, "{input}");
        checked += 1;
    }
    assert!(checked >= 4, "only {checked} streaming examples");
}

/// The datasets' rows: the flat ones stream to their buffered tables,
/// the nested ones by the rule.
#[test]
fn datasets_stream() {
    for (name, json) in common::DATASETS {
        let value = from_slice(json).unwrap();
        let (shape, rows) = match &value {
            Value::Object(map) if map.len() == 1 => {
                let (key, rows) = map.iter().next().unwrap();
                match rows.as_array() {
                    Some(rows) => (RowsShape::member(key), rows.to_vec()),
                    None => continue,
                }
            }
            Value::Array(rows) => (RowsShape::array(), rows.clone()),
            _ => continue,
        };
        let markdown = check(&shape, &rows);
        if matches!(name, "tabular" | "analytics" | "github") {
            assert_eq!(markdown, codec_md::render(&value).unwrap(), "{name}");
        }
    }
}

#[test]
fn decided_cases() {
    let cases: &[(&str, RowsShape)] = &[
        // New keys, then the first columns again: they fit the new table.
        (
            r#"[{"a": 1}, {"a": 2, "b": 3}, {"a": 4}]"#,
            RowsShape::array(),
        ),
        // Subsets in any order fit (the lossless layout starts anew).
        (
            r#"[{"a": 1, "b": 2}, {"b": 3}, {"b": 4, "a": 5}]"#,
            RowsShape::array(),
        ),
        // Declared columns, a row with another key, rows in the first.
        (
            r#"[{"b": 1}, {"c": 2}, {"a": 3}]"#,
            RowsShape::array().columns(["a", "b"]),
        ),
        // Rows that are not flat objects, first and between tables.
        (
            r#"[[1, 2], {"a": 1}, "x\ny", null, "", {}, [], 3, {"a": {"b": 1}}, {"a": 2}]"#,
            RowsShape::member("rows"),
        ),
        // A row that is itself a table.
        (r#"[[{"a": 1}], [{"a": 2}]]"#, RowsShape::array()),
        // Keys and strings that look like the rule's own markup.
        (
            r##"[{"[1..]": "[2]", "|": "- **x**: y"}, {"[1]": "# [3..]"}]"##,
            RowsShape::member("[0..]"),
        ),
        (r#"[]"#, RowsShape::array()),
        (r#"[]"#, RowsShape::member("rows").columns(["a"])),
    ];
    for (json, shape) in cases {
        let rows = from_str(json).unwrap().as_array().unwrap().to_vec();
        check(shape, &rows);
    }
}

/// Rows that do not parse back: the note of a failed stream.
#[test]
fn a_failed_stream_ends_with_a_note() {
    let codec: Arc<dyn Codec> = Arc::new(MarkdownCodec::new());
    let mut writer = RowWriter::new(codec, &RowsShape::array());
    let mut out = Vec::new();
    for id in 1..=2 {
        writer
            .row(&from_str(&format!(r#"{{"id": {id}}}"#)).unwrap(), &mut out)
            .unwrap();
    }
    writer.fail(&mut out, "the database went *away* | [x](y)");
    let markdown = String::from_utf8(out).unwrap();
    assert_eq!(
        markdown,
        "|id|\n|---|\n|1|\n|2|\n\nStream failed after 2 rows: the database went \\*away\\* | \\[x](y)\n"
    );
    assert_eq!(
        parse(&markdown),
        [
            Block::Table {
                columns: vec!["id".into()],
                rows: vec![vec!["1".into()], vec!["2".into()]]
            },
            Block::Paragraph(
                "Stream failed after 2 rows: the database went *away* | [x](y)".into()
            ),
        ]
    );
    assert!(codec_md::parse(&markdown).is_err());
}

/// The dense profile weighs the whole document; with a budget, the note
/// counts every row left out: their rows are collected.
#[test]
fn dense_and_budgets_collect() {
    for codec in [
        MarkdownCodec::builder().profile(Profile::Dense).build(),
        MarkdownCodec::builder()
            .budget(Some(codec_core::TextLimit::chars(100)))
            .build(),
    ] {
        let rows = from_str(r#"[{"a": 1}, {"b": [2]}]"#).unwrap();
        let rows = rows.as_array().unwrap();
        let shared: Arc<dyn Codec> = Arc::new(codec.clone());
        assert!(!RowWriter::new(shared, &RowsShape::array()).is_streaming());
        CodecTester::new(&codec).check_rows("collected", &RowsShape::member("m"), rows);
    }
}

/// Rows over a few keys, so that tables go on and new ones start; now
/// and then another value.
fn row() -> impl Strategy<Value = Value> {
    let small_key = prop_oneof![4 => "[a-c]", 1 => key()];
    prop_oneof![
        6 => prop::collection::vec((small_key, scalar()), 1..4)
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        1 => value(),
    ]
}

fn shape() -> impl Strategy<Value = RowsShape> {
    (
        prop::option::of(key()),
        prop::option::of(prop::collection::vec("[a-d]", 1..4)),
    )
        .prop_map(|(member, columns)| {
            let shape = member.map_or(RowsShape::array(), RowsShape::member);
            match columns {
                Some(columns) => shape.columns(columns),
                None => shape,
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(128)
    ))]

    #[test]
    fn random_rows_keep_the_rule(shape in shape(), rows in prop::collection::vec(row(), 0..8)) {
        check(&shape, &rows);
    }

    /// Uniform rows: the buffered rendering, byte for byte, in both
    /// layouts.
    #[test]
    fn uniform_rows_stream_to_the_buffered_bytes(
        columns in prop::collection::vec(key(), 1..4),
        rows in prop::collection::vec(prop::collection::vec(scalar(), 3), 0..6),
        member in prop::option::of(key()),
    ) {
        let mut keys: Vec<String> = Vec::new();
        for column in columns {
            if !keys.contains(&column) {
                keys.push(column);
            }
        }
        let rows: Vec<Value> = rows
            .into_iter()
            .map(|cells| {
                let cells = cells.into_iter().map(|cell| match cell {
                    Value::String(s) => Value::String(s.replace('\n', " ")),
                    other => other,
                });
                Value::Object(keys.iter().cloned().zip(cells).collect())
            })
            .collect();
        prop_assume!(uniform_rows(&rows));
        let shape = member.map_or(RowsShape::array(), RowsShape::member);
        let document = shape.document(rows.clone());
        for codec in [MarkdownCodec::new(), lossless()] {
            prop_assert_eq!(
                stream(&codec, &shape, &rows),
                String::from_utf8(codec.to_vec_value(&document)).unwrap()
            );
        }
    }
}
