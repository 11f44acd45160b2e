//! The dense profile read by two GFM parsers (comrak and pulldown-cmark):
//! every rendering, of the datasets and of random values with hostile
//! strings and keys, has exactly the blocks, header cells, cell texts, list
//! items and fence literals the profile's rules give its value, computed
//! here independently of the renderer. Where the renderer chose a fenced
//! `json` block, the block's literal must be the subtree's exact JSON; where
//! it wrote the document as a JSON paragraph, the paragraph's text (as the
//! parser decodes it) must be the document's exact JSON.

mod common;
mod support;

use codec_core::{from_slice, from_str, Map, Value};
use proptest::prelude::*;

use common::{dataset, dense};
use support::{parse, parse_pulldown, Block};

/// Renders `value` densely, reads it with both parsers and checks the
/// blocks against the model. Returns the markdown.
#[track_caller]
fn check_dense(value: &Value) -> String {
    support::allow_code_spans(true);
    let markdown = dense(value);
    for (parser, parsed) in [
        ("comrak", parse(&markdown)),
        ("pulldown-cmark", parse_pulldown(&markdown)),
    ] {
        let parsed = canonical(parsed);
        let expected = Model { seen: &parsed }.document(value);
        if parsed != expected {
            let at = parsed
                .iter()
                .zip(&expected)
                .take_while(|(p, e)| p == e)
                .count();
            let excerpt: String = markdown.chars().take(3_000).collect();
            let detail = match (parsed.get(at), expected.get(at)) {
                (
                    Some(Block::Table { columns, rows }),
                    Some(Block::Table {
                        columns: want_columns,
                        rows: want_rows,
                    }),
                ) if columns == want_columns => {
                    let row = rows.iter().zip(want_rows).position(|(r, w)| r != w);
                    match row {
                        Some(i) => format!("row {i}: {:?}\nexpected: {:?}", rows[i], want_rows[i]),
                        None => format!("{} rows, expected {}", rows.len(), want_rows.len()),
                    }
                }
                (found, want) => format!("{found:?}\nexpected: {want:?}"),
            };
            panic!(
                "structure differs by {parser} at block {at}: {detail}\n--- markdown\n{excerpt}"
            );
        }
    }
    markdown
}

/// JSON cells compared by value: each `` `json` `` cell's JSON is parsed
/// and written as its `Debug` form, in the parsed and the expected blocks.
fn canonical(blocks: Vec<Block>) -> Vec<Block> {
    blocks
        .into_iter()
        .map(|block| match block {
            Block::Table { columns, rows } => Block::Table {
                columns,
                rows: rows
                    .into_iter()
                    .map(|row| row.into_iter().map(canonical_cell).collect())
                    .collect(),
            },
            other => other,
        })
        .collect()
}

fn canonical_cell(cell: String) -> String {
    let span = support::CODE_SPAN;
    match cell.strip_prefix(span).and_then(|c| c.strip_suffix(span)) {
        Some(json) => match from_str(json) {
            Ok(value) => format!("{span}{value:?}{span}"),
            Err(e) => format!("{cell} (not JSON: {e})"),
        },
        _ => cell,
    }
}

/// The blocks the dense rules give a value. The one thing it does not
/// decide is markdown against JSON (the renderer's estimate): where the
/// parsed document has a `json` fence at that place, its literal must be
/// the exact JSON of the container, else the markdown rules apply.
struct Model<'p> {
    seen: &'p [Block],
}

impl Model<'_> {
    fn document(&self, value: &Value) -> Vec<Block> {
        let mut blocks = Vec::new();
        match value {
            Value::Array(_) | Value::Object(_) => self.container(value, 1, true, &mut blocks),
            scalar => blocks = support::expected(scalar),
        }
        blocks
    }

    /// A container at a choice point: the document, or a section's body.
    fn container(&self, value: &Value, level: u8, top: bool, blocks: &mut Vec<Block>) {
        match self.seen.get(blocks.len()) {
            Some(Block::Code { info, literal }) if info == "json" => {
                let parsed = from_str(literal).unwrap_or_else(|e| panic!("{literal}: {e}"));
                assert_eq!(&parsed, value, "a json fence that is not the value");
                blocks.push(self.seen[blocks.len()].clone());
                return;
            }
            // The document as one paragraph: its text is the JSON.
            Some(Block::Paragraph(text))
                if top && text.starts_with(['{', '[']) && json_equal(text, value) =>
            {
                blocks.push(self.seen[blocks.len()].clone());
                return;
            }
            _ => {}
        }
        match value {
            Value::Array(items) if top && items.is_empty() => {
                blocks.push(Block::Paragraph("[]".into()))
            }
            Value::Object(map) if top && map.is_empty() => {
                blocks.push(Block::Paragraph("{}".into()))
            }
            Value::Array(items) => {
                if let Some(table) = array_table(items) {
                    blocks.push(table);
                } else if top && support::inline_list(items) {
                    let text = support::list_text(items);
                    if !text.is_empty() {
                        blocks.push(Block::Paragraph(text));
                    }
                } else {
                    self.body(&support::indexed(items), None, level, blocks);
                }
            }
            Value::Object(map) => match keyed_table(map) {
                Some(table) => blocks.push(table),
                None => self.body(&support::keyed(map), Some(map), level, blocks),
            },
            _ => unreachable!(),
        }
    }

    fn body(
        &self,
        entries: &[(String, &Value, bool)],
        siblings: Option<&Map>,
        level: u8,
        blocks: &mut Vec<Block>,
    ) {
        let items: Vec<_> = entries
            .iter()
            .filter(|(_, v, _)| !support::is_section(v))
            .map(|(key, value, is_key)| {
                (
                    key.clone(),
                    support::list_item(key, value, *is_key, siblings),
                )
            })
            .collect();
        if !items.is_empty() {
            blocks.push(Block::List(items));
        }
        for (key, value, _) in entries.iter().filter(|(_, v, _)| support::is_section(v)) {
            blocks.push(Block::Heading {
                level: level.min(6),
                text: key.clone(),
            });
            self.container(value, level + 1, false, blocks);
        }
    }
}

