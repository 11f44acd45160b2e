//! The lossless layout ([`Profile::Lossless`](crate::Profile::Lossless)):
//! `SPEC.md`'s layout plus the fewest extra characters that make
//! [`parse_lossless`](crate::parse_lossless) give back exactly the value.
//!
//! Ordinary values get none: a marker is written only where the default
//! reading would read something else.
//!
//! - `"…"` around a string that reads as another type or as a marker
//!   (`"42"`, `"true"`, `""`, `"[]"`, a cell `"-"`, a value `"#"`), or that
//!   is itself quoted (`""x""`).
//! - `\,` for a comma in a string after a key (an unescaped comma splits
//!   an inline list).
//! - `\[x]` for a one-item inline list.
//! - `-` for a member a table row lacks (an empty cell is null).
//! - `- **key**: #` in the key list where a section's member came in the
//!   object, when a listed member follows it.
//! - closing `#`s after an h6 heading, one per level below h6.
//!
//! Tables whose rows do not list their keys in the columns' order are
//! written as `[i]` sections, which keep every row's order.

use codec_core::{EncodeError, Value, ValueView, view::ViewKind};

use super::escape::{self, Context, Scalar};
use super::{Layout, MAX_HEADING, Writer};
use crate::schema::{self, Label};

/// The lossless layout: the default's hooks, with markers.
#[derive(Debug, Clone, Copy)]
pub(super) struct LosslessLayout;

impl Layout for LosslessLayout {
    const MARKS_SECTION_PLACES: bool = true;
    // Quotes strings that would read as another type.
    const STRINGS_AS_ESCAPED: bool = false;

    fn paragraph(w: &mut Writer<'_, Self>, s: &str) {
        // `""` is a quoted paragraph: it has a block of its own.
        w.line(|_, out| write_paragraph(out, s));
    }

    /// `- **key**: #`: the section of this key comes later.
    fn section_place(
        w: &mut Writer<'_, Self>,
        label: Label<'_>,
        depth: usize,
    ) -> Result<(), EncodeError> {
        w.item(label, ViewKind::<&Value>::Null, None, depth)?;
        w.out.pop();
        w.out.extend_from_slice(b" #\n");
        Ok(())
    }

    fn string(&self, out: &mut Vec<u8>, s: &str, context: Context) {
        let place = match context {
            Context::Cell => Place::Cell,
            _ => Place::Value,
        };
        write_str(out, s, place);
    }

    fn list<'v, V: ValueView<'v>>(
        &self,
        out: &mut Vec<u8>,
        items: impl ExactSizeIterator<Item = V> + Clone,
        line_start: bool,
    ) {
        write_list(out, items, line_start);
    }

    /// A table also needs every row's keys in the columns' order.
    fn table_columns<'v, V: ValueView<'v>>(
        &self,
        items: impl ExactSizeIterator<Item = V> + Clone,
    ) -> Option<Vec<&'v str>> {
        schema::table_columns(items.clone()).filter(|columns| keeps_order(items, columns))
    }

    /// `-`: the row lacks this member (an empty cell is null).
    fn missing_cell(&self, out: &mut Vec<u8>) {
        out.push(b'-');
    }

    /// An h6's closing `#`s say how far below h6 it is.
    fn heading_end(&self, out: &mut Vec<u8>, level: usize) {
        if level > MAX_HEADING {
            out.push(b' ');
            out.resize(out.len() + level - MAX_HEADING, b'#');
        }
    }
}

/// Where a string is written, for the markers it must avoid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    /// A table cell: `-` is a marker.
    Cell,
    /// A key's value or a top-level paragraph: `[]`, `{}`, `#` and a
    /// leading `[` are markers, and commas split.
    Value,
    /// An item of an inline list.
    Item,
}

/// Whether `s`, written plainly at `place`, would read as something else.
fn needs_quotes(s: &str, place: Place) -> bool {
    let typed = !matches!(schema::scalar(s), Value::String(_));
    let quoted = s.len() >= 2 && s.starts_with('"') && s.ends_with('"');
    typed
        || quoted
        || match place {
            Place::Cell => s == "-",
            Place::Value => s == "{}" || s == "#" || s.starts_with('['),
            Place::Item => s.starts_with('['),
        }
}

/// Writes a string at `place`, quoted when it must be, commas escaped
/// after a key.
fn write_str(out: &mut Vec<u8>, s: &str, place: Place) {
    let start = out.len();
    let context = match place {
        Place::Cell => Context::Cell,
        Place::Value | Place::Item => Context::Value,
    };
    if needs_quotes(s, place) {
        // The quotes make the string's edges inner text: its edge
        // whitespace stays raw, and reads back inside the quotes.
        escape::write_str(out, &format!("\"{s}\""), context);
    } else {
        escape::write_str(out, s, context);
    }
    if place == Place::Value {
        escape_commas(out, start);
    }
}

