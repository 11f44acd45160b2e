//! JSON: [`JsonWriter`] writes any `Serialize` value, a [`Value`] or a
//! [`ValueView`] as JSON bytes; [`from_slice`] and [`Parser`] read JSON
//! into a [`Value`].
//!
//! One writer for every codec of the workspace: `codec-json` is a [`Codec`]
//! over it, and `codec-md` writes the JSON of its dense profile with it.
//! Its output is `serde_json`'s byte for byte (the escapes of its
//! `CompactFormatter`, the two-space indent of its `PrettyFormatter`), with
//! one deliberate difference on the `Serialize` path: map keys are sorted,
//! as [`to_value`](crate::to_value) sorts them. A [`Value`] is written in
//! its own key order, with its numbers' exact text.
//!
//! What is escaped is a type parameter ([`JsonEscapes`]), so a format that
//! embeds JSON (a markdown code span, a table cell) can have more
//! characters written `\uXXXX`, and the default costs nothing: with
//! [`StandardEscapes`] the string writer checks one table entry per byte
//! and never decodes UTF-8.
//!
//! [`Codec`]: crate::Codec

mod escape;
mod object;
mod parse;
mod ser;
mod tape;
mod value;

use serde::Serialize;

pub use escape::{JsonEscapes, StandardEscapes};
pub use object::JsonObject;
pub use parse::{
    DuplicateKeys, ParseError, ParseErrorKind, ParseOptions, Parser, from_slice, from_slice_with,
    from_str,
};

use crate::error::EncodeError;
use crate::value::{DEFAULT_MAX_DEPTH, Value};
use crate::view::ValueView;
use crate::view::sealed::Repr;

/// How a [`JsonWriter`] lays out its output.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum JsonStyle {
    /// No whitespace, as `serde_json::to_vec`.
    #[default]
    Compact,
    /// Two-space indent, one item a line, as `serde_json::to_vec_pretty`.
    Pretty,
}

impl JsonStyle {
    /// Before an element or member: `,` after the first, and in the pretty
    /// style a new line indented to `level`.
    #[inline]
    pub(crate) fn before_item(self, out: &mut Vec<u8>, first: bool, level: usize) {
        if !first {
            out.push(b',');
        }
        if self == JsonStyle::Pretty {
            newline_indent(out, level);
        }
    }

    /// Closes a container opened at `level` (its items were at `level + 1`).
    #[inline]
    pub(crate) fn close(self, out: &mut Vec<u8>, had_items: bool, level: usize, bracket: u8) {
        if had_items && self == JsonStyle::Pretty {
            newline_indent(out, level);
        }
        out.push(bracket);
    }

    /// Between a key and its value.
    #[inline]
    pub(crate) fn colon(self, out: &mut Vec<u8>) {
        match self {
            JsonStyle::Compact => out.push(b':'),
            JsonStyle::Pretty => out.extend_from_slice(b": "),
        }
    }
}

fn newline_indent(out: &mut Vec<u8>, level: usize) {
    out.push(b'\n');
    out.resize(out.len() + 2 * level, b' ');
}

/// Writes JSON: a style, the characters escaped, and a depth limit.
///
/// `Copy` and a few words: build one where it is used. Every method
/// appends to the caller's buffer; on error the buffer may hold a partial
/// encoding after its original length.
///
/// ```
/// use codec_core::json::JsonWriter;
///
/// let mut out = Vec::new();
/// JsonWriter::compact().write(&[("b", 1), ("a", 2)], &mut out).unwrap();
/// assert_eq!(out, br#"[["b",1],["a",2]]"#);
///
/// // A parsed value keeps its key order and its numbers' text.
/// let value = codec_core::from_str(r#"{"z": 1.10, "a": [1e400]}"#).unwrap();
/// let mut out = Vec::new();
/// JsonWriter::pretty().write_value(&value, &mut out).unwrap();
/// assert_eq!(out, b"{\n  \"z\": 1.10,\n  \"a\": [\n    1e400\n  ]\n}");
/// ```
#[derive(Debug, Clone, Copy)]
pub struct JsonWriter<E = StandardEscapes> {
    style: JsonStyle,
    escapes: E,
    max_depth: usize,
    /// Containers already open around what is written.
    level: usize,
}

impl JsonWriter {
    /// A writer in `style`, with JSON's own escapes and the default depth
    /// limit ([`DEFAULT_MAX_DEPTH`]).
    pub const fn new(style: JsonStyle) -> JsonWriter {
        JsonWriter {
            style,
            escapes: StandardEscapes,
            max_depth: DEFAULT_MAX_DEPTH,
            level: 0,
        }
    }

    /// Compact JSON, as `serde_json::to_vec`.
    pub const fn compact() -> JsonWriter {
        JsonWriter::new(JsonStyle::Compact)
    }

    /// Pretty JSON, as `serde_json::to_vec_pretty`.
    pub const fn pretty() -> JsonWriter {
        JsonWriter::new(JsonStyle::Pretty)
    }
}

