//! The dense reading, the mirror of the dense layout: [`parse_dense`], the
//! default reading plus the dense profile's constructs: its tables (rows
//! without outer pipes, dotted columns, a key column, `[a, b]` lists and
//! JSON code spans in cells), its fenced `json` blocks, and a document's
//! JSON paragraph (what the profile wrote before its fence).

use std::collections::HashMap;

use codec_core::{Map, Value, json::ParseErrorKind, value::DEFAULT_MAX_DEPTH};

use crate::error::ParseError;
use crate::read::default::{self, DefaultReading};
use crate::read::inline::{self, Refs, is_blank};
use crate::read::lexer::{self, ContainerFence, Reading};
use crate::read::table::{self, Row};

/// Reads the dense profile ([`Profile::Dense`]) back: [`parse`]'s reading,
/// plus its tables, its fenced `json` blocks and a document's JSON
/// paragraph.
///
/// A table row needs no outer pipes; a header cell's raw dots nest its
/// column (`customer.name`; `\.` is a key's own dot); an empty first header
/// cell makes the table an object keyed by its first column; an empty cell
/// is a missing member; a cell `[a, b]` is a list and a code span is JSON.
/// A fenced `json` block is its JSON, exactly, wherever a document or a
/// section's body may be; so is a top-level paragraph that starts with a
/// raw `{` or `[` and is JSON once its escapes are decoded (a string's
/// paragraph starts `\{` or `\[`). So `parse_dense` gives back every JSON subtree
/// exactly and every table's structure; scalars read as in [`parse`]
/// (`"42"` comes back as `42`), and a null in a table row as a missing
/// member.
///
/// [`Profile::Dense`]: crate::Profile::Dense
/// [`parse`]: crate::parse
///
/// ```
/// use codec_core::{from_str, CodecExt};
/// use codec_md::{MarkdownCodec, Profile};
///
/// let value = from_str(r#"{"orders": [
///     {"id": "A-1", "customer": {"name": "Ada"}, "tags": ["gift", "rush"], "items": [{"sku": "X1"}]},
///     {"id": "A-2", "customer": {"name": "Bob"}, "tags": [], "items": [{"sku": "Y7"}]},
///     {"id": "A-3", "customer": {"name": "Cy"}, "tags": ["gift"], "items": []}
/// ]}"#).unwrap();
/// let codec = MarkdownCodec::builder().profile(Profile::Dense).build();
/// let markdown = String::from_utf8(codec.to_vec(&value).unwrap()).unwrap();
/// assert!(markdown.contains("A-1|Ada|[gift, rush]|`[{\"sku\":\"X1\"}]`\n"));
/// assert_eq!(codec_md::parse_dense(&markdown).unwrap(), value);
/// ```
pub fn parse_dense(markdown: &str) -> Result<Value, ParseError> {
    lexer::read(markdown, DenseReading, &lexer::ParseOptions::default())
}

/// The dense reading's hooks: scalars and key lists as in the default
/// reading, and its own tables, fences and paragraph.
#[derive(Debug, Clone, Copy)]
pub(crate) struct DenseReading;

impl Reading for DenseReading {
    fn line(self, raw: &str) -> Option<Value> {
        DefaultReading.line(raw)
    }

    fn cell(self, raw: &str) -> Option<Value> {
        DefaultReading.cell(raw)
    }

    fn table(self, header: &Row<'_>, rows: &[Row<'_>]) -> Result<Value, ParseError> {
        table(header, rows)
    }

    fn container_fence(self, info: &str) -> Option<ContainerFence> {
        (info.split(is_blank).next() == Some("json")).then_some(json_block as ContainerFence)
    }

    fn paragraph(self, text: &str, line: usize) -> Result<Value, ParseError> {
        match json_paragraph(text, line)? {
            Some(value) => Ok(value),
            None => DefaultReading.paragraph(text, line),
        }
    }
}

