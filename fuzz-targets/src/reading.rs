//! The reader targets: each of codec-md's readers on any text, and what it
//! gives back written and read again.

use codec_core::{Codec, Map, Value, json::JsonWriter, value::DEFAULT_MAX_DEPTH};
use codec_md::{MarkdownCodec, ParseError, ParseErrorKind, Profile, Table, normalize};

use crate::Verdict;

/// Reads `data` (as UTF-8, invalid bytes replaced) with
/// [`codec_md::parse`]; a value it gives back is at most
/// [`DEFAULT_MAX_DEPTH`] deep, encodes as JSON, renders, and reads back
/// as its [`normalize`]d form (`SPEC.md`, *Reading*).
///
/// # Panics
///
/// When a promise breaks.
pub fn md_parse(data: &[u8]) -> Verdict {
    check_read_back(data, Profile::Default, normalize)
}

/// Reads `data` with [`codec_md::parse_lossless`]; a value it gives back
/// is at most [`DEFAULT_MAX_DEPTH`] deep, encodes as JSON, and its
/// lossless rendering reads back exactly (key order and numbers' text).
///
/// # Panics
///
/// When a promise breaks.
pub fn md_parse_lossless(data: &[u8]) -> Verdict {
    check_read_back(data, Profile::Lossless, Value::clone)
}

/// Reads `data` in `profile`; a value it gives back passes
/// [`check_reading`], and its rendering in `profile` reads back as
/// `expected` of it, exactly.
fn check_read_back(data: &[u8], profile: Profile, expected: fn(&Value) -> Value) -> Verdict {
    let text = String::from_utf8_lossy(data);
    let codec = MarkdownCodec::builder().profile(profile).build();
    if let Ok(value) = codec.parse(&text) {
        check_reading(&text, &value);
        if let Some(back) = read_back(&value, profile, &text) {
            let expected = expected(&value);
            assert!(
                back.identical(&expected),
                "{text:?} reads as {value:?}, whose {profile:?} rendering reads as {back:?}, not {expected:?}"
            );
        }
    }
    Verdict::Keep
}

/// Reads `data` with [`codec_md::parse_dense`]; a value it gives back is
/// at most [`DEFAULT_MAX_DEPTH`] deep and encodes as JSON, and the
/// reading is a normal form: a reading's dense rendering, read twice,
/// changes nothing that [`normalize`] keeps (as `tests/dense_parse.rs`
/// checks on random values), wherever `normalize` has a normal form.
///
/// # Panics
///
/// When a promise breaks.
pub fn md_parse_dense(data: &[u8]) -> Verdict {
    let text = String::from_utf8_lossy(data);
    if let Ok(value) = codec_md::parse_dense(&text) {
        check_reading(&text, &value);
        let Some(once) = read_back(&value, Profile::Dense, &text) else {
            return Verdict::Keep;
        };
        let Some(twice) = read_back(&once, Profile::Dense, &text) else {
            return Verdict::Keep;
        };
        let (once, twice) = (normalize(&once), normalize(&twice));
        if is_normal(&once) {
            assert!(
                once.identical(&twice),
                "{text:?} reads as {value:?}; read back once {once:?}, twice {twice:?} (normalized)"
            );
        }
    }
    Verdict::Keep
}

/// Whether `value` is a normal form of the default reading: `normalize`
/// leaves it as it is, and not for want of one. `normalize` is not
/// idempotent where the default reading keeps changing a value (`"a,,"`
/// after a key reads as `["a,", null]`, whose item reads as `["a", null]`,
/// ...), and it gives a value at the depth limit back as it is where its
/// reading would go one level deeper (a deepest string that reads as a
/// list), though its shallower strings would still change.
fn is_normal(value: &Value) -> bool {
    normalize(value).identical(value)
        && (value.depth() < DEFAULT_MAX_DEPTH
            || codec_md::render(value).is_ok_and(|markdown| codec_md::parse(&markdown).is_ok()))
}

/// Reads `data` with [`codec_md::parse_table`]; every row of a table it
/// gives back has a cell per column, and a table with distinct columns,
/// a row and no line break, written as rows of strings, renders as a
/// table that reads back as the same cells.
///
/// # Panics
///
/// When a promise breaks.
pub fn md_parse_table(data: &[u8]) -> Verdict {
    let text = String::from_utf8_lossy(data);
    let Ok(table) = codec_md::parse_table(&text) else {
        return Verdict::Keep;
    };
    for row in &table.rows {
        assert_eq!(row.len(), table.columns.len(), "{text:?}: {table:?}");
    }
    if let Some(value) = rows_of(&table) {
        let markdown = codec_md::render(&value).expect("a table renders");
        let back = codec_md::parse_table(&markdown).unwrap_or_else(|e| {
            panic!("{text:?}: the rendering of {table:?} does not read: {e}\n{markdown}")
        });
        assert_eq!(back, table, "{text:?}\n{markdown}");
    }
    Verdict::Keep
}

