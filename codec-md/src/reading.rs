//! The documented reading: how a line of inline markdown text becomes a
//! scalar or an inline list. Shared by the parser (on the source text) and
//! by [`normalize`](crate::normalize) (on a value's strings), so the two
//! cannot disagree.
//!
//! The rules, in `SPEC.md` (*Reading*): escapes and numeric references are
//! decoded as the renderer encodes them; empty text is null; `true` and
//! `false` are bools; text that is a JSON number is that number, its text
//! kept; anything else is a string. A key's value (or a top-level
//! paragraph) is split at every comma into an inline list; `[]` and `{}`
//! are the empty containers. Lossless markers (quotes, `\[x]`, `-`, `#`)
//! are read only by the lossless reading.

use codec_core::Value;

// What text reads as is the schema's, shared with the lossless writer.
pub(crate) use crate::schema::scalar;

/// Whether text is read plainly or with the lossless markers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reading {
    /// The default rendering, and markdown written by others.
    Plain,
    /// The lossless rendering: quoted strings, `\[x]`, `-` and `#`.
    Lossless,
}

/// Text decoded from its source, with what a lossless marker needs: whether
/// the first and the last character were written raw as `"`.
#[derive(Debug)]
pub(crate) struct Decoded {
    pub(crate) text: String,
    /// The text was `"…"` with both quotes raw (not escaped, not refs).
    pub(crate) quoted: bool,
}

/// Decodes inline source text: `\` before ASCII punctuation gives the
/// punctuation, `&#N;`, `&#xH;` and a few named entities give their
/// character, anything else is itself. Linear in the text.
pub(crate) fn decode(raw: &str) -> Decoded {
    let mut text = String::with_capacity(raw.len());
    let mut first_raw_quote = false;
    let mut last_raw_quote = false;
    let mut rest = raw;
    let mut first = true;
    while let Some(c) = rest.chars().next() {
        rest = &rest[c.len_utf8()..];
        let mut is_raw = true;
        match c {
            '\\' => match rest.chars().next() {
                Some(p) if p.is_ascii_punctuation() => {
                    text.push(p);
                    rest = &rest[1..];
                    is_raw = false;
                }
                _ => text.push('\\'),
            },
            '&' => match decode_entity(rest) {
                Some((decoded, len)) => {
                    text.push(decoded);
                    rest = &rest[len..];
                    is_raw = false;
                }
                None => text.push('&'),
            },
            _ => text.push(c),
        }
        let raw_quote = is_raw && c == '"';
        if first {
            first_raw_quote = raw_quote;
            first = false;
        }
        last_raw_quote = raw_quote;
    }
    let quoted = first_raw_quote && last_raw_quote && text.len() >= 2;
    Decoded { text, quoted }
}

/// Decodes `#N;`, `#xH;` or a named entity after an `&`: the character and
/// the bytes taken.
pub(crate) fn decode_entity(rest: &str) -> Option<(char, usize)> {
    if let Some(body) = rest.strip_prefix('#') {
        let (radix, digits) = match body.strip_prefix(['x', 'X']) {
            Some(hex) => (16, hex),
            None => (10, body),
        };
        // At most 7 digits (U+10FFFF is 1114111): bounded work per `&`.
        let len = digits
            .bytes()
            .take(8)
            .take_while(u8::is_ascii_alphanumeric)
            .count();
        if len == 0 || len > 7 || digits.as_bytes().get(len) != Some(&b';') {
            return None;
        }
        let code = u32::from_str_radix(&digits[..len], radix).ok()?;
        let taken = rest.len() - digits.len() + len + 1;
        return char::from_u32(code).map(|c| (c, taken));
    }
    // The renderer never writes a raw named entity (it escapes the `&`);
    // these are the ones people and tools write.
    const NAMED: [(&str, char); 6] = [
        ("amp;", '&'),
        ("lt;", '<'),
        ("gt;", '>'),
        ("quot;", '"'),
        ("apos;", '\''),
        ("nbsp;", '\u{a0}'),
    ];
    NAMED
        .iter()
        .find(|(name, _)| rest.starts_with(name))
        .map(|&(name, c)| (c, name.len()))
}

/// Splits source text at every comma, giving the raw pieces. The lossless
/// reading does not split at an escaped comma (`\,`); the plain reading
/// does (the renderer escapes a comma that starts a paragraph line), and
/// drops the backslash. Linear: a backslash skips exactly one character.
pub(crate) fn split_commas(raw: &str, reading: Reading) -> Vec<&str> {
    let bytes = raw.as_bytes();
    let mut pieces = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if bytes.get(i + 1) == Some(&b',') && reading == Reading::Plain => {
                pieces.push(&raw[start..i]);
                i += 2;
                start = i;
            }
            b'\\' if bytes.get(i + 1).is_some_and(u8::is_ascii_punctuation) => i += 2,
            b',' => {
                pieces.push(&raw[start..i]);
                i += 1;
                start = i;
            }
            _ => i += 1,
        }
    }
    pieces.push(&raw[start..]);
    pieces
}