/// The value of a fenced `json` block's content, its fence on `line`.
fn json_block(content: &str, line: usize) -> Result<Value, ParseError> {
    codec_core::from_str(content).map_err(|e| match e.kind() {
        ParseErrorKind::DepthLimit { .. } => {
            ParseError::depth("values", line + e.line(), e.column())
        }
        _ => ParseError::expected("JSON in a `json` fence", line + 1, 1),
    })
}

/// The value of a top-level paragraph that is a document's compact JSON:
/// the line starts with a raw `{` or `[` and, once its escapes are decoded,
/// is JSON. Anything else (a string's paragraph starts `\{` or `\[`) is
/// `None`, and reads as in [`parse`](crate::parse); JSON nested deeper
/// than the limit is an error.
fn json_paragraph(text: &str, line: usize) -> Result<Option<Value>, ParseError> {
    let text = text.trim_matches(is_blank);
    if !text.starts_with(['{', '[']) {
        return Ok(None);
    }
    match codec_core::from_str(&inline::decode(text, Refs::All).text) {
        Ok(value) => Ok(Some(value)),
        Err(e) if matches!(e.kind(), ParseErrorKind::DepthLimit { .. }) => {
            Err(ParseError::depth("values", line, e.column()))
        }
        Err(_) => Ok(None),
    }
}

/// A dense table from its raw header cells and its rows' raw cells: an
/// array of row objects, or an object keyed by the first column when its
/// header cell is empty. An empty cell is a missing member; a dotted
/// header cell nests its cell (`customer.name`), `\.` being a key's own
/// dot.
///
/// A path of n keys puts its cells n + 1 deep (the table, then the row
/// and the path's objects): a path or a cell that would go deeper than
/// [`DEFAULT_MAX_DEPTH`] is an error at its cell, before anything is
/// built, so no header can build a value too deep to drop. A path that
/// an earlier column has is an error at its header cell, as in the
/// default reader: a row cannot hold both columns' cells.
fn table(header: &Row<'_>, rows: &[Row<'_>]) -> Result<Value, ParseError> {
    let cells: Vec<&str> = header.cells().collect();
    let keyed = cells.len() > 1 && cells[0].trim_matches(is_blank).is_empty();
    let mut paths: Vec<Vec<String>> = Vec::with_capacity(cells.len());
    for (i, cell) in cells.iter().enumerate().skip(usize::from(keyed)) {
        let keys = split_dots(cell.trim_matches(is_blank));
        if keys.len() + 1 > DEFAULT_MAX_DEPTH {
            return Err(ParseError::depth(
                "column paths",
                header.line,
                header.column(i),
            ));
        }
        let keys = keys
            .into_iter()
            .map(|key| inline::decode(key, Refs::All).text);
        paths.push(keys.collect());
    }
    if let Some(i) = table::repeated_column(&paths) {
        return Err(ParseError::expected(
            table::DISTINCT_COLUMN,
            header.line,
            header.column(i + usize::from(keyed)),
        ));
    }
    let order = Order::of(&paths);
    let mut array = Vec::new();
    let mut keyed_rows = Map::new();
    for row_cells in rows {
        let line = row_cells.line;
        let mut cells = row_cells.cells().enumerate();
        let key = if keyed {
            let (_, raw) = cells.next().unwrap_or_default();
            Some(inline::decode(raw.trim_matches(is_blank), Refs::All).text)
        } else {
            None
        };
        let mut row = Map::new();
        for (path, (i, raw)) in paths.iter().zip(cells) {
            let raw = raw.trim_matches(is_blank);
            if raw.is_empty() {
                continue;
            }
            // A cell's own error is on its line; a depth error points at
            // the cell.
            let value = cell(raw, line).map_err(|e| match e.kind() {
                crate::ParseErrorKind::DepthLimit { .. } => {
                    ParseError::depth("values", line, row_cells.column(i))
                }
                _ => e,
            })?;
            if path.len() + 1 + value.depth() > DEFAULT_MAX_DEPTH {
                return Err(ParseError::depth("values", line, row_cells.column(i)));
            }
            insert(&mut row, path, value).map_err(|()| {
                ParseError::expected(
                    "column paths that do not pass through another column's cell",
                    line,
                    1,
                )
            })?;
        }
        if let Some(order) = &order {
            order.arrange(&mut row);
        }
        match key {
            Some(key) => {
                keyed_rows.insert(key, Value::Object(row));
            }
            None => array.push(Value::Object(row)),
        }
    }
    Ok(if keyed {
        Value::Object(keyed_rows)
    } else {
        Value::Array(array)
    })
}

