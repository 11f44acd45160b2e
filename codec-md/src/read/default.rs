//! The default reading (`SPEC.md`, *Reading*), the mirror of the default
//! layout: [`parse`], and the inline rules it reads scalars and inline
//! lists by. The dense reading reads its scalars by the same rules, and
//! [`normalize`](crate::normalize) applies them to a value's strings, so
//! none of them can disagree.
//!
//! The rules: escapes and references are decoded as the renderer encodes
//! them; empty text is null; `true` and `false` are bools; text that is a
//! JSON number is that number, its text kept; anything else is a string.
//! A key's value (or a top-level paragraph) is split into an inline list
//! where the renderer separates items (a comma before a blank or the end
//! of the line); `[]` and `{}` are the empty containers.

use codec_core::{Map, Value};

use crate::error::ParseError;
use crate::read::inline::{self, Refs, is_blank};
use crate::read::lexer::{self, Reading};

/// Reads markdown into a value: the default rendering exactly as far as
/// markdown text can carry it (see [`normalize`](crate::normalize)), and
/// tables and key lists written by others.
///
/// The reading is `SPEC.md`'s *Reading*: empty text is null, `true` and
/// `false` are bools, a JSON number is a number (its text kept), text with
/// commas after a key is a list, `[]` and `{}` are empty containers,
/// sections nest by heading level, `[i]` labels make an array.
///
/// ```
/// use codec_core::from_str;
///
/// let markdown = "- **name**: api\n- **tags**: a, b\n\n# users\n\n|id|ok|\n|---|---|\n|1|true|\n";
/// let value = codec_md::parse(markdown).unwrap();
/// let expected = r#"{"name": "api", "tags": ["a", "b"], "users": [{"id": 1, "ok": true}]}"#;
/// assert_eq!(value, from_str(expected).unwrap());
///
/// let error = codec_md::parse("- **a**: 1\n\ntext\n").unwrap_err();
/// assert_eq!((error.line(), error.column()), (3, 1));
/// ```
pub fn parse(markdown: &str) -> Result<Value, ParseError> {
    lexer::read(markdown, DefaultReading, &lexer::ParseOptions::default())
}

/// The default reading's hooks: every construct as `SPEC.md` reads it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct DefaultReading;

impl Reading for DefaultReading {
    fn line(self, raw: &str) -> Option<Value> {
        Some(line(raw))
    }

    fn cell(self, raw: &str) -> Option<Value> {
        Some(piece(raw))
    }
}

// What text reads as is the schema's, shared with the lossless writer.
pub(crate) use crate::schema::scalar;

/// One piece of source text (a cell, a list item, a whole value): trimmed,
/// decoded, and read as a scalar.
pub(crate) fn piece(raw: &str) -> Value {
    scalar(&inline::decode(raw.trim_matches(is_blank), Refs::All).text)
}

/// What a key's value (or a top-level paragraph) reads as: the empty
/// containers, an inline list when a comma separates items, else a
/// scalar.
pub(crate) fn line(raw: &str) -> Value {
    let raw = raw.trim_matches(is_blank);
    let pieces: Vec<&str> = items(raw).collect();
    if let [one] = pieces[..] {
        return match inline::decode(one, Refs::All).text.as_str() {
            "[]" => Value::Array(Vec::new()),
            "{}" => Value::Object(Map::new()),
            text => scalar(text),
        };
    }
    Value::Array(pieces.into_iter().map(piece).collect())
}

/// The raw items of an inline list: split at each comma that
/// [`separates`] items. A `\,` separates as a comma does, and its
/// backslash goes (the renderer escapes a comma that starts a paragraph
/// line); any other comma is text.
pub(crate) fn items(raw: &str) -> impl Iterator<Item = &str> {
    let comma = |bytes: &[u8], i: usize| {
        let len = match bytes[i] {
            b',' => 1,
            b'\\' if bytes.get(i + 1) == Some(&b',') => 2,
            _ => return None,
        };
        separates(bytes.get(i + len).copied()).then_some(len)
    };
    inline::split(raw, comma).map(|(_, item)| item)
}

/// Whether a comma followed by the raw byte `next` (`None` at the end of
/// the line) separates the items of an inline list. The renderer joins
/// items with `, ` and drops the space after an empty last item, and an
/// item's own edge whitespace is written as references: so a comma before
/// a blank or at the end separates, and a comma inside a word (`1,000`,
/// `{?since,all}`) is text.
pub(crate) fn separates(next: Option<u8>) -> bool {
    next.is_none_or(|b| b == b' ' || b == b'\t')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_lines() {
        let cases: &[(&str, &str)] = &[
            ("x", r#""x""#),
            ("42", "42"),
            ("1.10", "1.10"),
            ("true", "true"),
            ("", "null"),
            ("a, b", r#"["a","b"]"#),
            ("a,b", r#""a,b""#),
            ("1,000", r#""1,000""#),
            ("a,\tb", r#"["a","b"]"#),
            ("1, , x,", r#"[1,null,"x",null]"#),
            ("1,,", r#"["1,",null]"#),
            ("a\\, b", r#"["a","b"]"#),
            ("\\,&#32;", r#"", ""#),
            ("\\, &#32;", r#"[null," "]"#),
            ("\\,x", r#"",x""#),
            ("a\\\\, b", r#"["a\\","b"]"#),
            ("[]", "[]"),
            ("\\[]", "[]"),
            ("{}", "{}"),
            ("\"42\"", r#""\"42\"""#),
        ];
        for (raw, json) in cases {
            let expected = codec_core::from_str(json).unwrap();
            assert_eq!(line(raw), expected, "{raw:?}");
        }
    }
}
