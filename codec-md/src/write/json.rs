//! A minimal compact JSON writer, for the subtrees the dense profile writes
//! as JSON (fenced `json` blocks, JSON cells, and a document's JSON
//! paragraph).
//!
//! codec-md depends on codec-core only (adapters never depend on each
//! other), so it cannot call codec-json. The output is exact JSON: keys in
//! source order, numbers verbatim through [`Number::write_to`]. Strings are
//! escaped as JSON requires, and also, as `\uXXXX`, every character that
//! could change the markdown around the JSON: backticks (they could close
//! a code span or a fence), `|` (it could end a table cell), and the
//! characters the markdown writer never writes raw (controls, DEL,
//! invisible and bidi characters). A JSON reader gets the same strings
//! back; in a fence or a code span the markdown needs no escaping at all
//! around it (a paragraph still escapes what could pair up inline, see
//! [`super::escape::write_json_line`]).
//!
//! [`Number::write_to`]: codec_core::Number::write_to

use codec_core::{EncodeError, Value};

/// Appends the compact JSON of `value`. Containers nested deeper than
/// `max_depth - depth` are an [`EncodeError::DepthLimit`].
pub(super) fn write(
    out: &mut Vec<u8>,
    value: &Value,
    depth: usize,
    max_depth: usize,
) -> Result<(), EncodeError> {
    write_skipping(out, value, depth, max_depth, &|_| false)
}

/// [`write`], but a member or element for which `skip` is true is written
/// as nothing (its key and separators stay): the JSON around subtrees whose
/// cost is already known.
pub(super) fn write_skipping(
    out: &mut Vec<u8>,
    value: &Value,
    depth: usize,
    max_depth: usize,
    skip: &dyn Fn(&Value) -> bool,
) -> Result<(), EncodeError> {
    if skip(value) {
        return Ok(());
    }
    match value {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(true) => out.extend_from_slice(b"true"),
        Value::Bool(false) => out.extend_from_slice(b"false"),
        Value::Number(n) => n.write_to(out),
        Value::String(s) => write_string(out, s),
        Value::Array(items) => {
            if depth + 1 > max_depth {
                return Err(EncodeError::DepthLimit { limit: max_depth });
            }
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_skipping(out, item, depth + 1, max_depth, skip)?;
            }
            out.push(b']');
        }
        Value::Object(map) => {
            if depth + 1 > max_depth {
                return Err(EncodeError::DepthLimit { limit: max_depth });
            }
            out.push(b'{');
            for (i, (key, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_string(out, key);
                out.push(b':');
                write_skipping(out, item, depth + 1, max_depth, skip)?;
            }
            out.push(b'}');
        }
    }
    Ok(())
}

/// ASCII bytes a string writes escaped: controls, `"`, `\`, a backtick,
/// `|` and DEL.
const fn ascii_escapes() -> [bool; 128] {
    let mut table = [false; 128];
    let mut b = 0;
    while b < 0x20 {
        table[b] = true;
        b += 1;
    }
    table[b'"' as usize] = true;
    table[b'\\' as usize] = true;
    table[b'`' as usize] = true;
    table[b'|' as usize] = true;
    table[0x7f] = true;
    table
}

static ASCII_ESCAPES: [bool; 128] = ascii_escapes();

/// A JSON string literal, safe inside a code span, a fence or a cell. Most
/// bytes are checked with one table lookup; only non-ASCII characters are
/// decoded.
fn write_string(out: &mut Vec<u8>, s: &str) {
    out.push(b'"');
    let bytes = s.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let (c, len) = if b < 0x80 {
            if !ASCII_ESCAPES[b as usize] {
                i += 1;
                continue;
            }
            (char::from(b), 1)
        } else {
            let c = s[i..].chars().next().expect("a char starts here");
            if !needs_unicode_escape(c) {
                i += c.len_utf8();
                continue;
            }
            (c, c.len_utf8())
        };
        out.extend_from_slice(&bytes[start..i]);
        match c {
            '"' => out.extend_from_slice(b"\\\""),
            '\\' => out.extend_from_slice(b"\\\\"),
            '\n' => out.extend_from_slice(b"\\n"),
            '\r' => out.extend_from_slice(b"\\r"),
            '\t' => out.extend_from_slice(b"\\t"),
            _ => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.extend_from_slice(b"\\u");
                    for shift in [12, 8, 4, 0] {
                        out.push(b"0123456789abcdef"[usize::from((*unit >> shift) & 0xf)]);
                    }
                }
            }
        }
        i += len;
        start = i;
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

/// Characters written `\uXXXX`: the ones JSON requires (controls) and the
/// ones that could change the markdown around the JSON (the characters
/// markdown never holds raw, R1 of `ESCAPING.md`).
fn needs_unicode_escape(c: char) -> bool {
    matches!(c, '\0'..='\u{1f}' | '`' | '|') || super::escape::is_never_raw(c)
}

#[cfg(test)]
mod tests {
    use codec_core::from_str;

    use super::*;

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