/// `table` as an array of objects of strings, when it would render as a
/// table: columns distinct, at least one row, no line break anywhere.
fn rows_of(table: &Table) -> Option<Value> {
    let distinct = table
        .columns
        .iter()
        .enumerate()
        .all(|(i, c)| !table.columns[..i].contains(c));
    let texts = table.columns.iter().chain(table.rows.iter().flatten());
    let one_line = texts.clone().all(|t| !t.contains('\n'));
    if !distinct || !one_line || table.columns.is_empty() || table.rows.is_empty() {
        return None;
    }
    let rows = table.rows.iter().map(|row| {
        let members = table.columns.iter().cloned().zip(row.iter().cloned());
        Value::Object(members.map(|(k, v)| (k, Value::String(v))).collect::<Map>())
    });
    Some(Value::Array(rows.collect()))
}

/// What every reading promises of what it gives back (`SPEC.md`,
/// *Depth*): at most [`DEFAULT_MAX_DEPTH`] deep, so it encodes as JSON
/// (and drops without overflowing the stack).
fn check_reading(text: &str, value: &Value) {
    let depth = value.depth();
    assert!(
        depth <= DEFAULT_MAX_DEPTH,
        "{text:?} reads as a value {depth} deep"
    );
    JsonWriter::compact()
        .write_value(value, &mut Vec::new())
        .unwrap_or_else(|e| panic!("{text:?} reads as {value:?}, which does not encode: {e}"));
}

/// `value` rendered in `profile` and read back by that profile's reader;
/// `None` for the one documented exception (`SPEC.md`, *Depth*): a value
/// at the depth limit whose rendering would read one level deeper.
fn read_back(value: &Value, profile: Profile, text: &str) -> Option<Value> {
    let codec = MarkdownCodec::builder().profile(profile).build();
    let mut out = Vec::new();
    codec
        .encode_value(value, &mut out)
        .unwrap_or_else(|e| panic!("{text:?} reads as {value:?}, which does not render: {e}"));
    let markdown = String::from_utf8(out).expect("markdown is UTF-8");
    match codec.parse(&markdown) {
        Ok(back) => Some(back),
        Err(e) if at_the_limit(&e, value) => None,
        Err(e) => panic!(
            "{text:?} reads as {value:?}, whose {profile:?} rendering does not read: {e}\n{markdown}"
        ),
    }
}

fn at_the_limit(error: &ParseError, value: &Value) -> bool {
    matches!(error.kind(), ParseErrorKind::DepthLimit { .. }) && value.depth() == DEFAULT_MAX_DEPTH
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader's input at the depth limit and one level over it: both
    /// pass (the second is an error, not a value 129 deep).
    #[test]
    fn depth_limit_inputs_pass() {
        let headings = |n: usize| "###### k\n\n".repeat(n) + "- **a**: 1\n";
        for n in [DEFAULT_MAX_DEPTH - 2, DEFAULT_MAX_DEPTH + 1] {
            assert_eq!(md_parse(headings(n).as_bytes()), Verdict::Keep);
        }
        let dots = |n: usize| format!("|{}b|\n|---|\n1|\n", "a.".repeat(n));
        for n in [DEFAULT_MAX_DEPTH - 3, DEFAULT_MAX_DEPTH] {
            assert_eq!(md_parse_dense(dots(n).as_bytes()), Verdict::Keep);
        }
    }

    #[test]
    fn tables_with_repeated_columns_or_line_breaks_are_not_rewritten() {
        let table = |columns: &[&str], cell: &str| Table {
            columns: columns.iter().map(|c| c.to_string()).collect(),
            rows: vec![vec![cell.to_owned(); columns.len()]],
        };
        assert!(rows_of(&table(&["a", "b"], "x")).is_some());
        assert!(rows_of(&table(&["a", "a"], "x")).is_none());
        assert!(rows_of(&table(&["a"], "x\ny")).is_none());
        assert!(rows_of(&table(&[], "x")).is_none());
    }
}