impl<E: JsonEscapes> JsonWriter<E> {
    /// The same writer, escaping what `escapes` says besides what JSON
    /// requires ([`StandardEscapes`] unless set).
    pub fn escapes<F: JsonEscapes>(self, escapes: F) -> JsonWriter<F> {
        JsonWriter {
            style: self.style,
            escapes,
            max_depth: self.max_depth,
            level: self.level,
        }
    }

    /// Containers nested deeper than `limit` (counting the ones already
    /// open, see [`inside`](JsonWriter::inside)) are an
    /// [`EncodeError::DepthLimit`]: [`DEFAULT_MAX_DEPTH`] unless set, the
    /// limit of [`from_slice`] and
    /// [`to_value`](crate::to_value). Checked before descending, so no
    /// value can overflow the stack.
    pub fn max_depth(self, limit: usize) -> JsonWriter<E> {
        JsonWriter {
            max_depth: limit,
            ..self
        }
    }

    /// What is written sits inside `levels` open containers: they count
    /// toward the depth limit, and indent pretty output. 0 unless set.
    pub fn inside(self, levels: usize) -> JsonWriter<E> {
        JsonWriter {
            level: levels,
            ..self
        }
    }

    /// The layout.
    pub fn style(&self) -> JsonStyle {
        self.style
    }

    /// Appends the JSON of any `Serialize` value, statically dispatched:
    /// `serde_json`'s bytes, with map keys sorted (they stream while they
    /// arrive sorted, and are buffered and sorted otherwise).
    #[inline]
    pub fn write<T: Serialize + ?Sized>(
        &self,
        value: &T,
        out: &mut Vec<u8>,
    ) -> Result<(), EncodeError> {
        value
            .serialize(ser::Serializer::new(out, self))
            .map_err(EncodeError::from)
    }

    /// Appends the JSON of a [`Value`], in its own key order and with its
    /// numbers' exact text.
    pub fn write_value(&self, value: &Value, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        value::write_view(self, value, out, self.level)
    }

    /// Appends the JSON of any [`ValueView`] (a `&Value`, or a
    /// [`Tape`](crate::tape::Tape)'s node), in its own key order and with its
    /// numbers' exact text: [`write_value`](JsonWriter::write_value)'s
    /// bytes for the same value.
    ///
    /// ```
    /// use codec_core::{json::JsonWriter, tape::Tape};
    ///
    /// let tape = Tape::from_serialize(&[("b", 1.5), ("a", 2.0)]).unwrap();
    /// let mut out = Vec::new();
    /// JsonWriter::compact().write_view(tape.root(), &mut out).unwrap();
    /// assert_eq!(out, br#"[["b",1.5],["a",2.0]]"#);
    /// ```
    #[inline]
    pub fn write_view<'v, V: ValueView<'v>>(
        &self,
        view: V,
        out: &mut Vec<u8>,
    ) -> Result<(), EncodeError> {
        // A tape's node writes its events in order, a `&Value` walks.
        match view.repr() {
            Repr::Value(value) => value::write_view(self, value, out, self.level),
            Repr::Tape(node) => tape::write(node, self, out, self.level),
        }
    }

    /// Appends `s` as a JSON string, quotes included.
    #[inline]
    pub fn write_str(&self, s: &str, out: &mut Vec<u8>) {
        escape::write_str(out, s, self.escapes);
    }

    /// Fails when a container opening at `level` (containers already open)
    /// would be deeper than the limit.
    #[inline]
    pub(crate) fn check_depth(&self, level: usize) -> Result<(), EncodeError> {
        if level >= self.max_depth {
            return Err(EncodeError::DepthLimit {
                limit: self.max_depth,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `depth` containers, one inside the other.
    fn nested(depth: usize, objects: bool) -> Value {
        (0..depth).fold(Value::Null, |value, _| {
            if objects {
                Value::Object([("a", value)].into_iter().collect())
            } else {
                Value::Array(vec![value])
            }
        })
    }

    #[test]
    fn stops_at_the_depth_limit() {
        let cases: &[(usize, usize, usize, bool)] = &[
            // (value depth, limit, levels already open, written)
            (3, 3, 0, true),
            (3, 2, 0, false),
            (3, 4, 1, true),
            (3, 3, 1, false),
        ];
        for &(depth, limit, inside, ok) in cases {
            for objects in [false, true] {
                let value = nested(depth, objects);
                let writer = JsonWriter::compact().max_depth(limit).inside(inside);
                let result = writer.write_value(&value, &mut Vec::new());
                match result {
                    Ok(()) => assert!(ok, "{depth} {limit} {inside}"),
                    Err(EncodeError::DepthLimit { limit: l }) => {
                        assert!(!ok, "{depth} {limit} {inside}");
                        assert_eq!(l, limit);
                    }
                    Err(e) => panic!("{e}"),
                }
                let result = writer.write(&value, &mut Vec::new());
                assert_eq!(result.is_ok(), ok, "serialize {depth} {limit} {inside}");
            }
        }
    }
}
