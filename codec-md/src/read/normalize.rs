//! [`normalize`]: what the default rendering of a value reads back as.

use codec_core::{Map, Value, value::DEFAULT_MAX_DEPTH};

use crate::read::default;
use crate::read::outline::{self, Block, Item, Kind, Label};
use crate::schema::{self, Placement};

/// The value as plain markdown carries it: `parse(&render(v)?) ==
/// normalize(v)` for every value `render` accepts whose reading stays
/// within the depth limit.
///
/// It applies exactly what the default rendering cannot carry, and nothing
/// else (`SPEC.md`, *Reading*):
///
/// - **Text reads as its type.** A string that is empty, `true`, `false`
///   or a JSON number becomes null, that bool or that number (in a cell, a
///   list item, a key's value, a top-level paragraph).
/// - **Separating commas split.** A string written after a key (or as a
///   top-level paragraph) with a comma followed by a space or a tab, or a
///   final comma, as the renderer separates a list's items, becomes the
///   list of the pieces between those commas, each read as above; blanks
///   next to such a comma are dropped. Other commas (`1,000`,
///   `{?since,all}`) are text. A string `[]` or `{}` there becomes that
///   empty container.
/// - **One-item lists** after a key or at the top level become their item.
/// - **Tables are rectangular.** Every row gets every column, in the
///   columns' order; a member the row lacked is null.
/// - **Sections move.** An object's members that render as sections
///   (non-empty containers that do not fit a line) come after the others.
/// - **Below h6**, where headings stop growing, an h6 section with a list
///   of its own does not hold the h6 sections after it: they become its
///   siblings (a repeated key keeps its first place and its last value).
///
/// Numbers keep their exact text, strings their exact characters
/// (escapes, references, fences and edge whitespace all come back), and
/// arrays their order.
///
/// The result is never deeper than [`codec_core::value::DEFAULT_MAX_DEPTH`], the
/// limit of every reader. Values deeper than that, which `render`
/// refuses, are returned as they are; so is a value at the limit whose
/// deepest strings would read as lists (`"a, b"`, `"[]"`), which would be
/// one level too deep: [`parse`](crate::parse) reports a
/// [`DepthLimit`](crate::ParseErrorKind::DepthLimit) for its rendering.
///
/// ```
/// use codec_core::from_str;
///
/// let value = from_str(r#"{"db": {"port": 1}, "id": "42", "tags": ["x"], "note": "a, b"}"#).unwrap();
/// let normal = from_str(r#"{"id": 42, "tags": "x", "note": ["a", "b"], "db": {"port": 1}}"#).unwrap();
/// assert_eq!(codec_md::normalize(&value), normal);
/// assert_eq!(codec_md::parse(&codec_md::render(&value).unwrap()).unwrap(), normal);
/// ```
pub fn normalize(value: &Value) -> Value {
    if value.depth() > DEFAULT_MAX_DEPTH {
        return value.clone();
    }
    let mut blocks = Vec::new();
    document(value, &mut blocks);
    // The same limit as the parser: where its reading would go too deep,
    // the rendering does not read back, and the value stays as it is.
    outline::read(blocks, DEFAULT_MAX_DEPTH).unwrap_or_else(|_| value.clone())
}

fn block(kind: Kind) -> Block {
    Block { kind, line: 1 }
}

/// The blocks of a document, as the renderer lays them out.
fn document(value: &Value, out: &mut Vec<Block>) {
    match value {
        Value::Null => {}
        Value::String(s) if s.is_empty() => {}
        Value::Bool(_) | Value::Number(_) => out.push(block(Kind::Scalar(value.clone()))),
        Value::String(s) => out.push(block(Kind::Scalar(inline(value, s)))),
        Value::Array(items) if items.is_empty() => out.push(block(Kind::Scalar(value.clone()))),
        Value::Object(map) if map.is_empty() => out.push(block(Kind::Scalar(value.clone()))),
        Value::Array(items) => {
            if let Some(columns) = schema::table_columns(items.iter()) {
                out.push(block(Kind::Table(table(items, &columns))));
            } else if schema::is_inline_list(items.iter()) {
                out.push(block(Kind::Scalar(list(items))));
            } else {
                body(schema::elements(items.iter()), 1, out);
            }
        }
        Value::Object(map) => body(schema::members(map.iter()), 1, out),
    }
}

