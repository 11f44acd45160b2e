//! Any `Serialize` straight to JSON bytes, without building a `Value`.
//!
//! This is the hot path for handlers: structs stream field by field as
//! `serde_json` streams them. Maps must come out with sorted keys (the
//! same normalization as [`to_value`](crate::to_value)): they stream while
//! their keys arrive in order and fall back to one scratch buffer, sorted
//! on `end`, at the first key that does not (see [`SortedMap`]).

use std::ops::Range;

use serde::ser::{self, Serialize};

use super::value::write_view;
use super::{JsonEscapes, JsonWriter};
use crate::value::{NUMBER_TOKEN, Number, ORDERED_MAP_TOKEN, ToValueError, Value, write_key};

type Result<T> = std::result::Result<T, ToValueError>;

/// Serializes into `out` as `writer` says, `level` containers already open.
pub(crate) struct Serializer<'a, E: JsonEscapes> {
    pub(crate) out: &'a mut Vec<u8>,
    pub(crate) writer: &'a JsonWriter<E>,
    pub(crate) level: usize,
    /// Set by the ordered-map token: the next map keeps its order.
    pub(crate) ordered: bool,
}

impl<'a, E: JsonEscapes> Serializer<'a, E> {
    #[inline]
    pub(crate) fn new(out: &'a mut Vec<u8>, writer: &'a JsonWriter<E>) -> Serializer<'a, E> {
        Serializer {
            out,
            writer,
            level: writer.level,
            ordered: false,
        }
    }

    /// Opens a container: the same depth rule as `to_value`.
    #[inline]
    fn open(self, bracket: u8) -> Result<Compound<'a, E>> {
        if self.level >= self.writer.max_depth {
            return Err(ToValueError::DepthLimit {
                limit: self.writer.max_depth,
            });
        }
        self.out.push(bracket);
        Ok(Compound {
            out: self.out,
            writer: self.writer,
            level: self.level,
            first: true,
            variant_close: false,
        })
    }

    /// An integer's text, formatted at its own width, as serde_json does:
    /// widening a `u32` to format it as a `u64` makes the formatting
    /// slower.
    #[inline]
    fn integer<I: itoa::Integer>(self, v: I) -> Result<()> {
        self.out
            .extend_from_slice(itoa::Buffer::new().format(v).as_bytes());
        Ok(())
    }

    /// `{"variant":` then the caller writes the inner value at level + 1.
    #[inline]
    fn open_variant(self, variant: &str) -> Result<Compound<'a, E>> {
        let mut outer = self.open(b'{')?;
        outer
            .writer
            .style
            .before_item(outer.out, true, outer.level + 1);
        outer.writer.write_str(variant, outer.out);
        outer.writer.style.colon(outer.out);
        outer.first = false;
        Ok(outer)
    }
}

/// An open array, object or enum-variant wrapper.
pub(crate) struct Compound<'a, E: JsonEscapes> {
    out: &'a mut Vec<u8>,
    writer: &'a JsonWriter<E>,
    /// The level the container opened at; its items sit at `level + 1`.
    level: usize,
    first: bool,
    /// Whether `end` must also close a `{"variant": ...}` wrapper.
    variant_close: bool,
}

impl<'a, E: JsonEscapes> Compound<'a, E> {
    #[inline]
    fn child(&mut self) -> Serializer<'_, E> {
        Serializer {
            out: self.out,
            writer: self.writer,
            level: self.level + 1,
            ordered: false,
        }
    }

    #[inline]
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.writer
            .style
            .before_item(self.out, self.first, self.level + 1);
        self.first = false;
        value.serialize(self.child())
    }

    #[inline]
    fn field<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result<()> {
        self.writer
            .style
            .before_item(self.out, self.first, self.level + 1);
        self.first = false;
        self.writer.write_str(key, self.out);
        self.writer.style.colon(self.out);
        value.serialize(self.child())
    }

    #[inline]
    fn close(self, bracket: u8) -> Result<()> {
        self.writer
            .style
            .close(self.out, !self.first, self.level, bracket);
        Ok(())
    }

    /// Opens the inner container of a tuple or struct variant.
    #[inline]
    fn nest(mut self, bracket: u8) -> Result<Compound<'a, E>> {
        let level = self.level + 1;
        if level >= self.writer.max_depth {
            return Err(ToValueError::DepthLimit {
                limit: self.writer.max_depth,
            });
        }
        self.out.push(bracket);
        self.level = level;
        self.first = true;
        self.variant_close = true;
        Ok(self)
    }

    /// Closes the inner container, then the variant wrapper.
    #[inline]
    fn close_variant(self, bracket: u8) -> Result<()> {
        let style = self.writer.style;
        let level = self.level;
        let out = self.out;
        style.close(out, !self.first, level, bracket);
        debug_assert!(self.variant_close);
        style.close(out, true, level - 1, b'}');
        Ok(())
    }
}

