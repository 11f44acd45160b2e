//! The dense profile's JSON (fenced `json` blocks, JSON cells, a
//! document's JSON paragraph): codec-core's [`JsonWriter`], compact, with
//! the escapes markdown needs ([`MarkdownSafe`]).
//!
//! The output is exact JSON: keys in source order, numbers verbatim.
//! Strings are escaped as JSON requires, and also, as `\uXXXX`, every
//! character that could change the markdown around the JSON: backticks
//! (they could close a code span or a fence), `|` (it could end a table
//! cell), and the characters markdown never holds raw (R1 of
//! `ESCAPING.md`: controls, DEL, invisible and bidi characters). A JSON
//! reader gets the same strings back; in a fence or a code span the
//! markdown needs no escaping at all around it (a paragraph still escapes
//! what could pair up inline, see [`super::escape::write_json_line`]).

use codec_core::{EncodeError, JsonEscapes, JsonWriter, ValueView, ViewKind};

use super::escape;

/// What the dense profile's JSON writes `\uXXXX` besides JSON's own
/// escapes: a backtick, `|`, and the characters markdown never holds raw.
#[derive(Debug, Clone, Copy)]
struct MarkdownSafe;

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

    #[inline]
    fn escapes(self, c: char) -> bool {
        match ASCII.get(c as usize) {
            Some(&ascii) => ascii,
            None => escape::is_never_raw(c),
        }
    }
}

/// The writer for a value inside `depth` open containers.
fn writer(depth: usize, max_depth: usize) -> JsonWriter<MarkdownSafe> {
    JsonWriter::compact()
        .escapes(MarkdownSafe)
        .max_depth(max_depth)
        .inside(depth)
}

/// Appends the compact JSON of `value`. Containers nested deeper than
/// `max_depth - depth` are an [`EncodeError::DepthLimit`].
pub(super) fn write<'v, V: ValueView<'v>>(
    out: &mut Vec<u8>,
    value: V,
    depth: usize,
    max_depth: usize,
) -> Result<(), EncodeError> {
    writer(depth, max_depth).write_view(value, out)
}

/// [`write`], but a member or element for which `skip` is true is written
/// as nothing (its key and separators stay): the JSON around subtrees whose
/// cost is already known, for the dense profile's estimate. Strings and
/// scalars go through the shared writer.
pub(super) fn write_skipping<'v, V: ValueView<'v>>(
    out: &mut Vec<u8>,
    value: V,
    depth: usize,
    max_depth: usize,
    skip: &impl Fn(V) -> bool,
) -> Result<(), EncodeError> {
    if skip(value) {
        return Ok(());
    }
    let json = writer(depth, max_depth);
    let kind = value.kind();
    let (open, close) = match &kind {
        ViewKind::Array(_) => (b'[', b']'),
        ViewKind::Object(_) => (b'{', b'}'),
        _ => return json.write_view(value, out),
    };
    if depth + 1 > max_depth {
        return Err(EncodeError::DepthLimit { limit: max_depth });
    }
    out.push(open);
    match kind {
        ViewKind::Array(items) => {
            for (i, item) in items.enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_skipping(out, item, depth + 1, max_depth, skip)?;
            }
        }
        ViewKind::Object(members) => {
            for (i, (key, item)) in members.enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                json.write_str(key, out);
                out.push(b':');
                write_skipping(out, item, depth + 1, max_depth, skip)?;
            }
        }
        _ => {}
    }
    out.push(close);
    Ok(())
}

#[cfg(test)]
mod tests {
    use codec_core::{from_str, Value};

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

    /// A skipped subtree is written as nothing; everything else as
    /// [`write`] writes it.
    #[test]
    fn skips_what_it_is_told_to() {
        let value = from_str(r#"{"a": {"x": "`"}, "b": [1, {"y": 2}], "c": "|"}"#).unwrap();
        let mut all = Vec::new();
        write_skipping(&mut all, &value, 0, 128, &|_: &Value| false).unwrap();
        let mut written = Vec::new();
        write(&mut written, &value, 0, 128).unwrap();
        assert_eq!(all, written);
        let (a, y) = (&value["a"], &value["b"][1]);
        let skip = |v: &Value| std::ptr::eq(v, a) || std::ptr::eq(v, y);
        let mut skeleton = Vec::new();
        write_skipping(&mut skeleton, &value, 0, 128, &skip).unwrap();
        assert_eq!(
            String::from_utf8(skeleton).unwrap(),
            r#"{"a":,"b":[1,],"c":"\u007c"}"#
        );
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
