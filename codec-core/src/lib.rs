//! The value model, the [`Codec`] trait and media types that every response
//! codec of this workspace shares.
//!
//! A handler produces its data once; a codec turns it into a response body;
//! content negotiation (the `negotiate` crate) picks the codec from the
//! request. This crate holds only what a codec, built-in or third-party,
//! needs:
//!
//! At the root, what most codec authors and services name:
//!
//! - [`Value`], [`Number`] and [`Map`]: structured data with object keys in
//!   insertion order and numbers that keep their exact text;
//!   [`Value::identical`] compares both (`==` ignores key order).
//! - [`to_value`]: any `Serialize` type to a [`Value`], normalized (struct
//!   field order kept, map keys sorted, serde_json's representation of
//!   enums), so every codec sees the same data.
//! - [`from_slice`] and [`from_str`]: JSON to a [`Value`], with positioned
//!   errors ([`ParseError`]).
//! - [`Codec`] and [`CodecExt`]: the object-safe trait a codec implements,
//!   and the generic helpers handlers call; [`FastPath`]: the shortcut a
//!   codec may declare so those helpers keep the data's type;
//!   [`EncodeError`]: why a value could not be encoded.
//! - [`MediaType`]: a parsed `type/subtype; name=value`.
//! - [`TextLimit`] and [`Truncation`]: a budget in chars, bytes or a
//!   tokenizer's tokens, and a codec's text cut down to it;
//!   [`TokenCounter`]: what a text costs a model.
//! - [`ValueView`]: a value read in place, a `&Value` or a tape's node,
//!   so one writer serves both.
//!
//! The rest, by subject:
//!
//! - [`value`]: the data model's parts ([`value::InvalidNumber`], the map's
//!   iterators, [`value::key_to_string`], [`value::DEFAULT_MAX_DEPTH`]).
//! - [`json`]: the JSON reader ([`json::from_slice_with`],
//!   [`json::ParseOptions`], [`json::Parser`] for many inputs) and the one
//!   JSON writer ([`json::JsonWriter`]: `serde_json`'s bytes, compact or
//!   pretty, with extra escapes for formats that embed JSON;
//!   [`json::JsonObject`] writes an object member by member).
//! - [`view`]: [`ValueView`]'s kinds ([`view::ViewKind`],
//!   [`view::NumberView`]).
//! - [`tape`]: what [`to_value`] would build, recorded flat (one list of
//!   events and one text buffer, no tree) for codecs that walk the data
//!   ([`tape::Tape`], [`tape::TapeNode`]).
//! - [`rows`]: a stream of rows written as they come, through a codec's
//!   [`rows::RowEncoder`], or collected within a bound
//!   ([`rows::RowWriter`]); [`rows::RowsShape`] is the document they make.
//! - [`truncate`]: budgets and cuts ([`truncate::Omission`],
//!   [`truncate::Tally`], the plain cut [`truncate::truncate_plain`] and the
//!   frame codec-specific cuts build on, [`truncate::truncate_with`], also
//!   for a writer that keeps only the head of its text,
//!   [`truncate::truncate_head_with`]).
//! - [`tokens`]: [`TokenCounter`] and, with feature `o200k`, `O200k`, the
//!   exact `o200k_base` count.
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
//! or one [`Tape`](tape::Tape) ([`FastPath::Tape`], codec-md and codec-mcp), walked
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

// The README's Rust blocks (the crate's registry page), compiled and run
// as doctests of this crate.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

mod codec;
mod error;
pub mod json;
mod media_type;
pub mod rows;
pub mod tape;
#[cfg(feature = "testkit")]
#[cfg_attr(docsrs, doc(cfg(feature = "testkit")))]
pub mod testkit;
pub mod tokens;
pub mod truncate;
pub mod value;
pub mod view;

pub use codec::{Codec, CodecExt, FastPath, is_valid_format_name};
pub use error::EncodeError;
pub use json::{ParseError, from_slice, from_str};
pub use media_type::{MediaType, MediaTypeError};
pub use tokens::TokenCounter;
pub use truncate::{TextLimit, Truncation};
pub use value::{Map, Number, ToValueError, Value, to_value};
pub use view::ValueView;