/// A map, written with its keys sorted.
///
/// Members stream straight into the output while their keys arrive in
/// ascending order (a `BTreeMap`, or any map that happens to be sorted), so
/// sorted maps cost what structs cost. The first key out of order switches
/// to buffering: the members already written are read back, the rest are
/// written to a scratch buffer, and `end` sorts them all. Reading back is
/// exact because this serializer's output parses to a value that the value
/// writer prints to the same bytes.
pub(crate) struct SortedMap<'a, E: JsonEscapes> {
    out: &'a mut Vec<u8>,
    writer: &'a JsonWriter<E>,
    level: usize,
    mode: MapMode,
    count: usize,
    /// The current key's text: one buffer reused for every key.
    key: String,
    has_key: bool,
}

enum MapMode {
    /// A `codec_core::Map`: its order is the order to keep.
    Ordered,
    /// Keys so far ascending; members from `start` in `out` are final.
    Streaming { start: usize, previous: String },
    /// Members in `scratch`, sorted on `end`.
    Buffered {
        scratch: Vec<u8>,
        members: Vec<(String, Range<usize>)>,
    },
}

impl<E: JsonEscapes> SortedMap<'_, E> {
    /// Moves the members written so far into the scratch buffer.
    #[cold]
    fn start_buffering(&mut self) -> Result<()> {
        let MapMode::Streaming { start, .. } = self.mode else {
            return Ok(());
        };
        let mut written = Vec::with_capacity(self.out.len() - start + 2);
        written.push(b'{');
        written.extend_from_slice(&self.out[start..]);
        written.push(b'}');
        let parsed = crate::from_slice(&written)
            .map_err(|e| ser::Error::custom(format!("cannot read back a written map: {e}")))?;
        let Value::Object(map) = parsed else {
            return Err(ser::Error::custom("cannot read back a written map"));
        };
        self.out.truncate(start);
        let mut scratch = Vec::with_capacity(written.len());
        let mut members = Vec::with_capacity(map.len() + 1);
        for (key, value) in map {
            let from = scratch.len();
            write_view(self.writer, &value, &mut scratch, self.level + 1)
                .map_err(|e| ser::Error::custom(e.to_string()))?;
            members.push((key, from..scratch.len()));
        }
        self.mode = MapMode::Buffered { scratch, members };
        Ok(())
    }
}

impl<E: JsonEscapes> ser::SerializeMap for SortedMap<'_, E> {
    type Ok = ();
    type Error = ToValueError;

    #[inline]
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<()> {
        self.key.clear();
        write_key(key, &mut self.key)?;
        self.has_key = true;
        Ok(())
    }

    #[inline]
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        if !std::mem::take(&mut self.has_key) {
            return Err(ser::Error::custom(
                "serialize_value called before serialize_key",
            ));
        }
        if let MapMode::Streaming { previous, .. } = &self.mode {
            // Equal keys buffer too: the last value wins, in order.
            if self.count > 0 && self.key.as_str() <= previous.as_str() {
                self.start_buffering()?;
            }
        }
        let first = self.count == 0;
        self.count += 1;
        match &mut self.mode {
            MapMode::Ordered | MapMode::Streaming { .. } => {
                self.writer
                    .style
                    .before_item(self.out, first, self.level + 1);
                self.writer.write_str(&self.key, self.out);
                self.writer.style.colon(self.out);
                value.serialize(Serializer {
                    out: self.out,
                    writer: self.writer,
                    level: self.level + 1,
                    ordered: false,
                })?;
                if let MapMode::Streaming { previous, .. } = &mut self.mode {
                    // Swap buffers: no allocation per key.
                    std::mem::swap(previous, &mut self.key);
                }
                Ok(())
            }
            MapMode::Buffered { scratch, members } => {
                let start = scratch.len();
                value.serialize(Serializer {
                    out: scratch,
                    writer: self.writer,
                    level: self.level + 1,
                    ordered: false,
                })?;
                members.push((self.key.clone(), start..scratch.len()));
                Ok(())
            }
        }
    }

    #[inline]
    fn end(self) -> Result<()> {
        if let MapMode::Buffered {
            scratch,
            mut members,
        } = self.mode
        {
            // Stable sort, then the last of equal keys wins, as inserting
            // into `codec_core::Map` does.
            members.sort_by(|a, b| a.0.cmp(&b.0));
            let mut first = true;
            for (i, (key, range)) in members.iter().enumerate() {
                if members.get(i + 1).is_some_and(|next| next.0 == *key) {
                    continue;
                }
                self.writer
                    .style
                    .before_item(self.out, first, self.level + 1);
                first = false;
                self.writer.write_str(key, self.out);
                self.writer.style.colon(self.out);
                self.out.extend_from_slice(&scratch[range.clone()]);
            }
        }
        self.writer
            .style
            .close(self.out, self.count > 0, self.level, b'}');
        Ok(())
    }
}

