//! The dense profile's JSON (fenced `json` blocks and JSON cells):
//! codec-core's [`JsonWriter`], compact.
//!
//! The output is exact JSON: keys in source order, numbers verbatim.
//! Strings are escaped as JSON requires, and also, as `\uXXXX`, the
//! characters markdown never holds raw (R1 of `ESCAPING.md`: controls,
//! DEL, invisible and bidi characters). A fence holds the rest as it is
//! (its fence is longer than any backtick run in it); a JSON cell, a code
//! span in a table row, also escapes backticks (they could close the
//! span) and `|` (it could end the cell) ([`MarkdownSafe`]). A JSON
//! reader gets the same strings back; the markdown needs no escaping at
//! all around it.

use codec_core::{
    EncodeError, ValueView,
    json::{JsonEscapes, JsonWriter},
};

use super::escape;

/// What a JSON cell writes `\uXXXX` besides JSON's own escapes: a
/// backtick, `|`, and the characters markdown never holds raw.
#[derive(Debug, Clone, Copy)]
struct MarkdownSafe;

/// What a fenced `json` block writes `\uXXXX` besides JSON's own escapes:
/// the characters markdown never holds raw.
#[derive(Debug, Clone, Copy)]
struct FenceSafe;

impl JsonEscapes for FenceSafe {
    const NON_ASCII: bool = true;
    /// Of ASCII, JSON escapes the controls but DEL.
    const ASCII_ESCAPED: Option<&'static [u8]> = Some(b"\x7f");

    #[inline]
    fn escapes(self, c: char) -> bool {
        escape::is_never_raw(c)
    }
}

/// [`MarkdownSafe`] for ASCII, one lookup per byte.
static ASCII: [bool; 128] = {
    let mut table = [false; 128];
    let mut b = 0;
    while b < 128 {
        let c = b as u8 as char;
        table[b] = c == '`' || c == '|' || escape::is_never_raw(c);
        b += 1;
    }
    table
};

impl JsonEscapes for MarkdownSafe {
    const NON_ASCII: bool = true;
    /// Of ASCII, JSON escapes the controls but DEL: `escapes` is true
    /// for no other character (the test `lists_its_ascii_escapes`).
    const ASCII_ESCAPED: Option<&'static [u8]> = Some(b"`|\x7f");

    #[inline]
    fn escapes(self, c: char) -> bool {
        match ASCII.get(c as usize) {
            Some(&ascii) => ascii,
            None => escape::is_never_raw(c),
        }
    }
}

/// The writer for a value inside `depth` open containers.
fn writer<E: JsonEscapes>(escapes: E, depth: usize, max_depth: usize) -> JsonWriter<E> {
    JsonWriter::compact()
        .escapes(escapes)
        .max_depth(max_depth)
        .inside(depth)
}

/// Appends the compact JSON of `value` for a JSON cell ([`MarkdownSafe`]).
/// Containers nested deeper than `max_depth - depth` are an
/// [`EncodeError::DepthLimit`].
pub(super) fn write<'v, V: ValueView<'v>>(
    out: &mut Vec<u8>,
    value: V,
    depth: usize,
    max_depth: usize,
) -> Result<(), EncodeError> {
    writer(MarkdownSafe, depth, max_depth).write_view(value, out)
}

/// [`write`] for a fenced `json` block ([`FenceSafe`]).
pub(super) fn write_fenced<'v, V: ValueView<'v>>(
    out: &mut Vec<u8>,
    value: V,
    depth: usize,
    max_depth: usize,
) -> Result<(), EncodeError> {
    writer(FenceSafe, depth, max_depth).write_view(value, out)
}

#[cfg(test)]
mod tests {
    use codec_core::from_str;

    use super::*;

    /// The writer asks `escapes` only about the ASCII characters listed:
    /// every other one it would escape is one JSON escapes anyway.
    #[test]
    fn lists_its_ascii_escapes() {
        let listed = MarkdownSafe::ASCII_ESCAPED.unwrap_or_default();
        for b in 0u8..0x80 {
            if MarkdownSafe.escapes(char::from(b)) {
                assert!(b < 0x20 || listed.contains(&b), "{b:#x}");
            }
        }
        // And each listed one is escaped.
        assert!(listed.iter().all(|&b| MarkdownSafe.escapes(char::from(b))));
    }

    #[test]
    fn writes_exact_compact_json() {
        let cases: &[(&str, &str)] = &[
            ("null", "null"),
            ("[1.10, 1e400, -0.0, true]", "[1.10,1e400,-0.0,true]"),
            (r#"{"b": {"a": []}, "a": {}}"#, r#"{"b":{"a":[]},"a":{}}"#),
            (r#""a\"b\\c\nd\re\tf""#, r#""a\"b\\c\nd\re\tf""#),
            (
                r#""`|\u0000\u001f\u007f""#,
                r#""\u0060\u007c\u0000\u001f\u007f""#,
            ),
            (r#""\u202e\ufeff é 😀""#, r#""\u202e\ufeff é 😀""#),
            // JSON's own short escapes, as codec-json writes them.
            (r#""\b\f\u0085\u00a0""#, "\"\\b\\f\\u0085\u{a0}\""),
        ];
        for (input, expected) in cases {
            let mut out = Vec::new();
            write(&mut out, &from_str(input).unwrap(), 0, 128).unwrap();
            assert_eq!(String::from_utf8(out).unwrap(), *expected, "{input}");
            // Another JSON reader gets the same value back.
            assert_eq!(
                from_str(expected).unwrap(),
                from_str(input).unwrap(),
                "{input}"
            );
        }
    }

    #[test]
    fn stops_at_the_depth_limit() {
        let value = codec_core::testkit::nested(3, true);
        assert!(write(&mut Vec::new(), &value, 0, 3).is_ok());
        assert!(matches!(
            write(&mut Vec::new(), &value, 0, 2),
            Err(EncodeError::DepthLimit { limit: 2 })
        ));
    }
}