/// A string written inline (a value or a paragraph), or fenced when it has
/// a line feed the fence can hold.
fn inline(value: &Value, s: &str) -> Value {
    if schema::has_line_feed(s) && schema::fence_eligible(s) {
        value.clone()
    } else {
        text_line(s)
    }
}

/// The body of a container: its list, then its sections.
fn body<'v>(
    entries: impl Iterator<Item = (schema::Label<'v>, &'v Value)> + Clone,
    level: usize,
    out: &mut Vec<Block>,
) {
    let mut items = Vec::new();
    for (label, value) in entries.clone() {
        let read = match schema::placement(label, value) {
            Placement::Section => continue,
            Placement::Fenced(s) => Value::String(s.to_owned()),
            Placement::Inline => match value {
                Value::String(s) => text_line(s),
                Value::Array(items) if !items.is_empty() => list(items),
                other => other.clone(),
            },
        };
        items.push(Item {
            label: own(label),
            value: Some(read),
            line: 1,
        });
    }
    if !items.is_empty() {
        out.push(block(Kind::List(items)));
    }
    for (label, value) in entries {
        if !matches!(schema::placement(label, value), Placement::Section) {
            continue;
        }
        out.push(block(Kind::Heading {
            depth: level.min(6),
            label: own(label),
            capped: level >= 6,
        }));
        match value {
            Value::Object(map) => body(schema::members(map.iter()), level + 1, out),
            Value::Array(items) => match schema::table_columns(items.iter()) {
                Some(columns) => out.push(block(Kind::Table(table(items, &columns)))),
                None => body(schema::elements(items.iter()), level + 1, out),
            },
            _ => {}
        }
    }
}

fn own(label: schema::Label<'_>) -> Label {
    match label {
        schema::Label::Key(key) => Label::Key(key.to_owned()),
        schema::Label::Index(i) => Label::Index(i),
    }
}

/// A table's rows: every column, in order, each cell read as its type.
fn table(items: &[Value], columns: &[&str]) -> Value {
    let rows = items
        .iter()
        .map(|item| {
            let row: Map = columns
                .iter()
                .map(|&column| (column, item.get(column).map_or(Value::Null, scalar)))
                .collect();
            Value::Object(row)
        })
        .collect();
    Value::Array(rows)
}

/// An inline list read back: one item reads as the whole line, more as an
/// array of scalars.
fn list(items: &[Value]) -> Value {
    match items {
        [Value::String(s)] => text_line(s),
        [one] => one.clone(),
        _ => Value::Array(items.iter().map(scalar).collect()),
    }
}

/// A scalar in a cell or a list item: its text read as its type.
fn scalar(value: &Value) -> Value {
    match value {
        Value::String(s) => default::scalar(s),
        other => other.clone(),
    }
}

/// A string written after a key or as a paragraph, read back: split at
/// its commas that separate items as a list's do (followed by a blank or
/// the end), blanks beside such a comma dropped (the ones at the string's
/// ends are references, and stay).
fn text_line(s: &str) -> Value {
    let lead_end = s.len() - s.trim_start_matches(char::is_whitespace).len();
    let trail_start = s.trim_end_matches(char::is_whitespace).len().max(lead_end);
    let bytes = s.as_bytes();
    // A comma separates items where the reader sees a raw blank or the end
    // after it; the string's edge whitespace is written as references.
    let separators: Vec<usize> = (0..bytes.len())
        .filter(|&i| bytes[i] == b',')
        .filter(|&i| {
            let next = match i + 1 {
                end if end == bytes.len() => None,
                edge if edge >= trail_start => Some(b'&'),
                next => Some(bytes[next]),
            };
            default::separates(next)
        })
        .collect();
    if separators.is_empty() {
        return match s {
            "[]" => Value::Array(Vec::new()),
            "{}" => Value::Object(Map::new()),
            _ => default::scalar(s),
        };
    }
    let mut pieces = Vec::new();
    let mut start = 0;
    for end in separators.into_iter().chain([s.len()]) {
        let mut from = start;
        if start > 0 {
            while from < end && from < trail_start && matches!(bytes[from], b' ' | b'\t') {
                from += 1;
            }
        }
        let mut to = end;
        if end < s.len() {
            while to > from && to > lead_end && matches!(bytes[to - 1], b' ' | b'\t') {
                to -= 1;
            }
        }
        pieces.push(default::scalar(&s[from..to]));
        start = end + 1;
    }
    Value::Array(pieces)
}
