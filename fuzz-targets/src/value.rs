//! The value a value target checks: the input's JSON when it is JSON, else
//! a value built from the bytes; and the comparisons the targets need.

use arbitrary::{Result, Unstructured};
use codec_core::{Map, Number, Value};

/// The value the value targets ([`md_round_trip`](crate::md_round_trip),
/// [`md_structure`](crate::md_structure),
/// [`html_structure`](crate::html_structure)) check for `data`, or `None`
/// when `data` is outside their domain.
///
/// Input that starts like JSON (`{`, `[` or `"`) is JSON, so seeds and
/// reproducers stay readable (`{"k":"[[a]](https://evil.example)"}`); one
/// that does not parse is `None`, which the targets reject, so that the
/// JSON parser's error paths do not fill their corpora. Any other input
/// builds a value from its bytes with [`arbitrary`]: containers up to 5
/// deep, tables and keyed tables, and strings made of the pieces that mean
/// something to a markdown or HTML parser. A quarter of the built values
/// are ordinary (words, numbers and bools, no null, lists of two or more,
/// rows in their columns' order), the values `SPEC.md` promises the dense
/// reading gives back exactly.
///
/// ```
/// use fuzz_targets::value_of;
///
/// assert_eq!(value_of(br#"{"k": "[x](y)"}"#).unwrap()["k"].as_str(), Some("[x](y)"));
/// assert_eq!(value_of(b"[1,"), None);
/// // Any other bytes build some value, the same one every time.
/// assert_eq!(value_of(b"\x07any bytes"), value_of(b"\x07any bytes"));
/// ```
pub fn value_of(data: &[u8]) -> Option<Value> {
    match data.first() {
        Some(b'{' | b'[' | b'"') => codec_core::from_slice(data).ok(),
        _ => {
            let mut u = Unstructured::new(data);
            let builder = Builder {
                ordinary: u.arbitrary::<u8>().is_ok_and(|b| b % 4 == 0),
            };
            Some(
                builder
                    .value(&mut u, MAX_BUILT_DEPTH)
                    .unwrap_or(Value::Null),
            )
        }
    }
}

/// How deep a built value's sections nest (its tables' rows and cells add
/// up to 3 more levels): deep enough for sections inside sections inside
/// tables, shallow enough that most of the input goes to strings. JSON
/// input reaches every depth.
const MAX_BUILT_DEPTH: usize = 5;

/// Text that means something to a markdown, GFM or HTML parser, or to
/// this project's readers: the pieces of hostile strings.
const PIECES: &[&str] = &[
    "|",
    "\\",
    "\\|",
    "`",
    "```",
    "*",
    "**",
    "_",
    "~",
    "[",
    "]",
    "(",
    ")",
    "[]",
    "{}",
    "](",
    "]: ",
    "[x](y)",
    "[[a]](b)",
    "<",
    ">",
    "<b>",
    "</b>",
    "<!--",
    "-->",
    "<script>",
    "&",
    "&amp;",
    "&#124;",
    "&#10;",
    "&#0;",
    "&nbsp",
    "\"",
    "'",
    "http://",
    "https://a.example/",
    "www.",
    "mailto:",
    "a@b.co",
    "javascript:",
    "\n",
    "\r",
    "\r\n",
    "\t",
    "\0",
    " ",
    "\u{a0}",
    "\u{85}",
    "\u{1b}",
    "\u{7f}",
    "\u{200b}",
    "\u{202e}",
    "\u{2066}",
    "\u{feff}",
    "\u{2028}",
    "# ",
    "#",
    "- ",
    "- **x**: ",
    "1. ",
    "1) ",
    "> ",
    "---",
    "===",
    "    ",
    "[ ] ",
    ", ",
    ",",
    ".",
    ":",
    "42",
    "-1.5e3",
    "1.10",
    "true",
    "false",
    "null",
    "\\\"",
];

/// Keys with a meaning: code keys and languages, an index-like key, the
/// empty key, a dotted key (the dense profile's paths), and plain ones.
const KEYS: &[&str] = &[
    "a", "b", "c", "id", "name", "code", "diff", "lang", "stdout", "[0]", "", "a.b", "#", "-",
];

/// Numbers whose text matters: kept verbatim, or reading as something
/// else in a weaker format.
const NUMBERS: &[&str] = &[
    "0",
    "-0",
    "42",
    "1.10",
    "-1.5e3",
    "1e400",
    "-0.0",
    "1E+2",
    "123456789012345678901234567890",
];