/// The keys of a dotted table's columns below one path, each at its first
/// column (the columns' paths, first seen first), with the keys below it.
///
/// Cells are put in their rows column by column, and an empty cell is
/// skipped, so a nested object would otherwise land at its first
/// non-empty cell: `|a.x|b.y|a.z|` with `||1|2|` would read as
/// `{"b": …, "a": …}`, and the same object's place would depend on which
/// of its cells were empty. A row's objects are put in this order once
/// read, as `SPEC.md` (*Reading the dense profile*) says.
#[derive(Debug, Default)]
struct Order {
    keys: Vec<(String, Order)>,
    /// Where each key is in `keys`.
    ranks: HashMap<String, usize>,
    /// Whether a column ends at this path: its cell may be a JSON object,
    /// whose members keep their own order, so nothing below it moves.
    column: bool,
}

impl Order {
    /// The order of `paths`' keys, or `None` when no path is dotted: a
    /// row's members are then in their columns' order already.
    fn of(paths: &[Vec<String>]) -> Option<Order> {
        if paths.iter().all(|path| path.len() < 2) {
            return None;
        }
        let mut order = Order::default();
        for path in paths {
            let mut node = &mut order;
            for key in path {
                let Order { keys, ranks, .. } = node;
                let rank = *ranks.entry(key.clone()).or_insert_with(|| {
                    keys.push((key.clone(), Order::default()));
                    keys.len() - 1
                });
                node = &mut keys[rank].1;
            }
            node.column = true;
        }
        Some(order)
    }

    /// Puts the members of `map`, a row or an object its columns made, and
    /// of the objects below it, in this order.
    fn arrange(&self, map: &mut Map) {
        if self.column {
            return;
        }
        for (key, below) in &self.keys {
            if below.keys.is_empty() {
                continue;
            }
            if let Some(Value::Object(inner)) = map.get_mut(key) {
                below.arrange(inner);
            }
        }
        let rank = |key: &str| self.ranks.get(key).copied().unwrap_or(usize::MAX);
        if map.keys().map(rank).is_sorted() {
            return;
        }
        let mut members: Vec<(String, Value)> = std::mem::take(map).into_iter().collect();
        members.sort_by_key(|(key, _)| rank(key));
        *map = members.into_iter().collect();
    }
}

/// One non-empty cell: JSON in a code span, a `[a, b]` list, or a scalar.
fn cell(raw: &str, line: usize) -> Result<Value, ParseError> {
    let ticks = raw.bytes().take_while(|&b| b == b'`').count();
    if ticks > 0 {
        let span = raw
            .get(ticks..raw.len().saturating_sub(ticks))
            .filter(|inner| {
                raw.len() >= 2 * ticks && raw.ends_with(&raw[..ticks]) && !inner.is_empty()
            });
        let json = span.map(|inner| inner.replace("\\|", "|"));
        return match json.as_deref().map(codec_core::from_str) {
            Some(Ok(value)) => Ok(value),
            Some(Err(e)) if matches!(e.kind(), ParseErrorKind::DepthLimit { .. }) => {
                Err(ParseError::depth("values", line, 1))
            }
            _ => Err(ParseError::expected("JSON in a code span", line, 1)),
        };
    }
    if let Some(inner) = raw.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        if inner.trim_matches(is_blank).is_empty() {
            return Ok(Value::Array(Vec::new()));
        }
        return Ok(Value::Array(
            default::items(inner).map(default::piece).collect(),
        ));
    }
    Ok(default::piece(raw))
}

