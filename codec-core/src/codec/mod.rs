//! The [`Codec`] trait: one way of writing a [`Value`] as a response body.

use std::fmt;
use std::io;
use std::sync::Arc;

use serde::Serialize;

mod rows;

pub use rows::{RowEncoder, RowsShape};

use crate::error::EncodeError;
use crate::json::JsonWriter;
use crate::media_type::MediaType;
use crate::tape::Tape;
use crate::truncate::{TextLimit, Truncation, truncate_plain};
use crate::value::{Value, to_value};

/// A response codec: turns a handler's data into the bytes of one media
/// type.
///
/// Implement [`Codec::encode_value`], [`Codec::media_type`] and
/// [`Codec::format`]; every other entry point has a default built on them.
/// The trait is object safe, so negotiation can hold codecs as
/// `Arc<dyn Codec>` and pick one at run time; handlers call the generic
/// helpers of [`CodecExt`] (`codec.to_vec(&data)`), which work on
/// `dyn Codec` too.
///
/// # Fast paths
///
/// A handler's data has a type the generic helpers know and the codec,
/// picked at run time, does not. By default the data crosses to the codec
/// type-erased ([`Codec::encode_serialize`]: erased-serde, a virtual call
/// per field), and is normalized into a [`Value`] tree. A codec may
/// declare a [`FastPath`] instead, so the helpers do the type's work with
/// static dispatch and hand the codec its result in one call: the JSON
/// codec's bytes written straight from the type, or a [`Tape`] of the
/// value. Every fast path must give the bytes of the default path; the
/// `testkit` checks it.
///
/// A codec must be deterministic (the same input gives the same bytes) and
/// must never panic: values it cannot write are an [`EncodeError`]. The
/// `testkit` module (feature `testkit`) checks both.
pub trait Codec: Send + Sync {
    /// The short name used in `?format=` overrides and on the command line:
    /// `json`, `md`, `mcp`. Lower case, ASCII letters, digits and `-` (see
    /// [`is_valid_format_name`]).
    fn format(&self) -> &str;

    /// The media type this codec writes, with its parameters (for example
    /// `text/markdown; charset=utf-8; variant=GFM`).
    fn media_type(&self) -> &MediaType;

    /// Appends the encoding of `value` to `out`.
    ///
    /// On error, `out` may hold a partial encoding after its original
    /// length; callers that reuse the buffer truncate it.
    fn encode_value(&self, value: &Value, out: &mut Vec<u8>) -> Result<(), EncodeError>;

    /// Appends the encoding of any `Serialize` value to `out`.
    ///
    /// The default takes the codec's [`FastPath`] (dynamically dispatched
    /// here: the value's type is erased) and without one normalizes
    /// through [`to_value`] (so every codec sees sorted map keys and
    /// serde_json's representation of enums). Override it to stream
    /// without building a [`Value`]; an override must give the same bytes
    /// as [`Codec::encode_value`] of [`to_value`]'s value.
    fn encode_serialize(
        &self,
        value: &dyn erased_serde::Serialize,
        out: &mut Vec<u8>,
    ) -> Result<(), EncodeError> {
        encode_typed(self, value, out)
    }

    /// The shortcut the generic helpers of [`CodecExt`] may take for data
    /// of a known type: [`FastPath::None`] unless overridden.
    fn fast_path(&self) -> FastPath {
        FastPath::None
    }

    /// Appends the encoding of the value `tape` recorded to `out`: what
    /// [`Codec::encode_value`] writes for [`Tape::to_value`].
    ///
    /// The default is exactly that (it builds the [`Value`]); a codec that
    /// declares [`FastPath::Tape`] overrides it to walk the tape
    /// ([`Tape::root`] is a [`ValueView`](crate::ValueView)).
    fn encode_tape(&self, tape: &Tape, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        self.encode_value(&tape.to_value(), out)
    }

    /// Writes the encoding of `value` to `writer`.
    ///
    /// The default encodes into a buffer and writes it once; override it
    /// where the format can stream.
    fn write_value(&self, value: &Value, writer: &mut dyn io::Write) -> Result<(), EncodeError> {
        let mut buf = Vec::new();
        self.encode_value(value, &mut buf)?;
        writer.write_all(&buf).map_err(EncodeError::Io)
    }