impl<'a, E: JsonEscapes> ser::Serializer for Serializer<'a, E> {
    type Ok = ();
    type Error = ToValueError;
    type SerializeSeq = Compound<'a, E>;
    type SerializeTuple = Compound<'a, E>;
    type SerializeTupleStruct = Compound<'a, E>;
    type SerializeTupleVariant = Compound<'a, E>;
    type SerializeMap = SortedMap<'a, E>;
    type SerializeStruct = Compound<'a, E>;
    type SerializeStructVariant = Compound<'a, E>;

    #[inline]
    fn serialize_bool(self, v: bool) -> Result<()> {
        self.out
            .extend_from_slice(if v { b"true" } else { b"false" });
        Ok(())
    }
    #[inline]
    fn serialize_i8(self, v: i8) -> Result<()> {
        self.integer(v)
    }
    #[inline]
    fn serialize_i16(self, v: i16) -> Result<()> {
        self.integer(v)
    }
    #[inline]
    fn serialize_i32(self, v: i32) -> Result<()> {
        self.integer(v)
    }
    #[inline]
    fn serialize_i64(self, v: i64) -> Result<()> {
        self.integer(v)
    }
    #[inline]
    fn serialize_i128(self, v: i128) -> Result<()> {
        self.integer(v)
    }
    #[inline]
    fn serialize_u8(self, v: u8) -> Result<()> {
        self.integer(v)
    }
    #[inline]
    fn serialize_u16(self, v: u16) -> Result<()> {
        self.integer(v)
    }
    #[inline]
    fn serialize_u32(self, v: u32) -> Result<()> {
        self.integer(v)
    }
    #[inline]
    fn serialize_u64(self, v: u64) -> Result<()> {
        self.integer(v)
    }
    #[inline]
    fn serialize_u128(self, v: u128) -> Result<()> {
        self.integer(v)
    }
    #[inline]
    fn serialize_f32(self, v: f32) -> Result<()> {
        match Number::from_f32(v) {
            Some(n) => n.write_to(self.out),
            None => self.out.extend_from_slice(b"null"),
        }
        Ok(())
    }
    #[inline]
    fn serialize_f64(self, v: f64) -> Result<()> {
        if v.is_finite() {
            self.out
                .extend_from_slice(zmij::Buffer::new().format_finite(v).as_bytes());
        } else {
            self.out.extend_from_slice(b"null");
        }
        Ok(())
    }
    #[inline]
    fn serialize_char(self, v: char) -> Result<()> {
        self.writer.write_str(v.encode_utf8(&mut [0; 4]), self.out);
        Ok(())
    }
    #[inline]
    fn serialize_str(self, v: &str) -> Result<()> {
        self.writer.write_str(v, self.out);
        Ok(())
    }
    #[inline]
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        // serde_json writes bytes as an array of numbers.
        let mut seq = self.open(b'[')?;
        for b in v {
            seq.element(b)?;
        }
        seq.close(b']')
    }
    #[inline]
    fn serialize_none(self) -> Result<()> {
        self.serialize_unit()
    }
    #[inline]
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }
    #[inline]
    fn serialize_unit(self) -> Result<()> {
        self.out.extend_from_slice(b"null");
        Ok(())
    }
    #[inline]
    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        self.serialize_unit()
    }
    #[inline]
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<()> {
        self.writer.write_str(variant, self.out);
        Ok(())
    }
    #[inline]
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<()> {
        match name {
            NUMBER_TOKEN => {
                // A verbatim number from a `codec_core::Value`: the token
                // wraps its text, which serializes as a JSON string. Write
                // it, then drop the quotes in place (no allocation), after
                // checking the text so a stray token can never write
                // invalid JSON.
                let start = self.out.len();
                let out = &mut *self.out;
                value.serialize(Serializer::new(out, &JsonWriter::compact()))?;
                let written = &out[start..];
                let is_number = written.len() > 2
                    && written.first() == Some(&b'"')
                    && written.last() == Some(&b'"')
                    && std::str::from_utf8(&written[1..written.len() - 1])
                        .ok()
                        .and_then(Number::from_json_text)
                        .is_some();
                if !is_number {
                    out.truncate(start);
                    return Err(ser::Error::custom("invalid number text"));
                }
                out.pop();
                out.remove(start);
                Ok(())
            }
            ORDERED_MAP_TOKEN => value.serialize(Serializer {
                ordered: true,
                ..self
            }),
            _ => value.serialize(self),
        }
    }
    #[inline]
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<()> {
        let mut outer = self.open_variant(variant)?;
        value.serialize(outer.child())?;
        outer.close(b'}')
    }
    #[inline]
    fn serialize_seq(self, _len: Option<usize>) -> Result<Compound<'a, E>> {
        self.open(b'[')
    }
    #[inline]
    fn serialize_tuple(self, len: usize) -> Result<Compound<'a, E>> {
        self.serialize_seq(Some(len))
    }
    #[inline]
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a, E>> {
        self.serialize_seq(Some(len))
    }
    #[inline]
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a, E>> {
        self.open_variant(variant)?.nest(b'[')
    }
    #[inline]
    fn serialize_map(self, _len: Option<usize>) -> Result<SortedMap<'a, E>> {
        let ordered = self.ordered;
        let compound = self.open(b'{')?;
        let mode = if ordered {
            MapMode::Ordered
        } else {
            MapMode::Streaming {
                start: compound.out.len(),
                previous: String::new(),
            }
        };
        Ok(SortedMap {
            out: compound.out,
            writer: compound.writer,
            level: compound.level,
            mode,
            count: 0,
            key: String::new(),
            has_key: false,
        })
    }
    #[inline]
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Compound<'a, E>> {
        self.open(b'{')
    }
    #[inline]
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a, E>> {
        self.open_variant(variant)?.nest(b'{')
    }
}