/// The spaces and tabs a reader trims around a piece, a cell or a value.
pub(crate) fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// One piece of source text (a cell, a list item, a whole value): trimmed,
/// decoded, and read as a scalar; a quoted piece is a string in the
/// lossless reading.
pub(crate) fn piece(raw: &str, reading: Reading) -> Value {
    let decoded = decode(raw.trim_matches(is_blank));
    if reading == Reading::Lossless && decoded.quoted {
        let inner = &decoded.text[1..decoded.text.len() - 1];
        return Value::String(inner.to_owned());
    }
    scalar(&decoded.text)
}

/// What a key's value (or a top-level paragraph) reads as: the empty
/// containers, an inline list when there is a comma, else a scalar. In the
/// lossless reading, `\[x]` is a one-item list and `#` says "the section of
/// this key comes later" (`None`).
pub(crate) fn line(raw: &str, reading: Reading) -> Option<Value> {
    let raw = raw.trim_matches(is_blank);
    if reading == Reading::Lossless {
        if raw == "#" {
            return None;
        }
        if let Some(inner) = raw.strip_prefix("\\[").and_then(|r| r.strip_suffix(']')) {
            // The `]` is raw unless the byte before it escapes it; the
            // renderer never escapes `]`, and writes a final `\` as `\\`.
            // A one-item list's item never holds a comma.
            if !ends_with_escape(inner) && split_commas(inner, reading).len() == 1 {
                return Some(Value::Array(vec![piece(inner, reading)]));
            }
        }
    }
    let pieces = split_commas(raw, reading);
    if let [one] = pieces[..] {
        let decoded = decode(one);
        let empty_container = match reading {
            Reading::Plain => decoded.text.as_str(),
            Reading::Lossless => one,
        };
        return Some(match empty_container {
            "[]" => Value::Array(Vec::new()),
            "{}" => Value::Object(codec_core::Map::new()),
            _ => piece(one, reading),
        });
    }
    Some(Value::Array(
        pieces.into_iter().map(|p| piece(p, reading)).collect(),
    ))
}

/// Whether `raw` ends inside an escape: an odd run of trailing backslashes.
fn ends_with_escape(raw: &str) -> bool {
    raw.bytes().rev().take_while(|&b| b == b'\\').count() % 2 == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_what_the_renderer_encodes() {
        let cases: &[(&str, &str, bool)] = &[
            ("plain", "plain", false),
            ("a\\|b", "a|b", false),
            ("\\\\", "\\", false),
            ("C:\\dir", "C:\\dir", false),
            ("&#32;x&#0;", " x\0", false),
            ("&#x1F600;", "😀", false),
            ("&amp;&lt;", "&<", false),
            ("\\&amp;", "&amp;", false),
            ("&#99999999;", "&#99999999;", false),
            ("\"a\"", "\"a\"", true),
            ("\\\"a\"", "\"a\"", false),
            ("\"a\\\\\"", "\"a\\\"", true),
            ("\"", "\"", false),
        ];
        for (raw, text, quoted) in cases {
            let decoded = decode(raw);
            assert_eq!(decoded.text, *text, "{raw:?}");
            assert_eq!(decoded.quoted, *quoted, "{raw:?}");
        }
    }

    #[test]
    fn reads_lines() {
        use Reading::*;
        let cases: &[(&str, Reading, &str)] = &[
            ("x", Plain, r#""x""#),
            ("42", Plain, "42"),
            ("1.10", Plain, "1.10"),
            ("true", Plain, "true"),
            ("", Plain, "null"),
            ("a, b", Plain, r#"["a","b"]"#),
            ("a,b", Plain, r#"["a","b"]"#),
            ("1, , x,", Plain, r#"[1,null,"x",null]"#),
            ("a\\, b", Plain, r#"["a","b"]"#),
            ("\\,&#32;", Plain, r#"[null," "]"#),
            ("a\\\\, b", Plain, r#"["a\\","b"]"#),
            ("[]", Plain, "[]"),
            ("\\[]", Plain, "[]"),
            ("{}", Plain, "{}"),
            ("\"42\"", Plain, r#""\"42\"""#),
            ("\"42\"", Lossless, r#""42""#),
            ("\"\"", Lossless, r#""""#),
            ("\\[x]", Lossless, r#"["x"]"#),
            ("\\[]", Lossless, "[null]"),
            ("\\[\"\"]", Lossless, r#"[""]"#),
            ("[]", Lossless, "[]"),
            ("\"a, b\"", Lossless, r#"["\"a","b\""]"#),
            ("a\\, b", Lossless, r#""a, b""#),
            ("\\[a](, b]", Lossless, r#"["[a](","b]"]"#),
        ];
        for (raw, reading, json) in cases {
            let expected = codec_core::from_str(json).unwrap();
            assert_eq!(line(raw, *reading), Some(expected), "{raw:?} {reading:?}");
        }
        assert_eq!(line("#", Lossless), None);
    }
}