    /// Cuts `text`, which this codec wrote, down to `limit`, and says what
    /// was left out.
    ///
    /// Callers that must bound a text, such as the MCP codec's text block,
    /// ask the codec that wrote it, so the cut can respect its syntax. The
    /// default is the plain cut of [`truncate_plain`]: at a line end near
    /// the limit, else at a word end, else at the limit, then a blank line
    /// and a note saying how much was kept. It knows nothing of the
    /// format: a cut JSON document is no longer JSON. Override it where a
    /// plain cut reads wrong (the markdown codec cuts only where a table
    /// row or an item ends, and counts what it left out), building on
    /// [`truncate_with`](crate::truncate::truncate_with), which keeps the note, its
    /// hint and the final measure the same for every codec.
    ///
    /// The limit may be in chars, bytes or tokens ([`TextLimit`]). An
    /// override must return a text that fits unchanged, keep a prefix of
    /// the text (plus only what closes it), fit the limit, note included,
    /// whenever the limit leaves room for the note, and be deterministic;
    /// the `testkit` checks all of that.
    fn truncate(&self, text: String, limit: &TextLimit) -> Truncation {
        truncate_plain(text, limit)
    }

    /// A writer of rows as they come, for a stream of rows making
    /// `shape`'s document; `None` (the default) when this codec needs the
    /// whole document first.
    ///
    /// Callers go through [`RowWriter`](crate::rows::RowWriter), which collects
    /// the rows of a codec without one and encodes them whole at the end,
    /// within a bound ([`DEFAULT_COLLECT_LIMIT`](crate::rows::DEFAULT_COLLECT_LIMIT)):
    /// so every codec, third-party ones included, answers a stream, and
    /// only codecs with an encoder answer it in memory that does not grow
    /// with it. Override it where the format can write a row knowing only
    /// the rows before it (JSON's array; a markdown table, whose header
    /// needs only its columns); [`RowEncoder`] gives the contract, and
    /// the `testkit` checks it.
    fn row_encoder(&self, shape: &RowsShape) -> Option<Box<dyn RowEncoder>> {
        let _ = shape;
        None
    }
}

/// Whether `name` is a valid [`Codec::format`] name: non-empty, lower-case
/// ASCII letters, digits and `-`. Such a name is safe in a query string, a
/// file extension and a command line without escaping.
///
/// ```
/// assert!(codec_core::is_valid_format_name("md"));
/// assert!(codec_core::is_valid_format_name("x-csv2"));
/// assert!(!codec_core::is_valid_format_name("MD"));
/// assert!(!codec_core::is_valid_format_name(""));
/// assert!(!codec_core::is_valid_format_name("a.b"));
/// ```
pub fn is_valid_format_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// A shortcut a codec declares ([`Codec::fast_path`]) so that the generic
/// helpers of [`CodecExt`] encode data of a known type with static
/// dispatch, and erase the type after.
///
/// A closed set: each one is work the helpers do with the value's type
/// known, then hand to the codec. Every one must give the bytes of the
/// default path, [`Codec::encode_value`] of [`to_value`]'s value (the
/// `testkit` checks it).
///
/// ```
/// use codec_core::{Codec, CodecExt, EncodeError, FastPath, MediaType, Value, ValueView, tape::Tape};
///
/// /// Counts a value's nodes, from a tape when it can.
/// struct Count(MediaType);
///
/// fn count<'v, V: ValueView<'v>>(view: V) -> usize {
///     use codec_core::view::ViewKind::*;
///     1 + match view.kind() {
///         Array(items) => items.map(count).sum(),
///         Object(members) => members.map(|(_, v)| count(v)).sum(),
///         _ => 0,
///     }
/// }
///
/// impl Codec for Count {
///     fn format(&self) -> &str { "count" }
///     fn media_type(&self) -> &MediaType { &self.0 }
///     fn encode_value(&self, value: &Value, out: &mut Vec<u8>) -> Result<(), EncodeError> {
///         out.extend_from_slice(count(value).to_string().as_bytes());
///         Ok(())
///     }
///     fn fast_path(&self) -> FastPath { FastPath::Tape }
///     fn encode_tape(&self, tape: &Tape, out: &mut Vec<u8>) -> Result<(), EncodeError> {
///         out.extend_from_slice(count(tape.root()).to_string().as_bytes());
///         Ok(())
///     }
/// }
///
/// let codec = Count(MediaType::from_static("text/plain"));
/// assert_eq!(codec.to_vec(&[(1, "a")]).unwrap(), b"4");
/// ```
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub enum FastPath {
    /// No shortcut: the helpers call [`Codec::encode_serialize`], which
    /// the codec may override to stream the erased value.
    None,
    /// The codec's encoding of any `Serialize` value is exactly this
    /// writer's [`write`](JsonWriter::write): the helpers call it
    /// themselves, monomorphized for the value's type (the same work as
    /// `serde_json::to_vec`). The JSON codec declares it.
    Json(JsonWriter),
    /// The codec walks a [`Tape`]: the helpers record the value on one
    /// with static dispatch, once, and call [`Codec::encode_tape`]. For
    /// codecs that need the whole value (look-ahead, several passes),
    /// which would otherwise build a [`Value`] tree.
    Tape,
}