/// Strings of an ordinary value: what the datasets are made of.
const WORDS: &[&str] = &[
    "ada",
    "bob",
    "open",
    "leave at door",
    "ada@example.com",
    "2024-01-02",
    "src/main.rs",
    "https://example.com/a",
    "v1.2.3",
];

struct Builder {
    ordinary: bool,
}

impl Builder {
    fn value(&self, u: &mut Unstructured<'_>, depth: usize) -> Result<Value> {
        if depth == 0 {
            return self.scalar(u);
        }
        Ok(match u.int_in_range(0u8..=9)? {
            0..=2 => self.scalar(u)?,
            3 => Value::Array(self.items(u, |u| self.value(u, depth - 1))?),
            4 => Value::Array(self.items(u, |u| self.scalar(u))?),
            5 => {
                let columns = self.columns(u)?;
                Value::Array(self.items(u, |u| self.row(u, &columns, true))?)
            }
            6 => {
                let columns = self.columns(u)?;
                let rows = self.items(u, |u| Ok((self.key(u)?, self.row(u, &columns, true)?)))?;
                Value::Object(rows.into_iter().collect())
            }
            _ => {
                let members = self.items(u, |u| Ok((self.key(u)?, self.value(u, depth - 1)?)))?;
                Value::Object(members.into_iter().collect())
            }
        })
    }

    /// Up to 5 items; at least 2 in an ordinary value, where a one-item
    /// list reads as its item.
    fn items<T>(
        &self,
        u: &mut Unstructured<'_>,
        mut item: impl FnMut(&mut Unstructured<'_>) -> Result<T>,
    ) -> Result<Vec<T>> {
        let least = if self.ordinary { 2 } else { 0 };
        let len = u.int_in_range(least..=5)?;
        (0..len).map(|_| item(u)).collect()
    }

    /// The columns rows share, so that arrays of them are tables.
    fn columns(&self, u: &mut Unstructured<'_>) -> Result<Vec<String>> {
        let len = u.int_in_range(1..=4)?;
        (0..len).map(|_| self.key(u)).collect()
    }

    /// A row over `columns`, in their order: each member a scalar, or
    /// (when `cells` says so) what the dense profile puts in a cell: a
    /// nested object as dotted columns, a scalar list, JSON.
    fn row(&self, u: &mut Unstructured<'_>, columns: &[String], cells: bool) -> Result<Value> {
        let mut row = Map::new();
        for column in columns {
            if !self.ordinary && !u.arbitrary::<bool>()? {
                continue;
            }
            let member = match u.int_in_range(0u8..=7)? {
                0 if cells => self.row(u, &[column.clone(), "b".to_owned()], false)?,
                1 if cells => Value::Array(self.items(u, |u| self.scalar(u))?),
                2 if cells && !self.ordinary => Value::Array(vec![Value::Object(Map::new())]),
                _ => self.scalar(u)?,
            };
            row.insert(column.clone(), member);
        }
        Ok(Value::Object(row))
    }

    fn scalar(&self, u: &mut Unstructured<'_>) -> Result<Value> {
        Ok(match u.int_in_range(0u8..=7)? {
            0 if !self.ordinary => Value::Null,
            1 => Value::Bool(u.arbitrary()?),
            2 => Value::Number(self.number(u)?),
            _ => Value::String(self.string(u)?),
        })
    }

    fn number(&self, u: &mut Unstructured<'_>) -> Result<Number> {
        Ok(match u.int_in_range(0u8..=2)? {
            0 => Number::from(u.arbitrary::<i64>()?),
            1 => Number::from_f64(u.arbitrary()?).unwrap_or(Number::from(0u8)),
            _ => u.choose(NUMBERS)?.parse().expect("a JSON number"),
        })
    }

    fn string(&self, u: &mut Unstructured<'_>) -> Result<String> {
        if self.ordinary {
            return Ok(u.choose(WORDS)?.to_string());
        }
        let mut s = String::new();
        for _ in 0..u.int_in_range(0..=6)? {
            match u.int_in_range(0u8..=9)? {
                0..=5 => s.push_str(u.choose(PIECES)?),
                6 => s.push(u.arbitrary()?),
                7 => s.push_str(u.choose(WORDS)?),
                8 => s.push_str(&u.int_in_range(0..=999u16)?.to_string()),
                _ => s.push(' '),
            }
        }
        Ok(s)
    }

    fn key(&self, u: &mut Unstructured<'_>) -> Result<String> {
        if self.ordinary {
            let keys = ["id", "name", "email", "tags", "owner", "items", "note"];
            return Ok(u.choose(&keys)?.to_string());
        }
        match u.int_in_range(0u8..=4)? {
            0..=2 => Ok(u.choose(KEYS)?.to_string()),
            _ => self.string(u),
        }
    }
}

/// Whether `value` is ordinary as `SPEC.md` (*Reading the dense profile*)
/// says the datasets are, so the dense reading must give it back exactly:
/// no null, no empty string or container, no string that reads as
/// another type or holds what a reading splits or unescapes (only
/// letters, digits and ` .-:/@`, no edge space), keys of letters, digits
/// and `_`, lists of two or more, and the rows of every array or object
/// of objects listing their (dotted) members in the order of the columns.
pub(crate) fn is_ordinary(value: &Value) -> bool {
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        let ordinary = match value {
            Value::Null => false,
            Value::Bool(_) | Value::Number(_) => true,
            Value::String(s) => is_ordinary_text(s),
            Value::Array(items) => {
                stack.extend(items);
                items.len() >= 2 && rows_in_column_order(items)
            }
            Value::Object(map) => {
                stack.extend(map.values());
                let keys = map.keys().all(|k| {
                    !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                });
                let rows: Vec<Value> = map.values().cloned().collect();
                !map.is_empty() && keys && rows_in_column_order(&rows)
            }
        };
        if !ordinary {
            return false;
        }
    }
    true
}