/// Puts `value` at `path` in `row`, making the objects on the way.
fn insert(row: &mut Map, path: &[String], value: Value) -> Result<(), ()> {
    let Some((last, parents)) = path.split_last() else {
        return Err(());
    };
    let mut map = row;
    for key in parents {
        if !map.contains_key(key) {
            map.insert(key.clone(), Value::Object(Map::new()));
        }
        match map.get_mut(key) {
            Some(Value::Object(inner)) => map = inner,
            _ => return Err(()),
        }
    }
    if map.contains_key(last) {
        return Err(());
    }
    map.insert(last.clone(), value);
    Ok(())
}

/// Splits a header cell at its raw dots (a `\` skips the character after
/// it).
fn split_dots(raw: &str) -> Vec<&str> {
    inline::split(raw, inline::byte(b'.'))
        .map(|(_, key)| key)
        .collect()
}

#[cfg(test)]
mod tests {
    use codec_core::from_str;

    use super::*;

    #[test]
    fn splits_paths_at_raw_dots() {
        let cases: &[(&str, &[&str])] = &[
            ("a", &["a"]),
            ("a.b", &["a", "b"]),
            ("a\\.b.c", &["a\\.b", "c"]),
            ("a\\\\.b", &["a\\\\", "b"]),
            ("a.", &["a", ""]),
            ("", &[""]),
        ];
        for (raw, keys) in cases {
            assert_eq!(split_dots(raw), *keys, "{raw:?}");
        }
    }

    /// A nested object comes back at its first column, whichever of its
    /// cells are empty (found by the md_parse_dense fuzz target: the
    /// object moved from one reading to the next).
    #[test]
    fn a_nested_object_is_at_its_first_column() {
        let table = "|id|a.x|b.y|a.z|\n|---|---|---|---|\n|1||2|3|\n|2|4|5||\n|3|||6|\n";
        let value = parse_dense(table).unwrap();
        fn keys(object: &Value) -> Vec<&str> {
            object.as_object().unwrap().keys().collect()
        }
        for row in value.as_array().unwrap() {
            assert_eq!(keys(row), ["id", "a", "b"][..keys(row).len()], "{row:?}");
        }
        assert_eq!(keys(&value[2]), ["id", "a"]);
        let deep = "|a.b.x|c|a.d|a.b.y|\n|---|---|---|---|\n||1|2|3|\n";
        let value = parse_dense(deep).unwrap();
        assert_eq!(
            value,
            from_str(r#"[{"a": {"b": {"y": 3}, "d": 2}, "c": 1}]"#).unwrap()
        );
        assert_eq!(keys(&value[0]), ["a", "c"]);
        assert_eq!(keys(&value[0]["a"]), ["b", "d"]);
        // A column's own JSON keeps its members' order.
        let json = "|a|a.b.y|a.b.x|\n|---|---|---|\n|`{\"b\":{\"x\":1,\"y\":2}}`|||\n";
        let value = parse_dense(json).unwrap();
        assert_eq!(keys(&value[0]["a"]["b"]), ["x", "y"]);
    }

    #[test]
    fn reads_cells() {
        let cases: &[(&str, &str)] = &[
            ("x", r#""x""#),
            ("42", "42"),
            ("\\[x]", r#""[x]""#),
            ("\\`x", r#""`x""#),
            ("[]", "[]"),
            ("[a, 1, ]", r#"["a", 1, null]"#),
            ("`[{\"a\":1}]`", r#"[{"a": 1}]"#),
            ("`{}`", "{}"),
            ("a&#10;b", r#""a\nb""#),
        ];
        for (raw, json) in cases {
            assert_eq!(cell(raw, 1).unwrap(), from_str(json).unwrap(), "{raw:?}");
        }
        for raw in ["`x`", "``", "`[1`"] {
            assert!(cell(raw, 1).is_err(), "{raw:?}");
        }
    }
}