/// The default of [`Codec::encode_serialize`], and [`CodecExt::encode`]
/// with a fast path: `codec`'s fast path for `value`, else `to_value`.
fn encode_typed<C: Codec + ?Sized, T: Serialize + ?Sized>(
    codec: &C,
    value: &T,
    out: &mut Vec<u8>,
) -> Result<(), EncodeError> {
    match codec.fast_path() {
        FastPath::Json(writer) => writer.write(value, out),
        FastPath::Tape => match Tape::try_build(value) {
            Some(tape) => codec.encode_tape(&tape?, out),
            // More than a tape holds: the tree has no such limit.
            None => codec.encode_value(&to_value(value)?, out),
        },
        FastPath::None => codec.encode_value(&to_value(value)?, out),
    }
}

/// Generic conveniences on every [`Codec`], `dyn Codec` included.
pub trait CodecExt: Codec {
    /// Appends the encoding of `value` to `out`: through the codec's
    /// [`FastPath`], with `T` known, when it declares one, else through
    /// [`Codec::encode_serialize`].
    #[inline]
    fn encode<T: Serialize + ?Sized>(
        &self,
        value: &T,
        out: &mut Vec<u8>,
    ) -> Result<(), EncodeError> {
        match self.fast_path() {
            FastPath::None => self.encode_serialize(&value, out),
            _ => encode_typed(self, value, out),
        }
    }

    /// The encoding of `value` as a new buffer.
    fn to_vec<T: Serialize + ?Sized>(&self, value: &T) -> Result<Vec<u8>, EncodeError> {
        let mut out = Vec::new();
        self.encode(value, &mut out)?;
        Ok(out)
    }

    /// Writes the encoding of `value` to `writer`.
    fn to_writer<T: Serialize + ?Sized, W: io::Write>(
        &self,
        value: &T,
        mut writer: W,
    ) -> Result<(), EncodeError> {
        let out = self.to_vec(value)?;
        writer.write_all(&out).map_err(EncodeError::Io)
    }
}

impl<C: Codec + ?Sized> CodecExt for C {}

impl fmt::Debug for dyn Codec + '_ {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Codec")
            .field("format", &self.format())
            .field("media_type", &self.media_type().as_str())
            .finish()
    }
}

macro_rules! forward_codec {
    ($($ptr:ty),*) => {$(
        impl<C: Codec + ?Sized> Codec for $ptr {
            fn format(&self) -> &str {
                (**self).format()
            }
            fn media_type(&self) -> &MediaType {
                (**self).media_type()
            }
            fn encode_value(&self, value: &Value, out: &mut Vec<u8>) -> Result<(), EncodeError> {
                (**self).encode_value(value, out)
            }
            fn encode_serialize(
                &self,
                value: &dyn erased_serde::Serialize,
                out: &mut Vec<u8>,
            ) -> Result<(), EncodeError> {
                (**self).encode_serialize(value, out)
            }
            fn write_value(
                &self,
                value: &Value,
                writer: &mut dyn io::Write,
            ) -> Result<(), EncodeError> {
                (**self).write_value(value, writer)
            }
            fn truncate(&self, text: String, limit: &TextLimit) -> Truncation {
                (**self).truncate(text, limit)
            }
            fn fast_path(&self) -> FastPath {
                (**self).fast_path()
            }
            fn encode_tape(&self, tape: &Tape, out: &mut Vec<u8>) -> Result<(), EncodeError> {
                (**self).encode_tape(tape, out)
            }
            fn row_encoder(&self, shape: &RowsShape) -> Option<Box<dyn RowEncoder>> {
                (**self).row_encoder(shape)
            }
        }
    )*};
}

forward_codec!(&C, Box<C>, Arc<C>);
