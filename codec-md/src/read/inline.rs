//! Inline text read back, the inverse of the writer's escaping: the one
//! escape-aware splitter (table rows at `|`, column paths at `.`, inline
//! lists at their commas), the one character reference decoder, and the
//! decoding of a piece of text.
//!
//! Every reader splits and decodes through these, so "a `\` before ASCII
//! punctuation escapes it" and "what a reference is" are each written
//! once. All of it is linear: a backslash skips exactly one character, and
//! a reference is at most 7 digits.

/// The spaces and tabs a reader trims around a piece, a cell or a value.
pub(crate) fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// Splits `text` at every delimiter outside an escape, giving each piece
/// with its byte offset. `delimiter(bytes, i)` says whether a delimiter
/// starts at byte `i`, and its length; it is asked before the escape rule,
/// so a delimiter may itself start with a backslash (the default reading's
/// `\,`). Otherwise a `\` before ASCII punctuation skips that character.
pub(crate) fn split(
    text: &str,
    mut delimiter: impl FnMut(&[u8], usize) -> Option<usize>,
) -> impl Iterator<Item = (usize, &str)> {
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut i = 0;
    let mut done = false;
    std::iter::from_fn(move || {
        while i < bytes.len() {
            if let Some(len) = delimiter(bytes, i) {
                let piece = (start, &text[start..i]);
                i += len;
                start = i;
                return Some(piece);
            }
            let escape =
                bytes[i] == b'\\' && bytes.get(i + 1).is_some_and(u8::is_ascii_punctuation);
            i += if escape { 2 } else { 1 };
        }
        if done {
            return None;
        }
        done = true;
        Some((start, &text[start..]))
    })
}

/// The byte offset of the first delimiter outside an escape (see
/// [`split`]).
pub(crate) fn find(
    text: &str,
    delimiter: impl FnMut(&[u8], usize) -> Option<usize>,
) -> Option<usize> {
    let (_, before) = split(text, delimiter).next()?;
    (before.len() < text.len()).then_some(before.len())
}

/// A delimiter of [`split`]: the one byte `b`.
pub(crate) fn byte(b: u8) -> impl Fn(&[u8], usize) -> Option<usize> {
    move |bytes, i| (bytes[i] == b).then_some(1)
}

/// Which character references a reading decodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refs {
    /// `&#N;` and `&#xH;` only: what the renderer writes (`parse_table`'s
    /// exact cells).
    Numeric,
    /// Also the named entities people and tools write (`&amp;`, ...).
    All,
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
/// punctuation, a reference ([`reference`]) gives its character, anything
/// else is itself. Linear in the text.
pub(crate) fn decode(raw: &str, refs: Refs) -> Decoded {
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
            '&' => match reference(rest, refs) {
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

/// Decodes the reference after an `&`: `#N;` or `#xH;` (at most 7 digits,
/// as CommonMark allows), and with [`Refs::All`] a named entity. Gives the
/// character and the bytes taken.
pub(crate) fn reference(rest: &str, refs: Refs) -> Option<(char, usize)> {
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
    if refs == Refs::Numeric {
        return None;
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
            let decoded = decode(raw, Refs::All);
            assert_eq!(decoded.text, *text, "{raw:?}");
            assert_eq!(decoded.quoted, *quoted, "{raw:?}");
        }
        assert_eq!(decode("&amp;&#38;", Refs::Numeric).text, "&amp;&");
    }

    #[test]
    fn decodes_references() {
        let cases: &[(&str, Option<(char, usize)>)] = &[
            ("#0;", Some(('\0', 3))),
            ("#32;x", Some((' ', 4))),
            ("#x1F600;", Some(('😀', 8))),
            ("#X41;", Some(('A', 5))),
            ("#1114111;", Some(('\u{10ffff}', 9))),
            ("#xD800;", None),
            ("#;", None),
            ("#12", None),
            ("#99999999999;", None),
            ("#00000065;", None),
        ];
        for (input, expected) in cases {
            for refs in [Refs::Numeric, Refs::All] {
                assert_eq!(reference(input, refs), *expected, "{input:?}");
            }
        }
        assert_eq!(reference("amp;", Refs::All), Some(('&', 4)));
        assert_eq!(reference("amp;", Refs::Numeric), None);
    }

    #[test]
    fn splits_outside_escapes() {
        let cases: &[(&str, u8, &[&str])] = &[
            ("a", b'.', &["a"]),
            ("a.b", b'.', &["a", "b"]),
            ("a\\.b.c", b'.', &["a\\.b", "c"]),
            ("a\\\\.b", b'.', &["a\\\\", "b"]),
            ("a.", b'.', &["a", ""]),
            ("", b'.', &[""]),
            ("a|b\\|c|", b'|', &["a", "b\\|c", ""]),
            ("a\\", b'|', &["a\\"]),
        ];
        for (text, b, pieces) in cases {
            let found: Vec<&str> = split(text, byte(*b)).map(|(_, p)| p).collect();
            assert_eq!(found, *pieces, "{text:?}");
        }
        let offsets: Vec<usize> = split("ab|c|", byte(b'|')).map(|(at, _)| at).collect();
        assert_eq!(offsets, [0, 3, 5]);
    }
}