/// Writes a top-level string paragraph.
fn write_paragraph(out: &mut Vec<u8>, s: &str) {
    let start = out.len();
    if needs_quotes(s, Place::Value) {
        // A line that starts with `"` opens no block.
        escape::write_str(out, &format!("\"{s}\""), Context::Value);
    } else {
        escape::write_paragraph(out, s);
    }
    escape_commas(out, start);
}

/// Writes an inline list: `\[x]` for one item, else the items joined by
/// `, `, each quoted when it must be. `line_start` protects the start of a
/// paragraph line.
fn write_list<'v, V: ValueView<'v>>(
    out: &mut Vec<u8>,
    mut items: impl ExactSizeIterator<Item = V> + Clone,
    line_start: bool,
) {
    if items.len() == 1 {
        let Some(item) = items.next() else { return };
        out.extend_from_slice(b"\\[");
        match item.as_str() {
            Some(s) => write_str(out, s, Place::Item),
            None => escape::write_list(out, std::iter::once(Scalar::of(item)), false),
        }
        out.push(b']');
        return;
    }
    // The quoted text of each string that needs quotes.
    let quoted: Vec<Option<String>> = items
        .clone()
        .map(|item| match item.as_str() {
            Some(s) if needs_quotes(s, Place::Item) => Some(format!("\"{s}\"")),
            _ => None,
        })
        .collect();
    let scalars = items.zip(&quoted).map(|(item, quoted)| match quoted {
        Some(quoted) => Scalar::Str(quoted),
        None => Scalar::of(item),
    });
    // A line that starts with `"` opens no block.
    let line_start =
        line_start && !matches!(scalars.clone().next(), Some(Scalar::Str(s)) if s.starts_with('"'));
    escape::write_list(out, scalars, line_start);
    if out.last() == Some(&b' ') {
        out.pop();
    }
}

/// Inserts `\` before every comma written since `start`. The escaper never
/// writes a comma of its own, and writes a backslash before punctuation as
/// `\\`, so each comma there is a string's comma and stays one character.
fn escape_commas(out: &mut Vec<u8>, start: usize) {
    let commas = out[start..].iter().filter(|&&b| b == b',').count();
    if commas == 0 {
        return;
    }
    let written = out.split_off(start);
    out.reserve(written.len() + commas);
    for (i, &b) in written.iter().enumerate() {
        // Whether the byte is already escaped (the start of a paragraph
        // escapes a leading comma): an odd run of backslashes before it.
        let escaped = written[..i]
            .iter()
            .rev()
            .take_while(|&&c| c == b'\\')
            .count()
            % 2
            == 1;
        // An escape inside a bare URL would show in its link text (R12 of
        // `ESCAPING.md`): once a comma is escaped, no URL may
        // autolink, so its trigger is escaped too.
        if !escaped && (b == b',' || escape::url_trigger(&written, i)) {
            out.push(b'\\');
        }
        out.push(b);
    }
}

/// Whether every row lists its keys in the order of `columns` (a row may
/// lack some): only then does a table keep each row's key order.
fn keeps_order<'v, V: ValueView<'v>>(mut items: impl Iterator<Item = V>, columns: &[&str]) -> bool {
    items.all(|item| {
        let Some(members) = item.as_object() else {
            return false;
        };
        let mut next = 0;
        members.map(|(key, _)| key).all(|key| {
            match columns[next..].iter().position(|c| *c == key) {
                Some(at) => {
                    next += at + 1;
                    true
                }
                None => false,
            }
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_only_what_would_read_otherwise() {
        let cases: &[(&str, Place, &str)] = &[
            ("plain", Place::Value, "plain"),
            ("42", Place::Value, "\"42\""),
            ("42", Place::Cell, "\"42\""),
            ("", Place::Cell, "\"\""),
            ("true", Place::Item, "\"true\""),
            ("007", Place::Value, "007"),
            ("a, b", Place::Value, "a\\, b"),
            ("\"a, b\"", Place::Value, "\"\"a\\, b\"\""),
            ("-", Place::Cell, "\"-\""),
            ("-", Place::Value, "-"),
            ("#", Place::Value, "\"#\""),
            ("[x]", Place::Value, "\"[x]\""),
            ("{}", Place::Value, "\"{}\""),
            (" 1 ", Place::Value, "&#32;1&#32;"),
            ("1 ", Place::Value, "1&#32;"),
            ("http://x,", Place::Value, "http\\://x\\,"),
            ("a\\,", Place::Value, "a\\\\\\,"),
        ];
        for (s, place, expected) in cases {
            let mut out = Vec::new();
            write_str(&mut out, s, *place);
            assert_eq!(
                String::from_utf8(out).unwrap(),
                *expected,
                "{s:?} {place:?}"
            );
        }
    }
}