/// Whether `text` is JSON for exactly `value`: the same members in the
/// same order, the same numbers' text.
fn json_equal(text: &str, value: &Value) -> bool {
    from_str(text)
        .is_ok_and(|parsed| parsed == *value && format!("{parsed:?}") == format!("{value:?}"))
}

/// A row's cells: (path, value) of every leaf, nested objects walked.
/// `None` when a string holds more than 8 line breaks.
fn leaves<'v>(
    map: &'v Map,
    path: &[String],
    out: &mut Vec<(Vec<String>, &'v Value)>,
) -> Option<()> {
    for (key, value) in map {
        let mut path = path.to_vec();
        path.push(key.replace('\0', "\u{fffd}"));
        match value {
            Value::Object(inner) if !inner.is_empty() => leaves(inner, &path, out)?,
            Value::String(s) if s.matches('\n').count() > 8 => return None,
            _ => out.push((path, value)),
        }
    }
    Some(())
}

fn table_of(rows: &[(Option<&str>, &Map)], keyed: bool) -> Option<Block> {
    let mut columns: Vec<Vec<String>> = Vec::new();
    let mut cells = Vec::new();
    for (_, map) in rows {
        let mut row = Vec::new();
        leaves(map, &[], &mut row)?;
        for (path, _) in &row {
            if !columns.contains(path) {
                columns.push(path.clone());
            }
        }
        cells.push(row);
    }
    let present: usize = cells.iter().map(Vec::len).sum();
    if columns.is_empty() || rows.len() * columns.len() > 2 * present {
        return None;
    }
    if !keyed && columns[0] == [""] {
        return None;
    }
    let body = rows
        .iter()
        .zip(&cells)
        .map(|((key, _), row)| {
            let key = key.map(|k| k.replace('\0', "\u{fffd}"));
            key.into_iter()
                .chain(columns.iter().map(|column| {
                    row.iter()
                        .find(|(path, _)| path == column)
                        .map(|(_, value)| cell_text(value))
                        .unwrap_or_default()
                }))
                .collect()
        })
        .collect();
    let header = keyed
        .then(String::new)
        .into_iter()
        .chain(columns.iter().map(|path| path.join(".")))
        .collect();
    Some(Block::Table {
        columns: header,
        rows: body,
    })
}

fn cell_text(value: &Value) -> String {
    match value {
        Value::Array(items)
            if items.iter().all(|item| match item {
                Value::String(s) => !s.contains([',', '[', ']', '\n']),
                other => other.is_scalar(),
            }) =>
        {
            format!("[{}]", support::list_text(items))
        }
        Value::Array(_) | Value::Object(_) => format!("{0}{value:?}{0}", support::CODE_SPAN),
        scalar => support::text(scalar),
    }
}

fn array_table(items: &[Value]) -> Option<Block> {
    let rows: Option<Vec<_>> = items.iter().map(|i| Some((None, i.as_object()?))).collect();
    table_of(&rows?, false)
}

fn keyed_table(map: &Map) -> Option<Block> {
    if map.len() < 2 {
        return None;
    }
    let rows: Option<Vec<_>> = map
        .iter()
        .map(|(k, v)| match v {
            Value::Object(inner) if !inner.is_empty() => Some((Some(k), inner)),
            _ => None,
        })
        .collect();
    table_of(&rows?, true)
}

#[test]
fn datasets_keep_their_structure() {
    for (name, json) in [
        ("github", dataset("github")),
        ("nested-config", dataset("nested-config")),
        ("keyed", dataset("keyed")),
        ("nested", dataset("nested")),
        ("event-logs", include_bytes!("data/event-logs-40.json")),
    ] {
        let value = from_slice(json).unwrap_or_else(|e| panic!("{name}: {e}"));
        check_dense(&value);
    }
}

/// The dense examples of SPEC.md: each `json dense` input renders to
/// exactly the `markdown dense` output that follows it.
#[test]
fn spec_examples_render_as_written() {
    use comrak::nodes::NodeValue;

    let spec = include_str!("../SPEC.md");
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
        if info != "json dense" {
            continue;
        }
        assert_eq!(output_info, "markdown dense", "{input}");
        let rendered = check_dense(&from_str(input).unwrap());
        assert_eq!(&rendered, output, "{input}");
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
