//! The dense profile's model: the blocks the dense rules give a value,
//! computed independently of the renderer, and [`check_dense`], which
//! renders a value densely and checks what comrak and pulldown-cmark read
//! against them (`tests/codec_md/dense.rs`, and the fuzz targets of `fuzz-targets/`).

use codec_core::{Codec, Map, Value, from_str};
use codec_md::{MarkdownCodec, Profile};

use super::{Block, parse, parse_pulldown};

/// Renders `value` densely, reads it with both parsers and checks the
/// blocks against the model. Returns the markdown.
#[track_caller]
pub fn check_dense(value: &Value) -> String {
    super::allow_code_spans(true);
    let codec = MarkdownCodec::builder().profile(Profile::Dense).build();
    let mut out = Vec::new();
    codec.encode_value(value, &mut out).expect("render");
    let markdown = String::from_utf8(out).expect("UTF-8");
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
    let span = super::CODE_SPAN;
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
            scalar => blocks = super::expected(scalar),
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
                } else if top && super::inline_list(items) {
                    let text = super::list_text(items);
                    if !text.is_empty() {
                        blocks.push(Block::Paragraph(text));
                    }
                } else {
                    self.body(&super::indexed(items), None, level, blocks);
                }
            }
            Value::Object(map) => match keyed_table(map) {
                Some(table) => blocks.push(table),
                None => self.body(&super::keyed(map), Some(map), level, blocks),
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
            .filter(|(_, v, _)| !super::is_section(v))
            .map(|(key, value, is_key)| {
                (key.clone(), super::list_item(key, value, *is_key, siblings))
            })
            .collect();
        if !items.is_empty() {
            blocks.push(Block::List(items));
        }
        for (key, value, _) in entries.iter().filter(|(_, v, _)| super::is_section(v)) {
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
pub fn json_equal(text: &str, value: &Value) -> bool {
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
            format!("[{}]", super::list_text(items))
        }
        Value::Array(_) | Value::Object(_) => format!("{0}{value:?}{0}", super::CODE_SPAN),
        scalar => super::text(scalar),
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
