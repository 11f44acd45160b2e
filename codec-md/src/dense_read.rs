//! The dense profile's constructs read back ([`parse_dense`]): its tables
//! (rows without outer pipes, dotted columns, a key column, `[a, b]` lists
//! and JSON code spans in cells), its fenced `json` blocks, and a
//! document's JSON paragraph.
//!
//! The parser ([`crate::parse`]) calls these where the dense reading meets
//! a table, a fence or a top-level paragraph; everything else reads as in [`parse`].
//!
//! [`parse`]: crate::parse
//! [`parse_dense`]: crate::parse_dense

use codec_core::{Map, Value};

use crate::parse::ParseError;
use crate::reading::{self, is_blank, Reading};

/// The value of a fenced `json` block's content.
pub(crate) fn json_block(content: &str, line: usize) -> Result<Value, ParseError> {
    codec_core::from_str(content).map_err(|_| ParseError::Expected {
        line: line + 1,
        column: 1,
        expected: "JSON in a `json` fence",
    })
}

/// The value of a top-level paragraph that is a document's compact JSON:
/// the line starts with a raw `{` or `[` and, once its escapes are decoded,
/// is JSON. Anything else (a string's paragraph starts `\{` or `\[`) is
/// `None`, and reads as in [`parse`](crate::parse).
pub(crate) fn json_paragraph(text: &str) -> Option<Value> {
    let text = text.trim_matches(is_blank);
    if !text.starts_with(['{', '[']) {
        return None;
    }
    codec_core::from_str(&reading::decode(text).text).ok()
}

/// A dense table from its raw header cells and its rows' raw cells: an
/// array of row objects, or an object keyed by the first column when its
/// header cell is empty. An empty cell is a missing member; a dotted
/// header cell nests its cell (`customer.name`), `\.` being a key's own
/// dot.
pub(crate) fn table<'a>(
    header: &[&str],
    rows: impl Iterator<Item = (usize, Vec<&'a str>)>,
) -> Result<Value, ParseError> {
    let keyed = header.len() > 1 && header[0].trim_matches(is_blank).is_empty();
    let paths: Vec<Vec<String>> = header
        .iter()
        .skip(usize::from(keyed))
        .map(|cell| {
            split_dots(cell.trim_matches(is_blank))
                .into_iter()
                .map(|key| reading::decode(key).text)
                .collect()
        })
        .collect();
    let mut array = Vec::new();
    let mut keyed_rows = Map::new();
    for (line, cells) in rows {
        let mut cells = cells.into_iter();
        let key = if keyed {
            let raw = cells.next().unwrap_or_default();
            Some(reading::decode(raw.trim_matches(is_blank)).text)
        } else {
            None
        };
        let mut row = Map::new();
        for (path, raw) in paths.iter().zip(cells) {
            let raw = raw.trim_matches(is_blank);
            if raw.is_empty() {
                continue;
            }
            let value = cell(raw, line)?;
            insert(&mut row, path, value).map_err(|()| ParseError::Expected {
                line,
                column: 1,
                expected: "column paths that do not pass through another column's cell",
            })?;
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
            _ => Err(ParseError::Expected {
                line,
                column: 1,
                expected: "JSON in a code span",
            }),
        };
    }
    if let Some(inner) = raw.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        if inner.trim_matches(is_blank).is_empty() {
            return Ok(Value::Array(Vec::new()));
        }
        return Ok(Value::Array(
            reading::split_commas(inner, Reading::Plain)
                .into_iter()
                .map(|piece| reading::piece(piece, Reading::Plain))
                .collect(),
        ));
    }
    Ok(reading::piece(raw, Reading::Plain))
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
    let bytes = raw.as_bytes();
    let mut keys = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if bytes.get(i + 1).is_some_and(u8::is_ascii_punctuation) => i += 2,
            b'.' => {
                keys.push(&raw[start..i]);
                i += 1;
                start = i;
            }
            _ => i += 1,
        }
    }
    keys.push(&raw[start..]);
    keys
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