impl<E: JsonEscapes> ser::SerializeSeq for Compound<'_, E> {
    type Ok = ();
    type Error = ToValueError;

    #[inline]
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    #[inline]
    fn end(self) -> Result<()> {
        self.close(b']')
    }
}

impl<E: JsonEscapes> ser::SerializeTuple for Compound<'_, E> {
    type Ok = ();
    type Error = ToValueError;

    #[inline]
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    #[inline]
    fn end(self) -> Result<()> {
        self.close(b']')
    }
}

impl<E: JsonEscapes> ser::SerializeTupleStruct for Compound<'_, E> {
    type Ok = ();
    type Error = ToValueError;

    #[inline]
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    #[inline]
    fn end(self) -> Result<()> {
        self.close(b']')
    }
}

impl<E: JsonEscapes> ser::SerializeTupleVariant for Compound<'_, E> {
    type Ok = ();
    type Error = ToValueError;

    #[inline]
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    #[inline]
    fn end(self) -> Result<()> {
        self.close_variant(b']')
    }
}

impl<E: JsonEscapes> ser::SerializeStruct for Compound<'_, E> {
    type Ok = ();
    type Error = ToValueError;

    #[inline]
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        self.field(key, value)
    }
    #[inline]
    fn end(self) -> Result<()> {
        self.close(b'}')
    }
}

impl<E: JsonEscapes> ser::SerializeStructVariant for Compound<'_, E> {
    type Ok = ();
    type Error = ToValueError;

    #[inline]
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        self.field(key, value)
    }
    #[inline]
    fn end(self) -> Result<()> {
        self.close_variant(b'}')
    }
}
