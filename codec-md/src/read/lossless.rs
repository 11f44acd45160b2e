//! The lossless reading, the mirror of the lossless layout:
//! [`parse_lossless`], the default reading plus the markers that make it
//! exact (`SPEC.md`, *Lossless*).

use codec_core::{Map, Value};

use crate::error::ParseError;
use crate::read::default::scalar;
use crate::read::inline::{self, Refs, is_blank};
use crate::read::lexer::{self, Reading};

/// Reads the lossless rendering ([`Profile::Lossless`]) back
/// into exactly the value that was rendered: `parse_lossless(&render(v))
/// == v` for every value.
///
/// On top of [`parse`](crate::parse)'s reading, a quoted piece (`"42"`,
/// `""`) is a string, `\[x]` is a one-item list, `-` in a cell is a
/// missing member, `#` after a key places that key's section, and an h6
/// heading's closing `#`s add to its depth.
///
/// [`Profile::Lossless`]: crate::Profile::Lossless
///
/// ```
/// use codec_core::from_str;
/// use codec_md::{MarkdownCodec, Profile};
/// use codec_core::CodecExt;
///
/// let value = from_str(r#"{"id": "007", "n": "42", "tags": ["x"], "empty": ""}"#).unwrap();
/// let codec = MarkdownCodec::builder().profile(Profile::Lossless).build();
/// let markdown = String::from_utf8(codec.to_vec(&value).unwrap()).unwrap();
/// assert_eq!(markdown, "- **id**: 007\n- **n**: \"42\"\n- **tags**: \\[x]\n- **empty**: \"\"\n");
/// assert_eq!(codec_md::parse_lossless(&markdown).unwrap(), value);
/// ```
pub fn parse_lossless(markdown: &str) -> Result<Value, ParseError> {
    lexer::read(markdown, LosslessReading, &lexer::ParseOptions::default())
}

/// The lossless reading's hooks: its markers in values, cells and h6
/// headings.
#[derive(Debug, Clone, Copy)]
pub(crate) struct LosslessReading;

impl Reading for LosslessReading {
    /// `#` says "the section of this key comes later" (`None`); `\[x]` is
    /// a one-item list; only a raw comma splits (`\,` is a string's own).
    fn line(self, raw: &str) -> Option<Value> {
        let raw = raw.trim_matches(is_blank);
        if raw == "#" {
            return None;
        }
        if let Some(inner) = raw.strip_prefix("\\[").and_then(|r| r.strip_suffix(']')) {
            // The `]` is raw unless the byte before it escapes it; the
            // renderer never escapes `]`, and writes a final `\` as `\\`.
            // A one-item list's item never holds a comma.
            if !ends_with_escape(inner) && items(inner).nth(1).is_none() {
                return Some(Value::Array(vec![piece(inner)]));
            }
        }
        let pieces: Vec<&str> = items(raw).collect();
        if let [one] = pieces[..] {
            return Some(match one {
                "[]" => Value::Array(Vec::new()),
                "{}" => Value::Object(Map::new()),
                _ => piece(one),
            });
        }
        Some(Value::Array(pieces.into_iter().map(piece).collect()))
    }

    /// `-` is a member the row lacks.
    fn cell(self, raw: &str) -> Option<Value> {
        (raw != "-").then(|| piece(raw))
    }

    /// An h6's closing `#`s say how far below h6 it is; no heading is
    /// capped.
    fn heading(self, level: usize, closing: usize) -> (usize, bool) {
        let depth = if level == 6 { 6 + closing } else { level };
        (depth, false)
    }
}

/// One piece of source text: a quoted piece is the string inside the
/// quotes, anything else reads as in [`parse`](crate::parse).
fn piece(raw: &str) -> Value {
    let decoded = inline::decode(raw.trim_matches(is_blank), Refs::All);
    if decoded.quoted {
        let inner = &decoded.text[1..decoded.text.len() - 1];
        return Value::String(inner.to_owned());
    }
    scalar(&decoded.text)
}

/// The raw items of an inline list: split at every raw comma.
fn items(raw: &str) -> impl Iterator<Item = &str> {
    inline::split(raw, inline::byte(b',')).map(|(_, item)| item)
}

/// Whether `raw` ends inside an escape: an odd run of trailing backslashes.
fn ends_with_escape(raw: &str) -> bool {
    raw.bytes().rev().take_while(|&b| b == b'\\').count() % 2 == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_lines() {
        let cases: &[(&str, &str)] = &[
            ("\"42\"", r#""42""#),
            ("\"\"", r#""""#),
            ("\\[x]", r#"["x"]"#),
            ("\\[]", "[null]"),
            ("\\[\"\"]", r#"[""]"#),
            ("[]", "[]"),
            ("\"a, b\"", r#"["\"a","b\""]"#),
            ("a\\, b", r#""a, b""#),
            ("\\[a](, b]", r#"["[a](","b]"]"#),
        ];
        for (raw, json) in cases {
            let expected = codec_core::from_str(json).unwrap();
            assert_eq!(LosslessReading.line(raw), Some(expected), "{raw:?}");
        }
        assert_eq!(LosslessReading.line("#"), None);
    }
}
