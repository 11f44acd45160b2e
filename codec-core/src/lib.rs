//! The value model, the [`Codec`] trait and media types that every response
//! codec of this workspace shares.
//!
//! A handler produces its data once; a codec turns it into a response body;
//! content negotiation (the `negotiate` crate) picks the codec from the
//! request. This crate holds only what a codec, built-in or third-party,
//! needs:
//!
//! - [`Value`], [`Number`] and [`Map`]: structured data with object keys in
//!   insertion order and numbers that keep their exact text;
//!   [`Value::identical`] compares both (`==` ignores key order).
//! - [`to_value`]: any `Serialize` type to a [`Value`], normalized (struct
//!   field order kept, map keys sorted, serde_json's representation of
//!   enums), so every codec sees the same data.
//! - [`from_slice`] and [`from_slice_with`]: JSON bytes to a [`Value`] with
//!   source key order, verbatim numbers, a depth limit and positioned
//!   errors ([`ParseError`]); [`Parser`] for many inputs (the rows of a
//!   stream), whose records share their key lists as in one input.
//! - [`Tape`] ([`TapeNode`], [`TapeElements`], [`TapeMembers`]): what
//!   [`to_value`] would build, recorded flat (one list of events and one
//!   text buffer, no tree) for codecs that walk the data.
//! - [`ValueView`] ([`ViewKind`], [`NumberView`]): a value read in place,
//!   a `&Value` or a tape's node, so one writer serves both.
//! - [`JsonWriter`]: any `Serialize` value, a [`Value`] or a view as JSON
//!   bytes, `serde_json`'s bytes ([`JsonStyle`] compact or pretty), with
//!   extra escapes for formats that embed JSON ([`JsonEscapes`],
//!   [`StandardEscapes`]); [`JsonObject`] writes an object member by
//!   member around other content.
//! - [`Codec`] and [`CodecExt`]: the object-safe trait a codec implements,
//!   and the generic helpers handlers call; [`FastPath`]: the shortcut a
//!   codec may declare so those helpers keep the data's type.
//! - [`RowWriter`]: a stream of rows written as they come, through a
//!   codec's [`RowEncoder`] ([`Codec::row_encoder`]), or collected within
//!   a bound ([`DEFAULT_COLLECT_LIMIT`], [`footprint`]) for a codec
//!   without one; [`RowsShape`] is the document the rows make.
//! - [`MediaType`]: a parsed `type/subtype; name=value`.
//! - [`TextLimit`]: a budget in chars, bytes or a tokenizer's tokens
//!   (exact), with the hint its note gives; [`Truncation`], [`Omission`]
//!   and [`Tally`]: a codec's text cut down to it ([`Codec::truncate`])
//!   and what was left out, with the plain cut ([`truncate_plain`]) and
//!   the frame codec-specific cuts build on ([`truncate_with`], [`Cut`]).
//! - [`TokenCounter`]: what a text costs a model in its tokenizer's
//!   tokens; `O200k` (feature `o200k`) counts `o200k_base` exactly.
//! - `testkit` (feature `testkit`): checks any codec through every entry
//!   point.
//!
//! # Design
//!
//! Numbers are the hard part of a lossless model: a proxy that re-renders a
//! JSON body must not turn `1.10` into `1.1` or `12345678901234567890` into
//! `1.2345678901234567e19`. [`Number`] therefore keeps source text, and
//! numbers that come from Rust primitives are written by the same
//! algorithms as `serde_json`, so `codec-json` output equals
//! `serde_json::to_vec` byte for byte whenever the maps are ordered.
//!
//! JSON is the one format every codec meets (codec-json writes it, codec-md
//! embeds it in its dense profile, a negotiated handler's data is JSON
//! before anything else), so its reader and its one writer live here; the
//! `codec-json` crate is the [`Codec`] over the writer. This crate is not a
//! general JSON library: no `Deserialize`, no streaming reader.
//!
//! Static dispatch while the type is known, erasure after: a handler's
//! data has a type the generic helpers know and a codec picked at run
//! time does not. Through [`Codec::encode_serialize`] it crosses to the
//! codec erased (a virtual call per field) and becomes a [`Value`] tree; a
//! codec that declares a [`FastPath`] gets the helpers' work instead, done
//! for the data's type: the JSON writer itself
//! ([`FastPath::Json`], codec-json: the same work as `serde_json::to_vec`),
//! or one [`Tape`] ([`FastPath::Tape`], codec-md and codec-mcp), walked
//! by the same generic writer as a [`Value`]. Third-party codecs need
//! neither: the default is the erased path.
//!
//! # Example
//!
//! ```
//! use codec_core::{Codec, CodecExt, EncodeError, MediaType, Value};
//!
//! /// A third-party codec: one line per top-level array element.
//! struct Lines(MediaType);
//!
//! impl Codec for Lines {
//!     fn format(&self) -> &str { "lines" }
//!     fn media_type(&self) -> &MediaType { &self.0 }
//!     fn encode_value(&self, value: &Value, out: &mut Vec<u8>) -> Result<(), EncodeError> {
//!         for item in value.as_array().unwrap_or_default() {
//!             out.extend_from_slice(item.as_str().unwrap_or("?").as_bytes());
//!             out.push(b'\n');
//!         }
//!         Ok(())
//!     }
//! }
//!
//! let codec = Lines(MediaType::from_static("text/plain; charset=utf-8"));
//! let body = codec.to_vec(&["a", "b"]).unwrap();
//! assert_eq!(body, b"a\nb\n");
//! ```
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod codec;
mod json;
mod map;
mod media_type;
mod number;
mod parse;
mod rows;
mod ser;
mod tape;
#[cfg(feature = "testkit")]
#[cfg_attr(docsrs, doc(cfg(feature = "testkit")))]
pub mod testkit;
mod tokens;
mod truncate;
mod value;
mod view;

pub use codec::{Codec, CodecExt, EncodeError, FastPath, is_valid_format_name};
pub use json::{JsonEscapes, JsonObject, JsonStyle, JsonWriter, StandardEscapes};
pub use map::{IntoIter as MapIntoIter, Iter as MapIter, Map};
pub use media_type::{MediaType, MediaTypeError};
pub use number::{InvalidNumber, Number};
pub use parse::{
    DEFAULT_MAX_DEPTH, DuplicateKeys, ParseError, ParseErrorKind, ParseOptions, Parser, from_slice,
    from_slice_with, from_str,
};
pub use rows::{DEFAULT_COLLECT_LIMIT, RowEncoder, RowWriter, RowsShape, footprint};
#[doc(hidden)]
pub use ser::{NUMBER_TOKEN, ORDERED_MAP_TOKEN};
pub use ser::{ToValueError, key_to_string, to_value, write_key};
pub use tape::{Tape, TapeElements, TapeMembers, TapeNode};
#[cfg(feature = "o200k")]
#[cfg_attr(docsrs, doc(cfg(feature = "o200k")))]
pub use tokens::O200k;
pub use tokens::TokenCounter;
pub use truncate::{Cut, Omission, Tally, TextLimit, Truncation, truncate_plain, truncate_with};
pub use value::Value;
pub use view::{NumberView, ValueView, ViewKind};
