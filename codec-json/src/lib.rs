//! The JSON response codec: exact, deterministic `application/json`.
//!
//! - [`JsonCodec`]: the [`Codec`] for `application/json`, format name
//!   `json`, compact by default or pretty (two-space indent).
//! - [`JsonCodecBuilder`]: its options.
//!
//! # Design
//!
//! JSON is the wire form every other codec is checked against, so it must
//! be exact. A parsed [`Value`] is written back with its source key order
//! and its numbers' exact text (`1.10` stays `1.10`). A native Rust value
//! is written byte for byte as `serde_json::to_vec` writes it, with one
//! deliberate difference: map keys are sorted, so a `HashMap` gives the
//! same bytes on every run (`serde_json` writes a `HashMap` in its random
//! iteration order).
//!
//! The writer is codec-core's [`JsonWriter`], which codec-md's dense
//! profile shares: this crate is the [`Codec`] over it. Native values
//! stream straight into the output buffer without building a [`Value`];
//! maps stream too while their keys arrive sorted, and are buffered and
//! sorted otherwise. The codec declares
//! [`FastPath::Json`](codec_core::FastPath): the generic helpers
//! (`codec.to_vec(&data)`, negotiation's `Negotiated`) call the writer for
//! the data's type themselves, so even through `dyn Codec` there is no
//! `erased_serde` dynamic dispatch, and encoding costs about what
//! `serde_json::to_vec` does (`BENCHMARKS.md`).
//!
//! # Example
//!
//! ```
//! use codec_json::JsonCodec;
//!
//! #[derive(serde::Serialize)]
//! struct Repo { name: &'static str, stars: u32 }
//!
//! let json = JsonCodec::new();
//! let body = json.to_vec(&Repo { name: "serde", stars: 9000 }).unwrap();
//! assert_eq!(body, br#"{"name":"serde","stars":9000}"#);
//!
//! // A parsed value keeps its key order and number text.
//! let value = codec_core::from_slice(br#"{"z": 1.10, "a": 1e400}"#).unwrap();
//! assert_eq!(json.value_to_vec(&value).unwrap(), br#"{"z":1.10,"a":1e400}"#);
//! ```
//!
//! [`Codec`]: codec_core::Codec
//! [`Value`]: codec_core::Value
//! [`JsonWriter`]: codec_core::json::JsonWriter
#![deny(missing_docs)]

// The README's Rust blocks (the crate's registry page), compiled and run
// as doctests of this crate.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

mod codec;

pub use codec::{JsonCodec, JsonCodecBuilder};
