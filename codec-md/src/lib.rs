//! The markdown response codec: any value as GitHub-flavored markdown that
//! a model reads as tables and key lists: 0.62x to 0.76x the o200k tokens
//! of compact JSON for arrays of flat objects in the default profile (more
//! than JSON for nested data, 1.27x to 1.55x), and 0.70x over the eight
//! benchmark datasets in the dense profile, within a JSON fence's 5
//! tokens of compact JSON on each (`BENCHMARKS.md`).
//!
//! - [`MarkdownCodec`] (built by [`MarkdownCodecBuilder`]): the
//!   [`Codec`](codec_core::Codec) for `text/markdown; charset=utf-8;
//!   variant=GFM`, format name `md`; [`MarkdownCodec::parse`] reads back
//!   what it writes.
//! - [`render`]: a value to a markdown `String`.
//! - [`Profile`]: the layout rules, each with its reading: `SPEC.md`'s
//!   (the default, read by [`parse`]), the lossless one (the fewest extra
//!   markers, read back exactly by [`parse_lossless`]) and the token-dense
//!   one (read by [`parse_dense`]).
//! - [`parse`]: markdown back to a value (the default rendering, and GFM
//!   tables and key lists written by others); [`normalize`]: what the
//!   default rendering carries, so `parse(render(v)) == normalize(v)`.
//! - [`parse_table`]: a rendered table back to its columns and exact cells
//!   ([`Table`]).
//! - [`ParseError`]: why any reader rejected its input ([`ParseErrorKind`]),
//!   at which line and column.
//! - [`truncate`]: markdown cut down to a limit (chars, bytes or exact
//!   tokens) only where a table row or an item ends, with a note that
//!   counts what was left out and says how to get it; the codec's
//!   `Codec::truncate`, and its budget ([`MarkdownCodecBuilder::budget`]).
//! - Rows as they come: the codec's `Codec::row_encoder` writes a stream
//!   of rows a row at a time by `SPEC.md`'s *Streaming* rule (one table
//!   while the rows fit its columns, the buffered table byte for byte when
//!   they all do), and [`parse`] reads it back.
//!
//! The layout is the stable schema of `SPEC.md`: an array of flat objects
//! is a table (keys written once), an object is a `- **key**: value` list
//! with nested containers in headed sections, code and multi-line strings
//! are fenced.
//!
//! # Design
//!
//! A value must never change the document's structure: no string, however
//! hostile, may end a row, add a column, key, heading, list item, link,
//! HTML or emphasis. Escaping is lazy, following a scheme verified against
//! five GFM parsers (`ESCAPING.md`): a character is escaped only when
//! something else in the same cell or value could pair with it, so
//! numbers, words, paths, URLs, dates and emails are written byte for byte
//! and cost no extra tokens. Tables are unpadded (`|a|b|`): padding costs
//! 9-20% more tokens on the benchmark datasets. The writer is one walk over
//! the value with a layout per profile, generic over the layout; it writes
//! straight into the caller's buffer, with no string per cell and no second
//! copy of the document.
//!
//! The reader inverts the writer, one reading per layout: one pass over
//! the lines, linear in the input, gives the blocks of an outline, and one
//! reader nests them; the same reader nests the layout of a value, which
//! is [`normalize`]. It reads the schema and the tables and key lists
//! people and tools write; it is not a general markdown parser (no block
//! quotes, nested lists, HTML, or inline markup).
//!
//! # Example
//!
//! ```
//! use codec_core::{from_slice, CodecExt};
//! use codec_md::MarkdownCodec;
//!
//! let value = from_slice(br#"{
//!     "repo": "codecs",
//!     "stars": 1024,
//!     "topics": ["rust", "llm"],
//!     "contributors": [
//!         {"login": "ada", "commits": 76},
//!         {"login": "bob|by", "commits": 3}
//!     ]
//! }"#).unwrap();
//! let markdown = MarkdownCodec::new().to_vec(&value).unwrap();
//! assert_eq!(
//!     String::from_utf8(markdown).unwrap(),
//!     concat!(
//!         "- **repo**: codecs\n",
//!         "- **stars**: 1024\n",
//!         "- **topics**: rust, llm\n",
//!         "\n",
//!         "# contributors\n",
//!         "\n",
//!         "|login|commits|\n",
//!         "|---|---|\n",
//!         "|ada|76|\n",
//!         "|bob\\|by|3|\n",
//!     )
//! );
//! ```
#![deny(missing_docs)]

// The README's Rust blocks (the crate's registry page), compiled and run
// as doctests of this crate.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

mod codec;
mod error;
mod profile;
mod read;
mod schema;
mod truncate;
mod write;

pub use codec::{MarkdownCodec, MarkdownCodecBuilder, render};
pub use error::{ParseError, ParseErrorKind};
pub use profile::Profile;
pub use read::{
    DEFAULT_MAX_SIZE_FACTOR, ParseOptions, Table, normalize, parse, parse_dense, parse_lossless,
    parse_table,
};
pub use truncate::truncate;
