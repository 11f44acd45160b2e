//! The byte-level JSON writer shared by both entry points: string escapes,
//! indentation, and a [`Value`] walker.
//!
//! Escapes and layout are exactly `serde_json`'s (its `CompactFormatter`
//! and two-space `PrettyFormatter`), so the two can be compared byte for
//! byte in tests.

use codec_core::{EncodeError, Value, DEFAULT_MAX_DEPTH};

/// How to lay out the output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layout {
    Compact,
    Pretty,
}

impl Layout {
    /// Before an element or member: `,` after the first, and in pretty
    /// layout a new line indented to `level`.
    #[inline]
    pub(crate) fn before_item(self, out: &mut Vec<u8>, first: bool, level: usize) {
        if !first {
            out.push(b',');
        }
        if self == Layout::Pretty {
            newline_indent(out, level);
        }
    }

    /// Closes a container opened at `level` (its items were at `level + 1`).
    #[inline]
    pub(crate) fn close(self, out: &mut Vec<u8>, had_items: bool, level: usize, bracket: u8) {
        if had_items && self == Layout::Pretty {
            newline_indent(out, level);
        }
        out.push(bracket);
    }

    /// Between a key and its value.
    #[inline]
    pub(crate) fn colon(self, out: &mut Vec<u8>) {
        match self {
            Layout::Compact => out.push(b':'),
            Layout::Pretty => out.extend_from_slice(b": "),
        }
    }
}

fn newline_indent(out: &mut Vec<u8>, level: usize) {
    out.push(b'\n');
    out.resize(out.len() + 2 * level, b' ');
}

// Which bytes need an escape, and which: 0 for none, b'u' for \u00XX,
// otherwise the letter after the backslash. The same table as serde_json's.
const __: u8 = 0;
const UU: u8 = b'u';
const BB: u8 = b'b';
const TT: u8 = b't';
const NN: u8 = b'n';
const FF: u8 = b'f';
const RR: u8 = b'r';
const QU: u8 = b'"';
const BS: u8 = b'\\';
static ESCAPE: [u8; 256] = {
    let mut table = [__; 256];
    let mut i = 0;
    while i < 0x20 {
        table[i] = UU;
        i += 1;
    }
    table[0x08] = BB;
    table[0x09] = TT;
    table[0x0A] = NN;
    table[0x0C] = FF;
    table[0x0D] = RR;
    table[b'"' as usize] = QU;
    table[b'\\' as usize] = BS;
    table
};

/// Writes `s` as a JSON string, quotes included.
#[inline]
pub(crate) fn write_str(out: &mut Vec<u8>, s: &str) {
    out.push(b'"');
    let bytes = s.as_bytes();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let escape = ESCAPE[usize::from(b)];
        if escape == __ {
            continue;
        }
        out.extend_from_slice(&bytes[start..i]);
        if escape == UU {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.extend_from_slice(&[
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[usize::from(b >> 4)],
                HEX[usize::from(b & 0xF)],
            ]);
        } else {
            out.extend_from_slice(&[b'\\', escape]);
        }
        start = i + 1;
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

/// Writes a [`Value`] in source order. Recursion is bounded by
/// [`DEFAULT_MAX_DEPTH`]: a deeper value is an error before the stack is at
/// risk.
pub(crate) fn write_value(
    out: &mut Vec<u8>,
    value: &Value,
    layout: Layout,
    level: usize,
) -> Result<(), EncodeError> {
    match value {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(true) => out.extend_from_slice(b"true"),
        Value::Bool(false) => out.extend_from_slice(b"false"),
        Value::Number(n) => n.write_to(out),
        Value::String(s) => write_str(out, s),
        Value::Array(items) => {
            check_depth(level)?;
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                layout.before_item(out, i == 0, level + 1);
                write_value(out, item, layout, level + 1)?;
            }
            layout.close(out, !items.is_empty(), level, b']');
        }
        Value::Object(map) => {
            check_depth(level)?;
            out.push(b'{');
            for (i, (key, item)) in map.iter().enumerate() {
                layout.before_item(out, i == 0, level + 1);
                write_str(out, key);
                layout.colon(out);
                write_value(out, item, layout, level + 1)?;
            }
            layout.close(out, !map.is_empty(), level, b'}');
        }
    }
    Ok(())
}

/// A container may open at `level` open containers when fewer than the
/// limit are open: the same rule as `codec_core::from_slice` and
/// `codec_core::to_value`.
#[inline]
fn check_depth(level: usize) -> Result<(), EncodeError> {
    if level >= DEFAULT_MAX_DEPTH {
        return Err(EncodeError::DepthLimit {
            limit: DEFAULT_MAX_DEPTH,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_like_serde_json() {
        let cases = [
            "",
            "plain",
            "quote \" backslash \\ slash /",
            "\u{0}\u{1}\u{8}\t\n\u{b}\u{c}\r\u{1f} \u{7f}",
            "é ü 日本 😀 \u{2028}",
        ];
        for s in cases {
            let mut out = Vec::new();
            write_str(&mut out, s);
            assert_eq!(
                String::from_utf8(out).unwrap(),
                serde_json::to_string(s).unwrap(),
                "{s:?}"
            );
        }
    }
}