fn is_ordinary_text(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with(' ')
        && !s.ends_with(' ')
        && s != "true"
        && s != "false"
        && s.parse::<Number>().is_err()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || " .-:/@".contains(c))
}

/// Whether every row among `items` that is an object lists its leaves
/// (nested objects walked) in the order of the columns: the union of the
/// rows' leaf paths, first seen first.
fn rows_in_column_order(items: &[Value]) -> bool {
    let rows: Vec<Vec<String>> = items
        .iter()
        .filter_map(|item| {
            let mut paths = Vec::new();
            leaf_paths(item.as_object()?, "", &mut paths);
            Some(paths)
        })
        .collect();
    let mut columns: Vec<&String> = Vec::new();
    for path in rows.iter().flatten() {
        if !columns.contains(&path) {
            columns.push(path);
        }
    }
    rows.iter().all(|row| {
        let positions: Vec<usize> = row
            .iter()
            .map(|path| columns.iter().position(|c| *c == path).unwrap_or(0))
            .collect();
        positions.windows(2).all(|w| w[0] < w[1])
    })
}

fn leaf_paths(map: &Map, prefix: &str, out: &mut Vec<String>) {
    for (key, value) in map {
        let path = format!("{prefix}.{key}");
        match value {
            Value::Object(inner) if !inner.is_empty() => leaf_paths(inner, &path, out),
            _ => out.push(path),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(text: &str) -> Value {
        codec_core::from_str(text).unwrap()
    }

    #[test]
    fn ordinary_values_are_the_datasets_kind() {
        let cases = [
            (r#"{"id": 1, "name": "ada", "tags": ["x", "y"]}"#, true),
            (r#"[{"a": 1, "b": 2}, {"a": 3}, {"b": 4}]"#, true),
            (r#"[{"a": {"x": 1, "y": 2}}, {"a": {"y": 3}}]"#, true),
            (r#"[{"a": 1, "b": 2}, {"b": 3, "a": 4}]"#, false),
            (r#"{"k": {"a": 1, "b": 2}, "m": {"b": 3, "a": 4}}"#, false),
            (r#"{"a": null}"#, false),
            (r#"{"a": "42"}"#, false),
            (r#"{"a": "x, y"}"#, false),
            (r#"{"a": " x"}"#, false),
            (r#"{"a": ["x"]}"#, false),
            (r#"{"a.b": 1}"#, false),
            (r#"{"a": {}}"#, false),
        ];
        for (text, expected) in cases {
            assert_eq!(is_ordinary(&json(text)), expected, "{text}");
        }
    }

    #[test]
    fn built_values_are_deterministic_and_bounded() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        for len in 0..300 {
            // A first byte that does not start JSON, then pseudo-random ones.
            let data: Vec<u8> = std::iter::once(1)
                .chain((0..len).map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    (seed >> 24) as u8
                }))
                .collect();
            let value = value_of(&data).expect("bytes not starting like JSON build a value");
            assert!(value.depth() <= MAX_BUILT_DEPTH + 3, "{value:?}");
            assert_eq!(Some(value), value_of(&data));
        }
    }
}
